"""Abracadabra (pagat) mutants: the oracle with exactly one rule bug each.

Each class changes one behaviour of :class:`tests.verify.mutants.base.AbracadabraView` (the
oracle ``tests/oracles/abracadabra.py`` plus a correct ``observe``) and is right everywhere
else.  Where a bug widens what is legal, both the legal list and ``apply`` are widened.
"""

from __future__ import annotations

from typing import Any

from tests.oracles.abracadabra import (
    DUMMY,
    RANKS,
    Commit,
    Event,
    canon_key,
    sized_subsets,
)

from .base import AbracadabraView


class EqualBidAccepted(AbracadabraView):
    """A bid equal to the highest bid so far is accepted (and takes over the contract); bids
    must be strictly higher (phase B: "strictly higher than every earlier bid")."""

    def _compute_legal(self) -> list[Event]:
        evs = super()._compute_legal()
        d = self.deal
        if self.over or d is None or d.phase != "auction" or d.high < self._c().min_bid:
            return evs
        evs.append({"seat": self.to_move(), "action": "bid", "tricks": d.high})
        evs.sort(key=canon_key)
        return evs

    def _ev_bid(self, event: Event) -> Commit:
        d = self._d()
        n = event.get("tricks")
        if isinstance(n, int) and not isinstance(n, bool) and n == d.high >= self._c().min_bid:
            d.high -= 1  # validate as if the bid were higher; the commit sets high = n again
            try:
                return super()._ev_bid(event)
            finally:
                d.high += 1
        return super()._ev_bid(event)


class NoFollowSuit(AbracadabraView):
    """Following suit is not enforced: any card of the hand may be played (phase E: "players
    must follow the suit led if they can")."""

    def _legal_cards(self, hand_seat: int) -> list[str]:
        return list(self._d().hands[hand_seat])


class DealerLeadsFirst(AbracadabraView):
    """The dealer leads trick 1 instead of the player on the dealer's left (the non-dealer with
    two players) (phase E, records.md ``play``)."""

    def _start_play(self) -> None:
        d = self._d()
        d.phase = "play"
        d.trick_no = 1
        d.leader = d.dealer
        self._start_trick()


class DummyPlaysSecond(AbracadabraView):
    """In the dummy game the dummy plays second, right after the leader, instead of third after
    both real players (ABR-19, §1.6 "the dummy always plays third")."""

    def _hand_to_play(self) -> int:
        d = self._d()
        if self._c().dummy:
            return (d.leader, DUMMY, 1 - d.leader)[len(d.trick)]
        return super()._hand_to_play()


class NoSuitBonus(AbracadabraView):
    """The suit bonus m(p)*K(p) is left out of every score (§1.4, ABR-15)."""

    def _suit_count(self, p: int) -> int:
        return 0


class AtLeastIgnored(AbracadabraView):
    """``success_rule = at_least`` is ignored: success still needs T(p) = bid(p) exactly
    (ABR-22, A5)."""

    def _succeeds(self, p: int) -> bool:
        if self._c().opts["success_rule"] == "at_least":
            d = self._d()
            return d.tricks_taken[p] == d.placed[p]
        return super()._succeeds(p)


class JokerNoneIgnored(AbracadabraView):
    """``joker = none`` is ignored: the Joker stays in the pack and an indicator is turned
    (§1.6 variation "no Joker", ABR-10, A3)."""

    def new(self, game: str, players: int, options: dict[str, Any], dealer: int = 0) -> None:
        if isinstance(options, dict) and options.get("joker") == "none":
            options = {**options, "joker": "identity_of_indicator"}
        super().new(game, players, options, dealer)


class ThreePlayerNoJoker(AbracadabraView):
    """The 3-player pack has no Joker (36 cards, no indicator) although
    ``three_player_joker = true`` is the default (§1.6 "3 players")."""

    def new(self, game: str, players: int, options: dict[str, Any], dealer: int = 0) -> None:
        if players == 3 and isinstance(options, dict):
            options = {**options, "three_player_joker": False}
        super().new(game, players, options, dealer)


class TrumpDoesNotWin(AbracadabraView):
    """A trump does not beat the suit led: the trick goes to the highest card of the suit led
    (phase E: "won by the highest trump played")."""

    def _trick_winning_hand(self) -> int:
        d = self._d()
        ids = [(seat, self._identity(c)) for seat, c in d.trick]
        led = ids[0][1][1]
        return max((RANKS.index(i[0]), seat) for seat, i in ids if i[1] == led)[1]


class DeclarerPlacesFewer(AbracadabraView):
    """The declarer may place B-1 trick numbers as well as B (phase C: "exactly B cards")."""

    def _legal_place(self, seat: int) -> list[Event]:
        d = self._d()
        if seat != d.declarer:
            return super()._legal_place(seat)
        return [
            {"seat": seat, "action": "place", "tricks": list(combo)}
            for combo in sized_subsets(self._c().ntricks, max(d.B - 1, 0), d.B)
        ]

    def _ev_place(self, event: Event) -> Commit:
        d = self._d()
        raw = event.get("tricks")
        if event.get("seat") == d.declarer and isinstance(raw, list) and len(raw) == d.B - 1:
            d.B -= 1  # validate against B-1; the commit does not read B
            try:
                return super()._ev_place(event)
            finally:
                d.B += 1
        return super()._ev_place(event)


class NonDeclarerMayPlaceB(AbracadabraView):
    """A non-declarer may place as many trick numbers as the declarer's bid B (ABR-3: at most
    B-1)."""

    def _legal_place(self, seat: int) -> list[Event]:
        d = self._d()
        if seat == d.declarer:
            return super()._legal_place(seat)
        cfg = self._c()
        return [
            {"seat": seat, "action": "place", "tricks": list(combo)}
            for combo in sized_subsets(cfg.ntricks, cfg.opts["nondeclarer_min_bid"], d.B)
        ]

    def _ev_place(self, event: Event) -> Commit:
        d = self._d()
        raw = event.get("tricks")
        if event.get("seat") != d.declarer and isinstance(raw, list) and len(raw) == d.B:
            d.B += 1  # validate against B+1; the commit does not read B
            try:
                return super()._ev_place(event)
            finally:
                d.B -= 1
        return super()._ev_place(event)


class PlayAnotherDealIgnored(AbracadabraView):
    """``tie = play_another_deal`` is ignored: a match that ends with a tie at the top is over
    and shared (§1.5, R10)."""

    def _match_over(self) -> bool:
        cfg = self._c()
        if cfg.match_mode == "deals":
            return len(self.deals) >= cfg.match_value
        if max(self.totals) >= cfg.match_value:
            self.target_reached = True
        return self.target_reached


class PileBonusAlwaysFour(AbracadabraView):
    """``pile_bonus_per_card`` is ignored: an exposed pile always gives m = 4 (ABR-9, A13)."""

    def new(self, game: str, players: int, options: dict[str, Any], dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._c().opts["pile_bonus_per_card"] = 4


class SeatZeroAlwaysDeals(AbracadabraView):
    """Seat 0 deals every deal: the ``dealer`` given to ``new`` is ignored and the deal does not
    pass on (records.md ``dealer``, ABR-23)."""

    def _start_deal(self) -> None:
        self.dealer = 0
        super()._start_deal()


class RightRowFailureFree(AbracadabraView):
    """A failed (face-down) right-row card costs the declarer nothing; it should subtract twice
    its value (§1.4, ABR-13)."""

    def _score_deal(self) -> tuple[list[int], dict[str, Any]]:
        scores, detail = super()._score_deal()
        d = self._d()
        if d.declarer is not None:
            scores[d.declarer] += 2 * sum(v for v, up in d.right.items() if not up)
        return scores, detail
