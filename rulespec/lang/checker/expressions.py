"""Expressions: the type of each, every name bound, both recorded for the compiler.

An :class:`ExpressionChecker` types an expression in a scope and records, by position, what
each name and call resolved to and each expression's type (:class:`Resolution`: the one place
names are resolved). It holds the :class:`Symbols` of the check it works for (as mypy's
``ExpressionChecker`` holds its ``TypeChecker`` as ``chk``) and needs nothing of the statement
or declaration checkers, which call it: a definition's type is inferred here, from its body,
on its first call.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import assert_never

from rulespec.lang import ast, walk
from rulespec.lang.checker.symbols import Scope, Symbols
from rulespec.lang.model import (
    BUILTIN_FUNCTIONS,
    BUILTIN_VARS,
    DIRECTED_BUILTINS,
    GENERATOR_FUNCTIONS,
    SIT_OUT_NAMES,
    TEAM_NAMES,
    VALUED_BUILTINS,
    BoundBuiltin,
    BoundBuiltinVar,
    BoundConstant,
    BoundDef,
    BoundEnum,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    BoundVar,
    BoundZone,
    pos,
)
from rulespec.lang.pretty import pretty_expr
from rulespec.lang.types import (
    ANY,
    BOOL,
    CARD,
    INT,
    NONE,
    PZONE,
    STR,
    ZONE,
    EnumOf,
    ListOf,
    Named,
    Per,
    T,
    Type,
    compatible,
    describe,
    element,
    has_var,
    substitute,
)

__all__ = ["ExpressionChecker"]


def _is_list(t: Type) -> bool:
    """Whether ``t`` is surely a list or a zone (``any`` is not: it is unknown)."""
    return t != ANY and element(t) is not None


class ExpressionChecker:
    """Types expressions for one check, reporting to and recording in its symbols."""

    def __init__(self, sym: Symbols) -> None:
        self.sym = sym

    def expr(self, e: ast.Expr, scope: Scope) -> Type:
        """The type of ``e`` in ``scope``, recorded for the compiler (CheckedSpec.resolution)."""
        t = self._expr(e, scope)
        self.sym.types[pos(e.span)] = t
        return t

    def _expr(self, e: ast.Expr, scope: Scope) -> Type:
        match e:
            case ast.IntLit():
                return INT
            case ast.StrLit():
                return STR
            case ast.CardLit(code=code):
                self._card_lit(e, code)
                return CARD
            case ast.Cited(expr=wrapped):
                return self.expr(wrapped, scope)
            case ast.Name(id=n):
                return self._name(e, n, scope)
            case ast.Index(target=tg, index=ix):
                return self._index(e, tg, ix, scope)
            case ast.ListLit(items=items):
                return self._list_lit(items, scope)
            case ast.Comprehension(elem=el, var=v, source=src, cond=c):
                inner = scope.child()
                inner.names[v] = self.iter_elem(src, scope)
                if c is not None:
                    self.want_bool(c, self.expr(c, inner))
                return ListOf(self.expr(el, inner))
            case ast.GenCall(func=f, elem=el, var=v, source=src, cond=c):
                return self._gen_call(e, f, el, v, src, c, scope)
            case ast.Call(func=f, args=args):
                return self._call(e, f, args, scope)
            case ast.BinOp(op=op, left=lft, right=rgt):
                tl, tr = self.expr(lft, scope), self.expr(rgt, scope)
                if op == "+" and element(tl) is not None and element(tr) is not None:
                    return self._join(e, tl, tr)
                if _is_list(tl) or _is_list(tr):
                    return self._list_mistake(e, tl, tr)
                self.want(lft, INT, tl, f"'{op}' works on numbers")
                self.want(rgt, INT, tr, f"'{op}' works on numbers")
                return INT
            case ast.Compare(op=op, left=lft, right=rgt):
                return self._compare(e, op, lft, rgt, scope)
            case ast.And(left=lft, right=rgt) | ast.Or(left=lft, right=rgt):
                self.want_bool(lft, self.expr(lft, scope))
                self.want_bool(rgt, self.expr(rgt, scope))
                return BOOL
            case ast.Not(operand=o):
                self.want_bool(o, self.expr(o, scope))
                return BOOL
            case ast.Neg(operand=o):
                self.want(o, INT, self.expr(o, scope))
                return INT
            case ast.IfExpr(cond=c, then=th, else_=el):
                return self._if_expr(e, c, th, el, scope)
            case ast.OptionArg(option=o, param=p):
                return self._option_arg(e, o, p, scope)
            case _:
                assert_never(e)
        return ANY  # pragma: no cover

    def _join(self, e: ast.BinOp, tl: Type, tr: Type) -> Type:
        """``xs + ys``: one list of the elements of both, which must be of one kind."""
        el, er = element(tl), element(tr)
        assert el is not None and er is not None
        if not (compatible(el, er) or compatible(er, el)):
            self.sym.error(e.span, f"cannot join {describe(tl)} and {describe(tr)}",
                           "'+' joins two lists of the same kind of values")
            return ANY
        return tl if tl != ZONE else ListOf(CARD)

    def _list_mistake(self, e: ast.BinOp, tl: Type, tr: Type) -> Type:
        """One error for an operator that does not work on a list (``[joker_card] * 8``,
        ``hand + c``, ``xs - ys``), saying how to write it; its value is ``any``, so the
        expression around it reports nothing more."""
        on_left = _is_list(tl)
        lst, other = (e.left, e.right) if on_left else (e.right, e.left)
        tlist, tother = (tl, tr) if on_left else (tr, tl)
        tlist = ListOf(CARD) if tlist == ZONE else tlist  # read as its cards
        if e.op == "*" and compatible(INT, tother):
            n = pretty_expr(other, 5)
            if isinstance(lst, ast.ListLit) and len(lst.items) == 1:
                item = pretty_expr(lst.items[0])
                hint = f"write {n} copies of {item} as [{item} for i in range(1, {n})]"
            else:
                xs = pretty_expr(lst, 6)
                hint = (f"write copies of one value as [x for i in range(1, {n})], and join "
                        f"lists with '+' ({xs} + {xs})")
            self.sym.error(e.span, "'*' does not repeat a list: it multiplies numbers", hint)
        elif e.op == "+":
            ev = element(tlist)
            if ev is not None and compatible(ev, tother):
                xs, one = pretty_expr(lst, 6 if on_left else 5), f"[{pretty_expr(other)}]"
                hint = ("'+' joins two lists: put the single value in brackets, "
                        + (f"{xs} + {one}" if on_left else f"{one} + {xs}"))
            else:
                hint = "'+' adds two numbers or joins two lists of the same kind"
            self.sym.error(e.span, f"cannot add {describe(tother)} to {describe(tlist)}", hint)
        elif e.op == "-":
            self.sym.error(e.span, "'-' does not take values out of a list",
                           "keep the others with a comprehension: "
                           "[x for x in XS if x not in YS]")
        else:
            self.sym.error(e.span, f"'{e.op}' works on numbers, not on {describe(tlist)}",
                           "to count a list's elements, use size(...)")
        return ANY

    def def_type(self, name: str) -> Type:
        """The type of the definition ``name``: its body's, worked out on first need."""
        if name in self.sym.def_types:
            return self.sym.def_types[name]
        if name in self.sym.inferring:
            return ANY  # recursion: the result type is not needed to check the call
        d = self.sym.defs[name]
        self.sym.inferring.add(name)
        scope = Scope({p.name: self.sym.param_type(p) for p in d.params}, where="def")
        t = self.expr(d.body, scope)
        self.sym.inferring.discard(name)
        self.sym.def_types[name] = t
        return t

    def want_bool(self, e: ast.Expr, t: Type) -> None:
        """Report ``e`` (of type ``t``) unless it is a condition."""
        self.want(e, BOOL, t, "a condition must be true or false")

    def want(self, e: ast.Expr, want: Type, got: Type, hint: str | None = None) -> None:
        """Report ``e`` (of type ``got``) unless a ``want`` may hold it."""
        if not compatible(want, got):
            self.sym.error(e.span, f"expected {describe(want)}, found {describe(got)}", hint)

    def iter_elem(self, src: ast.Expr, scope: Scope) -> Type:
        """The type of the items of ``src``, which a loop or a comprehension goes through."""
        t = self.expr(src, scope)
        el = element(t)
        if el is None:
            self.sym.error(src.span, f"cannot go through {describe(t)}; expected a list or a zone")
            return ANY
        return el

    def _card_lit(self, e: ast.CardLit, code: str) -> None:
        """A card literal must be a code of the spec's deck (the French one by default)."""
        deck = self.sym.deck
        if code in deck.order:
            return
        fixed = deck.normalise(code)
        if fixed is not None:
            hint = f"write it '{fixed}'"
        else:
            # a code of the same length first: 'W5' is more like 'W4' than 'W'
            same = [c for c in deck.cards if len(c) == len(code)]
            close = difflib.get_close_matches(code.upper(), same, n=1, cutoff=0.5) or \
                difflib.get_close_matches(code.upper(), deck.cards, n=1, cutoff=0.5)
            more = " ..." if len(deck.cards) > 8 else ""
            hint = f"did you mean '{close[0]}'?" if close else \
                f"the deck's cards are {' '.join(deck.cards[:8])}{more}"
        self.sym.error(e.span, f"'{code}' is not a card of this spec's deck", hint)

    def _name(self, e: ast.Expr, n: str, scope: Scope) -> Type:
        """The type of the name ``n``; what it is bound to is recorded (the one place names
        are resolved: the compiler reads the binding)."""
        if n in scope.names:
            self.sym.bind(e, BoundLocal(n))
            return scope.names[n]
        if n in self.sym.vars:
            self.sym.bind(e, BoundVar(n))
            if n in self.sym.var_types:
                return self.sym.var_types[n]
            return self.sym.var_type(self.sym.vars[n])  # while var types are being computed
        if n in self.sym.options:
            self.sym.bind(e, BoundOption(n))
            o = self.sym.options[n]
            kinds: dict[str, Type] = {"bool": BOOL, "int": INT}
            return kinds.get(o.kind, EnumOf(n))
        if n in TEAM_NAMES and not self.sym.has_teams:
            self._no_teams(e, n)
            return ANY
        if n in SIT_OUT_NAMES and not self.sym.sits_out:
            self.sym.error(e.span, f"{n!r} is kept only in a spec where a seat may sit out",
                           "add 'sit out SEAT' where a seat takes no part in the deal")
            return ANY
        if n in self.sym.constants:
            self.sym.bind(e, BoundConstant(n))
            return self.sym.constants[n]
        if n in BUILTIN_VARS:
            self.sym.directed |= n == "clockwise"
            self.sym.bind(e, BoundBuiltinVar(n))
            return BUILTIN_VARS[n]
        if n in self.sym.zones:
            self.sym.bind(e, BoundZone(n))
            return PZONE if self.sym.zones[n].per_player else ZONE
        if n in self.sym.enums:
            self.sym.bind(e, BoundEnum(n))
            return ListOf(Named(n))
        if n in self.sym.named_values:
            self.sym.bind(e, BoundEnumValue(n))
            return Named(self.sym.named_values[n])
        if n in self.sym.enum_values:
            self.sym.bind(e, BoundEnumValue(n))
            return STR
        if n in self.sym.defs or n in self.sym.procs or n in BUILTIN_FUNCTIONS \
                or n in self.sym.hooks:
            self.sym.error(e.span, f"{n!r} must be called: write {n}(...)")
            return ANY
        self.sym.error(e.span, f"undefined name {n!r}", self.sym.suggest(
            n, "declare it with var, option, zone or def, or bind it with let or for"))
        return ANY

    def _call(self, e: ast.Call, f: str, args: tuple[ast.Expr, ...], scope: Scope) -> Type:
        targs = [self.expr(a, scope) for a in args]
        if f in self.sym.broken_hooks:
            return self._hook_call(e, f, args, targs)
        if f in self.sym.defs:
            self.sym.bind(e, BoundDef(f))
            d = self.sym.defs[f]
            if len(args) != len(d.params):
                self.sym.error(e.span, f"{f!r} takes {len(d.params)} argument(s), not {len(args)}")
                return self.def_type(f)
            for a, t, prm in zip(args, targs, d.params, strict=True):
                want = self.sym.param_type(prm)
                if not compatible(want, t):
                    self.sym.error(a.span, f"{f!r} expects {describe(want)} for {prm.name!r}, not "
                                   f"{describe(t)}")
            return self.def_type(f)
        if f in TEAM_NAMES and not self.sym.has_teams:
            self._no_teams(e, f)
            return ANY
        if f in BUILTIN_FUNCTIONS:
            self.sym.bind(e, BoundBuiltin(f))
            self.sym.directed |= f in DIRECTED_BUILTINS
            params, result = BUILTIN_FUNCTIONS[f]
            if len(args) != len(params):
                self.sym.error(e.span, f"{f!r} takes {len(params)} argument(s), not {len(args)}")
                return result if not has_var(result) else ANY
            bound: Type = ANY
            for a, t, want in zip(args, targs, params, strict=True):
                if want == ListOf(T):
                    el = element(t)
                    if el is None:
                        self.sym.error(a.span, f"{f!r} expects a list, not {describe(t)}")
                    else:
                        bound = el
                    continue
                if not compatible(want, t):
                    self.sym.error(a.span, f"{f!r} expects {describe(want)}, not {describe(t)}")
            if f in VALUED_BUILTINS:
                self._one_value_each(f, args)
            return substitute(result, bound)
        if f in self.sym.procs:
            self.sym.error(e.span, f"procedure {f!r} changes the game and gives no value",
                           f"run it as a statement: {f}(...)")
            return ANY
        self.sym.error(e.span, f"no function {f!r}", self.sym.suggest(f, None))
        return ANY

    def _one_value_each(self, f: str, args: tuple[ast.Expr, ...]) -> None:
        """``deadwood(CARDS, VALUES, ORDER)`` and ``best_melds``: VALUES gives one value for
        each card of CARDS, in order. A comprehension that filters, or that runs over another
        list, cannot be sure to, and a list literal of another length never is."""
        cards, values = walk.uncited(args[0]), walk.uncited(args[1])
        hint = f"write the values as [VALUE for c in {pretty_expr(cards)}], one for each card"
        if isinstance(values, ast.Comprehension):
            if values.cond is not None:
                self.sym.error(values.cond.span, f"{f!r} takes one value for each card: this "
                               "'if' would leave some cards without one", hint)
            elif walk.uncited(values.source) != cards:
                self.sym.error(values.source.span, f"{f!r} takes one value for each card of "
                               f"{pretty_expr(cards)}, and these values come from "
                               f"{pretty_expr(values.source)}", hint)
        elif isinstance(values, ast.ListLit) and isinstance(cards, ast.ListLit) and \
                len(values.items) != len(cards.items):
            self.sym.error(values.span, f"{f!r} takes one value for each card: "
                           f"{len(values.items)} value(s) for {len(cards.items)} card(s)")

    def _no_teams(self, e: ast.Expr, n: str) -> None:
        """A team built-in in a spec that declares no teams."""
        self.sym.error(e.span, f"{n!r} needs fixed partnerships, and the spec declares no teams",
                       "add: teams COUNT by DEF, DEF giving each seat's team")

    def _hook_call(self, e: ast.Call, f: str, args: tuple[ast.Expr, ...],
                   targs: list[Type]) -> Type:
        """A call of a hook that is missing or mistyped (reported at the import): checked
        against the hook's own signature, and of the hook's type."""
        h = self.sym.hooks[f]
        if f in self.sym.defs:
            self.sym.bind(e, BoundDef(f))
        if len(args) != len(h.params):
            self.sym.error(e.span, f"{f!r} takes {len(h.params)} argument(s), not {len(args)}")
        else:
            for a, t, prm, want in zip(args, targs, h.params, self.sym.hook_types[f][0],
                                       strict=True):
                if not compatible(want, t):
                    self.sym.error(a.span, f"{f!r} expects {describe(want)} for {prm.name!r}, "
                                   f"not {describe(t)}")
        return self.sym.hook_types[f][1]

    def _gen_call(self, e: ast.GenCall, f: str, el: ast.Expr, v: str, src: ast.Expr,
                  c: ast.Expr | None, scope: Scope) -> Type:
        """The type of ``f(el for v in src if c)``: ``f`` takes a generator, which gives
        conditions for any, all and count and numbers for the rest."""
        inner = scope.child()
        inner.names[v] = self.iter_elem(src, scope)
        if c is not None:
            self.want_bool(c, self.expr(c, inner))
        te = self.expr(el, inner)
        if f not in GENERATOR_FUNCTIONS:
            self.sym.error(e.span, f"{f!r} does not take a generator",
                           "generators work with: " + ", ".join(sorted(GENERATOR_FUNCTIONS)))
            return ANY
        self.sym.bind(e, BoundBuiltin(f))
        if f in ("any", "all", "count"):
            self.want_bool(el, te)
            return INT if f == "count" else BOOL
        self.want(el, INT, te, f"{f} adds or compares numbers")
        return INT

    def _compare(self, e: ast.Compare, op: str, lft: ast.Expr, rgt: ast.Expr,
                 scope: Scope) -> Type:
        """Check a comparison: an enum against its own values, 'in' against a list or zone,
        an order comparison between numbers, anything else between values of one kind."""
        bare_l, bare_r = walk.uncited(lft), walk.uncited(rgt)
        for x, y in ((bare_l, bare_r), (bare_r, bare_l)):
            if isinstance(x, ast.Name) and isinstance(y, ast.Name) \
                    and y.id in self.sym.options and self.sym.options[y.id].kind == "enum" \
                    and y.id not in scope.names and x.id in self.sym.options[y.id].values \
                    and x.id not in scope.names:
                # OPTION == VALUE, the value possibly a built-in name
                self.sym.bind(x, BoundEnumValue(x.id))
                self.sym.bind(y, BoundOption(y.id))
                for side in (lft, rgt):
                    t_side: Type = STR if walk.uncited(side) is x else EnumOf(y.id)
                    for node in _cited_chain(side):
                        self.sym.types[pos(node.span)] = t_side
                return BOOL
        tl = self.expr(lft, scope)
        bare = walk.uncited(rgt)
        if isinstance(tl, EnumOf) and isinstance(bare, ast.Name) \
                and not self.sym.resolvable(bare.id, scope):
            opt = self.sym.options[tl.option]
            self.sym.error(bare.span, f"{bare.id!r} is not a value of option {opt.name!r}",
                           "values: " + ", ".join(str(v) for v in opt.values))
            return BOOL
        if isinstance(tl, Named) and isinstance(bare, ast.Name) \
                and not self.sym.resolvable(bare.id, scope):
            en = self.sym.enums[tl.enum]
            self.sym.error(bare.span, f"{bare.id!r} is not a value of {tl.enum}",
                           "values: " + ", ".join(str(v) for v in en.values.values))
            return BOOL
        tr = self.expr(rgt, scope)
        if op in ("in", "not in"):
            el = element(tr)
            if el is None:
                self.sym.error(rgt.span, f"'{op}' needs a list or a zone on its right")
            elif not compatible(el, tl):
                self.sym.error(e.span, f"cannot look for {describe(tl)} among "
                               f"{describe(tr)}")
            return BOOL
        self._check_enum_compare(lft, tl, rgt, tr)
        if op in ("<", "<=", ">", ">="):
            self.want(lft, INT, tl, "order comparisons work on numbers")
            self.want(rgt, INT, tr, "order comparisons work on numbers")
        elif not (compatible(tl, tr) or compatible(tr, tl)):
            self.sym.error(e.span, f"comparing {describe(tl)} with {describe(tr)} is "
                           "always false", "compare values of the same kind")
        return BOOL

    def _check_enum_compare(self, lft: ast.Expr, tl: Type, rgt: ast.Expr, tr: Type) -> None:
        for ta, b in ((tl, rgt), (tr, lft)):
            if not isinstance(ta, EnumOf):
                continue
            opt = self.sym.options[ta.option]
            bb = walk.uncited(b)
            if isinstance(bb, ast.Name) and bb.id in self.sym.enum_values \
                    and bb.id not in opt.values:
                self.sym.error(bb.span, f"{bb.id!r} is not a value of option {opt.name!r}",
                               "values: " + ", ".join(str(v) for v in opt.values))
            if isinstance(bb, ast.IntLit) and bb.value not in opt.values:
                self.sym.error(bb.span, f"{bb.value} is not a value of option {opt.name!r}",
                               "values: " + ", ".join(str(v) for v in opt.values))

    def _if_expr(self, e: ast.IfExpr, c: ast.Expr, th: ast.Expr, el: ast.Expr,
                 scope: Scope) -> Type:
        """The type of an if-expression: the condition is true or false and the branches give
        values of one kind."""
        self.want_bool(c, self.expr(c, scope))
        t1, t2 = self.expr(th, scope), self.expr(el, scope)
        if t1 in (NONE, ANY):
            return t2
        if not (compatible(t1, t2) or compatible(t2, t1)):
            self.sym.error(e.span, f"the branches give {describe(t1)} and {describe(t2)}")
        if isinstance(t1, EnumOf) and t2 == INT:
            return INT
        return t1

    def _index(self, e: ast.Index, tg: ast.Expr, ix: ast.Expr, scope: Scope) -> Type:
        """The type of ``tg[ix]``: the index is a number, the target a per-player zone or value,
        or a list."""
        tt = self.expr(tg, scope)
        ti = self.expr(ix, scope)
        self.want(ix, INT, ti, "an index is a seat or a position")
        if tt == PZONE:
            return ZONE
        if isinstance(tt, Per):
            return tt.elem
        el = element(tt)
        if el is None:
            self.sym.error(e.span, f"cannot index {describe(tt)}")
            return ANY
        return el

    def _list_lit(self, items: tuple[ast.Expr, ...], scope: Scope) -> Type:
        """The type of a list literal; its items are all of one kind."""
        ts = [self.expr(i, scope) for i in items]
        known = [t for t in ts if t not in (ANY, NONE)]
        el = known[0] if known else ANY
        for i, t in zip(items, ts, strict=True):
            if not compatible(el, t):
                self.sym.error(i.span, f"a list mixes {describe(el)} and {describe(t)}")
        return ListOf(el)

    def _option_arg(self, e: ast.OptionArg, o: str, p: str, scope: Scope) -> Type:
        """The type of ``OPTION.PARAM``: the parameter ``p`` of a value of option ``o``, as the
        declaration types it. Whether the table's value has it is known only with the
        options (see docs/language.md, "Options whose values take parameters")."""
        if o not in self.sym.options or o in scope.names:
            self.sym.error(e.span, f"'{o}.{p}': only an option's value has parameters to read "
                           f"with '.', and {o!r} is not an option")
            return ANY
        opt = self.sym.options[o]
        found = [q for _, ps in opt.params for q in ps if q.name == p]
        if not found:
            have = sorted({q.name for _, ps in opt.params for q in ps})
            self.sym.error(e.span, f"no value of option {o!r} takes a parameter {p!r}",
                           "parameters: " + ", ".join(have) if have
                           else f"the values of {o!r} take no parameters")
            return ANY
        self.sym.bind(e, BoundOption(o))
        return BOOL if found[0].kind == "bool" else INT


def _cited_chain(e: ast.Expr) -> Iterator[ast.Expr]:
    """``e`` and, while it is a citation, the expression it cites."""
    yield e
    while isinstance(e, ast.Cited):
        e = e.expr
        yield e
