"""Tests of the Abracadabra (Paul Newton) oracle against the brief's worked examples and rules.

Each worked example (NEW-1, NEW-2, NEW-3) is played as a complete deal built here from a list
of tricks (one card per hand, in seat order).  Tricks 1..12 are of one suit each, so every play
follows suit; the premises the brief gives (tricks taken, rank-number cards captured) are
checked as well as the scores and money it computes by hand.  Then the rules quoted from the
brief, settled points (N-n, R-n) and a seeded random-play test over every table.

Each test runs as ``[oracle]`` (the oracle alone) and as ``[engine]`` (the oracle and the engine
in lock step, see ``implementation``), except the tests that set a hand mid-deal and the
oracle's own random-play smoke test.

Run: ``python -m pytest -q tests/oracles/test_oracle_abracadabra_newton.py``
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from .abracadabra_newton import (
    DUMMY,
    JOKER,
    AbracadabraNewtonOracle,
    Deal,
    canon_key,
    card_index,
)

GAME = "abracadabra-newton"

# ----------------------------------------------------------------------------- implementations


@pytest.fixture(autouse=True, params=["oracle", "engine"])
def implementation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs twice.  ``[oracle]``: on the oracle alone.  ``[engine]``: on a twin
    (tests/twin.py) in place of ``AbracadabraNewtonOracle``, which answers every call from the
    oracle and from the engine playing rulespec/games/abracadabra_newton.rules, and fails as
    soon as the two disagree on who moves, the legal events, an accepted or refused event, or
    the result (scores, money, pot_carry, totals, winners).  A test about the oracle alone is
    marked ``@oracle_only`` and has no ``[engine]`` case."""
    if request.param == "engine":
        from tests.twin import make_twin  # only the [engine] cases import the engine

        monkeypatch.setitem(globals(), "AbracadabraNewtonOracle",
                            make_twin(AbracadabraNewtonOracle, GAME,
                                      white_box={"pot": "pot", "totals": "totals"}))
    return str(request.param)


oracle_only = pytest.mark.parametrize("implementation", ["oracle"], indirect=True)

# ----------------------------------------------------------------------------- helpers


def new(
    players: int, options: dict[str, Any] | None = None, dealer: int = 0
) -> AbracadabraNewtonOracle:
    o = AbracadabraNewtonOracle()
    o.new(GAME, players, options or {}, dealer)
    return o


def deal(o: AbracadabraNewtonOracle) -> Deal:
    assert o.deal is not None
    return o.deal


def shuffle_for(tricks: list[str], dealer: int, indicator: str | None) -> list[str]:
    """The shuffle that deals hand s the s-th card of every trick (records.md deal rule)."""
    rows = [t.split() for t in tricks]
    nh = len(rows[0])
    hands = [[r[s] for r in rows] for s in range(nh)]
    order: list[str] = []
    seat = (dealer + 1) % nh
    pos = [0] * nh
    for _ in range(nh * len(rows)):
        order.append(hands[seat][pos[seat]])
        pos[seat] += 1
        seat = (seat + 1) % nh
    return order + ([indicator] if indicator else [])


def do(o: AbracadabraNewtonOracle, action: str, **fields: Any) -> None:
    seat = o.to_move()
    assert isinstance(seat, int)
    o.apply({"seat": seat, "action": action, **fields})


def play_tricks(
    o: AbracadabraNewtonOracle, tricks: list[str], calls: dict[int, bool] | None = None
) -> None:
    """Play the tricks: each hand plays its card of trick t; call decisions from ``calls``."""
    rows = [t.split() for t in tricks]
    for row in rows:
        for _ in row:
            while deal(o).phase == "call":
                seat = o.to_move()
                assert isinstance(seat, int)
                do(o, "call" if (calls or {}).get(seat, True) else "no_call")
            seat = o.to_move()
            assert isinstance(seat, int)
            do(o, "play", card=row[seat])
    while o.deal is not None and o.deal.phase == "call":
        seat = o.to_move()
        assert isinstance(seat, int)
        do(o, "call" if (calls or {}).get(seat, True) else "no_call")


# Example NEW-1 (seats 0..3 = P1..P4, P4 deals, Joker turned up: no trumps).
NEW1 = [
    "AC 5C 3C 4C", "KC 6C 7C 8C", "QC 9C TC JC",
    "AD 5D 3D 4D", "KD 6D 7D 8D", "9D QD TD JD",
    "3H AH 5H 4H", "6H KH 7H 8H", "9H QH TH JH",
    "3S 4S AS 6S", "5S 7S 8S KS", "9S TS JS QS",
    "2C 2D 2H 2S",
]  # fmt: skip


def play_new1(
    options: dict[str, Any] | None = None,
    show: list[str] | None = None,
    calls: dict[int, bool] | None = None,
) -> AbracadabraNewtonOracle:
    o = new(4, options, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    do(o, "show", cards=show if show is not None else ["5D", "QD"])
    play_tricks(o, NEW1, calls)
    return o


def test_new1_worked_example() -> None:
    o = play_new1()
    det = o.details[0]
    assert det["declarer"] == 1 and det["D"] == 5  # tie 5/5: the earliest bidder, P2
    assert det["trump"] is None  # a Joker turned up: no trumps
    assert det["tricks"] == [5, 4, 1, 3]
    assert det["R"] == [2, 1, 0, 1]  # fives captured
    assert det["pot"] == 6  # 4 antes + 2 shown
    res = o.result()
    assert res["deals"] == [{"scores": [49, 6, 1, 5], "money": [5, -3, -1, -1], "pot_carry": 0}]
    assert res["totals"] == [49, 6, 1, 5] and res["winners"] == [0] and res["complete"]


def test_new1_own_bid_carries_the_pot() -> None:
    o = play_new1({"success_target": "own_bid", "deals": 2})
    assert o.deals[0] == {"scores": [9, 6, 1, 5], "money": [-1, -3, -1, -1], "pot_carry": 6}
    assert o.pot == 6 and o.to_move() == "chance"


def test_new1_declarer_leads_and_show_facts() -> None:
    o = new(4, {}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    assert o.to_move() == 0  # bidding starts left of the dealer
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    assert o.to_move() == 1 and deal(o).phase == "show"
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "show", "cards": ["AC"]})  # not in P2's hand
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "show", "cards": ["5D", "5d"]})  # repeated (R7)
    with pytest.raises(ValueError):
        o.apply({"seat": 0, "action": "show", "cards": []})  # only the declarer shows
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "play", "card": "5C"})  # show first (N7)
    assert len(o.legal()) == 2**13
    do(o, "show", cards=["qd", "5D"])
    assert deal(o).shown == ["5D", "QD"] and deal(o).stakes == [1, 3, 1, 1]
    assert o.to_move() == 1  # the declarer leads trick 1
    obs = o.observe(0)
    assert obs["shown"] == ["5D", "QD"] and obs["pot"] == 6 and len(obs["hand"]) == 13
    do(o, "play", card="5C")
    assert deal(o).hands[1].count("5C") == 0 and o.observe(2)["trick"] == [[1, "5C"]]


@pytest.mark.parametrize(
    ("options", "stakes", "money"),
    [
        ({"show_effect": "none"}, [1, 1, 1, 1], [3, -1, -1, -1]),
        ({"show_effect": "multiply_per_card(2)"}, [1, 4, 1, 1], [6, -4, -1, -1]),
        ({"show_effect": "add_per_card( 3 )"}, [1, 7, 1, 1], [9, -7, -1, -1]),
        ({"stake_mode": "equals_bid"}, [3, 7, 4, 5], [16, -7, -4, -5]),
    ],
)
def test_stake_and_show_effects(
    options: dict[str, Any], stakes: list[int], money: list[int]
) -> None:
    o = play_new1(options)
    assert o.details[0]["stakes"] == stakes
    assert o.deals[0]["money"] == money and o.deals[0]["scores"] == [49, 6, 1, 5]


def test_free_stake_is_a_bid_field() -> None:
    o = new(4, {"stake_mode": "free(1,3)"}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    legal = o.legal()
    assert len(legal) == 14 * 3
    assert legal[0] == {"seat": 0, "action": "bid", "tricks": 0, "stake": 1}
    with pytest.raises(ValueError):
        do(o, "bid", tricks=3)  # the stake is missing
    with pytest.raises(ValueError):
        do(o, "bid", tricks=3, stake=4)
    for b, k in ((3, 2), (5, 1), (4, 3), (5, 1)):
        do(o, "bid", tricks=b, stake=k)
    assert deal(o).stakes == [2, 1, 3, 1]
    o2 = new(4, {})
    o2.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 0, JOKER)})
    with pytest.raises(ValueError):
        do(o2, "bid", tricks=3, stake=1)  # no stake field under ante(1)


def test_bidding_rules() -> None:
    o = new(4, {}, dealer=0)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 0, JOKER)})
    legal = o.legal()
    assert sorted(e["tricks"] for e in legal) == list(range(14))  # 0..13, no pass (NEW-5)
    assert [canon_key(e) for e in legal] == sorted(canon_key(e) for e in legal)
    assert o.to_move() == 1
    for bad in (14, -1, "3", True):
        with pytest.raises(ValueError):
            do(o, "bid", tricks=bad)
    with pytest.raises(ValueError):
        o.apply({"seat": 1, "action": "pass"})
    for b in (7, 2, 7, 1):  # bids need not go up
        do(o, "bid", tricks=b)
    assert deal(o).declarer == 1 and deal(o).D == 7


@pytest.mark.parametrize(("rule", "declarer"), [("earliest", 1), ("latest", 3)])
def test_declarer_tie_break(rule: str, declarer: int) -> None:
    o = play_new1({"declarer_tie_break": rule}, show=[] if declarer == 3 else None)
    assert o.details[0]["declarer"] == declarer


def test_redeal_on_tie_and_everyone_zero() -> None:
    o = new(4, {"declarer_tie_break": "redeal", "deals": 2}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    assert o.deals == [{"scores": [0] * 4, "money": [0] * 4, "pot_carry": 0, "abandoned": True}]
    assert o.to_move() == "chance" and o.dealer == 0
    o = new(4, {}, dealer=3)  # NEW-6: all bid 0 -> D = 0, the earliest bidder declares
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for _ in range(4):
        do(o, "bid", tricks=0)
    assert deal(o).declarer == 0 and deal(o).D == 0


# Example NEW-2 (P4 deals; 3 units carried over).
NEW2 = [
    "AC 2C 4C 5C", "KC 6C 7C 8C", "9C QC TC JC",
    "4D AD 5D 6D", "2D 7D KD 8D", "9D TD QD JD",
    "2H 4H AH 5H", "6H 7H KH 8H", "9H TH QH JH",
    "4S 5S AS 6S", "2S 7S 8S KS", "9S TS JS QS",
    "3C 3D 3H 3S",
]  # fmt: skip


def play_new2(
    options: dict[str, Any] | None = None, calls: dict[int, bool] | None = None
) -> AbracadabraNewtonOracle:
    o = new(4, options, dealer=3)
    o.pot = 3  # white box: the 3 units carried over from an earlier deal
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW2, 3, JOKER)})
    for b in (2, 1, 2, 0):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    play_tricks(o, NEW2, calls)
    return o


def test_new2_split_and_remainder() -> None:
    o = play_new2({"deals": 2})
    det = o.details[0]
    assert det["declarer"] == 0 and det["D"] == 2
    assert det["tricks"] == [2, 2, 6, 3] and det["R"] == [1, 0, 2, 1]
    assert o.deals[0] == {"scores": [34, 32, 10, 5], "money": [2, 2, -1, -1], "pot_carry": 1}


def test_new2_most_tricks() -> None:
    o = play_new2({"pot_recipients": "most_tricks", "deals": 2})
    assert o.deals[0]["money"] == [-1, -1, 6, -1] and o.deals[0]["pot_carry"] == 0
    assert o.deals[0]["scores"] == [34, 32, 10, 5]  # SB still follows S (N4)


def test_new2_remainder_to_first_successful() -> None:
    o = play_new2({"pot_remainder": "first_successful_from_dealer_left", "deals": 2})
    assert o.deals[0]["money"] == [3, 2, -1, -1] and o.deals[0]["pot_carry"] == 0


def test_new2_required_call_forgotten() -> None:
    o = play_new2({"call_mode": "required", "deals": 2}, calls={1: False})
    assert o.deals[0] == {"scores": [44, 2, 10, 5], "money": [6, -1, -1, -1], "pot_carry": 0}
    with_bonus = play_new2(
        {"call_mode": "required", "bonus_requires_call": True, "deals": 2}, calls={1: False}
    )
    assert with_bonus.deals[0]["scores"] == [44, 0, 10, 5]  # P3, P4 called on reaching 2


def test_required_call_timing() -> None:
    o = new(4, {"call_mode": "required"}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW2, 3, JOKER)})
    for b in (2, 1, 2, 0):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    rows = [t.split() for t in NEW2]
    for row in rows[:2]:
        for _ in row:
            do(o, "play", card=row[o.to_move()])  # type: ignore[index]
    assert deal(o).phase == "call" and o.to_move() == 0  # P1's count reached D = 2
    assert o.legal() == [{"seat": 0, "action": "call"}, {"seat": 0, "action": "no_call"}]
    with pytest.raises(ValueError):
        o.apply({"seat": 0, "action": "play", "card": "QC"})
    do(o, "call")
    assert deal(o).phase == "play" and o.to_move() == 0


def test_required_call_with_d_zero_before_first_lead() -> None:
    o = new(4, {"call_mode": "required"}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for _ in range(4):
        do(o, "bid", tricks=0)
    do(o, "show", cards=[])
    assert [o.to_move(), deal(o).phase] == [0, "call"]
    for _ in range(4):
        do(o, "call")
    assert deal(o).phase == "play" and o.to_move() == 0


def test_automatic_call_writes_nothing() -> None:
    o = play_new1()
    assert all(d["called"] is not None for d in o.details)
    assert o.details[0]["called"] == [True, False, False, False]


# Example NEW-3 (3 players, P3 deals, KS turned up: spades trumps, the Joker the top trump).
NEW3 = [
    "AC 6C 7C", "8C KC 9C", "TC QC JC",
    "6D KD 7D", "8D 9D AD", "TD JD QD",
    "6H 7H AH", "8H 9H KH", "TH JH QH",
    "AS 6S JK", "7S 8S QS", "9S TS JS",
]  # fmt: skip


def play_new3(options: dict[str, Any] | None = None) -> AbracadabraNewtonOracle:
    o = new(3, options, dealer=2)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW3, 2, "KS")})
    for b in (0, 1, 0):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    play_tricks(o, NEW3)
    return o


@pytest.mark.parametrize(("ace", "scores"), [(1, [33, 3, 14]), (14, [31, 3, 8])])
def test_new3_ace_number(ace: int, scores: list[int]) -> None:
    o = play_new3({"ace_number": ace})
    det = o.details[0]
    assert det["trump"] == "S" and det["declarer"] == 1 and det["D"] == 1
    assert det["tricks"] == [1, 3, 8]
    assert o.deals[0] == {"scores": scores, "money": [2, -1, -1], "pot_carry": 0}
    assert det["trick_winners"][9] == 2  # the Joker beat the trump Ace (NEW-9)


# sets the hands mid-deal, which has no engine counterpart; the differential test
# (tests/test_abracadabra_newton_oracle.py) plays these rules on both sides
@oracle_only
def test_joker_follows_as_trump() -> None:
    o = new(3, {}, dealer=2)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW3, 2, "KS")})
    for b in (0, 1, 0):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    d = deal(o)
    d.hands[2] = ["2C", JOKER]  # white box: a hand with only the Joker in trumps
    d.led_suit, d.trick = "S", [(1, "6S")]
    d.leader = 1
    assert o.to_move() == 2 and [e["card"] for e in o.legal()] == [JOKER]
    o.cfg.opts["joker_mode"] = "suitless_top"  # type: ignore[union-attr]
    assert [e["card"] for e in o.legal()] == ["2C", JOKER]  # void in spades then


# sets the hands mid-deal, which has no engine counterpart; the differential test
# (tests/test_abracadabra_newton_oracle.py) plays these rules on both sides
@oracle_only
def test_suitless_joker_wins_and_next_card_sets_suit() -> None:
    o = new(3, {"joker_mode": "suitless_top"}, dealer=2)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW3, 2, "KS")})
    for b in (0, 1, 0):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    d = deal(o)
    d.hands = [["AS", "6C"], ["6H", "7C"], ["2C", JOKER]]  # white box
    d.leader = 2
    do(o, "play", card=JOKER)
    assert sorted(e["card"] for e in o.legal()) == ["6C", "AS"]  # anything after the Joker
    do(o, "play", card="6C")
    assert [e["card"] for e in o.legal()] == ["7C"]  # clubs to follow now
    do(o, "play", card="7C")
    assert d.trick_winners == [2] and o.to_move() == 2


def test_identity_joker_counts_as_indicator() -> None:
    o = new(3, {"joker_mode": "identity_of_indicator"}, dealer=2)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW3, 2, "KS")})
    assert o._number_of(JOKER) == 13 and o._suit_of(JOKER) == "S"  # N2
    assert o._rank_of(JOKER) < o._rank_of("AS")


def test_joker_turned_up_no_trumps() -> None:
    o = play_new1()
    assert o.details[0]["indicator"] == JOKER and o.details[0]["trump"] is None


def test_two_player_no_dummy_names_trump() -> None:
    o = new(2, {}, dealer=0)
    assert o.legal()[0]["cards"] == [r + s for s in "CDHS" for r in "9TJQKA"]
    cards = list(o.legal()[0]["cards"])
    o.apply({"chance": "shuffle", "cards": cards})
    assert o.to_move() == 1  # the non-dealer bids first
    do(o, "bid", tricks=12)
    with pytest.raises(ValueError):
        do(o, "bid", tricks=13)
    do(o, "bid", tricks=3)
    assert deal(o).phase == "name_trump" and o.to_move() == 1
    with pytest.raises(ValueError):
        do(o, "name_trump", suit="hearts")
    do(o, "name_trump", suit="h")
    assert deal(o).trump == "H" and deal(o).phase == "show"
    o2 = new(2, {"trump_without_indicator": "no_trump"})
    o2.apply({"chance": "shuffle", "cards": cards})
    do(o2, "bid", tricks=2)
    do(o2, "bid", tricks=2)
    assert deal(o2).phase == "show" and deal(o2).trump is None
    o3 = new(2, {"two_player_joker": True})
    assert len(o3.legal()[0]["cards"]) == 25 and o3.legal()[0]["cards"][-1] == JOKER


def test_three_players_without_joker() -> None:
    o = new(3, {"three_player_joker": False})
    assert len(o.legal()[0]["cards"]) == 36
    assert len(new(3).legal()[0]["cards"]) == 37  # N1: the Joker is in by default


def test_dummy_game() -> None:
    o = new(2, {"dummy": True}, dealer=0)
    pack = o.legal()[0]["cards"]
    assert len(pack) == 37
    o.apply({"chance": "shuffle", "cards": pack})
    d = deal(o)
    assert [len(h) for h in d.hands] == [12, 12, 12]
    assert d.hands[1][0] == pack[0] and d.indicator == pack[36]  # dealt from seat 1
    assert "dummy" not in o.observe(0)
    do(o, "bid", tricks=4)
    do(o, "bid", tricks=2)
    assert d.declarer == 1 and d.phase == "show" and len(o.observe(0)["dummy"]) == 12
    do(o, "show", cards=[])
    order = []
    for _ in range(3):
        order.append(o.to_move())
        do(o, "play", card=o.legal()[0]["card"])
    assert order == [1, 0, DUMMY]  # the dummy plays third
    assert sum(d.tricks) == 1 and len(d.tricks) == 2
    winner = d.trick_winners[0]
    assert winner in (0, 1) and o.to_move() == winner and d.controller == winner


# sets the hands mid-deal, which has no engine counterpart; the differential test
# (tests/test_abracadabra_newton_oracle.py) plays these rules on both sides
@oracle_only
def test_dummy_trick_credit_and_leads() -> None:
    for rule, next_leader in (("controller_leads", 1), ("dummy_leads_by_last_controller", DUMMY)):
        o = new(2, {"dummy": True, "dummy_after_win": rule}, dealer=0)
        o.apply({"chance": "shuffle", "cards": o.legal()[0]["cards"]})
        do(o, "bid", tricks=4)
        do(o, "bid", tricks=2)
        do(o, "show", cards=[])
        d = deal(o)
        d.hands = [["6C", "7H"], ["7C", "8H"], ["AC", "9H"]]  # white box, trump D or none
        d.trump = "S"
        for c in ("7C", "6C", "AC"):
            do(o, "play", card=c)
        assert d.tricks == [0, 1] and d.captured[1] == ["7C", "6C", "AC"]
        assert d.leader == next_leader and d.controller == 1
        if next_leader == DUMMY:
            assert o.to_move() == DUMMY
            do(o, "play", card="9H")
            assert o.to_move() == 0


def test_first_lead_option() -> None:
    o = new(4, {"first_lead": "dealer_left"}, dealer=3)
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    assert o.to_move() == 0


def test_match_end_target_tie_and_end_payout() -> None:
    o = new(4, {"target": 40, "success_target": "own_bid"}, dealer=3)
    o.totals = [0, 43, 0, 0]  # white box
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    do(o, "show", cards=["5D", "QD"])
    play_tricks(o, NEW1)
    assert o.totals == [9, 49, 1, 5] and o.over  # 49 >= 40, alone: P2 wins
    # N5: the carried pot of 6 goes to the winner in the last deal's money.
    assert o.deals[-1] == {"scores": [9, 6, 1, 5], "money": [-1, 3, -1, -1], "pot_carry": 0}
    assert o.result()["winners"] == [1]
    with pytest.raises(ValueError):
        o.apply({"chance": "shuffle", "cards": []})  # R5


def test_target_tie_means_another_deal() -> None:
    o = new(4, {"target": 40}, dealer=3)
    o.totals = [0, 43, 0, 0]  # white box: 49 and 49 after the deal
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    do(o, "show", cards=[])
    play_tricks(o, NEW1)
    assert o.totals == [49, 49, 1, 5] and not o.over and o.to_move() == "chance"
    res = o.result()
    assert res["complete"] is False and res["winners"] == [] and res["to_move"] == "chance"


def test_shared_win_splits_leftover_pot() -> None:
    o = new(4, {"success_target": "own_bid"}, dealer=3)
    o.totals = [0, 3, 8, 4]  # white box: 9, 9, 9, 9 after the deal
    o.apply({"chance": "shuffle", "cards": shuffle_for(NEW1, 3, JOKER)})
    for b in (3, 5, 4, 5):
        do(o, "bid", tricks=b)
    do(o, "show", cards=["5D", "QD"])
    play_tricks(o, NEW1)
    assert o.result()["winners"] == [0, 1, 2, 3]
    assert o.deals[-1]["money"] == [0, -2, 0, 0] and o.deals[-1]["pot_carry"] == 2


def test_option_validation() -> None:
    o = AbracadabraNewtonOracle()
    bad: list[tuple[Any, Any, Any]] = [
        ("abracadabra", 4, {}),
        (GAME, 5, {}),
        (GAME, 4, {"tie": "shared"}),  # N9: no tie option
        (GAME, 4, {"stake_mode": "ante"}),
        (GAME, 4, {"stake_mode": "free(5,1)"}),
        (GAME, 4, {"show_effect": "multiply_per_card(0)"}),
        (GAME, 4, {"ace_number": 13}),
        (GAME, 4, {"deals": 2, "target": 50}),
        (GAME, 4, {"dummy": True}),
        (GAME, 4, {"call_mode": "forgetful"}),
        (GAME, 4, {"nonsense": 1}),
    ]
    for game, players, options in bad:
        with pytest.raises(ValueError):
            o.new(game, players, options, 0)
    with pytest.raises(ValueError):
        o.new(GAME, 2, {"dummy": True}, 2)  # the dealer is seat 0 or 1
    o.new(GAME, 4, {"stake_mode": " free( 1 , 5 ) ", "game_end": "target(100)"}, 0)
    assert o.cfg is not None and o.cfg.opts["stake_mode"] == "free(1,5)"
    assert o.cfg.match_mode == "target" and o.cfg.match_value == 100


def test_malformed_events_leave_state_unchanged() -> None:
    o = new(4, {}, dealer=3)
    for bad in ({"chance": "shuffle", "cards": ["2C"]}, {"chance": "reshuffle", "cards": []}, "x"):
        with pytest.raises(ValueError):
            o.apply(bad)  # type: ignore[arg-type]
    o.apply({"chance": "shuffle", "cards": [c.lower() for c in shuffle_for(NEW1, 3, JOKER)]})
    before = repr(o.__dict__)
    for ev in (
        {"seat": 0, "action": "bid", "tricks": 3, "extra": 1},
        {"seat": 1, "action": "bid", "tricks": 3},
        {"seat": 0, "action": "bid"},
        {"seat": 0, "action": "play", "card": "AC"},
        {"seat": 0, "action": "fly"},
    ):
        with pytest.raises(ValueError):
            o.apply(ev)
    assert repr(o.__dict__) == before
    clone = o.clone()
    do(clone, "bid", tricks=1)
    assert repr(o.__dict__) == before


# ----------------------------------------------------------------------------- random play

TABLES: list[tuple[int, dict[str, Any]]] = [(4, {}), (3, {}), (2, {}), (2, {"dummy": True})]
SAMPLE: dict[str, list[Any]] = {
    "success_target": ["own_bid"],
    "success_compare": ["at_least"],
    "call_mode": ["required"],
    "declarer_tie_break": ["latest", "redeal"],
    "stake_mode": ["equals_bid", "free(0,3)", "ante(2)"],
    "show_effect": ["multiply_per_card(2)", "none"],
    "joker_mode": ["identity_of_indicator", "suitless_top"],
    "ace_number": [14],
    "bonus_requires_call": [True],
    "pot_recipients": ["most_tricks"],
    "pot_remainder": ["first_successful_from_dealer_left"],
    "trump_without_indicator": ["no_trump"],
    "dummy_after_win": ["dummy_leads_by_last_controller"],
    "two_player_joker": [True],
    "three_player_joker": [False],
    "first_lead": ["dealer_left"],
}


def pack_check(o: AbracadabraNewtonOracle) -> None:
    """Every card of the pack is in a hand, the trick, a captured pile or the indicator."""
    d = deal(o)
    assert o.cfg is not None
    seen = [c for h in d.hands for c in h] + [c for _, c in d.trick]
    seen += [c for cap in d.captured for c in cap]
    if d.indicator is not None:
        seen.append(d.indicator)
    assert Counter(seen) == Counter(o.cfg.pack)


# the oracle's own smoke test; tests/test_abracadabra_newton_oracle.py plays random matches on both
@oracle_only
def test_random_playouts() -> None:
    rng = random.Random(20261201)
    for match in range(160):
        players, base = TABLES[match % 4]
        options = dict(base)
        for name, values in SAMPLE.items():
            if rng.random() < 0.25:
                options[name] = rng.choice(values)
        length = rng.random()
        if length < 0.4:
            options["deals"] = rng.randint(1, 3)
        elif length < 0.6:
            options["target"] = rng.choice([15, 30])
        o = new(players, options, dealer=rng.randrange(players))
        assert o.cfg is not None
        carry, steps = 0, 0
        while o.to_move() is not None:
            steps += 1
            assert steps < 20000, "the match does not end"
            legal = o.legal()
            assert legal
            if o.to_move() == "chance":
                cards = list(legal[0]["cards"])
                assert cards == sorted(cards, key=card_index)
                rng.shuffle(cards)
                o.apply({"chance": "shuffle", "cards": cards})
                continue
            if match % 8 == 0:
                keys = [canon_key(e) for e in legal]
                assert keys == sorted(keys) and len(set(keys)) == len(keys)
                assert all(e["seat"] == o.to_move() for e in legal)
                pack_check(o)
                before = repr(o.deal)
                with pytest.raises(ValueError):
                    o.apply({**legal[-1], "extra": 1})
                assert repr(o.deal) == before
            count = len(o.deals)
            o.apply(rng.choice(legal))
            if len(o.deals) > count:
                for entry in o.deals[count:]:
                    assert sum(entry["money"]) + entry["pot_carry"] - carry == 0  # N6
                    carry = entry["pot_carry"]
                    assert len(entry["scores"]) == players and len(entry["money"]) == players
                det = o.details[-1]
                if not det.get("abandoned"):
                    assert sum(det["tricks"]) == o.cfg.hand_size
                    captured = [c for cap in det["captured"] for c in cap]
                    assert len(captured) == o.cfg.hand_size * o.cfg.nhands
                    left = [det["indicator"]] if det["indicator"] else []
                    assert Counter(captured + left) == Counter(o.cfg.pack)
        res = o.result()
        assert res["complete"] and res["winners"]
        assert res["totals"] == [sum(d["scores"][p] for d in res["deals"]) for p in range(players)]
        total_money = sum(sum(d["money"]) for d in res["deals"])
        assert total_money + res["deals"][-1]["pot_carry"] == 0
        if "target" in options:
            top = max(res["totals"])
            assert top >= options["target"] and res["totals"].count(top) == 1
        else:
            assert len(res["deals"]) == options.get("deals", 1)
