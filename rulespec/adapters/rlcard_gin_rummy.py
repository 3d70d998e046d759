"""RLCard's gin rummy (``rlcard.make("gin-rummy")``) as a protocol implementation of the shipped
gin_rummy spec.

RLCard plays one hand (its docs/games.md, "Gin Rummy"): the dealer, drawn at random, deals 11
cards to the other player and 10 to himself, with no upcard; the non-dealer discards first (or
knocks or gins); each turn after is a draw from the stock or a pick-up of the discard, then a
discard, a knock with a card, or gin (one action, whose discard RLCard chooses). At two cards
left in the stock the player picks up the discard or declares the hand dead. There are no
layoffs; each hand is counted by its best melds. That is the spec with ``first_upcard=plain``,
``stock_end=upcard``, ``layoffs=false``, ``lay_down=best``, ``must_gin=true``, ``deals=1``,
its ``going_out_deadwood_count`` the knock limit.

Three things the adapter translates:

- *The deal.* The spec shuffles, then draws for the dealer; RLCard draws (``np_random.choice``)
  then shuffles. The adapter shows the spec's two chance events, then hands RLCard a stand-in
  for its RandomState that answers both. RLCard's non-dealer is dealt the spec's first upcard
  as an eleventh card: the adapter shows it as the non-dealer's ``take`` of the upcard, the
  only choice RLCard leaves (the spec's ``plain`` start also offers ``draw``), and RLCard's
  stock is the spec's stock, card for card.
- *The actions.* Each event is one step of the environment, as an agent drives it, taken only
  if its action id is among the legal ones the environment gives the agent: its
  ``_decode_action`` decodes any id and the game takes an illegal action as it comes. RLCard's
  gin action is the spec's ``knock`` with the card RLCard discards for it; the two scoring
  actions RLCard asks for after the hand ends are taken by the adapter.
- *The score.* RLCard's payoffs (1 for gin, 0.2 for a knock, minus a hundredth of the
  deadwood otherwise) are a training signal, not a game score (its documentation says so).
  The result is scored from what RLCard's round records: who went out and how, and each
  player's deadwood count in its scoring moves, by the rules' scoring (the spec's, with its
  default bonuses): so verify compares RLCard's deadwood counts and its going out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import rlcard
from rlcard.games.gin_rummy import judge
from rlcard.games.gin_rummy.utils import action_event as ae

from rulespec.adapters.base import FRENCH_PACK, Adapter, NotOffered, permutation_of, winners_of

__all__ = ["DealRandom", "GinRummy"]

_DRAW, _PICK_UP, _DEAD_HAND, _GIN, _DISCARD, _KNOCK = 2, 3, 4, 5, 6, 58
_SUITS = "SHDC"  # RLCard numbers a card rank by rank within a suit: spades, hearts, ...
_RANKS = "A23456789TJQK"


def rl_id(code: str) -> int:
    """RLCard's card id of a card code (the ace of spades 0, the king of clubs 51)."""
    return _SUITS.index(code[1]) * 13 + _RANKS.index(code[0])


def rl_code(card_id: int) -> str:
    """The card code of an RLCard card id."""
    return _RANKS[card_id % 13] + _SUITS[card_id // 13]


class DealRandom:
    """Stands in for the RandomState an RLCard gin rummy game draws from when a hand starts:
    ``choice`` of the dealer, then ``shuffle`` of the deck, which RLCard deals from its end
    (11 cards to the non-dealer, 10 to the dealer, then the stock)."""

    def __init__(self, dealer: int, order: Sequence[str]) -> None:
        self.dealer = dealer
        self.order = list(order)  # the cards in the order RLCard pops them

    def choice(self, values: Sequence[int]) -> int:
        """The dealer the spec drew."""
        if self.dealer not in values:
            raise NotOffered(f"RLCard picks a dealer among {list(values)}")
        return self.dealer

    def shuffle(self, deck: list[Any]) -> None:
        """Lay ``deck`` out so that RLCard pops the cards of :attr:`order` first to last."""
        if not deck:
            return
        by_code = {str(c): c for c in deck}
        if sorted(by_code) != sorted(self.order):
            raise NotOffered("a shuffle is an order of the whole pack")
        deck[:] = [by_code[c] for c in reversed(self.order)]


class GinRummy(Adapter):
    """RLCard's gin rummy environment: seat q is RLCard's player q (the dealer is drawn)."""

    spec = "gin_rummy"
    #: the name of RLCard's environment (``rlcard.make``)
    environment = "gin-rummy"
    engine = "RLCard's gin rummy"
    fixed = {"deals": 1, "first_dealer": "drawn", "first_upcard": "plain",
             "discard_taken": False, "stock_end": "upcard", "layoffs": False,
             "lay_down": "best", "must_gin": True, "oklahoma": False,
             "deal_score": "winner", "gin_bonus": 25, "undercut_bonus": 25}
    usual: Mapping[str, object] = {}
    players: tuple[int, ...] = (2,)

    def __init__(self) -> None:
        self.env: Any = None
        self.order: list[str] | None = None  # the spec's shuffle, until the dealer is drawn
        self.opening = False  # RLCard dealt the upcard to the non-dealer: shown as a take
        self.knock_limit = 10
        self.dealt: tuple[int, list[str]] = (0, [])  # the dealer and the order RLCard deals
        self.taken: list[int] = []  # the action ids stepped since the deal

    # ---- the protocol
    def new(self, game: str, players: int, options: Mapping[str, object],
            dealer: int = 0) -> None:
        """Start a fresh hand: the spec's shuffle and draw for the dealer come first."""
        opts = self.check_game(game.replace("-", "_"), options)
        if players not in self.players:
            raise NotOffered(f"{self.engine} is played by 2 players, not {players}")
        self.knock_limit = int(opts["knock_limit"])
        self.env, self.order, self.opening = None, None, False

    def to_move(self) -> int | str | None:
        """``"chance"`` until the hand is dealt, None once RLCard's hand is over."""
        if self.env is None:
            return "chance"
        game = self.env.game
        return None if game.is_over() else int(game.round.current_player_id)

    def legal(self) -> list[dict[str, object]]:
        """The chance event due, or RLCard's legal actions as the spec's events."""
        if self.env is None:
            if self.order is None:
                return [{"chance": "shuffle", "cards": list(FRENCH_PACK)}]
            return [{"chance": "pick", "value": q} for q in (0, 1)]
        seat = self.to_move()
        if seat is None:
            return []
        if self.opening:
            return [{"seat": seat, "action": "take"}]
        return [{"seat": seat, **self.event_of(a)} for a in self.legal_ids()]

    def apply(self, event: Mapping[str, object]) -> None:
        """A chance event of the deal, or one step of the environment; ValueError for an
        event RLCard refuses or cannot express (the environment unchanged)."""
        if not isinstance(event, Mapping):
            raise NotOffered("an event is an object")
        if self.env is None:
            self.deal(event)
            return
        if "chance" in event:
            raise NotOffered("no chance event is due")
        if self.to_move() is None:
            raise NotOffered("the match is over")
        if event.get("seat") != self.to_move():
            raise NotOffered(f"seat {event.get('seat')!r} is not to move")
        if self.opening:
            if dict(event) != {"seat": self.to_move(), "action": "take"}:
                raise NotOffered("RLCard has dealt the upcard to the non-dealer")
            self.opening = False
            return
        action = self.action_of(event)
        if action not in self.legal_ids():
            raise ValueError(f"{self.engine} refuses {event.get('action')!r} "
                             f"(action {action}): not among its legal actions")
        before = len(self.taken)
        try:
            self.step(action)
            while not self.env.game.is_over() and _score_due(self.env):
                self.step(_score_due(self.env)[0])
        except Exception as e:  # noqa: BLE001 - RLCard failed on a legal step: a refusal
            del self.taken[before:]
            self.env = self.fresh(self.taken)  # the environment as it was
            raise ValueError(f"{self.engine} raised {type(e).__name__}: {e}") from None

    def step(self, action: int) -> None:
        """One step of the environment, remembered (to build it again after a failure)."""
        self.taken.append(action)
        self.env.step(action)

    def result(self) -> dict[str, object]:
        """The replay answer: the hand scored from RLCard's going out and deadwood counts."""
        over = self.to_move() is None
        out: dict[str, object] = {"ok": True, "complete": over}
        if over:
            scores = self.scores()
            out.update(deals=[{"scores": scores}], totals=scores,
                       winners=winners_of(scores, lowest=False))
        else:
            out.update(deals=[], totals=[0, 0], winners=[], to_move=self.to_move(),
                       legal=self.legal())
        return out

    # ---- the deal
    def deal(self, event: Mapping[str, object]) -> None:
        """The spec's shuffle (kept), then its draw for the dealer (RLCard's hand starts)."""
        if self.order is None:
            if event.get("chance") != "shuffle":
                raise NotOffered("the hand starts with a shuffle")
            self.order = permutation_of(event, FRENCH_PACK)
            return
        dealer = event.get("value")
        if event.get("chance") != "pick" or type(dealer) is not int or dealer not in (0, 1):
            raise NotOffered("the dealer is drawn: a pick of seat 0 or 1")
        o = self.order
        # the spec deals one card at a time from the non-dealer, then turns up o[20]; RLCard
        # deals 11 cards to the non-dealer (the upcard as the 11th), 10 to the dealer, and the
        # stock is drawn from o[21] on
        self.dealt = (dealer, [*o[0:20:2], o[20], *o[1:20:2], *o[21:]])
        self.env, self.order, self.opening, self.taken = self.fresh([]), None, True, []

    def fresh(self, steps: Sequence[int]) -> Any:
        """A new environment dealt as the spec's shuffle and draw say, with ``steps`` taken
        (RLCard's environment offers no copy or undo; a deep copy per step is dear)."""
        env = rlcard.make(self.environment)
        env.game.settings.going_out_deadwood_count = self.knock_limit
        env.game.np_random = DealRandom(*self.dealt)
        env.reset()
        for a in steps:
            env.step(a)
        return env

    # ---- actions and events
    def legal_ids(self) -> list[int]:
        """The legal action ids the environment gives the agent to move."""
        return list(self.env.get_state(self.env.game.round.current_player_id)["legal_actions"])

    def gin_card(self) -> str:
        """The card RLCard discards for its gin action (judge.py's first gin card)."""
        hand = self.env.game.round.players[self.env.game.round.current_player_id].hand
        _, gin_cards = judge.get_going_out_cards(hand, self.knock_limit)
        return str(gin_cards[0])

    def event_of(self, action: int) -> dict[str, object]:
        """The spec's event (without its seat) of an RLCard action id."""
        if action == _DRAW:
            return {"action": "draw"}
        if action == _PICK_UP:
            return {"action": "take"}
        if action == _DEAD_HAND:
            return {"action": "dead_hand"}
        if action == _GIN:
            return {"action": "knock", "card": self.gin_card()}
        if action >= _KNOCK:
            return {"action": "knock", "card": rl_code(action - _KNOCK)}
        if action >= _DISCARD:
            return {"action": "discard", "card": rl_code(action - _DISCARD)}
        return {"action": f"score_{action}"}

    def action_of(self, event: Mapping[str, object]) -> int:
        """RLCard's action id of a spec event; NotOffered for one no action expresses."""
        action = event.get("action")
        simple = {"draw": _DRAW, "take": _PICK_UP, "dead_hand": _DEAD_HAND}
        if action in simple and set(event) == {"seat", "action"}:
            return simple[str(action)]
        card = event.get("card")
        if action not in ("discard", "knock") or not isinstance(card, str) \
                or card not in FRENCH_PACK or set(event) != {"seat", "action", "card"}:
            raise NotOffered(f"RLCard's gin rummy has no {action!r} of {card!r}")
        if action == "discard":
            return _DISCARD + rl_id(card)
        if _GIN in self.legal_ids():
            if card != self.gin_card():
                raise NotOffered(f"RLCard's gin discards {self.gin_card()}, not {card}")
            return _GIN
        return _KNOCK + rl_id(card)

    # ---- the score
    def scores(self) -> list[int]:
        """Each seat's score: a dead hand scores nothing; otherwise the rules' score of the
        deadwood counts RLCard's scoring moves record."""
        rnd = self.env.game.round
        if isinstance(rnd.going_out_action, ae.DeclareDeadHandAction):
            return [0, 0]
        north, south = rnd.move_sheet[-2], rnd.move_sheet[-1]
        count = [int(north.deadwood_count), int(south.deadwood_count)]
        k = int(rnd.going_out_player_id)
        d = 1 - k
        gin = bool(isinstance(rnd.going_out_action, ae.GinAction) or count[k] == 0)
        if gin:
            winner, points = k, count[d] + int(self.fixed["gin_bonus"])  # type: ignore[call-overload]
        elif count[d] <= count[k]:
            winner, points = d, count[k] - count[d] + int(self.fixed["undercut_bonus"])  # type: ignore[call-overload]
        else:
            winner, points = k, count[d] - count[k]
        return [points if q == winner else 0 for q in (0, 1)]


def _score_due(env: Any) -> list[int]:
    """The scoring actions RLCard asks for after the hand ends (none while it is on)."""
    ids = list(env.get_state(env.game.round.current_player_id)["legal_actions"])
    return [a for a in ids if a in (0, 1)]
