"""Hearts (rulespec/games/hearts.rules): random matches checked at every step against the rules
as written from the sources (cards conserved, the pass of three distinct own cards made all at
once, follow suit, the leads, the first trick, 26 points a deal or a moon's equivalent, each
deal's scores recomputed from the tricks as played), a simulated match's record replayed, and
a few dealt situations that show one rule each: the 2 of clubs leads, no points on the first
trick, hearts not led before they are broken, and shooting the moon."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.errors import IllegalActionError
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT, replay
from rulespec.simulate import sample_event

SPEC = resolve("hearts").spec
SHIFT = {"left": 1, "across": 2, "right": 3, "hold": 0}
ROTATION = [1, 3, 2, 0]  # left, right, across, no pass


def points(c: str, opts: dict[str, Any]) -> int:
    if SUIT_OF[c] == "H":
        return 1
    if c == "QS":
        return 13
    return -10 if opts.get("jd_bonus") and c == "JD" else 0


def penalty(c: str) -> bool:
    return SUIT_OF[c] == "H" or c == "QS"


class Referee:
    """The rules of Hearts written again from the sources, independently of the spec: it
    follows a match event by event, says which cards may be played, and scores each deal."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.opts = opts
        self.deal_index = 0

    def new_deal(self, hands: list[list[str]]) -> None:
        self.hands = [list(h) for h in hands]
        self.won: list[list[str]] = [[], [], [], []]
        self.taken = [0, 0, 0, 0]
        self.trick: list[tuple[int, str]] = []
        self.tricks_played = 0
        self.broken = False

    def allowed(self, seat: int) -> set[str]:
        hand, o = self.hands[seat], self.opts
        if not self.trick:
            if self.tricks_played == 0:
                clubs = {c for c in hand if SUIT_OF[c] == "C"}
                return clubs if o.get("can_lead_any_club") else {"2C"} & set(hand)
            if self.broken or not o.get("must_break_hearts", True):
                return set(hand)
            rest = {c for c in hand if SUIT_OF[c] != "H"}
            if not rest:
                return set(hand)
            if o.get("lead_hearts_over_queen") and rest == {"QS"}:
                return set(hand)
            return rest
        led = SUIT_OF[self.trick[0][1]]
        follow = {c for c in hand if SUIT_OF[c] == led}
        if follow:
            return follow
        if self.tricks_played == 0 and o.get("no_points_on_first_trick", True):
            safe = {c for c in hand if not penalty(c)}
            if safe:
                return safe
        return set(hand)

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if SUIT_OF[card] == "H" or (self.opts.get("qs_breaks_hearts") and card == "QS"):
            self.broken = True
        if len(self.trick) == 4:
            led = SUIT_OF[self.trick[0][1]]
            winner = max((RANK_OF[c], s) for s, c in self.trick if SUIT_OF[c] == led)[1]
            self.won[winner] += [c for _, c in self.trick]
            self.taken[winner] += 1
            self.trick = []
            self.tricks_played += 1

    def leader(self) -> int:
        return next(q for q in range(4) if "2C" in self.hands[q])

    def shooter(self) -> int | None:
        return next((q for q in range(4) if sum(penalty(c) for c in self.won[q]) == 14), None)

    def scores(self, off_own: bool) -> list[int]:
        base = [sum(points(c, self.opts) for c in self.won[q]) for q in range(4)]
        s = self.shooter()
        if s is not None:
            if off_own:
                return [b - 52 if q == s else b for q, b in enumerate(base)]
            return [b - 26 if q == s else b + 26 for q, b in enumerate(base)]
        if self.opts.get("avoid_all_tricks_bonus"):
            return [b - 5 if self.taken[q] == 0 else b for q, b in enumerate(base)]
        return base


def hands_of(state: State) -> list[list[str]]:
    return [list(h) for h in state.z["hand"]]


def play_match(opts: dict[str, Any], seed: int, most_events: int = 5000) -> tuple[
        State, list[dict[str, Any]], Counter[int]]:
    """One random match (or its first ``most_events`` events) played and checked at every
    step; returns the state, its events and the pass directions the deals had."""
    state = game_for(SPEC, 4, opts, 0).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(opts)
    events: list[dict[str, Any]] = []
    directions: Counter[int] = Counter()
    passes: dict[int, list[str]] = {}
    before_pass: list[list[str]] = []
    moon_choice: bool | None = None
    while not state.is_terminal() and len(events) < most_events:
        legal = state.legal_actions()
        ev = sample_event(legal, rng, state.chance_weights)
        seat = state.current_player()
        if seat != CHANCE and ev["action"] == "play":
            # exactly the cards the referee allows are offered
            assert {e["card"] for e in legal} == ref.allowed(seat), (ref.trick, ref.hands[seat])
            if not ref.trick and ref.tricks_played == 0:
                assert seat == ref.leader()
        if seat != CHANCE and ev["action"] == "pass":
            hand = state.z["hand"][seat]
            assert all(len(set(e["cards"])) == 3 and set(e["cards"]) <= set(hand) for e in legal)
            assert len(legal) == 286  # every 3 of 13 cards
            passes[seat] = list(ev["cards"])
        state.apply(ev)
        events.append(ev)
        if seat == CHANCE and ev["chance"] == "shuffle":
            assert sorted(ev["cards"]) == sorted(pack(1))
            shift = state.v["pass_shift"]
            directions[shift] += 1
            if opts.get("pass_rotation", "rotate") == "rotate":
                assert shift == ROTATION[ref.deal_index % 4]
            elif opts.get("pass_rotation") == "no_pass":
                assert shift == 0
            before_pass = hands_of(state)
            assert [len(h) for h in before_pass] == [13] * 4
            ref.new_deal(before_pass)
            passes, moon_choice = {}, None
            if shift == 0:
                assert state.current_player() == ref.leader()
        elif seat == CHANCE:
            assert ev["chance"] == "pick" and opts.get("pass_rotation") == "random"
        elif ev["action"] == "pass" and len(passes) == 4:
            # the reveal: every seat passed three of its own cards at once
            shift = state.v["pass_shift"]
            after = hands_of(state)
            for q in range(4):
                giver = (q - shift) % 4
                assert Counter(after[q]) == (Counter(before_pass[q]) - Counter(passes[q])
                                             + Counter(passes[giver]))
            assert sorted(c for h in after for c in h) == sorted(pack(1))
            ref.new_deal(after)
        elif ev["action"] == "pass":
            assert hands_of(state) == before_pass  # nothing moves before the reveal
        elif ev["action"] == "play":
            ref.play(seat, ev["card"])
            cards = [c for h in state.z["hand"] for c in h] + list(state.z["trick"]) + \
                [c for w in state.z["won"] for c in w]
            if len(state.deals) == ref.deal_index and state.current_player() != CHANCE:
                assert sorted(cards) == sorted(pack(1))  # the deal is still on
        else:
            assert ev["action"] in ("add_to_others", "off_own_score")
            assert seat == ref.shooter()
            moon_choice = ev["action"] == "off_own_score"
        deals = state.deals
        if len(deals) > ref.deal_index:
            _check_deal(ref, opts, deals[-1], moon_choice)
            ref.deal_index += 1
    return state, events, directions


def _check_deal(ref: Referee, opts: dict[str, Any], deal: Any, moon_choice: bool | None
                ) -> None:
    assert ref.tricks_played == 13 and all(not h for h in ref.hands)
    moon = opts.get("moon", "shooter_chooses")
    s = ref.shooter()
    if s is not None and moon != "shooter_chooses":
        moon_choice = moon == "subtract_from_own"
    if moon == "shooter_chooses":
        assert (moon_choice is not None) == (s is not None)
    expected = ref.scores(bool(moon_choice))
    assert list(deal["scores"]) == expected
    total = sum(expected)
    jd = -10 if opts.get("jd_bonus") else 0
    if s is None:
        zero = sum(1 for t in ref.taken if t == 0)
        bonus = -5 * zero if opts.get("avoid_all_tricks_bonus") else 0
        assert total == 26 + jd + bonus
    else:
        assert total == (-26 if moon_choice else 78) + jd


OPTION_SETS = [
    {},
    {"pass_rotation": "random", "qs_breaks_hearts": True, "jd_bonus": True,
     "avoid_all_tricks_bonus": True, "moon": "add_to_others"},
    {"pass_rotation": "no_pass", "no_points_on_first_trick": False, "must_break_hearts": False,
     "can_lead_any_club": True, "moon": "subtract_from_own"},
    {"lead_hearts_over_queen": True, "tie": "play_on", "target": 50},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(sorted(o)) or "defaults")
def test_random_matches_keep_the_rules(opts: dict[str, Any]) -> None:
    for seed in range(3):
        state, _, directions = play_match(opts, seed)
        assert state.is_terminal()
        res = state.result()
        totals = res["totals"]
        target = opts.get("target", 100)
        assert max(totals) >= target
        low = min(totals)
        assert sorted(res["winners"]) == [q for q in range(4) if totals[q] == low]
        if opts.get("tie") == "play_on":
            assert len(res["winners"]) == 1
        if opts.get("pass_rotation") == "no_pass":
            assert set(directions) == {0}


HEARTS_OPTIONS = st.fixed_dictionaries({}, optional={
    "pass_rotation": st.sampled_from(["rotate", "random", "no_pass"]),
    "no_points_on_first_trick": st.booleans(),
    "qs_breaks_hearts": st.booleans(),
    "must_break_hearts": st.booleans(),
    "lead_hearts_over_queen": st.booleans(),
    "can_lead_any_club": st.booleans(),
    "jd_bonus": st.booleans(),
    "avoid_all_tricks_bonus": st.booleans(),
    "moon": st.sampled_from(["shooter_chooses", "add_to_others", "subtract_from_own"]),
})


@settings(deadline=None)
@given(opts=HEARTS_OPTIONS, seed=st.integers(0, 2**20))
def test_any_options_keep_the_rules(opts: dict[str, Any], seed: int) -> None:
    """Every combination of the rule options: two deals checked against the referee, each
    deal's score within the declared score_range."""
    state, _, _ = play_match({**opts, "deals": 2}, seed)
    assert state.is_terminal() and len(state.deals) == 2
    assert all(-36 <= x <= 26 for d in state.deals for x in d["scores"])


def test_random_direction_is_picked_each_deal_one_time_in_four() -> None:
    state = game_for(SPEC, 4, {"pass_rotation": "random", "deals": 1},
                     0).new_initial_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [e["value"] for e, _ in outcomes] == ["left", "right", "across", "hold"]
    assert [p for _, p in outcomes] == [0.25] * 4
    seen: Counter[int] = Counter()
    for seed in range(40):
        _, _, directions = play_match({"pass_rotation": "random", "deals": 1},
                                      seed)
        seen.update(directions)
    assert set(seen) == {0, 1, 2, 3}


def test_a_simulated_match_replays_from_its_record() -> None:
    opts = {"deals": 3}
    state, events, _ = play_match(opts, 7)
    record = {"format": FORMAT, "game": "hearts", "players": 4, "options": opts, "dealer": 0,
              "events": events}
    code, answer = replay(record)
    assert code == 0, answer
    assert answer["complete"] and answer == state.result()
    assert len(answer["deals"]) == 3
    # the simultaneous pass replays alike whatever order its choices are written in
    first = next(i for i, e in enumerate(events) if e.get("action") == "pass")
    swapped = events[:first] + events[first:first + 4][::-1] + events[first + 4:]
    code, again = replay({**record, "events": swapped})
    assert code == 0 and again == answer


# --- dealt situations -----------------------------------------------------------------------

def dealt(hands: list[list[str]], opts: dict[str, Any] | None = None, dealer: int = 0) -> State:
    """A first deal whose hands are the given ones (13 cards each), the state waiting at the
    pass (or, with no pass, at the first lead)."""
    opts = {"pass_rotation": "no_pass", **(opts or {})}
    state = game_for(SPEC, 4, opts, dealer).new_initial_state()
    # the deal goes one card at a time from the dealer's left, from the top of the shuffle
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    cards = [hands[order[k % 4]][k // 4] for k in range(52)]
    state.apply({"chance": "shuffle", "cards": cards})
    assert [sorted(h) for h in state.z["hand"]] == [sorted(h) for h in hands]
    return state


def suit_hands() -> list[list[str]]:
    """Seat 0 all the clubs, seat 1 the diamonds, seat 2 the hearts, seat 3 the spades."""
    return [[c for c in pack(1) if SUIT_OF[c] == s] for s in "CDHS"]


def play(state: State, seat: int, card: str) -> None:
    assert state.current_player() == seat
    state.apply({"seat": seat, "action": "play", "card": card})


def test_the_two_of_clubs_leads_the_first_trick() -> None:
    hands = [list(h) for h in suit_hands()]
    hands[0][0], hands[2][0] = hands[2][0], hands[0][0]  # seat 2 holds the 2C, seat 0 the 2H
    state = dealt(hands)
    assert state.current_player() == 2
    assert [e["card"] for e in state.legal_actions()] == ["2C"]
    with pytest.raises(IllegalActionError):
        state.apply({"seat": 2, "action": "play", "card": "3H"})
    # the variant lets its holder lead any club
    anyclub = dealt(hands, {"can_lead_any_club": True})
    assert [e["card"] for e in anyclub.legal_actions()] == ["2C"]  # seat 2's only club
    hands[2][1], hands[0][1] = hands[0][1], hands[2][1]  # seat 2 also holds the 3C
    anyclub = dealt(hands, {"can_lead_any_club": True})
    assert sorted(e["card"] for e in anyclub.legal_actions()) == ["2C", "3C"]


def test_no_points_on_the_first_trick_by_default() -> None:
    state = dealt(suit_hands())  # seat 0 leads 2C; the others hold no club
    play(state, 0, "2C")
    assert state.current_player() == 1
    assert len(state.legal_actions()) == 13  # diamonds only: any of them
    play(state, 1, "2D")
    # seat 2 holds nothing but hearts: it may play one after all
    assert len(state.legal_actions()) == 13
    play(state, 2, "2H")
    # seat 3 holds spades: anything but the Queen
    assert "QS" not in {e["card"] for e in state.legal_actions()}
    assert len(state.legal_actions()) == 12
    with pytest.raises(IllegalActionError):
        play(state, 3, "QS")
    # with the option off (pagat's main account), the Queen may go on the first trick
    free = dealt(suit_hands(), {"no_points_on_first_trick": False})
    for seat, card in ((0, "2C"), (1, "2D"), (2, "2H")):
        play(free, seat, card)
    assert "QS" in {e["card"] for e in free.legal_actions()}


def test_hearts_are_not_led_before_they_are_broken() -> None:
    ranks = "23456789TJQKA"
    seat0 = [r + "C" for r in ranks[:12]] + ["2D"]
    seat1 = ["AC"] + [r + "H" for r in ranks[:10]] + ["3D", "4D"]
    seat2 = ["QH", "KH", "AH"] + [r + "D" for r in ranks[3:]]
    seat3 = [r + "S" for r in ranks]
    hands = [seat0, seat1, seat2, seat3]

    def first_trick(opts: dict[str, Any]) -> State:
        state = dealt(hands, opts)
        for seat, card in ((0, "2C"), (1, "AC"), (2, "5D"), (3, "2S")):
            play(state, seat, card)
        return state

    state = first_trick({})
    # seat 1 won with the AC; it holds hearts and two diamonds: no heart may be led yet
    assert state.current_player() == 1 and not state.v["broken"]
    assert {e["card"] for e in state.legal_actions()} == {"3D", "4D"}
    with pytest.raises(IllegalActionError):
        play(state, 1, "2H")
    assert len(first_trick({"must_break_hearts": False}).legal_actions()) == 12
    # the Queen of spades, discarded, does not break hearts, except under qs_breaks_hearts
    for opts, broken in (({}, False), ({"qs_breaks_hearts": True}, True)):
        state = first_trick(opts)
        for seat, card in ((1, "3D"), (2, "6D"), (3, "QS"), (0, "2D")):
            play(state, seat, card)
        assert state.current_player() == 2 and state.v["broken"] == broken
        led = {e["card"] for e in state.legal_actions()}
        assert ("AH" in led) == broken and "7D" in led
    # a heart discarded breaks them
    state = first_trick({})
    for seat, card in ((1, "3D"), (2, "6D"), (3, "3S"), (0, "2D")):
        play(state, seat, card)
    play(state, 2, "7D")
    play(state, 3, "4S")
    play(state, 0, "3C")
    play(state, 1, "4D")
    assert state.current_player() == 2 and not state.v["broken"]
    for seat, card in ((2, "8D"), (3, "5S"), (0, "4C"), (1, "2H")):
        play(state, seat, card)
    assert state.v["broken"] and "AH" in {e["card"] for e in state.legal_actions()}


def play_out(state: State, choose: Any) -> None:
    """Play the deal to the end, each seat playing the card ``choose(seat, cards)`` picks."""
    while state.current_player() != CHANCE and not state.is_terminal():
        legal = state.legal_actions()
        if legal[0]["action"] != "play":
            return
        seat = state.current_player()
        card = choose(seat, [e["card"] for e in legal])
        play(state, seat, card)


def _shoot(opts: dict[str, Any]) -> State:
    """Seat 0 shoots the moon: it holds the AC, the hearts 2-AH bar the 2H, the QS; seat 1 the
    2C and low cards; every trick falls to seat 0."""
    hearts = [c for c in pack(1) if SUIT_OF[c] == "H"]
    clubs = [c for c in pack(1) if SUIT_OF[c] == "C"]
    diamonds = [c for c in pack(1) if SUIT_OF[c] == "D"]
    spades = [c for c in pack(1) if SUIT_OF[c] == "S"]
    # seat 0: the 12 highest hearts and the AC (it wins the first trick and leads hearts
    # after the AC); seat 1: the 2C, 2H and 11 diamonds; seat 2: clubs 3-K and the AD, KD;
    # seat 3: the spades.
    seat0 = hearts[1:] + ["AC"]
    seat1 = ["2C", "2H"] + diamonds[:11]
    seat2 = clubs[1:12] + diamonds[11:]
    seat3 = spades
    assert sorted(seat0 + seat1 + seat2 + seat3) == sorted(pack(1))
    state = dealt([seat0, seat1, seat2, seat3], opts)

    def choose(seat: int, cards: list[str]) -> str:
        if seat == 0:
            return max(cards, key=lambda c: RANK_OF[c])
        if seat == 3 and "QS" in cards:
            return "QS"
        if seat == 1 and "2H" in cards:
            return "2H"
        return min(cards, key=lambda c: RANK_OF[c])

    play_out(state, choose)
    return state


def test_shooting_the_moon() -> None:
    state = _shoot({"deals": 1})
    # seat 0 took every heart and the Queen: it chooses how the moon is scored
    assert state.v["shooter"] == 0
    assert sorted(e["action"] for e in state.legal_actions()) == ["add_to_others",
                                                                  "off_own_score"]
    added = state.clone()
    added.apply({"seat": 0, "action": "add_to_others"})
    assert added.deals[-1]["scores"] == [0, 26, 26, 26]
    state.apply({"seat": 0, "action": "off_own_score"})
    assert state.deals[-1]["scores"] == [-26, 0, 0, 0]
    # the fixed schemes need no choice
    fixed = _shoot({"deals": 1, "moon": "add_to_others"})
    assert fixed.is_terminal() and fixed.deals[-1]["scores"] == [0, 26, 26, 26]
    jd = _shoot({"deals": 1, "moon": "add_to_others", "jd_bonus": True})
    # the Jack of diamonds is not needed to shoot the moon; whoever takes it scores -10
    scores = jd.deals[-1]["scores"]
    assert scores[0] in (0, -10) and sum(scores) == 78 - 10
