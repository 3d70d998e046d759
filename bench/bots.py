"""Bots against random play: each bot's moves a second, and one bot's win rate in seat 0
against random play in the three others, with its 95% Wilson interval, one deal a match.

    python bench/bots.py [--games 100] [--workers 1] [--games-list oh_hell hearts]

The figures of issue 28 (one core of the shared machine, seed 2026): ISMCTS at its defaults
won 0.69 of 100 Oh Hell matches (0.594..0.772) and 0.338 of 100 Hearts matches (0.253..0.436;
its mean points 4.2 against the random seats' 6.2 to 9.2: a single deal of Hearts shares many
wins among seats tied at the lowest score). Greedy at its defaults won 0.643 of 100 Oh Hell
matches (0.546..0.730) and 0.558 of 100 Hearts matches (0.461..0.652). Moves a second: greedy
148, ISMCTS 25 at Oh Hell; 7 and 10 at Hearts (whose pass chooses 3 cards of 13: 286 events).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time

from rulespec.bots import make_bot
from rulespec.loading import game_for, resolve
from rulespec.simulate import sample_event, simulate


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate of ``wins`` in ``n``."""
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return round(mid - half, 3), round(mid + half, 3)


def moves_per_second(game: str, name: str, seconds: float = 5.0) -> dict[str, object]:
    """Seat 0's decisions by bot ``name`` (the others random) until ``seconds`` are spent."""
    g = game_for(resolve(game).spec, 4, {"deals": 1}, 0)
    moves, spent, i = 0, 0.0, 0
    while spent < seconds and i < 20:
        rng, bot = random.Random(i), make_bot(name, 0, random.Random(i), g)
        st = g.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node() or st.current_player() != 0:
                st.apply(sample_event(st.legal_actions(), rng, st.chance_weights))
                continue
            t = time.perf_counter()
            k = bot.act(st, 0)
            spent += time.perf_counter() - t
            moves += 1
            st.apply_index(k)
        i += 1
    return {"game": game, "bot": name, "moves": moves, "moves_per_s": round(moves / spent, 1)}


def win_rate(game: str, name: str, games: int, workers: int) -> dict[str, object]:
    """Seat 0's share of the wins with bot ``name`` against three random seats."""
    t = time.time()
    s = simulate(game, 4, games, seed=2026, options={"deals": 1},
                 bots=[name, "random", "random", "random"], workers=workers)
    w = s.win_rate[0]
    return {"game": game, "bot": name, "games": games, "win": round(w, 3),
            "wilson95": wilson(w * games, games), "others": [round(x, 3) for x in s.win_rate[1:]],
            "secs": round(time.time() - t, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--games-list", nargs="+", default=["oh_hell", "hearts"])
    args = ap.parse_args()
    for game in args.games_list:
        for name in ("random", "greedy", "ismcts"):
            print(json.dumps(moves_per_second(game, name)), flush=True)
        for name in ("ismcts", "greedy"):
            print(json.dumps(win_rate(game, name, args.games, args.workers)), flush=True)


if __name__ == "__main__":
    main()
