"""Fixed partnerships at a table (``teams COUNT by DEF``): how a deal's scores make the
teams' scores, which seats the winning teams name, and the team keys of a replay answer.

The table's partnerships themselves (each seat's team) are worked out by the expression
compiler (``ExprCompiler.teams``), which also gives the generated code ``team_of``,
``members`` and ``partner``; the state calls these functions only in a spec with teams, so a
spec without them pays nothing.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import cast

from rulespec.engine.events import JSONObject
from rulespec.engine.machine import MAX_WORK
from rulespec.errors import ConfigurationError, RuleRuntimeError, RulespecError
from rulespec.lang import ast

__all__ = ["fixed_teams", "split_scores", "team_answer", "team_view", "teams_in_play",
           "winning_members"]

#: a team definition compiled: (state, seat) -> its value
Side = Callable[..., object]


def fixed_teams(game: str, decl: ast.TeamsDecl, count: int, side: Side,
                seats_from: Sequence[Sequence[int]]
                ) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The fixed partnerships of a table: each seat's team (``side`` of the seat, worked out
    before any state exists), each team's members and each seat's partner (the next member
    of its team to its left, itself when alone). A table whose teams are not numbers from 0
    to ``count - 1``, each with a member, is refused (ConfigurationError)."""
    where = f"{game}: 'teams'"
    st = SimpleNamespace(v={}, z={}, work=MAX_WORK, left=10 * MAX_WORK)
    seats = range(len(seats_from))
    try:
        team = tuple(side(st, q) for q in seats)
    except RulespecError as e:
        raise ConfigurationError(f"{where}: {decl.by}(q) fails at this table: {e}") from None
    for q, t in enumerate(team):
        if type(t) is not int or not 0 <= t < count:
            raise ConfigurationError(f"{where}: {decl.by}({q}) is {t!r}, not a team from 0 to "
                                     f"{count - 1}")
    teams = cast("tuple[int, ...]", team)
    members = tuple(tuple(q for q in seats if teams[q] == t) for t in range(count))
    empty = [t for t, m in enumerate(members) if not m]
    if empty:
        raise ConfigurationError(f"{where}: team {empty[0]} has no member at a table of "
                                 f"{len(seats)}")
    n = len(seats)
    partner = tuple(next(r for r in seats_from[(q + 1) % n] if teams[r] == teams[q])
                    for q in seats)
    return teams, members, partner


def teams_in_play(decl: ast.TeamsDecl, count: int, side: Side,
                  seats_from: Sequence[Sequence[int]]
                  ) -> tuple[Callable[..., int], Callable[..., tuple[int, ...]],
                             Callable[..., int]]:
    """Teams formed in play: team_of, members and partner as functions of the state, a
    seat's team being ``side``'s value in it when asked (a RuleRuntimeError at the
    declaration when that is not a team from 0 to ``count - 1``)."""
    n = len(seats_from)
    seats = tuple(range(n))

    def team_of(st: object, q: int) -> int:
        t = side(st, q)
        if type(t) is not int or not 0 <= t < count:
            raise RuleRuntimeError(f"{decl.by}({q}) is {t!r}, not a team from 0 to "
                                   f"{count - 1}", decl.span,
                                   "the definition that forms the teams must give a team")
        return t

    def members(st: object, t: int) -> tuple[int, ...]:
        return tuple(q for q in seats if team_of(st, q) == t)

    def partner(st: object, q: int) -> int:
        t = team_of(st, q)
        return next(r for r in seats_from[(q + 1) % n] if team_of(st, r) == t)

    return team_of, members, partner


def split_scores(node: ast.EndDeal, score: Callable[[int], object], players: int,
                 teams: Sequence[int] | None, team_count: int
                 ) -> tuple[list[int], list[int] | None]:
    """Each seat's score of the deal, and with teams each team's: a team's score is its
    members' sum, or, ``scoring DEF per team``, DEF of the team, which each member scores
    too. ``score`` is the scoring definition at this state."""
    owners = team_count if node.per_team else players
    scores: list[int] = []
    for q in range(owners):
        x = score(q)
        if not isinstance(x, int):
            raise RuleRuntimeError("a deal's score must be a number", node.span)
        scores.append(x)
    if teams is None:
        return scores, None
    if node.per_team:
        return [scores[teams[q]] for q in range(players)], scores
    by_team = [0] * team_count
    for q, x in enumerate(scores):
        by_team[teams[q]] += x
    return scores, by_team


def winning_members(node: ast.EndMatch, named: object, teams: Sequence[int]) -> list[int]:
    """``end match winning teams EXPR``: the seats of the teams EXPR names."""
    n = max(teams) + 1
    if not isinstance(named, (list, tuple)) or any(
            type(t) is not int or not 0 <= t < n for t in named):
        raise RuleRuntimeError(
            f"the winning teams must be teams of this table, 0 to {n - 1}, not "
            f"{reprlib.repr(named)}", node.span,
            "name the winning teams by number (t for t in range(0, team_count - 1) if ...)")
    return [q for q, t in enumerate(teams) if t in named]


def team_view(zd: ast.ZoneDecl, piles: Sequence[Sequence[str]], seat: int,
              teams: Sequence[int] | None) -> list[object]:
    """What ``seat`` sees of a zone of a game of teams, pile by pile (a card list, or a count
    where it may not see the pile): a per-team zone ``visible to owner`` (or ``team``) to the
    team's members; a per-player zone ``visible to team`` to its owner and the owner's
    partners. An extra hand (a dummy's) is on no team."""
    assert teams is not None

    def team(q: int) -> int | None:
        return teams[q] if 0 <= q < len(teams) else None

    mine = team(seat)
    if zd.visibility == "all":
        return [list(h) for h in piles]
    if zd.per_team:
        seen = [zd.visibility in ("owner", "team") and t == mine for t in range(len(piles))]
    else:
        seen = [q == seat or (mine is not None and team(q) == mine) for q in range(len(piles))]
    return [list(h) if s else len(h) for h, s in zip(piles, seen, strict=True)]


def team_answer(teams: Sequence[int] | None, team_totals: Sequence[int],
                winners: Sequence[int] | None) -> JSONObject:
    """The team keys of a replay answer (records.md §3.1): each seat's team, the teams'
    totals and the winning teams (the teams of the winning seats, once the match is over);
    with teams formed in play (``teams`` None), the totals only: each deal's entry says the
    teams it was played in."""
    if teams is None:
        return {"team_totals": list(team_totals)}
    return {"teams": list(teams), "team_totals": list(team_totals),
            "team_winners": sorted({teams[q] for q in winners or []})}
