"""Expressions compiled to Python closures.

Each expression becomes ``fn(st, L)`` where ``st`` is the running state (its ``v`` variables and
``z`` zones) and ``L`` the local bindings. Options, the player count and the built-in constants
are known when a :class:`~rulespec.interpreter.engine.Game` is built, so they are folded into
constants here and branches on them disappear: a spec pays nothing at run time for the house
rules it does not use.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from rulespec import ast
from rulespec.cards import RANK_OF, SUIT_OF, card_sort_key
from rulespec.cards import pack as make_pack
from rulespec.errors import RuleRuntimeError
from rulespec.model import BUILTIN_VALUES, BUILTIN_VARS, CheckedSpec

__all__ = ["ExprCompiler", "Fn", "groups"]

Fn = Callable[[Any, dict[str, Any]], Any]


class _Const:
    """Marks a compiled expression whose value is known at compile time."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def groups(cards: Sequence[str]) -> list[tuple[str, ...]]:
    """Every ordered sequence of one or more cards of one rank from ``cards``, each once.

    Identical duplicates (two packs) give identical sequences, which appear once (V10).
    """
    by_rank: dict[int, list[str]] = {}
    for c in cards:
        by_rank.setdefault(RANK_OF[c], []).append(c)
    out: list[tuple[str, ...]] = []
    for same in by_rank.values():
        if len(same) == 1:
            out.append((same[0],))
            continue
        seen: set[tuple[str, ...]] = set()
        for k in range(1, len(same) + 1):
            for perm in itertools.permutations(same, k):
                if perm not in seen:
                    seen.add(perm)
                    out.append(perm)
    return out


def _runtime(span: ast.Span, msg: str, hint: str | None = None) -> RuleRuntimeError:
    return RuleRuntimeError(msg, span, hint)


class ExprCompiler:
    """Compiles the expressions of one spec for one table (player count and options)."""

    def __init__(self, spec: CheckedSpec, players: int, options: dict[str, Any]) -> None:
        self.spec = spec
        self.players = players
        self.options = options
        self.seats = tuple(range(players))
        self.vars = {v.name: v for v in spec.vars}
        self.zones = {z.name: z for z in spec.zones}
        self.defs = {d.name: d for d in spec.defs}
        self.def_fns: dict[str, Callable[..., Any]] = {}
        self._inlining: list[str] = []
        self._fresh = 0
        self.enum_values = {v for o in spec.options if o.kind == "enum" for v in o.values
                            if isinstance(v, str)}
        for d in spec.defs:
            self._compile_def(d)

    # ---- definitions --------------------------------------------------------------------
    def _compile_def(self, d: ast.DefDecl) -> None:
        params = tuple(p.name for p in d.params)
        holder: list[Fn] = []

        # Compiled lazily so definitions may refer to each other in any order.
        def body(st: Any, L: dict[str, Any]) -> Any:
            if not holder:
                holder.append(self.expr(d.body, frozenset(params)))
            return holder[0](st, L)

        if len(params) == 0:
            def f0(st: Any) -> Any:
                return body(st, {})
            self.def_fns[d.name] = f0
        elif len(params) == 1:
            (p0,) = params

            def f1(st: Any, a: Any) -> Any:
                return body(st, {p0: a})
            self.def_fns[d.name] = f1
        else:
            def fn(st: Any, *args: Any) -> Any:
                return body(st, dict(zip(params, args, strict=True)))
            self.def_fns[d.name] = fn

    # ---- expressions ----------------------------------------------------------------------
    def expr(self, e: ast.Expr, local: frozenset[str]) -> Fn:
        """Compile ``e`` with ``local`` naming the bound local variables."""
        c = self._c(e, local)
        if isinstance(c, _Const):
            v = c.value
            return lambda st, L: v
        return c

    def const(self, e: ast.Expr, local: frozenset[str] = frozenset()) -> tuple[bool, Any]:
        """(True, value) if ``e`` is constant for this table."""
        c = self._c(e, local)
        return (True, c.value) if isinstance(c, _Const) else (False, None)

    def _c(self, e: ast.Expr, local: frozenset[str]) -> Fn | _Const:  # noqa: C901
        match e:
            case ast.IntLit(value=v):
                return _Const(v)
            case ast.StrLit(value=v):
                return _Const(v)
            case ast.Cited(expr=inner):
                return self._c(inner, local)
            case ast.Name(id=n):
                return self._name(n, local)
            case ast.Index(target=tg, index=ix):
                return self._index(e, tg, ix, local)
            case ast.ListLit(items=items):
                parts = [self._c(i, local) for i in items]
                if all(isinstance(p, _Const) for p in parts):
                    return _Const(tuple(p.value for p in parts))  # type: ignore[union-attr]
                fns = [self._fn(p) for p in parts]
                return lambda st, L: tuple(f(st, L) for f in fns)
            case ast.Comprehension(elem=el, var=v, source=src, cond=cond):
                return self._comprehension(el, v, src, cond, local)
            case ast.GenCall(func=f, elem=el, var=v, source=src, cond=cond):
                return self._gencall(e, f, el, v, src, cond, local)
            case ast.Call(func=f, args=args):
                return self._call(e, f, args, local)
            case ast.BinOp(op=op, left=lft, right=rgt):
                return self._binop(op, lft, rgt, local)
            case ast.Compare(op=op, left=lft, right=rgt):
                return self._compare(op, lft, rgt, local)
            case ast.And(left=lft, right=rgt):
                a, b = self._c(lft, local), self._c(rgt, local)
                if isinstance(a, _Const):
                    return b if a.value else _Const(False)
                if isinstance(b, _Const):
                    return a if b.value else _Const(False)
                return lambda st, L: a(st, L) and b(st, L)  # type: ignore[operator]
            case ast.Or(left=lft, right=rgt):
                a, b = self._c(lft, local), self._c(rgt, local)
                if isinstance(a, _Const):
                    return _Const(True) if a.value else b
                if isinstance(b, _Const):
                    return _Const(True) if b.value else a
                return lambda st, L: a(st, L) or b(st, L)  # type: ignore[operator]
            case ast.Not(operand=o):
                a = self._c(o, local)
                if isinstance(a, _Const):
                    return _Const(not a.value)
                return lambda st, L: not a(st, L)  # type: ignore[operator]
            case ast.Neg(operand=o):
                a = self._c(o, local)
                if isinstance(a, _Const):
                    return _Const(-a.value)
                return lambda st, L: -a(st, L)  # type: ignore[operator]
            case ast.IfExpr(cond=cond, then=th, else_=el):
                c = self._c(cond, local)
                if isinstance(c, _Const):
                    return self._c(th if c.value else el, local)
                t, f = self._fn(self._c(th, local)), self._fn(self._c(el, local))
                return lambda st, L: t(st, L) if c(st, L) else f(st, L)  # type: ignore[operator]
        raise AssertionError(f"cannot compile {e!r}")  # pragma: no cover

    # ---- inlining -----------------------------------------------------------------------
    # A call of a definition is expanded in place: parameters become the argument expressions
    # (or, for a compound argument used more than once, a fresh local evaluated once), so the
    # constant folding sees through definitions and no Python call frame is paid per use.
    def _inline(self, d: ast.DefDecl, args: tuple[ast.Expr, ...],
                local: frozenset[str]) -> Fn | _Const:
        mapping: dict[str, ast.Expr] = {}
        lets: list[tuple[str, ast.Expr]] = []
        uses = _count_names(d.body)
        for prm, a in zip(d.params, args, strict=True):
            if _simple(a) or uses.get(prm.name, 0) <= 1:
                mapping[prm.name] = a
            else:
                self._fresh += 1
                fresh = f"{prm.name}#{self._fresh}"
                lets.append((fresh, a))
                mapping[prm.name] = ast.Name(fresh, span=a.span)
        body = self._substitute(d.body, mapping)
        self._inlining.append(d.name)
        try:
            inner = local | {n for n, _ in lets}
            c = self._c(body, inner)
            if not lets:
                return c
            fb = self._fn(c)
            binds = [(n, self._fn(self._c(a, local))) for n, a in lets]
            if len(binds) == 1:
                (n0, f0), = binds

                def let1(st: Any, L: dict[str, Any]) -> Any:
                    L[n0] = f0(st, L)
                    return fb(st, L)
                return let1

            def letn(st: Any, L: dict[str, Any]) -> Any:
                for n, f in binds:
                    L[n] = f(st, L)
                return fb(st, L)
            return letn
        finally:
            self._inlining.pop()

    def _substitute(self, e: Any, mapping: dict[str, ast.Expr]) -> Any:
        """``e`` with parameter names replaced; bound variables renamed to avoid capture."""
        if isinstance(e, ast.Name):
            return mapping.get(e.id, e)
        if isinstance(e, (ast.Comprehension, ast.GenCall)):
            self._fresh += 1
            fresh = f"{e.var}#{self._fresh}"
            inner = dict(mapping)
            inner[e.var] = ast.Name(fresh, span=e.span)
            return attrs.evolve(
                e, var=fresh, source=self._substitute(e.source, mapping),
                elem=self._substitute(e.elem, inner),
                cond=self._substitute(e.cond, inner) if e.cond is not None else None)
        if attrs.has(type(e)) and not isinstance(e, ast.Span):
            changes = {}
            for f in attrs.fields(type(e)):
                if f.name == "span":
                    continue
                v = getattr(e, f.name)
                if attrs.has(type(v)) or isinstance(v, tuple):
                    changes[f.name] = self._substitute(v, mapping)
            return attrs.evolve(e, **changes) if changes else e
        if isinstance(e, tuple):
            return tuple(self._substitute(x, mapping) for x in e)
        return e

    @staticmethod
    def _fn(c: Fn | _Const) -> Fn:
        if isinstance(c, _Const):
            v = c.value
            return lambda st, L: v
        return c

    def _name(self, n: str, local: frozenset[str]) -> Fn | _Const:
        if n in local:
            return lambda st, L: L[n]
        if n in self.vars:
            return lambda st, L: st.v[n]
        if n in self.options:
            v = self.options[n]
            return _Const(v)
        if n == "seats":
            return _Const(self.seats)
        if n == "player_count":
            return _Const(self.players)
        if n == "suits":
            return _Const(("C", "D", "H", "S"))
        if n in ("clubs", "diamonds", "hearts", "spades"):
            return _Const("CDHS"[BUILTIN_VALUES[n]])  # type: ignore[index]
        if n in BUILTIN_VALUES:
            return _Const(BUILTIN_VALUES[n])
        if n in BUILTIN_VARS:
            return lambda st, L: st.v[n]
        if n in self.zones:
            return lambda st, L: st.z[n]
        if n in self.enum_values:
            return _Const(n)
        raise AssertionError(f"unresolved name {n}")  # pragma: no cover

    def _index(self, e: ast.Expr, tg: ast.Expr, ix: ast.Expr, local: frozenset[str]) -> Fn:
        t = self._fn(self._c(tg, local))
        i = self._c(ix, local)
        span = e.span
        if isinstance(tg, ast.Name) and tg.id in self.zones and tg.id not in local:
            name = tg.id
            if isinstance(i, _Const):
                k = i.value
                return lambda st, L: st.z[name][k]
            return lambda st, L: st.z[name][i(st, L)]  # type: ignore[operator]
        if isinstance(tg, ast.Name) and (tg.id in self.vars or tg.id == "totals") \
                and tg.id not in local:
            name = tg.id
            return lambda st, L: st.v[name][i(st, L)]  # type: ignore[operator]
        fi = self._fn(i)

        def index(st: Any, L: dict[str, Any]) -> Any:
            seq, k = t(st, L), fi(st, L)
            try:
                return seq[k]
            except IndexError:
                raise _runtime(span, f"position {k} is outside a list of {len(seq)}") from None
        return index

    def _source(self, src: ast.Expr, local: frozenset[str]) -> Fn:
        return self._fn(self._c(src, local))

    def _comprehension(self, el: ast.Expr, v: str, src: ast.Expr, cond: ast.Expr | None,
                       local: frozenset[str]) -> Fn:
        s = self._source(src, local)
        inner = local | {v}
        f = self._fn(self._c(el, inner))
        if cond is None:
            def comp(st: Any, L: dict[str, Any]) -> tuple[Any, ...]:
                out = []
                L2 = dict(L)
                for x in s(st, L):
                    L2[v] = x
                    out.append(f(st, L2))
                return tuple(out)
            return comp
        c = self._fn(self._c(cond, inner))

        def compf(st: Any, L: dict[str, Any]) -> tuple[Any, ...]:
            out = []
            L2 = dict(L)
            for x in s(st, L):
                L2[v] = x
                if c(st, L2):
                    out.append(f(st, L2))
            return tuple(out)
        return compf

    def _gencall(self, e: ast.Expr, func: str, el: ast.Expr, v: str, src: ast.Expr,
                 cond: ast.Expr | None, local: frozenset[str]) -> Fn:
        items = self._comprehension(el, v, src, cond, local)
        span = e.span
        if func == "any":
            s = self._source(src, local)
            inner = local | {v}
            f = self._fn(self._c(el, inner))
            c = self._fn(self._c(cond, inner)) if cond is not None else None

            def any_(st: Any, L: dict[str, Any]) -> bool:
                L2 = dict(L)
                for x in s(st, L):
                    L2[v] = x
                    if (c is None or c(st, L2)) and f(st, L2):
                        return True
                return False
            return any_
        if func == "all":
            s = self._source(src, local)
            inner = local | {v}
            f = self._fn(self._c(el, inner))
            c = self._fn(self._c(cond, inner)) if cond is not None else None

            def all_(st: Any, L: dict[str, Any]) -> bool:
                L2 = dict(L)
                for x in s(st, L):
                    L2[v] = x
                    if (c is None or c(st, L2)) and not f(st, L2):
                        return False
                return True
            return all_
        return self._aggregate(func, items, span)

    @staticmethod
    def _aggregate(func: str, items: Fn, span: ast.Span) -> Fn:
        if func == "sum":
            return lambda st, L: sum(items(st, L))
        if func == "count":
            return lambda st, L: sum(1 for x in items(st, L) if x)
        if func == "any":
            return lambda st, L: any(items(st, L))
        if func == "all":
            return lambda st, L: all(items(st, L))
        agg = min if func == "min" else max

        def minmax(st: Any, L: dict[str, Any]) -> Any:
            xs = items(st, L)
            if not xs:
                raise _runtime(span, f"{func} of an empty list")
            return agg(xs)
        return minmax

    def _call(self, e: ast.Expr, f: str, args: tuple[ast.Expr, ...],
              local: frozenset[str]) -> Fn | _Const:
        span = e.span
        parts = [self._c(a, local) for a in args]
        fns = [self._fn(p) for p in parts]
        if f in self.defs and f not in self._inlining:
            return self._inline(self.defs[f], args, local)
        if f in self.def_fns:
            df = self.def_fns[f]
            if not fns:
                return lambda st, L: df(st)
            if len(fns) == 1:
                (a0,) = fns
                return lambda st, L: df(st, a0(st, L))
            if len(fns) == 2:
                a0, a1 = fns
                return lambda st, L: df(st, a0(st, L), a1(st, L))
            return lambda st, L: df(st, *(a(st, L) for a in fns))
        all_const = all(isinstance(p, _Const) for p in parts)
        consts = [p.value for p in parts] if all_const else []  # type: ignore[union-attr]
        match f:
            case "rank":
                (a,) = fns
                return lambda st, L: RANK_OF[a(st, L)]
            case "suit":
                (a,) = fns
                return lambda st, L: SUIT_OF[a(st, L)]
            case "size":
                (a,) = fns
                return lambda st, L: len(a(st, L))
            case "top" | "last":
                (a,) = fns
                what = "top card of an empty zone" if f == "top" else "last of an empty list"

                def top(st: Any, L: dict[str, Any]) -> Any:
                    z = a(st, L)
                    if not z:
                        raise _runtime(span, f"there is no {what}")
                    return z[-1]
                return top
            case "bottom" | "first":
                (a,) = fns
                what = "bottom card of an empty zone" if f == "bottom" else "first of an empty list"

                def bottom(st: Any, L: dict[str, Any]) -> Any:
                    z = a(st, L)
                    if not z:
                        raise _runtime(span, f"there is no {what}")
                    return z[0]
                return bottom
            case "left_of":
                (a,) = fns
                n = self.players
                return lambda st, L: (a(st, L) + 1) % n
            case "seats_from":
                (a,) = fns
                n = self.players
                return lambda st, L: tuple((a(st, L) + i) % n for i in range(n))
            case "pack":
                if all_const:
                    return _Const(tuple(make_pack(consts[0])))
                (a,) = fns
                return lambda st, L: tuple(make_pack(a(st, L)))
            case "without_ranks":
                a, b = fns

                def without(st: Any, L: dict[str, Any]) -> tuple[str, ...]:
                    drop = set(b(st, L))
                    return tuple(c for c in a(st, L) if RANK_OF[c] not in drop)
                if all_const:
                    return _Const(without(None, {}))
                return without
            case "groups":
                (a,) = fns
                return lambda st, L: groups(a(st, L))
            case "range":
                a, b = fns
                return lambda st, L: tuple(range(a(st, L), b(st, L) + 1))
            case "set_of":
                (a,) = fns

                def set_of(st: Any, L: dict[str, Any]) -> tuple[Any, ...]:
                    xs = a(st, L)
                    if xs and isinstance(next(iter(xs)), str):
                        return tuple(sorted(set(xs), key=card_sort_key))
                    return tuple(sorted(set(xs)))
                return set_of
            case "min" | "max" | "sum" | "any" | "all" | "count":
                (a,) = fns
                return self._aggregate(f, a, span)
        raise AssertionError(f"unknown function {f}")  # pragma: no cover

    def _binop(self, op: str, lft: ast.Expr, rgt: ast.Expr, local: frozenset[str]) -> Fn | _Const:
        a, b = self._c(lft, local), self._c(rgt, local)
        if isinstance(a, _Const) and isinstance(b, _Const):
            return _Const(_apply_binop(op, a.value, b.value))
        fa, fb = self._fn(a), self._fn(b)
        match op:
            case "+":
                def add(st: Any, L: dict[str, Any]) -> Any:
                    x, y = fa(st, L), fb(st, L)
                    if isinstance(x, (list, tuple)):
                        return tuple(x) + tuple(y)
                    return x + y
                return add
            case "-":
                return lambda st, L: fa(st, L) - fb(st, L)
            case "*":
                return lambda st, L: fa(st, L) * fb(st, L)
            case "//":
                return lambda st, L: fa(st, L) // fb(st, L)
            case "%":
                return lambda st, L: fa(st, L) % fb(st, L)
        raise AssertionError(op)  # pragma: no cover

    def _compare(self, op: str, lft: ast.Expr, rgt: ast.Expr,
                 local: frozenset[str]) -> Fn | _Const:
        a, b = self._c(lft, local), self._c(rgt, local)
        if isinstance(a, _Const) and isinstance(b, _Const):
            return _Const(_apply_compare(op, a.value, b.value))
        fa, fb = self._fn(a), self._fn(b)
        if isinstance(b, _Const):
            k = b.value
            match op:
                case "==":
                    return lambda st, L: fa(st, L) == k
                case "!=":
                    return lambda st, L: fa(st, L) != k
                case "<":
                    return lambda st, L: fa(st, L) < k
                case "<=":
                    return lambda st, L: fa(st, L) <= k
                case ">":
                    return lambda st, L: fa(st, L) > k
                case ">=":
                    return lambda st, L: fa(st, L) >= k
        match op:
            case "==":
                return lambda st, L: fa(st, L) == fb(st, L)
            case "!=":
                return lambda st, L: fa(st, L) != fb(st, L)
            case "<":
                return lambda st, L: fa(st, L) < fb(st, L)
            case "<=":
                return lambda st, L: fa(st, L) <= fb(st, L)
            case ">":
                return lambda st, L: fa(st, L) > fb(st, L)
            case ">=":
                return lambda st, L: fa(st, L) >= fb(st, L)
            case "in":
                return lambda st, L: fa(st, L) in fb(st, L)
            case "not in":
                return lambda st, L: fa(st, L) not in fb(st, L)
        raise AssertionError(op)  # pragma: no cover


def _simple(e: ast.Expr) -> bool:
    """Cheap to evaluate more than once: a name, a literal, or an index of a name."""
    while isinstance(e, ast.Cited):
        e = e.expr
    if isinstance(e, (ast.Name, ast.IntLit, ast.StrLit)):
        return True
    return isinstance(e, ast.Index) and _simple(e.target) and _simple(e.index)


def _count_names(e: Any, acc: dict[str, int] | None = None) -> dict[str, int]:
    acc = {} if acc is None else acc
    if isinstance(e, ast.Name):
        acc[e.id] = acc.get(e.id, 0) + 1
    elif attrs.has(type(e)) and not isinstance(e, ast.Span):
        for f in attrs.fields(type(e)):
            _count_names(getattr(e, f.name), acc)
    elif isinstance(e, tuple):
        for x in e:
            _count_names(x, acc)
    return acc


def _apply_binop(op: str, x: Any, y: Any) -> Any:
    if op == "+":
        return tuple(x) + tuple(y) if isinstance(x, (list, tuple)) else x + y
    return {"-": lambda: x - y, "*": lambda: x * y, "//": lambda: x // y,
            "%": lambda: x % y}[op]()


def _apply_compare(op: str, x: Any, y: Any) -> bool:
    return {"==": lambda: x == y, "!=": lambda: x != y, "<": lambda: x < y,
            "<=": lambda: x <= y, ">": lambda: x > y, ">=": lambda: x >= y,
            "in": lambda: x in y, "not in": lambda: x not in y}[op]()
