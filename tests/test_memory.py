"""A seat's memory of the deal's cards (``seen_by(p)``): across random play it is exactly the
cards of the seat's observations at the deal's stops so far and now; cards passed, shown or
laid down stay in it; a spec that does not call it keeps no memory."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.state import State
from rulespec.errors import RulespecError
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.checker import check_file, check_text
from rulespec.loading import game_for
from rulespec.verify.compare import visible

HERE = Path(__file__).resolve().parent
SPEC = check_file(HERE / "specs" / "ok" / "memory.rules")


def _observed(state: State, seat: int) -> set[str]:
    return set(visible(state.observation(seat)["zones"]))


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_seen_by_is_the_union_of_the_seats_observations(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = game_for(SPEC, players, {}, 0).new_initial_state()
    seen: list[set[str]] = [_observed(state, q) for q in range(players)]
    while not state.is_terminal():
        for q in range(players):
            got = state.seen_by(q)
            assert got == sorted(set(got), key=CARD_ORDER.__getitem__)  # card order, once each
            assert set(state.seen_by(q)) == seen[q] | _observed(state, q)
        ev = rng.choice(state.legal_actions())
        if ev.get("chance") == "shuffle":
            ev = dict(ev, cards=rng.sample(ev["cards"], len(ev["cards"])))
        passer = ev.get("seat") if ev.get("action") == "pass" else None
        state.apply(ev)
        if passer is not None and not state.is_terminal():
            # the card passed away is remembered
            assert ev["cards"][0] in state.seen_by(passer)
        for q in range(players):
            seen[q] |= _observed(state, q)
    # the deal's scores read the memory at its end: each seat's count of the cards it saw
    scores = state.result()["deals"][0]["scores"]
    assert scores == [len(seen[q]) for q in range(players)]


def test_a_spec_without_seen_by_keeps_no_memory() -> None:
    spec = check_file(HERE / "specs" / "ok" / "minimal.rules")
    state = game_for(spec, 2, {}, 0).new_initial_state()
    state.apply(state.legal_actions()[0])
    assert state.memory is None


def test_seen_by_is_not_for_the_table_set_up() -> None:
    text = (HERE / "specs" / "ok" / "memory.rules").read_text(encoding="utf-8")
    text = text.replace('def score(q: int)', 'var first_seen: int = size(seen_by(0))\n'
                        'def score(q: int)')
    with pytest.raises(RulespecError) as info:
        check_text(text)
    assert "cannot read 'seen_by'" in str(info.value.diagnostics[0].message)
