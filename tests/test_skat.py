"""Skat (rulespec/games/skat.rules) played and checked against the rules recomputed here.

A referee written from the International Skat Order, apart from the spec, follows random
matches under many option sets: who is to move and what they may do in the auction (bids are
game values, middlehand bids to forehand, then rearhand to the survivor; forehand may play at
18 when nobody bid), the declarations open to the declarer, the cards a player may play (the
Jacks belong to the trumps except in a null), who wins each trick, when a null ends, and each
deal's score from the game's value (matadors with or without, hand, schneider and schwarz,
announcements, open play, overbidding, a lost game doubled), the tournament scoring and
OpenSpiel's card points. At each deal's end the 32 cards are all there and the 120 card points
too. Then a simulated record replays, and hand-built deals show the order of the cards."""

from __future__ import annotations

import json
import random
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.loading import resolve
from rulespec.simulate import simulate

SPEC = resolve("skat").spec
DEFAULTS: dict[str, Any] = {o.name: o.default for o in SPEC.options}

POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
BASE = {"D": 9, "H": 10, "S": 11, "C": 12}
NULLS = {(False, "plain"): 23, (True, "plain"): 35, (False, "ouvert"): 46, (True, "ouvert"): 59}
#: every game value: a suit game's base times 2 to 18, a grand's 24 times 2 to 11, the nulls
GAME_VALUES = sorted({b * m for b in BASE.values() for m in range(2, 19)}
                     | {24 * m for m in range(2, 12)} | set(NULLS.values()))
PLAIN = "789QKTA"  # a suit's order, lowest first, in a suit game or a grand (no Jack)
NULL = "789TJQKA"  # a suit's order in a null
JACKS = ["JC", "JS", "JH", "JD"]


def pts(cards: list[str]) -> int:
    return sum(POINTS.get(c[0], 0) for c in cards)


class Contract:
    """The game announced: kind (suit, grand, null), trumps, hand, announcement."""

    def __init__(self, kind: str, trumps: str | None, hand: bool, announce: str) -> None:
        self.kind, self.trumps, self.hand, self.announce = kind, trumps, hand, announce

    def trump(self, c: str) -> bool:
        if self.kind == "null":
            return False
        return c[0] == "J" or (self.kind == "suit" and c[1] == self.trumps)

    def belongs(self, c: str) -> str:
        """The suit a card follows as: 'T' for a trump, else its own suit."""
        return "T" if self.trump(c) else c[1]

    def strength(self, c: str, led: str) -> int:
        if self.trump(c):
            return 100 - JACKS.index(c) if c[0] == "J" else 50 + PLAIN.index(c[0])
        if c[1] != led[1] or self.belongs(led) == "T":
            return 0
        return 1 + (NULL if self.kind == "null" else PLAIN).index(c[0])

    def order(self) -> list[str]:
        """The trumps from the top, for the matadors."""
        if self.kind == "grand":
            return list(JACKS)
        return JACKS + [r + str(self.trumps) for r in reversed(PLAIN)]


def legal_cards(hand: list[str], trick: list[str], con: Contract) -> set[str]:
    if not trick:
        return set(hand)
    follow = [c for c in hand if con.belongs(c) == con.belongs(trick[0])]
    return set(follow or hand)


def trick_winner(trick: list[str], seats: list[int], con: Contract) -> int:
    best = max(range(3), key=lambda i: con.strength(trick[i], trick[0]))
    return seats[best]


def matadors(twelve: list[str], con: Contract) -> int:
    tops = con.order()
    held = [c in twelve for c in tops]
    n = 0
    while n < len(tops) and held[n] == held[0]:
        n += 1
    return n


def deal_scores(o: dict[str, Any], declarer: int, bid: int, con: Contract, twelve: list[str],
                left_out: list[str], tricks: list[list[list[str]]]) -> list[int]:
    """Each seat's score for a played deal, from the International Skat Order (and the
    options' scoring); ``tricks[q]`` are the tricks seat q took."""
    mine = [c for t in tricks[declarer] for c in t]
    n_tricks = len(tricks[declarer])
    dp = pts(mine) + pts(left_out)
    if con.kind == "null":
        value = NULLS[(con.hand, con.announce)]
        won = n_tricks == 0
        overbid = False
    else:
        ann_schneider = con.announce in ("schneider", "schwarz", "ouvert")
        ann_schwarz = con.announce in ("schwarz", "ouvert")
        schneider = dp >= 90 or dp <= 30
        schwarz = n_tricks in (0, 10)
        mult = (matadors(twelve, con) + 1 + con.hand + (schneider or ann_schneider) + ann_schneider
                + (schwarz or ann_schwarz) + ann_schwarz + (con.announce == "ouvert"))
        base = 24 if con.kind == "grand" else BASE[str(con.trumps)]
        value = base * mult
        overbid = value < bid
        if overbid:
            value = base * -(-bid // base)
        won = (not overbid and dp >= 61 and (not ann_schneider or dp >= 90)
               and (not ann_schwarz or n_tricks == 10))
    if o["scoring"] == "card_points":
        if con.kind == "null":
            d = 60 if won else -60
            return [d if q == declarer else -d // 2 for q in range(3)]
        return [2 * (dp - 60) if q == declarer else 60 - dp for q in range(3)]
    factor = 1 if con.hand and o["lost_hand"] == "single" else 2
    score = value if won else -factor * value
    out = [0, 0, 0]
    out[declarer] = score
    if o["scoring"] == "seeger_fabian":
        out[declarer] += 50 if won else -50
        if not won:
            for q in range(3):
                if q != declarer:
                    out[q] = 40
    return out


Event = dict[str, Any]
Expect = tuple[int, set[tuple[Any, ...]]]


def key(ev: Event) -> tuple[Any, ...]:
    return (ev["action"], *sorted((k, v) for k, v in ev.items() if k not in ("seat", "action")))


def auction(fh: int) -> Generator[Expect, Event, tuple[int | None, int]]:
    """The auction of the International Skat Order, as a referee runs it: yields who is to
    speak and what they may say, receives what they said; gives the declarer (None when all
    pass) and the bid."""
    mh, rh = (fh + 1) % 3, (fh + 2) % 3
    bid = 0

    def pair(senior: int, junior: int) -> Generator[Expect, Event, int]:
        nonlocal bid
        while True:
            ev = yield junior, {("pass",)} | {("bid", ("value", v)) for v in GAME_VALUES if v > bid}
            if ev["action"] == "pass":
                return senior
            bid = ev["value"]
            ev = yield senior, {("hold",), ("pass",)}
            if ev["action"] == "pass":
                return junior

    survivor = yield from pair(fh, mh)
    winner: int | None = yield from pair(survivor, rh)
    if bid == 0:
        ev = yield fh, {("bid", ("value", 18)), ("pass",)}
        if ev["action"] == "pass":
            return None, 0
        bid = 18
    return winner, bid


SUITS = "CSHD"


def name_game(fh: int) -> Generator[Expect, Event, tuple[int | None, int]]:
    """OpenSpiel's bidding: each in turn passes or names a game."""
    names = {("pass",), ("play_grand", ("announce", "plain")), ("play_null", ("announce", "plain"))}
    names |= {("play_suit", ("announce", "plain"), ("trumps", s)) for s in SUITS}
    for i in range(3):
        ev = yield (fh + i) % 3, names
        if ev["action"] != "pass":
            return (fh + i) % 3, 0
    return None, 0


def contract_of(ev: Event, hand: bool) -> Contract:
    kind = {"play_suit": "suit", "play_grand": "grand", "play_null": "null"}[ev["action"]]
    return Contract(kind, ev.get("trumps"), hand, ev["announce"])


def declarations(o: dict[str, Any], hand: bool, bid: int) -> set[tuple[Any, ...]]:
    levels = ["plain"]
    if hand:
        levels += ["schneider", "schwarz"] + (["ouvert"] if o["open_games"] else [])
    out: set[tuple[Any, ...]] = {("play_grand", ("announce", a)) for a in levels}
    out |= {("play_suit", ("announce", a), ("trumps", s)) for s in SUITS for a in levels}
    for a in ["plain"] + (["ouvert"] if o["open_games"] else []):
        if NULLS[(hand, a)] >= bid:
            out.add(("play_null", ("announce", a)))
    return out


def deal_of(order: list[str], fh: int) -> tuple[list[list[str]], list[str]]:
    """Three to each from forehand, two to the skat, four to each, three to each."""
    hands: list[list[str]] = [[], [], []]
    it = iter(order)
    for size in (3, 0, 4, 3):
        if size == 0:
            skat = [next(it), next(it)]
            continue
        for i in range(3):
            hands[(fh + i) % 3] += [next(it) for _ in range(size)]
    return hands, skat


class Referee:
    """Follows one deal from its events and says what each next event may be."""

    def __init__(self, o: dict[str, Any], dealer: int, order: list[str]) -> None:
        self.o = o
        self.fh = (dealer + 1) % 3
        self.hands, self.skat = deal_of(order, self.fh)
        self.dealt = [list(h) for h in self.hands]
        self.flow = self.run()
        self.expect: Expect | None = next(self.flow)
        self.scores: list[int] | None = None
        self.met: dict[str, int] = {}

    def step(self, ev: Event) -> None:
        try:
            self.expect = self.flow.send(ev)
        except StopIteration as stop:
            self.expect, self.scores = None, stop.value

    def run(self) -> Generator[Expect, Event, list[int]]:
        o = self.o
        start = auction if o["bidding"] == "values" else name_game
        ev: Event = {}
        gen = start(self.fh)
        want = next(gen)
        try:
            while True:
                ev = yield want
                want = gen.send(ev)
        except StopIteration as stop:
            declarer, bid = stop.value
        if declarer is None:
            return [0, 0, 0]
        named = ev if o["bidding"] == "first_game" else None
        hand = False
        if o["hand_games"]:
            ev = yield declarer, {("take_up",), ("play_hand",)}
            hand = ev["action"] == "play_hand"
        twelve = self.dealt[declarer] + self.skat
        left_out = list(self.skat)
        if not hand:
            self.hands[declarer] += self.skat
            left_out = []
            for _ in range(2):
                ev = yield declarer, {("lay_away", ("card", c)) for c in self.hands[declarer]}
                self.hands[declarer].remove(ev["card"])
                left_out.append(ev["card"])
        if named is None:
            named = yield declarer, declarations(o, hand, bid)
        con = contract_of(named, hand)
        self.met[con.kind + ("_hand" if hand else "") + "_" + con.announce] = 1
        tricks: list[list[list[str]]] = [[], [], []]
        leader = self.fh
        for _ in range(10):
            trick: list[str] = []
            seats = [(leader + i) % 3 for i in range(3)]
            for q in seats:
                ok = legal_cards(self.hands[q], trick, con)
                ev = yield q, {("play", ("card", c)) for c in ok}
                self.hands[q].remove(ev["card"])
                trick.append(ev["card"])
            leader = trick_winner(trick, seats, con)
            tricks[leader].append(trick)
            if con.kind == "null" and leader == declarer:
                break
        scores = deal_scores(o, declarer, bid, con, twelve, left_out, tricks)
        self.met["won" if scores[declarer] > 0 else "lost"] = 1
        return scores


def random_event(st: State, rng: random.Random) -> Event:
    legal = st.legal_actions()
    if legal[0].get("chance") == "shuffle":
        cards = list(legal[0]["cards"])
        rng.shuffle(cards)
        return {"chance": "shuffle", "cards": cards}
    actions = {e.get("action") for e in legal}
    if "bid" in actions:
        # bid low and seldom, so that some games are won and some are nulls
        bids = sorted((e for e in legal if e.get("action") == "bid"), key=lambda e: e["value"])
        if rng.random() < .45 or "pass" not in actions:
            return dict(bids[0])
        return {"seat": legal[0]["seat"], "action": "pass"}
    if "hold" in actions:
        return dict(legal[0] if rng.random() < .5 else legal[-1])
    if "play_null" in actions and rng.random() < .2:
        return dict(rng.choice([e for e in legal if e["action"] == "play_null"]))
    if "play_grand" in actions:
        plain = [e for e in legal if e.get("announce") == "plain"]
        if rng.random() < .7:
            return dict(rng.choice(plain))
    return dict(rng.choice(legal))


def play_match(opts: dict[str, Any], seed: int) -> tuple[State, dict[str, int]]:
    """A random match, every step checked against the referee."""
    o = {**DEFAULTS, **opts}
    st = Game(SPEC, 3, opts, 2).new_initial_state()
    rng = random.Random(seed)
    ends: list[dict[str, Any]] = []
    st.on_deal_end = lambda s: ends.append({k: [list(z) if isinstance(z, list) else z for z in v]
                                            for k, v in s.z.items()})
    dealer = 2
    n_deals = 0
    ref: Referee | None = None
    met: dict[str, int] = {}
    totals = [0, 0, 0]
    lo, hi = -590, 314
    while not st.is_terminal():
        ev = random_event(st, rng)
        if ev.get("chance") == "pick":
            dealer = int(ev["value"])
        elif ev.get("chance") == "shuffle":
            if n_deals:
                dealer = (dealer + 1) % 3
            ref = Referee(o, dealer, ev["cards"])
        else:
            assert ref is not None and ref.expect is not None
            seat, allowed = ref.expect
            got = {key(e) for e in st.legal_actions()}
            assert all(e["seat"] == seat for e in st.legal_actions()), "out of turn"
            assert got == allowed, (sorted(got ^ allowed))
        before = len(st.result()["deals"])
        st.apply(ev)
        if "seat" in ev:
            assert ref is not None
            ref.step(ev)
        deals = st.result()["deals"]
        if len(deals) > before:
            n_deals += 1
            assert ref is not None and ref.scores is not None, "the deal ended early"
            assert deals[-1]["scores"] == ref.scores, (deals[-1], ref.scores)
            assert all(lo <= s <= hi for s in ref.scores)
            if o["scoring"] == "card_points":
                assert sum(ref.scores) == 0
            totals = [t + s for t, s in zip(totals, ref.scores, strict=True)]
            met.update(ref.met)
            end = ends[-1]
            flat = [c for k in ("hand", "won", "laid_away") for pile in end[k] for c in pile]
            flat += list(end["skat"]) + list(end["trick"]) + list(end["stock"])
            assert sorted(flat) == sorted(r + s for r in "789TJQKA" for s in "CSHD")
            if all(len(h) == 0 for h in end["hand"]):
                scored = [c for pile in end["won"] for c in pile] + list(end["skat"]) \
                    + [c for pile in end["laid_away"] for c in pile]
                assert pts(scored) == 120
    res = st.result()
    assert n_deals == o["deals"]
    assert res["totals"] == totals
    assert res["winners"] == [q for q in range(3) if totals[q] == max(totals)]
    return st, met


OPTION_SETS: list[dict[str, Any]] = [
    {"deals": 12},
    {"deals": 12, "scoring": "seeger_fabian", "lost_hand": "single"},
    {"deals": 12, "open_games": False, "first_dealer": "given"},
    {"deals": 1, "bidding": "first_game", "hand_games": False, "open_games": False,
     "scoring": "card_points", "first_dealer": "given"},
    {"deals": 8, "bidding": "first_game", "scoring": "card_points"},
]


@pytest.mark.parametrize("opts", OPTION_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_random_matches_play_and_score_as_the_rules_say(opts: dict[str, Any]) -> None:
    met: dict[str, int] = {}
    for seed in range(8 if opts["deals"] > 1 else 40):
        _, m = play_match(opts, seed)
        met.update(m)
    assert met.get("won") and met.get("lost")
    assert any(k.startswith("null") for k in met) and any(k.startswith("grand") for k in met)
    if opts.get("hand_games", True) and opts.get("bidding") != "first_game":
        assert any("_hand_" in k for k in met)


def test_a_simulated_record_replays(tmp_path: Path) -> None:
    rec = tmp_path / "recs"
    summary = simulate("skat", 3, 3, seed=5, options={"deals": 3}, records=rec)
    assert summary.games == 3
    paths = sorted(rec.glob("*.json"))
    assert len(paths) == 3
    runner = CliRunner()
    for path in paths:
        record = json.loads(path.read_text())
        st = Game(SPEC, 3, record.get("options") or {}, record.get("dealer", 0)).new_initial_state()
        for ev in record["events"]:
            st.apply(ev)
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        assert json.loads(out.output) == json.loads(json.dumps(st.result()))


# ---- hand-built deals: seat 2 deals (first_dealer=given), so seat 0 is forehand

def order_for(hands: list[list[str]], skat: list[str]) -> list[str]:
    """The shuffled pack, top first, that deals these hands with seat 0 as forehand."""
    out: list[str] = []
    at = [0, 0, 0]
    for size in (3, 0, 4, 3):
        if size == 0:
            out += skat
            continue
        for q in range(3):
            out += hands[q][at[q]:at[q] + size]
            at[q] += size
    return out


def start(hands: list[list[str]], skat: list[str], **opts: Any) -> State:
    st = Game(SPEC, 3, {"first_dealer": "given", "deals": 1, **opts}, 2).new_initial_state()
    st.apply({"chance": "shuffle", "cards": order_for(hands, skat)})
    return st


HANDS = [["JC", "JS", "AH", "TH", "KH", "QH", "9H", "AC", "TC", "7S"],
         ["JH", "8H", "7H", "KC", "QC", "9C", "AS", "TS", "KS", "QS"],
         ["JD", "8C", "7C", "9S", "8S", "AD", "TD", "KD", "QD", "9D"]]
SKAT = ["8D", "7D"]


def test_the_deal_gives_three_two_four_three() -> None:
    st = start(HANDS, SKAT)
    for q in range(3):
        assert sorted(st.z["hand"][q]) == sorted(HANDS[q])
    assert sorted(st.z["skat"]) == sorted(SKAT)


def test_a_jack_follows_the_trumps_not_its_suit_except_in_a_null() -> None:
    def to_play(**opts: Any) -> State:
        st = start(HANDS, SKAT, **opts)
        st.apply({"seat": 1, "action": "bid", "value": 18})
        st.apply({"seat": 0, "action": "hold"})
        st.apply({"seat": 1, "action": "pass"})
        st.apply({"seat": 2, "action": "pass"})
        st.apply({"seat": 0, "action": "play_hand"})
        return st

    st = to_play()
    st.apply({"seat": 0, "action": "play_suit", "trumps": "H", "announce": "plain"})
    # with the skat untouched: with two matadors (clubs and spades Jacks), hand: 2 + 1 + 1
    assert st.v["matadors"] == 2
    st.apply({"seat": 0, "action": "play", "card": "JC"})
    # a trump led: seat 1 must play a trump, its Jack of hearts or a heart
    assert {e["card"] for e in st.legal_actions()} == {"JH", "8H", "7H"}
    st.apply({"seat": 1, "action": "play", "card": "7H"})
    # seat 2 holds the Jack of diamonds, a trump: it must play it
    assert {e["card"] for e in st.legal_actions()} == {"JD"}
    st = to_play()
    st.apply({"seat": 0, "action": "play_null", "announce": "plain"})
    st.apply({"seat": 0, "action": "play", "card": "7S"})
    # in a null the Jacks are not trumps: spades led, seat 1 has four spades and no Jack to add
    assert {e["card"] for e in st.legal_actions()} == {"AS", "TS", "KS", "QS"}


def test_an_overbid_game_is_lost_at_the_next_multiple_of_its_base_value() -> None:
    st = start(HANDS, SKAT)
    st.apply({"seat": 1, "action": "bid", "value": 50})
    st.apply({"seat": 0, "action": "hold"})
    st.apply({"seat": 1, "action": "pass"})
    st.apply({"seat": 2, "action": "pass"})
    st.apply({"seat": 0, "action": "take_up"})
    st.apply({"seat": 0, "action": "lay_away", "card": "8D"})
    st.apply({"seat": 0, "action": "lay_away", "card": "7D"})
    st.apply({"seat": 0, "action": "play_suit", "trumps": "H", "announce": "plain"})
    while not st.is_terminal():
        st.apply(st.legal_actions()[0])
    # hearts with two, game three: 30 < 50, so lost at 50 (the next multiple of 10), doubled
    assert st.result()["deals"][0]["scores"] == [-100, 0, 0]


def test_a_null_ends_when_the_declarer_takes_a_trick() -> None:
    st = start(HANDS, SKAT, bidding="first_game")
    st.apply({"seat": 0, "action": "play_null", "announce": "plain"})
    st.apply({"seat": 0, "action": "take_up"})
    st.apply({"seat": 0, "action": "lay_away", "card": "AC"})
    st.apply({"seat": 0, "action": "lay_away", "card": "TC"})
    st.apply({"seat": 0, "action": "play", "card": "AH"})
    st.apply({"seat": 1, "action": "play", "card": "8H"})
    st.apply({"seat": 2, "action": "play", "card": "8C"})
    assert st.is_terminal()
    assert st.result()["deals"][0]["scores"] == [-46, 0, 0]


ALL_MINE = [["JC", "JS", "JH", "JD", "AC", "TC", "AS", "TS", "AH", "TH"],
            ["KC", "QC", "9C", "8C", "7C", "KS", "QS", "9S", "8S", "7S"],
            ["KH", "QH", "9H", "8H", "7H", "KD", "QD", "9D", "8D", "7D"]]


@pytest.mark.parametrize(("scoring", "want"), [("game_value", [264, 0, 0]),
                                               ("seeger_fabian", [314, 0, 0])])
def test_a_grand_ouvert_with_four_takes_every_trick_for_the_highest_value(
        scoring: str, want: list[int]) -> None:
    st = start(ALL_MINE, ["AD", "TD"], scoring=scoring)
    st.apply({"seat": 1, "action": "pass"})
    st.apply({"seat": 2, "action": "pass"})
    # nobody bid: forehand may play at 18
    assert {key(e) for e in st.legal_actions()} == {("bid", ("value", 18)), ("pass",)}
    st.apply({"seat": 0, "action": "bid", "value": 18})
    st.apply({"seat": 0, "action": "play_hand"})
    st.apply({"seat": 0, "action": "play_grand", "announce": "ouvert"})
    assert st.v["matadors"] == 4
    # the declarer's hand lies face up: a defender's observation shows it
    assert sorted(st.observation(1)["zones"]["hand"][0]) == sorted(ALL_MINE[0])
    for lead in ALL_MINE[0]:
        st.apply({"seat": 0, "action": "play", "card": lead})
        st.apply(st.legal_actions()[0])
        st.apply(st.legal_actions()[0])
    # with four, game, hand, schneider, announced, schwarz, announced, open: 11 x 24
    assert st.result()["deals"][0]["scores"] == want


def test_matadors_without_count_the_missing_top_trumps() -> None:
    st = start(HANDS, SKAT)
    st.apply({"seat": 1, "action": "bid", "value": 18})
    st.apply({"seat": 0, "action": "pass"})
    st.apply({"seat": 2, "action": "pass"})
    st.apply({"seat": 1, "action": "play_hand"})
    st.apply({"seat": 1, "action": "play_suit", "trumps": "S", "announce": "schneider"})
    # seat 1 holds the Jack of hearts and no higher one: without two (clubs and spades)
    assert st.v["matadors"] == 2
    # and every card of the deal, the skat too, counts 120
    cards = [c for h in HANDS for c in h] + SKAT
    assert pts(cards) == 120 and len(set(cards)) == 32
