"""A diagram of a game's phases and turns, drawn from its checked spec as SVG.

:func:`phase_diagram` walks the match block and the deal block (and the procedures they call,
each drawn once) and draws the flow top to bottom: a box for each step a player would name (the
shuffle, the deal, a card turned up), a six-sided box for each decision with its actions and who
takes it, a rounded box for the end of a deal or of the match, and a frame around each loop and
each ``if`` that holds a decision or an ending. Bookkeeping (``set``, ``let``, ``fill``, most
``move``) is left out. The same text is said in words as the alt text.

The spec is read here into a small tree of what is drawn; :mod:`rulespec.book.svg` measures and
draws it, with nothing but the standard library, so the same spec always gives the same bytes (a
committed rulebook stays byte-stable). The alt text is read off the same tree, so the two cannot
disagree.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import assert_never

import attrs
from attrs import frozen

from rulespec.book.english import say, say_pick
from rulespec.book.reading import CITATION
from rulespec.book.svg import (
    Decision,
    Diagram,
    Folded,
    Frame,
    Line,
    Node,
    Ref,
    Row,
    Steps,
    Terminal,
    cond_text,
    decides,
    draw,
    frame_label,
    id_prefix,
    short,
)
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

__all__ = ["Diagram", "block_in_words", "phase_diagram"]



def phase_diagram(spec: CheckedSpec) -> Diagram:
    """The phases of ``spec``'s match and deal and the decisions in them, as a :class:`Diagram`.

    Deterministic: the same spec gives byte-identical SVG."""
    nodes = _fold(_Builder(spec).root())
    alt = _alt_text(nodes)
    title = f"{spec.title}: the phases of a match and of a deal"
    return Diagram(draw(nodes, title, alt, id_prefix(spec.name)), alt)


def block_in_words(spec: CheckedSpec, body: ast.Block, in_deal: bool = True) -> str:
    """What a block does besides its decisions, said as the diagram's boxes say it, on one
    line ("shuffle the stock; deal 7 cards ..."): the rulebook's words for a step that has
    no text of its own. Empty when the block only keeps count."""
    lines = _Builder(spec).block_lines(body, _Ctx({}, in_deal))

    def flat(line: Line) -> str:
        inner = "; ".join(flat(c) for c in line.children)
        return f"{line.text} {inner}" if inner else line.text

    return "; ".join(flat(line) for line in lines)


def _direction_text(v: ast.Expr) -> str:
    """A change of the direction of play (``set clockwise = ...``) as the diagram says it."""
    bare = walk.uncite(v)
    if isinstance(bare, ast.Not) and walk.uncite(bare.operand) == ast.Name("clockwise"):
        return "the direction of play reverses"
    if bare in (ast.Name("true"), ast.Name("false")):
        return f"play goes {'clockwise' if bare == ast.Name('true') else 'counter-clockwise'}"
    return "the direction of play is set"


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

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
            "in": "not in", "not in": "in"}



def _negate(e: ast.Expr) -> ast.Expr:
    if isinstance(e, ast.Not):
        return e.operand
    if isinstance(e, ast.Compare) and e.op in _NEGATED:
        return ast.Compare(_NEGATED[e.op], e.left, e.right)
    return ast.Not(e)




def _doc_phrase(doc: str | None, limit: int = 90) -> str:
    """The first sentence of a doc string up to its first semicolon, without citations or
    the final full stop: the gist, for a box (the book quotes the whole text)."""
    if not doc:
        return ""
    text = CITATION.sub("", doc).strip()
    m = re.search(r"[.!?](\s|$)", text)
    if m:
        text = text[: m.start()]
    return short(text.split("; ")[0], limit)


def _lower_first(s: str) -> str:
    # a phrase from a doc continues a sentence; an initialism ("HTML") stays as written
    if len(s) > 1 and s[0].isupper() and not s[1].isupper():
        return s[0].lower() + s[1:]
    return s




def _branches(s: ast.If) -> list[tuple[tuple[ast.Expr, ...], ast.Block]]:
    """Each arm of an ``if`` chain with the whole condition under which it runs (an arm is
    drawn on its own when the arms before it are bookkeeping, so it must say all of it)."""
    out: list[tuple[tuple[ast.Expr, ...], ast.Block]] = []
    prior: list[ast.Expr] = []
    cur: ast.If | ast.Block | None = s
    while isinstance(cur, ast.If):
        c = walk.uncite(cur.cond)
        out.append((tuple(_negate(p) for p in prior) + (c,), cur.then))
        prior.append(c)
        cur = cur.else_
    if cur is not None:
        out.append((tuple(_negate(p) for p in prior), cur))
    return out


def _header(text: str, children: Sequence[Line]) -> list[Line]:
    return [Line(text, tuple(children))] if children else []


def _append(out: list[Node], node: Node) -> None:
    # consecutive steps share one box
    if isinstance(node, Steps) and out and isinstance(out[-1], Steps):
        out[-1] = Steps(out[-1].lines + node.lines)
    else:
        out.append(node)


# ---- from the spec to the tree -----------------------------------------------------------------

class _Builder:
    """Walks the match and the deal into nodes; draws each procedure once."""

    def __init__(self, spec: CheckedSpec) -> None:
        self.spec = spec
        self.procs = spec.proc_named
        self.defs = spec.def_named
        self.zones = spec.zone_named
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

    def root(self) -> list[Node]:
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

    def pt(self, e: ast.Expr, limit: int = 60) -> str:
        """``e`` in a label: in plain English, as the book says it (the spec's code is in the
        book's reference, not in its pictures)."""
        return short(say(walk.uncite(e), self.spec), limit)

    def said(self, conds: Sequence[ast.Expr]) -> tuple[str, ...]:
        """Conditions in words, each whole (cut, if need be, where they are drawn)."""
        return tuple(say(walk.uncite(c), self.spec) for c in conds)

    def end_text(self, s: ast.EndDeal | ast.EndMatch) -> str:
        if isinstance(s, ast.EndMatch):
            who = "winning teams" if s.teams else "winners"
            return f"end of match, {who} {self.pt(s.winners, 48)}"
        flag = f" ({s.flag})" if s.flag else ""
        return f"end of deal{flag}, scoring {s.scoring}" + (" per team" if s.per_team else "")

    def structural(self, s: ast.Stmt) -> bool:
        return self.reaches(s, (ast.Choose, ast.RunDeal))

    def binding(self, span: ast.Span) -> Binding | None:
        return self.spec.resolution.bindings.get(pos(span))

    def block(self, b: ast.Block, ctx: _Ctx) -> list[Node]:
        out: list[Node] = []
        for s in b.stmts:
            for n in self.stmt(s, ctx):
                _append(out, n)
        return out

    def stmt(self, s: ast.Stmt, ctx: _Ctx) -> list[Node]:
        if isinstance(s, (ast.EndDeal, ast.EndMatch)):
            return [Terminal(self.end_text(s))]
        if isinstance(s, ast.If) and (self.structural(s) or _direct_end(s)):
            return self._if(s, ctx)
        if not self.structural(s):
            lines = self.lines(s, ctx)
            return [Steps(tuple(lines))] if lines else []
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

    def _if(self, s: ast.If, ctx: _Ctx) -> list[Node]:
        shown = [(c, ns) for c, b in _branches(s) if (ns := self.block(b, ctx))]
        if not shown:
            return []
        if all(isinstance(n, Steps) for _, ns in shown for n in ns):
            return [Steps(tuple(Line(f"if {cond_text(self.said(c))}:", _lines_of(ns))
                                 for c, ns in shown))]
        guarded = [_guard(self.said(c), ns) for c, ns in shown]
        return guarded if len(guarded) == 1 else [Row(tuple(guarded))]

    def _loop(self, s: ast.While | ast.Loop | ast.For | ast.Repeat, ctx: _Ctx) -> list[Node]:
        if isinstance(s, ast.For):
            self.loops += 1
            lid = self.loops
            who = self.order(s.source, s.cond, s.var, ctx)
            inner = _Ctx({**ctx.env, s.var: _Who(who, lid)}, ctx.in_deal)
            body = self.block(s.body, inner)
            if len(body) == 1 and isinstance(body[0], Decision) and body[0].loop == lid:
                return body  # "each player ... decides" says the loop already
            return [Frame("loop", f"for {who}", tuple(body))]
        if isinstance(s, ast.Repeat):
            label = f"repeat {self.pt(s.count)} times"
        elif isinstance(s, ast.While):
            label = f"while {self.pt(s.cond, 90)}"
        else:
            label = self._loop_label(s.body, ctx)
        return [Frame("loop", label, tuple(self.block(s.body, ctx)))]

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
               if single or isinstance(walk.uncite(arg), ast.Name)}
        return _Ctx(env, ctx.in_deal)

    def _call(self, s: ast.CallStmt, ctx: _Ctx) -> list[Node]:
        p = self.procs.get(s.name)
        if p is None:
            return []
        if s.name in self.stack:
            return [Ref(f"{s.name}() again, from its start")]
        if s.name in self.expanded:
            return [Ref(f"{s.name}() again, as drawn earlier")]
        self.expanded.add(s.name)
        self.stack.append(s.name)
        body = self.block(p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        if len(body) == 1 and isinstance(body[0], Decision):
            return [attrs.evolve(body[0], title=body[0].title or f"{s.name}()")]
        doc = _doc_phrase(p.doc)
        return [Frame("proc", f"{s.name}()" + (f": {doc}" if doc else ""), tuple(body))]

    def _choose(self, s: ast.Choose, ctx: _Ctx) -> Decision:
        if s.together is not None:
            return self._choose_together(s, s.together, ctx)
        who = self.who(s.seat, ctx)
        actions: dict[str, str] = {}
        for a in s.alternatives:
            actions.setdefault(a.action, _doc_phrase(a.doc))
        after: list[Node] = []
        for a in s.alternatives:
            # what an alternative leads to is drawn only where it decides or ends something
            # (or where it leaves something to a pick: a roll of the die is what it does)
            picks = self.reaches(a.body, (ast.Pick,))
            nodes = [n for n in self.block(a.body, ctx) if picks or not isinstance(n, Steps)]
            if nodes:
                after.append(Frame("after", f"after {a.action}", tuple(nodes)))
        row: tuple[Node, ...] = ()
        if after:
            row = (after[0],) if len(after) == 1 else (Row(tuple(after)),)
        return Decision(who.text, tuple(actions.items()), None, who.loop, row)

    def _choose_together(self, s: ast.Choose, var: str, ctx: _Ctx) -> Decision:
        """A simultaneous decision: "each player, at once and in secret, decides", then what
        the choices do, drawn whole under "then all at once" (the bodies hold no decision)."""
        seq = self.seq(s.seat, ctx, 0)
        # all at once: the order of the list is no order of play
        who = (f"each {seq[0]}" if seq is not None else self.order(s.seat, None, var, ctx)) \
            + ", at once and in secret"
        inner = _Ctx({**ctx.env, var: _Who(f"player {var}")}, ctx.in_deal)
        actions: dict[str, str] = {}
        for a in s.alternatives:
            actions.setdefault(a.action, _doc_phrase(a.doc))
        after: list[Node] = []
        for a in s.alternatives:
            # carried out, not shown: a pass of cards stays face down (only its effect is seen)
            lines = [Line(f"once all have chosen, every {a.action} is carried out together")]
            for st in a.body.stmts:
                # the body's moves said as they are: here they are the point, not bookkeeping
                if isinstance(st, ast.Move) and not self._move_text(st):
                    lines.append(Line(f"move {self.pt(st.what)} from {self.pt(st.src)} to "
                                      f"{self.pt(st.dst)}"))
                else:
                    lines += self.lines(st, inner)
            label = "then" + (f", after {a.action}" if len(s.alternatives) > 1 else "")
            after.append(Frame("after", label, (Steps(tuple(lines)),)))
        row: tuple[Node, ...] = (after[0],) if len(after) == 1 else (Row(tuple(after)),)
        return Decision(who, tuple(actions.items()), None, None, row)

    def _run_deal(self) -> list[Node]:
        if self.deal_drawn:
            return [Ref("another deal, as drawn earlier")]
        self.deal_drawn = True
        body = self.block(self.spec.deal.body, _Ctx({}, in_deal=True))
        doc = _doc_phrase(self.spec.deal.doc)
        return [Frame("deal", "a deal" + (f": {doc}" if doc else ""),
                       tuple(body) or (Steps((Line("bookkeeping only"),)),))]

    # ---- steps without a decision, as lines ----

    def lines(self, s: ast.Stmt, ctx: _Ctx) -> list[Line]:  # noqa: C901
        match s:
            case ast.Shuffle(zone=z):
                return [Line(f"shuffle {self.pt(z)}")]
            case ast.Reshuffle(src=a, dst=b):
                return [Line(f"reshuffle {self.pt(a)} into {self.pt(b)}")]
            case ast.Bury(src=a, dst=b):
                return [Line(f"bury the top card of {self.pt(a)} in {self.pt(b)}, "
                              "at random")]
            case ast.Pick():
                return [Line(short(say_pick(s, self.spec), 90))]
            case ast.DealCards():
                return [Line(self._deal_text(s, ctx))]
            case ast.Move():
                t = self._move_text(s)
                return [Line(t)] if t else []
            case ast.If():
                return [Line(f"if {cond_text(self.said(c))}:", tuple(ls))
                        for c, b in _branches(s)
                        if (ls := self.block_lines(b, ctx))]
            case ast.While(cond=c, body=b):
                return _header(f"while {self.pt(c, 90)}:", self.block_lines(b, ctx))
            case ast.Repeat(count=c, body=b):
                return _header(f"repeat {self.pt(c)} times:", self.block_lines(b, ctx))
            case ast.Loop(body=b):
                return _header("repeat:", self.block_lines(b, ctx))
            case ast.For(var=v, source=src, cond=c, body=b):
                who = self.order(src, c, v, ctx)
                inner = _Ctx({**ctx.env, v: _Who(who)}, ctx.in_deal)
                return _header(f"for {who}:", self.block_lines(b, inner))
            case ast.CallStmt():
                return self._call_lines(s, ctx)
            case ast.EndDeal() | ast.EndMatch():
                return [Line(self.end_text(s))]
            case ast.SitOut(seat=q):
                return [Line(f"{self.pt(q)} sits out the rest of the deal")]
            case ast.Reveal(zone=z):
                return [Line(f"{self.pt(z)} is laid face up for everyone, for the rest of the "
                             "deal")]
            case ast.Step(title=t, doc=d, body=b):
                # a step the spec explains is one line, its title (the book tells the rest);
                # one without a text shows what it does under its title
                return [Line(t)] if d else _header(f"{t}:", self.block_lines(b, ctx))
            case ast.Set(name="clockwise", index=None, value=v):
                return [Line(_direction_text(v))]
            case (ast.Let() | ast.Set() | ast.Fill() | ast.Break() | ast.Continue()
                  | ast.Return() | ast.Choose() | ast.RunDeal()):
                return []  # bookkeeping (a decision or a deal never reaches here)
            case _:
                assert_never(s)

    def block_lines(self, b: ast.Block, ctx: _Ctx) -> list[Line]:
        return [line for s in b.stmts for line in self.lines(s, ctx)]

    def _call_lines(self, s: ast.CallStmt, ctx: _Ctx) -> list[Line]:
        p = self.procs.get(s.name)
        if p is None or s.name in self.stack:
            return []
        if p.doc:  # the author's own summary of the procedure says it best
            ends = ""
            if self.reaches(p.body, (ast.EndMatch,)):
                ends = " (may end the match)"
            elif self.reaches(p.body, (ast.EndDeal,)):
                ends = " (may end the deal)"
            return [Line(f"{_doc_phrase(p.doc)} ({s.name}){ends}")]
        self.stack.append(s.name)
        lines = self.block_lines(p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        return _header(f"{s.name}():", lines)

    def _deal_text(self, s: ast.DealCards, ctx: _Ctx) -> str:
        seq = self.seq(s.seats, ctx, 0)
        if seq is None:
            to = f"the {s.zone} of {self.pt(s.seats, 48)}"
        else:
            unit, tail = seq
            to = (f"each {s.zone}" if unit == s.zone else f"each {unit}'s {s.zone}") + tail
        one = isinstance(walk.uncite(s.count), ast.IntLit) and self.pt(s.count) == "1"
        return (f"deal {self.pt(s.count, 30)} card{'' if one else 's'} from "
                f"{self.pt(s.src, 30)} to {to}")

    def _zone_vis(self, e: ast.Expr) -> str | None:
        e = walk.uncite(e)
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
        what, src = walk.uncite(s.what), walk.uncite(s.src)
        if src_vis == "nobody" and what == ast.Call("top", (src,)):
            return f"turn up the top card of {self.pt(src)} onto {self.pt(s.dst)}"
        if what == src:
            return f"lay {self.pt(src)} open on {self.pt(s.dst)}"
        return None

    # ---- who and in what order ----

    def who(self, e: ast.Expr, ctx: _Ctx) -> _Who:
        """How to say the seat ``e``: a loop's "each player ...", "the declarer", "player p"."""
        e = walk.uncite(e)
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
        return _Who(f"seat {self.pt(e, 40)}")

    def possessive(self, e: ast.Expr, ctx: _Ctx) -> str:
        t = self.who(e, ctx).text
        return t + ("'" if t.endswith("s") else "'s")

    def order(self, src: ast.Expr, cond: ast.Expr | None, var: str, ctx: _Ctx) -> str:
        """A ``for`` loop over seats said in words: "each player from the dealer's left"."""
        seq = self.seq(src, ctx, 0)
        text = (f"each {var} in {self.pt(src, 48)}" if seq is None
                else f"each {seq[0]}{seq[1]}")
        return text + (self._filter(cond, var, ctx) if cond is not None else "")

    def _filter(self, cond: ast.Expr, var: str, ctx: _Ctx) -> str:
        c = walk.uncite(cond)
        if (isinstance(c, ast.Compare) and c.op == "!=" and isinstance(c.left, ast.Name)
                and c.left.id == var):
            return f", except {self.who(c.right, ctx).text}"
        return f" where {self.pt(c, 60)}"

    def seq(self, e: ast.Expr, ctx: _Ctx, depth: int) -> tuple[str, str] | None:
        """A list of seats as (unit, order): ("player", " from the dealer's left"); None when
        it cannot be said simply. Definitions are read through, a few levels deep."""
        e = walk.uncite(e)
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
        e = walk.uncite(e)
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


def _lines_of(nodes: Sequence[Node]) -> tuple[Line, ...]:
    return tuple(line for n in nodes if isinstance(n, Steps) for line in n.lines)


def _guard(conds: tuple[str, ...], nodes: list[Node]) -> Node:
    """The nodes of an ``if`` arm under its conditions: merged into a lone end box, reference
    or ``if`` frame, else a frame of their own."""
    if len(nodes) == 1:
        n = nodes[0]
        if isinstance(n, (Terminal, Ref)) or (isinstance(n, Frame) and n.kind == "if"):
            return attrs.evolve(n, conds=conds + n.conds)
        if isinstance(n, Steps):
            return Steps((Line(f"if {cond_text(conds)}:", n.lines),))
    return Frame("if", "", tuple(nodes), conds)


# ---- keeping it readable -----------------------------------------------------------------------

_MAX_BOXES = 40
_MAX_DEPTH = 7


def _kids(n: Node) -> tuple[Node, ...]:
    if isinstance(n, Frame):
        return n.children
    if isinstance(n, Row):
        return n.branches
    if isinstance(n, Decision):
        return n.after
    return ()


def _count(nodes: Sequence[Node]) -> int:
    return sum((0 if isinstance(n, Row) else 1) + _count(_kids(n)) for n in nodes)


def _depth(nodes: Sequence[Node], d: int = 0) -> int:
    """The depth of the deepest frame (0: none)."""
    return max((max(d + 1 if isinstance(n, Frame) else 0,
                    _depth(_kids(n), d + 1 if isinstance(n, Frame) else d)) for n in nodes),
               default=0)


def _decision_names(nodes: Sequence[Node]) -> list[str]:
    out: list[str] = []
    for n in nodes:
        if isinstance(n, Decision):
            out += [a for a, _ in n.actions]
        elif isinstance(n, Folded):
            out += list(n.decisions)
        out += _decision_names(_kids(n))
    return list(dict.fromkeys(out))




def _fold_at(nodes: Sequence[Node], at: int, d: int = 0) -> tuple[Node, ...]:
    """``nodes`` with every frame at depth ``at`` or deeper folded into one box."""
    out: list[Node] = []
    for n in nodes:
        if isinstance(n, Frame):
            if d + 1 >= at:
                out.append(Folded(frame_label(n), tuple(_decision_names(n.children))))
            else:
                out.append(attrs.evolve(n, children=_fold_at(n.children, at, d + 1)))
        elif isinstance(n, Row):
            out.append(Row(_fold_at(n.branches, at, d)))
        elif isinstance(n, Decision):
            out.append(attrs.evolve(n, after=_fold_at(n.after, at, d)))
        else:
            out.append(n)
    return tuple(out)


def _fold(nodes: list[Node]) -> tuple[Node, ...]:
    """Deep detail folded until the picture has at most about ``_MAX_BOXES`` boxes; the deal's
    own frame and the frames just inside it are always drawn."""
    out = tuple(nodes)
    if _depth(out) > _MAX_DEPTH:
        out = _fold_at(out, _MAX_DEPTH + 1)
    while _count(out) > _MAX_BOXES and _depth(out) > 3:
        out = _fold_at(out, _depth(out))
    return out


# ---- the alt text --------------------------------------------------------------------------------

def _say_line(line: Line) -> str:
    text = line.text.rstrip(":")
    return text + (": " + ", ".join(_say_line(c) for c in line.children) if line.children else "")


def _say_if(conds: tuple[str, ...], text: str) -> str:
    return f"if {cond_text(conds)}, {text}" if conds else text


def _say(nodes: Sequence[Node], deals: list[str]) -> str:
    return "; then ".join(_say_node(n, deals) for n in nodes)


def _say_node(n: Node, deals: list[str]) -> str:  # noqa: C901
    match n:
        case Steps(lines=ls):
            return ", ".join(_say_line(x) for x in ls)
        case Decision():
            acts = " or ".join(
                name + (f" ({_lower_first(short(p, 60))})"
                        if p and p.lower() != name.replace("_", " ") else "")
                for name, p in n.actions)
            text = (f"{n.title}: " if n.title else "") + f"{decides(n.who)}: {acts}"
            return text + (f"; after that, {_say(n.after, deals)}" if n.after else "")
        case Terminal(text=t, conds=c) | Ref(text=t, conds=c):
            return _say_if(c, t)
        case Frame(kind="deal"):
            deals.append(_say(n.children, deals))
            return "a deal is played (described below)"
        case Frame():
            return f"{frame_label(n)} ({_say(n.children, deals)})"
        case Row(branches=bs):
            return "either " + ", or ".join(f"({_say_node(b, deals)})" for b in bs)
        case Folded(label=lbl, decisions=ds):
            return f"{lbl} (details folded; decisions {', '.join(ds) or 'none'})"
        case _:
            assert_never(n)


def _alt_text(nodes: Sequence[Node]) -> str:
    """The match in a sentence, then each deal in one."""
    deals: list[str] = []
    first = nodes[0] if len(nodes) == 1 else None
    if (isinstance(first, Frame) and first.kind == "loop" and first.children
            and isinstance(first.children[0], Frame) and first.children[0].kind == "deal"):
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


