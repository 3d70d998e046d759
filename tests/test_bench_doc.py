"""bench/doc.py with tiny settings: a baseline worktree made and removed, each tree's book timed
in fresh processes, the table's rows and ratios; a book that fails stops the bench. No timing
is asserted (the machine's load is not the code's)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests import modules

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    return modules.bench("doc")


def _worktrees() -> set[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "worktree", "list", "--porcelain"],
                         capture_output=True, text=True, check=True).stdout
    return {line for line in out.splitlines() if line.startswith("worktree ")}


@pytest.fixture
def bench() -> ModuleType:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: no commit to compare with")
    return _bench()


def test_bench_times_each_tree_and_removes_its_worktrees(
        bench: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    before = _worktrees()
    rows = bench.main(["--baseline", "HEAD", "--games", "examples/crazy_eights.rules",
                       "--formats", "md", "html", "--repeats", "1"])
    assert _worktrees() == before
    assert [(r["game"], r["format"]) for r in rows] == [
        ("examples/crazy_eights.rules", "md"), ("examples/crazy_eights.rules", "html")]
    for r in rows:
        (base,) = [label for label in r["ms"] if label != "this tree"]
        assert all(ms > 0 for ms in r["ms"].values())
        assert r["speedup"] == {base: round(r["ms"][base] / r["ms"]["this tree"], 2)}
        assert r["floor_ms"] > 0
        assert r["most_speedup"] == round(r["ms"][base] / r["floor_ms"], 2)
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("| game | format | ") and printed[0].endswith(" |")
    assert len(printed) == 4 and "| examples/crazy_eights.rules | html |" in printed[3]


def test_a_book_that_fails_stops_the_bench(bench: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="no-such-game"):
        bench.run_doc(ROOT, "no-such-game", "md", tmp_path / "x.md", cold=True)
