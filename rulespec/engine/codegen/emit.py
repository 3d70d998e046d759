"""Instructions to Python: a procedure's instructions written as one function ``run(st, F)``.

The instructions (:class:`Py` straight-line statements, :class:`JumpIfNot`, :class:`Jump`,
:class:`ForInit`/:class:`ForNext` loop steps, :class:`CallProc`, and the stops of
:mod:`~rulespec.engine.machine`) are what ``stmts.py`` makes of a procedure's statements;
:class:`Emitter` finds the blocks (the places control enters: the start, jump targets, the
place after a call or a stop), and writes each as an arm of a dispatch on ``pc``, a short block
written again at a jump to it (see ``stmts.py`` for why a dispatch and not a generator).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

import attrs

from rulespec.engine.codegen.cse import share_common
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.codegen.pyexec import CATCH, overproc, overwork, runtime_error
from rulespec.engine.machine import (
    ChanceStop,
    ChooseStop,
    EndDeal,
    EndMatch,
    Frame,
    Machine,
    Procedure,
    Return,
    Stop,
    deal_cards,
    fill_zone,
    move_cards,
    snapshot,
    snapshot_sum,
)
from rulespec.lang import ast
from rulespec.lang.builtins import EmptyError

__all__ = ["CallProc", "Emitter", "ForInit", "ForNext", "Ins", "Jump", "JumpIfNot", "Py"]


@attrs.frozen
class Py:
    """Straight-line Python statements."""

    lines: tuple[str, ...]
    span: ast.Span


@attrs.define
class JumpIfNot:
    cond: str
    target: int
    span: ast.Span


@attrs.define
class Jump:
    target: int


@attrs.frozen
class ForInit:
    source: str
    slot: str
    span: ast.Span
    #: the source is a count (``repeat N``): the loop runs over range(N), not a tuple
    lazy: bool = False
    #: the global name of the loop's span, for the work budget's error
    where: str = ""


@attrs.define
class ForNext:
    slot: str
    var: str
    end: int
    cond: str | None
    span: ast.Span


@attrs.frozen
class CallProc:
    proc: str
    args: tuple[tuple[str, str], ...]  # (parameter, argument source)
    span: ast.Span


Ins = Py | JumpIfNot | Jump | ForInit | ForNext | CallProc | Stop


#: a block of at most this many instructions may be written again at a jump to it, at most
#: _COPIES times (a chain of such blocks stays within a few times its size)
_SMALL_BLOCK = 8
_COPIES = 3


class Emitter:
    """Writes a procedure's instructions as one Python function (see the module docstring)."""

    def __init__(self, name: str, ins: list[Ins], procs: dict[str, Procedure]) -> None:
        self.name = name
        self.ins = ins
        # a jump to a jump goes straight to the last one's target
        for op in ins:
            if isinstance(op, (Jump, JumpIfNot)):
                op.target = self._through(op.target)
            elif isinstance(op, ForNext):
                op.end = self._through(op.end)
        self.procs = procs
        self.lines: list[str] = []
        self.spans: dict[int, ast.Span] = {}
        self.leaders = self._leaders()
        self._entries = self._goto_counts()
        #: the blocks being written, innermost last (a block is written inline once per path)
        self._chain: list[int] = []
        #: the procedures this one calls, by the global names the code reads them by
        self._proc_refs: dict[str, str] = {}
        #: how many times each short block has been written again (see _copy_small)
        self._copies: dict[int, int] = {}
        self._leader_set = set(self.leaders)
        #: while a loop's head is written again at a jump to it (see _goto)
        self._copying = False

    def _ends_soon(self, t: int) -> bool:
        """Whether the block at ``t`` is one statement or call and then a return or a stop
        (small enough to be written again at every jump to it)."""
        op = self.ins[t]
        if not (isinstance(op, CallProc) or (isinstance(op, Py) and len(op.lines) <= 3)):
            return False
        return t + 1 < len(self.ins) and isinstance(self.ins[self._through(t + 1)],
                                                    (ChooseStop, ChanceStop, EndDeal, EndMatch,
                                                     Return))

    def _copy_small(self, t: int) -> bool:
        """Whether the block at ``t``, not a loop's head, is short enough to be written once
        more at a jump to it (a few times at most, so the code stays a few times its size)."""
        if self._entries.get(t, 0) < 0 or self._copies.get(t, 0) >= _COPIES:
            return False
        leaders = self._leader_set
        end = next((pc for pc in range(t + 1, len(self.ins)) if pc in leaders), len(self.ins))
        if end - t > _SMALL_BLOCK or any(isinstance(op, ForNext) for op in self.ins[t:end]):
            return False
        self._copies[t] = self._copies.get(t, 0) + 1
        return True

    def _copy_head(self, t: int) -> bool:
        """Whether the loop head at ``t`` is short enough to be written again at a jump back
        to it, from the end of a round (at most _COPIES times: the jump that starts the loop
        runs once, the jumps back at every round)."""
        if self._copies.get(t, 0) >= _COPIES or not (self._chain and self._chain[-1] > t):
            return False
        leaders = self._leader_set
        end = next((pc for pc in range(t + 1, len(self.ins)) if pc in leaders), len(self.ins))
        if end - t > _SMALL_BLOCK:
            return False
        self._copies[t] = self._copies.get(t, 0) + 1
        return True

    def _proc_ref(self, name: str) -> str:
        """The global the generated code names procedure ``name`` by."""
        ref = self._proc_refs.get(name)
        if ref is None:
            ref = self._proc_refs[name] = f"_P{len(self._proc_refs)}"
        return ref

    def _goto_counts(self) -> dict[int, int]:
        """How many places go on at each pc (a jump, or the block before it running into it),
        and -1 for a loop's head (a jump back to it)."""
        out: dict[int, int] = {}
        for pc, op in enumerate(self.ins):
            targets = []
            if isinstance(op, (Jump, JumpIfNot)):
                targets.append(op.target)
                if op.target <= pc:
                    out[op.target] = -1 << 30
            elif isinstance(op, ForNext):
                targets.append(op.end)
            if isinstance(op, (Py, ForInit, JumpIfNot, ForNext, CallProc)) \
                    and pc + 1 < len(self.ins):
                targets.append(self._through(pc + 1))
            for t in targets:
                out[t] = out.get(t, 0) + 1
        return out

    def _through(self, t: int) -> int:
        seen = set()
        while t < len(self.ins) and isinstance(self.ins[t], Jump) and t not in seen:
            seen.add(t)
            t = self.ins[t].target  # type: ignore[union-attr]
        return t

    def _goto(self, t: int, d: int) -> None:
        """Go on at ``t``: through the dispatch, or, where ``t`` is a stop, stop right here
        (every decision is reached from a loop's end or a branch)."""
        op = self.ins[t]
        if isinstance(op, Return) and not self.name.startswith("#"):
            self.emit("st.stack.pop()", d)
            self.emit("return None", d)
        elif isinstance(op, (ChooseStop, ChanceStop, EndDeal, EndMatch, Return)):
            self.emit(f"F.pc = {t}", d)
            self.emit("return 1", d)
        elif self._copying:
            # inside a loop's head written again: what follows it goes through the dispatch
            self.emit(f"pc = {t}", d)
            self.emit("continue", d)
        elif t not in self._chain and self._entries.get(t, 0) < 0 and self._copy_head(t):
            # the head of a loop, short: written once more here, so that a round that comes
            # back from a stop (a turn after a decision) goes on without a second dispatch;
            # the blocks after it are reached through the dispatch, so the copy stays short
            self._copying = True
            try:
                self._block(t, d)
            finally:
                self._copying = False
        elif t not in self._chain and (self._entries.get(t, 0) == 1 or self._ends_soon(t)
                                       or self._copy_small(t)):
            # the only way into this block (but the dispatch, after a stop), a block of one
            # step that then returns or stops, or a short one written a few times: its code
            # goes right here, without a trip through the dispatch on pc
            self._block(t, d)
        else:
            self.emit(f"pc = {t}", d)
            self.emit("continue", d)

    def _leaders(self) -> list[int]:
        """The pcs control may enter a block at."""
        out = {0}
        for pc, op in enumerate(self.ins):
            match op:
                case Jump(target=t) | JumpIfNot(target=t):
                    out.add(t)
                case ForNext(end=t):
                    out.add(t)
                case CallProc():
                    out.add(pc + 1)
                case ChooseStop(alts=alts):
                    out.update(a.body_pc for a in alts)
                    out.add(pc + 1)
                case ChanceStop() | EndDeal() | EndMatch() | Return():
                    out.add(pc + 1)
                case Py() | ForInit():
                    pass
                case _:
                    assert_never(op)
        return sorted(pc for pc in out if pc < len(self.ins))

    def emit(self, text: str, depth: int, span: ast.Span | None = None) -> None:
        if span is not None:
            self.spans[len(self.lines)] = span
        self.lines.append("    " * depth + text)

    def build(self, ec: ExprCompiler, name: str, span: ast.Span,
              objects: dict[str, object]) -> Callable[[Machine, Frame], int | None]:
        self.emit("def _run(st, F):", 0)
        self.emit("V = st.v; Z = st.z; L = F.L; pc = F.pc", 1)
        self.emit("try:", 1)
        self.emit("while True:", 2)
        if len(self.leaders) > 1:
            # a call starts at pc 0, and most runs of a procedure are calls: that block comes
            # first, before the dispatch over the others (the dispatch costs a test per level)
            self.emit("if not pc:", 3)
            self._block(0, 4)
            self._tree(self.leaders[1:], 3)
        else:
            self._tree(self.leaders, 3)
        self.emit(f"except {CATCH} as e:", 1)
        self.emit("raise _rt(e, _LS.get(e.__traceback__.tb_lineno, _span))", 2)
        # exec_source puts one comment line first
        line_spans = {i + 2: sp for i, sp in self.spans.items()}
        extra = dict(objects)
        extra.update({ref: self.procs[p] for p, ref in self._proc_refs.items()})
        extra.update(_LS=line_spans, _PROCS=self.procs, _Frame=Frame, _new=object.__new__,
                     _move=move_cards, _deal=deal_cards, _fill=fill_zone, _snap=snapshot,
                     _snapsum=snapshot_sum,
                     _Empty=EmptyError, _rt=runtime_error, _overwork=overwork,
                     _overproc=overproc)
        what = "procedure " + name if not name.startswith("#") else name[1:]
        return ec.build("_run", "\n".join(self.lines) + "\n", span, extra,  # type: ignore[no-any-return]
                        what=what)

    def _tree(self, leaders: list[int], depth: int) -> None:
        """A binary dispatch over the blocks' first pcs."""
        if len(leaders) == 1:
            self._block(leaders[0], depth)
            return
        mid = len(leaders) // 2
        self.emit(f"if pc < {leaders[mid]}:", depth)
        self._tree(leaders[:mid], depth + 1)
        self.emit("else:", depth)
        self._tree(leaders[mid:], depth + 1)

    def _block(self, start: int, d: int) -> None:
        self._chain.append(start)
        try:
            self._block_ops(start, d)
        finally:
            self._chain.pop()

    def _block_ops(self, start: int, d: int) -> None:
        leaders = set(self.leaders)
        pc = start
        while True:
            if pc != start and pc in leaders:
                self._goto(self._through(pc), d)
                return
            op = self.ins[pc]
            match op:
                case Py(lines=lines, span=sp):
                    for ln in lines:
                        self.emit(ln, d, sp)
                case JumpIfNot(cond=c, target=t, span=sp):
                    self.emit(f"if not ({share_common(c)}):", d, sp)
                    self._goto(t, d + 1)
                case Jump(target=t):
                    self._goto(t, d)
                    return
                case ForInit():
                    self._for_init(op, d)
                case ForNext(slot=slot, var=var, end=end, cond=cond, span=sp):
                    self._for_next(slot, var, end, cond, sp, d)
                case CallProc():
                    self._call(op, pc, d)
                    return
                case Return() if not self.name.startswith("#"):
                    # a procedure returns to its caller without a stop at the machine (the
                    # deal and the match must not run to their end: the machine says so)
                    self.emit("st.stack.pop()", d)
                    self.emit("return None", d)
                    return
                case ChooseStop() | ChanceStop() | EndDeal() | EndMatch() | Return():
                    self.emit(f"F.pc = {pc}", d)
                    self.emit("return 1", d)
                    return
                case _:
                    assert_never(op)
            pc += 1

    def _for_init(self, op: ForInit, d: int) -> None:
        """A ``for``'s start: its source made once, its rounds spent from the work budget."""
        src, slot, sp, lazy, where = op.source, op.slot, op.span, op.lazy, op.where
        # the work budget spends a for's rounds as it starts: one test a loop,
        # not one a round (a while or a loop pays at each round, see _tick)
        if lazy:
            # the count is spent before range() is made: a count too large for
            # len() (10**30) is past the budget, not an overflow
            self.emit(f"_n = {src}", d, sp)
            self.emit("st.work -= _n if _n > 0 else 0", d)
            self.emit(f"if st.work < 0: _overwork({where})", d)
            self.emit(f"L[{slot!r}] = (range(_n), 0)", d)
        else:
            self.emit(f"_s = tuple({src})", d, sp)
            self.emit("st.work -= len(_s)", d)
            self.emit(f"if st.work < 0: _overwork({where})", d)
            self.emit(f"L[{slot!r}] = (_s, 0)", d)

    def _call(self, op: CallProc, pc: int, d: int) -> None:
        """A call of a procedure at ``pc``, then the block that goes on after it."""
        p, args, sp = op.proc, op.args, op.span
        # called directly: when the callee returns, this block goes on here,
        # without a trip through the machine; when it stops (a decision deep
        # inside), every caller returns to the machine with its pc saved
        binds = ", ".join(f"{k!r}: {v}" for k, v in args)
        # a call is a round of the work budget: procedures that each call the two
        # before would otherwise make 2**50 calls with no loop to stop them
        self.emit("st.work -= 1", d)
        self.emit("if st.work < 0: _overproc()", d, sp)
        self.emit(f"F.pc = {pc + 1}", d)
        is_deal = p == "#deal"
        ref = self._proc_ref(p)
        # the frame's slots set here: Frame(...) would run __init__, a Python call
        self.emit(f"_F = _new(_Frame); _F.proc = {ref}; _F.pc = 0", d)
        self.emit(f"_F.L = {{{binds}}}; _F.is_deal = {is_deal}", d, sp)
        self.emit("st.stack.append(_F)", d)
        self.emit(f"if {ref}.run(st, _F) is not None:", d)
        self.emit("return 1", d + 1)
        self._goto(self._through(pc + 1), d)

    def _for_next(self, slot: str, var: str, end: int, cond: str | None, sp: ast.Span,
                  d: int) -> None:
        # the cursor is an immutable (sequence, position) pair, so a clone's shallow copy of
        # the locals cannot share it with its original
        self.emit(f"_s, _i = L[{slot!r}]", d)
        if cond is None:
            self.emit("if _i >= len(_s):", d)
            self._goto(end, d + 1)
            self.emit(f"L[{var!r}] = _s[_i]; L[{slot!r}] = (_s, _i + 1)", d)
            return
        self.emit("while _i < len(_s):", d)
        self.emit(f"L[{var!r}] = _s[_i]; _i += 1", d + 1)
        self.emit(f"if {cond}:", d + 1, sp)
        self.emit("break", d + 2)
        self.emit("else:", d)
        self.emit(f"L[{slot!r}] = (_s, _i)", d + 1)
        self._goto(end, d + 1)
        self.emit(f"L[{slot!r}] = (_s, _i)", d)
