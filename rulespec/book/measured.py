"""Numbers for the player's book's hints, measured by playing: a few matches at the example's
table, every choice drawn at random from a fixed seed, so that the book is the same each time
it is written. Random play is not good play: the book says so beside every number.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import attrs

from rulespec.book.facts import BookFacts
from rulespec.errors import RulespecError
from rulespec.lang.model import CheckedSpec
from rulespec.loading import game_for
from rulespec.simulate import SimulationLimitError, play_random_game

__all__ = ["MEASURED_EVENTS", "MEASURED_MATCHES", "MEASURED_SEED", "Measured", "measure"]

#: matches played for the hints, their seed, and the events they may take in all
MEASURED_MATCHES = 24
MEASURED_SEED = 1
MEASURED_EVENTS = 60_000


@attrs.frozen
class Measured:
    """What random matches at one table showed."""

    players: int
    matches: int
    seed: int
    #: per match, on average
    deals: float
    turns: float
    decisions: Mapping[str, float]
    #: the share of matches each seat won (ties shared), seat 0 dealing first
    wins: tuple[float, ...]


def measure(spec: CheckedSpec, facts: BookFacts) -> Measured | None:
    """Random matches at the example's table (the book's options), or None when there is no
    example or the matches run past MEASURED_EVENTS."""
    if facts.example is None:
        return None
    n = facts.example.players
    try:
        game = game_for(spec, n, dict(facts.options), 0)
    except RulespecError:
        return None
    rng = random.Random(MEASURED_SEED)
    budget = MEASURED_EVENTS
    deals = turns = 0
    decisions: dict[str, int] = {}
    wins = [0.0] * n
    played = 0
    for _ in range(MEASURED_MATCHES):
        try:
            stats, _ = play_random_game(game.new_initial_state(), rng, max_events=budget)
        except (SimulationLimitError, RulespecError):
            break
        budget -= stats.events
        played += 1
        deals += stats.deals
        turns += stats.turns
        for k, v in stats.actions.items():
            decisions[k] = decisions.get(k, 0) + v
        for q in stats.winners:
            wins[q] += 1 / len(stats.winners)
        if budget <= 0:
            break
    if played == 0:
        return None
    return Measured(n, played, MEASURED_SEED, deals / played, turns / played,
                    {k: v / played for k, v in decisions.items()},
                    tuple(x / played for x in wins))
