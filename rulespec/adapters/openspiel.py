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
from rulespec.lang.cards import pack

__all__ = ["CrazyEights", "Hearts", "OpenSpielAdapter", "Spades"]

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
        self.check_due(event)
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

    def check_due(self, event: Mapping[str, object]) -> None:
        """NotOffered unless ``event`` is an object that is due now: a chance event at a chance
        node, else an event of the seat to move, and the match not over."""
        if not isinstance(event, Mapping):
            raise NotOffered("an event is an object")
        if self.state.is_terminal():
            raise NotOffered("the match is over")
        seat = event.get("seat")
        if "chance" in event:
            if self.to_move() != "chance":
                raise NotOffered("no chance event is due")
        elif seat != self.to_move():
            raise NotOffered(f"seat {seat!r} is not to move")

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

    def observe(self, seat: int) -> dict[str, object]:
        """What ``seat`` sees, read off hearts' information state tensor (hearts.cc,
        ``InformationStateTensor``): its current hand, the other hands' sizes, and the trick
        on the table. Nothing before the deal (the tensor is empty then)."""
        st = self.state
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise NotOffered(f"no seat {seat!r}")
        if st.is_chance_node():
            return {"seat": seat, "zones": {}}
        t = st.information_state_tensor(seat)
        hand = [hearts_card(c) for c in range(52) if t[4 + 3 * 52 + c]]
        if not any(t[4 + 2 * 52:4 + 3 * 52]):
            # until every seat has passed (no card received yet), the cards a seat chose to
            # pass are set aside by hearts but still held in the spec's reading of a
            # simultaneous choice: the seat's hand counts them
            hand += [hearts_card(c) for c in range(52) if t[4 + 52 + c]]
        # the tricks: 13 rows of 7 card slots (N E S W N E S), each trick from its leader's
        # slot; a slot's player is its index mod 4
        rows = t[len(t) - 13 * 7 * 52:]
        played = [0, 0, 0, 0]
        trick: list[str] = []
        for i in range(13):
            cards = [(j % 4, c) for j in range(7) for c in range(52)
                     if rows[(i * 7 + j) * 52 + c]]
            for p, _ in cards:
                played[p] += 1
            if cards and len(cards) < 4:
                trick = [hearts_card(c) for _, c in cards]
        sizes: list[object] = [13 - n for n in played]
        sizes[seat] = hand
        return {"seat": seat, "zones": {"hand": sizes, "trick": trick}}

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
    #: what one pyspiel state of spades plays, side by side (bench/engines.py): a single deal,
    #: whose returns are its scores; the match is this adapter's, deal after deal
    playout_options = {"deals": 1}

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

    def observe(self, seat: int) -> dict[str, object]:
        """What ``seat`` sees of the hands: its own, read off spades' private observation
        tensor, and how many cards each other player holds (13 less the cards the game's
        history shows them playing). Nothing between deals."""
        if not isinstance(seat, int) or not 0 <= seat < 4:
            raise NotOffered(f"no seat {seat!r}")
        st = self.state
        if self.over or st.is_chance_node():
            return {"seat": seat, "zones": {}}
        mine = st.private_observation_tensor((seat - self.shift) % 4)
        played = [0, 0, 0, 0]
        for step in st.full_history()[52:]:
            if step.action < _SPADES_BIDS:
                played[self.seat(step.player)] += 1
        hands: list[object] = [13 - n for n in played]
        hands[seat] = [spades_card(a) for a in range(52) if mine[a]]
        return {"seat": seat, "zones": {"hand": hands}}

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


# ---- Crazy Eights -----------------------------------------------------------------------------
#: crazy_eights' player actions past its 52 cards (crazy_eights.h): draw, pass, then a suit
#: named for an eight, clubs to spades; at the first chance node, 52 + p makes p the dealer
_C8_DRAW, _C8_PASS, _C8_SUIT, _C8_DEALER = 52, 53, 54, 52


class CrazyEights(OpenSpielAdapter):
    """OpenSpiel's ``crazy_eights``: one deal, its dealer drawn by chance, every card of the
    deal and every card drawn a chance node of its own, an eight turned up put back and
    another drawn, the stock made again from the discards (with ``reshuffle``) inside the game
    where the spec has a ``reshuffle`` event; returns are minus each player's penalty points.

    The spec's shuffle orders the whole pack, and a draw takes the stock's top card; OpenSpiel
    asks for each card at the moment it is drawn. So the adapter keeps the spec's stock and
    discard pile as the events make them, and answers each of the game's chance nodes of the
    play with the stock's top card: a draw event is the game's draw and the cards it asks for
    (all the cards owed for twos, with ``special_cards``). Cards are numbered as hearts numbers
    them (rank by rank, clubs to spades within a rank)."""

    spec = "crazy_eights"
    engine = "crazy_eights"
    players = tuple(range(2, 16))
    fixed = {"deals": 1, "scoring": "minus_penalty", "ace_points": "ten",
             "first_eight": "bury", "draw_at_will": True, "pass_at_will": True,
             "two_packs_from": 6, "block_passes": "one_more"}
    usual = {"max_draws": 5, "max_plays": 100}
    #: whether each action is checked against the game's legal actions first (a test's broken
    #: variant turns it off, to take what plain ``apply_action`` takes)
    checked = True

    def check_game(self, game: str, options: Mapping[str, object]) -> dict[str, Any]:
        # the shipped spec's name is written with a hyphen or an underscore
        return super().check_game(game.replace("-", "_"), options)

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        # no limit (0) is a limit that no turn reaches: a turn draws at most the two packs
        return {"players": players,
                "max_draw_cards": int(options["max_draws"]) or 1000,
                "max_turns": int(options["max_plays"]) or 1_000_000,
                "use_special_cards": bool(options["special_cards"]),
                "reshuffle": bool(options["reshuffle"])}

    def started(self) -> None:
        self.phase = "dealer"  # then shuffle, bury (an eight turned up), play
        self.stock: list[str] = []  # the spec's stock, top card first
        self.discard: list[str] = []  # the spec's discard pile, top card last
        self.pack = pack(2 if self.table > 5 else 1)

    def naming(self, st: Any) -> bool:
        """Whether the game asks for the suit of an eight just played."""
        return not st.is_chance_node() and all(a >= _C8_SUIT for a in st.legal_actions())

    def reshuffle_due(self) -> bool:
        """The spec's reshuffle: the stock has run out and the discard pile holds more than its
        top card (after the suit of an eight is named, as the spec has it)."""
        st = self.state
        return (bool(self.options.get("reshuffle")) and self.phase == "play"
                and not st.is_terminal() and not self.stock and len(self.discard) > 1
                and not self.naming(st))

    def to_move(self) -> int | str | None:
        if self.state.is_terminal():
            return None
        if self.reshuffle_due() or self.phase != "play":
            return "chance"
        return super().to_move()

    def events(self) -> list[dict[str, object]]:
        st = self.state
        if self.phase == "dealer":
            return [{"chance": "pick", "value": a - _C8_DEALER} for a in self.outcomes()]
        if self.phase == "shuffle":
            return [{"chance": "shuffle", "cards": list(self.pack)}]
        if self.phase == "bury":
            return [{"chance": "bury", "position": k} for k in range(len(self.stock) + 1)]
        if self.reshuffle_due():
            return [{"chance": "reshuffle", "cards": self.discard[:-1]}]
        if st.is_chance_node():
            return []  # the game asks for a card the spec's stock does not hold
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if a == _C8_DRAW:
                out.append(self.seat_event("draw"))
            elif a == _C8_PASS:
                out.append(self.seat_event("pass"))
            elif a >= _C8_SUIT:
                out.append(self.seat_event("name_suit", suit=_HEARTS_SUITS[a - _C8_SUIT]))
            else:
                out.append(self.seat_event("play", card=hearts_card(a)))
        return out

    def apply(self, event: Mapping[str, object]) -> None:
        """The event's actions on a copy of the game's state and of the adapter's piles, each
        action with OpenSpiel's legality check; the copies replace the originals once all
        were taken."""
        self.check_due(event)
        work = _C8Work(self.state.clone(), list(self.stock), list(self.discard), self.phase,
                       self.checked)
        self.take(work, event)
        if work.phase == "play":
            work.feed(self.engine)
        self.state, self.stock, self.discard, self.phase = (
            work.st, work.stock, work.discard, work.phase)

    def take(self, work: _C8Work, event: Mapping[str, object]) -> None:
        """The actions of one event, taken on ``work``."""
        chance = event.get("chance")
        if chance == "pick" and work.phase == "dealer":
            value = event.get("value")
            if type(value) is not int or not 0 <= value < self.table:
                raise NotOffered("the dealer is a seat")
            work.act(self.engine, _C8_DEALER + value)
            work.phase = "shuffle"
        elif chance == "shuffle" and work.phase == "shuffle":
            order = permutation_of(event, self.pack)
            dealt = self.table * (7 if self.table == 2 else 5)
            # the spec deals one card at a time from the dealer's left, as the game does
            for c in order[:dealt + 1]:
                work.act(self.engine, hearts_action(c))
            work.stock, work.discard = order[dealt + 1:], [order[dealt]]
            work.phase = "bury" if work.st.is_chance_node() else "play"
        elif chance == "bury" and work.phase == "bury":
            k = event.get("position")
            if type(k) is not int or not 0 <= k <= len(work.stock):
                raise NotOffered("a bury's position is a depth in the stock")
            work.stock.insert(k, work.discard.pop())
            work.discard.append(work.stock.pop(0))
            work.act(self.engine, hearts_action(work.discard[-1]))
            work.phase = "bury" if work.st.is_chance_node() else "play"
        elif chance == "reshuffle" and work.phase == "play":
            work.stock = permutation_of(event, work.discard[:-1])
            work.discard = work.discard[-1:]
        elif chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        else:
            self.decide(work, event)

    def decide(self, work: _C8Work, event: Mapping[str, object]) -> None:
        """A player's event, taken on ``work``."""
        action = event.get("action")
        if action == "play":
            card = one_card(event)
            work.act(self.engine, hearts_action(card))
            work.discard.append(card)
        elif action == "name_suit":
            suit = event.get("suit")
            if not isinstance(suit, str) or suit not in _HEARTS_SUITS:
                raise NotOffered("a suit is C, D, H or S")
            work.act(self.engine, _C8_SUIT + _HEARTS_SUITS.index(suit))
        elif action == "draw":
            work.act(self.engine, _C8_DRAW)
        elif action == "pass":
            work.act(self.engine, _C8_PASS)
        else:
            raise NotOffered(f"crazy_eights has no {action!r}")

    def answer(self) -> dict[str, object]:
        st = self.state
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * self.table, "winners": []}
        scores = [round(r) for r in st.returns()]
        return {"complete": True, "deals": [{"scores": scores}], "totals": scores,
                "winners": winners_of(scores, lowest=False)}


class _C8Work:
    """A copy of the game's state and of the adapter's piles, on which an event is taken."""

    def __init__(self, st: Any, stock: list[str], discard: list[str], phase: str,
                 checked: bool = True) -> None:
        self.st, self.stock, self.discard, self.phase = st, stock, discard, phase
        self.checked = checked

    def act(self, engine: str, a: int) -> None:
        """One action, with OpenSpiel's legality check (unless it is turned off: then only
        the game's own checks, an error of which is a refusal)."""
        if self.checked:
            if a not in self.st.legal_actions():
                raise ValueError(f"{engine} refuses {self.st.action_to_string(a)!r} "
                                 f"(action {a})")
            self.st.apply_action(a)
            return
        try:
            self.st.apply_action(a)
        except Exception as e:  # noqa: BLE001 - a SPIEL_CHECK of the game failed: refused
            raise ValueError(f"{engine}: {e}") from None

    def feed(self, engine: str) -> None:
        """The cards the game asks for as they are drawn: the stock's top cards."""
        while self.st.is_chance_node() and self.stock and not self.st.is_terminal():
            self.act(engine, hearts_action(self.stock.pop(0)))
