"""Hypothesis strategies shared by the tests: tables and options of the shipped games."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

#: Every Vändåtta option in scope (resolutions.md H1) with the values the brief lists, and a few
#: numbers for the numeric ones.
VANDATTA_OPTIONS: dict[str, list[Any]] = {
    "decks": ["auto", 1, 2],
    "hand_size": [7, 5, 3],
    "turnup_eight": ["bury_random", "bottom"],
    "turnup_ace_all_draw": [True, False],
    "voluntary_draw": [True, False],
    "max_draws": [3, 1, 2, 0],
    "multi_play": [True, False],
    "multi_first_card": ["suit_or_rank", "suit_only"],
    "multi_on_special_top": [True, False],
    "multi_aces": [False, True],
    "ace_on_ace": [True, False],
    "go_out_in_ace_extra_turn": ["allowed", "forbidden"],
    "lappen_states": ["rank_set", "single_card_only"],
    "lappen_penalty_trigger": ["announced_but_not_out", "not_announced", "both"],
    "lappen_penalty": [3, 1, 0],
    "lappen_detection": ["automatic", "challenge_before_next_turn"],
    "empty_stock": ["reshuffle", "pass_when_empty", "end_deal"],
    "blocked": ["all_score", "lowest_hand_scores_zero"],
    "scoring": ["pagat", "swedish"],
    "deck_strip": ["none", "remove_2_to_5"],
}

VANDATTA_PLAYERS = [2, 3, 4, 5, 6, 7, 8, 14]


@st.composite
def vandatta_options(draw: st.DrawFn) -> dict[str, Any]:
    """A subset of options with chosen values, plus a match length."""
    opts: dict[str, Any] = {}
    for name, values in VANDATTA_OPTIONS.items():
        if draw(st.booleans()):
            opts[name] = draw(st.sampled_from(values))
    length = draw(st.sampled_from(["one", "deals", "target"]))
    if length == "deals":
        opts["deals"] = draw(st.integers(1, 3))
    elif length == "target":
        opts["target"] = draw(st.sampled_from([15, 30]))
    return opts


def table_fits(players: int, opts: dict[str, Any]) -> bool:
    """V13 with the options' pack: every hand full and one card left to turn up."""
    decks = opts.get("decks", "auto")
    n = (1 if players <= 5 else 2) if decks == "auto" else decks
    size = (36 if opts.get("deck_strip") == "remove_2_to_5" else 52) * n
    return players * opts.get("hand_size", 7) + 1 <= size


#: Every pagat Abracadabra option in scope (H1) with the values the brief lists.
ABRACADABRA_OPTIONS: dict[str, list[Any]] = {
    "tie": ["shared", "play_another_deal"],
    "success_rule": ["exact_count", "all_named_tricks", "exact_named_set", "at_least"],
    "nondeclarer_min_bid": [0, 1],
    "all_pass": ["redeal_next_dealer", "redeal_same_dealer"],
    "joker": ["identity_of_indicator", "none"],
    "joker_counts_for_suit_bonus": [True, False],
    "trump_without_indicator": ["declarer_names_after_own_rows",
                                "declarer_names_after_all_rows", "no_trump"],
    "must_trump_when_void": [False, True],
    "right_row_exposure": [True, False],
    "pile_exposure_scope": ["unbid_pile", "whole_suit"],
    "pile_bonus_per_card": [4, 3, 0],
    "exposures_combinable": [True, False],
    "empty_pile_exposure": [True, False],
    "abracadabra_call": ["automatic", "required_else_card_fails"],
    "dummy_controller": ["trick_leader", "second_player", "alternating"],
    "dummy_credit": ["full", "tricks_only"],
    "three_player_joker": [True, False],
}


def _trick_tables(draw: st.DrawFn, options: dict[str, list[Any]], most_deals: int,
                  targets: list[int]) -> tuple[int, dict[str, Any]]:
    """A table of a game of 4, 3 or 2 players (2 with or without a dummy), a subset of
    ``options`` with chosen values, and a match length: one deal, up to ``most_deals`` deals,
    or a target drawn from ``targets``."""
    players = draw(st.sampled_from([4, 3, 2]))
    opts: dict[str, Any] = {}
    for name, values in options.items():
        if draw(st.booleans()):
            opts[name] = draw(st.sampled_from(values))
    if players == 2 and draw(st.booleans()):
        opts["dummy"] = True
    length = draw(st.sampled_from(["one", "deals", "target"]))
    if length == "deals":
        opts["deals"] = draw(st.integers(1, most_deals))
    elif length == "target":
        opts["target"] = draw(st.sampled_from(targets))
    return players, opts


@st.composite
def abracadabra_tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A table size (4, 3, 2 with or without dummy) and a subset of options."""
    return _trick_tables(draw, ABRACADABRA_OPTIONS, 2, [40, 90])


def deal_end_snapshots(state: Any) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(zones, variables) copied at each deal end of ``state`` and its clones from now on,
    through the engine's ``on_deal_end`` observer."""
    import copy

    snaps: list[tuple[dict[str, Any], dict[str, Any]]] = []
    state.on_deal_end = lambda s: snaps.append((copy.deepcopy(s.z), copy.deepcopy(s.v)))
    return snaps


#: Every Newton Abracadabra option the oracle knows (the brief's summary, NEW-15's
#: dummy_visible, NEW-17's first_lead, N1's three_player_joker) with the values the brief lists
#: and a few more arguments for the parametric ones. ``bidding`` (NEW-5's option) is the
#: spec's own: the oracle does not play it, so tests/test_abracadabra_newton.py checks it apart.
NEWTON_OPTIONS: dict[str, list[Any]] = {
    "success_target": ["declarer_bid", "own_bid"],
    "success_compare": ["exact", "at_least"],
    "call_mode": ["automatic", "required"],
    "declarer_tie_break": ["earliest", "latest", "redeal"],
    "stake_mode": ["ante(1)", "ante(3)", "ante(0)", "equals_bid", "free(1,5)", "free(0, 2)"],
    "show_effect": ["add_per_card(1)", "add_per_card(2)", "multiply_per_card(2)",
                    "multiply_per_card(3)", "none"],
    "joker_mode": ["highest_trump", "identity_of_indicator", "suitless_top"],
    "ace_number": [1, 14],
    "bonus_requires_call": [False, True],
    "pot_recipients": ["successful", "most_tricks"],
    "pot_remainder": ["carry", "first_successful_from_dealer_left"],
    "trump_without_indicator": ["declarer_names", "no_trump"],
    "dummy_after_win": ["controller_leads", "dummy_leads_by_last_controller"],
    "dummy_visible": [True, False],
    "two_player_joker": [False, True],
    "three_player_joker": [True, False],
    "first_lead": ["declarer", "dealer_left"],
}


@st.composite
def newton_tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A Newton table (4, 3, 2 with or without dummy), a subset of options, a match length."""
    return _trick_tables(draw, NEWTON_OPTIONS, 3, [30, 60])
