"""The tutorial's finished spec (examples/crazy_eights.rules) checks and plays at every table
size it allows, through the same simulate path a user runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.simulate import simulate

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "crazy_eights.rules"


@pytest.mark.parametrize("players", range(2, 8))
def test_crazy_eights_plays_to_the_end(players: int) -> None:
    summary = simulate(str(EXAMPLE), players, games=15, seed=players, options={"deals": 2})
    assert summary.games == 15 and summary.mean_deals == 2
    assert sum(summary.win_rate) == pytest.approx(1.0)
    assert summary.mean_actions["play"] > 0 and summary.mean_chances["shuffle"] == 2


def test_crazy_eights_refuses_an_impossible_table() -> None:
    from rulespec.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="pack must deal every hand"):
        simulate(str(EXAMPLE), 7, games=1, options={"hand_size": 8})
