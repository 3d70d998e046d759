"""The Oh Hell! adapter (OpenSpiel's ``oh_hell``): its card and bid numbering, matches played
in lock step with the spec under the engine's parameters and the options that map to its other
parameters, the settings it cannot play, and deliberately broken variants caught by verify's
default settings (one in the default suite, the rest behind the slow marker)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rulespec.adapters import engine_adapter
from rulespec.adapters.openspiel_oh_hell import OhHell
from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation
from rulespec.verify.runner import Verifier
from tests.adapters import oh_hell_mutants as mutants


def settled(**more: object) -> dict[str, object]:
    """The options ``verify --engine openspiel:oh_hell`` sets, and ``more``."""
    return {**OhHell.fixed, **OhHell.usual, **more}


def same(spec: Any, engine: Any) -> bool:
    """Whether the engine's zone is the spec's: a count, or cards in any order (per seat, a
    list of those)."""
    if isinstance(spec, list) and spec and not isinstance(spec[0], str):
        return len(spec) == len(engine) and all(map(same, spec, engine))
    return sorted(spec) == sorted(engine) if isinstance(spec, list) else spec == engine


def lockstep(options: dict[str, object], players: int, seed: int) -> int:
    """One random match played on the adapter and on the spec at once, checking who moves,
    the legal events and the result at every step; the events played."""
    a, b = OhHell(), SpecImplementation()
    a.new("oh-hell", players, options, seed % players)
    b.new("oh-hell", players, options, seed % players)
    rng = random.Random(seed)
    n = 0
    while (tm := b.to_move()) is not None:
        assert a.to_move() == tm, n
        for seat in range(players):  # every zone the engine shows is the spec's
            mine = b.observe(seat)["zones"]
            for name, theirs in a.observe(seat)["zones"].items():
                assert same(mine[name], theirs), (n, seat, name, mine[name], theirs)
        la = sorted(json.dumps(e, sort_keys=True) for e in a.legal())
        lb = sorted(json.dumps(e, sort_keys=True) for e in b.legal())
        assert la == lb, (n, set(la) ^ set(lb))
        e = rng.choice(b.legal())
        if e.get("chance") == "shuffle":
            cards = list(e["cards"])
            rng.shuffle(cards)
            e = {**e, "cards": cards}
        a.apply(e)
        b.apply(e)
        n += 1
    assert a.to_move() is None and a.result() == b.result()
    return n


def test_card_and_bid_numbering() -> None:
    h = OhHell()
    h.new("oh-hell", 3, settled(pack_suits=3, pack_ranks=5), 0)
    # rank by rank, the suits within a rank in the order clubs, diamonds, spades
    assert [h.card(a) for a in range(4)] == ["2C", "2D", "2S", "3C"]
    assert h.card_action("6S") == 14 and sorted(map(h.card_action, h.pack)) == list(range(15))
    with pytest.raises(ValueError):
        h.card_action("2H")  # hearts are not in a three-suit pack
    h.apply({"chance": "pick", "value": 2})
    h.apply({"chance": "pick", "value": 1})
    h.apply({"chance": "shuffle", "cards": list(h.pack)})
    assert sorted(e["tricks"] for e in h.legal()) == [0, 1, 2]
    assert h.actions({"seat": 2, "action": "bid", "tricks": 1}) == [15 + 1]


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("more", [
    {},
    {"scoring": "penalty", "points_per_trick": 2, "first_dealer": "given"},
    {"sequence": "down_up", "largest": "table", "pack_suits": 3, "pack_ranks": 9},
    {"sequence": "up"},
], ids=["engine-defaults", "penalty-given-dealer", "table-short-pack", "one-card"])
def test_oh_hell_plays_in_lock_step_with_the_spec(players: int, more: dict[str, object]
                                                  ) -> None:
    for seed in range(2):
        assert lockstep(settled(**more), players, seed) >= 2 + players


def test_settings_the_engine_cannot_play_are_not_offered() -> None:
    h = OhHell()
    with pytest.raises(ValueError, match="scores every trick"):
        h.new("oh-hell", 4, settled(scoring="exact_only"), 0)
    with pytest.raises(ValueError, match="from 1 to 12, not to 10"):
        h.new("oh-hell", 4, settled(largest="table"), 0)  # a random size up to 10 cards
    with pytest.raises(ValueError, match="turn up"):
        h.new("oh-hell", 4, settled(sequence="fixed", largest="whole_pack"), 0)
    with pytest.raises(ValueError, match="deals=1"):
        h.new("oh-hell", 4, settled(deals=19), 0)
    with pytest.raises(ValueError, match="3 or 4 or 5 or 6 or 7 players"):
        h.new("oh-hell", 8, settled(), 0)
    assert engine_adapter("openspiel:oh_hell") is OhHell


def _verify(factory: Any, games: int) -> Any:
    v = Verifier(resolve("oh_hell").spec, "oh-hell", factory, timeout=30.0, shrink_seconds=5.0)
    return v.run(options=settled(), games=games, seed_=0)


def test_verify_finds_openspiels_oh_hell_conforming() -> None:
    report = _verify(OhHell, 10)
    assert report.conforms and report.matches >= 10


CAUGHT = [
    pytest.param(mutants.OhHellUnchecked, {"accepted-illegal", "changed-by-illegal"}),
    pytest.param(mutants.OhHellMustTrump, {"legal"}, marks=pytest.mark.slow),
    pytest.param(mutants.OhHellMissCostsOne, {"result"}, marks=pytest.mark.slow),
    pytest.param(mutants.OhHellSkipsAfterTrick, {"who-moves"}, marks=pytest.mark.slow),
    pytest.param(mutants.OhHellShowsLeftHand, {"leak"}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("mutant", "kinds"), CAUGHT)
def test_a_broken_oh_hell_adapter_is_caught(mutant: Any, kinds: set[str]) -> None:
    report = _verify(mutant, 20)
    assert report.divergences, f"{mutant.__name__} was not caught"
    assert report.divergences[0].kind in kinds, report.divergences[0].message
