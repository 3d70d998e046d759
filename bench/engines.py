"""rulespec's engine against the engines people use, on every game both have, in one run.

    python bench/engines.py [--games 200] [--rounds 3] [--json]

For each engine game that has an adapter (rulespec/adapters/), random playouts at the settings
``verify --engine`` plays (the adapter's fixed options and its engine's defaults), measured side
by side:

- ``rulespec``: the spec's engine through the implementation protocol (legal events listed, one
  picked, applied), as ``rulespec simulate`` and ``verify`` drive it;
- ``index``: the engine's fast path (``legal_count`` and ``apply_index`` at decisions, events only
  for chance), what a learning loop would use;
- ``kernel``: the same fast path on the kernel (``rulespec.engine.kernel``: the table's rules as
  one Python generator, events made only when asked for), where it lowers the table;
- ``typed``: the same fast path on the typed lowering (``rulespec.engine.typed``: the rules as
  one generator over cards as ints and hands as bit sets), where it lowers the table;
- ``engine``: the engine itself driven from Python the way its users do: pyspiel's
  ``legal_actions``/``chance_outcomes``/``apply_action``, or RLCard's game loop.

Each side draws from one generator a run (a chunk of games), as pyspiel's loop does, not one
seeded for each game (a few microseconds a game, a tenth of a deal of euchre). The sides draw
from seeds of their own (the same deal on two sides would let the second find
the first's events remembered), so the games differ from side to side: the
figures are games and events per second, and the ratios are of games per second, and of events
per second (a spec's game may be a whole match where the engine's is one deal, as in spades;
an OpenSpiel deal is a chance event per card where the spec shuffles once, so neither ratio is
the whole story). The sides
take turns in chunks, ``--rounds`` times, each keeping its fastest round, so a busy spell of the
machine weighs on both. Absolute figures depend on the machine; the ratios are the figures to
watch.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/playouts.py

from playouts import fast_games, pyspiel_playouts  # noqa: E402

from rulespec.adapters import ENGINES, engine_adapter  # noqa: E402
from rulespec.loading import game_for, resolve  # noqa: E402
from rulespec.protocol import SpecImplementation  # noqa: E402
from rulespec.simulate import sample_event  # noqa: E402

#: games each side plays before the next takes its turn within a round: long enough that a
#: side runs warm, as a user's loop runs one engine (at 10 games a turn the five sides took
#: turns every millisecond or so, and the Python sides lost to the others' use of the
#: processor's caches: typed euchre 0.853 of pyspiel at 10, 0.975 at 100, one run each, the
#: same code; pyspiel's own figure moved 2%), short enough that a busy spell of the machine
#: still weighs on every side
CHUNK = 100


def settings_of(name: str) -> tuple[str, int, dict[str, Any], Any]:
    """The spec, table size, options and adapter class of an engine game: the adapter's
    settings, and where one of the engine's states plays less than the spec's game (OpenSpiel's
    spades: a single deal, not the match), the options that make the spec's game the same
    (``playout_options``), so that a game is the same game on both sides."""
    adapter = engine_adapter(name)
    players = getattr(adapter, "players", (4,))[0]
    options = {**adapter.fixed, **adapter.usual, **getattr(adapter, "playout_options", {})}
    return adapter.spec, players, options, adapter


def rulespec_games(spec: str, players: int, options: Mapping[str, Any], games: int,
                   seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` playouts through the protocol."""
    events = 0
    start = time.perf_counter()
    for i in range(games):
        impl = SpecImplementation()
        impl.new(spec, players, dict(options), i % players)
        rng = random.Random(seed * 100_003 + i)
        while impl.to_move() is not None:
            impl.apply(sample_event(impl.legal(), rng))
            events += 1
    return time.perf_counter() - start, events


def index_games(spec: str, players: int, options: Mapping[str, Any], games: int,
                seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` playouts through the engine's fast path, the dealer
    turning round game by game."""
    g = [game_for(resolve(spec).spec, players, options, d) for d in range(players)]
    return fast_games(lambda i: g[i % players].new_initial_state(), games, seed,
                      per_game=False)


def _lowering(kind: str) -> tuple[Any, type[Exception]]:
    """The class that lowers a game for the ``kernel`` or ``typed`` side, and what it raises
    where it does not cover a table."""
    if kind == "kernel":
        from rulespec.engine.kernel import KernelGame, Unsupported

        return KernelGame, Unsupported
    from rulespec.engine.typed import TypedGame
    from rulespec.engine.typed import Unsupported as TypedUnsupported

    return TypedGame, TypedUnsupported


def lowered_games(kind: str, spec: str, players: int, options: Mapping[str, Any], games: int,
                  seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` playouts on the kernel or the typed lowering
    (``kind``), the same loop as the index side's (``fast_games``); each table lowered once
    a process, as the index side's is compiled once."""
    key = (kind, spec, players, json.dumps(dict(options), sort_keys=True))
    g = _LOWERED.get(key)
    if g is None:
        make = _lowering(kind)[0]
        g = _LOWERED[key] = [make(game_for(resolve(spec).spec, players, options, d))
                             for d in range(players)]
    return fast_games(lambda i: g[i % players].new_initial_state(), games, seed,  # type: ignore[arg-type, return-value]
                      per_game=False)


def kernel_games(spec: str, players: int, options: Mapping[str, Any], games: int,
                 seed: int) -> tuple[float, int]:
    """:func:`lowered_games` on the kernel."""
    return lowered_games("kernel", spec, players, options, games, seed)


def typed_games(spec: str, players: int, options: Mapping[str, Any], games: int,
                seed: int) -> tuple[float, int]:
    """:func:`lowered_games` on the typed lowering."""
    return lowered_games("typed", spec, players, options, games, seed)


#: the kernel's and the typed side's tables, lowered once (see lowered_games)
_LOWERED: dict[tuple[str, str, int, str], list[Any]] = {}


def lowers(spec: str, players: int, options: Mapping[str, Any], kind: str = "kernel") -> bool:
    """Whether the kernel (or the typed lowering, ``kind``) lowers the table."""
    make, unsupported = _lowering(kind)
    try:
        make(game_for(resolve(spec).spec, players, options, 0))
    except unsupported:
        return False
    return True


def typed_lowers(spec: str, players: int, options: Mapping[str, Any]) -> bool:
    """Whether the typed lowering covers the table."""
    return lowers(spec, players, options, "typed")


def engine_games(adapter: Any, players: int, options: Mapping[str, Any], games: int,
                 seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` playouts of the engine itself, from Python: the
    adapter's own loop (``playouts``) where it has one, else pyspiel's API on the game the
    adapter loads."""
    own: Callable[..., tuple[float, int]] | None = getattr(adapter, "playouts", None)
    if own is not None:
        return own(players, options, games, seed)
    if adapter.__module__.startswith("rulespec.adapters.rlcard"):
        return rlcard_games(adapter, games, seed)
    a = adapter()
    # the engine's game as the adapter loads it (the adapter's own options: one state is
    # the single deal that ``playout_options`` gives the spec's side)
    own_options = {k: v for k, v in options.items()
                   if k not in getattr(adapter, "playout_options", {})}
    a.new(adapter.spec, players, own_options, 0)
    return pyspiel_playouts(a.state.get_game(), games, seed)


def rlcard_games(adapter: Any, games: int, seed: int) -> tuple[float, int]:
    """Seconds and steps of ``games`` random games of RLCard's environment, driven as its
    users drive it: ``reset``, then ``step`` with a random legal action id until it is over
    (RLCard draws its own chance; a step is a decision)."""
    import rlcard

    # the environment of the game: its own name where the adapter gives one
    env = rlcard.make(getattr(adapter, "environment", adapter.spec), config={"seed": seed})
    rng = random.Random(seed)
    events = 0
    start = time.perf_counter()
    for _ in range(games):
        state, _player = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _player = env.step(legal[rng.randrange(len(legal))])
            events += 1
    return time.perf_counter() - start, events


def compare(name: str, games: int, seed: int, rounds: int) -> dict[str, Any]:
    """The three sides of one engine game, taking turns; each keeps its fastest round."""
    spec, players, options, adapter = settings_of(name)
    sides: dict[str, Callable[[int, int], tuple[float, int]]] = {
        "rulespec": lambda n, s: rulespec_games(spec, players, options, n, s),
        "index": lambda n, s: index_games(spec, players, options, n, s),
        "engine": lambda n, s: engine_games(adapter, players, options, n, s),
    }
    if lowers(spec, players, options):
        sides["kernel"] = lambda n, s: kernel_games(spec, players, options, n, s)
    if typed_lowers(spec, players, options):
        sides["typed"] = lambda n, s: typed_games(spec, players, options, n, s)
    for k, run in enumerate(sides.values()):
        run(2, seed + 99 + 10**6 * k)  # warm: the engine compiles its tables once
    best = {k: (float("inf"), 0) for k in sides}
    for r in range(rounds):
        took = {k: [0.0, 0] for k in sides}
        for k, first in enumerate(range(0, games, CHUNK)):
            n = min(CHUNK, games - first)
            order = list(sides) if k % 2 == 0 else list(reversed(sides))
            for side in order:
                # each side its own seeds: the same deal on two sides would let the second
                # find the first's events remembered (the engine keys them by hand)
                t, e = sides[side](n, seed + 1000 * r + first + 10**6 * list(sides).index(side))
                took[side][0] += t
                took[side][1] += e
        for side, (t, e) in took.items():
            if t < best[side][0]:
                best[side] = (t, int(e))
    out: dict[str, Any] = {"engine_game": name, "spec": spec, "players": players,
                           "options": options, "games": games, "rounds": rounds}
    for side, (t, e) in best.items():
        out[f"{side}_games_per_s"] = round(games / t, 1)
        out[f"{side}_events_per_s"] = round(e / t)
    out["rulespec_over_engine"] = round(out["rulespec_games_per_s"]
                                        / out["engine_games_per_s"], 3)
    out["index_over_engine"] = round(out["index_games_per_s"] / out["engine_games_per_s"], 3)
    if "kernel" in sides:
        out["kernel_over_engine"] = round(out["kernel_games_per_s"]
                                          / out["engine_games_per_s"], 3)
        out["kernel_over_index"] = round(out["kernel_games_per_s"] / out["index_games_per_s"], 3)
    if "typed" in sides:
        out["typed_over_engine"] = round(out["typed_games_per_s"]
                                         / out["engine_games_per_s"], 3)
    # per event: a spec's game may be a whole match where the engine's is one deal (spades),
    # and an engine may deal a card per chance event where the spec shuffles once
    out["rulespec_over_engine_per_event"] = round(out["rulespec_events_per_s"]
                                                  / out["engine_events_per_s"], 3)
    return out


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--engine", action="append", default=None,
                    help="only this engine game (repeatable; default: every adapter)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--default-gc", action="store_true",
                    help="leave Python's collector at its defaults (the command line sets the "
                         "young generation's threshold to cli.GC_YOUNG, as this bench does "
                         "by default, for every side alike)")
    args = ap.parse_args(argv)
    if not args.default_gc:
        import gc

        from rulespec.cli import GC_YOUNG

        gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    names = args.engine or sorted(ENGINES)
    results = [compare(n, args.games, args.seed, args.rounds) for n in names]
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(f"{'engine game':24} {'rulespec g/s':>12} {'index g/s':>10} {'engine g/s':>11} "
              f"{'rulespec/engine':>16} {'index/engine':>13} {'per event':>10} "
              f"{'kernel/engine':>14} {'kernel/index':>13} {'typed/engine':>13}")
        for r in results:
            print(f"{r['engine_game']:24} {r['rulespec_games_per_s']:>12} "
                  f"{r['index_games_per_s']:>10} {r['engine_games_per_s']:>11} "
                  f"{r['rulespec_over_engine']:>16} {r['index_over_engine']:>13} "
                  f"{r['rulespec_over_engine_per_event']:>10} "
                  f"{r.get('kernel_over_engine', '-'):>14} {r.get('kernel_over_index', '-'):>13} "
                  f"{r.get('typed_over_engine', '-'):>13}")
    return results


if __name__ == "__main__":
    main()
