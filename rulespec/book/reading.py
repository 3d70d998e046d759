"""What a spec says, read statically for its rulebook: where its texts come from, the decisions
in the order a deal meets them, the options their guards test, the steps of a block, the ends
of a deal, the terms of a score and the ambiguities cited. Nothing here plays the game (that is
:mod:`rulespec.book.facts`) or writes a sentence of the book (:mod:`rulespec.book.sections`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from rulespec.book.english import say, words
from rulespec.lang import ast, walk
from rulespec.lang.model import (
    ActionInfo,
    BoundConstant,
    BoundEnum,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    CheckedSpec,
    pos,
)
from rulespec.shown import escape_line

__all__ = ["BOOK_SIZES", "CITATION", "Met", "book_sizes", "citations", "cited", "clause",
           "deal_scoring", "end_deals", "example_sizes", "guard_options", "in_play_order",
           "option_conjuncts", "option_names", "part_name", "prose", "reads_locals", "ref_key",
           "scoring_def", "scoring_parts", "steps_of", "term_pattern", "terms", "walk_play",
           "as_list"]

_PACKAGE = Path(__file__).resolve().parents[1]

#: an ambiguity ID cited in a text, with the space before it: the grammar's ``REF`` token
CITATION = re.compile(r"\s*\[([A-Z]+-?[0-9]+)\]")


# ---- where a text comes from, and the text itself ----------------------------------------------
def clause(span: ast.Span) -> str:
    """Where a construct is written, as ``file:line``: relative to the package for a shipped
    spec or module (so books are the same on every machine), else the file's name."""
    p = Path(span.source)
    try:
        name = p.resolve().relative_to(_PACKAGE).as_posix()
    except ValueError:
        # a user's file name, any bytes the system allows: its control characters and bytes
        # that are not UTF-8 (lone surrogates) written as escapes, so that the book is text
        name = escape_line(p.name)
    return f"{name}:{span.line}"


def prose(text: str | None) -> str:
    """A spec's text for the body of the book, on one line, without its ID citations
    (``[NEW-5]``): a player's book names the ambiguities in its variations and its index."""
    if not text:
        return ""
    return CITATION.sub("", " ".join(text.split())).strip()


def cited(text: str | None) -> str:
    """A spec's text for the reference: on one line, its citations in parentheses."""
    if not text:
        return ""
    return CITATION.sub(r" (\1)", " ".join(text.split())).replace(") (", "; ")


# ---- the tables a book works out ---------------------------------------------------------------
#: the most table sizes a book works out one by one (each is compiled and played): a spec
#: for 2 to 1,000 players gets its smallest sizes and its largest
BOOK_SIZES = 14


def book_sizes(spec: CheckedSpec, players: int | None) -> list[int]:
    """The table sizes a book works out: its own (``players``), else every size the spec
    allows, or, past BOOK_SIZES of them, the smallest BOOK_SIZES - 1 and the largest."""
    if players is not None:
        return [players]
    sizes = list(range(spec.min_players, spec.max_players + 1))
    return sizes if len(sizes) <= BOOK_SIZES else sizes[:BOOK_SIZES - 1] + sizes[-1:]


def example_sizes(spec: CheckedSpec, players: int | None) -> list[int]:
    """The table sizes the example deal may be played at, best first: the book's own size,
    else four players or the nearest size the spec allows."""
    if players is not None:
        return [players]
    return sorted(range(spec.min_players, spec.max_players + 1), key=lambda n: abs(n - 4))


def reads_locals(spec: CheckedSpec, e: object) -> bool:
    """Whether ``e`` reads a local of its rule (a ``let``, a loop's variable): a name it does
    not bind itself, as a comprehension binds its variable."""
    own = {n.var for n in walk.descendants(e) if isinstance(n, (ast.Comprehension, ast.GenCall))}
    return any(isinstance(n, ast.Name) and n.id not in own
               and isinstance(spec.resolution.bindings.get(pos(n.span)), BoundLocal)
               for n in walk.descendants(e))


# ---- the decisions, in the order a deal meets them ---------------------------------------------
@attrs.frozen
class Met:
    """A decision as a deal meets it: the alternative, who decides, and the loops, conditions
    and procedures around it (outermost first)."""

    alt: ast.Alternative
    seat: ast.Expr
    around: tuple[str, ...]
    options: tuple[str, ...]
    #: the options of the conditions around the decision (not of its own guard)
    enclosing: tuple[str, ...] = ()
    #: a simultaneous decision's seat name (``choose together p in SEATS``: ``seat`` is then
    #: the list of seats), else None
    together: str | None = None


def option_names(spec: CheckedSpec, e: object) -> set[str]:
    """The options ``e`` reads, directly or through the definitions it calls."""
    names = set(spec.option_names)
    return {x.id for x in walk.names_read(e, spec.def_named) if x.id in names}


def guard_options(spec: CheckedSpec, guard: ast.Expr | None) -> set[str]:
    """The options a guard tests itself, in its conjuncts (``stake_mode != free and ...``): an
    alternative whose guard names one exists only under some of its values. Options read
    deep inside the definitions a guard calls shape the choices; they do not make the
    alternative optional."""
    return {x.id for c in option_conjuncts(spec, guard) for x in walk.descendants(c)
            if isinstance(x, ast.Name) and x.id in spec.option_names}


def option_conjuncts(spec: CheckedSpec, guard: ast.Expr | None) -> list[ast.Expr]:
    """The conjuncts of a guard that read options and constants alone: each is true or false
    for a whole match, whatever the state."""
    if guard is None:
        return []
    if isinstance(guard, ast.And):
        return option_conjuncts(spec, guard.left) + option_conjuncts(spec, guard.right)
    if isinstance(guard, ast.Cited):
        return option_conjuncts(spec, guard.expr)
    # a conjunct that reads the state as well (``draws < max_draws``) shapes when the choice
    # is there; only one that reads options and constants alone can rule it out for good
    nodes = list(walk.descendants(guard))
    if any(isinstance(y, (ast.Call, ast.GenCall, ast.Index, ast.Comprehension)) for y in nodes):
        return []
    bound = [spec.resolution.bindings.get(pos(x.span)) for x in nodes
             if isinstance(x, ast.Name)]
    if not bound or not all(isinstance(b, (BoundOption, BoundConstant, BoundEnumValue,
                                           BoundEnum))
                            for b in bound):
        return []
    return [guard]


def _site_options(spec: CheckedSpec) -> dict[str, frozenset[str]]:
    """For each procedure, the options that every place running it tests around it (the ifs
    of the bodies that run it)."""
    common: dict[str, frozenset[str]] = {}

    def note_sites(b: ast.Block, opts: frozenset[str]) -> None:
        for s in b.stmts:
            if isinstance(s, ast.CallStmt):
                common[s.name] = common.get(s.name, opts) & opts
            if isinstance(s, ast.If):
                o = opts | frozenset(option_names(spec, s.cond))
                note_sites(s.then, o)
                if s.else_ is not None:
                    note_sites(s.else_ if isinstance(s.else_, ast.Block)
                               else ast.Block((s.else_,)), o)
                continue
            for v in walk.children(s):
                if isinstance(v, ast.Block):
                    note_sites(v, opts)
            if isinstance(s, ast.Choose):
                for alt in s.alternatives:
                    note_sites(alt.body, opts)

    for body in (spec.deal.body, spec.match.body, *(pr.body for pr in spec.procs)):
        note_sites(body, frozenset())
    return common


class _PlayWalk:
    """The walk of :func:`walk_play`: statements visited with the loops and conditions around
    them and the options those test."""

    def __init__(self, spec: CheckedSpec) -> None:
        self.spec = spec
        self.procs = spec.proc_named
        self.seen: set[str] = set()
        self.out: list[Met] = []
        # a procedure run from several places is described by its name, not by the
        # conditions around the first place that runs it
        self.sites: dict[str, int] = {}
        for node in walk.descendants((spec.deal, spec.match, spec.procs)):
            if isinstance(node, ast.CallStmt):
                self.sites[node.name] = self.sites.get(node.name, 0) + 1
        self.common = _site_options(spec)

    def block(self, b: ast.Block, around: tuple[str, ...], opts: frozenset[str]) -> None:
        for s in b.stmts:
            self.stmt(s, around, opts)

    def stmt(self, s: ast.Stmt, around: tuple[str, ...], opts: frozenset[str]) -> None:
        spec = self.spec
        if isinstance(s, ast.CallStmt) and s.name in self.procs and s.name not in self.seen:
            self.seen.add(s.name)
            if self.sites.get(s.name, 0) > 1:
                loops = tuple(a for a in around if not a.startswith(("when ", "unless ")))
                self.block(self.procs[s.name].body, (*loops, f"in {words(s.name)}"),
                           self.common.get(s.name, frozenset()))
            else:
                self.block(self.procs[s.name].body, around, opts)
        elif isinstance(s, ast.Choose):
            for alt in s.alternatives:
                guard = guard_options(spec, alt.guard)
                self.out.append(Met(alt, s.seat, around, tuple(sorted(opts | guard)),
                                    tuple(sorted(opts)), s.together))
                self.block(alt.body, around, opts)
        elif isinstance(s, ast.If):
            cond = say(s.cond, spec)
            o = frozenset(option_names(spec, s.cond))
            self.block(s.then, (*around, f"when {cond}"), opts | o)
            if isinstance(s.else_, ast.Block):
                self.block(s.else_, (*around, f"unless {cond}"), opts | o)
            elif isinstance(s.else_, ast.If):
                self.stmt(s.else_, (*around, f"unless {cond}"), opts | o)
        elif isinstance(s, ast.For):
            such = f" such that {say(s.cond, spec)}" if s.cond is not None else ""
            self.block(s.body, (*around, f"for each {s.var} in {say(s.source, spec)}{such}"),
                       opts)
        elif isinstance(s, ast.Repeat):
            self.block(s.body, (*around, f"{say(s.count, spec)} times over"), opts)
        elif isinstance(s, (ast.Loop, ast.While)):
            again = "again and again"
            self.block(s.body, around if again in around else (*around, again), opts)
        elif isinstance(s, ast.Step):
            self.block(s.body, around, opts)


def walk_play(spec: CheckedSpec) -> list[Met]:
    """Every alternative in the order a deal reaches it: the deal block from the top, each
    procedure where it is first run, then the match block."""
    w = _PlayWalk(spec)
    w.block(spec.deal.body, (), frozenset())
    w.block(spec.match.body, ("between deals",), frozenset())
    return w.out


def in_play_order(spec: CheckedSpec, mets: list[Met]) -> list[ActionInfo]:
    """The decisions in the order a deal reaches them (``mets``, from :func:`walk_play`),
    then any the walk does not reach."""
    by_span = {(a.span.source, a.span.start_pos): a for a in spec.actions}
    order: list[ActionInfo] = []
    for m in mets:
        info = by_span.get((m.alt.span.source, m.alt.span.start_pos))
        if info is not None and info not in order:
            order.append(info)
    return order + [a for a in spec.actions if a not in order]


# ---- steps, ends and scores --------------------------------------------------------------------
def steps_of(body: object) -> list[ast.Step]:
    """The ``step``s of a block in source order, at any depth (inside ifs, loops and
    decisions), but not those inside another step: they are that step's own."""
    return list(walk.outermost(body, ast.Step, walk.EXPR_TYPES))


def end_deals(spec: CheckedSpec) -> list[ast.EndDeal]:
    """Every ``end deal`` of the deal block and the procedures, in source order."""
    return [x for x in walk.descendants((spec.deal, spec.procs)) if isinstance(x, ast.EndDeal)]


def terms(e: ast.Expr) -> list[tuple[str, ast.Expr]]:
    """The terms of a sum, each with its sign: ``a + b - c`` is ``+a``, ``+b``, ``-c``."""
    if isinstance(e, ast.Cited):
        return terms(e.expr)
    if isinstance(e, ast.BinOp) and e.op in ("+", "-"):
        right = terms(e.right) if e.op == "+" else [("-", e.right)]
        return terms(e.left) + right
    return [("+", e)]


def part_name(e: ast.Expr, param: str) -> str | None:
    """A part of a player's score by its name in words, where the spec names it: a
    definition of the player (``success_bonus(p)``: "success bonus") or a per-player value
    (``taken[p]``: "taken"); None for any other expression."""
    if isinstance(e, ast.Cited):
        return part_name(e.expr, param)
    if isinstance(e, ast.Call) and e.args and all(isinstance(a, ast.Name) and a.id == param
                                                  for a in e.args):
        return e.func.replace("_", " ")
    if isinstance(e, ast.Index) and isinstance(e.target, ast.Name) \
            and isinstance(e.index, ast.Name) and e.index.id == param:
        return e.target.id.replace("_", " ")
    return None


def scoring_parts(items: tuple[object, ...]) -> list[tuple[str, int]]:
    """The names of the parts of the scoring definitions a deal's end names (``end deal
    scoring score``), from the spec's items alone (a catalog is extracted from a parse):
    each sum's parts that have a name (:func:`part_name`), with the line of its
    definition."""
    defs = {d.name: d for d in items if isinstance(d, ast.DefDecl)}
    out: list[tuple[str, int]] = []
    for x in walk.descendants(items):
        d = defs.get(x.scoring) if isinstance(x, ast.EndDeal) else None
        if d is None or len(d.params) != 1:
            continue
        for _, e in terms(d.body):
            name = part_name(e, d.params[0].name)
            if name is not None and name not in [n for n, _ in out]:
                out.append((name, d.span.line))
    return out


def deal_scoring(spec: CheckedSpec) -> ast.DefDecl | None:
    """The definition of one parameter (the seat) that scores a deal ending as deals
    normally do, of one term or several; None where there is none."""
    defs = spec.def_named
    return next((defs[e.scoring] for e in end_deals(spec) if e.flag is None
                 and e.scoring in defs and len(defs[e.scoring].params) == 1), None)


def scoring_def(spec: CheckedSpec) -> ast.DefDecl | None:
    """The definition that scores a deal that ends as deals normally do (None when only a
    flagged deal names one, or when it has one term only, which a table would not explain)."""
    defs = spec.def_named
    for e in end_deals(spec):
        d = defs.get(e.scoring)
        if e.flag is None and d is not None and len(d.params) == 1 and len(terms(d.body)) > 1:
            return d
    return None


# ---- citations ---------------------------------------------------------------------------------
def citations(node: object) -> Iterator[tuple[str, ast.Span]]:
    """The ambiguity IDs cited at or below ``node`` (a cited expression's, a statement's or a
    declaration's own ``ref``), each with where it is cited."""
    for x in walk.descendants(node):
        ref = getattr(x, "ref", None)
        if isinstance(ref, str):
            yield ref, x.span  # type: ignore[attr-defined]


def ref_key(ref: str) -> tuple[str, int]:
    """An ambiguity ID's sort key: its letters, then its number (``VAN-9`` before
    ``VAN-10``)."""
    head = ref.rstrip("0123456789").rstrip("-")
    num = ref[len(ref.rstrip("0123456789")):]
    return head, int(num or 0)


#: the endings a Russian word drops for its other forms: an adjective's two letters, a
#: noun's vowel or soft sign (a noun ending in a consonant keeps it all)
_RU_ADJECTIVE = ("ая", "яя", "ое", "ее", "ый", "ий", "ой", "ые", "ие")
_RU_VOWELS = "аяоеьйиы"
#: the endings a Persian word takes (a plural, the ezafe, a pronoun), after a zero-width
#: non-joiner or not
_FA_ENDINGS = r"(?:\u200c?(?:هایشان|هایش|هایی|های|ها|ای|ی|ش))?"


def term_pattern(word: str, lang: str) -> str:
    """A regular expression for a term of the game in a lower-cased text of ``lang``, in any
    of its forms: an English plural, a Russian case ending, a Persian plural or ezafe."""
    words = word.lower().split()
    if lang == "ru":
        stems = []
        for x in words:
            if len(x) >= 5 and x.endswith(_RU_ADJECTIVE):
                x = x[:-2]
            elif len(x) >= 4 and x[-1] in _RU_VOWELS:
                x = x[:-1]
            stems.append(re.escape(x) + r"\w*")
        body = r"\s+".join(stems)
    elif lang == "fa":
        body = r"\s+".join(re.escape(x) + _FA_ENDINGS for x in words)
    else:
        body = r"\s+".join(re.escape(x) for x in words) + r"(?:s|es)?"
    return rf"(?<!\w){body}(?!\w)"


#: what joins the last item of a list written as a sentence, in the books' languages
_LAST_AND = ("and ", "и ", "а также ", "و ")


def as_list(sentence: str) -> tuple[str, list[str]] | None:
    """A sentence that lists three things or more after a colon, separated by semicolons
    ("Their score adds up five parts: the bonus; the cards; and the suit bonus."): the part up
    to the colon, and the items (the last without its "and" and full stop); None for any other
    sentence. Colons and semicolons inside brackets do not count."""
    depth, cut, parts = 0, -1, []
    for i, ch in enumerate(sentence):
        if ch in "([«":
            depth += 1
        elif ch in ")]»":
            depth -= 1
        elif depth == 0 and ch == ":" and cut < 0:
            cut = i
            parts.append(i + 1)
        elif depth == 0 and ch in ";؛" and cut >= 0:
            parts.append(i + 1)
    if cut < 0 or len(parts) < 3:
        return None
    bounds = [*parts, len(sentence) + 1]
    items = [sentence[a:b - 1].strip() for a, b in itertools.pairwise(bounds)]
    last = items[-1].rstrip(".")
    for word in _LAST_AND:
        if last.startswith(word):
            last = last[len(word):]
    items[-1] = last
    if not all(items):
        return None
    return sentence[:cut + 1], items
