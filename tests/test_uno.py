"""UNO (rulespec/games/uno.rules): random matches followed event by event by a referee written
again from the official rules (and RLCard's variants), independently of the spec. The referee
keeps its own hands, draw pile, discards, colour in force, direction and turn from the events
alone; at every decision it says exactly which moves the rules allow and compares them with
those offered; after every event its piles must equal the engine's (so the 108 cards are
conserved, a Reverse turns play round, a Skip skips, a Draw Two or Wild Draw Four makes the next
player draw and lose their turn); each hand's scores are recomputed. Then a simulated record
replays, and a few dealt situations show one rule each."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT, replay
from rulespec.simulate import sample_event

SPEC = resolve("uno").spec
COLOURS = ["R", "Y", "G", "B"]
RLCARD = {"draw_four_when": "nothing_else", "challenge": False, "draw_instead": False,
          "drawn_card": "auto", "first_wild": "random", "first_dealer": "given",
          "scoring": "win_loss", "deals": 1}


def colour_of(c: str) -> str | None:
    return None if c in ("W", "W4") else c[-1]


def kind_of(c: str) -> str:
    """'W', 'W4', or the card's number or symbol: '0'-'9', 'S', 'R', 'D'."""
    return c if c in ("W", "W4") else c[:-1]


def points(c: str) -> int:
    k = kind_of(c)
    return 50 if k in ("W", "W4") else 20 if k in ("S", "R", "D") else int(k)


def full_pack() -> Counter[str]:
    cards: Counter[str] = Counter({"W": 4, "W4": 4})
    for s in COLOURS:
        cards["0" + s] += 1
        for k in "123456789SRD":
            cards[k + s] += 2
    return cards


class Referee:
    """The rules of UNO, from the official instructions, with RLCard's variants as options."""

    def __init__(self, n: int, opts: dict[str, Any], dealer: int) -> None:
        self.n, self.o, self.dealer = n, opts, dealer
        self.phase = "shuffle"
        self.deals_played = 0
        self.turn = 0

    def opt(self, name: str, default: Any) -> Any:
        return self.o.get(name, default)

    # --- the cards ------------------------------------------------------------------------
    def next_of(self, q: int) -> int:
        return (q + self.step) % self.n

    def matches(self, c: str) -> bool:
        return colour_of(c) == self.colour or kind_of(c) == kind_of(self.discard[-1])

    def may_draw_four(self, p: int) -> bool:
        hand = self.hands[p]
        if self.opt("draw_four_when", "no_card_of_colour") == "no_card_of_colour":
            return not any(colour_of(d) == self.colour for d in hand)
        return not any(d != "W4" and (d == "W" or self.matches(d)) for d in hand)

    def playable(self, p: int, c: str) -> bool:
        if c == "W":
            return True
        if c == "W4":
            return bool(self.opt("challenge", True)) or self.may_draw_four(p)
        return self.matches(c)

    def can_draw(self) -> bool:
        return bool(self.stock) or len(self.discard) > 1

    def draw(self, q: int, k: int, then: Any = None) -> None:
        """Player q draws k cards; ``then`` runs after the last one (a reshuffle on the way
        waits for its chance event, which supplies the new draw pile's order)."""
        for i in range(k):
            if not self.stock and len(self.discard) > 1:
                self.pending = (q, k - i, then)
                return
            if self.stock:
                self.hands[q].append(self.stock.pop(0))
        if then is not None:
            then()

    # --- what each decision may offer -------------------------------------------------------
    def allowed(self) -> set[tuple[Any, ...]]:
        p = self.turn
        if self.phase == "name_colour":
            return {("name_colour", s) for s in COLOURS}
        if self.phase == "challenge":
            return {("accept",), ("challenge",)}
        if self.phase == "after_draw":
            d = self.hands[p][-1]
            moves: set[tuple[Any, ...]] = {("keep",)}
            if d in ("W", "W4"):
                moves |= {("play", d, s) for s in COLOURS}
            else:
                moves.add(("play", d))
            return moves
        hand = self.hands[p]
        moves = set()
        for c in hand:
            if self.playable(p, c):
                moves |= ({("play", c, s) for s in COLOURS} if c in ("W", "W4")
                          else {("play", c)})
        can_play = bool(moves)
        if self.can_draw() and (self.opt("draw_instead", True) or not can_play):
            moves.add(("draw",))
        if not self.can_draw() and not can_play:
            moves.add(("pass",))
        return moves

    # --- following the events ---------------------------------------------------------------
    def chance(self, ev: dict[str, Any]) -> None:
        kind = ev["chance"]
        if kind == "shuffle" and self.phase == "shuffle":
            self.stock = list(ev["cards"])
            self.discard: list[str] = []
            self.hands: list[list[str]] = [[] for _ in range(self.n)]
            self.step, self.went_out, self.passes = 1, -1, 0
            self.pending: tuple[int, int, Any] | None = None
            if self.deals_played == 0 and self.opt("first_dealer", "drawn") == "drawn":
                self.phase = "dealer"
                return
            self.deal()
        elif kind == "pick" and self.phase == "dealer":
            self.dealer = ev["value"]
            self.deal()
        elif kind == "shuffle" and self.phase == "w4_back":
            self.stock = list(ev["cards"])
            self.turn_up()
        elif kind == "pick" and self.phase == "random_colour":
            self.colour = ev["value"]
            self.start_play()
        elif kind == "pick" and self.phase == "auto_wild":
            self.play(self.turn, self.hands[self.turn][-1], ev["value"])
        elif kind == "reshuffle":
            assert sorted(ev["cards"]) == sorted(self.discard[:-1])
            self.stock, self.discard = list(ev["cards"]), self.discard[-1:]
            self.resume()
        else:
            raise AssertionError(f"unexpected chance event {ev} in phase {self.phase}")

    def deal(self) -> None:
        for k in range(7 * self.n):
            self.hands[(self.dealer + 1 + k) % self.n].append(self.stock.pop(0))
        self.turn_up()

    def turn_up(self) -> None:
        self.discard.append(self.stock.pop(0))
        if self.discard[-1] == "W4":  # back into the pack, which is shuffled again
            self.stock.insert(0, self.discard.pop())
            self.phase = "w4_back"
            return
        top, first = self.discard[-1], (self.dealer + 1) % self.n
        self.turn = first
        if top == "W":
            if self.opt("first_wild", "first_player_names") == "random":
                self.phase = "random_colour"
            else:
                self.phase = "name_colour"
            return
        self.colour = colour_of(top)
        if kind_of(top) == "S":
            self.turn = (first + 1) % self.n
        elif kind_of(top) == "R":
            self.step, self.turn = -1, self.dealer
        elif kind_of(top) == "D":
            self.hit(first, 2)
            return
        self.start_play()

    def start_play(self) -> None:
        self.phase = "turn"

    def hit(self, victim: int, k: int) -> None:
        self.turn = self.next_of(victim)
        self.draw(victim, k)
        self.phase = "turn"

    def resume(self) -> None:
        """After a reshuffle, the rest of the draw that ran out, then what followed it."""
        assert self.pending is not None
        q, left, then = self.pending
        self.pending = None
        self.draw(q, left, then)

    def decide(self, seat: int, ev: dict[str, Any]) -> None:
        assert seat == self.turn
        a = ev["action"]
        if a == "name_colour":
            self.colour = ev["colour"]
            self.phase = "turn"
        elif a == "play":
            self.play(seat, ev["card"], ev.get("colour"))
        elif a == "keep":
            self.turn, self.phase = self.next_of(seat), "turn"
        elif a == "pass":
            self.passes += 1
            self.turn = self.next_of(seat)
        elif a == "draw":
            self.passes = 0
            self.phase = "drawing"
            self.draw(seat, 1, lambda: self.after_draw(seat))
        elif a == "accept":
            self.hit(seat, 4)
        elif a == "challenge":
            if self.bluffed:
                self.turn, self.phase = seat, "turn"
                self.draw(self.w4_by, 4)
            else:
                self.hit(seat, 6)

    def after_draw(self, p: int) -> None:
        self.turn = p
        d: str | None = self.hands[p][-1]
        if self.opt("drawn_card", "may_play") == "auto":
            if d in ("W", "W4"):
                self.phase = "auto_wild"
            elif d is not None and colour_of(d) == self.colour:
                self.play(p, d, None)
            else:
                self.turn, self.phase = self.next_of(p), "turn"
        elif d is not None and self.playable(p, d):
            self.phase = "after_draw"
        else:
            self.turn, self.phase = self.next_of(p), "turn"

    def play(self, p: int, c: str, named: str | None) -> None:
        if c == "W4":
            self.bluffed = not self.may_draw_four(p)
        self.hands[p].remove(c)
        self.discard.append(c)
        self.passes = 0
        if not self.hands[p]:
            self.went_out = p
        self.colour = named if c in ("W", "W4") else colour_of(c)
        self.phase = "turn"
        k = kind_of(c)
        if c == "W4":
            victim = self.next_of(p)
            if self.opt("challenge", True):
                self.w4_by, self.turn, self.phase = p, victim, "challenge"
            else:
                self.hit(victim, 4)
        elif k == "D":
            self.hit(self.next_of(p), 2)
        elif k == "S":
            self.turn = self.next_of(self.next_of(p))
        elif k == "R":
            self.step = -self.step
            self.turn = p if self.n == 2 else self.next_of(p)
        else:
            self.turn = self.next_of(p)

    def scores(self) -> list[int]:
        w = self.went_out
        if w < 0:
            return [0] * self.n
        if self.opt("scoring", "cards_left") == "win_loss":
            return [1 if q == w else -1 for q in range(self.n)]
        left = sum(points(c) for h in self.hands for c in h)
        return [left if q == w else 0 for q in range(self.n)]


def event_key(ev: dict[str, Any]) -> tuple[Any, ...]:
    a = ev["action"]
    if a == "play":
        return ("play", ev["card"], ev["colour"]) if "colour" in ev else ("play", ev["card"])
    if a == "name_colour":
        return ("name_colour", ev["colour"])
    return (a,)


def piles(state: State) -> tuple[list[list[str]], list[str], list[str]]:
    return ([list(h) for h in state.z["hand"]], list(state.z["stock"]),
            list(state.z["discard"]))


def play_match(n: int, opts: dict[str, Any], seed: int, dealer: int = 0,
               most_events: int = 20000) -> tuple[State, list[dict[str, Any]], Counter[str]]:
    """One random match played and checked against the referee at every step; returns the
    state, its events and a count of what happened (for the tests to see rules met)."""
    state = game_for(SPEC, n, opts, dealer).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(n, opts, dealer)
    events: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    while not state.is_terminal() and len(events) < most_events:
        legal = state.legal_actions()
        seat = state.current_player()
        if seat != CHANCE:
            assert ref.pending is None and ref.phase in (
                "turn", "after_draw", "challenge", "name_colour"), ref.phase
            assert seat == ref.turn
            offered = [event_key(e) for e in legal]
            assert len(offered) == len(set(offered))  # each move offered once
            assert set(offered) == ref.allowed(), (ref.phase, ref.hands[seat], ref.colour,
                                                   ref.discard[-1:])
        ev = sample_event(legal, rng, state.chance_weights)
        events.append(ev)
        state.apply(ev)
        if seat == CHANCE:
            ref.chance(ev)
            seen[ev["chance"]] += 1
        else:
            before = ref.hands[seat][:] if ev["action"] == "challenge" else None
            ref.decide(seat, ev)
            seen[ev["action"]] += 1
            if ev["action"] == "challenge":
                seen["challenge won" if ref.bluffed else "challenge lost"] += 1
                assert before is not None
            if ev["action"] == "play":
                seen["play " + kind_of(ev["card"])] += 1
        ended = ref.phase == "turn" and ref.pending is None and (
            ref.went_out >= 0 or ref.passes >= n)
        assert ended == (len(state.deals) > ref.deals_played), (ev, ref.phase)
        if ended:
            # the hand is over: its scores recomputed from the referee's hands
            assert list(state.deals[-1]["scores"]) == ref.scores()
            seen["blocked" if ref.went_out < 0 else "won"] += 1
            ref.deals_played += 1
            ref.dealer = (ref.dealer + 1) % n
            ref.phase = "shuffle"
            continue
        hands, stock, discard = piles(state)
        # the referee's piles are the engine's: every draw and play as the rules say
        assert [sorted(h) for h in hands] == [sorted(h) for h in ref.hands], ev
        assert discard == ref.discard and stock == ref.stock[::-1], ev
        total = Counter(stock) + Counter(discard)
        for h in hands:
            total += Counter(h)
        assert total == full_pack()  # the 108 cards, conserved
        if ref.phase != "shuffle":
            assert state.v["clockwise"] == (ref.step == 1)  # the direction after Reverses
            if seat != CHANCE or ref.phase != "dealer":
                assert (state.v["turn"] == ref.turn or ref.pending is not None
                        or ref.phase not in ("turn", "after_draw")), ev
    return state, events, seen



OPTION_SETS = [
    {},
    RLCARD,
    {"draw_four_when": "nothing_else", "draw_instead": False, "target": 200},
    {"challenge": False, "drawn_card": "auto", "first_wild": "random", "scoring": "win_loss",
     "deals": 3},
]


@pytest.mark.parametrize("n", [2, 4, 10])
@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(sorted(o)) or "defaults")
def test_random_matches_keep_the_rules(n: int, opts: dict[str, Any]) -> None:
    seen: Counter[str] = Counter()
    for seed in range(1 if opts.get("deals") else 2):
        state, _, met = play_match(n, opts, seed)
        seen += met
        assert state.is_terminal()
        res = state.result()
        totals = res["totals"]
        if opts.get("deals", 0) > 0:
            assert len(state.deals) == opts["deals"]
        else:
            assert max(totals) >= opts.get("target", 500)
        top = max(totals)
        assert sorted(res["winners"]) == [q for q in range(n) if totals[q] == top]
        bound = 1 if opts.get("scoring") == "win_loss" else sum(
            points(c) for c in full_pack().elements())
        assert all(-1 <= x <= bound for d in state.deals for x in d["scores"])
    if opts.get("deals"):
        return
    # the action cards were met and their effects checked above
    for kind in ("play S", "play R", "play D", "play W", "play W4", "draw"):
        assert seen[kind] > 0, kind
    if opts.get("challenge", True):
        assert seen["accept"] > 0 and seen["challenge"] > 0


UNO_OPTIONS = st.fixed_dictionaries({}, optional={
    "draw_four_when": st.sampled_from(["no_card_of_colour", "nothing_else"]),
    "challenge": st.booleans(),
    "draw_instead": st.booleans(),
    "drawn_card": st.sampled_from(["may_play", "auto"]),
    "first_wild": st.sampled_from(["first_player_names", "random"]),
    "first_dealer": st.sampled_from(["drawn", "given"]),
    "scoring": st.sampled_from(["cards_left", "win_loss"]),
})


@settings(deadline=None, max_examples=10)
@given(opts=UNO_OPTIONS, n=st.integers(2, 10), seed=st.integers(0, 2**20),
       dealer=st.integers(0, 9))
def test_any_options_keep_the_rules(opts: dict[str, Any], n: int, seed: int,
                                    dealer: int) -> None:
    """Every combination of the rule options at every table size: two hands checked
    against the referee."""
    state, _, _ = play_match(n, {**opts, "deals": 2}, seed, dealer % n)
    assert state.is_terminal() and len(state.deals) == 2


def test_a_simulated_match_replays_from_its_record() -> None:
    opts = {"deals": 2}
    state, events, _ = play_match(4, opts, 3)
    record = {"format": FORMAT, "game": "uno", "players": 4, "options": opts, "dealer": 0,
              "events": events}
    code, answer = replay(record)
    assert code == 0, answer
    assert answer["complete"] and answer == state.result()
    assert len(answer["deals"]) == 2


# --- dealt situations -----------------------------------------------------------------------

def dealt(hands: list[list[str]], top: str, opts: dict[str, Any] | None = None) -> State:
    """A first hand, seat 0 dealing, whose hands (7 cards each) and first card are given."""
    n = len(hands)
    opts = {"first_dealer": "given", **(opts or {})}
    state = game_for(SPEC, n, opts, 0).new_initial_state()
    order = [hands[(1 + k) % n][k // n] for k in range(7 * n)] + [top]
    rest = full_pack() - Counter(order)
    state.apply({"chance": "shuffle", "cards": order + sorted(rest.elements())})
    # (a Draw Two turned up has already given its two cards)
    assert all(not Counter(h) - Counter(z) for h, z in zip(hands, state.z["hand"], strict=True))
    return state


def moves(state: State) -> set[tuple[Any, ...]]:
    return {event_key(e) for e in state.legal_actions()}


def test_wild_draw_four_only_without_a_card_of_the_colour_in_force() -> None:
    other = ["1G", "2G", "3G", "4G", "5G", "6G", "7G"]
    holds_red = ["W4", "9R", "1B", "2B", "3B", "4B", "5B"]
    state = dealt([other, holds_red], "5R", {"challenge": False})
    assert state.current_player() == 1
    assert not any(m[1] == "W4" for m in moves(state) if m[0] == "play")
    # a 5 of another colour matches by number, yet the Wild Draw Four is allowed
    no_red = ["W4", "5B", "1B", "2B", "3B", "4B", "6B"]
    state = dealt([other, no_red], "5R", {"challenge": False})
    assert ("play", "W4", "G") in moves(state) and ("play", "5B") in moves(state)
    # RLCard's reading: only when nothing else can be played
    state = dealt([other, no_red], "5R", {"challenge": False, "draw_four_when": "nothing_else"})
    assert not any(m[1] == "W4" for m in moves(state) if m[0] == "play")


def test_a_bluff_caught_by_a_challenge() -> None:
    victim = ["1G", "2G", "3G", "4G", "5G", "6G", "7G"]
    bluffer = ["W4", "9R", "1B", "2B", "3B", "4B", "5B"]
    state = dealt([victim, bluffer], "5R")
    state.apply({"seat": 1, "action": "play", "card": "W4", "colour": "G"})
    assert state.current_player() == 0 and moves(state) == {("accept",), ("challenge",)}
    state.apply({"seat": 0, "action": "challenge"})
    assert len(state.z["hand"][1]) == 6 + 4 and len(state.z["hand"][0]) == 7
    assert state.current_player() == 0 and ("play", "1G") in moves(state)


def test_reverse_turns_play_round_and_acts_as_a_skip_with_two() -> None:
    a = ["RR", "1G", "2G", "3G", "4G", "5G", "6G"]
    b = ["7G", "8G", "9G", "1B", "2B", "3B", "4B"]
    state = dealt([b, a], "5R")
    state.apply({"seat": 1, "action": "play", "card": "RR"})
    assert state.current_player() == 1 and state.v["clockwise"] is False
    c = ["1Y", "2Y", "3Y", "4Y", "5Y", "6Y", "7Y"]
    state = dealt([b, a, c], "5R")
    state.apply({"seat": 1, "action": "play", "card": "RR"})
    assert state.current_player() == 0 and state.v["clockwise"] is False


def test_the_first_card_turned_up() -> None:
    hands = [["1G", "2G", "3G", "4G", "5G", "6G", "7G"], ["1B", "2B", "3B", "4B", "5B", "6B",
             "7B"], ["1Y", "2Y", "3Y", "4Y", "5Y", "6Y", "7Y"]]
    assert dealt(hands, "SR").current_player() == 2  # the player on the dealer's left skipped
    state = dealt(hands, "RR")  # the dealer plays first, and play goes to the right
    assert state.current_player() == 0 and state.v["clockwise"] is False
    state = dealt(hands, "DR")  # the first player draws two and loses the turn
    assert state.current_player() == 2 and len(state.z["hand"][1]) == 9
    state = dealt(hands, "W")
    assert state.current_player() == 1 and moves(state) == {("name_colour", s) for s in COLOURS}
    with pytest.raises(IllegalActionError):
        state.apply({"seat": 1, "action": "play", "card": "1B"})


def test_a_random_colour_is_one_of_four_equally_likely() -> None:
    hands = [["1G", "2G", "3G", "4G", "5G", "6G", "7G"],
             ["1B", "2B", "3B", "4B", "5B", "6B", "7B"]]
    state = dealt(hands, "W", {"first_wild": "random"})
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert sorted(str(e["value"]) for e, _ in outcomes) == sorted(COLOURS)
    assert [p for _, p in outcomes] == [0.25] * 4
    state.apply({"chance": "pick", "value": "G"})
    # seat 1 holds only blue cards: on green it can only draw
    assert state.current_player() == 1 and state.v["colour"] == "G"
    assert moves(state) == {("draw",)}


def test_what_each_player_sees() -> None:
    """Hands are private, their sizes public (players see how many cards each holds); the
    draw pile is face down and counted; the discard pile is open."""
    hands = [["1G", "2G", "3G", "4G", "5G", "6G", "7G"],
             ["1B", "2B", "3B", "4B", "5B", "6B", "7B"]]
    state = dealt(hands, "5R")
    seen = state.observation(0)["zones"]
    assert sorted(seen["hand"][0]) == sorted(hands[0]) and seen["hand"][1] == 7
    assert seen["stock"] == 108 - 15 and seen["discard"] == ["5R"]
