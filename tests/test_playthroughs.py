"""Golden playthroughs: seeded random games of each shipped game, committed as records with
their results. A change to a spec or the engine that alters play shows up here as a diff;
regenerate on purpose with ``python tests/test_playthroughs.py``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent / "playthroughs"
CASES: list[tuple[str, str, int, dict[str, Any], int]] = [
    ("vandatta-3p", "vandatta", 3, {"deals": 2}, 11),
    ("vandatta-8p-two-packs", "vandatta", 8, {}, 12),
    ("vandatta-4p-variants", "vandatta", 4,
     {"ace_on_ace": False, "lappen_penalty_trigger": "both", "scoring": "swedish"}, 13),
    ("abracadabra-4p", "abracadabra", 4, {}, 21),
    ("abracadabra-3p-no-joker", "abracadabra", 3, {"three_player_joker": False}, 22),
    ("abracadabra-2p-dummy", "abracadabra", 2, {"dummy": True, "deals": 2}, 23),
]


def make(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    from rulespec.loading import game_for, load_game_spec, resolve_game
    from rulespec.records import FORMAT
    from rulespec.simulate import game_rng, play_random_game

    state = game_for(load_game_spec(resolve_game(game)), players, options, 0) \
        .new_initial_state()
    _, events = play_random_game(state, game_rng(seed, 0), keep_events=True)
    return {"record": {"format": FORMAT, "game": game, "players": players, "options": options,
                       "dealer": 0, "events": events},
            "result": state.result()}


@pytest.mark.parametrize("name,game,players,options,seed", CASES, ids=[c[0] for c in CASES])
def test_playthrough_is_unchanged(name: str, game: str, players: int,
                                  options: dict[str, Any], seed: int) -> None:
    from rulespec.records import replay

    golden = json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))
    assert make(game, players, options, seed) == golden
    code, answer = replay(golden["record"])
    assert code == 0 and answer == golden["result"]


if __name__ == "__main__":  # regenerate
    sys.path.insert(0, str(HERE.parent.parent))
    for name, game, players, options, seed in CASES:
        data = make(game, players, options, seed)
        (HERE / f"{name}.json").write_text(json.dumps(data) + "\n", encoding="utf-8")
        print(name, len(data["record"]["events"]), "events")
