"""bench/engines.py plays the same game on both sides: where one of the engine's states is a
single deal (every OpenSpiel game; spades' match is its adapter's, deal after deal), the
spec's game is one deal too (spades' side was a whole match to 500 against one deal, a
third of its true ratio)."""

from __future__ import annotations

import random

import pytest

from rulespec.adapters import ENGINES
from rulespec.loading import game_for, resolve
from rulespec.simulate import sample_event
from tests.modules import bench


@pytest.mark.parametrize("name", sorted(n for n in ENGINES if n.startswith("openspiel:")))
def test_each_side_plays_one_deal_a_game(name: str) -> None:
    engines = bench("engines")
    spec, players, options, adapter = engines.settings_of(name)
    g = game_for(resolve(spec).spec, players, options, 0)
    for seed in range(3):
        rng = random.Random(seed)
        st = g.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply(sample_event(st.legal_actions(), rng))
            else:
                st.apply_index(rng.randrange(st.legal_count()))
        assert len(st.result()["deals"]) == 1, (name, st.result())
    # the engine's side loads its game with the adapter's own options
    seconds, events = engines.engine_games(adapter, players, options, 1, 0)
    assert events > 0
