"""Instructions, not seconds: the engine against its oracle under callgrind, the same games.

    python bench/instructions.py [--game vandatta|abracadabra|abracadabra-newton|all]
                                 [--players all|N[,N...]] [--games 10] [--jobs N]

On a shared machine one round of ``bench/playouts.py`` moves the engine/oracle ratio by a
tenth either way. The count of instructions a run executes (valgrind's callgrind) moves about
1% between runs, whatever else the machine does, so a difference of a few percent between
engine and oracle can be seen here that the timings drown. Instructions are not time (a cache
miss costs many), so this is a second witness beside the playouts' timings, not a stand-in.

Each side of each table runs in a child process under callgrind: the warm-up (parsing the
spec, compiling the table, two games), a full garbage collection, then ``--games`` games,
driven as ``bench/playouts.py`` drives them, called through ``sys.call_tracing`` so that
callgrind counts those calls alone (``--toggle-collect=_PyEval_CallTracing``). The child's
string hashes are fixed (``PYTHONHASHSEED=0``): a run counts the same to the instruction each
time. An earlier version subtracted a warm-up-only run from a full one; what the two runs did
differently outside the games (a large dict resized in one warm-up and not the other, the
teardown) moved that difference by up to 3% with nothing but the path the script was run by.
Needs valgrind (``apt-get install valgrind``). Slow: a child runs about fifty times slower than
it would alone, so the default plays 10 games a table, and ``--jobs`` children run at once.

    python bench/instructions.py --engine openspiel:hearts [--engine rlcard:uno ...]

counts instead, beside ``bench/engines.py``'s timings, the instructions of ``--games`` random
games of an engine game on rulespec's index path and on the engine itself driven from Python
(pyspiel's API, or RLCard's game loop), per game: the games differ from side to side (each
side draws its own), so the ratio is of the mean cost of a game.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the three ways a table is played: the engine through the protocol, the oracle, and the
#: engine's index fast path (see bench/playouts.py)
SIDES = ("engine", "oracle", "index")
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def play(side: str, game: str, players: int, games: int) -> None:
    """The child's work: the warm-up, then ``games`` games of one side, the only calls
    callgrind counts (the one call of ``sys.call_tracing`` in the process)."""
    from playouts import ORACLES, index_playouts, playouts

    from rulespec.protocol import SpecImplementation
    if side == "index":
        index_playouts(game, players, {}, 2, 99)
        gc.collect()  # each side and each tree starts its games from the same collector state
        sys.call_tracing(index_playouts, (game, players, {}, games, 1))
        return
    impl = SpecImplementation if side == "engine" else ORACLES[game]
    playouts(impl, game, players, {}, 2, 99)
    gc.collect()
    sys.call_tracing(playouts, (impl, game, players, {}, games, 1))


def play_engine(side: str, name: str, games: int) -> None:
    """The child's work for an engine game: the warm-up, then ``games`` games on rulespec's
    index path (``index``), on the kernel (``kernel``), on the typed lowering (``typed``) or on
    the engine itself (``engine``), as bench/engines.py plays."""
    from engines import engine_games, index_games, kernel_games, settings_of, typed_games

    spec, players, options, adapter = settings_of(name)
    if side in ("index", "kernel", "typed"):
        run = {"index": index_games, "kernel": kernel_games, "typed": typed_games}[side]
        run(spec, players, options, 2, 99)
        gc.collect()
        sys.call_tracing(run, (spec, players, options, games, 1))
        return
    engine_games(adapter, players, options, 2, 99)
    gc.collect()
    sys.call_tracing(engine_games, (adapter, players, options, games, 1))


def count(side: str, game: str, players: int, games: int, engine: bool = False) -> int:
    """Instructions a child executes playing ``games`` games of ``side``, warm-up excluded."""
    child = ["--child-engine", side, "--engine", game] if engine else \
        ["--child", side, "--game", game, "--players", str(players)]
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           "--collect-atstart=no", "--toggle-collect=_PyEval_CallTracing", sys.executable,
           __file__, *child, "--games", str(games)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _COLLECTED.findall(out.stderr)
    if not found or not int(found[-1]):
        raise SystemExit(f"callgrind counted nothing for {' '.join(cmd)} (is this Python's "
                         f"_PyEval_CallTracing visible to valgrind?):\n{out.stderr}")
    return int(found[-1])


def measure(game: str, players: int, games: int, jobs: int) -> dict[str, Any]:
    """Millions of instructions each side's games cost at one table, and their ratios."""
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        got = pool.map(lambda side: count(side, game, players, games), SIDES)
        cost = {side: n / 1e6 for side, n in zip(SIDES, got, strict=True)}
    return {"game": game, "players": players, "games": games,
            **{f"{side}_minstr": round(cost[side]) for side in SIDES},
            "engine_over_oracle": round(cost["engine"] / cost["oracle"], 3),
            "index_over_oracle": round(cost["index"] / cost["oracle"], 3)}


def measure_engine(name: str, games: int) -> dict[str, Any]:
    """Millions of instructions a game costs on rulespec's index path, on the kernel and the
    typed lowering (where they lower the table) and on the engine."""
    from engines import lowers, settings_of, typed_lowers

    spec, players, options, _ = settings_of(name)
    sides = ("index", "engine", *(("kernel",) if lowers(spec, players, options) else ()),
             *(("typed",) if typed_lowers(spec, players, options) else ()))
    with ThreadPoolExecutor(max_workers=len(sides)) as pool:
        got = dict(zip(sides, pool.map(lambda side: count(side, name, 0, games, engine=True),
                                       sides), strict=True))
    out = {"engine_game": name, "games": games,
           "index_minstr_per_game": round(got["index"] / games / 1e6, 2),
           "engine_minstr_per_game": round(got["engine"] / games / 1e6, 2),
           "index_over_engine": round(got["index"] / got["engine"], 3)}
    if "kernel" in got:
        out["kernel_minstr_per_game"] = round(got["kernel"] / games / 1e6, 2)
        out["kernel_over_index"] = round(got["kernel"] / got["index"], 3)
    if "typed" in got:
        out["typed_minstr_per_game"] = round(got["typed"] / games / 1e6, 2)
        out["typed_over_engine"] = round(got["typed"] / got["engine"], 3)
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    from playouts import ORACLES, tables

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=[*ORACLES, "all"], default="all")
    ap.add_argument("--players", default="all",
                    help="'all' (every table the spec offers, the default), a number, or "
                    "numbers separated by commas")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2, help="children at once (default 2)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--engine", action="append", default=None,
                    help="an engine game of bench/engines.py (repeatable): count it instead")
    ap.add_argument("--child", choices=SIDES, help=argparse.SUPPRESS)
    ap.add_argument("--child-engine", choices=("index", "engine", "kernel", "typed"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        play(args.child, args.game, int(args.players), args.games)
        return []
    if args.child_engine:
        play_engine(args.child_engine, args.engine[0], args.games)
        return []
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind: apt-get install valgrind")
    if args.engine:
        runs = [measure_engine(n, args.games) for n in args.engine]
        for r in runs:
            if not args.json:
                kernel = f", kernel {r['kernel_minstr_per_game']}M a game (kernel/index " \
                    f"{r['kernel_over_index']})" if "kernel_over_index" in r else ""
                kernel += f", typed {r['typed_minstr_per_game']}M a game (typed/engine " \
                    f"{r['typed_over_engine']})" if "typed_over_engine" in r else ""
                print(f"{r['engine_game']:24} index path {r['index_minstr_per_game']}M a game, "
                      f"engine {r['engine_minstr_per_game']}M a game; index/engine "
                      f"{r['index_over_engine']}{kernel}", flush=True)
        if args.json:
            print(json.dumps(runs, indent=2))
        return runs
    runs = []
    for game in list(ORACLES) if args.game == "all" else [args.game]:
        for p in tables(game, args.players):
            runs.append(measure(game, p, args.games, args.jobs))
            if not args.json:
                r = runs[-1]
                print(f"{game:20} {p:>3} players: engine {r['engine_minstr']}M, oracle "
                      f"{r['oracle_minstr']}M, index path {r['index_minstr']}M; engine/oracle "
                      f"{r['engine_over_oracle']}, index/oracle {r['index_over_oracle']}",
                      flush=True)
    if args.json:
        print(json.dumps(runs, indent=2))
    return runs


if __name__ == "__main__":
    main()
