"""bench/bridge.py with tiny settings: the three sides of a game measured in one run, their
rows and ratios, the table printed; the steps a game count what each side does. No timing is
asserted (the machine's load is not the code's)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_bridge", ROOT / "bench" / "bridge.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_measures_three_sides_of_each_game(
        bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench.main(["--game", "kuhn", "--game", "euchre", "--games", "2", "--repeats", "1"])
    assert [r["game"] for r in rows] == ["kuhn", "euchre"]
    for r in rows:
        gps = {s: r[f"{s}_games_per_s"] for s in ("engine", "bridge", "openspiel")}
        assert all(v > 0 for v in gps.values())
        assert r["engine_over_bridge"] == pytest.approx(gps["engine"] / gps["bridge"], rel=0.02)
        assert r["bridge_over_openspiel"] == pytest.approx(gps["bridge"] / gps["openspiel"],
                                                           rel=0.02)
    kuhn, euchre = rows
    # Kuhn poker: a shuffle and two or three bets on the engine; the bridge deals the three
    # cards a step each, OpenSpiel's kuhn_poker the two dealt (each side plays its own games)
    assert 3 <= kuhn["engine_steps_per_game"] <= 4
    assert 5 <= kuhn["bridge_steps_per_game"] <= 6
    assert 4 <= kuhn["openspiel_steps_per_game"] <= 5
    assert kuhn["openspiel_game"] == "kuhn_poker()"
    # one deal of Euchre: a shuffle is one event of the engine (a deal of it some 30 at most:
    # the bids, a discard, 20 cards played), 24 steps of the bridge before 15 to 20 plays
    assert euchre["engine_steps_per_game"] < 24 + 15 <= euchre["bridge_steps_per_game"]
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].split()[:4] == ["game", "engine", "g/s", "bridge"]
    assert [line.split()[0] for line in printed[1:]] == ["kuhn", "euchre"]


def test_bench_writes_json(bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    rows = bench.main(["--game", "kuhn", "--games", "1", "--repeats", "1", "--json"])
    assert json.loads(capsys.readouterr().out) == rows
