"""OpenSpiel's skat behind its adapter (rulespec/adapters/openspiel_skat.py): its card numbering,
lock step with the spec under the options the engine plays, verify with default settings, the
settings it cannot play, and broken variants of the adapter caught."""

from __future__ import annotations

import random
import runpy
from pathlib import Path
from typing import Any

import pytest

from rulespec.adapters import engine_adapter
from rulespec.adapters.openspiel_skat import SKAT_PACK, Skat, skat_action, skat_card
from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation
from rulespec.verify.runner import Verifier
from tests.adapters import skat_mutants
from tests.test_adapters import lockstep, settled


def test_skat_numbers_its_cards_suit_by_suit_jacks_last() -> None:
    assert [skat_card(a) for a in (0, 5, 7, 31)] == ["7D", "TD", "JD", "JC"]
    assert sorted(map(skat_action, SKAT_PACK)) == list(range(32))
    assert engine_adapter("openspiel:skat") is Skat


@pytest.mark.parametrize("seed", range(9))
def test_skat_plays_in_lock_step_with_the_spec(seed: int) -> None:
    # every dealer (seed % 3): the engine's player 0 is always the seat on the dealer's left
    assert lockstep(Skat, settled(Skat), seed, players=3) >= 5


@pytest.mark.parametrize("seed", range(3))
def test_skat_observations_are_the_specs_zones(seed: int) -> None:
    # read off skat's observation tensor: the seat's hand, the cards the declarer laid away
    # (the declarer's alone), the trick on the table
    a, b = Skat(), SpecImplementation()
    a.new("skat", 3, settled(Skat), seed)
    b.new("skat", 3, settled(Skat), seed)
    rng = random.Random(seed)
    compared = 0
    while b.to_move() is not None:
        if b.to_move() != "chance":
            for q in range(3):
                mine, theirs = a.observe(q)["zones"], b.observe(q)["zones"]
                for name, zone in mine.items():
                    want = theirs[name]
                    if name == "trick":
                        assert sorted(zone) == sorted(want)
                        continue
                    for x, y in zip(zone, want, strict=True):
                        assert (sorted(x) if isinstance(x, list) else x) == \
                            (sorted(y) if isinstance(y, list) else y)
                compared += 1
        e = rng.choice(b.legal())
        if e.get("chance") == "shuffle":
            e = {**e, "cards": rng.sample(e["cards"], len(e["cards"]))}
        a.apply(e)
        b.apply(e)
    assert compared >= 3


def test_a_setting_skat_cannot_play_is_not_offered() -> None:
    a = Skat()
    for wrong in ({"bidding": "values"}, {"hand_games": True}, {"scoring": "game_value"},
                  {"deals": 2}):
        with pytest.raises(ValueError, match="plays only"):
            a.new("skat", 3, {**settled(Skat), **wrong}, 2)
    with pytest.raises(ValueError, match="not 4"):
        a.new("skat", 4, settled(Skat), 2)


def test_an_announcement_skat_cannot_express_is_refused() -> None:
    a = Skat()
    a.new("skat", 3, settled(Skat), 2)
    a.apply({"chance": "shuffle", "cards": list(SKAT_PACK)})
    before = a.state.history()
    with pytest.raises(ValueError, match="announces nothing"):
        a.apply({"seat": 0, "action": "play_grand", "announce": "schneider"})
    assert a.state.history() == before


def _verify(factory: Any, games: int) -> Any:
    v = Verifier(resolve("skat").spec, "skat", factory, timeout=30.0, shrink_seconds=5.0)
    return v.run(options=settled(factory), games=games, seed_=0)


def test_verify_finds_openspiels_skat_conforming() -> None:
    report = _verify(Skat, 20)
    assert report.conforms and report.matches >= 20


CAUGHT = [
    pytest.param(skat_mutants.SkatNoFollow, {"legal"}),
    pytest.param(skat_mutants.SkatDeclarerHalved, {"result"}, marks=pytest.mark.slow),
    pytest.param(skat_mutants.SkatDeclarerLeads, {"who-moves"}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("mutant", "kinds"), CAUGHT)
def test_a_broken_skat_adapter_is_caught(mutant: Any, kinds: set[str]) -> None:
    report = _verify(mutant, 20)
    assert report.divergences, f"{mutant.__name__} was not caught"
    assert report.divergences[0].kind in kinds, report.divergences[0].message


def test_the_skat_findings_reproduction_still_shows_it() -> None:
    path = Path(__file__).resolve().parent.parent / "docs/findings/openspiel_skat_repro.py"
    repro = runpy.run_path(str(path))
    assert repro["first_lead_shows_null"]()
