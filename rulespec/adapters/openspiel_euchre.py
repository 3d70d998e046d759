"""OpenSpiel's ``euchre`` as a protocol implementation of the shipped euchre spec.

One deal of four players (the spec's ``deals=1``): the dealer picked by chance, 20 cards dealt
one at a time from the dealer and the up-card turned, two rounds of bidding (pass, or a suit:
in the first round the up-card's suit orders it up, in the second another suit is named), the
dealer's discard after an order-up, the declarer's choice to go alone, then, with
``allow_lone_defender``, each defender's, and the play. Its returns are zero-sum: the makers'
score to the makers, its negative to the defenders (euchre.cc, ``ComputeScore``); the spec
scores the side that scores and gives the other nothing, so a seat's score is its return when
positive, else 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.adapters.base import FRENCH_PACK, NotOffered, permutation_of, winners_of
from rulespec.adapters.openspiel import OpenSpielAdapter, one_card

__all__ = ["EUCHRE_PACK", "Euchre", "euchre_action", "euchre_card"]

#: the spec's 24 cards in its canonical order (the shuffle's template): nine to ace by suit
EUCHRE_PACK: tuple[str, ...] = tuple(c for c in FRENCH_PACK if c[0] in "9TJQKA")
#: euchre numbers a card rank by rank (nine first), clubs, diamonds, hearts, spades in a rank
_RANKS = "9TJQKA"
_SUITS = "CDHS"
_PASS = 24
_FIRST_SUIT = 25  # the action naming clubs; diamonds, hearts, spades follow
_ALONE = 29
_WITH_PARTNER = 30


def euchre_card(action: int) -> str:
    """The card code of a euchre card action."""
    return _RANKS[action // 4] + _SUITS[action % 4]


def euchre_action(code: str) -> int:
    """The euchre action of a card code; NotOffered for a card outside the 24."""
    if code[0] not in _RANKS:
        raise NotOffered(f"{code} is not among euchre's 24 cards")
    return _RANKS.index(code[0]) * 4 + _SUITS.index(code[1])


class Euchre(OpenSpielAdapter):
    """OpenSpiel's ``euchre``: its parameters ``stick_the_dealer`` and
    ``allow_lone_defender`` are the spec's options of those names (``lone_defender=always``
    for the second); it plays one deal, the dealer keeping the up-card, nobody forced to go
    alone, the first player to the dealer's left leading, and, as its header says,
    "super-Euchres" (makers who take no trick lose 4)."""

    spec = "euchre"
    engine = "euchre"
    fixed = {"deals": 1, "dealer_discard": "not_turned", "partner_orders_alone": False,
             "opening_lead": "dealer_left", "super_euchre": True}
    usual = {"stick_the_dealer": True, "lone_defender": "never"}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        lone = options.get("lone_defender", "never")
        if lone == "against_lone":
            raise NotOffered("euchre lets a defender play alone against any maker "
                             "(allow_lone_defender), or never")
        return {"stick_the_dealer": bool(options.get("stick_the_dealer", False)),
                "allow_lone_defender": lone == "always"}

    def phase(self) -> str:
        """The game's phase: DEALER_SELECTION, DEAL, BIDDING, DISCARD, GO_ALONE, PLAY."""
        return str(self.state.current_phase().name)

    def events(self) -> list[dict[str, object]]:
        st, phase = self.state, self.phase()
        if phase == "DEALER_SELECTION":
            return [{"chance": "pick", "value": a} for a in self.outcomes()]
        if phase == "DEAL":
            return [{"chance": "shuffle", "cards": list(EUCHRE_PACK)}]
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if phase == "BIDDING":
                if a == _PASS:
                    out.append(self.seat_event("pass"))
                elif st.num_passes() < 4:
                    out.append(self.seat_event("order_up"))
                else:
                    out.append(self.seat_event("name", suit=_SUITS[a - _FIRST_SUIT]))
            elif phase == "GO_ALONE":
                maker = st.declarer_go_alone() is None
                name = ("alone" if a == _ALONE else "with_partner") if maker \
                    else ("defend_alone" if a == _ALONE else "defend_with_partner")
                out.append(self.seat_event(name))
            else:
                out.append(self.seat_event("discard" if phase == "DISCARD" else "play",
                                           card=euchre_card(a)))
        return out

    def actions(self, event: Mapping[str, object]) -> list[int]:
        phase = self.phase()
        chance = event.get("chance")
        if chance == "pick" and phase == "DEALER_SELECTION":
            value = event.get("value")
            if type(value) is not int or not 0 <= value <= 3:
                raise NotOffered("the dealer is a seat, 0 to 3")
            return [value]
        if chance == "shuffle" and phase == "DEAL":
            return self.deal(permutation_of(event, EUCHRE_PACK))
        if chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        action = event.get("action")
        if action not in self.due(phase):
            raise NotOffered(f"no {action!r} is due")
        if action == "pass":
            return [_PASS]
        if action == "order_up":
            return [_FIRST_SUIT + int(self.state.upcard()) % 4]  # the up-card's suit
        if action == "name":
            suit = event.get("suit")
            if not isinstance(suit, str) or suit not in _SUITS:
                raise NotOffered("'suit' is C, D, H or S")
            return [_FIRST_SUIT + _SUITS.index(suit)]
        if action in ("alone", "defend_alone"):
            return [_ALONE]
        if action in ("with_partner", "defend_with_partner"):
            return [_WITH_PARTNER]
        return [euchre_action(one_card(event))]

    def due(self, phase: str) -> tuple[str, ...]:
        """The event names the game's phase asks for: its bidding action of a suit orders the
        up-card up in the first round and names a suit in the second; its go-alone actions
        are the declarer's until the declarer has chosen, then the defenders'."""
        st = self.state
        if phase == "BIDDING":
            return ("pass", "order_up") if st.num_passes() < 4 else ("pass", "name")
        if phase == "GO_ALONE":
            return ("alone", "with_partner") if st.declarer_go_alone() is None \
                else ("defend_alone", "defend_with_partner")
        return {"DISCARD": ("discard",), "PLAY": ("play",)}.get(phase, ())

    def deal(self, order: list[str]) -> list[int]:
        """The 21 deal actions of a shuffle: the spec deals from the top of ``order`` two
        cards to each player from the dealer's left, then three, and turns up the next;
        euchre gives its k-th dealt card to player (dealer + k) % 4."""
        dealer = int(self.state.dealer())
        left = [(dealer + 1 + i) % 4 for i in range(4)]
        hands: dict[int, list[str]] = {q: [] for q in left}
        it = iter(order)
        for n in (2, 3):
            for q in left:
                hands[q] += [next(it) for _ in range(n)]
        up = next(it)
        return [euchre_action(hands[(dealer + k) % 4][k // 4]) for k in range(20)] \
            + [euchre_action(up)]

    def answer(self) -> dict[str, object]:
        st = self.state
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * 4, "teams": [0, 1, 0, 1],
                    "team_totals": [0, 0], "team_winners": [], "winners": []}
        scores = [max(0, round(r)) for r in st.returns()]
        thrown = st.trump_suit() < 0
        deal: dict[str, object] = {
            "scores": scores, "team_scores": scores[:2],
            "sitting_out": [] if thrown else [q for q, on in enumerate(st.active_players())
                                              if not on]}
        if thrown:
            deal["thrown_in"] = True
        best = winners_of(scores[:2], lowest=False)
        return {"complete": True, "deals": [deal], "totals": scores, "teams": [0, 1, 0, 1],
                "team_totals": scores[:2], "team_winners": best,
                "winners": [q for q in range(4) if q % 2 in best]}
