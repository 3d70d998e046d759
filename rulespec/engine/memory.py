"""A seat's memory of a deal's cards (``seen_by``): what it sees at a moment, by the zones'
visibility. The state keeps, for a spec that calls ``seen_by``, the union of these at every
stop of the deal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rulespec.lang import ast

__all__ = ["seen_now"]


def seen_now(zones: Iterable[ast.ZoneDecl], z: Mapping[str, Any], seat: int) -> set[str]:
    """The cards ``seat`` sees now: those of the zones visible to all, and of its own piles
    of the zones visible to their owners (``z``: the state's zones by name)."""
    out: set[str] = set()
    for zd in zones:
        if zd.visibility == "all":
            piles = z[zd.name]
            for h in (piles if zd.per_player else (piles,)):
                out.update(h)
        elif zd.visibility == "owner":
            out.update(z[zd.name][seat])
    return out
