"""OpenSpiel's ``skat`` as a protocol implementation of the shipped skat spec.

OpenSpiel plays "a slightly simplified version of Skat" (skat.h): one deal of three players,
the 32 cards dealt one at a time as chance nodes in the order three to each player, two to the
skat, four to each, three to each; a bidding in which each player in turn from player 0
(forehand) passes or names a game (four suits, grand, null), the first to name one being the
declarer; the declarer takes up the skat and lays two cards away one at a time; ten tricks,
forehand leading, a null ending when the declarer takes a trick. Its returns count card
points: the declarer's less 60 over 120, each defender's side's less 60 over 240, a null 90 or
30 points to the declarer (skat.cc, ``ScoreUp``). That is the spec with ``bidding=first_game``,
``hand_games=false``, ``open_games=false``, ``scoring=card_points`` (the returns times 240) and
``deals=1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.adapters.base import NotOffered, permutation_of, winners_of
from rulespec.adapters.openspiel import OpenSpielAdapter, one_card

__all__ = ["SKAT_PACK", "Skat", "skat_action", "skat_card"]

#: the spec's 32 cards in its canonical order (the shuffle's template): clubs, spades, hearts,
#: diamonds, each seven to ace
SKAT_PACK: tuple[str, ...] = tuple(r + s for s in "CSHD" for r in "789TJQKA")
#: skat numbers a card suit by suit (diamonds, hearts, spades, clubs), each in the order seven,
#: eight, nine, queen, king, ten, ace, jack: the 7 of diamonds is 0, the Jack of clubs 31
_SUITS = "DHSC"
_RANKS = "789QKTAJ"
_BIDS = 32  # the first bidding action: pass; then diamonds, hearts, spades, clubs, grand, null
_GRAND = _BIDS + 5
_NULL = _BIDS + 6


def skat_card(action: int) -> str:
    """The card code of a skat card action."""
    return _RANKS[action % 8] + _SUITS[action // 8]


def skat_action(code: str) -> int:
    """The skat action of a card code; NotOffered for a card outside the 32."""
    if len(code) != 2 or code[0] not in _RANKS or code[1] not in _SUITS:
        raise NotOffered(f"{code} is not among skat's 32 cards")
    return _SUITS.index(code[1]) * 8 + _RANKS.index(code[0])


class Skat(OpenSpielAdapter):
    """OpenSpiel's ``skat`` (no parameters): one deal; its player 0 is forehand, the seat on
    the dealer's left, so player p is the spec's seat (p + dealer + 1) % 3."""

    spec = "skat"
    engine = "skat"
    players = (3,)
    fixed = {"deals": 1, "bidding": "first_game", "hand_games": False, "open_games": False,
             "scoring": "card_points", "first_dealer": "given"}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        return {}

    def started(self) -> None:
        self.shift = (self.dealer + 1) % 3
        self.declared = False  # a game was named: the declarer lays two cards away, then play
        self.declarer: int | None = None  # the seat that named the game
        self.laid = 0
        self.plays = 0  # cards played to tricks
        self.played = [0, 0, 0]  # cards each seat has played

    def seat(self, player: int) -> int:
        """The spec's seat of the game's player."""
        return (player + self.shift) % 3

    def player(self, seat: int) -> int:
        """The game's player of the spec's seat."""
        return (seat - self.shift) % 3

    def to_move(self) -> int | str | None:
        st = self.state
        if st.is_terminal():
            return None
        return "chance" if st.is_chance_node() else self.seat(int(st.current_player()))

    def phase(self) -> str:
        """The game's phase (its API does not show it): deal, bidding, discard or play."""
        if self.state.is_chance_node():
            return "deal"
        if not self.declared:
            return "bidding"
        return "discard" if self.laid < 2 else "play"

    def taken(self, event: Mapping[str, object]) -> None:
        action = event.get("action")
        if str(action).startswith("play_"):
            self.declared = True
            self.declarer = int(str(event.get("seat")))
        elif action == "lay_away":
            self.laid += 1
        elif action == "play":
            self.plays += 1
            self.played[int(str(event.get("seat")))] += 1

    def events(self) -> list[dict[str, object]]:
        phase = self.phase()
        if phase == "deal":
            return [{"chance": "shuffle", "cards": list(SKAT_PACK)}]
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if phase == "bidding":
                out.append(self.bid_event(a))
            else:
                out.append(self.seat_event("lay_away" if phase == "discard" else "play",
                                           card=skat_card(a)))
        return out

    def bid_event(self, a: int) -> dict[str, object]:
        """The spec's event of a bidding action: pass, or a game named."""
        if a == _BIDS:
            return self.seat_event("pass")
        if a == _GRAND:
            return self.seat_event("play_grand", announce="plain")
        if a == _NULL:
            return self.seat_event("play_null", announce="plain")
        return self.seat_event("play_suit", announce="plain", trumps=_SUITS[a - _BIDS - 1])

    def actions(self, event: Mapping[str, object]) -> list[int]:
        phase = self.phase()
        chance = event.get("chance")
        if chance == "shuffle" and phase == "deal":
            # the spec deals from the top of the shuffle three to each from forehand, two to
            # the skat, four, three: skat's own order of its 32 deal actions
            return [skat_action(c) for c in permutation_of(event, SKAT_PACK)]
        if chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        action = event.get("action")
        if phase == "bidding":
            return [self.bid_action(event)]
        if (action, phase) in (("lay_away", "discard"), ("play", "play")):
            return [skat_action(one_card(event))]
        raise NotOffered(f"no {action!r} is due")

    def bid_action(self, event: Mapping[str, object]) -> int:
        """The bidding action of a spec event; NotOffered for one skat cannot express."""
        action = event.get("action")
        if action == "pass":
            return _BIDS
        if event.get("announce") != "plain":
            raise NotOffered("skat announces nothing with a game")
        if action == "play_grand":
            return _GRAND
        if action == "play_null":
            return _NULL
        trumps = event.get("trumps")
        if action == "play_suit" and isinstance(trumps, str) and trumps in _SUITS:
            return _BIDS + 1 + _SUITS.index(trumps)
        raise NotOffered(f"no {action!r} is due")

    def observe(self, seat: int) -> dict[str, object]:
        """What ``seat`` sees, read off skat's observation tensor (skat.cc,
        ``ObservationTensor``): its hand, the cards the declarer laid away (shown to the
        declarer alone) and the current trick; the other hands' and piles' sizes are counted
        from the events. Nothing before the deal (the tensor is empty then)."""
        st = self.state
        if not isinstance(seat, int) or not 0 <= seat < 3:
            raise NotOffered(f"no seat {seat!r}")
        if st.is_chance_node():
            return {"seat": seat, "zones": {}}
        t = st.observation_tensor(self.player(seat))
        # position 3, phase 3, hand 32, bids 3 x 7, solo player 3, skat 32, game type 7,
        # current trick: leader 3 and three cards of 32
        cards = [skat_card(c) for c in range(32) if t[6 + c]]
        laid = [skat_card(c) for c in range(32) if t[62 + c]]
        trick = [skat_card(c) for i in range(3) for c in range(32) if t[104 + 32 * i + c]]
        hands: list[object] = []
        piles: list[object] = []
        for q in range(3):
            mine = q == self.declarer
            held = 10 - self.played[q] + (2 - self.laid if mine and self.declared else 0)
            hands.append(cards if q == seat else held)
            piles.append(laid if q == seat else (self.laid if mine else 0))
        return {"seat": seat, "zones": {"hand": hands, "laid_away": piles, "trick": trick}}

    def answer(self) -> dict[str, object]:
        st = self.state
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * 3, "winners": []}
        # the returns, times 240: card points in whole numbers, as the spec scores them
        returns = st.returns()
        scores = [round(240 * returns[self.player(q)]) for q in range(3)]
        return {"complete": True, "deals": [{"scores": scores}], "totals": scores,
                "winners": winners_of(scores, lowest=False)}
