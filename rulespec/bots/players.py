"""Two simple bots: uniformly random play, and greedy one-ply flat Monte Carlo."""

from __future__ import annotations

import random

from rulespec.bots.base import REWARDS, deal_over, playout, rewards, seat_state, world
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.errors import ConfigurationError, IllegalActionError

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot:
    """Each decision uniformly at random among the legal events (what ``simulate`` plays
    without bots)."""

    def __init__(self, seat: int, rng: random.Random, game: Game) -> None:
        self.seat, self.rng, self.game = seat, rng, game

    def act(self, state: State, seat: int) -> int:
        """A legal event's index, uniformly."""
        return self.rng.randrange(seat_state(state, seat).legal_count())


class GreedyBot:
    """One ply of flat Monte Carlo, with no knowledge of any game: each legal event is tried
    in ``samples`` worlds drawn from what the seat knows (its hidden cards dealt again), each
    world played on with uniformly random events to the end of the current deal (or of the
    match, with ``to_match``), and the event with the best mean reward
    (:mod:`rulespec.bots.base`) is chosen, the first in canonical order on a tie. A decision
    with one legal event is taken without playing. Its cost grows with the number of legal
    events, ``samples`` playouts each; where there are more than ``widen`` legal events, only
    ``widen`` of them, drawn at random, are tried."""

    def __init__(self, seat: int, rng: random.Random, game: Game, samples: int = 8,
                 to_match: bool = False, reward: str = "win", widen: int = 64) -> None:
        if not isinstance(samples, int) or samples < 1:
            raise ConfigurationError(f"greedy's samples is a whole number from 1, not "
                                     f"{samples!r}")
        _check_reward(reward)
        if not isinstance(widen, int) or widen < 1:
            raise ConfigurationError(f"greedy's widen is a whole number from 1, not {widen!r}")
        self.widen = widen
        self.seat, self.rng, self.game = seat, rng, game
        self.samples, self.to_match, self.reward = samples, bool(to_match), reward

    def act(self, state: State, seat: int) -> int:
        """The legal event with the best mean playout reward."""
        st = seat_state(state, seat)
        legal = st.legal_actions()
        if len(legal) == 1:
            return 0
        before = st.v["deals_played"]
        n = len(legal)
        tried = range(n) if n <= self.widen else sorted(self.rng.sample(range(n), self.widen))
        best, best_k = -1.0, tried[0]
        for k in tried:
            ev = legal[k]
            total = 0.0
            for _ in range(self.samples):
                w = world(st, seat, self.rng)
                # the same event in the world: at the seat's own decision its legal events
                # are what it knows, so the same list, unless a rule's legality looks at
                # cards it cannot see
                if w.legal_count() == len(legal) and w.legal_event(k) == ev:
                    w.apply_index(k)
                else:
                    try:
                        w.apply(ev)
                    except IllegalActionError:  # not legal in this world: the worst outcome
                        continue
                ended = deal_over(w, before, self.to_match) or playout(
                    w, self.rng, before, self.to_match)
                total += rewards(w, before, ended, self.to_match, self.reward)[seat]
            if total > best:
                best, best_k = total, k
        return best_k


def _check_reward(reward: object) -> None:
    if reward not in REWARDS:
        raise ConfigurationError(f"the reward is one of {', '.join(REWARDS)}, not {reward!r}")
