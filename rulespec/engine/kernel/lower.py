"""A table's procedures lowered to Python generators: the kernel's code (see ``__init__``).

Each procedure that can stop (it decides, draws by chance, runs a deal, or calls one that
does) becomes a generator function ``_p_NAME(st, *params)``, and every other one a plain function:
a statement is one line or a few of Python, an ``if``/``for``/``while`` a Python ``if``/
``for``/``while``, a call ``yield from`` or a call. A stop is a ``yield`` of what the driver
needs, answered by ``send``:

- a decision whose one alternative binds a single value of a list, each field that value or
  a constant (``play(card = c) for c in hand[h] if legal(h, c)``) yields ``(seat, values,
  alternative)``, the values already in canonical order (sorted by the text their events'
  keys differ in, :func:`sort_text`, or a mask's set bits over a zone kept as a bit set:
  ``bits.py``), and is sent the index of the one chosen;
- any other decision yields ``(seat, None, stop)``, a :class:`ChooseStop` of the Python
  engine's own enumerators, and is sent the chosen entry (event, alternative, values);
- a chance event yields ``(CHANCE, None, stop)`` with its :class:`ChanceStop`, and is sent
  nothing: the driver has laid the outcome with the engine's own chance functions.

``end deal`` and ``end match`` raise (:class:`DealOver`, :class:`MatchOver`) to the ``run
deal`` or the top that waits for them. Expressions are the Python engine's own
(:class:`~rulespec.engine.codegen.exprs.ExprCompiler`): the values are the engine's (cards as
codes, zones as lists), so the kernel reads and writes the same ``st.v`` and ``st.z``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from rulespec.engine.chance import uniform_outcomes, weighted_outcomes
from rulespec.engine.codegen import lazy as lazy_products
from rulespec.engine.codegen.cse import share_common
from rulespec.engine.codegen.enumerators import (
    Later,
    choose_enumerator,
    enumerator,
    keys_distinct,
    resolver,
)
from rulespec.engine.codegen.exprs import SCALAR, ExprCompiler
from rulespec.engine.codegen.pyexec import CATCH, overproc, overwork, pyname, runtime_error
from rulespec.engine.codegen.stmts import snapshot_src
from rulespec.engine.events import SubsetAxis, distinct_texts
from rulespec.engine.kernel.bits import Bits, kept
from rulespec.engine.kernel.listing import (
    SortTexts,
    Template,
    blocks,
    key_template,
    once,
    reads,
    sort_text,
    split,
    stopping,
    zone_of,
)
from rulespec.engine.kernel.zones import zone_shapes
from rulespec.engine.machine import (
    MAX_WORK,
    Alternative,
    ChanceStop,
    ChooseStop,
    deal_cards,
    fill_zone,
    move_cards,
    snapshot,
    snapshot_sum,
    together_seats,
)
from rulespec.errors import RuleRuntimeError
from rulespec.lang import ast, walk
from rulespec.lang.builtins import EmptyError
from rulespec.lang.model import BoundBuiltin
from rulespec.lang.types import Bool, Card, Int, Suit
from rulespec.lang.types import element as element_of

__all__ = ["DealOver", "MatchOver", "Unsupported", "lower_table", "sort_text"]


class Unsupported(Exception):
    """The kernel does not lower this table (a construct it does not cover yet): play it on
    the Python engine."""


class DealOver(Exception):
    """``end deal`` ran: the deal's generator unwinds to its ``run deal``."""


class MatchOver(Exception):
    """``end match`` ran: the match's generator unwinds to the top."""


class _Lowering:
    """Writes every procedure of a table as one Python text (see the module docstring)."""

    def __init__(self, ec: ExprCompiler, procs: dict[str, tuple[tuple[str, ...], ast.Block]]
                 ) -> None:
        self.ec = ec
        self.procs = procs
        self.lines: list[str] = []
        self.spans: dict[int, ast.Span] = {}
        self.objects: dict[str, object] = {}
        self._slot = 0
        self.stops = stopping(procs)
        #: the zones whose cards are distinct at this table: a listing over one keys each value
        #: once as it is, with no dictionary to drop repeats (kernel/zones.py)
        shapes = zone_shapes(ec.spec, ec.players, ec.options)
        self.distinct = frozenset(z for z, shape in shapes.items() if shape.distinct)
        #: the zones that may be kept as bit sets beside their lists (kernel/bits.py): those
        #: of distinct cards, ordered or not (the list keeps the order for whatever reads
        #: it), and the one the listing being written reads, where it may be one
        self.bits = Bits(self, self.distinct)
        self.bit_src: str | None = None
        self.xs = "_xs"

    # ---- text ------------------------------------------------------------------------------
    def emit(self, line: str, d: int, span: ast.Span | None = None) -> None:
        if span is not None:
            self.spans[len(self.lines)] = span
        self.lines.append("    " * d + line)

    def obj(self, x: object) -> str:
        self.objects[name := f"_o{len(self.objects)}"] = x
        return name

    def src(self, e: ast.Expr, local: frozenset[str], py: frozenset[str] = frozenset()) -> str:
        """The source of ``e``, the procedure's locals ``local`` read as Python variables."""
        return self.ec.source(e, frozenset(), local | py)

    def const(self, e: ast.Expr, local: frozenset[str]) -> tuple[bool, object]:
        return self.ec.const(e, frozenset(), local)

    @staticmethod
    def locals_dict(local: frozenset[str]) -> str:
        """A dict of the locals by their spec names: what the engine's enumerators and chance
        functions read them from (``L``)."""
        return "{" + ", ".join(f"{n!r}: {pyname(n)}" for n in sorted(local)) + "}"

    def slot(self, kind: str) -> str:
        self._slot += 1
        return f"#{kind}{self._slot}"

    # ---- procedures ------------------------------------------------------------------------
    def procedure(self, name: str, params: tuple[str, ...], body: ast.Block) -> None:
        self.emit(f"def {_fn(name)}(st{''.join(', ' + pyname(p) for p in params)}):", 1)
        self.emit("V = st.v; Z = st.z" + ("; B = st.zb" if self.bits.candidates else ""), 2)
        self.emit("try:", 2)
        n = len(self.lines)
        self.block(body, frozenset(params), 3)
        if name in ("#deal", "#match"):
            what = "deal" if name == "#deal" else "match"
            spec = self.ec.spec.deal if name == "#deal" else self.ec.spec.match
            self.emit(f"_ran_out({what!r}, {self.obj(spec.span)})", 3)
        elif len(self.lines) == n:
            self.emit("pass", 3)
        if name in self.stops:
            self.emit("if False: yield", 3)  # a generator even where no path stops
        self.emit(f"except {CATCH} as e:", 2)
        self.emit("raise _rt(e, _LS.get(e.__traceback__.tb_lineno, _span))", 3)

    def block(self, b: ast.Block, local: frozenset[str], d: int) -> frozenset[str]:
        for s in b.stmts:
            local = self.stmt(s, local, d)
        return local

    def stmt(self, s: ast.Stmt, local: frozenset[str], d: int) -> frozenset[str]:  # noqa: C901
        match s:
            case ast.Let(name=n, value=v):
                self.assign(pyname(n), v, local, d)
                return local | {n}
            case ast.Set(name=n, index=idx, value=v):
                if n in local:
                    self.assign(pyname(n), v, local, d)
                elif n == "dealer":
                    self.emit(f"V['dealer'] = _seat({self.src(v, local)}, _N)", d, v.span)
                else:
                    target = f"V[{n!r}]" if idx is None else \
                        f"V[{n!r}][{self.src(idx, local)}]"
                    self.assign(target, v, local, d)
            case ast.If():
                self.if_(s, local, d)
            case ast.While(cond=c, body=b):
                ok, val = self.const(c, local)
                if ok and not val:
                    return local
                self.emit("while True:", d, s.span)
                self.tick(s.span, d + 1)
                if not ok:
                    self.emit(f"if not ({self.src(c, local)}): break", d + 1, c.span)
                self.block(b, local, d + 1)
            case ast.Loop(body=b):
                self.emit("while True:", d, s.span)
                self.tick(s.span, d + 1)
                self.block(b, local, d + 1)
            case ast.For(var=v, source=src, cond=c, body=b):
                inner = local | {v}
                self.emit(f"_s = tuple({self.src(src, local)})", d, src.span)
                self.emit("st.work -= len(_s)", d)
                self.emit(f"if st.work < 0: _overwork({self.obj(src.span)})", d)
                self.emit(f"for {pyname(v)} in _s:", d, s.span)
                if c is not None:
                    # an error in the condition is the loop's, at its source, as the
                    # engine's ForNext reports it
                    self.emit(f"if not ({self.src(c, inner)}): continue", d + 1, src.span)
                self.block(b, inner, d + 1)
                self.emit("pass", d + 1)
            case ast.Repeat(count=cnt, body=b):
                self.emit(f"_n = {self.src(cnt, local)}", d, cnt.span)
                self.emit("st.work -= _n if _n > 0 else 0", d)
                self.emit(f"if st.work < 0: _overwork({self.obj(cnt.span)})", d)
                self.emit("for _ in range(_n):", d, s.span)
                self.block(b, local, d + 1)
                self.emit("pass", d + 1)
            case ast.Move(what=w, src=a, dst=z, bottom=bottom):
                what, src_, dst = self.src(w, local), self.src(a, local), self.src(z, local)
                if self.bits.move(s, what, src_, dst, self.distinct, d):
                    pass
                elif what == f"{src_}[-1]":
                    put = "_d.insert(0, _c)" if bottom else "_d.append(_c)"
                    self.emit(f"_z = {src_}; _c = _z[-1]; _d = {dst}; del _z[-1]; {put}", d, s.span)
                else:
                    self.emit(f"_move({what}, {src_}, {dst}, {bottom}, {self.obj(s.span)})", d,
                              s.span)
            case ast.Fill(zone=z, cards=cs):
                zs, cards = self.src(z, local), self.src(cs, local)
                if self.bits.fill(s, zs, cards, d):
                    pass
                elif isinstance(cs, ast.ListLit) and not cs.items:
                    # emptied (a trick as it starts): as the engine's code empties it
                    self.emit(f"_z = {zs}; st.in_play -= len(_z); _z.clear()", d, s.span)
                else:
                    self.emit(f"_fill(st, {zs}, {cards})", d, s.span)
            case ast.DealCards(count=cnt, src=a, zone=zn, seats=ss):
                self.emit(f"_deal({self.src(cnt, local)}, {self.src(a, local)}, Z[{zn!r}], "
                          f"{self.src(ss, local)}, {self.obj(s.span)})", d, s.span)
                self.bits.dealt(a, self.src(a, local), zn, d)
            case ast.Shuffle(zone=z):
                fz = self.ec.expr(z, local)
                stop = ChanceStop("shuffle", fz, fz, s, deck=self.ec.spec.deck)
                # a shuffle orders exactly the zone's cards (chance.py): no mirror changes
                self.emit(f"yield (_CHANCE, None, {self.obj(stop)}, {self.locals_dict(local)})",
                          d, s.span)
            case ast.Reshuffle(src=a, dst=z) | ast.Bury(src=a, dst=z):
                kind = "reshuffle" if isinstance(s, ast.Reshuffle) else "bury"
                stop = ChanceStop(kind, self.ec.expr(a, local), self.ec.expr(z, local), s,
                                  deck=self.ec.spec.deck)
                self.emit(f"yield (_CHANCE, None, {self.obj(stop)}, {self.locals_dict(local)})",
                          d, s.span)
                self.bits.resync(d)
            case ast.SitOut(seat=q):
                self.emit(f"V['sitting_out'][_sitter({self.src(q, local)}, _N)] = True", d, s.span)
            case ast.Reveal(zone=z):
                self.reveal(z, local, d)
            case ast.Pick():
                return self.pick(s, local, d)
            case ast.CallStmt() if _inlined(self, s, local, d):
                pass  # written in place
            case ast.CallStmt(name=n, args=args):
                params = self.procs[n][0]
                binds = "".join(f", {self.src(x, local)}"
                                for _, x in zip(params, args, strict=True))
                self.emit("st.work -= 1", d)
                self.emit("if st.work < 0: _overproc()", d, s.span)
                call = f"{_fn(n)}(st{binds})"
                self.emit(f"yield from {call}" if n in self.stops else call, d, s.span)
            case ast.Choose():
                self.choose(s, local, d)
            case ast.Break():
                self.emit("break", d)
            case ast.Continue():
                self.emit("continue", d)
            case ast.Return():
                self.emit("return", d)
            case ast.EndDeal(flag=flag, scoring=fn):
                self.emit(f"_end_deal(st, {flag!r}, {self.obj(self.ec.def_fns[fn])}, "
                          f"{self.obj(s)})", d, s.span)
                self.emit("raise _DealOver", d)
            case ast.EndMatch(winners=w):
                self.emit(f"_end_match(st, {self.obj(self.ec.expr(w, local))}, "
                          f"{self.locals_dict(local)}, {self.obj(s)})", d, s.span)
                self.emit("raise _MatchOver", d)
            case ast.RunDeal():
                # a call of the deal, a round of the work budget as any call is
                self.emit("st.work -= 1", d)
                self.emit("if st.work < 0: _overproc()", d, s.span)
                self.emit("st.deal_events = 0; st.in_deal = True", d, s.span)
                if self.ec.spec.reveals:
                    self.emit("V['#revealed'] = []", d)
                if self.ec.spec.sits_out:
                    self.emit("V['sitting_out'] = [False] * _N", d)
                if self.ec.spec.results:
                    self.emit("st.start_deal()", d)
                self.emit("try:", d)
                self.emit(f"yield from {_fn('#deal')}(st)", d + 1, s.span)
                self.emit("except _DealOver:", d)
                self.emit("st.in_deal = False", d + 1)
            case ast.Step(body=b):
                self.block(b, local, d)
            case _:
                raise Unsupported(f"{type(s).__name__.lower()} at line {s.span.line}")
        return local

    def assign(self, target: str, value: ast.Expr, local: frozenset[str], d: int) -> None:
        # what the value's inlined definitions compute more than once, computed once
        src = share_common(self.src(value, local))
        if self.const(value, local)[0] or isinstance(self.ec.type_of(value), SCALAR):
            self.emit(f"{target} = {src}", d, value.span)
        else:
            # a list value is kept as tuples all the way down, as the engine keeps it
            snap = snapshot_src(self.ec, value, src, lambda e: self.src(e, local))
            self.emit(f"{target} = {snap}", d, value.span)

    def reveal(self, z: ast.Expr, local: frozenset[str], d: int) -> None:
        """``reveal ZONE[i]``: the pile noted among those laid face up (the engine's own)."""
        if not isinstance(z, ast.Index):
            assert isinstance(z, ast.Name), z.span
            self.emit(f"V['#revealed'].append(({z.id!r}, None))", d, z.span)
            return
        assert isinstance(z.target, ast.Name), z.span
        name = z.target.id
        i = f"_pile({self.src(z.index, local)}, len(Z[{name!r}]))"
        self.emit(f"V['#revealed'].append(({name!r}, {i}))", d, z.span)

    def tick(self, span: ast.Span, d: int) -> None:
        self.emit("st.work -= 1", d)
        self.emit(f"if st.work < 0: _overwork({self.obj(span)})", d)

    def if_(self, s: ast.If, local: frozenset[str], d: int) -> None:
        ok, val = self.const(s.cond, local)
        if ok:
            if val:
                self.block(s.then, local, d)
            elif isinstance(s.else_, ast.If):
                self.if_(s.else_, local, d)
            elif s.else_ is not None:
                self.block(s.else_, local, d)
            return
        self.emit(f"if {self.src(s.cond, local)}:", d, s.cond.span)
        self.block(s.then, local, d + 1)
        self.emit("pass", d + 1)
        if s.else_ is None:
            return
        self.emit("else:", d)
        if isinstance(s.else_, ast.If):
            self.if_(s.else_, local, d + 1)
        else:
            self.block(s.else_, local, d + 1)
        self.emit("pass", d + 1)

    def pick(self, s: ast.Pick, local: frozenset[str], d: int) -> frozenset[str]:
        if s.source is not None:
            outcomes = uniform_outcomes(self.ec.expr(s.source, local))
        else:
            outcomes = weighted_outcomes(tuple((self.ec.expr(o.value, local),
                                                self.ec.expr(o.weight, local))
                                               for o in s.weighted))
        slot = self.slot("pick")
        stop = ChanceStop("pick", outcomes, outcomes, s, slot, self.ec.spec.deck)
        self.emit(f"_Lc = {self.locals_dict(local)}", d)
        self.emit(f"yield (_CHANCE, None, {self.obj(stop)}, _Lc)", d, s.span)
        n, got = s.name, f"_Lc.pop({slot!r})"
        kept = {v.name for v in self.ec.spec.vars} | {r.name for r in self.ec.spec.results}
        if n in local or (n not in kept and n != "dealer"):
            self.emit(f"{pyname(n)} = {got}", d, s.span)
            return local | {n}
        if n == "dealer":
            self.emit(f"V['dealer'] = _seat({got}, _N)", d, s.span)
        else:
            self.emit(f"V[{n!r}] = {got}", d, s.span)
        return local

    # ---- decisions -------------------------------------------------------------------------
    def alternatives(self, s: ast.Choose, local: frozenset[str]) -> list[ast.Alternative]:
        """The alternatives this table keeps (an option may rule one out)."""
        out = []
        for a in s.alternatives:
            if a.guard is not None:
                ok, val = self.ec.const(a.guard, frozenset(),
                                        local | {g.var for g in a.generators})
                if ok and not val:
                    continue
            out.append(a)
        return out

    def engine_stop(self, s: ast.Choose, alts: list[ast.Alternative], local: frozenset[str],
                    seat: Callable[..., object]) -> ChooseStop:
        """The Python engine's own stop for the decision: its enumerators list the events
        wherever the kernel has no listing of its own, and at the API's edge."""
        made = []
        for i, a in enumerate(alts):
            distinct = keys_distinct(a, s.alternatives)
            alone = len(s.alternatives) == 1

            def make(a: ast.Alternative = a, distinct: bool = distinct,
                     alone: bool = alone) -> Callable[..., Any]:
                eager = enumerator(self.ec, a, local, distinct)
                return (alone and lazy_products.lazy_enumerator(self.ec, a, local, eager)) \
                    or eager
            made.append(Alternative(a.action, Later(make), i, a,
                                    tuple(g.var for g in a.generators),
                                    resolver(self.ec, a, local)))
        # each enumerator compiled when first called (Later): a decision the kernel lists
        # itself calls it only at the API's edge
        merged = choose_enumerator(self.ec, alts, local, s.alternatives) \
            if len(alts) > 1 else None
        return ChooseStop(seat, tuple(made), s, merged)

    def listing(self, a: ast.Alternative, local: frozenset[str]) -> tuple[str, str] | None:
        """For an alternative that binds one card, suit or number of a list, each field that
        value or a constant: the variable, and the character after its field's value in the
        events' keys (see :func:`sort_text`); else None."""
        if len(a.generators) != 1:
            return None
        g = a.generators[0]
        t = element_of(self.ec.type_of(g.source))
        if not isinstance(t, (Card, Int, Bool, Suit)):
            return None
        names = sorted([f.name for f in a.fields] + ["action", "seat"])
        first: str | None = None
        for f in a.fields:
            e = walk.uncited(f.value)
            if isinstance(e, ast.Name) and e.id == g.var:
                if first is None or names.index(f.name) < names.index(first):
                    first = f.name
            elif not self.const(f.value, local | {g.var})[0]:
                return None
        if first is None:
            return None
        i = names.index(first)
        return g.var, "}" if i == len(names) - 1 else ","

    def listed(self, a: ast.Alternative, local: frozenset[str], var: str, table: str,
               d: int, out: str = "_b") -> None:
        """``_b = `` (``out``) the values of the alternative's one generator that pass its guard, in
        canonical order: the guard's definitions unfolded, each test that reads no value
        (the trick's size, the trick's number) made once as a Python ``if`` around the list,
        and what the rest reads that no value changes computed once before it; should any
        of that raise, the guard is tested on each value as written, so that an error is
        the engine's, where the engine's is."""
        g = a.generators[0]
        v = pyname(var)
        if a.guard is None and _constant_listing(self, g.source, local, table, out, d,
                                                  a.span):
            return
        unique = zone_of(self.unfold(g.source)) in self.distinct
        zone = self.bits.listed_zone(g.source)
        self.bit_src = self.bits.candidate(zone)
        # the zone's source, its bits' name, and what they are read from (the list in _xs)
        zs = self.src(zone, local)
        self.bits.listing_src = (zs, "_xb", "_xs" if zone is g.source else zs)
        self.emit("try:", d)
        # the values' list, or where they are a zone's set_of, made only by a listing
        # that tests card by card (the masks read the zone's bits)
        self.xs = "_xs" if zone is g.source or self.bit_src is None else \
            self.src(g.source, local)
        if self.xs == "_xs":
            self.emit(f"_xs = {self.src(g.source, local)}", d + 1, a.span)
        guard = self.unfold(a.guard) if a.guard is not None else None
        self.branch(guard, local, var, v, table, d + 1, a.span, out, unique)
        self.emit(f"except {CATCH}:", d)
        # the engine's own order: the tests that read no value first, then each value's
        before, inside = split(a.guard, var)
        pre = " and ".join(f"({self.src(c, local)})" for c in before) or "True"
        cond = " and ".join(f"({self.src(c, local, frozenset({var}))})" for c in inside)
        values = f"[{v} for {v} in {self.src(g.source, local)}{' if ' + cond if cond else ''}]"
        self.emit(f"{out} = sorted({once(values, unique)}, key={table}.__getitem__) if {pre} "
                  "else []", d + 1, a.span)

    def branch(self, guard: ast.Expr | None, local: frozenset[str], var: str, v: str,
               table: str, d: int, span: ast.Span, out: str = "_b", unique: bool = False
               ) -> None:
        before, inside = split(guard, var)
        if before:
            pre = " and ".join(f"({self.src(c, local)})" for c in before)
            self.emit(f"if not ({pre}): {out} = []", d, span)
            self.emit("else:", d)
            d += 1
        if len(inside) == 1:
            e = self.unfold(inside[0])
            if isinstance(e, ast.IfExpr) and not reads(e.cond, var):
                self.emit(f"if {self.src(e.cond, local)}:", d, span)
                self.branch(self.unfold(e.then), local, var, v, table, d + 1, span, out,
                            unique)
                self.emit("else:", d)
                self.branch(self.unfold(e.else_), local, var, v, table, d + 1, span, out,
                            unique)
                return
        if self.bit_src is not None and \
                self.bits.listing(inside, var, local, self.bit_src, out, d, span):
            return  # the guard as masks over the zone's bits (kernel/bits.py)
        # the procedure's locals are Python variables the listing does not change
        self.ec.hoisting(True, fresh=True, fixed=frozenset(map(pyname, local)))
        try:
            cond = " and ".join(f"({self.src(c, local, frozenset({var}))})" for c in inside)
            hoisted = self.ec.hoisted()
        finally:
            self.ec.hoisting(False, fresh=True)
        for n, src in hoisted:
            self.emit(f"{n} = {src}", d, span)
        values = f"[{v} for {v} in {self.xs}{' if ' + cond if cond else ''}]"
        self.emit(f"{out} = sorted({once(values, unique)}, key={table}.__getitem__)", d, span)

    def unfold(self, e: ast.Expr) -> ast.Expr:
        """``e`` without citations, a call of a definition replaced by its body with the
        arguments in place of the parameters (the values of the language have no side
        effects, so an argument written twice is the same value twice)."""
        e = walk.uncited(e)
        while isinstance(e, ast.Call) and (body := self.ec.body_of_call(e)) is not None:
            e = walk.uncited(body)
        return e

    def seat_of(self, s: ast.Choose, local: frozenset[str], d: int) -> None:
        # a stop: the work budget full again before the seat and the listing, as the
        # engine's machine fills it at every stop
        self.emit("st.work = _MW", d)
        self.emit(f"_q = {self.src(s.seat, local)}", d, s.seat.span)
        self.emit("if type(_q) is not int or not 0 <= _q < _H: "
                  f"_bad_seat(_q, {self.obj(s.span)})", d)

    def choose(self, s: ast.Choose, local: frozenset[str], d: int) -> None:
        if s.together is not None:
            self.together(s, s.together, local, d)
            return
        alts = self.alternatives(s, local)
        self.seat_of(s, local, d)
        if len(alts) == 1 and (got := self.listing(alts[0], local)) is not None:
            var, follow = got
            a = alts[0]
            stop = self.engine_stop(s, alts, local, self.ec.expr(s.seat, local))
            self.listed(a, local, var, self.obj(SortTexts(follow)), d)
            self.emit(f"if not _b: _none_legal(_q, {self.obj(s.span)})", d)
            self.emit(f"{pyname(var)} = _b[(yield (_q, _b, {self.obj(stop)}, "
                      f"{self.locals_dict(local)}))]", d, s.span)
            self.block(a.body, local | {var}, d)
            return
        stop = self.engine_stop(s, alts, local, self.ec.expr(s.seat, local))
        if len(alts) == 1 and (sub := self.subsets(alts[0], local)) is not None:
            self.subsets_listed(s, alts[0], stop, local, d)
            self.emit(f"{pyname(sub)} = _x if _lz else _x[1][{sub!r}]", d)
            self.block(alts[0].body, local | {sub}, d)
            return
        order = blocks([self.template(a, local) for a in alts]) if len(alts) > 1 else None
        if order is not None:
            self.listed_all(s, alts, order, stop, local, d)
            return
        self.emit(f"_a, _bd = yield (_q, None, {self.obj(stop)}, {self.locals_dict(local)})",
                  d, s.span)
        self.bodies(stop, alts, local, d)

    def template(self, a: ast.Alternative, local: frozenset[str]) -> Template | None:
        """What an alternative's events' keys hold before the one value that varies (the
        whole key for an alternative without a generator, the seat a mark that is the same
        for every alternative of the decision), where the kernel lists the alternative
        itself; else None."""
        got = self.listing(a, local) if a.generators else None
        if a.generators and got is None:
            return None
        var = got[0] if got is not None else None
        t = key_template(a, var, lambda e: self.const(e, local | ({var} if var else set())))
        return None if t is None else Template(t.text, got if t.listing is not None else None)

    def listed_all(self, s: ast.Choose, alts: list[ast.Alternative], order: list[list[int]],
                   stop: ChooseStop, local: frozenset[str], d: int) -> None:
        """A decision of several alternatives the kernel lists itself: each alternative's
        values (or, without a generator, whether its guard holds) in the order written, as
        the engine's enumerators test them, then the events in canonical order, block by
        block (``order``: the alternatives whose events come first first; a block of
        several, one event that each would write, goes to the first that holds), each an
        (alternative, value) pair; the body of the one chosen."""
        got = [self.listing(a, local) if a.generators else None for a in alts]
        for i, a in enumerate(alts):
            g = got[i]
            if g is not None:
                self.listed(a, local, g[0], self.obj(SortTexts(g[1])), d, f"_b{i}")
            else:
                self.emit(f"_b{i} = {self.src(a.guard, local) if a.guard else 'True'}", d,
                          a.span)
        self.emit("_b = []", d)
        for block in order:
            if got[block[0]] is not None:
                self.emit(f"_b += [({block[0]}, _x) for _x in _b{block[0]}]", d)
                continue
            for j, i in enumerate(block):
                self.emit(f"{'el' if j else ''}if _b{i}: _b.append(({i}, None))", d)
        self.emit(f"if not _b: _none_legal(_q, {self.obj(s.span)})", d)
        self.emit(f"_a, _v = _b[(yield (_q, _b, {self.obj(stop)}, "
                  f"{self.locals_dict(local)}))]", d, s.span)
        for i, a in enumerate(alts):
            g = got[i]
            self.emit(f"if _a == {i}:", d, a.span)
            if g is not None:
                self.emit(f"{pyname(g[0])} = _v", d + 1)
            self.block(a.body, local | ({g[0]} if g is not None else set()), d + 1)
            self.emit("pass", d + 1)

    def bodies(self, stop: ChooseStop, alts: list[ast.Alternative], local: frozenset[str],
               d: int) -> None:
        """The body of the alternative ``_a`` chosen, its variables ``_bd`` bound."""
        for alt, a in zip(stop.alts, alts, strict=True):
            self.emit(f"if _a is {self.obj(alt)}:", d, a.span)
            for g in alt.gen_vars:
                self.emit(f"{pyname(g)} = _bd[{g!r}]", d + 1)
            self.block(a.body, local | set(alt.gen_vars), d + 1)
            self.emit("pass", d + 1)

    def together(self, s: ast.Choose, var: str, local: frozenset[str], d: int) -> None:
        """``choose together``: each seat asked in turn, lowest first, its choice held;
        then each body in seat order, as the engine plays it (State.ask aside)."""
        inner = local | {var}
        alts = self.alternatives(s, inner)
        stop = self.engine_stop(s, alts, inner, lambda st, L: L[var])
        self.emit("_held = []", d)
        self.emit(f"for _q in _tseats({self.src(s.seat, local)}, _H, {self.obj(s.seat.span)}):",
                  d, s.span)
        self.emit(f"{pyname(var)} = _q", d + 1)
        sub = self.subsets(alts[0], inner) if len(alts) == 1 else None
        if sub is not None:
            # a hand's subsets, listed by the kernel (see subsets_listed)
            self.subsets_listed(s, alts[0], stop, inner, d + 1)
            self.emit("_held.append((_q, _lz, _x))", d + 1)
            self.emit("for _q, _lz, _x in _held:", d)
            self.emit(f"{pyname(var)} = _q", d + 1)
            self.emit(f"{pyname(sub)} = _x if _lz else _x[1][{sub!r}]", d + 1)
            self.block(alts[0].body, inner | {sub}, d + 1)
            self.emit("pass", d + 1)
            return
        self.emit(f"_held.append((_q, (yield (_q, None, {self.obj(stop)}, "
                  f"{self.locals_dict(inner)}))))", d + 1, s.span)
        self.emit("for _q, (_a, _bd) in _held:", d)
        self.emit(f"{pyname(var)} = _q", d + 1)
        self.bodies(stop, alts, inner, d + 1)

    def subsets(self, a: ast.Alternative, local: frozenset[str]) -> str | None:
        """For an alternative over a hand's subsets whose variable only its set field reads
        (``pass(cards = set_of(cs)) for cs in subsets(hand[q], 3, 3)``), every other field a
        constant: the variable; else None."""
        if resolver(self.ec, a, local) is None:
            return None
        var = a.generators[0].var
        for f in a.fields:
            e = walk.uncited(f.value)
            if not (isinstance(e, ast.Call) and e.func == "set_of") and \
                    not self.const(f.value, local | {var})[0]:
                return None
        return var

    def subsets_listed(self, s: ast.Choose, a: ast.Alternative, stop: ChooseStop,
                       local: frozenset[str], d: int) -> None:
        """The stop of a decision over a hand's subsets (see :meth:`subsets`), leaving
        ``_lz, _x``: for a hand of distinct cards (or suits), the kernel's own listing, the
        hand's subsets in the order of their sets' texts, which is their events' (a
        SubsetAxis: counted without a set made, the one chosen worked out from its number),
        and the subset chosen, in the hand's order (``_lz`` true); for any other hand, the
        engine's enumerator and the entry it sends (``_lz`` false). The guard, then the
        hand and the sizes, are evaluated in the engine's order, at its stop."""
        src = walk.uncited(a.generators[0].source)
        assert isinstance(src, ast.Call)
        xs, lo, hi = (self.src(x, local) for x in src.args)
        order = self.obj(self.ec.spec.deck.text_order)
        guard = self.src(a.guard, local) if a.guard is not None else "True"
        self.emit(f"if {guard}:", d, a.span)
        self.emit(f"_xs = tuple({xs}); _lo = {lo}; _hi = {hi}", d + 1, a.span)
        # a zone of distinct cards (zones.py) needs no look at its cards, only at their number
        known = zone_of(self.unfold(src.args[0])) in self.distinct
        test = "0 < len(_xs) <= 60" if known else f"_distinct(_xs, {order})"
        self.emit(f"_b = _Axis(_xs, _lo, _hi, {order}) if {test} else None", d + 1, a.span)
        self.emit("else:", d)
        self.emit("_b = []", d + 1)
        self.emit("_lz = _b is not None", d)
        self.emit("if _lz:", d)
        self.emit(f"if not len(_b): _none_legal(_q, {self.obj(s.span)})", d + 1)
        self.emit(f"_x = set(_b[(yield (_q, _b, {self.obj(stop)}, "
                  f"{self.locals_dict(local)}))])", d + 1, a.span)
        self.emit("_x = tuple(_c for _c in _xs if _c in _x)", d + 1)
        self.emit("else:", d)
        self.emit(f"_x = yield (_q, None, {self.obj(stop)}, {self.locals_dict(local)})",
                  d + 1, a.span)


#: what a procedure written in place of its call may do: nothing that stops, calls, returns
#: or binds a name but by ``let`` and ``for``
_IN_PLACE = (ast.Set, ast.Let, ast.If, ast.Move, ast.Fill, ast.For, ast.Repeat, ast.While,
             ast.Loop, ast.Break, ast.Continue)


def _inlined(low: _Lowering, s: ast.CallStmt, local: frozenset[str], d: int) -> bool:
    """Whether the call was written in place (and if so, written): a procedure of a few
    statements that neither stops, calls nor returns (a trick's start, a card played to it),
    its body lowered where the call is, the work budget spent for the call as the call
    spends it, then the arguments bound to the parameters, all evaluated before any is bound
    (an argument that is the parameter's own name in scope, ``play_to_trick(h, c)``, is
    already bound). Not where a name it binds is one the caller holds: the caller's
    variables are its Python locals too. A runtime error in its body is mapped to its
    statement by line, as in the procedure's own function."""
    params, body = low.procs[s.name]
    if s.name in low.stops or len(body.stmts) > 8:
        return False
    bound = set(params)
    for x, _ in walk.statements(body):
        if not isinstance(x, _IN_PLACE):
            return False
        if isinstance(x, (ast.Let, ast.For)):
            bound.add(x.name if isinstance(x, ast.Let) else x.var)
    same = {p for p, a in zip(params, s.args, strict=True)
            if p in local and walk.uncited(a) == ast.Name(p, span=walk.uncited(a).span)}
    if (bound - same) & local:
        return False
    low.emit("st.work -= 1", d)
    low.emit("if st.work < 0: _overproc()", d, s.span)
    binds = [(pyname(p), low.src(a, local)) for p, a in zip(params, s.args, strict=True)
             if p not in same]
    if binds:
        low.emit(f"{', '.join(n for n, _ in binds)} = {', '.join(v for _, v in binds)}", d,
                 s.span)
    low.block(body, frozenset(params), d)
    return True


def _fn(name: str) -> str:
    """The Python name of a procedure: the deal's and the match's apart from any spec's."""
    return "_P_" + name[1:] if name.startswith("#") else "_p_" + name


def _constant_listing(low: _Lowering, source: ast.Expr, local: frozenset[str], table: str,
                      out: str, d: int, span: ast.Span) -> bool:
    """``out = `` a listing with no guard over a list the table fixes (crazy eights' four
    suits to name), sorted once here rather than at every stop; False where the list is not
    fixed."""
    ok, xs = low.ec.const(source, frozenset(), local)
    if not ok or not isinstance(xs, (list, tuple)):
        return False
    try:
        got = sorted(dict.fromkeys(xs), key=cast(SortTexts, low.objects[table]).__getitem__)
    except TypeError:
        return False  # a value that is no key (a list): listed as it is at each stop
    # one list for every stop: a stop's listing is only read (its length, an element)
    low.emit(f"{out} = {low.obj(got)}", d, span)
    return True


def lower_table(ec: ExprCompiler, runtime: dict[str, object]
                ) -> tuple[Callable[..., Any], frozenset[str]]:
    """The match's generator function ``match(st)`` for the table ``ec`` compiles, with
    ``runtime`` (the kernel's helpers: ``_end_deal``, ``_end_match``, ``_bind`` ...) among
    its globals, and the zones it keeps as bit sets beside their lists (``st.zb``: see
    kernel/bits.py); Unsupported where the table has a construct the kernel does not lower."""
    spec = ec.spec
    if ec.team_now is not None:
        raise Unsupported("teams formed in play")
    if BoundBuiltin("seen_by") in spec.resolution.bindings.values():
        raise Unsupported("seen_by")
    procs: dict[str, tuple[tuple[str, ...], ast.Block]] = {
        p.name: (tuple(x.name for x in p.params), p.body) for p in spec.procs}
    procs["#deal"] = ((), spec.deal.body)
    procs["#match"] = ((), spec.match.body)
    low = _Lowering(ec, procs)
    low.emit("def _kernel():", 0)
    for name, (params, body) in procs.items():
        low.procedure(name, params, body)
    low.emit(f"return {_fn('#match')}", 1)
    mirrored = frozenset(low.bits.mirrored)
    text = "\n".join(kept(line, low.bits.keeps.get(i), mirrored)
                     for i, line in enumerate(low.lines)) + "\n"
    extra: dict[str, object] = dict(runtime)
    extra.update(low.objects)
    extra.update(low.bits.deck.runtime())
    extra.update(_LS={i + 2: sp for i, sp in low.spans.items()}, _move=move_cards,
                 _deal=deal_cards, _fill=fill_zone, _snap=snapshot, _snapsum=snapshot_sum,
                 _Empty=EmptyError,
                 _rt=runtime_error, _overwork=overwork, _overproc=overproc,
                 _DealOver=DealOver, _MatchOver=MatchOver, _tseats=together_seats,
                 _H=ec.hands, _MW=MAX_WORK, _Axis=SubsetAxis, _distinct=distinct_texts)
    try:
        make = ec.build("_kernel", text, spec.match.span, extra, what="the kernel")
    except RuleRuntimeError as e:
        # Python's limit of 20 nested blocks, met sooner in one function than in the
        # engine's one a procedure
        raise Unsupported(str(e)) from None
    return make(), mirrored
