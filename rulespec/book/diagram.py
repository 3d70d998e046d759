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

from collections.abc import Iterator, Mapping, Sequence
from typing import TypeVar, assert_never

import attrs
from attrs import frozen

from rulespec.book.english import say, say_pick
from rulespec.book.labels import Labels, if_clause
from rulespec.book.svg import (
    OTHERWISE,
    Decision,
    Diagram,
    Frame,
    Line,
    Node,
    Ref,
    Row,
    Steps,
    Terminal,
    Words,
    alt_text,
    cond_head,
    draw,
    fill,
    fold,
    id_prefix,
    lower_first,
    same,
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

_T = TypeVar("_T")



def phase_diagram(spec: CheckedSpec, words: Words = same, direction: str = "ltr",
                  hidden: frozenset[str] = frozenset()) -> Diagram:
    """The phases of ``spec``'s match and deal and the decisions in them, as a :class:`Diagram`.

    Every word goes through ``words`` (the identity by default; a translated book passes its
    catalog lookup: the spec's texts whole, the generated words as templates filled after
    translation); ``direction="rtl"`` sets the text right to left; the decisions ``hidden``
    names (a variation's, in a book of the defaults) are left out. Deterministic: the same
    spec gives byte-identical SVG."""
    nodes = fold(_Builder(spec, words, hidden).root(), words)
    alt = alt_text(nodes, words)
    title = fill(words("{game}: the phases of a match and of a deal"), game=words(spec.title))
    return Diagram(draw(nodes, title, alt, id_prefix(spec.name), words, direction), alt)


def block_in_words(spec: CheckedSpec, body: ast.Block, in_deal: bool = True,
                   words: Words = same) -> str:
    """What a block does besides its decisions, said as the diagram's boxes say it, on one
    line ("shuffle the stock; deal 7 cards ..."): the rulebook's words for a step that has
    no text of its own. Empty when the block only keeps count."""
    lines = _Builder(spec, words).block_lines(body, _Ctx({}, in_deal))

    def flat(line: Line) -> str:
        inner = "; ".join(flat(c) for c in line.children)
        return f"{line.text} {inner}" if inner else line.text

    return "; ".join(flat(line) for line in lines)


def _direction_text(v: ast.Expr) -> str:
    """A change of the direction of play (``set clockwise = ...``) as the diagram says it (a
    template of the diagram's words)."""
    bare = walk.uncite(v)
    if isinstance(bare, ast.Not) and walk.uncite(bare.operand) == ast.Name("clockwise"):
        return "the direction of play reverses"
    if bare in (ast.Name("true"), ast.Name("false")):
        return "play goes clockwise" if bare == ast.Name("true") else \
            "play goes counter-clockwise"
    return "the direction of play is set"


@frozen
class _Who:
    """How to say who a seat expression is; ``loop`` is the ``for`` loop it comes from."""

    text: str
    loop: int | None = None
    #: "each player ...": one of them is "the player" ("the player's partner")
    many: bool = False


@frozen
class _Ctx:
    """Where the walk is: what the locals in scope stand for, and whether inside the deal."""

    env: Mapping[str, _Who]
    in_deal: bool


def _branches(s: ast.If) -> list[tuple[ast.Expr | None, ast.Block]]:
    """Each arm of an ``if`` chain with its own condition (None: the final ``else``). An arm is
    labelled by its own condition alone: the diagram says "otherwise" for an ``else`` and
    does not repeat, in words a player would not use, the arms before it."""
    out: list[tuple[ast.Expr | None, ast.Block]] = []
    cur: ast.If | ast.Block | None = s
    while isinstance(cur, ast.If):
        out.append((walk.uncite(cur.cond), cur.then))
        cur = cur.else_
    if cur is not None:
        out.append((None, cur))
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

    def __init__(self, spec: CheckedSpec, words: Words = same,
                 hidden: frozenset[str] = frozenset()) -> None:
        self.spec = spec
        self.w = words
        self.hidden = hidden
        self.lab = Labels(spec, words)
        self.procs = spec.proc_named
        self.defs = spec.def_named
        self.zones = spec.zone_named
        self.expanded: set[str] = set()
        self.stack: list[str] = []
        self.loops = 0
        self.deal_drawn = False
        self.memo: dict[tuple[str, tuple[type, ...]], bool] = {}
        self.sites: dict[str, int] = {}
        #: the labels of the procedures drawn that no other call refers to
        self.once: set[str] = set()
        #: the texts around the walk (a step's, a decision's, a procedure's), innermost last:
        #: the condition their only conditional sentence states, where their block has one
        #: condition the spec gives no words (else "")
        self.ifs: list[str] = []
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

    def t(self, template: str, **values: str) -> str:
        """A generated phrase: ``template`` through the diagram's words, then filled."""
        return fill(self.w(template), **values)

    def pt(self, e: ast.Expr, limit: int = 60) -> str:
        """``e`` in a label: in plain English, as the book says it (a zone, a count: the
        spec's code is in the book's reference, not in its pictures)."""
        return self.w(short(say(walk.uncite(e), self.spec), limit))

    def arms(self, shown: Sequence[tuple[ast.Expr | None, _T]]) -> list[tuple[str, _T]]:
        """The arms of an ``if`` that are drawn, each with its condition in words:
        "otherwise" for an ``else`` drawn after an arm, :data:`UNSAID` where the spec has no
        words (an ``else`` drawn alone among them too)."""
        out: list[tuple[str, _T]] = []
        for c, x in shown:
            if c is not None and not self.lab.whole(c) and self.ifs and self.ifs[-1]:
                # the step's or decision's own words for it, said once
                out.append((self.ifs[-1], x))
                self.ifs[-1] = ""
                continue
            out.append((self.lab.cond(c) if c is not None
                        else OTHERWISE if out else "", x))
        return out

    def within(self, doc: str | None, body: ast.Block, ctx: _Ctx) -> list[Node]:
        """``body`` drawn inside the text ``doc`` (a step's, a decision's, a procedure's)."""
        lone = sum(1 for _ in self._unsaid_ifs(body)) == 1
        self.ifs.append(if_clause(self.w(doc)) if doc and lone else "")
        try:
            return self.block(body, ctx)
        finally:
            self.ifs.pop()

    def _unsaid_ifs(self, b: ast.Block) -> Iterator[ast.If]:
        """The outermost ``if``s of ``b`` whose conditions the spec does not wholly say, not
        counting those inside a text of their own (a step's, a decision's)."""
        for st in b.stmts:
            if isinstance(st, ast.If):
                arms = _branches(st)
                if any(c is not None and not self.lab.whole(c) for c, _ in arms):
                    yield st
                    continue
                for _, arm in arms:
                    yield from self._unsaid_ifs(arm)
            elif isinstance(st, (ast.While, ast.Loop, ast.For, ast.Repeat)):
                yield from self._unsaid_ifs(st.body)
            elif isinstance(st, ast.Step) and not st.doc:
                yield from self._unsaid_ifs(st.body)

    def proc_words(self, p: ast.ProcDecl) -> str:
        """A procedure as the picture names it: the first clause of its text, else its
        name in words."""
        return self.lab.gist(p.doc, 64) or self.lab.name(p.name)

    def end_text(self, s: ast.EndDeal | ast.EndMatch) -> str:
        if isinstance(s, ast.EndMatch):
            w = walk.uncite(s.winners)
            d = self.defs.get(w.func) if isinstance(w, ast.Call) else None
            winners = lower_first(self.lab.gist(d.doc, 56)) if d is not None else ""
            if not winners:
                return self.t("the match ends")
            key = "the match ends; the winning teams: {winners}" if s.teams \
                else "the match ends; the winners: {winners}"
            return self.t(key, winners=winners)
        if not s.flag:
            return self.t("the deal ends and is scored")
        scoring = self.defs.get(s.scoring)
        gist = lower_first(self.lab.gist(scoring.doc, 56)) if scoring is not None else ""
        flag = self.lab.name(s.flag)
        return self.t("the deal ends ({flag}): {scoring}", flag=flag, scoring=gist) if gist \
            else self.t("the deal ends ({flag})", flag=flag)

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
            shown = [a for a in s.alternatives if a.action not in self.hidden]
            return [self._choose(attrs.evolve(s, alternatives=tuple(shown)), ctx)] if shown \
                else []
        if isinstance(s, ast.RunDeal):
            return self._run_deal()
        if isinstance(s, ast.Step):
            # the decisions inside are drawn where they are, under the step's title
            return self._titled(self.w(s.title), self.within(s.doc, s.body, ctx))
        return []  # no other statement holds a decision

    def _titled(self, title: str, body: list[Node]) -> list[Node]:
        """The nodes of a step that holds a decision, the step's title on the first of them:
        the deal's frame, a lone loop or procedure, a lone decision, or a box of its own."""
        first = body[0] if body else None
        if isinstance(first, Frame) and first.kind == "deal":
            return [attrs.evolve(first, label=title), *body[1:]]
        if len(body) == 1 and isinstance(first, Frame) and first.label in self.once:
            return [attrs.evolve(first, label=title)]  # the step names what it calls
        if len(body) == 1 and isinstance(first, Frame) and first.kind in ("loop", "proc"):
            return [attrs.evolve(first, label=self.t("{title}: {label}", title=title,
                                                     label=first.label))]
        if len(body) == 1 and isinstance(first, Decision) and not first.title:
            return [attrs.evolve(first, title=title)]
        return [Steps((Line(title),)), *body] if body else []

    def _if(self, s: ast.If, ctx: _Ctx) -> list[Node]:
        shown = self.arms([(c, ns) for c, b in _branches(s) if (ns := self.block(b, ctx))])
        if not shown:
            return []
        if all(isinstance(n, Steps) for _, ns in shown for n in ns):
            return [Steps(tuple(Line(cond_head((c,), self.w), _lines_of(ns))
                                for c, ns in shown))]
        guarded = [_guard((c,), ns, self.w) for c, ns in shown]
        return guarded if len(guarded) == 1 else [Row(tuple(guarded))]

    def _loop(self, s: ast.While | ast.Loop | ast.For | ast.Repeat, ctx: _Ctx) -> list[Node]:
        if isinstance(s, ast.For):
            self.loops += 1
            lid = self.loops
            who = self.order(s.source, s.cond, s.var, ctx)
            inner = _Ctx({**ctx.env, s.var: _Who(who, lid, many=True)}, ctx.in_deal)
            body = self.block(s.body, inner)
            if len(body) == 1 and isinstance(body[0], Decision) and body[0].loop == lid:
                return body  # "each player ... decides" says the loop already
            return [Frame("loop", self.t("for {who}", who=who), tuple(body))]
        if isinstance(s, ast.Repeat):
            label = self.repeat_text(s.count)
        elif isinstance(s, ast.While):
            label = self.while_text(s.cond)
        else:
            label = self._loop_label(s.body, ctx)
        return [Frame("loop", label, tuple(self.block(s.body, ctx)))]

    def repeat_text(self, count: ast.Expr) -> str:
        """A ``repeat``: "repeat 13 times"; a count the spec works out is not read out."""
        if isinstance(walk.uncite(count), ast.IntLit):
            return self.t("repeat {count} times", count=self.pt(count))
        return self.t("repeat")

    def while_text(self, cond: ast.Expr) -> str:
        """A ``while``: "repeat until the deal is over", "repeat while ..." where the spec
        gives the condition words, else "repeat"."""
        c = walk.uncite(cond)
        if isinstance(c, ast.Not) and (until := self.lab.said(c.operand)):
            return self.t("repeat until {condition}", condition=until)
        if said := self.lab.said(c):
            return self.t("repeat while {condition}", condition=said)
        return self.t("repeat")

    def _loop_label(self, body: ast.Block, ctx: _Ctx) -> str:
        """What ends a ``loop``: the actions that break out of it, or the deal or match."""
        exits = list(dict.fromkeys(_breaks(body, None)))
        if exits:
            named = [self.lab.name(e) for e in exits if e]
            if named and len(named) == len(exits):
                actions = named[0]
                for n in named[1:]:
                    actions = self.t("{a} or {b}", a=actions, b=n)
                return self.t("repeat until {actions}", actions=actions)
            return self.t("repeat until it breaks off")
        return (self.t("repeat until the deal ends") if ctx.in_deal
                else self.t("repeat until the match ends"))

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
        name = self.proc_words(p)
        if s.name in self.stack:
            return [Ref(self.t("{procedure} (again, from its start)", procedure=name))]
        if s.name in self.expanded:
            return [Ref(self.t("{procedure} (again, as drawn earlier)", procedure=name))]
        self.expanded.add(s.name)
        self.stack.append(s.name)
        body = self.within(p.doc, p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        if len(body) == 1 and isinstance(body[0], Decision):
            return [attrs.evolve(body[0], title=body[0].title or name)]
        if self.sites.get(s.name) == 1:  # never referred to again: a step may name it
            self.once.add(name)
        return [Frame("proc", name, tuple(body))]

    def _choose(self, s: ast.Choose, ctx: _Ctx) -> Decision:
        if s.together is not None:
            return self._choose_together(s, s.together, ctx)
        who = self.who(s.seat, ctx)
        actions: dict[str, str] = {}
        for a in s.alternatives:
            actions.setdefault(self.lab.name(a.action), self.lab.gist(a.doc))
        after: list[Node] = []
        for a in s.alternatives:
            # what an alternative leads to is drawn only where it decides or ends something
            # (or where it leaves something to a pick: a roll of the die is what it does)
            picks = self.reaches(a.body, (ast.Pick,))
            nodes = [n for n in self.within(a.doc, a.body, ctx)
                     if picks or not isinstance(n, Steps)]
            if nodes:
                after.append(Frame("after", self.t("after {action}",
                                                   action=self.lab.name(a.action)),
                                   tuple(nodes)))
        row: tuple[Node, ...] = ()
        if after:
            row = (after[0],) if len(after) == 1 else (Row(tuple(after)),)
        return Decision(who.text, tuple(actions.items()), None, who.loop, row)

    def _choose_together(self, s: ast.Choose, var: str, ctx: _Ctx) -> Decision:
        """A simultaneous decision: "each player, at once and in secret, decides", then what
        the choices do, drawn whole under "then all at once" (the bodies hold no decision)."""
        seq = self.seq(s.seat, ctx, 0)
        # all at once: the order of the list is no order of play
        who = self.t("{who}, at once and in secret",
                     who=self.each(seq[0]) if seq is not None
                     else self.order(s.seat, None, var, ctx))
        inner = _Ctx({**ctx.env, var: _Who(self.t("the player"))}, ctx.in_deal)
        actions: dict[str, str] = {}
        for a in s.alternatives:
            actions.setdefault(self.lab.name(a.action), self.lab.gist(a.doc))
        after: list[Node] = []
        for a in s.alternatives:
            # carried out, not shown: a pass of cards stays face down (only its effect is seen)
            lines = [Line(self.t("once all have chosen, every {action} is carried out together",
                                 action=self.lab.name(a.action)))]
            for st in a.body.stmts:
                # the body's moves said: here they are the point, not bookkeeping
                if isinstance(st, ast.Move) and not self._move_text(st):
                    lines.append(Line(self._goes_to(st.dst, inner)))
                else:
                    lines += self.lines(st, inner)
            label = self.t("then, after {action}", action=self.lab.name(a.action)) \
                if len(s.alternatives) > 1 else self.t("then")
            after.append(Frame("after", label, (Steps(tuple(lines)),)))
        row: tuple[Node, ...] = (after[0],) if len(after) == 1 else (Row(tuple(after)),)
        return Decision(who, tuple(actions.items()), None, None, row)

    def _goes_to(self, dst: ast.Expr, ctx: _Ctx) -> str:
        """Where the cards of a simultaneous choice go: "the cards go to the hand of the
        player who receives the cards a player passes"."""
        d = walk.uncite(dst)
        if isinstance(d, ast.Index) and isinstance(d.target, ast.Name):
            return self.t("the cards go to the {zone} of {who}", zone=self.lab.name(d.target.id),
                          who=self.who(d.index, ctx).text)
        return self.t("the cards go to {zone}", zone=self.pt(d))

    def _run_deal(self) -> list[Node]:
        if self.deal_drawn:
            return [Ref(self.t("another deal, as drawn earlier"))]
        self.deal_drawn = True
        body = self.block(self.spec.deal.body, _Ctx({}, in_deal=True))
        doc = self.lab.gist(self.spec.deal.doc)
        label = self.t("a deal: {text}", text=doc) if doc else self.t("a deal")
        return [Frame("deal", label, tuple(body) or (Steps((Line(self.t("bookkeeping only")),)),))]

    # ---- steps without a decision, as lines ----

    def lines(self, s: ast.Stmt, ctx: _Ctx) -> list[Line]:  # noqa: C901
        match s:
            case ast.Shuffle(zone=z):
                return [Line(self.t("shuffle {zone}", zone=self.pt(z)))]
            case ast.Reshuffle(src=a, dst=b):
                return [Line(self.t("reshuffle {src} into {dst}", src=self.pt(a),
                                    dst=self.pt(b)))]
            case ast.Bury(src=a, dst=b):
                return [Line(self.t("bury the top card of {src} in {dst}, at random",
                                    src=self.pt(a), dst=self.pt(b)))]
            case ast.Pick():
                return [Line(self.w(short(say_pick(s, self.spec), 90)))]
            case ast.DealCards():
                return [Line(self._deal_text(s, ctx))]
            case ast.Move():
                t = self._move_text(s)
                return [Line(t)] if t else []
            case ast.If():
                shown = [(c, ls) for c, b in _branches(s) if (ls := self.block_lines(b, ctx))]
                return [Line(cond_head((c,), self.w), tuple(ls)) for c, ls in self.arms(shown)]
            case ast.While(cond=c, body=b):
                return _header(self.t("{loop}:", loop=self.while_text(c)),
                               self.block_lines(b, ctx))
            case ast.Repeat(count=c, body=b):
                return _header(self.t("{loop}:", loop=self.repeat_text(c)),
                               self.block_lines(b, ctx))
            case ast.Loop(body=b):
                return _header(self.t("repeat:"), self.block_lines(b, ctx))
            case ast.For(var=v, source=src, cond=c, body=b):
                who = self.order(src, c, v, ctx)
                inner = _Ctx({**ctx.env, v: _Who(who, many=True)}, ctx.in_deal)
                return _header(self.t("for {who}:", who=who), self.block_lines(b, inner))
            case ast.CallStmt():
                return self._call_lines(s, ctx)
            case ast.EndDeal() | ast.EndMatch():
                return [Line(self.end_text(s))]
            case ast.SitOut(seat=q):
                return [Line(self.t("{who} sits out the rest of the deal",
                                    who=self.who(q, ctx).text))]
            case ast.Reveal(zone=z):
                return [Line(self.t("{zone} is laid face up for everyone, for the rest of the "
                                    "deal", zone=self.zone_text(z, ctx)))]
            case ast.Step(title=t, doc=d, body=b):
                # a step the spec explains is one line, its title (the book tells the rest);
                # one without a text shows what it does under its title
                return [Line(self.w(t))] if d else _header(
                    self.t("{title}:", title=self.w(t)), self.block_lines(b, ctx))
            case ast.Set(name="clockwise", index=None, value=v):
                return [Line(self.w(_direction_text(v)))]
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
        name = self.lab.gist(p.doc, 80) or self.lab.name(p.name)
        if p.doc:  # the author's own summary of the procedure says it best
            if self.reaches(p.body, (ast.EndMatch,)):
                name = self.t("{procedure} (may end the match)", procedure=name)
            elif self.reaches(p.body, (ast.EndDeal,)):
                name = self.t("{procedure} (may end the deal)", procedure=name)
            return [Line(name)]
        self.stack.append(s.name)
        lines = self.block_lines(p.body, self._proc_ctx(p, s, ctx))
        self.stack.pop()
        return _header(self.t("{procedure}:", procedure=name), lines)

    def zone_text(self, e: ast.Expr, ctx: _Ctx) -> str:
        """A zone: "the stock", "the hand of the declarer"."""
        z = walk.uncite(e)
        if isinstance(z, ast.Index) and isinstance(z.target, ast.Name) \
                and isinstance(self.binding(z.target.span), BoundZone):
            return self.t("the {zone} of {who}", zone=self.lab.name(z.target.id),
                          who=self.who(z.index, ctx).text)
        return self.pt(z)

    def _deal_text(self, s: ast.DealCards, ctx: _Ctx) -> str:
        seq = self.seq(s.seats, ctx, 0)
        zone = self.lab.name(s.zone)
        if seq is None:
            to = self.t("the {zone} of each player", zone=zone)
        else:
            unit, tail = seq
            to = self.t("each {zone}", zone=zone) if unit == s.zone \
                else self.t("each {unit}'s {zone}", unit=unit, zone=zone)
            to = self.t("{who}{order}", who=to, order=tail) if tail else to
        one = isinstance(walk.uncite(s.count), ast.IntLit) and self.pt(s.count) == "1"
        key = "deal {count} card from {src} to {to}" if one \
            else "deal {count} cards from {src} to {to}"
        return self.t(key, count=self.pt(s.count, 30), src=self.pt(s.src, 30), to=to)

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
            return self.t("turn up the top card of {src} onto {dst}", src=self.pt(src),
                          dst=self.pt(s.dst))
        if what == src:
            return self.t("lay {src} open on {dst}", src=self.zone_text(src, _Ctx({}, True)),
                          dst=self.pt(s.dst))
        return None

    # ---- who and in what order ----

    def who(self, e: ast.Expr, ctx: _Ctx) -> _Who:
        """How to say the seat ``e``: a loop's "each player ...", "the declarer", "player
        junior", "the player" (a local of one letter says nothing more)."""
        e = walk.uncite(e)
        b = self.binding(e.span)
        if isinstance(e, ast.Name):
            if e.id in ctx.env:
                return ctx.env[e.id]
            if isinstance(b, (BoundVar, BoundBuiltinVar)):
                return _Who(self.w("the " + e.id.replace("_", " ")))
            if len(e.id) == 1:
                return _Who(self.t("the player"))
            return _Who(self.t("player {name}", name=self.lab.name(e.id)))
        if isinstance(e, ast.Call) and len(e.args) == 1 and isinstance(b, BoundBuiltin) \
                and e.func in ("left_of", "partner"):
            key = "the player on {whose} left" if e.func == "left_of" else "{whose} partner"
            return _Who(self.t(key, whose=self.possessive(e.args[0], ctx)))
        if isinstance(e, ast.Call) and isinstance(b, BoundDef) and e.func in self.defs:
            # a seat the rules name ("forehand") by its name; one worked out from a seat
            # ("receiver(q)") by its text
            gist = self.lab.gist(self.defs[e.func].doc, 56) if e.args else ""
            return _Who(lower_first(gist) if gist else self.lab.name(e.func))
        if isinstance(e, ast.IntLit):
            return _Who(self.t("seat {n}", n=str(e.value)))
        return _Who(self.t("the player"))

    def possessive(self, e: ast.Expr, ctx: _Ctx) -> str:
        who = self.who(e, ctx)
        t = self.t("the player") if who.many else who.text
        return self.t("{who}'" if t.endswith("s") else "{who}'s", who=t)

    def each(self, unit: str) -> str:
        """"each player", "each hand"."""
        return self.t("each hand") if unit == "hand" else self.t("each player")

    def order(self, src: ast.Expr, cond: ast.Expr | None, var: str, ctx: _Ctx) -> str:
        """A ``for`` loop over seats said in words: "each player from the dealer's left"."""
        seq = self.seq(src, ctx, 0)
        text = self.t("each player in turn") if seq is None else self.each(seq[0]) + seq[1]
        return text + (self._filter(cond, var, ctx) if cond is not None else "")

    def _filter(self, cond: ast.Expr, var: str, ctx: _Ctx) -> str:
        """Which seats of a list: ", except the declarer", ", if <the spec's words>"; nothing
        where the spec gives the condition no words."""
        c = walk.uncite(cond)
        if (isinstance(c, ast.Compare) and c.op == "!=" and isinstance(c.left, ast.Name)
                and c.left.id == var):
            return ", " + self.t("except {who}", who=self.who(c.right, ctx).text)
        said = self.lab.said(c)  # whole or not at all: a list of seats has no "in some cases"
        return ", " + self.t("if {condition}", condition=said) if said else ""

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
            return " " + self.t("from {whose} left", whose=self.possessive(e.args[0], ctx))
        return " " + self.t("starting with {who}", who=self.who(e, ctx).text)

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
            return (unit, " " + self.t("from {whose} left",
                                       whose=self.possessive(others[0], ctx)))
        return (unit, " " + self.t("starting with {who}", who=self.who(others[0], ctx).text))


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


def _guard(conds: tuple[str, ...], nodes: list[Node], words: Words) -> Node:
    """The nodes of an ``if`` arm under its conditions: merged into a lone end box, reference
    or ``if`` frame, else a frame of their own."""
    if len(nodes) == 1:
        n = nodes[0]
        if isinstance(n, (Terminal, Ref)) or (isinstance(n, Frame) and n.kind == "if"):
            return attrs.evolve(n, conds=conds + n.conds)
        if isinstance(n, Steps):
            return Steps((Line(cond_head(conds, words), n.lines),))
    return Frame("if", "", tuple(nodes), conds)
