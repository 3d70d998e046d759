"""A world a seat cannot tell from the true one: the cards it does not see dealt again.

Information-set search (ISMCTS, OpenSpiel's ``resample_from_infostate``) plays from states
drawn from what one seat knows. Here that is the state with every card the seat cannot see
gathered from where it lies (a hidden hand, the stock, a face-down pile) and dealt back at
random into the same places, each place keeping its size: the seat's own cards, the zones it
sees and every variable stay as they are. What the seat sees is worked out from the zones'
visibility (:func:`rulespec.engine.observe.zones_seen`), the same rule its observation uses.

What it does not do, by design of this first resampler: it draws the hidden cards uniformly,
not by what the play so far makes likely (a player who did not follow suit has none of it);
a local of the procedure that holds cards (a subset chosen and not yet applied) keeps them;
and the choices held in a simultaneous decision stay as they were made.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from rulespec.engine.observe import zones_seen
from rulespec.engine.state import State

__all__ = ["forget_others_choices", "hidden_places", "resample"]


def hidden_places(state: State, seat: int) -> Iterator[list[str]]:
    """The piles of ``state`` whose cards ``seat`` may not see (the lists themselves, in
    zone order): a zone shown to it as a count, or with no count at all."""
    seen = zones_seen(state.game.spec.zones, state.z, state.v, seat, state.teams_now)
    for zd in state.game.spec.zones:
        shown, piles = seen[zd.name], state.z[zd.name]
        if isinstance(shown, list) and shown and all(
                not isinstance(x, str) for x in shown) and len(shown) == len(piles) and \
                all(isinstance(p, list) for p in piles):
            # a zone of piles (one a player, a team): each pile seen or not
            for one, pile in zip(shown, piles, strict=True):
                if not isinstance(one, list) and pile:
                    yield pile
        elif not isinstance(shown, list) and piles:
            yield piles


def resample(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` in which the cards ``seat`` cannot see are dealt again at random
    into the places they were in (each place keeps its size); ``state`` is left as it is."""
    world = state.clone()
    places = list(hidden_places(world, seat))
    # sorted before the shuffle: the world then depends on what the seat knows and on ``rng``
    # only, not on where the hidden cards truly lie (a bot's choice cannot follow them)
    pool = sorted(c for pile in places for c in pile)
    rng.shuffle(pool)
    at = 0
    for pile in places:
        # in place: the procedure's frames may hold the very list (a zone bound to a name)
        pile[:] = pool[at:at + len(pile)]
        at += len(pile)
    world._legal = None  # what is legal may depend on the cards moved
    world._given = None
    return world


def forget_others_choices(world: State, seat: int) -> None:
    """At a simultaneous decision, the choices other seats have made and the state holds
    unseen are dropped from ``world`` and those seats are waited for again: ``seat`` cannot
    know them, and after :func:`resample` they may name cards no longer in those seats' hands.
    ``seat``'s own choice, if made, stays. Elsewhere nothing changes."""
    stop = world.pending
    tg = getattr(stop, "together", None)
    if tg is None:
        return
    L = world.stack[-1].L
    held = L[tg.held]
    others = {q for q, _, _ in held if q != seat}
    if not others:
        return
    L[tg.held] = tuple(h for h in held if h[0] == seat)
    L[tg.pending] = tuple(sorted(set(L[tg.pending]) | others))
    # the choices are made again in the world: not counted twice against the deal's bound
    world.deal_events -= len(others)
    world._legal = None
    world._given = None
