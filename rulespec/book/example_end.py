"""The end of the book's example deal: who succeeded, each seat's score as the sum of its
named parts, each part made by a sum or a count worked out with the cards it counted, and the
other results the spec records (chips won), in the game's own words. Used by
:mod:`rulespec.book.player_example`, which tells the deal up to its end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from rulespec.book.document import Inline, Run, inline
from rulespec.book.facts import Example
from rulespec.book.i18n import Words
from rulespec.book.reading import part_name, prose, scoring_def, terms
from rulespec.book.worked import Token, Working
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["ending"]

#: cards as the example writes them, in the deck's order (``order``)
CardRuns = Callable[..., list[Run]]


def ending(spec: CheckedSpec, lines: list[tuple[Inline, str | None]], ex: Example, w: Words,
           cards: CardRuns, second: frozenset[str]) -> list[tuple[Inline, str | None]]:
    """The deal's end: each seat's score, as the sum of its parts where the scoring adds
    parts up, and each other result the spec records (chips won, say), in its own words."""
    entry = ex.result
    if entry is None or not isinstance(entry.get("scores"), list):
        return lines
    scores = entry["scores"]
    assert isinstance(scores, list)
    lines.append((w.say("The deal ends."), None))
    lines += _verdicts(ex, w)
    labels = _part_labels(spec, w)
    if ex.score_terms is not None and labels is not None:
        # each part by its name, so that a reader checks a score without counting parts
        order = spec.deck.order or CARD_ORDER
        for q, parts in enumerate(ex.score_terms):
            said = _labelled(parts, labels, ex.score_worked[q] if ex.score_worked else None,
                             w, order, cards, second)
            lines.append((w.say("Seat {seat}: {sum} = {total}", seat=str(q + 1), sum=said,
                                total=str(scores[q])) if said else
                          w.say("Seat {seat}: {total}", seat=str(q + 1),
                                total=str(scores[q])), None))
    elif ex.score_terms is not None:
        for q, parts in enumerate(ex.score_terms):
            lines.append((w.say("Seat {seat}: {sum} = {total}", seat=str(q + 1),
                                sum=_sum(parts),
                                total=str(scores[q])), None))
        lines.append((w.say("Each score adds up the parts the scoring rules list, in their "
                            "order."), None))
    elif ex.score_worked is not None and any(how for how, *_ in ex.score_worked):
        # a score of one value worked out whole, with the cards it adds up (round 24: "work
        # out one final score")
        order = spec.deck.order or CARD_ORDER
        for q, (how, *_) in enumerate(ex.score_worked):
            lines.append(((*w.say("Seat {seat}: {total}", seat=str(q + 1),
                                  total=str(scores[q])),
                           *_working(how, w, order, cards)), None))
    else:
        lines.append((w.say("Scores: {scores}.", scores=_by_seat(scores, w)), None))
    if ex.terminal:
        # the match of the book's settings is this one deal: its results (a pot that its
        # winner takes) read wrong unless the reader knows it ended (round 7)
        best = (min if spec.winner == "lowest" else max)(scores)
        won = [str(q + 1) for q, x in enumerate(scores) if x == best]
        lines.append((w.say("This deal was the whole match; the winner: seat {seats}.",
                            seats=w.marks(", ").join(won)), None))
    for r in spec.results:
        value = entry.get(r.name)
        if not r.doc or value is None:
            continue
        if ex.terminal and not any(value if isinstance(value, list) else [value]):
            continue  # nothing left for a next deal when the match is over (round 8)
        # after the match's last deal, the whole text: what it adds then (a pot its winner
        # takes) is why the numbers are what they are (round 9: why did seat 4 gain 7?)
        what = (prose(w.text(r.doc)).rstrip(".") if ex.terminal else
                _first(prose(w.text(r.doc))))
        told = (_by_seat(value, w) if isinstance(value, list)
                else w.digits(str(value)))
        lines.append((w.say("{what}: {values}.", what=what, values=told), None))
    return lines


def _verdicts(ex: Example, w: Words) -> list[tuple[Inline, str | None]]:
    """Who succeeded, before the scores that pay them (round 9: the score lines did not
    say): each per-player yes or no the scoring reads that a word of the game names."""
    out: list[tuple[Inline, str | None]] = []
    for term, values in ex.verdicts:
        said = w.text(term)
        said = said[:1].upper() + said[1:]
        if not all(isinstance(x, bool) for x in values):
            # a number each player has (a stake): seat by seat, and the sum (round 15: the
            # pot the stakes make was worked out by hand)
            out.append((w.say("{term}: {values}; {total} in all.", term=said,
                              values=_by_seat(values, w),
                              total=w.digits(_signed(sum(int(x) for x in values)))), None))
            continue
        who = [str(q + 1) for q, x in enumerate(values) if x]
        out.append((w.say("{term}: nobody.", term=said) if not who else
                    w.say("{term}: seat {seats}.", term=said, seats=w.marks(", ").join(who)),
                    None))
    return out


def _part_labels(spec: CheckedSpec, w: Words) -> list[tuple[str, str]] | None:
    """The scoring's parts, each with its sign and its name in the book's language; None
    unless every part has a name (:func:`~rulespec.book.reading.part_name`)."""
    d = scoring_def(spec)
    if d is None:
        return None
    named = [(sign, part_name(e, d.params[0].name)) for sign, e in terms(d.body)]
    if any(n is None for _, n in named):
        return None
    return [(sign, w.any(str(n))) for sign, n in named]


def _labelled(parts: tuple[object, ...], labels: list[tuple[str, str]],
              workings: tuple[Working | None, ...] | None, w: Words,
              order: Mapping[str, int], cards: CardRuns,
              second: frozenset[str] = frozenset()) -> Inline:
    """Parts added up, each after its name: ``success bonus 40 + tricks taken 11``; a part
    the scoring subtracts after a minus sign, a negative part with its own; a part of 0 left
    out (the example's words are counted), so that a score of nothing is no sum at all. A
    part made by a sum or a count is worked out after it, with the cards counted: ``rank
    bonus 4 (2 × 2: 5♠ 5♦)`` (round 15: the score lines could not be checked)."""
    out: list[Run] = []
    for i, ((sign, label), x) in enumerate(zip(labels, parts, strict=True)):
        n = int(x) if isinstance(x, (int, bool)) else 0
        if not n:
            continue
        said = f"{label} {'−' if n < 0 else ''}{w.digits(str(abs(n)))}"
        said = (f"− {said}" if sign == "-" else said) if not out else \
            f" {'−' if sign == '-' else '+'} {said}"
        out.extend(inline(said))
        out += _working(workings[i] if workings is not None else None, w, order, cards,
                        second)
    return tuple(out)


def _working(how: Working | None, w: Words, order: Mapping[str, int], cards: CardRuns,
             second: frozenset[str] = frozenset()) -> list[Run]:
    """A working in brackets after its value, ``(2 × 2: 5♠ 5♦)``, a second pack's cards in
    angle quotes (``(4 + 5: ‹4♠› ‹5♠›)``; round 42: "face values 13" could not be checked
    against the bid card that made it); nothing for None."""
    if how is None:
        return []
    tokens, named = how
    counted = tuple(c.partition("|")[0] for c in named)
    bid = bool(named) and all(c.partition("|")[2] in second for c in named)
    if len(tokens) == 1 and counted:
        # one card's value: the card alone, its value said before the bracket
        runs = cards(counted, order, bid)
        return [*inline(" (" + runs[0].text.lstrip()), *runs[1:], *inline(")")]
    out = [*inline(" (" + " ".join(_token(t, w) for t in tokens)
                   .replace("( ", "(").replace(" )", ")"))]
    if counted:
        out += [*inline(":"), *cards(counted, order, bid)]
    return [*out, *inline(")")]


def _token(t: Token, w: Words) -> str:
    """A token of a part's working as the book writes it."""
    if isinstance(t, int):
        return w.digits(_signed(t))
    return str(t[1]) if isinstance(t, tuple) else t


def _sum(parts: tuple[object, ...]) -> str:
    """Parts added up as a reader writes them: ``40 + 11 − 24``."""
    out = ""
    for i, x in enumerate(parts):
        n = int(x) if isinstance(x, (int, bool)) else 0
        out += (f"{'−' if n < 0 else ''}{abs(n)}" if i == 0 else
                f" {'−' if n < 0 else '+'} {abs(n)}")
    return out


def _by_seat(values: Sequence[object], w: Words) -> str:
    """A number for each seat, as the example's lines say them: "seat 1 −1, seat 2 3"."""
    return w.marks(", ").join(w.word("seat {seat} {score}", seat=str(q + 1), score=_signed(x))
                              for q, x in enumerate(values))


def _signed(x: object) -> str:
    """A number as a reader writes it, a negative one with a minus sign (not a hyphen)."""
    return f"−{-x}" if isinstance(x, int) and not isinstance(x, bool) and x < 0 else str(x)


def _first(text: str) -> str:
    """A text's first clause (up to its first colon or full stop), for a label."""
    for mark in (":", ". "):
        if mark in text:
            text = text.split(mark, 1)[0]
    return text.rstrip(".")
