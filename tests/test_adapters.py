"""The engine adapters (rulespec/adapters/): OpenSpiel's games played in lock step with the
spec, verify through the command line with ``--engine``, known findings, and deliberately
broken variants of each adapter caught with verify's default settings."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulespec.adapters import ENGINES, engine_adapter
from rulespec.adapters.openspiel import (
    CrazyEights,
    Hearts,
    Spades,
    hearts_action,
    hearts_card,
    spades_action,
)
from rulespec.errors import ImplementationStartError, RecordError
from rulespec.lang.cards import pack
from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation
from rulespec.verify.known import load_known
from rulespec.verify.runner import Verifier
from tests.adapters import mutants

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ROOT / "docs" / "findings" / "known"


def settled(adapter: Any, **more: object) -> dict[str, object]:
    """The options ``verify --engine`` sets for an adapter, and ``more``."""
    return {**adapter.fixed, **adapter.usual, **more}


def lockstep(adapter: Any, options: dict[str, object], seed: int, both: bool = False,
             players: int = 4, result: bool = True) -> int:
    """One random match played on the adapter and on the spec at once, checking who moves,
    the legal events and (unless ``result`` is false: a known finding) the result at every
    step; the events played. With ``both``, play only among the events both allow (past a
    known finding)."""
    a, b = adapter(), SpecImplementation()
    a.new(adapter.spec, players, options, seed % players)
    b.new(adapter.spec, players, options, seed % players)
    rng = random.Random(seed)
    n = 0
    while (tm := b.to_move()) is not None:
        assert a.to_move() == tm, n
        la = {json.dumps(e, sort_keys=True) for e in a.legal()}
        lb = {json.dumps(e, sort_keys=True) for e in b.legal()}
        if not both:
            assert la == lb, (n, la ^ lb)
        pool = [e for e in b.legal() if json.dumps(e, sort_keys=True) in la] or b.legal()
        e = rng.choice(pool)
        if e.get("chance") in ("shuffle", "reshuffle"):
            cards = list(e["cards"])
            rng.shuffle(cards)
            e = {**e, "cards": cards}
        a.apply(e)
        b.apply(e)
        n += 1
        if n > 400:
            break
    if not both and result:
        assert a.result() == b.result()
    return n


def test_card_numbering_of_each_game() -> None:
    # hearts numbers rank by rank, spades suit by suit: the same card, two actions
    assert [hearts_card(a) for a in range(4)] == ["2C", "2D", "2H", "2S"]
    assert hearts_action("AS") == 51 and spades_action("AS") == 51
    assert hearts_action("3C") == 4 and spades_action("3C") == 1
    assert sorted(map(hearts_action, pack(1))) == list(range(52))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("rotation", ["random", "no_pass"])
def test_hearts_plays_in_lock_step_with_the_spec(seed: int, rotation: str) -> None:
    opts = settled(Hearts, pass_rotation=rotation)
    if seed % 2:
        opts.update(jd_bonus=True, avoid_all_tricks_bonus=True, can_lead_any_club=True,
                    lead_hearts_over_queen=True, no_points_on_first_trick=False)
    assert lockstep(Hearts, opts, seed) >= 52


@pytest.mark.parametrize("seed", range(2))
def test_hearts_observations_are_the_specs_zones(seed: int) -> None:
    # read off hearts' information state tensor: the seat's hand (with the cards it set aside
    # to pass, until they are received), the other hands' sizes, the trick on the table
    opts = settled(Hearts)
    a, b = Hearts(), SpecImplementation()
    a.new("hearts", 4, opts, seed)
    b.new("hearts", 4, opts, seed)
    rng = random.Random(seed)
    compared = 0
    while b.to_move() is not None:
        if b.to_move() != "chance":
            for q in range(4):
                mine, theirs = a.observe(q)["zones"], b.observe(q)["zones"]
                assert sorted(mine["trick"]) == sorted(theirs["trick"])
                for h, g in zip(mine["hand"], theirs["hand"], strict=True):
                    assert (sorted(h) if isinstance(h, list) else h) == \
                        (sorted(g) if isinstance(g, list) else g)
                compared += 1
        e = rng.choice(b.legal())
        if e.get("chance") == "shuffle":
            e = {**e, "cards": rng.sample(e["cards"], len(e["cards"]))}
        a.apply(e)
        b.apply(e)
    assert compared >= 4 * 52


@pytest.mark.parametrize("seed", range(3))
def test_spades_plays_a_match_in_lock_step_up_to_its_known_findings(seed: int) -> None:
    # spades are never broken in OpenSpiel (openspiel-spades-1): play among the events both
    # allow, and the match goes on deal after deal through set_current_scores
    assert lockstep(Spades, settled(Spades, target=100), seed, both=True) > 56


def test_spades_observations_show_the_seats_hand_and_the_others_sizes() -> None:
    opts = settled(Spades, target=100)
    a, b = Spades(), SpecImplementation()
    a.new("spades", 4, opts, 1)
    b.new("spades", 4, opts, 1)
    rng = random.Random(5)
    compared = 0
    while b.to_move() is not None and compared < 400:
        if b.to_move() != "chance":
            for q in range(4):
                mine, theirs = a.observe(q)["zones"]["hand"], b.observe(q)["zones"]["hand"]
                assert sorted(mine[q]) == sorted(theirs[q])
                assert [h for p, h in enumerate(mine) if p != q] == \
                    [h for p, h in enumerate(theirs) if p != q]
                compared += 1
        la = {json.dumps(e, sort_keys=True) for e in a.legal()}
        pool = [e for e in b.legal() if json.dumps(e, sort_keys=True) in la] or b.legal()
        e = rng.choice(pool)
        if e.get("chance") == "shuffle":
            e = {**e, "cards": rng.sample(e["cards"], 52)}
        a.apply(e)
        b.apply(e)
    assert compared >= 200


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("players", [2, 5, 7])
def test_crazy_eights_plays_in_lock_step_with_the_spec(seed: int, players: int) -> None:
    # every move, turn and end of deal agree; the score differs by a known finding
    # (openspiel-crazy_eights-1), checked apart below
    opts = settled(CrazyEights)
    if seed % 2:
        opts.update(special_cards=True, reshuffle=True, max_draws=2)
    assert lockstep(CrazyEights, opts, seed, players=players, result=False) > 10


def test_crazy_eights_scores_as_the_engine_does_apart_from_its_finding() -> None:
    """The finding's record: the engine's returns charge each card from two to ten its
    action id plus 2; the adapter passes them on as they are."""
    record = json.loads((ROOT / "docs/findings/openspiel-crazy_eights-1.json").read_text())
    a = CrazyEights()
    a.new("crazy-eights", 2, record["options"], 0)
    for e in record["events"]:
        a.apply(e)
    assert a.result()["deals"] == [{"scores": [-162, 0]}]
    with pytest.raises(ValueError, match="plays only"):
        a.new("crazy_eights", 2, {**record["options"], "ace_points": "one"}, 0)
    with pytest.raises(ValueError, match="not 16"):
        a.new("crazy_eights", 16, record["options"], 0)


def test_a_setting_the_engine_cannot_play_is_not_offered() -> None:
    h = Hearts()
    with pytest.raises(ValueError, match="pass direction"):
        h.new("hearts", 4, {"deals": 1, "moon": "add_to_others"}, 0)  # rotate: not offered
    with pytest.raises(ValueError, match="deals=1"):
        h.new("hearts", 4, {"deals": 2}, 0)
    with pytest.raises(ValueError, match="not 'spades'"):
        h.new("spades", 4, {}, 0)


def test_a_refused_event_leaves_the_engine_as_it_was() -> None:
    h = Hearts()
    h.new("hearts", 4, settled(Hearts, pass_rotation="no_pass"), 0)
    h.apply({"chance": "shuffle", "cards": pack(1)})
    seat = h.to_move()
    before = (h.state.history(), h.legal())
    # a card of the hand other than the 2 of clubs may not lead the first trick
    other = next(c for c in pack(1)
                 if {"seat": seat, "action": "play", "card": c} not in h.legal()
                 and hearts_action(c) in h.state.legal_actions() + [51])
    with pytest.raises(ValueError):
        h.apply({"seat": seat, "action": "play", "card": other})
    with pytest.raises(ValueError):
        h.apply({"seat": (int(seat) + 1) % 4, "action": "play", "card": "2C"})
    assert (h.state.history(), h.legal()) == before


def test_an_unknown_engine_is_a_usage_error_with_a_suggestion() -> None:
    with pytest.raises(ImplementationStartError, match="did you mean 'openspiel:hearts'"):
        engine_adapter("openspiel:heart")
    assert all(":" in name for name in ENGINES)


def _verify(factory: Any, game: str, games: int, **opts: object) -> Any:
    spec = resolve(game).spec
    known = KNOWN / f"openspiel-{game}.json"
    v = Verifier(spec, game, factory, timeout=30.0, shrink_seconds=5.0,
                 known=load_known(known) if known.exists() else [])
    return v.run(options=settled(factory, **opts), games=games, seed_=0)


def test_verify_finds_openspiels_hearts_conforming() -> None:
    report = _verify(Hearts, "hearts", 12)
    assert report.conforms and report.matches >= 12


def test_known_findings_are_counted_and_the_search_goes_on() -> None:
    # spades: never broken (known) is met in nearly every deal; the search plays past it
    report = _verify(Spades, "spades", 8, target=200)
    assert report.known.get("openspiel-spades-1", 0) > 0
    assert report.events > 8 * 56


def test_known_file_errors_name_the_file_and_the_fault(tmp_path: Path) -> None:
    bad = tmp_path / "k.json"
    bad.write_text('{"known": [{"id": "x"}]}')
    with pytest.raises(RecordError, match=r"known\[0\] needs an 'id' and a 'kind'"):
        load_known(bad)
    bad.write_text("{")
    with pytest.raises(RecordError, match="not JSON"):
        load_known(bad)
    bad.write_text('{"known": [{"id": "x", "kind": "legal", "message": "("}]}')
    with pytest.raises(RecordError, match="regular expression"):
        load_known(bad)


def test_verify_engine_through_the_command_line(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "rulespec", "verify", "hearts", "--engine",
                          "openspiel:hearts", "-n", "6", "--json"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report["conforms"] and report["matches"] == 6
    assert {s["options"].get("deals") for s in report["settings"]} == {1}
    bad = subprocess.run([sys.executable, "-m", "rulespec", "verify", "hearts", "--engine",
                          "openspiel:nope"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600)
    assert bad.returncode == 2 and "the adapters are:" in bad.stderr


# ---- broken variants: one per game in the default suite, the rest behind the slow marker
CAUGHT = [
    pytest.param(mutants.HeartsUnchecked, "hearts", {"accepted-illegal", "changed-by-illegal"}),
    pytest.param(mutants.SpadesSecondSeatLeads, "spades", {"who-moves"}),
    pytest.param(mutants.CrazyEightsNoRankMatch, "crazy_eights", {"legal"}),
    pytest.param(mutants.CrazyEightsUnchecked, "crazy_eights",
                 {"accepted-illegal", "changed-by-illegal"}, marks=pytest.mark.slow),
    pytest.param(mutants.CrazyEightsTurnSkipsAfterEight, "crazy_eights", {"who-moves"},
                 marks=pytest.mark.slow),
    pytest.param(mutants.SpadesUnchecked, "spades", {"accepted-illegal", "changed-by-illegal"},
                 marks=pytest.mark.slow),
    pytest.param(mutants.HeartsNoHighFollow, "hearts", {"legal"}, marks=pytest.mark.slow),
    pytest.param(mutants.HeartsShowsNextHand, "hearts", {"leak"}, marks=pytest.mark.slow),
    pytest.param(mutants.HeartsQueenCounts12, "hearts", {"result"}, marks=pytest.mark.slow),
    pytest.param(mutants.HeartsSkipsAfterTrick, "hearts", {"who-moves"},
                 marks=pytest.mark.slow),
    pytest.param(mutants.SpadesFailedContractCheaper, "spades", {"result"},
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("mutant", "game", "kinds"), CAUGHT)
def test_a_broken_adapter_is_caught(mutant: Any, game: str, kinds: set[str]) -> None:
    report = _verify(mutant, game, 20)
    assert report.divergences, f"{mutant.__name__} was not caught"
    assert report.divergences[0].kind in kinds, report.divergences[0].message


def test_a_known_finding_can_name_the_event_just_before(tmp_path: Path) -> None:
    # who-moves divergences carry no event: "after" tells them apart by the one before
    from rulespec.verify.report import Divergence

    f = tmp_path / "k.json"
    f.write_text('{"known": [{"id": "rev", "kind": "who-moves", '
                 '"after": {"action": "^play$", "card": "^R"}}]}')
    (k,) = load_known(f)

    def d(last: dict[str, object]) -> Divergence:
        return Divergence("who-moves", "m", 2, 2, {}, 0, [{"chance": "shuffle"}, last])

    assert k.matches(d({"seat": 1, "action": "play", "card": "RG"}))
    assert not k.matches(d({"seat": 1, "action": "play", "card": "5G"}))
    assert not k.matches(d({"seat": 1, "action": "draw"}))


def test_verify_engine_plays_only_the_tables_the_engine_offers(tmp_path: Path) -> None:
    # RLCard's uno is for two: without -p, every match is at two players, none refused
    res = subprocess.run([sys.executable, "-m", "rulespec", "verify", "uno", "--engine",
                          "rlcard:uno", "-n", "3", "--json",
                          "--known", str(KNOWN / "rlcard-uno.json")], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert {s["players"] for s in report["settings"]} == {2}
    assert not any(s["refused"] for s in report["settings"])


def test_an_engine_not_installed_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if open_spiel were not installed
    monkeypatch.delitem(sys.modules, "rulespec.adapters.openspiel_skat", raising=False)
    monkeypatch.delitem(sys.modules, "rulespec.adapters.openspiel", raising=False)
    with pytest.raises(ImplementationStartError, match=r'pip install "rulespec\[engines\]"'):
        engine_adapter("openspiel:skat")
