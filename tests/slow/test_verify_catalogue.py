"""The whole mutant catalogue, verified with default settings (no -p, no -o), in Python and
through the child-process protocol: every mutant caught within 60 s, legal-move and turn bugs
shrunk to at most 20 events, scoring and deal-end bugs to one deal plus 5 events
(bench/verify.py prints the same figures). Long: run with ``pytest -m slow``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.verify.mutants import MUTANTS

_spec = importlib.util.spec_from_file_location(
    "bench_verify", Path(__file__).resolve().parents[2] / "bench" / "verify.py")
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

CASES = [(m.name, mode) for m in MUTANTS for mode in ("python", "process")
         if mode == "process" or m.python is not None]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "mode"), CASES)
def test_mutant_is_caught_with_default_settings(name: str, mode: str) -> None:
    m = next(x for x in MUTANTS if x.name == name)
    row = bench.catch(m, mode)
    assert row["caught"], f"{name} ({mode}) not caught in {row['seconds']} s"
    assert row["target_met"], row


@pytest.mark.slow
def test_correct_implementations_conform_with_default_settings() -> None:
    rows = bench.correct_speed()
    assert all(r["conforms"] for r in rows), rows
