"""Lock-step comparison of two implementations, for the differential tests (engine against
oracle): a game is fixed by a list of integers, one per event (a decision takes
``legal[k % len]``, a shuffle the order ``random.Random(k)`` gives); both sides see the same
events and must agree on who moves, the set of legal events and the result.

``rulespec verify`` does this for users with Hypothesis driving the choices; this plain form
keeps the differential tests independent of verify's search.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from rulespec.engine.state import canonical_key
from rulespec.errors import RulespecError
from rulespec.protocol import Implementation
from rulespec.records import FORMAT


@attrs.frozen
class Divergence:
    """Where two implementations part: the event index, what differs, and a record to replay."""

    index: int
    what: str
    expected: Any
    got: Any
    record: dict[str, Any]


def _event_for(legal: list[dict[str, Any]], k: int) -> dict[str, Any]:
    if len(legal) == 1 and legal[0].get("chance") in ("shuffle", "reshuffle"):
        ev = dict(legal[0])
        cards = list(ev["cards"])
        random.Random(k).shuffle(cards)
        ev["cards"] = cards
        return ev
    return legal[k % len(legal)]


def _result_core(r: Mapping[str, Any]) -> dict[str, Any]:
    return {k: r.get(k) for k in ("complete", "deals", "totals", "winners")}


def compare_game(reference: Implementation, other: Implementation, game: str, players: int,
                 options: Mapping[str, Any], dealer: int, choices: list[int],
                 extend: Callable[[], int] | None = None, max_events: int = 200_000
                 ) -> tuple[Divergence | None, int, list[int]]:
    """Play one game on both sides; return (divergence or None, events played, choices used).

    ``choices`` drives the game; once used up, ``extend`` supplies more (or 0 when None).
    """
    reference.new(game, players, dict(options), dealer)
    other.new(game, players, dict(options), dealer)
    events: list[dict[str, Any]] = []
    used: list[int] = []

    def record() -> dict[str, Any]:
        return {"format": FORMAT, "game": game, "players": players, "options": dict(options),
                "dealer": dealer, "events": list(events)}

    for i in range(max_events):
        a, b = reference.to_move(), other.to_move()
        if a != b:
            return Divergence(i, "who moves", a, b, record()), i, used
        if a is None:
            break
        la, lb = reference.legal(), other.legal()
        ka = {canonical_key(e) for e in la}
        try:
            kb = {canonical_key(e) for e in lb}
        except (TypeError, ValueError):
            return Divergence(i, "legal list is not JSON events", la, lb, record()), i, used
        if ka != kb:
            return Divergence(i, "legal events", sorted(ka - kb), sorted(kb - ka),
                              record()), i, used
        k = choices[i] if i < len(choices) else (extend() if extend else 0)
        used.append(k)
        ev = _event_for(la, k)
        events.append(ev)
        reference.apply(ev)
        try:
            other.apply(ev)
        except (ValueError, RulespecError) as e:
            return Divergence(i, "the implementation refused a legal event", ev, str(e),
                              record()), i + 1, used
    ra, rb = _result_core(reference.result()), _result_core(other.result())
    if ra != rb:
        return Divergence(len(events), "result", ra, rb, record()), len(events), used
    return None, len(events), used
