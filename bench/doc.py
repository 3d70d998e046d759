"""``rulespec doc`` of this tree against earlier commits, side by side in one run.

    python bench/doc.py [--baseline COMMIT ...] [--games G ...] [--formats md html]
                        [--repeats 5] [--cold] [--json]

Each baseline commit (default: d46c592, the main that issue 27 timed) is checked out into a
temporary git worktree; this tree is the last column. Every measurement is one fresh process,
``python -m rulespec doc GAME --format F --out FILE`` with PYTHONPATH set to its tree, timed
wall clock from start to exit, so the figures are what a person waits for (Python's start and
the imports included). The trees take turns run by run (the order rotates each repeat), so a
busy spell of the machine weighs on all of them alike; each tree's first run of a book is a
warm-up, not counted (it writes the tree's bytecode, and this tree's kept grammar tables). The
table gives the median of ``--repeats`` runs in ms and, for each baseline, how many times
faster this tree is; then the floor, this tree's ``rulespec check GAME`` (start, imports, the
spec read and checked: what any book of it waits for before its first line), and the most any
book could gain over the first baseline, its time over that floor. ``--cold`` gives every
run an empty cache folder (RULESPEC_CACHE_DIR): the grammar's tables are then built each run,
as on a machine's first run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: the main whose ``rulespec doc`` issue 27 timed
DEFAULT_BASELINE = "d46c592"
SEED_GAMES = ("vandatta", "abracadabra", "abracadabra-newton")


@contextlib.contextmanager
def worktrees(commits: list[str]) -> Iterator[list[tuple[str, Path]]]:
    """Each commit checked out (detached) into a temporary worktree of this repository, then
    the worktrees removed: (label, folder) of each, this tree last."""
    made: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="rulespec-bench-doc-") as tmp:
        try:
            trees = []
            for i, commit in enumerate(commits):
                where = Path(tmp) / f"tree{i}"
                subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach",
                                str(where), commit], check=True, capture_output=True)
                made.append(where)
                short = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"],
                                       check=True, capture_output=True, text=True).stdout.strip()
                trees.append((short, where))
            yield [*trees, ("this tree", ROOT)]
        finally:
            for where in made:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(where)], capture_output=True)


def run_doc(tree: Path, game: str, fmt: str, out: Path, cold: bool) -> float:
    """Seconds one ``rulespec doc`` of ``tree`` takes, a fresh process; raises if it fails."""
    return _timed(tree, ["doc", game, "--format", fmt, "--out", str(out)], out, cold)


def run_check(tree: Path, game: str, out: Path, cold: bool) -> float:
    """Seconds one ``rulespec check`` of ``tree`` takes, a fresh process: the floor under any
    book of ``game``."""
    return _timed(tree, ["check", game], out, cold)


def _timed(tree: Path, args: list[str], out: Path, cold: bool) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    # bytecode written by the warm-up and read after, as an installed package's is (pip
    # compiles it): a shell that sets PYTHONDONTWRITEBYTECODE would time Python compiling
    # every module of both trees on every run instead
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cold:
        env["RULESPEC_CACHE_DIR"] = tempfile.mkdtemp(dir=out.parent)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulespec", *args], cwd=tree, env=env,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"rulespec {' '.join(args)} failed in {tree} "
                           f"(exit {done.returncode}):\n{done.stderr}")
    return seconds


def measure(trees: list[tuple[str, Path]], games: list[str], formats: list[str],
            repeats: int, cold: bool) -> list[dict[str, Any]]:
    """Each (game, format) book made by every tree, a warm-up and ``repeats`` timed runs taken
    in turn; one row per book with each tree's median ms and this tree's speed-ups."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="rulespec-bench-out-") as tmp:
        for game in games:
            for fmt in formats:
                times: dict[str, list[float]] = {label: [] for label, _ in trees}
                floor: list[float] = []
                for r in range(-1, repeats):  # -1: the warm-up round
                    k = max(r, 0) % len(trees)
                    for label, tree in trees[k:] + trees[:k]:
                        out = Path(tmp) / label.replace(" ", "-") / f"{Path(game).stem}.{fmt}"
                        out.parent.mkdir(exist_ok=True)
                        seconds = run_doc(tree, game, fmt, out, cold)
                        if r >= 0:
                            times[label].append(seconds)
                    checked = run_check(ROOT, game, Path(tmp) / "check", cold)
                    if r >= 0:
                        floor.append(checked)
                ms = {label: round(1000 * statistics.median(t)) for label, t in times.items()}
                mine = ms["this tree"]
                least = round(1000 * statistics.median(floor))
                first = next(iter(ms.values()))
                rows.append({"game": game, "format": fmt, "ms": ms,
                             "speedup": {label: round(v / mine, 2) for label, v in ms.items()
                                         if label != "this tree"},
                             "floor_ms": least, "most_speedup": round(first / least, 2)})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a Markdown table: ms per tree, then this tree's speed-up over each
    baseline."""
    labels = list(rows[0]["ms"])
    base = [lb for lb in labels if lb != "this tree"]
    head = ["game", "format", *(f"{lb} ms" for lb in labels), *(f"x vs {b}" for b in base),
            "floor ms (check)", f"at most x vs {labels[0]}"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["game"], r["format"], *(str(r["ms"][lb]) for lb in labels),
                 *(f"{r['speedup'][b]:.2f}" for b in base), str(r["floor_ms"]),
                 f"{r['most_speedup']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", action="append", default=None, metavar="COMMIT",
                    help=f"a commit to compare with (repeatable; default {DEFAULT_BASELINE})")
    ap.add_argument("--games", nargs="+", default=list(SEED_GAMES))
    ap.add_argument("--formats", nargs="+", choices=["md", "html"], default=["md", "html"])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--cold", action="store_true",
                    help="an empty cache folder for every run (no kept grammar tables)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error("--repeats must be at least 1")
    with worktrees(args.baseline or [DEFAULT_BASELINE]) as trees:
        rows = measure(trees, args.games, args.formats, args.repeats, args.cold)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return rows


if __name__ == "__main__":
    main()
