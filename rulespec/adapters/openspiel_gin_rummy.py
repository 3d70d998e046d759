"""OpenSpiel's ``gin_rummy`` as a protocol implementation of the shipped gin_rummy spec.

OpenSpiel plays one hand "closely following" the Gin Rummy Association's rules (gin_rummy.h):
ten cards dealt to its player 0, then ten to player 1, then the first upcard, every card a
chance node; player 0 (the non-dealer) is offered the first upcard, then player 1; a draw from
the stock is a chance node of its own. A knock is two actions (Knock, then the discard); the
knocker lays melds one action each and passes, the defender lays off one card each, passes,
lays melds and passes. At two cards left in the stock (the wall) a player may only knock with
the upcard or pass. Returns are zero-sum: the knocker's deadwood difference with the bonuses.

That is the spec with ``first_upcard=offered``, ``discard_taken=true``,
``stock_end=upcard_to_knock``, ``layoffs=true``, ``lay_down=chosen``, ``deal_score=zero_sum``,
``deals=1`` and ``first_dealer=given``. The spec's shuffle orders the whole pack and a draw
takes the stock's top card; OpenSpiel asks for each drawn card when it is drawn. So the adapter
keeps the spec's stock as the shuffle made it, and answers each draw's chance node with its top
card, as the crazy_eights adapter does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.adapters.base import FRENCH_PACK, NotOffered, permutation_of, winners_of
from rulespec.adapters.openspiel import OpenSpielAdapter, one_card
from rulespec.lang.melds import RANK_OF, is_meld

__all__ = ["GinRummy", "gin_action", "gin_card", "gin_meld", "long_runs", "read_melds"]

#: OpenSpiel numbers a card suit by suit (spades, clubs, diamonds, hearts), ace to king
_SUITS = "SCDH"
_RANKS = "A23456789TJQK"
_TAKE, _DRAW, _PASS, _KNOCK, _MELDS = 52, 53, 54, 55, 56
_NUM_MELDS = 185
#: the ranks in the order runs follow, the ace (14) low, as the spec's run_order()
RUN_ORDER = (14, *range(2, 14))
_DEAL, _FIRST, _DRAW_PHASE, _DISCARD, _KNOCK_PHASE, _LAYOFF, _WALL = range(7)


def gin_card(action: int) -> str:
    """The card code of a gin_rummy card action."""
    return _RANKS[action % 13] + _SUITS[action // 13]


def gin_action(code: str) -> int:
    """The gin_rummy action of a card code."""
    return _SUITS.index(code[1]) * 13 + _RANKS.index(code[0])


#: each meld action's cards, and the action of each meld's cards, read off the game's own
#: names of its actions ("5s6s7s") once a state is at hand (see :func:`read_melds`)
_MELD_CARDS: dict[int, tuple[str, ...]] = {}
_MELD_ACTION: dict[frozenset[str], int] = {}


def read_melds(state: Any) -> None:
    """Fill the meld tables from a gin_rummy state's names of its meld actions."""
    if _MELD_CARDS:
        return
    for a in range(_MELDS, _MELDS + _NUM_MELDS):
        name = state.action_to_string(0, a).rsplit(" ", 1)[1]
        cards = tuple(sorted((name[i] + name[i + 1].upper()
                              for i in range(0, len(name), 2)), key=FRENCH_PACK.index))
        _MELD_CARDS[a] = cards
        _MELD_ACTION[frozenset(cards)] = a


def gin_meld(cards: object) -> list[int]:
    """The meld actions of a spec ``meld`` event's cards: one, or for a run of six cards or
    more two (OpenSpiel's melds are at most five cards long: "any meld of length 6 or more can
    be expressed as two or more melds of shorter length", gin_rummy_utils.cc), its lower
    cards first; NotOffered for cards that are no meld."""
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards) \
            or not all(c in FRENCH_PACK for c in cards):
        raise NotOffered("a meld's cards are a list of card codes")
    if 6 <= len(cards) <= 10 and is_meld(cards, RUN_ORDER):
        ranked = sorted(cards, key=lambda c: RUN_ORDER.index(RANK_OF[c]))
        low = max(3, len(cards) - 5)
        return [*gin_meld(ranked[:low]), *gin_meld(ranked[low:])]
    a = _MELD_ACTION.get(frozenset(cards))
    if a is None or len(cards) != len(_MELD_CARDS[a]):
        raise NotOffered(f"OpenSpiel's gin_rummy has no meld action of {cards}")
    return [a]


def long_runs(hand: list[str]) -> list[list[str]]:
    """Every run of six cards or more in a hand, its cards in the pack's order."""
    out = []
    for s in _SUITS:
        held = {RUN_ORDER.index(RANK_OF[c]): c for c in hand if c[1] == s}
        for i in held:
            j = i
            while j in held:
                j += 1
                if j - i >= 6:
                    out.append(sorted((held[k] for k in range(i, j)), key=FRENCH_PACK.index))
    return out


def is_run(cards: list[str]) -> bool:
    """Whether a meld is a run (its cards of one suit)."""
    return len({c[1] for c in cards}) == 1


class GinRummy(OpenSpielAdapter):
    """OpenSpiel's ``gin_rummy``: its player 0 is the non-dealer, the seat on the dealer's
    left, so player p is the spec's seat (p + dealer + 1) % 2."""

    spec = "gin_rummy"
    engine = "gin_rummy"
    players = (2,)
    fixed = {"deals": 1, "first_dealer": "given", "first_upcard": "offered",
             "discard_taken": True, "stock_end": "upcard_to_knock", "layoffs": True,
             "lay_down": "chosen", "deal_score": "zero_sum", "must_gin": False}
    usual: Mapping[str, object] = {}

    def check_game(self, game: str, options: Mapping[str, object]) -> dict[str, Any]:
        # the shipped spec's name is written with a hyphen or an underscore
        return super().check_game(game.replace("-", "_"), options)

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        return {"oklahoma": bool(options["oklahoma"]),
                "knock_card": int(options["knock_limit"]),
                "gin_bonus": int(options["gin_bonus"]),
                "undercut_bonus": int(options["undercut_bonus"])}

    def started(self) -> None:
        read_melds(self.state)
        self.shift = (self.dealer + 1) % 2
        self.stock: list[str] = []  # the spec's stock, top card first
        self.melds: list[list[str]] = []  # the knocker's melds as laid, with layoffs on them

    # ---- seats and phases
    def seat(self, player: int) -> int:
        """The spec's seat of the game's player."""
        return (player + self.shift) % 2

    def to_move(self) -> int | str | None:
        st = self.state
        if st.is_terminal():
            return None
        return "chance" if st.is_chance_node() else self.seat(int(st.current_player()))

    def phase(self) -> int:
        """The game's phase (its Phase enum, deal 0 to wall 6)."""
        return int(self.state.current_phase())

    def knocker_discards(self) -> bool:
        """Whether the knocker has yet to discard (the knock phase with eleven cards held)."""
        st = self.state
        return self.phase() == _KNOCK_PHASE and len(st.hands()[st.current_player()]) == 11

    # ---- events
    def events(self) -> list[dict[str, object]]:
        phase = self.phase()
        if self.state.is_chance_node():
            # only before the deal: the draws are answered inside ``apply``
            return [{"chance": "shuffle", "cards": list(FRENCH_PACK)}] if phase == _DEAL else []
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            out.extend(self.events_of(phase, a))
        if any(a >= _MELDS for a in self.outcomes()):
            out.extend(self.long_melds())
        return out

    def long_melds(self) -> list[dict[str, object]]:
        """The ``meld`` events of runs of six cards or more that the game lays as two melds,
        each legal where it is laid."""
        st = self.state
        hand = [gin_card(c) for c in st.hands()[st.current_player()]]
        out: list[dict[str, object]] = []
        for run in long_runs(hand):
            trial = st.clone()
            if all(self.try_act(trial, a) for a in gin_meld(run)):
                out.append(self.seat_event("meld", cards=run))
        return out

    @staticmethod
    def try_act(st: Any, a: int) -> bool:
        """Take an action if it is legal; whether it was."""
        if a not in st.legal_actions():
            return False
        st.apply_action(a)
        return True

    def events_of(self, phase: int, a: int) -> list[dict[str, object]]:
        """The spec's events of one legal action in a phase."""
        if a == _KNOCK and phase == _DISCARD:
            st = self.state.clone()
            st.apply_action(_KNOCK)
            return [self.seat_event("knock", card=gin_card(c)) for c in st.legal_actions()]
        if a == _KNOCK:
            return [self.seat_event("take_and_knock")]
        if a == _TAKE:
            return [self.seat_event("take")]
        if a == _DRAW:
            return [self.seat_event("draw")]
        if a == _PASS:
            return [self.seat_event("done" if phase in (_KNOCK_PHASE, _LAYOFF) else "pass")]
        if a >= _MELDS:
            return [self.seat_event("meld", cards=list(_MELD_CARDS[a]))]
        card = gin_card(a)
        if phase == _DISCARD:
            return [self.seat_event("discard", card=card)]
        if phase == _KNOCK_PHASE:
            return [self.seat_event("knock", card=card)]
        return [self.seat_event("lay_off", card=card, meld=self.meld_for(card))]

    def meld_for(self, card: str) -> int:
        """The knocker's meld (numbered from 1) a card laid off goes on: OpenSpiel names only
        the card; where it fits two melds, the run (OpenSpiel counts it on both, and extends
        the run with it); 0 where it fits none."""
        fits = [i for i, m in enumerate(self.melds, 1) if is_meld([*m, card], RUN_ORDER)]
        runs = [i for i in fits if is_run(self.melds[i - 1])]
        return (runs or fits or [0])[0]

    def actions(self, event: Mapping[str, object]) -> list[int]:
        phase, action = self.phase(), event.get("action")
        if event.get("chance") == "shuffle" and phase == _DEAL and self.state.is_chance_node():
            order = permutation_of(event, FRENCH_PACK)
            # the spec deals one card at a time from the non-dealer; OpenSpiel deals ten to
            # its player 0 (the non-dealer), ten to player 1, then the upcard
            return [gin_action(c) for c in (*order[0:20:2], *order[1:20:2], order[20])]
        if "chance" in event:
            raise NotOffered(f"no {event.get('chance')!r} chance event is due")
        simple = {("take", _FIRST): _TAKE, ("take", _DRAW_PHASE): _TAKE,
                  ("pass", _FIRST): _PASS, ("draw", _FIRST): _DRAW,
                  ("draw", _DRAW_PHASE): _DRAW, ("pass", _WALL): _PASS,
                  ("take_and_knock", _WALL): _KNOCK, ("done", _KNOCK_PHASE): _PASS,
                  ("done", _LAYOFF): _PASS}
        if (action, phase) in simple:
            return [simple[str(action), phase]]
        if action == "discard" and phase == _DISCARD:
            return [gin_action(one_card(event))]
        if action == "knock" and phase == _DISCARD:
            return [_KNOCK, gin_action(one_card(event))]
        if action == "knock" and self.knocker_discards():
            return [gin_action(one_card(event))]
        if action == "meld" and phase in (_KNOCK_PHASE, _LAYOFF) and not self.knocker_discards():
            return gin_meld(event.get("cards"))
        if action == "lay_off" and phase == _LAYOFF:
            card = one_card(event)
            if event.get("meld") != self.meld_for(card):
                raise NotOffered("OpenSpiel lays a card off on the run it fits")
            return [gin_action(card)]
        raise NotOffered(f"no {action!r} is due")

    def apply(self, event: Mapping[str, object]) -> None:
        """The event's actions on a copy of the game's state, each with OpenSpiel's legality
        check, then the chance node of a draw answered with the top card of the spec's stock;
        the copy replaces the state once all were taken."""
        self.check_due(event)
        acts = self.actions(event)
        st = self.state.clone()
        stock = list(permutation_of(event, FRENCH_PACK)[21:]) if "chance" in event \
            else list(self.stock)
        for a in acts:
            self.act(st, a)
        if st.is_chance_node() and not st.is_terminal() and "chance" not in event:
            if not stock:
                raise ValueError("gin_rummy draws from an empty stock")
            self.act(st, gin_action(stock.pop(0)))
        self.state, self.stock = st, stock
        self.taken(event)

    def act(self, st: Any, a: int) -> None:
        """One action, with OpenSpiel's legality check."""
        if a not in st.legal_actions():
            raise ValueError(f"{self.engine} refuses {st.action_to_string(a)!r} (action {a})")
        st.apply_action(a)

    def taken(self, event: Mapping[str, object]) -> None:
        action = event.get("action")
        if action == "meld" and not self.state.finished_layoffs():
            cards = event.get("cards")
            self.melds.append([str(c) for c in cards] if isinstance(cards, list) else [])
        elif action == "lay_off":
            i = int(str(event.get("meld")))
            if 1 <= i <= len(self.melds):
                self.melds[i - 1].append(str(event.get("card")))

    def answer(self) -> dict[str, object]:
        st = self.state
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0, 0], "winners": []}
        returns = st.returns()
        scores = [round(returns[(q - self.shift) % 2]) for q in range(2)]
        return {"complete": True, "deals": [{"scores": scores}], "totals": scores,
                "winners": winners_of(scores, lowest=False)}
