"""What an event of the example deal did beyond its own move, as a player's book tells it:
the values a step settled that the game's words name (the declarer, B), a truth of the table
it raised (an extra turn), the documented rule that moved cards outside the decision's own
body (a penalty drawn as the turn passes on), the cards a player could have played instead of
a pass, and at the deal's end each player's yes or no the scoring reads (success).

Worked out while :mod:`rulespec.book.facts` plays the chosen deal once more, told; nothing
here chooses or plays a move.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rulespec.book.reading import end_deals
from rulespec.engine import State
from rulespec.engine.events import Event
from rulespec.errors import RulespecError
from rulespec.lang import ast, walk
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.clauses import clause_id
from rulespec.lang.model import CheckedSpec

__all__ = ["INSTEAD_EVENTS", "ONLY", "Causes", "named_values"]

#: a decision of more events than this is not gone through for what else could be played
INSTEAD_EVENTS = 256
#: what :meth:`Causes.instead` gives for a decision that was the only one allowed
ONLY = "(only)"


def named_values(spec: CheckedSpec) -> dict[str, str]:
    """The table's values (not one per player) that a word of the game names, by the
    value's name ("declarer") or the head of its text ("B, the declarer's bid"): each with
    that word, in the spec's order."""
    words = {t.word.lower(): t.word for t in spec.terms}
    out = {}
    for v in spec.vars:
        if v.per_player or not v.doc:
            continue
        head = re.split(r"[:,;.(]", v.doc, maxsplit=1)[0].strip().lower()
        head = re.sub(r"^(the|a|an) ", "", head)
        found = words.get(v.name.replace("_", " ").lower()) or words.get(head)
        if found is not None:
            out[v.name] = found
    return out


class Causes:
    """A spec's facts for telling an event's causes, read once per book."""

    def __init__(self, spec: CheckedSpec) -> None:
        self.spec = spec
        #: the table's values the game's words name (the declarer, B): told as a step ends
        self.named = list(named_values(spec))
        #: the table's truths the spec explains (``extra``)
        self.truths = [v.name for v in spec.vars if not v.per_player and v.doc and
                       isinstance(v.type, ast.TypeName) and v.type.name == "bool"]
        #: the documented procedures by clause id, and those each decision's body reaches:
        #: a rule entered beyond them is one the moves alone do not show (a penalty)
        self.doc_procs = {clause_id("procedure", p.span): p.name for p in spec.procs if p.doc}
        self.reached = _reached_by(spec)
        #: the definitions a deal's scoring reads (a player's success)
        self.scoring_uses = _uses(spec, [e.scoring for e in end_deals(spec) if e.scoring])
        self.order: Mapping[str, int] = spec.deck.order or CARD_ORDER

    def values(self, st: State) -> dict[str, object]:
        """The named values and the truths of the table now (before an event)."""
        return {n: st.v[n] for n in (*self.named, *self.truths)}

    def changed(self, st: State, was: Mapping[str, object]
                ) -> tuple[tuple[tuple[str, object], ...], tuple[str, ...]]:
        """The named values after an event (all of them: a step that sets one to the value it
        had, the first seat as declarer, has still settled it), and the truths it made true,
        ``was`` being :meth:`values` before it."""
        return (tuple((n, _freeze(st.v[n])) for n in self.named),
                tuple(n for n in self.truths if st.v[n] is True and was[n] is not True))

    def rules(self, cover: set[str], action: str) -> tuple[str, ...]:
        """The documented procedures, outside the decision's own body, that moved cards in
        the event whose entered clauses are ``cover``: the deepest of each chain of calls
        whose arms taken lead to a card moved (the penalty a player draws as their turn
        passes on, not the turn that called it)."""
        mine = self.reached.get(action, set())
        entered = {self.doc_procs[c] for c in cover if c in self.doc_procs} - mine
        procs = self.spec.proc_named
        out: dict[str, None] = {}

        def moved(block: ast.Block, seen: set[str]) -> bool:
            """Whether the arms taken in ``block`` moved cards; the deepest documented
            procedure that did is noted."""
            found = False
            for st in block.stmts:
                if isinstance(st, ast.If):
                    if clause_id("then", st.span) in cover:
                        found = moved(st.then, seen) or found
                    elif isinstance(st.else_, ast.If):
                        found = moved(ast.Block((st.else_,)), seen) or found
                    elif st.else_ is not None and clause_id("else", st.span) in cover:
                        found = moved(st.else_, seen) or found
                elif isinstance(st, (ast.While, ast.Loop, ast.For, ast.Repeat)):
                    found = moved(st.body, seen) or found
                elif isinstance(st, (ast.Move, ast.Fill, ast.DealCards)):
                    found = True
                elif isinstance(st, ast.CallStmt) and st.name in procs \
                        and st.name not in seen:
                    p = procs[st.name]
                    if clause_id("procedure", p.span) not in cover:
                        continue
                    before = len(out)
                    if moved(p.body, seen | {st.name}):
                        found = True
                        if st.name in entered and len(out) == before:
                            out[st.name] = None  # nothing deeper moved them
            return found

        for name in sorted(entered):
            if len(out) == 0:
                moved(procs[name].body, {name})
        return tuple(out)

    def instead(self, st: State, ev: Event) -> tuple[str, ...]:
        """At a decision without choices (a pass), the decisions that would have played a
        card then (round 9: a pass with a card to play read as a mistake); looked at only where
        the decision is small enough to go through."""
        if any(k not in ("seat", "action") for k in ev):
            return ()
        n = st.legal_count()
        if n == 1:
            return (ONLY,)  # nothing else was allowed (a pass after the third draw)
        if n > INSTEAD_EVENTS:
            return ()
        out: dict[str, None] = {}
        for i in range(n):
            other = st.legal_event(i)
            if other.get("action") != ev.get("action") and any(
                    str(x) in self.order or x == "JK"
                    for key, v in other.items() if key not in ("seat", "action")
                    for x in (v if isinstance(v, list) else [v])):
                out[str(other["action"])] = None
        return tuple(out)

    def verdicts(self, st: State) -> tuple[tuple[str, tuple[bool | int, ...]], ...]:
        """Each per-player number that a word of the game names (``var stake``, "stake"),
        then each per-player yes/no it names (``def success(p)`` and the word "success"),
        for each seat in ``st``, a state at the end of a deal."""
        words = {t.word.lower(): t.word for t in self.spec.terms}
        out: list[tuple[str, tuple[bool | int, ...]]] = []
        for v in self.spec.vars:
            word = words.get(v.name.replace("_", " ").lower())
            if word is not None and v.per_player and isinstance(v.type, ast.TypeName) \
                    and v.type.name == "int":
                # what makes up a result (the stakes of a pot shared: round 11 could not see
                # where +3 came from)
                out.append((word, tuple(int(x) for x in st.v[v.name])))
        return (*out, *self.verdicts_now(st, words))

    def verdicts_now(self, st: State, words: Mapping[str, str] | None = None
                     ) -> tuple[tuple[str, tuple[bool, ...]], ...]:
        """Each per-player yes/no that a word of the game names and the scoring reads, as it
        stands in ``st``: at the end of a deal, or in the middle of one, what the end would
        say if it came now."""
        if words is None:
            words = {t.word.lower(): t.word for t in self.spec.terms}
        out: list[tuple[str, tuple[bool, ...]]] = []
        for d in self.spec.defs:
            word = words.get(d.name.replace("_", " ").lower())
            if word is None or d.name not in self.scoring_uses or len(d.params) != 1 or not (
                    isinstance(d.params[0].type, ast.TypeName) and d.params[0].type.name == "int"):
                continue  # of a seat, not of a card
            try:
                values = tuple(st.game.evaluate(d.body, st, {d.params[0].name: q})
                               for q in range(st.game.players))
            except RulespecError:
                continue  # a number not a seat's: not a player's yes or no
            if all(isinstance(x, bool) for x in values):
                out.append((word, tuple(bool(x) for x in values)))
        return tuple(out)


def _uses(spec: CheckedSpec, names: Sequence[str]) -> set[str]:
    """The definitions ``names`` read, directly or through others."""
    defs = spec.def_named
    seen: set[str] = set()
    todo = [n for n in names if n in defs]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += [n.func for n in walk.descendants(defs[name].body)
                 if isinstance(n, ast.Call) and n.func in defs]
    return seen


def _reached_by(spec: CheckedSpec) -> dict[str, set[str]]:
    """The procedures each decision's alternatives call, directly or through others."""
    procs = spec.proc_named

    def calls(body: object, seen: set[str]) -> set[str]:
        for n in walk.descendants(body):
            if isinstance(n, ast.CallStmt) and n.name in procs and n.name not in seen:
                seen.add(n.name)
                calls(procs[n.name].body, seen)
        return seen

    found: dict[str, set[str]] = {}
    for n in walk.descendants(spec.items):
        if isinstance(n, ast.Alternative):
            found.setdefault(n.action, set()).update(calls(n.body, set()))
    return found


def _freeze(v: object) -> object:
    """A value with its lists as tuples, to be kept in the facts."""
    return tuple(_freeze(x) for x in v) if isinstance(v, (list, tuple)) else v
