"""The typed lowering's driver: :class:`TypedGame` and :class:`TypedState`, the index path of
:class:`~rulespec.engine.state.State` on the one generator ``lower.py`` writes.

A playout that only picks by index (``to_move``, ``legal_count``, ``apply_index``,
``sample_chance``) never leaves the typed values. Everything else is made at the edge from
the Python engine, by replaying the choices made so far (:meth:`TypedState.engine_state`):
the legal events and their order, an event applied by its text (:meth:`~TypedState.apply`),
observations, records. A runtime error is the engine's too: where the typed code raises, the
engine is replayed to the same point and asked to make the same choice, and its error is the
one raised (an engine that goes on where the typed code stopped is a bug of this lowering,
reported as one).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from rulespec.engine.chance import bury_order, shuffle
from rulespec.engine.events import Event, JSONObject, canonical_key, encode, json_value
from rulespec.engine.game import Game
from rulespec.engine.machine import together_seats
from rulespec.engine.state import CHANCE, State, match_answer
from rulespec.engine.teams import winning_members
from rulespec.engine.typed.cards import typed_deck
from rulespec.engine.typed.lower import lower_typed
from rulespec.errors import IllegalActionError, RuleRuntimeError
from rulespec.lang import ast

__all__ = ["TypedGame", "TypedState"]


class _DealOver(Exception):
    pass


class _Stopped(Exception):
    """The typed code stopped where it must not go on: a runaway loop, a rule's error."""


def _raise(name: str) -> type[Exception]:
    return type(name, (_Stopped,), {})


class TypedGame:
    """A compiled :class:`~rulespec.engine.game.Game` lowered to typed code; raises
    :class:`~rulespec.engine.kernel.lower.Unsupported` where the table has a construct the
    typed lowering does not cover yet."""

    def __init__(self, game: Game, actions: bool = False) -> None:
        self.game = game
        #: whether apply_index returns the action applied (simulate's counts need it; a
        #: playout that only plays does not)
        self.actions = actions
        self.players = game.players
        self.hands = game.hands
        spec = game.spec
        self.match = lower_typed(spec, game.players, game.options, game.hands, {
            "_CHANCE": CHANCE, "_DealOver": _DealOver, "_end_deal": _deal_ender(game),
            "_end_match": _end_match, "_tseats": together_seats,
            "_RanOut": _raise("RanOut"), "_Runaway": _raise("Runaway"),
            "_NotThere": _raise("NotThere"), "_NoneLegal": _raise("NoneLegal"),
            "_BadSeat": _raise("BadSeat"), "_ix": _nonnegative}, actions)
        deck = typed_deck(spec.deck)
        self.match_num, self.match_code = deck.num, deck.code
        #: each list of a pick's values: its outcomes, their weight and order (TypedState._pick)
        self.picks: dict[tuple[object, ...], tuple[list[tuple[object, int]], int, list[int]]] = {}
        #: each pick's values by the identity of the tuple the typed code gave (that tuple,
        #: and what picks holds for it)
        self.seen: dict[int, tuple[tuple[object, ...], tuple[list[tuple[object, int]], int,
                                                              list[int]]]] = {}
        #: each pick's values (by their JSON texts) in the order their events sort
        self.orders: dict[tuple[str, ...], list[int]] = {}

    def new_initial_state(self, dealer: int | None = None) -> TypedState:
        """A fresh match, stopped at its first chance event or decision."""
        return TypedState(self, self.game.dealer if dealer is None else dealer)


class TypedState:
    """A match on the typed code (see the module's text)."""

    def __init__(self, typed: TypedGame, dealer: int) -> None:
        game = typed.game
        self.typed = typed
        self.game = game
        self.dealer = dealer
        self.v: dict[str, Any] = {"totals": [0] * game.players, "deals_played": 0}
        #: what the kernel's end of a deal (shared) fills again
        self.work = 0
        if game.team_count:
            self.v["team_totals"] = [0] * game.team_count
        if game.spec.sits_out:
            self.v["sitting_out"] = [False] * game.players
        self.deals: list[dict[str, object]] = []
        self.winners: list[int] | None = None
        self.deal_events = 0
        self.in_deal = False
        self._n = -9
        self._limit = game.max_events if game.max_events is not None else float("inf")
        #: every choice made: an index at a decision, an event at chance
        self.log: list[int | Mapping[str, object]] = []
        #: the action of the last decision applied, where the game was lowered with its
        #: actions (TypedGame's ``actions``); what apply_index returns
        self.act: str | None = None
        #: where the deals' entries go once final (State.deal_sink): result() then has the
        #: last deal's only
        self.deal_sink: Any = None
        self._gen = typed.match(self)
        self.to_move: int | str | None = None
        self._y: tuple[Any, ...] = ()
        self._go(None, None)

    # ---- running -----------------------------------------------------------------------
    def _go(self, answer: object, logged: object) -> None:
        try:
            y = self._gen.send(answer)
        except StopIteration:
            self.to_move = None
            self._n = -9
            return
        except Exception as e:  # noqa: BLE001  (the engine says what went wrong)
            self._engine_error(logged, e)
        self._y = y
        self.to_move, self._n = y[0], y[1]

    def _engine_error(self, logged: object, e: Exception) -> None:
        """The typed code raised on ``logged`` (the choice just made, already in the log):
        replay the engine to the choice before it, make it there, and raise its error."""
        self.to_move = None
        self._n = -9
        choice = self.log.pop() if logged is not None else None
        st = self._replay()
        try:
            if choice is not None:
                if isinstance(choice, int):
                    st.apply_index(choice)
                else:
                    st.apply(choice)
        except RuleRuntimeError:
            raise
        raise AssertionError(f"the typed lowering raised {e!r} where the engine goes on "
                             f"(a bug of rulespec's typed lowering)") from e

    def is_terminal(self) -> bool:
        """True once the match has ended."""
        return self.to_move is None

    def legal_count(self) -> int:
        """How many legal events there are now."""
        n = self._n
        if n >= 0:
            return n
        if n == -9:
            return 0  # over
        if n == -3:
            return self._y[2]  # type: ignore[no-any-return]  # a bury's positions
        return 1 if n in (-1, -4) else len(self._pick(self._y[2])[0])

    def apply_index(self, k: int) -> str | None:
        """Apply the ``k``-th legal event, without making it; the action of a decision
        applied where the game was lowered with its actions, else None."""
        if type(k) is not int or not 0 <= k < self._n:
            self._apply_index_else(k)
            return None
        self.log.append(k)
        self.deal_events += 1
        if self.deal_events > self._limit:
            self._too_long()
        # _go, written out: the commonest step of a playout
        try:
            y = self._y = self._gen.send(k)
        except StopIteration:
            self.to_move = None
            self._n = -9
            return self.act
        except Exception as e:  # noqa: BLE001
            self._engine_error(k, e)
        self.to_move, self._n = y[0], y[1]
        return self.act

    def _apply_index_else(self, k: int) -> None:
        """apply_index where it is not a decision's legal index: at chance (the event made),
        or refused."""
        if self._n == -9:
            raise IllegalActionError("the match is over")
        if self._n < 0:
            events = self.legal_actions()
            if type(k) is not int or not 0 <= k < len(events):
                raise IllegalActionError(f"there are {len(events)} legal events, not an "
                                         f"event {k!r}")
            self.apply(events[k])
            return
        raise IllegalActionError(f"there are {self._n} legal events, not an event {k!r}")

    def sample_chance(self, rng: random.Random, weighted: bool = True) -> Event:
        """At a chance event, draw an outcome with ``rng`` and apply it, as the engine's
        ``sample_chance`` draws it; returned."""
        y = self._y
        if self.to_move != CHANCE:
            raise IllegalActionError("no chance event is due")
        if y[1] in (-1, -4):
            cards: list[int] = y[2]
            shuffle(rng, cards)
            code = self.typed.match_code
            ev: Event = {"chance": "shuffle" if y[1] == -1 else "reshuffle",
                         "cards": [code[c] for c in cards]}
        elif y[1] == -3:
            k = bury_order(y[2])[rng.randrange(y[2])]
            ev = {"chance": "bury", "position": k}
            cards = k  # type: ignore[assignment]
        else:
            outcomes, total, order = self._pick(y[2])
            if weighted:
                r = rng.randrange(total)
                for v, w in outcomes:  # noqa: B007  (v: the value drawn)
                    if r < w:
                        break
                    r -= w
            else:
                v = outcomes[order[rng.randrange(len(outcomes))]][0]
            ev = {"chance": "pick", "value": encode(v)}
            cards = v  # type: ignore[assignment]
        self.log.append(ev)
        self.deal_events += 1
        if self.deal_events > self._limit:
            self._too_long()
        self._go(cards, ev)
        return ev

    def _pick(self, values: tuple[object, ...]) -> tuple[list[tuple[object, int]], int,
                                                        list[int]]:
        """A pick's outcomes (each value once, with how often it is listed), their total
        weight and their places in the canonical order of their events: worked out once for
        each list of values (a deal's picks list the same values deal after deal), the
        values' types in the key (``True`` is not ``1``, though they are equal)."""
        typed = self.typed
        # the same tuple again (a list the table fixes is one constant of the typed code):
        # found by its identity, the tuple kept beside it so that its id is not another's
        seen = typed.seen.get(id(values))
        if seen is not None and seen[0] is values:
            return seen[1]
        key = (values, tuple(map(type, values)))
        got = typed.picks.get(key)
        if got is None:
            merged = self._merged(values)
            outcomes = [(v, w) for v, w in merged.values()]
            got = (outcomes, sum(w for _, w in outcomes), self._order(merged))
            if len(typed.picks) < 1000:
                typed.picks[key] = got
        if type(values) is tuple and len(typed.seen) < 1000:
            typed.seen[id(values)] = (values, got)
        return got

    def _merged(self, values: tuple[object, ...]) -> dict[str, list[Any]]:
        merged: dict[str, list[Any]] = {}
        for v in values:
            key = json_value(v)
            if key in merged:
                merged[key][1] += 1
            else:
                merged[key] = [v, 1]
        if not merged:
            self._engine_error(None, IndexError("a pick of nothing"))
        return merged

    def _order(self, merged: dict[str, list[Any]]) -> list[int]:
        texts = tuple(merged)
        got = self.typed.orders.get(texts)
        if got is None:
            keys = [canonical_key({"chance": "pick", "value": encode(v)})
                    for v, _ in merged.values()]
            got = self.typed.orders[texts] = sorted(range(len(keys)), key=keys.__getitem__)
        return got

    def _too_long(self) -> None:
        if self.in_deal:
            self._engine_error(self.log[-1], RuntimeError("max_events"))

    # ---- the edge: the engine, replayed ------------------------------------------------
    def _replay(self) -> State:
        st = self.game.new_initial_state(self.dealer)
        for x in self.log:
            if isinstance(x, int):
                st.apply_index(x)
            else:
                st.apply(_plain(x))
        return st

    def current_player(self) -> int | str | None:
        """Whose turn it is: a seat, CHANCE, or None once the match is over."""
        return self.to_move

    def result(self) -> JSONObject:
        """The replay answer of records.md for the choices made so far, as the engine's
        ``result()`` gives it; the legal events of an unfinished match from the engine,
        replayed."""
        return match_answer(self)

    def engine_state(self) -> State:
        """The Python engine's state at this point (replayed): its observations, records,
        legal events."""
        return self._replay()

    def legal_actions(self) -> list[Event]:
        """Every legal event now, in canonical order (the engine's, replayed)."""
        return self._replay().legal_actions() if self.to_move is not None else []

    def chance_weights(self) -> list[tuple[Event, int]]:
        return self._replay().chance_weights()

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply one event given by its text: a decision's found among the legal ones, a
        chance outcome checked by the engine."""
        if self.to_move is None:
            raise IllegalActionError("the match is over")
        y = self._y
        if y[0] != CHANCE:
            keys = [canonical_key(e) for e in self.legal_actions()]
            key = canonical_key(event)
            if key not in keys:
                raise IllegalActionError(f"{key[:80]} is not legal now")
            self.apply_index(keys.index(key))
            return
        st = self._replay()
        st.apply(event)  # the engine's checks: an illegal event raises here
        ev = dict(event)
        if y[1] == -3:
            answer: object = event["position"]
            ev = {"chance": "bury", "position": event["position"]}
        elif y[1] in (-1, -4):
            num, deck = self.typed.match_num, self.game.spec.deck
            codes = [c if c in num else deck.normalise(c)
                     for c in event["cards"]]  # type: ignore[attr-defined]
            cards = y[2]
            cards[:] = [num[c] for c in codes]  # type: ignore[index]
            answer = cards
            ev = {"chance": "shuffle" if y[1] == -1 else "reshuffle", "cards": codes}
        else:
            want = json_value(event["value"])
            answer = next((v for v in y[2] if json_value(v) == want), None)
            if answer is None:
                answer = _picked(st, y[2], event)
        self.log.append(ev)
        self.deal_events += 1
        self._go(answer, ev)


def _picked(st: State, values: tuple[object, ...], event: Mapping[str, object]) -> object:
    want = json_value(st.game.spec.deck.normalise_value(event["value"]))
    for v in values:
        if json_value(v) == want:
            return v
    raise AssertionError("the engine took a pick's value the typed code does not list")


def _plain(ev: Mapping[str, object]) -> dict[str, object]:
    return dict(ev)


def _nonnegative(i: int) -> int:
    if i < 0:
        raise IndexError(f"position {i}")
    return i


def _deal_ender(game: Game) -> Callable[[TypedState, str | None, list[Any], ast.EndDeal],
                                         None]:
    """``end deal`` for the typed code of ``game``: the scores (each owner's, worked out by
    the typed code) added to the totals and the deal's entry written, as
    ``kernel.play.end_deal`` does, with what the table fixes looked up once. Where a
    score is not a number or out of the score range, the engine's own end of a deal says
    so (the typed code stops; the engine, replayed, raises). A deal's results are not
    lowered (lower.py refuses them), so none are opened here."""
    n, teams, sits = game.players, game.teams, game.spec.sits_out
    lo, hi = game.score_range if game.score_range is not None else (None, None)
    seats = range(n)

    def end(st: TypedState, flag: str | None, owned: list[Any], node: ast.EndDeal) -> None:
        for x in owned:
            if not isinstance(x, int):
                raise _Stopped("a score that is not a number")
        if teams is None:
            scores, team_scores = owned, None
        elif node.per_team:
            scores, team_scores = [owned[t] for t in teams], owned
        else:
            scores, team_scores = owned, [0] * game.team_count
            for q in seats:
                team_scores[teams[q]] += owned[q]
        if lo is not None:
            for x in scores:
                if not lo <= x <= hi:
                    raise _Stopped("a score out of the score range")
        v = st.v
        totals = v["totals"]
        for q in seats:
            totals[q] += scores[q]
        st.deal_events = 0
        rec: dict[str, object] = {"scores": scores}
        if sits:
            out = v["sitting_out"]
            rec["sitting_out"] = [q for q in seats if out[q]]
        if team_scores is not None:
            rec["team_scores"] = team_scores
            team_totals = v["team_totals"]
            for t, x in enumerate(team_scores):
                team_totals[t] += x
        if flag:
            rec[flag] = True
        if st.deal_sink is not None:
            # the earlier entries are final (State._end_deal): a long match keeps one
            for d in st.deals:
                st.deal_sink(d)
            st.deals.clear()
        st.deals.append(rec)
        v["deals_played"] += 1

    return end


def _end_match(st: TypedState, winners: Any, node: ast.EndMatch) -> None:
    game = st.game
    if node.teams:
        assert game.teams is not None
        winners = winning_members(node, winners, game.teams)
    n = game.players
    for w in winners:  # a loop, not any(): the end of every match
        if type(w) is not int or not 0 <= w < n:
            raise _Stopped("winners that are not seats")
    st.winners = sorted(set(winners))

