"""The resampler: a world the seat cannot tell from the true one, every hidden card dealt
again into the places it could be, the seat's own view unchanged, and a world that plays on
to the end under the same rules."""

from __future__ import annotations

import collections
import random

import pytest

from rulespec.bots.determinize import hidden_places, resample
from rulespec.loading import game_for, resolve, shipped_games
from rulespec.simulate import sample_event


def _midgame(game: str, seed: int) -> tuple[object, int]:
    spec = resolve(game).spec
    for n in (4, 3, 2, 5, 6):
        try:
            g = game_for(spec, n, {}, 0)
            break
        except Exception:
            continue
    st, rng = g.new_initial_state(), random.Random(seed)
    for _ in range(rng.randrange(10, 60)):
        if st.is_terminal():
            break
        st.apply(sample_event(st.legal_actions(), rng, st.chance_weights))
    while not st.is_terminal() and st.is_chance_node():
        st.apply(sample_event(st.legal_actions(), rng, st.chance_weights))
    return st, st.current_player()


@pytest.mark.parametrize("game", sorted(shipped_games()))
def test_a_world_keeps_what_the_seat_sees_and_plays_on(game: str) -> None:
    moved = 0
    for seed in range(4):
        st, seat = _midgame(game, seed)
        if st.is_terminal() or not isinstance(seat, int):
            continue
        before = {k: [list(p) if isinstance(p, list) else p for p in z]
                  for k, z in st.z.items()}
        world = resample(st, seat, random.Random(seed))
        assert {k: [list(p) if isinstance(p, list) else p for p in z]
                for k, z in st.z.items()} == before, "the true state was changed"
        assert world.observation(seat) == st.observation(seat)
        # the same cards in all, each place the same size
        everything = collections.Counter(
            c for z in st.z.values() for p in z for c in (p if isinstance(p, list) else [p]))
        again = collections.Counter(
            c for z in world.z.values() for p in z for c in (p if isinstance(p, list) else [p]))
        assert again == everything
        moved += sum(1 for k in st.z if st.z[k] != world.z[k])
        rng, deals = random.Random(seed), len(world.deals)
        for _ in range(3000):  # on to the end of the deal: the rules still hold in the world
            if world.is_terminal() or len(world.deals) > deals:
                break
            world.apply(sample_event(world.legal_actions(), rng, world.chance_weights))
        assert world.is_terminal() or len(world.deals) > deals
    assert moved > 0, f"no hidden card of {game} was ever dealt again"


def test_a_seat_that_sees_everything_gets_the_same_world() -> None:
    st, seat = _midgame("vandatta", 1)
    assert isinstance(seat, int)
    places = list(hidden_places(st, seat))
    assert places, "Vändåtta hides the other hands and the stock"
    assert all(p not in [st.z["hand"][seat]] for p in places), "its own hand is not hidden"
