"""How the players of a book's deals choose: at random, but a player who can go out in one
move does (random play that keeps a card it could go out with reads to a player as a rule they
missed); and chance as :func:`~rulespec.simulate.sample_event` draws it. Used by
:mod:`rulespec.book.facts`, which plays the deals.

Tried and left (round 10): the example played by :class:`~rulespec.bots.GreedyBot` (each move
tried in two random playouts) bid and laid cards no more sensibly to a reader's eye, and made
a trick-taking game's book four times slower to write.
"""

from __future__ import annotations

import collections
import random
from collections.abc import Sequence

from rulespec.engine import CHANCE, State
from rulespec.engine.events import Event
from rulespec.simulate import sample_event

__all__ = ["GO_OUT_CARDS", "GO_OUT_EVENTS", "apply", "draw", "going_out"]


def draw(st: State, rng: random.Random, hands: Sequence[str] = ()
         ) -> tuple[Event, int | None, bool]:
    """The event ``rng`` draws now, as :func:`sample_event` draws it from ``legal_actions``,
    and at a decision its index: a decision's events are counted, and only the drawn one
    is written (a declarer's thousands of subsets are not, where the engine keeps them
    unwritten). A player who can empty their hands (``hands``: the zones the deal fills for
    each player) in one move does (:func:`going_out`): random play that keeps a card it
    could go out with reads to a player as a rule they missed. The third value says whether
    it was such a move."""
    if st.to_move == CHANCE:
        return sample_event(st.legal_actions(), rng, st.chance_weights), None, False
    out = going_out(st, hands) if hands else None
    if out is not None:
        return st.legal_event(out), out, True
    k = rng.randrange(st.legal_count())
    return st.legal_event(k), k, False


#: a hand of more cards than this is not looked at for a move that empties it: a move of
#: one rank's cards empties at most a few (cost: only such hands' moves are written)
GO_OUT_CARDS = 4
#: nor a decision of more events than this
GO_OUT_EVENTS = 64


def going_out(st: State, hands: Sequence[str]) -> int | None:
    """The index of the first legal event that empties the mover's hands, or None: looked
    for only in a hand of at most GO_OUT_CARDS cards and a decision of at most GO_OUT_EVENTS
    events; an event is tried on a copy only if it names every card held."""
    q = st.to_move
    if not isinstance(q, int) or q < 0:
        return None
    held = [str(c) for z in hands for c in st.z[z][q]]
    if not held or len(held) > GO_OUT_CARDS:
        return None
    n = st.legal_count()
    if n < 2 or n > GO_OUT_EVENTS:
        return None
    want = collections.Counter(held)
    for k in range(n):
        ev = st.legal_event(k)
        named = collections.Counter(str(x) for key, v in ev.items() if key not in ("seat", "action")
                                    for x in (v if isinstance(v, list) else [v]))
        if named & want != want:
            continue
        trial = st.clone()
        trial.apply_index(k)
        if not any(trial.z[z][q] for z in hands):
            return k
    return None


def apply(st: State, ev: Event, k: int | None) -> None:
    """The event :func:`draw` drew applied: by its index at a decision."""
    if k is None:
        st.apply(ev)
    else:
        st.apply_index(k)

