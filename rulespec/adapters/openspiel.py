"""OpenSpiel's card games (``pyspiel``) as protocol implementations of rulespec's shipped specs.

Each adapter maps the spec's options to the game's parameters (a setting the game cannot play
is not offered), the spec's events to the game's actions and back, its chance nodes to chance
events, and its returns to a replay answer. An action is applied only if it is among
the game's ``legal_actions`` (what OpenSpiel's ``apply_action_with_legality_check`` does): plain
``apply_action`` checks nothing, by OpenSpiel's documented contract, so an illegal action there
is the caller's error, not the game's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from rulespec.adapters.base import (
    FRENCH_PACK,
    Adapter,
    NotOffered,
    dealt_hands,
    permutation_of,
    winners_of,
)

__all__ = ["Hearts", "OhHell", "OpenSpielAdapter", "Spades"]

RANKS = "23456789TJQKA"


class OpenSpielAdapter(Adapter):
    """An OpenSpiel game behind the protocol. A subclass says how its spec's options become the
    game's parameters (:meth:`params`), how events become actions (:meth:`actions`), what the
    legal events are (:meth:`events`) and what the result is (:meth:`answer`)."""

    players: tuple[int, ...] = (4,)

    def __init__(self) -> None:
        self.state: Any = None
        self.options: dict[str, Any] = {}
        self.dealer = 0

    # ---- what a subclass gives
    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        """The game's parameters for these options; NotOffered where it has none."""
        raise NotImplementedError

    def events(self) -> list[dict[str, object]]:
        """The legal events now, in the spec's vocabulary."""
        raise NotImplementedError

    def actions(self, event: Mapping[str, object]) -> list[int]:
        """The game's actions that make up ``event``; NotOffered for one it cannot express."""
        raise NotImplementedError

    def answer(self) -> dict[str, object]:
        """``complete``, ``deals``, ``totals`` and ``winners`` of the replay answer."""
        raise NotImplementedError

    def started(self) -> None:
        """Called after each ``new``: the adapter's own bookkeeping starts afresh."""

    def taken(self, event: Mapping[str, object]) -> None:
        """Called after each event the game took."""

    # ---- the protocol
    def new(self, game: str, players: int, options: Mapping[str, object],
            dealer: int = 0) -> None:
        """Start a fresh match of the game with the parameters the options give."""
        opts = self.check_game(game, options)
        if players not in self.players:
            raise NotOffered(f"OpenSpiel's {self.engine} is played by "
                             f"{' or '.join(map(str, self.players))} players, not {players}")
        params = self.params(opts, players)
        self.options, self.dealer, self.table = opts, dealer, players
        self.state = pyspiel.load_game(self.engine, params).new_initial_state()
        self.started()

    def to_move(self) -> int | str | None:
        """The seat to move, ``"chance"`` at a chance node, None at the end."""
        st = self.state
        if st.is_terminal():
            return None
        return "chance" if st.is_chance_node() else int(st.current_player())

    def legal(self) -> list[dict[str, object]]:
        """The legal events, from the game's legal actions."""
        return [] if self.state.is_terminal() else self.events()

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply the event's actions to a copy of the game's state, each with OpenSpiel's
        legality check; the copy replaces the state once all were taken."""
        if not isinstance(event, Mapping):
            raise NotOffered("an event is an object")
        if self.state.is_terminal():
            raise NotOffered("the match is over")
        seat = event.get("seat")
        if "chance" in event:
            if not self.state.is_chance_node():
                raise NotOffered("no chance event is due")
        elif seat != self.to_move():
            raise NotOffered(f"seat {seat!r} is not to move")
        st = self.state.clone()
        for a in self.actions(event):
            # OpenSpiel's apply_action_with_legality_check, without the message its C++
            # side writes to standard error on every refusal
            if a not in st.legal_actions():
                raise ValueError(f"{self.engine} refuses {st.action_to_string(a)!r} "
                                 f"(action {a}) of player {st.current_player()}")
            st.apply_action(a)
        self.state = st
        self.taken(event)

    def result(self) -> dict[str, object]:
        """The replay answer: the game's returns as the spec scores, and while the match is
        on, who moves and the legal events."""
        out: dict[str, object] = {"ok": True, **self.answer()}
        if not out["complete"]:
            out["to_move"] = self.to_move()
            out["legal"] = self.legal()
        return out

    # ---- helpers for subclasses
    def outcomes(self) -> list[int]:
        """The chance node's outcomes (or the player's legal actions)."""
        st = self.state
        return [a for a, _ in st.chance_outcomes()] if st.is_chance_node() \
            else list(st.legal_actions())

    def seat_event(self, action: str, **fields: object) -> dict[str, object]:
        """A decision event of the seat to move."""
        return {"seat": self.to_move(), "action": action, **fields}


def sets_of(state: Any, size: int) -> list[frozenset[int]]:
    """Every set of ``size`` actions that the game takes one after another from ``state``, in
    some order, each legal where it is taken (a pass of three cards asked card by card)."""
    found: set[frozenset[int]] = set()

    def walk(st: Any, chosen: tuple[int, ...]) -> None:
        if len(chosen) == size:
            found.add(frozenset(chosen))
            return
        for a in st.legal_actions():
            if a in chosen or (chosen and a < chosen[-1]):
                continue  # each set once, in increasing order of its actions
            nxt = st.clone()
            nxt.apply_action(a)
            walk(nxt, (*chosen, a))

    walk(state, ())
    return sorted(found, key=sorted)


def one_card(event: Mapping[str, object], field: str = "card") -> str:
    """The card code an event names; NotOffered where it names none."""
    c = event.get(field)
    if not isinstance(c, str) or c not in FRENCH_PACK:
        raise NotOffered(f"{field!r} is not a card")
    return c


def cards_of(event: Mapping[str, object], size: int) -> list[str]:
    """The ``size`` distinct cards an event names; NotOffered otherwise."""
    cs = event.get("cards")
    if (not isinstance(cs, list) or len(cs) != size or len(set(map(str, cs))) != size
            or any(c not in FRENCH_PACK for c in cs)):
        raise NotOffered(f"'cards' is a list of {size} different cards")
    return [str(c) for c in cs]


# ---- Hearts -----------------------------------------------------------------------------------
#: hearts numbers a card rank by rank, clubs, diamonds, hearts, spades within a rank: 2C is 0
_HEARTS_SUITS = "CDHS"
#: the pass directions, by hearts' chance outcome (PassDir): how many seats to the left
_HEARTS_DIRECTIONS = {0: "hold", 1: "left", 2: "across", 3: "right"}
_HEARTS_FLAGS = {  # spec option -> hearts parameter, both booleans
    "no_points_on_first_trick": "no_pts_on_first_trick",
    "qs_breaks_hearts": "qs_breaks_hearts",
    "must_break_hearts": "must_break_hearts",
    "lead_hearts_over_queen": "can_lead_hearts_instead_of_qs",
    "can_lead_any_club": "can_lead_any_club",
    "jd_bonus": "jd_bonus",
    "avoid_all_tricks_bonus": "avoid_all_tricks_bonus",
}


def hearts_card(action: int) -> str:
    """The card code of a hearts card action."""
    return RANKS[action // 4] + _HEARTS_SUITS[action % 4]


def hearts_action(code: str) -> int:
    """The hearts action of a card code."""
    return RANKS.index(code[0]) * 4 + _HEARTS_SUITS.index(code[1])


class Hearts(OpenSpielAdapter):
    """OpenSpiel's ``hearts``: one deal of four players, the pass direction picked at random
    (or no pass), the shot moon adding 26 to the others; returns are 26 less each player's
    points (hearts.cc, ``Returns``)."""

    spec = "hearts"
    engine = "hearts"
    fixed = {"deals": 1, "moon": "add_to_others", "tie": "shared"}
    usual = {"pass_rotation": "random", "qs_breaks_hearts": True}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        rotation = options.get("pass_rotation", "rotate")
        if rotation == "rotate":
            raise NotOffered("hearts picks the pass direction at random, or never passes")
        params: dict[str, Any] = {"pass_cards": rotation == "random"}
        for mine, theirs in _HEARTS_FLAGS.items():
            if mine in options:
                params[theirs] = bool(options[mine])
        return params

    def started(self) -> None:
        self.directed = self.options.get("pass_rotation") != "random"
        self.shuffled = False
        if self.directed:
            # without passing, hearts still opens with its direction's chance node, of one
            # outcome (no pass): the spec has no event for it, so the adapter takes it
            self.state.apply_action(0)

    def taken(self, event: Mapping[str, object]) -> None:
        if event.get("chance") == "pick":
            self.directed = True
        elif event.get("chance") == "shuffle":
            self.shuffled = True

    def events(self) -> list[dict[str, object]]:
        st = self.state
        if st.is_chance_node():
            if not self.directed:
                return [{"chance": "pick", "value": _HEARTS_DIRECTIONS[a]}
                        for a in self.outcomes()]
            return [{"chance": "shuffle", "cards": list(FRENCH_PACK)}]
        if self.in_pass():
            return [self.seat_event("pass", cards=sorted(map(hearts_card, s),
                                                         key=FRENCH_PACK.index))
                    for s in sets_of(st, 3)]
        return [self.seat_event("play", card=hearts_card(a)) for a in self.outcomes()]

    def in_pass(self) -> bool:
        """Whether hearts asks for a card to pass. Its phase is a field the API does not
        show, so the adapter counts the history: the direction drawn (when it draws one),
        52 cards dealt, then 12 cards passed unless the direction is no pass."""
        if not self.shuffled:
            return False
        history = self.state.history()
        return history[0] != 0 and len(history) < 1 + 52 + 12

    def actions(self, event: Mapping[str, object]) -> list[int]:
        chance = event.get("chance")
        if chance == "pick" and not self.directed:
            by_name = {v: k for k, v in _HEARTS_DIRECTIONS.items()}
            if event.get("value") not in by_name:
                raise NotOffered("the pass direction is left, right, across or hold")
            return [by_name[str(event.get("value"))]]
        if chance == "shuffle" and self.directed and not self.shuffled:
            order = permutation_of(event, FRENCH_PACK)
            # the spec deals one card at a time from the dealer's left; hearts gives its
            # k-th dealt card to player k % 4
            hands = dealt_hands(order, 4, (self.dealer + 1) % 4, 13)
            return [hearts_action(hands[k % 4][k // 4]) for k in range(52)]
        if chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        if event.get("action") == "pass" and self.in_pass():
            return sorted(hearts_action(c) for c in cards_of(event, 3))
        if event.get("action") == "play" and not self.in_pass():
            return [hearts_action(one_card(event))]
        raise NotOffered(f"no {event.get('action')!r} is due")

    def answer(self) -> dict[str, object]:
        st = self.state
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * 4, "winners": []}
        points = [round(26 - r) for r in st.returns()]
        return {"complete": True, "deals": [{"scores": points}], "totals": points,
                "winners": winners_of(points, lowest=True)}



# ---- Spades -----------------------------------------------------------------------------------
_SPADES_SUITS = "CDHS"
#: spades' first bidding action: bid n is action 52 + n, nil being 0
_SPADES_BIDS = 52


def spades_card(action: int) -> str:
    """The card code of a spades card action: spades numbers a card suit by suit."""
    return RANKS[action % 13] + _SPADES_SUITS[action // 13]


def spades_action(code: str) -> int:
    """The spades action of a card code."""
    return _SPADES_SUITS.index(code[1]) * 13 + RANKS.index(code[0])


class Spades(OpenSpielAdapter):
    """OpenSpiel's ``spades``: one deal per state, seat 0 bidding first; a match is played the
    way its API offers (``set_current_scores`` carries the partnerships' totals into each new
    deal, ``is_game_over`` says when the match ends). The seats turn with the dealer: the
    game's player 0 is the seat on the dealer's left, so its partnership 0 is the spec's
    partnership of that seat."""

    spec = "spades"
    engine = "spades"
    fixed = {"first_dealer": "given", "tie": "play_on", "blind_nil": False,
             "bid_cap": True, "failed_nil_tricks": "count_for_partner", "nil_value": 100,
             "bag_limit": 10, "bag_penalty": 100, "spade_lead": "after_broken"}
    usual = {"mercy_rule": True, "end_bonus": 200}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        if options.get("deals"):
            raise NotOffered("spades plays a match to the target, not a number of deals")
        return {"use_mercy_rule": bool(options["mercy_rule"]),
                "mercy_threshold": int(options["mercy_threshold"]),
                "win_threshold": int(options["target"]),
                "win_or_loss_bonus": int(options["end_bonus"])}

    def started(self) -> None:
        self.deals: list[dict[str, object]] = []
        self.team_totals = [0, 0]
        self.over = False
        self.first = self.state  # the first deal's state, made by ``new``
        self.begin_deal()

    def begin_deal(self) -> None:
        """A new deal's state, carrying the totals in the game's order of partnerships."""
        if self.deals:
            self.state = self.state.get_game().new_initial_state()
        self.shift = (self.dealer + 1) % 4
        self.state.set_current_scores([self.team_totals[(p + self.shift) % 2] for p in (0, 1)])

    def seat(self, player: int) -> int:
        """The spec's seat of the game's player."""
        return (player + self.shift) % 4

    def to_move(self) -> int | str | None:
        if self.over:
            return None
        st = self.state
        return "chance" if st.is_chance_node() else self.seat(int(st.current_player()))

    def apply(self, event: Mapping[str, object]) -> None:
        if self.over:
            raise NotOffered("the match is over")
        super().apply(event)

    def taken(self, event: Mapping[str, object]) -> None:
        st = self.state
        if not st.is_terminal():
            return
        # the deal is scored: the returns are each partnership's deal score with any bonus
        returns = [round(r) for r in st.returns()]
        scores = [returns[(q - self.shift) % 4] for q in range(4)]
        for t in (0, 1):
            self.team_totals[t] += scores[t]
        self.deals.append({"scores": scores, "team_scores": scores[:2]})
        if st.is_game_over():
            self.over = True
        else:
            self.dealer = (self.dealer + 1) % 4
            self.begin_deal()

    def legal(self) -> list[dict[str, object]]:
        return [] if self.over else self.events()

    def events(self) -> list[dict[str, object]]:
        st = self.state
        if st.is_chance_node():
            return [{"chance": "shuffle", "cards": list(FRENCH_PACK)}]
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if a >= _SPADES_BIDS:
                n = a - _SPADES_BIDS
                out.append(self.seat_event("bid", tricks=n) if n else self.seat_event("nil"))
            else:
                out.append(self.seat_event("play", card=spades_card(a)))
        return out

    def actions(self, event: Mapping[str, object]) -> list[int]:
        if event.get("chance") == "shuffle" and self.state.is_chance_node():
            # the spec deals from the dealer's left; spades gives its k-th dealt card to
            # player k % 4, which is the seat k places on from the dealer's left
            return [spades_action(c) for c in permutation_of(event, FRENCH_PACK)]
        if "chance" in event:
            raise NotOffered(f"no {event.get('chance')!r} chance event is due")
        action = event.get("action")
        if action == "nil":
            return [_SPADES_BIDS]
        if action == "bid":
            n = event.get("tricks")
            if type(n) is not int or not 1 <= n <= 13:
                raise NotOffered("a bid is of 1 to 13 tricks")
            return [_SPADES_BIDS + n]
        if action == "play":
            return [spades_action(one_card(event))]
        raise NotOffered(f"spades has no {action!r}")

    def answer(self) -> dict[str, object]:
        totals = [self.team_totals[q % 2] for q in range(4)]
        out: dict[str, object] = {"complete": self.over, "deals": self.deals, "totals": totals,
                                  "teams": [0, 1, 0, 1], "team_totals": list(self.team_totals)}
        best = winners_of(self.team_totals, lowest=False) if self.over else []
        out["team_winners"] = best
        out["winners"] = [q for q in range(4) if q % 2 in best]
        return out


# ---- Oh Hell ----------------------------------------------------------------------------------
#: oh_hell keeps its first num_suits suits in this order, and numbers a card rank by rank, the
#: suits within a rank: with four suits 2C is 0, 2D 1, 2S 2, 2H 3, 3C 4
_OH_HELL_SUITS = "CDSH"
#: the table of the spec's largest hand: 10 cards for three to five players, 8 for six, 7 for seven
_OH_HELL_TABLE = {3: 10, 4: 10, 5: 10, 6: 8, 7: 7}


class OhHell(OpenSpielAdapter):
    """OpenSpiel's ``oh_hell``: one deal of three to seven players. Its chance nodes draw the
    number of tricks (one outcome when ``num_tricks_fixed`` sets it), then the dealer, then
    deal the cards one at a time, the k-th to player k % players, and the trump card last; a
    bid n is the action num_cards + n (oh_hell.cc). Its pack is the first ``num_suits`` suits
    of C, D, S, H and the lowest ``num_cards_per_suit`` ranks, the spec's ``pack_suits`` and
    ``pack_ranks``."""

    spec = "oh-hell"
    engine = "oh_hell"
    players = (3, 4, 5, 6, 7)
    fixed = {"deals": 1, "hook": True, "exact_bonus": 10, "largest_no_trump": False,
             "tie": "shared"}
    usual = {"sequence": "random", "largest": "turn_up", "first_dealer": "random",
             "scoring": "tricks_and_bonus", "points_per_trick": 1, "pack_suits": 4,
             "pack_ranks": 13}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        suits, ranks = int(options.get("pack_suits", 4)), int(options.get("pack_ranks", 13))
        scoring = options.get("scoring", "penalty")
        if scoring == "exact_only":
            raise NotOffered("oh_hell scores every trick, or the penalty for a missed bid")
        cards = suits * ranks
        turn_up = (cards - 1) // players  # oh_hell's MaxNumTricks: a card is left for trumps
        most = self.largest_hand(options, players, cards)
        params: dict[str, Any] = {"players": players, "num_suits": suits,
                                  "num_cards_per_suit": ranks,
                                  "off_bid_penalty": scoring == "penalty",
                                  "points_per_trick": int(options.get("points_per_trick", 1))}
        if options.get("sequence", "down_up") == "random":
            if most != turn_up:
                raise NotOffered(f"oh_hell draws the number of tricks from 1 to {turn_up}, "
                                 f"not to {most}")
            params["num_tricks_fixed"] = -1
            return params
        first = 1 if options.get("sequence", "down_up") in ("up", "up_down") else most
        if not 1 <= first <= turn_up:
            raise NotOffered("oh_hell always leaves a card to turn up for trumps")
        params["num_tricks_fixed"] = first
        return params

    @staticmethod
    def largest_hand(options: Mapping[str, Any], players: int, cards: int) -> int:
        """The spec's largest hand (its ``most()``) for these options."""
        largest = str(options.get("largest", "table"))
        if largest == "turn_up":
            return (cards - 1) // players
        if largest == "whole_pack":
            return cards // players
        if largest.startswith("given(") and largest.endswith(")"):
            return min(int(largest[6:-1]), cards // players)
        return min(_OH_HELL_TABLE[players], (cards - 1) // players)

    def started(self) -> None:
        suits = int(self.options.get("pack_suits", 4))
        ranks = int(self.options.get("pack_ranks", 13))
        self.suits = _OH_HELL_SUITS[:suits]
        self.pack = [c for c in FRENCH_PACK
                     if c[1] in self.suits and RANKS.index(c[0]) < ranks]
        self.random_size = self.options.get("sequence") == "random"
        self.given_dealer = self.options.get("first_dealer") == "given"
        if not self.random_size:
            # the number of tricks is an oh_hell chance node of one outcome, num_tricks_fixed:
            # the spec has no event for it, so the adapter takes it
            self.state.apply_action(self.outcomes()[0])
        self.take_given_dealer()

    def take_given_dealer(self) -> None:
        """With the first dealer given, oh_hell's draw of the dealer is taken by the adapter:
        the spec has no event for it."""
        if self.given_dealer and len(self.state.history()) == 1:
            self.state.apply_action(self.dealer)

    def taken(self, event: Mapping[str, object]) -> None:
        self.take_given_dealer()

    def card(self, action: int) -> str:
        """The card code of an oh_hell card action."""
        n = len(self.suits)
        return RANKS[action // n] + self.suits[action % n]

    def card_action(self, code: str) -> int:
        """The oh_hell action of a card code; NotOffered for a card outside the pack."""
        if code not in self.pack:
            raise NotOffered(f"{code} is not a card of this pack")
        return RANKS.index(code[0]) * len(self.suits) + self.suits.index(code[1])

    def events(self) -> list[dict[str, object]]:
        st = self.state
        if st.is_chance_node():
            if len(st.history()) < 2:  # the number of tricks, then the dealer
                return [{"chance": "pick", "value": a} for a in self.outcomes()]
            return [{"chance": "shuffle", "cards": list(self.pack)}]
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if a >= len(self.pack):
                out.append(self.seat_event("bid", tricks=a - len(self.pack)))
            else:
                out.append(self.seat_event("play", card=self.card(a)))
        return out

    def actions(self, event: Mapping[str, object]) -> list[int]:
        st = self.state
        chance = event.get("chance")
        history = st.history() if st.is_chance_node() else []
        if chance == "pick" and st.is_chance_node() and len(history) < 2:
            value = event.get("value")
            if type(value) is not int:
                raise NotOffered("a pick's value is a number")
            return [value]
        if chance == "shuffle" and st.is_chance_node() and len(history) == 2:
            order = permutation_of(event, self.pack)
            tricks, dealer = history[0], history[1]
            players = self.table
            # the spec deals one card at a time from the dealer's left and turns up the next;
            # oh_hell gives its k-th dealt card to player k % players, then the trump card
            hands = dealt_hands(order, players, (dealer + 1) % players, tricks)
            dealt = [hands[k % players][k // players] for k in range(players * tricks)]
            return [self.card_action(c) for c in [*dealt, order[players * tricks]]]
        if chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        action = event.get("action")
        if action == "bid":
            n = event.get("tricks")
            if type(n) is not int or n < 0:
                raise NotOffered("a bid is a number of tricks")
            return [len(self.pack) + n]
        if action == "play":
            return [self.card_action(one_card(event))]
        raise NotOffered(f"oh_hell has no {action!r}")

    def answer(self) -> dict[str, object]:
        st = self.state
        players = self.table
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * players, "winners": []}
        scores = [round(r) for r in st.returns()]
        return {"complete": True, "deals": [{"scores": scores}], "totals": scores,
                "winners": winners_of(scores, lowest=False)}
