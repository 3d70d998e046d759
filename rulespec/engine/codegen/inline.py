"""Definitions expanded in place, and definitions of one card or suit made tables.

A call of a definition is compiled as its body, with the parameters replaced by the argument
expressions (a compound argument used more than once bound once, by ``:=``), so that folding
sees through it; a definition too large once its own calls are expanded
(:data:`INLINE_MAX_NODES`) is compiled once and called. The values the expression compiler
works with while compiling (:class:`Known`, Python source text, :class:`Raw`,
:class:`GlobalName`) are defined here too, below it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import attrs

from rulespec.engine.codegen.pyexec import READS_STATE, exec_source, pyname
from rulespec.lang import ast, walk
from rulespec.lang.cards import CARD_ORDER, SUITS
from rulespec.lang.decks import Deck
from rulespec.lang.model import BoundDef, CheckedSpec

__all__ = ["INLINE_MAX_NODES", "Gen", "GlobalName", "Inliner", "Known", "Raw", "expanded_sizes",
           "inlining_default", "is_atom"]


@attrs.frozen
class GlobalName:
    """A name in an inlined definition's body: it means what it means where the definition is
    written (a variable, option, zone, built-in), never a local of the call site. It keeps the
    span of the name it replaces, so the checker's binding of that name is found by it."""

    id: str
    span: ast.Span = attrs.field(default=ast.NOSPAN, eq=False)


@attrs.frozen
class Raw:
    """Python source standing for an argument in an inlined body (a temporary's name)."""

    src: str
    span: ast.Span = attrs.field(default=ast.NOSPAN, eq=False)


@attrs.frozen
class Known:
    """A value known while compiling."""

    value: Any


Gen = Known | str  # a constant, or Python source text


def inlining_default() -> bool:
    """Whether calls of definitions are expanded in place (``RULESPEC_NO_INLINE=1`` turns it
    off, so that a runtime error points at the definition it happens in, not the whole
    expression that inlined it)."""
    return os.environ.get("RULESPEC_NO_INLINE", "") in ("", "0")


#: the most AST nodes a definition may expand to, its calls expanded, for its calls to be
#: expanded in place: past it (a chain of definitions each calling the one before twice
#: doubles at each step), it is compiled once and called
INLINE_MAX_NODES = 5_000


#: the sizes of the last specs' definitions (a spec's are a tuple), kept with that tuple so
#: that its id is not reused meanwhile: every table of a spec asks, three times (the
#: compilers of its hands, of its requires and of its rules), and the answer is the same
_SIZES: dict[int, tuple[Sequence[ast.DefDecl], dict[str, int]]] = {}


def expanded_sizes(defs: Sequence[ast.DefDecl]) -> dict[str, int]:
    """Each definition's size once its calls are expanded, at most INLINE_MAX_NODES + 1: the
    body's own nodes plus, for each call, the callee's size (a callee past the limit counts
    as one node: it is called, not expanded), worked out callees first without recursion
    (the checker refuses cycles). The dict is shared: read it, never change it."""
    kept = _SIZES.get(id(defs))
    if kept is not None and kept[0] is defs:
        return kept[1]
    size = _expanded_sizes(defs)
    if isinstance(defs, tuple):
        if len(_SIZES) >= 64:
            _SIZES.clear()
        _SIZES[id(defs)] = (defs, size)
    return size


def _expanded_sizes(defs: Sequence[ast.DefDecl]) -> dict[str, int]:
    by_name = {d.name: d for d in defs}
    calls = {d.name: [c.func for c in walk.descendants(d.body)
                      if isinstance(c, ast.Call) and c.func in by_name] for d in defs}
    own = {d.name: sum(1 for _ in walk.descendants(d.body)) for d in defs}
    size: dict[str, int] = {}
    for root in by_name:
        stack, on = [root], {root}
        while stack:
            f = stack[-1]
            todo = [g for g in calls[f] if g not in size and g not in on]
            if todo:
                stack.extend(todo)
                on.update(todo)
                continue
            stack.pop()
            on.discard(f)
            if f not in size:
                big = sum(1 if size.get(g, 0) > INLINE_MAX_NODES else size.get(g, 1)
                          for g in calls[f])
                size[f] = min(own[f] + big, INLINE_MAX_NODES + 1)
    return size


#: a temporary computed before an enumerator's loops (see ExprCompiler.hoisting)
_NAME = re.compile(r"^_h\d+$")
#: a Python name bound inside an enumerator's loops (see ExprCompiler.hoisting): a
#: generator's or comprehension's ``v_*``, an inlined parameter's ``t*_*``
_BOUND_INSIDE = re.compile(r"\b(?:v|t\d+)_\w+")


class Inliner:
    """Calls of definitions expanded in place, and a definition of one card or suit made a
    table of its values: the part of :class:`~rulespec.engine.codegen.exprs.ExprCompiler`
    that works on definitions (a mixin: it compiles the expanded bodies with the compiler's
    own :meth:`_g`)."""

    spec: CheckedSpec
    cover: set[str] | None
    inline: bool
    globals: dict[str, object]
    sources: list[tuple[str, str]] | None
    defs: Mapping[str, ast.DefDecl]
    _tables: dict[str, str | None]
    _uses: dict[str, dict[str, int]]
    _inlining: list[str]
    _hoisting: bool
    _fixed: frozenset[str]
    _in_iterable: int
    _tabulating: bool
    _called: frozenset[str]

    def _g(self, e: ast.Expr, local: frozenset[str], py: frozenset[str]) -> Gen:
        raise NotImplementedError

    def _src(self, g: Gen) -> str:
        raise NotImplementedError

    def fresh(self, base: str) -> str:
        raise NotImplementedError

    def hoistable(self, g: Gen) -> bool:
        """Whether ``g`` is source no loop of the enumerator being compiled changes, while
        hoisting is on (see ExprCompiler.hoisting): it names no variable bound inside them
        but the ones hoisting was told are fixed (the kernel's procedure locals)."""
        if not self._hoisting or type(g) is not str or "_NP(" in g:
            return False
        fixed = self._fixed
        return not any(m.group(0) not in fixed for m in _BOUND_INSIDE.finditer(g))

    def invariant(self, src: str) -> str:
        raise NotImplementedError

    # A call of a definition is expanded in place: parameters become the argument expressions,
    # or, for a compound argument used more than once, a lambda parameter evaluated once.
    def _inline(self, d: ast.DefDecl, args: tuple[ast.Expr, ...], local: frozenset[str],
                py: frozenset[str]) -> Gen:
        table = self._table(d)
        if table is None:
            return self._expand(d, args, local, py)
        # expanded all the same, with nothing hoisted, for what compiling it records (the
        # clauses compiled, temporaries numbered): only the text is replaced by the lookup
        hoisting, self._hoisting = self._hoisting, False
        try:
            g = self._expand(d, args, local, py)
        finally:
            self._hoisting = hoisting
        if isinstance(g, Known):
            return g
        return f"{table}[{self._src(self._g(args[0], local, py))}]"

    def body_of_call(self, e: ast.Call) -> ast.Expr | None:
        """The body of the definition ``e`` calls, the arguments in place of its parameters
        (the body's other names marked global, its bound variables renamed), where this
        compiler expands calls of it in place; None for a built-in and for a definition it
        calls instead (too large, or inlining off). For a caller that looks into a guard (the
        kernel's listing), not for compiling: the body compiles as the call would."""
        b = self.spec.resolution.binding(e.span, "call")
        if not isinstance(b, BoundDef) or not self.inline or b.name in self._called:
            return None
        d = self.defs[b.name]
        return cast(ast.Expr, self._substitute(
            d.body, {p.name: x for p, x in zip(d.params, e.args, strict=True)}))

    def _table(self, d: ast.DefDecl) -> str | None:
        """The global name of the table of ``d``'s values, or None where it has none.

        A definition of one card or suit that reads no state (``ordinary(c)``, ``points(c)``,
        once the options are folded) is a function of 53 or 4 values: each is computed once
        for the table, and a call is one dictionary lookup instead of the expanded body (a
        shedding game's guards test ``ordinary(c)`` for every group of cards). A value
        outside the domain (``none`` for a ``card?``) misses and is computed by the body
        itself (:class:`_Table`), raising what the expanded body raises, where it raises; a
        body that fails for some value of the domain gets no table. Not with coverage (a
        table would hide which arms each call takes) nor with inlining off."""
        if d.name in self._tables:
            return self._tables[d.name]
        self._tables[d.name] = None  # also while its body is compiled (recursion)
        domain = _domain(d, self.spec.deck) if self.cover is None and self.inline else None
        if domain is None:
            return None
        p = d.params[0].name
        hoisting, in_iterable = self._hoisting, self._in_iterable
        self._hoisting, self._in_iterable, self._tabulating = False, 0, True
        self._inlining.append(d.name)
        try:
            body = self._src(self._g(d.body, frozenset(), frozenset({p})))
        finally:
            self._inlining.pop()
            self._hoisting, self._in_iterable = hoisting, in_iterable
            self._tabulating = False
        if READS_STATE.search(body) or (body.count("[") < 2 and "_tab_" not in body):
            # reads the state, or is already about as cheap as a lookup (``rank(c) == 8``)
            return None
        fn = exec_source(f"def _tab({pyname(p)}):\n    return {body}\n", "_tab",
                         dict(self.globals), d.span, f"def {d.name}, tabulated", self.sources)
        table = _Table(fn)
        try:
            for x in domain:
                table[x] = fn(x)
        except Exception:
            return None
        name = self._tables[d.name] = f"_tab_{d.name}"
        self.globals[name] = table
        return name

    def _expand(self, d: ast.DefDecl, args: tuple[ast.Expr, ...], local: frozenset[str],
                py: frozenset[str]) -> Gen:
        mapping: dict[str, ast.Expr] = {}
        lets: list[tuple[str, ast.Expr]] = []
        uses = self._uses.get(d.name)
        if uses is None:  # a definition's body is the same at every call: counted once
            uses = self._uses[d.name] = _count_names(d.body)
        for prm, a in zip(d.params, args, strict=True):
            ga = self._g(a, local, py)
            if isinstance(ga, Known) or _simple(a) or uses.get(prm.name, 0) <= 1:
                mapping[prm.name] = a
            elif _NAME.match(ga):
                # already one Python name (a temporary computed before the loops)
                mapping[prm.name] = Raw(ga)  # type: ignore[assignment]
            elif self.hoistable(ga):
                # the same for each value the loops go through (``hand[h]`` in a guard on
                # each card of it): a temporary before them, so that what the body reads
                # of it is hoisted too (``may_play(hand[h], c)``'s "holds the suit led")
                mapping[prm.name] = Raw(self.invariant(cast(str, ga)))  # type: ignore[assignment]
            else:
                fresh = self.fresh(prm.name)
                lets.append((fresh, a))
                mapping[prm.name] = ast.Name(fresh, span=a.span)
        body = self._substitute(d.body, mapping)
        self._inlining.append(d.name)
        try:
            inner = py | {n for n, _ in lets}
            g = self._g(body, local, inner)
            if not lets or isinstance(g, Known):
                return g
            vals = [self._src(self._g(a, local, py)) for _, a in lets]
            if self._in_iterable:
                # Python allows no ``:=`` in a comprehension's iterable, even in a lambda
                # there: bind the parameters as a lambda's
                names = ", ".join(pyname(n) for n, _ in lets)
                return f"(lambda {names}: {g})({', '.join(vals)})"
            # each parameter bound once by ``:=`` before the body: no function is made and
            # called, as a lambda would be, at each evaluation; ``(x or True) and body`` is
            # the body's value whatever x is (a number, a card, a list: never a side effect),
            # without the tuple that ``(x, body)[-1]`` builds and indexes
            binds = "".join(f"(({pyname(n)} := {v}) or True) and "
                            for (n, _), v in zip(lets, vals, strict=True))
            return f"({binds}{g})"
        finally:
            self._inlining.pop()

    def _substitute(self, e: Any, mapping: dict[str, ast.Expr]) -> Any:
        """``e`` with parameter names replaced, bound variables renamed to avoid capture, and
        every other name marked global (lexical scope: a definition never sees the locals of
        the place it is called from)."""
        if isinstance(e, ast.Name):
            return mapping.get(e.id) or GlobalName(e.id, span=e.span)
        if isinstance(e, (ast.Comprehension, ast.GenCall)):
            fresh = self.fresh(e.var)
            inner = dict(mapping)
            inner[e.var] = ast.Name(fresh, span=e.span)
            return attrs.evolve(
                e, var=fresh, source=self._substitute(e.source, mapping),
                elem=self._substitute(e.elem, inner),
                cond=self._substitute(e.cond, inner) if e.cond is not None else None)
        names = walk.child_fields(type(e))
        if names is not None:
            changes = {}
            for name in names:
                v = getattr(e, name)
                if isinstance(v, tuple) or walk.child_fields(type(v)) is not None:
                    changes[name] = self._substitute(v, mapping)
            return attrs.evolve(e, **changes) if changes else e
        if isinstance(e, tuple):
            return tuple(self._substitute(x, mapping) for x in e)
        return e


class _Table(dict):  # type: ignore[type-arg]
    """A tabulated definition's values by argument (see Inliner._table); a value not in
    it is computed by the definition's body, uncaught, so the expression it is inlined into
    reports any error as the expanded body would."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[object], object]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: object) -> object:
        return self.fn(key)


def _domain(d: ast.DefDecl, deck: Deck) -> tuple[str, ...] | None:
    """Every value of a definition's only parameter, where it is a card or a suit."""
    if len(d.params) != 1:
        return None
    t = d.params[0].type
    if isinstance(t, ast.TypeOptional):
        t = t.inner
    if isinstance(t, ast.TypeName) and t.name == "card":
        return tuple(CARD_ORDER) if deck.french else deck.cards
    if isinstance(t, ast.TypeName) and t.name == "suit":
        return SUITS if deck.french else deck.suit_codes
    return None


def is_atom(e: ast.Expr) -> bool:
    """A name or a literal: evaluating it cannot fail, and costs nothing."""
    return isinstance(walk.uncited(e), (ast.Name, ast.IntLit, ast.StrLit, ast.CardLit))


def _simple(e: ast.Expr) -> bool:
    """Cheap to evaluate more than once: a name, a literal, an index of a name, or a list of
    names and literals (``[c]``: written out where it is used, ``size([c])`` and
    ``first([c])`` fold to ``1`` and ``c``)."""
    e = walk.uncited(e)
    if is_atom(e):
        return True
    if isinstance(e, ast.ListLit):
        return all(map(is_atom, e.items))
    return isinstance(e, ast.Index) and _simple(e.target) and _simple(e.index)


def _count_names(e: object) -> dict[str, int]:
    acc: dict[str, int] = {}
    for x in walk.descendants(e):
        if isinstance(x, ast.Name):
            acc[x.id] = acc.get(x.id, 0) + 1
    return acc
