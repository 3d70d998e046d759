"""Whist (rulespec/games/whist.rules) played and checked against the rules recomputed here.

Random matches under each option: every legal list is the one the rules give (follow suit,
else anything), the deal goes round one card at a time from the dealer's left and the dealer's
last card makes trumps, cards are conserved, thirteen tricks a deal, each partnership's score
recomputed from the tricks and from the honours as dealt (tricks first, no honours at the point
below the target), partners scoring alike, scores within their bounds, and the game ending with
the side that reached the target. Then a simulated record replays, and deals built by hand show
the odd tricks, four and three honours, divided honours, the score of four, tricks scored
before honours, and honours that win the game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.lang.cards import RANK_OF
from rulespec.loading import resolve
from rulespec.simulate import simulate

SPEC = resolve("whist").spec
DEFAULTS: dict[str, Any] = {o.name: o.default for o in SPEC.options}
HONOURS = {"A", "K", "Q", "J"}


def suit_of(card: str) -> str:
    return card[-1]


class Referee:
    """Follows a match from its events alone, as a referee with the laws of Short Whist and the
    match's options would: the hands as dealt, the trumps, who may play what, the tricks, the
    honours each side was dealt and each deal's score."""

    def __init__(self, opts: dict[str, Any], dealer: int) -> None:
        self.o = opts
        self.dealer = dealer
        self.totals = [0, 0]
        self.deals = 0
        self.met = {"honours_scored": 0, "at_the_point": 0, "tricks_first": 0, "honours_game": 0,
                    "modern_refused": 0}

    def new_deal(self, cards: list[str]) -> None:
        if self.deals:
            self.dealer = (self.dealer + 1) % 4
        self.hands = [[cards[i] for i in range(52) if (self.dealer + 1 + i) % 4 == q]
                      for q in range(4)]
        self.trump = suit_of(cards[51])  # the dealer's last card, turned up
        assert cards[51] in self.hands[self.dealer]
        self.honours = [sum(1 for q in (t, t + 2) for c in self.hands[q]
                            if suit_of(c) == self.trump and c[0] in HONOURS) for t in (0, 1)]
        self.tricks = [0, 0]
        self.trick: list[tuple[int, str]] = []
        self.leader = (self.dealer + 1) % 4

    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % 4

    def allowed(self, seat: int) -> set[str]:
        hand = self.hands[seat]
        if not self.trick:
            return set(hand)
        led = suit_of(self.trick[0][1])
        return {c for c in hand if suit_of(c) == led} or set(hand)

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) == 4:
            led = suit_of(self.trick[0][1])
            w = max(self.trick, key=lambda sc: (suit_of(sc[1]) == self.trump,
                                                suit_of(sc[1]) == led, RANK_OF[sc[1]]))[0]
            self.tricks[w % 2] += 1
            self.trick, self.leader = [], w

    def score(self) -> list[int]:
        o, target = self.o, self.o["target"]
        odd = [max(t - 6, 0) for t in self.tricks]
        out = list(odd)
        worth = [{4: 4, 3: 2}.get(h, 0) for h in self.honours]
        tricks_win = any(self.totals[t] + odd[t] >= target for t in (0, 1))
        for t in (0, 1):
            if not (o["honours"] and worth[t]):
                continue
            if tricks_win:
                self.met["tricks_first"] += 1
            elif self.totals[t] == target - 1:
                self.met["at_the_point"] += 1
            elif not o["honours_to_game"] and self.totals[t] + odd[t] + worth[t] >= target:
                self.met["modern_refused"] += 1
            else:
                out[t] += worth[t]
                self.met["honours_scored"] += 1
                self.met["honours_game"] += self.totals[t] + out[t] >= target
        for t in (0, 1):
            self.totals[t] += out[t]
        self.deals += 1
        return out


def play_match(opts: dict[str, Any], seed: int, dealer: int = 0) -> tuple[State, Referee]:
    """A random match, every step checked against the rules recomputed here."""
    o = {**DEFAULTS, **opts}
    st_ = Game(SPEC, 4, opts, dealer).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(o, dealer)
    ends: list[dict[str, Any]] = []
    st_.on_deal_end = lambda s: ends.append(
        {"taken": [len(z) for z in s.z["taken"]], "hand": [len(h) for h in s.z["hand"]],
         "trick": len(s.z["trick"])})
    while not st_.is_terminal():
        legal = st_.legal_actions()
        if st_.is_chance_node():
            cards = list(legal[0]["cards"])
            assert len(set(cards)) == 52, "one whole pack"
            rng.shuffle(cards)
            st_.apply({"chance": "shuffle", "cards": cards})
            ref.new_deal(cards)
            assert [sorted(h) for h in st_.z["hand"]] == [sorted(h) for h in ref.hands]
            assert st_.v["turn_up"] == cards[51] and st_.v["trump"] == ref.trump
            continue
        seat = ref.to_move()
        assert {e["seat"] for e in legal} == {seat}, "out of turn"
        assert {e["card"] for e in legal} == ref.allowed(seat)
        ev = rng.choice(legal)
        n = len(st_.result()["deals"])
        st_.apply(ev)
        ref.play(seat, ev["card"])
        on_table = sum(len(h) for h in st_.z["hand"]) + len(st_.z["trick"]) + \
            sum(len(z) for z in st_.z["taken"]) + len(st_.z["stock"])
        assert on_table == 52, "cards conserved"
        deals = st_.result()["deals"]
        if len(deals) > n:
            entry, end = deals[-1], ends[-1]
            assert sum(ref.tricks) == 13 and end["hand"] == [0] * 4 and end["trick"] == 0
            assert end["taken"] == [4 * t for t in ref.tricks], "tricks credited elsewhere"
            want = ref.score()
            assert entry["team_scores"] == want, (ref.tricks, ref.honours, ref.totals)
            assert entry["scores"] == [want[q % 2] for q in range(4)]
            assert all(0 <= s <= 11 for s in want)
            # the side that lost the tricks scores only honours, if anything
            assert want[ref.tricks.index(min(ref.tricks))] in (0, 2, 4)
            if not st_.is_terminal():
                assert max(ref.totals) < o["target"], "the game went on"
    res = st_.result()
    assert max(ref.totals) >= o["target"], "the game ended early"
    assert sum(t >= o["target"] for t in ref.totals) == 1
    assert res["team_totals"] == ref.totals and res["teams"] == [0, 1, 0, 1]
    assert res["totals"] == [ref.totals[q % 2] for q in range(4)]
    won = [t for t in (0, 1) if ref.totals[t] >= o["target"]]
    assert res["team_winners"] == won
    assert res["winners"] == [q for q in range(4) if q % 2 in won]
    return st_, ref


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"target": 10},
    {"target": 7, "honours": False},
    {"honours_to_game": False},
    {"target": 1},
]


@pytest.mark.parametrize("opts", OPTION_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_random_matches_score_as_the_rules_say(opts: dict[str, Any]) -> None:
    met = dict.fromkeys(Referee({}, 0).met, 0)
    # a side at the point below the target holding honours is rare: the defaults play longer
    for seed in range(60 if not opts else 20):
        _, ref = play_match(opts, seed, dealer=seed % 4)
        for k, v in ref.met.items():
            met[k] += v
    o = {**DEFAULTS, **opts}
    if o["honours"] and o["target"] > 1:  # the honours rules were met
        assert met["honours_scored"] and met["tricks_first"]
        assert met["honours_game"] or not o["honours_to_game"]
        assert met["at_the_point"] or opts
    if not o["honours"] or o["target"] == 1:
        assert met["honours_scored"] == 0
    if not o["honours_to_game"]:
        assert met["modern_refused"] and not met["honours_game"]


def test_a_simulated_record_replays(tmp_path: Path) -> None:
    rec = tmp_path / "recs"
    summary = simulate("whist", 4, 3, seed=5, options={"target": 7}, records=rec)
    assert summary.games == 3
    paths = sorted(rec.glob("*.json"))
    assert len(paths) == 3
    runner = CliRunner()
    for path in paths:
        record = json.loads(path.read_text())
        st_ = Game(SPEC, 4, record.get("options") or {}, record.get("dealer", 0)) \
            .new_initial_state()
        for ev in record["events"]:
            st_.apply(ev)
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        answer = json.loads(out.output)
        assert answer == json.loads(json.dumps(st_.result()))
        assert answer["teams"] == [0, 1, 0, 1] and len(answer["team_winners"]) == 1


@settings(max_examples=20, deadline=None)
@given(target=st.sampled_from([1, 2, 3, 5, 7, 10]), honours=st.booleans(),
       to_game=st.booleans(), seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_every_combination_of_options_scores_as_the_rules_say(
        target: int, honours: bool, to_game: bool, seed: int, dealer: int) -> None:
    st_, _ = play_match({"target": target, "honours": honours, "honours_to_game": to_game},
                        seed, dealer)
    assert st_.is_terminal()


# ---- deals built by hand. Each seat holds three cards of three suits and four of the fourth,
# so everybody follows suit for twelve tricks: each suit is led three times, and in each round
# every player plays their highest card of it, so the holder of the round's highest card wins.
# The thirteenth trick is everyone's last card, one of each suit: the one trump wins it.

def hands_of(layout: dict[str, list[str]]) -> dict[int, list[str]]:
    """The hands from a table of holdings: for each suit, each seat's ranks (seat 0 first)."""
    return {q: [r + s for s, ranks in layout.items() for r in ranks[q]] for q in range(4)}


def shuffle_for(hands: dict[int, list[str]], dealer: int, turn_up: str) -> list[str]:
    """The shuffled pack (top card first) that deals these hands one card at a time from the
    dealer's left, with turn_up the dealer's last card."""
    own = [c for c in hands[dealer] if c != turn_up] + [turn_up]
    hands = {**hands, dealer: own}
    return [hands[(dealer + 1 + i) % 4][i // 4] for i in range(52)]


def play_deal(st_: State, layout: dict[str, list[str]], dealer: int, turn_up: str) -> None:
    """Deals the layout and plays it: each suit of the layout led three times in turn, every
    player playing their highest card of it, then the last trick."""
    st_.apply({"chance": "shuffle", "cards": shuffle_for(hands_of(layout), dealer, turn_up)})
    assert st_.v["turn_up"] == turn_up and st_.v["trump"] == suit_of(turn_up)
    for n in range(13):
        for _ in range(4):
            legal = st_.legal_actions()
            seat = legal[0]["seat"]
            hand = list(st_.z["hand"][seat])
            mine = [c for c in hand if n == 12 or suit_of(c) == list(layout)[n // 3]]
            card = max(mine, key=lambda c: RANK_OF[c])
            assert {"seat": seat, "action": "play", "card": card} in legal
            st_.apply({"seat": seat, "action": "play", "card": card})


def start(opts: dict[str, Any] | None = None, dealer: int = 0) -> State:
    return Game(SPEC, 4, opts or {}, dealer).new_initial_state()


# Spades trumps. Team 0 (seats 0 and 2) wins spades, diamonds and clubs, team 1 hearts; seat 0's
# last spade takes the last trick: 10 tricks to 3. Honours divided: A K with seat 0, Q J with 1.
TEN_TO_THREE = {
    "S": ["AK32", "QJ4", "T98", "765"],
    "H": ["JT9", "AKQ", "8765", "432"],
    "D": ["765", "432", "AKQ", "JT98"],
    "C": ["AKQ", "JT98", "765", "432"],
}
# Team 1 the same way, seat 1 holding the long spades (dealer 1): 10 tricks to 3 for team 1.
TEN_TO_THREE_FOR_ONE = {
    "S": ["QJ4", "AK32", "765", "T98"],
    "H": ["AKQ", "JT9", "432", "8765"],
    "D": ["432", "765", "JT98", "AKQ"],
    "C": ["JT98", "AKQ", "432", "765"],
}
# Team 0 wins spades (seat 2's A K Q) and clubs, team 1 hearts and diamonds; seat 0's last
# spade takes the last trick: 7 to 6. Team 1 holds no honour: seat 0 the J, seat 2 the A K Q.
SEVEN_TO_SIX = {
    "S": ["J432", "T98", "AKQ", "765"],
    "H": ["JT9", "AKQ", "8765", "432"],
    "D": ["765", "432", "JT9", "AKQ8"],
    "C": ["AKQ", "JT98", "765", "432"],
}
# Team 0 again takes 7 tricks to 6 (spades' third round, diamonds and clubs), but the honours
# are all with team 1: A Q with seat 1, K J with seat 3, whose last spade takes the last trick.
SEVEN_TO_SIX_HONOURS_AGAINST = {
    "S": ["T98", "AQ2", "765", "KJ43"],
    "H": ["JT9", "AKQ", "8765", "432"],
    "D": ["AKQ8", "765", "JT9", "432"],
    "C": ["765", "JT98", "AKQ", "432"],
}


def rotate(layout: dict[str, list[str]]) -> dict[str, list[str]]:
    """The layout moved one seat to the left: each seat gets its right-hand neighbour's cards,
    so the two partnerships swap their holdings."""
    return {s: [ranks[(q - 1) % 4] for q in range(4)] for s, ranks in layout.items()}


def test_the_deal_goes_round_and_the_dealers_last_card_is_trumps() -> None:
    for dealer in range(4):
        st_ = start(dealer=dealer)
        cards = list(st_.legal_actions()[0]["cards"])
        random.Random(dealer).shuffle(cards)
        st_.apply({"chance": "shuffle", "cards": cards})
        for i, c in enumerate(cards):
            assert c in st_.z["hand"][(dealer + 1 + i) % 4]
        assert st_.v["turn_up"] == cards[51] and st_.v["trump"] == suit_of(cards[51])
        # the player on the dealer's left leads, and every seat sees the turn-up
        assert st_.legal_actions()[0]["seat"] == (dealer + 1) % 4
        assert all(st_.observation(q)["vars"]["turn_up"] == cards[51] for q in range(4))


def test_follow_suit_else_any_card_and_the_highest_trump_wins() -> None:
    st_ = start()
    st_.apply({"chance": "shuffle", "cards": shuffle_for(hands_of(SEVEN_TO_SIX), 0, "2S")})
    st_.apply({"seat": 1, "action": "play", "card": "AH"})
    # seat 2 holds hearts: it must follow
    assert {e["card"] for e in st_.legal_actions()} == {"8H", "7H", "6H", "5H"}


def test_odd_tricks_and_divided_honours() -> None:
    st_ = start()
    play_deal(st_, TEN_TO_THREE, 0, "2S")
    entry = st_.result()["deals"][0]
    assert entry["team_scores"] == [4, 0]  # 10 tricks: 4 odd tricks; honours divided 2 to 2
    assert entry["scores"] == [4, 0, 4, 0]


def test_three_honours_score_two() -> None:
    # SEVEN_TO_SIX with seat 3 holding the J: team 0 has A K Q, three honours; the same tricks
    layout = {**SEVEN_TO_SIX, "S": ["5432", "T98", "AKQ", "J76"]}
    st_ = start()
    play_deal(st_, layout, 0, "2S")
    assert st_.result()["deals"][0]["team_scores"] == [1 + 2, 0]


def test_four_honours_score_four_even_for_the_side_that_loses_the_tricks() -> None:
    st_ = start()
    play_deal(st_, SEVEN_TO_SIX, 0, "2S")
    assert st_.result()["deals"][0]["team_scores"] == [1 + 4, 0]  # odd trick and four honours
    assert st_.is_terminal() and st_.result()["team_winners"] == [0]  # honours win the game
    st_ = start()
    play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 0, "8S")
    assert st_.result()["deals"][0]["team_scores"] == [1, 4]


def test_no_honours_at_the_score_of_four() -> None:
    st_ = start()
    play_deal(st_, TEN_TO_THREE, 0, "2S")  # team 0 at 4
    # seat 1 deals; the partnerships' holdings swapped: team 1 takes 7 tricks to 6 and team 0
    # holds all four honours, but began the deal at four: they do not count
    play_deal(st_, rotate(SEVEN_TO_SIX_HONOURS_AGAINST), 1, "8S")
    assert st_.result()["deals"][1]["team_scores"] == [0, 1]
    assert st_.result()["team_totals"] == [4, 1] and not st_.is_terminal()
    # at three they would: the same deal from the start of a game scores them
    st_ = start(dealer=1)
    play_deal(st_, rotate(SEVEN_TO_SIX_HONOURS_AGAINST), 1, "8S")
    assert st_.result()["deals"][0]["team_scores"] == [4, 1]


def test_a_side_whose_odd_tricks_win_the_game_scores_no_honours() -> None:
    st_ = start()
    play_deal(st_, TEN_TO_THREE, 0, "2S")  # team 0 at 4
    # seat 1 deals; team 0 holds all four honours and takes 7 tricks to 6: its odd trick wins
    # the game, and nothing more is scored
    play_deal(st_, SEVEN_TO_SIX, 1, "9S")
    assert st_.result()["deals"][1]["team_scores"] == [1, 0]
    assert st_.result()["team_totals"] == [5, 0] and st_.result()["team_winners"] == [0]


def test_tricks_are_scored_before_honours() -> None:
    st_ = start()
    play_deal(st_, TEN_TO_THREE, 0, "2S")  # team 0 at 4, team 1 at 0
    # seat 1 deals; team 0 takes 7 tricks to 6 and reaches 5 with its odd trick: the game is
    # won, and team 1's four honours, scored last, are not scored
    play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 1, "2S")
    res = st_.result()
    assert res["deals"][1]["team_scores"] == [1, 0]
    assert res["team_totals"] == [5, 0] and res["team_winners"] == [0]
    assert res["winners"] == [0, 2] and res["totals"] == [5, 0, 5, 0]


def test_honours_win_the_game_unless_the_modern_reading_is_agreed() -> None:
    # to 4 points: team 1 (at 0) holds all four honours, which bring it to the target
    st_ = start({"target": 4})
    play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 0, "8S")
    res = st_.result()
    assert res["deals"][0]["team_scores"] == [1, 4]
    assert st_.is_terminal() and res["team_winners"] == [1] and res["winners"] == [1, 3]
    st_ = start({"target": 4, "honours_to_game": False})
    play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 0, "8S")
    assert st_.result()["deals"][0]["team_scores"] == [1, 0]
    assert not st_.is_terminal()
    # below the target they count as usual under both readings
    st_ = start({"target": 5, "honours_to_game": False})
    play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 0, "8S")
    assert st_.result()["deals"][0]["team_scores"] == [1, 4]


def test_honours_off_and_a_game_of_one() -> None:
    for opts in ({"honours": False}, {"target": 1}):
        st_ = start(opts)
        play_deal(st_, SEVEN_TO_SIX_HONOURS_AGAINST, 0, "8S")
        assert st_.result()["deals"][0]["team_scores"] == [1, 0]
        assert st_.is_terminal() == (opts.get("target") == 1)


def test_all_thirteen_tricks_and_four_honours_is_the_most_a_deal_scores() -> None:
    one_suit = {"S": ["AKQJT98765432", "", "", ""], "H": ["", "AKQJT98765432", "", ""],
                "D": ["", "", "AKQJT98765432", ""], "C": ["", "", "", "AKQJT98765432"]}
    st_ = start({"target": 100})
    st_.apply({"chance": "shuffle", "cards": shuffle_for(hands_of(one_suit), 0, "2S")})
    while len(st_.result()["deals"]) == 0:
        st_.apply(st_.legal_actions()[0])
    assert st_.result()["deals"][0]["team_scores"] == [11, 0]
    # to 5 the seven odd tricks win the game first, and the honours are not scored
    st_ = start()
    st_.apply({"chance": "shuffle", "cards": shuffle_for(hands_of(one_suit), 0, "2S")})
    while not st_.is_terminal():
        st_.apply(st_.legal_actions()[0])
    assert st_.result()["deals"][0]["team_scores"] == [7, 0]


def test_the_committed_rulebook_is_the_one_the_spec_gives() -> None:
    root = Path(__file__).resolve().parent.parent
    book = root / "docs" / "rules" / "whist.md"
    ref = root / "docs" / "rules" / "whist-reference.md"
    runner = CliRunner()
    for page, more in ((book, []), (ref, ["--reference"])):
        for fmt, path in (("md", page), ("html", page.with_suffix(".html"))):
            out = runner.invoke(main, ["doc", "whist", "--format", fmt, "--out", str(path),
                                       "--check", *more])
            assert out.exit_code == 0, out.output
    text = ref.read_text(encoding="utf-8")
    for ident in ("WH-1", "WH-3", "honours_to_game", "odd trick", "turn-up"):
        assert ident in text
