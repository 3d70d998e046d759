"""The kernel's game and state: a table's match run as one Python generator (``lower.py``),
driven by index (``legal_count``, ``apply_index``) with events made only at the API's edge.

What the kernel keeps is what the rules read and write (``v``, ``z``), the match's generator,
and the choices made (``log``): observations, records and everything else the Python engine
gives are had by replaying the log there (:meth:`KernelState.engine_state`), which the
lockstep test does at every step.
"""

from __future__ import annotations

import random
import reprlib
from collections.abc import Callable, Mapping
from typing import Any

from rulespec.engine.chance import (
    apply_chance,
    chance_template,
    listed_weights,
    pick_outcomes,
    probabilities,
    sample_chance,
    sample_event,
)
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.events import MAX_EVENT_DEPTH, Event, canonical_key, json_copy, too_deep
from rulespec.engine.game import Game
from rulespec.engine.kernel.lower import MatchOver, lower_table
from rulespec.engine.machine import MAX_WORK, Alternative, ChanceStop, ChooseStop, LegalMap
from rulespec.engine.result_fields import ResultFields
from rulespec.engine.state import CHANCE, State
from rulespec.engine.teams import split_scores, winning_members
from rulespec.errors import IllegalActionError, RecordError, RuleRuntimeError
from rulespec.lang import ast

__all__ = ["KernelGame", "KernelState", "end_deal"]

#: the comprehensions' budget between two events (State._run)
_LEFT = 10 * MAX_WORK

#: what a stop yields: (seat or CHANCE, the listed values or None, the engine's stop, locals)
_Stop = tuple[Any, list[object] | None, Any, dict[str, object]]


class KernelGame:
    """A compiled :class:`~rulespec.engine.game.Game` lowered to the kernel; raises
    :class:`~rulespec.engine.kernel.lower.Unsupported` where the table has a construct the
    kernel does not lower yet."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.hands = game.hands
        # an expression compiler of its own: the game's compiles its enumerators as play first
        # calls them, and shares nothing with the kernel's text
        ec = ExprCompiler(game.spec, game.players, game.options, game.hands)
        #: the zones kept as bit sets beside their lists (kernel/bits.py)
        self.match, self.bit_zones = lower_table(ec, self._runtime())

    def _runtime(self) -> dict[str, object]:
        game = self.game
        hands = game.hands

        def bad_seat(q: object, span: ast.Span) -> None:
            raise RuleRuntimeError(
                f"seat {q!r} must decide here, but this table's hands are seats 0 to "
                f"{hands - 1}", span, "choose needs the seat of a hand at the table")

        def none_legal(q: object, span: ast.Span) -> None:
            raise RuleRuntimeError(
                f"seat {q} must decide here, but no alternative is legal", span,
                "every decision needs at least one legal choice; add one (a pass, say) for "
                "this position")

        def ran_out(what: str, span: ast.Span) -> None:
            raise RuleRuntimeError(f"the {what} ran to its end without 'end {what}'", span)

        return {"_CHANCE": CHANCE, "_bad_seat": bad_seat, "_none_legal": none_legal,
                "_ran_out": ran_out, "_end_deal": end_deal, "_end_match": _end_match}

    def new_initial_state(self, dealer: int | None = None) -> KernelState:
        """A fresh match, stopped at its first chance event or decision."""
        return KernelState(self, self.game.dealer if dealer is None else dealer)


class KernelState(ResultFields):
    """A match on the kernel: the index path of :class:`~rulespec.engine.state.State`
    (``to_move``, ``legal_count``, ``apply_index``, chance events by ``legal_actions`` and
    ``apply``), its results (``winners``, ``deals``, ``v['totals']``), and the Python
    engine's state at the same point, by replay (:meth:`engine_state`)."""

    game: Game

    def __init__(self, kernel: KernelGame, dealer: int) -> None:
        game = kernel.game
        self.kernel = kernel
        #: the Python game: what the engine's enumerators and chance functions read
        self.game = game
        self.dealer = dealer
        self.v: dict[str, Any] = {}
        self.z: dict[str, Any] = {}
        self.work = MAX_WORK
        self.left = _LEFT
        self.in_play = 0
        self.deal_events = 0
        #: the declared bound on a deal's events, or past any count (none declared): one
        #: comparison an event (_check_length says what went wrong)
        self._limit = game.max_events if game.max_events is not None else float("inf")
        self.in_deal = False
        self.deals: list[dict[str, object]] = []
        self.winners: list[int] | None = None
        self.to_move: int | str | None = None
        #: every choice made: an index at a decision, an event at chance
        self.log: list[int | Mapping[str, object]] = []
        self._map: dict[str, Any] | None = None
        n = game.hands
        v = self.v
        v["dealer"] = dealer
        v["totals"] = [0] * game.players
        v["deals_played"] = 0
        if game.team_count:
            v["team_totals"] = [0] * game.team_count
        if game.spec.sits_out:
            v["sitting_out"] = [False] * game.players
        if game.spec.reveals:
            v["#revealed"] = []
        for name, per, f in game.var_inits:
            x = f(self, {})
            v[name] = [x] * n if per else x
        self._results_open = False
        self.reset_results()
        for zd in game.spec.zones:
            owners = game.team_count if zd.per_team else n
            self.z[zd.name] = [[] for _ in range(owners)] if zd.per_player else []
        #: each list the kernel keeps a bit set of (kernel/bits.py), and its bits by its id
        self.zl: list[list[str]] = []
        for zd in game.spec.zones:
            if zd.name in kernel.bit_zones:
                zone = self.z[zd.name]
                self.zl.extend(zone if zd.per_player else [zone])
        self.zb: dict[int, int] = {id(x): 0 for x in self.zl}
        self._gen = kernel.match(self)
        self._stop: _Stop | None = None
        self._go(None)

    # ---- running ----------------------------------------------------------------------------
    def _go(self, answer: object) -> None:
        """Send the answer to the stop and run to the next one."""
        self.work = MAX_WORK
        self.left = _LEFT
        self._map = None
        try:
            y = self._gen.send(answer)
        except MatchOver:
            self._stop = None
            self.to_move = None
            return
        self._stop = y
        self.to_move = y[0]
        if y[1] is None:
            self._stopped(y)

    def _stopped(self, y: _Stop) -> None:
        """At a chance event or a decision the engine's enumerators list: what the engine
        checks as it stops there, the work budget full again as at every stop."""
        self._map = None
        self.work = MAX_WORK
        stop = y[2]
        if type(stop) is ChanceStop:
            if stop.kind in ("reshuffle", "bury") and not stop.src(self, y[3]):
                raise RuleRuntimeError(f"{stop.kind} from an empty zone", stop.node.span,
                                       "check the zone has a card before this rule")
            if stop.kind == "pick":
                pick_outcomes(stop, self, y[3])  # none, or a weight below 1: an error here
        elif not self._size():
            raise RuleRuntimeError(
                f"seat {self.to_move} must decide here, but no alternative is legal",
                stop.node.span, "every decision needs at least one legal choice; add one "
                "(a pass, say) for this position")

    def _counted(self) -> None:
        self.deal_events += 1
        if self.deal_events > self._limit:
            self._check_length()

    def _check_length(self) -> None:
        limit = self.game.max_events
        if limit is not None and self.in_deal and self.deal_events > limit:
            assert self.game.spec.max_events is not None
            raise RuleRuntimeError(
                f"this deal has had {self.deal_events} events, more than the declared "
                f"max_events {limit}", self.game.spec.max_events.span,
                "the rules let a deal run longer than the spec promises: raise the bound, or "
                "find the rule that does not end")

    # ---- the index path ---------------------------------------------------------------------
    def is_terminal(self) -> bool:
        """True once the match has ended."""
        return self.to_move is None

    def legal_count(self) -> int:
        """How many legal events there are now."""
        y = self._stop
        if y is None:
            return 0
        if y[1] is not None:
            return len(y[1])
        if y[0] == CHANCE:
            return len(self.legal_actions())
        return self._size()

    def apply_index(self, k: int) -> None:
        """Apply the ``k``-th event of :meth:`legal_actions`, without making it."""
        y = self._stop
        if y is None:
            raise IllegalActionError("the match is over")
        b = y[1]
        if b is not None:
            # the usual decision, written out: a playout's every event but a few
            if not isinstance(k, int) or not 0 <= k < len(b):
                raise IllegalActionError(f"there are {len(b)} legal events, not an event {k!r}")
            self.log.append(k)
            self.deal_events += 1
            if self.deal_events > self._limit:
                self._check_length()
            self.work = MAX_WORK
            self.left = _LEFT
            self._map = None
            try:
                y = self._stop = self._gen.send(k)
            except MatchOver:
                self._stop = self.to_move = None
                return
            self.to_move = y[0]
            if y[1] is None:
                self._stopped(y)
            return
        n = self.legal_count()
        if not isinstance(k, int) or not 0 <= k < n:
            raise IllegalActionError(f"there are {n} legal events, not an event {k!r}")
        if y[0] == CHANCE:
            self.apply(self.legal_actions()[k])
            return
        self.log.append(k)
        self._counted()
        self._go(self._chosen(k))

    def legal_actions(self) -> list[Event]:
        """Every legal event now, in canonical order: made here, from the engine's own
        enumerators (a decision) or chance functions."""
        y = self._stop
        if y is None:
            return []
        if y[0] == CHANCE:
            got = chance_template(y[2], self, y[3])
            if not isinstance(got, list):
                return [got]  # a shuffle's one template: nothing to sort
            events = got
            by_key = {canonical_key(e): e for e in events}
            return [by_key[k] for k in sorted(by_key)]
        return [e[0] for e in self._entries()]

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply one event: a chance outcome, or a decision's event found among the legal
        ones by its canonical key (an event must be written in full, as legal_actions
        writes it)."""
        y = self._stop
        if y is None:
            raise IllegalActionError("the match is over")
        if too_deep(event, MAX_EVENT_DEPTH):
            raise RecordError(f"the event nests lists or objects more than "
                              f"{MAX_EVENT_DEPTH} levels deep; no legal event does")
        if y[0] == CHANCE:
            apply_chance(y[2], self, y[3], event)
            # a copy all the way down: the caller may change its lists after
            self.log.append(json_copy(dict(event)))  # type: ignore[arg-type]
            self._counted()
            self._go(None)
            return
        key = canonical_key(event)
        keys = [canonical_key(e) for e in self.legal_actions()]
        if key not in keys:
            raise IllegalActionError(f"{reprlib.repr(key)} is not legal now")
        self.apply_index(keys.index(key))

    def sample_chance(self, rng: random.Random, weighted: bool = True) -> Event:
        """At a chance event, draw an outcome with ``rng`` and apply it, as
        :meth:`State.sample_chance <rulespec.engine.state.State.sample_chance>` does: the same
        event with the same draws; returned."""
        y = self._stop
        if y is None or y[0] != CHANCE:
            raise IllegalActionError("no chance event is due")
        ev = sample_chance(y[2], self, y[3], rng, weighted)
        if ev is None:
            ev = sample_event(self.legal_actions(), rng,
                              self.chance_weights if weighted else None)
            self.apply(ev)
            return ev
        # the log's own copy: the event returned is the caller's
        self.log.append({"chance": ev["chance"], "cards": list(ev["cards"])}  # type: ignore[arg-type]
                        if "cards" in ev else json_copy(ev))
        self._counted()
        self._go(None)
        return ev

    def chance_weights(self) -> list[tuple[Event, int]]:
        """The listed chance outcomes with whole-number weights (none at a shuffle)."""
        y = self._stop
        if y is None or y[0] != CHANCE:
            return []
        return listed_weights(y[2], self, y[3], self.legal_actions)

    def chance_outcomes(self) -> list[tuple[Event, float]]:
        """The listed chance outcomes with their probabilities."""
        return probabilities(self.chance_weights())

    # ---- the edge ---------------------------------------------------------------------------
    def engine_state(self) -> State:
        """The Python engine's state after the same choices: observations, records and the
        rest of the API, made by replaying :attr:`log`."""
        st = self.game.new_initial_state(self.dealer)
        for x in self.log:
            if type(x) is int:
                st.apply_index(x)
            else:
                st.apply(x)  # type: ignore[arg-type]
        return st

    def clone(self) -> KernelState:
        """An independent copy, by replaying the choices (a generator cannot be copied)."""
        c = KernelState(self.kernel, self.dealer)
        for x in self.log:
            if type(x) is int:
                c.apply_index(x)
            else:
                c.apply(x)  # type: ignore[arg-type]
        return c

    @property
    def stack(self) -> list[_Top]:
        """The frame the engine's lazy maps read the decision's locals from (``stack[-1].L``)."""
        y = self._stop
        return [_Top(y[3] if y is not None else {})]

    # ---- decisions the engine's enumerators list --------------------------------------------
    def _legal(self) -> dict[str, Any]:
        """The engine's legal map at this decision (State._legal_now, for a ChooseStop)."""
        if self._map is not None:
            return self._map
        y = self._stop
        assert y is not None
        stop: ChooseStop = y[2]
        L, seat = y[3], y[0]
        out: dict[str, Any] = {}
        # what the listing spends is not the rules': a list made at the API's edge (a
        # decision the kernel lists itself) leaves the budgets as they were
        budgets = self.work, self.left
        try:
            if stop.legal is not None:
                stop.legal(self, L, out, seat, stop.alts)
            else:
                for alt in stop.alts:
                    got = alt.enum(self, L, out, seat, alt)
                    if got is not None:
                        if len(stop.alts) > 1:
                            got.fill(self)
                        out = got if len(stop.alts) == 1 else dict(got)
        finally:
            if y[1] is not None:
                self.work, self.left = budgets
        self._map = out
        return out

    def _size(self) -> int:
        m = self._legal()
        return m.size() if type(m) is LegalMap else len(m)

    def _entries(self) -> list[Any]:
        """The legal entries (event, alternative, values) in canonical order; a lazy map's
        events made one by one (its event slot None until then)."""
        m = self._legal()
        if type(m) is LegalMap and m.lazy is not None:
            m.fill(self)
        return [m[k] for k in sorted(m)]

    def _chosen(self, k: int) -> tuple[Alternative, dict[str, object]]:
        """The alternative and the bindings of the ``k``-th legal event."""
        m = self._legal()
        y = self._stop
        assert y is not None
        if type(m) is LegalMap and m.lazy is not None:
            alt, values = m.lazy.alt, m.lazy.binding(k)
        else:
            _, alt, values = self._entries()[k]
        return alt, _bindings(self, alt, y[3], values)


class _Top:
    """The locals of the stop, where the engine reads a frame's (``Frame.L``)."""

    __slots__ = ("L",)

    def __init__(self, L: dict[str, object]) -> None:
        self.L = L


def _bindings(st: KernelState, alt: Alternative, L: dict[str, object],
              values: object) -> dict[str, object]:
    """The alternative's variables bound to what its entry keeps (State._bind)."""
    if not alt.gen_vars:
        return {}
    if alt.resolve is not None:
        values = alt.resolve(st, L, values)
    if len(alt.gen_vars) == 1:
        return {alt.gen_vars[0]: values}
    return dict(zip(alt.gen_vars, values, strict=True))  # type: ignore[call-overload]


def end_deal(st: Any, flag: str | None, score: Callable[..., object],
             node: ast.EndDeal) -> None:
    """``end deal``: each seat's score (``score(st, seat)``) added to its total, the deal's
    entry written (State._end_deal, for the tables the kernel lowers); a stop, so the work
    budget is full again for the scoring, as at the engine's stops."""
    st.work = MAX_WORK
    game = st.game
    _scored(st, flag, *split_scores(node, lambda q: score(st, q), game.players, game.teams,
                                    game.team_count))


def _scored(st: Any, flag: str | None, scores: list[int], team_scores: list[int] | None
            ) -> None:
    """The deal's scores checked against the score range, added to the totals, and its entry
    written."""
    game = st.game
    n = game.players
    bounds = game.score_range
    if bounds is not None:
        for q in range(n):
            if not bounds[0] <= scores[q] <= bounds[1]:
                assert game.spec.score_range is not None
                raise RuleRuntimeError(
                    f"seat {q} scored {scores[q]} in this deal, outside the declared "
                    f"score_range {bounds[0]}..{bounds[1]}", game.spec.score_range[0].span,
                    "the scoring gives more (or less) than the spec promises")
    totals = st.v["totals"]
    for q in range(n):
        totals[q] += scores[q]
    st.deal_events = 0
    rec: dict[str, object] = {"scores": scores}
    if game.spec.sits_out:
        rec["sitting_out"] = [q for q, out in enumerate(st.v["sitting_out"]) if out]
    if team_scores is not None:
        rec["team_scores"] = team_scores
        team_totals = st.v["team_totals"]
        for t, x in enumerate(team_scores):
            team_totals[t] += x
    if flag:
        rec[flag] = True
    sink = getattr(st, "deal_sink", None)
    if sink is not None:
        # the earlier entries are final, as State._end_deal gives them to its sink: a match
        # of a million deals keeps one
        for d in st.deals:
            sink(d)
        st.deals.clear()
    st.deals.append(rec)
    if game.result_inits:
        st.open_results()
    st.v["deals_played"] += 1


def _end_match(st: KernelState, winners_of: Callable[..., object], L: dict[str, object],
               node: ast.EndMatch) -> None:
    """``end match``: the winners checked and kept (State._end_match), the work budget full
    again as at every stop."""
    st.work = MAX_WORK
    game = st.game
    st.close_results()
    winners: Any = winners_of(st, L)
    if node.teams:
        assert game.teams is not None
        winners = winning_members(node, winners, game.teams)
    if any(type(w) is not int or not 0 <= w < game.players for w in winners):
        raise RuleRuntimeError(
            f"the winners must be seats of this table, 0 to {game.players - 1}, not "
            f"{reprlib.repr(list(winners))}", node.span,
            "name the winners by their seats (q for q in seats if ...)")
    st.winners = sorted(set(winners))
