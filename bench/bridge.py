"""A spec played at random three ways, side by side: on rulespec's engine, through the OpenSpiel
bridge, and on OpenSpiel's own C++ game, in one run.

    python bench/bridge.py [--games 20] [--repeats 3] [--game hearts ...] [--seed 1] [--json]

For each game OpenSpiel ships in C++ that a spec here plays (hearts, spades, oh_hell, skat,
euchre, gin_rummy, crazy_eights, at the settings ``verify --engine`` plays them: the adapter's
fixed options and its engine's defaults, one deal, as OpenSpiel plays), and Kuhn poker
(``examples/kuhn.rules`` against OpenSpiel's ``kuhn_poker``):

- ``engine``: rulespec's engine directly, ``legal_count`` and ``apply_index`` at a decision,
  a chance event drawn by :func:`rulespec.simulate.sample_event` (a shuffle is one event);
- ``bridge``: the spec as a pyspiel game (:func:`rulespec.openspiel.load_game`), driven through
  pyspiel's API: ``legal_actions`` and ``apply_action``, chance drawn from ``chance_outcomes``
  by its probabilities (a shuffle is a step a card);
- ``openspiel``: OpenSpiel's C++ game of the same name, driven the same way.

A step is an event of the engine, an id of the bridge, an action of OpenSpiel (chance
included), so steps are not the same work from side to side (a shuffle of 52 cards is one
engine step and 52 steps of the others): games per second is the figure to compare, and the
ratios are of it. The sides take turns, a few games at a time, ``--repeats`` times, each
keeping its fastest turn, so that a busy spell of the machine weighs on all three. Absolute
figures depend on the machine; the ratios are the ones to watch.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))  # bench/engines.py

from engines import settings_of  # noqa: E402
from playouts import fast_games  # noqa: E402

from rulespec.loading import game_for, resolve  # noqa: E402

#: the OpenSpiel C++ games a spec plays, by the name OpenSpiel gives them
OPENSPIEL_GAMES = ("hearts", "spades", "oh_hell", "skat", "euchre", "gin_rummy", "crazy_eights")
#: the small example: its spec, table and OpenSpiel game
KUHN: tuple[str, int, dict[str, Any], str] = (
    str(ROOT / "examples" / "kuhn.rules"), 2, {}, "kuhn_poker")
#: games each side plays before the next takes its turn
CHUNK = 5


def settings(name: str) -> tuple[str, int, dict[str, Any], Any]:
    """The spec, table, options and OpenSpiel game (a pyspiel game) of a benched game."""
    import pyspiel

    if name == "kuhn":
        spec, players, options, theirs = KUHN
        return spec, players, dict(options), pyspiel.load_game(theirs)
    spec, players, options, adapter = settings_of(f"openspiel:{name}")
    a = adapter()
    a.new(spec, players, dict(options), 0)
    # the adapter loads OpenSpiel's game with the parameters that match the options
    theirs = a.state.get_game()
    if "deals" not in options and "deals" in {o.name for o in resolve(spec).spec.options}:
        # OpenSpiel's game is one deal (spades': its match rules score that deal alone);
        # the adapter plays the spec's whole match to check them, a deal is benched here
        options = {**options, "deals": 1}
    return spec, players, dict(options), theirs


def engine_games(spec: str, players: int, options: Mapping[str, Any], games: int,
                 seed: int) -> tuple[float, int]:
    """Seconds and steps of ``games`` random games on the engine: ``legal_count`` and
    ``apply_index`` at a decision, ``sample_event`` at chance (by the outcomes' weights)."""
    g = game_for(resolve(spec).spec, players, options, 0)
    return fast_games(lambda _: g.new_initial_state(), games, seed, weighted=True)


def pyspiel_games(game: Any, games: int, seed: int) -> tuple[float, int]:
    """Seconds and steps of ``games`` random games of a pyspiel game through its Python API:
    ``legal_actions`` and ``apply_action``, chance drawn from ``chance_outcomes`` by its
    probabilities."""
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outs = s.chance_outcomes()
                r, k = rng.random(), 0
                while k < len(outs) - 1 and r >= outs[k][1]:
                    r -= outs[k][1]
                    k += 1
                s.apply_action(outs[k][0])
            else:
                acts = s.legal_actions()
                s.apply_action(acts[rng.randrange(len(acts))])
            steps += 1
    return time.perf_counter() - start, steps


def compare(name: str, games: int, seed: int, repeats: int) -> dict[str, Any]:
    """The three sides of one game, taking turns; each keeps its fastest turn."""
    from rulespec.openspiel import load_game

    spec, players, options, theirs = settings(name)
    bridge = load_game(spec, players=players, options=options)
    sides: dict[str, Callable[[int, int], tuple[float, int]]] = {
        "engine": lambda n, s: engine_games(spec, players, options, n, s),
        "bridge": lambda n, s: pyspiel_games(bridge, n, s),
        "openspiel": lambda n, s: pyspiel_games(theirs, n, s),
    }
    for run in sides.values():
        run(1, seed + 99)  # warm: the engine compiles its table once
    best = {k: (float("inf"), 0) for k in sides}
    for r in range(repeats):
        took: dict[str, list[float]] = {k: [0.0, 0.0] for k in sides}
        for k, first in enumerate(range(0, games, CHUNK)):
            n = min(CHUNK, games - first)
            order = list(sides) if k % 2 == 0 else list(reversed(sides))
            for side in order:
                t, e = sides[side](n, seed + 1000 * r + first)
                took[side][0] += t
                took[side][1] += e
        for side, (t, steps) in took.items():
            if t < best[side][0]:
                best[side] = (t, int(steps))
    out: dict[str, Any] = {"game": name, "spec": Path(spec).name if name == "kuhn" else spec,
                           "openspiel_game": str(theirs), "players": players,
                           "games": games, "repeats": repeats}
    for side, (t, e) in best.items():
        out[f"{side}_games_per_s"] = round(games / t, 2)
        out[f"{side}_steps_per_s"] = round(e / t)
        out[f"{side}_steps_per_game"] = round(e / games, 1)
    gps = {side: games / best[side][0] for side in sides}
    out["engine_over_bridge"] = round(gps["engine"] / gps["bridge"], 2)
    out["bridge_over_openspiel"] = round(gps["bridge"] / gps["openspiel"], 4)
    out["engine_over_openspiel"] = round(gps["engine"] / gps["openspiel"], 4)
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games a side plays a turn")
    ap.add_argument("--repeats", type=int, default=3,
                    help="turns each side takes; each keeps its fastest (default 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--game", action="append", choices=[*OPENSPIEL_GAMES, "kuhn"],
                    help="only this game (repeatable; default: every one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = args.game or [*OPENSPIEL_GAMES, "kuhn"]
    rows = [compare(n, args.games, args.seed, args.repeats) for n in names]
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'game':13} {'engine g/s':>10} {'bridge g/s':>10} {'openspiel g/s':>13} "
              f"{'engine/bridge':>13} {'bridge/openspiel':>16} {'engine/openspiel':>16} "
              f"{'steps a game (e/b/o)':>22}")
        for r in rows:
            steps = (f"{r['engine_steps_per_game']:g}/{r['bridge_steps_per_game']:g}/"
                     f"{r['openspiel_steps_per_game']:g}")
            print(f"{r['game']:13} {r['engine_games_per_s']:>10} {r['bridge_games_per_s']:>10} "
                  f"{r['openspiel_games_per_s']:>13} {r['engine_over_bridge']:>13} "
                  f"{r['bridge_over_openspiel']:>16} {r['engine_over_openspiel']:>16} "
                  f"{steps:>22}")
    return rows


if __name__ == "__main__":
    main()
