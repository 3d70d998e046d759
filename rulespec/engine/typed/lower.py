"""A table's rules lowered to ONE typed Python generator: the typed lowering's code.

Where the kernel (``engine/kernel``) keeps the engine's values (cards as codes, zones as
lists, the rules' variables in a dictionary) and calls the engine's functions for all but
the commonest statements, this lowering writes the whole match as one generator function over
typed values (``exprs.py``): the rules' variables and zones are its Python locals, every
procedure and the deal are written in place where they are called (a recursive one, or a
construct not covered yet, makes the table :class:`Unsupported`), a card is a small int and a
zone of distinct cards whose order no rule reads an int bit set. A stop yields
``(seat, n)`` at a decision of ``n`` legal events, sent the index chosen, and ``(CHANCE,
kind, payload)`` at chance (-1 a shuffle's cards to order, sent back ordered; -2 a pick's
values, sent the one drawn). Events, observations and records are the engine's, made at the edge by
replaying the choices (``play.py``); so is every runtime error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rulespec.engine.codegen.cse import share_common
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.codegen.pyexec import pyname
from rulespec.engine.events import SubsetAxis, canonical_key
from rulespec.engine.kernel.lower import Unsupported
from rulespec.engine.kernel.zones import zone_shapes
from rulespec.engine.typed.cards import typed_deck
from rulespec.engine.typed.decisions import Decisions
from rulespec.engine.typed.exprs import Env, TypedExprs, Zone, kind_of
from rulespec.engine.typed.invariant import UNSET, once_each
from rulespec.engine.typed.masks import Masks
from rulespec.lang import ast, walk
from rulespec.lang import types as T
from rulespec.lang.builtins import (
    RUNTIME_HELPERS,
    TEXT_ORDER,
    seat,
    set_of,
    sitter,
    turns_back,
)
from rulespec.lang.model import CheckedSpec

__all__ = ["lower_typed"]

class _Lowering(Decisions):
    #: the ``end deal`` that is the deal's last statement, while the deal is being written
    #: (no exception is needed to leave the deal there)
    falls: ast.EndDeal | None = None

    def __init__(self, spec: CheckedSpec, players: int, options: dict[str, object],
                 hands: int, actions: bool = False) -> None:
        #: whether each decision leaves the action chosen in ``st.act``
        self.actions = actions
        if spec.results:
            raise Unsupported("a deal's results")
        ec = ExprCompiler(spec, players, options, hands)
        if ec.team_now is not None:
            raise Unsupported("teams formed in play")
        self.spec, self.ec, self.hands, self.players = spec, ec, hands, players
        deck = self.deck = typed_deck(spec.deck)
        shapes = zone_shapes(spec, players, options)
        zones: dict[str, Zone] = {}
        for zd in spec.zones:
            if zd.per_team:
                raise Unsupported("a zone per team")
            shape = shapes[zd.name]
            if not shape.distinct:
                raise Unsupported(f"the zone {zd.name} may hold copies of a card")
            zones[zd.name] = Zone(f"z_{zd.name}", shape.order_free and deck.ordered,
                                  zd.per_player)
        self.zones = zones
        variables: dict[str, tuple[str, str]] = {
            "dealer": ("g_dealer", "int"), "totals": ("g_totals", "per"),
            "deals_played": ("g_deals_played", "int")}
        if ec.team_count:
            variables["team_totals"] = ("g_team_totals", "per")
        # the direction of play, kept only where a rule reads or sets it (as the engine does)
        variables["clockwise"] = ("g_clockwise", "bool")
        if spec.sits_out:
            variables["sitting_out"] = ("g_sitting_out", "per")
        for v in spec.vars:
            t = spec.resolution.type_of(v.init)
            kind = "per" if v.per_player else kind_of(t) if not isinstance(t, T.NoneT) else "any"
            variables[v.name] = (f"g_{v.name}", kind)
        self.vars = variables
        self.x = TypedExprs(ec, zones, variables, deck)
        # the variables no rule sets or picks: their first value for the whole match
        bodies = [spec.deal.body, spec.match.body, *(p.body for p in spec.procs)]
        set_ = {x.name for b in bodies for x, _ in walk.statements(b)
                if isinstance(x, (ast.Set, ast.Pick))}
        for v in spec.vars:
            ok, value = ec.const(v.init)
            if ok and v.name not in set_ and not v.per_player:
                self.x.fixed[v.name] = value
        self.masks = self.x.masks = Masks(self.x)
        self.lines: list[str] = []
        self.objects: dict[str, object] = {}
        self.procs = {p.name: p for p in spec.procs}
        self._inlining: list[str] = []
        #: the card a decision has just listed and the zone it was listed from, until any
        #: statement that could move a card (a move of it need not check it is there)
        self.listed: tuple[str, str] | None = None
        #: how many Python loops enclose what is being written, and for each procedure that
        #: returns being written in place, its flag and the loops inside its one-round loop
        self.loops = 0
        self.rets: list[tuple[str, int]] = []
        #: the Python names that certainly hold a seat of a hand (a loop's over the seats):
        #: a decision of one needs no check
        self.seats: set[str] = set()

    # ---- text ------------------------------------------------------------------------
    def emit(self, line: str, d: int) -> None:
        self.lines.append("    " * d + line)

    def obj(self, x: object) -> str:
        self.objects[name := f"_o{len(self.objects)}"] = x
        return name

    def src(self, e: ast.Expr, env: Env) -> str:
        return self.x.src(e, env)

    # ---- the match -------------------------------------------------------------------
    def match(self) -> None:
        spec, n = self.spec, self.hands
        self.emit("def _match(st):", 1)
        self.emit("g_dealer = st.dealer; g_totals = st.v['totals']; g_deals_played = 0; _t = 0",
                  2)
        self.emit("g_clockwise = True", 2)
        if spec.sits_out:
            self.emit("g_sitting_out = st.v['sitting_out']", 2)
        if "team_totals" in self.vars:
            self.emit("g_team_totals = st.v['team_totals']", 2)
        for v in spec.vars:
            init = self.x.value(v.init, {})
            self.emit(f"g_{v.name} = {'[' + init + '] * _H' if v.per_player else init}", 2)
        for z in self.zones.values():
            empty = "0" if z.bits else "[]"
            self.emit(f"{z.py} = " + (f"[{empty} for _ in range({n})]" if z.per else empty), 2)
        self.block(spec.match.body, {}, 2)
        self.emit("raise _RanOut('match')", 2)
        self.emit("yield  # a generator even where no rule stops", 2)

    def block(self, b: ast.Block, env: Env, d: int) -> None:
        n = len(self.lines)
        for s in b.stmts:
            if not isinstance(s, (ast.Let, ast.Set, ast.CallStmt, ast.Move)):
                # what a decision listed is known to be where it was only until cards move
                self.listed = None
            env = self.stmt(s, env, d)
        if len(self.lines) == n:
            self.emit("pass", d)

    def stmt(self, s: ast.Stmt, env: Env, d: int) -> Env:  # noqa: C901
        match s:
            case ast.Let(name=n, value=v):
                py = self.x.fresh(pyname(n))
                src, kind = self.x.expr(v, env)
                self.emit(f"{py} = {self.shared(self.x.keep(src, kind))}", d)
                kept = {"zb": "cards", "zl": "cards", "per": "list"}.get(kind, kind)
                return {**env, n: (py, kept)}
            case ast.Set():
                self.set(s, env, d)
            case ast.If(cond=c, then=t, else_=f):
                ok, cv = self.x.folded(c, env)
                if ok:
                    if cv:
                        self.block(t, env, d)
                    elif isinstance(f, ast.If):
                        self.stmt(f, env, d)
                    elif f is not None:
                        self.block(f, env, d)
                    return env
                self.emit(f"if {self.src(c, env)}:", d)
                self.block(t, env, d + 1)
                if f is not None:
                    self.emit("else:", d)
                    if isinstance(f, ast.If):
                        self.stmt(f, env, d + 1)
                    else:
                        self.block(f, env, d + 1)
            case ast.For(var=v, source=src, cond=c, body=b):
                it, ek = self.x.iterable(src, env)
                if c is None and self.each_seat(v, it, b, env, d):
                    return env
                py = self.x.fresh(pyname(v))
                inner = {**env, v: (py, ek)}
                if self.hands == self.players and (
                        it.startswith("_SF[") or it == repr(tuple(range(self.hands)))):
                    self.seats.add(py)
                self.emit(f"for {py} in {it}:", d)
                if c is not None:
                    self.emit(f"if not {self.src(c, inner)}: continue", d + 1)
                self.loop_block(b, inner, d)
            case ast.Repeat(count=c, body=b):
                self.emit(f"for _ in range({self.src(c, env)}):", d)
                self.loop_block(b, env, d)
            case ast.While(cond=c, body=b):
                self.emit(f"while {self.src(c, env)}:", d)
                self.emit("_t += 1", d + 1)
                self.emit("if _t > _MW: raise _Runaway", d + 1)
                self.loop_block(b, env, d)
            case ast.Loop(body=b):
                self.emit("while True:", d)
                self.emit("_t += 1", d + 1)
                self.emit("if _t > _MW: raise _Runaway", d + 1)
                self.loop_block(b, env, d)
            case ast.Break():
                self.emit("break", d)
            case ast.Return():
                # out of the procedure's one-round loop: at once where no loop of its own is
                # between, else through each, by its flag
                flag, base = self.rets[-1]
                if self.loops > base:
                    self.emit(f"{flag} = True", d)
                self.emit("break", d)
            case ast.Continue():
                self.emit("continue", d)
            case ast.Step(body=b):
                self.block(b, env, d)
            case ast.Move():
                self.move(s, env, d)
            case ast.Fill(zone=z, cards=c):
                zs, zk = self.x.expr(z, env)
                cards = self.x.value(c, env)
                if zk == "zb":
                    self.assign(zs, f"_bitsof({cards})" if cards != "()" else "0", d)
                elif cards == "()":
                    self.emit(f"{zs}.clear()", d)
                else:
                    self.emit(f"{zs}[:] = {cards}", d)
            case ast.Shuffle(zone=z):
                zs, zk = self.x.expr(z, env)
                cards = zs if zk == "zl" else f"_cardsof({zs})"
                self.emit(f"_tp = _template({cards})", d)
                self.emit("yield (_CHANCE, -1, _tp)", d)
                self.emit("_t = 0", d)
                if zk == "zl":  # a set's cards have no order to lay
                    self.emit(f"{zs}[:] = _tp[::-1]", d)
            case ast.DealCards():
                self.deal(s, env, d)
            case ast.Bury(src=a, dst=b) | ast.Reshuffle(src=a, dst=b):
                (src, sk), (dst, dk) = self.x.expr(a, env), self.x.expr(b, env)
                if sk != "zl" or dk != "zl":
                    raise Unsupported("a bury or reshuffle of a zone kept as a set")
                self.emit(f"if not {src}: raise _NoneLegal", d)  # the engine's error here
                if isinstance(s, ast.Bury):
                    # a position among the zone's places, sent as the engine's event numbers it
                    self.emit(f"_k = yield (_CHANCE, -3, len({dst}) + 1)", d)
                    self.emit("_t = 0", d)
                    self.emit(f"_c = {src}.pop(); {dst}.insert(len({dst}) - _k, _c)", d)
                else:
                    # the pile less its top card, in pile order, shuffled by the driver
                    self.emit(f"_tp = {src}[:-1]", d)
                    self.emit("yield (_CHANCE, -4, _tp)", d)
                    self.emit("_t = 0", d)
                    self.emit(f"{src}[:] = {src}[-1:]; {dst}[:] = _tp[::-1]", d)
            case ast.Pick(name=n, source=src, weighted=w):
                if src is None or w:
                    raise Unsupported("a weighted pick")
                values = self.x.value(src, env)
                kind = self.x.kind(src)
                if kind != "list":
                    raise Unsupported("a pick of cards")
                # a pick of nothing is the engine's error where play reaches it
                self.emit(f"_pv = {values}", d)
                self.emit("if not _pv: raise _NoneLegal", d)
                self.emit("_v = yield (_CHANCE, -2, _pv)", d)
                self.emit("_t = 0", d)
                if n in env:  # a local already bound: picked into
                    self.emit(f"{env[n][0]} = _v", d)
                    return env
                if n in self.vars:
                    self.emit(f"{self.vars[n][0]} = {'_seat(_v, _N)' if n == 'dealer' else '_v'}",
                              d)
                    return env
                py = self.x.fresh(pyname(n))
                self.emit(f"{py} = _v", d)
                lt = self.spec.resolution.type_of(src)
                assert isinstance(lt, T.ListOf)
                return {**env, n: (py, kind_of(lt.elem))}
            case ast.CallStmt(name=n, args=args):
                self.call(n, args, env, d)
            case ast.Choose():
                self.choose(s, env, d)
            case ast.EndDeal():
                self.end_deal(s, env, d)
            case ast.EndMatch(winners=w):
                self.emit(f"_end_match(st, {self.shared(self.x.value(w, env))}, "
                          f"{self.obj(s)})", d)
                self.emit("return", d)
            case ast.SitOut(seat=q):
                self.emit(f"g_sitting_out[_sitter({self.src(q, env)}, _N)] = True", d)
            case ast.RunDeal():
                self.emit("st.deal_events = 0; st.in_deal = True", d)
                if self.spec.sits_out:  # everyone seated again
                    self.emit("g_sitting_out[:] = [False] * _N", d)
                self.emit("try:", d)
                last = _last(self.spec.deal.body)
                # a deal that ends with its last statement goes on from there: no exception
                # raised and caught at the end of every deal
                self.falls = last if isinstance(last, ast.EndDeal) else None
                self.block(self.spec.deal.body, {}, d + 1)
                self.emit("st.in_deal = False" if self.falls else "raise _RanOut('deal')", d + 1)
                self.falls = None
                self.emit("except _DealOver:", d)
                self.emit("st.in_deal = False", d + 1)
            case ast.Reveal():
                pass  # what a seat sees is the engine's, made at the edge
            case _:
                raise Unsupported(f"the statement {type(s).__name__}")
        return env

    def loop_block(self, b: ast.Block, env: Env, d: int) -> None:
        """The body of a loop whose line is at depth ``d`` (see :meth:`looped`)."""
        self.looped(lambda: self.block(b, env, d + 1), [b], d)

    def looped(self, run: Callable[[], None], bodies: list[ast.Block], d: int) -> None:
        """``run()`` writes the body of a loop whose line is at depth ``d``; after it, where
        a procedure that returns is being written in place and a return is in the body, the
        test that carries the return out of this loop too (a return inside a loop sets its
        procedure's flag and breaks)."""
        self.loops += 1
        try:
            run()
        finally:
            self.loops -= 1
        if self.rets and _returns(bodies):
            self.emit(f"if {self.rets[-1][0]}: break", d)

    def each_seat(self, v: str, it: str, b: ast.Block, env: Env, d: int) -> bool:
        """``for q in seats { set x[q] = value }`` as one assignment of every seat's value,
        each written for its seat (``team_of(2)`` is 0), where the value reads no element of
        ``x`` but ``x[q]``: the seats' values one tuple, so what they share (a
        partnership's score, for each of its members) is worked out once (codegen/cse.py).
        The values are worked out before any is set, which no value can tell (an error
        raised is the engine's to say, from its replay)."""
        if len(b.stmts) != 1 or not isinstance(s := b.stmts[0], ast.Set) or \
                s.name not in self.vars or s.name == "dealer" or s.name in env or \
                not isinstance(idx := walk.uncited(s.index) if s.index else None, ast.Name) \
                or idx.id != v or not re.fullmatch(r"\((\d+, )+(\d+)?\)", it):
            return False
        seats = [int(x) for x in it.strip("()").split(",") if x.strip()]
        if len(set(seats)) != len(seats):
            return False  # a seat twice: its second value reads what its first set
        py = self.vars[s.name][0]
        q = self.x.fresh(pyname(v))
        one = self.x.value(s.value, {**env, v: (q, "int")})
        if re.search(rf"\b{py}\b(?!\[{q}\])", one):
            return False  # it reads another seat's element, or the whole
        values = [self.x.value(s.value, {**env, v: (str(x), "int")}) for x in seats]
        targets = ", ".join(f"{py}[{x}]" for x in seats)
        self.emit(f"{targets} = {self.shared('(' + ', '.join(values) + ',)')}", d)
        return True

    def shared(self, src: str) -> str:
        """A statement's value with what it reads again read once (codegen/cse.py), and
        what a comprehension's elements share worked out once (invariant.py)."""
        return once_each(share_common(src), self.x.fresh)

    def assign(self, target: str, value: str, d: int) -> None:
        self.emit(f"{target} = {value}", d)

    def set(self, s: ast.Set, env: Env, d: int) -> None:
        if s.name in env and s.index is None:  # a local (``let``): its Python variable
            self.emit(f"{env[s.name][0]} = {self.shared(self.x.value(s.value, env))}", d)
            return
        if s.name not in self.vars:
            raise Unsupported(f"set {s.name}")
        py, _ = self.vars[s.name]
        # what an expanded definition repeats (a partnership's contract in its score's every
        # part) evaluated once: codegen/cse.py, where a first evaluation dominates the others
        v = self.shared(self.x.value(s.value, env))
        if s.name == "dealer":
            v = f"_seat({v}, _N)"
        if s.index is None:
            self.emit(f"{py} = {'list(' + v + ')' if self.vars[s.name][1] == 'per' else v}", d)
        else:
            self.emit(f"{py}[{self.src(s.index, env)}] = {v}", d)

    def call(self, name: str, args: tuple[ast.Expr, ...], env: Env, d: int) -> None:
        if name in self._inlining:
            raise Unsupported(f"the recursive procedure {name}")
        p = self.procs[name]
        inner: dict[str, tuple[str, str]] = {}
        assigned = {x.name for x, _ in walk.statements(p.body)
                    if isinstance(x, (ast.Set, ast.Pick))}
        for prm, a in zip(p.params, args, strict=True):
            s, k = self.x.expr(a, env)
            if k in ("zb", "zl", "pzb", "pzl"):
                raise Unsupported("a zone passed to a procedure")
            if not (s.lstrip("-").isdigit() or s in ("True", "False", "None") or
                    s.startswith("_") and s.replace("_", "a").isalnum() and
                    prm.name not in assigned):
                # its value at the call, kept: the procedure may set the variable it was
                # read from (or pick into the parameter); a local of the caller, which the
                # procedure cannot reach but through a parameter it never sets, is read
                # where it is
                py = self.x.fresh(pyname(prm.name))
                self.emit(f"{py} = {self.x.keep(s, k)}", d)
                s, k = py, ("list" if k == "per" else k)
            inner[prm.name] = (s, k)
        self._inlining.append(name)
        try:
            if _returns([p.body]):
                # a procedure that returns, written in place: its body a loop of one round,
                # which a return leaves (see looped)
                flag = self.x.fresh("r")
                self.emit(f"{flag} = False", d)
                self.emit("for _ in _ONCE:", d)
                self.loops += 1
                self.rets.append((flag, self.loops))
                try:
                    self.block(p.body, inner, d + 1)
                finally:
                    self.rets.pop()
                    self.loops -= 1
            else:
                self.block(p.body, inner, d)
        finally:
            self._inlining.pop()

    # ---- cards -----------------------------------------------------------------------
    def move(self, s: ast.Move, env: Env, d: int) -> None:
        self.move_cards(s, env, d)
        self.listed = None

    def move_cards(self, s: ast.Move, env: Env, d: int) -> None:
        what, wk = self.x.expr(s.what, env)
        src, sk = self.x.expr(s.src, env)
        dst, dk = self.x.expr(s.dst, env)
        if sk not in ("zb", "zl") or dk not in ("zb", "zl"):
            raise Unsupported("a move between values that are not zones")
        if s.bottom and dk == "zl":
            raise Unsupported("a move to the bottom")
        whole = walk.uncited(s.what) == walk.uncited(s.src) or (
            isinstance(walk.uncited(s.what), ast.Name) and what == src)
        if whole:
            self.move_whole(src, sk, dst, dk, d)
        elif wk == "card":
            self.move_card(what, src, sk, dst, dk, d)
        else:
            self.move_many(what, wk, src, sk, dst, dk, d)

    def move_whole(self, src: str, sk: str, dst: str, dk: str, d: int) -> None:
        """A zone's every card, in its order."""
        if sk == "zb":
            self.emit(f"_m = {src}", d)
            self.assign(src, "0", d)
            self.emit(f"{dst}{' |= _m' if dk == 'zb' else '.extend(_cardsof(_m))'}", d)
        elif dk == "zb":
            self.emit(f"_m = _bitsof({src}); {src}.clear()", d)
            self.emit(f"{dst} |= _m", d)
        else:
            self.emit(f"_w = tuple({src}); {src}.clear()", d)
            self.emit(f"{dst}.extend(_w)", d)

    def move_card(self, what: str, src: str, sk: str, dst: str, dk: str, d: int) -> None:
        """One card."""
        if sk == "zl" and what == f"{src}[-1]":
            # the top card: taken off the end (the first copy of a distinct card is it)
            self.emit(f"_w = {src}.pop()", d)
            self.emit(f"{dst}{' |= 1 << _w' if dk == 'zb' else '.append(_w)'}", d)
            return
        if not what.replace("_", "a").isalnum():
            self.emit(f"_w = {what}", d)
            what = "_w"
        if sk == "zb" and self.listed == (what, src):
            # the card the decision just listed from this zone, which nothing has moved
            # since: it is there
            self.assign(src, f"{src} ^ 1 << {what}", d)
        elif sk == "zb":
            self.emit(f"_z = {src}", d)
            self.emit(f"if not _z >> {what} & 1: raise _NotThere", d)
            self.assign(src, f"_z ^ 1 << {what}", d)
        else:
            self.emit(f"{src}.remove({what})", d)
        self.emit(f"{dst}{f' |= 1 << {what}' if dk == 'zb' else f'.append({what})'}", d)

    def move_many(self, what: str, wk: str, src: str, sk: str, dst: str, dk: str,
                  d: int) -> None:
        """A set of cards (a subset chosen), or a list of them, each moved in turn."""
        if wk == "zb":
            # a set of cards (a subset chosen)
            self.emit(f"_m = {what}", d)
            if sk == "zb":
                self.emit(f"if {src} & _m != _m: raise _NotThere", d)
                self.assign(src, f"{src} ^ _m", d)
            else:
                self.emit(f"for _x in _cardsof(_m): {src}.remove(_x)", d)
            self.emit(f"{dst}{' |= _m' if dk == 'zb' else '.extend(_cardsof(_m))'}", d)
            return
        # a list of cards, each moved in turn
        self.emit(f"_w = {self.x.keep(what, wk)}", d)
        if sk == "zb" and dk == "zb":
            self.emit("_m = _bitsof(_w)", d)
            self.emit(f"if {src} & _m != _m or _m.bit_count() != len(_w): raise _NotThere", d)
            self.assign(src, f"{src} ^ _m", d)
            self.emit(f"{dst} |= _m", d)
            return
        self.emit("for _x in _w:", d)
        if sk == "zb":
            self.emit(f"if not {src} >> _x & 1: raise _NotThere", d + 1)
            self.assign(src, f"{src} ^ 1 << _x", d + 1)
        else:
            self.emit(f"{src}.remove(_x)", d + 1)
        self.emit(f"{dst}{' |= 1 << _x' if dk == 'zb' else '.append(_x)'}", d + 1)

    def deal(self, s: ast.DealCards, env: Env, d: int) -> None:
        src, sk = self.x.expr(s.src, env)
        z = self.zones[s.zone]
        if sk != "zl" or not z.per:
            raise Unsupported("a deal from a set or to a shared zone")
        seats, count = self.src(s.seats, env), self.src(s.count, env)
        one = re.fullmatch(r"\((\w+), \)", seats)
        if z.bits and one and count.isdigit() and int(count) > 0:
            # k cards to one seat (a deal in packets): the stock's last k, in one operation
            self.emit(f"if {count} <= len({src}):", d)
            self.emit(f"{z.py}[{one[1]}] |= _bitsof({src}[-{count}:]); del {src}[-{count}:]",
                      d + 1)
            self.emit("else:", d)
            self.emit(f"for _ in range({count}): {z.py}[{one[1]}] |= 1 << {src}.pop()", d + 1)
            return
        self.emit(f"_s = {seats}; _k = {count}", d)
        self.emit("_r = len(_s) * _k", d)
        if z.bits:
            # every round at once where the stock holds them all: the cards popped from its
            # top, seat by seat, are its last _r cards backwards, every len(_s)-th to a seat
            self.emit(f"if 0 < _r <= len({src}) and len(set(_s)) == len(_s):", d)
            self.emit(f"_w = {src}[:-_r - 1:-1]; del {src}[-_r:]", d + 1)
            self.emit("for _j, _q in enumerate(_s):", d + 1)
            self.emit(f"{z.py}[_q] |= _bitsof(_w[_j::len(_s)])", d + 2)
            self.emit("else:", d)
            d += 1
        self.emit("for _ in range(_k):", d)
        self.emit("for _q in _s:", d + 1)
        self.emit(f"_c = {src}.pop()", d + 2)
        self.emit(f"{z.py}[_q] {'|= 1 << _c' if z.bits else '.append(_c)'}", d + 2)

    # ---- decisions -------------------------------------------------------------------
    # ---- the end of a deal -----------------------------------------------------------
    def end_deal(self, s: ast.EndDeal, env: Env, d: int) -> None:
        fn = self.ec.defs[s.scoring]
        p = self.x.fresh("p")
        body = self.x.src(fn.body, {fn.params[0].name: (p, "int")})
        owners = self.ec.team_count if s.per_team else self.players
        # every owner's score, in the order the end of a deal asks for them, as one list:
        # what the owners' scores share (the declarer's points, the game's value) worked
        # out once (invariant.py), and no call a seat
        scores = self.shared(f"[{body} for {p} in range({owners})]")
        self.emit(f"_end_deal(st, {s.flag!r}, {scores}, {self.obj(s)})", d)
        self.emit("g_deals_played += 1", d)
        if s is not self.falls:
            self.emit("raise _DealOver", d)


def lower_typed(spec: CheckedSpec, players: int, options: dict[str, object], hands: int,
                runtime: dict[str, object], actions: bool = False) -> Callable[..., Any]:
    """The match's generator function ``match(st)`` of the table (see the module's text);
    Unsupported where the table has a construct the typed lowering does not cover yet.
    With ``actions``, each decision leaves the action chosen in ``st.act``."""
    low = _Lowering(spec, players, options, hands, actions)
    low.emit("def _typed():", 0)
    low.match()
    low.emit("return _match", 1)
    text = "\n".join(low.lines) + "\n"
    glb: dict[str, object] = dict(RUNTIME_HELPERS)
    glb.update(runtime)
    glb.update(low.x.globals)
    glb.update(low.objects)
    glb.update(low.deck.runtime())
    seats = tuple(range(players))
    glb.update(_sitter=sitter, _ONCE=(0,), _turns_back=turns_back, _first=_first, _best=_best,
               _count=_count, _H=hands, _N=players,
               _SF=tuple(seats[s:] + seats[:s] for s in seats), _Axis=SubsetAxis,
               _TXT=spec.deck.text_order if not spec.deck.french else TEXT_ORDER, _seat=seat,
               _set_of=set_of, _MW=10 ** 7, _U=UNSET, _ckey=canonical_key)
    try:
        code = compile(text, f"<typed {spec.name}>", "exec")
    except (SyntaxError, RecursionError) as e:
        raise Unsupported(f"the typed text does not compile ({e})") from None
    exec(code, glb)  # noqa: S102
    make = glb["_typed"]
    assert callable(make)
    fn = make()
    fn.text = text
    return fn  # type: ignore[no-any-return]


def _last(b: ast.Block) -> ast.Stmt | None:
    """The statement a block runs last, through the steps it ends with."""
    last = b.stmts[-1] if b.stmts else None
    return _last(last.body) if isinstance(last, ast.Step) else last


def _returns(bodies: list[ast.Block]) -> bool:
    """Whether a ``return`` is among the statements of ``bodies``."""
    return any(isinstance(x, ast.Return) for b in bodies for x, _ in walk.statements(b))


def _first(xs: Any) -> Any:
    """The first element; an error for none (the engine's ``first`` of an empty list)."""
    for x in xs:
        return x
    raise IndexError("first of an empty list")


def _best(values: list[int], fn: Callable[[list[int]], int]) -> int:
    """The first position of the greatest (``max``) or least (``min``) of ``values``."""
    return values.index(fn(values))


def _count(xs: list[object]) -> int:
    return sum(1 for x in xs if x)
