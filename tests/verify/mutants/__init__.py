"""The catalogue of mutants: implementations with exactly one deliberate bug, the targets that
``rulespec verify`` must catch.

Python mutants live in ``vandatta.py``, ``abracadabra.py`` and ``misc.py`` (robustness); the
process-only misbehaviours in ``procs.py``; the JavaScript mutants in
``examples/js/vandatta.js --mutant NAME``. ``together.py`` holds two implementations of a test
spec with a simultaneous decision (one correct that asks the seats in another order, one that
shows a choice before the reveal), used by ``tests/test_verify.py`` directly, outside this
catalogue.  ``python -m tests.verify.mutants.selfcheck`` checks
that every Python mutant really differs from its oracle at its ``shows`` setting.

In a ``command``, ``"{python}"`` stands for ``sys.executable``; commands run from the project root.
"""

from __future__ import annotations

import attrs

KINDS = (
    "legal", "turn", "effect", "score", "option", "table",
    "illegal", "leak", "crash", "hang", "garbage", "exit",
)


@attrs.frozen
class Mutant:
    name: str  # unique, snake_case
    game: str  # "vandatta" or "abracadabra"
    kind: str  # one of KINDS
    doc: str  # one line: the bug
    python: str | None  # "module:Class" for in-process use, None if process-only
    command: tuple[str, ...]  # argv of the process form; "{python}" stands for sys.executable
    shows: dict[str, object]  # a setting that shows the bug (self-check only)


def _setting(players: int, options: dict[str, object] | None = None,
             dealer: int = 0) -> dict[str, object]:
    return {"players": players, "options": dict(options or {}), "dealer": dealer}


def _py(name: str, game: str, kind: str, cls: str, doc: str,
        shows: dict[str, object]) -> Mutant:
    module = {"vandatta": "vandatta", "abracadabra": "abracadabra"}[game]
    if kind in ("illegal", "leak", "crash", "hang", "garbage", "exit"):
        module = "misc"
    path = f"tests.verify.mutants.{module}:{cls}"
    command = ("{python}", "-m", "rulespec.cli", "serve", "--python", path)
    return Mutant(name, game, kind, doc, path, command, shows)


V = "vandatta"
A = "abracadabra"

_VANDATTA: tuple[Mutant, ...] = (
    _py("no_ace_on_ace", V, "legal", "NoAceOnAce",
        "an Ace may not be played on an Ace (VAN-7 default allows it)", _setting(3)),
    _py("eight_not_wild", V, "legal", "EightNotWild",
        "an 8 is playable only on a top card of its own suit (§3.3, VAN-10)", _setting(3)),
    _py("no_groups", V, "legal", "NoGroups",
        "same-rank groups refused although multi_play = true (§3.3 (2), VAN-5)", _setting(3)),
    _py("pass_after_one_draw", V, "legal", "PassAfterOneDraw",
        "pass legal after one draw, not only after the third (V2)", _setting(3)),
    _py("counter_clockwise", V, "turn", "CounterClockwise",
        "the turn passes to the right instead of the left (§3.2)", _setting(4)),
    _py("no_extra_turn_after_ace", V, "turn", "NoExtraTurnAfterAce",
        "no extra turn after one's own Ace (§3.3 Ace effect, VAN-4)", _setting(3)),
    _py("court_cards_ten", V, "score", "CourtCardsTen",
        "pagat scoring charges 10 for J/Q/K instead of 1 (§3.4)", _setting(4)),
    _py("lowest_zero_ignored", V, "option", "LowestZeroIgnored",
        "blocked = lowest_hand_scores_zero scored as all_score (VAN-16, V5)",
        _setting(5, {"blocked": "lowest_hand_scores_zero", "empty_stock": "end_deal",
                     "deals": 2})),
    _py("swedish_ignored", V, "option", "SwedishIgnored",
        "scoring = swedish ignored: pagat points used (VAN-18)",
        _setting(3, {"scoring": "swedish"})),
    _py("ace_on_ace_ignored", V, "option", "AceOnAceIgnored",
        "ace_on_ace = false ignored: Ace on Ace still legal (VAN-7, V8)",
        _setting(3, {"ace_on_ace": False})),
    _py("two_packs_from_seven", V, "table", "TwoPacksFromSeven",
        "one pack for 6 players: two packs only from 7 (§3.1)", _setting(6)),
    _py("seat_zero_always_deals", V, "turn", "SeatZeroAlwaysDeals",
        "seat 0 deals every deal; dealer and rotation ignored (§3.4)",
        _setting(3, {"deals": 2}, dealer=1)),
    _py("turnup_ace_no_draw", V, "effect", "TurnupAceNoDraw",
        "a turned-up Ace does not make everyone draw (VAN-2)", _setting(4, {"deals": 4})),
    _py("bury_off_by_one", V, "effect", "BuryOffByOne",
        "bury position k puts k+1 cards above the 8 (V6)", _setting(2, {"deals": 4})),
    _py("lappen_penalty_short", V, "effect", "LappenPenaltyShort",
        "the lappen penalty draws one card too few (VAN-13)",
        _setting(3, {"hand_size": 3, "deals": 3})),
)

_ABRACADABRA: tuple[Mutant, ...] = (
    _py("equal_bid_accepted", A, "legal", "EqualBidAccepted",
        "a bid equal to the highest so far is accepted (phase B)", _setting(4)),
    _py("no_follow_suit", A, "legal", "NoFollowSuit",
        "following suit is not enforced (phase E)", _setting(4)),
    _py("dealer_leads_first", A, "turn", "DealerLeadsFirst",
        "the dealer leads trick 1 instead of the dealer's left (phase E)", _setting(4)),
    _py("dummy_plays_second", A, "table", "DummyPlaysSecond",
        "the dummy plays second, not third (ABR-19)", _setting(2, {"dummy": True})),
    _py("no_suit_bonus", A, "score", "NoSuitBonus",
        "the suit bonus m*K is left out of the scores (§1.4)", _setting(4)),
    _py("at_least_ignored", A, "option", "AtLeastIgnored",
        "success_rule = at_least ignored: exact count needed (ABR-22)",
        _setting(4, {"success_rule": "at_least"})),
    _py("joker_none_ignored", A, "option", "JokerNoneIgnored",
        "joker = none ignored: the Joker stays in the pack (ABR-10)",
        _setting(4, {"joker": "none"})),
    _py("three_player_no_joker", A, "table", "ThreePlayerNoJoker",
        "the 3-player pack lacks its Joker (three_player_joker = true) (§1.6)", _setting(3)),
    _py("trump_does_not_win", A, "effect", "TrumpDoesNotWin",
        "a trump does not beat the suit led (phase E)", _setting(4)),
    _py("declarer_places_fewer", A, "legal", "DeclarerPlacesFewer",
        "the declarer may place B-1 trick numbers, not exactly B (phase C)", _setting(4)),
    _py("nondeclarer_may_place_b", A, "legal", "NonDeclarerMayPlaceB",
        "a non-declarer may place B numbers, not at most B-1 (ABR-3)", _setting(3)),
    _py("play_another_deal_ignored", A, "option", "PlayAnotherDealIgnored",
        "tie = play_another_deal ignored: a tied match ends shared (R10)",
        _setting(3, {"tie": "play_another_deal"})),
    _py("pile_bonus_always_four", A, "option", "PileBonusAlwaysFour",
        "pile_bonus_per_card ignored: an exposed pile always gives m = 4 (ABR-9)",
        _setting(4, {"pile_bonus_per_card": 7})),
    _py("abr_seat_zero_always_deals", A, "turn", "SeatZeroAlwaysDeals",
        "seat 0 deals every deal; dealer and rotation ignored (ABR-23)",
        _setting(4, {"deals": 2}, dealer=2)),
    _py("right_row_failure_free", A, "score", "RightRowFailureFree",
        "a failed right-row card is not deducted twice its value (ABR-13)", _setting(4)),
)

_MISC: tuple[Mutant, ...] = (
    _py("raises_on_reshuffle", V, "crash", "Raises",
        "apply raises RuntimeError on a reshuffle event", _setting(4)),
    _py("hangs_after_25", V, "hang", "Hangs",
        "legal() sleeps forever after 25 applied events", _setting(3)),
    _py("wrong_shape_after_10", V, "garbage", "WrongShape",
        "legal() returns a dict instead of a list after 10 events", _setting(3)),
    _py("accepts_illegal", V, "illegal", "AcceptsIllegal",
        "apply of an illegal decision returns normally (no error)", _setting(3)),
    _py("leaks_hands", V, "leak", "Leaks",
        "observe shows every hand's cards", _setting(3)),
    _py("exits_early", V, "exit", "ExitsEarly",
        "new calls sys.exit(3)", _setting(3)),
)

_JS_KINDS: tuple[tuple[str, str, str, dict[str, object]], ...] = (
    ("eight_on_ace", "legal", "an 8 may be played on an Ace top", _setting(3)),
    ("no_extra_turn_after_ace", "turn", "after an Ace the turn passes on (no extra turn)",
     _setting(3)),
    ("draw_limit_4", "legal", "one draw more than max_draws allowed in a turn", _setting(3)),
    ("ace_penalty_wrong", "score", "pagat: an Ace left in hand scores 4, not 5", _setting(4)),
    ("swedish_scoring_wrong", "option", "scoring = swedish scored as pagat",
     _setting(3, {"scoring": "swedish"})),
    ("hardcoded_dealer", "turn", "the dealer of new is ignored; seat 0 deals first",
     _setting(3, {"deals": 2}, 1)),
    ("accepts_anything", "illegal", "an illegal decision is answered ok and ignored", _setting(3)),
    ("leaks_hands", "leak", "observe shows every hand's cards", _setting(3)),
    ("crash_on_reshuffle", "crash", "a reshuffle writes to stderr and exits 3", _setting(4)),
    ("hang_after_20", "hang", "never answers again after 20 applied events", _setting(3)),
    ("no_lappen_penalty_not_announced", "option",
     "no_lappen draws no penalty under lappen_penalty_trigger = not_announced",
     _setting(3, {"lappen_penalty_trigger": "not_announced", "hand_size": 3})),
    ("one_pack_for_six", "table", "6 players with decks = auto get one pack", _setting(6)),
)

_JS: tuple[Mutant, ...] = tuple(
    Mutant(f"js_{n}", V, kind, f"(JavaScript) {doc}", None,
           ("node", "examples/js/vandatta.js", "--mutant", n), shows)
    for n, kind, doc, shows in _JS_KINDS
)

_PROC_MODES: tuple[tuple[str, str, str], ...] = (
    ("garbage", "garbage", "answers a line that is not JSON after 10 requests"),
    ("flood", "garbage", "writes 50 MB without a newline after 10 requests, then sleeps"),
    # (exit_at_once and silent, which never answer at all, are usage errors of verify's, not
    # divergences: tests/test_verify.py)
    ("exit_after_first", "exit", "answers one request, then writes to stderr and exits 4"),
    ("silent_after_first", "hang", "answers one request, then never answers"),
    ("stderr_then_die", "exit", "after 15 requests: 'fatal: deck corrupted', exit 1"),
)

_PROCS: tuple[Mutant, ...] = tuple(
    Mutant(f"proc_{mode}", V, kind, f"(process) {doc}", None,
           ("{python}", "-m", "tests.verify.mutants.procs", mode), _setting(3))
    for mode, kind, doc in _PROC_MODES
)

MUTANTS: tuple[Mutant, ...] = _VANDATTA + _ABRACADABRA + _MISC + _JS + _PROCS

_BY_NAME = {m.name: m for m in MUTANTS}
assert len(_BY_NAME) == len(MUTANTS), "mutant names must be unique"
assert all(m.kind in KINDS for m in MUTANTS)


def by_name(name: str) -> Mutant:
    """The mutant called ``name``; ``KeyError`` naming the known ones otherwise."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"no mutant {name!r}; known: {', '.join(sorted(_BY_NAME))}") from None
