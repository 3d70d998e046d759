"""A seat's memory of a deal's cards (``seen_by``): what it sees at a moment, by its
observation. The state keeps, for a spec that calls ``seen_by``, the union of these at every
stop of the deal."""

from __future__ import annotations

import reprlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from rulespec.engine.observe import zones_seen
from rulespec.lang.builtins import EmptyError

__all__ = ["glimpse", "recalled", "remembered", "seen_now"]


def glimpse(st: Any) -> None:
    """Within an event, after a statement that moved cards, on a table compiled to watch
    (Game's ``watch``) and a state whose ``glimpsed`` is a list: append what each seat sees
    at this moment, its observation's cards in card order. A card shown and put away by one
    event (the last card of a trick, gathered face down) is seen at the glimpse between."""
    out = st.glimpsed
    if out is None:
        return
    game = st.game
    zones, z, v, teams, order = game.spec.zones, st.z, st.v, st.teams_now, game.spec.deck.order
    out.append(tuple(tuple(sorted(seen_now(zones_seen(zones, z, v, q, teams)), key=order.get))
                     for q in range(game.players)))


def seen_now(zones: Mapping[str, object]) -> set[str]:
    """The cards a seat sees now: every card its observation's ``zones`` show (a zone it may
    see, its own pile, a partner's, a pile laid face up), so that the memory follows the
    observation whatever decides what it shows; counts and nulls show no card."""
    out: set[str] = set()
    for entry in zones.values():
        if not isinstance(entry, list):
            continue
        for x in entry:
            if type(x) is str:
                out.add(x)
            elif type(x) is list:
                out.update(x)  # a pile's cards (a zone holds cards alone)
    return out


#: what each seat has seen this deal, by seat (None: nothing noted yet)
Memory = list[frozenset[str]] | None


def remembered(memory: Memory, now: Iterable[set[str]]) -> list[frozenset[str]]:
    """``memory`` with what each seat sees ``now`` added."""
    fresh = [frozenset(x) for x in now]
    return fresh if memory is None else [a | b for a, b in zip(memory, fresh, strict=True)]


def recalled(memory: Memory, seat: object, hands: int, now: Callable[[int], set[str]],
             order: Mapping[str, int]) -> list[str]:
    """Every card ``seat`` has seen this deal: in ``memory`` or ``now(seat)``, each once, in
    the deck's ``order``; an EmptyError for a seat not of the table (the compiled rule that
    asked says so, with its position)."""
    if type(seat) is not int or not 0 <= seat < hands:
        raise EmptyError(f"seen_by needs a seat of this table, 0 to {hands - 1}, "
                         f"not {reprlib.repr(seat)}")
    seen = now(seat)
    if memory is not None:
        seen |= memory[seat]
    return sorted(seen, key=order.__getitem__)
