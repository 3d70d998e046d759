"""The decisions of a player's book: which the book's settings offer, what each lets a player
do (less what the book has said), and where the book tells them: inside the step of the deal
that makes them, or under Play (the play itself, and a decision of no one step)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulespec.book.document import Block, Bullets, Inline, Paragraph, Run, inline, strong
from rulespec.book.english import cap, words
from rulespec.book.facts import BookFacts
from rulespec.book.i18n import Words
from rulespec.book.labels import SENTENCE_BREAK
from rulespec.book.player_example import steps_of_actions
from rulespec.book.reading import prose, steps_of, walk_play
from rulespec.lang.model import CheckedSpec

__all__ = ["DECISION_LINE", "decision_name", "decision_rows", "decisions_said", "offered",
           "placed_in_steps", "step_lines"]

_SENTENCE = SENTENCE_BREAK


def placed_in_steps(spec: CheckedSpec, facts: BookFacts) -> dict[str, int]:
    """Each decision made in one step of the deal that has a text, by that step's place; but
    the play, the decision the example makes most often, which Play tells with its tables
    and the rules around it; a decision made in several steps, in the first."""
    every = steps_of(spec.deal.body)
    most = facts.example.picture[0] if facts.example and facts.example.picture else None
    at = steps_of_actions(spec, first=True)
    # a step where the play is made keeps its other decisions beside it, in Play (a draw
    # or a pass made instead of a play is the play's alternative, not a step's)
    playing = {i for a, i in at.items() if a == most}
    return {a: i for a, i in at.items() if every[i].doc and a != most and i not in playing}


def offered(facts: BookFacts, action: str) -> bool:
    """Whether the book's settings make this decision: a deal played for the book made it,
    one of the random deals or the example (the few random deals of a small game, or of a
    long one, may all miss a decision the example makes)."""
    return bool(facts.met.get(action)) or not facts.tables or (
        facts.example is not None
        and any(t.event.get("action") == action for t in facts.example.events))


def decision_rows(spec: CheckedSpec, facts: BookFacts, w: Words, said: set[str],
                   where: Callable[[str], bool], named: bool = True
                   ) -> dict[str, tuple[Inline, list[str]]]:
    """The decisions ``where`` keeps that these settings offer, in the order a deal reaches
    them, each its name (with its step where ``named``) and its texts, less what the book
    has said already (which they now count as said)."""
    rows: dict[str, tuple[Inline, list[str]]] = {}
    seen: set[str] = set()
    in_step = _in_step(spec, w) if named else {}
    for m in walk_play(spec):
        if not where(m.alt.action) or not offered(facts, m.alt.action) \
                or m.alt in facts.off or not m.alt.doc:
            continue
        text = prose(w.text(m.alt.doc))
        if text in seen:
            continue
        seen.add(text)
        kept = " ".join(s for s in _SENTENCE.split(text) if s not in said)
        said.update(_SENTENCE.split(text))
        # a decision made together says so once, in its row
        together = w.word("Everyone makes this decision at the same time, in secret; all the "
                          "choices are carried out once everyone has chosen.")
        note = together if m.together is not None and together not in said else ""
        said.add(note)
        # a decision of several alternatives (the declarer's and the others', an eight's
        # play) is one row: its texts one after another
        name = (*decision_name(m.alt.action, w), *in_step.get(m.alt.action, ()))
        texts = rows.setdefault(m.alt.action, (name, []))[1]
        # a text the row says already, in other words around it, is not said again
        texts.extend(x for x in (kept, note)
                     if x and x.rstrip(".").lower() not in " ".join(texts).lower())
    return rows


#: the most sentences a decision's rule is said in on one line; a longer one is a list
DECISION_LINE = 2


def decisions_said(rows: Mapping[str, tuple[Inline, list[str]]]) -> list[Block]:
    """Each decision by its name and what you may do: on its line where that is a sentence or
    two, else as a list of its sentences, one rule a point (rounds 10 to 13: going out, the
    Ace and the eight crowded into one table cell read as one wall of text)."""
    out: list[Block] = []
    for name, texts in rows.values():
        said = [x for t in texts for x in _SENTENCE.split(t) if x.strip()]
        # the play alone under Play needs no name of its own (round 36: "Play", then
        # "**Play**:")
        head = name if len(rows) > 1 else ()
        if len(said) <= DECISION_LINE:
            out.append(Paragraph((*head, *inline(": " if head else "", " ".join(said)))))
            continue
        if head:
            out.append(Paragraph((*head, *inline(":"))))
        out.append(Bullets(tuple((inline(x), None) for x in said)))
    return out


def step_lines(rows: Mapping[str, tuple[Inline, list[str]]]) -> Inline:
    """The decisions of a step of the deal, said inside it after its text (rounds 32 and 35:
    the steps, then the same choices again in a list of decisions, told each rule twice):
    each on a line of its own, by its name where the step makes more than one (the step's
    title names its one decision: round 35 read "declare" beside "Exposing" as a program's
    word), its sentences on lines of their own where they are more than two."""
    lines: list[Run] = []
    for name, texts in rows.values():
        said = [x for t in texts for x in _SENTENCE.split(t) if x.strip()]
        named = [strong(name[0].text + ":")] if len(rows) > 1 else []
        if len(said) <= DECISION_LINE:
            lines += [Run("break", " "), *named, *inline((" " if named else "")
                                                         + " ".join(said))]
            continue
        # the name opens the first sentence's line, not a line of its own (round 41:
        # "**Place:**" alone read as an empty heading)
        for i, x in enumerate(said):
            lines += [Run("break", " "), *(named if i == 0 else []),
                      *inline((" " if named and i == 0 else "") + x)]
    return tuple(lines)


def decision_name(action: str, w: Words) -> Inline:
    """A decision by its name in words, in the book's language (the catalog's word for it),
    as the example deal names it too, capitalised as a heading (round 32: "**play**:" read
    as a program's); its name in the records is the reference's."""
    return (strong(cap(w.decision(action.replace("_", " ")))),)


def _in_step(spec: CheckedSpec, w: Words) -> dict[str, Inline]:
    """Each decision made in one step of the deal that makes one or two, the step by its
    number and title (" (step 4, Naming tricks)"): the decision's name is the records' word,
    the step's the book's (round 23: "place" and "Naming tricks" read as two things)."""
    shown = [s for s in steps_of(spec.deal.body.stmts) if s.doc]
    every = steps_of(spec.deal.body)
    stage = steps_of_actions(spec)
    out: dict[str, Inline] = {}
    for action, i in stage.items():
        step = every[i]
        if step in shown and list(stage.values()).count(i) <= 2 \
                and words(action) != step.title.lower():
            out[action] = w.say(" (step {n}, {title})", n=str(shown.index(step) + 1),
                                title=w.text(step.title).rstrip("."))
    return out
