"""Invariants of Abracadabra at every step of Hypothesis-driven games on the engine (issue 3):
both packs conserved, rising bids, the declarer's B cards and the others' fewer, following
suit, trick counts, the rows at the end, and every score recomputed term by term from the final
state by the brief's formula (1.4)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack
from rulespec.loading import game_for, resolve
from tests.strategies import abracadabra_tables, deal_end_snapshots

SPEC = resolve("abracadabra").spec
PLAYING = ("hand", "dummy_up", "trick", "won", "unclaimed", "indicator", "stock")
BIDDING = ("bid_piles", "bid_hand", "left_down", "left_up", "right_up", "right_down", "pile",
           "pile_up", "centre")


def value(c: str) -> int:
    return 1 if RANK_OF[c] == 14 else RANK_OF[c]


def cards_in(zones: dict[str, Any], names: tuple[str, ...]) -> Counter[str]:
    out: Counter[str] = Counter()
    for n in names:
        z = zones[n]
        if z and isinstance(z[0], list):
            for h in z:
                out.update(h)
        elif isinstance(z, list) and (not z or isinstance(z[0], str)):
            out.update(z)
        else:
            for h in z:
                out.update(h)
    return out


def placed(zones: dict[str, Any], p: int, suit: str) -> int:
    rows = sum(len(zones[z][p]) for z in ("left_down", "left_up", "right_up", "right_down"))
    return rows + sum(1 for c in zones["centre"] if SUIT_OF[c] == suit)


def check_deal_end(state: State, snap: tuple[dict[str, Any], dict[str, Any]], players: int,
                   opts: dict[str, Any], uncalled: set[str] | None = None) -> None:
    """The deal's scores recomputed term by term from its final zones and variables (1.4).

    ``uncalled``: the row cards whose trick was won but not called (``no_call`` under
    ``abracadabra_call = required_else_card_fails``): they went to the centre, yet, as the spec
    reads A13, their trick still counts as a named trick won."""
    z, v = snap
    deal = state.deals[-1]
    if deal.get("abandoned"):
        assert deal["scores"] == [0] * players
        return
    tricks = 13 if players == 4 else 12
    assert sum(v["taken"][:players]) == tricks, "trick counts do not sum to the tricks"
    assert all(not z["left_down"][q] for q in range(players)), "a row card is still face down"
    decl, contract = v["declarer"], v["contract"]
    suits = v["bid_suit"]
    bids = [placed(z, q, suits[q]) for q in range(players)]
    assert bids[decl] == contract
    assert all(bids[q] < contract for q in range(players) if q != decl)
    rule = opts.get("success_rule", "exact_count")
    indicator = z["indicator"][0] if z["indicator"] else None

    def failed_named(q: int) -> bool:
        lost = any(SUIT_OF[c] == suits[q] and c not in (uncalled or set()) for c in z["centre"])
        return lost or (q == decl and bool(z["right_down"][q]))

    success = []
    for q in range(players):
        t = v["taken"][q]
        if rule == "exact_count":
            success.append(t == bids[q])
        elif rule == "at_least":
            success.append(t >= bids[q])
        elif rule == "all_named_tricks":
            success.append(not failed_named(q))
        else:
            success.append(not failed_named(q) and t == bids[q])
    n = sum(success)
    for q in range(players):
        sb = 10 * (players - n + 1) if success[q] else 0
        assert not success[q] or 1 <= n <= players
        face = sum(value(c) for c in z["left_up"][q])
        right = 0
        if q == decl:
            right = 2 * sum(value(c) for c in z["right_up"][q]) - \
                2 * sum(value(c) for c in z["right_down"][q])
        m = opts.get("pile_bonus_per_card", 4) if v["exposed"][q] else 2
        k = 0
        for c in z["won"][q]:
            if c == "JK":
                if opts.get("joker_counts_for_suit_bonus", True) and indicator \
                        and SUIT_OF[indicator] == suits[q]:
                    k += 1
            elif SUIT_OF[c] == suits[q]:
                k += 1
        expected = sb + face + right + v["taken"][q] + m * k
        assert deal["scores"][q] == expected, f"seat {q}: {deal['scores'][q]} != {expected}"


@given(table=abracadabra_tables(), seed=st.integers(0, 2**32))
def test_invariants_every_step(table: tuple[int, dict[str, Any]], seed: int) -> None:
    players, opts = table
    rng = random.Random(seed)
    game = game_for(SPEC, players, opts, 0)
    state = game.new_initial_state()
    snaps = deal_end_snapshots(state)
    playing: Counter[str] | None = None
    high = 0
    steps = 0
    # the spec declares the longest deal (max_events): counted here, deal by deal
    assert game.max_events is not None
    in_deal = 0
    uncalled: set[str] = set()
    while not state.is_terminal() and steps < 5000:
        legal = state.legal_actions()
        ev = legal[rng.randrange(len(legal))]
        if ev.get("chance") == "shuffle":
            playing = Counter(ev["cards"])
            ev = dict(ev, cards=rng.sample(ev["cards"], len(ev["cards"])))
            high = 0
            uncalled = set()
        if ev.get("action") == "no_call":
            # the winner's face-down card of this trick's number fails unannounced
            w, t = ev["seat"], state.v["trick_number"]
            uncalled.update(c for c in state.z["left_down"][w] if value(c) == t)
        before = state.clone()
        if ev.get("action") == "bid":
            low = 2 if opts.get("nondeclarer_min_bid") == 1 else 1
            assert high < ev["tricks"] and low <= ev["tricks"] <= (13 if players == 4 else 12)
            high = ev["tricks"]
        if ev.get("action") == "play" and before.z["trick"]:
            ind = before.z["indicator"]

            def as_(c: str, ind: list[str] = ind) -> str:
                return ind[0] if c == "JK" else c
            led = SUIT_OF[as_(before.z["trick"][0])]
            src = before.z["dummy_up"] if ev["seat"] == 2 and opts.get("dummy") else \
                before.z["hand"][ev["seat"]]
            if SUIT_OF[as_(ev["card"])] != led:
                assert all(SUIT_OF[as_(c)] != led for c in src), "did not follow suit"
        n_deals = len(state.deals)
        state.apply(ev)
        in_deal += 1
        if len(state.deals) > n_deals:
            assert in_deal <= game.max_events, f"a deal of {in_deal} events"
            in_deal = 0
            assert len(snaps) == len(state.deals)
            check_deal_end(state, snaps[-1], players, opts, uncalled)
        elif playing is not None and state.current_player() != CHANCE:
            assert cards_in(state.z, PLAYING) == playing, "a playing card was lost or made"
            tricks = 13 if players == 4 else 12
            bid_pack = Counter(c for c in pack(1) if value(c) <= tricks)
            assert cards_in(state.z, BIDDING) == bid_pack, "a bid card was lost or made"
        steps += 1
