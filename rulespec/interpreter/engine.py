"""The Game/State API (in the manner of OpenSpiel) over any checked spec.

Statements compile to a small instruction list per procedure; a state is the variables, the
zones and a stack of frames ``[code, pc, locals, is_deal]``. The machine runs until it reaches a
decision (``choose``), a chance event (``shuffle``, ``reshuffle``, ``bury``) or the end of the
match, and waits there. Chance is explicit: the engine holds no random generator; whoever drives
it supplies each outcome as a record event (resolutions.md H4, R2).

The state is mutable with a cheap :meth:`State.clone`; the playout benchmark chose that over an
immutable state (a clone copies lists of card codes, a few microseconds).
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Callable, Mapping
from typing import Any, assert_never

import attrs

from rulespec import ast
from rulespec.builtins import EmptyError, set_of
from rulespec.cards import CARD_ORDER, is_card, normalise_card
from rulespec.coverage import clause_id
from rulespec.errors import (
    ConfigurationError,
    IllegalActionError,
    RecordError,
    RuleRuntimeError,
)
from rulespec.interpreter.eval import ExprCompiler, Fn, pyname, runtime_error
from rulespec.model import CheckedSpec

__all__ = ["CHANCE", "Game", "State", "canonical_key"]

CHANCE = "chance"

# opcodes
_EXEC, _JUMP, _JUMPF, _FOR_INIT, _FOR_NEXT, _CALL, _RET, _CHOOSE, _CHANCE, _END_DEAL, \
    _END_MATCH, _RUN_DEAL = range(12)


def canonical_key(event: Mapping[str, Any]) -> str:
    """The canonical JSON text of an event: keys sorted, no spaces (H5)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_key(event: Mapping[str, Any]) -> str:
    """:func:`canonical_key`, fast for the usual events (names, card codes, numbers and flat
    lists of them): the same text, written without the json module where it can be."""
    try:
        parts = []
        for k in sorted(event):
            if not k.isidentifier():
                return canonical_key(event)
            v = event[k]
            # a list's text is remembered under its tuple (the same subsets recur in every
            # deal), only for plain strings and ints: (True, 2) == (1, 2) as a dict key
            if type(v) is list and all(type(x) is int or type(x) is str for x in v):
                v = tuple(v)
            parts.append(f'"{k}":{_json_value(v)}')
        return "{" + ",".join(parts) + "}"
    except (TypeError, ValueError, AttributeError):
        return canonical_key(event)


@attrs.define(eq=False)
class _Alt:
    action: str
    # enum(st, L, out, seat, alt) adds every legal event of this alternative to ``out``, or,
    # while ``out`` is empty, may return the map it remembered for the same inputs instead
    enum: Callable[..., LegalMap | None]
    body_pc: int
    node: ast.Alternative
    gen_vars: tuple[str, ...]


@attrs.frozen
class _ChooseSpec:
    seat: Fn
    alts: tuple[_Alt, ...]
    node: ast.Choose


@attrs.frozen
class _ChanceSpec:
    kind: str  # shuffle | reshuffle | bury
    src: Fn
    dst: Fn
    node: ast.Stmt


class _Code:
    """One procedure's instructions."""

    __slots__ = ("name", "params", "ins")

    def __init__(self, name: str, params: tuple[str, ...]) -> None:
        self.name = name
        self.params = params
        self.ins: list[tuple[Any, ...]] = []


class _StmtCompiler:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.ec = game._ec
        self.procs: dict[str, _Code] = {}
        self._slot = 0

    def compile_proc(self, name: str, params: tuple[str, ...], body: ast.Block,
                     span: ast.Span | None = None) -> _Code:
        code = _Code(name, params)
        if span is not None:
            self._mark(code, "procedure", span)
        self.block(code, body, frozenset(params), [])
        code.ins.append((_RET,))
        return code

    def block(self, code: _Code, b: ast.Block, local: frozenset[str],
              loops: list[tuple[int, list[int]]]) -> frozenset[str]:
        for s in b.stmts:
            local = self.stmt(code, s, local, loops)
        return local

    def _e(self, e: ast.Expr, local: frozenset[str]) -> Fn:
        return self.ec.expr(e, local)

    def _mark(self, code: _Code, kind: str, span: ast.Span) -> None:
        """Note that a clause is compiled for this table and, when coverage is on, mark it
        each time play enters it (no instruction at all when it is off)."""
        cid = clause_id(kind, span)
        self.game.compiled_clauses.add(cid)
        cover = self.game.cover
        if cover is not None:
            code.ins.append((_EXEC, lambda st, L, add=cover.add, cid=cid: add(cid)))

    def stmt(self, code: _Code, s: ast.Stmt, local: frozenset[str],
             loops: list[tuple[int, list[int]]]) -> frozenset[str]:
        ins = code.ins
        match s:
            case ast.Let(name=n, value=v):
                f = self._e(v, local)

                def let(st: State, L: dict[str, Any], f: Fn = f, n: str = n) -> None:
                    x = f(st, L)
                    L[n] = tuple(x) if isinstance(x, list) else x
                ins.append((_EXEC, let))
                return local | {n}
            case ast.Set(name=n, index=idx, value=v):
                f = self._e(v, local)
                if n in local:
                    def setl(st: State, L: dict[str, Any], f: Fn = f, n: str = n) -> None:
                        x = f(st, L)
                        L[n] = tuple(x) if isinstance(x, list) else x
                    ins.append((_EXEC, setl))
                elif idx is None:
                    def setv(st: State, L: dict[str, Any], f: Fn = f, n: str = n) -> None:
                        x = f(st, L)
                        st.v[n] = tuple(x) if isinstance(x, list) else x
                    ins.append((_EXEC, setv))
                else:
                    fi = self._e(idx, local)

                    def setp(st: State, L: dict[str, Any], f: Fn = f, fi: Fn = fi,
                             n: str = n) -> None:
                        x = f(st, L)
                        st.v[n][fi(st, L)] = tuple(x) if isinstance(x, list) else x
                    ins.append((_EXEC, setp))
            case ast.If():
                self._if(code, s, local, loops)
            case ast.While(cond=c, body=b):
                ok, val = self.ec.const(c, local)
                start = len(ins)
                jf = None
                if not ok:
                    jf = len(ins)
                    ins.append((_JUMPF, self._e(c, local), -1))
                elif not val:
                    return local
                breaks: list[int] = []
                self.block(code, b, local, loops + [(start, breaks)])
                ins.append((_JUMP, start))
                end = len(ins)
                if jf is not None:
                    ins[jf] = (_JUMPF, ins[jf][1], end)
                self._patch(ins, breaks, end)
            case ast.Loop(body=b):
                start = len(ins)
                breaks = []
                self.block(code, b, local, loops + [(start, breaks)])
                ins.append((_JUMP, start))
                self._patch(ins, breaks, len(ins))
            case ast.For(var=v, source=src, cond=c, body=b):
                inner = local | {v}
                cond = self._e(c, inner) if c is not None else None
                self._for(code, v, self._e(src, local), cond, b, inner, loops)
            case ast.Repeat(count=cnt, body=b):
                fc = self._e(cnt, local)
                slot_var = self._new_slot("rep")
                self._for(code, slot_var, lambda st, L: range(fc(st, L)), None, b,
                          local | {slot_var}, loops)
            case ast.Move(what=w, src=a, dst=z, bottom=bottom):
                ins.append((_EXEC, self._move(s, self._e(w, local), self._e(a, local),
                                              self._e(z, local), bottom)))
            case ast.Fill(zone=z, cards=cs):
                fz, fc = self._e(z, local), self._e(cs, local)

                def fill(st: State, L: dict[str, Any]) -> None:
                    zone = fz(st, L)
                    zone[:] = list(fc(st, L))
                ins.append((_EXEC, fill))
            case ast.DealCards(count=cnt, src=a, zone=zn, seats=ss):
                ins.append((_EXEC, self._deal(s, self._e(cnt, local), self._e(a, local), zn,
                                              self._e(ss, local))))
            case ast.Shuffle(zone=z):
                fz = self._e(z, local)
                ins.append((_CHANCE, _ChanceSpec("shuffle", fz, fz, s)))
            case ast.Reshuffle(src=a, dst=z):
                ins.append((_CHANCE, _ChanceSpec("reshuffle", self._e(a, local),
                                                 self._e(z, local), s)))
            case ast.Bury(src=a, dst=z):
                ins.append((_CHANCE, _ChanceSpec("bury", self._e(a, local), self._e(z, local),
                                                 s)))
            case ast.CallStmt(name=n, args=args):
                ins.append((_CALL, n, tuple(self._e(x, local) for x in args)))
            case ast.Choose():
                self._choose(code, s, local, loops)
            case ast.Break():
                loops[-1][1].append(len(ins))
                ins.append((_JUMP, -1))
            case ast.Continue():
                ins.append((_JUMP, loops[-1][0]))
            case ast.Return():
                ins.append((_RET,))
            case ast.EndDeal(flag=flag, scoring=fn):
                ins.append((_END_DEAL, flag, self.ec.def_fns[fn], s))
            case ast.EndMatch(winners=w):
                ins.append((_END_MATCH, self._e(w, local)))
            case ast.RunDeal():
                ins.append((_RUN_DEAL,))
            case _:
                assert_never(s)
        return local

    def _enumerator(self, a: ast.Alternative, local: frozenset[str]) -> Callable[..., None]:
        """One generated function that lists an alternative's legal events.

        Generators become nested Python loops, and each conjunct of the guard is tested as soon
        as the variables it reads are bound ("for c in hand for s in suits if eight(c)" tests
        eight(c) once per card, not once per card and suit).
        """
        gen_vars = [g.var for g in a.generators]
        levels: list[list[ast.Expr]] = [[] for _ in range(len(gen_vars) + 1)]
        for conj in _conjuncts(a.guard) if a.guard is not None else []:
            used = _names_in(conj)
            level = max((i + 1 for i, v in enumerate(gen_vars) if v in used), default=0)
            levels[level].append(conj)
        ec = self.ec
        lines = ["def _enum(st, L, out, seat, _alt):", "    V = st.v; Z = st.z", "    try:"]
        ind = "        "
        for i in range(len(gen_vars) + 1):
            py = frozenset(gen_vars[:i])
            tests = []
            for c in levels[i]:
                ok, val = ec.const(c, local, py)
                if ok and val:
                    continue
                tests.append("False" if ok else ec.source(c, local, py))
            if tests:
                stop = "return" if i == 0 else "continue"
                lines.append(f"{ind}if not ({' and '.join(tests)}): {stop}")
            if i < len(gen_vars):
                src = ec.source(a.generators[i].source, local, py)
                lines.append(f"{ind}for {pyname(gen_vars[i])} in {src}:")
                ind += "    "
        py = frozenset(gen_vars)
        parts = ['"seat": seat', f'"action": {a.action!r}']
        values: dict[str, str | None] = {"seat": "seat", "action": None}
        jsons: dict[str, str] = {}
        for i, f in enumerate(a.fields):
            bare = f.value
            while isinstance(bare, ast.Cited):
                bare = bare.expr
            if isinstance(bare, ast.Call) and bare.func == "set_of":
                # a set field: its canonical tuple and JSON text come from one cache lookup
                arg = ec.source(bare.args[0], local, py)
                if isinstance(bare.args[0], ast.Name):
                    # the cache is read inline: no Python call for the usual hit
                    lines.append(f"{ind}f{i}, j{i} = _SJ.get({arg}) or _setjv({arg})")
                else:
                    lines.append(f"{ind}f{i}, j{i} = _setjv({arg})")
                parts.append(f"{f.name!r}: list(f{i})")
                jsons[f.name] = f"j{i}"
            else:
                lines.append(f"{ind}f{i} = {ec.source(f.value, local, py)}")
                # tuples become JSON lists; a flat one without a call (the common case)
                parts.append(f"{f.name!r}: (list(f{i}) if type(f{i}) is tuple and "
                             f"(not f{i} or type(f{i}[0]) is not tuple) else _enc(f{i}))")
            values[f.name] = f"f{i}"
        # the canonical key (H5) as one f-string, its keys put in sorted order once, here
        pieces = []
        for name in sorted(values):
            val = values[name]
            if val is None:
                pieces.append(f'"{name}":"{a.action}"')
            elif val == "seat":
                pieces.append(f'"{name}":{{_seat}}')
            elif name in jsons:
                pieces.append(f'"{name}":{{{jsons[name]}}}')
            else:
                pieces.append(f'"{name}":{{_jv({val})}}')
        key = "f'{{" + ",".join(pieces).replace("'", "\\'") + "}}'"
        # one generator's value as it is; several as a tuple (see State._take)
        binds = pyname(gen_vars[0]) if len(gen_vars) == 1 else \
            "(" + "".join(f"{pyname(v)}, " for v in gen_vars) + ")"
        lines.insert(3, "        _seat = _jv(seat)")
        lines += [
            f"{ind}k = {key}",
            f"{ind}if k not in out:",
            f"{ind}    out[k] = ({{{', '.join(parts)}}}, _alt, {binds})",
            "    except (IndexError, KeyError, TypeError, ZeroDivisionError, _Empty) as e:",
            "        raise _rt(e, _span)",
        ]
        memo = _memoised(lines, [pyname(v) for v in gen_vars])
        extra = {"_enc": _encode, "_jv": _json_value, "_setjv": _set_and_json,
                 "_SJ": _SETJV_CACHE,
                 "_Empty": EmptyError, "_rt": runtime_error}
        if memo is not None:
            lines = memo
            extra.update(_MEMO={}, _fz=_freeze, _LegalMap=LegalMap, _MEMO_MAX=MEMO_MAX)
        return ec.build("_enum", "\n".join(lines) + "\n", a.span, extra,
                        what=f"legal events of the alternative {a.action}")

    def _new_slot(self, kind: str) -> str:
        self._slot += 1
        return f"#{kind}{self._slot}"

    @staticmethod
    def _patch(ins: list[tuple[Any, ...]], at: list[int], target: int) -> None:
        for i in at:
            ins[i] = (_JUMP, target)

    def _if(self, code: _Code, s: ast.If, local: frozenset[str],
            loops: list[tuple[int, list[int]]]) -> None:
        ins = code.ins
        ok, val = self.ec.const(s.cond, local)
        if ok:
            # An option decides this branch for the whole match: compile only that branch.
            if val:
                self._mark(code, "then", s.span)
                self.block(code, s.then, local, loops)
            elif isinstance(s.else_, ast.If):
                self._if(code, s.else_, local, loops)
            else:
                self._mark(code, "else", s.span)
                if s.else_ is not None:
                    self.block(code, s.else_, local, loops)
            return
        jf = len(ins)
        ins.append((_JUMPF, self._e(s.cond, local), -1))
        self._mark(code, "then", s.span)
        self.block(code, s.then, local, loops)
        if s.else_ is None and self.game.cover is None:
            self.game.compiled_clauses.add(clause_id("else", s.span))
            ins[jf] = (_JUMPF, ins[jf][1], len(ins))
            return
        jend = len(ins)
        ins.append((_JUMP, -1))
        ins[jf] = (_JUMPF, ins[jf][1], len(ins))
        if isinstance(s.else_, ast.If):
            self._if(code, s.else_, local, loops)
        else:
            self._mark(code, "else", s.span)
            if s.else_ is not None:
                self.block(code, s.else_, local, loops)
        ins[jend] = (_JUMP, len(ins))

    def _for(self, code: _Code, var: str, src: Fn, cond: Fn | None, body: ast.Block,
             inner: frozenset[str], loops: list[tuple[int, list[int]]]) -> None:
        ins = code.ins
        slot = self._new_slot("for")
        ins.append((_FOR_INIT, src, slot))
        nxt = len(ins)
        ins.append((_FOR_NEXT, slot, var, -1, cond))
        breaks: list[int] = []
        self.block(code, body, inner | {slot}, loops + [(nxt, breaks)])
        ins.append((_JUMP, nxt))
        end = len(ins)
        ins[nxt] = (_FOR_NEXT, slot, var, end, cond)
        self._patch(ins, breaks, end)

    def _move(self, s: ast.Stmt, fw: Fn, fa: Fn, fz: Fn, bottom: bool) -> Callable[..., None]:
        span = s.span

        def move(st: State, L: dict[str, Any]) -> None:
            what, src, dst = fw(st, L), fa(st, L), fz(st, L)
            # a snapshot: "move hand[p] from hand[p] to ..." moves the whole zone
            cards = (what,) if isinstance(what, str) else tuple(what)
            for c in cards:
                # take the topmost copy, so a duplicate from a second pack is interchangeable
                for i in range(len(src) - 1, -1, -1):
                    if src[i] == c:
                        del src[i]
                        break
                else:
                    raise RuleRuntimeError(f"card {c} is not in the zone it is moved from", span)
                if bottom:
                    dst.insert(0, c)
                else:
                    dst.append(c)
        return move

    def _deal(self, s: ast.Stmt, fc: Fn, fa: Fn, zone: str, fs: Fn) -> Callable[..., None]:
        span = s.span

        def deal(st: State, L: dict[str, Any]) -> None:
            n, src, seats = fc(st, L), fa(st, L), fs(st, L)
            hands = st.z[zone]
            for _ in range(n):
                for q in seats:
                    if not src:
                        raise RuleRuntimeError("the pack ran out while dealing", span)
                    hands[q].append(src.pop())
        return deal

    def _choose(self, code: _Code, s: ast.Choose, local: frozenset[str],
                loops: list[tuple[int, list[int]]]) -> None:
        ins = code.ins
        at = len(ins)
        ins.append((_CHOOSE, None))
        alts = []
        ends: list[int] = []
        for a in s.alternatives:
            inner = local
            gens = []
            for g in a.generators:
                gens.append((g.var, self._e(g.source, inner)))
                inner = inner | {g.var}
            if a.guard is not None:
                ok, val = self.ec.const(a.guard, local, frozenset(g.var for g in a.generators))
                if ok and not val:
                    continue  # this table's options rule the alternative out
            enum = self._enumerator(a, local)
            body_pc = len(ins)
            self._mark(code, "alternative", a.span)
            self.block(code, a.body, inner, loops)
            ends.append(len(ins))
            ins.append((_JUMP, -1))
            alts.append(_Alt(a.action, enum, body_pc, a,
                             tuple(g.var for g in a.generators)))
        for e in ends:
            ins[e] = (_JUMP, len(ins))
        ins[at] = (_CHOOSE, _ChooseSpec(self._e(s.seat, local), tuple(alts), s))


#: legal-event maps one enumerator keeps (inputs to events); past this it starts again
MEMO_MAX = 1024

#: a name the generated code reads the state through (V, Z, L, st)
_READS_STATE = re.compile(r"\b(?:V|Z|L|st)\b")


class LegalMap(dict):  # type: ignore[type-arg]
    """The legal events of a decision (canonical key → (event, alternative, bindings)) that an
    enumerator remembered: shared by every state that meets the same inputs, so never
    changed, and ``order`` keeps its events in canonical order once sorted."""

    __slots__ = ("order",)

    def __init__(self) -> None:
        super().__init__()
        self.order: list[dict[str, Any]] | None = None


def _freeze(x: Any) -> Any:
    """``x`` as a dictionary key: lists (zones) become tuples, nested ones too."""
    t = type(x)
    if t is list or t is tuple:
        if t is tuple and (not x or type(x[0]) not in (list, tuple)):
            return x
        return tuple(_freeze(y) for y in x)
    return x


def _memoised(lines: list[str], gen_vars: list[str]) -> list[str] | None:
    """The enumerator ``lines`` rewritten to remember its events by its inputs, or None.

    An alternative qualifies when each generator's source reads no earlier generator's
    variable (so all sources can be computed first) and nothing inside the loops reads the
    state: then the events are a function of the seat and the sources' values, and a decision
    met again (4,096 ways to lay the same trick numbers, deal after deal, in a bidding game)
    costs one dictionary lookup instead of one pass over every event."""
    if not gen_vars:
        return None
    body = lines[4:-2]  # between "_seat = ..." and the except clause
    loops = [i for i, ln in enumerate(body) if ln.lstrip().startswith("for ")]
    if len(loops) != len(gen_vars):
        return None
    if any(not body[i].lstrip().startswith(f"for {v} in ")
           for i, v in zip(loops, gen_vars, strict=True)):
        return None
    head, inner = body[:loops[0]], body[loops[0]:]
    sources = []
    for j, i in enumerate(loops):
        ln = body[i]
        src = ln.split(" in ", 1)[1].rstrip()[:-1]
        if any(re.search(rf"\b{re.escape(v)}\b", src) for v in gen_vars[:j]):
            return None
        sources.append(src)
    rest = [ln for k, ln in enumerate(inner) if k + loops[0] not in loops]
    if any(_READS_STATE.search(ln) for ln in rest):
        return None
    ind = "        "
    out = lines[:4] + head
    for j, src in enumerate(sources):
        out.append(f"{ind}_s{j} = {src}")
    key = ", ".join(["seat"] + [f"_fz(_s{j})" for j in range(len(sources))])
    out += [f"{ind}_ck = ({key})", f"{ind}hit = _MEMO.get(_ck)", f"{ind}if hit is None:",
            f"{ind}    hit = _LegalMap()"]
    loop_no = 0
    for k, ln in enumerate(inner):
        if k + loops[0] in loops:
            pre = ln[:len(ln) - len(ln.lstrip())]
            ln = f"{pre}for {gen_vars[loop_no]} in _s{loop_no}:"
            loop_no += 1
        out.append("    " + ln.replace(" out[k]", " hit[k]").replace(" not in out:",
                                                                    " not in hit:"))
    out += [f"{ind}    if len(_MEMO) >= _MEMO_MAX:", f"{ind}        _MEMO.clear()",
            f"{ind}    _MEMO[_ck] = hit",
            f"{ind}if not out:", f"{ind}    return hit",
            f"{ind}for k, e in hit.items():", f"{ind}    if k not in out:",
            f"{ind}        out[k] = e"]
    return out + lines[-2:]


#: what table-time code sees as the state: a ``require`` runs before any state exists
_NO_STATE = types.SimpleNamespace(v={}, z={})


def validate_setting(spec: CheckedSpec, players: int, options: Mapping[str, Any] | None = None,
                     dealer: int = 0, cover: set[str] | None = None,
                     compiled: set[str] | None = None) -> tuple[dict[str, Any], int]:
    """The full options and the number of hands of a table, or ConfigurationError when the
    spec refuses it (an unknown option, a value out of its type, the player count, the
    dealer, a ``require``): everything :class:`Game` checks before it compiles, so a caller
    that only asks whether a setting is offered does not pay for the compile."""
    opts: dict[str, Any] = spec.defaults()
    opts.update(spec.check_options(options or {}))
    if not (isinstance(players, int) and spec.min_players <= players <= spec.max_players):
        raise ConfigurationError(
            f"{spec.name} takes {spec.min_players} to {spec.max_players} players, "
            f"not {players}")
    if not (isinstance(dealer, int) and 0 <= dealer < players):
        raise ConfigurationError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
    hands = players
    if spec.hands is not None:
        ok, val = ExprCompiler(spec, players, opts).const(spec.hands)
        if not ok or not isinstance(val, int) or val < players:
            raise ConfigurationError(
                f"{spec.name}: 'hands' must be a number of at least the players, known once "
                f"the options are (got {val!r})")
        hands = val
    # a game's coverage counts the expression arms its requires compile and take
    ec = ExprCompiler(spec, players, opts, hands, cover=cover, compiled=compiled)
    for r in spec.requires:
        ok, val = ec.const(r.cond)
        if not ok:
            # table-time: no state yet (the checker keeps variables and zones out of a
            # require); definitions not inlined still read st.v and st.z
            val = ec.expr(r.cond, frozenset())(_NO_STATE, {})
        if not val:
            refs = [x.ref for x in _cited(r.cond)]
            cite = f" ({', '.join(refs)})" if refs else ""
            raise ConfigurationError(
                f"{spec.name} with {players} players and these options: {r.message}{cite}")
    return opts, hands


class Game:
    """A checked spec at one table: player count, options and first dealer fixed.

    Build it once and call :meth:`new_initial_state` for each match; the compiled rules are
    shared by every state.
    """

    def __init__(self, spec: CheckedSpec, players: int, options: Mapping[str, Any] | None = None,
                 dealer: int = 0, coverage: bool = False, keep_sources: bool = False) -> None:
        self.spec = spec
        #: clause ids (rulespec.coverage) this table compiles, and, with ``coverage=True``, the
        #: set every state of this game adds the clauses it enters to
        self.compiled_clauses: set[str] = set()
        self.cover: set[str] | None = set() if coverage else None
        self.players = players
        self.dealer = dealer
        self.options, self.hands = validate_setting(spec, players, options, dealer,
                                                    self.cover, self.compiled_clauses)
        self._ec = ExprCompiler(spec, players, self.options, self.hands, cover=self.cover,
                                compiled=self.compiled_clauses, keep_sources=keep_sources)
        sc = _StmtCompiler(self)
        self._procs: dict[str, _Code] = {}
        for p in spec.procs:
            self._procs[p.name] = sc.compile_proc(p.name, tuple(x.name for x in p.params),
                                                  p.body, p.span)
        self._deal = sc.compile_proc("deal", (), spec.deal.body)
        self._match = sc.compile_proc("match", (), spec.match.body)
        self._var_inits = [(v.name, v.per_player, self._ec.expr(v.init, frozenset()))
                           for v in spec.vars]
        self._action_fields: dict[str, set[str]] = {}
        for a in spec.actions:
            self._action_fields.setdefault(a.name, set()).update(a.fields)
        self._set_fields = {(a.name, f) for a in spec.actions for f in a.set_fields}
        self._zone_kinds = tuple((z.name, z.per_player) for z in spec.zones)
        if coverage or keep_sources:
            self._ec.compile_defs()

    @property
    def sources(self) -> list[tuple[str, str]]:
        """(file name, text) of every Python function generated for this table, in the order
        they were made; empty unless the game was built with ``keep_sources=True``."""
        return list(self._ec.sources or ())

    def new_initial_state(self, dealer: int | None = None) -> State:
        """A fresh match, stopped at its first chance event or decision; ``dealer`` replaces
        the game's first dealer for this match."""
        if dealer is None:
            dealer = self.dealer
        elif isinstance(dealer, bool) or not (isinstance(dealer, int)
                                              and 0 <= dealer < self.players):
            raise ConfigurationError(
                f"the dealer must be a seat 0..{self.players - 1}, not {dealer}")
        st = State(self)
        n = self.hands
        st.v["dealer"] = dealer
        st.v["totals"] = [0] * self.players
        st.v["deals_played"] = 0
        for name, per, f in self._var_inits:
            x = f(st, {})
            st.v[name] = [x] * n if per else x
        for z in self.spec.zones:
            st.z[z.name] = [[] for _ in range(n)] if z.per_player else []
        st.stack = [[self._match, 0, {}, False]]
        st._run()
        return st


class State:
    """One moment of a match. Mutable; :meth:`clone` gives an independent copy."""

    __slots__ = ("game", "v", "z", "stack", "pending", "to_move", "deals", "winners",
                 "on_deal_end", "_legal")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.v: dict[str, Any] = {}
        self.z: dict[str, Any] = {}
        self.stack: list[list[Any]] = []
        self.pending: tuple[Any, ...] | None = None
        self.to_move: int | str | None = None
        self.deals: list[dict[str, Any]] = []
        self.winners: list[int] | None = None
        #: the zones and variables as the last finished deal left them, before the next deal
        #: clears them (for tests and tools that check a deal's scoring)
        #: called with this state at each deal end, after its scores are added (tests look
        #: at the hands and variables as they were then); None costs nothing
        self.on_deal_end: Callable[[State], None] | None = None
        self._legal: dict[str, tuple[dict[str, Any], Any, Any]] | None = None

    # ---- the OpenSpiel-style API --------------------------------------------------------------
    def current_player(self) -> int | str | None:
        """The seat to decide, ``"chance"``, or None when the match is over."""
        return self.to_move

    def is_terminal(self) -> bool:
        """True once the match has ended."""
        return self.winners is not None

    def is_chance_node(self) -> bool:
        """True when the next event is a chance outcome."""
        return self.to_move == CHANCE

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal event now, in canonical form, sorted by canonical JSON (H5).

        At a shuffle or reshuffle the one template event of R2; at a bury, every position.
        The list is the caller's; the events in it may be shared with other states (a
        decision met again gives the same event objects), so copy one before changing it.
        """
        m = self._legal_map()
        if type(m) is LegalMap:
            if m.order is None:
                m.order = [m[k][0] for k in sorted(m)]
            return list(m.order)
        return [m[k][0] for k in sorted(m)]

    def chance_outcomes(self) -> list[tuple[dict[str, Any], float]]:
        """Listed chance outcomes with probabilities (a bury); a shuffle is sampled, not listed."""
        if self.to_move != CHANCE:
            return []
        assert self.pending is not None
        spec: _ChanceSpec = self.pending[1]
        if spec.kind != "bury":
            return []
        evs = self.legal_actions()
        return [(e, 1.0 / len(evs)) for e in evs]

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply one record event; an illegal one raises and leaves the state unchanged."""
        if self.winners is not None:
            raise IllegalActionError("the match is over")
        if self.to_move == CHANCE:
            self._apply_chance(event)
        else:
            self._apply_decision(event)
        self._legal = None
        self._run()

    def clone(self) -> State:
        """An independent copy: nothing done to one affects the other."""
        c = State.__new__(State)
        c.game = self.game
        c.v = {k: (list(x) if isinstance(x, list) else x) for k, x in self.v.items()}
        c.z = {}
        for name, per in self.game._zone_kinds:
            z = self.z[name]
            c.z[name] = [list(h) for h in z] if per else list(z)
        c.stack = [[f[0], f[1], dict(f[2]), f[3]] for f in self.stack]
        c.pending = self.pending
        c.to_move = self.to_move
        c.deals = [dict(d) for d in self.deals]
        c.winners = list(self.winners) if self.winners is not None else None
        c.on_deal_end = self.on_deal_end
        c._legal = self._legal
        return c

    def totals(self) -> list[int]:
        """Match totals so far, by seat."""
        return list(self.v["totals"])

    def result(self) -> dict[str, Any]:
        """The replay answer of records.md for the events applied so far (R4)."""
        out: dict[str, Any] = {"ok": True, "complete": self.winners is not None,
                               "deals": [dict(d) for d in self.deals],
                               "totals": self.totals(),
                               "winners": list(self.winners or [])}
        if self.winners is None:
            out["to_move"] = self.to_move
            out["legal"] = self.legal_actions()
        return out

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: public variables, visible zones, sizes of hidden ones."""
        zones: dict[str, Any] = {}
        for zd in self.game.spec.zones:
            z = self.z[zd.name]
            if zd.per_player:
                zones[zd.name] = [list(h) if (zd.visibility == "all" or
                                              (zd.visibility == "owner" and q == seat))
                                  else len(h) for q, h in enumerate(z)]
            else:
                zones[zd.name] = list(z) if zd.visibility == "all" else len(z)
        public = {k: (list(x) if isinstance(x, list) else x) for k, x in self.v.items()}
        return {"seat": seat, "to_move": self.to_move, "zones": zones, "vars": public}

    # ---- decisions --------------------------------------------------------------------------
    def _legal_map(self) -> dict[str, tuple[dict[str, Any], Any, Any]]:
        if self._legal is not None:
            return self._legal
        out: dict[str, tuple[dict[str, Any], Any, Any]] = {}
        if self.winners is not None or self.pending is None:
            self._legal = out
            return out
        if self.to_move == CHANCE:
            ev = self._chance_template()
            if isinstance(ev, list):
                for e in ev:
                    out[canonical_key(e)] = (e, None, None)
            else:
                out[canonical_key(ev)] = (ev, None, None)
            self._legal = out
            return out
        spec: _ChooseSpec = self.pending[1]
        frame = self.stack[-1]
        L = frame[2]
        seat = self.to_move
        for alt in spec.alts:
            got = alt.enum(self, L, out, seat, alt)
            if got is not None:
                # a remembered map (given only while ``out`` is still empty): shared, so
                # copied when another alternative may add to it
                out = got if len(spec.alts) == 1 else dict(got)
        self._legal = out
        return out

    def _apply_decision(self, event: Mapping[str, Any]) -> None:
        legal = self._legal_map()
        # Fast path: an event already in canonical form (the usual case when a driver picks
        # from legal_actions) is found by its key and needs no normalising.
        if isinstance(event, dict):
            try:
                key = "{" + ",".join(f'"{k}":{_json_value(event[k])}'
                                     for k in sorted(event)) + "}"
            except (TypeError, ValueError):
                key = ""
            hit = legal.get(key)
            if hit is not None and hit[0] == event:
                self._take(hit)
                return
        norm = self._normalise_decision(event)
        hit = legal.get(canonical_key(norm))
        if hit is None:
            # R6: an omitted false / [] field matches a legal event that writes it.
            loose = _loose_key(norm)
            for entry in legal.values():
                if _loose_key(entry[0]) == loose:
                    hit = entry
                    break
        if hit is None:
            rule = self._rule_for(norm)
            why = self._why_illegal(norm)
            raise IllegalActionError(f"{why} (rule: {rule})" if rule else why, rule=rule)
        self._take(hit)

    def _take(self, entry: Any) -> None:
        _, alt, values = entry
        frame = self.stack[-1]
        if len(alt.gen_vars) == 1:
            frame[2][alt.gen_vars[0]] = values
        else:
            frame[2].update(zip(alt.gen_vars, values, strict=True))
        frame[1] = alt.body_pc

    def _normalise_decision(self, event: Mapping[str, Any]) -> dict[str, Any]:
        if not isinstance(event, Mapping):
            raise RecordError("an event is a JSON object")
        if "chance" in event:
            raise IllegalActionError(f"a decision by seat {self.to_move} is due, not a chance "
                                     "event")
        seat, action = event.get("seat"), event.get("action")
        if not isinstance(action, str):
            raise RecordError("a decision needs an 'action' name")
        fields = self.game._action_fields.get(action)
        if fields is None:
            raise RecordError(f"unknown action {action!r} in {self.game.spec.name}")
        extra = set(event) - {"seat", "action"} - fields
        if extra:
            raise RecordError(f"unknown field(s) {', '.join(sorted(extra))} in {action!r}")
        if seat != self.to_move or isinstance(seat, bool):
            raise IllegalActionError(f"it is seat {self.to_move}'s decision, not seat "
                                     f"{seat!r}'s")
        out: dict[str, Any] = {"seat": seat, "action": action}
        for k, val in event.items():
            if k in ("seat", "action"):
                continue
            v = _normalise_value(val)
            if (action, k) in self.game._set_fields:
                if not isinstance(v, list):
                    raise RecordError(f"{action}.{k} is a list")
                if len(set(map(json.dumps, v))) != len(v):
                    raise RecordError(f"{action}.{k} repeats a value")
                v = sorted(v, key=lambda x: CARD_ORDER[x] if is_card(x) else x)
            out[k] = v
        return out

    def _why_illegal(self, ev: Mapping[str, Any]) -> str:
        shown = canonical_key(ev)
        alts = [a for a in self.pending[1].alts if a.action == ev["action"]]  # type: ignore[index]
        if not alts:
            return f"{shown} is not a choice here"
        return f"{shown} is not legal now"

    def _rule_for(self, ev: Mapping[str, Any]) -> str | None:
        spec: _ChooseSpec = self.pending[1]  # type: ignore[index]
        for a in spec.alts:
            if a.action == ev.get("action"):
                refs = [c.ref for c in _cited(a.node.guard)] if a.node.guard else []
                sp = a.node.span
                where = f"{sp.source.rsplit('/', 1)[-1]}:{sp.line}:{sp.column}"
                return f"{where} {a.action}" + (f" [{', '.join(refs)}]" if refs else "")
        return None

    # ---- chance -------------------------------------------------------------------------------
    def _chance_template(self) -> dict[str, Any] | list[dict[str, Any]]:
        assert self.pending is not None
        spec: _ChanceSpec = self.pending[1]
        L = self.stack[-1][2]
        if spec.kind == "shuffle":
            cards = sorted(spec.src(self, L), key=CARD_ORDER.__getitem__)
            return {"chance": "shuffle", "cards": cards}
        if spec.kind == "reshuffle":
            # the discard pile without its top card, in pile order (bottom first) (R2)
            return {"chance": "reshuffle", "cards": list(spec.src(self, L)[:-1])}
        dst = spec.dst(self, L)
        return [{"chance": "bury", "position": k} for k in range(len(dst) + 1)]

    def _apply_chance(self, event: Mapping[str, Any]) -> None:
        assert self.pending is not None
        spec: _ChanceSpec = self.pending[1]
        L = self.stack[-1][2]
        if not isinstance(event, Mapping) or "chance" not in event:
            raise IllegalActionError(f"a chance event ({spec.kind}) is due")
        kind = event.get("chance")
        if kind != spec.kind:
            raise IllegalActionError(f"a {spec.kind} is due, not {kind!r}")
        if spec.kind == "bury":
            if set(event) != {"chance", "position"}:
                raise RecordError("a bury event has exactly the field 'position'")
            k = event["position"]
            dst = spec.dst(self, L)
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= len(dst):
                raise IllegalActionError(f"bury position must be 0..{len(dst)}, not {k!r}")
            src = spec.src(self, L)
            card = src.pop()
            dst.insert(len(dst) - k, card)
            self.stack[-1][1] += 1
            return
        if set(event) != {"chance", "cards"}:
            raise RecordError(f"a {spec.kind} event has exactly the field 'cards'")
        raw = event["cards"]
        if not isinstance(raw, list):
            raise RecordError("'cards' is a list of card codes")
        cards = []
        for c in raw:
            code = normalise_card(c) if isinstance(c, str) else None
            if code is None:
                raise RecordError(f"{c!r} is not a card code")
            cards.append(code)
        template = self._chance_template()
        assert isinstance(template, dict)
        if sorted(cards, key=CARD_ORDER.__getitem__) != sorted(template["cards"],
                                                                key=CARD_ORDER.__getitem__):
            raise IllegalActionError(f"the {spec.kind} must order exactly the cards "
                                     f"{' '.join(template['cards'])}")
        dst = spec.dst(self, L)
        if spec.kind == "reshuffle":
            src = spec.src(self, L)
            top = src[-1]
            src[:] = [top]
        # event lists top card first; zones keep their top at the end
        dst[:] = cards[::-1]
        self.stack[-1][1] += 1

    # ---- the machine --------------------------------------------------------------------------
    def _run(self) -> None:
        stack = self.stack
        game = self.game
        while True:
            frame = stack[-1]
            ins = frame[0].ins
            L = frame[2]
            pc = frame[1]
            while True:
                op = ins[pc]
                k = op[0]
                if k == _EXEC:
                    op[1](self, L)
                    pc += 1
                elif k == _JUMPF:
                    pc = pc + 1 if op[1](self, L) else op[2]
                elif k == _JUMP:
                    pc = op[1]
                elif k == _FOR_NEXT:
                    # the iterator is an immutable (sequence, position) pair, so a clone's
                    # shallow copy of the locals cannot share a cursor with its original
                    seq, i = L[op[1]]
                    cond = op[4]
                    while i < len(seq):
                        L[op[2]] = seq[i]
                        i += 1
                        if cond is None or cond(self, L):
                            break
                    else:
                        L[op[1]] = (seq, i)
                        pc = op[3]
                        continue
                    L[op[1]] = (seq, i)
                    pc += 1
                elif k == _FOR_INIT:
                    L[op[2]] = (tuple(op[1](self, L)), 0)
                    pc += 1
                elif k == _CALL:
                    code = game._procs[op[1]]
                    args = {p: f(self, L) for p, f in zip(code.params, op[2], strict=True)}
                    frame[1] = pc + 1
                    stack.append([code, 0, args, False])
                    break
                elif k == _RET:
                    if frame[3]:
                        raise RuleRuntimeError("the deal ran to its end without 'end deal'",
                                               game.spec.deal.span)
                    if len(stack) == 1:
                        raise RuleRuntimeError("the match ran to its end without 'end match'",
                                               game.spec.match.span)
                    stack.pop()
                    break
                elif k == _CHOOSE:
                    frame[1] = pc
                    spec: _ChooseSpec = op[1]
                    self.pending = op
                    self.to_move = spec.seat(self, L)
                    self._legal = None
                    if not self._legal_map():
                        raise RuleRuntimeError(
                            f"seat {self.to_move} must decide here, but no alternative is legal",
                            spec.node.span, "every decision needs at least one legal choice; "
                            "add one (a pass, say) for this position")
                    return
                elif k == _CHANCE:
                    frame[1] = pc
                    cs: _ChanceSpec = op[1]
                    if cs.kind in ("reshuffle", "bury") and not cs.src(self, L):
                        raise RuleRuntimeError(f"{cs.kind} from an empty zone",
                                               cs.node.span,
                                               "check the zone has a card before this rule")
                    self.pending = op
                    self.to_move = CHANCE
                    return
                elif k == _END_DEAL:
                    self._end_deal(op, L)
                    break
                elif k == _END_MATCH:
                    ws = sorted(set(op[1](self, L)))
                    self.winners = ws
                    self.pending = None
                    self.to_move = None
                    return
                elif k == _RUN_DEAL:
                    frame[1] = pc + 1
                    stack.append([game._deal, 0, {}, True])
                    break
                else:  # pragma: no cover
                    raise AssertionError(op)

    def _end_deal(self, op: tuple[Any, ...], L: dict[str, Any]) -> None:
        _, flag, score, node = op
        n = self.game.players
        scores = [score(self, q) for q in range(n)]
        for q in range(n):
            if not isinstance(scores[q], int):
                raise RuleRuntimeError("a deal's score must be a number", node.span)
        totals = self.v["totals"]
        for q in range(n):
            totals[q] += scores[q]
        rec: dict[str, Any] = {"scores": scores}
        if flag:
            rec[flag] = True
        self.deals.append(rec)
        if self.on_deal_end is not None:
            self.on_deal_end(self)
        self.v["deals_played"] += 1
        # unwind to the match: the frame that ran this deal resumes after 'run deal'
        while not self.stack[-1][3]:
            self.stack.pop()
        self.stack.pop()


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    while isinstance(e, ast.Cited):
        e = e.expr
    if isinstance(e, ast.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _names_in(e: Any) -> set[str]:
    return {x.id for x in ast.descendants(e) if isinstance(x, ast.Name)}


def _cited(e: ast.Expr | None) -> list[ast.Cited]:
    return [x for x in ast.descendants(e) if isinstance(x, ast.Cited)]


def _fast_key(ev: dict[str, Any]) -> str:
    """canonical_key for events whose strings need no escaping (card codes, suits, names);
    anything else goes through json."""
    parts = []
    for k in sorted(ev):
        v = ev[k]
        if type(v) is int:
            parts.append(f'"{k}":{v}')
        elif type(v) is str and v.isalnum():
            parts.append(f'"{k}":"{v}"')
        elif type(v) is list and all(type(x) is str and x.isalnum() for x in v):
            parts.append(f'"{k}":[' + ",".join(f'"{x}"' for x in v) + "]")
        else:
            return canonical_key(ev)
    return "{" + ",".join(parts) + "}"


def _encode(x: Any) -> Any:
    t = type(x)
    if t is tuple or t is list:
        if x and type(x[0]) in (tuple, list):
            return [_encode(y) for y in x]
        return list(x)
    return x


_JV_CACHE: dict[tuple[Any, ...], str] = {}
_SETJV_CACHE: dict[Any, tuple[tuple[Any, ...], str]] = {}


def _set_and_json(xs: Any) -> tuple[tuple[Any, ...], str]:
    """``set_of(xs)`` and its canonical JSON text, remembered for tuples (subsets recur)."""
    key = xs if type(xs) is tuple else None
    if key is not None:
        hit = _SETJV_CACHE.get(key)
        if hit is not None:
            return hit
    s = set_of(xs)
    out = (s, _json_list(s))
    if key is not None and len(_SETJV_CACHE) < 200_000:
        _SETJV_CACHE[key] = out
    return out


def _json_value(x: Any) -> str:
    """Canonical JSON text of one field value, fast for the usual card codes, suits, numbers
    and flat lists of them (equal to json.dumps with the canonical separators)."""
    t = type(x)
    if t is tuple:
        # the same few thousand tuples (subsets of trick numbers, groups of cards) recur in
        # every game; their text is remembered
        hit = _JV_CACHE.get(x)
        if hit is None:
            hit = _json_list(x)
            if len(_JV_CACHE) < 200_000:
                _JV_CACHE[x] = hit
        return hit
    if t is list:
        return _json_list(x)
    if t is str:
        return f'"{x}"' if x.isalnum() else json.dumps(x, ensure_ascii=False)
    if t is int:
        return str(x)
    if t is bool:
        return "true" if x else "false"
    if x is None:
        return "null"
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _json_list(x: Any) -> str:
    if not x:
        return "[]"
    t0 = type(x[0])
    if t0 is int and all(type(y) is int for y in x):
        return "[" + ",".join(map(str, x)) + "]"
    if t0 is str and all(type(y) is str and y.isalnum() for y in x):
        return '["' + '","'.join(x) + '"]'
    return "[" + ",".join(_json_value(y) for y in x) + "]"


def _normalise_value(v: Any) -> Any:
    """Card codes and suit letters written leniently become canonical (R6, R6b)."""
    if isinstance(v, list):
        return [_normalise_value(x) for x in v]
    if isinstance(v, str):
        card = normalise_card(v)
        if card is not None:
            return card
        if v.upper() in ("C", "D", "H", "S"):
            return v.upper()
    return v


def _loose_key(ev: Mapping[str, Any]) -> str:
    return canonical_key({k: x for k, x in ev.items() if x is not False and x != []})
