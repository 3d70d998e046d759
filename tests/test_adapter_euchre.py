"""OpenSpiel's euchre through its adapter (rulespec/adapters/openspiel_euchre.py): the mapping
of cards, bids and the deal; verify with default settings finds nothing but the known finding
(no super-euchre, docs/findings/openspiel-euchre-1.json); and the broken variants of
tests/adapters/mutants_euchre.py are caught (one in the default suite, the others slow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.adapters.openspiel_euchre import (
    EUCHRE_PACK,
    Euchre,
    euchre_action,
    euchre_card,
)
from rulespec.cli import main
from rulespec.records import replay

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ROOT / "docs" / "findings" / "known" / "openspiel-euchre.json"
FINDING = ROOT / "docs" / "findings" / "openspiel-euchre-1.json"


def test_cards_are_numbered_rank_by_rank() -> None:
    assert [euchre_card(a) for a in range(4)] == ["9C", "9D", "9H", "9S"]
    assert euchre_card(8) == "JC" and euchre_card(23) == "AS"
    assert sorted(euchre_action(c) for c in EUCHRE_PACK) == list(range(24))


def test_the_deal_and_the_bidding_map_to_the_engines_actions() -> None:
    a = Euchre()
    a.new("euchre", 4, {**Euchre.fixed, **Euchre.usual}, 0)
    assert a.legal() == [{"chance": "pick", "value": v} for v in range(4)]
    a.apply({"chance": "pick", "value": 2})
    a.apply({"chance": "shuffle", "cards": list(EUCHRE_PACK)})
    st: Any = a.state
    # the spec deals two then three from the dealer's left: seat 3 gets 9C TC, then JD QD KD
    holder = st.card_holder()
    assert [euchre_card(c) for c in range(24) if holder[c] == 3] == sorted(
        ["9C", "TC", "JD", "QD", "KD"], key=euchre_action)
    assert euchre_card(st.upcard()) == "JS"  # the 21st card
    assert a.to_move() == 3
    assert {e["action"] for e in a.legal()} == {"order_up", "pass"}
    with pytest.raises(ValueError):
        a.apply({"seat": 3, "action": "name", "suit": "S"})  # no naming in the first round
    for q in (3, 0, 1, 2):
        a.apply({"seat": q, "action": "pass"})
    names = {e.get("suit") for e in a.legal() if e["action"] == "name"}
    assert names == {"C", "D", "H"}


def test_the_known_finding_replays_and_the_engine_scores_it_two() -> None:
    record = json.loads(FINDING.read_text(encoding="utf-8"))
    code, spec_answer = replay(record)
    assert code == 0 and spec_answer["team_totals"] == [4, 0]
    a = Euchre()
    a.new("euchre", 4, record["options"], record["dealer"])
    for ev in record["events"]:
        a.apply(ev)
    assert a.result()["team_totals"] == [2, 0]


def run_verify(impl: list[str], games: int, tmp: Path) -> tuple[int, dict[str, Any]]:
    opts = [x for k, v in {**Euchre.fixed, **Euchre.usual}.items()
            for x in ("-o", f"{k}={str(v).lower() if isinstance(v, bool) else v}")]
    # euchre's findings only: a known finding names no game, so another game's (a legal
    # divergence of 'play' in spades) would hide a broken follow rule here
    known = tmp / "known.json"
    mine = [k for k in json.loads(KNOWN.read_text(encoding="utf-8"))["known"]
            if k["id"].startswith("openspiel-euchre-")]
    known.write_text(json.dumps({"known": mine}), encoding="utf-8")
    out = CliRunner().invoke(main, ["verify", "euchre", *impl, *opts, "-n", str(games),
                                    "--known", str(known), "--json",
                                    "--out", str(tmp / "divergence.json")])
    return out.exit_code, json.loads(out.output)


def test_the_engine_conforms_but_for_the_known_finding(tmp_path: Path) -> None:
    code, report = run_verify(["--engine", "openspiel:euchre"], 12, tmp_path)
    assert code == 0, report


MUTANTS = ["EuchreUnchecked", "EuchreMustTrump", "EuchreMarchScoresOne", "EuchreSkipsAfterTrick"]


@pytest.mark.parametrize("name", [
    pytest.param(m, marks=[] if m == "EuchreMustTrump" else [pytest.mark.slow])
    for m in MUTANTS])
def test_a_broken_adapter_is_caught(name: str, tmp_path: Path) -> None:
    code, report = run_verify(["--python", f"tests.adapters.mutants_euchre:{name}"], 30,
                              tmp_path)
    assert code == 1, report
