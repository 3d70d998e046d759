"""An engine state driven one integer at a time, as OpenSpiel and PettingZoo drive a game.

The engine's events are whole: a shuffle is one chance event holding the pack's new order, a
choice of cards one decision event holding the set. Here each is taken a step at a time:

- a **shuffle** (or reshuffle) is dealt one card at a time, as OpenSpiel's own card games
  deal: at each step the outcomes are the distinct cards not drawn yet, each with its share
  of the cards left; once the pack is drawn, the order is applied as the one shuffle event
  the record keeps. Another chance event (a bury, a pick) is one step, its outcome the
  index of the event among the listed outcomes;
- a **decision** is its ids (:mod:`rulespec.bridge.actions`): one step where the event is one
  id, several where it holds a list; the event is applied when its last id is taken.

Each seat's information is what it observed after every event (the observation the engine
gives it, from the zones' visibility), the cards it saw within the event (the engine's table
compiled to watch: after each statement that moved cards, the cards of the seat's
observation, so that the last card of a trick, gathered face down by the event that plays it,
is seen) and its own events: kept as a running digest, so that two histories that the seat
cannot tell apart give the same string, at a fixed length.
"""

from __future__ import annotations

import collections
import hashlib
import json
from collections.abc import Callable, Sequence

from rulespec.bridge.actions import ActionScheme, BridgeError
from rulespec.engine.events import Event
from rulespec.engine.memory import seen_now
from rulespec.engine.state import State

__all__ = ["Steps", "TERMINAL", "match_returns"]

#: current() once the match is over
TERMINAL = -4


class Steps:
    """An engine :class:`State` taken one id at a time (see the module's docstring)."""

    def __init__(self, state: State, scheme: ActionScheme) -> None:
        self.state = state
        self.scheme = scheme
        self.cards = tuple(state.game.spec.deck.order)
        self._card_id = {c: i for i, c in enumerate(self.cards)}
        #: the ids taken so far towards the next decision event
        self.prefix: tuple[int, ...] = ()
        #: the cards drawn so far towards the next shuffle event
        self.drawn: list[str] = []
        #: every id taken, chance included (a match is replayed from them)
        self.history: list[int] = []
        #: the engine's events the ids made, as a record lists them (a shuffle dealt card
        #: by card is one event)
        self.events: list[Event] = []
        #: each seat's digest of what it has observed (see :meth:`information`)
        self.digests = [hashlib.sha256(b"rulespec").hexdigest()] * state.game.players
        self._encoded: list[tuple[tuple[int, ...], Event]] | None = None
        #: each seat's cards seen face up somewhere in this deal (the information-state
        #: tensor's memory), and the deals the state had when it was last noted
        self.met: list[set[str]] = [set() for _ in range(state.game.players)]
        self._deals = 0
        #: what makes this match's game again, for pickling (see __reduce__): a callable
        #: and its arguments giving a fresh Steps, set by the bridge that made this one
        self.origin: tuple[Callable[..., Steps], tuple[object, ...]] | None = None
        #: the bridge's game this match is of (OpenSpiel's, PettingZoo's), if any
        self.bridge: object | None = None
        self._settle()

    def clone(self) -> Steps:
        c = Steps.__new__(Steps)
        c.state = self.state.clone()
        c.scheme, c.cards, c._card_id = self.scheme, self.cards, self._card_id
        c.prefix, c.drawn = self.prefix, list(self.drawn)
        c.history, c.digests = list(self.history), list(self.digests)
        c.events = list(self.events)
        c.met, c._deals = list(self.met), self._deals  # each set replaced, never changed
        c._encoded = self._encoded  # the same engine state: the same legal events
        c.origin, c.bridge = self.origin, self.bridge
        return c

    def __reduce__(self) -> tuple[object, ...]:
        # pickled as the ids taken (the engine's state holds compiled code): unpickled,
        # the match is played again from its start
        if self.origin is None:
            raise TypeError("this match does not know how to make its game again")
        return (_replayed, (self.origin, tuple(self.history)))

    def __deepcopy__(self, memo: object) -> Steps:
        # OpenSpiel clones a Python state by deep-copying its attributes: the engine's state
        # is copied its own way, the game and spec shared
        return self.clone()

    # ---- who moves, what is legal -------------------------------------------------------------
    def current(self) -> int:
        """The seat to move, CHANCE (as OpenSpiel's -1), or TERMINAL."""
        st = self.state
        if st.is_terminal():
            return TERMINAL
        if st.is_chance_node():
            return -1
        seat = st.current_player()
        assert isinstance(seat, int)
        if seat >= st.game.players:
            raise BridgeError(
                f"hand {seat} decides here, and it is no player's seat: the bridge gives "
                f"each decision to one of the {st.game.players} players",
                hint="let a player decide for an extra hand (a dummy's controller)")
        return seat

    def _settle(self) -> None:
        """At a simultaneous decision, the lowest seat still to choose is asked."""
        st = self.state
        if not st.is_terminal() and not st.is_chance_node():
            seats = st.seats_to_choose()
            if seats and st.current_player() != seats[0]:
                st.ask(seats[0])

    def encoded(self) -> list[tuple[tuple[int, ...], Event]]:
        """Each legal decision event now with its ids."""
        if self._encoded is None:
            self._encoded = [(self.scheme.encode(e), e) for e in self.state.legal_actions()]
        return self._encoded

    def legal(self) -> list[int]:
        """The ids that may be taken now, ascending (a decision's next ids)."""
        if self.current() == -1:
            return [a for a, _ in self.chance_outcomes()]
        n = len(self.prefix)
        return sorted({ids[n] for ids, _ in self.encoded() if ids[:n] == self.prefix})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes now, as (id, probability)."""
        st = self.state
        legal = st.legal_actions()
        if legal[0].get("chance") in ("shuffle", "reshuffle"):
            pack: list[str] = list(legal[0]["cards"])  # type: ignore[call-overload]
            left = collections.Counter(pack) - collections.Counter(self.drawn)
            total = sum(left.values())
            return sorted((self._card_id[c], n / total) for c, n in left.items())
        weights = st.chance_weights()
        if not weights:
            return [(k, 1 / len(legal)) for k in range(len(legal))]
        total = sum(w for _, w in weights)
        return [(k, w / total) for k, (_, w) in enumerate(weights)]

    # ---- taking a step ------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Take the id ``action`` (one of :meth:`legal`)."""
        who = self.current()
        if who == TERMINAL:
            raise BridgeError("the match is over")
        if who == -1:
            self._chance(action)
        else:
            self._decide(who, action)
        self.history.append(action)

    def _chance(self, action: int) -> None:
        st = self.state
        legal = st.legal_actions()
        if not any(a == action for a, _ in self.chance_outcomes()):
            raise BridgeError(f"{action} is not a chance outcome here")
        if legal[0].get("chance") in ("shuffle", "reshuffle"):
            self.drawn.append(self.cards[action])
            if len(self.drawn) < len(legal[0]["cards"]):
                return
            event = dict(legal[0])
            event["cards"] = list(self.drawn)
            self.drawn = []
        else:
            weights = st.chance_weights()
            event = (weights[action][0] if weights else legal[action])
        self._engine_apply(event, None)

    def _decide(self, seat: int, action: int) -> None:
        prefix = (*self.prefix, action)
        n = len(prefix)
        matching = [(ids, e) for ids, e in self.encoded() if ids[:n] == prefix]
        if not matching:
            raise BridgeError(f"{action} ({self.scheme.text(action)}) is not legal here",
                              hint="take one of the legal actions")
        done = [e for ids, e in matching if len(ids) == n]
        if not done:
            self.prefix = prefix
            return
        self.prefix = ()
        self._engine_apply(done[0], seat)

    def _engine_apply(self, event: Event, seat: int | None) -> None:
        glimpses: list[tuple[tuple[str, ...], ...]] = []
        self.state.glimpsed = glimpses  # what each seat sees within the event (steps' doc)
        try:
            self.state.apply(event)
        finally:
            self.state.glimpsed = None
        self.events.append(event)
        self._encoded = None
        mine = json.dumps(event, sort_keys=True, separators=(",", ":"))
        new_deal = len(self.state.deals) != self._deals
        self._deals = len(self.state.deals)
        for q in range(len(self.digests)):
            view = self.state.observation(q)
            seen = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
            # the moments within the event, each once where the seat saw no change: a move
            # of cards it cannot see adds nothing it could tell
            moments = [m for i, m in enumerate(g[q] for g in glimpses)
                       if i == 0 or m != glimpses[i - 1][q]]
            if q == seat:
                seen = mine + seen
            seen = json.dumps(moments, separators=(",", ":")) + seen
            self.digests[q] = hashlib.sha256((self.digests[q] + seen).encode()).hexdigest()
            # each set replaced when it grows, never changed (clones share them)
            cards = seen_now(view["zones"])
            for m in moments:
                cards.update(m)
            had = set() if new_deal else self.met[q]
            if not cards <= had:
                self.met[q] = had | cards
            elif new_deal:
                self.met[q] = had
        self._settle()

    # ---- what a seat knows --------------------------------------------------------------------
    def observed(self, seat: int) -> str:
        """What ``seat`` observes now, as canonical JSON."""
        return json.dumps(self.state.observation(seat), sort_keys=True,
                          separators=(",", ":"), default=str)

    def information(self, seat: int) -> str:
        """``seat``'s information state: its digest of all it observed, and the ids it has
        taken towards its next event."""
        mine = self.prefix if self.current() == seat else ()
        return f"seat {seat} {self.digests[seat]} {list(mine)}"

    def observation(self, seat: int) -> str:
        """``seat``'s observation now, with the ids it has taken towards its next event."""
        mine = self.prefix if self.current() == seat else ()
        return f"{self.observed(seat)} {list(mine)}"

    def replay(self, actions: Sequence[int]) -> None:
        """Take each id of ``actions`` in turn."""
        for a in actions:
            self.apply(a)


def _replayed(origin: tuple[Callable[..., Steps], tuple[object, ...]],
              history: Sequence[int]) -> Steps:
    make, args = origin
    steps = make(*args)
    steps.replay(history)
    return steps


def match_returns(state: State, kind: str) -> list[float]:
    """Each player's return once the match is over: with ``kind`` "win" each winner's share
    of the win (1 split among the winners), 0 for the others; with "score" each seat's total,
    negated where the lowest total wins, so that more is always better. Zeros before the end."""
    n = state.game.players
    if not state.is_terminal():
        return [0.0] * n
    res = state.result()
    if kind == "win":
        winners = list(res["winners"])  # type: ignore[call-overload]
        return [1.0 / len(winners) if q in winners else 0.0 for q in range(n)]
    sign = -1.0 if state.game.spec.winner == "lowest" else 1.0
    return [sign * float(t) for t in res["totals"]]  # type: ignore[union-attr]
