"""Which zones of a table are sets: the typed lowering's first piece (issue 29).

The typed lowering is to keep a zone of distinct cards of one pack as an int bit set, and the
list only for a zone whose order the rules read (a trick, a pile). :func:`zone_shapes` decides
which zones those are, for one table (a spec at one player count and one set of option values),
statically, from the checked spec: it runs nothing and makes nothing faster by itself.

**order_free**: no rule can observe the order of the zone's cards. Every procedure, definition,
hook, table, the deal and the match are walked, each expression giving the zones whose order
its list value carries (``hand[h]``, a comprehension over it, ``subsets`` of it, a hook that
returns it); a use that reads that order marks those zones: ``top``, ``bottom``, ``first``,
``last``, an index, ``deal N from``, a reshuffle or a bury, a pick from the list, the list kept
in a variable, compared with ``==``, written into an event's field, passed to a built-in that
reads its order (``deadwood``, ``best_melds``), a ``for`` statement whose body does more than
move its card to another zone, a decision's generator whose events do not tell its values
apart (the engine keeps the first combination met for an event). Uses that do not: ``size``,
``in``, ``count``/``sum``/``any``/``all``/``max``/``min`` over it, ``set_of``, ``is_meld`` of
it, a decision's generator over it whose variable is a field of its event (the events are
sorted canonically), a named card moved out. A list moved or filled whole into another zone
(``move trick from trick to won[w]``) carries its order there: the source is ordered where the
destination is, a fixpoint from "every zone free". Each ordered answer keeps its reasons.

The analysis is conservative where it cannot tell (a wrong "free" is a bug, a wrong "ordered"
costs speed): definitions and procedures are followed with their arguments' zones, a local
takes the union of all it is given, and a built-in not listed here reads its arguments in
order. It does not consider runtime errors or the work budget: a rule that raises on one card
of a zone, or a short-circuit that spends less, may stop at another card once the zone is
permuted.

**distinct**: every card the zone can ever hold has a code no other card of the table has.
Each ``fill`` that brings cards into play is folded at the table (``pack(k)`` with ``k``
worked out from the options and the player count, ``without_ranks``, a comprehension over a
pack, a definition's branches) to the most copies of each code it can bring, and its cards
followed through every move, deal, reshuffle and bury; a zone is distinct where the fills
bring each code it may hold once in the whole table (a second pack that never meets the first
still shares its codes: not distinct). A fill in a loop, one whose value
reads a zone (which copies cards), or one that cannot be folded makes no zone of the table
distinct (a zone no card reaches is). It assumes, as every shipped game does, that a deal
empties the zones before it fills the pack again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import cast

import attrs
from attrs import frozen

from rulespec.lang import ast, walk
from rulespec.lang.model import (
    BoundBuiltin,
    BoundConstant,
    BoundDef,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    BoundZone,
    CheckedSpec,
)
from rulespec.lang.types import ListOf, Zone, element

__all__ = ["Reason", "ZoneShape", "zone_shapes"]

_Zs = frozenset[str]
_NONE: _Zs = frozenset()

#: built-ins whose list arguments are read without their order (their result carries none)
_ORDER_FREE = frozenset({"size", "min", "max", "sum", "any", "all", "count", "set_of", "rank",
                         "suit", "left_of", "right_of", "next_of", "seats_from", "turns_from",
                         "team_of", "members", "partner", "pack", "range"})
#: built-ins that read a position of their list
_POSITION = frozenset({"top", "bottom", "first", "last"})
#: built-ins whose result keeps the order of their first argument, read no order of it, and
#: whose other arguments are read without order (``without_ranks``' ranks) or in order
_PASS = {"without_ranks": (False,), "groups": (), "subsets": (False, False),
         "melds": (True,), "is_meld": (True,)}


@frozen
class Reason:
    """Why a zone is ordered: the construct that reads its order, and where it is written."""

    construct: str
    span: ast.Span = attrs.field(eq=False)

    def __str__(self) -> str:
        return f"{self.construct} ({self.span})"


@frozen
class ZoneShape:
    """What :func:`zone_shapes` answers for one zone."""

    name: str
    #: no rule can observe the order of its cards
    order_free: bool
    #: every card it can hold has a code no other card of the table has
    distinct: bool
    #: why it is ordered (empty when free): each construct that reads its order, or the
    #: ordered zone its cards go to in order
    reasons: tuple[Reason, ...] = ()


def zone_shapes(spec: CheckedSpec, players: int,
                options: Mapping[str, object] | None = None) -> dict[str, ZoneShape]:
    """For each zone of the table (``spec`` at ``players`` with ``options``, the defaults for
    those not given; a ``Game``'s ``options`` will do), whether its order is free and whether
    its cards are distinct."""
    values = {o.name: o.default for o in spec.options} | dict(options or {})
    names = tuple(z.name for z in spec.zones)
    first = _Orders(spec, _NONE)
    first.run()
    distinct = _distinct(spec, players, values, first)
    walker = _Orders(spec, distinct)
    walker.run()
    reasons = _ordered(walker)
    return {z: ZoneShape(z, z not in reasons, z in distinct, tuple(reasons.get(z, ())))
            for z in names}


def _ordered(w: _Orders) -> dict[str, list[Reason]]:
    """The zones read in order, with their reasons, closed over the flows of order."""
    out: dict[str, list[Reason]] = {z: list(rs) for z, rs in w.observed.items()}
    changed = True
    while changed:
        changed = False
        for src, dst, why in w.flows:
            if dst in out and src != dst and src not in out:
                out[src] = [Reason(f"{why}, in order, into {dst}, which is ordered",
                                   w.flow_spans[(src, dst, why)])]
                changed = True
    return out


class _Orders:
    """One walk of every rule: the zones each use reads in order (``observed``), the flows of
    order from zone to zone (``flows``), and the flows of cards (``cards``, for distinct)."""

    def __init__(self, spec: CheckedSpec, distinct: _Zs) -> None:
        self.spec = spec
        self.res = spec.resolution
        self.distinct = distinct
        self.zones = frozenset(z.name for z in spec.zones)
        self.shared = frozenset(z.name for z in spec.zones if not z.per_player)
        self.observed: dict[str, list[Reason]] = {}
        self.flows: set[tuple[str, str, str]] = set()
        self.flow_spans: dict[tuple[str, str, str], ast.Span] = {}
        #: zone -> zones its cards may go to
        self.cards: dict[str, set[str]] = {}
        #: (target zones, value, in a loop, span) of every fill
        self.fills: list[tuple[_Zs, ast.Expr, bool, ast.Span]] = []
        self._def_memo: dict[tuple[str, tuple[_Zs, ...]], _Zs] = {}
        self._proc_done: set[tuple[str, tuple[_Zs, ...]]] = set()
        self._busy: set[tuple[str, tuple[_Zs, ...]]] = set()

    # ---- what is walked -------------------------------------------------------------------

    def run(self) -> None:
        """Walk every rule of the spec."""
        spec = self.spec
        self.block(spec.match.body, {}, 0)
        self.block(spec.deal.body, {}, 0)
        for p in spec.procs:
            self.proc(p.name, tuple(_NONE for _ in p.params))
        for d in spec.defs:
            self.call_def(d.name, tuple(_NONE for _ in d.params))
        for t in spec.tables:
            src = self.val(t.source, {})
            self.observe(src, "a rulebook table's rows", t.source.span)
            env = {t.var: self._elem(t.source, src)}
            for col in t.columns:
                self.val(col.value, env)
        for e in (*(v.init for v in spec.vars), *(r.init for r in spec.results),
                  *(r.cond for r in spec.requires), *(spec.score_range or ()),
                  *([spec.max_events] if spec.max_events else []),
                  *([spec.hands] if spec.hands else [])):
            self.observe(self.val(e, {}), "a value kept in a variable", e.span)

    def observe(self, zones: _Zs, construct: str, span: ast.Span) -> None:
        for z in zones:
            rs = self.observed.setdefault(z, [])
            r = Reason(construct, span)
            if r not in rs and len(rs) < 8:
                rs.append(r)

    def flow(self, src: _Zs, dst: _Zs, construct: str, span: ast.Span) -> None:
        for s in src:
            for d in dst:
                key = (s, d, construct)
                self.flows.add(key)
                self.flow_spans.setdefault(key, span)

    def carry(self, src: _Zs, dst: _Zs) -> None:
        for s in src:
            self.cards.setdefault(s, set()).update(dst)

    def proc(self, name: str, args: tuple[_Zs, ...]) -> None:
        key = (name, args)
        if key in self._proc_done:
            return
        self._proc_done.add(key)
        p = self.spec.proc_named[name]
        env = {prm.name: a for prm, a in zip(p.params, args, strict=True)}
        # twice: what a loop gives a local at its end reaches its uses at the start
        self.block(p.body, env, 0)
        self.block(p.body, env, 0)

    def call_def(self, name: str, args: tuple[_Zs, ...]) -> _Zs:
        key = (name, args)
        if key in self._def_memo:
            return self._def_memo[key]
        if key in self._busy:  # a definition that calls itself: what it gives is unknown
            return self.zones
        self._busy.add(key)
        d = self.spec.def_named[name]
        env = {prm.name: a for prm, a in zip(d.params, args, strict=True)}
        out = self.val(d.body, env)
        self._busy.discard(key)
        self._def_memo[key] = out
        return out

    # ---- statements -----------------------------------------------------------------------

    def block(self, b: ast.Block, env: dict[str, _Zs], loops: int) -> None:
        for s in b.stmts:
            self.stmt(s, env, loops)

    def stmt(self, s: ast.Stmt, env: dict[str, _Zs], loops: int) -> None:  # noqa: C901
        match s:
            case ast.Let(name=name, value=value):
                env[name] = env.get(name, _NONE) | self.val(value, env)
            case ast.Set(name=name, index=index, value=value):
                if index is not None:
                    self.val(index, env)
                o = self.val(value, env)
                if name in env:
                    env[name] = env[name] | o
                else:
                    self.observe(o, f"kept in the variable {name}", s.span)
            case ast.If(cond=cond, then=then, else_=else_):
                self.val(cond, env)
                self.block(then, env, loops)
                if isinstance(else_, ast.Block):
                    self.block(else_, env, loops)
                elif else_ is not None:
                    self.stmt(else_, env, loops)
            case ast.While(cond=cond, body=body):
                self.val(cond, env)
                self.block(body, env, loops + 1)
            case ast.Loop(body=body):
                self.block(body, env, loops + 1)
            case ast.Repeat(count=count, body=body):
                self.val(count, env)
                self.block(body, env, loops + 1)
            case ast.For():
                self._for(s, env, loops)
            case ast.Move() | ast.Fill() | ast.DealCards() | ast.Shuffle() | ast.Reshuffle() \
                    | ast.Bury():
                self._cards_stmt(s, env, loops)
            case ast.Pick():
                self._pick(s, env)
            case ast.CallStmt(name=name, args=args):
                self.proc(name, tuple(self.val(a, env) for a in args))
            case ast.Choose():
                self._choose(s, env, loops)
            case ast.EndDeal(scoring=scoring):
                if scoring in self.spec.def_named:
                    d = self.spec.def_named[scoring]
                    self.call_def(scoring, tuple(_NONE for _ in d.params))
            case ast.EndMatch(winners=winners):
                self.observe(self.val(winners, env), "the winners listed", winners.span)
            case ast.SitOut(seat=seat):
                self.val(seat, env)
            case ast.Reveal(zone=zone):
                self.zone_of(zone, env)
            case ast.Step(body=body):
                self.block(body, env, loops)
            case ast.Break() | ast.Continue() | ast.Return() | ast.RunDeal():
                pass
            case _:
                # a statement this analysis does not know: every zone it names is ordered
                self.observe(self._all_read(s, env), f"a {type(s).__name__} statement", s.span)

    def _cards_stmt(self, s: ast.Move | ast.Fill | ast.DealCards | ast.Shuffle | ast.Reshuffle
                    | ast.Bury, env: dict[str, _Zs], loops: int) -> None:
        """A statement that moves cards: the order it carries, reads, and the cards' way."""
        match s:
            case ast.Move(what=what, src=src, dst=dst):
                w = self.val(what, env)
                sz, dz = self.zone_of(src, env), self.zone_of(dst, env)
                self.flow(w, dz, "moved whole", s.span)
                self.carry(sz | w, dz)
            case ast.Fill(zone=zone, cards=cards):
                dz, o = self.zone_of(zone, env), self.val(cards, env)
                self.flow(o, dz, "filled whole", s.span)
                self.carry(o, dz)
                self.fills.append((dz, cards, loops > 0 or bool(o), s.span))
            case ast.DealCards(count=count, src=src, zone=zone, seats=seats):
                self.val(count, env)
                self.observe(self.val(seats, env), "the seats dealt to, in order", seats.span)
                sz = self.zone_of(src, env)
                self.observe(sz, "dealt from (its top first)", s.span)
                self.carry(sz, frozenset({zone}))
            case ast.Shuffle(zone=zone):
                self.zone_of(zone, env)  # a shuffle's event lists the cards in pack order
            case ast.Reshuffle(src=src, dst=dst):
                sz, dz = self.zone_of(src, env), self.zone_of(dst, env)
                self.observe(sz, "reshuffled (its top card stays, the rest listed in order)",
                             s.span)
                self.carry(sz, dz)
            case ast.Bury(src=src, dst=dst):
                sz, dz = self.zone_of(src, env), self.zone_of(dst, env)
                self.observe(sz | dz, "a bury (the top card, at a position)", s.span)
                self.carry(sz, dz)

    def _all_read(self, node: object, env: dict[str, _Zs]) -> _Zs:
        """The zones of every expression directly below ``node``."""
        out: set[str] = set()
        for x in walk.children(node):
            if isinstance(x, walk.EXPR_TYPES):
                out |= self.val(cast(ast.Expr, x), env)
        return frozenset(out)

    def _pick(self, s: ast.Pick, env: dict[str, _Zs]) -> None:
        o = _NONE
        if s.source is not None:
            o = self.val(s.source, env)
            self.observe(o, "picked from (the outcomes in its order)", s.source.span)
        for out in s.weighted:
            self.observe(self.val(out.value, env), "a pick's outcome", out.span)
            self.val(out.weight, env)
        env[s.name] = env.get(s.name, _NONE) | o

    def _for(self, s: ast.For, env: dict[str, _Zs], loops: int) -> None:
        o = self.val(s.source, env)
        env[s.var] = env.get(s.var, _NONE) | self._elem(s.source, o)
        if s.cond is not None:
            self.val(s.cond, env)
        self.block(s.body, env, loops + 1)
        if not o:
            return
        moved = self._moves_only(s.body, s.var, env)
        if moved is None:
            self.observe(o, "a for loop over it whose body does more than move its card",
                         s.span)
        else:
            self.flow(o, moved, "moved card by card by a for loop", s.span)

    def _moves_only(self, b: ast.Block, var: str, env: dict[str, _Zs]) -> _Zs | None:
        """The zones a loop's body moves its card to, where it does nothing else (tests that
        read nothing the loop changes aside); None otherwise."""
        out: set[str] = set()
        for s in b.stmts:
            if isinstance(s, ast.Move) and isinstance(w := walk.uncited(s.what), ast.Name) \
                    and w.id == var and element(self.res.type_of(s.what)) is None:
                out |= self.zone_of(s.dst, env)
            elif isinstance(s, ast.If) and isinstance(s.else_, ast.Block | None):
                for part in (s.then, s.else_):
                    inner = self._moves_only(part, var, env) if part is not None else _NONE
                    if inner is None:
                        return None
                    out |= inner
            else:
                return None
        return frozenset(out)

    def _choose(self, s: ast.Choose, env: dict[str, _Zs], loops: int) -> None:
        self.val(s.seat, env)
        for a in s.alternatives:
            inner = dict(env)
            for g in a.generators:
                o = self.val(g.source, inner)
                inner[g.var] = inner.get(g.var, _NONE) | self._elem(g.source, o)
                if o and not self._told_apart(a, g.var, o):
                    self.observe(o, "a decision's generator whose events do not tell its "
                                 "values apart (the first met is kept)", g.span)
            for f in a.fields:
                self.observe(self.val(f.value, inner), "written into an event's field",
                             f.span)
            if a.guard is not None:
                self.val(a.guard, inner)
            self.block(a.body, inner, loops)

    def _told_apart(self, a: ast.Alternative, var: str, src: _Zs) -> bool:
        """Whether an event of ``a`` tells the value of its generator's ``var``: a field is
        the variable itself (or ``[var]``), or ``set_of(var)`` over distinct cards."""
        for f in a.fields:
            v = walk.uncited(f.value)
            if isinstance(v, ast.ListLit) and len(v.items) == 1:
                v = walk.uncited(v.items[0])
            if isinstance(v, ast.Name) and v.id == var:
                return True
            if isinstance(v, ast.Call) and v.func == "set_of" and len(v.args) == 1 and \
                    isinstance(x := walk.uncited(v.args[0]), ast.Name) and x.id == var and \
                    src <= self.distinct:
                return True
        return False

    # ---- expressions ----------------------------------------------------------------------

    def _elem(self, source: ast.Expr, o: _Zs) -> _Zs:
        """What a variable going through ``source`` holds of its zones' order: the order of
        its elements where they are lists themselves (``subsets`` of a hand)."""
        el = element(self.res.type_of(source))
        return o if isinstance(el, ListOf | Zone) else _NONE

    def _listy(self, e: ast.Expr) -> bool:
        return element(self.res.type_of(e)) is not None

    def zone_of(self, e: ast.Expr, env: dict[str, _Zs]) -> _Zs:
        """The zones a zone expression may be (every zone where it cannot tell)."""
        o = self.val(e, env)
        return o if o else self.zones

    def val(self, e: ast.Expr, env: dict[str, _Zs]) -> _Zs:  # noqa: C901
        """The zones whose order the value of ``e`` carries; records the reads of order
        inside it."""
        match e:
            case ast.IntLit() | ast.StrLit() | ast.CardLit() | ast.OptionArg():
                return _NONE
            case ast.Cited(expr=cited):
                return self.val(cited, env)
            case ast.Name(id=name):
                b = self.res.binding(e.span)
                if isinstance(b, BoundZone):
                    return frozenset({b.name})
                if isinstance(b, BoundLocal):
                    return env.get(name, _NONE)
                return _NONE
            case ast.Call():
                return self._call(e, env)
            case ast.GenCall(func=func, elem=elem, var=var, source=source, cond=cond):
                o = self.val(source, env)
                inner = {**env, var: self._elem(source, o)}
                got = self.val(elem, inner)
                if cond is not None:
                    self.val(cond, inner)
                if isinstance(self.res.binding(e.span, "call"), BoundDef):
                    return self.call_def(func, (o | got,))
                return _NONE
            case ast.Comprehension(elem=elem, var=var, source=source, cond=cond):
                o = self.val(source, env)
                inner = {**env, var: self._elem(source, o)}
                got = self.val(elem, inner)
                if cond is not None:
                    self.val(cond, inner)
                return o | got
            case ast.Index(target=target, index=index):
                self.val(index, env)
                t = walk.uncited(target)
                if isinstance(t, ast.Name) and t.id in self.zones - self.shared and \
                        isinstance(self.res.binding(t.span), BoundZone):
                    return frozenset({t.id})
                o = self.val(target, env)
                self.observe(o, "indexed by position", e.span)
                return o if self._listy(e) else _NONE
            case ast.ListLit(items=items):
                return frozenset().union(*(self.val(x, env) for x in items))
            case ast.BinOp(left=left, right=right):
                lo, ro = self.val(left, env), self.val(right, env)
                return lo | ro if self._listy(e) else _NONE
            case ast.Compare(op=op, left=left, right=right):
                lo, ro = self.val(left, env), self.val(right, env)
                if op not in ("in", "not in") and not _empty(left) and not _empty(right):
                    self.observe(lo | ro, f"compared with {op}", e.span)
                return _NONE
            case ast.And() | ast.Or() | ast.Not() | ast.Neg():
                self._all_read(e, env)  # truth values and numbers carry no order
                return _NONE
            case ast.IfExpr(cond=cond, then=then, else_=else_):
                self.val(cond, env)
                return self.val(then, env) | self.val(else_, env)
            case _:
                return self._all_unknown(e, env)

    def _all_unknown(self, e: ast.Expr, env: dict[str, _Zs]) -> _Zs:
        out = self._all_read(e, env)
        self.observe(out, f"read by a {type(e).__name__}", e.span)
        return out

    def _call(self, e: ast.Call, env: dict[str, _Zs]) -> _Zs:
        args = tuple(self.val(a, env) for a in e.args)
        b = self.res.binding(e.span, "call")
        if isinstance(b, BoundDef):
            return self.call_def(b.name, args)
        name = b.name if isinstance(b, BoundBuiltin) else e.func
        if name in _ORDER_FREE:
            return _NONE
        if name in _POSITION:
            self.observe(frozenset().union(*args), f"{name}()", e.span)
            return frozenset().union(*args) if self._listy(e) else _NONE
        if name in _PASS:
            for a, ordered in zip(args[1:], _PASS[name], strict=False):
                if ordered:
                    self.observe(a, f"{name}()'s run order", e.span)
            return args[0] if args and self._listy(e) else _NONE
        if name == "seen_by":  # a seat's memory: what it saw, in the order seen
            return self.zones
        # deadwood, best_melds and any built-in not listed: read in order
        self.observe(frozenset().union(*args), f"{name}() (reads its list in order)", e.span)
        return frozenset().union(*args) if self._listy(e) else _NONE


def _empty(e: ast.Expr) -> bool:
    e = walk.uncited(e)
    return isinstance(e, ast.ListLit) and not e.items


# ---- distinct ------------------------------------------------------------------------------

def _distinct(spec: CheckedSpec, players: int, options: dict[str, object],
              w: _Orders) -> _Zs:
    """The zones whose cards are of one pack, no two alike (see the module's doc)."""
    fold = _Fold(spec, players, options)
    sites: list[tuple[_Zs, Counter[str] | None]] = []
    for targets, value, repeated, _span in w.fills:
        if not _empty(value):  # fill ... with []: nothing brought in
            sites.append((targets, None if repeated else fold.cards(value, {})))
    table: Counter[str] = Counter()
    for _, fresh in sites:
        if fresh is None:
            return _NONE  # cards the fold cannot count: no zone is known to be distinct
        table += fresh
    held: dict[str, set[str]] = {z: set() for z in w.zones}
    for targets, fresh in sites:
        assert fresh is not None
        for z in walk.reachable(targets, w.cards):
            held.setdefault(z, set()).update(c for c, n in fresh.items() if n > 0)
    # strict: no other card of the whole table has the code of a card the zone may hold
    return frozenset(z for z, codes in held.items() if all(table[c] <= 1 for c in codes))


class _Fold:
    """What a fill's value brings at the table: the most copies of each code (None where it
    cannot be told), from the values that options, the player count and literals fix."""

    def __init__(self, spec: CheckedSpec, players: int, options: dict[str, object]) -> None:
        self.spec, self.players, self.options = spec, players, options
        self.res = spec.resolution
        deck = spec.deck
        self.one = Counter(deck.one_pack)
        self.named = {x.name: x.code for x in deck.extras}

    def cards(self, e: ast.Expr, env: Mapping[str, object]) -> Counter[str] | None:
        match e:
            case ast.Cited(expr=cited):
                return self.cards(cited, env)
            case ast.Call(func="pack", args=(k,)) if self._builtin(e):
                n = self.value(k, env)
                if type(n) is not int:
                    return None
                return Counter({c: m * n for c, m in self.one.items()})
            case ast.Call(func="without_ranks", args=(x, _)) if self._builtin(e):
                return self.cards(x, env)
            case ast.Call(func=func, args=args) if func in self.spec.def_named and \
                    isinstance(self.res.binding(e.span, "call"), BoundDef):
                d = self.spec.def_named[func]
                inner = {p.name: self.value(a, env) for p, a in zip(d.params, args, strict=True)}
                return self.cards(d.body, inner)
            case ast.Comprehension(elem=elem, var=var, source=source):
                if not (isinstance(el := walk.uncited(elem), ast.Name) and el.id == var):
                    return None
                return self.cards(source, env)
            case ast.BinOp(op="+", left=left, right=right):
                lc, rc = self.cards(left, env), self.cards(right, env)
                return None if lc is None or rc is None else lc + rc
            case ast.ListLit(items=items):
                out: Counter[str] = Counter()
                for x in items:
                    c = self.value(x, env)
                    if not isinstance(c, str) or c not in spec_codes(self.spec):
                        return None
                    out[c] += 1
                return out
            case ast.IfExpr(cond=cond, then=then, else_=else_):
                c = self.value(cond, env)
                if c is True:
                    return self.cards(then, env)
                if c is False:
                    return self.cards(else_, env)
                tc, ec = self.cards(then, env), self.cards(else_, env)
                return None if tc is None or ec is None else tc | ec
        return None

    def _builtin(self, e: ast.Call) -> bool:
        return isinstance(self.res.binding(e.span, "call"), BoundBuiltin)

    def value(self, e: ast.Expr, env: Mapping[str, object]) -> object:  # noqa: C901
        """The value ``e`` has at the table, or None where it depends on play."""
        match e:
            case ast.IntLit(value=v):
                return v
            case ast.CardLit(code=code):
                return code
            case ast.Cited(expr=cited):
                return self.value(cited, env)
            case ast.Name(id=name):
                b = self.res.binding(e.span)
                if isinstance(b, BoundOption):
                    return self.options.get(b.name)
                if isinstance(b, BoundEnumValue):
                    return b.value
                if isinstance(b, BoundLocal):
                    return env.get(name)
                if isinstance(b, BoundConstant):
                    return {"player_count": self.players, "true": True,
                            "false": False}.get(name, self.named.get(name))
                return None
            case ast.Call(func=func, args=args) if func in self.spec.def_named and \
                    isinstance(self.res.binding(e.span, "call"), BoundDef):
                d = self.spec.def_named[func]
                inner = {p.name: self.value(a, env) for p, a in zip(d.params, args, strict=True)}
                return self.value(d.body, inner)
            case ast.IfExpr(cond=cond, then=then, else_=else_):
                c = self.value(cond, env)
                if isinstance(c, bool):
                    return self.value(then if c else else_, env)
                return None
            case ast.Not(operand=x):
                got = self.value(x, env)
                return (not got) if isinstance(got, bool) else None
            case ast.And(left=left, right=right) | ast.Or(left=left, right=right):
                lv, rv = self.value(left, env), self.value(right, env)
                if isinstance(e, ast.And):
                    return False if False in (lv, rv) else (True if lv is rv is True else None)
                return True if True in (lv, rv) else (False if lv is rv is False else None)
            case ast.Compare(op=op, left=left, right=right) if op not in ("in", "not in"):
                lv, rv = self.value(left, env), self.value(right, env)
                if lv is None or rv is None or type(lv) is not type(rv):
                    return None
                return _compare(op, lv, rv)
            case ast.BinOp(op=op, left=left, right=right):
                lv, rv = self.value(left, env), self.value(right, env)
                if type(lv) is int and type(rv) is int:
                    return {"+": lv + rv, "-": lv - rv, "*": lv * rv}.get(op)
                return None
        return None


def _compare(op: str, a: object, b: object) -> object:
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if isinstance(a, int) and isinstance(b, int):
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}.get(op)
    return None


def spec_codes(spec: CheckedSpec) -> frozenset[str]:
    """Every card code of the spec's deck."""
    return spec.deck.codes
