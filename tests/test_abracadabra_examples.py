"""The brief's worked examples (ABR-1, ABR-2 in all its readings, ABR-3) and settled points, on
the engine: the Abracadabra oracle's own suite runs with a twin in place of the oracle, so the
engine must agree with the oracle at every step of every example it constructs."""

from __future__ import annotations

from tests.oracles import test_oracle_abracadabra as base
from tests.oracles.abracadabra import AbracadabraOracle
from tests.twin import adopt_suite

adopt_suite(globals(), base, AbracadabraOracle, "abracadabra", skip=("test_random_play_smoke",))
