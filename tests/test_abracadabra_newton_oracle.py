"""Differential test: the engine running abracadabra_newton.rules against the oracle written
from the brief alone, over every table (4, 3, 2 players, the dummy game) and every option the
oracle plays, parametric values included. A game is driven by indices into the canonical order,
so both sides choose the same event; the results (scores, money, pot_carry, totals, winners)
must agree after every event."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, note
from hypothesis import strategies as st

from rulespec.protocol import SpecImplementation
from tests.lockstep import compare_game
from tests.oracles.abracadabra_newton import AbracadabraNewtonOracle
from tests.strategies import newton_tables


@given(table=newton_tables(), dealer=st.integers(0, 3), seed=st.integers(0, 2**32),
       prefix=st.lists(st.integers(0, 2**16), max_size=30))
def test_engine_agrees_with_oracle(table: tuple[int, dict[str, Any]], dealer: int, seed: int,
                                   prefix: list[int]) -> None:
    players, opts = table
    rng = random.Random(seed)
    d, n, _ = compare_game(SpecImplementation(), AbracadabraNewtonOracle(), "abracadabra-newton",
                           players, opts, dealer % players, prefix,
                           extend=lambda: rng.randrange(2**31))
    if d is not None:
        note(json.dumps(d.record)[:4000])
    assert d is None, f"{d.what} at event {d.index}: spec {d.expected} oracle {d.got}"
    assert n > 0
