"""A diagram of a game's phases and turns, drawn from its checked spec as SVG.

:func:`phase_diagram` walks the match block and the deal block (and the procedures they call,
each drawn once) and draws the flow top to bottom: a box for each step a player would name (the
shuffle, the deal, a card turned up), a six-sided box for each decision with its actions and who
takes it, a rounded box for the end of a deal or of the match, and a frame around each loop and
each ``if`` that holds a decision or an ending. Bookkeeping (``set``, ``let``, ``fill``, most
``move``) is left out. The same text is said in words as the alt text.

The SVG is written by hand, with nothing but the standard library: no external fonts, no links,
no scripts, every coordinate an integer, so the same spec always gives the same bytes (a
committed rulebook stays byte-stable). Text widths are estimated from the number of characters.
"""

from __future__ import annotations

import contextvars
import functools
import re
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, assert_never, cast
from xml.sax.saxutils import escape

import attrs
from attrs import frozen

from rulespec.book.english import say
from rulespec.lang import ast, walk
from rulespec.lang.model import (
    Binding,
    BoundBuiltin,
    BoundBuiltinVar,
    BoundConstant,
    BoundDef,
    BoundVar,
    BoundZone,
    CheckedSpec,
    pos,
)
from rulespec.lang.pretty import pretty_expr

__all__ = ["Diagram", "escape_xml", "phase_diagram"]


@frozen
class Diagram:
    """A picture of a game's structure: ``svg``, a complete ``<svg>`` element (with ``<title>``
    and ``<desc>``, labelled for assistive technology), and ``alt``, the same structure in plain
    English for readers who cannot see it."""

    svg: str
    alt: str


def phase_diagram(spec: CheckedSpec) -> Diagram:
    """The phases of ``spec``'s match and deal and the decisions in them, as a :class:`Diagram`.

    Deterministic: the same spec gives byte-identical SVG."""
    token = _SPEC.set(spec)
    try:
        return _diagram(spec)
    finally:
        _SPEC.reset(token)


def block_in_words(spec: CheckedSpec, body: ast.Block, in_deal: bool = True) -> str:
    """What a block does besides its decisions, said as the diagram's boxes say it, on one
    line ("shuffle the stock; deal 7 cards ..."): the rulebook's words for a step that has
    no text of its own. Empty when the block only keeps count."""
    token = _SPEC.set(spec)
    try:
        lines = _Builder(spec).block_lines(body, _Ctx({}, in_deal))
    finally:
        _SPEC.reset(token)

    def flat(line: _Line) -> str:
        inner = "; ".join(flat(c) for c in line.children)
        return f"{line.text} {inner}" if inner else line.text

    return "; ".join(flat(line) for line in lines)


def _diagram(spec: CheckedSpec) -> Diagram:
    nodes = _fold(_Builder(spec).root())
    alt = _alt_text(nodes)
    title = f"{spec.title}: the phases of a match and of a deal"
    return Diagram(_svg(nodes, title, alt, _id_prefix(spec.name)), alt)


# ---- the picture's parts -------------------------------------------------------------------
# The spec is first turned into a small tree of what is drawn (the nodes below), then the tree is
# measured bottom-up and drawn top-down; the alt text is read off the same tree, so the two
# cannot disagree.

@frozen
class _Line:
    """One line of a steps box; ``children`` are indented under it (a loop's body)."""

    text: str
    children: tuple[_Line, ...] = ()


@frozen
class _Steps:
    """Steps without a decision, one box (consecutive steps share it)."""

    lines: tuple[_Line, ...]


@frozen
class _Decision:
    """A ``choose``: who decides, each action name with a phrase from its doc, and what the
    alternatives lead to that is worth drawing (``after``: a frame, or a row of them)."""

    who: str
    actions: tuple[tuple[str, str], ...]
    title: str | None = None
    #: the ``for`` loop whose variable decides, if any (then the loop needs no frame)
    loop: int | None = None
    after: tuple[_Node, ...] = ()


@frozen
class _Terminal:
    """``end deal`` or ``end match``, under the conditions of the ``if`` around it."""

    text: str
    conds: tuple[ast.Expr, ...] = ()


@frozen
class _Ref:
    """A procedure (or the deal) drawn once already."""

    text: str
    conds: tuple[ast.Expr, ...] = ()


@frozen
class _Frame:
    """A loop (``loop``), an ``if`` (``if``, label from ``conds``), the consequences of one
    alternative (``after``), a procedure (``proc``) or the deal (``deal``) around its body."""

    kind: str
    label: str
    children: tuple[_Node, ...]
    conds: tuple[ast.Expr, ...] = ()


@frozen
class _Row:
    """Branches of which one happens, side by side."""

    branches: tuple[_Node, ...]


@frozen
class _Folded:
    """A frame too deep to draw, folded into one box naming the decisions inside it."""

    label: str
    decisions: tuple[str, ...]


_Node = _Steps | _Decision | _Terminal | _Ref | _Frame | _Row | _Folded


@frozen
class _Who:
    """How to say who a seat expression is; ``loop`` is the ``for`` loop it comes from."""

    text: str
    loop: int | None = None


@frozen
class _Ctx:
    """Where the walk is: what the locals in scope stand for, and whether inside the deal."""

    env: Mapping[str, _Who]
    in_deal: bool


# ---- expressions as short text ---------------------------------------------------------------

_EXPR_TYPES = (ast.IntLit, ast.StrLit, ast.Name, ast.Call, ast.GenCall, ast.Comprehension,
               ast.Index, ast.ListLit, ast.BinOp, ast.Compare, ast.And, ast.Or, ast.Not, ast.Neg,
               ast.IfExpr, ast.Cited, ast.OptionArg)

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
            "in": "not in", "not in": "in"}

_CITATION = re.compile(r"\s*\[[A-Za-z][A-Za-z0-9_.\-]*\]")


def _uncite(e: ast.Expr) -> ast.Expr:
    """``e`` without its citations: the picture names no ambiguity IDs (the book does)."""
    if isinstance(e, ast.Cited):
        return _uncite(e.expr)
    changes: dict[str, object] = {}
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        if isinstance(v, _EXPR_TYPES):
            changes[f.name] = _uncite(v)
        elif isinstance(v, tuple) and any(isinstance(x, _EXPR_TYPES) for x in v):
            changes[f.name] = tuple(_uncite(x) if isinstance(x, _EXPR_TYPES) else x for x in v)
    if not changes:
        return e
    # evolve keeps the span; the union of node classes is too wide for its typed signature
    return cast(ast.Expr, attrs.evolve(cast(Any, e), **changes))


def _negate(e: ast.Expr) -> ast.Expr:
    if isinstance(e, ast.Not):
        return e.operand
    if isinstance(e, ast.Compare) and e.op in _NEGATED:
        return ast.Compare(_NEGATED[e.op], e.left, e.right)
    return ast.Not(e)


def _short(text: str, limit: int) -> str:
    """``text`` cut at a word before ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1].rstrip(" ,;:") + "…"


#: the spec being drawn, whose names the labels say in words (set by phase_diagram)
_SPEC: contextvars.ContextVar[CheckedSpec | None] = contextvars.ContextVar("_SPEC", default=None)


def _pt(e: ast.Expr, limit: int = 60) -> str:
    """``e`` in a label: in plain English, as the book says it (the spec's code is in the
    book's reference, not in its pictures)."""
    spec = _SPEC.get()
    text = say(_uncite(e), spec) if spec is not None else pretty_expr(_uncite(e))
    return _short(text, limit)


def _cond_text(conds: Sequence[ast.Expr], limit: int = 110) -> str:
    """Conditions that all hold, as one expression (left-nested, so no parentheses needed)."""
    return _pt(functools.reduce(ast.And, conds), limit) if conds else "true"


def _doc_phrase(doc: str | None, limit: int = 90) -> str:
    """The first sentence of a doc string up to its first semicolon, without citations or
    the final full stop: the gist, for a box (the book quotes the whole text)."""
    if not doc:
        return ""
    text = _CITATION.sub("", doc).strip()
    m = re.search(r"[.!?](\s|$)", text)
    if m:
        text = text[: m.start()]
    return _short(text.split("; ")[0], limit)


def _lower_first(s: str) -> str:
    # a phrase from a doc continues a sentence; an initialism ("HTML") stays as written
    if len(s) > 1 and s[0].isupper() and not s[1].isupper():
        return s[0].lower() + s[1:]
    return s


def _decides(who: str) -> str:
    # "each player from the declarer's left, except the declarer, decides"
    return f"{who}{',' if ',' in who else ''} decides"


def _branches(s: ast.If) -> list[tuple[tuple[ast.Expr, ...], ast.Block]]:
    """Each arm of an ``if`` chain with the whole condition under which it runs (an arm is
    drawn on its own when the arms before it are bookkeeping, so it must say all of it)."""
    out: list[tuple[tuple[ast.Expr, ...], ast.Block]] = []
    prior: list[ast.Expr] = []
    cur: ast.If | ast.Block | None = s
    while isinstance(cur, ast.If):
        c = _uncite(cur.cond)
        out.append((tuple(_negate(p) for p in prior) + (c,), cur.then))
        prior.append(c)
        cur = cur.else_
    if cur is not None:
        out.append((tuple(_negate(p) for p in prior), cur))
    return out


def _end_text(s: ast.EndDeal | ast.EndMatch) -> str:
    if isinstance(s, ast.EndMatch):
        return f"end of match, winners {_pt(s.winners, 48)}"
    flag = f" ({s.flag})" if s.flag else ""
    return f"end of deal{flag}, scoring {s.scoring}"


def _header(text: str, children: Sequence[_Line]) -> list[_Line]:
    return [_Line(text, tuple(children))] if children else []


def _append(out: list[_Node], node: _Node) -> None:
    # consecutive steps share one box
    if isinstance(node, _Steps) and out and isinstance(out[-1], _Steps):
        out[-1] = _Steps(out[-1].lines + node.lines)
    else:
        out.append(node)


# ---- from the spec to the tree -----------------------------------------------------------------

class _Builder:
    """Walks the match and the deal into nodes; draws each procedure once."""

    def __init__(self, spec: CheckedSpec) -> None:
        self.spec = spec
        self.procs = {p.name: p for p in spec.procs}
        self.defs = {d.name: d for d in spec.defs}
        self.zones = {z.name: z for z in spec.zones}
        self.expanded: set[str] = set()
        self.stack: list[str] = []
        self.loops = 0
        self.deal_drawn = False
        self.memo: dict[tuple[str, tuple[type, ...]], bool] = {}
        self.sites: dict[str, int] = {}
        for node in (spec.match.body, spec.deal.body, *(p.body for p in spec.procs)):
            for n in walk.descendants(node):
                if isinstance(n, ast.CallStmt):
                    self.sites[n.name] = self.sites.get(n.name, 0) + 1

    def root(self) -> list[_Node]:
        """The match's nodes, the deal drawn where the match runs it."""
        nodes = self.block(self.spec.match.body, _Ctx({}, in_deal=False))
        if not self.deal_drawn:  # a match that never runs a deal still shows the deal
            nodes = self._run_deal() + nodes
        return nodes

    # what a statement reaches, through the procedures it calls
    def reaches(self, node: object, kinds: tuple[type, ...]) -> bool:
        for n in walk.descendants(node):
            if isinstance(n, kinds):
                return True
            if isinstance(n, ast.CallStmt) and n.name in self.procs:
                key = (n.name, kinds)
                if key not in self.memo:
                    self.memo[key] = False  # a recursive call adds nothing new
                    self.memo[key] = self.reaches(self.procs[n.name].body, kinds)
                if self.memo[key]:
                    return True
        return False

    def structural(self, s: ast.Stmt) -> bool:
        return self.reaches(s, (ast.Choose, ast.RunDeal))

    def binding(self, span: ast.Span) -> Binding | None:
        return self.spec.resolution.bindings.get(pos(span))

    def block(self, b: ast.Block, ctx: _Ctx) -> list[_Node]:
        out: list[_Node] = []
        for s in b.stmts:
            for n in self.stmt(s, ctx):
                _append(out, n)
        return out

    def stmt(self, s: ast.Stmt, ctx: _Ctx) -> list[_Node]:
        if isinstance(s, (ast.EndDeal, ast.EndMatch)):
            return [_Terminal(_end_text(s))]
        if isinstance(s, ast.If) and (self.structural(s) or _direct_end(s)):
            return self._if(s, ctx)
        if not self.structural(s):
            lines = self.lines(s, ctx)
            return [_Steps(tuple(lines))] if lines else []
        if isinstance(s, (ast.While, ast.Loop, ast.For, ast.Repeat)):
            return self._loop(s, ctx)
        if isinstance(s, ast.CallStmt):
            return self._call(s, ctx)
        if isinstance(s, ast.Choose):
            return [self._choose(s, ctx)]
        if isinstance(s, ast.RunDeal):
            return self._run_deal()
        if isinstance(s, ast.Step):
            return self.block(s.body, ctx)  # the decisions inside are drawn where they are
        return []  # no other statement holds a decision

    def _if(self, s: ast.If, ctx: _Ctx) -> list[_Node]:
        shown = [(c, ns) for c, b in _branches(s) if (ns := self.block(b, ctx))]
        if not shown:
            return []
        if all(isinstance(n, _Steps) for _, ns in shown for n in ns):
            return [_Steps(tuple(_Line(f"if {_cond_text(c)}:", _lines_of(ns))
                                 for c, ns in shown))]
        guarded = [_guard(c, ns) for c, ns in shown]
        return guarded if len(guarded) == 1 else [_Row(tuple(guarded))]

    def _loop(self, s: ast.While | ast.Loop | ast.For | ast.Repeat, ctx: _Ctx) -> list[_Node]:
        if isinstance(s, ast.For):
            self.loops += 1
            lid = self.loops
            who = self.order(s.source, s.cond, s.var, ctx)
            inner = _Ctx({**ctx.env, s.var: _Who(who, lid)}, ctx.in_deal)
            body = self.block(s.body, inner)
            if len(body) == 1 and isinstance(body[0], _Decision) and body[0].loop == lid:
                return body  # "each player ... decides" says the loop already
            return [_Frame("loop", f"for {who}", tuple(body))]
        if isinstance(s, ast.Repeat):
            label = f"repeat {_pt(s.count)} times"
        elif isinstance(s, ast.While):
            label = f"while {_pt(s.cond, 90)}"
        else:
            label = self._loop_label(s.body, ctx)
        return [_Frame("loop", label, tuple(self.block(s.body, ctx)))]

    def _loop_label(self, body: ast.Block, ctx: _Ctx) -> str:
        """What ends a ``loop``: the actions that break out of it, or the deal or match."""
        exits = list(dict.fromkeys(_breaks(body, None)))
        if exits:
            named = [e for e in exits if e]
            if named and len(named) == len(exits):
                return "repeat until " + " or ".join(named)
            return "repeat until it breaks off"
        return "repeat until the deal ends" if ctx.in_deal else "repeat until the match ends"

    def _proc_ctx(self, p: ast.ProcDecl, call: ast.CallStmt, ctx: _Ctx) -> _Ctx:
        # A parameter is said as the argument of the call that draws the body (the other
        # calls are drawn as references to it) when that argument is a name; any other
        # argument (a number, say) speaks only for this call, so where the procedure has other
        # callers the parameter keeps its own name.
        single = self.sites.get(p.name, 0) == 1
        env = {prm.name: self.who(arg, ctx)
               for prm, arg in zip(p.params, call.args, strict=False)
               if single or isinstance(_uncite(arg), ast.Name)}
        return _Ctx(env, ctx.in_deal)

    def _call(self, s: ast.CallStmt, ctx: _Ctx) -> list[_Node]:
        p = self.procs.get(s.name)
        if p is None:
            return []
        if s.name in self.stack:
            return [_Ref(f"{s.name}() again, from its start")]
        if s.name in self.expanded:
            return [_Ref(f"{s.name}() again, as drawn earlier")]
        self.expanded.add(s.name)
        self.stack.append(s.name)
        body = self.block(p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        if len(body) == 1 and isinstance(body[0], _Decision):
            return [attrs.evolve(body[0], title=body[0].title or f"{s.name}()")]
        doc = _doc_phrase(p.doc)
        return [_Frame("proc", f"{s.name}()" + (f": {doc}" if doc else ""), tuple(body))]

    def _choose(self, s: ast.Choose, ctx: _Ctx) -> _Decision:
        who = self.who(s.seat, ctx)
        actions: dict[str, str] = {}
        for a in s.alternatives:
            actions.setdefault(a.action, _doc_phrase(a.doc))
        after: list[_Node] = []
        for a in s.alternatives:
            # what an alternative leads to is drawn only where it decides or ends something
            nodes = [n for n in self.block(a.body, ctx) if not isinstance(n, _Steps)]
            if nodes:
                after.append(_Frame("after", f"after {a.action}", tuple(nodes)))
        row: tuple[_Node, ...] = ()
        if after:
            row = (after[0],) if len(after) == 1 else (_Row(tuple(after)),)
        return _Decision(who.text, tuple(actions.items()), None, who.loop, row)

    def _run_deal(self) -> list[_Node]:
        if self.deal_drawn:
            return [_Ref("another deal, as drawn earlier")]
        self.deal_drawn = True
        body = self.block(self.spec.deal.body, _Ctx({}, in_deal=True))
        doc = _doc_phrase(self.spec.deal.doc)
        return [_Frame("deal", "a deal" + (f": {doc}" if doc else ""),
                       tuple(body) or (_Steps((_Line("bookkeeping only"),)),))]

    # ---- steps without a decision, as lines ----

    def lines(self, s: ast.Stmt, ctx: _Ctx) -> list[_Line]:  # noqa: C901
        match s:
            case ast.Shuffle(zone=z):
                return [_Line(f"shuffle {_pt(z)}")]
            case ast.Reshuffle(src=a, dst=b):
                return [_Line(f"reshuffle {_pt(a)} into {_pt(b)}")]
            case ast.Bury(src=a, dst=b):
                return [_Line(f"bury the top card of {_pt(a)} in {_pt(b)}, at random")]
            case ast.DealCards():
                return [_Line(self._deal_text(s, ctx))]
            case ast.Move():
                t = self._move_text(s)
                return [_Line(t)] if t else []
            case ast.If():
                return [_Line(f"if {_cond_text(c)}:", tuple(ls)) for c, b in _branches(s)
                        if (ls := self.block_lines(b, ctx))]
            case ast.While(cond=c, body=b):
                return _header(f"while {_pt(c, 90)}:", self.block_lines(b, ctx))
            case ast.Repeat(count=c, body=b):
                return _header(f"repeat {_pt(c)} times:", self.block_lines(b, ctx))
            case ast.Loop(body=b):
                return _header("repeat:", self.block_lines(b, ctx))
            case ast.For(var=v, source=src, cond=c, body=b):
                who = self.order(src, c, v, ctx)
                inner = _Ctx({**ctx.env, v: _Who(who)}, ctx.in_deal)
                return _header(f"for {who}:", self.block_lines(b, inner))
            case ast.CallStmt():
                return self._call_lines(s, ctx)
            case ast.EndDeal() | ast.EndMatch():
                return [_Line(_end_text(s))]
            case ast.Step(title=t, doc=d, body=b):
                # a step the spec explains is one line, its title (the book tells the rest);
                # one without a text shows what it does under its title
                return [_Line(t)] if d else _header(f"{t}:", self.block_lines(b, ctx))
            case (ast.Let() | ast.Set() | ast.Fill() | ast.Break() | ast.Continue()
                  | ast.Return() | ast.Choose() | ast.RunDeal()):
                return []  # bookkeeping (a decision or a deal never reaches here)
            case _:
                assert_never(s)

    def block_lines(self, b: ast.Block, ctx: _Ctx) -> list[_Line]:
        return [line for s in b.stmts for line in self.lines(s, ctx)]

    def _call_lines(self, s: ast.CallStmt, ctx: _Ctx) -> list[_Line]:
        p = self.procs.get(s.name)
        if p is None or s.name in self.stack:
            return []
        if p.doc:  # the author's own summary of the procedure says it best
            ends = ""
            if self.reaches(p.body, (ast.EndMatch,)):
                ends = " (may end the match)"
            elif self.reaches(p.body, (ast.EndDeal,)):
                ends = " (may end the deal)"
            return [_Line(f"{_doc_phrase(p.doc)} ({s.name}){ends}")]
        self.stack.append(s.name)
        lines = self.block_lines(p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        return _header(f"{s.name}():", lines)

    def _deal_text(self, s: ast.DealCards, ctx: _Ctx) -> str:
        seq = self.seq(s.seats, ctx, 0)
        if seq is None:
            to = f"the {s.zone} of {_pt(s.seats, 48)}"
        else:
            unit, tail = seq
            to = (f"each {s.zone}" if unit == s.zone else f"each {unit}'s {s.zone}") + tail
        one = isinstance(_uncite(s.count), ast.IntLit) and _pt(s.count) == "1"
        return f"deal {_pt(s.count, 30)} card{'' if one else 's'} from {_pt(s.src, 30)} to {to}"

    def _zone_vis(self, e: ast.Expr) -> str | None:
        e = _uncite(e)
        target = e.target if isinstance(e, ast.Index) else e
        if isinstance(target, ast.Name) and isinstance(self.binding(target.span), BoundZone):
            z = self.zones.get(target.id)
            return z.visibility if z is not None else None
        return None

    def _move_text(self, s: ast.Move) -> str | None:
        """A move a player would name: a hidden card turned up, or a hand laid open; any other
        move is bookkeeping."""
        src_vis, dst_vis = self._zone_vis(s.src), self._zone_vis(s.dst)
        if dst_vis != "all" or src_vis in (None, "all"):
            return None
        what, src = _uncite(s.what), _uncite(s.src)
        if src_vis == "nobody" and what == ast.Call("top", (src,)):
            return f"turn up the top card of {_pt(src)} onto {_pt(s.dst)}"
        if what == src:
            return f"lay {_pt(src)} open on {_pt(s.dst)}"
        return None

    # ---- who and in what order ----

    def who(self, e: ast.Expr, ctx: _Ctx) -> _Who:
        """How to say the seat ``e``: a loop's "each player ...", "the declarer", "player p"."""
        e = _uncite(e)
        if isinstance(e, ast.Name):
            if e.id in ctx.env:
                return ctx.env[e.id]
            if isinstance(self.binding(e.span), (BoundVar, BoundBuiltinVar)):
                return _Who("the " + e.id.replace("_", " "))
            return _Who(f"player {e.id}")
        if (isinstance(e, ast.Call) and e.func == "left_of" and len(e.args) == 1
                and isinstance(self.binding(e.span), BoundBuiltin)):
            return _Who(f"the player on {self.possessive(e.args[0], ctx)} left")
        if isinstance(e, ast.IntLit):
            return _Who(f"seat {e.value}")
        return _Who(f"seat {_pt(e, 40)}")

    def possessive(self, e: ast.Expr, ctx: _Ctx) -> str:
        t = self.who(e, ctx).text
        return t + ("'" if t.endswith("s") else "'s")

    def order(self, src: ast.Expr, cond: ast.Expr | None, var: str, ctx: _Ctx) -> str:
        """A ``for`` loop over seats said in words: "each player from the dealer's left"."""
        seq = self.seq(src, ctx, 0)
        text = f"each {var} in {_pt(src, 48)}" if seq is None else f"each {seq[0]}{seq[1]}"
        return text + (self._filter(cond, var, ctx) if cond is not None else "")

    def _filter(self, cond: ast.Expr, var: str, ctx: _Ctx) -> str:
        c = _uncite(cond)
        if (isinstance(c, ast.Compare) and c.op == "!=" and isinstance(c.left, ast.Name)
                and c.left.id == var):
            return f", except {self.who(c.right, ctx).text}"
        return f" where {_pt(c, 60)}"

    def seq(self, e: ast.Expr, ctx: _Ctx, depth: int) -> tuple[str, str] | None:
        """A list of seats as (unit, order): ("player", " from the dealer's left"); None when
        it cannot be said simply. Definitions are read through, a few levels deep."""
        e = _uncite(e)
        b = self.binding(e.span)
        if isinstance(e, ast.Name) and e.id == "seats" and isinstance(b, BoundConstant):
            return ("player", "")
        if isinstance(e, ast.Call) and isinstance(b, BoundBuiltin) and e.func == "seats_from":
            return ("player", self._start(e.args[0], ctx))
        if isinstance(e, ast.Call) and isinstance(b, BoundDef) and depth < 4:
            d = self.defs.get(e.func)
            if d is None or len(d.params) != len(e.args):
                return None
            env = {p.name: self.who(a, ctx) for p, a in zip(d.params, e.args, strict=True)}
            return self.seq(d.body, _Ctx(env, ctx.in_deal), depth + 1)
        if isinstance(e, ast.Comprehension):
            if isinstance(e.elem, ast.Name) and e.elem.id == e.var:
                base = self.seq(e.source, ctx, depth + 1)
                if base is None:
                    return None
                tail = self._filter(e.cond, e.var, ctx) if e.cond is not None else ""
                return (base[0], base[1] + tail)
            return self._rotation(e, ctx)
        return None

    def _start(self, e: ast.Expr, ctx: _Ctx) -> str:
        e = _uncite(e)
        if (isinstance(e, ast.Call) and e.func == "left_of" and len(e.args) == 1
                and isinstance(self.binding(e.span), BoundBuiltin)):
            return f" from {self.possessive(e.args[0], ctx)} left"
        return f" starting with {self.who(e, ctx).text}"

    def _rotation(self, e: ast.Comprehension, ctx: _Ctx) -> tuple[str, str] | None:
        """``[(X + k + i) % player_count for i in ...]``: the seats in turn from X (k = 0) or
        from X's left (k = 1); ``hand_count`` makes them hands."""
        el = e.elem
        if not (isinstance(el, ast.BinOp) and el.op == "%" and isinstance(el.right, ast.Name)):
            return None
        unit = {"player_count": "player", "hand_count": "hand"}.get(el.right.id)
        if unit is None or not isinstance(self.binding(el.right.span), BoundConstant):
            return None
        terms = list(_sum_terms(el.left))
        ks = [t.value for t in terms if isinstance(t, ast.IntLit)]
        rest = [t for t in terms if not isinstance(t, ast.IntLit)]
        var = [t for t in rest if isinstance(t, ast.Name) and t.id == e.var]
        others = [t for t in rest if not (isinstance(t, ast.Name) and t.id == e.var)]
        if len(var) != 1 or len(others) != 1 or sum(ks) not in (0, 1):
            return None
        if sum(ks) == 1:
            return (unit, f" from {self.possessive(others[0], ctx)} left")
        return (unit, f" starting with {self.who(others[0], ctx).text}")


def _sum_terms(e: ast.Expr) -> Iterator[ast.Expr]:
    if isinstance(e, ast.BinOp) and e.op == "+":
        yield from _sum_terms(e.left)
        yield from _sum_terms(e.right)
    else:
        yield e


def _direct_end(s: ast.If) -> bool:
    """Whether an arm of ``s`` ends the deal or match itself (not inside a loop or a call):
    such an ``if`` is drawn as a condition on an end box."""
    for _, b in _branches(s):
        for t in b.stmts:
            if isinstance(t, (ast.EndDeal, ast.EndMatch)):
                return True
            if isinstance(t, ast.If) and _direct_end(t):
                return True
    return False


def _breaks(b: ast.Block, action: str | None) -> Iterator[str | None]:
    """The alternatives (None: outside any) in which a ``break`` or ``return`` leaves the
    loop whose body is ``b``; nested loops keep their own breaks."""
    for s in b.stmts:
        if isinstance(s, (ast.Break, ast.Return)):
            yield action
        elif isinstance(s, ast.If):
            for _, arm in _branches(s):
                yield from _breaks(arm, action)
        elif isinstance(s, ast.Choose):
            for a in s.alternatives:
                yield from _breaks(a.body, a.action)


def _lines_of(nodes: Sequence[_Node]) -> tuple[_Line, ...]:
    return tuple(line for n in nodes if isinstance(n, _Steps) for line in n.lines)


def _guard(conds: tuple[ast.Expr, ...], nodes: list[_Node]) -> _Node:
    """The nodes of an ``if`` arm under its conditions: merged into a lone end box, reference
    or ``if`` frame, else a frame of their own."""
    if len(nodes) == 1:
        n = nodes[0]
        if isinstance(n, (_Terminal, _Ref)) or (isinstance(n, _Frame) and n.kind == "if"):
            return attrs.evolve(n, conds=conds + n.conds)
        if isinstance(n, _Steps):
            return _Steps((_Line(f"if {_cond_text(conds)}:", n.lines),))
    return _Frame("if", "", tuple(nodes), conds)


# ---- keeping it readable -----------------------------------------------------------------------

_MAX_BOXES = 40
_MAX_DEPTH = 7


def _kids(n: _Node) -> tuple[_Node, ...]:
    if isinstance(n, _Frame):
        return n.children
    if isinstance(n, _Row):
        return n.branches
    if isinstance(n, _Decision):
        return n.after
    return ()


def _count(nodes: Sequence[_Node]) -> int:
    return sum((0 if isinstance(n, _Row) else 1) + _count(_kids(n)) for n in nodes)


def _depth(nodes: Sequence[_Node], d: int = 0) -> int:
    """The depth of the deepest frame (0: none)."""
    return max((max(d + 1 if isinstance(n, _Frame) else 0,
                    _depth(_kids(n), d + 1 if isinstance(n, _Frame) else d)) for n in nodes),
               default=0)


def _decision_names(nodes: Sequence[_Node]) -> list[str]:
    out: list[str] = []
    for n in nodes:
        if isinstance(n, _Decision):
            out += [a for a, _ in n.actions]
        elif isinstance(n, _Folded):
            out += list(n.decisions)
        out += _decision_names(_kids(n))
    return list(dict.fromkeys(out))


def _frame_label(f: _Frame) -> str:
    return f"only if {_cond_text(f.conds)}" if f.kind == "if" else f.label


def _fold_at(nodes: Sequence[_Node], at: int, d: int = 0) -> tuple[_Node, ...]:
    """``nodes`` with every frame at depth ``at`` or deeper folded into one box."""
    out: list[_Node] = []
    for n in nodes:
        if isinstance(n, _Frame):
            if d + 1 >= at:
                out.append(_Folded(_frame_label(n), tuple(_decision_names(n.children))))
            else:
                out.append(attrs.evolve(n, children=_fold_at(n.children, at, d + 1)))
        elif isinstance(n, _Row):
            out.append(_Row(_fold_at(n.branches, at, d)))
        elif isinstance(n, _Decision):
            out.append(attrs.evolve(n, after=_fold_at(n.after, at, d)))
        else:
            out.append(n)
    return tuple(out)


def _fold(nodes: list[_Node]) -> tuple[_Node, ...]:
    """Deep detail folded until the picture has at most about ``_MAX_BOXES`` boxes; the deal's
    own frame and the frames just inside it are always drawn."""
    out = tuple(nodes)
    if _depth(out) > _MAX_DEPTH:
        out = _fold_at(out, _MAX_DEPTH + 1)
    while _count(out) > _MAX_BOXES and _depth(out) > 3:
        out = _fold_at(out, _depth(out))
    return out


# ---- the alt text --------------------------------------------------------------------------------

def _say_line(line: _Line) -> str:
    text = line.text.rstrip(":")
    return text + (": " + ", ".join(_say_line(c) for c in line.children) if line.children else "")


def _say_if(conds: tuple[ast.Expr, ...], text: str) -> str:
    return f"if {_cond_text(conds)}, {text}" if conds else text


def _say(nodes: Sequence[_Node], deals: list[str]) -> str:
    return "; then ".join(_say_node(n, deals) for n in nodes)


def _say_node(n: _Node, deals: list[str]) -> str:  # noqa: C901
    match n:
        case _Steps(lines=ls):
            return ", ".join(_say_line(x) for x in ls)
        case _Decision():
            acts = " or ".join(
                name + (f" ({_lower_first(_short(p, 60))})"
                        if p and p.lower() != name.replace("_", " ") else "")
                for name, p in n.actions)
            text = (f"{n.title}: " if n.title else "") + f"{_decides(n.who)}: {acts}"
            return text + (f"; after that, {_say(n.after, deals)}" if n.after else "")
        case _Terminal(text=t, conds=c) | _Ref(text=t, conds=c):
            return _say_if(c, t)
        case _Frame(kind="deal"):
            deals.append(_say(n.children, deals))
            return "a deal is played (described below)"
        case _Frame():
            return f"{_frame_label(n)} ({_say(n.children, deals)})"
        case _Row(branches=bs):
            return "either " + ", or ".join(f"({_say_node(b, deals)})" for b in bs)
        case _Folded(label=lbl, decisions=ds):
            return f"{lbl} (details folded; decisions {', '.join(ds) or 'none'})"
        case _:
            assert_never(n)


def _alt_text(nodes: Sequence[_Node]) -> str:
    """The match in a sentence, then each deal in one."""
    deals: list[str] = []
    first = nodes[0] if len(nodes) == 1 else None
    if (isinstance(first, _Frame) and first.kind == "loop" and first.children
            and isinstance(first.children[0], _Frame) and first.children[0].kind == "deal"):
        # the usual match, a loop that starts with a deal: say it as a series of deals
        deals.append(_say(first.children[0].children, deals))
        until = first.label.removeprefix("repeat ")
        head = "A match is a series of deals" + (f", {until}" if until != first.label
                                                 else f" ({first.label})")
        rest = first.children[1:]
        match_text = head + (f"; after each deal, {_say(rest, deals)}" if rest else "")
    else:
        match_text = f"A match: {_say(nodes, deals)}"
    return " ".join([f"{match_text}."] + [f"Each deal: {d}." for d in deals])


# ---- measuring and drawing -----------------------------------------------------------------------
# Text is 13 px; a character is taken as 7 px wide (the estimate errs wide for most text).

_CHAR_W = 7
_LINE_H = 18
_PAD_X = 12
_PAD_Y = 8
_GAP = 26  # between two nodes of a column: room for the arrow
_FRAME_PAD = 12
_LOOP_INSET = 18  # room on a loop frame's left for its arrow back to the top
_FORK = 14
_ROW_GAP = 18
_HEX = 12  # how far a decision box's sides point out
_WRAP = 52
_LABEL_WRAP = 66
_MAX_STEP_LINES = 14
_MARGIN = 12


@frozen
class _Text:
    """A line of text in a box: ``indent`` in px; ``act``: the action name it starts with."""

    indent: int
    cls: str
    text: str
    act: str = ""


@attrs.define
class _M:
    """A measured node: its size, its text lines, its measured parts."""

    node: _Node | None
    w: int
    h: int
    texts: list[_Text] = attrs.field(factory=list)
    kids: list[_M] = attrs.field(factory=list)
    #: a box's own size (a decision's consequences hang under its box)
    box_w: int = 0
    box_h: int = 0


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=max(width, 12), break_on_hyphens=False) or [""]


def _step_texts(lines: Sequence[_Line], depth: int = 0) -> list[_Text]:
    out: list[_Text] = []
    for line in lines:
        if depth > 3:
            return [_Text(depth * 2 * _CHAR_W, "t", "…")]
        for i, part in enumerate(_wrap(line.text, _WRAP - 2 * depth)):
            out.append(_Text((depth * 2 + (2 if i else 0)) * _CHAR_W, "t", part))
        out += _step_texts(line.children, depth + 1)
    if depth == 0 and len(out) > _MAX_STEP_LINES:
        out = out[: _MAX_STEP_LINES - 1] + [_Text(0, "t", "… and more")]
    return out


def _decision_texts(d: _Decision) -> list[_Text]:
    out = [_Text(0, "title", t) for t in _wrap(d.title, _WRAP)] if d.title else []
    out += [_Text(0, "who", t) for t in _wrap(f"{_decides(d.who)}:", _WRAP)]
    for name, phrase in d.actions:
        for i, part in enumerate(_wrap(f"{name}: {phrase}" if phrase else name, _WRAP - 2)):
            act = name if i == 0 and part.startswith(name) else ""
            out.append(_Text((2 if i else 0) * _CHAR_W + _CHAR_W, "t", part, act))
    return out


def _box_texts(n: _Node) -> list[_Text]:
    match n:
        case _Steps(lines=ls):
            return _step_texts(ls)
        case _Decision():
            return _decision_texts(n)
        case _Terminal(text=t, conds=c) | _Ref(text=t, conds=c):
            head = [_Text(0, "cond", s) for s in _wrap(f"if {_cond_text(c)}:", _WRAP)] if c else []
            return head + [_Text(0, "t", s) for s in _wrap(t, _WRAP)]
        case _Folded(label=lbl, decisions=ds):
            out = [_Text(0, "cond", s) for s in _wrap(lbl + " (folded), decisions:", _WRAP)]
            return out + [_Text(_CHAR_W, "acts", s) for s in _wrap(", ".join(ds), _WRAP)]
        case _:
            return []


def _text_w(texts: Sequence[_Text]) -> int:
    return max((t.indent + len(t.text) * _CHAR_W for t in texts), default=0)


def _measure(n: _Node) -> _M:
    if isinstance(n, _Frame):
        label = [_Text(0, "label", s) for s in _wrap(_loop_mark(n) + _frame_label(n),
                                                    _LABEL_WRAP)]
        col = _measure_column(n.children)
        inset = _LOOP_INSET if n.kind == "loop" else 0
        inner = max(col.w, _text_w(label))
        return _M(n, inner + 2 * _FRAME_PAD + inset,
                  2 * _FRAME_PAD + len(label) * _LINE_H + 4 + col.h, label, [col])
    if isinstance(n, _Row):
        kids = [_measure(b) for b in n.branches]
        return _M(n, sum(k.w for k in kids) + _ROW_GAP * (len(kids) - 1),
                  2 * _FORK + max(k.h for k in kids), kids=kids)
    texts = _box_texts(n)
    side = _HEX if isinstance(n, _Decision) else 0
    w = _text_w(texts) + 2 * (_PAD_X + side)
    h = len(texts) * _LINE_H + 2 * _PAD_Y
    m = _M(n, w, h, texts, box_w=w, box_h=h)
    if isinstance(n, _Decision) and n.after:
        after = _measure_column(n.after)
        m.kids = [after]
        m.w = max(w, after.w)
        m.h = h + _GAP + after.h
    return m


def _measure_column(nodes: Sequence[_Node]) -> _M:
    kids = [_measure(n) for n in nodes]
    return _M(None, max((k.w for k in kids), default=0),
              sum(k.h for k in kids) + _GAP * max(len(kids) - 1, 0), kids=kids)


def _loop_mark(n: _Frame) -> str:
    return "↻ " if n.kind == "loop" else ""


class _Canvas:
    """Collects the SVG elements; ``arrow`` is the id of the arrowhead marker."""

    def __init__(self, arrow: str) -> None:
        self.out: list[str] = []
        self.arrow = arrow

    def line(self, x1: int, y1: int, x2: int, y2: int, head: bool = True) -> None:
        end = f' marker-end="url(#{self.arrow})"' if head else ""
        self.out.append(f'<path class="rsd-edge" d="M{x1},{y1} L{x2},{y2}"{end}/>')

    def texts(self, x: int, y: int, texts: Sequence[_Text]) -> None:
        for i, t in enumerate(texts):
            ty = y + (i + 1) * _LINE_H - 5
            body = _esc(t.text)
            if t.cls == "acts":  # a list of action names, each marked as one
                body = ", ".join(f'<tspan class="rsd-act">{_esc(a)}</tspan>'
                                 for a in t.text.rstrip(",").split(", "))
                body += "," if t.text.endswith(",") else ""
            elif t.act:
                body = (f'<tspan class="rsd-act">{_esc(t.act)}</tspan>'
                        f"{_esc(t.text[len(t.act):])}")
            self.out.append(f'<text class="rsd-{t.cls}" x="{x + t.indent}" y="{ty}">'
                            f"{body}</text>")


def _draw(c: _Canvas, m: _M, x: int, y: int) -> None:
    n = m.node
    if n is None:
        _draw_column(c, m, x, y)
    elif isinstance(n, _Frame):
        _draw_frame(c, m, n, x, y)
    elif isinstance(n, _Row):
        _draw_row(c, m, x, y)
    else:
        _draw_box(c, m, n, x, y)


def _draw_column(c: _Canvas, m: _M, x: int, y: int) -> None:
    cx = x + m.w // 2
    for i, k in enumerate(m.kids):
        if i:
            c.line(cx, y - _GAP, cx, y - 1)
        _draw(c, k, x + (m.w - k.w) // 2, y)
        y += k.h + _GAP


_BOX_CLASS = {_Steps: "steps", _Decision: "decision", _Terminal: "end", _Ref: "ref",
              _Folded: "folded"}


def _draw_box(c: _Canvas, m: _M, n: _Node, x: int, y: int) -> None:
    kind = _BOX_CLASS[type(n)]
    w, h = m.box_w, m.box_h
    bx = x + (m.w - w) // 2
    c.out.append(f'<g class="rsd-node rsd-{kind}">')
    if isinstance(n, _Decision):
        pts = [(bx + _HEX, y), (bx + w - _HEX, y), (bx + w, y + h // 2), (bx + w - _HEX, y + h),
               (bx + _HEX, y + h), (bx, y + h // 2)]
        c.out.append(f'<polygon class="rsd-box rsd-{kind}" points="'
                     + " ".join(f"{px},{py}" for px, py in pts) + '"/>')
    else:
        rx = 16 if isinstance(n, _Terminal) else 3
        c.out.append(f'<rect class="rsd-box rsd-{kind}" x="{bx}" y="{y}" width="{w}" '
                     f'height="{h}" rx="{rx}"/>')
    side = _HEX if isinstance(n, _Decision) else 0
    c.texts(bx + _PAD_X + side, y + _PAD_Y, m.texts)
    c.out.append("</g>")
    if m.kids:  # a decision's consequences, under it
        cx = x + m.w // 2
        c.line(cx, y + h, cx, y + h + _GAP - 1)
        _draw_column(c, m.kids[0], x + (m.w - m.kids[0].w) // 2, y + h + _GAP)


def _draw_frame(c: _Canvas, m: _M, n: _Frame, x: int, y: int) -> None:
    c.out.append(f'<g class="rsd-frame rsd-{n.kind}">')
    c.out.append(f'<rect class="rsd-frame rsd-{n.kind}" x="{x}" y="{y}" width="{m.w}" '
                 f'height="{m.h}" rx="8"/>')
    c.texts(x + _FRAME_PAD, y + _FRAME_PAD - 4, m.texts)
    col = m.kids[0]
    inset = _LOOP_INSET if n.kind == "loop" else 0
    top = y + _FRAME_PAD + len(m.texts) * _LINE_H + 4
    inner = m.w - 2 * _FRAME_PAD - inset
    if n.kind == "loop":  # the way back to the top of the body, drawn, not only coloured
        ax, left = x + _FRAME_PAD + 2, x + _FRAME_PAD + inset - 2
        c.out.append(f'<path class="rsd-back" d="M{left},{top + col.h - 8} H{ax} V{top + 8} '
                     f'H{left}" marker-end="url(#{c.arrow})"/>')
    _draw_column(c, col, x + _FRAME_PAD + inset + (inner - col.w) // 2, top)
    c.out.append("</g>")


def _draw_row(c: _Canvas, m: _M, x: int, y: int) -> None:
    centres: list[int] = []
    bx = x
    for k in m.kids:
        centres.append(bx + k.w // 2)
        bx += k.w + _ROW_GAP
    cx, bottom = x + m.w // 2, y + m.h
    lo, hi = min(centres[0], cx), max(centres[-1], cx)
    c.line(lo, y, hi, y, head=False)
    c.line(lo, bottom, hi, bottom, head=False)
    bx = x
    for k, kc in zip(m.kids, centres, strict=True):
        c.line(kc, y, kc, y + _FORK - 1)
        _draw(c, k, bx, y + _FORK)
        c.line(kc, y + _FORK + k.h, kc, bottom, head=False)
        bx += k.w + _ROW_GAP


_STYLE = (
    ".rsd-bg{fill:#fff}"
    ".rsd-diagram text{font-family:sans-serif;font-size:13px;fill:#1a1a1a}"
    ".rsd-title,.rsd-who,.rsd-label,.rsd-act{font-weight:bold}"
    ".rsd-cond{font-style:italic}"
    ".rsd-box{stroke:#333;stroke-width:1.5}"
    "rect.rsd-steps{fill:#f2f2f2}"
    "polygon.rsd-decision{fill:#fff3cc;stroke-width:2}"
    "rect.rsd-end{fill:#dde8f3;stroke-width:2.5}"
    "rect.rsd-ref{fill:#fff;stroke-dasharray:5 3}"
    "rect.rsd-folded{fill:#f7f7f7;stroke-dasharray:1 3}"
    "rect.rsd-frame{fill:none;stroke:#666;stroke-width:1.2}"
    "rect.rsd-loop{stroke-dasharray:7 4}"
    "rect.rsd-if,rect.rsd-after{stroke-dasharray:2 3}"
    "rect.rsd-deal{stroke:#333;stroke-width:1.8}"
    ".rsd-edge,.rsd-back{stroke:#444;stroke-width:1.3;fill:none}"
    ".rsd-head{fill:#444}"
)

# XML 1.0 allows no control characters but tab and newlines, whatever a doc string holds
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape_xml(text: str) -> str:
    """``text`` as XML character data or an attribute value: escaped, and without the
    control characters XML 1.0 refuses."""
    return escape(_XML_BAD.sub("?", text), {'"': "&quot;"})


_esc = escape_xml


def _id_prefix(name: str) -> str:
    return "rsd-" + (re.sub(r"[^A-Za-z0-9_-]", "-", name) or "game")


def _svg(nodes: Sequence[_Node], title: str, alt: str, prefix: str) -> str:
    col = _measure_column(nodes)
    w, h = col.w + 2 * _MARGIN, col.h + 2 * _MARGIN
    c = _Canvas(f"{prefix}-arrow")
    _draw_column(c, col, _MARGIN, _MARGIN)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rsd-diagram" '
            f'viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc">')
    marker = (f'<defs><marker id="{c.arrow}" viewBox="0 0 10 10" refX="9" refY="5" '
              'markerWidth="7" markerHeight="7" orient="auto">'
              '<path class="rsd-head" d="M0,0 L10,5 L0,10 z"/></marker></defs>')
    parts = [head, f'<title id="{prefix}-title">{_esc(title)}</title>',
             f'<desc id="{prefix}-desc">{_esc(alt)}</desc>', f"<style>{_STYLE}</style>",
             marker, f'<rect class="rsd-bg" x="0" y="0" width="{w}" height="{h}"/>',
             *c.out, "</svg>"]
    return "\n".join(parts) + "\n"
