"""Random-policy playouts: the engine against the hand-written oracle, same seeds, one run.

    python bench/playouts.py [--game vandatta|abracadabra|abracadabra-newton|all]
                             [--games 200] [--players all|N[,N...]]

Both sides are driven the same way, through the implementation protocol: list the legal events,
pick one with the game's own seeded generator (a shuffle is a random order of its template),
apply it. Because engine and oracle agree event for event, the same seed plays the same games on
both, so the time ratio compares equal work. OpenSpiel's C++ ``crazy_eights`` (pip open-spiel),
driven through its Python API with the same kind of policy, is a reference point, not the same
game (``oh_hell`` for Abracadabra). The ratio is the figure to watch; absolute times depend on
the machine. Each table is measured in a process of its own, so what one table leaves behind
(the engine remembers events by the hundred thousand) does not slow the tables after it.

Two more columns: the engine's fast path (``legal_count`` and ``apply_index``, no event read
or written at decisions; the same games), and the time to compile one table (verify compiles
many settings).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulespec.engine.game import Game  # noqa: E402
from rulespec.engine.state import CHANCE, State  # noqa: E402
from rulespec.loading import resolve  # noqa: E402
from rulespec.protocol import SpecImplementation  # noqa: E402
from rulespec.simulate import sample_event  # noqa: E402
from tests.oracles.abracadabra import AbracadabraOracle  # noqa: E402
from tests.oracles.abracadabra_newton import AbracadabraNewtonOracle  # noqa: E402
from tests.oracles.vandatta import VandattaOracle  # noqa: E402

#: games each side plays before the other takes its turn within a round (see compare)
CHUNK = 10

ORACLES = {"vandatta": VandattaOracle, "abracadabra": AbracadabraOracle,
           "abracadabra-newton": AbracadabraNewtonOracle}
REFERENCE = {"vandatta": "crazy_eights", "abracadabra": "oh_hell", "abracadabra-newton": "oh_hell"}


def playouts(impl_factory: Any, game: str, players: int, options: dict[str, Any], games: int,
             seed: int, first: int = 0) -> tuple[float, int]:
    """Seconds and events for ``games`` random games, the ``first``-th of the seed's on."""
    events = 0
    start = time.perf_counter()
    for i in range(first, first + games):
        impl = impl_factory()
        impl.new(game, players, dict(options), 0)
        rng = random.Random(seed * 100_003 + i)
        while impl.to_move() is not None:
            impl.apply(sample_event(impl.legal(), rng))
            events += 1
    return time.perf_counter() - start, events


def fast_games(new_state: Callable[[int], State], games: int, seed: int, first: int = 0,
               weighted: bool = False, per_game: bool = True) -> tuple[float, int]:
    """Seconds and events of random games on the engine's fast path (``legal_count`` and
    ``apply_index`` at each decision, ``sample_chance`` at chance: the event ``sample_event``
    draws, by the outcomes' weights where ``weighted``, drawn and applied in one call): game
    ``i`` (``first`` on) from ``new_state(i)`` with its own generator, ``seed * 100_003 + i``
    (the same games as another side's that seeds each game so), or with ``per_game`` false
    one generator for them all, ``seed``, as :func:`pyspiel_playouts` draws (a generator
    seeded costs a few microseconds: a tenth of a short game). Every bench's index side is
    this loop."""
    events = 0
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(first, first + games):
        st = new_state(i)
        if per_game:
            rng = random.Random(seed * 100_003 + i)
        while st.to_move is not None:
            if st.to_move == CHANCE:
                st.sample_chance(rng, weighted)
            else:
                st.apply_index(rng.randrange(st.legal_count()))
            events += 1
    return time.perf_counter() - start, events


def index_playouts(game: str, players: int, options: dict[str, Any], games: int,
                   seed: int, first: int = 0) -> tuple[float, int]:
    """The same games through the engine's fast path: ``legal_count`` and ``apply_index`` at
    each decision, events only for chance (the same draws of the generator, so the same
    games)."""
    # a table compiled for this side alone: the engine side's table remembers the events of
    # the hands it met, the same deals, and this side would find them (or leave them) there
    key = (game, players, json.dumps(options, sort_keys=True))
    g = _INDEX_GAMES.get(key)
    if g is None:
        g = _INDEX_GAMES[key] = Game(resolve(game).spec, players, options)
    return fast_games(lambda _: g.new_initial_state(), games, seed, first)


#: the index side's own tables (see index_playouts)
_INDEX_GAMES: dict[tuple[str, int, str], Game] = {}


def compile_seconds(game: str, players: int, repeat: int = 5) -> float:
    """Mean seconds to compile one table of ``game`` (a fresh Game each time)."""
    spec = resolve(game).spec
    start = time.perf_counter()
    for _ in range(repeat):
        Game(spec, players, {})
    return (time.perf_counter() - start) / repeat


def openspiel(game: str, params: dict[str, Any], games: int, seed: int) -> tuple[float, int] | None:
    """Seconds and events for OpenSpiel random playouts, or None when it is not installed
    or its game has no table of this size."""
    try:
        import pyspiel
    except ImportError:
        return None
    try:
        g = pyspiel.load_game(game, params)
    except pyspiel.SpielError:
        return None  # OpenSpiel's game has no such table (oh_hell is for 3 to 7)
    return pyspiel_playouts(g, games, seed)


def pyspiel_playouts(g: Any, games: int, seed: int) -> tuple[float, int]:
    """Seconds and events for ``games`` random playouts of the pyspiel game ``g``, driven
    through its Python API: a chance outcome or a legal action drawn uniformly at each node."""
    rng = random.Random(seed)
    events = 0
    start = time.perf_counter()
    for _ in range(games):
        s = g.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                acts = s.legal_actions()
                s.apply_action(acts[rng.randrange(len(acts))])
            events += 1
    return time.perf_counter() - start, events


def compare(game: str, players: int, games: int, seed: int, rounds: int = 3) -> dict[str, Any]:
    """Engine and oracle side by side on the same seeds, plus the OpenSpiel reference.

    The sides take turns, ``rounds`` times, and each keeps its fastest round: on a shared
    machine a burst of other work then slows one round of one side, not the ratio. Within a
    round they take turns too, ``CHUNK`` games at a time (the engine first in one chunk, the
    oracle in the next), so that a slow spell of a few seconds weighs on both sides, not on
    whichever was running. Each round's own ratio is reported too, sorted, so the spread shows
    how much to trust it."""
    opts: dict[str, Any] = {}
    oracle = ORACLES[game]
    # warm both (the engine compiles the spec once per table; the oracle has nothing to build)
    playouts(SpecImplementation, game, players, opts, 2, seed + 99)
    playouts(oracle, game, players, opts, 2, seed + 99)
    te = to = ti = float("inf")
    per_round = []
    for _ in range(rounds):
        t1 = t2 = t3 = 0.0
        ne = no = ni = 0
        for k, first in enumerate(range(0, games, CHUNK)):
            n = min(CHUNK, games - first)
            for impl in (SpecImplementation, oracle) if k % 2 == 0 else \
                    (oracle, SpecImplementation):
                t, e = playouts(impl, game, players, opts, n, seed, first)
                if impl is SpecImplementation:
                    t1, ne = t1 + t, ne + e
                else:
                    t2, no = t2 + t, no + e
            t, e = index_playouts(game, players, opts, n, seed, first)
            t3, ni = t3 + t, ni + e
        te, to, ti = min(te, t1), min(to, t2), min(ti, t3)
        per_round.append(t1 / t2)
        assert ne == no, "engine and oracle played different games: they disagree"
        assert ni == ne, "the index fast path played different games"
    ref = openspiel(REFERENCE[game], {"players": players}, games, seed)
    out: dict[str, Any] = {
        "game": game, "players": players, "games": games, "rounds": rounds,
        "events": ne,
        "engine_s": round(te, 3), "oracle_s": round(to, 3),
        "engine_us_per_event": round(te / ne * 1e6, 1),
        "oracle_us_per_event": round(to / no * 1e6, 1),
        "engine_over_oracle": round(te / to, 2),
        # each round's own ratio, its two sides run one after the other: how far the
        # machine's noise moves the figure above
        "engine_over_oracle_by_round": sorted(round(r, 2) for r in per_round),
        "index_path_s": round(ti, 3),
        "index_path_over_oracle": round(ti / to, 2),
        "compile_ms": round(compile_seconds(game, players) * 1000, 1),
    }
    if ref is not None:
        out[f"openspiel_{REFERENCE[game]}_us_per_event"] = round(ref[0] / ref[1] * 1e6, 1)
        out["engine_over_openspiel_per_event"] = round((te / ne) / (ref[0] / ref[1]), 1)
    return out


def _child(game: str, players: int, args: argparse.Namespace) -> dict[str, Any]:
    """:func:`compare` for one table, in a fresh Python process."""
    out = subprocess.run(
        [sys.executable, __file__, "--game", game, "--players", str(players), "--games",
         str(args.games), "--seed", str(args.seed), "--rounds", str(args.rounds), "--json"],
        check=True, capture_output=True, text=True)
    runs: list[dict[str, Any]] = json.loads(out.stdout)
    return runs[0]


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", choices=[*ORACLES, "all"], default="all")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", default="all",
                    help="the tables to measure: 'all' (every table the spec offers, the "
                    "default), a number, or numbers separated by commas")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=3,
                    help="turns each side takes; each keeps its fastest (default 3)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--in-process", action="store_true",
                    help="measure every table in this process (by default each table but the "
                    "only one runs in a child process of its own)")
    args = ap.parse_args(argv)
    todo = [(game, p) for game in (list(ORACLES) if args.game == "all" else [args.game])
            for p in tables(game, args.players)]
    runs = []
    for game, p in todo:
        if len(todo) == 1 or args.in_process:
            runs.append(compare(game, p, args.games, args.seed, args.rounds))
        else:
            # one table's caches (thousands of remembered events) would otherwise weigh on
            # the garbage collector for both sides of every table measured after it
            runs.append(_child(game, p, args))
    if args.json:
        print(json.dumps(runs, indent=2))
    else:
        for out in runs:
            for k, v in out.items():
                print(f"{k:38} {v}")
            print()
        print(f"{'game':20} {'players':>7} {'engine/oracle':>14} {'rounds':>12} "
              f"{'index/oracle':>13} {'engine us/event':>16}")
        for out in runs:
            by = out["engine_over_oracle_by_round"]
            print(f"{out['game']:20} {out['players']:>7} {out['engine_over_oracle']:>14} "
                  f"{f'{by[0]}-{by[-1]}':>12} {out['index_path_over_oracle']:>13} "
                  f"{out['engine_us_per_event']:>16}")
        worst = max(runs, key=lambda o: o["engine_over_oracle"])
        print(f"\nworst table: {worst['game']} with {worst['players']} players, "
              f"{worst['engine_over_oracle']}x the oracle's time")
    return runs


def tables(game: str, players: str) -> list[int]:
    """The player counts ``--players`` names for ``game``: every one its spec offers for
    'all', else the numbers given (each checked against the spec)."""
    spec = resolve(game).spec
    offered = list(range(spec.min_players, spec.max_players + 1))
    if players == "all":
        return offered
    try:
        asked = [int(x) for x in players.split(",")]
    except ValueError:
        raise SystemExit(f"--players: 'all' or numbers separated by commas, not "
                         f"{players!r}") from None
    bad = [n for n in asked if n not in offered]
    if bad:
        raise SystemExit(f"--players: {game} is played by {offered[0]} to {offered[-1]}, not "
                         f"{', '.join(map(str, bad))}")
    return asked


if __name__ == "__main__":
    main()
