"""Independent oracle for Abracadabra, pagat version (game name ``abracadabra``).

Written from the rule brief ``abracadabra.md`` (section 1, ABR-n), the settled points of
``resolutions.md`` (H-n, R-n, A-n), the record vocabulary of ``records.md`` and the Python
protocol of ``protocol.md`` only.  Standard library only.

Protocol (``protocol.md``, "In Python"): ``new``, ``to_move``, ``legal``, ``apply``, ``result``,
plus ``clone``.  Events are the JSON-shaped dicts of ``records.md`` in the canonical form of H5.

Readings chosen where the brief and the resolutions leave the meaning open (A13, H1)
------------------------------------------------------------------------------------
* ``nondeclarer_min_bid = 1`` (ABR-3, A13): a non-declarer must place 1 <= b <= B-1 cards.
  Because a declarer bid of 1 would then leave the others no legal count, this option
  implies the brief's ``declarer_min_bid = 2``: auction bids run from 2 (not 1) to the
  number of tricks, in the dummy game's second auction too.  ``declarer_min_bid`` itself is
  not offered as a separate option.
* ``abracadabra_call = required_else_card_fails`` (ABR-12, A13): after trick *t*, if the
  player *W* credited with it (for trick-number purposes) holds a face-down left-row card of
  value *t*, *W* must decide before anything else happens.  New decision events:
  ``{"seat": W, "action": "call"}`` (the card turns face up, a success) or
  ``{"seat": W, "action": "no_call"}`` (the card fails and goes to the centre).  All other
  after-trick reveals of step *t* happen automatically before this decision.  Right-row
  cards need no call (rule 2 of the Abracadabra step).  The call changes only the fate of
  that card: the success tests ``all_named_tricks`` / ``exact_named_set`` look at the tricks
  won, not at the card (a trick won without the call still counts as a named trick won).
* ``dummy_controller`` (ABR-19, A11): the dummy always plays third, after both real players.
  ``trick_leader`` (default): the trick's leader chooses its card; ``second_player``: the
  real player who played second to the trick (the non-leader); ``alternating`` (A13): the
  control alternates trick by trick between the two real players, starting with the
  non-dealer (the player on the dealer's left) at trick 1, the dealer at trick 2, and so on,
  whoever leads.
* ``dummy_credit = tricks_only`` (A13): a trick won by the dummy's card is credited to its
  controller for the trick count T(p) only (and the controller leads the next trick from
  their own hand, A11).  For the Abracadabra step nobody wins such a trick: every left-row
  card of that value fails (centre) and a declarer's right-row card of that value is turned
  face down; the trick's cards count for nobody's suit bonus K.  For ``exact_named_set``
  such a trick counts as a trick taken that was not named (T(p) must equal the number of
  named tricks won).
* ``pile_exposure_scope = whole_suit`` (A13): accepted, no effect at all (same events, same
  m(p) for an exposed pile as under ``unbid_pile``).
* ``pile_bonus_per_card``: the summary lists only ``4``; any non-negative integer is accepted
  and used as m(p) for an exposed pile (m = 2 otherwise).
* ``exposures_combinable = false`` (ABR-9): the declarer may not both move cards to the right
  row (non-empty ``expose``) and expose the pile in the same ``declare``.  It does not
  restrict non-declarers.
* ``empty_pile_exposure = false``: a player whose pile is empty (a declarer who placed every
  bid card of their suit) may not expose it (``pile`` true).  By default they may, and the
  suit bonus is m(p) = 4 all the same.
* ``dummy`` is accepted for every table size, but ``true`` only with ``players = 2``.
  Options that do not concern the table (for example ``three_player_joker`` at four players)
  are accepted and have no effect.
* Match length (R9, A12, R10): ``deals`` (integer >= 1), ``target`` (integer >= 1), or
  ``game_end = "deals(k)" | "target(T)"``; giving more than one of them is an error, and
  ``elimination(T)`` (a Vändåtta notion) is rejected.  Neither: one deal.  With ``target``
  the match ends after the first deal in which some total reaches T (>= T).  Under
  ``tie = play_another_deal`` a tie at the top after the last deal (or after T has been
  reached; that condition stays met even if totals drop again) means one more deal, until
  one player leads alone.  Abandoned deals count as deals (R9, A10).
* The game name must be ``abracadabra`` (a path whose file stem is ``abracadabra`` is
  accepted too); anything else is a ``ValueError``.

Other points worth knowing
--------------------------
* Every decision is an event, forced ones included (R1, A1): the 4-player dealer's
  ``choose_suit``, a ``pass`` after a bid of 13, ``place []`` when B = 1.
* Event order of a deal: ``shuffle``; ``choose_suit`` from the dealer's left round to the
  dealer (real players only, ABR-25); one auction circuit (ABR-6; the dummy game's second
  circuit, A4); the declarer's ``place``; ``name_trump`` when no card is left over or under
  ``joker = none`` (A9; after the last ``place`` under ``..._after_all_rows``; never under
  ``no_trump``); the others' ``place`` clockwise from the declarer's left (ABR-7, A8);
  ``declare`` by the declarer, then clockwise (phase D); 12 or 13 tricks of ``play``.
* Parsing (R6, R6b, R7): card codes may be lowercase or use ``10``; suits one letter, any
  case; unknown or missing fields, wrong JSON types and repeated values in set fields are
  malformed; an error leaves the state unchanged (every check runs before any change).
* Large legal lists (H6) are produced already sorted from a table of all subsets of 1..n in
  canonical text order (``sorted_subsets``), so ``legal()`` stays cheap even at 2^13 entries.
* ``details`` (not part of the protocol) keeps, per finished deal, what the scoring used
  (trick winners, T, K, rows, success), for tests and debugging.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SUITS = "CDHS"
RANKS = "23456789TJQKA"
JOKER = "JK"
DUMMY = 2  # the dummy's hand is seat 2 in the two-player dummy game (records.md, R8)

Event = dict[str, Any]
Commit = Callable[[], None]


def card_index(card: str) -> int:
    """Canonical card order (H5, R2): suits C, D, H, S, ranks 2..A, the Joker last."""
    if card == JOKER:
        return 52
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def canon_key(event: Event) -> str:
    """The canonical JSON text an event list is sorted by (H5)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def parse_card(value: Any) -> str:
    """Parse a card code leniently (R6): lowercase and ``10`` accepted; returns ``TH`` style."""
    if not isinstance(value, str):
        raise ValueError(f"malformed card {value!r}")
    text = value.upper()
    if text == JOKER:
        return JOKER
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"malformed card {value!r}")
    return text


def parse_suit(value: Any) -> str:
    """Parse a suit letter (R6b): one of C, D, H, S, lowercase accepted, no words."""
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUITS:
        raise ValueError(f"malformed suit {value!r} (R6b: one letter C, D, H or S)")
    return value.upper()


def is_int(value: Any) -> bool:
    """True for a JSON integer (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


_SUBSETS: dict[int, list[tuple[int, tuple[int, ...]]]] = {}


def sorted_subsets(n: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every subset of 1..n as (bit mask, ascending tuple), sorted by its JSON list text.

    Two events that differ only in one set-valued field are ordered by that field's text
    (H5), and list texts such as ``[1,10]``, ``[1,2]``, ``[1]`` are prefix-free, so any
    filtered sub-list of this table is already in canonical order.  Computed once per n.
    """
    table = _SUBSETS.get(n)
    if table is None:
        items = []
        for mask in range(1 << n):
            combo = tuple(v for v in range(1, n + 1) if mask >> (v - 1) & 1)
            items.append((json.dumps(list(combo), separators=(",", ":")), combo))
        items.sort()
        table = [(sum(1 << v for v in combo), combo) for _, combo in items]
        _SUBSETS[n] = table
    return table


_SIZED: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}


def sized_subsets(n: int, lo: int, hi: int) -> list[tuple[int, ...]]:
    """The subsets of 1..n with lo <= size <= hi, in canonical order (cached)."""
    key = (n, lo, hi)
    if key not in _SIZED:
        _SIZED[key] = [c for _, c in sorted_subsets(n) if lo <= len(c) <= hi]
    return _SIZED[key]


# --------------------------------------------------------------------------------------
# Options (option summary of the brief, H1, H2, R9)
# --------------------------------------------------------------------------------------

ENUM_OPTIONS: dict[str, tuple[Any, ...]] = {
    "tie": ("shared", "play_another_deal"),
    "success_rule": ("exact_count", "all_named_tricks", "exact_named_set", "at_least"),
    "nondeclarer_min_bid": (0, 1),
    "all_pass": ("redeal_next_dealer", "redeal_same_dealer"),
    "joker": ("identity_of_indicator", "none"),
    "trump_without_indicator": (
        "declarer_names_after_own_rows",
        "declarer_names_after_all_rows",
        "no_trump",
    ),
    "pile_exposure_scope": ("unbid_pile", "whole_suit"),
    "abracadabra_call": ("automatic", "required_else_card_fails"),
    "dummy_controller": ("trick_leader", "second_player", "alternating"),
    "dummy_credit": ("full", "tricks_only"),
}
BOOL_OPTIONS: tuple[str, ...] = (
    "dummy",
    "joker_counts_for_suit_bonus",
    "must_trump_when_void",
    "right_row_exposure",
    "exposures_combinable",
    "empty_pile_exposure",
    "three_player_joker",
)
DEFAULTS: dict[str, Any] = {
    "dummy": False,
    "tie": "shared",
    "success_rule": "exact_count",
    "nondeclarer_min_bid": 0,
    "all_pass": "redeal_next_dealer",
    "joker": "identity_of_indicator",
    "joker_counts_for_suit_bonus": True,
    "trump_without_indicator": "declarer_names_after_own_rows",
    "must_trump_when_void": False,
    "right_row_exposure": True,
    "pile_exposure_scope": "unbid_pile",
    "pile_bonus_per_card": 4,
    "exposures_combinable": True,
    "empty_pile_exposure": True,
    "abracadabra_call": "automatic",
    "dummy_controller": "trick_leader",
    "dummy_credit": "full",
    "three_player_joker": True,
}
MATCH_OPTIONS: tuple[str, ...] = ("deals", "target", "game_end")
GAME_END_RE = re.compile(r"^\s*(deals|target)\s*\(\s*(\d+)\s*\)\s*$")


@dataclass(frozen=True)
class Config:
    """Everything fixed for a match: table, packs, options, match length."""

    players: int  # real players N
    dummy: bool
    nhands: int  # hands dealt (3 in the dummy game)
    ranks: str  # ranks in the playing pack
    ntricks: int  # hand size = number of tricks = highest trick number / bid
    has_joker: bool  # the playing pack holds the Joker (then one card is left over)
    pack: tuple[str, ...]  # the playing pack in canonical order (R2)
    opts: dict[str, Any]
    match_mode: str  # "deals" or "target"
    match_value: int

    @property
    def min_bid(self) -> int:
        """Lowest auction bid: 1, or 2 under nondeclarer_min_bid = 1 (ABR-3 reading)."""
        return 2 if self.opts["nondeclarer_min_bid"] == 1 else 1


def build_config(game: Any, players: Any, options: Any, dealer: Any) -> Config:
    """Validate ``new``'s arguments (R3, H2, H3) and build the match configuration."""
    if not isinstance(game, str) or os.path.splitext(os.path.basename(game))[0] != "abracadabra":
        raise ValueError(f"unknown game {game!r} (this oracle plays 'abracadabra')")
    if not is_int(players) or players not in (2, 3, 4):
        raise ValueError(f"bad player count {players!r} (H3: 4, 3 or 2)")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ValueError("options must be an object")
    opts = dict(DEFAULTS)
    match_given: list[tuple[str, int]] = []
    for name, value in options.items():
        if name in ENUM_OPTIONS:
            allowed = ENUM_OPTIONS[name]
            ok = any(type(value) is type(a) and value == a for a in allowed)
            if not ok:
                raise ValueError(f"bad value {value!r} for option {name} (H2)")
            opts[name] = value
        elif name in BOOL_OPTIONS:
            if not isinstance(value, bool):
                raise ValueError(f"bad value {value!r} for option {name} (H2: true or false)")
            opts[name] = value
        elif name == "pile_bonus_per_card":
            if not is_int(value) or value < 0:
                raise ValueError(f"bad value {value!r} for option {name}")
            opts[name] = value
        elif name in ("deals", "target"):
            if not is_int(value) or value < 1:
                raise ValueError(f"bad value {value!r} for option {name} (R9)")
            match_given.append((name, value))
        elif name == "game_end":
            m = GAME_END_RE.match(value) if isinstance(value, str) else None
            if m is None or int(m.group(2)) < 1:
                raise ValueError(f"bad value {value!r} for option game_end (R9)")
            match_given.append((m.group(1), int(m.group(2))))
        else:
            raise ValueError(f"unknown option {name!r} (H1, R3)")
    if len(match_given) > 1:
        raise ValueError("deals, target and game_end are exclusive (R9)")
    match_mode, match_value = match_given[0] if match_given else ("deals", 1)

    dummy = bool(opts["dummy"])
    if dummy and players != 2:
        raise ValueError("the dummy game needs players = 2")
    if players == 4:
        ranks, ntricks = RANKS, 13
        has_joker = opts["joker"] != "none"
    elif players == 3 or dummy:
        # 36-card pack; the Joker per three_player_joker, also in the dummy game (A3).
        ranks, ntricks = "6789TJQKA", 12
        has_joker = opts["three_player_joker"] and opts["joker"] != "none"
    else:
        # Two players without dummy: 24 cards, never a Joker (A3).
        ranks, ntricks = "9TJQKA", 12
        has_joker = False
    nhands = 3 if dummy else players
    pack = [r + s for s in SUITS for r in RANKS if r in ranks]
    if has_joker:
        pack.append(JOKER)
    assert len(pack) == nhands * ntricks + (1 if has_joker else 0)
    nreal_dealers = players
    if not is_int(dealer) or not 0 <= dealer < nreal_dealers:
        raise ValueError(f"bad dealer {dealer!r} (H3)")
    return Config(
        players=players,
        dummy=dummy,
        nhands=nhands,
        ranks=ranks,
        ntricks=ntricks,
        has_joker=has_joker,
        pack=tuple(pack),
        opts=opts,
        match_mode=match_mode,
        match_value=match_value,
    )


# --------------------------------------------------------------------------------------
# The state of one deal
# --------------------------------------------------------------------------------------


@dataclass
class Deal:
    """Mutable state of the deal in progress."""

    dealer: int
    phase: str = "shuffle"  # shuffle, choose_suit, auction, place, name_trump, declare, play, call
    steps: list[tuple[str, int]] = field(default_factory=list)  # pre-play decisions queue
    hands: list[list[str]] = field(default_factory=list)
    indicator: str | None = None
    trump: str | None = None
    bid_suit: list[str | None] = field(default_factory=list)
    auction_round: int = 1
    high: int = 0
    declarer: int | None = None
    B: int = 0
    left: list[dict[int, bool]] = field(default_factory=list)  # value -> face up
    right: dict[int, bool] = field(default_factory=dict)  # declarer's right row: value -> face up
    named: list[frozenset[int]] = field(default_factory=list)  # all trick numbers placed
    placed: list[int] = field(default_factory=list)  # bid(p)
    pile_exposed: list[bool] = field(default_factory=list)
    centre: list[tuple[int, int]] = field(default_factory=list)  # failed left-row cards
    trick_no: int = 1
    leader: int = 0
    controller: int | None = None  # who chooses the dummy's card this trick
    trick: list[tuple[int, str]] = field(default_factory=list)  # (hand seat, card)
    tricks_taken: list[int] = field(default_factory=list)  # T(p)
    won_numbers: list[set[int]] = field(default_factory=list)  # tricks won for the Abracadabra step
    captured: list[list[str]] = field(default_factory=list)  # cards counted for K(p)
    trick_winners: list[int] = field(default_factory=list)  # credited seat per trick
    pending_call: tuple[int, int] | None = None  # (seat, trick number) under required call


class AbracadabraOracle:
    """Python protocol implementation (protocol.md) of pagat Abracadabra."""

    def __init__(self) -> None:
        self.cfg: Config | None = None
        self.deal: Deal | None = None
        self.dealer = 0
        self.deals: list[dict[str, Any]] = []
        self.details: list[dict[str, Any]] = []  # per finished deal, for tests and debugging
        self.totals: list[int] = []
        self.target_reached = False
        self.over = True

    # ------------------------------------------------------------------ protocol verbs

    def new(self, game: str, players: int, options: dict[str, Any], dealer: int = 0) -> None:
        """Start a fresh match; ``ValueError`` on a bad game, table, option or dealer (R3)."""
        cfg = build_config(game, players, options, dealer)
        self.cfg = cfg
        self.dealer = dealer
        self.deals = []
        self.details = []
        self.totals = [0] * cfg.players
        self.target_reached = False
        self.over = False
        self._start_deal()

    def to_move(self) -> int | str | None:
        """Seat to act (the dummy's hand is seat 2, R8), ``"chance"``, or None when over."""
        if self.over:
            return None
        d = self._d()
        if d.phase == "shuffle":
            return "chance"
        if d.phase == "play":
            return self._hand_to_play()
        if d.phase == "call":
            assert d.pending_call is not None
            return d.pending_call[0]
        return d.steps[0][1]

    def legal(self) -> list[Event]:
        """Every legal event, canonical (H5, R6, R6b, R7), sorted by canonical JSON text."""
        return self._compute_legal()  # fresh objects every call: callers may mutate them

    def apply(self, event: Event) -> None:
        """Apply one event; ``ValueError`` (state unchanged) if illegal or malformed."""
        if self.cfg is None:
            raise ValueError("no match: call new first")
        if self.over:
            raise ValueError("the match is over (R5)")
        if not isinstance(event, dict):
            raise ValueError("malformed event: not an object")
        d = self._d()
        if d.phase == "shuffle":
            cards = self._check_shuffle(event)
            self._do_shuffle(cards)
            return
        if "chance" in event:
            raise ValueError(f"illegal event: a decision of seat {self.to_move()} is due")
        seat = event.get("seat")
        action = event.get("action")
        if not is_int(seat) or not isinstance(action, str):
            raise ValueError("malformed event: needs integer 'seat' and string 'action'")
        handler = {
            "choose_suit": self._ev_choose_suit,
            "bid": self._ev_bid,
            "pass": self._ev_pass,
            "place": self._ev_place,
            "name_trump": self._ev_name_trump,
            "declare": self._ev_declare,
            "play": self._ev_play,
            "call": self._ev_call,
            "no_call": self._ev_call,
        }.get(action)
        if handler is None:
            raise ValueError(f"malformed event: unknown action {action!r}")
        expected = self._expected_action()
        if action not in expected:
            raise ValueError(f"illegal event: {action!r} now; expected {sorted(expected)}")
        if seat != self.to_move():
            raise ValueError(f"illegal event: seat {seat} is not to move ({self.to_move()} is)")
        commit = handler(event)  # validates everything, returns a closure that mutates
        commit()

    def result(self) -> dict[str, Any]:
        """The replay answer (records.md, R4).

        Keys: ok, complete, deals, totals, winners, then to_move and legal when incomplete.
        """
        out: dict[str, Any] = {
            "ok": True,
            "complete": self.over,
            "deals": copy.deepcopy(self.deals),
            "totals": list(self.totals),
            "winners": self._winners() if self.over else [],
        }
        if not self.over:
            out["to_move"] = self.to_move()
            out["legal"] = self.legal()
        return out

    def clone(self) -> AbracadabraOracle:
        """An independent deep copy."""
        other = AbracadabraOracle.__new__(AbracadabraOracle)
        other.__dict__ = copy.deepcopy(self.__dict__)
        return other

    # ------------------------------------------------------------------ helpers

    def _d(self) -> Deal:
        assert self.deal is not None
        return self.deal

    def _c(self) -> Config:
        assert self.cfg is not None
        return self.cfg

    def _real_order_from(self, first: int) -> list[int]:
        """Real seats clockwise starting at ``first`` (the dummy never acts in turn order)."""
        n = self._c().players
        return [(first + i) % n for i in range(n)]

    def _expected_action(self) -> set[str]:
        d = self._d()
        if d.phase == "auction":
            return {"bid", "pass"}
        if d.phase == "call":
            return {"call", "no_call"}
        return {d.phase}

    @staticmethod
    def _check_fields(
        event: Event, required: set[str], optional: frozenset[str] = frozenset()
    ) -> None:
        """Unknown fields are malformed, and so are missing ones (R6)."""
        keys = set(event) - {"seat", "action"}
        unknown = keys - required - optional
        if unknown:
            raise ValueError(f"malformed event: unknown field(s) {sorted(unknown)} (R6)")
        missing = required - keys
        if missing:
            raise ValueError(f"malformed event: missing field(s) {sorted(missing)}")

    # ------------------------------------------------------------------ deal flow

    def _start_deal(self) -> None:
        """A new deal starts with a shuffle (records.md)."""
        cfg = self._c()
        n = cfg.players
        self.deal = Deal(
            dealer=self.dealer,
            bid_suit=[None] * n,
            left=[{} for _ in range(n)],
            named=[frozenset() for _ in range(n)],
            placed=[0] * n,
            pile_exposed=[False] * n,
            tricks_taken=[0] * n,
            won_numbers=[set() for _ in range(n)],
            captured=[[] for _ in range(n)],
        )

    def _check_shuffle(self, event: Event) -> list[str]:
        if set(event) != {"chance", "cards"}:
            raise ValueError("malformed shuffle: fields must be exactly 'chance' and 'cards' (R6)")
        if event["chance"] != "shuffle":
            raise ValueError(f"illegal event: a shuffle is due, not {event['chance']!r}")
        raw = event["cards"]
        if not isinstance(raw, list):
            raise ValueError("malformed shuffle: 'cards' must be a list")
        cards = [parse_card(c) for c in raw]
        if len(cards) != len(self._c().pack) or sorted(cards, key=card_index) != list(
            self._c().pack
        ):
            raise ValueError("illegal shuffle: 'cards' must be an order of the whole playing pack")
        return cards

    def _do_shuffle(self, cards: list[str]) -> None:
        """Deal one at a time from seat dealer+1 clockwise over every hand (A2, §1.2)."""
        cfg, d = self._c(), self._d()
        hands: list[list[str]] = [[] for _ in range(cfg.nhands)]
        pos = 0
        seat = (d.dealer + 1) % cfg.nhands
        for _ in range(cfg.ntricks * cfg.nhands):
            hands[seat].append(cards[pos])
            pos += 1
            seat = (seat + 1) % cfg.nhands
        d.hands = [sorted(h, key=card_index) for h in hands]
        if cfg.has_joker:
            d.indicator = cards[pos]
            # ABR-10: Joker turned up -> no trump, no Joker in play.
            d.trump = None if d.indicator == JOKER else d.indicator[1]
        order = self._real_order_from(d.dealer + 1)
        # Phase A then B: every player from the dealer's left round to the dealer (ABR-25, A1).
        d.steps = [("choose_suit", s) for s in order] + [("auction", s) for s in order]
        d.phase = "choose_suit"

    def _pop_step(self) -> None:
        """Advance the pre-play queue and set the phase of the next step."""
        d = self._d()
        d.steps.pop(0)
        if d.steps:
            d.phase = d.steps[0][0]
            return
        if d.phase == "auction":
            self._end_auction()
        else:  # the last declare: trick play starts
            self._start_play()

    def _needs_trump_named(self) -> bool:
        """ABR-17, ABR-18, A9: no indicator card and trumps are not simply none."""
        return (
            self._d().indicator is None and self._c().opts["trump_without_indicator"] != "no_trump"
        )

    def _end_auction(self) -> None:
        """ABR-6 one circuit; ABR-5/ABR-20/A4 all-pass handling; then phase C and D steps."""
        cfg, d = self._c(), self._d()
        if d.declarer is None:
            if cfg.dummy and d.auction_round == 1:
                # The dummy is revealed; a fresh circuit, non-dealer first (A4).
                d.auction_round = 2
                d.steps = [("auction", s) for s in self._real_order_from(d.dealer + 1)]
                d.phase = "auction"
                return
            self._finish_deal(abandoned=True)
            return
        decl = d.declarer
        others = self._real_order_from(decl)[1:]  # clockwise from the declarer's left
        steps: list[tuple[str, int]] = [("place", decl)]
        mode = cfg.opts["trump_without_indicator"]
        if self._needs_trump_named() and mode == "declarer_names_after_own_rows":
            steps.append(("name_trump", decl))
        steps += [("place", s) for s in others]
        if self._needs_trump_named() and mode == "declarer_names_after_all_rows":
            steps.append(("name_trump", decl))
        steps += [("declare", decl)] + [("declare", s) for s in others]
        d.steps = steps
        d.phase = steps[0][0]

    # ------------------------------------------------------------------ phase A-D events

    def _ev_choose_suit(self, event: Event) -> Commit:
        self._check_fields(event, {"suit"})
        suit = parse_suit(event["suit"])
        d = self._d()
        if suit in d.bid_suit:
            raise ValueError(f"illegal choose_suit: {suit} is already taken")
        seat = event["seat"]

        def commit() -> None:
            d.bid_suit[seat] = suit
            self._pop_step()

        return commit

    def _ev_bid(self, event: Event) -> Commit:
        self._check_fields(event, {"tricks"})
        n = event["tricks"]
        cfg, d = self._c(), self._d()
        if not is_int(n):
            raise ValueError("malformed bid: 'tricks' must be an integer")
        lo = max(d.high + 1, cfg.min_bid)
        if not lo <= n <= cfg.ntricks:
            raise ValueError(f"illegal bid {n}: must be {lo}..{cfg.ntricks} (phase B)")
        seat = event["seat"]

        def commit() -> None:
            d.high, d.declarer, d.B = n, seat, n
            self._pop_step()

        return commit

    def _ev_pass(self, event: Event) -> Commit:
        self._check_fields(event, set())
        return self._pop_step

    def _ev_place(self, event: Event) -> Commit:
        self._check_fields(event, {"tricks"})
        cfg, d = self._c(), self._d()
        raw = event["tricks"]
        if not isinstance(raw, list) or not all(is_int(v) for v in raw):
            raise ValueError("malformed place: 'tricks' must be a list of integers")
        values = set(raw)
        if len(values) != len(raw):
            raise ValueError("malformed place: repeated trick number (R7)")
        if not all(1 <= v <= cfg.ntricks for v in values):
            raise ValueError(f"illegal place: trick numbers run 1..{cfg.ntricks}")
        seat = event["seat"]
        if seat == d.declarer:
            if len(values) != d.B:
                raise ValueError(f"illegal place: the declarer places exactly B = {d.B} cards")
        else:
            lo = cfg.opts["nondeclarer_min_bid"]
            if not lo <= len(values) <= d.B - 1:
                raise ValueError(f"illegal place: a non-declarer places {lo}..{d.B - 1} (ABR-3)")

        def commit() -> None:
            d.left[seat] = {v: False for v in sorted(values)}
            d.named[seat] = frozenset(values)
            d.placed[seat] = len(values)
            self._pop_step()

        return commit

    def _ev_name_trump(self, event: Event) -> Commit:
        self._check_fields(event, {"suit"})
        suit = parse_suit(event["suit"])  # A9: a suit only
        d = self._d()

        def commit() -> None:
            d.trump = suit
            self._pop_step()

        return commit

    def _ev_declare(self, event: Event) -> Commit:
        self._check_fields(event, set(), frozenset({"expose", "pile"}))
        cfg, d = self._c(), self._d()
        seat = event["seat"]
        pile = event.get("pile", False)  # R6: may be omitted
        if not isinstance(pile, bool):
            raise ValueError("malformed declare: 'pile' must be true or false")
        raw = event.get("expose", [])  # R6: a declarer's expose may be omitted
        if not isinstance(raw, list) or not all(is_int(v) for v in raw):
            raise ValueError("malformed declare: 'expose' must be a list of integers")
        expose = set(raw)
        if len(expose) != len(raw):
            raise ValueError("malformed declare: repeated trick number (R7)")
        if seat != d.declarer:
            if expose:
                raise ValueError("illegal declare: only the declarer may expose row cards (R6)")
        else:
            if not expose <= set(d.left[seat]):
                raise ValueError("illegal declare: exposed numbers must be in the left row (A7)")
            if expose and not cfg.opts["right_row_exposure"]:
                raise ValueError("illegal declare: right_row_exposure = false (ABR-8)")
            if expose and pile and not cfg.opts["exposures_combinable"]:
                raise ValueError("illegal declare: exposures_combinable = false (ABR-9)")
        if pile and not cfg.opts["empty_pile_exposure"] and len(d.named[seat]) == cfg.ntricks:
            raise ValueError("illegal declare: empty_pile_exposure = false, and the pile is empty")

        def commit() -> None:
            for v in expose:
                del d.left[seat][v]
                d.right[v] = True
            d.pile_exposed[seat] = pile
            self._pop_step()

        return commit

    # ------------------------------------------------------------------ phase E

    def _start_play(self) -> None:
        cfg, d = self._c(), self._d()
        d.phase = "play"
        d.trick_no = 1
        d.leader = (d.dealer + 1) % cfg.players  # dealer's left / the non-dealer
        self._start_trick()

    def _start_trick(self) -> None:
        cfg, d = self._c(), self._d()
        d.trick = []
        d.controller = None
        if cfg.dummy:
            mode = cfg.opts["dummy_controller"]
            if mode == "trick_leader":
                d.controller = d.leader
            elif mode == "second_player":
                d.controller = 1 - d.leader
            else:  # alternating: non-dealer on odd tricks, dealer on even ones (A13 reading)
                d.controller = (1 - d.dealer) if d.trick_no % 2 == 1 else d.dealer

    def _hand_to_play(self) -> int:
        cfg, d = self._c(), self._d()
        k = len(d.trick)
        if cfg.dummy:
            return (d.leader, 1 - d.leader, DUMMY)[k]  # the dummy plays third (ABR-19)
        return (d.leader + k) % cfg.players

    def _identity(self, card: str) -> str:
        """ABR-10: the Joker is an exact copy of the indicator card."""
        if card == JOKER:
            ind = self._d().indicator
            assert ind is not None and ind != JOKER
            return ind
        return card

    def _legal_cards(self, hand_seat: int) -> list[str]:
        """Follow suit if able; else anything (or a trump under must_trump_when_void, H9)."""
        cfg, d = self._c(), self._d()
        hand = d.hands[hand_seat]
        if not d.trick:
            return list(hand)
        led = self._identity(d.trick[0][1])[1]
        follow = [c for c in hand if self._identity(c)[1] == led]
        if follow:
            return follow
        if cfg.opts["must_trump_when_void"] and d.trump is not None:
            trumps = [c for c in hand if self._identity(c)[1] == d.trump]
            if trumps:
                return trumps
        return list(hand)

    def _ev_play(self, event: Event) -> Commit:
        self._check_fields(event, {"card"})
        card = parse_card(event["card"])
        seat = event["seat"]
        d = self._d()
        if card not in d.hands[seat]:
            raise ValueError(f"illegal play: {card} is not in hand {seat}")
        if card not in self._legal_cards(seat):
            raise ValueError(f"illegal play: {card} does not follow suit (or trump, H9)")

        def commit() -> None:
            d.hands[seat].remove(card)
            d.trick.append((seat, card))
            if len(d.trick) == self._c().nhands:
                self._end_trick()

        return commit

    def _trick_winning_hand(self) -> int:
        """Highest trump, else highest card of the suit led (phase E)."""
        d = self._d()
        ids = [(seat, self._identity(c)) for seat, c in d.trick]
        led = ids[0][1][1]
        best_suit = d.trump if d.trump is not None and any(i[1] == d.trump for _, i in ids) else led
        cands = [(RANKS.index(i[0]), seat) for seat, i in ids if i[1] == best_suit]
        return max(cands)[1]

    def _end_trick(self) -> None:
        """Credit the trick (A11, dummy_credit) and run the Abracadabra step for trick t."""
        cfg, d = self._c(), self._d()
        t = d.trick_no
        hand = self._trick_winning_hand()
        by_dummy = hand == DUMMY and cfg.dummy
        credited = d.controller if by_dummy else hand
        assert credited is not None
        d.tricks_taken[credited] += 1
        d.trick_winners.append(credited)
        # W: the winner for trick-number purposes and captured cards.
        W: int | None = credited
        if by_dummy and cfg.opts["dummy_credit"] == "tricks_only":
            W = None
        if W is not None:
            d.won_numbers[W].add(t)
            d.captured[W].extend(c for _, c in d.trick)
        call_due = False
        for p in range(cfg.players):
            if d.left[p].get(t) is False:
                if p == W:
                    if cfg.opts["abracadabra_call"] == "automatic":
                        d.left[p][t] = True  # step 1: "Abracadabra", face up, success
                    else:
                        call_due = True
                else:
                    del d.left[p][t]  # step 3: failed, to the centre
                    d.centre.append((p, t))
        if t in d.right:
            d.right[t] = W == d.declarer  # steps 2 and 4 (ABR-13: a failure stays, face down)
        d.trick_no += 1
        d.leader = credited  # the controller leads from their own hand (A11)
        if call_due:
            assert W is not None
            d.phase = "call"
            d.pending_call = (W, t)
            return
        self._next_trick_or_end()

    def _next_trick_or_end(self) -> None:
        d = self._d()
        if d.trick_no > self._c().ntricks:
            self._finish_deal(abandoned=False)
        else:
            d.phase = "play"
            self._start_trick()

    def _ev_call(self, event: Event) -> Commit:
        self._check_fields(event, set())
        d = self._d()
        assert d.pending_call is not None
        seat, t = d.pending_call
        called = event["action"] == "call"

        def commit() -> None:
            if called:
                d.left[seat][t] = True
            else:  # required_else_card_fails: the card fails (A13 reading)
                del d.left[seat][t]
                d.centre.append((seat, t))
            d.pending_call = None
            self._next_trick_or_end()

        return commit

    # ------------------------------------------------------------------ scoring, match

    def _succeeds(self, p: int) -> bool:
        """Success rule (ABR-1, ABR-22, A5)."""
        d = self._d()
        rule = self._c().opts["success_rule"]
        T, bid = d.tricks_taken[p], d.placed[p]
        if rule == "exact_count":
            return T == bid
        if rule == "at_least":
            return T >= bid
        if rule == "all_named_tricks":
            return d.named[p] <= d.won_numbers[p]
        # exact_named_set: won exactly the named tricks and no others
        return d.named[p] == d.won_numbers[p] and T == len(d.named[p])

    def _suit_count(self, p: int) -> int:
        """K(p): cards of p's bid suit among the cards credited to p (ABR-15, ABR-10)."""
        d = self._d()
        suit = d.bid_suit[p]
        k = 0
        for c in d.captured[p]:
            if c == JOKER:
                if self._c().opts["joker_counts_for_suit_bonus"] and self._identity(c)[1] == suit:
                    k += 1
            elif c[1] == suit:
                k += 1
        return k

    def _score_deal(self) -> tuple[list[int], dict[str, Any]]:
        """§1.4: SB + left face values + declarer's right row + T + m*K."""
        cfg, d = self._c(), self._d()
        N = cfg.players
        success = [self._succeeds(p) for p in range(N)]
        n = sum(success)
        scores = []
        K = [self._suit_count(p) for p in range(N)]
        for p in range(N):
            s = 10 * (N - n + 1) if success[p] else 0
            s += sum(v for v, up in d.left[p].items() if up)
            if p == d.declarer:
                s += 2 * sum(v for v, up in d.right.items() if up)
                s -= 2 * sum(v for v, up in d.right.items() if not up)
            s += d.tricks_taken[p]
            m = cfg.opts["pile_bonus_per_card"] if d.pile_exposed[p] else 2
            s += m * K[p]
            scores.append(s)
        detail = {
            "dealer": d.dealer,
            "indicator": d.indicator,
            "trump": d.trump,
            "bid_suit": list(d.bid_suit),
            "declarer": d.declarer,
            "B": d.B,
            "placed": list(d.placed),
            "tricks": list(d.tricks_taken),
            "trick_winners": list(d.trick_winners),
            "K": K,
            "success": success,
            "left": [dict(x) for x in d.left],
            "right": dict(d.right),
            "centre": list(d.centre),
        }
        return scores, detail

    def _finish_deal(self, abandoned: bool) -> None:
        cfg, d = self._c(), self._d()
        if abandoned:  # ABR-5, ABR-20, A10
            entry: dict[str, Any] = {"scores": [0] * cfg.players, "abandoned": True}
            detail: dict[str, Any] = {"dealer": d.dealer, "abandoned": True}
        else:
            scores, detail = self._score_deal()
            entry = {"scores": scores}
        self.deals.append(entry)
        self.details.append(detail)
        self.totals = [a + b for a, b in zip(self.totals, entry["scores"], strict=True)]
        if abandoned and cfg.opts["all_pass"] == "redeal_same_dealer":
            pass  # A10: the deal stays with the same dealer
        else:
            self.dealer = (self.dealer + 1) % cfg.players  # ABR-23; 2 players alternate (A10)
        if self._match_over():
            self.over = True
            self.deal = None
        else:
            self._start_deal()

    def _match_over(self) -> bool:
        """R9, R10, A12: deals(k) or target(T); tie per the ``tie`` option."""
        cfg = self._c()
        if cfg.match_mode == "deals":
            reached = len(self.deals) >= cfg.match_value
        else:
            if max(self.totals) >= cfg.match_value:
                self.target_reached = True
            reached = self.target_reached
        if not reached:
            return False
        if cfg.opts["tie"] == "play_another_deal":
            top = max(self.totals)
            return self.totals.count(top) == 1
        return True

    def _winners(self) -> list[int]:
        top = max(self.totals)
        return [p for p, t in enumerate(self.totals) if t == top]

    # ------------------------------------------------------------------ legal lists

    def _compute_legal(self) -> list[Event]:
        if self.over or self.cfg is None:
            return []
        cfg, d = self._c(), self._d()
        if d.phase == "shuffle":
            return [{"chance": "shuffle", "cards": list(cfg.pack)}]
        seat = self.to_move()
        assert isinstance(seat, int)
        events: list[Event]
        if d.phase == "choose_suit":
            events = [
                {"seat": seat, "action": "choose_suit", "suit": s}
                for s in SUITS
                if s not in d.bid_suit
            ]
        elif d.phase == "auction":
            lo = max(d.high + 1, cfg.min_bid)
            events = [{"seat": seat, "action": "pass"}] + [
                {"seat": seat, "action": "bid", "tricks": n} for n in range(lo, cfg.ntricks + 1)
            ]
        elif d.phase == "name_trump":
            events = [{"seat": seat, "action": "name_trump", "suit": s} for s in SUITS]
        elif d.phase == "play":
            events = [{"seat": seat, "action": "play", "card": c} for c in self._legal_cards(seat)]
        elif d.phase == "call":
            events = [{"seat": seat, "action": "call"}, {"seat": seat, "action": "no_call"}]
        elif d.phase == "place":
            return self._legal_place(seat)
        elif d.phase == "declare":
            return self._legal_declare(seat)
        else:  # pragma: no cover
            raise AssertionError(d.phase)
        events.sort(key=canon_key)
        return events

    def _legal_place(self, seat: int) -> list[Event]:
        """All placements (H6: atomic), already in canonical order (see ``sorted_subsets``)."""
        cfg, d = self._c(), self._d()
        if seat == d.declarer:
            lo, hi = d.B, d.B
        else:
            lo, hi = cfg.opts["nondeclarer_min_bid"], d.B - 1
        return [
            {"seat": seat, "action": "place", "tricks": list(combo)}
            for combo in sized_subsets(cfg.ntricks, lo, hi)
        ]

    def _legal_declare(self, seat: int) -> list[Event]:
        """Declarer: any subset of the left row (A7) x pile (A6); others: pile only (H5)."""
        cfg, d = self._c(), self._d()
        if seat != d.declarer:
            return [
                {"seat": seat, "action": "declare", "pile": False},
                {"seat": seat, "action": "declare", "pile": True},
            ]  # '"pile":false' < '"pile":true'
        row_mask = 0
        for v in d.left[seat]:
            row_mask |= 1 << v
        if not cfg.opts["right_row_exposure"]:
            row_mask = 0  # only the empty exposure (ABR-8 option)
        combinable = cfg.opts["exposures_combinable"]
        # an empty pile (every bid card placed) may be exposed only under empty_pile_exposure
        pile_ok = cfg.opts["empty_pile_exposure"] or len(d.named[seat]) < cfg.ntricks
        out: list[Event] = []
        # The expose list's text is followed by ',"pile":', and list texts are prefix-free,
        # so the order is: expose text first, then false before true.
        for mask, combo in sorted_subsets(cfg.ntricks):
            if mask & ~row_mask:
                continue
            out.append({"seat": seat, "action": "declare", "expose": list(combo), "pile": False})
            if pile_ok and (combinable or not combo):
                out.append({"seat": seat, "action": "declare", "expose": list(combo), "pile": True})
        return out
