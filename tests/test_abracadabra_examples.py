"""The brief's worked examples (ABR-1, ABR-2 in all its readings, ABR-3) and settled points, on
the engine: the Abracadabra oracle's own suite runs with a twin in place of the oracle, so the
engine must agree with the oracle at every step of every example it constructs."""

from __future__ import annotations

import pytest

from tests.oracles import test_oracle_abracadabra as base
from tests.oracles.abracadabra import AbracadabraOracle
from tests.twin import make_twin

Twin = make_twin(AbracadabraOracle, "abracadabra")


@pytest.fixture(autouse=True)
def _engine_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "AbracadabraOracle", Twin)


for _name in dir(base):
    if _name.startswith("test_") and _name != "test_random_play_smoke":
        globals()[_name] = getattr(base, _name)
