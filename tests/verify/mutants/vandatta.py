"""Vändåtta mutants: the oracle with exactly one rule bug each.

Each class changes one behaviour of :class:`tests.verify.mutants.base.VandattaView` (the oracle
``tests/oracles/vandatta.py`` plus a correct ``observe``) and is right everywhere else.  Legality
bugs are made in ``_plays`` / ``_legal_internal``, which both ``legal`` and ``apply`` consult,
so a mutant's ``apply`` accepts exactly what its ``legal`` lists.
"""

from __future__ import annotations

from typing import Any

from tests.oracles.vandatta import (
    ACE,
    EIGHT,
    OP_CHECK,
    OP_DRAW,
    OP_TURN,
    PAGAT_POINTS,
    PH_BURY,
    PH_SHUFFLE,
    PH_TURN,
    RANK_OF,
    SUIT_OF,
    _is_int,
    build_pack,
)

from .base import VandattaView


class NoAceOnAce(VandattaView):
    """No Ace may be played on an Ace top, although ``ace_on_ace = true`` is the default
    (VAN-7, §3.3 table: "Ace: another Ace of any suit")."""

    def _plays(self, s: int) -> list[tuple]:
        res = super()._plays(s)
        if RANK_OF[self._discard[-1]] != ACE:
            return res
        return [k for k in res if RANK_OF[k[1][0]] != ACE]


class EightNotWild(VandattaView):
    """An 8 is not wild: on an ordinary top it may be played only if it is of the top's suit
    (§3.3 table: "an 8 of any suit", VAN-10)."""

    def _plays(self, s: int) -> list[tuple]:
        res = super()._plays(s)
        ts = SUIT_OF[self._discard[-1]]
        return [k for k in res if not (RANK_OF[k[1][0]] == EIGHT and SUIT_OF[k[1][0]] != ts)]


class NoGroups(VandattaView):
    """Multi-card groups are refused although ``multi_play = true`` (§3.3 table (2), VAN-5)."""

    def _plays(self, s: int) -> list[tuple]:
        return [k for k in super()._plays(s) if len(k[1]) == 1]


class PassAfterOneDraw(VandattaView):
    """``pass`` is legal after one draw of the turn, not only after the third (V2, VAN-4)."""

    def _legal_internal(self) -> list[tuple]:
        res = super()._legal_internal()
        if self._phase == PH_TURN and self._draws >= 1 and ("pass",) not in res:
            res = [*res, ("pass",)]
        return res


class CounterClockwise(VandattaView):
    """The turn passes to the right (seat s-1), not to the left (§3.2: "deal and play go
    clockwise").  The dealing, the first player and the Ace's draws are still clockwise."""

    def _prev_in(self, s: int) -> int:
        t = (s - 1) % self._P
        while self._out[t]:
            t = (t - 1) % self._P
        return t

    def _turn_passes(self, s: int) -> None:
        ops: list[tuple] = []
        if self._pen_not_out and self._pending[s]:
            self._pending[s] = False
            ops.extend([(OP_DRAW, s)] * self._penalty)
        ops.append((OP_CHECK, s))
        ops.append((OP_TURN, self._prev_in(s), False))
        self._q = ops
        self._run()


class NoExtraTurnAfterAce(VandattaView):
    """After one's own Ace the others draw, but the player gets no extra turn: the turn passes
    on (§3.3 "Ace effect" 2, VAN-4)."""

    def _do_play(self, s: int, cards: tuple, suit: int) -> None:
        if RANK_OF[cards[0]] != ACE or len(cards) == len(self._hands[s]):
            super()._do_play(s, cards, suit)
            return
        hand = self._hands[s]
        for c in cards:
            hand.remove(c)
        self._discard.extend(cards)
        self._named = suit
        self._counter = 0
        self._touch(s)
        ops: list[tuple] = []
        for _ in cards:
            ops.extend((OP_DRAW, o) for o in self._round_from(s))
        if self._pen_not_out and self._pending[s]:
            self._pending[s] = False
            ops.extend([(OP_DRAW, s)] * self._penalty)
        ops.append((OP_CHECK, s))
        ops.append((OP_TURN, self._next_in(s), False))
        self._q = ops
        self._run()


_COURTS_TEN = [10 if RANK_OF[c] in (9, 10, 11) else p for c, p in enumerate(PAGAT_POINTS)]


class CourtCardsTen(VandattaView):
    """Under pagat scoring a J, Q or K left in hand costs 10 points instead of 1 (§3.4:
    "8 = 10, Ace = 5, any other card = 1")."""

    def _hand_points(self, s: int) -> int:
        pts = _COURTS_TEN if self._points is PAGAT_POINTS else self._points
        return sum(pts[c] for c in self._hands[s])


class LowestZeroIgnored(VandattaView):
    """``blocked = lowest_hand_scores_zero`` is treated as ``all_score``: in a blocked deal the
    lowest hand still scores its cards (VAN-16, V5)."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._lowest_zero = False


class SwedishIgnored(VandattaView):
    """``scoring = swedish`` is ignored: hands are scored with the pagat points (VAN-18, §3.4)."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._points = PAGAT_POINTS


class AceOnAceIgnored(VandattaView):
    """``ace_on_ace = false`` is ignored: an Ace may still be played on an Ace (VAN-7, V8)."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._ace_on_ace = True


class TwoPacksFromSeven(VandattaView):
    """With ``decks = auto`` two packs are used only from 7 players, not from 6 (§3.1: "with 6
    or more players, shuffle two packs together")."""

    def _start_deal_state(self) -> None:
        super()._start_deal_state()
        if self._o["decks"] == "auto" and self._n_in == 6:
            pack = build_pack(1, self._strip)
            if self._hs * self._n_in + 1 <= len(pack):
                self._pack = pack


class SeatZeroAlwaysDeals(VandattaView):
    """Seat 0 deals every deal: the ``dealer`` given to ``new`` is ignored and the deal does not
    pass clockwise (records.md ``dealer``, §3.4 "the deal passes clockwise")."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._dealer = 0

    def _end_deal(self, winner: int | None) -> None:
        super()._end_deal(winner)
        if self._phase == PH_SHUFFLE and not self._out[0]:
            self._dealer = 0


class TurnupAceNoDraw(VandattaView):
    """A turned-up Ace does not make everyone draw one card, although
    ``turnup_ace_all_draw = true`` (VAN-2, §3.2 step 4)."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._ace_all_draw = False


class BuryOffByOne(VandattaView):
    """A ``bury`` at position k puts k+1 stock cards above the 8, not k (V6; for k = len(stock)
    it still goes to the bottom)."""

    def _apply_chance(self, ev: dict) -> None:
        k: Any = ev.get("position")
        if (
            ev.get("chance") == "bury"
            and set(ev) == {"chance", "position"}
            and _is_int(k)
            and self._phase == PH_BURY
            and 0 <= k < len(self._stock)
        ):
            ev = {"chance": "bury", "position": k + 1}
        super()._apply_chance(ev)


class LappenPenaltyShort(VandattaView):
    """The lappen penalty draws one card fewer than ``lappen_penalty`` (2 instead of the default
    3) (VAN-13, V7)."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._penalty = max(self._penalty - 1, 0)
