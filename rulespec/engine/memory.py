"""A seat's memory of a deal's cards (``seen_by``): what it sees at a moment, by its
observation. The state keeps, for a spec that calls ``seen_by``, the union of these at every
stop of the deal."""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["seen_now"]


def seen_now(zones: Mapping[str, object]) -> set[str]:
    """The cards a seat sees now: every card its observation's ``zones`` show (a zone it may
    see, its own pile, a partner's, a pile laid face up), so that the memory follows the
    observation whatever decides what it shows; counts and nulls show no card."""
    out: set[str] = set()
    for entry in zones.values():
        if not isinstance(entry, list):
            continue
        for x in entry:
            if isinstance(x, str):
                out.add(x)
            elif isinstance(x, list):
                out.update(c for c in x if isinstance(c, str))
    return out
