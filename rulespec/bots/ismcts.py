"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and
Whitehouse, 2012), on the engine's API alone.

Each iteration draws a world the searching seat cannot tell from the true state
(:func:`rulespec.bots.base.world`), walks down the tree in it, choosing among the events legal
in that world by UCB1 with availability counts (an event's prior visits against the times it
was legal, as ISMCTS does, since not every event is legal in every world), adds one new edge,
plays on at random to the end of the current deal (or of the match), and adds each seat's
reward (:mod:`rulespec.bots.base`) to the edges it chose on the way: every seat, the searching
one and the others, picks the events best for itself.

The tree's nodes are the searching seat's information sets, keyed by what it has seen: a
node's child after an event is found by the seat's observation (``state.observation(seat)``)
once the event and any chance events after it are applied, so a node is the sequence of the
seat's observations from the true state's decision down, its perfect-recall knowledge on that
path. Two worlds that differ only in cards the seat cannot see give the same observations and
so walk the same nodes; a world in which the seat sees something else (a card drawn, another
seat's play) goes to another node. An observation alone, without the path, would not do: two
histories can leave the same visible table (the played cards gathered face down) and merge
what the seat knows apart. Edges are keyed by the event's canonical form: another seat's
event the seat cannot see (a choice held unseen) is an edge still, as in SO-ISMCTS, but it
leads on to the node of the observation that follows it.
"""

from __future__ import annotations

import math
import random

from rulespec.bots.base import deal_over, event_key, playout, rewards, seat_state, world
from rulespec.bots.players import _check_reward
from rulespec.engine.chance import sample_event
from rulespec.engine.game import Game
from rulespec.engine.state import CHANCE, State
from rulespec.errors import ConfigurationError

__all__ = ["IsmctsBot"]


class _Edge:
    """An event at a node: its visits, the reward its chooser got through it, the times it
    was legal (availability), and the nodes after it, by the observation that followed."""

    __slots__ = ("avail", "kids", "n", "total")

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.avail = 0
        self.kids: dict[str, dict[str, _Edge]] = {}


class IsmctsBot:
    """Information-set MCTS for one seat (module docstring). Parameters: ``iterations`` (the
    worlds searched per decision), ``c`` (UCB1's exploration constant, rewards lying in 0..1),
    ``to_match`` (play each world to the end of the match rather than the current deal),
    ``reward`` (``win`` or ``score``: :mod:`rulespec.bots.base`), ``widen`` (at a decision with
more legal events than this, each visit considers this many of them, drawn at random: a bid
of any subset of a hand has thousands). The event chosen is the root
    edge visited most, the first in canonical order on a tie."""

    def __init__(self, seat: int, rng: random.Random, game: Game, iterations: int = 200,
                 c: float = 0.7, to_match: bool = False, reward: str = "win",
                 widen: int = 64) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise ConfigurationError(f"ismcts's iterations is a whole number from 1, not "
                                     f"{iterations!r}")
        if not isinstance(c, (int, float)) or c < 0:
            raise ConfigurationError(f"ismcts's c is a number from 0, not {c!r}")
        _check_reward(reward)
        if not isinstance(widen, int) or widen < 1:
            raise ConfigurationError(f"ismcts's widen is a whole number from 1, not {widen!r}")
        self.widen = widen
        self.seat, self.rng, self.game = seat, rng, game
        self.iterations, self.c = iterations, float(c)
        self.to_match, self.reward = bool(to_match), reward

    def act(self, state: State, seat: int) -> int:
        """The most visited event at the root after the search."""
        st = seat_state(state, seat)
        legal = st.legal_actions()
        if len(legal) == 1:
            return 0
        root: dict[str, _Edge] = {}
        for _ in range(self.iterations):
            self._iterate(st, seat, root)
        visits = [root[k].n if k in root else 0 for k in map(event_key, legal)]
        return visits.index(max(visits))

    def _iterate(self, st: State, seat: int, root: dict[str, _Edge]) -> None:
        rng = self.rng
        w = world(st, seat, rng)
        before = w.v["deals_played"]
        node = root
        path: list[tuple[_Edge, int]] = []
        ended = True
        while not deal_over(w, before, self.to_match):
            if w.to_move == CHANCE:
                w.apply(sample_event(w.legal_actions(), rng, w.chance_weights))
                continue
            mover = w.to_move
            assert isinstance(mover, int)
            legal = w.legal_actions()
            edges = []
            fresh = []
            at = _considered(len(legal), self.widen, rng)
            for i in at:
                key = event_key(legal[i])
                e = node.get(key)
                if e is None:
                    e = node[key] = _Edge()
                e.avail += 1
                edges.append(e)
                if e.n == 0:
                    fresh.append(len(edges) - 1)
            if fresh:
                j = fresh[rng.randrange(len(fresh))]
            else:
                j = max(range(len(edges)), key=lambda i: _ucb(edges[i], self.c))
            edge = edges[j]
            w.apply_index(at[j])
            path.append((edge, mover))
            if fresh:  # the new edge: played on at random from here
                ended = playout(w, rng, before, self.to_match)
                break
            while w.to_move == CHANCE and not deal_over(w, before, self.to_match):
                w.apply(sample_event(w.legal_actions(), rng, w.chance_weights))
            node = edge.kids.setdefault(event_key(w.observation(seat)), {})
        r = rewards(w, before, ended, self.to_match, self.reward)
        for edge, mover in path:
            edge.n += 1
            edge.total += r[mover]


def _considered(n: int, widen: int, rng: random.Random) -> range | list[int]:
    """The indices of the legal events a visit considers: all, or ``widen`` drawn at random
    (in canonical order) where there are more."""
    return range(n) if n <= widen else sorted(rng.sample(range(n), widen))


def _ucb(e: _Edge, c: float) -> float:
    return e.total / e.n + c * math.sqrt(math.log(e.avail) / e.n)
