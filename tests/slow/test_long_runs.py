"""Long runs, outside the default suite: ``pytest -m slow`` (about 10 minutes on 2 cores).

Thousands of random Vändåtta matches on the engine beside the oracle, over every option in
scope and every table size from 2 to 14 players.
"""

from __future__ import annotations

import random

import pytest

from rulespec.protocol import SpecImplementation
from tests.lockstep import compare_game
from tests.oracles.vandatta import VandattaOracle
from tests.strategies import VANDATTA_OPTIONS, table_fits

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("players", list(range(2, 15)))
def test_many_random_matches_agree(players: int) -> None:
    rng = random.Random(players)
    played = 0
    while played < 120:
        opts = {k: rng.choice(v) for k, v in VANDATTA_OPTIONS.items() if rng.random() < 0.4}
        if rng.random() < 0.3:
            opts["deals"] = rng.randint(1, 3)
        elif rng.random() < 0.2:
            opts["target"] = rng.choice([15, 30])
        if not table_fits(players, opts):
            continue
        seed = rng.randrange(2**31)
        local = random.Random(seed)
        d, _, _ = compare_game(SpecImplementation(), VandattaOracle(), "vandatta", players,
                               opts, rng.randrange(players), [],
                               extend=lambda local=local: local.randrange(2**31))
        assert d is None, f"{players} players {opts} seed {seed}: {d.what} at {d.index}"
        played += 1


ABR_TABLES = [(4, {}), (3, {}), (3, {"three_player_joker": False}), (2, {}),
              (2, {"dummy": True})]


@pytest.mark.parametrize("players,base", ABR_TABLES)
def test_many_random_abracadabra_matches_agree(players: int, base: dict) -> None:
    from tests.oracles.abracadabra import AbracadabraOracle
    from tests.strategies import ABRACADABRA_OPTIONS

    rng = random.Random(players * 31 + len(base))
    for _ in range(80):
        opts = dict(base)
        opts.update({k: rng.choice(v) for k, v in ABRACADABRA_OPTIONS.items()
                     if rng.random() < 0.4})
        if rng.random() < 0.3:
            opts["deals"] = rng.randint(1, 3)
        seed = rng.randrange(2**31)
        local = random.Random(seed)
        d, _, _ = compare_game(SpecImplementation(), AbracadabraOracle(), "abracadabra",
                               players, opts, rng.randrange(players), [],
                               extend=lambda local=local: local.randrange(2**31))
        assert d is None, f"{players} players {opts} seed {seed}: {d.what} at {d.index}"


def test_ray_backend_gives_the_local_numbers() -> None:
    """The optional Ray backend (pip install '.[ray]') plays the same games as local play."""
    pytest.importorskip("ray")
    from rulespec.simulate import simulate

    local = simulate("vandatta", 4, 12, seed=7, workers=1)
    remote = simulate("vandatta", 4, 12, seed=7, workers=2, backend="ray")
    assert local.to_json() == remote.to_json()
