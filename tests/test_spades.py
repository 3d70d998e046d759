"""Spades (rulespec/games/spades.rules) played and checked against the rules recomputed here.

Random matches under many option sets: every legal list is the one the rules give (follow
suit; no spade led before spades are broken unless the leader holds only spades), thirteen
tricks a deal, each partnership's score recomputed from the bids and the tricks (contract,
bags carried over the match and their penalty, nil and blind nil, the end bonus), partners
scoring alike, and the match ending and its winners as the rules say. Then a simulated record
replays, and hand-built deals show the lead rule, nil made and failed, and the bag penalty."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.lang.cards import RANK_OF
from rulespec.loading import resolve
from rulespec.simulate import simulate

SPEC = resolve("spades").spec
DEFAULTS: dict[str, Any] = {o.name: o.default for o in SPEC.options}


def suit_of(card: str) -> str:
    return card[-1]


def trick_winner(cards: list[str], seats: list[int]) -> int:
    """The seat that wins a trick: the highest spade, else the highest card of the suit led."""
    led = suit_of(cards[0])
    best = max(range(4), key=lambda i: (suit_of(cards[i]) == "S", suit_of(cards[i]) == led,
                                        RANK_OF[cards[i]]))
    return seats[best]


def legal_cards(hand: list[str], trick: list[str], broken: bool, opts: dict[str, Any]) -> set[str]:
    """The cards the rules let a player play, worked out here from pagat's rules."""
    if trick:
        follow = [c for c in hand if suit_of(c) == suit_of(trick[0])]
        return set(follow or hand)
    if broken or opts["spade_lead"] == "any_time" or all(suit_of(c) == "S" for c in hand):
        return set(hand)
    return {c for c in hand if suit_of(c) != "S"}


class Referee:
    """Keeps the score of a match from its events alone, as a referee with pagat's rules and
    the match's options would: bids, tricks, bags carried over, totals."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.o = opts
        self.totals = [0, 0]
        self.bags = [0, 0]
        self.deals = 0
        self.penalties = 0  # bag penalties paid, to show the tests meet them
        self.bonuses = 0  # end bonuses given or taken
        self.blinds = 0  # blind nil bids

    def deal_scores(self, bids: list[int], blind: list[bool], tricks: list[int]) -> list[int]:
        o = self.o
        base, over = [0, 0], [0, 0]
        for t in (0, 1):
            mem = (t, t + 2)
            contract = sum(bids[q] for q in mem)
            nil_tricks = sum(tricks[q] for q in mem if bids[q] == 0)
            counted = sum(tricks[q] for q in mem if bids[q] > 0)
            if o["failed_nil_tricks"] == "count_for_partner":
                counted += nil_tricks
            if counted >= contract:
                over[t] = counted - contract + (nil_tricks if o["failed_nil_tricks"] == "bags"
                                                else 0)
                pts = 10 * contract + over[t]
            else:
                pts = -10 * contract
            for q in mem:
                if bids[q] == 0:
                    worth = o["nil_value"] * (2 if blind[q] else 1)
                    pts += worth if tricks[q] == 0 else -worth
            if o["bag_limit"]:
                times = (self.bags[t] + over[t]) // o["bag_limit"]
                self.penalties += times
                pts -= o["bag_penalty"] * times
            base[t] = pts
        projected = [self.totals[t] + base[t] for t in (0, 1)]
        out = list(base)
        for t in (0, 1):
            if projected[t] >= o["target"] and projected[t] > projected[1 - t]:
                out[t] += o["end_bonus"]
            if (o["mercy_rule"] and projected[t] <= o["mercy_threshold"]
                    and projected[1 - t] > projected[t]):
                out[t] -= o["end_bonus"]
        self.ends = (any(p >= o["target"] for p in projected)
                     or (o["mercy_rule"] and any(p <= o["mercy_threshold"] for p in projected))
                     or (o["deals"] > 0 and self.deals + 1 >= o["deals"]))
        self.bonuses += sum(1 for t in (0, 1) if out[t] != base[t])
        for t in (0, 1):
            self.bags[t] = (self.bags[t] + over[t]) % o["bag_limit"] if o["bag_limit"] else 0
            self.totals[t] += out[t]
        self.deals += 1
        return out


def random_event(st: State, rng: random.Random) -> dict[str, Any]:
    legal = st.legal_actions()
    if st.is_chance_node() and legal[0].get("chance") == "shuffle":
        cards = list(legal[0]["cards"])
        rng.shuffle(cards)
        return {"chance": "shuffle", "cards": cards}
    ev = rng.choice(legal)
    if ev.get("action") == "bid" and rng.random() < .5:
        # a random bid is nearly always set: bid low half the time, so that contracts are made
        low = [e for e in legal if e.get("action") == "bid" and int(e["tricks"]) <= 4]
        return dict(rng.choice(low or legal))
    return dict(ev)


def play_match(opts: dict[str, Any], seed: int, dealer: int = 0
               ) -> tuple[State, list[Any], Referee]:
    """A random match, every step checked against the rules recomputed here."""
    o = {**DEFAULTS, **opts}
    st = Game(SPEC, 4, opts, dealer).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(o)
    deal_ends: list[dict[str, Any]] = []
    st.on_deal_end = lambda s: deal_ends.append(
        {"taken": [len(z) for z in s.z["taken"]], "hand": [len(h) for h in s.z["hand"]]})
    bids, blind, tricks = [-1] * 4, [False] * 4, [0] * 4
    trick: list[str] = []
    trick_seats: list[int] = []
    broken, leader, n_deals = False, -1, 0
    deal_dealer = dealer
    checked: list[Any] = []
    while not st.is_terminal():
        ev = random_event(st, rng)
        if ev.get("chance") == "pick":
            deal_dealer = int(ev["value"])
        if ev.get("chance") == "shuffle":
            if n_deals:
                deal_dealer = (deal_dealer + 1) % 4
            bids, blind, tricks = [-1] * 4, [False] * 4, [0] * 4
            broken, leader = False, (deal_dealer + 1) % 4
        action, seat = ev.get("action"), ev.get("seat")
        if action == "play":
            assert isinstance(seat, int)
            assert seat == (leader + len(trick)) % 4, "out of turn"
            want = legal_cards(list(st.z["hand"][seat]), trick, broken, o)
            got = {e["card"] for e in st.legal_actions()}
            assert got == want, (got, want)
        if action == "bid" and o["bid_cap"] and bids[(seat + 2) % 4] >= 0:
            assert int(ev["tricks"]) + bids[(seat + 2) % 4] <= 13
        deals_before = len(st.result()["deals"])
        st.apply(ev)
        if action in ("nil", "blind_nil"):
            bids[seat], blind[seat] = 0, action == "blind_nil"
            ref.blinds += action == "blind_nil"
        elif action == "bid":
            bids[seat] = int(ev["tricks"])
        elif action == "play":
            trick.append(ev["card"])
            trick_seats.append(seat)
            broken = broken or suit_of(ev["card"]) == "S"
            if len(trick) == 4:
                leader = trick_winner(trick, trick_seats)
                tricks[leader] += 1
                trick, trick_seats = [], []
        deals = st.result()["deals"]
        if len(deals) > deals_before:
            n_deals += 1
            entry, end = deals[-1], deal_ends[-1]
            assert sum(tricks) == 13 and all(h == 0 for h in end["hand"])
            assert end["taken"] == [4 * t for t in tricks], "tricks credited elsewhere"
            want_scores = ref.deal_scores(bids, blind, tricks)
            assert entry["team_scores"] == want_scores, (bids, tricks, entry, ref.bags)
            assert entry["scores"] == [want_scores[q % 2] for q in range(4)]
            checked.append((bids, tricks, want_scores))
            if not st.is_terminal():
                tied = ref.totals[0] == ref.totals[1]
                assert not ref.ends or (tied and o["tie"] == "play_on"), "the match went on"
    res = st.result()
    assert ref.ends, "the match ended early"
    assert res["team_totals"] == ref.totals
    assert res["totals"] == [ref.totals[q % 2] for q in range(4)]
    best = max(ref.totals)
    assert res["team_winners"] == [t for t in (0, 1) if ref.totals[t] == best]
    assert res["winners"] == [q for q in range(4) if q % 2 in res["team_winners"]]
    return st, checked, ref


OPTION_SETS: list[dict[str, Any]] = [
    {"deals": 3},
    {"mercy_rule": True},
    {"target": 150, "mercy_rule": True, "mercy_threshold": -200, "end_bonus": 200},
    {"deals": 4, "failed_nil_tricks": "count_for_partner", "bid_cap": True,
     "first_dealer": "given"},
    {"deals": 4, "failed_nil_tricks": "bags", "bag_limit": 3, "bag_penalty": 50},
    {"deals": 3, "spade_lead": "any_time", "tie": "shared", "bag_limit": 0},
    {"deals": 4, "blind_nil": True, "blind_nil_margin": 0, "nil_value": 50},
    {"deals": 1, "first_dealer": "given", "tie": "shared", "mercy_rule": True,
     "end_bonus": 200, "failed_nil_tricks": "count_for_partner", "bid_cap": True,
     "blind_nil": False},
]


@pytest.mark.parametrize("opts", OPTION_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_matches_score_as_the_rules_say(opts: dict[str, Any]) -> None:
    made = failed = nils = bagged = penalties = bonuses = blind = 0
    for seed in range(6):
        st, checked, ref = play_match(opts, seed, dealer=3 if opts.get("first_dealer") else 0)
        penalties += ref.penalties
        bonuses += ref.bonuses
        blind += ref.blinds
        for bids, tricks, _ in checked:
            for t in (0, 1):
                c = bids[t] + bids[t + 2]
                took = tricks[t] + tricks[t + 2]
                made += took >= c
                failed += took < c
                bagged += took > c
            nils += sum(1 for b in bids if b == 0)
    assert made and failed and nils and bagged  # the interesting cases were met
    if opts.get("blind_nil"):
        assert blind
    if opts.get("bag_limit") == 3:
        assert penalties
    if opts.get("end_bonus") and opts.get("deals") != 1:
        assert bonuses


def test_a_simulated_record_replays(tmp_path: Path) -> None:
    rec = tmp_path / "recs"
    summary = simulate("spades", 4, 3, seed=5, options={"deals": 2, "blind_nil": True,
                                                       "blind_nil_margin": 0}, records=rec)
    assert summary.games == 3
    paths = sorted(rec.glob("*.json"))
    assert len(paths) == 3
    runner = CliRunner()
    for path in paths:
        record = json.loads(path.read_text())
        st = Game(SPEC, 4, record.get("options") or {}, record.get("dealer", 0)).new_initial_state()
        for ev in record["events"]:
            st.apply(ev)
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        assert json.loads(out.output) == json.loads(json.dumps(st.result()))


# ---- hand-built deals: the dealer is seat 0 (first_dealer=given), so seat 1 bids and leads

SUITS = "SHDC"
RANKS = "23456789TJQKA"


def shuffle_for(hands: dict[int, list[str]], dealer: int) -> list[str]:
    """The shuffled pack (top card first) that deals these hands, one card at a time from the
    dealer's left."""
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    return [hands[order[i % 4]][i // 4] for i in range(52)]


def one_suit_each(spade_seat: int, dealer: int) -> list[str]:
    """A deal in which spade_seat holds every spade and each other seat a whole suit."""
    others = [q for q in range(4) if q != spade_seat]
    hands = {spade_seat: [r + "S" for r in RANKS]}
    for q, s in zip(others, "HDC", strict=True):
        hands[q] = [r + s for r in RANKS]
    return shuffle_for(hands, dealer)


def start(opts: dict[str, Any], dealer: int = 0) -> State:
    st = Game(SPEC, 4, {"first_dealer": "given", **opts}, dealer).new_initial_state()
    return st


def deal(st: State, cards: list[str], bids: dict[int, int]) -> None:
    st.apply({"chance": "shuffle", "cards": cards})
    while not st.is_terminal():
        legal = st.legal_actions()
        if legal[0].get("chance"):
            return
        seat = legal[0]["seat"]
        if legal[0]["action"] in ("nil", "bid"):
            n = bids[seat]
            st.apply({"seat": seat, "action": "nil"} if n == 0
                     else {"seat": seat, "action": "bid", "tricks": n})
        else:
            st.apply(legal[0])


def test_the_deal_goes_round_one_card_at_a_time() -> None:
    st = start({"deals": 1})
    st.apply({"chance": "shuffle", "cards": one_suit_each(1, 0)})
    assert sorted(st.z["hand"][1]) == sorted(r + "S" for r in RANKS)
    assert all(suit_of(c) == "H" for c in st.z["hand"][0])
    assert all(suit_of(c) == "D" for c in st.z["hand"][2])


def test_no_spade_is_led_until_spades_are_broken() -> None:
    # seat 1 leads with spades and hearts; seat 2 is void in hearts and holds a spade
    hands = {1: [r + "S" for r in "2345"] + [r + "H" for r in "23456789T"],
             2: ["6S"] + [r + "D" for r in RANKS[:12]],
             3: [r + "S" for r in "789TJQKA"] + [r + "H" for r in "JQKA"] + ["AD"],
             0: [r + "C" for r in RANKS]}
    st = start({"deals": 1})
    st.apply({"chance": "shuffle", "cards": shuffle_for(hands, 0)})
    for q, n in ((1, 1), (2, 1), (3, 1), (0, 1)):
        st.apply({"seat": q, "action": "bid", "tricks": n})
    leads = {e["card"] for e in st.legal_actions()}
    assert leads == set(hands[1][4:]), "a spade may not be led before spades are broken"
    st.apply({"seat": 1, "action": "play", "card": "2H"})
    # seat 2 cannot follow: it may play its spade (breaking spades) or any diamond
    assert "6S" in {e["card"] for e in st.legal_actions()}
    st.apply({"seat": 2, "action": "play", "card": "6S"})
    st.apply({"seat": 3, "action": "play", "card": "JH"})
    st.apply({"seat": 0, "action": "play", "card": "2C"})
    assert st.v["broken"] is True
    # seat 2 won with the spade and leads: now a spade could be led, had it one left
    assert st.legal_actions()[0]["seat"] == 2
    st2 = start({"deals": 1, "spade_lead": "any_time"})
    st2.apply({"chance": "shuffle", "cards": shuffle_for(hands, 0)})
    for q in (1, 2, 3, 0):
        st2.apply({"seat": q, "action": "bid", "tricks": 1})
    assert {e["card"] for e in st2.legal_actions()} == set(hands[1])


def test_a_leader_with_only_spades_may_lead_one() -> None:
    st = start({"deals": 1})
    st.apply({"chance": "shuffle", "cards": one_suit_each(1, 0)})
    for q in (1, 2, 3, 0):
        st.apply({"seat": q, "action": "bid", "tricks": 1})
    assert {e["card"] for e in st.legal_actions()} == {r + "S" for r in RANKS}


@pytest.mark.parametrize(("failed", "want"), [
    # seat 1 (nil) takes all 13 tricks with its spades; seat 3 bid 2 and takes none
    ("ignored", [90, -120]),  # team 0: 1 bid set (-10), seat 2's nil made (+100)
    ("bags", [90, -120]),  # seat 3's bid is set, so no bags at all
    ("count_for_partner", [90, -100 + 20 + 11 - 100]),  # 11 bags: the ten cost 100
])
def test_nil_made_and_failed(failed: str, want: list[int]) -> None:
    st = start({"deals": 1, "tie": "shared", "failed_nil_tricks": failed})
    deal(st, one_suit_each(1, 0), {1: 0, 2: 0, 3: 2, 0: 1})
    entry = st.result()["deals"][0]
    assert entry["team_scores"] == want
    assert entry["scores"] == [want[q % 2] for q in range(4)]


def test_bags_carry_over_and_cost_the_penalty() -> None:
    st = start({"deals": 2})
    # deal 1, seat 0 dealing: seat 1 holds the spades and takes every trick; 6 bid, 7 bags
    deal(st, one_suit_each(1, 0), {1: 5, 3: 1, 2: 1, 0: 1})
    assert st.result()["deals"][0]["team_scores"] == [-20, 67]
    assert st.v["bags"] == [0, 7, 0, 7]
    # deal 2, seat 1 dealing: seat 3 holds the spades; 8 bid, 5 bags: 12 bags, one penalty
    deal(st, one_suit_each(3, 1), {2: 1, 3: 5, 0: 1, 1: 3})
    assert st.result()["deals"][1]["team_scores"] == [-20, 80 + 5 - 100]
    assert st.v["bags"] == [0, 2, 0, 2]
    assert st.is_terminal() and st.result()["team_winners"] == [1]


def test_blind_nil_scores_double_and_exchanges_cards() -> None:
    st = start({"deals": 1, "blind_nil": True, "blind_nil_margin": 0, "tie": "shared"})
    st.apply({"chance": "shuffle", "cards": one_suit_each(1, 0)})
    # the cards lie face down: nobody holds a hand before looking
    assert all(len(h) == 0 for h in st.z["hand"])
    st.apply({"seat": 1, "action": "look"})
    st.apply({"seat": 1, "action": "bid", "tricks": 4})
    st.apply({"seat": 2, "action": "blind_nil"})
    for q in (3, 0):
        st.apply({"seat": q, "action": "look"})
        st.apply({"seat": q, "action": "bid", "tricks": 1})
    # seat 2 passes two diamonds to seat 0, who passes two hearts back
    st.apply({"seat": 2, "action": "pass", "cards": ["2D", "3D"]})
    st.apply({"seat": 0, "action": "pass_back", "cards": ["2H", "3H"]})
    assert "2H" in st.z["hand"][2] and "2D" in st.z["hand"][0]
    assert len(st.z["hand"][2]) == len(st.z["hand"][0]) == 13
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    # seat 1 takes all 13: team 1 bid 5, 8 bags; team 0 bid 1 set, blind nil made (+200)
    assert st.result()["deals"][0]["team_scores"] == [190, 58]


# a match lasts a number of deals, or runs to a target, not both (R9); random bids are nearly
# always set, so a match to a target is ended by the mercy rule
LENGTHS = st.one_of(
    st.fixed_dictionaries({"deals": st.integers(1, 3)}),
    st.fixed_dictionaries({"target": st.sampled_from([60, 150, 500]),
                           "mercy_rule": st.just(True),
                           "mercy_threshold": st.sampled_from([-350, -100, 0])}))
RULES = st.fixed_dictionaries({
    "tie": st.sampled_from(["play_on", "shared"]),
    "end_bonus": st.sampled_from([0, 200]),
    "nil_value": st.sampled_from([0, 50, 100]),
    "failed_nil_tricks": st.sampled_from(["ignored", "bags", "count_for_partner"]),
    "bag_limit": st.sampled_from([0, 1, 3, 10]),
    "bag_penalty": st.sampled_from([0, 100]),
    "spade_lead": st.sampled_from(["after_broken", "any_time"]),
    "bid_cap": st.booleans(),
    "blind_nil": st.booleans(),
    "blind_nil_margin": st.sampled_from([0, 100]),
    "blind_nil_exchange": st.sampled_from([0, 2, 3]),
    "first_dealer": st.sampled_from(["random", "given"]),
})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(length=LENGTHS, rules=RULES, seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_every_combination_of_options_scores_as_the_rules_say(
        length: dict[str, Any], rules: dict[str, Any], seed: int, dealer: int) -> None:
    st_, _, _ = play_match({**length, **rules}, seed, dealer)
    assert st_.is_terminal()
