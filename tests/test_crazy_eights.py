"""Crazy Eights (rulespec/games/crazy_eights.rules): random matches followed event by event by a
referee written again from the published rules (and OpenSpiel's variants), independently of the
spec. The referee is a generator that says what must come next (a chance event of a kind, or a
seat's decision with exactly the moves the rules allow) and keeps its own hands, stock, discards,
suit to follow, direction and turn from the events alone; after every event its piles must equal
the engine's (so the cards are conserved), each deal's scores are recomputed and the match's
winners checked. Then a simulated record replays, and a few dealt situations show one rule each."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Generator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT, replay
from rulespec.simulate import sample_event

SPEC = resolve("crazy_eights").spec
SUITS = ["C", "D", "H", "S"]
RANKS = "23456789TJQKA"
OPENSPIEL = {"draw_at_will": True, "max_draws": 5, "pass_at_will": True, "reshuffle": False,
             "scoring": "minus_penalty", "ace_points": "ten", "deals": 1,
             "special_cards": False, "two_packs_from": 6, "max_plays": 100,
             "first_eight": "bury", "block_passes": "one_more"}

Expect = tuple[Any, ...]


def rank_of(c: str) -> int:
    return RANKS.index(c[0]) + 2


def points(c: str, ace: str = "one") -> int:
    r = rank_of(c)
    if r == 8:
        return 50
    if r == 14:
        return 10 if ace == "ten" else 1
    return 10 if r >= 10 else r


def one_pack() -> Counter[str]:
    return Counter(r + s for r in RANKS for s in SUITS)


class Referee:
    """The rules of Crazy Eights, from the rule pages, with OpenSpiel's variants as options."""

    def __init__(self, n: int, opts: dict[str, Any], dealer: int) -> None:
        self.n, self.dealer = n, dealer
        self.o = {"first_eight": "bury", "draw_at_will": True, "max_draws": 0,
                  "pass_at_will": False, "reshuffle": False, "scoring": "penalty",
                  "ace_points": "one", "target": 100, "deals": 0, "special_cards": False,
                  "two_packs_from": 6, "max_plays": 0, "block_passes": "players", **opts}
        self.packs = 2 if n >= self.o["two_packs_from"] else 1
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.stock: list[str] = []  # top card first
        self.discard: list[str] = []  # top card last
        self.totals = [0] * n
        self.deals_done = 0
        self.step = 1
        self.turn = 0
        self.suit = ""
        self.owed = 0
        self.met: Counter[str] = Counter()

    def pack(self) -> Counter[str]:
        total: Counter[str] = Counter()
        for _ in range(self.packs):
            total += one_pack()
        return total

    def nxt(self, q: int) -> int:
        return (q + self.step) % self.n

    # --- what may be played -------------------------------------------------------------
    def matches(self, c: str) -> bool:
        top = self.discard[-1]
        if rank_of(c) == 8:
            return True
        return c[-1] == self.suit or (rank_of(top) != 8 and rank_of(c) == rank_of(top))

    def may_play(self, c: str) -> bool:
        return rank_of(c) == 2 if self.owed else self.matches(c)

    def allowed(self, p: int, drawn: int) -> set[Expect]:
        moves: set[Expect] = {("play", c) for c in self.hands[p] if self.may_play(c)}
        if self.owed:
            return moves | {("draw",)}
        can_play = bool(moves)
        limit = self.o["max_draws"]
        no_more = not self.stock or (limit > 0 and drawn >= limit)
        if not no_more and (self.o["draw_at_will"] or not can_play):
            moves.add(("draw",))
        if no_more and (self.o["pass_at_will"] or not can_play):
            moves.add(("pass",))
        return moves

    # --- the flow, as a generator of what must come next -----------------------------------
    def refill(self) -> Generator[Expect, Any, None]:
        if self.o["reshuffle"] and not self.stock and len(self.discard) > 1:
            ev = yield ("reshuffle",)
            assert sorted(ev["cards"]) == sorted(self.discard[:-1])
            self.stock, self.discard = list(ev["cards"]), self.discard[-1:]
            self.met["reshuffle"] += 1

    def draw_one(self, p: int) -> Generator[Expect, Any, None]:
        self.hands[p].append(self.stock.pop(0))
        yield from self.refill()

    def effect(self, p: int, c: str) -> None:
        """A card's effect once played (or turned up, as if the dealer had played it)."""
        r = rank_of(c)
        special = self.o["special_cards"]
        if special and r == 12:  # a queen skips
            self.turn = self.nxt(self.nxt(p))
        elif special and r == 14:  # an ace reverses
            self.step = -self.step
            self.turn = self.nxt(p)
        else:
            if special and r == 2 and self.stock:
                self.owed += 2
            self.turn = self.nxt(p)

    def name_suit(self, p: int) -> Generator[Expect, Any, None]:
        ev = yield ("decide", p, {("name_suit", s) for s in SUITS})
        self.suit = ev["suit"]
        self.met["name_suit"] += 1

    def start(self) -> Generator[Expect, Any, None]:
        if self.deals_done == 0:
            ev = yield ("pick",)
            self.dealer = ev["value"]
        ev = yield ("shuffle",)
        assert Counter(ev["cards"]) == self.pack()
        self.stock = list(ev["cards"])
        self.hands = [[] for _ in range(self.n)]
        size = 7 if self.n == 2 else 5
        for k in range(size * self.n):
            self.hands[(self.dealer + 1 + k) % self.n].append(self.stock.pop(0))
        self.discard = [self.stock.pop(0)]
        while rank_of(self.discard[-1]) == 8 and self.o["first_eight"] == "bury":
            ev = yield ("bury",)
            self.stock.insert(ev["position"], self.discard.pop())
            self.discard.append(self.stock.pop(0))
            self.met["bury"] += 1
        top = self.discard[-1]
        self.suit = top[-1]
        if rank_of(top) == 8:
            if self.o["first_eight"] == "dealer_names":
                yield from self.name_suit(self.dealer)
            self.turn = (self.dealer + 1) % self.n
        else:
            self.effect(self.dealer, top)

    def play(self, p: int, c: str) -> Generator[Expect, Any, bool]:
        """Lays the card; True when the deal is over."""
        self.hands[p].remove(c)
        self.discard.append(c)
        self.plays += 1
        self.met["play " + c[0]] += 1
        if not self.hands[p]:
            self.went_out = p
            return True
        if self.o["max_plays"] and self.plays >= self.o["max_plays"]:
            self.met["max plays"] += 1
            return True
        if rank_of(c) == 8:
            yield from self.name_suit(p)
        else:
            self.suit = c[-1]
        yield from self.refill()
        self.effect(p, c)
        return False

    def turn_of(self, p: int) -> Generator[Expect, Any, bool]:
        """One turn; True when the deal is over."""
        drawn = 0
        while True:
            ev = yield ("decide", p, self.allowed(p, drawn))
            a = ev["action"]
            self.met[a] += 1
            if a == "play":
                self.passes = 0
                return (yield from self.play(p, ev["card"]))
            if a == "draw" and self.owed:
                self.passes = 0
                self.met["paid twos"] += 1
                for _ in range(self.owed):
                    if self.stock:
                        yield from self.draw_one(p)
                self.owed = 0
                self.turn = self.nxt(p)
                return False
            if a == "draw":
                self.passes = 0
                drawn += 1
                yield from self.draw_one(p)
                continue
            assert a == "pass"
            self.passes = self.passes + 1 if not self.stock else 0
            self.turn = self.nxt(p)
            return False

    def scores(self) -> list[int]:
        pts = [sum(points(c, self.o["ace_points"]) for c in h) for h in self.hands]
        how = self.o["scoring"]
        if how == "penalty":
            return pts
        if how == "minus_penalty":
            return [-x for x in pts]
        if self.went_out >= 0:
            return [sum(pts) if q == self.went_out else 0 for q in range(self.n)]
        low = min(pts)
        return [sum(x - pts[q] for x in pts) if pts[q] == low else 0 for q in range(self.n)]

    def deal(self) -> Generator[Expect, Any, None]:
        self.step, self.owed, self.plays, self.passes, self.went_out = 1, 0, 0, 0, -1
        yield from self.start()
        while True:
            if self.passes >= self.n + (self.o["block_passes"] == "one_more"):
                self.met["blocked"] += 1
                break
            if (yield from self.turn_of(self.turn)):
                break
        scores = self.scores()
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        yield ("end", scores)
        self.deals_done += 1

    def match(self) -> Generator[Expect, Any, None]:
        while True:
            yield from self.deal()
            o = self.o
            if o["deals"]:
                over = self.deals_done >= o["deals"]
            elif o["scoring"] == "minus_penalty":
                over = min(self.totals) <= -o["target"]
            else:
                over = max(self.totals) >= o["target"]
            if over:
                best = min(self.totals) if o["scoring"] == "penalty" else max(self.totals)
                yield ("over", [q for q in range(self.n) if self.totals[q] == best])
                return
            self.dealer = (self.dealer + 1) % self.n


def event_key(ev: dict[str, Any]) -> Expect:
    a = ev["action"]
    if a == "play":
        return ("play", ev["card"])
    if a == "name_suit":
        return ("name_suit", ev["suit"])
    return (a,)


def check_piles(state: State, ref: Referee) -> None:
    hands = [sorted(h) for h in state.z["hand"]]
    assert hands == [sorted(h) for h in ref.hands]
    assert list(state.z["discard"]) == ref.discard
    assert list(state.z["stock"]) == ref.stock[::-1]
    total = Counter(state.z["stock"]) + Counter(state.z["discard"])
    for h in state.z["hand"]:
        total += Counter(h)
    assert total == ref.pack()  # every card of the pack(s), conserved


def play_match(n: int, opts: dict[str, Any], seed: int, most_events: int = 50000
               ) -> tuple[State, list[dict[str, Any]], Counter[str]]:
    """One random match played and checked against the referee at every step."""
    state = game_for(SPEC, n, opts, 0).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(n, opts, 0)
    flow = ref.match()
    exp = next(flow)
    events: list[dict[str, Any]] = []
    while len(events) < most_events:
        while exp[0] == "end":
            assert list(state.deals[-1]["scores"]) == exp[1]
            exp = flow.send(None)
        assert len(state.deals) == ref.deals_done
        if exp[0] == "over":
            assert state.is_terminal()
            res = state.result()
            assert sorted(res["winners"]) == exp[1] and list(res["totals"]) == ref.totals
            return state, events, ref.met
        assert not state.is_terminal()
        legal = state.legal_actions()
        seat = state.current_player()
        if exp[0] == "decide":
            assert seat == exp[1]
            offered = [event_key(e) for e in legal]
            assert len(offered) == len(set(offered))  # each move offered once
            assert set(offered) == exp[2], (ref.hands[seat], ref.discard[-1], ref.suit)
        else:
            assert seat == CHANCE and legal[0]["chance"] == exp[0], (legal[0], exp)
        ev = sample_event(legal, rng, state.chance_weights)
        events.append(ev)
        state.apply(ev)
        exp = flow.send(ev)
        if exp[0] == "end":
            assert len(state.deals) == ref.deals_done + 1
        else:
            assert len(state.deals) == ref.deals_done
            if exp[0] not in ("pick", "shuffle"):  # (before a shuffle, the pack is in order)
                check_piles(state, ref)
    raise AssertionError("the match did not end")


OPTION_SETS = [
    {},
    OPENSPIEL,
    {**OPENSPIEL, "special_cards": True, "reshuffle": True},
    {"draw_at_will": False, "scoring": "winner_collects", "first_eight": "dealer_names",
     "target": 150},
    {"max_draws": 1, "special_cards": True, "first_eight": "own_suit", "reshuffle": True,
     "deals": 3},
]


@pytest.mark.parametrize("n", [2, 4, 7])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(sorted(o)) or "defaults")
def test_random_matches_keep_the_rules(n: int, opts: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(2):
        state, _, met = play_match(n, opts, seed)
        seen += met
        res = state.result()
        if opts.get("deals"):
            assert len(state.deals) == opts["deals"]
        bound = 2 * sum(points(c, opts.get("ace_points", "one")) for c in one_pack())
        assert all(-bound <= x <= bound for d in state.deals for x in d["scores"])
        if opts.get("scoring", "penalty") == "penalty":
            assert all(x >= 0 for d in state.deals for x in d["scores"])
            assert res["winners"] and all(res["totals"][w] == min(res["totals"])
                                          for w in res["winners"])
    assert seen["play 8"] > 0 and seen["draw"] > 0 and seen["name_suit"] > 0
    if opts.get("special_cards"):
        assert seen["paid twos"] > 0 and seen["play Q"] > 0 and seen["play A"] > 0


CE_OPTIONS = st.fixed_dictionaries({}, optional={
    "first_eight": st.sampled_from(["bury", "dealer_names", "own_suit"]),
    "draw_at_will": st.booleans(),
    "max_draws": st.sampled_from([0, 1, 2, 5]),
    "pass_at_will": st.booleans(),
    "reshuffle": st.booleans(),
    "scoring": st.sampled_from(["penalty", "winner_collects", "minus_penalty"]),
    "ace_points": st.sampled_from(["one", "ten"]),
    "special_cards": st.booleans(),
    "two_packs_from": st.sampled_from([3, 6, 16]),
    "max_plays": st.sampled_from([0, 1, 30, 100]),
    "block_passes": st.sampled_from(["players", "one_more"]),
})


@settings(deadline=None, max_examples=12)
@given(opts=CE_OPTIONS, n=st.integers(2, 15), seed=st.integers(0, 2**20))
def test_any_options_keep_the_rules(opts: dict[str, Any], n: int, seed: int) -> None:
    """Every combination of the rule options at many table sizes: two deals checked against
    the referee (a table the pack cannot deal is refused instead)."""
    packs = 2 if n >= opts.get("two_packs_from", 6) else 1
    if n * (7 if n == 2 else 5) + 1 > 52 * packs:
        with pytest.raises(Exception, match="pack"):
            game_for(SPEC, n, {**opts, "deals": 2}, 0)
        return
    state, _, _ = play_match(n, {**opts, "deals": 2}, seed)
    assert state.is_terminal() and len(state.deals) == 2


def test_a_blocked_deal_is_met_and_scored() -> None:
    """Without a reshuffle, random play empties the stock; some deals end with nobody able to
    play, and they are scored as they stand."""
    seen: Counter[str] = Counter()
    for seed in range(6):
        _, _, met = play_match(5, {"deals": 4, "scoring": "winner_collects"}, seed)
        seen += met
    assert seen["blocked"] > 0 and seen["pass"] > 0


def test_a_simulated_match_replays_from_its_record() -> None:
    opts = {"deals": 2, "special_cards": True, "reshuffle": True}
    state, events, _ = play_match(3, opts, 3)
    record = {"format": FORMAT, "game": "crazy_eights", "players": 3, "options": opts,
              "dealer": 0, "events": events}
    code, answer = replay(record)
    assert code == 0, answer
    assert answer["complete"] and answer == state.result()
    assert len(answer["deals"]) == 2


# --- dealt situations -----------------------------------------------------------------------

def dealt(hands: list[list[str]], top: str, opts: dict[str, Any] | None = None,
          dealer: int = 0) -> State:
    """A first deal whose dealer, hands (seven or five cards each) and first card are given."""
    n = len(hands)
    state = game_for(SPEC, n, opts or {}, 0).new_initial_state()
    state.apply({"chance": "pick", "value": dealer})
    size = len(hands[0])
    order = [hands[(dealer + 1 + k) % n][k // n] for k in range(size * n)] + [top]
    rest = one_pack() - Counter(order)
    state.apply({"chance": "shuffle", "cards": order + sorted(rest.elements())})
    return state


def moves(state: State) -> set[Expect]:
    return {event_key(e) for e in state.legal_actions()}


A = ["2C", "3C", "4C", "5C", "6C", "7C", "9C"]
B = ["2D", "3D", "4D", "5D", "6D", "7D", "8D"]


def test_suit_or_rank_matches_and_an_eight_names_the_suit() -> None:
    state = dealt([A, B], "5H")
    assert state.current_player() == 1
    assert moves(state) == {("play", "5D"), ("play", "8D"), ("draw",)}
    state.apply({"seat": 1, "action": "play", "card": "8D"})
    assert moves(state) == {("name_suit", s) for s in SUITS}
    state.apply({"seat": 1, "action": "name_suit", "suit": "C"})
    # after an eight only the named suit (or another eight): the clubs of seat 0
    assert moves(state) == {("play", c) for c in A} | {("draw",)}
    with pytest.raises(IllegalActionError):
        state.apply({"seat": 0, "action": "pass"})


def test_drawing_only_when_unable_and_a_draw_limit() -> None:
    state = dealt([A, B], "5H", {"draw_at_will": False})
    assert moves(state) == {("play", "5D"), ("play", "8D")}
    state = dealt([A, B], "KH", {"max_draws": 1})
    assert moves(state) == {("play", "8D"), ("draw",)}
    state.apply({"seat": 1, "action": "draw"})
    drawn = state.z["hand"][1][-1]
    if drawn[-1] != "H" and drawn[0] not in "K8":
        # the limit reached and nothing to play but the eight: play it, or (only with
        # OpenSpiel's pass_at_will) pass
        assert moves(state) == {("play", "8D")}
    state = dealt([A, B], "KH", {"max_draws": 1, "pass_at_will": True})
    state.apply({"seat": 1, "action": "draw"})
    assert ("pass",) in moves(state)


def test_an_eight_turned_up() -> None:
    state = dealt([A, B], "8H")
    assert state.current_player() == CHANCE and state.legal_actions()[0]["chance"] == "bury"
    state = dealt([A, B], "8H", {"first_eight": "dealer_names"})
    assert state.current_player() == 0 and moves(state) == {("name_suit", s) for s in SUITS}
    state = dealt([A, B], "8H", {"first_eight": "own_suit"})
    assert state.current_player() == 1 and moves(state) == {("play", "8D"), ("draw",)}


def test_special_cards() -> None:
    c5 = ["2H", "3H", "4H", "5H", "6H"]
    d5 = ["2S", "3S", "4S", "5S", "QC"]
    e5 = ["TD", "JD", "QD", "KD", "AD"]
    on = {"special_cards": True}
    # a queen turned up: the player on the dealer's left misses their turn
    assert dealt([c5, d5, e5], "QH", on).current_player() == 2
    # an ace turned up: play goes to the right, from the dealer's right
    state = dealt([c5, d5, e5], "AH", on)
    assert state.current_player() == 2 and state.v["clockwise"] is False
    # a two turned up: the first player plays a two or draws two and loses the turn
    state = dealt([c5, d5, e5], "2C", on)
    assert state.current_player() == 1 and moves(state) == {("play", "2S"), ("draw",)}
    state.apply({"seat": 1, "action": "play", "card": "2S"})
    assert moves(state) == {("draw",)}  # seat 2 holds no two
    state.apply({"seat": 2, "action": "draw"})
    assert len(state.z["hand"][2]) == 9 and state.current_player() == 0


def test_going_out_with_an_eight_ends_the_deal_without_a_suit() -> None:
    hands = [["8C", "3D", "4D", "5D", "6D"], ["2H", "3H", "4H", "5H", "6H"],
             ["2S", "3S", "4S", "5S", "6S"]]
    # the others draw one card and pass (OpenSpiel's reading lets them, whatever they hold)
    state = dealt(hands, "KD", {"deals": 1, "max_draws": 1, "pass_at_will": True}, dealer=2)
    for c in ("3D", "4D", "5D", "6D"):
        state.apply({"seat": 0, "action": "play", "card": c})
        for q in (1, 2):
            state.apply({"seat": q, "action": "draw"})
            state.apply({"seat": q, "action": "pass"})
    state.apply({"seat": 0, "action": "play", "card": "8C"})
    assert state.is_terminal() and state.deals[0]["scores"][0] == 0


def test_what_each_player_sees() -> None:
    """Hands are private, their sizes public; the stock face down and counted; the discard
    pile open."""
    state = dealt([A, B], "5H")
    seen = state.observation(0)["zones"]
    assert sorted(seen["hand"][0]) == sorted(A) and seen["hand"][1] == 7
    assert seen["stock"] == 52 - 15 and seen["discard"] == ["5H"]
