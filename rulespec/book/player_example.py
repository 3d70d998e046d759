"""The example deal of a player's book, told turn by turn: each turn on a line, numbered, with
the cards it brought to a player, and a note in italics where something happens that the moves
alone do not show (a player's count changes: a trick won, a bid made; cards a player takes on
someone else's move, a penalty or an Ace's draw, with the move that caused it).

The deal was played once, by :mod:`rulespec.book.facts`; nothing here runs the game.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.book.document import Inline, Run, code, em, inline
from rulespec.book.example import event_fields
from rulespec.book.facts import Example, Told
from rulespec.book.i18n import Words
from rulespec.book.reading import clause
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["EXAMPLE_TURNS", "example_lines", "zone_word"]

#: the turns an example tells at most (the rest is summed up in one line)
EXAMPLE_TURNS = 40


def zone_word(spec: CheckedSpec, name: str, w: Words) -> str:
    """A zone by the word the game's terms give it (``discard`` -> the term ``discard pile``,
    in the book's language), else its name in words."""
    said = name.replace("_", " ")
    for t in spec.terms:
        if t.word.lower().startswith(said.lower()):
            return w.text(t.word)
    return said


def _cards(cards: tuple[str, ...], order: Mapping[str, int]) -> list[Run]:
    runs: list[Run] = []
    for c in sorted(cards, key=lambda x: order.get(x, 0)):
        runs.extend(inline(" "))
        runs.append(Run("card", c))
    return runs


def _dealt(spec: CheckedSpec, t: Told, w: Words, order: Mapping[str, int]) -> Inline:
    """What a chance event did: each hand's cards, and what lies elsewhere."""
    parts: list[Run] = list(w.say("The deal."))
    for name, z in (t.zones or {}).items():
        zone = zone_word(spec, name, w)
        if z and isinstance(z[0], list):
            for q, h in enumerate(z):
                if isinstance(h, list) and h:
                    parts += [*inline(" "), *w.say("Seat {seat}:", seat=str(q)),
                              *_cards(tuple(str(c) for c in h), order), *inline(".")]
        elif z and len(z) <= 3:
            parts += [*inline(f" {zone}:"), *_cards(tuple(str(c) for c in z), order),
                      *inline(".")]
        elif z:
            parts += [*inline(" "), *w.say("{zone}: {n} cards.", zone=zone, n=str(len(z)))]
    return tuple(parts)


def example_lines(spec: CheckedSpec, ex: Example, w: Words
                  ) -> list[tuple[Inline, str | None]]:
    """The example's lines: the deal, then each turn (the moves of one player in a row)."""
    order = spec.deck.order or CARD_ORDER
    actions = {a.name: a for a in spec.actions}
    lines: list[tuple[Inline, str | None]] = []
    turn: list[Run] = []
    seat: object = None
    turns = 0
    before = ex.counters
    last_move: Inline = ()
    src: str | None = None

    def flush() -> None:
        if turn:
            lines.append((tuple(turn), src))

    for t in ex.events:
        ev = t.event
        if "chance" in ev:
            if t.zones is not None and not lines and not turn:
                lines.append((_dealt(spec, t, w, order), clause(spec.deal.span)))
            before = t.counters
            continue
        if ev["seat"] != seat:
            flush()
            turns += 1
            if turns > EXAMPLE_TURNS:
                turn = []
                break
            seat = ev["seat"]
            turn = [*w.say("Turn {n}, seat {seat}:", n=str(turns), seat=str(seat))]
            info = actions.get(str(ev["action"]))
            src = clause(info.span) if info else None
        else:
            turn += inline(";")
        move = (*inline(" "), code(str(ev["action"])), *inline(*event_fields(ev)))
        turn += move
        for _zone, q, cards in t.gained:
            if q == ev["seat"]:
                turn += [*inline(" → "), *_cards(cards, order)]
            else:
                turn += [*inline(" "), em(w.word(
                    "(seat {seat} takes {n} cards for this move:", seat=str(q),
                    n=str(len(cards)))), *_cards(cards, order), *inline(")")]
        for name, now in t.counters.items():
            old = before.get(name, now)
            for q, (a, b) in enumerate(zip(old, now, strict=False)):
                if a != b:
                    turn += [*inline(" "), em(w.word("({what} of seat {seat}: {value})",
                                                     what=w.text(name.replace("_", " ")),
                                                     seat=str(q), value=str(b)))]
        before = t.counters
        last_move = move
    else:
        flush()
        return _ending(lines, ex, w)
    del last_move
    lines.append((w.say("… and so on, to the end of the deal ({n} moves in all).",
                        n=str(ex.length)), None))
    return _ending(lines, ex, w)


def _ending(lines: list[tuple[Inline, str | None]], ex: Example, w: Words
            ) -> list[tuple[Inline, str | None]]:
    entry = ex.result
    if entry is not None and isinstance(entry.get("scores"), list):
        scores = entry["scores"]
        assert isinstance(scores, list)
        said = ", ".join(w.word("seat {seat} {score}", seat=str(q), score=str(s))
                         for q, s in enumerate(scores))
        lines.append((w.say("The deal ends. Scores: {scores}.", scores=said), None))
    return lines
