"""The worked example of a rulebook, told from its facts: the table just before the example
deal's most frequent decision, the deal line by line, its result and its scores term by term.
The deal was played once, by :mod:`rulespec.book.facts`; nothing here runs the game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulespec.book.document import (
    Block,
    Bullets,
    Figure,
    Heading,
    Inline,
    Paragraph,
    Part,
    Run,
    Table,
    code,
    inline,
    strong,
)
from rulespec.book.english import cap, say, show, words
from rulespec.book.facts import EXAMPLE_LINES, EXAMPLE_TRIES, BookFacts, Example, Told
from rulespec.book.layout import table_picture
from rulespec.book.reading import clause, prose, scoring_def, terms
from rulespec.book.svg import Words, fill, same
from rulespec.lang import ast
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["event_fields", "example_section", "table_figure"]

_W = Callable[[Block], None]


def table_figure(spec: CheckedSpec, facts: BookFacts, tr: Words = same,
                 direction: str = "ltr", first_seat: int = 0,
                 names: Words | None = None, digits: Words = same,
                 card: Words = same, second: frozenset[str] = frozenset()) -> Figure | None:
    """The table of the example deal just before its most frequent decision is first made
    (the first lead, the first play): every zone as it lies then, seat by seat. Its words go
    through ``tr`` (a translated book's catalog lookup), a zone's name through ``names``
    where given, its text right to left when ``direction`` is ``rtl``; the cards of the zones
    ``second`` (a second pack's) in angle quotes."""
    if facts.example is None or facts.example.picture is None:
        return None
    most, zones, hands, dealer = facts.example.picture
    moment = fill(tr("just before the first {decision} of the example deal"),
        decision=tr(words(most)))
    title = fill(tr("{game}: the table {moment}"), game=tr(spec.title), moment=moment)
    d = table_picture(spec, dict(zones), hands, dealer, title, moment, tr, direction,
                      first_seat, names, digits, card, second)
    return Figure(d.svg, d.alt, inline(fill(tr(
        "The table {moment}: where the cards lie, seat by seat, with the shared zones in the "
        "middle."), moment=moment)))


def example_section(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """A seeded deal played by the interpreter and told step by step, so that it can never
    disagree with the rules."""
    ex = facts.example
    if ex is None:
        return
    n = ex.players
    w(Heading(1, inline("An example deal"), "example"))
    how = (f"the deal given in {ex.given} beside the spec, its choices made by a person"
           if ex.given is not None else
           f"every choice drawn at random (seed {ex.seed}, the deal of the first "
           f"{EXAMPLE_TRIES} seeds, or of more until every part of a score is at work, that "
           "ends as deals usually do, with the most kinds of decision, in the fewest moves)")
    w(Paragraph(inline(f"A deal at a table of {n}, seat 0 dealing, {how}, played by the rules "
                       "of this book. Each line is a run of decisions of one kind, one round of "
                       "the table at most (a trick, say), in the order they were made, with the "
                       "cards each one brought to a player.")))
    w(Bullets(tuple(_deal_lines(spec, ex)), ordered=True))
    if ex.score_terms is not None:
        _score_terms(spec, ex.score_terms, n, w)
    if ex.result is not None:
        _result(spec, ex.result, n, w)


def _result(spec: CheckedSpec, entry: Mapping[str, object], n: int, w: _W) -> None:
    """The deal's entry in the match's record: the scores and the results, seat by seat."""
    head = [inline("seat"), inline("score")]
    # a game of teams: the teams' scores are told after the seats'
    extra = [k for k, v in entry.items()
             if k not in ("scores", "team_scores", "sitting_out") and isinstance(v, list)]
    rows = []
    for q in range(n):
        cells = [inline(str(q)), inline(str(_at(entry["scores"], q)))]
        cells += [inline(str(_at(entry[k], q))) for k in extra]
        rows.append(tuple(cells))
    w(Table((*head, *(inline(code(k)) for k in extra)), tuple(rows),
            caption=inline("The deal's result:")))
    out = entry.get("sitting_out")
    if isinstance(out, list) and out:
        w(Paragraph(inline("Sat out this deal: " + ", ".join(f"seat {q}" for q in out) + ".")))
    teams = entry.get("team_scores")
    if isinstance(teams, list):
        w(Paragraph(inline("The teams' scores: " + ", ".join(
            f"team {t} {x}" for t, x in enumerate(teams)) + ".")))
    shared = [(k, v) for k, v in entry.items()
              if k not in ("scores", "sitting_out") and not isinstance(v, list)]
    if shared:
        w(Paragraph(inline(*[f"{k}: {show(v)}. " for k, v in shared])))
    # what each field of the result means, in the spec's words
    docs = {r.name: r for r in spec.results if r.doc}
    told = [(inline(code(k), ": ", prose(docs[k].doc)), clause(docs[k].span))
            for k in entry if k in docs]
    if told:
        w(Bullets(tuple(told)))


def _at(values: object, q: int) -> object:
    assert isinstance(values, list)
    return values[q]


class _Lines:
    """The example's lines as they are told: the deal, then each run of decisions of one
    kind (a round of the table at most) on a line of its own."""

    def __init__(self, spec: CheckedSpec, ex: Example) -> None:
        self.spec = spec
        self.ex = ex
        self.actions = {a.name: a for a in spec.actions}
        self.lines: list[tuple[Inline, str | None]] = []
        self.run: list[Part] = []
        self.run_action: str | None = None
        self.run_events = 0
        self.run_start = ex.counters

    def flush(self, now: Mapping[str, tuple[object, ...]]) -> None:
        """End the run being told; a counter that changed for one player alone in it says
        what the run did (who won the trick)."""
        if self.run:
            for n in self.run_start:
                seats = [q for q, (a, b) in enumerate(zip(self.run_start[n], now[n],
                                                          strict=True)) if a != b]
                if len(seats) == 1:
                    self.run.append(f"; then {words(n)} of seat {seats[0]}: {now[n][seats[0]]}")
            info = self.actions.get(self.run_action or "")
            self.lines.append((inline(*self.run), clause(info.span) if info else None))
        self.run, self.run_action, self.run_events = [], None, 0

    def event(self, t: Told, before: Mapping[str, tuple[object, ...]], first: bool) -> None:
        """Tell one event: a chance event on a line of its own, a decision in its run."""
        ev = t.event
        if ev.get("chance") == "pick":
            # a pick moves no card: what it picked is the whole of it
            self.flush(before)
            v = ev.get("value")
            said: Part = (Run("card", v) if isinstance(v, str) and v in self.spec.deck.order
                          else show(v))
            self.lines.append((inline("Picked at random: ", said, "."),
                               clause(self.spec.deal.span)))
            return
        if "chance" in ev:
            self.flush(before)
            assert t.zones is not None
            self.lines.append((_dealt(t.zones, ev, first, self.spec.deck.order),
                               clause(self.spec.deal.span)))
            return
        action = str(ev["action"])
        # a line per round: as many events of one kind as there are hands (a trick, say)
        if action != self.run_action or self.run_events == self.ex.hands:
            self.flush(before)
            self.run_action, self.run_events, self.run_start = action, 0, before
            self.run = [code(action), ": "]
        else:
            self.run.append("; ")
        self.run_events += 1
        self.run += [f"seat {ev['seat']}", *_fields(ev), *_gained(t.gained, self.spec.deck.order)]


def _deal_lines(spec: CheckedSpec, ex: Example) -> list[tuple[Inline, str | None]]:
    """The example deal told event by event: the deal, then each run of decisions of one kind
    on a line of its own, EXAMPLE_LINES at most."""
    out = _Lines(spec, ex)
    before = ex.counters
    for i, t in enumerate(ex.events):
        if len(out.lines) >= EXAMPLE_LINES:
            break  # played to the end for the result, but no longer told
        out.event(t, before, first=i == 0)
        before = t.counters
    told = ex.length
    # once the match is over the counters are as the deal left them; when another deal has
    # started, it may have set them back: what the last line did is then not told
    out.flush(ex.last if ex.terminal or not ex.ended else out.run_start)
    if not ex.ended:
        out.lines.append((inline(f"... and so on: the deal had not ended after {told} events, "
                                 "and is not played further here."), None))
    elif len(out.lines) >= EXAMPLE_LINES:
        out.lines.append((inline(f"... and so on to the end of the deal ({told} events in "
                                 "all)."), None))
    return out.lines


def _gained(gained: tuple[tuple[str, int, tuple[str, ...]], ...],
            order: Mapping[str, int] = CARD_ORDER) -> list[Part]:
    """The cards an event brought into each player's zones (a draw, penalty cards, a trick
    won), told after it: "(to seat 2's hand: 3♥)"."""
    out: list[Part] = []
    for name, q, cards in gained:
        out.append(f" (to seat {q}'s {words(name)}:")
        for c in sorted(cards, key=order.__getitem__):
            out += [" ", Run("card", c)]
        out.append(")")
    return out


def event_fields(ev: Mapping[str, object]) -> list[Part]:
    """An event's fields in words, as the example tells them."""
    return _fields(ev)


def _fields(ev: Mapping[str, object]) -> list[Part]:
    """An event's fields in words: cards with their suits, lists joined."""
    out: list[Part] = []
    first = True
    for k, v in sorted(ev.items()):
        if k in ("seat", "action"):
            continue
        vals = v if isinstance(v, list) else [v]
        # one field is its value alone ("seat 2 7♠"); several are named, "expose 3 4 5,
        # pile yes"
        out.append((" " if first else ", ") + (f"{words(k)} " if len(ev) > 3 else ""))
        first = False
        if not vals:
            out.append("none")
        for i, x in enumerate(vals):
            if i:
                out.append(" ")
            if isinstance(x, str) and len(x) == 2 and x[1] in "CDHS" or x == "JK":
                out.append(Run("card", str(x)))
            elif isinstance(x, str) and x in ("C", "D", "H", "S"):
                out.append(Run("suit", x))
            elif isinstance(x, bool):
                out.append("yes" if x else "no")
            else:
                out.append(show(x))
    return out


def _dealt(zones: Mapping[str, list[object]], ev: Mapping[str, object], hands: bool,
           order: Mapping[str, int] = CARD_ORDER) -> Inline:
    """A chance event told as what it did: each hand's cards (at the deal, ``hands``), and what
    lies elsewhere."""
    parts: list[Part] = [f"{cap(str(ev['chance']))}. "]
    for name, z in zones.items():
        if z and isinstance(z[0], list):
            for i, h in enumerate(z if hands else ()):
                assert isinstance(h, list)
                if h:
                    parts.append(f"{name} of seat {i}:")
                    for c in sorted(h, key=order.__getitem__):
                        parts += [" ", Run("card", c)]
                    parts.append(". ")
        elif z and len(z) <= 3:
            parts.append(f"{name}:")
            for c in z:
                parts += [" ", Run("card", str(c))]
            parts.append(". ")
        elif z:
            parts.append(f"{name}: {len(z)} cards. ")
    return inline(*parts)


def _term_label(spec: CheckedSpec, e: ast.Expr, param: str) -> str:
    """A term of a player's score in a table heading: a definition or a per-player value of
    the player by its name ("success bonus", "taken"), a product of them with its sign
    ("multiplier × suit cards"), anything else in words."""
    if isinstance(e, ast.Cited):
        return _term_label(spec, e.expr, param)
    if isinstance(e, ast.Call) and [a for a in e.args if not (isinstance(a, ast.Name)
                                                                and a.id == param)] == []:
        return words(e.func)
    if isinstance(e, ast.Index) and isinstance(e.target, ast.Name) \
            and isinstance(e.index, ast.Name) and e.index.id == param:
        return words(e.target.id)
    if isinstance(e, ast.BinOp) and e.op in ("*", "+", "-"):
        op = "×" if e.op == "*" else e.op
        return f"{_term_label(spec, e.left, param)} {op} {_term_label(spec, e.right, param)}"
    return say(e, spec)


def _score_terms(spec: CheckedSpec, values: tuple[tuple[object, ...], ...], n: int,
                 w: _W) -> None:
    """The example's scores term by term: each term of the scoring definition for each player
    in the deal's final state (``values``, seat by seat), so the sum can be checked by hand."""
    d = scoring_def(spec)
    assert d is not None
    param = d.params[0].name
    signed = terms(d.body)
    defs = {x.name: x for x in spec.defs}
    head: list[Inline] = [inline("seat")]
    notes: list[tuple[Inline, str | None]] = []
    for sign, e in signed:
        # a term that is a definition's call is headed by the definition's words ("success
        # bonus"); any other by the expression in words
        called = defs.get(e.func) if isinstance(e, ast.Call) else None
        label = cap(_term_label(spec, e, param))
        head.append(inline(("minus " if sign == "-" else "") + label))
        if called is not None and called.doc:
            notes.append((inline(strong(label), ": ", prose(called.doc)), clause(called.span)))
    head.append(inline(strong("score")))
    rows = []
    for q in range(n):
        cells = [inline(str(q))]
        total = 0
        for (sign, _), v in zip(signed, values[q], strict=True):
            cells.append(inline(show(v)))
            if isinstance(v, int):
                total += -v if sign == "-" else v
        cells.append(inline(strong(str(total))))
        rows.append(tuple(cells))
    w(Table(tuple(head), tuple(rows), caption=inline("The scores term by term, from the "
                                                     "deal's final position:"),
            source=clause(d.span)))
    if notes:
        w(Bullets(tuple(notes)))

