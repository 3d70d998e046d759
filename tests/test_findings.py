"""docs/findings.md: each reproduction with the engine alone still shows what the finding says,
and each finding's record replays."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from typing import Any

import pytest

from rulespec.records import replay
from tests import modules

FINDINGS = Path(__file__).resolve().parent.parent / "docs" / "findings"


def _module(name: str) -> object:
    return modules.load(FINDINGS / f"{name}.py", name)


@pytest.mark.parametrize("finding", ["never_broken", "mercy_on_deal_score",
                                     "bags_from_negative_score"])
def test_openspiel_spades_reproductions_show_the_finding(finding: str) -> None:
    assert getattr(_module("openspiel_spades_repro"), finding)()


def test_openspiel_crazy_eights_reproduction_shows_the_finding() -> None:
    repro: Any = _module("openspiel_crazy_eights_repro")
    assert repro.penalty_by_action_id()


@pytest.mark.parametrize("finding", ["reverse_with_two_players", "first_draw_two_does_not_skip",
                                     "drawn_wild_draw_four_has_no_effect",
                                     "reshuffle_keeps_the_top_card"])
def test_rlcard_uno_reproductions_show_the_finding(finding: str) -> None:
    assert getattr(_module("rlcard_uno_repro"), finding)()


@pytest.mark.parametrize("finding", ["repeated_upcard_ends_hand", "tie_scores_zero",
                                     "third_layoff_not_offered"])
def test_openspiel_gin_rummy_reproductions_show_the_finding(finding: str) -> None:
    assert getattr(_module("openspiel_gin_rummy_repro"), finding)()


@pytest.mark.parametrize("finding", ["deals_eleven_cards", "knock_with_picked_up_card",
                                     "gin_with_picked_up_card", "gin_chooses_discard",
                                     "move_limit_dead_hand"])
def test_rlcard_gin_rummy_reproductions_show_the_finding(finding: str) -> None:
    assert getattr(_module("rlcard_gin_rummy_repro"), finding)()


@pytest.mark.parametrize("record", sorted(p.name for p in FINDINGS.glob("*.json")))
def test_each_findings_record_replays(record: str) -> None:
    data = json.loads((FINDINGS / record).read_text(encoding="utf-8"))
    code, answer = replay(data)
    assert code == 0 and answer["ok"] is True


def test_openspiel_euchre_reproduction_shows_it(capsys: pytest.CaptureFixture[str]) -> None:
    # a script of the engine's own actions, asserting what it shows
    runpy.run_path(str(FINDINGS / "openspiel_euchre_repro.py"), run_name="__main__")
    assert "tricks taken by the makers: 0" in capsys.readouterr().out
