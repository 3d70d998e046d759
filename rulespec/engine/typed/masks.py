"""A listing's guard as bit operations on the typed cards (the typed lowering's ``bits.py``).

For the cards ``c`` of a zone kept as a bit set, the mask of those for which a guard holds:
a test of ``c``'s suit, rank or identity against a value that reads no card is a table's mask
(``_SM[s]``, ``_rcmp(op, r)``, ``1 << k``), ``and``/``or``/``not``/``if`` are ``&``, ``|``,
``^``, a choice of two masks; a value that reads no card is read once for every card (as a
Python ``if`` where it decides between two masks, as the engine's test would read it first),
and ``any``/``all``/``count`` of such a test over a zone kept as a set is one operation on
that zone's bits. A guard of another shape is tested card by card. The masks read their
values more eagerly than the engine's card-by-card test: the lowering runs them in a ``try``
whose ``except`` tests card by card, so that where a value raises, the engine's order decides
whether the rules raise.
"""

from __future__ import annotations

import re
from typing import cast

from rulespec.engine.kernel.bits import cannot_raise as _cannot_raise
from rulespec.engine.typed.exprs import Env, TypedExprs
from rulespec.lang import ast, walk
from rulespec.lang.model import BoundBuiltin, BoundDef

__all__ = ["Masks"]

_SWAP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class Masks:
    """The masks of guards over one table's cards (see the module's text)."""

    def __init__(self, x: TypedExprs) -> None:
        self.x = x
        #: the tests of the ``if``s the mask being written is inside, by their sources, and
        #: which way each went: a test written again inside is known
        self.known: dict[str, bool] = {}
        #: each choice written with a constant mask on one side or both, by its source:
        #: (test, a, b)
        self._choices: dict[str, tuple[str, str, str]] = {}

    def of(self, conds: list[ast.Expr], var: str, env: Env) -> str | None:
        """The mask of the cards for which every one of ``conds`` holds (``var`` the card,
        bound in ``env``), or None where one is of no shape a mask covers."""
        out = str(self.all)
        for c in conds:
            m = self.mask(c, var, env)
            if m is None:
                return None
            out = self.join(out, m, "&")
        return out

    @property
    def all(self) -> int:
        return self.x.deck.all

    def join(self, a: str, b: str, op: str) -> str:
        """``a op b`` (``&``, ``|``), a constant side folded, and a choice between two
        constants taken out (``a | (ALL if t else 0)`` is ``ALL if t else a``)."""
        unit, zero = (str(self.all), "0") if op == "&" else ("0", str(self.all))
        c = self._choices.get(a)
        if c is not None and zero in c[1:]:
            # the left side's test first, as the rules read it: where it settles the mask
            # the right side is not read (a value there may raise only when it does not)
            return self.choice(c[0], self.join(c[1], b, op), self.join(c[2], b, op))
        for x, y in ((a, b), (b, a)):
            c = self._choices.get(y)
            if c is not None and c[1].isdigit() and c[2].isdigit():
                return self.choice(c[0], self.join(x, c[1], op), self.join(x, c[2], op))
        if a.isdigit() and b.isdigit():
            return str(int(a) & int(b) if op == "&" else int(a) | int(b))
        if zero in (a, b):
            return zero
        if a == unit:
            return b
        if b == unit:
            return a
        return f"({a} {op} {b})"

    def invert(self, m: str) -> str:
        return str(self.all ^ int(m)) if m.isdigit() else f"({self.all} ^ {m})"

    def choice(self, test: str, a: str, b: str) -> str:
        """``a`` where the value ``test`` holds, else ``b``."""
        if test in ("True", "False"):
            return a if test == "True" else b
        if a == b:
            return a
        out = f"({a} if {test} else {b})"
        if a.isdigit() or b.isdigit():
            self._choices[out] = (test, a, b)
        return out

    def branches(self, test: str, then: ast.Expr, else_: ast.Expr, var: str, env: Env
                 ) -> tuple[str | None, str | None]:
        """The masks of ``then`` and ``else_``, each written knowing which way ``test``
        went."""
        out = []
        for way, e in ((True, then), (False, else_)):
            before = self.known.get(test)
            self.known[test] = way
            try:
                out.append(self.mask(e, var, env))
            finally:
                if before is None:
                    del self.known[test]
                else:
                    self.known[test] = before
        return out[0], out[1]

    def reads(self, e: ast.Expr, env: Env, var: str) -> bool:
        """Whether ``e`` reads the card ``var`` (through definitions too)."""
        return re.search(rf"\b{env[var][0]}\b", self.x.src(e, env)) is not None

    def mask(self, e: ast.Expr, var: str, env: Env) -> str | None:  # noqa: C901
        e = walk.uncited(e)
        ok, value = self.x.folded(e, env)
        if ok:
            return str(self.all) if value else "0"
        if not self.reads(e, env, var):
            return self.choice(self.free(e, env), str(self.all), "0")
        x = self.x
        match e:
            case ast.Call() if isinstance(x.res.binding(e.span, "call"), BoundDef):
                looked = self.table(e, var, env, None)
                if looked is not None:
                    return looked
                d = x.ec.defs[x.res.binding(e.span, "call").name]  # type: ignore[union-attr]
                inner = {p.name: x.expr(a, env) for p, a in zip(d.params, e.args, strict=True)}
                if any(k == "card" and s == env[var][0] for s, k in inner.values()):
                    # the card passed on under the parameter's name
                    name = next(p for p, (s, k) in inner.items() if s == env[var][0])
                    return self.mask(d.body, name, inner)
                return None
            case ast.And(left=a, right=b):
                if not self.reads(a, env, var):
                    mb = self.mask(b, var, env)
                    return None if mb is None else self.choice(self.free(a, env), mb, "0")
                ma, mb = self.mask(a, var, env), self.mask(b, var, env)
                return None if ma is None or mb is None else self.join(ma, mb, "&")
            case ast.Or(left=a, right=b):
                if not self.reads(a, env, var):
                    mb = self.mask(b, var, env)
                    return None if mb is None else \
                        self.choice(self.free(a, env), str(self.all), mb)
                ma, mb = self.mask(a, var, env), self.mask(b, var, env)
                return None if ma is None or mb is None else self.join(ma, mb, "|")
            case ast.Not(operand=o):
                m = self.mask(o, var, env)
                return None if m is None else self.invert(m)
            case ast.IfExpr(cond=c, then=t, else_=f):
                if not self.reads(c, env, var):
                    test = self.free(c, env)
                    if test in ("True", "False"):
                        return self.mask(t if test == "True" else f, var, env)
                    mt, mf = self.branches(test, t, f, var, env)
                    return None if mt is None or mf is None else self.choice(test, mt, mf)
                mt, mf = self.mask(t, var, env), self.mask(f, var, env)
                if mt is None or mf is None:
                    return None
                mc = self.mask(c, var, env)
                return None if mc is None else \
                    self.join(self.join(mc, mt, "&"), self.join(mf, self.invert(mc), "&"), "|")
            case ast.Compare(op=op, left=a, right=b):
                return self.compare(op, a, b, var, env, e.span)
        return None

    def unfold(self, e: ast.Expr) -> ast.Expr:
        """``e`` with a call of a definition (and the calls its body starts with) replaced
        by the body, its parameters the arguments (their places in the text kept, so what
        the checker says of them still holds)."""
        e = walk.uncited(e)
        while isinstance(e, ast.Call) and isinstance(
                b := self.x.res.binding(e.span, "call"), BoundDef):
            d = self.x.ec.defs[b.name]
            body: object = d.body
            for p, a in zip(d.params, e.args, strict=True):
                body = walk.replace_name(body, p.name, a)
            e = walk.uncited(cast(ast.Expr, body))
        return e

    def table(self, e: ast.Expr, var: str, env: Env, value: ast.Expr | None) -> str | None:
        """Where ``e`` is a call of a definition made a table (tables.py) with the card
        ``var`` as its card, and nothing else of it reads the card: the mask of the cards
        whose value is ``value`` (a value that reads no card), or with None, true."""
        e = walk.uncited(e)
        b = self.x.res.binding(e.span, "call") if isinstance(e, ast.Call) else None
        if not isinstance(e, ast.Call) or not isinstance(b, BoundDef) or (
                value is not None and self.reads(value, env, var)):
            return None
        got = self.x.table_of(b.name)
        if got is None:
            return None
        t = got[0]
        py = env[var][0]
        args = [self.x.src(a, env) for a in e.args]
        if args[t.card] != py or any(self.reads(a, env, var) for i, a in enumerate(e.args)
                                     if i != t.card):
            return None
        args = [a if a.replace("_", "a").isalnum() else f"({a})" for a in args]
        if value is None:
            return t.lookup(t.truthy, args)
        return f"{t.lookup(t.masks, args)}.get({self.free(value, env)}, 0)"

    def by_table(self, op: str, a: ast.Expr, b: ast.Expr, var: str, env: Env) -> str | None:
        """``f(c) == v`` (or ``!=``) where ``f`` is made a table: its mask looked up."""
        if op in ("==", "!="):
            for x, y in ((a, b), (b, a)):
                m = self.table(x, var, env, y)
                if m is not None:
                    return m if op == "==" else self.invert(m)
        return None

    def compare(self, op: str, a: ast.Expr, b: ast.Expr, var: str, env: Env,
                span: ast.Span) -> str | None:
        m = self.by_table(op, a, b, var, env)
        if m is not None:
            return m
        ua, ub = self.unfold(a), self.unfold(b)
        for x, y, swap in ((ua, b, False), (ub, a, True)):
            if isinstance(x, ast.IfExpr) and self.reads(x, env, var) and \
                    not self.reads(y, env, var):
                # (if t then p else q) == v, branch by branch: if t then p == v else q == v
                # (the comparisons made here stand at the comparison's place: a condition)
                def side(arm: ast.Expr, y: ast.Expr = y, swap: bool = swap) -> ast.Expr:
                    return ast.Compare(op, y, arm, span=span) if swap else \
                        ast.Compare(op, arm, y, span=span)
                return self.mask(ast.IfExpr(x.cond, side(x.then), side(x.else_), span=span),
                                 var, env)
        if op in ("in", "not in"):
            return self.membership(op, a, b, var, env)
        pa, pb = self.part(a, var, env), self.part(b, var, env)
        if pa is None and pb is not None:
            a, b, op, pa = b, a, _SWAP[op], pb
        elif pb is not None or pa is None:
            return None
        if self.reads(b, env, var):
            return None
        deck = self.x.deck
        ok, value = self.x.folded(b, env)
        if ok:
            # a constant: the mask worked out now
            if pa == "rank":
                try:
                    return str(deck.rank_cmp(op, value))
                except TypeError:
                    return None
            bits = deck.suit_mask.get(value, 0) if pa == "suit" else \
                0 if value is None else 1 << deck.num[value]  # type: ignore[index]
            return str(bits) if op == "==" else str(self.all ^ bits) if op == "!=" else None
        v = self.free(b, env)
        match pa, op:
            case "card", "==":
                return f"(1 << {v} if {v} is not None else 0)"
            case "card", "!=":
                return self.invert(f"(1 << {v} if {v} is not None else 0)")
            case "suit", "==":
                return f"_SM[{v}]"
            case "suit", "!=":
                return self.invert(f"_SM[{v}]")
            case "rank", "==":
                # a lookup, not a call (the commonest test); a rank no card has finds none
                return f"_RE.get({v}, 0)"
            case "rank", _:
                return f"_rcmp({op!r}, {v})"
        return None

    def membership(self, op: str, a: ast.Expr, b: ast.Expr, var: str, env: Env
                   ) -> str | None:
        """``c in b`` (or ``not in``), ``b`` a list or zone that reads no card."""
        if self.part(a, var, env) != "card" or self.reads(b, env, var):
            return None
        ok, value = self.x.folded(b, env)
        if ok:
            m = str(self.x.deck.bits_of(self.x.deck.num[c] for c in value))  # type: ignore[attr-defined]
        else:
            s, k = self.x.expr(b, env)
            m = s if k == "zb" else f"_bitsof({self.x.value(b, env)})"
        return m if op == "in" else self.invert(m)

    def part(self, e: ast.Expr, var: str, env: Env) -> str | None:
        """``card``, ``suit`` or ``rank`` where ``e`` is the card, its suit or its rank."""
        e = walk.uncited(e)
        py = env[var][0]
        if isinstance(e, ast.Name) and self.x.src(e, env) == py:
            return "card"
        if isinstance(e, ast.Call) and len(e.args) == 1:
            b = self.x.res.binding(e.span, "call")
            if isinstance(b, BoundBuiltin) and b.name in ("suit", "rank") and \
                    self.part(e.args[0], var, env) == "card":
                return b.name
            if isinstance(b, BoundDef):
                d = self.x.ec.defs[b.name]
                inner = {d.params[0].name: self.x.expr(e.args[0], env)}
                if inner[d.params[0].name][0] == py:
                    return self.part(d.body, d.params[0].name, inner)
        return None

    def free(self, e: ast.Expr, env: Env) -> str:
        """A value that reads no card of the listing: ``any``/``all``/``count`` of a test
        of a mask's shape over a zone kept as a set as one operation on its bits."""
        e = walk.uncited(e)
        x = self.x
        ok, value = x.folded(e, env)
        if ok:
            return x.constant(value, x.kind(e))
        fn = x.res.binding(e.span, "call") if isinstance(e, ast.Call) else None
        if isinstance(e, ast.Call) and isinstance(fn, BoundDef) and x.table_of(fn.name) is None:
            d = x.ec.defs[fn.name]
            inner = {p.name: x.expr(a, env) for p, a in zip(d.params, e.args, strict=True)}
            inner = {k: ((s if s.replace("_", "a").isalnum() else f"({s})"), kd)
                     for k, (s, kd) in inner.items()}
            return self.free(d.body, inner)
        if isinstance(e, ast.GenCall) and e.cond is None:
            gb = x.res.binding(e.span, "call")
            s, k = x.expr(e.source, env)
            if isinstance(gb, BoundBuiltin) and gb.name in ("any", "all", "count") and k == "zb":
                cv = x.fresh(e.var)
                m = self.mask(e.elem, e.var, {**env, e.var: (cv, "card")})
                if m is not None:
                    if gb.name == "any":
                        return f"({s} & {m} != 0)"
                    if gb.name == "all":
                        return f"({s} & {m} == {s})"
                    return f"({s} & {m}).bit_count()"
        if isinstance(e, (ast.And, ast.Or)):
            every = isinstance(e, ast.And)
            left = self.free(e.left, env)
            if left in ("True", "False"):
                return self.free(e.right, env) if (left == "True") == every else left
            right = self.free(e.right, env)
            joined = f"({left} {'and' if every else 'or'} {right})"
            if right in ("True", "False"):
                if (right == "True") == every:
                    return left
                # decided by the right side: the left still evaluated first, as the engine
                # does, unless it cannot raise
                return right if _cannot_raise(left) else joined
            return joined
        if isinstance(e, ast.Not):
            a = self.free(e.operand, env)
            return {"True": "False", "False": "True"}.get(a, f"(not {a})")
        got = x.src(e, env)
        if got in self.known:
            return repr(self.known[got])
        return got
