"""Tests of the Vändåtta oracle (tests/oracles/vandatta.py) against the brief's worked examples
(VAN-1, VAN-2, VAN-3) and settled points (V2, V3, V4, V5, V6, V7, H8, R5, R6), plus a random-play
smoke run.  Every deal is reproduced from a full shuffle order built by ``order_for``.

Each test runs as ``[oracle]`` (the oracle alone) and as ``[engine]`` (the oracle and the engine
in lock step, see ``implementation``), except the oracle's own random run."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from .vandatta import CODE, VandattaOracle

# ---------------------------------------------------------------------------- implementations


@pytest.fixture(autouse=True, params=["oracle", "engine"])
def implementation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test here runs twice.  ``[oracle]``: on the oracle alone.  ``[engine]``: on a twin
    (tests/twin.py) in place of ``VandattaOracle``, which answers every call from the oracle and
    from the engine playing rulespec/games/vandatta.rules, and fails as soon as the two disagree
    on who moves, the legal events, an accepted or refused event, or the result.  A test about
    the oracle alone is marked ``@oracle_only`` and has no ``[engine]`` case."""
    if request.param == "engine":
        from tests.twin import make_twin  # only the [engine] cases import the engine

        monkeypatch.setitem(globals(), "VandattaOracle", make_twin(VandattaOracle, "vandatta"))
    return str(request.param)


oracle_only = pytest.mark.parametrize("implementation", ["oracle"], indirect=True)


# ---------------------------------------------------------------------------- helpers


def new(players: int, options: dict | None = None, dealer: int = 0) -> VandattaOracle:
    o = VandattaOracle()
    o.new("vandatta", players, options or {}, dealer)
    return o


def order_for(o: VandattaOracle, hands: dict[int, list[str]], after: list[str]) -> list[str]:
    """A full shuffle order (top first) that deals ``hands`` (one card at a time from the
    dealer's left), then turns up ``after[0]`` and leaves ``after[1:]`` on top of the stock; the
    rest of the pack follows in canonical order."""
    (template,) = o.legal()
    assert template["chance"] == "shuffle"
    pack = template["cards"]
    players = o._P
    dealer = o._dealer
    seats = [(dealer + 1 + i) % players for i in range(players)]
    seats = [s for s in seats if s in hands]
    size = len(hands[seats[0]])
    order = [hands[s][j] for j in range(size) for s in seats]
    order += after
    order += remaining(pack, order)
    assert sorted(order) == sorted(pack)
    return order


def remaining(pack: list[str], used: list[str]) -> list[str]:
    """The cards of ``pack`` (a multiset) not in ``used``, in pack order."""
    rest = Counter(pack)
    rest.subtract(Counter(used))
    assert all(v >= 0 for v in rest.values()), "a card is used twice"
    out = []
    for c in pack:
        if rest[c] > 0:
            rest[c] -= 1
            out.append(c)
    return out


def shuffle(o: VandattaOracle, hands: dict[int, list[str]], after: list[str]) -> None:
    o.apply({"chance": "shuffle", "cards": order_for(o, hands, after)})


def play(seat: int, *cards: str, suit: str | None = None) -> dict:
    e: dict[str, Any] = {"seat": seat, "action": "play", "cards": list(cards)}
    if suit is not None:
        e["suit"] = suit
    return e


def act(seat: int, action: str) -> dict:
    return {"seat": seat, "action": action}


def run(o: VandattaOracle, events: list[dict]) -> None:
    for i, e in enumerate(events):
        assert e in o.legal(), f"event {i} {e} not in legal {o.legal()}"
        o.apply(e)


def codes(o: VandattaOracle, seat: int) -> list[str]:
    return sorted(CODE[c] for c in o._hands[seat])


def actions(o: VandattaOracle) -> set[str]:
    return {e.get("action", e.get("chance")) for e in o.legal()}


# ---------------------------------------------------------------------------- VAN-1


@pytest.mark.parametrize("scoring,expected", [("pagat", [0, 16, 5, 20]), ("swedish", [0, 50, 30, 50])])
def test_van1_one_deal_four_players(scoring: str, expected: list[int]) -> None:
    # A = seat 0 is dealer's left.  hand_size 3 so the hands of the example are reached quickly.
    o = new(4, {"hand_size": 3, "scoring": scoring}, dealer=3)
    shuffle(
        o,
        {0: ["4D", "6H", "6S"], 1: ["8H", "AC", "KD"], 2: ["3S", "3D", "9C"], 3: ["8S", "8D", "9S"]},
        ["4C", "7D", "QH", "2S", "7S"],
    )
    run(
        o,
        [
            play(0, "4D"),  # A is now 6H 6S: lappen announced automatically
            act(1, "draw"),
            play(1, "7D"),  # B keeps 8H AC KD
            act(2, "draw"),
            act(2, "draw"),
            act(2, "draw"),
            play(2, "7S"),  # C: 3S 3D 9C QH 2S
            play(3, "9S"),  # D: 8S 8D
            play(0, "6S", "6H"),  # A goes out
        ],
    )
    assert codes(o, 1) == ["8H", "AC", "KD"]
    assert codes(o, 2) == sorted(["3S", "3D", "9C", "QH", "2S"])
    assert codes(o, 3) == ["8D", "8S"]
    assert o.result() == {
        "ok": True,
        "complete": True,
        "deals": [{"scores": expected}],
        "totals": expected,
        "winners": [0],
    }


def test_r5_events_after_match_over() -> None:
    o = new(4, {"hand_size": 3}, dealer=3)
    shuffle(
        o,
        {0: ["4D", "6H", "6S"], 1: ["8H", "AC", "KD"], 2: ["3S", "3D", "9C"], 3: ["8S", "8D", "9S"]},
        ["4C", "7D", "QH", "2S", "7S"],
    )
    run(o, [play(0, "4D"), act(1, "draw"), play(1, "7D")])
    run(o, [act(2, "draw")] * 3 + [play(2, "7S"), play(3, "9S"), play(0, "6S", "6H")])
    assert o.to_move() is None
    assert o.legal() == []
    with pytest.raises(ValueError, match="match is over"):
        o.apply(act(1, "draw"))
    assert list(o.result()) == ["ok", "complete", "deals", "totals", "winners"]


# ---------------------------------------------------------------------------- VAN-2

DEAL1_HANDS = {0: ["JS", "6H", "6D"], 1: ["8S", "5H", "5S"], 2: ["3C", "AS", "4D"]}
DEAL1_AFTER = ["JC", "2H", "8C", "KS", "4C", "9H"]


def test_van2_three_deal_game_with_lappen_penalty() -> None:
    o = new(3, {"hand_size": 3, "deals": 3}, dealer=2)  # A, B, C = seats 0, 1, 2
    # Deal 1 (dealer C).
    shuffle(o, DEAL1_HANDS, DEAL1_AFTER)
    run(o, [play(0, "JS"), play(1, "8S", suit="C"), play(2, "3C")])
    run(o, [act(0, "draw"), act(0, "draw")])  # 2H, 8C
    assert codes(o, 0) == sorted(["6H", "6D", "2H", "8C"])
    run(o, [play(0, "8C", suit="H")])  # announced, not out: 3 penalty cards KS 4C 9H
    assert codes(o, 0) == sorted(["6H", "6D", "2H", "KS", "4C", "9H"])
    assert o.to_move() == 1
    run(o, [play(1, "5H", "5S")])  # B goes out
    r = o.result()
    assert r["deals"] == [{"scores": [6, 0, 6]}] and r["complete"] is False
    assert r["to_move"] == "chance" and list(r) == [
        "ok", "complete", "deals", "totals", "winners", "to_move", "legal"
    ]
    # Deal 2 (dealer A): C goes out, A holds QC, B holds 8D 8H 2C.
    shuffle(o, {1: ["8D", "8H", "7S"], 2: ["6S", "6C", "6D"], 0: ["QC", "9S", "9H"]}, ["7D", "2C", "5H", "5C"])
    run(o, [play(1, "7S"), play(2, "6S"), play(0, "9S", "9H")])
    run(o, [act(1, "draw")] * 3 + [play(1, "5H", "5C"), play(2, "6C", "6D")])
    assert o.result()["deals"][1] == {"scores": [1, 21, 0]}
    # Deal 3 (dealer B): A goes out, B holds 5S 5H, C holds AH AD JD.
    shuffle(o, {2: ["AH", "AD", "JD"], 0: ["KD", "9C", "9S"], 1: ["KS", "5S", "5H"]}, ["3C", "3D", "7S"])
    assert "play" not in actions(o)  # C has nothing for 3C
    run(o, [act(2, "draw"), play(2, "3D"), play(0, "KD"), play(1, "KS")])
    run(o, [act(2, "draw"), play(2, "7S"), play(0, "9S", "9C")])
    assert o.result() == {
        "ok": True,
        "complete": True,
        "deals": [{"scores": [6, 0, 6]}, {"scores": [1, 21, 0]}, {"scores": [0, 2, 11]}],
        "totals": [7, 23, 17],
        "winners": [0],
    }


def test_van2_not_announced_no_lappen_costs_three_at_once() -> None:
    o = new(3, {"hand_size": 3, "lappen_penalty_trigger": "not_announced"}, dealer=2)
    shuffle(o, DEAL1_HANDS, DEAL1_AFTER)
    run(o, [play(0, "JS")])
    assert o.to_move() == 0
    assert o.legal() == [act(0, "lappen"), act(0, "no_lappen")]
    c = o.clone()
    run(c, [act(0, "no_lappen")])
    assert codes(c, 0) == sorted(["6H", "6D", "2H", "8C", "KS"])
    assert c.to_move() == 1
    # Saying lappen costs nothing, and failing to go out at step 4 costs nothing either.
    run(o, [act(0, "lappen"), play(1, "8S", suit="C"), act(1, "lappen"), play(2, "3C")])
    run(o, [act(0, "draw"), act(0, "draw"), play(0, "8C", suit="H")])
    assert codes(o, 0) == sorted(["6H", "6D", "2H"])
    assert o.to_move() == 1  # A's hand is not in lappen state: no question
    run(o, [play(1, "5H", "5S")])
    assert o.result()["deals"] == [{"scores": [3, 0, 6]}]


def test_van2_both_penalises_announced_and_silent() -> None:
    o = new(3, {"hand_size": 3, "lappen_penalty_trigger": "both"}, dealer=2)
    shuffle(o, DEAL1_HANDS, DEAL1_AFTER)
    run(o, [play(0, "JS"), act(0, "lappen"), play(1, "8S", suit="C")])
    silent = o.clone()
    run(silent, [act(1, "no_lappen")])
    assert codes(silent, 1) == sorted(["5H", "5S", "2H", "8C", "KS"])  # silence: 3 cards at once
    run(o, [act(1, "lappen"), play(2, "3C")])
    run(o, [act(0, "draw"), act(0, "draw"), play(0, "8C", suit="H")])
    assert codes(o, 0) == sorted(["6H", "6D", "2H", "KS", "4C", "9H"])
    assert o.to_move() == 1


def test_v7_opponent_ace_does_not_cancel_default_penalty() -> None:
    # A (seat 0) ends a turn on 6H 6D; C's Ace makes A draw; A still owes the penalty (VAN-13).
    o = new(3, {"hand_size": 3}, dealer=2)
    shuffle(
        o,
        {0: ["JS", "6H", "6D"], 1: ["9S", "5H", "5S"], 2: ["AS", "4D", "7C"]},
        ["JC", "QD", "2H", "3H", "4H", "5C", "7D", "8D", "9D", "TD", "JD", "KD"],
    )
    run(o, [play(0, "JS"), play(1, "9S"), play(2, "AS")])  # A draws QD, B draws 2H
    assert codes(o, 0) == sorted(["6H", "6D", "QD"]) and codes(o, 1) == sorted(["5H", "5S", "2H"])
    assert o.to_move() == 2 and o.legal() == [act(2, "draw")]  # extra turn, no spade
    run(o, [act(2, "draw"), act(2, "draw"), act(2, "draw"), act(2, "pass")])  # VAN-9
    assert o.to_move() == 0 and len(o._hands[1]) == 3  # nobody draws again for the Ace
    run(o, [act(0, "draw"), act(0, "draw"), act(0, "draw"), act(0, "pass")])  # 7D 8D 9D
    assert codes(o, 0) == sorted(["6H", "6D", "QD", "7D", "8D", "9D", "TD", "JD", "KD"])
    assert o.to_move() == 1


# ---------------------------------------------------------------------------- VAN-3

VAN3_HANDS = {1: ["KC", "TD", "7D"], 2: ["5C", "5H", "QS"], 0: ["AH", "AS", "4S"]}
VAN3_AFTER = ["7C", "9D", "7H", "8S", "AD", "2C", "JH"]


def van3_setup(options: dict) -> VandattaOracle:
    o = new(3, {"hand_size": 3, **options}, dealer=0)
    shuffle(o, VAN3_HANDS, VAN3_AFTER)
    run(o, [play(1, "7D"), act(2, "draw"), act(2, "draw"), play(2, "7H")])
    assert codes(o, 1) == ["KC", "TD"] and codes(o, 2) == sorted(["5C", "5H", "QS", "9D"])
    return o


@pytest.mark.parametrize("scoring,expected", [("pagat", [0, 13, 10]), ("swedish", [0, 50, 50])])
def test_van3_ace_chain_and_going_out(scoring: str, expected: list[int]) -> None:
    o = van3_setup({"scoring": scoring})
    run(o, [play(0, "AH")])
    assert o.to_move() == 0  # extra turn
    assert codes(o, 1) == sorted(["KC", "TD", "8S"]) and "AD" in codes(o, 2)
    run(o, [play(0, "AS")])
    assert o.to_move() == 0
    run(o, [play(0, "4S")])
    assert codes(o, 1) == sorted(["KC", "TD", "8S", "2C"])
    assert codes(o, 2) == sorted(["5C", "5H", "QS", "9D", "AD", "JH"])
    assert o.result()["deals"] == [{"scores": expected}]


def test_van3_ace_on_ace_false() -> None:
    o = van3_setup({"ace_on_ace": False})
    run(o, [play(0, "AH")])
    assert o.legal() == [act(0, "draw")]
    with pytest.raises(ValueError):
        o.apply(play(0, "AS"))


def test_van3_go_out_in_extra_turn_forbidden() -> None:
    o = van3_setup({"go_out_in_ace_extra_turn": "forbidden"})
    run(o, [play(0, "AH"), play(0, "AS")])
    assert o.legal() == [act(0, "draw")]
    run(o, [act(0, "draw")])  # 3C: now 4S no longer empties the hand
    assert play(0, "4S") in o.legal()


def test_multi_aces_reading() -> None:
    # V14 reading: the first Ace must be legal alone; each Ace makes every other player draw.
    o = van3_setup({"multi_aces": True})
    assert play(0, "AH", "AS") in o.legal() and play(0, "AS", "AH") not in o.legal()
    run(o, [play(0, "AH", "AS")])  # rounds: B 8S, C AD, then B 2C, C JH
    assert codes(o, 1) == sorted(["KC", "TD", "8S", "2C"])
    assert codes(o, 2) == sorted(["5C", "5H", "QS", "9D", "AD", "JH"])
    assert o.to_move() == 0
    run(o, [play(0, "4S")])
    assert o.result()["deals"] == [{"scores": [0, 13, 10]}]


def test_van2_turnup_ace_everyone_draws() -> None:
    o = new(3, {"hand_size": 3}, dealer=1)
    shuffle(o, {2: ["2C", "3C", "4C"], 0: ["2D", "3D", "4D"], 1: ["2H", "3H", "4H"]}, ["AS", "5S", "6S", "7S"])
    # Everyone draws one, clockwise from the dealer's left: seat 2, 0, then the dealer 1.
    assert "5S" in codes(o, 2) and "6S" in codes(o, 0) and "7S" in codes(o, 1)
    assert o.to_move() == 2  # no extra turn for anyone
    assert play(2, "5S") in o.legal() and play(2, "2C") not in o.legal()


# ---------------------------------------------------------------------------- V6, H8


def test_v6_bury_positions() -> None:
    o = new(2, {}, dealer=0)
    h = {1: ["2C", "3C", "4C", "5C", "6C", "7C", "9C"], 0: ["2D", "3D", "4D", "5D", "6D", "7D", "9D"]}
    shuffle(o, h, ["8C", "5H", "KS"])
    assert o.to_move() == "chance"
    legal = o.legal()
    n = 52 - 14 - 1
    assert sorted(e["position"] for e in legal) == list(range(n + 1))
    assert legal == sorted(legal, key=lambda e: json.dumps(e, sort_keys=True, separators=(",", ":")))
    o.apply({"chance": "bury", "position": 0})  # turned up again: another bury (V6)
    assert o.to_move() == "chance" and len(o.legal()) == n + 1
    with pytest.raises(ValueError):
        o.apply({"chance": "bury", "position": n + 1})
    c = o.clone()
    o.apply({"chance": "bury", "position": 1})  # 5H turned up, the 8 is next in the stock
    assert o.to_move() == 1
    run(o, [act(1, "draw")])
    assert "8C" in codes(o, 1)
    c.apply({"chance": "bury", "position": n})  # at the bottom
    assert c._discard == [3 + 2 * 13]  # 5H
    assert c._stock[0] == 6  # 8C at the bottom of the stock


def test_turnup_eight_bottom_writes_no_event() -> None:
    o = new(2, {"turnup_eight": "bottom"}, dealer=0)
    h = {1: ["2C", "3C", "4C", "5C", "6C", "7C", "9C"], 0: ["2D", "3D", "4D", "5D", "6D", "7D", "9D"]}
    shuffle(o, h, ["8C", "8H", "5H"])
    assert o.to_move() == 1
    # 8C went to the bottom first, then 8H below it: the stock's bottom is 8H, then 8C.
    assert o._discard == [3 + 2 * 13] and o._stock[:2] == [6 + 2 * 13, 6]


def test_h8_stock_of_eights_only() -> None:
    o = new(2, {"hand_size": 24}, dealer=0)
    (template,) = o.legal()
    others = [c for c in template["cards"] if c[0] != "8"]
    shuffle(o, {1: others[:24], 0: others[24:]}, ["8C", "8D", "8H", "8S"])
    assert o.to_move() == 1  # no bury: the 8C stays, clubs to follow
    plays = [e for e in o.legal() if e["action"] == "play"]
    assert plays and all(e["cards"][0][1] == "C" for e in plays)
    assert act(1, "draw") in o.legal()


# ---------------------------------------------------------------------------- V2, V3


def van1_start(options: dict | None = None) -> VandattaOracle:
    o = new(4, {"hand_size": 3, **(options or {})}, dealer=3)
    shuffle(
        o,
        {0: ["4D", "6H", "6S"], 1: ["8H", "AC", "KD"], 2: ["3S", "3D", "9C"], 3: ["8S", "8D", "9S"]},
        ["4C", "7D", "QH", "2S", "7S"],
    )
    return o


def test_v2_pass_legality() -> None:
    o = van1_start()
    assert actions(o) == {"play", "draw"}  # no pass without drawing (VAN-15)
    run(o, [act(0, "draw")])
    assert actions(o) == {"play", "draw"}  # after 1 draw: draw again or play
    run(o, [act(0, "draw")])
    assert actions(o) == {"play", "draw"}
    run(o, [act(0, "draw")])
    assert actions(o) == {"play", "pass"}  # after the 3rd draw, playing is optional
    run(o, [act(0, "pass")])
    assert o.to_move() == 1


def test_v3_voluntary_draw_false() -> None:
    o = van1_start({"voluntary_draw": False})
    assert actions(o) == {"play"}
    o2 = van1_start({"voluntary_draw": False, "max_draws": 1})
    run(o2, [play(0, "4D"), play(1, "KD")])
    # C: 3S 3D 9C on KD: 3D playable, so no draw.
    assert actions(o2) == {"play"}


def test_van11_single_special_card_must_draw() -> None:
    o = new(2, {"hand_size": 1}, dealer=0)
    shuffle(o, {1: ["8S"], 0: ["AH"]}, ["4H", "5C", "6C"])
    assert o.legal() == [act(1, "draw")]
    run(o, [act(1, "draw")])  # 5C
    assert play(1, "8S", suit="D") in o.legal()
    run(o, [play(1, "8S", suit="C")])
    assert o.legal() == [act(0, "draw")]  # a single Ace cannot be played


# ---------------------------------------------------------------------------- V4, V5


def stripped_block(options: dict) -> VandattaOracle:
    """Two players, 36-card stripped pack, 17 cards each, one stock card (AH).  All ordinary
    clubs are played, then 8S names clubs: nobody can play, and the stock runs dry."""
    o = new(2, {"deck_strip": "remove_2_to_5", "hand_size": 17, "empty_stock": "pass_when_empty", **options})
    (template,) = o.legal()
    used = {"6C", "7C", "9C", "TC", "JC", "QC", "KC", "8S", "AH"}
    pool = [c for c in template["cards"] if c not in used]
    assert len(pool) == 27
    shuffle(o, {1: ["7C", "TC", "QC", "8S"] + pool[:13], 0: ["9C", "JC", "KC"] + pool[13:]}, ["6C", "AH"])
    run(o, [play(1, "7C"), play(0, "9C"), play(1, "TC"), play(0, "JC"), play(1, "QC"), play(0, "KC")])
    run(o, [play(1, "8S", suit="C")])
    return o


def test_v4_blocked_deal_counter() -> None:
    o = stripped_block({})
    assert o.legal() == [act(0, "draw")]  # no play, a card can be drawn
    run(o, [act(0, "draw")])  # AH; the stock is now empty and cannot be refilled
    assert o.legal() == [act(0, "pass")]  # V2: no card can be drawn and no play
    run(o, [act(0, "pass")])  # drew a card: does not count (V4)
    run(o, [act(1, "pass")])  # 1
    assert o.to_move() == 0
    run(o, [act(0, "pass")])  # 2 = players in: blocked at once
    r = o.result()
    s0 = sum(10 if c[0] == "8" else 5 if c[0] == "A" else 1 for c in codes(o, 0))
    s1 = sum(10 if c[0] == "8" else 5 if c[0] == "A" else 1 for c in codes(o, 1))
    assert r["deals"] == [{"scores": [s0, s1], "blocked": True}]
    assert r["complete"] is True


def test_v5_lowest_hand_scores_zero() -> None:
    o = stripped_block({"blocked": "lowest_hand_scores_zero"})
    run(o, [act(0, "draw"), act(0, "pass"), act(1, "pass"), act(0, "pass")])
    scores = o.result()["deals"][0]["scores"]
    assert sorted(scores)[0] == 0 and o.result()["deals"][0]["blocked"] is True


def test_v4_blocking_passer_not_asked_lappen() -> None:
    o = new(2, {"hand_size": 1, "max_draws": 0, "lappen_penalty_trigger": "not_announced"}, dealer=0)
    shuffle(o, {1: ["5H"], 0: ["9C"]}, ["KD"])
    assert o.legal() == [act(1, "pass")]
    run(o, [act(1, "pass")])
    assert o.legal() == [act(1, "lappen"), act(1, "no_lappen")]
    run(o, [act(1, "lappen"), act(0, "pass")])  # blocks: seat 0 ({9C}) is not asked
    assert o.result()["deals"] == [{"scores": [1, 1], "blocked": True}]


def test_end_deal_reading() -> None:
    o = stripped_block({"empty_stock": "end_deal"})
    run(o, [act(0, "draw")])  # AH, stock empty
    assert o.legal() == [act(0, "draw")]  # under end_deal a draw stays possible
    run(o, [act(0, "draw")])
    assert o.result()["deals"][0]["blocked"] is True and o.to_move() is None


def test_reshuffle_after_draw_decision() -> None:
    # 2 players, 25 cards each, one stock card; after it is drawn the next draw needs a reshuffle.
    o = new(2, {"hand_size": 25}, dealer=0)
    (template,) = o.legal()
    rest = [c for c in template["cards"] if c not in ("2C", "3C", "4C", "5D")]
    shuffle(o, {1: ["3C"] + rest[:24], 0: ["4C"] + rest[24:]}, ["2C", "5D"])
    run(o, [play(1, "3C"), play(0, "4C")])
    run(o, [act(1, "draw")])  # 5D, stock empty
    assert act(1, "draw") in o.legal()  # a reshuffle can supply a card (V1)
    run(o, [act(1, "draw")])
    assert o.to_move() == "chance"
    assert o.legal() == [{"chance": "reshuffle", "cards": ["2C", "3C"]}]  # pile order: bottom first
    with pytest.raises(ValueError):
        o.apply({"chance": "reshuffle", "cards": ["2C", "4C"]})
    o.apply({"chance": "reshuffle", "cards": ["3c", "2C"]})  # lowercase accepted (R6)
    assert o.to_move() == 1 and "3C" in codes(o, 1)
    assert o._discard == [2]  # 4C stays on top


# ---------------------------------------------------------------------------- errors, parsing


def test_new_errors() -> None:
    o = VandattaOracle()
    bad: list[tuple[int, dict, int]] = [
        (1, {}, 0),
        (15, {}, 0),
        (8, {"decks": 1}, 0),
        (5, {"deck_strip": "remove_2_to_5", "hand_size": 8}, 0),
        (4, {"colour": True}, 0),
        (4, {"decks": 3}, 0),
        (4, {"voluntary_draw": 1}, 0),
        (4, {"hand_size": True}, 0),
        (4, {"scoring": "Swedish"}, 0),
        (4, {"deals": 2, "target": 100}, 0),
        (4, {"game_end": "rounds(3)"}, 0),
        (4, {}, 4),
        (4, {}, -1),
    ]
    for players, options, dealer in bad:
        with pytest.raises(ValueError):
            o.new("vandatta", players, options, dealer)
    o.new("vandatta", 14, {}, 13)
    o.new("vandatta", 4, {"game_end": "elimination(100)", "scoring": "swedish"}, 0)
    assert o._target == 100
    with pytest.raises(ValueError):
        o.new("abracadabra", 4, {}, 0)


def test_malformed_and_illegal_events_leave_state() -> None:
    o = van1_start()
    before = o.result()
    for e in [
        {"seat": 0, "action": "play", "cards": ["4D"], "extra": 1},
        {"seat": 0, "action": "play", "cards": ["4D"], "suit": "C"},
        {"seat": 0, "action": "play", "cards": ["6H"]},
        {"seat": 1, "action": "draw"},
        {"seat": 0, "action": "jump"},
        {"seat": 0, "action": "play", "cards": ["XX"]},
        {"chance": "shuffle", "cards": []},
        {"seat": 0, "action": "draw", "cards": []},
    ]:
        with pytest.raises(ValueError):
            o.apply(e)
        assert o.result() == before
    o.apply({"seat": 0, "action": "play", "cards": ["4d"]})
    assert o.to_move() == 1


def test_eight_suit_and_ten_code() -> None:
    o = new(2, {}, dealer=0)
    shuffle(o, {1: ["8S", "TH", "2C", "3C", "4C", "5C", "6C"], 0: ["2D", "3D", "4D", "5D", "6D", "7D", "9D"]}, ["9H"])
    assert play(1, "8S", suit="S") in o.legal()  # own suit allowed (VAN-10)
    with pytest.raises(ValueError):
        o.apply(play(1, "8S"))
    with pytest.raises(ValueError):
        o.apply(play(1, "8S", suit="hearts"))
    o.apply({"seat": 1, "action": "play", "cards": ["10H"]})
    assert o._discard[-1] == 8 + 2 * 13


def test_groups_two_packs_identical_sequences_once() -> None:
    o = new(6, {}, dealer=5)
    (template,) = o.legal()
    assert len(template["cards"]) == 104 and template["cards"][:2] == ["2C", "2C"]
    hands = {0: ["5H", "5H", "5C", "KD", "KD", "2S", "3S"]}
    pool = remaining(template["cards"], hands[0] + ["5D"])
    for s in range(1, 6):
        hands[s] = pool[(s - 1) * 7 : s * 7]
    shuffle(o, hands, ["5D"])
    groups = [tuple(e["cards"]) for e in o.legal() if e["action"] == "play" and len(e["cards"]) > 1]
    assert len(groups) == len(set(groups))
    # rank equals the top's rank: every order is legal (V10); {5H,5H,5C}: 2+2+... sequences
    fives = [g for g in groups if g[0][0] == "5"]
    assert set(fives) == {
        ("5H", "5H"), ("5H", "5C"), ("5C", "5H"),
        ("5H", "5H", "5C"), ("5H", "5C", "5H"), ("5C", "5H", "5H"),
    }
    assert ("KD", "KD") in groups  # suit D matches the top


def test_legal_sorted_canonically() -> None:
    o = van1_start()
    legal = o.legal()
    keys = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in legal]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# ---------------------------------------------------------------------------- elimination


def test_elimination_skips_players_and_recomputes_packs() -> None:
    o = new(6, {"target": 5, "hand_size": 1}, dealer=0)
    assert len(o.legal()[0]["cards"]) == 104
    shuffle(o, {1: ["5H"], 2: ["8C"], 3: ["2C"], 4: ["3C"], 5: ["4C"], 0: ["6C"]}, ["9H"])
    run(o, [play(1, "5H")])
    assert o.result()["deals"] == [{"scores": [1, 0, 10, 1, 1, 1]}]
    (template,) = o.legal()
    assert len(template["cards"]) == 52  # five players still in: one pack (V12)
    o.apply({"chance": "shuffle", "cards": template["cards"]})
    assert o._dealer == 1 and o._hands[2] == [] and o.to_move() == 3
    assert codes(o, 3) == ["2C"] and codes(o, 1) == ["6C"]  # dealt from seat 3, skipping seat 2


def test_elimination_target() -> None:
    o = new(3, {"target": 5, "hand_size": 3}, dealer=2)
    shuffle(o, DEAL1_HANDS, DEAL1_AFTER)
    run(o, [play(0, "JS"), play(1, "8S", suit="C"), play(2, "3C")])
    run(o, [act(0, "draw"), act(0, "draw"), play(0, "8C", suit="H"), play(1, "5H", "5S")])
    # A (6) and C (6) reach 5 in the same deal: B is the last player left and wins.
    assert o.result()["winners"] == [1] and o.to_move() is None


# ---------------------------------------------------------------------------- random smoke

OPTION_CHOICES: dict[str, list[Any]] = {
    "turnup_eight": ["bury_random", "bottom"],
    "turnup_ace_all_draw": [True, False],
    "voluntary_draw": [True, False],
    "max_draws": [1, 2, 3],
    "multi_play": [True, False],
    "multi_first_card": ["suit_or_rank", "suit_only"],
    "multi_on_special_top": [True, False],
    "multi_aces": [False, True],
    "ace_on_ace": [True, False],
    "go_out_in_ace_extra_turn": ["allowed", "forbidden"],
    "lappen_states": ["rank_set", "single_card_only"],
    "lappen_penalty_trigger": ["announced_but_not_out", "not_announced", "both"],
    "lappen_detection": ["automatic", "challenge_before_next_turn"],
    "empty_stock": ["reshuffle", "pass_when_empty", "end_deal"],
    "blocked": ["all_score", "lowest_hand_scores_zero"],
    "scoring": ["pagat", "swedish"],
    "deck_strip": ["none", "remove_2_to_5"],
    "hand_size": [7, 5, 3],
}


def random_options(rng: random.Random) -> dict:
    opts = {k: rng.choice(v) for k, v in OPTION_CHOICES.items() if rng.random() < 0.4}
    r = rng.random()
    if r < 0.15:
        opts["deals"] = rng.randint(1, 3)
    elif r < 0.25:
        opts["target"] = rng.choice([10, 20])
    return opts


def check_invariants(o: VandattaOracle) -> None:
    if o._phase in (2, 3, 4, 5):  # a deal is under way: no card lost or made
        n = sum(len(h) for h in o._hands) + len(o._stock) + len(o._discard) + (o._held8 >= 0)
        assert n == len(o._pack)
    keys = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in o.legal()]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    c = o.clone()
    if keys:
        c.apply(json.loads(keys[-1]) if o.to_move() != "chance" else o.legal()[-1])
    assert o.legal() == [json.loads(k) for k in keys]  # the clone is independent


# The oracle's own random run; the engine's random play is tests/test_vandatta_oracle.py.
@oracle_only
def test_random_smoke() -> None:
    """1000 random matches over random options and 2..14 players.  The policy picks a play with
    probability 3/4 when one exists (otherwise uniformly from ``legal``) so that matches stay
    short; every event chosen comes from ``legal()``."""
    rng = random.Random(20240601)
    games = 0
    while games < 1000:
        players = rng.randint(2, 14)
        opts = random_options(rng)
        o = VandattaOracle()
        try:
            o.new("vandatta", players, opts, rng.randrange(players))
        except ValueError:
            continue  # e.g. a stripped pack for too many players (V13)
        games += 1
        steps = 0
        while o.to_move() is not None:
            legal = o.legal()
            assert legal
            plays = [e for e in legal if e.get("action") == "play"]
            e = rng.choice(plays if plays and rng.random() < 0.75 else legal)
            if e.get("chance") in ("shuffle", "reshuffle"):
                cards = list(e["cards"])
                rng.shuffle(cards)
                e = {"chance": e["chance"], "cards": cards}
            o.apply(e)
            steps += 1
            if steps % 97 == 0:
                check_invariants(o)
            assert steps < 100_000
        r = o.result()
        assert r["complete"] and r["winners"]
        assert r["totals"] == [sum(d["scores"][s] for d in r["deals"]) for s in range(players)]
        if "target" in opts:  # V12: players out score 0 afterwards; at most one is left
            out: set[int] = set()
            acc = [0] * players
            for d in r["deals"]:
                assert all(d["scores"][s] == 0 for s in out)
                acc = [a + x for a, x in zip(acc, d["scores"])]
                out |= {s for s in range(players) if acc[s] >= opts["target"]}
            assert players - len(out) <= 1
        elif "deals" in opts:
            assert len(r["deals"]) == opts["deals"]
