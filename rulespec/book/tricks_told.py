"""The tricks of an example deal told one to a line: "Trick 2: seat 2 JK, seat 3 6♥, seat 4
K♥, seat 1 9♥ (seat 4 takes it; its tricks: 1)", in place of a line for each card played
(rounds 22 and 23: fifty-two "Turn N" lines read as a log, where players write a trick a
line). Used by :mod:`rulespec.book.player_example`, which tells each move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

from rulespec.book.document import Inline, Run, em, inline
from rulespec.book.english import cap
from rulespec.book.i18n import Words

__all__ = ["Moved", "Played", "by_trick"]

Line = tuple[Inline, str | None]


class Moved(NamedTuple):
    """One move as the example tells it, in its parts."""

    #: the decision's name in words (" play")
    action: Inline
    #: its choices as a player says them (" A♥")
    fields: Inline
    #: the note of the round it gathered, told on the move's own line ("(trick 1: ...)")
    won_note: Inline
    #: every other note of the move, in order
    rest: Inline
    #: the round the move gathered: its zone, to whom, its number, that player's count
    won: tuple[str, int, int, int] | None
    #: the move as a sentence, by its decision's told text (rulespec.book.said), if it has one
    told: Inline = ()

    def runs(self, extra: Inline = ()) -> list[Run]:
        """The move told on a line of its own, ``extra`` (what the book says of the choice:
        the author's note) before what followed from it (``rest``)."""
        if self.told:
            return [*inline(" "), *self.told, *self.won_note, *extra, *self.rest]
        return [*self.action, *self.fields, *self.won_note, *extra, *self.rest]


class Played(NamedTuple):
    """A turn of a single move: who made it, the decision, the move, and what follows it (a
    choice said to be one, the author's note)."""

    seat: int
    action: str
    moved: Moved
    extra: list[Run]


def by_trick(lines: list[Line], played: Mapping[int, Played], w: Words,
             zone_word: Callable[[str], str]) -> list[Line]:
    """``lines`` with each run of turns that make one round gathered to a player (a trick),
    each of one move of the same decision, told on one line; other lines as they were."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        group = _trick_at(lines, played, i)
        if group is None:
            out.append(lines[i])
            i += 1
            continue
        out.append((_trick_line([played[k] for k in group], w, zone_word), lines[i][1]))
        i = group[-1] + 1
    return out


def _trick_at(lines: list[Line], played: Mapping[int, Played], i: int) -> list[int] | None:
    """The lines from ``i`` that make one trick: turns of one move each, the last of them
    gathering the round, none before it; None where ``i`` does not start one."""
    j = i
    while j < len(lines) and j in played:
        if played[j].moved.won is not None:
            group = list(range(i, j + 1))
            one_decision = len({played[k].action for k in group}) == 1
            return group if len(group) > 1 and one_decision else None
        j += 1
    return None


def _trick_line(group: list[Played], w: Words, zone_word: Callable[[str], str]) -> Inline:
    won = group[-1].moved.won
    assert won is not None  # _trick_at ends a group with the move that gathered the round
    zone, q, n, k = won
    runs: list[Run] = [*w.say("{zone} {n}:", zone=cap(zone_word(zone)), n=str(n))]
    for i, p in enumerate(group):
        runs += [*inline(w.marks(",") if i else ""), *inline(" "),
                 *w.say("seat {seat}", seat=str(p.seat + 1)), *p.moved.fields]
        if i == len(group) - 1:
            runs += [*inline(" "), em(w.word("(seat {seat} takes it; its {zone}s: {k})",
                                             seat=str(q + 1), zone=zone_word(zone),
                                             k=str(k)))]
        # the author's word on the move before what followed from it (rounds 37 to 39: the
        # penalty's cards read before the reason for it)
        runs += [*p.extra, *p.moved.rest]
    return tuple(runs)
