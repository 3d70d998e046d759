"""Independent "oracle" implementation of Vändåtta (VAN), written from the rule briefs alone.

Sources used: ``shared/rules/vandatta.md`` (the game, ids VAN-n), ``resolutions.md`` (settled
points H-n, R-n, V-n), ``records.md`` (events, card codes, replay answer) and ``protocol.md`` (the
Python verbs).  It is a witness for differential tests of the rules-language interpreter, so it
deliberately shares no code with it.

Readings chosen for points the briefs leave to the implementation (V14 and others)
---------------------------------------------------------------------------------
* ``multi_aces = true`` (VAN-6, V14): a group of several Aces (Aces form one rank; with two packs
  identical duplicates may appear, V10) may be played wherever a single Ace is legal.  The *first*
  Ace must be legal as a single Ace on the top card (on an ordinary top: the Ace of the top's suit;
  on an Ace top: any Ace, unless ``ace_on_ace = false``; never on an 8).  Like a single Ace, such a
  group can never empty the hand (VAN-11).  Each Ace in the group makes every other player draw
  one card: one clockwise round from the player's left per Ace, rounds one after the other.  The
  player then gets one extra turn.  Groups of Aces also need ``multi_play = true``, and on a
  special top (an Ace) they also need ``multi_on_special_top = true``.
* ``multi_on_special_top = false`` (VAN-5): no multi-card play at all on an 8 or Ace top.
* ``lappen_detection = challenge_before_next_turn`` (V14): treated exactly like ``automatic``; no
  event is written for it.
* ``empty_stock = end_deal`` (V14): when a card must be drawn (a ``draw`` decision, an Ace effect,
  the turn-up Ace, a lappen penalty) and the stock is empty, the deal ends at once, no reshuffle.
  Every player still in scores their hand as in a blocked deal: the ``blocked`` option applies
  and the deal is marked ``"blocked": true``.  Under this option a ``draw`` decision never needs
  a card to be present (so it stays legal on an empty stock, within ``max_draws``, and by V2 a
  player may then not pass before the draw limit: drawing ends the deal).
* Player count (V13) with ``hand_size``: ``2 <= P`` and ``hand_size * P + 1 <= pack size`` (the
  brief's ``7P + 1`` with the default hand).  With ``target`` the check is made for every number of
  players that can still be in (packs are recomputed from the players still in, V12).
* Option values: ``hand_size >= 1``, ``max_draws >= 0``, ``lappen_penalty >= 0``, ``deals >= 1``,
  ``target >= 1`` (integers, not booleans).  ``game_end`` may not be given together with
  ``deals`` or ``target`` (R9 says ``deals`` and ``target`` together are an error; a second
  spelling of the match length is treated the same way).
* ``lappen_penalty_trigger = not_announced`` / ``both``: as V7.  The "announced" flag of a seat is
  cleared whenever its hand leaves lappen state; under ``both`` a ``lappen`` (or an earlier
  announcement that still covers the state when the turn passes) makes the penalty due if the seat
  fails to go out on its next turn, exactly as under the default; a pending penalty is not
  cancelled by draws in between (VAN-13).

Card representation: an int ``suit * 13 + rank`` with suits C, D, H, S = 0..3 and ranks 2..A =
0..12, so sorting ints gives the canonical order of H5/R2 (duplicates of two packs adjacent).
"""

from __future__ import annotations

import json
import re
from typing import Any

SUITS = "CDHS"
RANKS = "23456789TJQKA"
EIGHT = 6  # rank index of the 8
ACE = 12  # rank index of the Ace

RANK_OF = [c % 13 for c in range(52)]
SUIT_OF = [c // 13 for c in range(52)]
ORDINARY = [RANK_OF[c] not in (EIGHT, ACE) for c in range(52)]
CODE = [RANKS[c % 13] + SUITS[c // 13] for c in range(52)]

# Penalty points per card (§3.4).
PAGAT_POINTS = [10 if r == EIGHT else 5 if r == ACE else 1 for r in RANK_OF]
SWEDISH_POINTS = [
    25 if r == EIGHT else 15 if r == ACE else 10 if r in (8, 9, 10, 11) else 5 for r in RANK_OF
]

# Phases.
PH_NONE, PH_SHUFFLE, PH_BURY, PH_RESHUFFLE, PH_TURN, PH_ASK, PH_OVER = range(7)

# Work-queue operations (processed by ``_run`` until a decision or chance event is needed).
OP_DRAW = 0  # (OP_DRAW, seat): draw one card (forced, or the card of a ``draw`` decision)
OP_TURN = 1  # (OP_TURN, seat, extra): a turn segment begins (extra: after one's own Ace)
OP_RESUME = 2  # (OP_RESUME,): the current segment goes on after a ``draw`` decision
OP_CHECK = 3  # (OP_CHECK, seat): the lappen announcement check when the seat's turn passes (V7)
OP_TURNUP = 4  # (OP_TURNUP,): turn the top stock card to start the discard pile (§3.2)

DEFAULT_OPTIONS: dict[str, Any] = {
    "decks": "auto",
    "hand_size": 7,
    "turnup_eight": "bury_random",
    "turnup_ace_all_draw": True,
    "voluntary_draw": True,
    "max_draws": 3,
    "multi_play": True,
    "multi_first_card": "suit_or_rank",
    "multi_on_special_top": True,
    "multi_aces": False,
    "ace_on_ace": True,
    "go_out_in_ace_extra_turn": "allowed",
    "lappen_states": "rank_set",
    "lappen_penalty_trigger": "announced_but_not_out",
    "lappen_penalty": 3,
    "lappen_detection": "automatic",
    "empty_stock": "reshuffle",
    "blocked": "all_score",
    "scoring": "pagat",
    "deck_strip": "none",
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "turnup_eight": ("bury_random", "bottom"),
    "multi_first_card": ("suit_or_rank", "suit_only"),
    "go_out_in_ace_extra_turn": ("allowed", "forbidden"),
    "lappen_states": ("rank_set", "single_card_only"),
    "lappen_penalty_trigger": ("announced_but_not_out", "not_announced", "both"),
    "lappen_detection": ("automatic", "challenge_before_next_turn"),
    "empty_stock": ("reshuffle", "pass_when_empty", "end_deal"),
    "blocked": ("all_score", "lowest_hand_scores_zero"),
    "scoring": ("pagat", "swedish"),
    "deck_strip": ("none", "remove_2_to_5"),
}
_BOOLS = (
    "turnup_ace_all_draw",
    "voluntary_draw",
    "multi_play",
    "multi_on_special_top",
    "multi_aces",
    "ace_on_ace",
)
_INT_MIN = {"hand_size": 1, "max_draws": 0, "lappen_penalty": 0}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def card_code(c: int) -> str:
    """Canonical code of card ``c`` (``TH``, ``8S``...)."""
    return CODE[c]


_CODE_INDEX = {code: c for c, code in enumerate(CODE)}


def parse_card(x: Any) -> int:
    """Parse a card code, accepting the leniencies of R6 (lowercase, ``10`` for ten)."""
    c = _CODE_INDEX.get(x) if isinstance(x, str) else None
    if c is not None:
        return c
    if not isinstance(x, str):
        raise ValueError(f"malformed card {x!r}")
    s = x.upper()
    if len(s) == 3 and s.startswith("10"):
        s = "T" + s[2]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in SUITS:
        raise ValueError(f"malformed card {x!r}")
    return SUITS.index(s[1]) * 13 + RANKS.index(s[0])


def parse_suit(x: Any) -> int:
    """Parse a named suit: one letter C, D, H, S, lowercase accepted (R6b)."""
    if not isinstance(x, str) or len(x) != 1 or x.upper() not in SUITS:
        raise ValueError(f"malformed suit {x!r} (one of C, D, H, S)")
    return SUITS.index(x.upper())


def _json_key(e: dict) -> str:
    return json.dumps(e, sort_keys=True, separators=(",", ":"))


def _decks_for(decks: Any, n_in: int) -> int:
    """Number of packs for ``n_in`` players still in (§3.1, V12, V13)."""
    if decks == "auto":
        return 1 if n_in <= 5 else 2
    return int(decks)


_PLAY_KEYS: dict[tuple, str] = {}


def _play_sort_key(k: tuple) -> str:
    """Sort key of a play that orders plays of one seat as their canonical JSON text does:
    ``{"action":"play","cards":[...],"seat":S[,"suit":"X"]}`` differ first inside the cards
    array (or where one array ends), and plays with identical arrays differ only by suit."""
    t = _PLAY_KEYS.get(k)
    if t is None:
        if len(_PLAY_KEYS) > 100_000:
            _PLAY_KEYS.clear()
        t = '["' + '","'.join([CODE[c] for c in k[1]]) + '"]'
        if k[2] >= 0:
            t += ',"suit":"' + SUITS[k[2]] + '"'
        _PLAY_KEYS[k] = t
    return t


def build_pack(decks: int, strip: bool) -> list[int]:
    """The playing pack(s) in canonical order (H5): duplicates adjacent with two packs."""
    ranks = range(4, 13) if strip else range(13)  # remove_2_to_5 drops ranks 2..5 (VAN-23, H9)
    return sorted(s * 13 + r for s in range(4) for r in ranks for _ in range(decks))


class VandattaOracle:
    """Vändåtta engine speaking the Python verbs of ``protocol.md``.

    Internal state is plain lists and ints.  The discard pile is kept bottom-first: element 0 is
    the oldest card and the last element is the top card.  The stock is kept with its top card
    at the *end* of the list.  The reshuffle template therefore lists the discard pile without
    its top card in "pile order" = bottom first = the order in which the cards were played (or
    turned up); the event's ``cards`` give the new stock top first (records.md).
    """

    def __init__(self) -> None:
        self._phase = PH_NONE
        self._version = 0
        self._cache: tuple[int, list[tuple]] | None = None

    # ------------------------------------------------------------------ protocol verbs

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        """Start a fresh match.  Raises ``ValueError`` for an unknown game, option, bad value,
        bad player count (V13) or bad dealer (R3)."""
        if not isinstance(game, str) or re.sub(r"\.rules$", "", game.replace("\\", "/").rsplit("/", 1)[-1]) != "vandatta":
            raise ValueError(f"unknown game {game!r}")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        opts = dict(DEFAULT_OPTIONS)
        deals: int | None = None
        target: int | None = None
        game_end_given = False
        ge_deals: int | None = None
        ge_target: int | None = None
        for k, v in options.items():
            if k in ("deals", "target"):
                if not _is_int(v) or v < 1:
                    raise ValueError(f"bad value {v!r} for option {k}")
                if k == "deals":
                    deals = v
                else:
                    target = v
            elif k == "game_end":
                if not isinstance(v, str):
                    raise ValueError(f"bad value {v!r} for option game_end")
                m = re.fullmatch(r"(deals|target|elimination)\((\d+)\)", v)
                if not m or int(m.group(2)) < 1:
                    raise ValueError(f"bad value {v!r} for option game_end")
                game_end_given = True
                if m.group(1) == "deals":
                    ge_deals, ge_target = int(m.group(2)), None
                else:
                    ge_deals, ge_target = None, int(m.group(2))
            elif k not in DEFAULT_OPTIONS:
                raise ValueError(f"unknown option {k!r}")
            elif k in _BOOLS:
                if not isinstance(v, bool):
                    raise ValueError(f"bad value {v!r} for option {k} (true or false)")
                opts[k] = v
            elif k in _INT_MIN:
                if not _is_int(v) or v < _INT_MIN[k]:
                    raise ValueError(f"bad value {v!r} for option {k}")
                opts[k] = v
            elif k == "decks":
                if not (v == "auto" or (_is_int(v) and v in (1, 2))):
                    raise ValueError(f"bad value {v!r} for option decks (\"auto\", 1 or 2)")
                opts[k] = v
            else:
                if not isinstance(v, str) or v not in _CHOICES[k]:
                    raise ValueError(f"bad value {v!r} for option {k}")
                opts[k] = v
        if deals is not None and target is not None:
            raise ValueError("options deals and target together (R9)")
        if game_end_given:
            if deals is not None or target is not None:
                raise ValueError("game_end together with deals or target (R9)")
            deals, target = ge_deals, ge_target
        if not _is_int(players) or players < 2:
            raise ValueError(f"bad player count {players!r} (V13)")
        strip = opts["deck_strip"] == "remove_2_to_5"
        hs = opts["hand_size"]
        counts = range(2, players + 1) if target is not None else (players,)
        for n in counts:
            if hs * n + 1 > len(build_pack(_decks_for(opts["decks"], n), strip)):
                raise ValueError(f"bad player count {players} for the pack (V13)")
        if not _is_int(dealer) or not 0 <= dealer < players:
            raise ValueError(f"bad dealer {dealer!r}")

        # Validated: from here on the state is replaced.
        self._o = opts
        self._strip = strip

        # Options as plain attributes (speed).
        self._hs = hs
        self._eight_bottom = opts["turnup_eight"] == "bottom"
        self._ace_all_draw = opts["turnup_ace_all_draw"]
        self._voluntary = opts["voluntary_draw"]
        self._max_draws = opts["max_draws"]
        self._multi = opts["multi_play"]
        self._suit_only = opts["multi_first_card"] == "suit_only"
        self._multi_special = opts["multi_on_special_top"]
        self._multi_aces = opts["multi_aces"]
        self._ace_on_ace = opts["ace_on_ace"]
        self._forbid_out_extra = opts["go_out_in_ace_extra_turn"] == "forbidden"
        self._single_only = opts["lappen_states"] == "single_card_only"
        trig = opts["lappen_penalty_trigger"]
        self._pen_not_out = trig in ("announced_but_not_out", "both")  # VAN-13 default penalty
        self._ask = trig in ("not_announced", "both")  # lappen / no_lappen decision (V7)
        self._penalty = opts["lappen_penalty"]
        self._empty = opts["empty_stock"]
        self._lowest_zero = opts["blocked"] == "lowest_hand_scores_zero"
        self._points = SWEDISH_POINTS if opts["scoring"] == "swedish" else PAGAT_POINTS

        self._P = players
        self._n_deals = deals if deals is not None else (None if target is not None else 1)
        self._target = target
        self._dealer = dealer
        self._out = [False] * players
        self._totals = [0] * players
        self._deals: list[tuple[list[int], bool]] = []
        self._winners: list[int] = []
        self._start_deal_state()
        self._phase = PH_SHUFFLE
        self._version += 1
        self._cache = None

    def to_move(self) -> int | str | None:
        """Seat to decide, ``"chance"``, or ``None`` when the match is over."""
        ph = self._phase
        if ph in (PH_TURN, PH_ASK):
            return self._cur
        if ph in (PH_SHUFFLE, PH_BURY, PH_RESHUFFLE):
            return "chance"
        if ph == PH_OVER:
            return None
        raise ValueError("no match: call new() first")

    def legal(self) -> list[dict]:
        """Every legal event in canonical form (H5), sorted by canonical JSON text.

        At a shuffle: the one template ``{"chance": "shuffle", "cards": [pack in canonical
        order]}`` (R2).  At a reshuffle: ``{"chance": "reshuffle", "cards": [...]}`` listing the
        discard pile without its top card in pile order, which here means bottom first: the
        order in which the cards reached the pile (turned up or played).  At a bury: every
        ``{"chance": "bury", "position": k}`` for k in 0..len(stock) (V6)."""
        internal = self._legal_internal()
        if self._phase == PH_TURN:
            # All events share the seat, so the canonical JSON order is: draw, pass, then the
            # plays ordered by their JSON text from the cards on (see _play_sort_key).
            plays = [k for k in internal if k[0] == "play"]
            plays.sort(key=_play_sort_key)
            seat = self._cur
            evs: list[dict] = [{"seat": seat, "action": k[0]} for k in internal if k[0] != "play"]
            evs.sort(key=lambda e: e["action"])
            for k in plays:
                e: dict[str, Any] = {"seat": seat, "action": "play", "cards": [CODE[c] for c in k[1]]}
                if k[2] >= 0:
                    e["suit"] = SUITS[k[2]]
                evs.append(e)
            return evs
        keyed = [(self._key_text(k), k) for k in internal]
        keyed.sort()
        return [self._event_dict(k) for _, k in keyed]

    def apply(self, event: dict) -> None:
        """Apply one event.  Raises ``ValueError`` (state unchanged) if illegal or malformed."""
        if self._phase == PH_NONE:
            raise ValueError("no match: call new() first")
        if self._phase == PH_OVER:
            raise ValueError("the match is over")  # R5
        if not isinstance(event, dict):
            raise ValueError("an event must be an object")
        if "chance" in event:
            self._apply_chance(event)
        else:
            self._apply_decision(event)
        self._version += 1
        self._cache = None

    def result(self) -> dict:
        """The replay answer of records.md (key order of R4)."""
        if self._phase == PH_NONE:
            raise ValueError("no match: call new() first")
        over = self._phase == PH_OVER
        deals = []
        for scores, blocked in self._deals:
            d: dict[str, Any] = {"scores": list(scores)}
            if blocked:
                d["blocked"] = True
            deals.append(d)
        res: dict[str, Any] = {
            "ok": True,
            "complete": over,
            "deals": deals,
            "totals": list(self._totals),
            "winners": list(self._winners) if over else [],
        }
        if not over:
            res["to_move"] = self.to_move()
            res["legal"] = self.legal()
        return res

    def clone(self) -> VandattaOracle:
        """An independent deep copy."""
        c = VandattaOracle.__new__(VandattaOracle)
        d = dict(self.__dict__)
        for k in ("_out", "_totals", "_winners", "_stock", "_discard", "_pending", "_ann", "_q", "_pack"):
            if k in d:
                d[k] = list(d[k])
        if "_hands" in d:
            d["_hands"] = [list(h) for h in d["_hands"]]
        if "_deals" in d:
            d["_deals"] = [(list(s), b) for s, b in d["_deals"]]
        d["_cache"] = None
        c.__dict__.update(d)
        return c

    # ------------------------------------------------------------------ helpers: seats, pack

    def _in_seats(self) -> list[int]:
        return [s for s in range(self._P) if not self._out[s]]

    def _next_in(self, s: int) -> int:
        """Next seat clockwise (to the left) that is still in (V12)."""
        P = self._P
        t = (s + 1) % P
        while self._out[t]:
            t = (t + 1) % P
        return t

    def _round_from(self, s: int) -> list[int]:
        """Seats still in, clockwise starting at s's left, excluding s itself."""
        res = []
        t = self._next_in(s)
        while t != s:
            res.append(t)
            t = self._next_in(t)
        return res

    def _start_deal_state(self) -> None:
        """Reset per-deal state; the pack is recomputed from the players still in (V12)."""
        P = self._P
        self._n_in = P - sum(self._out)
        self._pack = build_pack(_decks_for(self._o["decks"], self._n_in), self._strip)
        self._hands: list[list[int]] = [[] for _ in range(P)]
        self._stock: list[int] = []  # top card at the end
        self._discard: list[int] = []  # bottom first, top card at the end
        self._named = -1  # named suit while an 8 is on top
        self._cur = -1
        self._draws = 0  # draws in this turn segment (H9)
        self._seg_drew = False
        self._extra = False  # in the extra turn after one's own Ace
        self._counter = 0  # V4 blocked-deal counter
        self._pending = [False] * P  # lappen penalty due if the next turn passes without going out
        self._ann = [False] * P  # lappen announced for the current state (not_announced/both)
        self._q: list[tuple] = []
        self._held8 = -1  # turned-up 8 awaiting its bury position

    # ------------------------------------------------------------------ rules: legality

    def _lappen_state(self, hand: list[int]) -> bool:
        """§3.3 / VAN-14: one ordinary card, or (rank_set) only ordinary cards of one rank."""
        if not hand:
            return False
        if self._single_only:
            return len(hand) == 1 and ORDINARY[hand[0]]
        r = RANK_OF[hand[0]]
        for c in hand:
            if not ORDINARY[c] or RANK_OF[c] != r:
                return False
        return True

    def _can_draw(self) -> bool:
        """Can a draw decision supply a card (V1, VAN-15)?"""
        if self._stock:
            return True
        if self._empty == "reshuffle":
            return len(self._discard) > 1
        return self._empty == "end_deal"  # reading: drawing on empty ends the deal (V14)

    def _plays(self, s: int) -> list[tuple]:
        """All legal plays for seat s as ``("play", cards_tuple, suit_or_-1)`` (§3.3 table)."""
        hand = self._hands[s]
        n = len(hand)
        top = self._discard[-1]
        tr = RANK_OF[top]
        ts = SUIT_OF[top]
        top_ord = ORDINARY[top]
        top_ace = tr == ACE
        # Suit to follow on a special top: the named suit (8) or the Ace's suit.
        follow = self._named if tr == EIGHT else ts
        # No play may empty the hand in an Ace extra turn under "forbidden" (VAN-12, V8).
        out_ok = not (self._extra and self._forbid_out_extra)
        res: list[tuple] = []
        distinct = set(hand)
        for c in distinct:
            r = RANK_OF[c]
            if r == EIGHT:
                # An 8 only on an ordinary top, naming any suit (VAN-10); never the last card (VAN-11).
                if top_ord and n > 1:
                    for x in range(4):
                        res.append(("play", (c,), x))
            elif r == ACE:
                # Ace of the top's suit on an ordinary card; any Ace on an Ace (V8); never last card.
                if n > 1 and ((top_ord and SUIT_OF[c] == ts) or (top_ace and self._ace_on_ace)):
                    res.append(("play", (c,), -1))
            else:
                if n == 1 and not out_ok:
                    continue
                ok = (SUIT_OF[c] == ts or r == tr) if top_ord else SUIT_OF[c] == follow
                if ok:
                    res.append(("play", (c,), -1))
        # Groups (§3.3 (2), VAN-5, VAN-6, VAN-19, V10).
        if self._multi and n >= 2 and (top_ord or self._multi_special):
            rank_count = [0] * 13
            for c in hand:
                rank_count[RANK_OF[c]] += 1
            for r in range(13):
                total = rank_count[r]
                if total < 2 or r == EIGHT or (r == ACE and not self._multi_aces):
                    continue
                counts: dict[int, int] = {}
                for c in hand:
                    if RANK_OF[c] == r:
                        counts[c] = counts.get(c, 0) + 1
                if r == ACE:
                    if top_ord:
                        firsts = [c for c in counts if SUIT_OF[c] == ts]
                    elif top_ace and self._ace_on_ace:
                        firsts = list(counts)
                    else:
                        firsts = []
                    maxlen = min(total, n - 1)  # Aces never empty the hand (VAN-11)
                else:
                    if top_ord:
                        if self._suit_only:
                            firsts = [c for c in counts if SUIT_OF[c] == ts]
                        else:
                            firsts = [c for c in counts if SUIT_OF[c] == ts or r == tr]
                    else:
                        firsts = [c for c in counts if SUIT_OF[c] == follow]
                    maxlen = total if (total < n or out_ok) else n - 1
                if maxlen < 2 or not firsts:
                    continue
                for seq in _sequences(counts, firsts, maxlen):
                    res.append(("play", seq, -1))
        return res

    def _legal_internal(self) -> list[tuple]:
        """Legal events as internal tuples (cached per state version)."""
        if self._cache is not None and self._cache[0] == self._version:
            return self._cache[1]
        ph = self._phase
        if ph == PH_TURN:
            plays = self._plays(self._cur)
            res = list(plays)
            can_draw = self._can_draw()
            under_limit = self._draws < self._max_draws
            # VAN-3 / V3: a draw needs voluntary_draw or no legal play.
            if under_limit and can_draw and (self._voluntary or not plays):
                res.append(("draw",))
            # V2: pass iff the draws reached max_draws, or no card can be drawn and no play exists.
            if not under_limit or (not can_draw and not plays):
                res.append(("pass",))
        elif ph == PH_ASK:
            res = [("lappen",), ("no_lappen",)]
        elif ph == PH_SHUFFLE:
            res = [("shuffle",)]
        elif ph == PH_RESHUFFLE:
            res = [("reshuffle",)]
        elif ph == PH_BURY:
            res = [("bury", k) for k in range(len(self._stock) + 1)]  # V6
        else:
            res = []
        self._cache = (self._version, res)
        return res

    def _key_text(self, k: tuple) -> str:
        """The canonical JSON text of event ``k`` (keys sorted, no spaces), built directly; it is
        what ``json.dumps(event, sort_keys=True, separators=(",", ":"))`` gives (H5)."""
        kind = k[0]
        if kind == "play":
            t = '{"action":"play","cards":["' + '","'.join([CODE[c] for c in k[1]])
            t += '"],"seat":' + str(self._cur)
            if k[2] >= 0:
                t += ',"suit":"' + SUITS[k[2]] + '"'
            return t + "}"
        if kind == "bury":
            return '{"chance":"bury","position":' + str(k[1]) + "}"
        if kind in ("shuffle", "reshuffle"):
            return _json_key(self._event_dict(k))
        return '{"action":"' + kind + '","seat":' + str(self._cur) + "}"

    def _event_dict(self, k: tuple) -> dict:
        kind = k[0]
        if kind == "play":
            e: dict[str, Any] = {"seat": self._cur, "action": "play", "cards": [CODE[c] for c in k[1]]}
            if k[2] >= 0:
                e["suit"] = SUITS[k[2]]
            return e
        if kind in ("draw", "pass", "lappen", "no_lappen"):
            return {"seat": self._cur, "action": kind}
        if kind == "shuffle":
            return {"chance": "shuffle", "cards": [CODE[c] for c in self._pack]}
        if kind == "reshuffle":
            return {"chance": "reshuffle", "cards": [CODE[c] for c in self._discard[:-1]]}
        return {"chance": "bury", "position": k[1]}

    # ------------------------------------------------------------------ apply: parsing

    def _apply_chance(self, ev: dict) -> None:
        kind = ev["chance"]
        ph = self._phase
        if kind in ("shuffle", "reshuffle"):
            if set(ev) != {"chance", "cards"}:
                raise ValueError(f"malformed {kind} event: fields must be chance, cards")
            if not isinstance(ev["cards"], list):
                raise ValueError(f"malformed {kind} event: cards must be a list")
            cards = [parse_card(x) for x in ev["cards"]]
            want = PH_SHUFFLE if kind == "shuffle" else PH_RESHUFFLE
            if ph != want:
                raise ValueError(f"illegal event: no {kind} is due now")
            template = self._pack if kind == "shuffle" else self._discard[:-1]
            if sorted(cards) != sorted(template):
                raise ValueError(f"illegal {kind}: cards are not a permutation of the template")
            if kind == "shuffle":
                self._deal(cards)
            else:
                # The discard pile except its top becomes the new stock, given top first (V1).
                self._discard = self._discard[-1:]
                self._stock = cards[::-1]
                self._phase = PH_TURN  # placeholder; _run sets the real phase
                self._run()
        elif kind == "bury":
            if set(ev) != {"chance", "position"}:
                raise ValueError("malformed bury event: fields must be chance, position")
            k = ev["position"]
            if not _is_int(k):
                raise ValueError("malformed bury event: position must be an integer")
            if ph != PH_BURY:
                raise ValueError("illegal event: no bury is due now")
            if not 0 <= k <= len(self._stock):
                raise ValueError(f"illegal bury position {k} (0..{len(self._stock)}, V6)")
            # k stock cards above the 8 (V6); the stock's top is at the end of the list.
            self._stock.insert(len(self._stock) - k, self._held8)
            self._held8 = -1
            self._q.insert(0, (OP_TURNUP,))
            self._run()
        else:
            raise ValueError(f"malformed event: unknown chance {kind!r}")

    def _apply_decision(self, ev: dict) -> None:
        if "seat" not in ev or "action" not in ev:
            raise ValueError("malformed event: a decision needs seat and action")
        seat, action = ev["seat"], ev["action"]
        if not _is_int(seat):
            raise ValueError("malformed event: seat must be an integer")
        if action == "play":
            allowed = {"seat", "action", "cards", "suit"}
        elif action in ("draw", "pass", "lappen", "no_lappen"):
            allowed = {"seat", "action"}
        else:
            raise ValueError(f"malformed event: unknown action {action!r}")
        extra = set(ev) - allowed
        if extra:
            raise ValueError(f"malformed event: unknown field(s) {sorted(extra)}")
        key: tuple
        if action == "play":
            if "cards" not in ev or not isinstance(ev["cards"], list) or not ev["cards"]:
                raise ValueError("malformed play: cards must be a non-empty list")
            cards = tuple(parse_card(x) for x in ev["cards"])
            suit = parse_suit(ev["suit"]) if "suit" in ev else -1
            if suit >= 0 and not (len(cards) == 1 and RANK_OF[cards[0]] == EIGHT):
                raise ValueError("illegal play: a suit is named only when the card is an 8 (R6)")
            if suit < 0 and len(cards) == 1 and RANK_OF[cards[0]] == EIGHT:
                raise ValueError("illegal play: an 8 must name a suit (VAN-10)")
            key = ("play", cards, suit)
        else:
            key = (action,)
        if self._phase not in (PH_TURN, PH_ASK):
            raise ValueError("illegal event: a chance event is due")
        if seat != self._cur:
            raise ValueError(f"illegal event: seat {self._cur} is to move, not {seat}")
        if key not in self._legal_internal():
            if action == "play":
                raise ValueError(
                    "illegal play " + " ".join(CODE[c] for c in key[1]) + " (brief §3.3, VAN-11)"
                )
            raise ValueError(f"illegal {action} now (V2, V3, V7)")
        s = seat
        if action == "play":
            self._do_play(s, key[1], key[2])
        elif action == "draw":
            self._draws += 1
            self._seg_drew = True
            self._q = [(OP_DRAW, s), (OP_RESUME,)]  # a reshuffle comes right after it (V1)
            self._run()
        elif action == "pass":
            if not self._seg_drew:
                self._counter += 1  # V4: only a segment that drew no card counts
            if self._counter >= self._n_in:
                self._end_deal(None)  # blocked at once; no lappen check (V4, V7)
                return
            self._turn_passes(s)
        elif action == "lappen":
            self._ann[s] = True
            if self._pen_not_out:
                self._pending[s] = True  # `both`: the default penalty applies too (V7)
            self._run()
        else:  # no_lappen: silence costs the penalty cards at once (V7)
            self._q[0:0] = [(OP_DRAW, s)] * self._penalty
            self._run()

    # ------------------------------------------------------------------ rules: transitions

    def _deal(self, order: list[int]) -> None:
        """Deal from the top of the shuffle order, one at a time from dealer's left (§3.2)."""
        seats = self._round_from(self._dealer) + [self._dealer]
        i = 0
        for _ in range(self._hs):
            for s in seats:
                self._hands[s].append(order[i])
                i += 1
        self._stock = order[i:][::-1]  # top of the stock = next card of the order
        self._q = [(OP_TURNUP,)]
        self._run()

    def _do_play(self, s: int, cards: tuple, suit: int) -> None:
        hand = self._hands[s]
        for c in cards:
            hand.remove(c)
        self._discard.extend(cards)  # in the order played; the last is the new top
        self._named = suit
        self._counter = 0  # V4
        self._touch(s)
        if not hand:
            self._end_deal(s)  # §3.4: the deal ends the moment a hand is emptied legally
            return
        if RANK_OF[cards[0]] == ACE:
            # Ace effect: each other player draws 1 clockwise from the player's left, once per
            # Ace (multi_aces reading); then an extra turn with a fresh draw count (VAN-4, VAN-8).
            others = self._round_from(s)
            ops: list[tuple] = []
            for _ in cards:
                ops.extend((OP_DRAW, o) for o in others)
            ops.append((OP_TURN, s, True))
            self._q = ops
            self._run()
        else:
            self._turn_passes(s)

    def _turn_passes(self, s: int) -> None:
        """Seat s's turn passes to another seat (V7): penalty first, then the announcement check."""
        ops: list[tuple] = []
        if self._pen_not_out and self._pending[s]:
            self._pending[s] = False
            ops.extend([(OP_DRAW, s)] * self._penalty)  # VAN-13
        ops.append((OP_CHECK, s))
        ops.append((OP_TURN, self._next_in(s), False))
        self._q = ops
        self._run()

    def _touch(self, s: int) -> None:
        """After seat s's hand changed: clear its announcement if it left lappen state (V7)."""
        if self._ann[s] and not self._lappen_state(self._hands[s]):
            self._ann[s] = False

    def _run(self) -> None:
        """Process queued operations until a decision or a chance event is needed."""
        q = self._q
        while q:
            op = q[0]
            kind = op[0]
            if kind == OP_DRAW:
                s = op[1]
                if self._stock:
                    del q[0]
                    self._hands[s].append(self._stock.pop())
                    self._counter = 0  # V4: forced draws count too
                    self._touch(s)
                    continue
                if self._empty == "reshuffle" and len(self._discard) > 1:
                    self._phase = PH_RESHUFFLE  # V1: the draw waits for the reshuffle event
                    return
                if self._empty == "end_deal":
                    self._end_deal(None)  # reading of V14 (module docstring)
                    return
                del q[0]  # V11 / VAN-15: the draw does not happen
            elif kind == OP_TURN:
                del q[0]
                self._cur = op[1]
                self._extra = op[2]
                self._draws = 0
                self._seg_drew = False
                self._phase = PH_TURN
                return
            elif kind == OP_RESUME:
                del q[0]
                self._phase = PH_TURN
                return
            elif kind == OP_CHECK:
                del q[0]
                s = op[1]
                state = self._lappen_state(self._hands[s])
                if not self._ask:
                    self._pending[s] = state  # default: automatic announcement (VAN-13)
                elif state:
                    if self._ann[s]:
                        if self._pen_not_out:
                            self._pending[s] = True  # `both`: counts as announced again (V7)
                    else:
                        self._cur = s
                        self._phase = PH_ASK
                        return
            elif kind == OP_TURNUP:
                del q[0]
                c = self._stock.pop()
                if RANK_OF[c] == EIGHT:
                    if all(RANK_OF[x] == EIGHT for x in self._stock):
                        # H8: only 8s left; this 8 stays and its own suit is to be followed.
                        self._discard = [c]
                        self._named = SUIT_OF[c]
                        q.append((OP_TURN, self._next_in(self._dealer), False))
                        continue
                    if self._eight_bottom:
                        self._stock.insert(0, c)  # turnup_eight = bottom: no event (V14)
                        q.insert(0, (OP_TURNUP,))
                        continue
                    self._held8 = c
                    self._phase = PH_BURY  # VAN-1 / V6
                    return
                self._discard = [c]
                self._named = -1
                if RANK_OF[c] == ACE and self._ace_all_draw:
                    # VAN-2: everyone, dealer included, draws one clockwise from dealer's left.
                    for s in self._round_from(self._dealer) + [self._dealer]:
                        q.append((OP_DRAW, s))
                q.append((OP_TURN, self._next_in(self._dealer), False))
            else:  # pragma: no cover
                raise AssertionError(op)

    def _hand_points(self, s: int) -> int:
        pts = self._points
        return sum(pts[c] for c in self._hands[s])

    def _end_deal(self, winner: int | None) -> None:
        """Score the deal (§3.4, §3.5, V4, V5), then eliminations (V12) or the next deal."""
        P = self._P
        seats = self._in_seats()
        scores = [0] * P
        for s in seats:
            if s != winner:
                scores[s] = self._hand_points(s)
        blocked = winner is None
        if blocked and self._lowest_zero:
            low = min(scores[s] for s in seats)
            for s in seats:
                if scores[s] == low:
                    scores[s] = 0  # V5: every tied lowest hand
        self._deals.append((scores, blocked))
        for s in range(P):
            self._totals[s] += scores[s]
        self._q = []
        over = False
        if self._target is not None:
            newly = [s for s in seats if self._totals[s] >= self._target]
            for s in newly:
                self._out[s] = True
            left = self._in_seats()
            if len(left) <= 1:
                over = True
                if left:
                    self._winners = left
                else:
                    low = min(self._totals[s] for s in newly)
                    self._winners = [s for s in newly if self._totals[s] == low]
        elif len(self._deals) >= self._n_deals:
            over = True
            low = min(self._totals)
            self._winners = [s for s in range(P) if self._totals[s] == low]  # R10
        if over:
            self._phase = PH_OVER
            return
        self._dealer = self._next_in(self._dealer)  # the deal passes clockwise (§3.4)
        self._start_deal_state()
        self._phase = PH_SHUFFLE


def _sequences(counts: dict[int, int], firsts: list[int], maxlen: int) -> list[tuple]:
    """Distinct ordered sequences of length 2..maxlen drawn from the multiset ``counts``
    whose first card is in ``firsts`` (identical sequences once, V10)."""
    out: list[tuple] = []
    keys = list(counts)
    cnt = dict(counts)
    prefix: list[int] = []

    def rec() -> None:
        if len(prefix) >= 2:
            out.append(tuple(prefix))
        if len(prefix) == maxlen:
            return
        for c in keys:
            if cnt[c]:
                cnt[c] -= 1
                prefix.append(c)
                rec()
                prefix.pop()
                cnt[c] += 1

    for f in firsts:
        cnt[f] -= 1
        prefix.append(f)
        rec()
        prefix.pop()
        cnt[f] += 1
    return out
