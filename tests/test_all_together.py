"""The constructs of the language for the games people play, at one table
(tests/specs/ok/all_together.rules): a declared deck, picks, a simultaneous pass between
partners, fixed teams with a team's pile and a team's score, a zone whose size only its owner
counts, a named enumeration, the direction of play and a seat's memory. Each has its own tests;
these play them together, where one construct's code meets another's (a seat's memory noted
at the stop after a simultaneous decision; a pick's chance stop reading the spec's deck)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.state import State
from rulespec.lang.checker import check_file
from rulespec.loading import game_for
from rulespec.protocol import SpecImplementation
from rulespec.records import replay
from rulespec.testing import matches
from rulespec.verify.compare import visible
from rulespec.verify.runner import Verifier

HERE = Path(__file__).resolve().parent
PATH = HERE / "specs" / "ok" / "all_together.rules"
SPEC = check_file(PATH)
DECK = SPEC.deck


def _random_event(state: State, rng: random.Random) -> dict[str, object]:
    ev = dict(rng.choice(state.legal_actions()))
    if ev.get("chance") == "shuffle":
        cards = list(ev["cards"])  # type: ignore[call-overload]
        ev["cards"] = rng.sample(cards, len(cards))
    return ev


@given(seed=st.integers(0, 2**32 - 1))
def test_a_random_match_keeps_every_construct_s_promise(seed: int) -> None:
    rng = random.Random(seed)
    state = game_for(SPEC, 4, {}, 0).new_initial_state()
    seen: list[set[str]] = [set() for _ in range(4)]
    events = []
    while not state.is_terminal():
        for q in range(4):
            obs = state.observation(q)
            zones = obs["zones"]
            assert isinstance(zones, dict)
            # the stars each player set aside: counted by their owner only
            assert zones["stars"] == [None if r != q else 0 if not state.z["stars"][r] else
                                      len(state.z["stars"][r]) for r in range(4)]
            seen[q] |= set(visible(zones, DECK))
            assert set(state.seen_by(q)) == seen[q]
        ev = _random_event(state, rng)
        events.append(ev)
        done = len(state.deals)
        state.apply(ev)
        if len(state.deals) > done:
            seen = [set() for _ in range(4)]  # a new deal: nothing is remembered
    answer = state.result()
    # the partners' scores are their side's, and the winners a whole side
    for deal in answer["deals"]:  # type: ignore[union-attr]
        scores = deal["scores"]  # type: ignore[index]
        assert scores[0] == scores[2] and scores[1] == scores[3]
    winners = answer["winners"]
    assert winners in ([0, 2], [1, 3], [0, 1, 2, 3])
    # every card that moved is one of the declared deck's, by its declared code
    for ev in events:
        for c in ev.get("cards", []) or []:  # type: ignore[attr-defined]
            assert c in DECK.order
        if ev.get("action") in ("pass", "give"):
            assert ev["card"] in DECK.order
    record = {"format": "rulespec-record/1", "game": "all_together.rules", "players": 4,
              "options": {}, "dealer": 0, "events": events}
    code, again = replay(json.loads(json.dumps(record)), base=PATH.parent)
    assert code == 0 and again == answer


@settings(max_examples=20)
@given(m=matches(SPEC, players=4))
def test_matches_drawn_by_hypothesis_replay(m: object) -> None:
    record = m.record()  # type: ignore[attr-defined]
    record["game"] = PATH.name  # a spec beside the record, not a shipped game
    code, answer = replay(record, base=PATH.parent)
    assert code == 0 and answer["ok"], answer


def test_the_picks_list_their_outcomes_with_the_spec_s_weights() -> None:
    state = game_for(SPEC, 4, {}, 0).new_initial_state()
    rng = random.Random(3)
    while state.to_move != "chance" or state.legal_actions()[0].get("chance") != "pick":
        state.apply(_random_event(state, rng))
    colours = state.chance_weights()
    assert sorted(e["value"] for e, _ in colours) == ["B", "G", "R"]  # the deck's suit codes
    assert {w for _, w in colours} == {1}
    state.apply(colours[0][0])
    weather = state.chance_weights()
    assert [(e["value"], w) for e, w in weather] == [("sunny", 3), ("rainy", 1)]
    assert sum(p for _, p in state.chance_outcomes()) == 1.0


def test_verify_runs_the_spec_against_its_own_engine_and_it_conforms() -> None:
    # every check of verify at once: who moves (a simultaneous pass asked in any order), the
    # legal sets, the picks' outcomes, hidden sizes not leaked, the team results
    r = Verifier(SPEC, "all_together", lambda: SpecImplementation(spec=SPEC), timeout=20.0,
                 shrink_seconds=5.0).run(players=[4], games=8, seed_=1)
    assert r.conforms and r.verified
