"""The RLCard uno adapter (rulespec/adapters/rlcard.py): random matches played on RLCard and
on the spec in lock step, up to the first divergence, which must be one of RLCard's known
findings (docs/findings.md); verify through the command line with ``--engine rlcard:uno``;
deliberately broken variants of the adapter caught."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulespec.adapters import engine_adapter
from rulespec.adapters.rlcard import SteeredRandom, Uno, uno_action, uno_action_name, uno_code
from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation
from rulespec.records import replay
from tests.adapters import rlcard_mutants

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ROOT / "docs" / "findings" / "known" / "rlcard-uno.json"
PACK = list(resolve("uno").spec.deck.one_pack)
#: the 14 cards dealt to two players, then the card turned up
TURNED = 14


def trigger(a: Uno, e: dict[str, Any]) -> str:
    """The known finding the event ``e`` may meet on RLCard, judged before it is applied:
    a Reverse played (or drawn and played) by one of two players, a Draw Two turned up to
    start, a Wild Draw Four drawn, a draw from an empty pile (a reshuffle)."""
    if e.get("chance") == "shuffle":
        # the card turned up: after the deal, or on top of the pack shuffled again when a
        # Wild Draw Four was turned up
        turned = e["cards"][TURNED if len(e["cards"]) == len(PACK) else 0]
        return "rlcard-uno-2" if turned.startswith("D") else ""
    if "chance" in e:
        return ""
    game = a.env.game
    deck, top = game.dealer.deck, game.round.target
    card = e.get("card")
    if isinstance(card, str) and card.startswith("R"):
        return "rlcard-uno-1"
    if card in ("W4", "D" + str(card)[1:]) and len(deck) < (4 if card == "W4" else 2):
        return "rlcard-uno-4"
    if e.get("action") == "draw":
        if not deck:
            return "rlcard-uno-4"
        drawn = deck[-1]
        if drawn.trait == "wild_draw_4":
            return "rlcard-uno-3"
        if drawn.trait == "reverse" and drawn.color == top.color:
            return "rlcard-uno-1"
    return ""


def steered_shuffle(cards: list[str]) -> list[str]:
    """The order of a shuffle with RLCard's known findings kept out of reach: no Draw Two
    turned up, the Reverses and Wild Draw Fours at the bottom of the draw pile."""
    hands, rest = cards[:TURNED], cards[TURNED:]
    rest = sorted(rest, key=lambda c: c.startswith("R") or c == "W4")  # stable
    while rest[0].startswith("D"):
        rest.append(rest.pop(0))
    return hands + rest


def keys(events: list[dict[str, object]]) -> set[str]:
    return {json.dumps(e, sort_keys=True) for e in events}


def lockstep(adapter: Any, seed: int, steer: bool = False) -> tuple[int, str]:
    """One random two-player match on the adapter and on the spec at once, comparing who
    moves and the legal events at every step and the result at the end. Returns the events
    played and "same", or the known finding the first divergence is; AssertionError for a
    divergence no known finding explains. ``steer`` keeps the findings out of reach (the
    shuffles of :func:`steered_shuffle`, no Reverse played while another card can be)."""
    a, b = adapter(), SpecImplementation()
    opts = dict(Uno.fixed)
    a.new("uno", 2, opts, seed % 2)
    b.new("uno", 2, opts, seed % 2)
    rng, n, why = random.Random(seed), 0, ""
    while True:
        tm, same = b.to_move(), a.to_move() == b.to_move() and keys(a.legal()) == keys(b.legal())
        if not same:
            assert why, (f"seed {seed}, event {n}: {a.to_move()} vs {tm}; "
                         f"{sorted(keys(a.legal()) ^ keys(b.legal()))[:4]}")
            return n, why
        if tm is None:
            break
        legal = b.legal()
        if steer:
            legal = [e for e in legal if not str(e.get("card", "")).startswith("R")] or legal
        e = rng.choice(legal)
        if e.get("chance") in ("shuffle", "reshuffle"):
            cards = list(e["cards"])
            rng.shuffle(cards)
            e = {**e, "cards": steered_shuffle(cards) if steer and n == 0 else cards}
        why = trigger(a, e) or (why if "chance" in e else "")
        a.apply(e)
        b.apply(e)
        n += 1
    assert a.result() == b.result(), (seed, a.result(), b.result())
    return n, "same"


# ---- the pieces
def test_card_codes_and_actions_translate_both_ways() -> None:
    assert uno_action("r-5") == {"action": "play", "card": "5R"}
    assert uno_action("g-wild_draw_4") == {"action": "play", "card": "W4", "colour": "G"}
    assert uno_action("y-draw_2") == {"action": "play", "card": "DY"}
    for name in ("b-skip", "y-reverse", "r-wild", "draw", "g-0"):
        assert uno_action_name({"seat": 0, **uno_action(name)}) == name
    for bad in ({"seat": 0, "action": "play", "card": "W"},  # a Wild with no colour
                {"seat": 0, "action": "play", "card": "5R", "colour": "G"},
                {"seat": 0, "action": "play", "card": "5X"},
                {"seat": 0, "action": "keep"}):
        with pytest.raises(ValueError):
            uno_action_name(bad)


def test_the_stand_in_random_deals_the_given_order_and_asks_for_the_next() -> None:
    rng = SteeredRandom()
    deck = [object() for _ in range(3)]
    with pytest.raises(Exception, match="shuffle"):
        rng.shuffle(deck)
    # RLCard draws from the end of its list: the first card of the order goes last
    from rlcard.games.uno.utils import init_deck
    cards = init_deck()[:4]
    rng.outcomes = [("shuffle", [uno_code(c) for c in reversed(cards)]), ("pick", "g")]
    rng.shuffle(cards)
    assert [uno_code(c) for c in cards] == [uno_code(c) for c in init_deck()[:4]]
    assert rng.choice(["r", "g", "b", "y"]) == "g"


def test_the_deal_follows_the_spec_shuffle() -> None:
    a, b = Uno(), SpecImplementation()
    opts = dict(Uno.fixed)
    for dealer in (0, 1):
        a.new("uno", 2, opts, dealer)
        b.new("uno", 2, opts, dealer)
        assert a.to_move() == "chance" and keys(a.legal()) == keys(b.legal())
        cards = steered_shuffle(random.Random(dealer).sample(PACK, len(PACK)))
        a.apply({"chance": "shuffle", "cards": cards})
        b.apply({"chance": "shuffle", "cards": cards})
        # the player on the dealer's left is dealt the first card, and is RLCard's player 0
        hand = a.env.game.players[0].hand
        assert sorted(map(uno_code, hand)) == sorted(cards[0:TURNED:2])
        assert a.to_move() == b.to_move() and keys(a.legal()) == keys(b.legal())


def test_settings_rlcard_cannot_play_are_not_offered() -> None:
    a = Uno()
    with pytest.raises(ValueError, match="2 players"):
        a.new("uno", 3, dict(Uno.fixed), 0)
    with pytest.raises(ValueError, match="draw_instead"):
        a.new("uno", 2, {**Uno.fixed, "draw_instead": True}, 0)
    with pytest.raises(ValueError, match="deals=1"):
        a.new("uno", 2, {k: v for k, v in Uno.fixed.items() if k != "deals"}, 0)
    assert engine_adapter("rlcard:uno") is Uno


def test_an_event_rlcard_refuses_leaves_it_as_it_was() -> None:
    a = Uno()
    a.new("uno", 2, dict(Uno.fixed), 0)
    a.apply({"chance": "shuffle", "cards": steered_shuffle(PACK)})
    seat = a.to_move()
    before = (a.legal(), [uno_code(c) for c in a.env.game.dealer.deck])
    held = {uno_code(c) for p in a.env.game.players for c in p.hand}
    absent = next(c for c in PACK if c not in held and len(c) == 2)
    # RLCard's environment means to play a random legal action in place of an illegal one,
    # but its numpy call fails on the OrderedDict of legal actions: the step is refused
    for bad in ({"seat": seat, "action": "play", "card": absent},
                {"seat": 1 - int(str(seat)), "action": "draw"},
                {"chance": "pick", "value": "R"}):
        with pytest.raises(ValueError):
            a.apply(bad)
    assert (a.legal(), [uno_code(c) for c in a.env.game.dealer.deck]) == before


# ---- lock step
@pytest.mark.parametrize("seed", range(12))
def test_rlcard_plays_in_lock_step_up_to_a_known_finding(seed: int) -> None:
    n, verdict = lockstep(Uno, seed)
    assert verdict in ("same", "rlcard-uno-1", "rlcard-uno-2", "rlcard-uno-3", "rlcard-uno-4")
    assert n >= 1


def test_away_from_the_findings_whole_hands_agree() -> None:
    verdicts = [lockstep(Uno, seed, steer=True) for seed in range(10)]
    assert sum(v == "same" for _, v in verdicts) >= 5, verdicts
    assert sum(n for n, _ in verdicts) > 200


def test_each_finding_is_met_in_random_matches() -> None:
    met = {lockstep(Uno, seed)[1] for seed in range(40)}
    assert {"rlcard-uno-1", "rlcard-uno-2", "rlcard-uno-3"} <= met, met


@pytest.mark.parametrize("finding", [1, 2, 3, 4])
def test_each_findings_record_parts_rlcard_from_the_spec_at_its_end(finding: int) -> None:
    record = json.loads((ROOT / "docs" / "findings" / f"rlcard-uno-{finding}.json")
                        .read_text(encoding="utf-8"))
    a, b = Uno(), SpecImplementation()
    for side in (a, b):
        side.new("uno", record["players"], record["options"], record["dealer"])
    for e in record["events"]:
        assert a.to_move() == b.to_move() and keys(a.legal()) == keys(b.legal())
        a.apply(e)
        b.apply(e)
    if finding == 4:  # RLCard shuffles the top card of the discard pile in as well
        (mine,), (theirs,) = b.legal(), a.legal()
        assert theirs["cards"][:-1] == mine["cards"] and theirs["cards"][-1] == "DG"
    else:
        assert a.to_move() != b.to_move()


# ---- verify
def _verify(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    res = subprocess.run([sys.executable, "-m", "rulespec", "verify", "uno", "--engine",
                          "rlcard:uno", "--json", *args], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert res.returncode in (0, 1), res.stderr
    return res.returncode, json.loads(res.stdout)


def test_verify_engine_rlcard_uno_through_the_command_line(tmp_path: Path) -> None:
    code, report = _verify(tmp_path, "-n", "5")
    # RLCard's fixed values are set; only its table of two is tried
    assert {s["players"] for s in report["settings"]} == {2} and report["matches"] >= 1
    assert not any(s["refused"] for s in report["settings"])
    assert {s["options"]["drawn_card"] for s in report["settings"]} == {"auto"}
    # with its known findings, a longer run plays past them and conforms
    code, report = _verify(tmp_path, "-n", "10", "-p", "2", "--known", str(KNOWN))
    assert code == 0 and report["conforms"] and sum(report["known"].values()) > 0


@pytest.mark.slow
def test_verify_finds_a_known_finding_and_shrinks_it_to_a_record(tmp_path: Path) -> None:
    code, report = _verify(tmp_path, "-n", "10", "-p", "2")
    assert code == 1 and report["divergences"][0]["kind"] == "who-moves"
    record = report["divergences"][0]["record"]
    assert replay(record)[0] == 0  # the shrunk match is a legal record of the spec
    assert len(record["events"]) <= 3


# ---- broken variants: one in the default suite, the rest behind the slow marker
CAUGHT = [
    pytest.param(rlcard_mutants.UnoSkipIgnored),
    pytest.param(rlcard_mutants.UnoNoNumberMatch, marks=pytest.mark.slow),
    pytest.param(rlcard_mutants.UnoWinnerScoresTwo, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("mutant", CAUGHT)
def test_a_broken_adapter_is_caught(mutant: Any) -> None:
    for seed in range(30):
        try:
            lockstep(mutant, seed, steer=True)
        except AssertionError:
            return
    pytest.fail(f"{mutant.__name__} was not caught")
