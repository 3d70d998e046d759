"""bench/scaling.py with tiny settings, on both backends: a local Ray instance is started, the
same games are played with one and two workers on each, and the numbers agree at every point
(the bench raises where they do not). No timing is asserted."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from tests import modules

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    return modules.bench("scaling")


def test_scaling_bench_runs_locally_and_on_ray() -> None:
    bench = _bench()
    rows = bench.measure("whist", 4, 12, [1, 2], ["local", "ray"], {})
    assert [(r["backend"], r["workers"]) for r in rows] == [
        ("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]
    for r in rows:
        assert r["games_per_s"] > 0
        assert abs(r["efficiency"] - r["speedup"] / r["workers"]) <= 0.011
    assert "| ray | 2 |" in bench.table(rows)
