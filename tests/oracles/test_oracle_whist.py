"""Tests of the whist oracle (tests/oracles/whist.py) alone: the table and its options, the deal
from a shuffle order, following suit and trick winners, the scoring of odd tricks and honours
(with the order "tricks first, honours last" and the "score of four" rule), the end of the game,
refusals that leave the state unchanged, and a random-play smoke run.

Every deal is reproduced from a full shuffle order built by ``order_for``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .whist import PACK, WhistOracle, score_deal, trick_winner

SUIT_CARDS = {s: [r + s for r in "23456789TJQKA"] for s in "CDHS"}

# ---------------------------------------------------------------------------- helpers


def new(options: dict | None = None, dealer: int = 0) -> WhistOracle:
    o = WhistOracle()
    o.new("whist", 4, options or {}, dealer)
    return o


def order_for(dealer: int, hands: dict[int, list[str]]) -> list[str]:
    """The shuffle order (top first) that deals ``hands`` (13 cards each, in the order each seat
    receives them) one card at a time clockwise from the dealer's left.  The dealer's last card,
    ``hands[dealer][12]``, is the turned-up trump."""
    order = [hands[(dealer + 1 + k) % 4][j] for j in range(13) for k in range(4)]
    assert sorted(order, key=PACK.index) == PACK
    return order


def shuffle(o: WhistOracle, hands: dict[int, list[str]]) -> None:
    o.apply({"chance": "shuffle", "cards": order_for(o.dealer, hands)})


def suit_hands(dealer: int, trump: str) -> dict[int, list[str]]:
    """Each seat holds one whole suit; the dealer holds the trump suit (all 13 trumps, hence all
    four honours), so every trick is forced and the dealer wins all 13."""
    others = [s for s in "CDHS" if s != trump]
    hands = {dealer: list(SUIT_CARDS[trump])}
    for k, seat in enumerate((dealer + 1 + i) % 4 for i in range(3)):
        hands[seat] = list(SUIT_CARDS[others[k]])
    return hands


def lowest(o: WhistOracle) -> dict[str, Any]:
    """A fixed policy: the legal card that comes first in canonical pack order."""
    return min(o.legal(), key=lambda e: PACK.index(e["card"]))


def play_out(o: WhistOracle, policy=lowest) -> None:
    """Play the current deal to its end."""
    n = len(o.deals)
    while len(o.deals) == n:
        o.apply(policy(o))


def snapshot(o: WhistOracle) -> Any:
    return (o.to_move(), o.legal(), o.result())


def refused(o: WhistOracle, event: Any) -> None:
    before = snapshot(o)
    with pytest.raises(ValueError):
        o.apply(event)
    assert snapshot(o) == before


# The scripted deal of the "lowest" policy (dealer 0, spades trumps): seat 1 holds the four
# trump honours and nine low hearts, seat 0 the nine low spades and the four top hearts, seat 2
# all clubs, seat 3 all diamonds.  Seat 0 takes tricks 1-4 with its hearts, seat 1 each of its
# honours when seat 0 leads a low spade, seat 0 the other five by ruffing hearts (and the last
# one): team 0 takes 9 tricks (3 odd), team 1 holds all four honours.
SPLIT_HANDS = {
    0: ["JH", "QH", "KH", "AH", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"],
    1: ["AS", "KS", "QS", "JS"] + SUIT_CARDS["H"][:9],
    2: list(SUIT_CARDS["C"]),
    3: list(SUIT_CARDS["D"]),
}

# ---------------------------------------------------------------------------- the table


def test_new_defaults_and_start() -> None:
    o = new()
    assert (o.target, o.honours, o.dealer) == (5, True, 0)
    assert o.to_move() == "chance"
    assert o.legal() == [{"chance": "shuffle", "cards": PACK}]
    assert PACK[:3] == ["2C", "3C", "4C"] and PACK[-1] == "AS" and len(set(PACK)) == 52
    r = o.result()
    assert list(r) == ["ok", "complete", "deals", "totals", "winners", "teams", "team_totals",
                       "team_winners", "to_move", "legal"]
    assert r == {"ok": True, "complete": False, "deals": [], "totals": [0, 0, 0, 0],
                 "winners": [], "teams": [0, 1, 0, 1], "team_totals": [0, 0],
                 "team_winners": [], "to_move": "chance", "legal": o.legal()}
    o2 = new({"target": 100, "honours": False}, dealer=3)
    assert (o2.target, o2.honours, o2.dealer) == (100, False, 3)
    new({"target": 1})


@pytest.mark.parametrize("game,players,options,dealer", [
    ("spades", 4, {}, 0),
    ("whist", 3, {}, 0),
    ("whist", 5, {}, 0),
    ("whist", True, {}, 0),
    ("whist", 4, {"deals": 2}, 0),
    ("whist", 4, {"game_end": "target(5)"}, 0),
    ("whist", 4, {"target": 0}, 0),
    ("whist", 4, {"target": 101}, 0),
    ("whist", 4, {"target": True}, 0),
    ("whist", 4, {"target": "5"}, 0),
    ("whist", 4, {"target": 5.0}, 0),
    ("whist", 4, {"honours": 1}, 0),
    ("whist", 4, {"honours": "true"}, 0),
    ("whist", 4, {}, 4),
    ("whist", 4, {}, -1),
])
def test_new_refuses_what_is_not_offered(game, players, options, dealer) -> None:
    o = WhistOracle()
    with pytest.raises(ValueError):
        o.new(game, players, options, dealer)
    # a refused new leaves a running match as it was
    o = new()
    before = snapshot(o)
    with pytest.raises(ValueError):
        o.new(game, players, options, dealer)
    assert snapshot(o) == before


# ---------------------------------------------------------------------------- the deal


def test_deal_one_at_a_time_from_the_dealers_left_and_the_turn_up() -> None:
    rng = random.Random(7)
    for dealer in range(4):
        o = new(dealer=dealer)
        cards = list(PACK)
        rng.shuffle(cards)
        o.apply({"chance": "shuffle", "cards": cards})
        for i, card in enumerate(cards):
            assert card in o.hands[(dealer + 1 + i) % 4]
        assert all(len(h) == 13 for h in o.hands)
        assert cards[51] in o.hands[dealer]  # the turned-up card is the dealer's
        assert o.trump == cards[51][1]
        assert o.to_move() == (dealer + 1) % 4  # eldest hand leads


def test_shuffle_accepts_lower_case_and_ten_written_10() -> None:
    o = new()
    cards = [c.lower() for c in PACK]
    cards[PACK.index("TH")] = "10h"
    o.apply({"chance": "shuffle", "cards": cards})
    assert o.hands[1][0] == "2C" and "TH" in o.hands[(1 + PACK.index("TH")) % 4]
    assert o.trump == "S"  # AS was last


def test_shuffle_refusals_leave_the_state_unchanged() -> None:
    o = new()
    refused(o, {"chance": "shuffle", "cards": PACK[:51]})
    refused(o, {"chance": "shuffle", "cards": PACK[:51] + ["2C"]})
    refused(o, {"chance": "shuffle", "cards": PACK + ["2C"]})
    refused(o, {"chance": "shuffle", "cards": PACK[:51] + ["JK"]})
    refused(o, {"chance": "shuffle", "cards": PACK[:51] + [7]})
    refused(o, {"chance": "shuffle", "cards": "".join(PACK)})
    refused(o, {"chance": "reshuffle", "cards": PACK})
    refused(o, {"chance": "shuffle", "cards": PACK, "extra": 1})
    refused(o, {"chance": "shuffle"})
    refused(o, {"seat": 1, "action": "play", "card": "2C"})
    refused(o, ["not", "an", "object"])
    assert o.to_move() == "chance"


# ---------------------------------------------------------------------------- play


def test_follow_suit_and_trick_winners() -> None:
    # dealer 0; spades trumps (the dealer's last card is 2S)
    hands = {
        1: ["5H", "AC", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"],
        2: ["9H", "2C", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD"],
        3: ["3S", "KD", "AD", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        0: ["AH", "2H", "3H", "4H", "6H", "7H", "8H", "TH", "JH", "QH", "KH", "AS", "2S"],
    }
    o = new()
    shuffle(o, hands)
    assert o.trump == "S" and o.to_move() == 1
    # the leader may lead anything
    assert {e["card"] for e in o.legal()} == set(hands[1])
    o.apply({"seat": 1, "action": "play", "card": "5H"})
    # seat 2 holds one heart: it must play it
    assert o.legal() == [{"seat": 2, "action": "play", "card": "9H"}]
    refused(o, {"seat": 2, "action": "play", "card": "2C"})
    o.apply({"seat": 2, "action": "play", "card": "9H"})
    # seat 3 has no heart: any card
    assert {e["card"] for e in o.legal()} == set(hands[3])
    o.apply({"seat": 3, "action": "play", "card": "3S"})
    # seat 0 must follow hearts
    assert {e["card"] for e in o.legal()} == {c for c in hands[0] if c[1] == "H"}
    o.apply({"seat": 0, "action": "play", "card": "AH"})
    # the small trump beats the ace of the suit led
    assert o.tricks_won == [0, 0, 0, 1] and o.to_move() == 3
    # trick 2: seat 3 leads KD; seat 0 and seat 1 (void of diamonds) discard, seat 2 follows
    # with QD: KD holds
    o.apply({"seat": 3, "action": "play", "card": "KD"})
    o.apply({"seat": 0, "action": "play", "card": "2H"})
    o.apply({"seat": 1, "action": "play", "card": "AC"})  # an ace of another suit wins nothing
    o.apply({"seat": 2, "action": "play", "card": "QD"})
    assert o.tricks_won == [0, 0, 0, 2] and o.to_move() == 3
    assert o.tricks_played[1] == {"leader": 3, "cards": ["KD", "2H", "AC", "QD"], "winner": 3}


def test_trick_winner_rules() -> None:
    assert trick_winner([(0, "5H"), (1, "9H"), (2, "2S"), (3, "AH")], "S") == 2
    assert trick_winner([(0, "5H"), (1, "9H"), (2, "2S"), (3, "3S")], "S") == 3
    assert trick_winner([(0, "5H"), (1, "9H"), (2, "AC"), (3, "TH")], "S") == 3
    assert trick_winner([(0, "5H"), (1, "9H"), (2, "AC"), (3, "2H")], "S") == 1
    assert trick_winner([(3, "2S"), (0, "AS"), (1, "KS"), (2, "AH")], "S") == 0
    assert trick_winner([(1, "2C"), (2, "AD"), (3, "AH"), (0, "AS")], "D") == 2


def test_play_refusals_leave_the_state_unchanged() -> None:
    o = new()
    shuffle(o, suit_hands(0, "S"))
    assert o.to_move() == 1
    card = o.hands[1][0]
    refused(o, {"seat": 2, "action": "play", "card": o.hands[2][0]})  # not seat 2's turn
    refused(o, {"seat": 1, "action": "play", "card": "AS"})  # not held
    refused(o, {"seat": 1, "action": "play", "card": "XX"})
    refused(o, {"seat": 1, "action": "play", "card": card, "extra": True})
    refused(o, {"seat": 1, "action": "play"})
    refused(o, {"seat": 1, "action": "bid", "card": card})
    refused(o, {"seat": True, "action": "play", "card": card})
    refused(o, {"seat": "1", "action": "play", "card": card})
    refused(o, {"chance": "shuffle", "cards": PACK})
    o.apply({"seat": 1, "action": "play", "card": card.lower()})  # lower case is accepted
    refused(o, {"seat": 1, "action": "play", "card": o.hands[1][0]})  # legal one step earlier


# ---------------------------------------------------------------------------- scoring


def test_score_deal_examples() -> None:
    # "the side which won more tricks scores 1 point for each trick in excess of six"
    assert score_deal([0, 0], [8, 5], [2, 2], 5, True)[0] == [2, 0]
    assert score_deal([0, 0], [6, 7], [2, 2], 5, True)[0] == [0, 1]
    assert score_deal([0, 0], [0, 13], [2, 2], 5, True)[0] == [0, 7]
    # honours: four 4, three 2, two each nothing; they go to the side dealt them
    assert score_deal([0, 0], [7, 6], [0, 4], 5, True)[0] == [1, 4]
    assert score_deal([0, 0], [7, 6], [1, 3], 5, True)[0] == [1, 2]
    assert score_deal([0, 0], [8, 5], [3, 1], 5, True)[0] == [4, 0]
    # a game won by honours (tricks and honours together)
    assert score_deal([0, 0], [9, 4], [3, 1], 5, True)[0] == [5, 0]
    assert score_deal([1, 3], [7, 6], [1, 3], 5, True)[0] == [1, 2]
    # honours off
    assert score_deal([0, 0], [7, 6], [0, 4], 5, False)[0] == [1, 0]
    # tricks score first: a side out on tricks ends the game; the honours are not scored
    pts, notes = score_deal([3, 0], [8, 5], [0, 4], 5, True)
    assert pts == [2, 0] and notes["why_not"].startswith("game won on tricks")
    assert score_deal([4, 0], [7, 6], [4, 0], 5, True)[0] == [1, 0]
    # "at the score of four" the side cannot score honours: it needs an odd trick
    pts, notes = score_deal([0, 4], [7, 6], [0, 4], 5, True)
    assert pts == [1, 0] and "cannot score honours" in notes["why_not"]
    assert score_deal([0, 4], [6, 7], [0, 4], 5, True)[0] == [0, 1]
    # ... the other side, not at four, still scores its honours (and may go out on them)
    assert score_deal([0, 4], [7, 6], [4, 0], 5, True)[0] == [5, 0]
    assert score_deal([1, 4], [6, 7], [4, 0], 5, True)[0] == [0, 1]  # team 1 out on tricks
    # "at four" is the score at the start of the deal: a side at 3 that makes its odd trick
    # (reaching 4) still scores its honours, and goes out on them
    pts, notes = score_deal([3, 0], [7, 6], [4, 0], 5, True)
    assert pts == [5, 0] and notes["honours_scored"]
    # the rule follows the target: one short of it (9 in a ten-point game)
    assert score_deal([0, 9], [7, 6], [0, 4], 10, True)[0] == [1, 0]
    assert score_deal([0, 4], [7, 6], [0, 4], 10, True)[0] == [1, 4]
    # target 1: the first deal ends the game on tricks
    assert score_deal([0, 0], [7, 6], [0, 4], 1, True)[0] == [1, 0]


def test_forced_deal_game_on_tricks_honours_not_scored() -> None:
    o = new()  # target 5
    shuffle(o, suit_hands(0, "S"))
    play_out(o)
    assert o.tricks_won == [13, 0, 0, 0]
    d = o.details[0]
    assert d["team_tricks"] == [13, 0] and d["team_honours"] == [4, 0]
    r = o.result()
    assert r == {"ok": True, "complete": True,
                 "deals": [{"scores": [7, 0, 7, 0], "team_scores": [7, 0]}],
                 "totals": [7, 0, 7, 0], "winners": [0, 2], "teams": [0, 1, 0, 1],
                 "team_totals": [7, 0], "team_winners": [0]}
    assert o.to_move() is None and o.legal() == []
    refused(o, {"chance": "shuffle", "cards": PACK})


@pytest.mark.parametrize("honours,points", [(True, 11), (False, 7)])
def test_forced_deal_with_honours_below_target(honours: bool, points: int) -> None:
    o = new({"target": 100, "honours": honours}, dealer=1)
    shuffle(o, suit_hands(1, "H"))
    assert o.trump == "H"
    play_out(o)
    r = o.result()
    assert r["deals"] == [{"scores": [0, points, 0, points], "team_scores": [0, points]}]
    assert r["complete"] is False and r["winners"] == [] and r["team_winners"] == []
    assert r["to_move"] == "chance" and o.dealer == 2  # the deal passes to the left


def test_scripted_deal_honours_on_the_side_that_loses_the_tricks() -> None:
    o = new()
    shuffle(o, SPLIT_HANDS)
    play_out(o)
    d = o.details[0]
    assert d["tricks_won"] == [9, 4, 0, 0] and d["team_honours"] == [0, 4]
    assert o.result()["deals"] == [{"scores": [3, 4, 3, 4], "team_scores": [3, 4]}]
    assert o.result()["complete"] is False


@pytest.mark.parametrize("start,scores,totals,winner", [
    ([0, 4], [3, 0], [3, 4], None),  # at four: honours do not count
    ([0, 3], [3, 4], [3, 7], 1),  # a game won by honours
    ([2, 0], [3, 0], [5, 0], 0),  # out on tricks: the honours are not scored
    ([2, 3], [3, 0], [5, 3], 0),
])
def test_scripted_deal_from_a_given_score(start, scores, totals, winner) -> None:
    o = new()
    o.team_totals = list(start)  # as if earlier deals had scored these
    shuffle(o, SPLIT_HANDS)
    play_out(o)
    r = o.result()
    assert r["deals"][-1]["team_scores"] == scores
    assert r["team_totals"] == totals
    assert r["totals"] == [totals[0], totals[1], totals[0], totals[1]]
    assert r["complete"] is (winner is not None)
    assert r["team_winners"] == ([] if winner is None else [winner])
    assert r["winners"] == ([] if winner is None else [winner, winner + 2])


def test_a_game_of_several_deals() -> None:
    o = new({"target": 12})
    for dealer, trump in ((0, "S"), (1, "D"), (2, "C")):
        assert o.dealer == dealer and o.to_move() == "chance"
        shuffle(o, suit_hands(dealer, trump))
        play_out(o)
    r = o.result()
    # deal 1: team 0 takes 13 (7) and holds 4 honours: 11; deal 2: team 1 the same; deal 3:
    # team 0 goes out on tricks (11 + 7 >= 12) and its honours are not scored
    assert [d["team_scores"] for d in r["deals"]] == [[11, 0], [0, 11], [7, 0]]
    assert r["team_totals"] == [18, 11] and r["totals"] == [18, 11, 18, 11]
    assert r["complete"] is True and r["winners"] == [0, 2] and r["team_winners"] == [0]


def test_target_one_ends_after_the_first_deal() -> None:
    o = new({"target": 1})
    shuffle(o, SPLIT_HANDS)
    play_out(o)
    r = o.result()
    assert r["deals"] == [{"scores": [3, 0, 3, 0], "team_scores": [3, 0]}]
    assert r["complete"] and r["team_winners"] == [0]


# ---------------------------------------------------------------------------- random smoke run


def expected_points(start, team_tricks, team_honours, target, honours) -> list[int]:
    """The scoring readings, written out again independently of score_deal."""
    odd_team = 0 if team_tricks[0] >= 7 else 1
    pts = [0, 0]
    pts[odd_team] = team_tricks[odd_team] - 6
    if honours and start[odd_team] + pts[odd_team] < target:
        for t in (0, 1):
            value = {4: 4, 3: 2}.get(team_honours[t], 0)
            if value and start[t] != target - 1:
                pts[t] += value
    return pts


def test_random_play_smoke() -> None:
    rng = random.Random(2024)
    for _game in range(40):
        target = rng.choice([1, 2, 5, 5, 5, 7, 10])
        honours = rng.random() < 0.75
        o = new({"target": target, "honours": honours}, dealer=rng.randrange(4))
        steps = 0
        while o.to_move() is not None:
            steps += 1
            assert steps < 100 * 53
            if o.to_move() == "chance":
                cards = list(PACK)
                rng.shuffle(cards)
                o.apply({"chance": "shuffle", "cards": cards})
                continue
            legal = o.legal()
            seat = o.to_move()
            assert all(e["seat"] == seat and e["action"] == "play" for e in legal)
            assert len({e["card"] for e in legal}) == len(legal)
            if rng.random() < 0.05:  # near misses
                held = set(o.hands[seat])
                playable = {e["card"] for e in legal}
                for card in sorted(held - playable)[:1]:
                    refused(o, {"seat": seat, "action": "play", "card": card})
                for other in ((seat + k) % 4 for k in (1, 2, 3)):
                    if o.hands[other]:
                        refused(o, {"seat": other, "action": "play", "card": o.hands[other][0]})
                absent = next(c for c in PACK if c not in held)
                refused(o, {"seat": seat, "action": "play", "card": absent})
            o.apply(rng.choice(legal))
        r = o.result()
        assert r["complete"] is True
        totals = [0, 0]
        for n, (deal, d) in enumerate(zip(r["deals"], o.details)):
            assert sorted(deal) == ["scores", "team_scores"]
            assert deal["scores"] == [deal["team_scores"][t] for t in (0, 1, 0, 1)]
            assert len(d["tricks"]) == 13 and sum(d["tricks_won"]) == 13
            assert sorted(c for t in d["tricks"] for c in t["cards"]) == sorted(PACK)
            # following suit, checked against the hands as dealt
            hands = [list(h) for h in d["dealt"]]
            leader = (d["dealer"] + 1) % 4
            for t in d["tricks"]:
                assert t["leader"] == leader
                led = t["cards"][0][1]
                for k, card in enumerate(t["cards"]):
                    seat = (leader + k) % 4
                    assert card in hands[seat]
                    if card[1] != led:
                        assert all(c[1] != led for c in hands[seat])
                    hands[seat].remove(card)
                assert t["winner"] == trick_winner(
                    [((leader + k) % 4, c) for k, c in enumerate(t["cards"])], d["trump"])
                leader = t["winner"]
            team_tricks = [d["tricks_won"][0] + d["tricks_won"][2],
                           d["tricks_won"][1] + d["tricks_won"][3]]
            honours_dealt = [sum(1 for s in (t, t + 2) for c in d["dealt"][s]
                                 if c[1] == d["trump"] and c[0] in "AKQJ") for t in (0, 1)]
            assert d["team_honours"] == honours_dealt and d["start"] == totals
            assert deal["team_scores"] == expected_points(
                totals, team_tricks, honours_dealt, target, honours)
            totals = [totals[t] + deal["team_scores"][t] for t in (0, 1)]
            if n < len(r["deals"]) - 1:
                assert max(totals) < target
            assert d["dealer"] == (o.first_dealer + n) % 4
        assert totals == r["team_totals"] and r["totals"] == [totals[t] for t in (0, 1, 0, 1)]
        (win,) = [t for t in (0, 1) if totals[t] >= target]
        assert r["team_winners"] == [win] and r["winners"] == [win, win + 2]


def test_the_spec_conforms_to_the_oracle() -> None:
    """The shipped spec against this oracle, written from the rules without reading it:
    verify with its default schedule, bounded by matches."""
    from rulespec.loading import resolve
    from rulespec.verify.runner import Verifier

    spec = resolve("whist").spec
    report = Verifier(spec, "whist", WhistOracle, timeout=30.0, shrink_seconds=5.0).run(
        games=40, seed_=3)
    assert not report.divergences, report.divergences[0].message
    assert report.conforms and report.matches >= 20
