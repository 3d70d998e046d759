"""The phase diagram's words: the spec's own texts where it has them, short generated words
otherwise, never an expression read out word by word.

A box says a step by its title, a decision by its action names and the first clause of their
texts, a procedure by the first clause of its text. A condition is said only when the spec
gives it words: a house rule's setting ("the first eight rule is bury"), a truth the spec
explains (a definition or a variable with its text: "The player's hand is empty"),
and those joined by "and" and "or". Any other condition ("quiet >= size(players_in())") is not
read out: its arm says "otherwise" when it is an ``else``, "in some cases" when not, and the
book's prose says the rest.

Every word drawn goes through ``words``, a function passed in (the identity by default; a
translated book passes its catalog lookup): the spec's texts whole, before they are cut, and
every generated phrase as a template whose ``{placeholders}`` are filled after translation.
"""

from __future__ import annotations

import re

from rulespec.book.english import say
from rulespec.book.english import words as name_words
from rulespec.book.reading import CITATION
from rulespec.book.svg import UNSAID, Words, fill, lower_first, short
from rulespec.lang import ast, walk
from rulespec.lang.model import (
    BoundBuiltinVar,
    BoundConstant,
    BoundOption,
    BoundVar,
    BoundZone,
    CheckedSpec,
    pos,
)

__all__ = ["SENTENCE_BREAK", "Labels", "first_clause", "if_clause", "truth"]

# the end of a first clause: a colon, a semicolon (Persian's too), a dash between spaces
_CLAUSE_END = re.compile(r"(:|;|؛| — | – )\s")
#: abbreviations whose full stop ends no sentence ("(см. «Варианты»)", "e.g."), written as
#: lookbehinds of fixed width: before a full stop (_NOT_ABBREVIATED) and after it (_AFTER_...)
_ABBREVIATIONS = ("см", "ср", "напр", "т", "т. е", "т.е", "e.g", "i.e", "cf")
_NOT_ABBREVIATED = "".join(rf"(?<!\b{re.escape(a)})" for a in _ABBREVIATIONS)
_NOT_AFTER_ABBREVIATION = "".join(rf"(?<!\b{re.escape(a)}\.)" for a in _ABBREVIATIONS)
_SENTENCE_END = re.compile(_NOT_ABBREVIATED + r"[.!?؟](\s|$)")
_COMMA = re.compile(r"[,،] ")
#: how a conditional sentence starts, in the books' languages
_IF_LEADS = ("If ", "When ", "Если ", "Когда ", "اگر ", "وقتی ")
#: where one sentence ends and the next begins (the books' prose is split into sentences so)
SENTENCE_BREAK = re.compile(r"(?<=[.!?؟])" + _NOT_AFTER_ABBREVIATION + r"\s+")
_SENTENCES = SENTENCE_BREAK


def first_clause(doc: str | None, limit: int = 64) -> str:
    """The first clause of a text (up to its first full stop, colon or semicolon), without its
    citations or final full stop; past ``limit`` characters, cut at the last comma before it,
    else at a word with an ellipsis. A box shows the gist; the book quotes the whole text."""
    if not doc:
        return ""
    text = " ".join(CITATION.sub("", doc).split())
    m = _SENTENCE_END.search(text)
    if m:
        text = text[: m.start()]
    m = _CLAUSE_END.search(text + " ")
    if m and len(text[: m.start()].split()) <= 2:
        # "Pass: leave the choice to the next player": a word and its gloss are one clause
        m = _CLAUSE_END.search(text + " ", m.end())
    if m:
        text = text[: m.start()]
    if len(text) > limit:
        commas = [c.start() for c in _COMMA.finditer(text, 0, limit)
                  if c.start() > limit // 3 and _depth(text[: c.start()]) == 0]
        text = text[: commas[-1]] if commas else short(text, limit)
    return text.rstrip()


def if_clause(text: str | None) -> str:
    """The condition a text's only conditional sentence states: "If every player passes in
    turn, the deal is blocked" gives "every player passes in turn". Empty when the text has
    no such sentence or several (which one a condition is, the text does not say)."""
    found = [s[len(lead):] for s in _SENTENCES.split(" ".join(CITATION.sub("", text or "").split()))
             for lead in _IF_LEADS if s.startswith(lead)]
    if len(found) != 1:
        return ""
    clause = re.split(r"[,،] ", found[0])[0].rstrip(" .;:؛")
    return short(lower_first(clause), 90)


def _depth(text: str) -> int:
    """How many brackets are open at the end of ``text`` (a comma inside them is no clause's
    end)."""
    return text.count("(") - text.count(")")


class Labels:
    """The words of one spec's diagram: its texts and its conditions, through ``words``."""

    def __init__(self, spec: CheckedSpec, words: Words) -> None:
        self.spec = spec
        self.w = words
        self.vars = {v.name: v for v in spec.vars}
        self.options = {o.name: o for o in spec.options}

    def gist(self, doc: str | None, limit: int = 64) -> str:
        """The first clause of one of the spec's texts, translated whole before it is cut."""
        return first_clause(self.w(doc), limit) if doc else ""

    def name(self, identifier: str) -> str:
        """A name from the spec (a zone, a flag, an action) as words: ``thrown_in`` is
        "thrown in"."""
        return self.w(name_words(identifier))

    def cond(self, e: ast.Expr) -> str:
        """``e`` in the spec's words, or :data:`UNSAID` when the spec gives it none. Of
        conditions that must all hold, those the spec gives words are said, "with further
        conditions" when others are not."""
        parts = [self.said(c) for c in _conjuncts(e)]
        said = [p for p in parts if p]
        if not said:
            return UNSAID
        text = said[0]
        for p in said[1:]:
            text = fill(self.w("{a} and {b}"), a=text, b=p)
        if len(said) < len(parts):
            text = fill(self.w("{condition}, with further conditions"), condition=text)
        return text

    def whole(self, e: ast.Expr) -> bool:
        """Whether the spec gives words for all of ``e``."""
        return all(self.said(c) for c in _conjuncts(e))

    def said(self, e: ast.Expr) -> str:
        """``e`` whole in the spec's words, or :data:`UNSAID`."""
        e = walk.uncite(e)
        match e:
            case ast.And(left=a, right=b) | ast.Or(left=a, right=b):
                left, right = self.said(a), self.said(b)
                if not (left and right):
                    return UNSAID
                key = "{a} and {b}" if isinstance(e, ast.And) else "{a}, or {b}"
                return fill(self.w(key), a=left, b=right)
            case ast.Compare(op="==", left=ast.Name() as o,
                             right=ast.Name() | ast.StrLit() as v) if self._value_doc(o, v):
                # a house rule's setting said by what that value means at the table
                return truth(self.gist(self._value_doc(o, v), 60))
            case ast.Compare(op=">", left=ast.Name() as o, right=ast.IntLit(value=0)) \
                    if self._option(o):
                return fill(self.w("a {option} is set"), option=self.name(o.id))
            case ast.Compare(op=">=", left=ast.Name(id="deals_played"), right=ast.Name() as o) \
                    if self._option(o):
                return self.w("the agreed number of deals has been played")
            case ast.Compare(op="==" | "!=" as op, left=ast.Name() as o,
                             right=ast.Name() | ast.StrLit() as v) if self._option(o):
                key = "the {option} rule is {value}" if op == "==" \
                    else "the {option} rule is not {value}"
                return fill(self.w(key), option=self.name(o.id),
                                          value=self.w(say(v, self.spec)))
            case ast.Compare(op=op, left=a, right=b) if self._plain(a) and self._plain(b):
                # a number the house rules set, against a count the rules keep: "target is
                # more than 0", "the deals played so far is at least deals"
                return self.w(say(e, self.spec))
            case ast.Compare(op="==" | "!=" | ">" as op, left=ast.Call(func="size", args=(z,)),
                             right=ast.IntLit(value=0)) if (zone := self.zone(z)):
                key = "{zone} is empty" if op == "==" else "{zone} is not empty"
                return fill(self.w(key), zone=zone)
            case ast.Name() if self._option(e):
                return fill(self.w("the {option} rule is on"), option=self.name(e.id))
            case ast.Not(operand=ast.Name() as o) if self._option(o):
                return fill(self.w("the {option} rule is off"), option=self.name(o.id))
            case ast.Name() | ast.Index(target=ast.Name()):
                return self._var_words(e)
            case ast.Call(func=f) if f in self.spec.def_named:
                return truth(self.gist(self.spec.def_named[f].doc, 90))
        return UNSAID

    def _value_doc(self, o: ast.Name, v: ast.Name | ast.StrLit) -> str | None:
        """The text the spec gives the value ``v`` of the option ``o`` (None: none)."""
        info = self.options.get(o.id)
        if info is None or not self._option(o):
            return None
        return info.value_doc(v.id if isinstance(v, ast.Name) else v.value)

    def _option(self, n: ast.Name) -> bool:
        return isinstance(self.spec.resolution.bindings.get(pos(n.span)), BoundOption)

    def _plain(self, e: ast.Expr) -> bool:
        """A number, a house rule, or a count the rules keep that the book names ("the deals
        played so far"): words a player knows."""
        e = walk.uncite(e)
        if isinstance(e, ast.IntLit):
            return True
        b = self.spec.resolution.bindings.get(pos(e.span))
        return isinstance(e, ast.Name) and (
            isinstance(b, BoundOption) or (isinstance(b, (BoundConstant, BoundBuiltinVar))
                                           and e.id in ("deals_played", "player_count")))

    def zone(self, e: ast.Expr) -> str:
        """A zone, or a player's zone, in words ("the stock", "the player's hand"); empty
        for anything else."""
        e = walk.uncite(e)
        n = e.target if isinstance(e, ast.Index) else e
        if not (isinstance(n, ast.Name)
                and isinstance(self.spec.resolution.bindings.get(pos(n.span)), BoundZone)):
            return ""
        if n is e:
            return self.w("the " + name_words(n.id))
        return fill(self.w("the player's {zone}"), zone=self.name(n.id))

    def _var_words(self, e: ast.Name | ast.Index) -> str:
        """A truth the spec keeps, said by its text: "Whether the deal is over" is "the deal
        is over"; a built-in truth ("play goes clockwise") by its name."""
        n = e if isinstance(e, ast.Name) else e.target
        assert isinstance(n, ast.Name)
        b = self.spec.resolution.bindings.get(pos(n.span))
        if isinstance(b, (BoundBuiltinVar, BoundConstant)) and isinstance(e, ast.Name):
            return self.w(say(e, self.spec)) if n.id == "clockwise" else UNSAID
        v = self.vars.get(n.id)
        if not isinstance(b, BoundVar) or v is None or not v.doc:
            return UNSAID
        return truth(self.gist(v.doc, 90))


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    """The conditions that must all hold for ``e`` to hold."""
    e = walk.uncite(e)
    if isinstance(e, ast.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def truth(text: str) -> str:
    """A truth's text as a condition: "Whether the deal is over" is "the deal is over"."""
    for lead in ("Whether ", "If ", "آیا ", "اینکه "):
        if text.startswith(lead):
            text = text[len(lead):]
            break
    # Persian "... or not", Russian "is the player bound" (a question's particle): a statement
    text = text.removesuffix(" یا نه")
    head, sep, rest = text.partition(" ли ")
    if sep and " " not in head:
        # the verb after the subject ("у игрока есть"; a preposition stays with its noun)
        words = rest.split(" ")
        n = 2 if len(words[0]) <= 2 and len(words) > 2 else 1
        if words[0].endswith(","):
            # a subject with a clause of its own ("игрок, чья очередь ходить, делает"): the
            # verb after the clause's closing comma
            n = next((i + 1 for i in range(1, len(words)) if words[i].endswith(",")), n)
        text = " ".join([*words[:n], lower_first(head), *words[n:]])
    return lower_first(text)
