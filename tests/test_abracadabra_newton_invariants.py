"""Invariants of Newton's Abracadabra at every step of Hypothesis-driven matches on the engine
(issue 8): the pack conserved, bids in range (rising under the ascending auction), following
suit, the longest deal as declared; at each deal's end the trick counts, every score recomputed
term by term from the final state by the brief's formula (§2.4), and the money conserved (N6:
sum(money) + the change in pot_carry = 0); over a completed match, all the money plus the final
pot_carry is 0 (N5)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.lang.cards import RANK_OF, SUIT_OF
from rulespec.loading import game_for, resolve
from tests.strategies import deal_end_snapshots, newton_tables

SPEC = resolve("abracadabra-newton").spec
ZONES = ("hand", "shown_up", "dummy_up", "dummy_down", "trick", "won", "indicator", "stock")


def cards_in(zones: dict[str, Any]) -> Counter[str]:
    """Every card in the playing zones (a per-player zone is a list of lists)."""
    out: Counter[str] = Counter()
    for n in ZONES:
        z = zones[n]
        if z and isinstance(z[0], list):
            for h in z:
                out.update(h)
        else:
            out.update(z)
    return out


def number(c: str, indicator: str | None, opts: dict[str, Any]) -> int | None:
    """A card's rank number for R (NEW-10, N2)."""
    if c == "JK":
        if opts.get("joker_mode", "highest_trump") != "identity_of_indicator":
            return None
        assert indicator is not None
        c = indicator
    r = RANK_OF[c]
    if r == 14:
        return int(opts.get("ace_number", 1))
    return r


def expected_scores(snap: tuple[dict[str, Any], dict[str, Any]], players: int,
                    opts: dict[str, Any]) -> list[int]:
    """§2.4 from the final zones and variables: SB(N, n) + T(p) + 2 R(p), with the options."""
    z, v = snap
    d = v["contract"]
    own = opts.get("success_target") == "own_bid"
    targets = [v["bids"][p] if own else d for p in range(players)]
    taken = v["taken"][:players]
    required = opts.get("call_mode") == "required"
    # a player who passed (NEW-5's ascending auction) named no number of their own
    aims = [not (own and v["passed"][p]) for p in range(players)]
    called = [v["called"][p] if required else aims[p] and taken[p] >= targets[p]
              for p in range(players)]
    at_least = opts.get("success_compare") == "at_least"
    reached = [taken[p] >= targets[p] if at_least else taken[p] == targets[p]
               for p in range(players)]
    success = [reached[p] and called[p] for p in range(players)]
    n = sum(success)
    indicator = z["indicator"][0] if z["indicator"] else None
    out = []
    for p in range(players):
        rank_cards = 0 if d == 0 else sum(1 for c in z["won"][p] if number(c, indicator, opts) == d)
        s = 10 * (players - n + 1) if success[p] else 0
        if called[p] or not opts.get("bonus_requires_call", False):
            s += taken[p] + 2 * rank_cards
        out.append(s)
    return out


def check_deal_end(state: State, snap: tuple[dict[str, Any], dict[str, Any]], players: int,
                   opts: dict[str, Any], carried_in: int) -> None:
    """One deal's entry against its final state."""
    deal = state.deals[-1]
    money, carry = deal["money"], deal["pot_carry"]
    assert len(money) == players
    assert sum(money) + (carry - carried_in) == 0, f"money not conserved: {deal}, in {carried_in}"
    if deal.get("abandoned"):
        assert deal["scores"] == [0] * players
        if not state.is_terminal():
            # stakes returned, the pot carried as it was; but when the abandoned deal is the
            # match's last, its entry also takes N5's payout of the pot to the winner
            assert carry == carried_in and money == [0] * players
        return
    z, v = snap
    tricks = 13 if players == 4 else 12
    assert sum(v["taken"][:players]) == tricks, "trick counts do not sum to the hand size"
    assert sum(len(w) for w in z["won"]) == tricks * state.game.hands
    assert deal["scores"] == expected_scores(snap, players, opts)


def follows(state: State, ev: dict[str, Any], opts: dict[str, Any]) -> None:
    """A card that does not follow the suit led comes from a hand that cannot (§2.3 D)."""
    trick = state.z["trick"]
    if not trick:
        return
    mode = opts.get("joker_mode", "highest_trump")
    trump = state.v["trump"]
    ind = state.z["indicator"]

    def suit(c: str) -> str | None:
        if c != "JK":
            return SUIT_OF[c]
        if mode == "suitless_top":
            return None
        return SUIT_OF[ind[0]] if mode == "identity_of_indicator" else trump
    led = next((suit(c) for c in trick if suit(c) is not None), None)
    if led is None or suit(ev["card"]) in (led, None):
        return
    if ev["seat"] == 2 and opts.get("dummy"):
        src = state.z["dummy_up"] if opts.get("dummy_visible", True) else state.z["dummy_down"]
    else:
        src = state.z["hand"][ev["seat"]] + state.z["shown_up"][ev["seat"]]
    assert all(suit(c) != led for c in src), "did not follow suit"


@given(table=newton_tables(), seed=st.integers(0, 2**32), ascending=st.booleans())
def test_invariants_every_step(table: tuple[int, dict[str, Any]], seed: int,
                               ascending: bool) -> None:
    players, opts = table
    if ascending:
        opts = dict(opts, bidding="ascending_with_pass")  # NEW-5's option, the spec's own
    rng = random.Random(seed)
    game = game_for(SPEC, players, opts, 0)
    state = game.new_initial_state()
    snaps = deal_end_snapshots(state)
    assert game.max_events is not None
    pack: Counter[str] | None = None
    carried_in, in_deal, high, steps = 0, 0, -1, 0
    tricks = 13 if players == 4 else 12
    while not state.is_terminal() and steps < 3000:
        legal = state.legal_actions()
        ev = legal[rng.randrange(len(legal))]
        if ev.get("chance") == "shuffle":
            pack = Counter(ev["cards"])
            ev = dict(ev, cards=rng.sample(ev["cards"], len(ev["cards"])))
            high = -1
        if ev.get("action") == "bid":
            assert 0 <= ev["tricks"] <= tricks
            if ascending:
                assert ev["tricks"] > high, "a bid that does not beat the earlier ones"
                high = ev["tricks"]
        if ev.get("action") == "play":
            follows(state, ev, opts)
        n_deals = len(state.deals)
        state.apply(ev)
        in_deal += 1
        steps += 1
        if len(state.deals) > n_deals:
            assert in_deal <= game.max_events, f"a deal of {in_deal} events"
            in_deal = 0
            check_deal_end(state, snaps[-1], players, opts, carried_in)
            carried_in = state.deals[-1]["pot_carry"]
        elif pack is not None and state.current_player() != CHANCE:
            assert cards_in(state.z) == pack, "a card was lost or made"
    if state.is_terminal():
        # N5: the last deal's entry took the payout; all the money and the pot left sum to 0
        total = sum(sum(d["money"]) for d in state.result()["deals"])
        assert total + state.deals[-1]["pot_carry"] == 0
