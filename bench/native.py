"""The native backend (issue 29) against the Python engine and OpenSpiel's C++, on one deal of
hearts, side by side in one run.

    python bench/native.py [--games 300] [--rounds 3] [--no-runtime] [--json]
    python bench/native.py --instructions [--games 20]

The table is the one OpenSpiel's ``hearts`` plays (``verify --engine openspiel:hearts``'s
settings: one deal, the pass direction drawn at random, the queen of spades breaks hearts), and
each side plays random games (a uniform choice among the legal actions, chance as the game
draws it):

- ``python``: the engine's fast path (``legal_count``/``apply_index``), as bench/engines.py's
  ``index`` column, on the generated Python;
- ``native``: the same, the table's generated code compiled as one Cython module
  (rulespec/engine/native.py; ``native-untyped`` without the C types it adds, ``native-O2``
  built with -O2);
- ``runtime``, ``runtime+native``: in a process of their own, on a copy of the package whose
  runtime modules (engine/state, machine, events, chance, lang/builtins) are compiled by Cython
  too, without and with the native table (``--no-runtime`` leaves them out: their first build
  takes a minute or two);
- ``pyspiel``: OpenSpiel's C++ hearts driven from Python (bench/playouts.py's loop);
- ``pyspiel-sim``: ``pyspiel.random_sim_test``, a C++ loop that also checks the game at every
  step (clones, serialisation off, observation tensors): C++ with its tests, not a bare loop;
- ``pyspiel-c++``: ``pyspiel.evaluate_bots`` with uniform random bots: the whole game, chance
  included, played in C++, one Python call a game: OpenSpiel's speed without Python.

Rounds take turns side by side and each side keeps its fastest; games per second and the ratio
to ``python`` are printed. With ``--instructions``, each side instead plays ``--games`` games
in a child under valgrind's callgrind, which counts the instructions of those games alone
(bench/instructions.py's method: the warm-up excluded, string hashes fixed): a count that other
work on the machine does not move, where one round's timing moves by a tenth.

An OpenSpiel deal is a chance event per card and a pass is three actions, one card each; the
spec's deal is one shuffle and a pass one decision among the 286 sets of three cards: the games
are the same, the events are not (events per second are shown).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import importlib.machinery
import json
import os
import random
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulespec.engine import native  # noqa: E402
from rulespec.engine.game import Game  # noqa: E402
from rulespec.engine.state import CHANCE  # noqa: E402
from rulespec.loading import game_for, resolve  # noqa: E402
from rulespec.simulate import sample_event  # noqa: E402

#: OpenSpiel hearts' table (rulespec/adapters/openspiel.py's Hearts: its usual options)
OPTIONS: dict[str, Any] = {"deals": 1, "pass_rotation": "random", "qs_breaks_hearts": True}
#: the runtime modules compiled for the ``runtime`` sides
RUNTIME = ("rulespec/engine/state.py", "rulespec/engine/machine.py",
           "rulespec/engine/events.py", "rulespec/engine/chance.py",
           "rulespec/lang/builtins.py")
#: how many more games the OpenSpiel sides play than ours in a round (they are that much faster)
SCALE = {"pyspiel": 10, "pyspiel-sim": 2, "pyspiel-c++": 40}


def index_games(g: Game, games: int, seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` random games through the fast path."""
    events = 0
    start = time.perf_counter()
    for i in range(games):
        st = g.new_initial_state()
        rng = random.Random(seed * 100_003 + i)
        while st.to_move is not None:
            if st.to_move == CHANCE:
                st.apply(sample_event(st.legal_actions(), rng))
            else:
                st.apply_index(rng.randrange(st.legal_count()))
            events += 1
    return time.perf_counter() - start, events


def pyspiel_sides() -> dict[str, Callable[[int, int], tuple[float, int]]]:
    import pyspiel

    from bench.playouts import pyspiel_playouts

    game = pyspiel.load_game("hearts")

    def sim(games: int, seed: int) -> tuple[float, int]:
        start = time.perf_counter()
        pyspiel.random_sim_test(game, num_sims=games, serialize=False, verbose=False)
        return time.perf_counter() - start, 0

    def cpp(games: int, seed: int) -> tuple[float, int]:
        bots = [pyspiel.make_uniform_random_bot(p, seed * 10 + p) for p in range(4)]
        start = time.perf_counter()
        for i in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 100_003 + i)
        return time.perf_counter() - start, 0

    return {"pyspiel": lambda n, s: pyspiel_playouts(game, n, s), "pyspiel-sim": sim,
            "pyspiel-c++": cpp}


def native_sides(env: dict[str, str]) -> dict[str, Callable[[int, int], tuple[float, int]]]:
    """The native tables: typed, untyped, and typed at -O2 (each built, or found cached)."""
    spec = resolve("hearts").spec
    out: dict[str, Callable[[int, int], tuple[float, int]]] = {}
    for label, typed, opt in (("native", True, "-O1"), ("native-untyped", False, "-O1"),
                              ("native-O2", True, "-O2")):
        os.environ[native.OPT_ENV] = opt
        b = native.native_game(spec, 4, OPTIONS, 0, typed=typed)
        if not b.native:
            env["native"] = f"not built: {b.reason}"
            return out
        env[f"{label} build"] = f"{b.seconds:.1f} s" if b.seconds else "found in the cache"
        out[label] = (lambda g: lambda n, s: index_games(g, n, s))(b.game)
    os.environ.pop(native.OPT_ENV, None)
    return out


# ---- the runtime compiled: a copy of the package, in a process of its own -------------------
def runtime_copy() -> Path:
    """A copy of the package whose runtime modules are Cython extensions (cached by the
    sources' hash beside the native modules)."""
    h = hashlib.sha256()
    for rel in RUNTIME:
        h.update((ROOT / rel).read_bytes())
    h.update(sys.version.encode())
    root = native.cache_dir() / f"runtime-{h.hexdigest()[:16]}"
    if (root / "done").is_file():
        return root
    work = Path(tempfile.mkdtemp(prefix=".runtime.", dir=native.cache_dir()))
    shutil.copytree(ROOT / "rulespec", work / "rulespec",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(ROOT / "grammar", work / "grammar")
    include = sysconfig.get_paths()["include"]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for rel in RUNTIME:
        src = work / rel
        mod = rel[:-3].replace("/", ".")
        c = src.with_suffix(".c")
        subprocess.run([sys.executable, "-m", "cython", "-3", "--module-name", mod,
                        "-X", "annotation_typing=False", str(src), "-o", str(c)], check=True)
        subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-DNDEBUG", "-fno-strict-aliasing",
                        "-w", f"-I{include}", str(c), "-o",
                        str(src.with_name(src.stem + suffix))], check=True)
        c.unlink()
    (work / "done").write_text("built\n")
    if root.exists():
        shutil.rmtree(work)
    else:
        os.replace(work, root)
    return root


def runtime_sides(games: int, rounds: int, seed: int) -> dict[str, tuple[float, int]]:
    """The ``runtime`` and ``runtime+native`` sides' best rounds, from a process that imports
    the compiled copy."""
    root = runtime_copy()
    # this script beside the copy, so that its ROOT there is the copy
    (root / "bench").mkdir(exist_ok=True)
    shutil.copyfile(Path(__file__), root / "bench" / "native_child.py")
    env = dict(os.environ, PYTHONPATH=str(root))
    code = (f"import json, sys; sys.path.insert(0, {str(root)!r}); "
            f"import bench.native_child as b; "
            f"print(json.dumps(b.runtime_child({games}, {rounds}, {seed})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=False, cwd=str(root))
    if done.returncode != 0:
        raise SystemExit(f"the runtime side failed:\n{done.stderr[-2000:]}")
    got: dict[str, tuple[float, int]] = json.loads(done.stdout.strip().splitlines()[-1])
    return got


def runtime_child(games: int, rounds: int, seed: int) -> dict[str, tuple[float, int]]:
    """(In the child) the best round of each side on the compiled runtime."""
    import rulespec.engine.state as state_module

    assert state_module.__file__ is not None and state_module.__file__.endswith(".so"), \
        state_module.__file__
    spec = resolve("hearts").spec
    py = game_for(spec, 4, OPTIONS, 0)
    b = native.native_game(spec, 4, OPTIONS, 0)
    sides = {"runtime": py} | ({"runtime+native": b.game} if b.native else {})
    best = {k: (float("inf"), 0) for k in sides}
    for g in sides.values():
        index_games(g, 5, seed + 99)
    for r in range(rounds):
        for k, g in sides.items():
            t, ev = index_games(g, games, seed + r)
            if t < best[k][0]:
                best[k] = (t, ev)
    return best


def run(games: int, rounds: int, seed: int, with_runtime: bool) -> dict[str, Any]:
    notes: dict[str, str] = {}
    sides: dict[str, Callable[[int, int], tuple[float, int]]] = {}
    py = game_for(resolve("hearts").spec, 4, OPTIONS, 0)
    sides["python"] = lambda n, s: index_games(py, n, s)
    sides.update(native_sides(notes))
    sides.update(pyspiel_sides())
    for f in sides.values():  # warm each
        f(5, seed + 99)
    best: dict[str, tuple[float, int, int]] = {}
    for r in range(rounds):
        for k, f in sides.items():
            n = games * SCALE.get(k, 1)
            t, ev = f(n, seed + r)
            if k not in best or t / n < best[k][0] / best[k][2]:
                best[k] = (t, ev, n)
    if with_runtime:
        for k, (t, ev) in runtime_sides(games, rounds, seed).items():
            best[k] = (t, ev, games)
    base = best["python"][2] / best["python"][0]
    rows = {k: {"games": n, "seconds": round(t, 3), "games_per_s": round(n / t, 1),
                "events_per_s": round(ev / t) if ev else None,
                "vs_python": round(n / t / base, 2)} for k, (t, ev, n) in best.items()}
    return {"game": "hearts, one deal (OpenSpiel's table)", "rounds": rounds,
            "sides": rows, "notes": notes}


# ---- instructions, under callgrind ---------------------------------------------------------
#: the sides counted: a child each (the runtime ones in the compiled copy)
COUNTED = ("python", "native", "native-untyped", "native-O2", "runtime", "runtime+native",
           "pyspiel", "pyspiel-c++")
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def child(side: str, games: int) -> None:
    """The child's work: build or load, warm up, collect garbage, then ``games`` games of
    ``side`` through ``sys.call_tracing``, the one call callgrind counts."""
    if side.startswith("pyspiel"):
        play = pyspiel_sides()[side]
        play(2, 99)
        gc.collect()
        sys.call_tracing(play, (games, 1))
        return
    spec = resolve("hearts").spec
    if "native" in side:
        if side == "native-O2":
            os.environ[native.OPT_ENV] = "-O2"
        b = native.native_game(spec, 4, OPTIONS, 0, typed=side != "native-untyped")
        assert b.native, b.reason
        g = b.game
    else:
        g = game_for(spec, 4, OPTIONS, 0)
    index_games(g, 2, 99)
    gc.collect()
    sys.call_tracing(index_games, (g, games, 1))


def instructions(side: str, games: int) -> int:
    """Instructions ``side``'s ``games`` games execute (warm-up excluded)."""
    script, cwd, env = Path(__file__), ROOT, dict(os.environ, PYTHONHASHSEED="0")
    if side.startswith("runtime"):
        root = runtime_copy()
        (root / "bench").mkdir(exist_ok=True)
        script = root / "bench" / "native_child.py"
        shutil.copyfile(Path(__file__), script)
        cwd, env["PYTHONPATH"] = root, str(root)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           "--collect-atstart=no", "--toggle-collect=_PyEval_CallTracing", sys.executable,
           str(script), "--child", side, "--games", str(games)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env,
                         cwd=str(cwd))
    found = _COLLECTED.findall(out.stderr)
    if out.returncode != 0 or not found or not int(found[-1]):
        raise SystemExit(f"callgrind counted nothing for {side}:\n{out.stderr[-3000:]}")
    return int(found[-1])


def count_all(games: int) -> dict[str, Any]:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind: apt-get install valgrind")
    native_sides({})  # each table built once, before the children
    runtime_copy()
    with ThreadPoolExecutor(max_workers=2) as pool:
        got = dict(zip(COUNTED, pool.map(lambda s: instructions(s, games), COUNTED),
                       strict=True))
    per = {k: n / games for k, n in got.items()}
    return {"game": "hearts, one deal (OpenSpiel's table)", "games": games,
            "sides": {k: {"minstr_per_game": round(v / 1e6, 2),
                          "python_over_side": round(per["python"] / v, 2)}
                      for k, v in per.items()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-runtime", action="store_true")
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.games)
        return
    if a.instructions:
        counted = count_all(a.games)
        if a.json:
            print(json.dumps(counted, indent=2))
            return
        print(f"{counted['game']}: instructions a game, {a.games} games a side")
        for k, r in counted["sides"].items():
            print(f"{k:16} {r['minstr_per_game']:>10.2f}M   python/side "
                  f"{r['python_over_side']:>7.2f}")
        return
    out = run(a.games, a.rounds, a.seed, not a.no_runtime)
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['game']}: best of {a.rounds} rounds")
    print(f"{'side':16} {'games':>7} {'games/s':>10} {'events/s':>10} {'x python':>9}")
    for k, r in out["sides"].items():
        ev = f"{r['events_per_s']:,}" if r["events_per_s"] else "-"
        print(f"{k:16} {r['games']:>7} {r['games_per_s']:>10,.1f} {ev:>10} "
              f"{r['vs_python']:>9.2f}")
    for k, v in out["notes"].items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()
