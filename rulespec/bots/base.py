"""What every bot shares: the interface, the worlds it searches, the playout to the end of a
deal, and the reward a finished deal (or match) gives each seat.

The reward of a seat, a number from 0 to 1, is read from the rules' own result, never from
game knowledge. At the end of a deal (``state.deals[-1]["scores"]``), by default (``win``)
it is 1 for the best deal score (the highest, or the lowest where the spec's winner is the
lowest total), shared equally among the seats tied for it, and 0 for the others: in a game of
partnerships, where both partners score their side's score, the winning side's players share
it. With ``score`` it is the seat's deal score placed between the worst and the best of the
table (1 the best, 0 the worst, 1/2 each when all are equal). At the end of the match
(``result()["winners"]``) it is 1 shared among the winners under either reward. A playout that
runs past :data:`MAX_PLAYOUT_EVENTS` without the deal ending gives every seat the same share.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rulespec.bots.determinize import forget_others_choices, resample
from rulespec.engine.chance import sample_event
from rulespec.engine.events import Event, canonical_key
from rulespec.engine.state import State

__all__ = ["MAX_PLAYOUT_EVENTS", "REWARDS", "Bot", "deal_over", "event_key", "playout",
           "rewards", "seat_state", "world"]

#: the most events a playout plays before it gives up on the deal ending (a draw)
MAX_PLAYOUT_EVENTS = 20_000
#: the rewards a bot may play for (see the module's docstring)
REWARDS = ("win", "score")


@runtime_checkable
class Bot(Protocol):
    """A player for one seat. A bot class is made as ``Cls(seat, rng, game, **params)``
    (``rng`` a ``random.Random``, its only source of chance; ``game`` the compiled
    :class:`~rulespec.engine.game.Game`, whose ``spec`` it may read) and asked
    :meth:`act` at each of its seat's decisions."""

    def act(self, state: State, seat: int) -> int:
        """The index, in ``state.legal_actions()`` (canonical order), of the event ``seat``
        chooses; the caller applies it (``state.apply_index(k)``). ``state`` is left as it
        is. The bot reads ``state`` only through ``state.observation(seat)``,
        ``state.legal_actions()`` and worlds drawn with :func:`world`."""
        ...


def seat_state(state: State, seat: int) -> State:
    """``state`` itself when ``seat`` is the seat to move; at a simultaneous decision where
    another seat is asked, a copy in which ``seat`` is asked (the caller's state unchanged)."""
    if state.current_player() == seat:
        return state
    c = state.clone()
    c.ask(seat)
    return c


def world(state: State, seat: int, rng: random.Random) -> State:
    """A world ``seat`` cannot tell from ``state``: the hidden cards dealt again
    (:func:`~rulespec.bots.determinize.resample`), the other seats' unseen choices at a
    simultaneous decision forgotten, and no deal handed to the caller's sinks."""
    w = resample(state, seat, rng)
    forget_others_choices(w, seat)
    w.deal_sink = None
    w.on_deal_end = None
    if w.current_player() != seat and seat in w.seats_to_choose():
        w.ask(seat)
    return w


def deal_over(w: State, deals_before: int, to_match: bool) -> bool:
    """Whether a playout from a state that had finished ``deals_before`` deals is over: the
    match has ended, or (unless ``to_match``) a deal more has."""
    return w.winners is not None or (not to_match and w.v["deals_played"] > deals_before)


def playout(w: State, rng: random.Random, deals_before: int, to_match: bool) -> bool:
    """Play ``w`` on with uniformly random events until :func:`deal_over`; False when it did
    not end within :data:`MAX_PLAYOUT_EVENTS` events."""
    for _ in range(MAX_PLAYOUT_EVENTS):
        if deal_over(w, deals_before, to_match):
            return True
        if w.to_move == "chance":
            w.apply(sample_event(w.legal_actions(), rng, w.chance_weights))
        else:
            w.apply_index(rng.randrange(w.legal_count()))
    return deal_over(w, deals_before, to_match)


def rewards(w: State, deals_before: int, ended: bool, to_match: bool = False,
            reward: str = "win") -> list[float]:
    """Each seat's reward (the module's docstring) in a world a playout left: by the match's
    winners when it played to the match's end (``to_match``) or the match ended with no deal
    finished, else by the last finished deal's scores."""
    n = w.game.players
    if not ended:
        return [1.0 / n] * n
    if w.winners is not None and (to_match or w.v["deals_played"] == deals_before
                                  or not w.deals):
        won = w.winners
        return [1.0 / len(won) if q in won else 0.0 for q in range(n)]
    scores: Sequence[int] = w.deals[-1]["scores"]
    lowest = w.game.spec.winner == "lowest"
    best, worst = (min(scores), max(scores)) if lowest else (max(scores), min(scores))
    if reward == "score":
        if best == worst:
            return [0.5] * n
        return [(s - worst) / (best - worst) for s in scores]
    top = [q for q in range(n) if scores[q] == best]
    return [1.0 / len(top) if q in top else 0.0 for q in range(n)]


def event_key(ev: Event) -> str:
    """An event as a string, the same for the same event in any world (its canonical key)."""
    return canonical_key(ev)
