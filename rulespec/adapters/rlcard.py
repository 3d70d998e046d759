"""RLCard's card games (``rlcard``) as protocol implementations of rulespec's shipped specs.

RLCard has no chance nodes: its games deal and draw from their own shuffled decks, with the
numpy ``RandomState`` the game holds (``game.np_random``, handed to its dealer and round when a
game starts). The adapter hands the game a stand-in for that RandomState, :class:`SteeredRandom`,
which answers each draw with the outcome of the spec's chance event. As the spec's chance event
comes after the decision that needs it (a ``draw`` that reshuffles, say), every step is tried on
a copy of the environment first: a draw the stand-in cannot answer yet stops the try and says
what RLCard is about to shuffle or pick; the adapter then shows a chance node of exactly that,
and tries the step again once the spec's outcome has come. A step that ran to its end replaces
the environment.

The steps are the environment's, as RL users drive it (``env.reset``, ``env.step(action_id)``),
so the environment's own handling of an illegal action is what verify sees. It means to play a
random legal action in its place (``UnoEnv._decode_action``, drawing from numpy's global random
state, which the adapter leaves alone), but numpy cannot choose from the OrderedDict it passes,
so the step fails and the adapter reports a refusal; were it fixed, an illegal action would be
accepted, and verify would report that. An event no RLCard action expresses (another seat's, a
Wild with no colour, a ``keep``) is not offered.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import rlcard
from rlcard.games.uno.utils import ACTION_LIST, ACTION_SPACE

from rulespec.adapters.base import Adapter, NotOffered, winners_of
from rulespec.loading import resolve

__all__ = ["Needs", "SteeredRandom", "Uno", "uno_action", "uno_action_name", "uno_code"]

#: RLCard's uno traits of the spec's ranks (the declared deck's codes, uno.rules)
_TRAITS = {**{str(n): str(n) for n in range(10)}, "S": "skip", "R": "reverse", "D": "draw_2"}
_RANKS = {t: r for r, t in _TRAITS.items()}
_WILDS = {"W": "wild", "W4": "wild_draw_4"}
_COLOURS = "RYGB"  # the spec's suit codes; RLCard writes them in lower case


class Needs(Exception):  # noqa: N818 - a signal, not an error: the try stops for an outcome
    """RLCard asked its RandomState for an outcome no chance event has given yet."""

    def __init__(self, kind: str, items: Sequence[Any]) -> None:
        super().__init__(kind)
        self.kind = kind  # "shuffle" or "pick"
        self.items = list(items)  # the cards to shuffle, or the values to pick among


class SteeredRandom:
    """Stands in for the numpy RandomState an RLCard uno game draws from: its dealer's
    ``shuffle`` and its round's ``choice`` (of a colour) are the only draws the game makes.
    Each takes the next outcome the adapter queued; with none queued it raises :class:`Needs`.

    A shuffle's outcome is the order of card codes, first drawn first; RLCard's dealer draws
    from the end of its list (``deck.pop()``), so the list is laid out reversed. The first
    ``keep`` cards of the list were the dealer's deck before the shuffle (what was left of the
    draw pile, which RLCard's Draw Two shuffles in with the discards when fewer than two are
    left, where the spec draws them first): they stay on top, in their order, and the outcome
    orders the others."""

    def __init__(self) -> None:
        self.outcomes: list[tuple[str, Any]] = []
        #: how many cards at the start of the dealer's list were its deck before a reshuffle
        self.keep = 0

    def shuffle(self, deck: list[Any]) -> None:
        """Lay ``deck`` out in the order of the next queued shuffle."""
        if not deck:
            return  # nothing to order: no chance event
        if not self.outcomes:
            raise Needs("shuffle", deck)
        kind, order = self.outcomes.pop(0)
        if kind != "shuffle":
            raise NotOffered("a pick was given where RLCard shuffles")
        kept, rest = deck[:self.keep], deck[self.keep:]
        drawn = list(reversed(kept))
        for code in order:
            i = next((i for i, c in enumerate(rest) if uno_code(c) == code), None)
            if i is None:
                raise NotOffered(f"RLCard's shuffle holds no {code!r} more")
            drawn.append(rest.pop(i))
        if rest:
            raise NotOffered("a shuffle is an order of every card RLCard shuffles")
        deck[:] = list(reversed(drawn))

    def choice(self, values: Sequence[str]) -> str:
        """The next queued pick, one of ``values``."""
        if not self.outcomes:
            raise Needs("pick", values)
        kind, value = self.outcomes.pop(0)
        if kind != "pick" or value not in values:
            raise NotOffered(f"RLCard picks among {list(values)}, not {value!r}")
        return str(value)


def uno_code(card: Any) -> str:
    """The spec's code of an RLCard uno card (``r-5`` is 5R, ``y-skip`` SY, any wild W)."""
    if card.trait == "wild":
        return "W"
    if card.trait == "wild_draw_4":
        return "W4"
    return _RANKS[card.trait] + str(card.color).upper()


def uno_action(name: str) -> dict[str, object]:
    """The spec's event (without its seat) of an RLCard uno action name."""
    if name == "draw":
        return {"action": "draw"}
    colour, trait = name.split("-", 1)
    if trait in ("wild", "wild_draw_4"):
        return {"action": "play", "card": "W" if trait == "wild" else "W4",
                "colour": colour.upper()}
    return {"action": "play", "card": _RANKS[trait] + colour.upper()}


def uno_action_name(event: Mapping[str, object]) -> str:
    """RLCard's action name of a spec event; NotOffered for one no action expresses."""
    action = event.get("action")
    if action == "draw" and set(event) == {"seat", "action"}:
        return "draw"
    if action != "play":
        raise NotOffered(f"RLCard's uno has no {action!r}")
    card, colour = event.get("card"), event.get("colour")
    if card in _WILDS:
        if not isinstance(colour, str) or colour not in _COLOURS or set(event) != {
                "seat", "action", "card", "colour"}:
            raise NotOffered("a Wild is played with a colour: R, Y, G or B")
        return f"{colour.lower()}-{_WILDS[str(card)]}"
    if (not isinstance(card, str) or len(card) != 2 or card[0] not in _TRAITS
            or card[1] not in _COLOURS or set(event) != {"seat", "action", "card"}):
        raise NotOffered(f"{card!r} is not a card RLCard plays")
    return f"{card[1].lower()}-{_TRAITS[card[0]]}"


class Uno(Adapter):
    """RLCard's ``uno`` environment: one hand of two players, RLCard's player 0 on the dealer's
    left (its documentation: "the first player is normally the player to the left of the
    dealer"), so the seats turn with the dealer; payoffs 1 to the winner and -1 to the other."""

    spec = "uno"
    engine = "RLCard's uno"
    #: RLCard's uno has no parameters: it plays the values uno.rules' header names for it
    fixed = {"draw_four_when": "nothing_else", "challenge": False, "draw_instead": False,
             "drawn_card": "auto", "first_wild": "random", "first_dealer": "given",
             "scoring": "win_loss", "deals": 1}
    usual: Mapping[str, object] = {}
    #: "in our toolkit, the number of players is 2" (RLCard's docs/games.md); its environment
    #: passes no game_num_players to the uno game
    players: tuple[int, ...] = (2,)

    def __init__(self) -> None:
        self.env: Any = None
        self.table = 2
        self.dealer = 0
        self.pending: int | None = None  # the action id of a step waiting for chance, or None
        self.queued: list[tuple[str, Any]] = []  # its outcomes given so far
        self.need: Needs | None = None
        self.deck = resolve(self.spec).spec.deck

    # ---- the protocol
    def new(self, game: str, players: int, options: Mapping[str, object],
            dealer: int = 0) -> None:
        """Start a fresh hand: the environment is made, and waits for the spec's shuffle."""
        self.check_game(game, options)
        if players not in self.players:
            raise NotOffered(f"{self.engine} is played by 2 players, not {players}")
        env = rlcard.make("uno")
        env.game.np_random = SteeredRandom()  # its dealer and round take it at reset
        self.env, self.table, self.dealer = env, players, dealer
        self.pending, self.queued, self.need = -1, [], None  # -1: the reset
        self.attempt()

    def to_move(self) -> int | str | None:
        """``"chance"`` while RLCard waits for an outcome, None once its game is over."""
        if self.need is not None:
            return "chance"
        if self.env.game.is_over():
            return None
        return self.seat(self.env.game.round.current_player)

    def legal(self) -> list[dict[str, object]]:
        """The chance event RLCard waits for, or its legal actions as the spec's events."""
        if self.need is not None:
            return self.chance_events(self.need)
        if self.env.game.is_over():
            return []
        # the legal action ids an agent is given (the game's own list names a card held twice
        # twice)
        player = self.env.game.round.current_player
        ids = self.env.get_state(player)["legal_actions"]
        return [{"seat": self.seat(player), **uno_action(ACTION_LIST[a])} for a in ids]

    def apply(self, event: Mapping[str, object]) -> None:
        """A chance event gives RLCard the outcome it waits for; a seat's event is the step of
        its action. ValueError for an event RLCard refuses or cannot express."""
        if not isinstance(event, Mapping):
            raise NotOffered("an event is an object")
        if "chance" in event:
            if self.need is None:
                raise NotOffered("no chance event is due")
            self.queued.append(self.outcome(self.need, event))
            try:
                self.attempt()
            except ValueError:
                self.queued.pop()
                raise
            return
        if self.need is not None:
            raise NotOffered("a chance event is due")
        if self.env.game.is_over():
            raise NotOffered("the match is over")
        if event.get("seat") != self.to_move():
            raise NotOffered(f"seat {event.get('seat')!r} is not to move")
        self.pending = ACTION_SPACE[uno_action_name(event)]
        try:
            self.attempt()
        except ValueError:
            self.pending = None
            raise

    def result(self) -> dict[str, object]:
        """The replay answer: RLCard's payoffs are the hand's scores."""
        over = self.need is None and self.env.game.is_over()
        out: dict[str, object] = {"ok": True, "complete": over}
        if over:
            payoffs = [round(p) for p in self.env.get_payoffs()]
            scores = [payoffs[self.player(q)] for q in range(self.table)]
            out.update(deals=[{"scores": scores}], totals=scores,
                       winners=winners_of(scores, lowest=False))
        else:
            out.update(deals=[], totals=[0] * self.table, winners=[],
                       to_move=self.to_move(), legal=self.legal())
        return out

    # ---- seats
    def seat(self, player: int) -> int:
        """The spec's seat of RLCard's player: player 0 sits on the dealer's left."""
        return (self.dealer + 1 + player) % self.table

    def player(self, seat: int) -> int:
        """RLCard's player of the spec's seat."""
        return (seat - self.dealer - 1) % self.table

    # ---- the steps, tried on a copy until RLCard has every outcome it draws
    def attempt(self) -> None:
        """Try the pending reset or step on a copy of the environment with the outcomes
        given so far: it either ends (the copy replaces the environment) or stops at a draw
        of RLCard's that needs one more outcome (:attr:`need`)."""
        trial = copy.deepcopy(self.env)
        rng: SteeredRandom = trial.game.np_random
        rng.outcomes = list(self.queued)
        try:
            if self.pending == -1:
                rng.keep = 0
                trial.reset()
            else:
                rng.keep = len(trial.game.dealer.deck)
                trial.step(self.pending)
        except Needs as need:
            self.need = need
            return
        except NotOffered:
            raise
        except Exception as e:  # noqa: BLE001 - RLCard failed on the step: a refusal
            raise ValueError(f"RLCard's uno raised {type(e).__name__}: {e}") from None
        if rng.outcomes:
            raise NotOffered("RLCard drew fewer outcomes than were given")
        self.env, self.pending, self.queued, self.need = trial, None, [], None

    def chance_events(self, need: Needs) -> list[dict[str, object]]:
        """The chance event of what RLCard is about to draw: the pack it deals from (a
        shuffle, the template in the deck's order), the cards it shuffles into a new draw
        pile in the order they were played (a reshuffle), or the colours it picks among."""
        if need.kind == "pick":
            return [{"chance": "pick", "value": str(v).upper()} for v in need.items]
        codes = [uno_code(c) for c in need.items]
        if self.pending == -1:
            return [{"chance": "shuffle", "cards": sorted(codes, key=self.deck.order.__getitem__)}]
        # the dealer's list is what was left of its deck, then the played cards
        return [{"chance": "reshuffle", "cards": codes[len(self.env.game.dealer.deck):]}]

    def outcome(self, need: Needs, event: Mapping[str, object]) -> tuple[str, Any]:
        """The outcome for RLCard's RandomState that a chance event gives."""
        chance = event.get("chance")
        if need.kind == "pick":
            values = {str(v).upper(): v for v in need.items}
            if chance != "pick" or event.get("value") not in values:
                raise NotOffered(f"RLCard picks a colour: {sorted(values)}")
            return ("pick", values[str(event.get("value"))])
        cards = event.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            raise NotOffered("a shuffle's cards are a list of card codes")
        (template,) = self.chance_events(need)
        if chance != template["chance"]:
            raise NotOffered(f"RLCard's draw is a {template['chance']} here")
        if sorted(cards) != sorted(template["cards"]):  # type: ignore[call-overload]
            raise NotOffered(f"a {chance} is an order of the cards RLCard shuffles")
        if self.pending != -1:
            return ("shuffle", list(cards))
        if not any(kind == "shuffle" for kind, _ in self.queued):
            # the first shuffle: the spec deals one card at a time round the table from the
            # dealer's left; RLCard deals seven to its player 0, then seven to player 1, ...
            n = self.table
            hands = [cards[k:7 * n:n] for k in range(n)]
            return ("shuffle", [c for h in hands for c in h] + list(cards[7 * n:]))
        return ("shuffle", list(cards))
