"""A hand's subsets unwritten (rulespec.engine.events.SubsetAxis): the k-th set worked out
alone is the k-th of those made all at once, in the order of their texts, for any hand,
sizes and deck order; and a decision over them (Hearts' pass of 3 cards of 13) tells each
event as its whole list does."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.chance import sample_event
from rulespec.engine.events import SubsetAxis, subset_sets
from rulespec.lang.builtins import TEXT_ORDER
from rulespec.lang.cards import CARD_ORDER, SUITS
from rulespec.loading import game_for, resolve

CARDS = sorted(CARD_ORDER)


def _made(xs: list[str], lo: int, hi: int, order: dict[str, int]) -> tuple[list[list[object]],
                                                                              list[str]]:
    """Every set of ``xs`` with ``lo`` to ``hi`` elements, in canonical order, with its text,
    sorted by text: what the axis must list, worked out the plain way."""
    out = []
    for mask in range(1 << len(xs)):
        chosen = [xs[i] for i in range(len(xs)) if mask >> i & 1]
        if lo <= len(chosen) <= hi:
            s = sorted(chosen, key=order.__getitem__)
            out.append((s, "[" + ",".join(f'"{x}"' for x in s) + "]"))
    out.sort(key=lambda p: p[1])
    return [s for s, _ in out], [t for _, t in out]


@given(st.one_of(st.lists(st.sampled_from(CARDS), min_size=1, max_size=9, unique=True),
                 st.lists(st.sampled_from(list(SUITS)), min_size=1, max_size=4, unique=True)),
       st.integers(-1, 10), st.integers(-1, 10), st.booleans())
def test_the_kth_set_alone_is_the_kth_of_all(xs: list[str], lo: int, hi: int,
                                             reversed_order: bool) -> None:
    # a declared deck may order its cards otherwise: the French order turned round
    order = {k: -v for k, v in TEXT_ORDER.items()} if reversed_order else TEXT_ORDER
    sets, texts = _made(xs, lo, hi, order)
    axis = SubsetAxis(xs, lo, hi, order)
    assert len(axis) == len(sets)
    assert [axis[k] for k in range(len(axis))] == sets
    assert [axis.texts[k] for k in range(len(axis))] == texts
    # gone through, they are made at once by subset_sets' own ways: the same lists
    whole = subset_sets(xs, lo, hi, {}, False, order)
    assert [list(s) for s in whole.sets] == sets and list(whole.texts) == texts
    assert [whole.sets[k] for k in range(len(whole))] == sets


def test_a_pass_of_three_cards_tells_each_event_as_its_list_does() -> None:
    g = game_for(resolve("hearts").spec, 4, {}, 0)
    rng = random.Random(7)
    st_ = g.new_initial_state()
    st_.apply(sample_event(st_.legal_actions(), rng))  # the shuffle and the deal
    assert st_.legal_count() == 286  # 3 cards of 13
    told = [st_.legal_event(k) for k in range(0, 286, 7)]
    listed = st_.clone().legal_actions()
    assert told == listed[::7]
    # the one applied by number is the one applied by event
    a, b = st_.clone(), st_.clone()
    a.apply_index(123)
    b.apply(listed[123])
    assert a.observation(0) == b.observation(0) and a.to_move == b.to_move


def test_an_axis_is_freed_when_its_decision_is() -> None:
    # no cycle among the axis, its texts and what makes its sets: freed by its last
    # reference, not left to the garbage collector (which, with thousands of sets per
    # decision, cost a protocol playout of Newton a third of its time)
    import gc
    import weakref

    gc.disable()
    try:
        for lo, hi in ((0, 10), (3, 3)):  # one kept by the field, one not
            got = subset_sets(CARDS[:10], lo, hi, {}, False)
            list(got)  # made whole
            gone = weakref.ref(got.sets)
            del got
            assert gone() is None
    finally:
        gc.enable()


@given(st.lists(st.integers(-3, 120), max_size=10, unique=True), st.integers(-1, 11),
       st.integers(-1, 11), st.booleans())
def test_the_kth_set_of_numbers_alone_is_the_kth_of_all(xs: list[int], lo: int, hi: int,
                                                        made_first: bool) -> None:
    """Sets of distinct numbers (bid cards' values: "[1,10]" before "[1,2]", a number's
    digits the start of another's) in the order of their JSON texts, the k-th worked out
    alone and all of them made at once, against every mask sorted by its text."""
    from rulespec.engine.codegen.lazy import _number_count, _number_sets_of
    from rulespec.engine.events import NumberSubsetAxis

    out = []
    for mask in range(1 << len(xs)):
        s = sorted(x for i, x in enumerate(xs) if mask >> i & 1)
        if lo <= len(s) <= hi:
            out.append((s, "[" + ",".join(map(str, s)) + "]"))
    out.sort(key=lambda p: p[1])
    # made at once by doubling where the engine would, else one by one
    whole = (lambda: _number_sets_of(tuple(xs), lo, hi)) \
        if _number_count(tuple(xs), lo, hi) is not None else None
    axis = NumberSubsetAxis(xs, lo, hi, whole)
    if made_first:
        assert list(axis) == [s for s, _ in out] and list(axis.texts) == [t for _, t in out]
    assert len(axis) == len(out)
    assert [axis[k] for k in range(len(axis))] == [s for s, _ in out]
    assert [axis.texts[k] for k in range(len(axis))] == [t for _, t in out]
