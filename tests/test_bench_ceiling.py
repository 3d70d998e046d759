"""bench/ceiling.py's hand-written hearts plays whole deals: every card played once, thirteen
tricks, the 26 points all taken, so the ceiling it measures is of whole games."""

from __future__ import annotations

import random

import pytest

from tests.modules import bench


def _ceiling():  # type: ignore[no-untyped-def]
    return bench("ceiling")


def test_each_deal_is_played_to_its_end() -> None:
    ceiling = _ceiling()
    for seed in range(200):
        rng = random.Random(seed)
        st = ceiling.Hearts()
        st.deal(rng)
        st.draw_direction(rng)
        plays = 0
        while st.to_move >= 0:
            n = st.legal_count()
            assert n >= 1
            st.apply_index(rng.randrange(n))
            plays += 1
        assert st.tricks == 13 and not any(st.hands) and sum(st.points) == 26
        assert plays == (52 if st.direction == 0 else 64)


def test_the_timing_loop_counts_every_event() -> None:
    secs, events = _ceiling().ceiling_games(5, 1)
    assert secs > 0 and 5 * 54 <= events <= 5 * 66


@pytest.mark.parametrize("ints", [False, True])
def test_the_shaped_hearts_plays_whole_deals(ints: bool) -> None:
    ceiling = _ceiling()
    values = ceiling.INTS if ints else ceiling.CODES
    for seed in range(100):
        rng = random.Random(seed)
        st = ceiling.Shaped(values)
        while st.to_move is not None:
            if st.to_move != ceiling.CHANCE:
                assert st.pending
                st.send(rng.randrange(len(st.pending)))
            elif st.pending == "shuffle":
                cards = list(values.pack)
                rng.shuffle(cards)
                st.send(cards)
            else:
                st.send(st.pending[0])
        assert sum(st.points) == 26 and not any(st.z["hand"])
    secs, events = ceiling.shaped_games(3, 1, values)
    assert secs > 0 and 3 * 54 <= events <= 3 * 66


def test_the_typed_hearts_plays_whole_deals() -> None:
    """The typed side (the spec's hearts as a typed lowering would write it) deals, passes
    and plays thirteen tricks: every card played once and won once, the 26 points all taken
    (or the moon shot: 26 to each other seat), a legal event at every step."""
    ceiling = _ceiling()
    for seed in range(200):
        rng = random.Random(seed)
        st = ceiling.Typed()
        while st.to_move is not None:
            if st.to_move == ceiling.CHANCE:
                st.sample_chance(rng)
            else:
                n = st.legal_count()
                assert n >= 1
                st.apply_index(rng.randrange(n))
        assert not any(st.hands)
        assert sum(x.bit_count() for x in st.won) == 52
        assert sorted(st.points) == [0, 26, 26, 26] or sum(st.points) == 26
    secs, events = ceiling.typed_games(3, 1)
    assert secs > 0 and 3 * 54 <= events <= 3 * 66
