"""What each game of a simulation did, kept as columns of numbers (not one record a game): a
run of 100,000 games holds a few megabytes, and a report computes its distributions and
intervals from them (:mod:`rulespec.report`)."""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

import attrs

__all__ = ["GameColumns", "NumberColumn", "PlayedGame"]


class PlayedGame(Protocol):
    """What one game gives the columns (:class:`rulespec.simulate.GameStats` is one)."""

    @property
    def events(self) -> int: ...
    @property
    def turns(self) -> int: ...
    @property
    def deals(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[int, ...]: ...
    @property
    def actions(self) -> Mapping[str, int]: ...
    @property
    def first(self) -> int | None: ...
    @property
    def clauses(self) -> frozenset[str]: ...


class NumberColumn:
    """Integers, one a game: 8 bytes each while they fit, Python integers once one does not (a
    score may have thousands of bits)."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self._data: array[int] | list[int] = array("q")
        for v in values:
            self.append(v)

    def append(self, v: int) -> None:
        """Add one game's number."""
        try:
            self._data.append(v)
        except OverflowError:
            self._data = list(self._data)
            self._data.append(v)

    def __len__(self) -> int:
        return len(self._data)

    def __getitem__(self, i: int) -> int:
        return self._data[i]

    def tolist(self) -> list[int]:
        """The numbers as a list."""
        return list(self._data)


@attrs.define
class GameColumns:
    """Per game of a run: its length (events, turns, deals), each seat's total, its winners (a
    bit per seat), the seat that decided first (-1 for a game without a decision), how often
    each decision was taken, and in how many games each clause (:mod:`rulespec.lang.clauses`)
    came into play. ``compiled`` holds the clauses the run's table compiles (an option that is
    fixed for the match folds the other arms away)."""

    players: int
    events: NumberColumn = attrs.field(factory=NumberColumn)
    turns: NumberColumn = attrs.field(factory=NumberColumn)
    deals: NumberColumn = attrs.field(factory=NumberColumn)
    winners: NumberColumn = attrs.field(factory=NumberColumn)
    first: NumberColumn = attrs.field(factory=NumberColumn)
    totals: list[NumberColumn] = attrs.field()
    #: by action name, how many times each game took it (zeros for games before it appeared)
    actions: dict[str, NumberColumn] = attrs.field(factory=dict)
    #: by clause id, the number of games that entered it at least once
    clause_games: Counter[str] = attrs.field(factory=Counter)
    compiled: frozenset[str] = frozenset()

    @totals.default
    def _totals(self) -> list[NumberColumn]:
        return [NumberColumn() for _ in range(self.players)]

    def __len__(self) -> int:
        return len(self.events)

    def add(self, g: PlayedGame) -> None:
        """Add one game."""
        n = len(self.events)
        self.events.append(g.events)
        self.turns.append(g.turns)
        self.deals.append(g.deals)
        self.winners.append(sum(1 << w for w in set(g.winners)))
        self.first.append(-1 if g.first is None else g.first)
        for q, t in enumerate(g.totals[:self.players]):
            self.totals[q].append(t)
        for name in g.actions.keys() - self.actions.keys():
            self.actions[name] = NumberColumn([0] * n)
        for name, col in self.actions.items():
            col.append(g.actions.get(name, 0))
        self.clause_games.update(g.clauses)

    def won(self, i: int, seat: int) -> bool:
        """Whether ``seat`` is among game ``i``'s winners."""
        return bool(self.winners[i] >> seat & 1)

    def winner_counts(self) -> list[int]:
        """For each seat, the games it is among the winners of."""
        out = [0] * self.players
        for i in range(len(self)):
            mask = self.winners[i]
            for q in range(self.players):
                out[q] += mask >> q & 1
        return out

    def winners_per_game(self) -> float:
        """The mean number of winners a game has (1 without ties or teams)."""
        n = len(self)
        return sum(self.winners[i].bit_count() for i in range(n)) / n if n else 0.0

    def column(self, name: str) -> Sequence[int]:
        """``events``, ``turns`` or ``deals`` as a list."""
        col: NumberColumn = getattr(self, name)
        return col.tolist()
