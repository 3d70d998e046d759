"""Independent oracle for Abracadabra, Paul Newton version (game name ``abracadabra-newton``).

Written from the rule brief ``abracadabra-newton.md`` (section 2, NEW-n), the settled points of
``resolutions.md`` (H-n, R-n, N-n), the record vocabulary of ``records.md`` and the Python
protocol of ``protocol.md`` only; it shares no code with the engine.  Standard library only.

Protocol: ``new``, ``to_move``, ``legal``, ``apply``, ``result``, ``observe``, ``clone``.  Events
are the JSON-shaped dicts of ``records.md`` in the canonical form of H5; ``legal()`` is sorted by
the canonical JSON text (keys sorted, no spaces).  An illegal or malformed event raises
``ValueError`` and every check runs before any change, so the state is then unchanged.

Tables (§2.6, N1, H3): 4 players (52 cards + Joker, 13 each, the 53rd card is the indicator);
3 players and the 2-player dummy game (6..A, 36 cards, plus the Joker unless
``three_player_joker = false``, 12 a hand, the spare card is the indicator); 2 players without
dummy (9..A, 24 cards, 12 each; ``two_player_joker = true`` adds the Joker and an indicator).
Without an indicator the declarer names trumps (``name_trump``) unless
``trump_without_indicator = no_trump``.  A Joker turned up means no trumps, and no Joker in play.

Options (the brief's summary with its defaults, plus H1's ``deals``, ``target``, ``game_end``,
``first_lead`` (NEW-17: ``declarer`` | ``dealer_left``), ``dummy``, and the extensions
``three_player_joker`` (N1) and ``dummy_visible`` (NEW-15, observation only)).  ``tie`` is
refused (N9).  Parametric values are strings parsed by the regular expression
``name(int[,int])``, whitespace allowed around the tokens, case-sensitive names:

* ``stake_mode``: ``"ante(k)"`` (k >= 0, default ``"ante(1)"``), ``"equals_bid"``,
  ``"free(min,max)"`` (0 <= min <= max);
* ``show_effect``: ``"add_per_card(k)"`` (k >= 0, default ``"add_per_card(1)"``),
  ``"multiply_per_card(m)"`` (m >= 1), ``"none"``.

Choices this oracle makes
-------------------------
* Canonical text of a parametric value (brief option summary, H2): ``name(a)`` or
  ``name(a,b)`` without spaces; input may carry spaces (``"free(1, 5)"``) and means the same.
  Any integer parameter in the ranges above is accepted, not only the values the summary shows.
* ``stake_mode = free(min, max)`` (NEW-7, N10): the stake is chosen in the same event as the
  bid, as a field ``stake``: ``{"seat": s, "action": "bid", "tricks": n, "stake": k}`` with
  min <= k <= max (the brief: "announces ... and at the same time puts a stake").  Under the
  other stake modes ``stake`` is malformed.  ``equals_bid``: the stake is the bid itself (0 for
  a bid of 0).  ``ante(k)``: k each, automatic.
* ``show_effect`` (NEW-8, N6): ``add_per_card(k)`` adds k per card shown to the declarer's
  stake; ``multiply_per_card(m)`` multiplies the declarer's base stake by m^c for c cards shown
  (with the ante of 1 this is N6's m^c); ``none``: the ``show`` event is still written (N7) with
  the same legal subsets, the cards become visible, the stake is unchanged.
* ``call_mode = required`` (NEW-2, NEW-3, N10, records.md): the player's count that triggers the
  call is their success target (D under ``success_target = declarer_bid``, their own bid under
  ``own_bid``).  After the trick that brings the credited player's count to that target, that
  player (never the dummy's seat) decides ``call`` or ``no_call`` before anything else.  A player
  whose target is 0 (every player when D = 0 under the default) decides before the first lead,
  after ``show``, in clockwise order from the declarer (real players only).  Success needs the
  call and the final count (``exact`` or ``at_least``).
* ``bonus_requires_call = true`` (NEW-11, N10): T(p) + 2R(p) are paid only to a player who made
  the call during the deal; under ``call_mode = automatic`` that is a player whose count reached
  their target at some point (T(p) >= target), whether or not they finished exactly on it.
* ``declarer_tie_break = redeal`` (NEW-4, N8): any tie for the highest bid (an all-zero auction
  included) ends the deal as abandoned right after the last bid: scores 0, every stake is
  returned (money 0), ``pot_carry`` unchanged, the entry carries ``"abandoned": true``; it counts
  as a deal for ``deals(k)`` (as R9 says for pagat) and the deal passes clockwise as usual.
* ``dummy_after_win = dummy_leads_by_last_controller`` (NEW-15, N10): after a trick won by the
  dummy's card, the next trick is led from the dummy's hand (seat 2), played by that trick's
  controller, who keeps control; the order is then dummy, the other real player, the controller.
  A trick won by a real player's own card is led from that player's hand as usual.
* The deal in the dummy game runs over the three hands from seat (dealer+1) mod 3 (records.md's
  deal rule; the same reading as A2), so with dealer 1 the dummy gets the first card.  Bidding
  is one circuit of the real players from the dealer's left (the non-dealer first with 2).
* ``dummy_visible`` (NEW-15 extension, default true): only what ``observe`` shows.
* Options that do not concern the table (``two_player_joker`` at 4 players...) are accepted and
  have no effect; ``dummy = true`` needs ``players = 2``.
* Match length (R9, N9, R10): neither ``deals`` nor ``target``: one deal.  ``deals(k)``: the
  highest total after k deals wins, ties shared.  ``target(T)``: after each deal the match ends
  when the highest total is >= T and unique.  N5: at the end the pot still unclaimed is added to
  the winner's ``money`` in the last deal (split equally when shared, remainder stays in
  ``pot_carry``).
* ``observe(seat)`` (protocol.md, optional): the seat's own hand, public facts (indicator,
  trump, bids and stakes, declarer, D, shown cards, the dummy's hand once bidding is over, the
  trick in progress, tricks taken, pot, totals); only real seats may observe.

Other points: every decision is written (R1), including ``show []`` (N7); the trump is named
before ``show`` (records.md); the Joker ranks above the trump Ace and belongs to the trump suit
(NEW-9 default); ``identity_of_indicator`` makes it an exact copy of the indicator card (its
number included, N2); ``suitless_top`` lets it be played at any time, it wins the trick, and if
it is led the next card sets the suit to follow.  ``details`` keeps per-deal data for tests.
"""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

SUITS = "CDHS"
RANKS = "23456789TJQKA"
JOKER = "JK"
DUMMY = 2
GAME = "abracadabra-newton"

Event = dict[str, Any]


def card_index(card: str) -> int:
    """Canonical card order (H5, R2): suits C, D, H, S, ranks 2..A, the Joker last."""
    if card == JOKER:
        return 52
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def canon_key(event: Event) -> str:
    """The canonical JSON text an event list is sorted by (H5)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def is_int(value: Any) -> bool:
    """True for a JSON integer (booleans excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


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
    """Parse a suit letter (R6b): C, D, H or S, lowercase accepted, no words."""
    if not isinstance(value, str) or len(value) != 1 or value.upper() not in SUITS:
        raise ValueError(f"malformed suit {value!r} (R6b: one letter C, D, H or S)")
    return value.upper()


PARAM_RE = re.compile(r"^\s*([a-z_]+)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\))?\s*$")


def parse_param(name: str, value: Any) -> tuple[str, tuple[int, ...]]:
    """Parse ``stake_mode`` / ``show_effect`` values such as ``"free(1,5)"`` (H2)."""
    m = PARAM_RE.match(value) if isinstance(value, str) else None
    if m is None:
        raise ValueError(f"bad value {value!r} for option {name} (H2)")
    kind = m.group(1)
    args = tuple(int(g) for g in m.groups()[1:] if g is not None)
    shapes = {
        "stake_mode": {"ante": 1, "equals_bid": 0, "free": 2},
        "show_effect": {"add_per_card": 1, "multiply_per_card": 1, "none": 0},
    }[name]
    if kind not in shapes or len(args) != shapes[kind]:
        raise ValueError(f"bad value {value!r} for option {name} (H2)")
    if kind == "free" and args[0] > args[1]:
        raise ValueError(f"bad value {value!r} for option {name}: min > max")
    if kind == "multiply_per_card" and args[0] < 1:
        raise ValueError(f"bad value {value!r} for option {name}: m >= 1")
    return kind, args


def canonical_param(kind: str, args: tuple[int, ...]) -> str:
    """The canonical text of a parametric option value: ``name(a,b)``, no spaces."""
    return kind if not args else f"{kind}({','.join(str(a) for a in args)})"


ENUM_OPTIONS: dict[str, tuple[str, ...]] = {
    "success_target": ("declarer_bid", "own_bid"),
    "success_compare": ("exact", "at_least"),
    "call_mode": ("automatic", "required"),
    "declarer_tie_break": ("earliest", "latest", "redeal"),
    "joker_mode": ("highest_trump", "identity_of_indicator", "suitless_top"),
    "pot_recipients": ("successful", "most_tricks"),
    "pot_remainder": ("carry", "first_successful_from_dealer_left"),
    "trump_without_indicator": ("declarer_names", "no_trump"),
    "dummy_after_win": ("controller_leads", "dummy_leads_by_last_controller"),
    "first_lead": ("declarer", "dealer_left"),
}
BOOL_OPTIONS: tuple[str, ...] = (
    "bonus_requires_call",
    "two_player_joker",
    "three_player_joker",
    "dummy",
    "dummy_visible",
)
DEFAULTS: dict[str, Any] = {
    "success_target": "declarer_bid",
    "success_compare": "exact",
    "call_mode": "automatic",
    "declarer_tie_break": "earliest",
    "stake_mode": "ante(1)",
    "show_effect": "add_per_card(1)",
    "joker_mode": "highest_trump",
    "ace_number": 1,
    "bonus_requires_call": False,
    "pot_recipients": "successful",
    "pot_remainder": "carry",
    "trump_without_indicator": "declarer_names",
    "dummy_after_win": "controller_leads",
    "two_player_joker": False,
    "three_player_joker": True,
    "first_lead": "declarer",
    "dummy": False,
    "dummy_visible": True,
}
GAME_END_RE = re.compile(r"^\s*(deals|target)\s*\(\s*(\d+)\s*\)\s*$")


@dataclass(frozen=True)
class Config:
    """Everything fixed for a match: table, pack, options, match length."""

    players: int  # real players N
    dummy: bool
    nhands: int  # hands dealt (3 in the dummy game)
    hand_size: int  # = number of tricks = highest bid
    has_joker: bool  # the pack holds the Joker (then one card is the indicator)
    pack: tuple[str, ...]  # canonical order (R2)
    opts: dict[str, Any]
    stake: tuple[str, tuple[int, ...]]
    show: tuple[str, tuple[int, ...]]
    match_mode: str  # "deals" or "target"
    match_value: int


def build_config(game: Any, players: Any, options: Any, dealer: Any) -> Config:
    """Validate ``new``'s arguments (R3, H1, H2, H3) and build the match configuration."""
    stem = os.path.splitext(os.path.basename(game))[0] if isinstance(game, str) else None
    if stem != GAME:
        raise ValueError(f"unknown game {game!r} (this oracle plays {GAME!r})")
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
            if not isinstance(value, str) or value not in ENUM_OPTIONS[name]:
                raise ValueError(f"bad value {value!r} for option {name} (H2)")
            opts[name] = value
        elif name in BOOL_OPTIONS:
            if not isinstance(value, bool):
                raise ValueError(f"bad value {value!r} for option {name} (H2: true or false)")
            opts[name] = value
        elif name == "ace_number":
            if not is_int(value) or value not in (1, 14):
                raise ValueError(f"bad value {value!r} for option ace_number (1 or 14)")
            opts[name] = value
        elif name in ("stake_mode", "show_effect"):
            opts[name] = canonical_param(*parse_param(name, value))
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
        ranks, hand_size, has_joker = RANKS, 13, True
    elif players == 3 or dummy:
        ranks, hand_size, has_joker = "6789TJQKA", 12, bool(opts["three_player_joker"])
    else:
        ranks, hand_size, has_joker = "9TJQKA", 12, bool(opts["two_player_joker"])
    nhands = 3 if dummy else players
    pack = [r + s for s in SUITS for r in RANKS if r in ranks]
    if has_joker:
        pack.append(JOKER)
    assert len(pack) == nhands * hand_size + (1 if has_joker else 0)
    if not is_int(dealer) or not 0 <= dealer < players:
        raise ValueError(f"bad dealer {dealer!r} (H3)")
    return Config(
        players=players,
        dummy=dummy,
        nhands=nhands,
        hand_size=hand_size,
        has_joker=has_joker,
        pack=tuple(pack),
        opts=opts,
        stake=parse_param("stake_mode", opts["stake_mode"]),
        show=parse_param("show_effect", opts["show_effect"]),
        match_mode=match_mode,
        match_value=match_value,
    )


@dataclass
class Deal:
    """Mutable state of the deal in progress."""

    dealer: int
    phase: str = "shuffle"  # shuffle, bid, name_trump, show, call, play
    hands: list[list[str]] = field(default_factory=list)
    indicator: str | None = None
    trump: str | None = None
    bid_order: list[int] = field(default_factory=list)  # real seats, dealer's left first
    bids: list[int | None] = field(default_factory=list)
    stakes: list[int] = field(default_factory=list)  # per real seat, this deal
    declarer: int | None = None
    D: int = 0
    shown: list[str] = field(default_factory=list)
    call_queue: list[int] = field(default_factory=list)  # seats that must call / no_call
    called: list[bool] = field(default_factory=list)
    trick_no: int = 1
    leader: int = 0  # hand seat that leads the current trick (2: the dummy)
    controller: int | None = None  # dummy game: who plays the dummy's card this trick
    trick: list[tuple[int, str]] = field(default_factory=list)  # (hand seat, card)
    led_suit: str | None = None  # suit to follow (None: no suit set yet)
    tricks: list[int] = field(default_factory=list)  # T(p) per real seat
    captured: list[list[str]] = field(default_factory=list)
    trick_winners: list[int] = field(default_factory=list)  # credited real seat per trick


class AbracadabraNewtonOracle:
    """Python protocol implementation (protocol.md) of Newton's Abracadabra."""

    def __init__(self) -> None:
        self.cfg: Config | None = None
        self.deal: Deal | None = None
        self.dealer = 0
        self.deals: list[dict[str, Any]] = []
        self.details: list[dict[str, Any]] = []
        self.totals: list[int] = []
        self.pot = 0  # carried over into the next deal
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
        self.pot = 0
        self.over = False
        self._start_deal()

    def to_move(self) -> int | str | None:
        """Hand seat to act (the dummy's hand is 2, R8), ``"chance"``, or None when over."""
        if self.over or self.cfg is None:
            return None
        d = self._d()
        if d.phase == "shuffle":
            return "chance"
        if d.phase == "bid":
            return d.bid_order[sum(b is not None for b in d.bids)]
        if d.phase in ("name_trump", "show"):
            assert d.declarer is not None
            return d.declarer
        if d.phase == "call":
            return d.call_queue[0]
        return self._trick_order()[len(d.trick)]

    def legal(self) -> list[Event]:
        """Every legal event in canonical form (H5), sorted by canonical JSON text."""
        if self.over or self.cfg is None:
            return []
        cfg, d = self._c(), self._d()
        if d.phase == "shuffle":
            return [{"chance": "shuffle", "cards": list(cfg.pack)}]  # R2 template
        seat = self.to_move()
        assert isinstance(seat, int)
        events: list[Event]
        if d.phase == "bid":
            kind, args = cfg.stake
            stakes: list[int | None] = (
                list(range(args[0], args[1] + 1)) if kind == "free" else [None]
            )
            events = []
            for n in range(cfg.hand_size + 1):
                for k in stakes:
                    ev: Event = {"seat": seat, "action": "bid", "tricks": n}
                    if k is not None:
                        ev["stake"] = k
                    events.append(ev)
        elif d.phase == "name_trump":
            events = [{"seat": seat, "action": "name_trump", "suit": s} for s in SUITS]
        elif d.phase == "show":
            # All events share every field but ``cards``, and list texts are prefix-free, so
            # sorting by the list's JSON text is sorting by the whole canonical text (H5).
            texts: list[tuple[str, tuple[str, ...]]] = [("", ())]
            for card in reversed(d.hands[seat]):  # build subsets in canonical card order
                quoted = f'"{card}"'
                texts += [(quoted + ("," + t if t else ""), (card, *c)) for t, c in texts]
            texts.sort(key=lambda tc: "[" + tc[0] + "]")
            return [{"seat": seat, "action": "show", "cards": list(c)} for _, c in texts]
        elif d.phase == "call":
            events = [{"seat": seat, "action": "call"}, {"seat": seat, "action": "no_call"}]
        else:
            events = [{"seat": seat, "action": "play", "card": c} for c in self._playable(seat)]
        events.sort(key=canon_key)
        return events

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
            self._do_shuffle(self._check_shuffle(event))
            return
        if "chance" in event:
            raise ValueError(f"illegal event: a decision of seat {self.to_move()} is due")
        seat, action = event.get("seat"), event.get("action")
        if not is_int(seat) or not isinstance(action, str):
            raise ValueError("malformed event: needs integer 'seat' and string 'action'")
        handlers = {
            "bid": self._ev_bid,
            "name_trump": self._ev_name_trump,
            "show": self._ev_show,
            "call": self._ev_call,
            "no_call": self._ev_call,
            "play": self._ev_play,
        }
        if action not in handlers:
            raise ValueError(f"malformed event: unknown action {action!r}")
        expected = {"call", "no_call"} if d.phase == "call" else {d.phase}
        if action not in expected:
            raise ValueError(f"illegal event: {action!r} now; expected {sorted(expected)}")
        if seat != self.to_move():
            raise ValueError(f"illegal event: seat {seat} is not to move ({self.to_move()} is)")
        handlers[action](event)

    def result(self) -> dict[str, Any]:
        """The replay answer (records.md, R4): ok, complete, deals, totals, winners, ..."""
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

    def observe(self, seat: int) -> dict[str, Any]:
        """What real seat ``seat`` may see now (own hand and the public facts)."""
        cfg = self._c()
        if not is_int(seat) or not 0 <= seat < cfg.players:
            raise ValueError(f"bad seat {seat!r}")
        obs: dict[str, Any] = {
            "seat": seat,
            "dealer": self.dealer,
            "totals": list(self.totals),
            "pot": self.pot,
            "over": self.over,
        }
        if self.over or self.deal is None:
            return obs
        d = self._d()
        obs["pot"] = self.pot + sum(d.stakes)
        if d.phase == "shuffle":
            return obs
        obs.update(
            hand=list(d.hands[seat]),
            indicator=d.indicator,
            trump=d.trump,
            bids=list(d.bids),
            stakes=list(d.stakes),
            declarer=d.declarer,
            D=d.D if d.declarer is not None else None,
            shown=[c for c in d.shown if d.declarer is not None and c in d.hands[d.declarer]],
            trick=[[s, c] for s, c in d.trick],
            tricks=list(d.tricks),
            to_move=self.to_move(),
        )
        if cfg.dummy and d.phase != "bid" and cfg.opts["dummy_visible"]:
            obs["dummy"] = list(d.hands[DUMMY])
        return obs

    def clone(self) -> AbracadabraNewtonOracle:
        """An independent deep copy."""
        other = AbracadabraNewtonOracle.__new__(AbracadabraNewtonOracle)
        other.__dict__ = copy.deepcopy(self.__dict__)
        return other

    # ------------------------------------------------------------------ helpers

    def _d(self) -> Deal:
        assert self.deal is not None
        return self.deal

    def _c(self) -> Config:
        assert self.cfg is not None
        return self.cfg

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

    def _target_of(self, p: int) -> int:
        """The count p must reach (NEW-1): D, or p's own bid."""
        d = self._d()
        if self._c().opts["success_target"] == "own_bid":
            bid = d.bids[p]
            assert bid is not None
            return bid
        return d.D

    # ------------------------------------------------------------------ deal flow

    def _start_deal(self) -> None:
        n = self._c().players
        self.deal = Deal(
            dealer=self.dealer,
            bid_order=[(self.dealer + 1 + i) % n for i in range(n)],
            bids=[None] * n,
            stakes=[0] * n,
            called=[False] * n,
            tricks=[0] * n,
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
        if sorted(cards, key=card_index) != list(self._c().pack):
            raise ValueError("illegal shuffle: 'cards' must be an order of the whole playing pack")
        return cards

    def _do_shuffle(self, cards: list[str]) -> None:
        """Deal one at a time from hand dealer+1 clockwise over every hand (records.md)."""
        cfg, d = self._c(), self._d()
        hands: list[list[str]] = [[] for _ in range(cfg.nhands)]
        seat = (d.dealer + 1) % cfg.nhands
        for pos in range(cfg.hand_size * cfg.nhands):
            hands[seat].append(cards[pos])
            seat = (seat + 1) % cfg.nhands
        d.hands = [sorted(h, key=card_index) for h in hands]
        if cfg.has_joker:
            d.indicator = cards[cfg.hand_size * cfg.nhands]
            d.trump = None if d.indicator == JOKER else d.indicator[1]  # §2.2
        d.phase = "bid"

    def _ev_bid(self, event: Event) -> None:
        cfg, d = self._c(), self._d()
        kind, args = cfg.stake
        if kind == "free":
            self._check_fields(event, {"tricks", "stake"})
        else:
            self._check_fields(event, {"tricks"})
        n = event["tricks"]
        if not is_int(n):
            raise ValueError("malformed bid: 'tricks' must be an integer")
        if not 0 <= n <= cfg.hand_size:
            raise ValueError(f"illegal bid {n}: bids run 0..{cfg.hand_size} (NEW-5)")
        if kind == "free":
            k = event["stake"]
            if not is_int(k):
                raise ValueError("malformed bid: 'stake' must be an integer")
            if not args[0] <= k <= args[1]:
                raise ValueError(f"illegal stake {k}: free({args[0]},{args[1]}) (NEW-7)")
            stake = k
        elif kind == "ante":
            stake = args[0]
        else:  # equals_bid
            stake = n
        seat = event["seat"]
        d.bids[seat] = n
        d.stakes[seat] = stake
        if all(b is not None for b in d.bids):
            self._end_bidding()

    def _end_bidding(self) -> None:
        """Phase B: the highest bid, ties per declarer_tie_break (NEW-4, NEW-6, N8)."""
        cfg, d = self._c(), self._d()
        top = max(b for b in d.bids if b is not None)
        tied = [s for s in d.bid_order if d.bids[s] == top]
        rule = cfg.opts["declarer_tie_break"]
        if len(tied) > 1 and rule == "redeal":
            self._finish_abandoned()
            return
        d.declarer = tied[-1] if rule == "latest" else tied[0]
        d.D = top
        if d.indicator is None and cfg.opts["trump_without_indicator"] == "declarer_names":
            d.phase = "name_trump"
        else:
            d.phase = "show"

    def _ev_name_trump(self, event: Event) -> None:
        self._check_fields(event, {"suit"})
        suit = parse_suit(event["suit"])
        d = self._d()
        d.trump = suit
        d.phase = "show"

    def _ev_show(self, event: Event) -> None:
        self._check_fields(event, {"cards"})
        cfg, d = self._c(), self._d()
        raw = event["cards"]
        if not isinstance(raw, list):
            raise ValueError("malformed show: 'cards' must be a list")
        cards = [parse_card(c) for c in raw]
        if len(set(cards)) != len(cards):
            raise ValueError("malformed show: repeated card (R7)")
        seat = event["seat"]
        missing = [c for c in cards if c not in d.hands[seat]]
        if missing:
            raise ValueError(f"illegal show: {missing} not in the declarer's hand")
        kind, args = cfg.show
        if kind == "add_per_card":
            d.stakes[seat] += args[0] * len(cards)
        elif kind == "multiply_per_card":
            d.stakes[seat] *= args[0] ** len(cards)
        d.shown = sorted(cards, key=card_index)
        self._start_play()

    def _start_play(self) -> None:
        cfg, d = self._c(), self._d()
        assert d.declarer is not None
        if cfg.opts["first_lead"] == "dealer_left":
            d.leader = (d.dealer + 1) % cfg.players
        else:
            d.leader = d.declarer
        d.trick_no = 1
        self._start_trick(d.leader if cfg.dummy else None)
        if cfg.opts["call_mode"] == "required":
            order = [(d.declarer + i) % cfg.players for i in range(cfg.players)]
            d.call_queue = [p for p in order if self._target_of(p) == 0]  # NEW-2: D = 0
        d.phase = "call" if d.call_queue else "play"

    def _start_trick(self, controller: int | None) -> None:
        d = self._d()
        d.trick = []
        d.led_suit = None
        d.controller = controller

    def _trick_order(self) -> list[int]:
        """Hands in playing order for the current trick (the dummy plays third, NEW-15)."""
        cfg, d = self._c(), self._d()
        if not cfg.dummy:
            return [(d.leader + i) % cfg.players for i in range(cfg.players)]
        assert d.controller is not None
        if d.leader == DUMMY:  # dummy_leads_by_last_controller
            return [DUMMY, 1 - d.controller, d.controller]
        return [d.leader, 1 - d.leader, DUMMY]

    def _suit_of(self, card: str) -> str | None:
        """The suit a card belongs to for following (None: the suitless Joker)."""
        if card != JOKER:
            return card[1]
        d, mode = self._d(), self._c().opts["joker_mode"]
        if mode == "suitless_top":
            return None
        if mode == "identity_of_indicator":
            assert d.indicator is not None and d.indicator != JOKER
            return d.indicator[1]
        assert d.trump is not None  # a Joker in play means an indicator, so trumps
        return d.trump

    def _rank_of(self, card: str) -> int:
        """Rank order 0..12 for 2..A; the Joker 13 (above the trump Ace) or the indicator's."""
        if card != JOKER:
            return RANKS.index(card[0])
        d = self._d()
        if self._c().opts["joker_mode"] == "identity_of_indicator":
            assert d.indicator is not None
            return RANKS.index(d.indicator[0])
        return 13

    def _number_of(self, card: str) -> int | None:
        """The rank number for R (NEW-10, N2): A = 1 or 14, J 11, Q 12, K 13, Joker none."""
        if card == JOKER:
            d = self._d()
            if self._c().opts["joker_mode"] != "identity_of_indicator":
                return None
            assert d.indicator is not None
            card = d.indicator
        r = card[0]
        if r == "A":
            return int(self._c().opts["ace_number"])
        return {"T": 10, "J": 11, "Q": 12, "K": 13}.get(r) or int(r)

    def _playable(self, hand_seat: int) -> list[str]:
        """Follow suit if able, else anything; the suitless Joker at any time (NEW-9)."""
        d = self._d()
        hand = d.hands[hand_seat]
        if d.led_suit is None:
            return list(hand)
        follow = [c for c in hand if self._suit_of(c) == d.led_suit]
        if not follow:
            return list(hand)
        if JOKER in hand and self._suit_of(JOKER) is None:
            follow.append(JOKER)
        return sorted(follow, key=card_index)

    def _ev_play(self, event: Event) -> None:
        self._check_fields(event, {"card"})
        card = parse_card(event["card"])
        seat = event["seat"]
        d = self._d()
        if card not in d.hands[seat]:
            raise ValueError(f"illegal play: {card} is not in hand {seat}")
        if card not in self._playable(seat):
            raise ValueError(f"illegal play: {card} does not follow suit {d.led_suit}")
        d.hands[seat].remove(card)
        d.trick.append((seat, card))
        if d.led_suit is None:
            d.led_suit = self._suit_of(card)  # None after a led suitless Joker
        if len(d.trick) == self._c().nhands:
            self._end_trick()

    def _trick_winner(self) -> tuple[int, str]:
        """(hand seat, card): the suitless Joker; else highest trump; else highest of led."""
        d = self._d()
        for seat, card in d.trick:
            if self._suit_of(card) is None:
                return seat, card
        trumps = [(s, c) for s, c in d.trick if d.trump is not None and self._suit_of(c) == d.trump]
        cands = trumps or [(s, c) for s, c in d.trick if self._suit_of(c) == d.led_suit]
        return max(cands, key=lambda sc: self._rank_of(sc[1]))

    def _end_trick(self) -> None:
        cfg, d = self._c(), self._d()
        hand, _ = self._trick_winner()
        by_dummy = cfg.dummy and hand == DUMMY
        credited = d.controller if by_dummy else hand
        assert credited is not None
        d.tricks[credited] += 1
        d.captured[credited].extend(c for _, c in d.trick)
        d.trick_winners.append(credited)
        d.trick_no += 1
        if by_dummy and cfg.opts["dummy_after_win"] == "dummy_leads_by_last_controller":
            d.leader = DUMMY
            self._start_trick(credited)
        else:
            d.leader = credited
            self._start_trick(credited if cfg.dummy else None)
        target = self._target_of(credited)
        if cfg.opts["call_mode"] == "required" and target > 0 and d.tricks[credited] == target:
            d.call_queue = [credited]
            d.phase = "call"
            return
        self._next_or_end()

    def _next_or_end(self) -> None:
        d = self._d()
        if d.trick_no > self._c().hand_size:
            self._finish_deal()
        else:
            d.phase = "play"

    def _ev_call(self, event: Event) -> None:
        self._check_fields(event, set())
        d = self._d()
        seat = d.call_queue.pop(0)
        d.called[seat] = event["action"] == "call"
        if d.call_queue:
            return
        if d.trick_no == 1:
            d.phase = "play"  # the calls of target 0 before the first lead (NEW-2)
        else:
            self._next_or_end()

    # ------------------------------------------------------------------ scoring, pot, match

    def _score_deal(self) -> tuple[list[int], list[int], dict[str, Any]]:
        """§2.4: scores, the pot split (NEW-12, N4, N6) and the money of the deal."""
        cfg, d = self._c(), self._d()
        N = cfg.players
        required = cfg.opts["call_mode"] == "required"
        at_least = cfg.opts["success_compare"] == "at_least"
        targets = [self._target_of(p) for p in range(N)]
        called = [d.called[p] if required else d.tricks[p] >= targets[p] for p in range(N)]
        reached = [
            d.tricks[p] >= targets[p] if at_least else d.tricks[p] == targets[p] for p in range(N)
        ]
        success = [reached[p] and called[p] for p in range(N)]
        n = sum(success)
        R = [
            sum(1 for c in d.captured[p] if d.D > 0 and self._number_of(c) == d.D) for p in range(N)
        ]
        scores = []
        for p in range(N):
            s = 10 * (N - n + 1) if success[p] else 0
            if called[p] or not cfg.opts["bonus_requires_call"]:
                s += d.tricks[p] + 2 * R[p]
            scores.append(s)
        pot = self.pot + sum(d.stakes)
        if cfg.opts["pot_recipients"] == "most_tricks":
            top = max(d.tricks)
            recipients = [p for p in range(N) if d.tricks[p] == top]
        else:
            recipients = [p for p in range(N) if success[p]]
        share = [0] * N
        carry = pot
        if recipients:
            each, rem = divmod(pot, len(recipients))
            for p in recipients:
                share[p] += each
            carry = rem
            if rem and cfg.opts["pot_remainder"] == "first_successful_from_dealer_left":
                first = next(s for s in d.bid_order if s in recipients)
                share[first] += rem
                carry = 0
        money = [share[p] - d.stakes[p] for p in range(N)]
        self.pot = carry
        detail = {
            "dealer": d.dealer,
            "indicator": d.indicator,
            "trump": d.trump,
            "bids": list(d.bids),
            "stakes": list(d.stakes),
            "declarer": d.declarer,
            "D": d.D,
            "shown": list(d.shown),
            "tricks": list(d.tricks),
            "trick_winners": list(d.trick_winners),
            "R": R,
            "called": called,
            "success": success,
            "pot": pot,
            "captured": [sorted(c, key=card_index) for c in d.captured],
        }
        return scores, money, detail

    def _finish_abandoned(self) -> None:
        """declarer_tie_break = redeal: nothing scored, the stakes go back (N8 reading)."""
        d = self._d()
        n = self._c().players
        entry = {"scores": [0] * n, "money": [0] * n, "pot_carry": self.pot, "abandoned": True}
        detail = {"dealer": d.dealer, "abandoned": True, "bids": list(d.bids)}
        self._record(entry, detail)

    def _finish_deal(self) -> None:
        scores, money, detail = self._score_deal()
        self._record({"scores": scores, "money": money, "pot_carry": self.pot}, detail)

    def _record(self, entry: dict[str, Any], detail: dict[str, Any]) -> None:
        cfg = self._c()
        self.deals.append(entry)
        self.details.append(detail)
        self.totals = [a + b for a, b in zip(self.totals, entry["scores"])]
        self.dealer = (self.dealer + 1) % cfg.players
        if self._match_over():
            self.over = True
            self.deal = None
            winners = self._winners()
            each, rem = divmod(self.pot, len(winners))  # N5: the unclaimed pot
            for p in winners:
                entry["money"][p] += each
            self.pot = rem
            entry["pot_carry"] = rem
        else:
            self._start_deal()

    def _match_over(self) -> bool:
        """R9, R10, N9: deals(k) shared ties; target(T) needs a unique top >= T."""
        cfg = self._c()
        if cfg.match_mode == "deals":
            return len(self.deals) >= cfg.match_value
        top = max(self.totals)
        return top >= cfg.match_value and self.totals.count(top) == 1

    def _winners(self) -> list[int]:
        top = max(self.totals)
        return [p for p, t in enumerate(self.totals) if t == top]
