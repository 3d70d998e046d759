"""Simultaneous decisions (``choose together``): the choices are held unseen and applied together,
so the outcome does not depend on the order in which the seats are asked (docs/language.md,
"Simultaneous decisions"); a record whose choices come in another order replays alike."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec.book import rulebook
from rulespec.book.diagram import phase_diagram
from rulespec.engine.state import State
from rulespec.errors import IllegalActionError, RuleRuntimeError
from rulespec.lang.checker import check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.loading import game_for, resolve
from rulespec.records import replay

SPEC_PATH = Path(__file__).parent / "specs" / "ok" / "simultaneous_pass.rules"
SPEC = resolve(SPEC_PATH).spec
BIDS = resolve(SPEC_PATH.parent / "sealed_bids.rules").spec


def _dealt(players: int, seed: int, spec: Any = SPEC, dealer: int = 0) -> State:
    """A fresh match, shuffled by ``seed``: it waits at the simultaneous decision."""
    state = game_for(spec, players, {}, dealer).new_initial_state()
    ev = dict(state.legal_actions()[0])
    cards = list(ev["cards"])
    random.Random(seed).shuffle(cards)
    ev["cards"] = cards
    state.apply(ev)
    return state


def _choices(state: State, picks: list[int]) -> dict[int, dict[str, Any]]:
    """Each waiting seat's choice, the ``picks[i]``-th of its own legal events."""
    out = {}
    for i, q in enumerate(state.seats_to_choose()):
        c = state.clone()
        c.ask(q)
        legal = c.legal_actions()
        assert legal and all(e["seat"] == q for e in legal)
        out[q] = legal[picks[i] % len(legal)]
    return out


def _picture(state: State) -> object:
    """Everything a driver can see of a state."""
    return (state.current_player(), state.legal_actions(), state.result(),
            [state.observation(q) for q in range(state.game.hands)], state.v, state.z,
            [(f.proc.name, f.pc, f.L) for f in state.stack])


@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**16),
       picks=st.lists(st.integers(0, 100), min_size=4, max_size=4), data=st.data())
def test_the_outcome_does_not_depend_on_the_order_of_the_seats(
        players: int, seed: int, picks: list[int], data: st.DataObject) -> None:
    start = _dealt(players, seed)
    assert start.seats_to_choose() == list(range(players))
    assert start.current_player() == 0  # the lowest seat still to choose is asked first
    chosen = _choices(start, picks)
    order = data.draw(st.permutations(sorted(chosen)))
    in_order, shuffled = start.clone(), start.clone()
    for q in sorted(chosen):
        in_order.apply(chosen[q])
    before = [start.observation(q) for q in range(players)]
    for k, q in enumerate(order):
        shuffled.apply(chosen[q])
        if k < len(order) - 1:
            # before the reveal: no card moved, and each seat sees its own choice alone
            assert shuffled.z == start.z and shuffled.v == start.v
            for r in range(players):
                seen = shuffled.observation(r)
                assert seen["zones"] == before[r]["zones"]
                assert seen["waiting"] == sorted(set(order[k + 1:]))
                mine = seen.get("chosen")
                if r in order[:k + 1]:
                    assert mine == {k2: v for k2, v in chosen[r].items() if k2 != "seat"}
                else:
                    assert mine is None
    assert _picture(shuffled) == _picture(in_order)
    # every pass landed: each hand still holds four cards, two of them its right neighbour's
    for q in range(players):
        assert len(shuffled.z["hand"][q]) == 4
        assert set(chosen[(q - 1) % players]["cards"]) <= set(shuffled.z["hand"][q])


@given(players=st.sampled_from([2, 3, 4]), dealer=st.integers(0, 3), seed=st.integers(0, 99),
       picks=st.lists(st.integers(0, 100), min_size=4, max_size=4), data=st.data())
def test_sealed_bids_are_opened_alike_in_any_order(
        players: int, dealer: int, seed: int, picks: list[int], data: st.DataObject) -> None:
    """Two alternatives, bodies that set variables (the highest bid among them)."""
    start = _dealt(players, seed, BIDS, dealer % players)
    chosen = _choices(start, picks)
    order = data.draw(st.permutations(sorted(chosen)))
    in_order, shuffled = start.clone(), start.clone()
    for q in sorted(chosen):
        in_order.apply(chosen[q])
    for q in order:
        assert shuffled.v["high"] == 0  # nothing is opened before the last bid is in
        shuffled.apply(chosen[q])
    assert shuffled.is_terminal()
    assert _picture(shuffled) == _picture(in_order)
    bids = [chosen[q].get("n", 0) for q in range(players)]
    assert shuffled.deals[-1]["scores"] == [
        2 if chosen[q]["action"] == "blind_nil" else (bids[q] if bids[q] == max(bids) else 0)
        for q in range(players)]


def test_a_choice_from_a_seat_not_waiting_is_refused() -> None:
    state = _dealt(3, 1)
    c = state.clone()
    c.ask(2)
    ev = c.legal_actions()[0]
    state.apply(ev)
    assert state.seats_to_choose() == [0, 1]
    with pytest.raises(IllegalActionError):
        state.apply(ev)  # seat 2 has chosen already
    with pytest.raises(IllegalActionError):
        state.ask(2)
    # a choice seat 1 cannot make is refused, and the state is as it was, seat asked included
    before = _picture(state)
    bad = {**ev, "seat": 1}
    with pytest.raises(IllegalActionError):
        state.apply(bad)
    assert _picture(state) == before


@pytest.mark.parametrize("players", [3, 4])
def test_simulated_games_replay_with_the_choices_in_any_order(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        state = game_for(SPEC, players, {}, 0).new_initial_state()
        events: list[dict[str, Any]] = []
        while not state.is_terminal():
            ev = rng.choice(state.legal_actions())
            state.apply(ev)
            events.append(ev)
        record = {"format": "rulespec-record/1", "game": SPEC_PATH.name, "players": players,
                  "dealer": 0, "events": events}
        code, ans = replay(record, spec=SPEC_PATH)
        assert code == 0 and ans == state.result()
        # the passes (events 1..players) in a random order replay to the same result
        passes = events[1:players + 1]
        assert [e["seat"] for e in passes] == list(range(players))
        rng.shuffle(passes)
        code, ans2 = replay({**record, "events": [events[0], *passes, *events[players + 1:]]},
                            spec=SPEC_PATH)
        assert code == 0 and ans2 == ans


def test_pretty_prints_it_back() -> None:
    tree = parse(SPEC_PATH.read_text(encoding="utf-8"), "x.rules")
    assert "choose together p in seats {" in pretty(tree)
    assert parse(pretty(tree), "x.rules") == tree


_SEATS_SPEC = """
game odd_seats title "Odd seats"
players 2 to 4
winner highest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def score(p: int) = 0
deal {
  choose together p in SEATS {
    keep() { }
  }
  end deal scoring score
}
match {
  run deal
  end match winners seats
}
"""


@pytest.mark.parametrize(("seats", "message"), [
    ("[0, 0]", "a seat is listed twice among the seats that decide together"),
    ("[0, 7]", "seat 7 must decide here, but this table's hands are seats 0 to 2"),
])
def test_bad_seats_are_a_runtime_error_at_the_choose(seats: str, message: str) -> None:
    spec = check_text(_SEATS_SPEC.replace("SEATS", seats), "odd.rules")
    with pytest.raises(RuleRuntimeError, match=message) as e:
        game_for(spec, 3, {}, 0).new_initial_state()
    assert e.value.span is not None and e.value.span.line == 9  # the list of seats


def test_nobody_listed_means_nobody_chooses() -> None:
    spec = check_text(_SEATS_SPEC.replace("SEATS", "[q for q in seats if q > 5]"), "odd.rules")
    state = game_for(spec, 3, {}, 0).new_initial_state()
    assert state.is_terminal()


def test_a_subset_of_the_seats_choose_and_the_others_wait() -> None:
    spec = check_text(_SEATS_SPEC.replace("SEATS", "[2, 0]"), "odd.rules")
    state = game_for(spec, 3, {}, 0).new_initial_state()
    assert state.seats_to_choose() == [0, 2] and state.current_player() == 0
    state.apply({"seat": 2, "action": "keep"})
    assert state.seats_to_choose() == [0]
    with pytest.raises(IllegalActionError, match="not among the seats still to choose"):
        state.apply({"seat": 1, "action": "keep"})
    state.apply({"seat": 0, "action": "keep"})
    assert state.is_terminal()


def test_the_book_and_the_diagram_say_it_is_simultaneous() -> None:
    alt = phase_diagram(SPEC).alt
    assert "each player, at once and in secret, decides: pass" in alt
    assert "once all have chosen, every pass is carried out together" in alt
    book = rulebook(SPEC)
    assert ("Choose two cards to pass to the left. Each player makes this choice at the same "
            "time, in secret: nobody sees another's choice until all have chosen; then all the "
            "choices are carried out at once.") in book
    assert "`pass`: Each player, at once and in secret, decides" in book
    # the order of the list of seats is no order of play
    assert "each player, at once and in secret, decides: bid" in phase_diagram(BIDS).alt
