"""Statements compiled to Python: one generated function per procedure.

A procedure's statements first become a flat list of instructions (straight-line Python text,
conditional and unconditional jumps, loop steps, calls, and the points where the machine must
stop: a decision, a chance event, the end of a deal or of the match). The list is then written
out (by ``emit.py``) as the source of one Python function ``run(st, F)``: ``F`` is the running
:class:`Frame` (procedure, pc, locals, is_deal), and each *block* (a stretch of instructions
that control enters only at its top: the start, a jump target, the place after a call or a
stop) becomes one arm of a dispatch on ``pc``. The function runs block after block, with every
statement and expression inline, and calls procedures directly, until the procedure returns
(``run`` gives None, its frame popped) or it reaches a stop, its own or a callee's: then it
saves its ``pc`` in its frame and gives 1, and so does every caller up to the machine
(``state.py``), which handles the stop of the top frame.

Why a dispatch on ``pc`` rather than a Python generator per procedure: a state must be cloned
cheaply (search, verify's probes, the invariant tests), and a generator cannot be copied. A frame
is a procedure, a ``pc`` and its locals, so a clone copies a few small objects and the copy
resumes where the original stands.

A runtime error is mapped back to the rule it comes from by the line of the generated source it
happens on (``_LS`` maps each line to its spec span), so the inline code pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import assert_never

from rulespec.engine.chance import uniform_outcomes, weighted_outcomes
from rulespec.engine.codegen import lazy as lazy_products
from rulespec.engine.codegen.cse import share_common
from rulespec.engine.codegen.emit import (
    CallProc,
    Emitter,
    ForInit,
    ForNext,
    Ins,
    Jump,
    JumpIfNot,
    Py,
)
from rulespec.engine.codegen.enumerators import (
    Later,
    binds_zone,
    choose_enumerator,
    enumerator,
    holds_zone,
    keys_distinct,
    resolver,
)
from rulespec.engine.codegen.exprs import SCALAR, ExprCompiler
from rulespec.engine.events import json_value
from rulespec.engine.machine import (
    Alternative,
    ChanceStop,
    ChooseStop,
    EndDeal,
    EndMatch,
    Fn,
    LegalMap,
    Procedure,
    Return,
    Together,
    hold_choice,
    together_seats,
)
from rulespec.engine.memory import glimpse
from rulespec.lang import ast, walk
from rulespec.lang.clauses import clause_id, pick_arms
from rulespec.lang.model import BoundBuiltin
from rulespec.lang.types import Card, Int, ListOf
from rulespec.lang.types import element as element_of

__all__ = ["compile_procedures", "snapshot_src"]


def compile_procedures(ec: ExprCompiler, procs: Sequence[tuple[str, tuple[str, ...], ast.Block,
                                                                ast.Span | None]],
                       compiled: set[str], cover: set[str] | None,
                       watch: bool = False) -> dict[str, Procedure]:
    """Every procedure of a table, by name: ``procs`` is (name, parameters, body, span), the
    deal and the match included under the names ``#deal`` and ``#match``. With ``watch``,
    each statement that moves cards is followed by a glimpse (memory.glimpse)."""
    out = {name: Procedure(name, params) for name, params, _, _ in procs}
    for name, _, body, span in procs:
        _StmtCompiler(ec, compiled, cover, out, watch).compile(out[name], body, span)
    return out


class _StmtCompiler:
    """Compiles one procedure: statements to instructions, instructions to a function."""

    def __init__(self, ec: ExprCompiler, compiled: set[str], cover: set[str] | None,
                 procs: dict[str, Procedure], watch: bool = False) -> None:
        self.ec = ec
        self.compiled = compiled
        self.cover = cover
        self.procs = procs
        self.ins: list[Ins] = []
        self.binds_zones = False
        self._slot = 0
        self._objects: dict[str, object] = {}
        #: the name of memory.glimpse in the generated code, where the table watches its moves
        self.glimpse = self._obj(glimpse) if watch else None
        self.revealed: set[str | None] | None = None
        #: the spec calls seen_by: each stop first has the seats note what they see, and each
        #: deal starts with nothing remembered (other specs compile as before)
        self.remembers = BoundBuiltin("seen_by") in ec.spec.resolution.bindings.values()

    def compile(self, proc: Procedure, body: ast.Block, span: ast.Span | None) -> None:
        if span is not None:
            self._mark("procedure", span)
        self.block(body, frozenset(proc.params), [])
        self.ins.append(Return())
        where = span if span is not None else (body.stmts[0].span if body.stmts else ast.NOSPAN)
        proc.stops = {pc: op for pc, op in enumerate(self.ins)
                      if isinstance(op, (ChooseStop, ChanceStop, EndDeal, EndMatch, Return))}
        proc.binds_zones = self.binds_zones
        proc.run = Emitter(proc.name, self.ins, self.procs).build(self.ec, proc.name, where,
                                                        self._objects)

    # ---- statements -----------------------------------------------------------------------
    def block(self, b: ast.Block, local: frozenset[str],
              loops: list[tuple[int, list[int]]]) -> frozenset[str]:
        for s in b.stmts:
            if self.remembers:
                self._memory(s)
            local = self.stmt(s, local, loops)
            if self.glimpse is not None and self._shows(s):
                self.ins.append(Py((f"{self.glimpse}(st)",), s.span))
        return local

    def _shows(self, s: ast.Stmt) -> bool:
        """Whether ``s`` moves cards where some seat may see them (a glimpse after it may
        show something): not into a zone visible to nobody that is never revealed."""
        match s:
            case ast.Move(dst=z) | ast.Fill(zone=z):
                name = _zone_named(z)
            case ast.DealCards(zone=zn):
                name = zn
            case _:
                return False
        zd = self.ec.spec.zone_named.get(name) if name is not None else None
        return zd is None or zd.visibility != "nobody" or name in self._revealed()

    def _revealed(self) -> set[str | None]:
        """The zones a ``reveal`` may lay face up (None: one it names otherwise)."""
        if self.revealed is None:
            spec = self.ec.spec
            self.revealed = {_zone_named(x.zone) for x in walk.descendants(
                (spec.procs, spec.deal, spec.match)) if isinstance(x, ast.Reveal)}
        return self.revealed if None not in self.revealed else \
            {zd.name for zd in self.ec.spec.zones}

    def _memory(self, s: ast.Stmt) -> None:
        """For a spec that calls ``seen_by``: before a stop, each seat notes the cards it sees
        (the moments its observations are made); before a deal, nothing is remembered."""
        if isinstance(s, ast.RunDeal):
            self.ins.append(Py(("st.forget()",), s.span))
        elif isinstance(s, (ast.Choose, ast.Shuffle, ast.Reshuffle, ast.Bury, ast.Pick)):
            self.ins.append(Py(("st.remember()",), s.span))

    def _src(self, e: ast.Expr, local: frozenset[str]) -> str:
        return self.ec.source(e, local, frozenset())

    def _obj(self, x: object) -> str:
        """A global name for an object the generated code uses (a span, a definition)."""
        name = f"_o{len(self._objects)}"
        self._objects[name] = x
        return name

    def _mark(self, kind: str, span: ast.Span) -> None:
        """Note that a clause is compiled for this table and, when coverage is on, mark it
        each time play enters it (no code at all when it is off)."""
        cid = clause_id(kind, span)
        self.compiled.add(cid)
        if self.cover is not None:
            self._objects["_COV"] = self.cover.add
            self.ins.append(Py((f"_COV({cid!r})",), span))

    def _assign(self, target: str, value: ast.Expr, local: frozenset[str],
                index: ast.Expr | None = None) -> None:
        if index is not None:
            target = f"{target}[{self._src(index, local)}]"
        # what the value's inlined definitions compute more than once, computed once
        src = share_common(self._src(value, local))
        if self.ec.const(value, local)[0] or isinstance(self.ec.type_of(value), SCALAR):
            # a number, a truth value, a card, a constant... (never a list): stored as it is
            self.ins.append(Py((f"{target} = {src}",), value.span))
            return
        # a list value (a zone, or a list of zones) is stored as tuples all the way down: a
        # snapshot, as the language says, which later moves do not change and a clone may share
        snap = snapshot_src(self.ec, value, src, lambda e: self._src(e, local))
        self.ins.append(Py((f"{target} = {snap}",), value.span))

    def _lay_face_up(self, z: ast.Expr, local: frozenset[str]) -> Py:
        """``reveal ZONE[i]``: the pile (name, i) is noted among those laid face up (the
        observation shows them to every seat); ``i`` must be one of the zone's piles."""
        if not isinstance(z, ast.Index):
            assert isinstance(z, ast.Name), z.span
            return Py((f"V['#revealed'].append(({z.id!r}, None))",), z.span)
        assert isinstance(z.target, ast.Name), z.span
        name = z.target.id
        i = f"_pile({self._src(z.index, local)}, len(Z[{name!r}]))"
        return Py((f"V['#revealed'].append(({name!r}, {i}))",), z.span)

    def stmt(self, s: ast.Stmt, local: frozenset[str],  # noqa: C901
             loops: list[tuple[int, list[int]]]) -> frozenset[str]:
        match s:
            case ast.Let(name=n, value=v):
                self._assign(f"L[{n!r}]", v, local)
                return local | {n}
            case ast.Set(name=n, index=idx, value=v):
                if n in local:
                    self._assign(f"L[{n!r}]", v, local)
                elif n == "dealer":
                    # the one built-in variable a spec sets: a seat of this table, checked
                    # where it is set rather than where a later rule reads it
                    self.ins.append(Py((f"V['dealer'] = _seat({self._src(v, local)}, _N)",),
                                        v.span))
                else:
                    self._assign(f"V[{n!r}]", v, local, idx)
            case ast.If():
                self._if(s, local, loops)
            case ast.While() | ast.Loop() | ast.For() | ast.Repeat():
                self._loop(s, local, loops)
            case ast.Move(what=w, src=a, dst=z, bottom=bottom):
                self.ins.append(self._move(s, w, a, z, bottom, local))
            case ast.Fill(zone=z, cards=ast.ListLit(items=())):
                # emptied (a trick's cards as it starts): nothing to spend, nothing to grow
                self.ins.append(Py((f"_z = {self._src(z, local)}; st.in_play -= len(_z); "
                                    "_z.clear()",), s.span))
            case ast.Fill(zone=z, cards=cs):
                self.ins.append(Py((f"_fill(st, {self._src(z, local)}, {self._src(cs, local)})",),
                               s.span))
            case ast.DealCards(count=cnt, src=a, zone=zn, seats=ss):
                self.ins.append(Py((f"_deal({self._src(cnt, local)},",
                                f"      {self._src(a, local)}, Z[{zn!r}],",
                                f"      {self._src(ss, local)}, {self._obj(s.span)})"), s.span))
            case ast.Shuffle(zone=z):
                fz = self.ec.expr(z, local)
                self.ins.append(ChanceStop("shuffle", fz, fz, s, deck=self.ec.spec.deck))
            case ast.Reshuffle(src=a, dst=z):
                self.ins.append(ChanceStop("reshuffle", self.ec.expr(a, local),
                                           self.ec.expr(z, local), s,
                                           deck=self.ec.spec.deck))
            case ast.Bury(src=a, dst=z):
                self.ins.append(ChanceStop("bury", self.ec.expr(a, local),
                                           self.ec.expr(z, local), s,
                                           deck=self.ec.spec.deck))
            case ast.Pick():
                return self._pick(s, local)
            case ast.CallStmt(name=n, args=args):
                params = self.procs[n].params
                self.ins.append(CallProc(n, tuple((p, self._src(x, local))
                                          for p, x in zip(params, args, strict=True)), s.span))
            case ast.Choose():
                self._choose(s, local, loops)
            case ast.Break():
                loops[-1][1].append(len(self.ins))
                self.ins.append(Jump(-1))
            case ast.Continue():
                self.ins.append(Jump(loops[-1][0]))
            case ast.Return():
                self.ins.append(Return())
            case ast.EndDeal(flag=flag, scoring=fn):
                self.ins.append(EndDeal(flag, self.ec.def_fns[fn], s))
            case ast.EndMatch(winners=w):
                self.ins.append(EndMatch(self.ec.expr(w, local), s))
            case ast.SitOut(seat=q):
                # the seat sits out the rest of the deal; 'run deal' seats everyone again
                seat = f"_sitter({self._src(q, local)}, _N)"
                self.ins.append(Py((f"V['sitting_out'][{seat}] = True",), s.span))
            case ast.Reveal(zone=z):
                self.ins.append(self._lay_face_up(z, local))
            case ast.RunDeal():
                # max_events counts the deal's own events, not the match block's before it
                self.ins.append(Py(("st.deal_events = 0",), s.span))
                if self.ec.spec.reveals:
                    self.ins.append(Py(("V['#revealed'] = []",), s.span))
                if self.ec.spec.sits_out:
                    self.ins.append(Py(("V['sitting_out'] = [False] * _N",), s.span))
                if self.ec.spec.results:
                    # the last deal's entry takes its result fields as they are now, and
                    # they start again from their initial values
                    self.ins.append(Py(("st.start_deal()",), s.span))
                self.ins.append(CallProc("#deal", (), s.span))
            case ast.Step(body=b):
                self.block(b, local, loops)  # a block of its own: its lets end with it
            case _:
                assert_never(s)
        return local

    def _pick(self, s: ast.Pick, local: frozenset[str]) -> frozenset[str]:
        """``pick NAME from ...``: a chance stop that leaves the value picked in a slot of
        the frame, then the value stored as ``set`` (a variable, ``dealer``) or ``let`` (a
        local) would store it."""
        if s.source is not None:
            outcomes = uniform_outcomes(self.ec.expr(s.source, local))
        else:
            outcomes = weighted_outcomes(tuple((self.ec.expr(o.value, local),
                                                self.ec.expr(o.weight, local))
                                               for o in s.weighted))
        slot = self._new_slot("pick")
        self.ins.append(ChanceStop("pick", outcomes, outcomes, s, slot, self.ec.spec.deck))
        self._pick_coverage(s, slot, local)
        n, got = s.name, f"L.pop({slot!r})"
        kept = {v.name for v in self.ec.spec.vars} | {r.name for r in self.ec.spec.results}
        if n in local or (n not in kept and n != "dealer"):
            self.ins.append(Py((f"L[{n!r}] = {got}",), s.span))
            return local | {n}
        if n == "dealer":
            self.ins.append(Py((f"V['dealer'] = _seat({got}, _N)",), s.span))
        else:
            self.ins.append(Py((f"V[{n!r}] = {got}",), s.span))
        return local

    def _pick_coverage(self, s: ast.Pick, slot: str, local: frozenset[str]) -> None:
        """Each outcome the pick lists in its text is a clause: compiled where its value is
        known for the table, and, when coverage is on, marked when the value picked is it."""
        arms: dict[str, str] = {}
        for value, span in pick_arms(s):
            ok, v = self.ec.const(value, local)
            if ok:
                cid = clause_id("outcome", span)
                self.compiled.add(cid)
                arms.setdefault(json_value(v), cid)
        if self.cover is None or not arms:
            return
        add = self.cover.add

        def mark(v: object) -> None:
            cid = arms.get(json_value(v))
            if cid is not None:
                add(cid)

        self.ins.append(Py((f"{self._obj(mark)}(L[{slot!r}])",), s.span))

    def _move(self, s: ast.Move, w: ast.Expr, a: ast.Expr, z: ast.Expr, bottom: bool,
              local: frozenset[str]) -> Py:
        """``move WHAT from SRC to DST [to bottom]``."""
        what, src, dst = self._src(w, local), self._src(a, local), self._src(z, local)
        if what == f"{src}[-1]":
            # the top card of the zone it leaves (a draw): taken off the end, without the
            # search move_cards makes; the same order of evaluation, so the same errors
            put = "_d.insert(0, _c)" if bottom else "_d.append(_c)"
            return Py((f"_z = {src}; _c = _z[-1]", f"_d = {dst}", f"del _z[-1]; {put}"),
                       s.span)
        if what == src:
            # the whole zone (a trick to its winner's pile): what move_cards does card by card,
            # at once; each card is its own zone's, taken out in order and put on the other
            put = "_d[:0] = _w[::-1]" if bottom else "_d.extend(_w)"
            return Py((f"_z = {src}; _w = tuple(_z)", f"_d = {dst}; _z.clear(); {put}"),
                      s.span)
        if isinstance(self.ec.type_of(w), Card):
            # one card, one copy of it (a card played): move_cards' first case, without its
            # call; any other case is its own
            put = "_d.insert(0, _c)" if bottom else "_d.append(_c)"
            return Py((f"_c = {what}; _z = {src}; _d = {dst}",
                       f"if type(_c) is str and _z.count(_c) == 1: _z.remove(_c); {put}",
                       f"else: _move(_c, _z, _d, {bottom}, {self._obj(s.span)})"), s.span)
        return Py((f"_move({what},", f"      {src},",
                    f"      {dst}, {bottom}, {self._obj(s.span)})"), s.span)

    def _loop(self, s: ast.While | ast.Loop | ast.For | ast.Repeat, local: frozenset[str],
              loops: list[tuple[int, list[int]]]) -> None:
        """``while``, ``loop``, ``for`` and ``repeat``: a ``break`` jumps past the loop's end
        (patched once it is known), a ``continue`` to its test or next step."""
        ins = self.ins
        match s:
            case ast.While(cond=c, body=b):
                ok, val = self.ec.const(c, local)
                if ok and not val:
                    return
                start = len(ins)
                ins.append(self._tick(s.span))
                jf = None
                if not ok:
                    jf = JumpIfNot(self._src(c, local), -1, c.span)
                    ins.append(jf)
                breaks: list[int] = []
                self.block(b, local, loops + [(start, breaks)])
                ins.append(Jump(start))
                if jf is not None:
                    jf.target = len(ins)
                self._patch(breaks, len(ins))
            case ast.Loop(body=b):
                start = len(ins)
                ins.append(self._tick(s.span))
                breaks = []
                self.block(b, local, loops + [(start, breaks)])
                ins.append(Jump(start))
                self._patch(breaks, len(ins))
            case ast.For(var=v, source=src, cond=c, body=b):
                if holds_zone(element_of(self.ec.type_of(src)) or Int()):
                    self.binds_zones = True
                inner = local | {v}
                cond = self._src(c, inner) if c is not None else None
                self._for(v, self._src(src, local), src.span, cond, b, inner, loops)
            case ast.Repeat(count=cnt, body=b):
                slot_var = self._new_slot("rep")
                # a range, not a tuple of its numbers: repeat 10**9 costs nothing to start,
                # and the work budget stops it
                self._for(slot_var, self._src(cnt, local), cnt.span, None, b,
                          local | {slot_var}, loops, lazy=True)
            case _:
                assert_never(s)

    def _tick(self, span: ast.Span) -> Py:
        """The head of each round of a ``while`` or a ``loop``: one round of the work budget
        spent, and past MAX_WORK rounds since the last event, a runtime error at the loop (a
        loop that can stop, by the checker's account, may still run for ever or for a
        billion rounds). A ``for`` or a ``repeat`` spends all its rounds as it starts."""
        return Py(("st.work -= 1", f"if st.work < 0: _overwork({self._obj(span)})"), span)

    def _new_slot(self, kind: str) -> str:
        self._slot += 1
        return f"#{kind}{self._slot}"

    def _patch(self, at: list[int], target: int) -> None:
        for i in at:
            op = self.ins[i]
            assert isinstance(op, Jump)
            op.target = target

    def _if(self, s: ast.If, local: frozenset[str], loops: list[tuple[int, list[int]]]) -> None:
        ins = self.ins
        ok, val = self.ec.const(s.cond, local)
        if ok:
            # An option decides this branch for the whole match: compile only that branch.
            if val:
                self._mark("then", s.span)
                self.block(s.then, local, loops)
            elif isinstance(s.else_, ast.If):
                self._if(s.else_, local, loops)
            else:
                self._mark("else", s.span)
                if s.else_ is not None:
                    self.block(s.else_, local, loops)
            return
        jf = JumpIfNot(self._src(s.cond, local), -1, s.cond.span)
        ins.append(jf)
        self._mark("then", s.span)
        self.block(s.then, local, loops)
        if s.else_ is None and self.cover is None:
            self.compiled.add(clause_id("else", s.span))
            jf.target = len(ins)
            return
        jend = Jump(-1)
        ins.append(jend)
        jf.target = len(ins)
        if isinstance(s.else_, ast.If):
            self._if(s.else_, local, loops)
        else:
            self._mark("else", s.span)
            if s.else_ is not None:
                self.block(s.else_, local, loops)
        jend.target = len(ins)

    def _for(self, var: str, src: str, span: ast.Span, cond: str | None, body: ast.Block,
             inner: frozenset[str], loops: list[tuple[int, list[int]]],
             lazy: bool = False) -> None:
        ins = self.ins
        slot = self._new_slot("for")
        ins.append(ForInit(src, slot, span, lazy, self._obj(span)))
        nxt = len(ins)
        step = ForNext(slot, var, -1, cond, span)
        ins.append(step)
        breaks: list[int] = []
        self.block(body, inner | {slot}, loops + [(nxt, breaks)])
        ins.append(Jump(nxt))
        step.end = len(ins)
        self._patch(breaks, len(ins))

    def _choose(self, s: ast.Choose, local: frozenset[str],
                loops: list[tuple[int, list[int]]]) -> None:
        if s.together is not None:
            self._choose_together(s, s.together, local, loops)
            return
        ins = self.ins
        at = len(ins)
        ins.append(Return())  # a placeholder until the alternatives are compiled
        alts = []
        ends: list[Jump] = []
        for a in s.alternatives:
            if any(binds_zone(self.ec, g) for g in a.generators):
                self.binds_zones = True
            inner = local | {g.var for g in a.generators}
            if a.guard is not None:
                ok, val = self.ec.const(a.guard, local, frozenset(g.var for g in a.generators))
                if ok and not val:
                    continue  # this table's options rule the alternative out
            enum = self._enumerator(a, local, keys_distinct(a, s.alternatives),
                                    len(s.alternatives) == 1)
            body_pc = len(ins)
            self._mark("alternative", a.span)
            self.block(a.body, inner, loops)
            end = Jump(-1)
            ends.append(end)
            ins.append(end)
            alts.append(Alternative(a.action, enum, body_pc, a,
                                    tuple(g.var for g in a.generators),
                                    resolver(self.ec, a, local)))
        for e in ends:
            e.target = len(ins)
        nodes = [alt.node for alt in alts]
        seat = s.seat
        seat_local = seat.id if isinstance(seat, ast.Name) and \
            self._src(seat, local) == f"L[{seat.id!r}]" else None
        ins[at] = ChooseStop(self.ec.expr(s.seat, local), tuple(alts), s,
                             self._merged(alts, nodes, local, s.alternatives), seat_local)

    def _enumerator(self, a: ast.Alternative, local: frozenset[str], distinct: bool,
                    alone: bool) -> Later:
        """The alternative's own enumerator, compiled when first called or when
        :meth:`_merged` finds its decision needs it; ``alone`` in its decision, of the
        shape :func:`~rulespec.engine.codegen.lazy.lazy_enumerator` takes, one that gives a
        lazy product."""
        def make() -> Callable[..., LegalMap | None]:
            eager = enumerator(self.ec, a, local, distinct)
            return (alone and lazy_products.lazy_enumerator(self.ec, a, local, eager)) or eager
        return Later(make)

    def _merged(self, alts: list[Alternative], nodes: list[ast.Alternative],
                local: frozenset[str], siblings: Sequence[ast.Alternative]
                ) -> Callable[..., None] | None:
        """The one function that lists the events of all of a decision's alternatives, or
        None. Without it play calls each alternative's own enumerator, compiled now; with it,
        only where its temporaries raise, which most tables never meet: they are compiled
        then (most of a table's enumerators), unless the sources are kept or coverage is on
        (every function a table may run listed, every clause it compiles counted)."""
        merged = choose_enumerator(self.ec, nodes, local, siblings) if len(nodes) > 1 else None
        if merged is None or self.ec.sources is not None or self.ec.cover is not None:
            for alt in alts:
                if isinstance(alt.enum, Later):
                    alt.enum = alt.enum.compiled()
        return merged

    def _choose_together(self, s: ast.Choose, var: str, local: frozenset[str],
                         loops: list[tuple[int, list[int]]]) -> None:
        """``choose together VAR in SEATS``: the seats are asked one by one (the lowest still
        to choose, or any other the driver names: State.ask), each choice is held in a local
        no rule reads, and once all are in, the bodies run in seat order with VAR and the
        alternative's variables bound to each seat's choice. An alternative's ``body_pc`` is
        the code that holds its choice, so the machine applies an event here as it applies
        any other."""
        ins = self.ins
        slot = self._new_slot("together")
        tg = Together(var, f"{slot}_pending", f"{slot}_held")
        pend, held, cur = repr(tg.pending), repr(tg.held), repr(f"{slot}_cur")
        seats = self._obj(together_seats)
        ins.append(Py((f"L[{pend}] = {seats}({self._src(s.seat, local)}, st.game.hands, "
                       f"{self._obj(s.seat.span)})", f"L[{held}] = ()"), s.span))
        ask = len(ins)
        reveal = JumpIfNot(f"L[{pend}]", -1, s.span)
        ins.append(reveal)
        ins.append(Py((f"L[{var!r}] = L[{pend}][0]",), s.span))
        at = len(ins)
        ins.append(Return())  # the stop, once the alternatives are known
        inner = local | {var}
        kept = []
        hold = self._obj(hold_choice)
        for i, a in enumerate(s.alternatives):
            if any(binds_zone(self.ec, g) for g in a.generators):
                self.binds_zones = True
            gvars = tuple(g.var for g in a.generators)
            if a.guard is not None:
                ok, val = self.ec.const(a.guard, inner, frozenset(gvars))
                if ok and not val:
                    continue
            enum = self._enumerator(a, inner, keys_distinct(a, s.alternatives),
                                    len(s.alternatives) == 1)
            binds = "(" + "".join(f"({v!r}, L[{v!r}]), " for v in gvars) + ")"
            body_pc = len(ins)
            ins.append(Py((f"_s = st.to_move; L[{held}] = {hold}(L[{held}], _s, {i}, {binds})",
                           f"L[{pend}] = tuple(q for q in L[{pend}] if q != _s)"), a.span))
            ins.append(Jump(ask))
            kept.append((i, a, Alternative(a.action, enum, body_pc, a, gvars,
                                           resolver(self.ec, a, inner))))
        reveal.target = len(ins)
        self._reveal(tg, cur, kept, inner, loops)
        nodes = [alt.node for _, _, alt in kept]
        ins[at] = ChooseStop(self._obj_fn(var), tuple(alt for _, _, alt in kept), s,
                             self._merged([alt for _, _, alt in kept], nodes, inner,
                                          s.alternatives), var, tg)

    def _reveal(self, tg: Together, cur: str,
                kept: list[tuple[int, ast.Alternative, Alternative]], inner: frozenset[str],
                loops: list[tuple[int, list[int]]]) -> None:
        """Every held choice applied, in seat order: the seat and the alternative's variables
        bound, then its body; the held choices dropped at the end."""
        ins = self.ins
        held = repr(tg.held)
        slot = self._new_slot("for")
        ins.append(ForInit(f"L[{held}]", slot, kept[0][1].span if kept else ast.NOSPAN,
                           False, self._obj(kept[0][1].span if kept else ast.NOSPAN)))
        nxt = len(ins)
        step = ForNext(slot, cur.strip("'"), -1, None, ast.NOSPAN)
        ins.append(step)
        ins.append(Py((f"_c = L[{cur}]; L[{tg.var!r}] = _c[0]; L.update(_c[2])",), ast.NOSPAN))
        for i, a, _ in kept:
            test = JumpIfNot(f"L[{cur}][1] == {i}", -1, a.span)
            ins.append(test)
            self._mark("alternative", a.span)
            self.block(a.body, inner | {g.var for g in a.generators} | {slot}, loops)
            ins.append(Jump(nxt))
            test.target = len(ins)
        ins.append(Jump(nxt))
        step.end = len(ins)
        # the reveal's own locals dropped: the frame is as a plain decision would leave it
        ins.append(Py((f"del L[{tg.pending!r}], L[{held}]",
                       f"L.pop({cur}, None); L.pop({slot!r}, None)"), ast.NOSPAN))

    def _obj_fn(self, var: str) -> Fn:
        """The seat of a decision read from the local ``var``."""
        return lambda st, L: L[var]


def _zone_named(e: ast.Expr) -> str | None:
    """The zone ``e`` names (``ZONE`` or ``ZONE[i]``), or None for any other expression."""
    e = walk.uncited(e)
    if isinstance(e, ast.Index):
        e = walk.uncited(e.target)
    return e.id if isinstance(e, ast.Name) else None


def snapshot_src(ec: ExprCompiler, value: ast.Expr, src: str,
                 source: Callable[[ast.Expr], str]) -> str:
    """The source storing list ``value`` (its source ``src``) as a snapshot; a sum of two lists
    of plain values (``trick_from + [h]``) joined and kept in one call (machine.snapshot_sum)
    rather than ``_add`` then ``_snap``: the same checks, in the same order."""
    t = ec.type_of(value)
    if isinstance(value, ast.BinOp) and value.op == "+" and isinstance(t, ListOf) \
            and isinstance(t.elem, SCALAR):
        return f"_snapsum(st, {source(value.left)}, {source(value.right)})"
    return f"_snap(st, {src})"
