"""Independent oracle for English short whist (game name ``whist``).

Written from the published rules of whist (pagat.com's Whist page and the classic laws of short
whist it follows), the record vocabulary of ``docs/records.md`` and the Python protocol of
``docs/protocol.md`` only.  Standard library only; it imports nothing from rulespec.

The table and the options
-------------------------
* Four players, partners across: team 0 = seats 0 and 2, team 1 = seats 1 and 3.
* ``target`` (integer 1..100, default 5): the match is one game; it ends after the deal in which
  a side's total reaches ``target``, and that side wins.
* ``honours`` (boolean, default true): whether honours are scored.
* Anything else (another game, players != 4, another option name, a value of the wrong type or
  out of range, a bad dealer) is a ``ValueError``.

A deal
------
* ``to_move()`` is ``"chance"``; ``legal()`` is the one shuffle template of R2 (the 52 codes in
  canonical order: suits C, D, H, S, ranks 2..A).  ``apply`` takes any order of those 52 codes
  (top first; lower case and ``10`` accepted, R6); the dealer deals them one at a time from the
  top, clockwise from the left: seat ``(dealer + 1 + i) % 4`` receives ``cards[i]``.  The last
  card (``cards[51]``, the dealer's own) is turned up and fixes the trump suit; it stays part of
  the dealer's hand.
* The player on the dealer's left leads to the first trick; players follow suit if able, else
  play any card; the highest trump wins, else the highest card of the suit led (A high); the
  trick's winner leads the next.  The only decision: ``{"seat": S, "action": "play", "card": C}``.
* The deal passes to the left: the next deal's dealer is ``dealer + 1``.

Scoring (the readings settled, see ``score_deal``)
--------------------------------------------------
1. Tricks: the side that took more than six tricks scores one point per trick over six (the
   "odd tricks").  13 tricks always give one side at least seven.
2. Honours: A, K, Q and J of the trump suit, counted in the hands *as dealt* (the turned-up
   trump card is the dealer's), whoever later wins them in play.  A side dealt all four scores 4,
   a side dealt three scores 2; two and two: nobody scores.
3. Order: tricks score first, honours last.  If the odd tricks bring the side that took them to
   ``target``, the game is over and no honours are scored in that deal (neither side's).
4. A side that stood at ``target - 1`` at the start of the deal (the "score of four" of the
   five-point game) cannot score honours: it must make an odd trick to go out.
5. A side can otherwise reach ``target`` through honours (a game won "by honours").  Only one
   side can score honours in a deal, and only one can score tricks, and a side that goes out on
   tricks ends the scoring, so at most one side ever reaches ``target``.
6. Points are recorded as scored; a total may pass ``target`` (no capping).

Sources read (pagat.com's own Whist page was not reachable from this workplace): Hoyle's Games
Improved, on short whist: honours "are never called, though always counted, except at the point
of four, which answers to the point of nine in the other game, and tricks in like manner have at
this precedence of honours"; Enquire Within, no. 77: in short whist honours "are counted by their
holders and scored--except at the score of four"; Wikipedia (Whist): "A pair with four points is
unable to win game by Honours and needs to make an odd trick"; Cassell's: honours "dealt to him in
one hand, or if he and his partner have the cards between them ... score four ... Three honours
count for two ... [two each:] neither side reaps any advantage".  The club laws' wording, "at the
commencement of a deal", fixes *when* the score of four is read (reading 4).

The replay answer (records.md section 3, a game of teams)
---------------------------------------------------------
``{"ok", "complete", "deals": [{"scores", "team_scores"}], "totals", "winners", "teams",
"team_totals", "team_winners"}`` plus ``to_move`` and ``legal`` while incomplete; ``winners``
and ``team_winners`` are ``[]`` until the match ends (records.md 3.1, R4).

``details`` (not part of the protocol) keeps, per finished deal, what the scoring used.
"""

from __future__ import annotations

import copy
import json
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PACK: list[str] = [r + s for s in SUITS for r in RANKS]  # canonical order (records.md 1.5)
PACK_SET = frozenset(PACK)
HONOUR_RANKS = "AKQJ"
TEAMS = [0, 1, 0, 1]
DEFAULT_TARGET = 5

Event = dict[str, Any]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_card(value: Any) -> str:
    """A card code in canonical form: upper case, ``T`` for the ten (R6)."""
    if not isinstance(value, str):
        raise ValueError(f"malformed card {value!r}")
    code = value.upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    if code not in PACK_SET:
        raise ValueError(f"malformed card {value!r}")
    return code


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


def canon_text(event: Event) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """The seat that wins a trick of (seat, card) plays in order: the highest trump, else the
    highest card of the suit led."""
    led = plays[0][1][1]
    best_seat, best_card = plays[0]
    for seat, card in plays[1:]:
        if card[1] == best_card[1]:
            if rank_of(card) > rank_of(best_card):
                best_seat, best_card = seat, card
        elif card[1] == trump:  # a trump on a non-trump best card
            best_seat, best_card = seat, card
        # any other card (a discard, or a card of the led suit under a trump) cannot win
    assert best_card[1] in (led, trump)
    return best_seat


def honours_value(count: int) -> int:
    """Points for the trump honours a side was dealt: four 4, three 2, else none."""
    return {4: 4, 3: 2}.get(count, 0)


def score_deal(
    start: list[int], team_tricks: list[int], team_honours: list[int], target: int, honours: bool
) -> tuple[list[int], dict[str, Any]]:
    """One deal's points per team, and notes on how they were reached.

    ``start``: the teams' totals before the deal; ``team_tricks``: tricks taken (sum 13);
    ``team_honours``: trump honours each team was dealt (sum 4)."""
    assert sum(team_tricks) == 13 and sum(team_honours) == 4
    points = [0, 0]
    notes: dict[str, Any] = {"odd_team": None, "odd": 0, "honours_team": None,
                             "honours_points": 0, "honours_scored": False, "why_not": None}
    odd_team = 0 if team_tricks[0] > 6 else 1
    odd = team_tricks[odd_team] - 6
    points[odd_team] += odd
    notes["odd_team"], notes["odd"] = odd_team, odd
    h_team = next((t for t in (0, 1) if honours_value(team_honours[t]) > 0), None)
    if h_team is None:
        notes["why_not"] = "honours divided" if honours else "honours not played"
        return points, notes
    notes["honours_team"] = h_team
    notes["honours_points"] = honours_value(team_honours[h_team])
    if not honours:
        notes["why_not"] = "honours not played"
    elif start[odd_team] + odd >= target:
        notes["why_not"] = "game won on tricks: honours score last"
    elif start[h_team] == target - 1:
        notes["why_not"] = "side at the score of target-1 cannot score honours"
    else:
        points[h_team] += notes["honours_points"]
        notes["honours_scored"] = True
    return points, notes


class WhistOracle:
    """The protocol's Python form (protocol.md 1.2) for English short whist."""

    def __init__(self) -> None:
        self.target = DEFAULT_TARGET
        self.honours = True
        self.first_dealer = 0
        self.dealer = 0
        self.phase = "none"  # "none" before new, "shuffle", "play", "over"
        self.hands: list[list[str]] = [[], [], [], []]
        self.dealt: list[list[str]] = [[], [], [], []]
        self.trump = ""
        self.turn_up = ""
        self.leader = 0
        self.trick: list[tuple[int, str]] = []
        self.tricks_won = [0, 0, 0, 0]
        self.tricks_played: list[dict[str, Any]] = []
        self.deals: list[dict[str, Any]] = []
        self.details: list[dict[str, Any]] = []
        self.team_totals = [0, 0]

    # ------------------------------------------------------------------ protocol verbs

    def new(self, game: str, players: int, options: dict[str, Any], dealer: int = 0) -> None:
        """Start a fresh match; ``ValueError`` on a table or option not offered."""
        if game != "whist":
            raise ValueError(f"unknown game {game!r} (this oracle plays 'whist')")
        if not _is_int(players) or players != 4:
            raise ValueError(f"bad player count {players!r}: whist is for 4 players")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError("options must be an object")
        target, honours = DEFAULT_TARGET, True
        for name, value in options.items():
            if name == "target":
                if not _is_int(value) or not 1 <= value <= 100:
                    raise ValueError(f"bad value {value!r} for option target (1..100)")
                target = value
            elif name == "honours":
                if not isinstance(value, bool):
                    raise ValueError(f"bad value {value!r} for option honours (true or false)")
                honours = value
            elif name == "honours_to_game" and value is True:
                # the spec's third option (WH-3), added after this oracle was written: its
                # default is the reading this oracle plays; its other value is not offered
                pass
            else:
                raise ValueError(f"unknown option {name!r}")
        if not _is_int(dealer) or not 0 <= dealer < 4:
            raise ValueError(f"bad dealer {dealer!r}")
        self.__init__()  # type: ignore[misc]
        self.target, self.honours = target, honours
        self.first_dealer = self.dealer = dealer
        self.phase = "shuffle"

    def to_move(self) -> int | str | None:
        if self.phase in ("none", "over"):
            return None
        if self.phase == "shuffle":
            return "chance"
        return (self.leader + len(self.trick)) % 4

    def legal(self) -> list[Event]:
        if self.phase == "shuffle":
            return [{"chance": "shuffle", "cards": list(PACK)}]
        if self.phase != "play":
            return []
        seat = (self.leader + len(self.trick)) % 4
        events = [{"seat": seat, "action": "play", "card": c} for c in self._playable(seat)]
        return sorted(events, key=canon_text)

    def apply(self, event: Event) -> None:
        """Apply one event; ``ValueError`` (state unchanged) if illegal or malformed."""
        if self.phase == "none":
            raise ValueError("no match: call new first")
        if self.phase == "over":
            raise ValueError("the match is over (R5)")
        if not isinstance(event, dict):
            raise ValueError("malformed event: not an object")
        if self.phase == "shuffle":
            self._apply_shuffle(event)
        else:
            self._apply_play(event)

    def result(self) -> dict[str, Any]:
        over = self.phase == "over"
        win_team = self._winning_team() if over else None
        out: dict[str, Any] = {
            "ok": True,
            "complete": over,
            "deals": copy.deepcopy(self.deals),
            "totals": [self.team_totals[TEAMS[s]] for s in range(4)],
            "winners": [s for s in range(4) if TEAMS[s] == win_team] if over else [],
            "teams": list(TEAMS),
            "team_totals": list(self.team_totals),
            "team_winners": [win_team] if over and win_team is not None else [],
        }
        if not over:
            out["to_move"] = self.to_move()
            out["legal"] = self.legal()
        return out

    def clone(self) -> WhistOracle:
        other = WhistOracle.__new__(WhistOracle)
        other.__dict__ = copy.deepcopy(self.__dict__)
        return other

    # ------------------------------------------------------------------ internals

    def _winning_team(self) -> int | None:
        reached = [t for t in (0, 1) if self.team_totals[t] >= self.target]
        assert len(reached) <= 1
        return reached[0] if reached else None

    def _playable(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1][1]
            follow = [c for c in hand if c[1] == led]
            if follow:
                return sorted(follow, key=PACK.index)
        return sorted(hand, key=PACK.index)

    def _apply_shuffle(self, event: Event) -> None:
        if set(event) != {"chance", "cards"}:
            if "chance" not in event:
                raise ValueError("illegal event: a shuffle is due (to_move is 'chance')")
            raise ValueError("malformed shuffle: fields must be exactly 'chance' and 'cards' (R6)")
        if event["chance"] != "shuffle":
            raise ValueError(f"illegal event: a shuffle is due, not {event['chance']!r}")
        raw = event["cards"]
        if not isinstance(raw, list):
            raise ValueError("malformed shuffle: 'cards' must be a list")
        cards = [parse_card(c) for c in raw]
        if len(cards) != 52 or set(cards) != PACK_SET:
            raise ValueError("illegal shuffle: 'cards' must be an order of the whole pack")
        # validated: deal
        hands: list[list[str]] = [[], [], [], []]
        for i, card in enumerate(cards):
            hands[(self.dealer + 1 + i) % 4].append(card)
        self.hands = hands
        self.dealt = [list(h) for h in hands]
        self.turn_up = cards[51]
        self.trump = cards[51][1]
        self.leader = (self.dealer + 1) % 4
        self.trick = []
        self.tricks_won = [0, 0, 0, 0]
        self.tricks_played = []
        self.phase = "play"

    def _apply_play(self, event: Event) -> None:
        if "chance" in event:
            raise ValueError(f"illegal event: a decision of seat {self.to_move()} is due")
        if set(event) != {"seat", "action", "card"}:
            raise ValueError("malformed event: a play has exactly 'seat', 'action' and 'card'")
        seat, action = event["seat"], event["action"]
        if not _is_int(seat) or not isinstance(action, str):
            raise ValueError("malformed event: needs an integer 'seat' and a string 'action'")
        if action != "play":
            raise ValueError(f"illegal event: unknown action {action!r}")
        card = parse_card(event["card"])
        to_move = self.to_move()
        if seat != to_move:
            raise ValueError(f"illegal event: seat {seat} is not to move ({to_move} is)")
        if card not in self.hands[seat]:
            raise ValueError(f"illegal event: seat {seat} does not hold {card}")
        if card not in self._playable(seat):
            raise ValueError(f"illegal event: seat {seat} must follow suit")
        # validated: play
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            return
        winner = trick_winner(self.trick, self.trump)
        self.tricks_won[winner] += 1
        self.tricks_played.append(
            {"leader": self.leader, "cards": [c for _, c in self.trick], "winner": winner})
        self.trick = []
        self.leader = winner
        if len(self.tricks_played) == 13:
            self._end_deal()

    def _end_deal(self) -> None:
        team_tricks = [self.tricks_won[0] + self.tricks_won[2], self.tricks_won[1] + self.tricks_won[3]]
        team_honours = [0, 0]
        for seat in range(4):
            for card in self.dealt[seat]:
                if card[1] == self.trump and card[0] in HONOUR_RANKS:
                    team_honours[TEAMS[seat]] += 1
        start = list(self.team_totals)
        points, notes = score_deal(start, team_tricks, team_honours, self.target, self.honours)
        self.team_totals = [start[t] + points[t] for t in (0, 1)]
        self.deals.append({"scores": [points[TEAMS[s]] for s in range(4)],
                           "team_scores": list(points)})
        self.details.append({
            "dealer": self.dealer, "trump": self.trump, "turn_up": self.turn_up,
            "dealt": [list(h) for h in self.dealt], "tricks": self.tricks_played,
            "tricks_won": list(self.tricks_won), "team_tricks": team_tricks,
            "team_honours": team_honours, "start": start, "points": points, **notes,
        })
        if self._winning_team() is not None:
            self.phase = "over"
        else:
            self.dealer = (self.dealer + 1) % 4
            self.phase = "shuffle"
