"""Sizes a seat may not count (``zone NAME: ... , size visible to WHO``): across random play of
a small spec that hides sizes, no other seat's observation holds a hidden size, and changing a
hidden zone changes nothing another seat observes."""

from __future__ import annotations

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.lang.checker import check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.loading import game_for
from tests.verify.mutants.counts import SPEC, SPEC_PATH

#: the zones whose size some seat may not count, and who may (owner or nobody)
HIDDEN = {z.name: z.size_visibility for z in SPEC.zones if z.size_visibility not in (None, "all")}


def _seen(state: State, seat: int) -> str:
    return json.dumps(state.observation(seat), sort_keys=True)


def _play(seed: int, players: int, steps: int) -> State:
    """The state after up to ``steps`` random events (chance events as the spec offers them,
    shuffles shuffled)."""
    rng = random.Random(seed)
    state = game_for(SPEC, players, {}, 0).new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        ev = rng.choice(state.legal_actions())
        if ev.get("chance") == "shuffle":
            ev = dict(ev, cards=rng.sample(ev["cards"], len(ev["cards"])))
        state.apply(ev)
    return state


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(0, 80))
def test_a_hidden_size_is_in_no_other_seats_observation(seed: int, players: int,
                                                        steps: int) -> None:
    assert set(HIDDEN) == {"stock", "hand", "kept"}
    state = _play(seed, players, steps)
    for seat in range(players):
        zones = state.observation(seat)["zones"]
        assert zones["stock"] is None
        for name in ("hand", "kept"):
            for owner, entry in enumerate(zones[name]):
                assert (entry is None) == (owner != seat), (name, owner, seat, entry)
        assert isinstance(zones["kept"][seat], int)  # the owner counts its face-down cards
        assert zones["kept"][seat] == len(state.z["kept"][seat])


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), steps=st.integers(4, 80),
       owner=st.integers(0, 3))
def test_changing_a_hidden_zone_changes_no_other_seats_observation(seed: int, players: int,
                                                                   steps: int,
                                                                   owner: int) -> None:
    # a card moved between zones that other seats may not count (the stock, the owner's hand,
    # the owner's kept cards): everything the other seats observe stays byte for byte
    owner %= players
    state = _play(seed, players, steps)
    if state.to_move == CHANCE:
        return
    moved = state.clone()
    src = moved.z["stock"] if moved.z["stock"] else moved.z["hand"][owner]
    if not src:
        return
    moved.z["kept"][owner].append(src.pop())
    for seat in range(players):
        if seat != owner:
            assert _seen(moved, seat) == _seen(state, seat)
    assert _seen(moved, owner) != _seen(state, owner)


def test_default_sizes_are_counts_as_before() -> None:
    # no size clause: every hidden zone still shows its count (observations byte-identical)
    spec = check_text("""
game g title "G"
players 2 to 2
winner highest total
zone stock: shared visible to nobody
zone hand: per player visible to owner, size visible to all
def score(q: int) = size(hand[q])
deal {
  fill stock with pack(1)
  deal 2 from stock to hand of seats
  choose 0 { stop() "Stop." { end deal scoring score } }
}
match {
  run deal
  end match winners seats
}
""")
    state = game_for(spec, 2, {}, 0).new_initial_state()
    while state.to_move == CHANCE:
        state.apply(state.legal_actions()[0])
    zones = state.observation(0)["zones"]
    assert zones["stock"] == 48 and zones["hand"][1] == 2 and len(zones["hand"][0]) == 2


def test_the_size_clause_prints_back() -> None:
    tree = parse(SPEC_PATH.read_text(encoding="utf-8"))
    assert parse(pretty(tree)) == tree
    assert "zone kept: per player visible to nobody, size visible to owner" in pretty(tree)
