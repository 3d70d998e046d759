"""The brief's worked examples and settled points, on the engine.

The oracle's own suite (tests/oracles/test_oracle_vandatta.py) builds each example from a full
shuffle order and checks the scores the brief computes. Here the same tests run with a twin in
place of the oracle, so the engine must agree with the oracle at every step of every example.
"""

from __future__ import annotations

from tests.oracles import test_oracle_vandatta as base
from tests.oracles.vandatta import VandattaOracle
from tests.twin import adopt_suite

adopt_suite(globals(), base, VandattaOracle, "vandatta", skip=("test_random_smoke",))
