"""The brief's worked examples and settled points, on the engine.

The oracle's own suite (tests/oracles/test_oracle_vandatta.py) builds each example from a full
shuffle order and checks the scores the brief computes. Here the same tests run with a twin in
place of the oracle, so the engine must agree with the oracle at every step of every example.
"""

from __future__ import annotations

import pytest

from tests.oracles import test_oracle_vandatta as base
from tests.oracles.vandatta import VandattaOracle
from tests.twin import make_twin

Twin = make_twin(VandattaOracle, "vandatta")


@pytest.fixture(autouse=True)
def _engine_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "VandattaOracle", Twin)


for _name in dir(base):
    if _name.startswith("test_") and _name != "test_random_smoke":
        globals()[_name] = getattr(base, _name)
