"""Verification: drive any implementation beside the spec until they part, then shrink.

The search is Hypothesis's. A *match* is one Hypothesis example at one setting: the dealer, a
swarm mask (the kinds of decision the match avoids), one integer per decision (an index into
the canonical legal list, H5, and the sampled check to make there) and one integer seed per
shuffle; the setting's table and options are not drawn, a divergence's setting is simplified
afterwards by replaying simpler settings (``Verifier._simplify``). Both sides see the same
events; at every step they must agree on who moves and on the exact set of legal events, the
implementation must accept the event played, and it must refuse sampled near misses and stay
unchanged; at every deal end and at the match end the replay answers must agree
(docs/protocol.md says how they are compared); observations, where the implementation answers
``observe``, must show no card the spec hides and every zone as the spec shows it. A
divergence raises an exception of its kind, so Hypothesis keeps different kinds apart and
shrinks each to a minimal match; a candidate match ends where its own choices end, so
shrinking never plays beyond the failing game.

An outer loop schedules *settings* (a table size and options): every table at the defaults,
every value of every option at least once (enums and booleans exhaustively, integers at the
default and default +- 1, the range's ends and both sides of each constant the spec compares
them with, where the spec's ``require``s accept them), then random combinations
steered toward clauses of the spec not yet exercised. Coverage is measured by the engine
(``rulespec.lang.clauses``) and steers between runs, never within one, so replay and shrinking
stay consistent.

The parts, as Hypothesis splits its engine: ``schedule`` chooses the settings, this module
runs them (the run loop, the Hypothesis settings, the shrink budget), ``search`` holds one
setting's search and its test, ``match`` plays one match, ``guard`` calls the implementation,
``compare`` reads its answers, and ``report`` says what was found.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import random
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import cast

import attrs
import hypothesis
from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Flaky, HypothesisException
from hypothesis.reporting import with_reporter

from rulespec.engine.game import Game, Tables, tables_of
from rulespec.errors import (
    ConfigurationError,
    IllegalActionError,
    ImplementationError,
    RecordError,
)
from rulespec.lang import ast, walk
from rulespec.lang.clauses import clauses
from rulespec.lang.model import CheckedSpec
from rulespec.loading import normalise_options, shipped_games
from rulespec.protocol import Implementation
from rulespec.verify.coverage import Coverage
from rulespec.verify.guard import Guard
from rulespec.verify.known import KnownFinding
from rulespec.verify.report import (
    SIDES,
    ClauseRef,
    Diverged,
    Divergence,
    Report,
    SettingResult,
    the,
)
from rulespec.verify.schedule import (
    COMBINATION,
    Agenda,
    OptionValue,
    Plan,
    Setting,
    option_text,
    spread,
)
from rulespec.verify.search import Run, SettingSearch

__all__ = ["SHRINK_BOUND", "SIMPLIFY_TRIES", "Verifier", "scratch_storage", "shrink_bound"]

#: settings :meth:`Verifier._simplify` tries at most (two matches each, unshrunk)
SIMPLIFY_TRIES = 24


class _Tables:
    """Which (table, options) the spec accepts, compiled once each (a compile is ~20 ms): a
    view of :class:`rulespec.engine.game.Tables`. With coverage, this run's own cache, every
    game kept (the report counts the clauses each entered); without, the process's."""

    def __init__(self, spec: CheckedSpec, coverage: bool = True) -> None:
        self.spec = spec
        self.coverage = coverage
        self.cache = Tables(spec, coverage=True, max_games=sys.maxsize) if coverage \
            else tables_of(spec)

    def game(self, players: int, options: Mapping[str, OptionValue]) -> Game:
        """The compiled game; ConfigurationError when the spec refuses the setting."""
        return self.cache.game(players, options)

    def accepts(self, players: int, options: Mapping[str, OptionValue]) -> bool:
        """True when the spec offers this setting (its requires checked, nothing compiled)."""
        return self.cache.accepts(players, options)

    def games(self) -> list[Game]:
        """Every game compiled so far."""
        return self.cache.games()


class _Refused(Exception):
    """The spec or the implementation does not offer a setting (``why``: what it said)."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


# ---- the order of a run's work ---------------------------------------------------------------
class _Shares:
    """How many matches each setting of a run plays: with ``games``, its part of them
    (:func:`spread` over the schedule and the steered combinations); without, a fixed amount
    of work (:meth:`Plan.default_matches`). And how many settings' runs the run plans: two for
    a setting (its first match, then the rest of its share), one for a steered combination,
    less what refusals take away (the total progress announces)."""

    def __init__(self, plan: Plan, games: int | None, budget: float | None) -> None:
        self.plan = plan
        scheduled = plan.schedule
        #: steered combinations to play after the schedule (None: until the budget is spent)
        self.steered: int | None = max(3, len(scheduled) // 4)
        #: with ``games``, each setting's matches in all
        self.quota: dict[Setting, int] | None = None
        self._steered_quota: list[int] = []
        if games is not None:
            shares = spread(games, len(scheduled) + (self.steered or 0))
            self.quota = {}
            for x, q in zip(scheduled, shares, strict=False):
                self.quota[x] = self.quota.get(x, 0) + q
            self._steered_quota = [q for q in shares[len(scheduled):] if q > 0]
            self.steered = len(self._steered_quota)
        elif budget is not None:
            self.steered = None
        self.planned = (sum(self.runs(x) for x in dict.fromkeys(scheduled))
                        + (self.steered or 0))

    def runs(self, s: Setting) -> int:
        """How many runs setting ``s`` of the schedule plans: its first match, then the rest
        of its share (without a quota, the share is at least two matches)."""
        q = 2 if self.quota is None else self.quota.get(s, 0)
        return min(q, 2)

    def share(self, s: Setting, pass_: int, seed_: int, first: SettingResult | None
              ) -> int | None:
        """Matches to play at scheduled setting ``s`` in pass ``pass_``: one in the first
        pass, the rest of its share in the second (``first``: the result of its first). None
        when none are left, or the implementation refused the setting."""
        q = None if self.quota is None else self.quota.get(s, 0)
        if pass_ == 0:
            return 1 if q is None or q >= 1 else None
        if first is None or first.refused is not None:
            return None
        k = (self.plan.default_matches(s, seed_) if q is None else q) - 1
        return k if k > 0 else None

    def steered_share(self, s: Setting, seed_: int) -> int:
        """Matches for a steered combination: all of its share at once."""
        if self.quota is None:
            return self.plan.default_matches(s, seed_)
        return self._steered_quota.pop(0)

    def instead(self, part: Setting, s: Setting) -> None:
        """``part`` is played instead of the refused combination ``s``, with its share."""
        if self.quota is not None:
            self.quota[part] = self.quota[s]
        self.planned += self.runs(part)


@attrs.define
class _Tally:
    """A run's results so far, and the signatures of the divergences reported."""

    results: list[SettingResult] = attrs.field(factory=list)
    by_setting: dict[Setting, SettingResult] = attrs.field(factory=dict)
    divergences: list[Divergence] = attrs.field(factory=list)
    seen: set[tuple[str, ...]] = attrs.field(factory=set)

    def add(self, s: Setting, r: SettingResult, agenda: Agenda) -> SettingResult | None:
        """Count ``r`` in the run's results: a setting's first result is listed (and the
        setting queued for its second pass), a later one is added to it. The earlier result,
        if any."""
        prev = self.by_setting.get(s)
        if prev is None:
            self.by_setting[s] = r
            self.results.append(r)
            agenda.played(s)
        else:
            prev.matches += r.matches
            prev.events += r.events
            prev.divergence = prev.divergence or r.divergence
            for k, n in r.known.items():
                prev.known[k] = prev.known.get(k, 0) + n
        return prev


#: ``progress(label, number, total, coverage)``, called before each setting's matches
Progress = Callable[[str, int, int | None, str], None]


@attrs.define
class _Loop:
    """One run of a :class:`Verifier`: its agenda played in order until the games, the budget
    or a divergence stops it."""

    v: Verifier
    plan: Plan
    shares: _Shares
    seed: int
    budget: float | None
    keep_going: bool
    progress: Progress | None
    t0: float = attrs.field(factory=time.monotonic)
    tally: _Tally = attrs.field(factory=_Tally)
    number: int = 0

    def play(self) -> str:
        """Play the agenda; what stopped the run (``games``: the agenda ran out)."""
        v, shares, tally = self.v, self.shares, self.tally
        agenda = Agenda(self.plan.schedule, shares.steered)
        rng = random.Random(self.seed)
        for i, (s, pass_) in enumerate(agenda):
            steered_one = s is None
            if s is None:
                if not any(r.refused is None for r in tally.results):
                    return "refused"
                s = v.steered(self.plan, rng)
                if s is None:
                    break
            if self.budget is not None and time.monotonic() - self.t0 > self.budget \
                    and any(r.matches for r in tally.results):
                return "budget"
            if steered_one:  # all of its share at once (it may be a setting played before)
                k: int | None = shares.steered_share(s, self.seed + i)
            else:
                k = shares.share(s, pass_, self.seed + i, tally.by_setting.get(s))
            if k is None:
                continue
            self._announce(s)
            left = (None if self.budget is None
                    else max(1.0, self.budget - (time.monotonic() - self.t0)))
            # a divergence is found unshrunk, simplified, then shrunk once where it is
            # simplest (_simplify)
            run_seed = self.seed * 1_000_003 + i
            r = v.run_setting(s, k, run_seed, left, skip=tally.seen, shrink=False)
            if r.refused is not None:
                if pass_ == 0:
                    shares.planned -= shares.runs(s) - 1  # no rest of its share to come
                if s.why == COMBINATION:
                    self._instead(s, agenda)
                    continue
            prev = tally.add(s, r, agenda)
            if r.divergence is not None:
                r.divergence = v._simplify(self.plan, s, r.divergence, (k, run_seed),
                                           tally.seen)
                if prev is not None:
                    prev.divergence = r.divergence
                tally.divergences.append(r.divergence)
                tally.seen.add(r.divergence.signature())
                if not self.keep_going:
                    return "divergence"
        return "games"

    def _announce(self, s: Setting) -> None:
        """Count the setting's run, and tell ``progress``: its number, the total planned
        (None once a budget's steered combinations go on past it) and the coverage."""
        self.number += 1
        if self.progress:
            self.v._fold_coverage()
            planned = self.shares.planned
            total = (planned if self.shares.steered is not None or self.number <= planned
                     else None)
            self.progress(s.label(), self.number, total, self.v.coverage.summary())

    def _instead(self, s: Setting, agenda: Agenda) -> None:
        """A combination the implementation does not offer: the largest part of it that it
        does is played instead (only settings of one option count as not offered; the values
        left out have settings of their own)."""
        part = self.plan.offered_part(s, self.v.offers)
        if part is not None:
            self.shares.instead(part, s)
            agenda.insert(part)


# ---- the verifier ------------------------------------------------------------------------------
class Verifier:
    """Verifies one implementation (``factory()`` gives one) against one checked spec.

    ``game`` is the name sent in ``new`` and written in records. See :func:`run` for the
    knobs; :meth:`run` returns a :class:`Report`.
    """

    def __init__(self, spec: CheckedSpec, game: str, factory: Callable[[], Implementation], *,
                 timeout: float = 10.0, probes: bool = True, observations: bool = True,
                 other_options: Mapping[str, object] | None = None,
                 db: str | Path | None = None, shrink_seconds: float = 15.0,
                 words: tuple[str, str] = SIDES, vars_compared: bool = True,
                 known: Sequence[KnownFinding] = ()) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout is a finite number of seconds above 0, not {timeout!r}")
        self.spec = spec
        self.game = game
        self.factory = factory
        #: the known findings (``--known``): met, they are counted and the search goes on
        self.known = tuple(known)
        self.timeout = timeout
        #: the names of the two sides in messages and reports (diff: "A" and "B")
        self.words = words
        self.spec_the, self.impl_the = the(words[0]), the(words[1])
        self.probes = probes
        self.observations = observations
        #: whether an observation's ``vars`` are compared with the spec's (diff: two specs'
        #: variables are their own, and not compared)
        self.vars_compared = vars_compared
        self.other_options = dict(other_options or {})
        self.db = DirectoryBasedExampleDatabase(str(db)) if db else None
        self.tables = _Tables(spec)
        #: the same tables without coverage marks, for estimates that play the spec alone
        self._plain = _Tables(spec, coverage=False)
        #: ids of the games a match was played at (their clauses hit count toward coverage)
        self._played: set[int] = set()
        #: the implementation behind its guard, while a run is on (and after, for its counts)
        self.guard: Guard | None = None
        self.coverage = Coverage(clauses(spec))
        self._set_fields = frozenset((a.name, f) for a in spec.actions for f in a.set_fields)
        self._end_deals = [n for n in walk.descendants(spec.items) if isinstance(n, ast.EndDeal)]
        self._action_names = spec.action_names()
        #: bounds of shrinking one divergence: candidate matches played, and seconds
        self.max_shrinks = 3000
        self.shrink_limit = shrink_seconds

    # ---- the run --------------------------------------------------------------------------
    def run(self, *, players: Sequence[int] = (), options: Mapping[str, object] | None = None,
            games: int | None = None, budget: float | None = None, seed_: int = 0,
            keep_going: bool = False, strict: bool = False,
            progress: Progress | None = None) -> Report:
        """Play the schedule. ``games``: matches in all, spread over the scheduled settings
        and a few steered combinations (:func:`spread`); without it, each setting plays its
        share of a fixed amount of work (:meth:`Plan.default_matches`), then come a few
        steered combinations. ``budget``: seconds for the whole run, checked between settings;
        without ``games``, steered combinations go on until it is spent. The budget never
        stops a run before its first match. Once the implementation has refused every
        scheduled setting, the run stops (a combination of the values it refused one at a time
        would be refused too). ``progress(label, number, total, coverage)`` is called before
        each setting's matches: ``number`` counts them from 1, ``total`` is how many the run
        plans (None once a budget's steered combinations go on past the schedule)."""
        if budget is not None and not math.isfinite(budget):
            raise ValueError(f"budget is a finite number of seconds, not {budget!r}")
        if games is not None and games < 1:
            raise ValueError(f"games is at least 1, not {games!r}")
        t0 = time.monotonic()
        plan = self._plan(players, options)
        shares = _Shares(plan, games, budget)
        self.guard = Guard(self.factory, self.timeout)
        loop = _Loop(self, plan, shares, seed_, budget, keep_going, progress, t0)
        loop.tally.seen.update(("known", k.id) for k in self.known)
        try:
            stopped = loop.play()
        finally:
            self.guard.close()
        self._fold_coverage()
        met: dict[str, int] = {}
        for r in loop.tally.results:
            for k, n in r.known.items():
                met[k] = met.get(k, 0) + n
        return Report(self.game, loop.tally.results, loop.tally.divergences, self.coverage,
                      time.monotonic() - t0, stopped, self.guard.round_trips, strict,
                      shipped=self.game in shipped_games(), words=self.words, known=met)

    def _plan(self, players: Sequence[int], options: Mapping[str, object] | None) -> Plan:
        """The run's table sizes, its fixed options (checked) and its schedule;
        ConfigurationError where the spec takes none of them."""
        sizes = sorted(players) or list(range(self.spec.min_players,
                                              self.spec.max_players + 1))
        for p in sizes:
            if not isinstance(p, int) or not self.spec.min_players <= p <= self.spec.max_players:
                raise ConfigurationError(f"{self.spec.name} takes {self.spec.min_players} to "
                                         f"{self.spec.max_players} players, not {p}")
        fixed = normalise_options(self.spec, dict(options or {}))
        plan = Plan(self.spec, self.tables, self._plain, sizes, fixed)
        if not plan.schedule:
            raise ConfigurationError(f"{self.spec.name} accepts none of these tables and "
                                     "options")
        return plan

    def steered(self, plan: Plan, rng: random.Random) -> Setting | None:
        """The next steered combination (:meth:`Plan.steered`), by the coverage so far."""
        self._fold_coverage()
        return plan.steered(rng, self.coverage)

    def _simplify(self, plan: Plan, setting: Setting, d: Divergence, found: tuple[int, int],
                  skip: set[tuple[str, ...]]) -> Divergence:
        """The divergence at the simplest setting that still shows it, then shrunk.

        First the same setting with uniform choices (no swarm, see ``SettingSearch._match``:
        a bug that does not need a swarm's bias shrinks better without one); then the
        settings one step simpler (:meth:`Plan.simpler`). Each is tried with two matches,
        unshrunk; the first that diverges the same way is taken and simplified again. The
        divergence is then shrunk once, where it was last seen (``found``: the matches and
        seed that found it at ``setting``)."""
        t0 = time.monotonic()
        limit = self.shrink_limit
        tries = 0
        swarm = True
        passed: set[tuple[Setting, bool]] = set()  # tried and not diverging: not tried again

        def attempt(c: Setting, sw: bool) -> bool:
            nonlocal tries, setting, d, found, swarm
            tries += 1
            trial = (2, found[1] * 31 + tries)
            r = self.run_setting(c, trial[0], trial[1], limit, skip=skip, shrink=False,
                                 swarm=sw)
            if r.divergence is not None and r.divergence.kind == d.kind:
                setting, d, found, swarm = c, r.divergence, trial, sw
                return True
            passed.add((attrs.evolve(c, why=""), sw))
            return False

        attempt(setting, False)
        while tries < SIMPLIFY_TRIES and time.monotonic() - t0 < limit:
            for c in plan.simpler(setting):
                if (attrs.evolve(c, why=""), swarm) in passed:
                    continue
                if tries >= SIMPLIFY_TRIES or time.monotonic() - t0 >= limit:
                    break
                if attempt(c, swarm):
                    break
            else:
                break
        r = self.run_setting(setting, found[0], found[1], skip=skip, swarm=swarm)
        if r.divergence is not None and r.divergence.kind == d.kind:
            return r.divergence
        return d  # not seen again (an implementation that is not deterministic): unshrunk

    def _fold_coverage(self) -> None:
        """Coverage of the games matches were played at (all compiled games say what the
        tested settings can reach)."""
        defaults = {o.name: o.default for o in self.spec.options}
        for g in self.tables.games():
            under = {k: option_text(cast(OptionValue, v)) for k, v in g.options.items()
                     if k in defaults and v != defaults[k]}
            self.coverage.add(g.compiled_clauses, g.cover or () if id(g) in self._played else (),
                              under)

    # ---- one setting ----------------------------------------------------------------------
    def run_setting(self, setting: Setting, matches: int, run_seed: int,
                    seconds: float | None = None,
                    skip: set[tuple[str, ...]] | None = None,
                    shrink: bool = True, swarm: bool = True) -> SettingResult:
        """Up to ``matches`` Hypothesis examples at ``setting``; the divergence if any, shrunk
        unless ``shrink`` is false. The same arguments play the same examples again (the
        seed fixes Hypothesis's generation), which is how a divergence found unshrunk is
        shrunk later. Shrinking is bounded by the ``seconds`` left of the run (at least 5 s)."""
        assert self.guard is not None
        res = SettingResult(setting)
        try:
            self._offered(setting)
        except _Refused as e:
            res.refused = e.why
            return res
        # the state of the setting's search is fresh: nothing failed or shrunk yet, the full
        # timeout
        self.guard.set_timeout(self.timeout)
        search = SettingSearch(self._run(), skip=skip or set(), swarm=swarm, cap=matches)
        test = search.example(setting)
        bound = (self.shrink_limit if seconds is None
                 else max(min(5.0, self.shrink_limit), min(self.shrink_limit, seconds)))
        res.divergence = self._search(self._hypothesis_test(test, setting, matches, run_seed,
                                                            shrink), search, bound, setting)
        res.matches, res.events = search.matches, search.events
        res.known = dict(search.known)
        if res.divergence is not None:
            d = res.divergence
            d.setting = setting.label()
            d.clauses = self._clauses_for(d)
        return res

    def _run(self) -> Run:
        """What each setting's search shares with the run."""
        assert self.guard is not None
        return Run(self.guard, self.tables, self.game, self.other_options, self._action_names,
                   self._set_fields, self.words, self.probes, self.observations, self.timeout,
                   self.max_shrinks, self._played, self.vars_compared, self.known)

    def _hypothesis_test(self, test: Callable[[st.DataObject], None], setting: Setting,
                         matches: int, run_seed: int, shrink: bool) -> Callable[[], None]:
        """``test`` under ``given``, seeded with ``run_seed`` and the run's settings: up to
        ``matches`` examples, shrunk (and stored) only when ``shrink``."""
        # unshrunk failures stay out of the example database: Hypothesis replays a stored
        # failure without shrinking it again
        db = self.db if shrink else None
        phases = ([Phase.generate] + ([Phase.shrink] if shrink else [])
                  + ([Phase.reuse] if db else []))
        # one example-database key per game and setting (Hypothesis keys it by the test's
        # digest, the same function for every setting; its stateful tests add to it the same way)
        test._hypothesis_internal_add_digest = (  # type: ignore[attr-defined]
            f"{self.spec.name}|{self.game}|{setting.players}|{setting.options!r}".encode())
        # settings outermost: under ``seed(settings(...)(...))`` Hypothesis neither stores nor
        # reuses an example (tests/test_verify.py, the --db test), so --db kept nothing
        return settings(
            max_examples=max(1, matches), deadline=None, database=db, phases=phases,
            suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
            verbosity=Verbosity.quiet, print_blob=False, derandomize=False)(
                seed(run_seed)(given(st.data())(test)))

    def _search(self, wrapped: Callable[[], None], search: SettingSearch,
                shrink_seconds: float, setting: Setting) -> Divergence | None:
        """Run the Hypothesis test ``wrapped`` of ``search``: the divergence it ends with, if
        any (a ``flaky`` one when the same choices met different answers and no divergence
        was seen: an implementation that is not deterministic, at ``setting``)."""
        try:
            with with_reporter(lambda _msg: None), shrink_bound(shrink_seconds):
                wrapped()
        except Diverged as e:
            return e.divergence
        except BaseExceptionGroup as eg:  # a flaky implementation: report what was seen
            found = _first_divergence(eg)
            if found is None and eg.subgroup(Flaky) is not None:
                # the same choices met different answers (FlakyStrategyDefinition): as below
                found = search.last or self._flaky(setting)
            if found is None:
                raise
            found.message += f" ({self.impl_the} did not fail the same way twice)"
            return found
        except Flaky:
            # the implementation answered the same choices differently (it is not
            # deterministic): report the last divergence seen, unshrunk
            if search.last is None:
                return self._flaky(setting)
            search.last.message += (f" ({self.impl_the} is not deterministic: the same match "
                                    "played again went differently, so this one is not "
                                    "shrunk)")
            return search.last
        except HypothesisException as e:
            if "Unsatisfiable" not in type(e).__name__:
                raise
        return None

    def _flaky(self, setting: Setting) -> Divergence:
        """A divergence of kind ``flaky``: the same choices met different answers at
        ``setting``, with no other divergence seen, so there is no match to show."""
        return Divergence("flaky", f"{self.impl_the} answered the same choices differently "
                          "in two plays of one match (it is not deterministic, or it kept "
                          "something from one match to the next); no match can be shown",
                          0, setting.players, dict(setting.opts), 0, [])

    def offers(self, setting: Setting) -> bool:
        """Whether the spec and the implementation offer ``setting`` (a ``new`` call)."""
        try:
            self._offered(setting)
        except _Refused:
            return False
        return True

    def _offered(self, setting: Setting) -> None:
        """_Refused unless the spec and the implementation offer ``setting`` (a ``new``
        call). The spec's table is compiled (tens of milliseconds) only for a setting the
        implementation offers: one that refuses everything is told so quickly."""
        assert self.guard is not None
        if not self.tables.accepts(setting.players, setting.opts):
            self._compiled(setting)
        try:
            impl = self.guard.ready()
            self.guard.call("new", impl.new, self.game, setting.players,
                            {**setting.opts, **self.other_options}, 0)
        except (RecordError, IllegalActionError, ValueError) as e:
            raise _Refused(str(e)[:1000] or "refused") from None
        except ImplementationError:
            pass  # a crash at 'new' is found (and reported) by the match itself
        self._compiled(setting)

    def _compiled(self, setting: Setting) -> None:
        try:
            self.tables.game(setting.players, setting.opts)
        except ConfigurationError as e:
            raise _Refused(f"{self.spec_the} refuses it: {e}") from None

    # ---- clauses named in a report --------------------------------------------------------
    @staticmethod
    def _where(span: ast.Span) -> str:
        """``file:line``, the file as a path from the current folder when it is below it."""
        p = Path(span.source)
        with contextlib.suppress(ValueError):
            p = p.resolve().relative_to(Path.cwd())
        return f"{p}:{span.line}"

    def _clauses_for(self, d: Divergence) -> list[ClauseRef]:
        names: list[str] = []
        for e in [*(d.missing or []), *(d.extra or []), *([d.event] if d.event else [])]:
            if isinstance(e, dict) and isinstance(e.get("action"), str):
                names.append(e["action"])
        out: list[ClauseRef] = []
        for a in self.spec.actions:
            if a.name in names:
                out.append({"where": self._where(a.span), "action": a.name,
                            "refs": list(a.refs)})
        if d.kind == "result":
            for n in self._end_deals:
                refs = [c.ref for c in walk.descendants(n) if isinstance(c, ast.Cited)]
                out.append({"where": self._where(n.span), "action": "end deal",
                            "refs": refs})
        return out


# ---- the shrink budget --------------------------------------------------------------------
#: where Hypothesis keeps its bound on the seconds one shrink may take: a private constant of
#: its engine (five minutes), read when a shrink starts. No public setting bounds shrinking by
#: time, and a shrink candidate replays a whole match (through a pipe, for a process), so
#: verify sets a shorter bound for its own runs, through :func:`shrink_bound` only
SHRINK_BOUND = ("hypothesis.internal.conjecture.engine", "MAX_SHRINKING_SECONDS")


def _shrink_bound_home() -> ModuleType:
    """The module that holds the bound; RuntimeError when this Hypothesis has none there
    (verify would otherwise shrink each divergence for up to five minutes without a word)."""
    module, name = SHRINK_BOUND
    try:
        home: ModuleType | None = importlib.import_module(module)
    except ImportError:
        home = None
    bound = getattr(home, name, None)
    if not isinstance(bound, (int, float)) or isinstance(bound, bool):
        raise RuntimeError(
            f"Hypothesis {hypothesis.__version__} has no {module}.{name}, the bound on the "
            "time a shrink takes that rulespec verify sets: rulespec.verify.runner."
            "SHRINK_BOUND must name where this version keeps it")
    assert home is not None  # the bound was found in it
    return home


@contextlib.contextmanager
def shrink_bound(seconds: float) -> Iterator[None]:
    """Bound Hypothesis's shrinking by ``seconds`` of wall-clock time while the block runs,
    putting Hypothesis's own bound back afterwards; RuntimeError, before the block runs, when
    the installed Hypothesis keeps no such bound where :data:`SHRINK_BOUND` says. (The
    candidates still tried past ``Verifier.max_shrinks`` calls run on the spec alone, see
    ``SettingSearch.draw``.)"""
    home = _shrink_bound_home()
    name = SHRINK_BOUND[1]
    old = getattr(home, name)
    setattr(home, name, seconds)
    try:
        yield
    finally:
        setattr(home, name, old)


@contextlib.contextmanager
def scratch_storage() -> Iterator[None]:
    """Hypothesis's own files go to a temporary folder, removed when the block ends, instead
    of ``.hypothesis/`` in the working folder: a run of the command line leaves nothing
    behind but its record (the example database is ``--db``'s, at the path it names).

    Hypothesis keeps a cache there of the constants it reads from the code under test, even
    with no example database. Its home is a setting of the whole process, put back to its
    default afterwards: for the command line, not for a test suite's own runs."""
    with tempfile.TemporaryDirectory(prefix="rulespec-hypothesis-") as home:
        set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)


def _first_divergence(eg: BaseExceptionGroup) -> Divergence | None:
    for e in eg.exceptions:
        if isinstance(e, Diverged):
            return e.divergence
        if isinstance(e, BaseExceptionGroup):
            found = _first_divergence(e)
            if found is not None:
                return found
    return None
