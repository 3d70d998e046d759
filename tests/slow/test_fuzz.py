"""Fuzzing at scale (issue 10), outside the default suite: 100,000 generated and mutated
inputs (specs from the grammar, mutated specs, mutated records, mutated protocol
conversations, command lines with fuzzed option values), each run in a guarded worker;
any crash, hang or dead worker fails, with the smallest input Hypothesis shrinks it to
(saved in build/fuzz-failures/).

    pytest -m slow -s -n0 tests/slow/test_fuzz.py

takes about 90 minutes on one core (tests/README.md); ``RULESPEC_FUZZ_EXAMPLES`` sets the total
(shared among the kinds as :data:`SHARE` says) and ``RULESPEC_FUZZ_SEED`` repeats a run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from tests import fuzz

pytestmark = pytest.mark.slow

#: the share of the inputs each kind gets (a generated spec costs the most to make, a
#: mutated record the least to run)
SHARE = {"grammar": 0.10, "spec": 0.30, "record": 0.30, "serve": 0.20, "cli": 0.10}
TOTAL = int(os.environ.get("RULESPEC_FUZZ_EXAMPLES", "100000"))
SEED = os.environ.get("RULESPEC_FUZZ_SEED")


@pytest.fixture(scope="module")
def fuzzing() -> Iterator[tuple[fuzz.Worker, fuzz.Seeds]]:
    with fuzz.fuzzing(games=2) as both:
        yield both


@pytest.mark.parametrize("kind", list(SHARE))
def test_a_hundred_thousand_inputs(kind: str, fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    worker, seeds = fuzzing
    tally = fuzz.Tally()
    examples = max(1, round(TOTAL * SHARE[kind]))
    t0 = time.perf_counter()
    try:
        fuzz.campaign(kind, worker, seeds, examples, tally,
                      None if SEED is None else int(SEED))
    finally:
        took = time.perf_counter() - t0
        print(f"\n{kind}: {tally.inputs} inputs in {took:.0f} s "
              f"({tally.inputs / max(took, 1e-9):.1f}/s), worker peak "
              f"{tally.peak_rss / 2**20:.0f} MiB; stages {tally.stages}")
    assert 0 < tally.peak_rss < fuzz.PEAK_RSS_BYTES, (
        f"the worker's peak memory was {tally.peak_rss / 2**20:.0f} MiB")
