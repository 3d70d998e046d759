"""Fuzzing at scale (issues 10 and 23), outside the default suite: 100,000 generated and mutated
inputs (specs from the grammar, mutated specs, mutated records, mutated protocol
conversations, command lines with fuzzed option values, and the classes of issue 23: hostile
file names, line breaks in strings, devices and FIFOs, totals across collections, number
growth, chains), each run in a guarded worker; any crash, hang or dead worker fails, with the
smallest input Hypothesis shrinks it to (saved in build/fuzz-failures/).

    pytest -m slow -s -n0 tests/slow/test_fuzz.py

takes about 50 minutes on one core, half that cut in two parts on two (tests/README.md).
``RULESPEC_FUZZ_EXAMPLES`` sets the total (shared among the kinds as :data:`SHARE` says); each
kind's inputs are cut into slices of
``fuzz.SLICE``, slice i under the Hypothesis seed ``RULESPEC_FUZZ_SEED + i`` (a random first
seed, printed, when it is not given); ``RULESPEC_FUZZ_SEED_RANGE=A:B`` runs only the slices A to
B - 1 and ``RULESPEC_FUZZ_KINDS=k1,k2`` only those kinds, so that a run can be split over
processes or machines: give each part the same seed and its own range.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterator

import pytest

from tests import fuzz

pytestmark = pytest.mark.slow

#: the share of the inputs each kind gets (a generated spec costs the most to make, a mutated
#: record the least to run); each class of issue 23 gets at least 5,000 of the 100,000
SHARE = {"grammar": 0.07, "spec": 0.20, "record": 0.20, "serve": 0.13, "cli": 0.07,
         "filenames": 0.055, "linebreaks": 0.055, "devices": 0.055, "totals": 0.055,
         "numbers": 0.055, "chains": 0.055}
TOTAL = int(os.environ.get("RULESPEC_FUZZ_EXAMPLES", "100000"))
START = int(os.environ.get("RULESPEC_FUZZ_SEED") or random.randrange(2**31))
RANGE = fuzz.seed_range(os.environ.get("RULESPEC_FUZZ_SEED_RANGE") or ":")
ONLY = set(filter(None, os.environ.get("RULESPEC_FUZZ_KINDS", "").split(",")))
PLAN = fuzz.plan({k: max(1, round(TOTAL * SHARE[k])) for k in fuzz.KINDS}, START)


def test_the_shares() -> None:
    assert set(SHARE) == set(fuzz.KINDS) and abs(sum(SHARE.values()) - 1) < 1e-9
    assert all(SHARE[k] * 100_000 >= 5_000 for k in fuzz.NEW_KINDS)
    assert not ONLY - set(fuzz.KINDS), f"RULESPEC_FUZZ_KINDS names no kind: {ONLY}"


@pytest.fixture(scope="module")
def fuzzing() -> Iterator[tuple[fuzz.Worker, fuzz.Seeds]]:
    with fuzz.fuzzing(games=2) as both:
        yield both


@pytest.mark.parametrize("kind", fuzz.KINDS)
def test_a_hundred_thousand_inputs(kind: str, fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    slices = [s for s in PLAN if s.kind == kind and s.index in RANGE]
    if (ONLY and kind not in ONLY) or not slices:
        pytest.skip("not in RULESPEC_FUZZ_KINDS or RULESPEC_FUZZ_SEED_RANGE")
    worker, seeds = fuzzing
    tally = fuzz.Tally()
    planned = sum(s.examples for s in slices)
    t0 = time.perf_counter()
    try:
        fuzz.run_slices(worker, seeds, slices, tally)
    finally:
        took = time.perf_counter() - t0
        print(f"\n{kind}: {tally.inputs} of {planned} inputs in {took:.0f} s "
              f"({tally.inputs / max(took, 1e-9):.1f}/s), slices {slices[0].index} to "
              f"{slices[-1].index} of seed {START}, worker peak "
              f"{tally.peak_rss / 2**20:.0f} MiB; stages {tally.stages}")
    assert 0 < tally.peak_rss < fuzz.PEAK_RSS_BYTES, (
        f"the worker's peak memory was {tally.peak_rss / 2**20:.0f} MiB")
    if kind in fuzz.NEW_KINDS:
        # their strategies filter nothing: Hypothesis makes every input it is asked for
        assert tally.inputs >= planned, f"{tally.inputs} inputs of the {planned} planned"
