"""Statements: each checked in its scope, in the match, the deal, procedures and the
alternatives of decisions (what a decision offers is recorded as an :class:`ActionInfo`).
Expressions are typed by the :class:`ExpressionChecker`; a loop that can never stop is found
by :func:`flow.loop_moves`.
"""

from __future__ import annotations

import re
from typing import assert_never

from rulespec.lang import ast, walk
from rulespec.lang.checker import flow
from rulespec.lang.checker.expressions import ExpressionChecker
from rulespec.lang.checker.symbols import Scope, Symbols
from rulespec.lang.checker.told import told_errors
from rulespec.lang.model import (
    BUILTIN_FUNCTIONS,
    BUILTIN_VARS,
    SETTABLE_BUILTINS,
    ActionInfo,
    pos,
)
from rulespec.lang.pretty import pretty_expr
from rulespec.lang.types import (
    ANY,
    CARD,
    INT,
    NONE,
    PZONE,
    ZONE,
    AnyT,
    Bool,
    Card,
    EnumOf,
    Int,
    ListOf,
    Named,
    Per,
    Str,
    Suit,
    Type,
    compatible,
    describe,
    element,
)

__all__ = ["StatementChecker"]


class StatementChecker:
    """Checks statements for one check, reporting to its symbols."""

    def __init__(self, sym: Symbols, exprs: ExpressionChecker) -> None:
        self.sym = sym
        self.exprs = exprs

    def block(self, b: ast.Block, scope: Scope) -> None:
        """Check a block's statements in a scope of their own."""
        inner = scope.child()
        for s in b.stmts:
            self.stmt(s, inner)

    def stmt(self, s: ast.Stmt, scope: Scope) -> None:
        """Check one statement; a ``let`` adds its name to ``scope``."""
        match s:
            case ast.Let(name=n, value=v):
                self._check_let(s, n, v, scope)
            case ast.Set(name=n, index=idx, value=v):
                self._check_set(s, n, idx, v, scope)
            case ast.If(cond=c, then=th, else_=el):
                self.exprs.want_bool(c, self.exprs.expr(c, scope))
                self.block(th, scope)
                if isinstance(el, ast.Block):
                    self.block(el, scope)
                elif isinstance(el, ast.If):
                    self.stmt(el, scope)
            case ast.While(cond=c, body=b):
                self.exprs.want_bool(c, self.exprs.expr(c, scope))
                self.block(b, scope.child(in_loop=True))
                if not flow.loop_moves(self.sym, b, changes=True):
                    self.sym.error(s.span, "this 'while' can never stop: its body changes "
                                   "nothing, so its condition stays as it is",
                                   "change something in the body, or add a decision or a 'break'")
            case ast.Loop(body=b):
                self.block(b, scope.child(in_loop=True))
                if not flow.loop_moves(self.sym, b, changes=False):
                    self.sym.error(s.span, "this 'loop' can never stop: its body holds no "
                                   "decision, no chance event and no way out",
                                   "add a 'choose', a 'break', or an 'end deal'")
            case ast.For(var=v, source=src, cond=c, body=b):
                inner = scope.child(in_loop=True)
                inner.names[v] = self.exprs.iter_elem(src, scope)
                if c is not None:
                    self.exprs.want_bool(c, self.exprs.expr(c, inner))
                self.block(b, inner)
            case ast.Repeat(count=c, body=b):
                self.exprs.want(c, INT, self.exprs.expr(c, scope), "repeat needs a number")
                self.block(b, scope.child(in_loop=True))
            case ast.Move(what=w, src=a, dst=z):
                self._check_move(w, a, z, scope)
            case ast.Fill(zone=z, cards=c):
                self._want_zone(z, scope)
                self.exprs.want(c, ListOf(CARD), self.exprs.expr(c, scope),
                                "fill needs a list of cards")
            case ast.DealCards(count=c, src=a, zone=zn, seats=ss):
                self._check_deal_cards(s, c, a, zn, ss, scope)
            case ast.Shuffle(zone=z):
                self._want_zone(z, scope)
            case ast.Reshuffle(src=a, dst=z) | ast.Bury(src=a, dst=z):
                self._want_zone(a, scope)
                self._want_zone(z, scope)
            case ast.Pick():
                self._check_pick(s, scope)
            case ast.CallStmt(name=n, args=args):
                self._check_proc_call(s, n, args, scope)
            case ast.Choose(seat=seat, alternatives=alts):
                self._check_choose(s, seat, alts, scope)
            case ast.Break() | ast.Continue():
                if not scope.in_loop:
                    word = "break" if isinstance(s, ast.Break) else "continue"
                    self.sym.error(s.span, f"'{word}' outside a loop")
            case ast.Return():
                if scope.where != "procedure":
                    self.sym.error(s.span, "'return' is allowed only in a procedure")
            case ast.EndDeal(scoring=fn):
                self._check_end_deal(s, fn, scope)
            case ast.EndMatch(winners=w, teams=teams):
                self.exprs.want(w, ListOf(INT), self.exprs.expr(w, scope),
                                "the winning teams are a list of teams" if teams
                                else "winners is a list of seats")
                if teams and not self.sym.has_teams:
                    self.sym.error(s.span, "'end match winning teams' needs fixed partnerships, "
                                   "and the spec declares no teams",
                                   "add: teams COUNT by DEF, or name the winning seats: "
                                   "end match winners ...")
                elif teams and self.sym.teams_in_play:
                    self.sym.error(s.span, "'end match winning teams' needs fixed partnerships, "
                                   "and the spec's teams are formed in play",
                                   "name the winning seats: end match winners ...")
            case ast.Reveal(zone=z):
                self._check_reveal(s, z, scope)
            case ast.SitOut(seat=q):
                self.exprs.want(q, INT, self.exprs.expr(q, scope), "a seat is a number")
                if scope.where == "match":
                    self.sym.error(s.span, "'sit out' belongs inside the deal, not the match",
                                   "a seat sits out one deal: say so in the deal")
            case ast.RunDeal():
                if scope.where != "match":
                    self.sym.error(s.span, "'run deal' belongs in the match block")
            case ast.Step(title=t, body=b):
                if not t.strip():
                    self.sym.error(s.span, "a step needs a title", 'write step "Title" { ... }')
                self.block(b, scope)
            case _:
                assert_never(s)

    def _check_let(self, s: ast.Let, n: str, v: ast.Expr, scope: Scope) -> None:
        """Bind ``n`` to the type of ``v``; a let may not hide a variable, option or
        constant."""
        t = self.exprs.expr(v, scope)
        if n in self.sym.vars or n in self.sym.options or n in self.sym.constants:
            self.sym.error(s.span, f"'let {n}' hides the {self.sym.kind(n)} {n!r}",
                           "choose another name")
        elif n in self.sym.named_values:
            self.sym.error(s.span, f"'let {n}' hides the value {n!r} of enumeration "
                           f"{self.sym.named_values[n]!r}", "choose another name")
        # a let takes a snapshot: a zone bound by let is the list of cards it held, a list of
        # zones a list of such lists (the compiler stores tuples all the way down)
        scope.names[n] = _snapshot_type(t)

    def _check_set(self, s: ast.Set, n: str, idx: ast.Expr | None, v: ast.Expr,
                   scope: Scope) -> None:
        tv = self.exprs.expr(v, scope)
        if n in self.sym.options:
            self.sym.error(s.span, f"option {n!r} cannot be set while the game runs",
                           "options are fixed when the match starts")
            return
        if n in BUILTIN_VARS and n not in SETTABLE_BUILTINS:
            self.sym.error(s.span, f"{n!r} is kept by the rules engine and cannot be set")
            return
        self.sym.directed |= n == "clockwise" and n not in scope.names
        if n in scope.names:
            if idx is not None:
                self.sym.error(s.span, f"{n!r} is not a per-player variable")
            scope.names[n] = tv
            return
        t = self.sym.var_types.get(n)
        if t is None:
            t = BUILTIN_VARS.get(n)
        if t is None:
            self.sym.error(s.span, f"no variable {n!r}", self.sym.suggest(n, "add: var "
                                                                          f"{n}: TYPE = VALUE"))
            return
        if n in self.sym.results:
            self.sym.result_sets[pos(s.span)] = n
        if isinstance(t, Per):
            if idx is None:
                self.sym.error(s.span, f"{n!r} is per player: set {n}[SEAT] = ...")
                return
            self.exprs.want(idx, INT, self.exprs.expr(idx, scope), "a seat is a number")
            t = t.elem
        elif idx is not None:
            self.sym.error(s.span, f"{n!r} is not a per-player variable")
        if not compatible(t, tv):
            self.sym.error(v.span, f"{n!r} holds {describe(t)}, not {describe(tv)}")

    def _check_pick(self, s: ast.Pick, scope: Scope) -> None:
        """A pick lists two or more outcomes of one kind of single value, each weight a
        positive number, and sets a variable or binds a local to the outcome."""
        if s.source is not None:
            t = self.exprs.expr(s.source, scope)
            el = element(t)
            if el is None:
                self.sym.error(s.source.span, f"pick needs a list of outcomes, not {describe(t)}",
                               f"write pick {s.name} from [A, B, C], or from a list such as "
                               "range(1, 6)")
                el = ANY
            src = walk.uncited(s.source)
            count = len(src.items) if isinstance(src, ast.ListLit) else None
        else:
            el = self._weighted_outcomes(s.weighted, scope)
            count = len(s.weighted)
        if count == 0:
            self.sym.error(s.span, f"'pick {s.name}' has no outcomes to pick from",
                           f"list two or more: pick {s.name} from [A, B]")
        elif count == 1:
            self.sym.error(s.span, f"'pick {s.name}' has one outcome, so nothing is left to "
                           "chance", f"write 'let {s.name} = ...' (or 'set') instead")
        if not isinstance(el, (Int, Bool, Suit, Card, Str, EnumOf, Named, AnyT)):
            # (a value of a named enumeration is a name here)
            self.sym.error(s.span, f"pick picks a number, a seat, a card, a suit, a name or a "
                           f"truth value, not {describe(el)}",
                           "a pick's outcome is one value that its chance event carries")
            el = ANY
        self._bind_pick(s, el, scope)

    def _weighted_outcomes(self, ws: tuple[ast.Outcome, ...], scope: Scope) -> Type:
        """The type of a weighted pick's values (all of one kind); each weight a number, and
        at least 1 where it is written as a number."""
        ts = [self.exprs.expr(o.value, scope) for o in ws]
        known = [t for t in ts if t not in (ANY, NONE)]
        el = known[0] if known else ANY
        for o, t in zip(ws, ts, strict=True):
            if not compatible(el, t):
                self.sym.error(o.value.span, f"the outcomes mix {describe(el)} and "
                               f"{describe(t)}", "a pick's outcomes are all of one kind")
            self.exprs.want(o.weight, INT, self.exprs.expr(o.weight, scope),
                            "a weight is a whole number: how many chances in the total")
            w = walk.uncited(o.weight)
            if isinstance(w, ast.Neg) and isinstance(walk.uncited(w.operand), ast.IntLit) or \
                    isinstance(w, ast.IntLit) and w.value <= 0:
                self.sym.error(o.weight.span, f"a weight must be 1 or more, not "
                               f"{pretty_expr(o.weight)}",
                               "leave the outcome out, or give it a weight of 1 or more")
        return el

    def _bind_pick(self, s: ast.Pick, el: Type, scope: Scope) -> None:
        """``pick NAME``: a variable (or ``dealer``) is set, a local is bound anew, and any
        other name becomes a local, as with ``let``."""
        n = s.name
        if n in scope.names:
            scope.names[n] = el
            return
        t = self.sym.var_types.get(n, BUILTIN_VARS.get(n))
        if t is None:
            if n in self.sym.options or n in self.sym.constants:
                self.sym.error(s.span, f"'pick {n}' hides the {self.sym.kind(n)} {n!r}",
                               "choose another name")
            scope.names[n] = el
            return
        if n in BUILTIN_VARS and n not in SETTABLE_BUILTINS:
            self.sym.error(s.span, f"{n!r} is kept by the rules engine and cannot be set")
        elif isinstance(t, Per):
            self.sym.error(s.span, f"pick cannot set the per-player variable {n!r}",
                           f"pick into a local, then set {n}[SEAT] to it")
        elif not compatible(t, el):
            self.sym.error(s.span, f"{n!r} holds {describe(t)}, not {describe(el)}")
        if n in self.sym.results:
            self.sym.result_sets[pos(s.span)] = n

    def _check_move(self, w: ast.Expr, a: ast.Expr, z: ast.Expr, scope: Scope) -> None:
        """A move takes a card or a list of cards from one zone to another."""
        tw = self.exprs.expr(w, scope)
        if not (tw in (CARD, ANY) or element(tw) in (CARD, ANY)):
            self.sym.error(w.span, f"move expects a card or a list of cards, not "
                           f"{describe(tw)}")
        self._want_zone(a, scope)
        self._want_zone(z, scope)

    def _check_deal_cards(self, s: ast.DealCards, c: ast.Expr, a: ast.Expr, zn: str,
                          ss: ast.Expr, scope: Scope) -> None:
        """A deal takes a number of cards from a zone into a per-player zone, for a list of
        seats."""
        self.exprs.want(c, INT, self.exprs.expr(c, scope), "deal needs a number of cards")
        self._want_zone(a, scope)
        zd = self.sym.zones.get(zn)
        if zd is None or not zd.per_player:
            self.sym.error(s.span, f"deal needs a per-player zone, and {zn!r} is not one")
        self.exprs.want(ss, ListOf(INT), self.exprs.expr(ss, scope), "deal needs a list of seats")

    def _check_choose(self, s: ast.Choose, seat: ast.Expr,
                      alts: tuple[ast.Alternative, ...], scope: Scope) -> None:
        """A decision names the seat that decides, and is not made inside a definition."""
        if s.together is not None:
            self._check_together(s, s.together, seat, alts, scope)
            return
        self.exprs.want(seat, INT, self.exprs.expr(seat, scope), "choose needs the seat that "
                        "decides")
        if scope.where == "def":  # pragma: no cover - grammar prevents it
            self.sym.error(s.span, "a decision cannot appear in a definition")
        for alt in alts:
            self._alternative(alt, scope)

    def _check_together(self, s: ast.Choose, name: str, seats: ast.Expr,
                        alts: tuple[ast.Alternative, ...], scope: Scope) -> None:
        """``choose together NAME in SEATS``: a list of seats, each bound to NAME in the
        alternatives; the bodies, run one seat after another once every choice is in, hold
        no decision or chance event and do not leave the reveal (no break, continue,
        return or end)."""
        self.exprs.want(seats, ListOf(INT), self.exprs.expr(seats, scope),
                        "choose together needs the list of seats that decide at once")
        bare = walk.uncited(seats)
        if isinstance(bare, ast.ListLit) and not bare.items:
            self.sym.error(seats.span, "no seat decides in this simultaneous decision: the "
                           "list of seats is empty", "name the seats, for example: choose "
                           f"together {name} in seats {{ ... }}")
        if name in self.sym.vars or name in self.sym.options or name in self.sym.constants \
                or name in BUILTIN_VARS:
            self.sym.error(s.span, f"'choose together {name}' hides the "
                           f"{self.sym.kind(name)} {name!r}", "choose another name")
        elif name in scope.names:
            # the reveal binds NAME to each seat in turn: a local of that name would be lost
            self.sym.error(s.span, f"'choose together {name}' hides the local {name!r}",
                           "choose another name")
        inner = scope.child()
        inner.names[name] = INT
        for alt in alts:
            bad = flow.together_breaks(self.sym, alt.body)
            if bad is not None:
                what, at = bad
                self.sym.error(at.span, f"{what} inside a simultaneous decision: the "
                               f"choices of {alt.action!r} are applied together, one seat "
                               "after another, once every seat has chosen",
                               "the bodies only apply the choices: make the next decision (or "
                               "chance event, or leave the loop) after the 'choose together' "
                               "block, where it can read what the seats chose")
            self._alternative(alt, inner)

    def _alternative(self, a: ast.Alternative, scope: Scope) -> None:
        inner = scope.child()
        for g in a.generators:
            inner.names[g.var] = self.exprs.iter_elem(g.source, inner)
            src = walk.uncited(g.source)
            if isinstance(src, ast.ListLit) and not src.items:
                self.sym.error(g.span, f"decision {a.action!r} draws its choices from an empty "
                               "list, so it can never be chosen")
        if a.guard is not None:
            self.exprs.want_bool(a.guard, self.exprs.expr(a.guard, inner))
            bare = walk.uncited(a.guard)
            if isinstance(bare, ast.Name) and bare.id == "false":
                self.sym.error(a.guard.span, f"decision {a.action!r} is guarded by 'false', so its "
                               "choice set is always empty", "remove the alternative or its guard")
        names = set()
        set_fields = []
        typed: dict[str, Type] = {}
        for f in a.fields:
            if f.name in ("seat", "action", "chance"):
                self.sym.error(f.span, f"{f.name!r} is written by the record itself; choose "
                               "another field name")
            if f.name in names:
                self.sym.error(f.span, f"field {f.name!r} is given twice")
            names.add(f.name)
            t = typed[f.name] = self.exprs.expr(f.value, inner)
            fv = walk.uncited(f.value)
            if isinstance(fv, ast.Call) and fv.func == "set_of":
                set_fields.append(f.name)
            if t in (ZONE, PZONE) or isinstance(t, Per):
                self.sym.error(f.value.span, "a decision field holds a value, not "
                               f"{describe(t)}")
        refs = tuple(walk.citations(a.guard)) if a.guard is not None else ()
        # IDs cited in the decision's doc text count too: "... [VAN-13]"
        for r in re.findall(r"\[([A-Z]+-?[0-9]+)\]", " ".join([a.doc or "", a.rare or ""])):
            if r not in refs:
                refs += (r,)
        if a.told is not None:
            for span, msg, hint in told_errors(a.action, a.told, typed, set(set_fields)):
                self.sym.error(span, msg, hint)
        self.sym.actions.append(ActionInfo(a.action, tuple(f.name for f in a.fields),
                                           tuple(set_fields), a.doc, refs, a.span,
                                           a.told.text if a.told is not None else None))
        self.block(a.body, inner)

    def _check_proc_call(self, s: ast.CallStmt, n: str, args: tuple[ast.Expr, ...],
                         scope: Scope) -> None:
        p = self.sym.procs.get(n)
        for a in args:
            self.exprs.expr(a, scope)
        if p is None:
            if n in self.sym.defs or n in BUILTIN_FUNCTIONS or n in self.sym.hooks:
                self.sym.error(s.span, f"{n!r} computes a value; it is not a procedure to run",
                               "use it inside an expression, for example: let x = "
                               f"{n}(...)")
            else:
                self.sym.error(s.span, f"no procedure {n!r}", self.sym.suggest(n, None))
            return
        if len(args) != len(p.params):
            self.sym.error(s.span, f"procedure {n!r} takes {len(p.params)} argument(s), "
                           f"not {len(args)}")
            return
        for a, prm in zip(args, p.params, strict=True):
            want = self.sym.param_type(prm)
            got = self.exprs.expr(a, scope)
            if not compatible(want, got):
                self.sym.error(a.span, f"procedure {n!r} expects {describe(want)} for "
                               f"{prm.name!r}, not {describe(got)}")

    def _check_end_deal(self, s: ast.EndDeal, fn: str, scope: Scope) -> None:
        """'end deal' is not written in the match, and scores with a definition of one seat
        that gives a number."""
        if scope.where == "match":
            self.sym.error(s.span, "'end deal' belongs inside the deal, not the match")
        d = self.sym.defs.get(fn)
        if d is None:
            self.sym.error(s.span, f"no definition {fn!r} to score the deal with",
                           f"add: def {fn}(p: int) = ...")
        elif len(d.params) != 1:
            self.sym.error(s.span, f"the scoring definition {fn!r} must take one "
                           + ("team" if s.per_team else "seat"))
        else:
            self.exprs.want(d.body, INT, self.exprs.def_type(fn), "a score is a number")
        if s.per_team and not self.sym.has_teams:
            self.sym.error(s.span, "'scoring ... per team' needs fixed partnerships, and the "
                           "spec declares no teams",
                           "add: teams COUNT by DEF, or score each seat: end deal scoring DEF")

    def _check_reveal(self, s: ast.Reveal, z: ast.Expr, scope: Scope) -> None:
        """``reveal ZONE`` names a shared zone, ``reveal ZONE[OWNER]`` one pile of a zone
        with owners; in the deal."""
        self._want_zone(z, scope)
        target = z.target if isinstance(z, ast.Index) else z
        if not (isinstance(target, ast.Name) and target.id in self.sym.zones
                and target.id not in scope.names):
            self.sym.error(z.span, "reveal names a zone: write reveal ZONE or reveal ZONE[SEAT]",
                           "a pile of cards, as the spec declares it, is laid face up")
        if scope.where == "match":
            self.sym.error(s.span, "'reveal' belongs inside the deal, not the match",
                           "a pile is laid face up for the rest of a deal: say so in the deal")

    def _want_zone(self, e: ast.Expr, scope: Scope) -> None:
        t = self.exprs.expr(e, scope)
        if t == PZONE:
            self.sym.error(e.span, "a per-player zone needs a seat: write ZONE[SEAT]")
        elif t not in (ZONE, ANY):
            self.sym.error(e.span, f"expected a zone, found {describe(t)}",
                           "zones: " + ", ".join(self.sym.zones) if self.sym.zones else None)


def _snapshot_type(t: Type) -> Type:
    """The type of a snapshot of a value of type ``t``: zones become lists of cards."""
    if t == ZONE:
        return ListOf(CARD)
    if isinstance(t, ListOf):
        return ListOf(_snapshot_type(t.elem))
    return t
