"""Deal results beyond scores: ``result NAME: TYPE [per player] = INIT`` (issue 8).

tests/specs/ok/deal_results.rules has a per-player field (``money``) and a shared one
(``pot_carry``); the deal sets both, and the match block pays the unclaimed pot into the last
deal's ``money`` after its ``run deal``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.protocol import SpecImplementation
from rulespec.simulate import simulate
from rulespec.verify.compare import compare_answers
from rulespec.verify.runner import Verifier

SPEC_PATH = Path(__file__).parent / "specs" / "ok" / "deal_results.rules"
SPEC = check_file(SPEC_PATH)


def _play(players: int, choices: list[str], deals: int = 3) -> State:
    """Play a match taking the named decisions in order (every shuffle leaves the pack)."""
    st = Game(SPEC, players, {"deals": deals}).new_initial_state()
    todo = list(choices)
    while not st.is_terminal():
        legal = st.legal_actions()
        if st.is_chance_node():
            st.apply(legal[0])
        else:
            st.apply(next(e for e in legal if e["action"] == todo[0]))
            todo.pop(0)
    return st


def _expected(players: int, choices: list[str]) -> list[dict[str, Any]]:
    """What the rules say, worked out by hand: the deal's taker is left of the dealer."""
    out = []
    pot = 0
    for k, c in enumerate(choices):
        money = [0] * players
        taker = (k + 1) % players
        if c == "take":
            money[taker] += 2
            pot += 1
        else:
            pot += 2
        out.append({"scores": [1] * players, "money": money, "pot_carry": pot})
    out[-1]["money"][0] += pot  # the match block's payout, after the last deal ended
    return out


def test_the_spec_declares_its_result_fields() -> None:
    assert [(r.name, r.per_player) for r in SPEC.results] == [("money", True),
                                                              ("pot_carry", False)]
    assert [v.name for v in SPEC.vars] == ["pot"]  # a result field is not an ordinary var
    tree = parse(SPEC_PATH.read_text())
    assert parse(pretty(tree)) == tree


def test_each_deal_carries_its_fields_reset_and_paid_out() -> None:
    choices = ["take", "leave", "take"]
    st = _play(3, choices)
    res = st.result()
    assert res["complete"]
    assert res["deals"] == _expected(3, choices)
    # the per-player field lists the real players only
    assert all(len(d["money"]) == 3 for d in res["deals"])


def test_the_last_entry_follows_the_match_block_until_the_next_deal() -> None:
    st = Game(SPEC, 2, {"deals": 2}).new_initial_state()
    seen: list[dict[str, Any]] = []
    while not st.is_terminal():
        legal = st.legal_actions()
        if not st.is_chance_node() and st.deals:
            # the second deal is being played: the first entry is final
            seen.append(st.result()["deals"][0])
        st.apply(next((e for e in legal if e.get("action") == "take"), legal[0]))
    assert seen and all(d == {"scores": [1, 1], "money": [0, 2], "pot_carry": 1} for d in seen)
    assert st.result()["deals"][-1] == {"scores": [1, 1], "money": [2 + 2, 0], "pot_carry": 2}


def test_a_clone_is_independent() -> None:
    st = Game(SPEC, 2, {"deals": 2}).new_initial_state()
    while not st.deals:
        legal = st.legal_actions()
        st.apply(next((e for e in legal if e.get("action") == "take"), legal[0]))
    c = st.clone()
    for s, choice in ((st, "take"), (c, "leave")):
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(next((e for e in legal if e.get("action") == choice), legal[0]))
    assert st.result()["deals"][1] == {"scores": [1, 1], "money": [2 + 2, 0], "pot_carry": 2}
    assert c.result()["deals"][1] == {"scores": [1, 1], "money": [3, 0], "pot_carry": 3}
    assert st.result()["deals"][0] == c.result()["deals"][0] == \
        {"scores": [1, 1], "money": [0, 2], "pot_carry": 1}


def test_a_spec_without_results_keeps_its_entries() -> None:
    text = SPEC_PATH.read_text()
    for line in ("result money", "result pot_carry", "set money", "set pot_carry"):
        text = "\n".join(x for x in text.splitlines() if not x.strip().startswith(line))
    plain = check_text(text)
    st = Game(plain, 2).new_initial_state()
    rng = random.Random(0)
    while not st.is_terminal():
        st.apply(rng.choice(st.legal_actions()))
    assert all(set(d) == {"scores"} for d in st.result()["deals"])


def test_simulate_records_replay_with_the_same_answer(tmp_path: Path) -> None:
    rec = tmp_path / "recs"
    summary = simulate(str(SPEC_PATH), 3, 4, seed=1, records=rec)
    assert set(summary.mean_result_totals) == {"money"}
    assert len(summary.mean_result_totals["money"]) == 3
    assert set(summary.mean_result_per_deal) == {"pot_carry"}
    assert "mean_result_totals" in summary.to_json()
    runner = CliRunner()
    for path in sorted(rec.glob("*.json")):
        record = json.loads(path.read_text())
        st = Game(SPEC, 3).new_initial_state()
        for ev in record["events"]:
            st.apply(ev)
        out = runner.invoke(main, ["replay", str(path)])
        assert out.exit_code == 0, out.output
        answer = json.loads(out.output)
        assert answer == json.loads(json.dumps(st.result()))
        assert all("money" in d and "pot_carry" in d for d in answer["deals"])
    shown = runner.invoke(main, ["simulate", str(SPEC_PATH), "-p", "2", "-n", "3"])
    assert shown.exit_code == 0, shown.output
    assert "mean money" in shown.output and "mean pot_carry per deal" in shown.output


def test_a_plain_spec_summary_has_no_result_keys() -> None:
    summary = simulate("vandatta", 3, 1, seed=0)
    js = summary.to_json()
    assert "mean_result_totals" not in js and "mean_result_per_deal" not in js


class WrongMoney(SpecImplementation):
    """The spec's own engine, except that it pays the last deal's pot to seat 1, not seat 0."""

    def result(self) -> dict[str, object]:
        ans = super().result()
        deals: Any = ans["deals"]
        if ans["complete"] and deals:
            money = deals[-1]["money"]
            money[0], money[1] = money[1], money[0]
        return ans


def test_a_wrong_money_is_a_result_divergence() -> None:
    a = {"ok": True, "complete": True, "totals": [1, 1], "winners": [0, 1],
         "deals": [{"scores": [1, 1], "money": [0, 2], "pot_carry": 1}]}
    b = {**a, "deals": [{"scores": [1, 1], "money": [2, 0], "pot_carry": 1}]}
    assert compare_answers(a, b) == ["deal 1 money: spec [0, 2], implementation [2, 0]"]
    report = Verifier(SPEC, "deal_results", lambda: WrongMoney(spec=SPEC), timeout=10.0,
                      shrink_seconds=2.0).run(players=[2], games=20, seed_=0)
    assert report.divergences
    assert any("money" in d.message for d in report.divergences), \
        [d.message for d in report.divergences]
    ok = Verifier(SPEC, "deal_results", lambda: SpecImplementation(spec=SPEC), timeout=10.0,
                  shrink_seconds=2.0).run(players=[2], games=10, seed_=0)
    assert not ok.divergences
