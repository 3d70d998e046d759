"""One match: the spec and the implementation driven through the same events, checked at every
step (who moves, the legal events, the event accepted, the replay answers at each deal end),
with sampled near misses (probes) and observations. A match draws every choice from the
:class:`Search` it is one example of, as a Hypothesis test draws from its ConjectureData."""

from __future__ import annotations

import collections
import json
import random
import reprlib
from collections.abc import Mapping
from typing import Any, Protocol, cast

from hypothesis import reject
from hypothesis import strategies as st

from rulespec.engine.chance import pick_at
from rulespec.engine.events import Event, JSONValue
from rulespec.engine.state import CHANCE, State, canonical_key, event_key
from rulespec.errors import IllegalActionError, ImplementationError, RecordError, RulespecError
from rulespec.lang.decks import FRENCH, Deck
from rulespec.protocol import MAX_ANSWER_DEPTH, json_problem
from rulespec.verify.compare import (
    card_code,
    card_codes,
    compare_answers,
    normal_key,
    sizes_shown,
    visible,
)
from rulespec.verify.guard import Guard
from rulespec.verify.known import KnownFinding, match_known
from rulespec.verify.report import Diverged, Divergence, diverged, the
from rulespec.verify.schedule import MAX_DEALS, MAX_EVENTS, OptionValue

__all__ = ["OBSERVE", "PROBE", "ZERO_RUN", "Match", "Search"]

#: a match whose first decisions (of two or more events) all take the first legal event, this
#: many of them, is not played (see ``Match._choose``)
ZERO_RUN = 60
#: the sampled check a decision's integer asks for (``x = flag * n + index``, see
#: ``Match._choose``): the two highest flags, so that shrinking, which lowers the integer,
#: drops the checks before it changes the choice; flags 0 to 13 check nothing
PROBE = 15
OBSERVE = 14
#: flags per decision: the integer drawn for a decision of ``n`` events is below ``FLAGS * n``
FLAGS = 16


class Search(Protocol):
    """What a match reads from, and reports to, the search it is one example of
    (:class:`rulespec.verify.search.SettingSearch`)."""

    #: the implementation, behind the run's guard
    guard: Guard
    #: the run's names for its two sides (``("spec", "implementation")``)
    words: tuple[str, str]
    #: the spec's set-valued fields, ``(action, field)``, compared in any order
    set_fields: frozenset[tuple[str, str]]
    #: whether near misses are offered (``--no-probes`` turns them off)
    probes: bool
    #: the signatures of divergences already reported (``--keep-going``)
    skip: set[tuple[str, ...]]
    #: whether the implementation answers ``observe`` (false once it does not)
    observe_ok: bool
    #: whether an observation's ``vars`` are compared with the spec's (not in ``diff``)
    vars_compared: bool
    #: whether the divergence being shrunk was met while probing (probes stay on for it)
    first_by_probe: bool
    #: the run's known findings (``--known``)
    known_findings: tuple[KnownFinding, ...]
    #: the known findings met, with how many times each
    known: dict[str, int]
    #: whether a match has played on among the events both sides allow (see SettingSearch)
    played_past: bool

    @property
    def shrinking(self) -> bool:
        """Whether a divergence has been met and is being shrunk."""

    @property
    def spec_only(self) -> bool:
        """Whether the rest of this example plays on the spec alone (see ``draw``)."""

    def draw(self, data: st.DataObject, strategy: st.SearchStrategy[int]) -> int:
        """The next choice of this example."""

    def checks_on(self, kinds: tuple[str, ...]) -> bool:
        """Whether sampled checks that find divergences of ``kinds`` are made."""

    def not_a_match(self) -> None:
        """The example counted as a match is dropped (its choices are not worth playing)."""


class Match:
    """One match in progress: the spec's state, the implementation, the events so far."""

    def __init__(self, search: Search, state: State, players: int,
                 opts: dict[str, OptionValue], dealer: int,
                 avoid: frozenset[str] = frozenset()) -> None:
        self.search = search
        self.guard = search.guard
        self.spec_the, self.impl_the = the(search.words[0]), the(search.words[1])
        self.state = state
        #: the spec's deck: the card codes the implementation's answers are read with
        self.deck = state.game.spec.deck
        self.players = players
        self.opts = opts
        self.dealer = dealer
        self.events: list[Event] = []
        #: the event the spec is applying (a rule that fails on it ends the record of a
        #: spec's runtime error, :class:`rulespec.verify.report.SpecFailed`)
        self.pending: Event | None = None
        #: by hand, every card it has seen at a stop so far in this match, a decision or a
        #: chance event (the engine's ``seen_by``, kept across deals): what its observations
        #: may show besides what it sees now (cards it passed, played, was shown); None until
        #: the first is noted
        self.seen: list[set[str]] | None = None
        #: decisions so far that all took the first legal event; -1 once one did not
        self._zeros = 0
        #: action names this match does not choose where another is legal (swarm testing)
        self.avoid = avoid

    def fail(self, kind: str, message: str, *, stderr: list[str] | None = None,
             event: object = None, spec_says: object = None, impl_says: object = None,
             missing: list[object] | None = None, extra: list[object] | None = None
             ) -> Diverged:
        """The exception for a divergence at this point of the match."""
        if stderr is None:
            stderr = self.guard.stderr_tail()
        # what the implementation said goes into the report, which is JSON: anything that is
        # not a JSON value is shown as text
        shown = _reportable(event)
        d = Divergence(kind, message, len(self.events), self.players, dict(self.opts),
                       self.dealer, list(self.events),
                       event=shown if isinstance(shown, dict) else None,
                       spec_says=_reportable(spec_says), impl_says=_reportable(impl_says),
                       missing=_reportable_list(missing or []),
                       extra=_reportable_list(extra or []), stderr=list(stderr))
        return diverged(d)

    def start(self, game: str, options: Mapping[str, object]) -> None:
        """Ask the implementation for this match's table (``new``): a table it offered before
        (the setting's first ``new``), so a refusal now is a divergence."""
        try:
            impl = self.guard.ready()
            self.guard.call("new", impl.new, game, self.players, options, self.dealer)
        except ImplementationError as e:
            raise self.fail(e.kind, e.message, stderr=list(e.stderr)) from None
        except (RecordError, IllegalActionError, ValueError):
            raise self.fail("shape", f"{self.impl_the} refused a table it accepted "
                            f"before ({self.players} players, dealer {self.dealer})") from None

    def _ask(self, op: str, *args: object) -> object:
        try:
            impl = self.guard.ready()
            return self.guard.call(op, getattr(impl, op), *args)
        except ImplementationError as e:
            raise self.fail(e.kind, e.message, stderr=list(e.stderr)) from None

    def key(self, e: object) -> str:
        """The canonical JSON text of an implementation's event (H5)."""
        if not isinstance(e, dict):
            raise self.fail("shape", f"a legal event is not an object: {str(e)[:200]}")
        try:
            k = event_key(e)
        except (TypeError, ValueError, RecursionError):
            raise self.fail("shape", f"a legal event is not JSON: {str(e)[:200]}") from None
        return k

    def normal_key(self, e: Event) -> str:
        """The canonical text after normalising card codes and set fields."""
        return normal_key(e, self.search.set_fields, self.deck)

    def _to_move(self) -> int | str | None:
        tm = self._ask("to_move")
        if tm is None or (isinstance(tm, str) and tm == CHANCE) or (
                isinstance(tm, int) and not isinstance(tm, bool)):
            return tm
        raise self.fail("shape", f"to_move must be a seat, \"chance\" or null, not "
                        f"{json.dumps(tm)[:100]}")

    def _legal_keys(self) -> dict[str, Event]:
        legal = self._ask("legal")
        if not isinstance(legal, list):
            raise self.fail("shape", f"legal must be a list, not {type(legal).__name__}")
        keys: dict[str, Event] = {}
        spec_keys = self.state.legal_map()
        for e in legal:
            k = self.key(e)
            if k not in spec_keys:
                k = self.normal_key(e)
            if k in keys:
                raise self.fail("duplicate", f"the event {k} is listed twice",
                                impl_says=len(legal), spec_says=len(spec_keys))
            keys[k] = e
        return keys

    def _result(self) -> dict[str, JSONValue]:
        r = self._ask("result")
        if not isinstance(r, dict):
            raise self.fail("shape", "result must be a JSON object")
        why = json_problem(r)
        if why is not None:  # a Python implementation's answer is any object it returns
            raise self.fail("shape", f"the result holds {why}")
        return r

    def play_spec_only(self, data: st.DataObject) -> None:
        """The rest of the match on the spec alone, drawing exactly as :meth:`play` does."""
        state = self.state
        deals = len(state.deals)
        while state.current_player() is not None and len(self.events) < MAX_EVENTS:
            ev, _, _ = self._choose(data, state.legal_actions())
            self.pending = ev
            state.apply(ev)
            self.pending = None
            self.events.append(ev)
            if len(state.deals) > deals:
                deals = len(state.deals)
                if deals >= MAX_DEALS and not state.is_terminal():
                    return

    def play(self, data: st.DataObject) -> None:
        """Play to the end of the match (or the bounds), checking at every step."""
        state, search = self.state, self.search
        prev: list[Event] = []
        deals = 0
        while True:
            a = state.current_player()
            b = self._to_move()
            if a != b and type(b) is int and b in state.seats_to_choose():
                # a simultaneous decision: the implementation asks its seats in an order of
                # its own, and the spec takes the choices in any order (State.ask)
                state.ask(b)
                a = b
            if a != b:
                raise self.fail("who-moves", f"{self.spec_the} says {json.dumps(a)} moves, "
                                f"{self.impl_the} {json.dumps(b)}", spec_says=a, impl_says=b)
            if a is None:
                break
            legal, theirs, both = self._legal_both()
            ev, flag, x = self._choose(data, legal)
            ev = self._past(ev, x, both)
            if search.spec_only:
                self.pending = ev
                state.apply(ev)
                self.pending = None
                self.events.append(ev)
                self.play_spec_only(data)
                return
            if search.observe_ok and search.checks_on(("leak",)):
                self._remember()
            if flag == PROBE:
                if search.probes and (search.first_by_probe or search.checks_on(
                        ("accepted-illegal", "changed-by-illegal"))):
                    self._probe(legal, prev, x, theirs)
            elif flag == OBSERVE and a != CHANCE:
                # observations are compared where a player decides: in the middle of a chance
                # step (a card turned up, waiting for its burial) two faithful implementations
                # may hold the card in different places
                if search.observe_ok and search.checks_on(("leak", "observation")):
                    self._observe(x % self.players)
            # a RuleRuntimeError here is the spec's fault: it propagates, and the match up to
            # this event is its record
            self.pending = ev
            state.apply(ev)
            self.pending = None
            try:
                self._ask("apply", ev)
            except (IllegalActionError, RecordError, ValueError) as e:
                raise self.fail("refused-legal", f"{self.impl_the} refused a legal event: "
                                f"{str(e)[:300]}", event=ev, impl_says=str(e)[:2000]) from None
            self.events.append(ev)
            prev = legal
            if len(state.deals) > deals:
                deals = len(state.deals)
                self._compare_results()
                if deals >= MAX_DEALS and not state.is_terminal():
                    return
            if len(self.events) >= MAX_EVENTS:
                break
        self._compare_results()

    def _past(self, ev: Event, x: int, both: dict[str, Event] | None) -> Event:
        """The event to play: ``ev``, or past a bug already reported or a known finding, one
        that both sides allow (:func:`_allowed`); the search notes that a match went past."""
        if both is None:
            return ev
        self.search.played_past = True
        return _allowed(ev, x, both)

    def _legal_both(self) -> tuple[list[Event], dict[str, Event], dict[str, Event] | None]:
        """The spec's legal events, the implementation's by their keys, and None; a
        divergence when the two sides' sets differ (under ``--keep-going`` for a bug already
        reported, or for a known finding: the events both sides allow, by their keys, as the
        third, the ones to play)."""
        spec_keys = self.state.legal_map()
        theirs = self._legal_keys()
        legal = self.state.legal_actions()
        if theirs.keys() == spec_keys.keys():
            return legal, theirs, None
        missing = sorted(set(spec_keys) - set(theirs))
        extra = sorted(set(theirs) - set(spec_keys))
        found = self.fail(
            "legal", f"{len(spec_keys)} legal events in {self.spec_the}, {len(theirs)} "
            f"in {self.impl_the}: {len(missing)} missing, {len(extra)} extra",
            spec_says=[spec_keys[k][0] for k in sorted(spec_keys)],
            impl_says=[theirs[k] for k in sorted(theirs)],
            missing=[spec_keys[k][0] for k in missing],
            extra=[theirs[k] for k in extra])
        both = [spec_keys[k][0] for k in sorted(spec_keys) if k in theirs]
        known = match_known(self.search.known_findings, found.divergence)
        if not both:
            raise found  # nothing both allow: the match cannot go on (a known one is skipped)
        if known is not None:
            self.search.known[known] = self.search.known.get(known, 0) + 1
        elif found.divergence.signature() not in self.search.skip:
            raise found
        # --keep-going, a bug already reported, or a known finding: play on among the events
        # both sides allow, so the match can reach the bugs behind it
        return legal, theirs, {canonical_key(e): e for e in both}

    def _choose(self, data: st.DataObject,
                legal: list[Event]) -> tuple[Event, int, int]:
        """The event to play, and the sampled check to make here: one Hypothesis integer per
        event, ``x = flag * n + index``, so shrinking drops checks first, then moves every
        choice toward the first legal event (a shuffle: toward the unshuffled pack)."""
        if len(legal) == 1 and legal[0].get("chance") in ("shuffle", "reshuffle"):
            s = self.search.draw(data, st.integers(0, 2**32 - 1))
            ev = dict(legal[0])
            cards = list(ev["cards"])
            if s:
                random.Random(s).shuffle(cards)
            ev["cards"] = cards
            return ev, 0, s
        if legal and legal[0].get("chance") == "pick":
            return self._choose_pick(data, legal)
        if self.avoid:
            pool = [e for e in legal if e.get("action") not in self.avoid]
            if pool:
                legal = pool
        n = len(legal)
        x = self.search.draw(data, st.integers(0, FLAGS * n - 1))
        if n > 1 and self._zeros >= 0:
            # Hypothesis tries the simplest example (every choice the first legal event)
            # first, at every setting; in a game where that is "draw" or "pass" it runs
            # to MAX_EVENTS making no progress, the dearest match of the run. Choices that
            # begin with ZERO_RUN such decisions are not a match worth playing (a rule of
            # the choices alone, so replays and shrinking see it the same way).
            self._zeros = self._zeros + 1 if x == 0 else -1
            if self._zeros >= ZERO_RUN:
                self.search.not_a_match()
                reject()
        return legal[x % n], x // n, x

    def _choose_pick(self, data: st.DataObject,
                     legal: list[Event]) -> tuple[Event, int, int]:
        """A pick's outcome drawn by its weight, as :meth:`_choose` draws a decision: one
        integer ``x = flag * total + r``, ``r`` falling on an outcome by the weights in the
        order the spec lists them, so shrinking moves toward the first outcome listed."""
        keys = {canonical_key(e) for e in legal}
        outcomes = [(e, w) for e, w in self.state.chance_weights() if canonical_key(e) in keys]
        total = sum(w for _, w in outcomes)
        x = self.search.draw(data, st.integers(0, FLAGS * total - 1))
        return pick_at(outcomes, x % total), x // total, x

    def _compare_results(self) -> None:
        mine = self.state.result()
        theirs = self._result()
        diffs = compare_answers(mine, theirs, self.search.set_fields, self.search.words,
                                self.deck)
        if diffs:
            shown = {k: x for k, x in mine.items() if k != "legal"}
            raise self.fail("result", "; ".join(diffs[:6]), spec_says=shown,
                            impl_says={k: x for k, x in theirs.items() if k != "legal"})

    # ---- near misses ----------------------------------------------------------------------
    def _probe(self, legal: list[Event], prev: list[Event], pick: int,
               theirs: dict[str, Event]) -> None:
        """Offer the implementation an event the spec refuses here, and check it is refused
        and changes nothing. A divergence met on the way (a crash, a result asked before or
        after) is noted as a probe's: shrinking then keeps the probes on, or the divergence
        could not be met again."""
        try:
            self._try_probe(legal, prev, pick, theirs)
        except Exception:
            if not self.search.shrinking:
                self.search.first_by_probe = True
            raise

    def _near_miss(self, legal: list[Event], prev: list[Event], pick: int,
                   theirs: Mapping[str, Event]) -> Event | None:
        """A near miss (:func:`_near_misses`, seeded with ``pick``) that the spec refuses
        here, tried on a clone of its state; None when every candidate is legal. One the
        implementation lists as legal is no probe: the legal sets' comparison has met it
        (a bug already reported, or a known finding)."""
        rng = random.Random(pick)
        spec_keys = self.state.legal_map()
        for c in _near_misses(legal, prev, rng, self.players, self.state):
            try:
                k = canonical_key(c)
            except (TypeError, ValueError):
                continue
            if k in spec_keys or k in theirs or self.normal_key(c) in theirs:
                continue
            clone = self.state.clone()
            try:
                clone.apply(c)
            except (IllegalActionError, RecordError):
                return c
            except RulespecError:
                continue
        return None

    def _try_probe(self, legal: list[Event], prev: list[Event], pick: int,
                   theirs: dict[str, Event]) -> None:
        probe = self._near_miss(legal, prev, pick, theirs)
        if probe is None:
            return
        before_result = self._result()
        seat = self.state.current_player()
        # observations are a real player's (a dummy hand's seat is nobody's to observe)
        if not (isinstance(seat, int) and seat < self.players):
            seat = None
        before_obs = self._observation(seat) if seat is not None else None
        try:
            self._ask("apply", probe)
        except (IllegalActionError, RecordError, ValueError):
            pass
        else:
            raise self.fail("accepted-illegal", f"{self.impl_the} accepted an event "
                            f"{self.spec_the} does not allow here", event=probe,
                            spec_says="illegal: " + self.state.why_illegal(probe),
                            impl_says="accepted")
        after_tm = self._to_move()
        after_keys = self._legal_keys()
        after_result = self._result()
        changed = []
        if after_tm != self.state.current_player():
            changed.append(f"to_move became {json.dumps(after_tm)}")
        if after_keys.keys() != theirs.keys():
            changed.append("the legal events changed")
        if json.dumps(after_result, sort_keys=True) != json.dumps(before_result, sort_keys=True):
            changed.append("the result changed")
        if before_obs is not None and seat is not None:
            after_obs = self._observation(seat)
            if json.dumps(after_obs, sort_keys=True) != json.dumps(before_obs, sort_keys=True):
                changed.append(f"seat {seat}'s observation changed")
        if changed:
            raise self.fail("changed-by-illegal", "after refusing an illegal event, "
                            + "; ".join(changed), event=probe)

    # ---- observations ---------------------------------------------------------------------
    def _observation(self, seat: int) -> object:
        """The implementation's observation for ``seat``, or None (and no more asking) when
        it does not answer ``observe``."""
        if not self.search.observe_ok:
            return None
        impl = self.guard.ready()
        if not hasattr(impl, "observe"):
            self.search.observe_ok = False
            return None
        try:
            obs = self.guard.call("observe", impl.observe, seat)
        except ImplementationError as e:
            raise self.fail(e.kind, e.message, stderr=list(e.stderr)) from None
        except (IllegalActionError, RecordError, ValueError):
            self.search.observe_ok = False
            return None
        if obs is None:
            self.search.observe_ok = False
            return None
        why = json_problem(obs)
        if why is not None:
            raise self.fail("shape", f"the observation holds {why}")
        return obs

    def _remember(self) -> None:
        """Each hand notes the cards it sees now (``State.seen_by``: its observation's zones,
        at this stop), for the rest of the match."""
        state = self.state
        seen = self.seen
        if seen is None:
            seen = self.seen = [set() for _ in range(state.game.hands)]
        for q, cards in enumerate(seen):
            cards.update(state.seen_by(q))

    def _observe(self, seat: int) -> None:
        obs = self._observation(seat)
        if obs is None:
            return
        if not isinstance(obs, dict):
            raise self.fail("shape", "an observation is a JSON object")
        mine = self.state.observation(seat)
        # what the spec shows the seat: its zones as it sees them, and the variables (public)
        deck = self.deck
        allowed = visible(mine["zones"], deck) + \
            collections.Counter(card_codes(mine["vars"], 0, deck))
        # a card the seat saw at an earlier stop of the match (one it passed or played,
        # one shown to it) may be shown again, in a history of the deal: no leak
        for c in self.seen[seat] if self.seen is not None else ():
            if not allowed[c]:
                allowed[c] = 1
        shown: collections.Counter[str] = collections.Counter(card_codes(obs, 0, deck))
        # a card named twice (in the hand and again in a list of cards shown, say) reveals
        # nothing when the seat sees every copy of it; with copies the seat cannot see (two
        # packs), each extra mention may be one of them
        copies = visible(self.state.z, deck)
        leaked = collections.Counter({c: n - allowed[c] for c, n in shown.items()
                                      if n > allowed[c]
                                      and (allowed[c] == 0 or copies[c] > allowed[c])})
        if leaked:
            raise self.fail("leak", f"seat {seat}'s observation shows "
                            f"{', '.join(sorted(leaked.elements()))[:300]}, which "
                            f"{self.spec_the} hides from seat {seat}", spec_says=mine["zones"],
                            impl_says=obs)
        zones = obs.get("zones")
        if isinstance(zones, dict):
            shown_sizes = sizes_shown(mine["zones"], zones)
            if shown_sizes:
                raise self.fail("leak", f"seat {seat}'s observation gives the size of "
                                f"{', '.join(shown_sizes)[:300]}, which {self.spec_the} "
                                f"hides from seat {seat}", spec_says=mine["zones"],
                                impl_says=obs)
            for name, theirs in zones.items():
                if name not in mine["zones"]:
                    continue
                if not _same_zone(mine["zones"][name], theirs, self.deck):
                    raise self.fail("observation", f"seat {seat} sees zone {name!r} unlike "
                                    f"{self.spec_the}",
                                    spec_says={name: mine["zones"][name]},
                                    impl_says={name: theirs})
        their_vars = obs.get("vars")
        if isinstance(their_vars, dict) and self.search.vars_compared:
            # the variables both sides show: one the implementation does not send, or that
            # the spec does not have, is not compared
            for name, theirs in their_vars.items():
                if name in mine["vars"] and not _same_value(mine["vars"][name], theirs, deck):
                    raise self.fail("observation", f"seat {seat} sees variable {name!r} "
                                    f"unlike {self.spec_the}",
                                    spec_says={name: mine["vars"][name]},
                                    impl_says={name: theirs})


def _reportable(x: object, depth: int = 0) -> JSONValue:
    """``x`` as a JSON value for the report: a value :func:`json_problem` finds fault with is
    replaced by a string saying what it was (a divergence's answers come from the
    implementation, and a Python one may return any object)."""
    why = json_problem(x, MAX_ANSWER_DEPTH - depth)
    if why is None:
        return cast(JSONValue, x)  # json_problem found none: a JSON value
    if depth < MAX_ANSWER_DEPTH:
        if isinstance(x, list):
            return [_reportable(y, depth + 1) for y in x]
        if isinstance(x, dict) and all(isinstance(k, str) for k in x):
            return {k: _reportable(y, depth + 1) for k, y in x.items()}
    return f"(not shown: {why})" if isinstance(x, (list, dict)) else \
        f"(not JSON: {reprlib.repr(x)})"


def _reportable_list(xs: list[object]) -> list[JSONValue]:
    """A list for the report, as :func:`_reportable` shows it (a list stays a list)."""
    shown = _reportable(xs)
    return shown if isinstance(shown, list) else [shown]


def _same_value(a: object, b: object, deck: Deck) -> bool:
    """Whether the implementation's value ``b`` of a variable is the spec's ``a``: the same
    JSON value, a card in any spelling of its code (lists in the same order, objects key by
    key); a boolean is no number."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(
            _same_value(x, y, deck) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(
            _same_value(a[k], b[k], deck) for k in a)
    if isinstance(a, str) and isinstance(b, str):
        return a == b or (card_code(a, deck) or a) == (card_code(b, deck) or b)
    return type(a) is type(b) and a == b


def _same_zone(a: int | list[Any] | None, b: object, deck: Deck = FRENCH) -> bool:
    """Whether the implementation's zone ``b`` is the spec's ``a``: a count, null for a size
    the seat may not count, or the cards in any order and spelling (per seat, a list of
    those)."""
    if a is None:
        return b is None
    if isinstance(a, int):
        return isinstance(b, int) and not isinstance(b, bool) and a == b
    if not isinstance(b, list) or len(a) != len(b):
        return False
    if a and (a[0] is None or isinstance(a[0], (list, int))) and not isinstance(a[0], str):
        return all(_same_zone(x, y, deck) for x, y in zip(a, b, strict=True))
    try:
        return collections.Counter(a) == collections.Counter(card_code(x, deck) or x for x in b)
    except TypeError:
        return False


def _allowed(ev: Event, x: int, both: dict[str, Event] | None) -> Event:
    """The event to play: ``ev``, drawn from the spec's whole legal set by the integer ``x``,
    or, past a bug already reported or a known finding, an event both sides allow (``both``)
    drawn by the same integer, so that a match replayed on the spec alone draws as this one
    did (Hypothesis asks the same of every replay). A shuffle stays as drawn."""
    if both is None or ev.get("chance") in ("shuffle", "reshuffle") \
            or canonical_key(ev) in both:
        return ev
    return list(both.values())[x % len(both)]


def _near_misses(legal: list[Event], prev: list[Event], rng: random.Random,
                 players: int, state: State) -> list[Event]:
    """Events close to legal ones: another seat's, a card not held, a number one off, a set
    with one element more or less, an event that was legal one step earlier."""
    out: list[Event] = []
    if not legal:
        return out
    base = rng.choice(legal)
    if "chance" in base:
        ev = dict(base)
        if isinstance(ev.get("cards"), list) and len(ev["cards"]) > 1:
            cards = list(ev["cards"])
            cards[0] = cards[-1]  # not a permutation of the pack any more
            ev["cards"] = cards
            out.append(ev)
        if "position" in ev:
            out.append({**ev, "position": len(legal)})
        if "value" in ev:
            # a value the pick does not list: past the numbers listed, or a name none is
            values = [e.get("value") for e in legal]
            nums = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
            out.append({**ev, "value": max(nums) + 1 if nums else "not_an_outcome"})
        return out
    seat = base.get("seat")
    if isinstance(seat, int):
        out.append({**base, "seat": (seat + 1 + rng.randrange(max(1, players - 1))) % players})
    pack = sorted({c for z in state.z.values() for h in (z if z and isinstance(z[0], list)
                                                          else [z]) for c in h
                   if isinstance(c, str)})
    for f, x in base.items():
        if f in ("seat", "action"):
            continue
        if isinstance(x, bool):
            out.append({**base, f: not x})
        elif isinstance(x, int):
            out.append({**base, f: x + rng.choice((-1, 1))})
        elif card_code(x, state.game.spec.deck) is not None and pack:
            out.append({**base, f: rng.choice(pack)})
        elif isinstance(x, list):
            if x:
                out.append({**base, f: x[:-1]})
            if x and all(isinstance(y, int) for y in x):
                out.append({**base, f: sorted({*x, rng.randrange(1, 14)})})
            elif pack:
                y = list(x)
                if y:
                    y[rng.randrange(len(y))] = rng.choice(pack)
                else:
                    y = [rng.choice(pack)]
                out.append({**base, f: y})
    if prev:
        out.append(rng.choice(prev))
    rng.shuffle(out)
    if len(legal) % 2 == 0 and isinstance(seat, int):
        own = _own_card_miss(base, seat, len(prev), state)
        if own is not None:
            out.insert(0, own)
    return out


def _own_card_miss(base: Event, seat: int, k: int, state: State) -> Event | None:
    """``base`` with a card of ``seat``'s own piles (its part of every zone held per player)
    in place of its card: the illegal play an engine is most likely to take, a card of the
    hand that does not follow suit. Tried on every other step only, and drawn without the
    generator (the ``k``-th card), so the other candidates stay as they were."""
    own: list[str] = []
    for z in state.z.values():
        if z and isinstance(z[0], list) and seat < len(z):
            own.extend(c for c in z[seat] if isinstance(c, str))
    if not own:
        return None
    own.sort()
    for f, x in base.items():
        if f not in ("seat", "action") and isinstance(x, str) \
                and card_code(x, state.game.spec.deck) is not None:
            return {**base, f: own[k % len(own)]}
    return None
