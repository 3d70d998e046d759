"""Lazy products: a decision over a hand's subsets and short lists, counted and indexed
without its events being written.

``declare(expose = set_of(xs), pile = x) for xs in subsets(row, 0, b) for x in [false, true]``
lists 2**14 events at 13 cards, of which a playout applies one. Its events are a product: one
*axis* per generator, each the values of one field (the subsets' sets, or the list's values),
and each event is one value on every axis. :func:`lazy_enumerator` wraps such an
alternative's enumerator in one that returns a :class:`~rulespec.engine.machine.LazyProduct`
(the axes, their texts, and the numbers of the events a filter keeps), which counts, tells
one event, binds one entry and finds one key; a reader that needs the whole map (the list of
events, a record's event not in canonical form) has the alternative's own enumerator write
it, as it always did.

Why the order is the canonical one (H5: the events sorted by their canonical JSON keys). The
key is the fields' texts in the order of their names, between constant texts (the action,
the seat, the punctuation), so two keys first differ inside the text of the first axis, in
that order of names, where the events differ: each axis's value text is followed by a
constant, starting "," or "}" (``c``). Where no text ``t + c`` of an axis is a beginning of
another's, two events that differ there compare as those two texts do, whatever follows. So
each axis is sorted by ``t + c``, that is checked to be free of beginnings (in sorted order
it is enough to compare neighbours: a text that begins another begins every text between
them), and the product is then in key order, the first axis (by name) the most significant
digit. A number, ``1`` before ``12``, is where ``c`` matters: ``1,`` sorts before ``12,`` but
``1}`` after ``12}``. A set's texts are JSON lists, which no other list begins; the sorted
texts of :func:`~rulespec.engine.events.subset_sets` are checked all the same, once per
source.

Wherever the proof does not hold, or the lazy map cannot be built (a source that raises, no
event at all), the alternative's own enumerator runs instead, exactly as before: events,
order, entries, errors.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Sequence
from typing import Any, cast

import attrs

from rulespec.engine.codegen.enumerators import _lazy_subsets, _level_test, _levels, _names_in
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.codegen.pyexec import READS_STATE, pyname
from rulespec.engine.events import (
    NumberSubsetAxis,
    SubsetAxis,
    distinct_texts,
    json_value,
    set_and_json,
    subset_in_order,
    subset_sets,
)
from rulespec.engine.machine import MEMO_MAX, LazyProduct, LegalMap
from rulespec.lang import ast, walk
from rulespec.lang.builtins import TEXT_ORDER, check_size
from rulespec.lang.model import BoundBuiltin
from rulespec.lang.types import Bool, Card, Int, Suit
from rulespec.lang.types import element as element_of

__all__ = ["lazy_enumerator"]

Enum = Callable[..., LegalMap | None]


def _in_order(texts: Sequence[str], c: str = "") -> bool:
    """Whether ``texts``, each followed by ``c``, are strictly ascending and none begins the
    next (see the module's docstring)."""
    return all(a + c < b + c and not (b + c).startswith(a + c)
               for a, b in itertools.pairwise(texts))


def _number_count(xs: tuple[object, ...], lo: int, hi: int) -> int | None:
    """How many sets :func:`_number_sets` makes of ``xs`` (distinct), or None where it
    makes none: for other values than numbers, or where few subsets are kept of the many
    doubling makes (two of thirty numbers)."""
    n = len(xs)
    if not all(type(x) is int for x in xs) or n > 24:
        return None
    check_size(count := sum(math.comb(n, k) for k in range(max(0, lo), min(n, hi) + 1)),
               "the list of subsets")
    return None if count * 4 < 1 << n else count


def _number_sets(xs: tuple[object, ...], lo: int, hi: int
                 ) -> tuple[list[list[object]], list[str]] | None:
    """For distinct numbers (the values of bid cards), what ``subset_sets(xs, lo, hi, cache,
    False)`` gives, a tenth of its time: every set in canonical (ascending) order made by
    doubling, with its JSON text, those of ``lo`` to ``hi`` elements kept, in the order of
    their texts (sorted here). None where :func:`_number_count` says none."""
    if _number_count(xs, lo, hi) is None:
        return None
    sets: list[list[object]] = [[]]
    texts = ["["]
    for x in sorted(cast("list[int]", list(xs))):
        one: list[object] = [x]
        piece = f",{x}"
        sets += [t + one for t in sets]
        texts += [t + piece for t in texts]
        texts[len(texts) // 2] = f"[{x}"  # the set of x alone: no comma
    texts = [t + "]" for t in texts]
    keep = [m for m in range(len(sets)) if lo <= m.bit_count() <= hi]
    keep.sort(key=texts.__getitem__)
    return [sets[m] for m in keep], [texts[m] for m in keep]


def _number_sets_of(xs: tuple[int, ...], lo: int, hi: int) -> tuple[list[list[int]], list[str]]:
    """:func:`_number_sets`, for a :class:`NumberSubsetAxis` that makes them all at once."""
    got = _number_sets(xs, lo, hi)
    assert got is not None, "made only where _number_count counted them"
    return cast("tuple[list[list[int]], list[str]]", got)


def _subsets_source(ec: ExprCompiler, g: ast.Generator,
                    local: frozenset[str]) -> ast.Call | None:
    """The built-in ``subsets(xs, lo, hi)`` call ``g`` runs over, a conditional whose
    condition this table fixes (``if OPTION then subsets(...) else [[]]``) folded as the
    compiler folds it; None for any other source."""
    src = walk.uncited(g.source)
    while isinstance(src, ast.IfExpr):
        ok, val = ec.const(src.cond, local)
        if not ok:
            return None
        src = walk.uncited(src.then if val else src.else_)
    if not (isinstance(src, ast.Call) and src.func == "subsets" and len(src.args) == 3 and
            isinstance(ec.resolution.binding(src.span, "call"), BoundBuiltin) and
            isinstance(element_of(ec.type_of(src.args[0])), (Card, Suit, Int))):
        return None
    return src


@attrs.frozen
class _Shape:
    """What the compiler proved of an alternative (see :func:`lazy_enumerator`): the subsets
    source, the generators' variables, each field's axis (the generator whose variable it
    is, and whether a set) or fixed value, every name of the key in sorted order, the axes'
    names in that order, and each list axis's values and texts in the order of the keys
    (None for the sets' axis, made at each decision)."""

    src: ast.Call
    gen_vars: tuple[str, ...]
    by_field: dict[str, tuple[int, bool]]
    fixed: dict[str, object]
    names: tuple[str, ...]
    axis_names: tuple[str, ...]
    lists: tuple[tuple[tuple[object, ...], tuple[str, ...]] | None, ...]


def _fields(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
            gen_vars: list[str]) -> tuple[dict[str, tuple[int, bool]], dict[str, object]] | None:
    """Each field's axis (its generator, and whether it is the first's ``set_of``), or the
    value this table fixes for it (a number, a boolean, a name); None for any other field,
    or where a variable is in no field or in two."""
    by_field: dict[str, tuple[int, bool]] = {}
    fixed: dict[str, object] = {}
    for f in a.fields:
        bare = walk.uncited(f.value)
        if f.name in ("seat", "action"):
            return None
        if isinstance(bare, ast.Call) and bare.func == "set_of" and len(bare.args) == 1 and \
                isinstance(bare.args[0], ast.Name) and bare.args[0].id == gen_vars[0] and \
                isinstance(ec.resolution.binding(bare.span, "call"), BoundBuiltin):
            by_field[f.name] = (0, True)
        elif isinstance(bare, ast.Name) and bare.id in gen_vars[1:]:
            by_field[f.name] = (gen_vars.index(bare.id), False)
        else:
            ok, val = ec.const(f.value, local, frozenset(gen_vars))
            if not (ok and type(val) in (int, bool, str)):
                return None
            fixed[f.name] = val
    if sorted(gi for gi, _ in by_field.values()) != list(range(len(gen_vars))):
        return None
    return by_field, fixed


def _shape(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str]) -> _Shape | None:
    """The shape of ``a`` where it has the one :func:`lazy_enumerator` takes, else None."""
    if ec.cover is not None or not a.generators or _lazy_subsets(ec, a):
        return None  # coverage counts each event's tests; a hand's subsets have their own
    gen_vars = [g.var for g in a.generators]
    src = _subsets_source(ec, a.generators[0], local)
    if src is None or len(set(gen_vars)) != len(gen_vars):
        return None
    values: list[tuple[object, ...]] = []
    for i, g in enumerate(a.generators[1:], 1):
        ok, val = ec.const(g.source, local, frozenset(gen_vars[:i]))
        if not (ok and isinstance(val, (list, tuple)) and val and
                isinstance(element_of(ec.type_of(g.source)), (Int, Bool, Card, Suit)) and
                all(type(v) in (int, bool, str) for v in val)):
            return None
        values.append(tuple(val))
    got = _fields(ec, a, local, gen_vars)
    if got is None:
        return None
    by_field, fixed = got
    names = sorted([*by_field, *fixed, "seat", "action"])
    axis_names = [n for n in names if n in by_field]
    lists: list[tuple[tuple[object, ...], tuple[str, ...]] | None] = []
    for n in axis_names:
        gi, is_set = by_field[n]
        c = "}" if n == names[-1] else ","  # what follows the axis's text in a key
        if is_set:
            lists.append(None)
            continue
        first: dict[str, object] = {}
        for v in values[gi - 1]:
            first.setdefault(json_value(v), v)  # a value met again is the same event
        texts = sorted(first, key=lambda t: t + c)
        if not _in_order(texts, c):
            return None
        lists.append((tuple(first[t] for t in texts), tuple(texts)))
    return _Shape(src, tuple(gen_vars), by_field, fixed, tuple(names), tuple(axis_names),
                  tuple(lists))


def lazy_enumerator(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
                    eager: Enum) -> Enum | None:
    """An enumerator for ``a`` that returns a lazy product where it can and calls ``eager``
    (the alternative's own) where it cannot; None where ``a`` has not the shape (see the
    module's docstring): the first generator over a built-in ``subsets``, the others over
    non-empty constant lists of numbers, booleans, cards or suits, each variable exactly one
    field (the first as ``set_of(var)``, the others as themselves), the other fields fixed
    by the table, and a guard whose conjuncts that read the variables read nothing of the
    state."""
    shape = _shape(ec, a, local)
    if shape is None:
        return None
    test0, accept, ok, reads_subset = _guard(ec, a, local, shape)
    if not ok:
        return None
    return _LazyEnumerator(ec, a, local, eager, shape, test0, accept, reads_subset)


#: the sets of a source and their texts, and the numbers of the events the filter keeps
_Made = tuple[Sequence[list[object]], Sequence[str], Sequence[int] | None]


class _LazyEnumerator:
    """The enumerator :func:`lazy_enumerator` gives: a lazy product at each decision where
    it can be built, else the alternative's own enumerator's events."""

    def __init__(self, ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
                 eager: Enum, shape: _Shape, test0: list[Callable[..., Any]],
                 accept: Callable[..., Sequence[int]] | None, reads_subset: bool) -> None:
        self.eager, self.shape, self.action = eager, shape, a.action
        self.test0, self.accept, self.reads_subset = test0, accept, reads_subset
        self.args = [ec.expr(x, local) for x in shape.src.args]
        rt = ec.deck_runtime
        self.sets_of = cast("Callable[..., Any]", rt.get("_subset_sets", subset_sets))
        self.in_order = cast("Callable[..., Any]", rt.get("_subset_in_order", subset_in_order))
        self.setjv = cast("Callable[..., Any]", rt.get("_setjv", set_and_json))
        #: the texts' order of the spec's cards and suits (a declared deck's own)
        self.order = TEXT_ORDER if ec.spec.deck.french else ec.spec.deck.text_order
        axis_names, by_field = shape.axis_names, shape.by_field
        self.names = tuple((f.name, axis_names.index(f.name), by_field[f.name][1], None)
                           if f.name in by_field else (f.name, -1, False, shape.fixed[f.name])
                           for f in a.fields)
        self.gens = tuple(axis_names.index(next(n for n in axis_names if by_field[n][0] == g))
                          for g in range(len(shape.gen_vars)))
        self.chunk_cache: dict[int, tuple[str, ...]] = {}
        # by (xs, lo, hi): what _made gives, a function of them alone (the filter reads no
        # state), and the same bid cards come back
        self.memo: dict[tuple[object, ...], _Made] = {}
        self.held = 0
        self.cache: dict[tuple[object, ...], tuple[tuple[object, ...], str]] = {}

    def __call__(self, st: Any, L: dict[str, object], out: dict[str, object], seat: int,
                 alt: Any) -> LegalMap | None:
        if not out:
            left, work = st.left, st.work
            try:
                m = self.build(st, L, seat, alt, (left, work))
            except Exception:  # noqa: BLE001 - the eager enumerator raises as the rule says
                m = None
            if m is not None:
                return m
            st.left, st.work = left, work
        return self.eager(st, L, out, seat, alt)

    def chunks(self, seat: int) -> tuple[str, ...]:
        """The key's constant texts at ``seat``: before the first axis, between two, after
        the last."""
        got = self.chunk_cache.get(seat)
        if got is None:
            out, cur, fixed = [], "{", self.shape.fixed
            for n in self.shape.names:
                cur += ("" if cur == "{" else ",") + f'"{n}":'
                if n in self.shape.by_field:
                    out.append(cur)
                    cur = ""
                    continue
                cur += f'"{self.action}"' if n == "action" else str(seat) if n == "seat" \
                    else json_value(fixed[n])
            got = self.chunk_cache[seat] = (*out, cur + "}")
        return got

    def remember(self, mk: tuple[object, ...], hit: _Made) -> _Made:
        """``hit`` kept for ``mk``; all forgotten past MEMO_MAX sets."""
        self.held += len(hit[0])
        if self.held > MEMO_MAX:
            self.memo.clear()
            self.held = len(hit[0])
        self.memo[mk] = hit
        return hit

    def build(self, st: Any, L: dict[str, object], seat: int, alt: Any,
              budget: tuple[int, int]) -> LegalMap | None:
        """The lazy product at this decision, or None where there is none to build."""
        for t in self.test0:
            if not t(st, L):
                return None
        xs, lo, hi = tuple(self.args[0](st, L)), self.args[1](st, L), self.args[2](st, L)
        distinct = len(set(xs)) == len(xs)
        subset_of = _subset_of(xs) if distinct else \
            functools.partial(self.in_order, xs, lo, hi)
        mk = (xs, lo, hi)
        hit = self.memo.get(mk)
        if hit is None and self.accept is None and distinct_texts(xs, self.order):
            # a hand's subsets, unwritten: each set worked out when an event is asked for
            axis = SubsetAxis(xs, lo, hi, self.order)
            if not axis:
                return None
            hit = (axis, axis.texts, None)
        lists = self.shape.lists
        count = _number_count(xs, lo, hi) if hit is None and self.accept is None and \
            distinct else None
        axes: tuple[tuple[Sequence[object], Sequence[str]], ...] | Callable[
            [], tuple[tuple[Sequence[object], Sequence[str]], ...]]
        if count is not None:
            # counted without being made: a driver that lists the events has the
            # alternative's own enumerator write them, and never needs the sets
            if not count:
                return None
            axes = functools.partial(self.numbers_made, mk)
            radix = tuple(count if al is None else len(al[0]) for al in lists)
            kept = None
        else:
            hit = hit or self.made(st, L, xs, lo, hi, distinct, subset_of)
            if hit is None:
                return None
            sets, texts, kept = hit
            axes = tuple((sets, texts) if al is None else al for al in lists)
            radix = tuple(len(v) for v, _ in axes)
        m = LegalMap()
        m.lazy = LazyProduct(alt, seat, self.action, self.names, axes, radix,
                             self.chunks(seat), self.gens, subset_of, kept, self.eager, budget)
        return m

    def numbers_made(self, mk: tuple[object, ...]
                     ) -> tuple[tuple[Sequence[object], Sequence[str]], ...]:
        """The axes of distinct numbers' sets, made when first read."""
        got = self.memo.get(mk)
        if got is None:
            # unwritten: a playout applies one of a declarer's 8,192 sets (issue 29)
            xs, lo, hi = cast("tuple[tuple[int, ...], int, int]", mk)
            axis = NumberSubsetAxis(xs, lo, hi, functools.partial(_number_sets_of, xs, lo, hi))
            got = self.remember(mk, (cast("Sequence[list[object]]", axis), axis.texts, None))
        return tuple((got[0], got[1]) if al is None else al for al in self.shape.lists)

    def made(self, st: Any, L: dict[str, object], xs: tuple[object, ...], lo: int, hi: int,
             distinct: bool, subset_of: Callable[[list[object]], object]) -> _Made | None:
        """The sets of ``subsets(xs, lo, hi)`` in the order of their texts, and the numbers
        of the events the filter keeps (remembered); None where none is kept, or where the
        order is not proved."""
        got: tuple[Sequence[list[object]], Sequence[str]] | None = \
            _number_sets(xs, lo, hi) if distinct else None
        if got is None:
            ss = self.sets_of(xs, lo, hi, self.cache, False)
            got = ss.sets, ss.texts
            if not _in_order(ss.texts):
                return None
        sets, texts = got
        if not sets:
            return None
        kept: Sequence[int] | None = None
        if self.accept is not None:
            # the filter reads the subsets themselves: each the one with its set's elements
            # (the set itself where xs is its own set); where xs repeats a value, the first
            # subset the filter keeps stands, which is the eager's to say
            first: Sequence[object] = sets
            if self.reads_subset:
                if tuple(self.setjv(xs, {})[0]) == xs:
                    first = [tuple(s) for s in sets]
                elif distinct:
                    first = [subset_of(s) for s in sets]
                else:
                    return None
            kept = self.accept(st, L, *(first if al is None else al[0]
                                        for al in self.shape.lists))
            if not kept:
                return None
        return self.remember((xs, lo, hi), (sets, texts, kept))


def _subset_of(xs: tuple[object, ...]) -> Callable[[list[object]], object]:
    """The subset of distinct values ``xs`` (of one type) whose set is given: its elements
    in the order of ``xs``."""
    def subset_of(s: list[object]) -> object:
        picked = set(s)
        return tuple(x for x in xs if x in picked)
    return subset_of


def _guard(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str], shape: _Shape
           ) -> tuple[list[Callable[..., Any]], Callable[..., Sequence[int]] | None, bool,
                      bool]:
    """The guard of ``a``: the tests of its conjuncts that read no generator's variable
    (each ``(st, L) -> value``), and the filter of the others, a generated function of the
    axes' values (in the order of the axes) that gives the numbers of the events it keeps;
    None for no filter; whether there can be one (not where it reads the state, or spends
    its budget); and whether the filter reads the subsets' variable."""
    gen_vars = list(shape.gen_vars)
    levels = _levels(a)
    test0 = [ec.expr(conj, local) for conj in levels[0]]
    # the conjuncts in the order the alternative's own loops test them (by the innermost
    # generator each reads), so that the filter tests each on the values that one tests
    # it on (more than once, no other): where it raises, the two raise alike
    rest = [conj for level in levels[1:] for conj in level]
    if not rest:
        return test0, None, True, False
    ec.hoisting(False, fresh=True)
    test = _level_test(ec, rest, local, frozenset(gen_vars))
    if not test:
        return test0, None, True, False
    if READS_STATE.search(test) or re.search(r"\bst\b", test):
        return test0, None, False, False
    loop_vars = [pyname(gen_vars[shape.by_field[n][0]]) for n in shape.axis_names]
    args = ", ".join(f"_A{j}" for j in range(len(loop_vars)))
    lines = [f"def _accept(st, L, {args}):", "    _ok = []", "    _i = 0"]
    ind = "    "
    for j, v in enumerate(loop_vars):
        lines.append(f"{ind}for {v} in _A{j}:")
        ind += "    "
    lines += [f"{ind}if {test}:", f"{ind}    _ok.append(_i)", f"{ind}_i += 1", "    return _ok"]
    fn = ec.build("_accept", "\n".join(lines) + "\n", a.span, {},
                  what=f"the filter of the legal events of the alternative {a.action}")
    return test0, fn, True, any(gen_vars[0] in _names_in(c) for c in rest)
