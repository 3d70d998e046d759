"""Verification: drive any implementation beside the spec, and shrink a divergence.

A game is fixed by a list of integers, one per event: a decision takes ``legal[k % len]`` (legal
sorted canonically, H5), a shuffle is the order ``random.Random(k)`` gives the template. Both
sides see the same events; at each step they must agree on who moves and on the *set* of legal
events (R7b), and at the end on the result. A divergence is shrunk by shortening and zeroing that
list while it still diverges, so the record reported is a small game that shows the difference.
"""

from __future__ import annotations

import functools
import importlib
import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from rulespec.errors import RecordError, RulespecError
from rulespec.interpreter.engine import canonical_key
from rulespec.protocol import Implementation, SpecImplementation
from rulespec.records import FORMAT

__all__ = ["Divergence", "Report", "compare_game", "load_python_impl", "verify"]


@attrs.frozen
class Divergence:
    """Where two implementations part: the event index, what differs, and a record to replay."""

    index: int
    what: str
    expected: Any
    got: Any
    record: dict[str, Any]


@attrs.frozen
class Report:
    """The outcome of a verification run."""

    games: int
    events: int
    divergence: Divergence | None


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


def shrink(reference: Implementation, other: Implementation, game: str, players: int,
           options: Mapping[str, Any], dealer: int, choices: list[int],
           budget: int = 300) -> Divergence:
    """Make a diverging choice list as small as it goes while it still diverges."""
    best, _, used = compare_game(reference, other, game, players, options, dealer, choices)
    assert best is not None
    cur = used[: best.index + 1]
    tries = 0

    def fails(cand: list[int]) -> Divergence | None:
        nonlocal tries
        tries += 1
        d, _, _ = compare_game(reference, other, game, players, options, dealer, cand)
        return d

    # Zero choices from the end backwards (0 = first legal event, identity-seeded shuffle),
    # then halve the remaining values; keep every change that still diverges.
    for pass_ in range(2):
        i = len(cur) - 1
        while i >= 0 and tries < budget:
            if cur[i] != 0:
                cand = list(cur)
                cand[i] = 0 if pass_ == 0 else cur[i] // 2
                d = fails(cand)
                if d is not None and d.index <= best.index:
                    best, cur = d, cand[: d.index + 1]
                    i = min(i, len(cur)) - 1
                    continue
            i -= 1
    return best


def verify(game: str, factory: Callable[[], Implementation], players: list[int], games: int,
           seed: int = 0, options: Mapping[str, Any] | None = None, dealer: int = 0,
           progress: Callable[[], None] | None = None) -> Report:
    """Play ``games`` random games per player count on the spec and on ``factory()``."""
    opts = dict(options or {})
    reference = SpecImplementation()
    other = factory()
    total_events = played = 0
    try:
        for p in players:
            for g in range(games):
                rng = random.Random(seed * 7_919 + p * 104_729 + g)
                d, n, used = compare_game(reference, other, game, p, opts, dealer, [],
                                          extend=functools.partial(rng.randrange, 2**31))
                total_events += n
                played += 1
                if progress:
                    progress()
                if d is not None:
                    small = shrink(reference, other, game, p, opts, dealer, used)
                    return Report(played, total_events, small)
    finally:
        close = getattr(other, "close", None)
        if callable(close):
            close()
    return Report(played, total_events, None)


def load_python_impl(spec: str) -> Callable[[], Implementation]:
    """``module:Class`` to a factory of implementations."""
    mod, _, cls = spec.partition(":")
    if not mod or not cls:
        raise RecordError("--python takes MODULE:CLASS")
    try:
        obj = getattr(importlib.import_module(mod), cls)
    except (ImportError, AttributeError) as e:
        raise RecordError(f"cannot load {spec}: {e}") from None
    return obj  # type: ignore[no-any-return]


def _dumps(x: Any) -> str:  # pragma: no cover - debugging aid
    return json.dumps(x, sort_keys=True)
