"""Euchre (rulespec/games/euchre.rules) played and checked against a referee written here.

The referee follows the rules from the events alone (pagat's Euchre with the spec's options):
it deals the shuffled pack itself (two cards each, then three, from the dealer's left, and turns
the next card up), works out every legal list (ordering up or passing, the dealer's discard,
naming another suit, stick the dealer, going alone and defending alone, following suit with the
left bower a trump), the trick winners (right bower, left bower, then ace down), the deal's
score (1, 2 or 4 for the makers, 2 or 4 for the defenders) and the end of the match. Random
matches under many option sets are checked against it at every event, with the invariants:
the 24 cards conserved and distinct, partners scoring alike, every deal's score in 0..4. Then a
simulated record replays, and hand-built deals show the bowers, a lone march, a euchre, a lone
defender, stick the dealer and a thrown-in deal."""

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
from rulespec.loading import resolve
from rulespec.simulate import simulate

SPEC = resolve("euchre").spec
DEFAULTS: dict[str, Any] = {o.name: o.default for o in SPEC.options}
SUITS = "CDHS"
RANKS = "9TJQKA"
PACK = [r + s for s in SUITS for r in RANKS]
MATE = {"C": "S", "S": "C", "D": "H", "H": "D"}


def canon(ev: dict[str, Any]) -> str:
    return json.dumps(ev, sort_keys=True, separators=(",", ":"))


class Referee:
    """A match of Euchre, followed event by event as a referee with the rules and the match's
    options would: what may be done next, who wins each trick, what each side scores."""

    def __init__(self, opts: dict[str, Any], dealer: int = 0) -> None:
        self.o = {**DEFAULTS, **opts}
        self.dealer = dealer
        self.totals = [0, 0]
        self.deals = 0
        self.phase = "pick"
        self.seen: dict[str, int] = {}  # how often each kind of situation was met

    # -- the deal
    def shuffle(self, cards: list[str]) -> None:
        assert sorted(cards) == sorted(PACK)
        left = [(self.dealer + 1 + i) % 4 for i in range(4)]
        self.hands: list[list[str]] = [[] for _ in range(4)]
        it = iter(cards)
        for n in (2, 3):
            for q in left:
                self.hands[q] += [next(it) for _ in range(n)]
        self.up = next(it)
        self.trump: str | None = None
        self.maker = -1
        self.alone = False
        self.def_alone = -1
        self.out = [False] * 4
        self.calls = 0
        self.turn = left[0]
        self.phase = "round1"
        self.tricks = [0] * 4
        self.trick: list[tuple[int, str]] = []
        self.asked: list[int] = []

    def is_trump(self, c: str) -> bool:
        return self.suit(c) == self.trump

    def suit(self, c: str) -> str:
        if self.trump and c[0] == "J" and c[1] == MATE[self.trump]:
            return self.trump
        return c[1]

    def strength(self, c: str, led: str) -> int:
        if self.is_trump(c):
            if c[0] == "J":
                return 200 if c[1] == self.trump else 199
            return 100 + RANKS.index(c[0])
        return RANKS.index(c[0]) if self.suit(c) == led else -1

    def legal(self) -> tuple[int, list[dict[str, Any]]]:
        """The seat to move and its legal events."""
        q, ph = self.turn, self.phase
        if ph == "round1":
            return q, [{"seat": q, "action": "order_up"}, {"seat": q, "action": "pass"}]
        if ph == "discard":
            keep = self.up if self.o["dealer_discard"] == "not_turned" else None
            return q, [{"seat": q, "action": "discard", "card": c}
                       for c in self.hands[q] if c != keep]
        if ph == "round2":
            evs = [{"seat": q, "action": "name", "suit": s} for s in SUITS if s != self.up[1]]
            if not (self.o["stick_the_dealer"] and q == self.dealer):
                evs.append({"seat": q, "action": "pass"})
            return q, evs
        if ph == "alone":
            evs = [{"seat": q, "action": "alone"}]
            must = (self.o["partner_orders_alone"] and self.ordered
                    and self.maker == (self.dealer + 2) % 4)
            return q, evs + ([] if must else [{"seat": q, "action": "with_partner"}])
        if ph == "defend":
            return q, [{"seat": q, "action": "defend_alone"},
                       {"seat": q, "action": "defend_with_partner"}]
        assert ph == "play"
        hand = self.hands[q]
        if self.trick:
            led = self.suit(self.trick[0][1])
            follow = [c for c in hand if self.suit(c) == led]
            hand = follow or hand
        return q, [{"seat": q, "action": "play", "card": c} for c in hand]

    def next_player(self, q: int) -> int:
        q = (q + 1) % 4
        while self.out[q]:
            q = (q + 1) % 4
        return q

    def apply(self, ev: dict[str, Any]) -> dict[str, Any] | None:
        """Apply an event; at the end of a deal, what each side scores (or 'thrown')."""
        a, q = ev.get("action"), ev.get("seat")
        if ev.get("chance") == "pick":
            self.dealer = int(ev["value"])
            self.phase = "shuffle"
        elif ev.get("chance") == "shuffle":
            self.shuffle(list(ev["cards"]))
        elif a == "order_up":
            self.make(q, self.up[1], ordered=True)
            self.hands[self.dealer].append(self.up)
            self.phase, self.turn = "discard", self.dealer
        elif a == "discard":
            self.hands[self.dealer].remove(ev["card"])
            self.phase, self.turn = "alone", self.maker
        elif a == "name":
            self.make(q, ev["suit"], ordered=False)
            self.phase, self.turn = "alone", self.maker
        elif a == "pass":
            self.calls += 1
            if self.calls == 8:
                return self.end_deal(None)
            self.phase = "round1" if self.calls < 4 else "round2"
            self.turn = (self.turn + 1) % 4
        elif a in ("alone", "with_partner"):
            if a == "alone":
                self.alone = True
                self.out[(q + 2) % 4] = True
                self.seen["alone"] = self.seen.get("alone", 0) + 1
            lone = self.o["lone_defender"]
            if lone == "always" or (lone == "against_lone" and self.alone):
                self.asked = [s for s in ((self.dealer + 1 + i) % 4 for i in range(4))
                              if s % 2 != self.maker % 2]
                self.phase, self.turn = "defend", self.asked[0]
            else:
                self.start_play()
        elif a in ("defend_alone", "defend_with_partner"):
            self.asked.pop(0)
            if a == "defend_alone":
                self.def_alone = q
                self.out[(q + 2) % 4] = True
                self.seen["defend_alone"] = self.seen.get("defend_alone", 0) + 1
            if a == "defend_alone" or not self.asked:
                self.start_play()
            else:
                self.turn = self.asked[0]
        elif a == "play":
            return self.play(q, ev["card"])
        return None

    def make(self, q: int, trump: str, ordered: bool) -> None:
        self.maker, self.trump, self.ordered = q, trump, ordered

    def start_play(self) -> None:
        self.phase = "play"
        first = self.dealer
        if self.o["opening_lead"] == "loner_left" and self.alone:
            first = self.maker
        self.turn = self.next_player(first)

    def play(self, q: int, card: str) -> dict[str, Any] | None:
        self.hands[q].remove(card)
        self.trick.append((q, card))
        if len(self.trick) < self.out.count(False):
            self.turn = self.next_player(q)
            return None
        led = self.suit(self.trick[0][1])
        winner = max(self.trick, key=lambda t: self.strength(t[1], led))[0]
        self.tricks[winner] += 1
        self.trick = []
        self.turn = winner
        if sum(self.tricks) == 5:
            return self.end_deal(self.score())
        return None

    def score(self) -> list[int]:
        m = self.maker % 2
        took = self.tricks[m] + self.tricks[m + 2]
        pts = [0, 0]
        if took == 5:
            pts[m] = 4 if self.alone else 2
        elif took >= 3:
            pts[m] = 1
        elif self.def_alone >= 0 or (self.o["super_euchre"] and took == 0):
            pts[1 - m] = 4
        else:
            pts[1 - m] = 2
        kind = "march" if took == 5 else "made" if took >= 3 else "euchred"
        self.seen[kind] = self.seen.get(kind, 0) + 1
        return pts

    def end_deal(self, pts: list[int] | None) -> dict[str, Any]:
        self.deals += 1
        thrown = pts is None
        pts = pts or [0, 0]
        for t in (0, 1):
            self.totals[t] += pts[t]
        self.over = (max(self.totals) >= self.o["target"]
                     or (self.o["deals"] > 0 and self.deals >= self.o["deals"]))
        if not (thrown and self.o["thrown_in"] == "same_dealer"):
            self.dealer = (self.dealer + 1) % 4
        self.phase = "shuffle"
        if thrown:
            self.seen["thrown"] = self.seen.get("thrown", 0) + 1
        return {"team_scores": pts, "thrown": thrown}


def random_event(st_: State, rng: random.Random) -> dict[str, Any]:
    legal = st_.legal_actions()
    if st_.is_chance_node() and legal[0].get("chance") == "shuffle":
        cards = list(legal[0]["cards"])
        rng.shuffle(cards)
        return {"chance": "shuffle", "cards": cards}
    passes = [e for e in legal if e.get("action") == "pass"]
    if passes and rng.random() < .7:
        # pass more often than at random, so that some deals are thrown in
        return dict(passes[0])
    return dict(rng.choice(legal))


def all_cards(st_: State) -> list[str]:
    z = st_.z
    cards = list(z["stock"]) + list(z["upcard"]) + list(z["kitty"]) + list(z["trick"])
    for q in range(4):
        cards += list(z["hand"][q]) + list(z["taken"][q])
    return cards


def play_match(opts: dict[str, Any], seed: int, dealer: int = 0) -> tuple[State, Referee]:
    """A random match, every event checked against the referee."""
    st_ = Game(SPEC, 4, opts, dealer).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(opts, dealer)
    ends: list[dict[str, Any]] = []
    st_.on_deal_end = lambda s: ends.append(
        {"taken": [len(z) for z in s.z["taken"]], "hand": [len(h) for h in s.z["hand"]]})
    while not st_.is_terminal():
        ev = random_event(st_, rng)
        if not st_.is_chance_node():
            seat, want = ref.legal()
            got = st_.legal_actions()
            assert {canon(e) for e in got} == {canon(e) for e in want}, (got, want, ref.phase)
            assert all(e["seat"] == seat for e in got)
        n_before = len(st_.result()["deals"])
        st_.apply(ev)
        end = ref.apply(ev)
        if ref.phase not in ("pick", "shuffle") or end is None:
            cards = all_cards(st_)
            if cards:
                assert sorted(cards) == sorted(PACK), "the 24 cards are conserved"
        deals = st_.result()["deals"]
        assert (len(deals) > n_before) == (end is not None)
        if end is not None:
            entry = deals[-1]
            assert entry["team_scores"] == end["team_scores"], (entry, end, ref.tricks)
            assert entry["scores"] == [end["team_scores"][q % 2] for q in range(4)]
            assert all(0 <= s <= 4 for s in entry["scores"])
            assert bool(entry.get("thrown_in")) == end["thrown"]
            assert entry["sitting_out"] == ([] if end["thrown"]
                                           else [q for q in range(4) if ref.out[q]])
            if not end["thrown"]:
                assert sum(ref.tricks) == 5
                assert ends[-1]["taken"] == [t * ref.out.count(False) for t in ref.tricks]
                assert all(n == (5 if ref.out[q] else 0) for q, n in enumerate(ends[-1]["hand"]))
            assert st_.is_terminal() == ref.over, "the match ends when the rules say"
    res = st_.result()
    assert res["team_totals"] == ref.totals
    assert res["totals"] == [ref.totals[q % 2] for q in range(4)]
    best = max(ref.totals)
    assert res["team_winners"] == [t for t in (0, 1) if ref.totals[t] == best]
    return st_, ref


OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"deals": 1, "stick_the_dealer": True, "lone_defender": "never",
     "dealer_discard": "not_turned"},
    {"target": 5, "lone_defender": "always", "super_euchre": True},
    {"target": 7, "lone_defender": "against_lone", "thrown_in": "same_dealer",
     "opening_lead": "loner_left", "partner_orders_alone": True},
    {"deals": 3, "stick_the_dealer": True, "lone_defender": "always", "opening_lead": "loner_left",
     "dealer_discard": "not_turned"},
]


@pytest.mark.parametrize("opts", OPTION_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_random_matches_follow_the_rules(opts: dict[str, Any]) -> None:
    seen: dict[str, int] = {}
    for seed in range(8):
        _, ref = play_match(opts, seed, dealer=seed % 4)
        for k, v in ref.seen.items():
            seen[k] = seen.get(k, 0) + v
    # the interesting cases were met
    assert seen.get("made") and seen.get("euchred") and seen.get("alone")
    if opts.get("lone_defender") == "always":
        assert seen.get("defend_alone")
    if not opts.get("stick_the_dealer") and opts.get("deals") != 1:
        assert seen.get("thrown")


def test_a_simulated_record_replays(tmp_path: Path) -> None:
    rec = tmp_path / "recs"
    summary = simulate("euchre", 4, 3, seed=5, options={"lone_defender": "always"}, records=rec)
    assert summary.games == 3
    paths = sorted(rec.glob("*.json"))
    assert len(paths) == 3
    runner = CliRunner()
    for path in paths:
        record = json.loads(path.read_text())
        opts = record.get("options") or {}
        st_ = Game(SPEC, 4, opts, record.get("dealer", 0)).new_initial_state()
        for ev in record["events"]:
            st_.apply(ev)
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        assert json.loads(out.output) == json.loads(json.dumps(st_.result()))


# ---- hand-built deals: the first dealer is picked as seat 0, so seat 1 calls and leads first


def shuffle_for(hands: dict[int, list[str]], up: str, dealer: int = 0) -> list[str]:
    """The shuffled pack (top card first) that deals these hands, two cards each and then
    three from the dealer's left, and turns up `up`."""
    left = [(dealer + 1 + i) % 4 for i in range(4)]
    order = [hands[q][i] for q in left for i in (0, 1)] + [hands[q][i] for q in left
                                                            for i in (2, 3, 4)]
    rest = [c for c in PACK if c not in order and c != up]
    return order + [up] + rest


def start(opts: dict[str, Any], hands: dict[int, list[str]], up: str) -> State:
    st_ = Game(SPEC, 4, opts, 0).new_initial_state()
    st_.apply({"chance": "pick", "value": 0})
    st_.apply({"chance": "shuffle", "cards": shuffle_for(hands, up)})
    return st_


def act(st_: State, *evs: tuple[int, str, dict[str, Any]]) -> None:
    for seat, action, fields in evs:
        st_.apply({"seat": seat, "action": action, **fields})


HANDS = {
    1: ["JH", "JD", "AH", "KH", "QH"],  # both red bowers and three hearts
    2: ["9C", "TC", "QC", "KC", "AC"],
    3: ["9S", "TS", "QS", "KS", "AS"],
    0: ["9D", "TD", "QD", "KD", "AD"],
}


def test_the_deal_gives_two_then_three_and_turns_up_a_card() -> None:
    st_ = start({"deals": 1}, HANDS, "TH")
    assert [sorted(h) for h in st_.z["hand"]] == [sorted(HANDS[q]) for q in range(4)]
    assert list(st_.z["upcard"]) == ["TH"]
    assert len(st_.z["kitty"]) == 3
    assert {e["action"] for e in st_.legal_actions()} == {"order_up", "pass"}


def test_the_left_bower_is_a_trump_and_not_a_diamond() -> None:
    st_ = start({"deals": 1}, HANDS, "TH")
    act(st_, (1, "order_up", {}), (0, "discard", {"card": "9D"}), (1, "with_partner", {}))
    # seat 0 (the dealer) holds TH now; seat 1 leads the left bower: a trump lead
    act(st_, (1, "play", {"card": "JD"}))
    act(st_, (2, "play", {"card": "9C"}), (3, "play", {"card": "9S"}))
    # the dealer must follow trumps with TH, not a diamond
    assert [e["card"] for e in st_.legal_actions()] == ["TH"]
    act(st_, (0, "play", {"card": "TH"}))
    act(st_, (1, "play", {"card": "JH"}), (2, "play", {"card": "TC"}), (3, "play", {"card": "TS"}),
        (0, "play", {"card": "TD"}))
    act(st_, (1, "play", {"card": "AH"}), (2, "play", {"card": "QC"}), (3, "play", {"card": "QS"}),
        (0, "play", {"card": "QD"}))
    act(st_, (1, "play", {"card": "KH"}), (2, "play", {"card": "KC"}), (3, "play", {"card": "KS"}),
        (0, "play", {"card": "KD"}))
    act(st_, (1, "play", {"card": "QH"}), (2, "play", {"card": "AC"}), (3, "play", {"card": "AS"}),
        (0, "play", {"card": "AD"}))
    # a march with the partner: 2 points
    assert st_.result()["deals"][0]["team_scores"] == [0, 2]


def test_the_right_bower_beats_the_left() -> None:
    hands = {1: ["JD", "9H", "9C", "TC", "QC"], 2: ["JH", "KC", "AC", "9S", "TS"],
             3: ["QS", "KS", "AS", "9D", "TD"], 0: ["QD", "KD", "AD", "AH", "KH"]}
    st_ = start({"deals": 1}, hands, "QH")
    act(st_, (1, "order_up", {}), (0, "discard", {"card": "QD"}), (1, "with_partner", {}))
    act(st_, (1, "play", {"card": "JD"}))  # the left bower, led as a trump
    assert [e["card"] for e in st_.legal_actions()] == ["JH"]
    act(st_, (2, "play", {"card": "JH"}))
    assert {e["card"] for e in st_.legal_actions()} == {"QS", "KS", "AS", "9D", "TD"}
    act(st_, (3, "play", {"card": "9D"}))
    assert {e["card"] for e in st_.legal_actions()} == {"AH", "KH", "QH"}
    act(st_, (0, "play", {"card": "AH"}))
    assert st_.legal_actions()[0]["seat"] == 2, "the right bower won the trick"


def play_out(st_: State, plan: dict[int, list[str]]) -> None:
    """Play the deal out, each seat playing the first card of its plan that is legal."""
    while not st_.is_terminal() and not st_.is_chance_node():
        legal = st_.legal_actions()
        seat = legal[0]["seat"]
        cards = {e["card"] for e in legal}
        card = next(c for c in plan[seat] if c in cards)
        st_.apply({"seat": seat, "action": "play", "card": card})


def test_a_lone_march_scores_four_and_the_partner_sits_out() -> None:
    st_ = start({"deals": 1}, HANDS, "TH")
    act(st_, (1, "order_up", {}), (0, "discard", {"card": "9D"}), (1, "alone", {}))
    order = []
    while not st_.is_terminal():
        ev = st_.legal_actions()[0]
        order.append(ev["seat"])
        st_.apply(ev)
    assert order == [1, 2, 0] * 5, "seat 3 sits out; seat 1 wins every trick"
    entry = st_.result()["deals"][0]
    assert entry["team_scores"] == [0, 4]
    assert entry["sitting_out"] == [3]


def test_euchred_makers_give_the_defenders_two_or_four() -> None:
    # seat 2 names clubs in the second round holding none; seat 1 holds the five best trumps
    hands = {1: ["JC", "JS", "AC", "KC", "QC"], 2: ["9H", "TH", "9D", "TD", "9S"],
             3: ["QH", "KH", "AH", "QD", "KD"], 0: ["TS", "QS", "KS", "AS", "AD"]}
    for super_euchre, want in ((False, [0, 2]), (True, [0, 4])):
        st_ = start({"deals": 1, "super_euchre": super_euchre}, hands, "JH")
        act(st_, (1, "pass", {}), (2, "pass", {}), (3, "pass", {}), (0, "pass", {}))
        assert {e.get("suit") for e in st_.legal_actions()} == {"C", "D", "S", None}
        act(st_, (1, "pass", {}), (2, "name", {"suit": "C"}), (2, "with_partner", {}))
        play_out(st_, {q: hands[q] for q in range(4)})
        assert st_.result()["deals"][0]["team_scores"] == want


def test_a_lone_defender_who_euchres_scores_four() -> None:
    hands = {1: ["9C", "9H", "TH", "TC", "9S"], 2: ["JD", "JH", "AH", "KH", "QH"],
             3: ["AC", "QC", "KC", "QS", "KS"], 0: ["AS", "TS", "QD", "KD", "AD"]}
    st_ = start({"deals": 1, "lone_defender": "always"}, hands, "9D")
    act(st_, (1, "order_up", {}), (0, "discard", {"card": "9D"}), (1, "with_partner", {}))
    # the defenders are asked from the dealer's left: seat 2 first
    assert st_.legal_actions()[0]["seat"] == 2
    act(st_, (2, "defend_alone", {}))
    assert st_.v["sitting_out"] == [True, False, False, False]
    play_out(st_, {q: hands[q] for q in range(4)})
    assert [len(z) for z in st_.z["taken"]] == [0, 0, 15, 0], "seat 2 took all five"
    assert st_.result()["deals"][0]["team_scores"] == [4, 0]


def test_stick_the_dealer_and_a_thrown_in_deal() -> None:
    st_ = start({"deals": 1, "stick_the_dealer": True}, HANDS, "TH")
    for q in (1, 2, 3, 0, 1, 2, 3):
        act(st_, (q, "pass", {}))
    assert {e["action"] for e in st_.legal_actions()} == {"name"}, "the dealer is stuck"
    st2 = start({"deals": 1}, HANDS, "TH")
    for q in (1, 2, 3, 0, 1, 2, 3, 0):
        act(st2, (q, "pass", {}))
    assert st2.is_terminal()
    entry = st2.result()["deals"][0]
    assert entry["team_scores"] == [0, 0] and entry["thrown_in"] is True


def test_the_dealer_may_keep_or_discard_the_turned_card() -> None:
    st_ = start({"deals": 1}, HANDS, "TH")
    act(st_, (1, "order_up", {}))
    assert {e["card"] for e in st_.legal_actions()} == set(HANDS[0]) | {"TH"}
    st2 = start({"deals": 1, "dealer_discard": "not_turned"}, HANDS, "TH")
    act(st2, (1, "order_up", {}))
    assert {e["card"] for e in st2.legal_actions()} == set(HANDS[0])


# a match lasts a number of deals, or runs to a target, not both (R9)
LENGTHS = st.one_of(st.fixed_dictionaries({"deals": st.integers(1, 3)}),
                    st.fixed_dictionaries({"target": st.sampled_from([1, 5, 10])}))
OPTIONS = st.fixed_dictionaries({
    "thrown_in": st.sampled_from(["next_dealer", "same_dealer"]),
    "stick_the_dealer": st.booleans(),
    "lone_defender": st.sampled_from(["never", "against_lone", "always"]),
    "super_euchre": st.booleans(),
    "dealer_discard": st.sampled_from(["any", "not_turned"]),
    "partner_orders_alone": st.booleans(),
    "opening_lead": st.sampled_from(["dealer_left", "loner_left"]),
})


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(length=LENGTHS, opts=OPTIONS, seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 3))
def test_every_combination_of_options_follows_the_rules(
        length: dict[str, Any], opts: dict[str, Any], seed: int, dealer: int) -> None:
    st_, _ = play_match({**length, **opts}, seed, dealer)
    assert st_.is_terminal()
