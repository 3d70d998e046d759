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
    ("abracadabra-newton-4p", "abracadabra-newton", 4, {"deals": 3}, 31),
    ("abracadabra-newton-4p-variants", "abracadabra-newton", 4,
     {"call_mode": "required", "stake_mode": "free(1,3)", "show_effect": "multiply_per_card(2)",
      "joker_mode": "suitless_top", "pot_recipients": "most_tricks", "target": 40}, 32),
    ("abracadabra-newton-3p", "abracadabra-newton", 3, {"deals": 2}, 33),
    ("abracadabra-newton-3p-no-joker", "abracadabra-newton", 3, {"three_player_joker": False}, 34),
    ("abracadabra-newton-2p-dummy", "abracadabra-newton", 2,
     {"dummy": True, "dummy_after_win": "dummy_leads_by_last_controller", "deals": 2}, 35),
    ("abracadabra-newton-2p", "abracadabra-newton", 2, {"deals": 2}, 36),
    ("hearts-4p", "hearts", 4, {"deals": 4}, 41),
    ("hearts-4p-openspiel", "hearts", 4,
     {"pass_rotation": "random", "qs_breaks_hearts": True, "moon": "add_to_others",
      "deals": 2}, 42),
    ("uno-4p", "uno", 4, {"deals": 1}, 60),
    ("uno-2p-rlcard", "uno", 2,
     {"draw_four_when": "nothing_else", "challenge": False, "draw_instead": False,
      "drawn_card": "auto", "first_wild": "random", "first_dealer": "given",
      "scoring": "win_loss", "deals": 1}, 52),
    ("spades-4p", "spades", 4, {"deals": 3}, 51),
    ("spades-4p-openspiel", "spades", 4,
     {"deals": 1, "first_dealer": "given", "mercy_rule": True, "end_bonus": 200,
      "failed_nil_tricks": "count_for_partner", "bid_cap": True, "tie": "shared",
      "blind_nil": False}, 52),
    ("spades-4p-blind-nil", "spades", 4, {"deals": 3, "blind_nil": True, "blind_nil_margin": 0},
     53),
    ("gin-rummy-2p", "gin_rummy", 2, {"deals": 2}, 80),
    ("gin-rummy-2p-openspiel", "gin_rummy", 2,
     {"deals": 1, "first_dealer": "given", "discard_taken": True,
      "stock_end": "upcard_to_knock", "deal_score": "zero_sum"}, 81),
    ("gin-rummy-2p-rlcard", "gin_rummy", 2,
     {"deals": 1, "first_upcard": "plain", "stock_end": "upcard", "layoffs": False,
      "lay_down": "best"}, 82),
    ("whist-4p", "whist", 4, {}, 71),
    ("whist-4p-american", "whist", 4, {"target": 7, "honours": False}, 72),
    ("euchre-4p", "euchre", 4, {}, 61),
    ("euchre-4p-openspiel", "euchre", 4,
     {"deals": 3, "stick_the_dealer": True, "dealer_discard": "not_turned", "super_euchre": True,
      "lone_defender": "always"}, 62),
    ("crazy-eights-4p", "crazy_eights", 4, {"deals": 2}, 70),
    ("crazy-eights-5p-openspiel", "crazy_eights", 5,
     {"draw_at_will": True, "max_draws": 5, "pass_at_will": True, "reshuffle": False,
      "scoring": "minus_penalty", "ace_points": "ten", "deals": 1, "special_cards": False,
      "two_packs_from": 6, "max_plays": 100, "first_eight": "bury", "block_passes": "one_more"},
     71),
    ("crazy-eights-3p-special", "crazy_eights", 3,
     {"special_cards": True, "reshuffle": True, "scoring": "winner_collects", "max_draws": 1,
      "deals": 2}, 72),
    ("oh-hell-4p", "oh-hell", 4, {}, 70),
    ("oh-hell-3p-openspiel", "oh-hell", 3,
     {"sequence": "random", "largest": "turn_up", "deals": 1, "scoring": "tricks_and_bonus"},
     71),
    ("oh-hell-5p-variants", "oh-hell", 5,
     {"sequence": "up_down", "largest": "given(4)", "scoring": "exact_only", "hook": False,
      "tie": "play_on", "pack_suits": 3, "pack_ranks": 9}, 72),
    ("skat-3p", "skat", 3, {"deals": 3}, 81),
    ("skat-3p-openspiel", "skat", 3,
     {"bidding": "first_game", "hand_games": False, "open_games": False,
      "scoring": "card_points", "deals": 1, "first_dealer": "given"}, 88),
]


def make(game: str, players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    from rulespec.loading import game_for, resolve
    from rulespec.records import FORMAT
    from rulespec.simulate import game_rng, play_random_game

    state = game_for(resolve(game).spec, players, options, 0) \
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
    oracle = ORACLES.get(game)
    if oracle is not None:  # the independent witness reaches the same result from the record
        o = oracle()
        rec = golden["record"]
        o.new(game, players, dict(options), rec["dealer"])
        for ev in rec["events"]:
            o.apply(ev)
        got = o.result()
        assert {k: got[k] for k in ("complete", "deals", "totals", "winners")} == \
            {k: golden["result"][k] for k in ("complete", "deals", "totals", "winners")}


def _oracles() -> dict[str, Any]:
    from tests.oracles.abracadabra import AbracadabraOracle
    from tests.oracles.abracadabra_newton import AbracadabraNewtonOracle
    from tests.oracles.vandatta import VandattaOracle

    return {"vandatta": VandattaOracle, "abracadabra": AbracadabraOracle,
            "abracadabra-newton": AbracadabraNewtonOracle}


ORACLES = _oracles()


if __name__ == "__main__":  # regenerate
    sys.path.insert(0, str(HERE.parent.parent))
    for name, game, players, options, seed in CASES:
        data = make(game, players, options, seed)
        (HERE / f"{name}.json").write_text(json.dumps(data) + "\n", encoding="utf-8")
        print(name, len(data["record"]["events"]), "events")
