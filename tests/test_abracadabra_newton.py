"""Newton's Abracadabra on the engine: what the oracle does not play (NEW-5's ascending auction,
the spec's own option), and the shipped name and option values through the command line, from
another folder, as a user types them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulespec.engine.state import State
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve, shipped_games

ROOT = Path(__file__).resolve().parent.parent
SPEC = resolve("abracadabra-newton").spec
GAME = "abracadabra-newton"


def start(players: int, options: dict[str, Any], dealer: int = 0) -> State:
    st = game_for(SPEC, players, options, dealer).new_initial_state()
    shuffle = st.legal_actions()[0]
    st.apply(shuffle)  # the pack in canonical order: any order serves these tests
    return st


def bids_offered(st: State) -> list[int]:
    return sorted({e["tricks"] for e in st.legal_actions() if e["action"] == "bid"})


def test_ascending_auction_bids_must_rise_and_may_pass() -> None:
    st = start(4, {"bidding": "ascending_with_pass"}, dealer=3)
    assert st.to_move == 0 and bids_offered(st) == list(range(0, 14))
    st.apply({"seat": 0, "action": "bid", "tricks": 4})
    assert bids_offered(st) == list(range(5, 14))
    with pytest.raises(IllegalActionError):
        st.apply({"seat": 1, "action": "bid", "tricks": 4})  # not above 4
    st.apply({"seat": 1, "action": "pass"})
    st.apply({"seat": 2, "action": "bid", "tricks": 6})
    st.apply({"seat": 3, "action": "pass"})
    # the highest bidder declares and names nothing (a card is turned up): the show is next
    assert st.to_move == 2 and st.legal_actions()[0]["action"] == "show"
    assert st.v["declarer"] == 2 and st.v["contract"] == 6
    assert st.v["stake"][:4] == [1, 1, 1, 1]  # a pass stakes the ante too


def test_any_order_auction_has_no_pass() -> None:
    st = start(4, {})
    assert {e["action"] for e in st.legal_actions()} == {"bid"}


def test_everyone_passes_abandons_the_deal_and_returns_the_stakes() -> None:
    st = start(3, {"bidding": "ascending_with_pass", "deals": 2}, dealer=0)
    for seat in (1, 2, 0):
        st.apply({"seat": seat, "action": "pass"})
    assert st.deals[-1] == {"scores": [0, 0, 0], "abandoned": True, "money": [0, 0, 0],
                            "pot_carry": 0}
    assert st.to_move == "chance" and st.v["dealer"] == 1  # the next deal, the next dealer


def test_a_passer_names_no_number_under_own_bid() -> None:
    st = start(3, {"bidding": "ascending_with_pass", "success_target": "own_bid",
                   "call_mode": "required"}, dealer=0)
    st.apply({"seat": 1, "action": "pass"})
    st.apply({"seat": 2, "action": "bid", "tricks": 1})
    st.apply({"seat": 0, "action": "pass"})
    # the canonical order leaves the Joker over: turned up, no trumps and nothing to name
    assert st.z["indicator"] == ["JK"] and st.v["trump"] is None
    st.apply({"seat": 2, "action": "show", "cards": []})
    # no call before the first lead: a passer's number is not 0, it is none (NEW-2, NEW-5)
    assert st.legal_actions()[0]["action"] == "play"


def test_the_shipped_name_is_the_one_records_spell() -> None:
    assert GAME in shipped_games()
    assert resolve(GAME).path.name == "abracadabra_newton.rules"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rulespec.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_simulate_records_replay_from_another_folder(tmp_path: Path) -> None:
    out = _cli("simulate", GAME, "-n", "3", "-p", "4", "-o", "stake_mode=free(1, 3)",
               "-o", "deals=2", "--records", str(tmp_path / "recs"), "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert "money" in json.dumps(summary) and "pot_carry" in json.dumps(summary)
    recs = sorted((tmp_path / "recs").glob("*.json"))
    assert len(recs) == 3
    rec = json.loads(recs[0].read_text())
    assert rec["game"] == GAME and rec["options"]["stake_mode"] == "free(1,3)"
    assert any(e.get("action") == "bid" and 1 <= e["stake"] <= 3 for e in rec["events"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = _cli("replay", str(recs[0]), cwd=elsewhere)
    assert again.returncode == 0, again.stdout + again.stderr
    answer = json.loads(again.stdout)
    assert answer["complete"] and len(answer["deals"]) == 2
    for deal in answer["deals"]:
        assert set(deal) >= {"scores", "money", "pot_carry"}


@pytest.mark.parametrize(("value", "says"), [
    ("stake_mode=free(5)", "takes 2 arguments"),
    ("stake_mode=ante(101)", "0..100"),
    ("stake_mode=free(3,1)", "low <= high"),
    ("show_effect=multiply_per_card(0)", "1..10"),
    ("ace_number=13", "ace_number"),
])
def test_bad_option_values_are_usage_errors(tmp_path: Path, value: str, says: str) -> None:
    out = _cli("simulate", GAME, "-n", "1", "-p", "4", "-o", value, cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert says in out.stderr and "Traceback" not in out.stderr
