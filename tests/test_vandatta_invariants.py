"""Invariants of Vändåtta checked at every step of Hypothesis-driven games on the engine
(issue: card conservation, going out, draw limits, named suit, deal end, penalties), plus the
API invariants every game owes (OpenSpiel basic_tests): sorted unique legal lists, an illegal
apply that changes nothing, clones independent of their originals."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

from rulespec import IllegalActionError
from rulespec.engine.state import CHANCE, State, canonical_key
from rulespec.lang.cards import RANK_OF
from rulespec.loading import game_for, resolve
from tests.strategies import (
    VANDATTA_PLAYERS,
    deal_end_snapshots,
    table_fits,
    vandatta_options,
)

SPEC = resolve("vandatta").spec


def points(card: str, scoring: str) -> int:
    r = RANK_OF[card]
    if scoring == "swedish":
        return 25 if r == 8 else 15 if r == 14 else 10 if r >= 10 else 5
    return 10 if r == 8 else 5 if r == 14 else 1


def all_cards(st_: State) -> Counter[str]:
    c: Counter[str] = Counter(st_.z["stock"])
    c.update(st_.z["discard"])
    for h in st_.z["hand"]:
        c.update(h)
    return c


def check_step(before: State, ev: dict[str, Any], after: State, opts: dict[str, Any],
               pack: Counter[str] | None, seg: dict[str, int],
               snaps: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    n_deals = len(before.deals)
    # every card in exactly one place, two packs too
    if pack is not None and after.to_move != CHANCE or (
            pack is not None and after.legal_actions()[0].get("chance") != "shuffle"):
        assert all_cards(after) == pack, "cards were created or lost"
    # the draw limit per turn segment (an Ace's extra turn starts a new count, H9)
    if ev.get("chance") == "shuffle":
        seg.clear()  # a new deal
    if "action" in ev:
        seat, action = ev["seat"], ev["action"]
        if seg.get("seat") != seat or action == "play":
            seg.clear()
            seg["seat"] = seat
        if action == "draw":
            seg["draws"] = seg.get("draws", 0) + 1
            assert seg["draws"] <= opts.get("max_draws", 3), "more draws than the limit"
    if len(after.deals) > n_deals:
        deal = after.deals[-1]
        assert len(snaps) == len(after.deals)
        hands = snaps[-1][0]["hand"]
        out = before.v["out"]
        scoring = opts.get("scoring", "pagat")
        pts = [0 if out[q] else sum(points(c, scoring) for c in h) for q, h in enumerate(hands)]
        if deal.get("blocked"):
            if opts.get("blocked") == "lowest_hand_scores_zero":
                low = min(pts[q] for q in range(len(pts)) if not out[q])
                pts = [0 if (p == low and not out[q]) else p for q, p in enumerate(pts)]
        else:
            # the deal ends exactly when a hand empties, and never on an eight or an Ace
            assert ev.get("action") == "play" and not hands[ev["seat"]], "deal ended early"
            assert sum(1 for q, h in enumerate(hands) if not h and not out[q]) == 1
            assert all(RANK_OF[c] not in (8, 14) for c in ev["cards"]), "went out on a special"
        assert deal["scores"] == pts, "penalties differ from the hands' card penalties"
        # the declared score_range holds, and covers the worst this pack allows (all of it in
        # one hand)
        bounds = after.game.score_range
        assert bounds is not None and all(bounds[0] <= x <= bounds[1] for x in deal["scores"])
        if pack is not None:
            assert bounds == (0, bounds[1]) and bounds[1] >= sum(
                points(c, scoring) for c in pack.elements()), "score_range narrower than the pack"
    elif after.to_move not in (CHANCE, None):
        for q, h in enumerate(after.z["hand"]):
            if not after.v["out"][q]:
                assert h, "a hand is empty but the deal goes on"
    # a named suit exists exactly when an eight is on top
    if after.to_move not in (CHANCE, None) and after.z["discard"]:
        top = after.z["discard"][-1]
        assert (after.v["named"] is not None) == (RANK_OF[top] == 8)


@given(players=st.sampled_from(VANDATTA_PLAYERS), opts=vandatta_options(),
       seed=st.integers(0, 2**32))
def test_invariants_every_step(players: int, opts: dict[str, Any], seed: int) -> None:
    assume(table_fits(players, opts))
    rng = random.Random(seed)
    state = game_for(SPEC, players, opts, 0).new_initial_state()
    snaps = deal_end_snapshots(state)
    pack: Counter[str] | None = None
    seg: dict[str, int] = {}
    steps = 0
    while not state.is_terminal() and steps < 3000:
        legal = state.legal_actions()
        keys = [canonical_key(e) for e in legal]
        assert keys == sorted(keys) and len(set(keys)) == len(keys), "legal list not canonical"
        # the engine's own keys (written without json at a bury, say) are the canonical texts
        assert sorted(state.legal_map()) == keys, "legal_map keys are not canonical"
        assert legal, "no legal event at a live state"
        ev = legal[rng.randrange(len(legal))]
        if ev.get("chance") in ("shuffle", "reshuffle"):
            if ev["chance"] == "shuffle":
                pack = Counter(ev["cards"])
            ev = dict(ev)
            cards = list(ev["cards"])
            rng.shuffle(cards)
            ev["cards"] = cards
        before = state.clone()
        state.apply(ev)
        check_step(before, ev, state, opts, pack, seg, snaps)
        steps += 1


@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4, 6]))
def test_illegal_apply_changes_nothing_and_clones_are_independent(seed: int,
                                                                  players: int) -> None:
    rng = random.Random(seed)
    state = game_for(SPEC, players, {}, 0).new_initial_state()
    bad_events = [{"seat": 0, "action": "play", "cards": ["ZZ"]},
                  {"seat": 99, "action": "draw"}, {"chance": "bury", "position": -1},
                  {"seat": 0, "action": "fly"}, {"seat": 0, "action": "draw", "extra": 1}]
    for _ in range(200):
        if state.is_terminal():
            break
        snapshot = json.dumps(state.result(), sort_keys=True)
        obs = json.dumps([state.observation(q) for q in range(players)], sort_keys=True)
        for bad in bad_events:
            try:
                state.apply(bad)
            except (IllegalActionError, ValueError):
                pass
            else:  # pragma: no cover - a failure
                raise AssertionError(f"{bad} was accepted")
            assert json.dumps(state.result(), sort_keys=True) == snapshot
        assert json.dumps([state.observation(q) for q in range(players)],
                          sort_keys=True) == obs
        twin = state.clone()
        legal = state.legal_actions()
        ev = legal[rng.randrange(len(legal))]
        if ev.get("chance") in ("shuffle", "reshuffle"):
            ev = dict(ev, cards=rng.sample(ev["cards"], len(ev["cards"])))
        state.apply(ev)
        # the clone still stands where the original stood
        assert json.dumps(twin.result(), sort_keys=True) == snapshot
        twin.apply(ev)
        assert twin.result() == state.result()


def test_observation_hides_other_hands() -> None:
    state = game_for(SPEC, 3, {}, 0).new_initial_state()
    legal = state.legal_actions()
    state.apply(legal[0])
    obs = state.observation(1)
    assert isinstance(obs["zones"]["hand"][1], list)
    assert obs["zones"]["hand"][0] == 7 and obs["zones"]["hand"][2] == 7
    assert isinstance(obs["zones"]["stock"], int)
    assert obs["zones"]["discard"] == state.z["discard"]
