"""The typed lowering's expressions: a rule's expression as Python source over the typed values.

Every value has a kind the checker's type gives it: ``int``, ``bool``, ``str`` (an option's
or a pick's value, as the engine holds it), ``suit`` (the engine's suit), ``none``, ``card``
(a small int, :mod:`.cards`), ``cards`` (a tuple of card ints), ``list`` (a tuple of other
values); a zone is ``zb`` (an int bit set: a zone of distinct cards whose order no rule reads,
``kernel/zones.py``) or ``zl`` (a list of card ints, top last), and ``pzb``/``pzl`` one per
seat. What is constant at the table (options, literals, ``seats``, ``pack(1)``) is folded by
the engine's own compiler, so the typed code folds exactly what the engine's does (``x and
false`` never evaluates ``x`` in either). Definitions are expanded in place, their arguments'
sources put where the parameters are (the values are pure: evaluating one twice changes
nothing).

The lowering's contract is that its code raises where, and only where, the engine's raises;
the state then asks the engine for its error (``play.py``). So a value the engine reads card by
card is read card by card here too (``any(... for c in hand)`` a loop), except inside a
listing's masks, which a ``try`` sends back to the card-by-card test where one raises.
Not modelled: the work budget, and the limits on the sizes of numbers and lists.
"""

from __future__ import annotations

import ast as pyast
import builtins
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from rulespec.engine.codegen.best import best_of
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.kernel.bits import COMPARE
from rulespec.engine.kernel.lower import Unsupported
from rulespec.engine.typed.cards import TypedDeck
from rulespec.engine.typed.tables import DefTable, domains, safe_args, tabulate
from rulespec.lang import ast, walk
from rulespec.lang import types as T
from rulespec.lang.builtins import RUNTIME_HELPERS
from rulespec.lang.cards import RANK_OF, SUIT_OF
from rulespec.lang.melds import NumberedDeadwood
from rulespec.lang.model import (
    BoundBuiltin,
    BoundBuiltinVar,
    BoundDef,
    BoundLocal,
    BoundVar,
    BoundZone,
)

__all__ = ["Env", "TypedExprs", "Zone", "kind_of"]

#: what a name of the rules is in the generated code: its source and its kind
Env = Mapping[str, tuple[str, str]]

#: the most values a built-in over a list the table fixes is written out for
_UNROLL = 6
#: the comparison operators, as Python writes them
_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})


@attrs.frozen
class Zone:
    """A zone as the typed code holds it: its Python name, whether it is a bit set (else a
    list of card ints) and whether there is one per seat."""

    py: str
    bits: bool
    per: bool

    @property
    def kind(self) -> str:
        return ("p" if self.per else "") + ("zb" if self.bits else "zl")


def kind_of(t: T.Type) -> str:
    """The kind of a value of the checker's type ``t``."""
    match t:
        case T.Int():
            return "int"
        case T.Bool():
            return "bool"
        case T.Suit():
            return "suit"
        case T.Card():
            return "card"
        case T.Str() | T.EnumOf() | T.Named():
            return "str"
        case T.NoneT():
            return "none"
        case T.AnyT():
            return "any"
        case T.ListOf(elem=T.Card()):
            return "cards"
        case T.ListOf(elem=T.ListOf(elem=T.Card())):
            return "melds"  # a tuple of tuples of cards
        case T.ListOf(elem=T.ListOf() | T.Zone()):
            raise Unsupported("a list of lists")
        case T.ListOf():
            return "list"
        case T.Zone():
            return "zone"
        case T.PZone():
            return "pzone"
        case T.Per():
            return "per"
        case _:
            raise Unsupported(f"a value of type {T.describe(t)}")


class TypedExprs:
    """Compiles expressions for one table to typed Python source (see the module's text)."""

    def __init__(self, ec: ExprCompiler, zones: Mapping[str, Zone],
                 variables: Mapping[str, tuple[str, str]], deck: TypedDeck) -> None:
        self.ec = ec
        self.spec = ec.spec
        self.res = ec.spec.resolution
        self.zones = zones
        self.vars = variables
        self.deck = deck
        #: the variables no rule sets, with the value they keep (see :meth:`folded`)
        self.fixed: dict[str, object] = {}
        #: the constants too long to write in the text, by their global names
        self.globals: dict[str, object] = {}
        self._consts: dict[tuple[str, Any], str] = {}
        self._inlining: list[str] = []
        self._fresh = 0
        #: above zero while a comprehension's iterable is compiled (no ``:=`` there)
        self._in_iter = 0
        #: the kind of the element of the comprehension _gen wrote last
        self._elem_kind = ""
        #: the lowering's masks of guards (masks.py, which reads this module)
        self.masks: Any = None
        #: the arguments of the definitions inlined, by the texts their parameters read
        self._args: dict[str, tuple[ast.Expr, Env]] = {}
        #: each definition made a table (tables.py), with its body's source and kind; None
        #: for one that is not
        self._tables: dict[str, tuple[DefTable, str, list[str], str] | None] = {}

    # ---- public ------------------------------------------------------------------------
    def expr(self, e: ast.Expr, env: Env) -> tuple[str, str]:
        """The source and kind of ``e``; ``env`` gives the rules' local names."""
        e = walk.uncited(e)
        kind = self.kind(e)
        ok, value = self.folded(e, env)
        if ok:
            return self.constant(value, kind), kind
        return self._expr(e, env, kind)

    def src(self, e: ast.Expr, env: Env) -> str:
        return self.expr(e, env)[0]

    def kind(self, e: ast.Expr) -> str:
        return kind_of(self.res.type_of(walk.uncited(e)))

    def folded(self, e: ast.Expr, env: Env) -> tuple[bool, object]:
        """(True, value) where ``e`` is constant at this table: where the engine's compiler
        folds it, and where it reads only constants and variables no rule sets (``trump``
        in a game without trumps), which the engine reads each time: the same value, and
        nothing left out that could raise (an ``and`` is folded only by its left side)."""
        if isinstance(e, (ast.IntLit, ast.StrLit, ast.CardLit)):
            return True, self.ec.const(e)[1]
        try:
            got = self.ec.const(e, frozenset(), frozenset(env))
        except (AssertionError, KeyError):  # a name the engine's compiler does not know here
            return False, None
        if got[0] or not self.fixed:
            return got
        return self._fold(walk.uncited(e), env)

    def _fold(self, e: ast.Expr, env: Env) -> tuple[bool, object]:
        match e:
            case ast.Name():
                b = self.res.binding(e.span)
                if isinstance(b, BoundVar) and b.name in self.fixed:
                    return True, self.fixed[b.name]
            case ast.Compare(op=op, left=a, right=b) if op in _OPS:
                (oka, va), (okb, vb) = self.folded(a, env), self.folded(b, env)
                if oka and okb:
                    try:
                        return True, COMPARE[op](va, vb)
                    except TypeError:
                        pass
            case ast.And(left=a, right=b) | ast.Or(left=a, right=b):
                ok, va = self.folded(a, env)
                if ok:
                    if bool(va) != isinstance(e, ast.And):
                        return True, va
                    return self.folded(b, env)
            case ast.Not(operand=a):
                ok, va = self.folded(a, env)
                if ok:
                    return True, not va
            case ast.IfExpr(cond=c, then=t, else_=f):
                ok, vc = self.folded(c, env)
                if ok:
                    return self.folded(t if vc else f, env)
        return False, None

    def constant(self, v: object, kind: str) -> str:
        """The source of the constant ``v`` (the engine's value) as a value of ``kind``."""
        if kind == "card":
            return "None" if v is None else str(self.deck.num[v])  # type: ignore[index]
        if kind == "cards":
            v = tuple(self.deck.num[c] for c in v)  # type: ignore[attr-defined]
        elif kind == "list":
            items: tuple[object, ...] = tuple(v)  # type: ignore[arg-type]
            if any(isinstance(x, (tuple, list)) for x in items):
                raise Unsupported("a list of lists")
            v = items
        if isinstance(v, tuple) and len(v) > 4:
            key = (kind, v)
            name = self._consts.get(key)
            if name is None:
                name = self._consts[key] = f"_k{len(self._consts)}"
                self.globals[name] = v
            return name
        return repr(v)

    def fresh(self, name: str) -> str:
        self._fresh += 1
        return f"_{name}{self._fresh}"

    # ---- nodes ---------------------------------------------------------------------------
    def _expr(self, e: ast.Expr, env: Env, kind: str) -> tuple[str, str]:  # noqa: C901
        match e:
            case ast.Name():
                return self._name(e, env)
            case ast.Index(target=tg, index=ix):
                t, tk = self.expr(tg, env)
                i = self.src(ix, env)
                bare = walk.uncited(ix)
                ok, iv = self.folded(ix, env)
                if (ok and not (type(iv) is int and iv >= 0)) or isinstance(bare, ast.Neg) or \
                        (isinstance(bare, ast.BinOp) and bare.op in ("-", "//", "%")):
                    i = f"_ix({i})"  # as the engine checks it
                if tk in ("pzb", "pzl"):
                    return f"{t}[{i}]", tk[1:]
                if tk == "per":
                    return f"{t}[{i}]", kind
                if tk == "zb":
                    raise Unsupported("a card of a zone read by its place")
                return f"{t}[{i}]", kind
            case ast.ListLit(items=items):
                parts = [self.value(x, env) for x in items]
                return "(" + "".join(p + ", " for p in parts) + ")", kind
            case ast.Comprehension(elem=el, var=v, source=s, cond=c):
                got = f"tuple([{self._gen(el, v, s, c, env)}])"
                if kind in ("any", "list") and self._elem_kind == "card":
                    kind = "cards"  # of an untyped parameter's cards: cards still
                return got, kind
            case ast.BinOp(op=op, left=a, right=b):
                (sa, ka), (sb, kb) = self.expr(a, env), self.expr(b, env)
                if op == "+" and kind in ("cards", "list"):
                    return f"({self.keep(sa, ka)} + {self.keep(sb, kb)})", kind
                return f"({sa} {op} {sb})", kind
            case ast.Compare(op=op, left=a, right=b):
                return self._compare(op, a, b, env), kind
            case ast.And(left=a, right=b) | ast.Or(left=a, right=b):
                # a constant side decides, as the engine's compiler folds it
                every = isinstance(e, ast.And)
                ok, av = self.folded(a, env)
                sa = repr(av) if ok else self.src(a, env)
                if sa in ("True", "False"):
                    return self.expr(b, env) if (sa == "True") == every else (sa, kind)
                ok, bv = self.folded(b, env)
                if ok and bool(bv) == every:
                    return sa, kind
                return f"({sa} {'and' if every else 'or'} {self.src(b, env)})", kind
            case ast.Not(operand=o):
                return f"(not {self.src(o, env)})", kind
            case ast.Neg(operand=o):
                return f"(-{self.src(o, env)})", kind
            case ast.IfExpr(cond=c, then=t, else_=f):
                ok, cv = self.folded(c, env)
                cs = "" if ok else self.src(c, env)
                if ok or cs in ("True", "False"):  # a test that folds inside a definition
                    return self.expr(t if (cv if ok else cs == "True") else f, env)
                return f"({self.value(t, env)} if {cs} else {self.value(f, env)})", kind
            case ast.Call():
                return self._call(e, env, kind)
            case ast.GenCall():
                return self._gencall(e, env, kind)
            case _:
                raise Unsupported(f"{type(e).__name__} in an expression")

    def value(self, e: ast.Expr, env: Env) -> str:
        """``e`` as a value to keep: a zone's cards as a tuple of card ints."""
        s, k = self.expr(e, env)
        return self.keep(s, k)

    def keep(self, s: str, k: str) -> str:
        """The source ``s`` of kind ``k`` as a value to keep (a zone's cards as a tuple)."""
        if k == "zb":
            return f"_cardsof({s})"
        if k in ("zl", "per"):
            return f"tuple({s})"
        return s

    def element_kind(self, e: ast.Expr) -> str:
        """The kind of the elements of the list or zone ``e``."""
        t = self.res.type_of(walk.uncited(e))
        if isinstance(t, (T.Zone, T.PZone)):
            return "card"
        if isinstance(t, T.ListOf):
            return kind_of(t.elem)
        raise Unsupported(f"the elements of a {T.describe(t)}")

    def iterable(self, e: ast.Expr, env: Env) -> tuple[str, str]:
        """``e`` as something to loop over, and its elements' kind."""
        s, k = self.expr(e, env)
        if k == "zb":
            return f"_cardsof({s})", "card"
        if k == "zl":
            return f"tuple({s})", "card"  # a snapshot: the loop's body may move its cards
        if k == "cards":
            return s, "card"
        if k == "melds":
            return s, "cards"
        if k == "list":
            t = self.res.type_of(walk.uncited(e))
            if not isinstance(t, T.ListOf):  # a definition's untyped parameter
                raise Unsupported(f"a loop over a {T.describe(t)}")
            return s, kind_of(t.elem)
        raise Unsupported(f"a loop over a value of kind {k}")

    def _name(self, e: ast.Name, env: Env) -> tuple[str, str]:
        b = self.res.binding(e.span)
        match b:
            case BoundLocal(name=n):
                if n not in env:
                    raise Unsupported(f"the local {n} out of its scope")
                return env[n]
            case BoundVar(name=n) | BoundBuiltinVar(name=n):
                if n not in self.vars:
                    raise Unsupported(f"the variable {n}")
                py, kind = self.vars[n]
                return py, kind if kind == "per" else self.kind(e)
            case BoundZone(name=n):
                z = self.zones[n]
                return z.py, z.kind
        raise Unsupported(f"the name {e.id} ({type(b).__name__})")

    def _compare(self, op: str, a: ast.Expr, b: ast.Expr, env: Env) -> str:
        (sa, ka), (sb, kb) = self.expr(a, env), self.expr(b, env)
        if op in ("in", "not in"):
            neg = "not " if op == "not in" else ""
            if kb == "cards" and ka == "card" and (m := self._bits_of_cards(b, env)):
                # a card in zones joined (``c in hand + skat``): in the union of their bits
                sb, kb = m, "zb"
            if kb == "zb":
                ok, av = self.folded(a, env)
                # a card that is none is in no zone, but the zones are read all the same, as
                # the engine reads them (a zone of a seat past the table raises)
                test = f"({sb} >> {sa} & 1 == 1)" if ok and av is not None or sa.isdigit() else \
                    f"({sb} >> {sa} & 1 == 1 if {sa} is not None else {sb} is None)"
                return f"({neg}{test})"
            return f"({sa} {op} {sb})"
        if ka in ("zb", "zl") or kb in ("zb", "zl"):
            raise Unsupported("a zone compared")
        return f"({sa} {op} {sb})"

    def _bits_of_cards(self, e: ast.Expr, env: Env, joined: bool = True) -> str | None:
        """The bits of the cards of ``e`` where it joins zones (``+``, a choice of two, an
        empty list; only where ``joined``: a card twice is once in the bits), or is the cards
        of a zone that pass a test, or a definition's that are; evaluated as the list is (the
        zones in order, the choice's test where the list's is); None for another shape."""
        e = walk.uncited(e)
        match e:
            case ast.BinOp(op="+", left=x, right=y) if joined:
                left, right = self._bits_of_cards(x, env), self._bits_of_cards(y, env)
                return None if left is None or right is None else f"({left} | {right})"
            case ast.IfExpr(cond=c, then=t, else_=f):
                ok, cv = self.folded(c, env)
                if ok:
                    return self._bits_of_cards(t if cv else f, env, joined)
                then, other = self._bits_of_cards(t, env, joined), \
                    self._bits_of_cards(f, env, joined)
                return None if then is None or other is None else \
                    f"({then} if {self.src(c, env)} else {other})"
            case ast.ListLit(items=()):
                return "0"
            case ast.Call() if isinstance(b := self.res.binding(e.span, "call"), BoundDef) \
                    and b.name not in self._inlining:
                # a definition's cards: its body's, its parameters its arguments
                self._inlining.append(b.name)
                try:
                    return self._bits_of_cards(self.ec.defs[b.name].body,
                                               self._bound(b.name, e.args, env), joined)
                finally:
                    self._inlining.pop()
            case ast.Comprehension(elem=el, var=v, source=src, cond=c) if \
                    walk.uncited(el) == ast.Name(v) and self.masks is not None:
                # the cards of some cards that pass a test: their bits, less the others
                # (a mask of the test that cannot raise: it is read before any card is)
                whole = self._bits_of_cards(src, env, joined)
                if whole is None or c is None:
                    return whole
                m = self.masks.of([c], v, {**env, v: (self.fresh(v), "card")})
                return None if m is None or not _plain_mask(m) else f"({whole} & {m})"
        s, k = self.expr(e, env)
        if isinstance(e, ast.Name) and s in self._args:  # a parameter: its argument
            return self._bits_of_cards(*self._args[s], joined)
        return s if k == "zb" else f"_bitsof({s})" if k == "zl" else None

    # ---- calls ---------------------------------------------------------------------------
    def _call(self, e: ast.Call, env: Env, kind: str) -> tuple[str, str]:  # noqa: C901
        b = self.res.binding(e.span, "call")
        if isinstance(b, BoundDef):
            return self._inline(b.name, e.args, env)
        assert isinstance(b, BoundBuiltin)
        f, args = b.name, e.args
        if f == "first" and isinstance(c := walk.uncited(args[0]), ast.Comprehension):
            return self._first(c, env), kind
        if f in ("rank", "suit"):
            s, k = self.expr(args[0], env)
            if k != "card":
                raise Unsupported(f"{f} of a {k}")
            return f"{'_TR' if f == 'rank' else '_TS'}[{s}]", kind
        if f == "size":
            s, k = self.expr(args[0], env)
            return (f"{s}.bit_count()" if k == "zb" else f"len({s})"), kind
        if f in ("top", "bottom", "first", "last"):
            s, k = self.expr(args[0], env)
            if k == "zb":
                raise Unsupported(f"{f} of a zone kept as a set")
            return f"{s}[{'-1' if f in ('top', 'last') else '0'}]", kind
        if f in ("left_of", "right_of"):
            return f"(({self.src(args[0], env)}) {'+' if f == 'left_of' else '-'} 1) % _N", kind
        if f == "seats_from":
            return f"_SF[{self.src(args[0], env)}]", kind
        if f == "next_of":
            return f"(({self.src(args[0], env)}) + (1 if g_clockwise else -1)) % _N", kind
        if f == "turns_from":
            x = self.src(args[0], env)
            return f"(_SF[{x}] if g_clockwise else _turns_back({x}, _N))", kind
        if f == "range":
            return f"_range({self.src(args[0], env)}, {self.src(args[1], env)})", kind
        if f == "set_of":
            s, k = self.expr(args[0], env)
            if k == "zb":
                return f"tuple(sorted(_cardsof({s}), key=_DORD.__getitem__))", kind
            if k in ("zl", "cards"):
                return f"tuple(sorted(set({s}), key=_DORD.__getitem__))", kind
            return f"_set_of({s})", kind
        if f in ("min", "max", "sum", "any", "all", "count"):
            s = self.value(args[0], env)
            py = {"sum": "sum", "min": "min", "max": "max", "any": "any", "all": "all",
                  "count": "_count"}[f]
            return f"{py}({s})", kind
        if f in ("deadwood", "is_meld", "melds", "best_melds"):
            return self._meld_call(f, args, env), kind
        if f in ("team_of", "members", "partner"):
            name = {"team_of": "_TEAM", "members": "_MEM", "partner": "_PART"}[f]
            table = self.globals[name] = self.ec.globals[name]
            x = self.src(args[0], env)
            if x.isdigit() and int(x) < len(table):  # type: ignore[arg-type]
                # a seat the code names (a loop over the seats written out): its value now
                return repr(table[int(x)]), kind  # type: ignore[index]
            return f"{name}[{x}]", kind
        raise Unsupported(f"the built-in {f}")

    def _meld_call(self, f: str, args: tuple[ast.Expr, ...], env: Env) -> str:
        """A meld built-in: the engine's own (bound to the deck's ranks and suits), on the
        cards' codes, in the order the value holds them (a zone kept as a set is one whose
        order no rule reads: best_melds reads it, so kernel/zones.py keeps its zone a list);
        a deadwood of values of each card alone on the cards' numbers."""
        if f == "deadwood" and (fast := self._numbered_deadwood(args, env)) is not None:
            return fast
        name = f"_{f}"
        self.globals[name] = self.ec.globals[name]
        cards = self._codes(args[0], env)
        rest = ", ".join(self.value(a, env) for a in args[1:])
        call = f"{name}({cards}, {rest})"
        if f in ("melds", "best_melds"):  # each meld's cards back to numbers, in order
            return f"tuple(tuple(_NUM[c] for c in m) for m in {call})"
        return call

    def _numbered_deadwood(self, args: tuple[ast.Expr, ...], env: Env) -> str | None:
        """``deadwood(cs, [v(x) for x in cs], order)``, ``v`` a value of the card alone and
        ``order`` a constant, on the cards' numbers (melds.NumberedDeadwood: each card's
        value worked out now), or None for another shape."""
        vals = walk.uncited(args[1])
        ok, order = self.folded(args[2], env)
        if not ok or not isinstance(vals, ast.Comprehension) or vals.cond is not None:
            return None
        cards, k = self.expr(args[0], env)
        if k not in ("cards", "zl", "list") or self.src(vals.source, env) != cards:
            return None
        values = self._each_card(vals.elem, vals.var, env)
        if values is None or not all(type(v) is int for v in values):
            return None
        deck = self.ec.spec.deck
        rank_of, suit_of = (RANK_OF, SUIT_OF) if deck.french else (deck.rank_of, deck.suit_of)
        fn = NumberedDeadwood(self.deck.code, values, order, rank_of,  # type: ignore[arg-type]
                              suit_of, self.ec.globals["_deadwood"])  # type: ignore[arg-type]
        name = f"_dwn{len(self.globals)}"
        self.globals[name] = fn
        bits = self._bits_of_cards(args[0], env, joined=False)
        # the hand's bits where they can be had without a list (a hand less one card; no
        # zones joined, where a card twice would be once)
        return f"{name}.of_mask({bits})" if bits is not None else f"{name}({cards})"

    def _each_card(self, e: ast.Expr, var: str, env: Env) -> list[object] | None:
        """The value of ``e`` for each card of the deck as ``var``, where it reads nothing
        but the card (worked out now), else None."""
        tc = self.fresh("tc")
        src = self.value(e, {**env, var: (tc, "card")})
        glb = self.runtime()
        names = {n.id for n in pyast.walk(pyast.parse(src, mode="eval"))
                 if isinstance(n, pyast.Name)}
        if not names <= {tc, *glb, *dir(builtins)}:
            return None  # it reads the state, or a local
        try:
            f = eval(f"lambda {tc}: {src}", glb)  # noqa: S307  (our own generated text)
            return [f(c) for c in range(len(self.deck.code))]
        except Exception:  # noqa: BLE001  (a card whose value raises: the general path)
            return None

    def _arg(self, a: ast.Expr, env: Env) -> tuple[str, str]:
        """An argument of an inlined definition: a list of cards as cards, so that an
        untyped parameter still knows its elements."""
        s, k = self.expr(a, env)
        if k in ("list", "any") and self.res.type_of(walk.uncited(a)) == T.ListOf(T.Card()):
            return s, "cards"
        return s, k

    def _codes(self, e: ast.Expr, env: Env) -> str:
        """The cards ``e`` as the engine holds them: a list of their codes."""
        s, k = self.expr(e, env)
        if k == "zb":
            return f"[_CODE[c] for c in _cardsof({s})]"
        if k in ("zl", "cards", "list"):  # the checker has seen a list of cards
            return f"[_CODE[c] for c in {s}]"
        raise Unsupported(f"cards of kind {k}")

    def _first(self, c: ast.Comprehension, env: Env) -> str:
        """``first([...])`` of a comprehension: the first position of the best (every
        trick's winner, ``codegen/best.py``) from one list, else a loop that stops at the
        first element that passes."""
        best = best_of(c, lambda sp: self.res.binding(sp, "call"))
        if best is not None:
            xs, m = best
            vals = f"[{self._gen(m.elem, m.var, xs, None, env)}]"
            fn = "max" if self.res.binding(m.span, "call") == BoundBuiltin("max") else "min"
            if self._in_iter:  # no ``:=`` in a comprehension's iterable
                return f"_best({vals}, {fn})"
            # every card's value is worked out where the engine's loop works it out:
            # what each reads unconditionally of the cards is read once, first (an empty
            # list is an error either way)
            hoisted, vals = hoist(vals, self.fresh)
            p = self.fresh("p")
            found = f"({p} := {vals}).index({fn}({p}))"
            if not hoisted:
                return found
            lets = "".join(f"({n} := {v}), " for n, v in hoisted)
            return f"({lets}{found})[-1]"
        return f"_first({self._gen(c.elem, c.var, c.source, c.cond, env)})"

    def _gencall(self, e: ast.GenCall, env: Env, kind: str) -> tuple[str, str]:
        b = self.res.binding(e.span, "call")
        assert isinstance(b, BoundBuiltin)
        if e.cond is None and b.name in ("any", "all", "count", "sum"):
            got = self._by_card(e, b.name, env)
            if got is not None:
                return got, kind
        if e.cond is None and (got := _unrolled(self, e, b.name, env)) is not None:
            return got, kind
        gen = self._gen(e.elem, e.var, e.source, e.cond, env)
        match b.name:
            case "any" | "all":
                return f"{b.name}({gen})", kind
            case "count":
                return f"_count([{gen}])", kind
            case "sum" | "max" | "min":
                return f"{b.name}([{gen}])", kind
        raise Unsupported(f"the built-in {b.name} over a generator")

    def _by_card(self, e: ast.GenCall, fn: str, env: Env) -> str | None:
        """``any``/``all``/``count``/``sum`` of a value of each card that reads nothing but
        the card (``points(c) for c in won[p]``), over a zone kept as a set, as operations on
        its bits: the value of every card of the deck worked out now, the cards grouped by
        value (``(S & ONES).bit_count() + 13 * (S & THIRTEENS).bit_count()``)."""
        s, k = self.expr(e.source, env)
        if k != "zb":
            return None
        values = self._each_card(e.elem, e.var, env)
        if values is None:
            return None
        groups: dict[object, int] = {}
        for c, v in enumerate(values):
            groups[v] = groups.get(v, 0) | 1 << c
        true = sum(m for v, m in groups.items() if v)
        if fn == "any":
            return f"({s} & {true} != 0)"
        if fn == "all":
            return f"({s} & {true} == {s})"
        if fn == "count":
            return f"({s} & {true}).bit_count()"
        if not all(type(v) is int for v in groups) or len(groups) > 4:
            return None
        parts = [f"({s} & {m}).bit_count()" + ("" if v == 1 else f" * {v}")
                 for v, m in groups.items() if v]
        return "(" + (" + ".join(parts) or "0") + ")"

    def runtime(self) -> dict[str, object]:
        """What the generated code's constant tables are (for working out values now)."""
        return {**RUNTIME_HELPERS, **self.deck.runtime(), **self.globals}

    def _gen(self, el: ast.Expr, var: str, src: ast.Expr, cond: ast.Expr | None,
             env: Env) -> str:
        """``el for var in src if cond``, without brackets."""
        self._in_iter += 1
        try:
            it, ek = self.iterable(src, env)
        finally:
            self._in_iter -= 1
        py = self.fresh(var)
        inner = {**env, var: (py, ek)}
        tail = ""
        if cond is not None:
            # folded only as the engine folds it: its source is evaluated where the engine's
            # is (a variable no rule sets is read, not folded, here)
            ok, cv = self.ec.const(cond, frozenset(), frozenset(inner))
            if ok and not cv:
                return f"{py} for {py} in ()"
            if not ok:
                tail = f" if {self.src(cond, inner)}"
        es, self._elem_kind = self.expr(el, inner)
        return f"{self.keep(es, self._elem_kind)} for {py} in {it}{tail}"

    def _inline(self, name: str, args: tuple[ast.Expr, ...], env: Env) -> tuple[str, str]:
        """A definition's body, its parameters the arguments' sources; a lookup where the
        definition is a table (tables.py)."""
        if name in self._inlining:
            raise Unsupported(f"the recursive definition {name}")
        d = self.ec.defs[name]
        inner = self._bound(name, args, env)
        got = self.table_of(name)
        if got is not None:
            table, body, params, kind = got
            srcs = [inner[p.name][0] for p in d.params]
            if inner[d.params[table.card].name][1] == "card" and \
                    safe_args(table, body, params, srcs):
                return table.lookup(table.name, srcs), kind
        self._inlining.append(name)
        try:
            return self.expr(d.body, inner)
        finally:
            self._inlining.pop()

    def _bound(self, name: str, args: tuple[ast.Expr, ...], env: Env) -> dict[str, tuple[str,
                                                                                     str]]:
        """The names of a definition's parameters bound to its arguments' sources."""
        d = self.ec.defs[name]
        inner = {p.name: self._arg(a, env) for p, a in zip(d.params, args, strict=True)}
        # an argument that is more than a name or a constant is evaluated where its
        # parameter is read: a pure value, the same each time
        inner = {k: ((s if _simple(s) else f"({s})"), kd) for k, (s, kd) in inner.items()}
        for p, a in zip(d.params, args, strict=True):
            # what each argument's text was written from (its text stands for its value
            # wherever the body reads the parameter); a name passed on is its own text
            if not isinstance(walk.uncited(a), ast.Name):
                self._args[inner[p.name][0]] = (a, env)
        return inner

    def table_of(self, name: str) -> tuple[DefTable, str, list[str], str] | None:
        """The definition ``name`` made a table, with its body's source, its parameters'
        Python names and its value's kind; None where it is not one (tables.py)."""
        if name in self._tables:
            return self._tables[name]
        self._tables[name] = None
        d = self.ec.defs[name]
        got = domains(d, self.spec, self.vars, [s for s in self.deck.suit_mask if s is not None],
                      self.fresh)
        if got is None:
            return None
        params, inner, variables = got
        self._inlining.append(name)
        try:
            body, kind = self.expr(d.body, inner)
        except Unsupported:
            return None
        finally:
            self._inlining.pop()
        made = tabulate(body, params, variables, self.runtime(), len(self.deck.code),
                        self.fresh("TB"))
        if made is None:
            return None
        self.globals.update(made[1])
        self._tables[name] = (made[0], body, [py for py, _ in params], kind)
        return self._tables[name]


def _unrolled(x: TypedExprs, e: ast.GenCall, fn: str, env: Env) -> str | None:
    """``any``/``all``/``sum``/``max``/``min`` over a few values the table fixes (the
    teams, the seats) written out, each element for its value, evaluated in the same order
    and stopping where the built-in stops: ``(True if E0 else True if E1 else False)``,
    ``(0 + E0 + E1)``, ``max(E0, E1)``."""
    ok, items = x.folded(e.source, env)
    if not ok or not isinstance(items, (list, tuple)) or not 0 < len(items) <= _UNROLL:
        return None
    ek = x.element_kind(e.source)
    elem = x.kind(e.elem)
    if fn in ("any", "all") and elem != "bool" or fn == "sum" and elem != "int" or \
            fn not in ("any", "all", "sum", "max", "min"):
        return None
    parts = [x.value(e.elem, {**env, e.var: (x.constant(v, ek), ek)}) for v in items]
    if fn in ("max", "min"):
        return f"{fn}({', '.join(parts)})" if len(parts) > 1 else parts[0]
    if fn == "sum":  # from 0, as sum adds: a value that is none raises
        return f"(0 + {' + '.join(parts)})"
    # a flag, whatever the values (any and all give one): the first that decides
    stop, other = ("True", "False") if fn == "any" else ("False", "True")
    neg = "" if fn == "any" else "not "
    return "(" + "".join(f"{stop} if {neg}{p} else " for p in parts) + f"{other})"


def _plain_mask(src: str) -> bool:
    """Whether a mask's source only combines names and numbers (``1 << c if c is not None
    else 0``): nothing in it can raise."""
    ok = (pyast.Expression, pyast.Name, pyast.Constant, pyast.Load, pyast.BinOp,
          pyast.LShift, pyast.BitXor, pyast.BitAnd, pyast.BitOr, pyast.IfExp, pyast.Compare,
          pyast.Is, pyast.IsNot, pyast.BoolOp, pyast.And, pyast.Or, pyast.UnaryOp, pyast.Not)
    return all(isinstance(n, ok) for n in pyast.walk(pyast.parse(src, mode="eval")))


def _simple(s: str) -> bool:
    return s.replace("_", "a").isalnum() or s.lstrip("-").isdigit()


def hoist(listed: str, fresh: Callable[[str], str]) -> tuple[list[tuple[str, str]], str]:
    """The parts of a list comprehension's element (``listed``, ``[E for x in X]``) that
    read neither its variable nor a name bound inside it and that every element's value
    evaluates (not behind an ``if`` or the right of an ``and``), each a temporary
    (returned with its source), and the comprehension reading them."""
    tree = pyast.parse(listed, mode="eval").body
    assert isinstance(tree, pyast.ListComp)
    var = {n.id for n in pyast.walk(tree.generators[0].target) if isinstance(n, pyast.Name)}
    bound = var | {n.id for n in pyast.walk(tree.elt) if isinstance(n, pyast.Name) and
                   isinstance(n.ctx, pyast.Store)}
    out: list[tuple[str, str]] = []

    def free(node: pyast.AST) -> bool:
        return not any(isinstance(n, pyast.Name) and n.id in bound or
                       isinstance(n, (pyast.Lambda, pyast.ListComp, pyast.GeneratorExp,
                                      pyast.NamedExpr)) for n in pyast.walk(node))

    def visit(node: pyast.expr) -> pyast.expr:
        if isinstance(node, (pyast.Subscript, pyast.Call, pyast.BinOp)) and free(node):
            name = fresh("h")
            out.append((name, pyast.unparse(node)))
            return pyast.Name(name, pyast.Load())
        match node:
            case pyast.IfExp():
                node.test = visit(node.test)
            case pyast.BoolOp():
                node.values[0] = visit(node.values[0])
            case pyast.Compare():
                node.left = visit(node.left)
                node.comparators[0] = visit(node.comparators[0])
            case pyast.BinOp():
                node.left, node.right = visit(node.left), visit(node.right)
            case pyast.UnaryOp():
                node.operand = visit(node.operand)
            case pyast.Subscript():
                node.value, node.slice = visit(node.value), visit(node.slice)
        return node

    tree.elt = visit(tree.elt)
    return out, pyast.unparse(tree)
