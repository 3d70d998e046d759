"""The runtime: the Game/State API (in the manner of OpenSpiel) over any checked spec.

A game (``game.py``) is a spec compiled for one table (``codegen/`` writes each procedure as a
Python function); a :class:`State` is the variables, the zones and a stack of frames
(procedure, pc, locals, is_deal). The machine runs the top frame's function until it reaches
a stop: a decision (``choose``), a chance event (``shuffle``, ``reshuffle``, ``bury``), the end
of a deal or of the match, and waits at decisions and chance events. Chance is explicit: the
engine holds no random generator; whoever drives it supplies each outcome as a record event
(resolutions.md H4, R2).

The state is mutable with a cheap :meth:`State.clone`; the playout benchmark chose that over an
immutable state (a clone copies lists of card codes, a few microseconds).
"""

from __future__ import annotations

import operator
import random
import reprlib
from collections.abc import Callable, Mapping
from typing import Any, cast

from rulespec.engine.chance import (
    apply_chance,
    chance_template,
    listed_weights,
    pick_outcomes,
    probabilities,
    sample_chance,
    sample_event,
)
from rulespec.engine.events import (
    MAX_EVENT_DEPTH,
    Event,
    JSONObject,
    canonical_key,
    cards_event_key,
    event_key,
    json_value,
    loose_key,
    normalise_decision,
    too_deep,
)
from rulespec.engine.machine import (
    MAX_WORK,
    Alternative,
    ChanceStop,
    ChooseStop,
    EndDeal,
    EndMatch,
    Frame,
    GameRules,
    LegalEntry,
    LegalMap,
    Return,
    Values,
)
from rulespec.engine.memory import recalled, remembered, seen_now
from rulespec.engine.observe import plain, zones_seen
from rulespec.engine.result_fields import ResultFields
from rulespec.engine.teams import split_scores, team_answer, winning_members
from rulespec.engine.together import together_view
from rulespec.errors import (
    IllegalActionError,
    RecordError,
    RuleRuntimeError,
)
from rulespec.lang import ast, walk

__all__ = ["CHANCE", "GameRules", "LegalEntry", "State", "canonical_key", "event_key",
           "match_answer"]

CHANCE = "chance"

class State(ResultFields):
    """One moment of a match. Mutable; :meth:`clone` gives an independent copy."""

    __slots__ = ("game", "v", "z", "stack", "pending", "to_move", "deals", "winners",
                 "on_deal_end", "deal_sink", "deal_events", "_legal", "_given",
                 "work", "left", "in_play", "memory", "glimpsed")

    def __init__(self, game: GameRules) -> None:
        self.game = game
        self.v: Values = {}
        self.z: Values = {}
        #: the cards in all zones together (compiler.fill_zone keeps it; it bounds them)
        self.in_play = 0
        self.stack: list[Frame] = []
        #: the decision or chance event the state waits at
        self.pending: ChooseStop | ChanceStop | None = None
        self.to_move: int | str | None = None
        self.deals: list[JSONObject] = []
        self.winners: list[int] | None = None
        #: events applied in the deal being played (max_events bounds it)
        self.deal_events = 0
        #: called with this state at each deal end, after its scores are added (tests look
        #: at the hands and variables as they were then); None costs nothing
        self.on_deal_end: Callable[[State], None] | None = None
        #: when set, each deal's entry is handed to it once it is final (the next deal has
        #: ended) and is not kept: ``deals`` then holds the last entry only, and a match of a
        #: million deals runs in the memory of one (simulate streams its summaries so)
        self.deal_sink: Callable[[JSONObject], None] | None = None
        #: on a table compiled to watch (Game's ``watch``): set to a list, it is given what
        #: every seat sees after each move (memory.glimpse); None: not noted
        self.glimpsed: list[tuple[tuple[str, ...], ...]] | None = None
        self._legal: dict[str, LegalEntry] | None = None
        #: the entries of the events legal_actions last handed out (by the events' ids, when
        #: there are many)
        self._given: list[LegalEntry] | None = None
        #: True from an 'end deal' until the next deal starts or the match ends: the last
        #: entry of ``deals`` still follows the result fields (the match block may set them)
        self._results_open = False
        #: loop steps the rules may still take before the next event (MAX_WORK at each stop)
        self.work = MAX_WORK
        #: list elements the comprehensions may still go through before the next event
        self.left = 10 * MAX_WORK
        #: for a spec that calls ``seen_by``: by seat, the cards it saw at this deal's stops
        #: (each a frozenset, replaced rather than changed, so clones share them); else None
        self.memory: list[frozenset[str]] | None = None

    @classmethod
    def initial(cls, game: GameRules, dealer: int) -> State:
        """A fresh match of ``game`` with ``dealer`` dealing first, run to its first stop
        (:meth:`Game.new_initial_state <rulespec.engine.game.Game.new_initial_state>`)."""
        st = cls(game)
        n = game.hands
        st.v["dealer"] = dealer
        st.v["totals"] = [0] * game.players
        st.v["deals_played"] = 0
        if game.team_count:
            st.v["team_totals"] = [0] * game.team_count
        if game.spec.sits_out:
            st.v["sitting_out"] = [False] * game.players
        if game.spec.reveals:
            st.v["#revealed"] = []
        for name, per, f in game.var_inits:
            x = f(st, {})
            st.v[name] = [x] * n if per else x
        st.reset_results()
        for z in game.spec.zones:
            owners = game.team_count if z.per_team else n
            st.z[z.name] = [[] for _ in range(owners)] if z.per_player else []
        st.stack = [Frame(game.procs["#match"], 0, {}, False)]
        st._run()
        return st

    # ---- the OpenSpiel-style API --------------------------------------------------------------
    def current_player(self) -> int | str | None:
        """The seat to decide, ``"chance"``, or None when the match is over."""
        return self.to_move

    def is_terminal(self) -> bool:
        """True once the match has ended."""
        return self.winners is not None

    def is_chance_node(self) -> bool:
        """True when the next event is a chance outcome."""
        return self.to_move == CHANCE

    def legal_actions(self) -> list[Event]:
        """Every legal event now, in canonical form, sorted by canonical JSON (H5).

        At a shuffle or reshuffle the one template event of R2; at a bury, every position.
        The list is the caller's; the events in it may be shared with other states (a
        decision met again gives the same event objects), so copy one before changing it.
        """
        m = self._legal
        if m is None:
            m = self._legal_now()
        if type(m) is LegalMap:
            if m.order is None:
                if m.lazy is not None and m.lazy.lists_alone:
                    m.order = m.lazy.events()  # the events alone: no keys, no entries
                else:
                    m.fill(self)
                if m.order is None:
                    m.entries = list(m.values()) if m.presorted else \
                        list(map(m.__getitem__, sorted(m)))
                    m.order = list(map(_event_of, m.entries))
            self._given = None
            return list(m.order)
        # map, not comprehensions: this runs at every decision of a playout
        entries = list(map(m.__getitem__, sorted(m)))
        # apply() finds an event it handed out by identity, without writing its key, in a
        # short list by looking along it; in a long one it writes the one event's key rather
        # than have every event's id written down here (8,192 of them, to apply one)
        self._given = entries if len(entries) <= 16 else None
        return list(map(_event_of, entries))

    def seats_to_choose(self) -> list[int]:
        """The seats that may decide now: at a simultaneous decision (``choose together``)
        every seat that has not chosen yet, in seat order; at any other decision the one seat
        to move; none at a chance event or once the match is over."""
        stop = self.pending
        if type(stop) is ChooseStop and stop.together is not None:
            return list(self.stack[-1].L[stop.together.pending])
        return [self.to_move] if type(self.to_move) is int else []

    def ask(self, seat: int) -> None:
        """Make ``seat``, one still to choose in a simultaneous decision, the seat to move:
        :meth:`current_player` and :meth:`legal_actions` are then its own (the state asks the
        lowest first; :meth:`apply` asks the seat its event names). The outcome does not depend
        on the order: the choices are held unseen and applied in seat order once all are in."""
        stop = self.pending
        if type(stop) is not ChooseStop or stop.together is None:
            if seat == self.to_move:
                return
            raise IllegalActionError(f"it is seat {self.to_move}'s decision, not seat "
                                     f"{seat!r}'s")
        L = self.stack[-1].L
        if seat not in L[stop.together.pending]:
            raise IllegalActionError(
                f"seat {seat!r} is not among the seats still to choose here "
                f"({list(L[stop.together.pending])})")
        if seat == self.to_move:
            return
        L[stop.together.var] = seat
        self.to_move = seat
        self._legal = None
        self._given = None
        if not self.legal_count():
            raise RuleRuntimeError(
                f"seat {seat} must decide here, but no alternative is legal", stop.node.span,
                "every decision needs at least one legal choice; add one (a pass, say) for "
                "this position")

    def legal_count(self) -> int:
        """How many legal events there are now (the fast path: see :meth:`apply_index`)."""
        m = self._legal_now()
        return m.size() if type(m) is LegalMap else len(m)

    def legal_event(self, k: int) -> Event:
        """The ``k``-th event of :meth:`legal_actions` (canonical order, H5), without writing
        the others where they are kept unwritten (a hand's thousands of subsets)."""
        m = _indexed(self._legal_now(), k)
        if type(m) is LegalMap and m.order is None and m.lazy is not None:
            return m.lazy.event(k)
        return self.legal_actions()[k]

    def apply_index(self, k: int) -> str | None:
        """Apply the ``k``-th event of :meth:`legal_actions` (canonical order, H5) without
        building or reading the event: the fast path for machines that play many games. At a
        shuffle or reshuffle the one listed event is the pack in canonical order; a random
        ordering is applied with :meth:`apply`. Returns the event's action at a decision
        (what a summary counts, without the event written), None at chance."""
        if self.winners is not None:
            raise IllegalActionError("the match is over")
        m = _indexed(self._legal_now(), k)
        if self.to_move == CHANCE:
            self.apply(self.legal_actions()[k])
            return None
        if type(m) is LegalMap:
            lazy = m.lazy
            if lazy is not None:
                # the k-th set binds the alternative's variable: no event is built
                self._take((None, lazy.alt, lazy.binding(k)))  # type: ignore[arg-type]
                self._applied()
                return lazy.alt.action
            if m.order is None:
                self.legal_actions()
            assert m.entries is not None
            entry = m.entries[k]
        else:
            entry = m[sorted(m)[k]]
        self._take(entry)
        self._applied()
        return entry[1].action  # type: ignore[union-attr]  # a decision's entry has one

    def chance_outcomes(self) -> list[tuple[Event, float]]:
        """Listed chance outcomes with probabilities (a bury, a pick); a shuffle is sampled,
        not listed. A pick's outcomes come in the order the spec lists them, each with its
        weight over the total: exactly 1 in all as fractions (:meth:`chance_weights`), and to
        float precision as floats, as OpenSpiel's are."""
        return probabilities(self.chance_weights())

    def chance_weights(self) -> list[tuple[Event, int]]:
        """The listed chance outcomes with whole-number weights, each outcome's probability
        its weight over their total: a pick's in the order the spec lists them, a bury's
        positions each 1; empty at a shuffle (sampled, not listed) or a decision."""
        if self.to_move != CHANCE:
            return []
        spec = self.pending
        assert isinstance(spec, ChanceStop)
        return listed_weights(spec, self, self.stack[-1].L, self.legal_actions)

    def sample_chance(self, rng: random.Random, weighted: bool = True) -> Event:
        """At a chance event, draw an outcome with ``rng`` and apply it; the event applied is
        returned. It is the event ``sample_event(legal_actions(), rng, chance_weights)``
        draws (without the weights, where ``weighted`` is false: a pick uniform over its
        values), with the same draws of ``rng``, applied as :meth:`apply` would; but a
        shuffle's cards are ordered here from its template rather than made into an event
        and checked as one from outside (issue 29: a sampled deal cost a playout of hearts a
        fifth of its time)."""
        if self.to_move != CHANCE:
            raise IllegalActionError("no chance event is due")
        spec = self.pending
        assert isinstance(spec, ChanceStop)
        ev = sample_chance(spec, self, self.stack[-1].L, rng, weighted)
        if ev is None:
            ev = sample_event(self.legal_actions(), rng,
                              self.chance_weights if weighted else None)
            self.apply(ev)
            return ev
        self.stack[-1].pc += 1
        self._applied()
        return ev

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply one record event; an illegal one raises and leaves the state unchanged."""
        given = self._given
        if type(given) is list and self.to_move != CHANCE:
            # the usual case, a driver applying an event legal_actions handed out: found by
            # identity, with nothing to normalise or look up
            for entry in given:
                if entry[0] is event:
                    # _take and _applied written out: this is every event of a playout
                    alt = entry[1]
                    assert alt is not None
                    frame = self.stack[-1]
                    if alt.one_var is not None:
                        frame.L[alt.one_var] = entry[2]
                    elif alt.gen_vars:
                        self._bind(alt, frame.L, entry[2])
                    frame.pc = alt.body_pc
                    self.deal_events += 1
                    if self.game.max_events is not None:
                        self._check_length()
                    self._legal = None
                    self._given = None
                    self._run()
                    return
        if self.winners is not None:
            raise IllegalActionError("the match is over")
        if too_deep(event, MAX_EVENT_DEPTH):
            # no legal event nests as deep, and the steps below (normalising, the canonical
            # key, saying why an event is illegal) walk it recursively
            raise RecordError(f"the event nests lists or objects more than "
                              f"{MAX_EVENT_DEPTH} levels deep; no legal event does")
        if self.to_move == CHANCE:
            self._apply_chance(event)
        else:
            self._apply_decision(event)
        self._applied()

    def _applied(self) -> None:
        """An event has been applied: count it against the deal's bound and run on."""
        self.deal_events += 1
        if self.game.max_events is not None:
            self._check_length()
        self._legal = None
        self._given = None
        self._run()

    def _check_length(self) -> None:
        """Raise if the deal has had more events than the spec's ``max_events``."""
        limit = self.game.max_events
        if limit is not None and self.deal_events > limit and len(self.stack) > 1 \
                and self.stack[1].is_deal:
            # only a deal's own events count (run deal starts the count again)
            self._too_long()

    def _too_long(self) -> None:
        assert self.game.spec.max_events is not None
        raise RuleRuntimeError(
            f"this deal has had {self.deal_events} events, more than the declared "
            f"max_events {self.game.max_events}", self.game.spec.max_events.span,
            "the rules let a deal run longer than the spec promises: raise the bound, or "
            "find the rule that does not end")

    def clone(self) -> State:
        """An independent copy: nothing done to one affects the other."""
        c = State.__new__(State)
        c.game = self.game
        c.v = {k: (list(x) if isinstance(x, list) else x) for k, x in self.v.items()}
        c.z = {}
        for name, per in self.game.zone_kinds:
            z = self.z[name]
            c.z[name] = [list(h) for h in z] if per else list(z)
        c.stack = [f.copy() for f in self.stack]
        if self.game.binds_zones:
            self._repoint(c)
        c.pending = self.pending
        c.to_move = self.to_move
        c.deals = [dict(d) for d in self.deals]
        c.winners = list(self.winners) if self.winners is not None else None
        c.deal_events = self.deal_events
        c.on_deal_end = self.on_deal_end
        c.deal_sink = self.deal_sink
        c._legal = self._legal
        c._given = self._given
        c._results_open = self._results_open
        c.work, c.left = self.work, self.left
        c.in_play = self.in_play
        c.memory = self.memory
        c.glimpsed = None if self.glimpsed is None else list(self.glimpsed)
        if self.game.binds_zones:
            # the legal entries hold this state's zones: the clone lists its own
            c._legal = None
            c._given = None
        return c

    def _repoint(self, c: State) -> None:
        """Locals that hold a zone itself (not a snapshot) point at the clone's copy."""
        mine: dict[int, list[str]] = {}
        for name, per in self.game.zone_kinds:
            if per:
                for old, new in zip(self.z[name], c.z[name], strict=True):
                    mine[id(old)] = new
            else:
                mine[id(self.z[name])] = c.z[name]

        def point(x: object) -> object:
            if type(x) is list:
                return mine.get(id(x), x)
            if type(x) is tuple:
                return tuple(point(y) for y in x)
            return x

        for f in c.stack:
            f.L = {k: point(x) for k, x in f.L.items()}

    def totals(self) -> list[int]:
        """Match totals so far, by seat."""
        return list(self.v["totals"])

    def result(self) -> JSONObject:
        """The replay answer of records.md for the events applied so far (R4)."""
        self._sync_results()
        return match_answer(self)

    def teams_now(self) -> list[int] | tuple[int, ...] | None:
        """Each seat's team now: fixed, or, formed in play, as the rules say it is in this
        state (None without teams)."""
        now = self.game.team_now
        if now is None:
            return self.game.teams
        return [now(self, q) for q in range(self.game.players)]

    def observation(self, seat: int) -> JSONObject:
        """What ``seat`` may see: public variables, visible zones, sizes of hidden ones, and
        null for a zone whose size it may not see (``, size visible to WHO``)."""
        out: JSONObject = {"seat": seat, "to_move": self.to_move,
                           "zones": zones_seen(self.game.spec.zones, self.z, self.v, seat,
                                               self.teams_now),
                           "vars": {k: plain(x) for k, x in self.v.items()}}
        stop = self.pending
        if type(stop) is ChooseStop and stop.together is not None:
            out.update(together_view(stop, self.stack[-1].L, seat, self.game.set_fields,
                                     lambda e, names: self.game.evaluate(e, self, names),
                                     self.game.spec.deck))
        return out

    # ---- a seat's memory (seen_by) -------------------------------------------------------
    def remember(self) -> None:
        """Each seat notes the cards it sees now (the compiled rules of a spec that calls
        ``seen_by`` do so at every stop: where observations are made)."""
        self.memory = remembered(self.memory, map(self._seen_now, range(self.game.hands)))

    def _seen_now(self, seat: int) -> set[str]:
        # the zones of the seat's observation: the rest of it may belong to a stop left behind
        return seen_now(zones_seen(self.game.spec.zones, self.z, self.v, seat, self.teams_now))

    def forget(self) -> None:
        """A deal starts: nothing is remembered from the last one."""
        self.memory = None

    def seen_by(self, seat: object) -> list[str]:
        """Every card ``seat`` has seen in this deal: at a stop so far, or now (in card
        order, each once)."""
        return recalled(self.memory, seat, self.game.hands, self._seen_now,
                        self.game.spec.deck.order)

    # ---- decisions --------------------------------------------------------------------------
    def legal_map(self) -> dict[str, LegalEntry]:
        """Every legal event now by its canonical key (H5): key → (event, the alternative
        that allows it, its generators' values). Shared with other states and with the
        compiled rules: read it, never change it."""
        m = self._legal_now()
        if type(m) is LegalMap and m.lazy is not None:
            m.fill(self)
        return m

    def _legal_now(self) -> dict[str, LegalEntry]:
        """:meth:`legal_map`, where a lazy map (LegalMap.lazy) may stay unwritten: for the
        engine's own readers, which know how to read one."""
        if self._legal is not None:
            return self._legal
        out: dict[str, LegalEntry] = {}
        if self.winners is not None or self.pending is None:
            self._legal = out
            return out
        if self.to_move == CHANCE:
            ev = self._chance_template()
            if isinstance(ev, list) and cast(ChanceStop, self.pending).kind == "pick":
                for e in ev:
                    out[canonical_key(e)] = (e, None, None)
            elif isinstance(ev, list):
                # a bury's positions, a few dozen at every deal: their canonical text written
                # here (keys in order, an int as JSON writes it) rather than by json.dumps
                for e in ev:
                    out[f'{{"chance":"bury","position":{e["position"]}}}'] = (e, None, None)
            else:
                out[cards_event_key(ev)] = (ev, None, None)
            self._legal = out
            return out
        spec = self.pending
        assert isinstance(spec, ChooseStop)
        L = self.stack[-1].L
        seat = self.to_move
        if spec.legal is not None:
            spec.legal(self, L, out, seat, spec.alts)
            self._legal = out
            return out
        for alt in spec.alts:
            got = alt.enum(self, L, out, seat, alt)
            if got is not None:
                if len(spec.alts) > 1:
                    got.fill(self)  # copied below: a lazy map is written first
                # a remembered map (given only while ``out`` is still empty): shared, so
                # copied when another alternative may add to it
                out = got if len(spec.alts) == 1 else dict(got)
        self._legal = out
        return out

    def _apply_decision(self, event: Mapping[str, object]) -> None:
        for entry in self._given or ():
            if entry[0] is event:
                self._take(entry)
                return
        stop = self.pending
        if type(stop) is ChooseStop and stop.together is not None and \
                isinstance(event, Mapping) and event.get("seat") != self.to_move:
            # a simultaneous decision takes the choice of any seat still to choose
            seat = event.get("seat")
            if type(seat) is int:
                before = self.to_move
                assert type(before) is int
                self.ask(seat)  # refused when the seat is not one still to choose
                try:
                    self._apply_decision(event)
                except (IllegalActionError, RecordError):
                    self.ask(before)  # an illegal event changes nothing, not the seat asked
                    raise
                return
        legal = self._legal_now()
        # Fast path: an event already in canonical form (the usual case when a driver picks
        # from legal_actions) is found by its key and needs no normalising.
        if isinstance(event, dict):
            try:
                key = "{" + ",".join(f'"{k}":{json_value(event[k])}'
                                     for k in sorted(event)) + "}"
            except (TypeError, ValueError):
                key = ""
            if type(legal) is LegalMap and (lazy := legal.lazy) is not None:
                i = lazy.find(key)  # a search: the keys are in order
                if i >= 0:
                    self._take((event, lazy.alt, lazy.binding(i)))  # type: ignore[arg-type]
                    return
                legal.fill(self)
            hit = legal.get(key)
            if hit is not None and hit[0] == event:
                self._take(hit)
                return
        norm = self._normalise_decision(event)
        hit = legal.get(canonical_key(norm))
        if hit is None:
            # R6: an omitted false / [] field matches a legal event that writes it.
            loose = loose_key(norm)
            for entry in legal.values():
                if loose_key(entry[0]) == loose:
                    hit = entry
                    break
        if hit is None:
            rule = self._rule_for(norm)
            why = self.why_illegal(norm)
            raise IllegalActionError(f"{why} (rule: {rule})" if rule else why, rule=rule)
        self._take(hit)

    def _take(self, entry: LegalEntry) -> None:
        _, alt, values = entry
        assert alt is not None  # a decision's entry names its alternative
        frame = self.stack[-1]
        if alt.gen_vars:
            self._bind(alt, frame.L, values)
        frame.pc = alt.body_pc

    def _bind(self, alt: Alternative, L: dict[str, object], values: object) -> None:
        """Bind an alternative's generator variables to the values its entry keeps."""
        if alt.resolve is not None:
            values = alt.resolve(self, L, values)
        if len(alt.gen_vars) == 1:
            L[alt.gen_vars[0]] = values
        else:
            # several generators bind a tuple, one value each
            L.update(zip(alt.gen_vars, cast("tuple[object, ...]", values), strict=True))

    def _normalise_decision(self, event: Mapping[str, object]) -> dict[str, object]:
        g = self.game
        return normalise_decision(event, self.to_move, g.action_fields, g.set_fields,
                                  g.spec.deck, g.spec.name)

    def why_illegal(self, ev: Mapping[str, object]) -> str:
        """Why ``ev`` is no legal event now, in words: no such choice here, or not now (a
        chance event that is not the one pending is "not the chance event here")."""
        shown = canonical_key(ev)
        if not isinstance(self.pending, ChooseStop):
            return f"{shown} is not the chance event here"
        alts = [a for a in self.pending.alts if a.action == ev["action"]]
        if not alts:
            return f"{shown} is not a choice here"
        return f"{shown} is not legal now"

    def _rule_for(self, ev: Mapping[str, object]) -> str | None:
        spec = self.pending
        assert isinstance(spec, ChooseStop)
        for a in spec.alts:
            if a.action == ev.get("action"):
                refs = [c.ref for c in _cited(a.node.guard)] if a.node.guard else []
                sp = a.node.span
                where = f"{sp.source.rsplit('/', 1)[-1]}:{sp.line}:{sp.column}"
                return f"{where} {a.action}" + (f" [{', '.join(refs)}]" if refs else "")
        return None

    # ---- chance -------------------------------------------------------------------------------
    def _chance_template(self) -> Event | list[Event]:
        spec = self.pending
        assert isinstance(spec, ChanceStop)
        return chance_template(spec, self, self.stack[-1].L)

    def _apply_chance(self, event: Mapping[str, object]) -> None:
        spec = self.pending
        assert isinstance(spec, ChanceStop)
        apply_chance(spec, self, self.stack[-1].L, event)
        self.stack[-1].pc += 1

    # ---- the machine --------------------------------------------------------------------------
    def _run(self) -> None:
        """Run until the next decision, chance event or the end of the match."""
        # the comprehensions' budget (builtins.spend), this state's own: full as each stretch
        # of rules between two events starts; ten times the loops' (an element of a
        # comprehension is cheaper than a round of a loop)
        self.left = 10 * MAX_WORK
        stack = self.stack
        while True:
            top = stack[-1]
            if top.proc.run(self, top) is None:
                continue  # the top procedure returned: its caller goes on
            frame = stack[-1]  # the frame that stopped, at the stop's pc
            op = frame.proc.stops[frame.pc]
            L = frame.L
            self.work = MAX_WORK  # a stop: the next event's rules start a fresh budget
            if type(op) is ChooseStop:
                self.pending = op
                seat = self.to_move = L[op.seat_local] if op.seat_local is not None \
                    else op.seat(self, L)
                if type(seat) is not int or not 0 <= seat < self.game.hands:
                    raise RuleRuntimeError(
                        f"seat {seat!r} must decide here, but this table's hands are seats 0 "
                        f"to {self.game.hands - 1}", op.node.span,
                        "choose needs the seat of a hand at the table")
                self._given = None
                if op.legal is not None:
                    # legal_map written out for the usual decision (one merged enumerator)
                    legal: dict[str, LegalEntry] = {}
                    op.legal(self, L, legal, seat, op.alts)
                    self._legal = legal
                else:
                    self._legal = None
                    legal = self._legal_now()
                if not legal and not (type(legal) is LegalMap and legal.lazy is not None):
                    raise RuleRuntimeError(
                        f"seat {self.to_move} must decide here, but no alternative is legal",
                        op.node.span, "every decision needs at least one legal choice; "
                        "add one (a pass, say) for this position")
                return
            if type(op) is ChanceStop:
                if op.kind in ("reshuffle", "bury") and not op.src(self, L):
                    raise RuleRuntimeError(f"{op.kind} from an empty zone", op.node.span,
                                           "check the zone has a card before this rule")
                if op.kind == "pick":
                    pick_outcomes(op, self, L)  # none, or a weight below 1: an error here
                self.pending = op
                self.to_move = CHANCE
                return
            if type(op) is Return:
                self._returned(frame)
            elif type(op) is EndDeal:
                self._end_deal(op)
            elif type(op) is EndMatch:
                self._end_match(op, L)
                return
            else:  # pragma: no cover
                raise AssertionError(op)

    def _returned(self, frame: Frame) -> None:
        """The deal or the match ran to its end: only a procedure may."""
        if frame.is_deal:
            raise RuleRuntimeError("the deal ran to its end without 'end deal'",
                                   self.game.spec.deal.span)
        if len(self.stack) == 1:
            raise RuleRuntimeError("the match ran to its end without 'end match'",
                                   self.game.spec.match.span)
        self.stack.pop()

    def _end_match(self, op: EndMatch, L: Values) -> None:
        self.close_results()
        winners = op.winners(self, L)
        if op.node.teams:
            assert self.game.teams is not None
            winners = winning_members(op.node, winners, self.game.teams)
        if any(type(w) is not int or not 0 <= w < self.game.players for w in winners):
            raise RuleRuntimeError(
                f"the winners must be seats of this table, 0 to "
                f"{self.game.players - 1}, not {reprlib.repr(list(winners))}", op.node.span,
                "name the winners by their seats (q for q in seats if ...)")
        self.winners = sorted(set(winners))
        self.pending = None
        self.to_move = None

    def _end_deal(self, op: EndDeal) -> None:
        n = self.game.players
        teams = self.teams_now()
        scores, team_scores = split_scores(op.node, lambda q: op.score(self, q), n,
                                           teams, self.game.team_count)
        bounds = self.game.score_range
        if bounds is not None:
            for q in range(n):
                if not bounds[0] <= scores[q] <= bounds[1]:
                    assert self.game.spec.score_range is not None
                    raise RuleRuntimeError(
                        f"seat {q} scored {scores[q]} in this deal, outside the declared "
                        f"score_range {bounds[0]}..{bounds[1]}",
                        self.game.spec.score_range[0].span,
                        "the scoring gives more (or less) than the spec promises")
        totals = self.v["totals"]
        for q in range(n):
            totals[q] += scores[q]
        self.deal_events = 0
        rec: JSONObject = {"scores": scores}
        if self.game.spec.sits_out:
            rec["sitting_out"] = [q for q, out in enumerate(self.v["sitting_out"]) if out]
        if team_scores is not None:
            if self.game.team_now is not None:
                rec["teams"] = teams  # formed in play: the teams as the deal ended
            rec["team_scores"] = team_scores
            team_totals = self.v["team_totals"]
            for t, x in enumerate(team_scores):
                team_totals[t] += x
        if op.flag:
            rec[op.flag] = True
        if self.deal_sink is not None:
            # the earlier entries are final: 'run deal' closed them before this deal began
            for d in self.deals:
                self.deal_sink(d)
            self.deals.clear()
        self.deals.append(rec)
        if self.game.result_inits:
            self.open_results()
        if self.on_deal_end is not None:
            self.on_deal_end(self)
        self.v["deals_played"] += 1
        # unwind to the match: the frame that ran this deal resumes after 'run deal'
        while not self.stack[-1].is_deal:
            self.stack.pop()
        self.stack.pop()


#: the event of a legal entry
_event_of = operator.itemgetter(0)


def _cited(e: ast.Expr | None) -> list[ast.Cited]:
    return [x for x in walk.descendants(e) if isinstance(x, ast.Cited)]


def _indexed(m: dict[str, LegalEntry], k: object) -> dict[str, LegalEntry]:
    """The legal map ``m``, once ``k`` is checked to be an index into it."""
    n = m.size() if type(m) is LegalMap else len(m)
    if not (isinstance(k, int) and 0 <= k < n):
        raise IllegalActionError(f"there are {n} legal events, not an event {k!r}")
    return m


def match_answer(st: Any) -> JSONObject:
    """The replay answer of records.md (R4) of a match's state, the engine's or another
    lowering's (``winners``, ``deals``, ``v``, ``game``, ``to_move``, ``legal_actions``)."""
    out: JSONObject = {"ok": True, "complete": st.winners is not None,
                       "deals": [dict(d) for d in st.deals],
                       "totals": list(st.v["totals"]),
                       "winners": list(st.winners or [])}
    if st.game.team_count:
        out.update(team_answer(st.game.teams, st.v["team_totals"], st.winners))
    if st.winners is None:
        out["to_move"] = st.to_move
        out["legal"] = st.legal_actions()
    return out
