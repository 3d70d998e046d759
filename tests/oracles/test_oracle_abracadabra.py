"""Tests of the Abracadabra (pagat) oracle against the rule brief's worked examples.

Each worked example (ABR-1, ABR-2 under every reading the brief lists, ABR-3) is played as a
complete deal built here: the hands (turned into a shuffle order with the deal rule of
records.md / A2), the indicator, the decisions and every card played.  The hands were chosen
so that the premises the brief gives (trick winners, captured bid-suit cards) hold; the tests
check those premises as well as the scores the brief computes by hand.

Then settled points (R-n, A-n, H-n) and a seeded random-play smoke test.

Each test runs as ``[oracle]`` (the oracle alone) and as ``[engine]`` (the oracle and the engine
in lock step, see ``implementation``), except the oracle's own random-play smoke test.

Run: ``cd /work/main && python -m pytest tests/oracles/test_oracle_abracadabra.py -q``
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .abracadabra import (
    DEFAULTS,
    ENUM_OPTIONS,
    AbracadabraOracle,
    Config,
    Deal,
    canon_key,
    card_index,
)

# ----------------------------------------------------------------------------- implementations


@pytest.fixture(autouse=True, params=["oracle", "engine"])
def implementation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs twice.  ``[oracle]``: on the oracle alone.  ``[engine]``: on a twin
    (tests/twin.py) in place of ``AbracadabraOracle``, which answers every call from the oracle
    and from the engine playing rulespec/games/abracadabra.rules, and fails as soon as the two
    disagree on who moves, the legal events, an accepted or refused event, or the result.  A
    test about the oracle alone is marked ``@oracle_only`` and has no ``[engine]`` case."""
    if request.param == "engine":
        from tests.twin import make_twin  # only the [engine] cases import the engine

        monkeypatch.setitem(globals(), "AbracadabraOracle", make_twin(AbracadabraOracle, "abracadabra"))
    return str(request.param)


oracle_only = pytest.mark.parametrize("implementation", ["oracle"], indirect=True)


# ----------------------------------------------------------------------------- helpers


def shuffle_order(hands: list[str], dealer: int, rest: list[str]) -> list[str]:
    """The shuffle that deals ``hands`` (one card at a time from seat dealer+1, A2)."""
    cards = [h.split() for h in hands]
    n = len(cards)
    size = len(cards[0])
    assert all(len(c) == size for c in cards)
    order: list[str] = []
    seat = (dealer + 1) % n
    pos = [0] * n
    for _ in range(n * size):
        order.append(cards[seat][pos[seat]])
        pos[seat] += 1
        seat = (seat + 1) % n
    return order + rest


def new(players: int, options: dict[str, Any] | None = None, dealer: int = 0) -> AbracadabraOracle:
    o = AbracadabraOracle()
    o.new("abracadabra", players, options or {}, dealer)
    return o


def deal(o: AbracadabraOracle) -> Deal:
    """The deal in progress (internal state, for white-box checks)."""
    assert o.deal is not None
    return o.deal


def cfg(o: AbracadabraOracle) -> Config:
    assert o.cfg is not None
    return o.cfg


def mover(o: AbracadabraOracle) -> int:
    """The seat to move, when a seat (not chance, not over) is to move."""
    s = o.to_move()
    assert isinstance(s, int)
    return s


def do(o: AbracadabraOracle, seat: int, action: str, **fields: Any) -> None:
    """Apply a decision, checking that it is the seat's turn and in the legal list."""
    assert o.to_move() == seat
    event = {"seat": seat, "action": action, **fields}
    assert event in o.legal(), event
    o.apply(event)


def play_all(
    o: AbracadabraOracle, plays: str, calls: dict[int, str] | None = None, finish: bool = False
) -> None:
    """Play every card in order; the seat is whoever is to move (the dummy's hand is 2).

    Under ``abracadabra_call = required_else_card_fails`` a ``call`` (or the ``no_call``
    given in ``calls``, trick number -> action) is written when one is due before a card;
    after the last card only with ``finish``.
    """
    cards = plays.split()
    for i in range(len(cards) + 1):
        seat = o.to_move()
        if isinstance(seat, int) and (i < len(cards) or finish):
            legal = o.legal()
            if legal[0]["action"] == "call":
                pending = deal(o).pending_call
                assert pending is not None
                trick = pending[1]
                do(o, seat, (calls or {}).get(trick, "call"))
                seat = o.to_move()
        if i == len(cards):
            break
        assert isinstance(seat, int)
        event = {"seat": seat, "action": "play", "card": cards[i]}
        assert event in o.legal(), (event, o.legal())
        o.apply(event)


def state_snapshot(o: AbracadabraOracle) -> str:
    return json.dumps([o.to_move(), o.legal(), o.result()], sort_keys=True)


# ----------------------------------------------------------------------------- Example ABR-1

# Seats: P1 = 0 (spades), P2 = 1 (hearts), P3 = 2 (diamonds), P4 = 3 (clubs); P4 deals.
ABR1_HANDS = [
    "5C TD JD QD KD 8H TH KH AH 4S 5S 9S QS",
    "2C 6C 9C TC KC 2D 3D 5D 7D 2H 4H 6H QH",
    "4C 8C QC 4D 6D 8D 9D AD 3S 7S 8S TS KS",
    "3C 7C JC AC 3H 5H 9H JH 2S 6S JS AS JK",
]
ABR1_PLAYS = (
    "KH 4H 6D 9H  5C 6C QC 3C  8C 7C 9S 9C  6H 8S 5H 8H  AH 2H 4D JH  QD 3D 8D JC  "
    "QS 5D 7S 2S  TH QH 3S 3H  2D AD AC TD  4C JK JD KC  JS 4S 7D KS  TS 6S 5S TC  "
    "9D AS KD 2C"
)


def setup_abr1(
    options: dict[str, Any] | None = None, p4_place: list[int] | None = None
) -> AbracadabraOracle:
    """ABR-1 up to the first lead: shuffle, suits, auction, rows, declarations."""
    o = new(4, options, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_order(ABR1_HANDS, 3, ["7H"])})
    # Phase A from the dealer's left; the dealer's forced choice is written (A1, R1).
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    do(o, 0, "pass")
    do(o, 1, "bid", tricks=3)
    do(o, 2, "bid", tricks=4)
    do(o, 3, "pass")
    do(o, 2, "place", tricks=[2, 5, 9, 13])
    do(o, 3, "place", tricks=[11] if p4_place is None else p4_place)  # from declarer's left
    do(o, 0, "place", tricks=[1, 6, 12])  # a pass does not bind (ABR-4)
    do(o, 1, "place", tricks=[3, 8])
    do(o, 2, "declare", expose=[9, 13], pile=False)
    do(o, 3, "declare", pile=False)
    do(o, 0, "declare", pile=False)
    do(o, 1, "declare", pile=True)
    return o


def play_abr1(
    options: dict[str, Any] | None = None,
    p4_place: list[int] | None = None,
    calls: dict[int, str] | None = None,
) -> AbracadabraOracle:
    o = setup_abr1(options, p4_place)
    play_all(o, ABR1_PLAYS, calls, finish=True)
    assert o.to_move() is None
    return o


def test_abr1_premises() -> None:
    o = play_abr1()
    det = o.details[0]
    assert det["indicator"] == "7H" and det["trump"] == "H"
    winners = [0, 2, 1, 0, 0, 0, 0, 1, 2, 3, 2, 2, 0]  # P1 P3 P2 P1 P1 P1 P1 P2 P3 P4 P3 P3 P1
    assert det["trick_winners"] == winners
    assert det["tricks"] == [6, 2, 4, 1]
    assert det["K"] == [5, 3, 4, 2]
    # ABR-13: the right row keeps 9 face up and 13 face down; the centre holds 12, 5, 11.
    assert det["right"] == {9: True, 13: False}
    assert sorted(det["centre"]) == [(0, 12), (2, 5), (3, 11)]
    assert det["left"] == [{1: True, 6: True}, {3: True, 8: True}, {2: True}, {}]


@pytest.mark.parametrize(
    "options, scores",
    [
        ({}, [23, 45, 26, 25]),
        ({"success_rule": "exact_count"}, [23, 45, 26, 25]),
        ({"success_rule": "all_named_tricks"}, [23, 65, 6, 5]),
        ({"success_rule": "exact_named_set"}, [23, 65, 6, 5]),
        ({"success_rule": "at_least"}, [33, 35, 16, 15]),
    ],
)
def test_abr1_scores(options: dict[str, Any], scores: list[int]) -> None:
    o = play_abr1(options)
    res = o.result()
    assert res == {
        "ok": True,
        "complete": True,
        "deals": [{"scores": scores}],
        "totals": scores,
        "winners": [scores.index(max(scores))],
    }


def test_abr1_option_variants() -> None:
    # joker_counts_for_suit_bonus: the Joker (7H) went to P4 (clubs), so nothing changes.
    assert play_abr1({"joker_counts_for_suit_bonus": False}).result()["totals"] == [23, 45, 26, 25]
    # pile_exposure_scope = whole_suit has no effect on scores (A13).
    assert play_abr1({"pile_exposure_scope": "whole_suit"}).result()["totals"] == [23, 45, 26, 25]
    # pile_bonus_per_card = 3: P2's suit bonus 3 x 3 = 9 instead of 12.
    assert play_abr1({"pile_bonus_per_card": 3}).result()["totals"] == [23, 42, 26, 25]


def test_abr1_exposures_combinable_false() -> None:
    o = new(4, {"exposures_combinable": False}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_order(ABR1_HANDS, 3, ["7H"])})
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    for ev in ({"action": "pass"}, {"action": "bid", "tricks": 3}):
        o.apply({"seat": o.to_move(), **ev})
    o.apply({"seat": 2, "action": "bid", "tricks": 4})
    o.apply({"seat": 3, "action": "pass"})
    for seat, tricks in ((2, [2, 5, 9, 13]), (3, [11]), (0, [1, 6, 12]), (1, [3, 8])):
        o.apply({"seat": seat, "action": "place", "tricks": tricks})
    legal = o.legal()
    # 2^4 exposures with pile false, plus only [] with pile true.
    assert len(legal) == 17
    with pytest.raises(ValueError):
        o.apply({"seat": 2, "action": "declare", "expose": [9], "pile": True})
    o.apply({"seat": 2, "action": "declare", "expose": [], "pile": True})


@pytest.mark.parametrize("allowed", [True, False])
def test_empty_pile_exposure(allowed: bool) -> None:
    """A declarer who placed all 12 bid cards has an empty pile: by default they may still
    expose it (4 points a card); under empty_pile_exposure = false they may not."""
    o = new(2, {"empty_pile_exposure": allowed}, dealer=1)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    do(o, 0, "choose_suit", suit="S")
    do(o, 1, "choose_suit", suit="H")
    o.apply({"seat": 0, "action": "bid", "tricks": 12})
    o.apply({"seat": 1, "action": "pass"})
    o.apply({"seat": 0, "action": "place", "tricks": list(range(1, 13))})
    if o.to_move() == 0:  # no card left over: the declarer names trumps
        o.apply({"seat": 0, "action": "name_trump", "suit": "S"})
    o.apply({"seat": 1, "action": "place", "tricks": [1]})
    piles = {e["pile"] for e in o.legal() if e["action"] == "declare"}
    assert piles == ({False, True} if allowed else {False})
    if not allowed:
        with pytest.raises(ValueError):
            o.apply({"seat": 0, "action": "declare", "expose": [], "pile": True})
    o.apply({"seat": 0, "action": "declare", "expose": [], "pile": allowed})
    # the other player's pile holds cards: they may always expose it
    assert {e["pile"] for e in o.legal()} == {False, True}


# ----------------------------------------------------------------------------- Example ABR-2

# 3 players: P1 = 0 (hearts), P2 = 1 (spades), P3 = 2 (clubs, declarer); P3 deals.
# Indicator 6D: diamonds are trumps and the Joker plays as 6D.
ABR2_3P_HANDS = [
    "JC KC AC 9D TD 7H QH AH 9S JS QS KS",
    "6C 7C 8C QC 7D JD QD KD AD 6H 9H TH",
    "9C TC 8D 8H JH KH 6S 7S 8S TS AS JK",
]
ABR2_3P_PLAYS = (
    "TD 7D JK  KS 8C TS  AC QC TC  9D AD 8D  TH 8H AH  9S JD AS  9H JH QH  JS QD 6S  "
    "6H KH 7H  9C KC 7C  QS 6C 8S  JC KD 7S"
)
# 4 players: P1 = 0 (hearts), P2 = 1 (spades), P3 = 2 (diamonds, declarer), P4 = 3 (clubs).
# Indicator 2C: clubs are trumps and the Joker plays as 2C.
ABR2_4P_HANDS = [
    "5C 7C 8C JC QC KC 5H 7H 2S 3S 7S 8S AS",
    "4D 5D JD 2H 4H JH KH AH 5S 6S 9S JS QS",
    "9C AC 2D 6D 7D AD 3H 8H 9H TH QH KS JK",
    "3C 4C 6C TC 3D 8D 9D TD QD KD 6H 4S TS",
]
ABR2_4P_PLAYS = (
    "QC 5S 9C 3C  7C JD JK 4C  AS 6S KS 4S  7H KH 9H 6H  5D 7D QD 8C  5H JH 8H TS  "
    "4H TH TD JC  8S 9S AD 8D  QS AC TC 2S  QH 6C KC AH  5C 2H 3H KD  7S JS 2D 3D  "
    "4D 6D 9D 3S"
)


def play_abr2(players: int, options: dict[str, Any]) -> AbracadabraOracle:
    dealer = players - 1
    if players == 3:
        o = new(3, options, dealer)
        o.apply({"chance": "shuffle", "cards": shuffle_order(ABR2_3P_HANDS, dealer, ["6D"])})
        for seat, suit in ((0, "H"), (1, "S"), (2, "C")):
            do(o, seat, "choose_suit", suit=suit)
        # Auction bids 1, 2, 3: the final counts of the others are not bound (ABR-4).
        do(o, 0, "bid", tricks=1)
        do(o, 1, "bid", tricks=2)
        do(o, 2, "bid", tricks=3)
        do(o, 2, "place", tricks=[1, 2, 9])
        do(o, 0, "place", tricks=[5, 11])
        do(o, 1, "place", tricks=[4, 12])
        do(o, 2, "declare", expose=[], pile=False)
        do(o, 0, "declare", pile=False)
        do(o, 1, "declare", pile=False)
        play_all(o, ABR2_3P_PLAYS)
    else:
        o = new(4, options, dealer)
        o.apply({"chance": "shuffle", "cards": shuffle_order(ABR2_4P_HANDS, dealer, ["2C"])})
        for seat, suit in ((0, "H"), (1, "S"), (2, "D"), (3, "C")):
            do(o, seat, "choose_suit", suit=suit)
        do(o, 0, "pass")
        do(o, 1, "pass")
        do(o, 2, "bid", tricks=3)
        do(o, 3, "pass")
        do(o, 2, "place", tricks=[1, 2, 9])
        do(o, 3, "place", tricks=[3, 13])
        do(o, 0, "place", tricks=[5, 11])
        do(o, 1, "place", tricks=[4, 12])
        do(o, 2, "declare", expose=[], pile=False)
        for seat in (3, 0, 1):
            do(o, seat, "declare", pile=False)
        play_all(o, ABR2_4P_PLAYS)
    return o


@pytest.mark.parametrize("players", [3, 4])
def test_abr2_premises(players: int) -> None:
    det = play_abr2(players, {}).details[0]
    assert det["tricks"][:2] == [7, 4]
    assert det["K"][:2] == [6, 5]
    assert {5, 11} <= {t + 1 for t, w in enumerate(det["trick_winners"]) if w == 0}
    assert {4, 12} <= {t + 1 for t, w in enumerate(det["trick_winners"]) if w == 1}
    assert det["declarer"] == 2 and det["tricks"][2] == 1
    if players == 3:
        assert det["tricks"] == [7, 4, 1]
    else:
        assert det["tricks"] == [7, 4, 1, 1]


@pytest.mark.parametrize(
    "players, rule, p1, p2",
    [
        (4, "exact_count", 35, 30),  # both fail (7 != 2, 4 != 2)
        (4, "at_least", 65, 60),  # exactly these two succeed: SB 30
        (4, "all_named_tricks", 65, 60),
        (4, "exact_named_set", 35, 30),  # both took tricks they did not name
        (3, "exact_count", 35, 30),
        (3, "at_least", 55, 50),  # the seed's own figures: SB 20
        (3, "all_named_tricks", 55, 50),
        (3, "exact_named_set", 35, 30),
    ],
)
def test_abr2_scores(players: int, rule: str, p1: int, p2: int) -> None:
    o = play_abr2(players, {"success_rule": rule})
    scores = o.result()["deals"][0]["scores"]
    assert scores[:2] == [p1, p2]
    assert len(scores) == players


# ----------------------------------------------------------------------------- Example ABR-3

# 2 players with dummy: A = seat 0 deals, B = seat 1 leads; the dummy's hand is seat 2.
# Indicator 9C: clubs are trumps and the Joker plays as 9C.  B: clubs, A: diamonds.
ABR3_HANDS = [
    "TC QC KC AC 6D 8D TD QD AD 7H 9H KH",
    "6C 7C 8C JC 6H 8H TH QH AH 7S 9S JK",
    "7D 9D JD KD JH 6S 8S TS JS QS KS AS",
]
ABR3_PLAYS = (
    "JC TC 8S  7S QC QS  8D 8H JD  9H AH JH  9S QD TS  QH KH 9D  7H 6H KS  6D TH 7D  "
    "KC 6C 6S  AD JK KD  8C AC AS  TD 7C JS"
)


def play_abr3(options: dict[str, Any] | None = None) -> AbracadabraOracle:
    o = new(2, {"dummy": True, **(options or {})}, dealer=0)
    o.apply({"chance": "shuffle", "cards": shuffle_order(ABR3_HANDS, 0, ["9C"])})
    do(o, 1, "choose_suit", suit="C")
    do(o, 0, "choose_suit", suit="D")
    do(o, 1, "bid", tricks=5)
    do(o, 0, "pass")
    do(o, 1, "place", tricks=[1, 4, 7, 10, 12])
    do(o, 0, "place", tricks=[2, 6, 11])
    do(o, 1, "declare", expose=[12], pile=False)
    do(o, 0, "declare", pile=True)
    play_all(o, ABR3_PLAYS)
    return o


def test_abr3_premises() -> None:
    det = play_abr3().details[0]
    # Credited: B A A B B A A A A B A B (the dummy's tricks go to the leader, A11).
    assert det["trick_winners"] == [1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1]
    assert det["tricks"] == [7, 5]
    assert det["K"] == [5, 4]


@pytest.mark.parametrize(
    "options, scores",
    [
        ({}, [46, 72]),
        ({"success_rule": "at_least"}, [56, 62]),
        ({"joker_counts_for_suit_bonus": False}, [46, 70]),
    ],
)
def test_abr3_scores(options: dict[str, Any], scores: list[int]) -> None:
    assert play_abr3(options).result()["deals"] == [{"scores": scores}]


def test_abr3_dummy_credit_tricks_only() -> None:
    """A13 reading: a dummy-won trick counts for T only; its cards count for no one's K."""
    plays = ABR3_PLAYS.split()
    trick = lambda t: plays[3 * (t - 1) : 3 * t]  # noqa: E731
    clubs_t5 = sum(1 for c in trick(5) if c[1] == "C" or c == "JK")  # B's dummy trick
    diamonds_t38 = sum(1 for t in (3, 8) for c in trick(t) if c[1] == "D")  # A's dummy tricks
    o = play_abr3({"dummy_credit": "tricks_only"})
    det = o.details[0]
    assert det["tricks"] == [7, 5]  # trick counts unchanged
    assert det["K"] == [5 - diamonds_t38, 4 - clubs_t5]
    assert o.result()["totals"] == [46 - 4 * diamonds_t38, 72 - 2 * clubs_t5]


def test_dummy_controller_second_player_and_alternating() -> None:
    """ABR-19, A11: the controller is credited with a dummy win and leads the next trick."""
    first9 = " ".join(ABR3_PLAYS.split()[:9])  # tricks 1-3; trick 3 (led by A) is the dummy's
    o = play_abr3_prefix({"dummy_controller": "second_player"}, first9)
    assert deal(o).trick_winners == [1, 0, 1] and o.to_move() == 1
    o = play_abr3_prefix({"dummy_controller": "alternating"}, first9)
    assert deal(o).trick_winners == [1, 0, 1] and o.to_move() == 1  # odd trick: non-dealer B
    o = play_abr3_prefix({}, first9)
    assert deal(o).trick_winners == [1, 0, 0] and o.to_move() == 0  # trick leader A


def play_abr3_prefix(options: dict[str, Any], plays: str) -> AbracadabraOracle:
    o = new(2, {"dummy": True, **options}, dealer=0)
    o.apply({"chance": "shuffle", "cards": shuffle_order(ABR3_HANDS, 0, ["9C"])})
    do(o, 1, "choose_suit", suit="C")
    do(o, 0, "choose_suit", suit="D")
    do(o, 1, "bid", tricks=5)
    do(o, 0, "pass")
    do(o, 1, "place", tricks=[1, 4, 7, 10, 12])
    do(o, 0, "place", tricks=[2, 6, 11])
    do(o, 1, "declare", expose=[12], pile=False)
    do(o, 0, "declare", pile=True)
    assert o.to_move() == 1  # the non-dealer leads trick 1
    play_all(o, plays)
    return o


# ----------------------------------------------------------------------------- settled points


def test_forced_dealer_suit_choice_is_written() -> None:
    """A1, R1: the 4-player dealer's choose_suit is a (forced) event."""
    o = new(4, {}, dealer=1)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    for seat, suit in ((2, "C"), (3, "D"), (0, "S")):
        do(o, seat, "choose_suit", suit=suit)
    assert o.to_move() == 1
    assert o.legal() == [{"seat": 1, "action": "choose_suit", "suit": "H"}]
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "choose_suit", "suit": "S"})
    o.apply({"seat": 1, "action": "choose_suit", "suit": "h"})  # R6b: lowercase accepted
    assert o.to_move() == 2 and deal(o).phase == "auction"


def test_three_player_dealer_chooses_and_auction_range() -> None:
    """§1.6: 3 players, bids 1..12, bid cards A-Q; the dealer chooses among two suits."""
    o = new(3, {}, dealer=0)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    do(o, 1, "choose_suit", suit="S")
    do(o, 2, "choose_suit", suit="H")
    assert [e["suit"] for e in o.legal()] == ["C", "D"]
    do(o, 0, "choose_suit", suit="C")
    legal = o.legal()
    assert {"seat": 1, "action": "pass"} in legal
    assert sorted(e["tricks"] for e in legal if e["action"] == "bid") == list(range(1, 13))
    do(o, 1, "bid", tricks=12)
    assert o.legal() == [{"seat": 2, "action": "pass"}]  # one circuit, R1: the pass is written
    do(o, 2, "pass")
    do(o, 0, "pass")
    assert len(o.legal()) == 1 and o.legal()[0]["tricks"] == list(range(1, 13))


def test_place_empty_when_declarer_bid_is_one() -> None:
    """ABR-3, R1: with B = 1 a non-declarer's only choice is place []."""
    o = new(4, {}, dealer=3)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    do(o, 0, "bid", tricks=1)
    for seat in (1, 2, 3):
        do(o, seat, "pass")
    assert len(o.legal()) == 13  # the declarer places exactly one card
    do(o, 0, "place", tricks=[7])
    assert o.legal() == [{"seat": 1, "action": "place", "tricks": []}]
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "place", "tricks": [3]})


def test_nondeclarer_min_bid_one() -> None:
    """A13 reading: bids start at 2, non-declarers place 1..B-1."""
    o = new(4, {"nondeclarer_min_bid": 1}, dealer=3)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    assert min(e["tricks"] for e in o.legal() if e["action"] == "bid") == 2
    with pytest.raises(ValueError):
        o.apply({"seat": 0, "action": "bid", "tricks": 1})
    do(o, 0, "bid", tricks=3)
    for seat in (1, 2, 3):
        do(o, seat, "pass")
    do(o, 0, "place", tricks=[1, 2, 3])
    assert sorted(len(e["tricks"]) for e in o.legal()) == [1] * 13 + [2] * 78


def test_all_pass_abandons_deal() -> None:
    """ABR-5, A10, R9: an abandoned deal scores zeros, counts as a deal, passes the deal on."""
    for all_pass, next_first in (("redeal_next_dealer", 2), ("redeal_same_dealer", 1)):
        o = new(4, {"deals": 2, "all_pass": all_pass}, dealer=0)
        o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
        for seat, suit in ((1, "S"), (2, "H"), (3, "D"), (0, "C")):
            do(o, seat, "choose_suit", suit=suit)
        for seat in (1, 2, 3, 0):
            do(o, seat, "pass")
        res = o.result()
        assert res["deals"] == [{"scores": [0, 0, 0, 0], "abandoned": True}]
        assert res["complete"] is False and res["to_move"] == "chance"
        o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
        assert o.to_move() == next_first
    o = new(4, {}, dealer=0)  # one deal: the match ends, everybody shares the win (R10)
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    for seat, suit in ((1, "S"), (2, "H"), (3, "D"), (0, "C")):
        do(o, seat, "choose_suit", suit=suit)
    for seat in (1, 2, 3, 0):
        do(o, seat, "pass")
    assert o.result() == {
        "ok": True,
        "complete": True,
        "deals": [{"scores": [0, 0, 0, 0], "abandoned": True}],
        "totals": [0, 0, 0, 0],
        "winners": [0, 1, 2, 3],
    }
    with pytest.raises(ValueError, match="over"):  # R5
        o.apply({"chance": "shuffle", "cards": list(cfg(o).pack)})
    assert o.to_move() is None and o.legal() == []


def test_play_another_deal_after_tie() -> None:
    """R10: tie = play_another_deal also applies to deals(k)."""
    o = new(2, {"tie": "play_another_deal"}, dealer=0)
    for _ in range(3):
        o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
        first = mover(o)  # A10: with 2 players the dealer alternates
        assert first == 1 - deal(o).dealer
        do(o, first, "choose_suit", suit="S")
        do(o, 1 - first, "choose_suit", suit="H")
        do(o, first, "pass")
        do(o, 1 - first, "pass")
        assert o.to_move() == "chance"  # 0:0 is a tie: another deal
    assert len(o.result()["deals"]) == 3


def test_dummy_second_auction_and_dealer_alternation() -> None:
    """ABR-20, A4, A10: a fresh circuit after both pass; twice passed -> abandoned."""
    o = new(2, {"dummy": True, "deals": 2}, dealer=1)
    pack = o.legal()[0]["cards"]
    assert len(pack) == 37 and pack[-1] == "JK"
    o.apply({"chance": "shuffle", "cards": pack})
    assert pack[0] in deal(o).hands[2]  # A2: with dealer 1 the dummy gets the first card
    do(o, 0, "choose_suit", suit="D")
    assert len(o.legal()) == 3
    do(o, 1, "choose_suit", suit="S")
    do(o, 0, "pass")
    do(o, 1, "pass")
    assert o.to_move() == 0 and len(o.legal()) == 13  # second circuit: pass, 1..12
    do(o, 0, "pass")
    do(o, 1, "pass")
    assert o.result()["deals"] == [{"scores": [0, 0], "abandoned": True}]
    o.apply({"chance": "shuffle", "cards": pack})
    assert o.to_move() == 1  # dealer is now 0
    assert pack[0] in deal(o).hands[1]


def test_joker_turned_up_means_no_trump() -> None:
    """ABR-10: the Joker as indicator: no trump, no name_trump."""
    o = new(4, {}, dealer=3)
    pack = [c for c in o.legal()[0]["cards"] if c != "JK"] + ["JK"]
    o.apply({"chance": "shuffle", "cards": pack})
    assert deal(o).indicator == "JK" and deal(o).trump is None
    assert all("JK" not in h for h in deal(o).hands)
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    do(o, 0, "bid", tricks=2)
    for seat in (1, 2, 3):
        do(o, seat, "pass")
    do(o, 0, "place", tricks=[1, 2])
    assert deal(o).phase == "place"


def test_joker_is_a_trump_for_following() -> None:
    """ABR-10: the Joker is a copy of the indicator (7H) and follows hearts, not clubs."""
    o = setup_abr1()
    play_all(o, "KH 4H 6D")
    assert sorted(e["card"] for e in o.legal()) == sorted(["3H", "5H", "9H", "JH", "JK"])
    play_all(o, "9H 5C 6C QC 3C 8C")  # trick 3: clubs led, P4 holds clubs, so no Joker
    assert "JK" not in {e["card"] for e in o.legal()}


def test_must_trump_when_void() -> None:
    """H9: a void player holding a trump must play a trump (not necessarily overtrump)."""
    o = setup_abr1({"must_trump_when_void": True})
    play_all(o, "KH 4H 6D 9H  5C 6C QC 3C  8C 7C")
    assert o.to_move() == 0  # P1 has no club left
    assert sorted(e["card"] for e in o.legal()) == ["8H", "AH", "TH"]
    o = setup_abr1()
    play_all(o, "KH 4H 6D 9H  5C 6C QC 3C  8C 7C")
    assert len(o.legal()) == 11  # default: any card


@pytest.mark.parametrize(
    "players, options, where",
    [
        (3, {"three_player_joker": False}, "after_own"),
        (3, {"joker": "none"}, "after_own"),
        (2, {}, "after_own"),
        (2, {"dummy": True, "three_player_joker": False}, "after_own"),
        (4, {"joker": "none"}, "after_own"),
        (
            4,
            {"joker": "none", "trump_without_indicator": "declarer_names_after_all_rows"},
            "after_all",
        ),
        (3, {"three_player_joker": False, "trump_without_indicator": "no_trump"}, "never"),
    ],
)
def test_name_trump_timing(players: int, options: dict[str, Any], where: str) -> None:
    """ABR-17, ABR-18, A8, A9: when the declarer names trumps (a suit only)."""
    o = new(players, options, dealer=0)
    pack = o.legal()[0]["cards"]
    assert "JK" not in pack
    o.apply({"chance": "shuffle", "cards": pack})
    assert deal(o).indicator is None
    for suit in "SHDC"[:players]:
        do(o, mover(o), "choose_suit", suit=suit)
    decl = mover(o)
    do(o, decl, "bid", tricks=3)
    while deal(o).phase == "auction":
        do(o, mover(o), "pass")
    do(o, decl, "place", tricks=[1, 2, 3])
    if where == "after_own":
        assert o.to_move() == decl
        assert o.legal() == [{"seat": decl, "action": "name_trump", "suit": s} for s in "CDHS"]
        with pytest.raises(ValueError):
            o.apply({"seat": decl, "action": "name_trump", "suit": "hearts"})  # R6b
        o.apply({"seat": decl, "action": "name_trump", "suit": "h"})
        assert deal(o).trump == "H"
    while deal(o).phase == "place":
        do(o, mover(o), "place", tricks=[])
    if where == "after_all":
        do(o, decl, "name_trump", suit="C")
        assert deal(o).trump == "C"
    assert deal(o).phase == "declare" and o.to_move() == decl
    if where == "never":
        assert deal(o).trump is None


def test_declare_lists_and_leniency() -> None:
    """A6, A7, H5, R6, R7: declare lists, omitted fields, malformed and illegal declares."""
    o = new(2, {}, dealer=0)  # 2 players without dummy: 24 cards, 12 tricks
    o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
    do(o, 1, "choose_suit", suit="S")
    do(o, 0, "choose_suit", suit="H")
    do(o, 1, "bid", tricks=12)
    do(o, 0, "pass")
    do(o, 1, "place", tricks=list(range(1, 13)))  # the whole suit: the pile is empty
    do(o, 1, "name_trump", suit="D")
    assert len(o.legal()) == 4095  # b = 0..11 of 12
    do(o, 0, "place", tricks=[12, 11][::-1])
    legal = o.legal()
    assert len(legal) == 2 * 2**12  # A7: every subset; A6: pile true still legal
    assert {"seat": 1, "action": "declare", "expose": [], "pile": True} in legal
    assert all(set(e) == {"seat", "action", "expose", "pile"} for e in legal)
    keys = [canon_key(e) for e in legal]
    assert keys == sorted(keys)
    before = state_snapshot(o)
    bad: list[dict[str, Any]] = [
        {"seat": 1, "action": "declare", "expose": [3, 3]},  # R7: repeated value
        {"seat": 1, "action": "declare", "expose": [13]},  # not in the row
        {"seat": 1, "action": "declare", "pile": 1},  # not a boolean
        {"seat": 1, "action": "declare", "shown": []},  # unknown field (R6)
        {"seat": 0, "action": "declare"},  # not seat 0's turn
        {"seat": 1, "action": "play", "card": "AS"},  # wrong action
        {"chance": "shuffle", "cards": []},
    ]
    for event in bad:
        with pytest.raises(ValueError):
            o.apply(event)
        assert state_snapshot(o) == before  # unchanged after an error
    o.apply({"seat": 1, "action": "declare", "expose": [12, 1]})  # pile omitted: false
    assert deal(o).right == {1: True, 12: True} and not deal(o).pile_exposed[1]
    assert o.legal() == [
        {"seat": 0, "action": "declare", "pile": False},
        {"seat": 0, "action": "declare", "pile": True},
    ]
    with pytest.raises(ValueError):
        o.apply({"seat": 0, "action": "declare", "expose": [11], "pile": True})  # R6
    o.apply({"seat": 0, "action": "declare", "expose": [], "pile": True})  # R6: allowed
    assert deal(o).pile_exposed == [True, False] and deal(o).phase == "play"


def test_right_row_exposure_false() -> None:
    o = new(4, {"right_row_exposure": False}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_order(ABR1_HANDS, 3, ["7H"])})
    for seat, suit in ((0, "S"), (1, "H"), (2, "D"), (3, "C")):
        do(o, seat, "choose_suit", suit=suit)
    do(o, 0, "bid", tricks=4)
    for seat in (1, 2, 3):
        do(o, seat, "pass")
    for seat in (0, 1, 2, 3):
        do(o, seat, "place", tricks=[1, 2, 3, 4] if seat == 0 else [])
    assert o.legal() == [
        {"seat": 0, "action": "declare", "expose": [], "pile": False},
        {"seat": 0, "action": "declare", "expose": [], "pile": True},
    ]
    o.apply({"seat": 0, "action": "declare"})  # R6: both fields omitted


def test_event_leniency_and_malformed() -> None:
    """R6, R7: lowercase and 10 accepted; unknown fields and repeats malformed."""
    o = new(4, {}, dealer=3)
    cards = [c.lower() for c in shuffle_order(ABR1_HANDS, 3, ["7H"])]
    cards = ["10" + c[1] if c[0] == "t" else c for c in cards]
    bad_shuffles: list[dict[str, Any]] = [
        {"chance": "shuffle", "cards": cards[:-1]},
        {"chance": "shuffle", "cards": cards[:-1] + [cards[0]]},
        {"chance": "shuffle", "cards": cards, "seat": 0},
        {"chance": "reshuffle", "cards": cards},
        {"seat": 0, "action": "choose_suit", "suit": "S"},
    ]
    for bad_shuffle in bad_shuffles:
        with pytest.raises(ValueError):
            o.apply(bad_shuffle)
    o.apply({"chance": "shuffle", "cards": cards})
    for seat, suit in ((0, "s"), (1, "H"), (2, "d"), (3, "C")):
        o.apply({"seat": seat, "action": "choose_suit", "suit": suit})
    assert deal(o).bid_suit == ["S", "H", "D", "C"]
    do(o, 0, "bid", tricks=4)
    for seat in (1, 2, 3):
        do(o, seat, "pass")
    before = state_snapshot(o)
    bad_events: list[Any] = [
        {"seat": 0, "action": "place", "tricks": [1, 1, 2, 3]},
        {"seat": 0, "action": "place", "tricks": [1, 2, 3]},
        {"seat": 0, "action": "place", "tricks": [0, 1, 2, 3]},
        {"seat": 0, "action": "place", "tricks": [1, 2, 3, True]},
        {"seat": 0, "action": "place"},
        {"seat": 0, "action": "place", "tricks": [1, 2, 3, 4], "note": "x"},
        {"seat": 0, "action": "bid", "tricks": 5},
        {"seat": 0, "action": "dance"},
        {"seat": "0", "action": "place", "tricks": [1, 2, 3, 4]},
        ["place"],
    ]
    for bad in bad_events:
        with pytest.raises(ValueError):
            o.apply(bad)
        assert state_snapshot(o) == before
    o.apply({"seat": 0, "action": "place", "tricks": [13, 1, 10, 2]})
    assert deal(o).left[0] == {1: False, 2: False, 10: False, 13: False}
    for seat in (1, 2, 3):
        o.apply({"seat": seat, "action": "place", "tricks": []})
    o.apply({"seat": 0, "action": "declare", "pile": False})
    for seat in (1, 2, 3):
        o.apply({"seat": seat, "action": "declare", "expose": []})
    o.apply({"seat": 0, "action": "play", "card": "kh"})
    o.apply({"seat": 1, "action": "play", "card": "4H"})
    with pytest.raises(ValueError):
        o.apply({"seat": 2, "action": "play", "card": "KH"})  # not in hand
    with pytest.raises(ValueError):
        o.apply({"seat": 2, "action": "play", "card": "XX"})
    o.apply({"seat": 2, "action": "play", "card": "6d"})
    with pytest.raises(ValueError):
        o.apply({"seat": 3, "action": "play", "card": "2S"})  # must follow hearts
    o.apply({"seat": 3, "action": "play", "card": "9h"})
    o.apply({"seat": 0, "action": "play", "card": "10d"})
    assert deal(o).trick == [(0, "TD")]


def test_required_call() -> None:
    """A13 reading of abracadabra_call = required_else_card_fails: call / no_call events."""
    o = setup_abr1({"abracadabra_call": "required_else_card_fails"})
    play_all(o, "KH 4H 6D 9H")  # P1 wins trick 1 and holds left-row card 1
    assert o.to_move() == 0
    assert o.legal() == [{"seat": 0, "action": "call"}, {"seat": 0, "action": "no_call"}]
    with pytest.raises(ValueError):
        o.apply({"seat": 0, "action": "play", "card": "5C"})
    # Calling every time reproduces the default scores.
    o = play_abr1({"abracadabra_call": "required_else_card_fails"})
    assert o.result()["totals"] == [23, 45, 26, 25]
    # Not calling on trick 1 sends P1's Ace to the centre: P1 loses face value 1.
    o = play_abr1({"abracadabra_call": "required_else_card_fails"}, calls={1: "no_call"})
    assert o.result()["totals"] == [22, 45, 26, 25]
    assert (0, 1) in o.details[0]["centre"]
    # A right-row success (trick 9 for the declarer) needs no call; P3's left 2 does.
    o = setup_abr1({"abracadabra_call": "required_else_card_fails"})
    play_all(o, "KH 4H 6D 9H")
    do(o, 0, "call")
    play_all(o, "5C 6C QC 3C")
    assert o.to_move() == 2 and o.legal()[0]["action"] == "call"


@pytest.mark.parametrize(
    "rule, success",
    [
        ("exact_count", False),  # 1 trick, bid 0
        ("all_named_tricks", True),  # vacuous (A5)
        ("exact_named_set", False),  # took a trick (A5)
        ("at_least", True),  # ABR-22
    ],
)
def test_zero_bid_success(rule: str, success: bool) -> None:
    """A5: success of P4's 0-bid (P4 took trick 10) under each rule."""
    o = play_abr1({"success_rule": rule}, p4_place=[])
    assert o.details[0]["success"][3] is success


def test_option_validation() -> None:
    """R3, H1, H2, H3, R9: bad tables, unknown options, bad values."""
    o = AbracadabraOracle()
    for name in list(DEFAULTS) + ["tie", "deals", "target"]:
        with pytest.raises(ValueError):
            o.new("abracadabra", 4, {name: "no-such-value"})
    for name, values in ENUM_OPTIONS.items():
        for value in values:
            o.new("abracadabra", 4, {name: value})
    bad_calls: list[tuple[Any, Any, Any, Any]] = [
        ("vandatta", 4, {}, 0),
        ("abracadabra", 5, {}, 0),
        ("abracadabra", 1, {}, 0),
        ("abracadabra", 4, {}, 4),
        ("abracadabra", 2, {"dummy": True}, 2),
        ("abracadabra", 3, {"dummy": True}, 0),
        ("abracadabra", 4, {"colour": "red"}, 0),
        ("abracadabra", 4, {"deals": 2, "target": 100}, 0),
        ("abracadabra", 4, {"deals": 0}, 0),
        ("abracadabra", 4, {"deals": True}, 0),
        ("abracadabra", 4, {"game_end": "deals(2)", "deals": 2}, 0),
        ("abracadabra", 4, {"game_end": "elimination(50)"}, 0),
        ("abracadabra", 4, {"nondeclarer_min_bid": True}, 0),
        ("abracadabra", 4, {"pile_bonus_per_card": -1}, 0),
        ("abracadabra", 4, {"right_row_exposure": "true"}, 0),
    ]
    for game, players, options, dealer in bad_calls:
        with pytest.raises(ValueError):
            o.new(game, players, options, dealer)
    o.new("abracadabra", 4, {"game_end": "deals(2)"}, 0)
    assert (cfg(o).match_mode, cfg(o).match_value) == ("deals", 2)
    o.new("abracadabra", 4, {"game_end": "target(150)"}, 0)
    assert (cfg(o).match_mode, cfg(o).match_value) == ("target", 150)


@pytest.mark.parametrize(
    "players, options, size",
    [
        (4, {}, 53),
        (4, {"joker": "none"}, 52),
        (3, {}, 37),
        (3, {"three_player_joker": False}, 36),
        (2, {"dummy": True}, 37),
        (2, {"dummy": True, "joker": "none"}, 36),
        (2, {}, 24),
    ],
)
def test_packs_and_incomplete_result(players: int, options: dict[str, Any], size: int) -> None:
    """R2, R4, A3: the shuffle template and the incomplete replay answer."""
    o = new(players, options)
    res = o.result()
    assert list(res) == ["ok", "complete", "deals", "totals", "winners", "to_move", "legal"]
    assert res["complete"] is False and res["winners"] == [] and res["to_move"] == "chance"
    (template,) = res["legal"]
    cards = template["cards"]
    assert template["chance"] == "shuffle" and len(cards) == size
    assert cards == sorted(cards, key=card_index)
    assert res["totals"] == [0] * players


def test_clone_is_independent() -> None:
    o = setup_abr1()
    c = o.clone()
    play_all(c, "KH 4H 6D 9H")
    assert o.to_move() == 0 and len(deal(o).hands[0]) == 13
    assert deal(c).trick_no == 2 and len(deal(c).hands[0]) == 12


# ----------------------------------------------------------------------------- random play

RANDOM_OPTIONS: dict[str, list[Any]] = {
    **{name: list(values) for name, values in ENUM_OPTIONS.items()},
    "joker_counts_for_suit_bonus": [True, False],
    "must_trump_when_void": [True, False],
    "right_row_exposure": [True, False],
    "exposures_combinable": [True, False],
    "three_player_joker": [True, False],
    "pile_bonus_per_card": [4, 3],
}


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    options = {k: rng.choice(v) for k, v in RANDOM_OPTIONS.items() if rng.random() < 0.4}
    if players == 2:
        options["dummy"] = rng.random() < 0.5
    match = rng.random()
    if match < 0.3:
        options["deals"] = rng.randint(1, 2)
    elif match < 0.45:
        options["target"] = rng.choice([30, 60])
    return options


# The oracle's own random run; the engine's random play is tests/test_abracadabra_oracle.py.
@oracle_only
def test_random_play_smoke() -> None:
    """Seeded random matches over every table: invariants, legal/apply agreement, R4/R5."""
    rng = random.Random(20240531)
    for match in range(250):
        players = rng.choice([2, 3, 4])
        options = random_options(rng, players)
        o = new(players, options, dealer=rng.randrange(players))
        cfg = o.cfg
        assert cfg is not None
        steps = 0
        while o.to_move() is not None:
            steps += 1
            assert steps < 5000
            legal = o.legal()
            assert legal, o.to_move()
            if o.to_move() == "chance":
                cards = list(legal[0]["cards"])
                rng.shuffle(cards)
                o.apply({"chance": "shuffle", "cards": cards})
                continue
            if match % 50 == 0:  # canonical order (H5) and seats on some matches
                keys = [canon_key(e) for e in legal]
                assert keys == sorted(keys) and len(set(keys)) == len(keys)
                assert all(e["seat"] == o.to_move() for e in legal)
            if match % 5 == 0:  # errors leave the state unchanged
                before = repr(o.deal)
                with pytest.raises(ValueError):
                    o.apply({**legal[0], "seat": (mover(o) + 1) % 3})
                with pytest.raises(ValueError):
                    o.apply({**legal[-1], "extra": 1})
                assert repr(o.deal) == before
            event = rng.choice(legal)
            deals_before = len(o.deals)
            o.apply(event)
            if len(o.deals) > deals_before:
                check_deal(o, cfg)
        res = o.result()
        assert res["complete"] is True and "to_move" not in res
        assert res["totals"] == [sum(d["scores"][p] for d in res["deals"]) for p in range(players)]
        top = max(res["totals"])
        assert res["winners"] == [p for p, t in enumerate(res["totals"]) if t == top]
        check_match_end(res, options)
        with pytest.raises(ValueError):
            o.apply({"chance": "shuffle", "cards": list(cfg.pack)})  # R5


def check_match_end(res: dict[str, Any], options: dict[str, Any]) -> None:
    """R9, R10, A12: the match ended after the right deal."""
    deals = res["deals"]

    def totals_after(k: int) -> list[int]:
        return [sum(d["scores"][p] for d in deals[:k]) for p in range(len(res["totals"]))]

    def tied_top(k: int) -> bool:
        t = totals_after(k)
        return t.count(max(t)) > 1

    if "target" in options:
        reached = [k for k in range(1, len(deals) + 1) if max(totals_after(k)) >= options["target"]]
        assert reached
        first = reached[0]
    else:
        first = options.get("deals", 1)
    if options.get("tie") == "play_another_deal":
        assert len(deals) >= first and len(res["winners"]) == 1
        assert all(tied_top(k) for k in range(first, len(deals)))
    else:
        assert len(deals) == first


def check_deal(o: AbracadabraOracle, cfg: Any) -> None:
    """Invariants of one finished deal (brief §7)."""
    det = o.details[-1]
    if det.get("abandoned"):
        assert o.deals[-1] == {"scores": [0] * cfg.players, "abandoned": True}
        return
    assert sum(det["tricks"]) == cfg.ntricks
    assert len(det["trick_winners"]) == cfg.ntricks
    # Every left-row card ends face up in the row or in the centre; right rows are resolved.
    for p in range(cfg.players):
        assert all(det["left"][p].values())
        placed = set(det["left"][p]) | {t for q, t in det["centre"] if q == p}
        if p == det["declarer"]:
            placed |= set(det["right"])
        assert len(placed) == det["placed"][p]
    n = sum(det["success"])
    for p, score in enumerate(o.deals[-1]["scores"]):
        if p != det["declarer"]:
            assert score >= 0  # only the right row can make a score negative
        if det["success"][p]:
            assert score >= 10 * (cfg.players - n + 1)
