"""``rulespec simulate`` on 1 to all of this machine's cores, locally and on Ray, in one run.

    python bench/scaling.py [--game hearts] [--players 4] [--games 200] [--workers 1,2,...]
                            [--backends local ray] [--bot NAME ...] [--json]

Each point is one ``simulate`` of the same games (same seed: the same numbers at every point,
which the bench checks) with so many workers on one backend, timed wall clock; Ray is started
once, with as many CPUs as the most workers asked for, before its points are timed (a cluster
is up before anyone simulates on it), and each backend first plays a few untimed games on all
its workers (each worker imports rulespec and compiles the table once). The table gives games
per second, the speed-up over the backend's one-worker point and the efficiency (speed-up over
workers): 1.0 is perfect scaling.
The figure depends on the machine: run it where the cores are (the 16-core machine when one is
lent), and read the efficiency, not the times.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulespec.simulate import simulate  # noqa: E402


def measure(game: str, players: int | None, games: int, workers: list[int],
            backends: list[str], options: dict[str, object],
            bots: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per (backend, workers): seconds, games per second, speed-up and efficiency."""
    rows: list[dict[str, Any]] = []
    first: dict[str, Any] | None = None
    for backend in backends:
        if backend == "ray":
            import ray

            if not ray.is_initialized():
                ray.init(num_cpus=max(workers), log_to_driver=False,
                         include_dashboard=False)
        # a warm-up on every worker, not timed: each imports rulespec and compiles the table
        simulate(game, players, max(workers) * 4, seed=2, options=options,
                 workers=max(workers), backend=backend)
        base = None
        for w in workers:
            extra: dict[str, Any] = {"bots": bots} if bots else {}
            start = time.perf_counter()
            summary = simulate(game, players, games, seed=1, options=options, workers=w,
                               backend=backend, **extra)
            seconds = time.perf_counter() - start
            numbers = summary.to_json()
            if first is None:
                first = numbers
            elif numbers != first:
                raise RuntimeError(f"{backend} with {w} workers gave other numbers than the "
                                   f"first point: the run is not reproducible")
            rate = games / seconds
            base = base or rate
            rows.append({"backend": backend, "workers": w, "seconds": round(seconds, 3),
                         "games_per_s": round(rate, 1), "speedup": round(rate / base, 2),
                         "efficiency": round(rate / base / w, 2)})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    head = ["backend", "workers", "seconds", "games/s", "speed-up", "efficiency"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        lines.append(f"| {r['backend']} | {r['workers']} | {r['seconds']} | "
                     f"{r['games_per_s']} | {r['speedup']} | {r['efficiency']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="hearts")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=200)
    cores = os.cpu_count() or 1
    ap.add_argument("--workers", default=",".join(str(w) for w in _doubling(cores)),
                    help="worker counts, comma-separated (default: 1, 2, 4, ... and all cores)")
    ap.add_argument("--backends", nargs="+", choices=["local", "ray"], default=["local", "ray"])
    ap.add_argument("--bot", action="append", default=None,
                    help="a bot for every seat, or one per seat (repeat)")
    ap.add_argument("-o", "--option", action="append", default=[], metavar="K=V")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    options: dict[str, object] = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        options[k] = int(v) if v.lstrip("-").isdigit() else {"true": True, "false": False}.get(v, v)
    workers = [int(w) for w in args.workers.split(",")]
    rows = measure(args.game, args.players, args.games, workers, args.backends, options,
                   args.bot)
    print(json.dumps(rows, indent=2) if args.json else table(rows))
    return rows


def _doubling(n: int) -> list[int]:
    out, w = [], 1
    while w < n:
        out.append(w)
        w *= 2
    return [*out, n]


if __name__ == "__main__":
    main()
