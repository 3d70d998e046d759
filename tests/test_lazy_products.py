"""Lazy products (rulespec.engine.codegen.lazy): a decision over a source's subsets, times
short lists, under a filter, kept unwritten. Against the same table compiled without them
(every alternative's own enumerator), the events, their order and count, each event told
alone, each applied by index, by an equal copy or through the written map, and the entries
of the map are the same: on small specs of each shape (numbers whose texts begin others',
1 and 12; fields named in another order than the generators; repeated values) and on the
shipped Abracadabra's decisions."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

import rulespec.engine.codegen.lazy as lazy_mod
from rulespec import Game, RuleRuntimeError, check_text
from rulespec.engine.events import subset_sets
from rulespec.engine.machine import LazyProduct, LegalMap
from rulespec.engine.state import State, canonical_key
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve
from rulespec.simulate import sample_event
from tests.test_engine import HEAD

_SPEC = """
var got_n: int = -1
var got_x: SCALAR = ZERO
deal {
  fill stock with pack(1)
  deal 5 from stock to hand of seats
  choose 0 {
    pick(FIELDS) for ts in subsets(SOURCE, LO, HI)LIST GUARD "Pick." {
      set got_n = 1000 * size(ts) + SUM
      SETX
    }
  }
  choose 1 {
    done() "Done." { }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""


def _spec(source: str, lo: int, hi: int, values: list[object] | None, set_name: str,
          x_name: str, guard: str, cards: bool = False, fixed: str = "") -> str:
    """The text of a spec whose seat 0 picks from ``subsets(source, lo, hi)`` (times
    ``values``, where given), the set as the field ``set_name`` and the value as
    ``x_name`` (and a field ``fixed``, ``NAME = VALUE``, where given); the body keeps what
    the variables were bound to."""
    fields = [f"{set_name} = set_of(ts)"] + ([fixed] if fixed else [])
    text = _SPEC
    if values is not None:
        fields.append(f"{x_name} = x")
        lit = "[" + ", ".join("true" if v is True else "false" if v is False else str(v)
                              for v in values) + "]"
        text = text.replace("LIST", f" for x in {lit}").replace("SETX", "set got_x = x")
        scalar = "bool" if values and isinstance(values[0], bool) else "int"
    else:
        text = text.replace("LIST", "").replace("SETX", "")
        scalar = "int"
    total = "size(ts)" if cards else "sum([10 * t for t in ts]) + (if size(ts) > 0 " \
        "then first(ts) else 0)"  # the subset's order shows in first(ts)
    return (text.replace("FIELDS", ", ".join(fields)).replace("SOURCE", source)
            .replace("LO", str(lo)).replace("HI", str(hi)).replace("GUARD", guard)
            .replace("SUM", total).replace("SCALAR", scalar)
            .replace("ZERO", "false" if scalar == "bool" else "0"))


def _games(text: str, options: dict[str, object] | None = None) -> tuple[Game, Game]:
    """The table compiled as it is, and without lazy products."""
    spec = check_text(HEAD + text, "t.rules")
    lazy = Game(spec, 2, options or {})
    keep = lazy_mod.lazy_enumerator
    lazy_mod.lazy_enumerator = lambda *a: None  # type: ignore[assignment]
    try:
        eager = Game(spec, 2, options or {})
    finally:
        lazy_mod.lazy_enumerator = keep
    return lazy, eager


def _same_state(a: State, b: State) -> None:
    assert (a.v, a.z, a.to_move) == (b.v, b.z, b.to_move)
    assert [f.L for f in a.stack] == [f.L for f in b.stack]


def _agree(make_lazy: Callable[[], State], make_eager: Callable[[], State],
           rng: random.Random, every: bool = False) -> bool:
    """The two states (made fresh by the two functions) agree at their decision through
    every door; whether the lazy one kept a lazy product."""
    mk_l, mk_e = make_lazy, make_eager
    a, b = mk_l(), mk_e()
    kept = isinstance(getattr(a._legal_now(), "lazy", None), LazyProduct)
    assert not isinstance(getattr(b._legal_now(), "lazy", None), LazyProduct)
    n = a.legal_count()
    assert n == b.legal_count()
    events = b.legal_actions()
    ks = range(n) if every or n <= 40 else sorted({0, n - 1, *rng.sample(range(n), 20)})
    for k in ks:
        told = a.legal_event(k)
        assert told == events[k] and list(told) == list(events[k])  # the fields' order too
    ahead = a.clone()  # shares the map, unwritten; the original moves on
    a.apply_index(n - 1)
    assert ahead.legal_actions() == events
    a = mk_l()
    assert a.legal_actions() == events
    keys = [canonical_key(e) for e in events]
    assert keys == sorted(keys) and len(set(keys)) == n
    for k in list(ks)[:12]:
        for door in range(3):
            a, b = mk_l(), mk_e()
            if door == 0:
                a.apply_index(k)
            elif door == 1:
                a.apply({**events[k]})
            else:
                a.legal_map()
                a.apply(events[k])
            b.apply_index(k)
            _same_state(a, b)
    a, b = mk_l(), mk_e()
    written, ref = a.legal_map(), b.legal_map()
    assert sorted(written) == sorted(ref) == keys  # a map's own order is no promise
    for key in keys:
        (ea, alt_a, va), (eb, alt_b, vb) = written[key], ref[key]
        assert (ea, va) == (eb, vb) and alt_a is not None and alt_b is not None
        assert alt_a.action == alt_b.action
    a = mk_l()
    bad = dict(events[0])
    for f, v in bad.items():
        if isinstance(v, list):  # a value no source holds, in the set
            bad[f] = [*v, "XX" if v and isinstance(v[0], str) else 999]
    with pytest.raises(IllegalActionError):
        a.apply(bad)
    with pytest.raises(IllegalActionError):
        a.apply_index(n)
    _same_state(a, mk_e())
    return kept


def _starts(lazy: Game, eager: Game) -> tuple[State | RuleRuntimeError,
                                               State | RuleRuntimeError]:
    out: list[State | RuleRuntimeError] = []
    for g in (lazy, eager):
        try:
            out.append(g.new_initial_state())
        except RuleRuntimeError as e:
            out.append(e)
    return out[0], out[1]


_NUMS = st.lists(st.sampled_from([0, 1, 2, 3, 10, 12, 21, 100, 123]), max_size=7)
_NAMES = st.sampled_from([("a", "z"), ("z", "a"), ("tricks", "pile"), ("pile", "tricks"),
                          ("expose", "b")])
_VALUES = st.one_of(st.none(), st.lists(st.booleans(), min_size=1, max_size=3),
                    st.lists(st.sampled_from([1, 12, 2, 0, 10, 100]), min_size=1, max_size=4))


def _guard(values: list[object] | None, pick: int) -> str:
    """A filter of the events' variables (none, one, or both of them)."""
    if values is None:
        return ["", "if size(ts) != 1", "if got_n == -1 and size(ts) < 3"][pick]
    if isinstance(values[0], bool):
        return ["", "if size(ts) == 0 or not x", "if x", "if got_n == -1"][pick]
    return ["", "if size(ts) + x != 3", "if x != 12", "if got_n == -1"][pick]


@given(nums=_NUMS, lo=st.integers(-1, 5), more=st.integers(-1, 6), values=_VALUES,
       names=_NAMES, pick=st.integers(0, 3), seed=st.integers(0, 99),
       fixed=st.sampled_from(["", "k = 12", "b1 = false", "u = 1 + 2", 'ab = "x y"']))
def test_lazy_products_list_the_eager_events(nums: list[int], lo: int, more: int,
                                             values: list[object] | None,
                                             names: tuple[str, str], pick: int,
                                             seed: int, fixed: str) -> None:
    """Any numbers (repeated, beginning each other's texts), any bounds, no list or one of
    booleans or numbers, the fields named in either order, a field of a fixed value or none,
    a filter of none, one or both variables, or of the state alone: the same events through
    every door."""
    hi = lo + more
    source = "[" + ", ".join(map(str, nums)) + "]"
    text = _spec(source, lo, hi, values, *names, _guard(values, pick % 3 if values is None
                                                           else pick), fixed=fixed)
    if not nums:
        # an empty list literal has no element type: the numbers come from a comprehension
        text = text.replace("subsets([]", "subsets([v for v in [1] if v > 1]")
    lazy, eager = _games(text)
    a, b = _starts(lazy, eager)
    if isinstance(b, RuleRuntimeError):  # no legal event: the same error
        assert isinstance(a, RuleRuntimeError) and str(a) == str(b)
        event("no legal event")
        return
    kept = _agree(lazy.new_initial_state, eager.new_initial_state, random.Random(seed))
    event("kept lazily" if kept else "listed")


@pytest.mark.parametrize("source,lo,hi,values,names,guard", [
    ("[1, 12, 2, 10, 3, 100, 21]", 2, 5, None, ("tricks", "x"), ""),
    ("[12, 1, 10]", 0, 3, [1, 12, 2], ("a", "z"), ""),
    ("[12, 1, 10]", 0, 3, [1, 12, 2], ("z", "a"), ""),
    ("[1, 2, 3, 4, 5, 6, 7, 8]", 0, 8, [False, True], ("expose", "pile"),
     "if size(ts) == 0 or not x"),
    ("[1, 1, 2, 12]", 1, 3, [0, 1], ("z", "a"), "if x != 0"),
])
def test_each_shape_is_kept_lazily(source: str, lo: int, hi: int, values: list[object] | None,
                                   names: tuple[str, str], guard: str) -> None:
    """A sized range, a product in either order of names, a filter of both variables, a
    filter of the list's alone over repeated numbers: each kept as a lazy product, and the
    same events through every door."""
    lazy, eager = _games(_spec(source, lo, hi, values, *names, guard))
    assert _agree(lazy.new_initial_state, eager.new_initial_state, random.Random(0),
                  every=True)


def test_a_hand_of_cards_times_a_list() -> None:
    """Cards: the set of a hand's subsets, the hand unsorted, times booleans."""
    text = _spec("hand[0]", 1, 3, [True, False], "cards", "open", "if size(ts) < 3 or x",
                 cards=True)
    lazy, eager = _games(text)
    assert _agree(lazy.new_initial_state, eager.new_initial_state, random.Random(1),
                  every=True)


def test_a_filter_that_reads_the_state_is_not_lazy() -> None:
    """Where the filter of the variables reads a variable of the state, the events are
    listed as before (nothing is kept lazily), and are the same."""
    lazy, eager = _games(_spec("[1, 2, 3]", 0, 3, [1, 2], "a", "b", "if x + got_n > 0"))
    assert not _agree(lazy.new_initial_state, eager.new_initial_state, random.Random(2))
    m = lazy.new_initial_state()._legal_now()
    assert type(m) is not LegalMap or m.lazy is None


@pytest.mark.parametrize("options", [{}, {"exposures_combinable": False}])
def test_abracadabra_decisions_agree(options: dict[str, object]) -> None:
    """Abracadabra's placing of bid cards and the declarer's exposing, kept lazily, against
    the same table without: every decision of two random deals, and one decision of each
    kind through every door."""
    spec = resolve("abracadabra").spec
    lazy = game_for(spec, 4, options, 0)
    keep = lazy_mod.lazy_enumerator
    lazy_mod.lazy_enumerator = lambda *a: None  # type: ignore[assignment]
    try:
        eager = game_for(spec, 4, options, 0)
    finally:
        lazy_mod.lazy_enumerator = keep
    seen: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        a, b = lazy.new_initial_state(), eager.new_initial_state()
        while not a.is_terminal() and not a.deals:
            if a.is_chance_node():
                ev = sample_event(b.legal_actions(), rng, b.chance_weights)
                a.apply(ev)
                b.apply(ev)
                continue
            n = a.legal_count()
            assert n == b.legal_count()
            k = rng.randrange(n)
            assert a.legal_event(k) == b.legal_actions()[k]
            if isinstance(getattr(a._legal_now(), "lazy", None), LazyProduct):
                action = a.legal_event(0)["action"]
                if action not in seen and n > 100:
                    seen.add(action)
                    a0, b0 = a.clone(), b.clone()
                    _agree(a0.clone, b0.clone, rng)
            a.apply_index(k)
            b.apply_index(k)
            _same_state(a, b)
        assert a.result() == b.result()
    assert seen == {"place", "declare"}


def test_a_filter_that_raises_raises_as_before() -> None:
    """A filter that raises for some events (the first of an empty subset) raises the rule's
    runtime error, the same with or without lazy products."""
    text = _spec("[1, 2, 3]", 0, 2, [1, 2], "a", "b", "if first(ts) > x")
    lazy, eager = _games(text)
    a, b = _starts(lazy, eager)
    assert isinstance(b, RuleRuntimeError) and isinstance(a, RuleRuntimeError)
    assert str(a) == str(b)
    # from one element up, the same filter keeps some events, lazily
    lazy, eager = _games(_spec("[1, 2, 3]", 1, 2, [1, 2], "a", "b", "if first(ts) > x"))
    assert _agree(lazy.new_initial_state, eager.new_initial_state, random.Random(3),
                  every=True)


@given(xs=st.lists(st.sampled_from([-12, -1, 0, 1, 2, 3, 10, 12, 21, 100, 123]), unique=True,
                   max_size=8),
       lo=st.integers(-1, 6), hi=st.integers(-1, 9))
def test_number_sets_are_subset_sets(xs: list[int], lo: int, hi: int) -> None:
    """The sets of distinct numbers made by doubling are those subset_sets makes one by
    one, with the same texts, in the same order."""
    got = lazy_mod._number_sets(tuple(xs), lo, hi)
    ss = subset_sets(tuple(xs), lo, hi, {}, False)
    assert got is not None or sum(math.comb(len(xs), k) for k in range(
        max(0, lo), min(len(xs), hi) + 1)) * 4 < 1 << len(xs)
    if got is not None:
        assert got == (list(map(list, ss.sets)), list(ss.texts))


_TOGETHER = """
var got: list of int = []
deal {
  choose together p in [0, 1] {
    pick(a = set_of(ts), b = x) for ts in subsets([12, 1, 2, 10], 1, 3) for x in [2, 1, 12]
        if size(ts) != x "Pick." {
      set got = got + ts + [x, p]
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""


def test_a_simultaneous_decision_kept_lazily() -> None:
    """Each seat of a simultaneous decision gets its lazy product: the same events, and the
    same outcome for choices applied by index, by event, in either order of the seats."""
    lazy, eager = _games(_TOGETHER)
    a, b = lazy.new_initial_state(), eager.new_initial_state()
    assert isinstance(getattr(a._legal_now(), "lazy", None), LazyProduct)
    for seat, k in ((1, 7), (0, 30)):
        a.ask(seat)
        b.ask(seat)
        assert a.legal_count() == b.legal_count() and a.legal_event(k) == b.legal_actions()[k]
        if seat:
            a.apply_index(k)
        else:
            a.apply(b.legal_actions()[k])
        b.apply_index(k)
    _same_state(a, b)
    assert a.is_terminal() and a.v["got"] == b.v["got"] and len(a.v["got"]) > 4
