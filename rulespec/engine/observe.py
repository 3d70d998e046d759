"""What a seat may see of a state's zones: the ``zones`` of docs/protocol.md's observation,
worked out from each zone's visibility (its cards, their count, a size the seat may not count,
a team's piles, a partner's hand, a pile laid face up)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

from rulespec.engine.events import JSONObject, JSONValue
from rulespec.engine.teams import team_view
from rulespec.lang import ast

__all__ = ["plain", "zones_seen"]


def zones_seen(decls: Iterable[ast.ZoneDecl], z: Mapping[str, Any], v: Mapping[str, Any],
               seat: int, teams: Callable[[], Sequence[int] | None]) -> JSONObject:
    """Each zone as ``seat`` observes it in the zones ``z`` (the variables ``v`` hold the piles
    laid face up); ``teams()`` gives each seat's team now, asked only for a team's zone."""
    zones: JSONObject = {}
    for zd in decls:
        piles = z[zd.name]
        if zd.per_team or zd.visibility == "team":
            zones[zd.name] = team_view(zd, piles, seat, teams())
        elif zd.size_visibility not in (None, "all"):
            zones[zd.name] = _counted_zone(zd, piles, seat)
        elif zd.per_player:
            zones[zd.name] = [list(h) if (zd.visibility == "all" or
                                          (zd.visibility == "owner" and q == seat))
                              else len(h) for q, h in enumerate(piles)]
        else:
            zones[zd.name] = list(piles) if zd.visibility == "all" else len(piles)
    for name, i in v.get("#revealed", ()):
        # laid face up by 'reveal': every seat sees the pile
        if i is None:
            zones[name] = list(z[name])
        else:
            cast("list[object]", zones[name])[i] = list(z[name][i])
    return zones


def plain(x: object) -> object:
    """A value as JSON shows it: a new list for a list or a snapshot (tuple), all the way
    down."""
    if isinstance(x, (list, tuple)):
        return [plain(y) for y in x]
    return x


def _sees(who: str | None, owner: int | None, seat: int) -> bool:
    """Whether ``seat`` is among ``who`` (all, owner, nobody) of a zone owned by ``owner``
    (None for a shared zone)."""
    return who == "all" or (who == "owner" and owner == seat)


def _counted_zone(zd: ast.ZoneDecl, z: list[Any], seat: int) -> JSONValue:
    """A zone whose size some seats may not see, as ``seat`` observes it: its cards where it
    sees them, their count where it sees only that, and null where it may not count them (no
    count, no placeholders: nothing that says how many)."""
    def one(h: list[str], owner: int | None) -> JSONValue:
        if _sees(zd.visibility, owner, seat):
            return list(h)
        return len(h) if _sees(zd.size_visibility, owner, seat) else None

    if zd.per_player:
        return [one(h, q) for q, h in enumerate(z)]
    return one(z, None)
