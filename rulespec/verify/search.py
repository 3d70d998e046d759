"""One setting's search: the Hypothesis test that plays one match per example, and the state
the search keeps while it runs, which each match reads and reports to (as Hypothesis hands a
test its ConjectureData): what the current example has drawn, the failing examples met, how
far shrinking has gone, and which sampled checks are still on.

A fresh :class:`SettingSearch` is made for each setting's run, so nothing of one setting's
search (its failures, its shrink budget, an implementation found not to answer ``observe``)
leaks into the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

import attrs
from hypothesis import reject
from hypothesis import strategies as st

from rulespec.errors import ConfigurationError, RuleRuntimeError
from rulespec.verify.guard import Guard
from rulespec.verify.known import KnownFinding, match_known
from rulespec.verify.match import Match
from rulespec.verify.report import Diverged as _Diverged
from rulespec.verify.report import Divergence, SpecFailed
from rulespec.verify.schedule import OptionValue, Setting, Tables

__all__ = ["SHRINK_STALL", "SHRINK_STALL_CALLS", "Run", "SettingSearch"]

#: seconds of shrinking without a shorter failing match (and SHRINK_STALL_CALLS candidates)
#: after which the remaining candidates that leave every failure seen play on the spec alone
#: (see :meth:`SettingSearch.draw`)
SHRINK_STALL = 3.0
#: ... and as many candidates (a slow implementation is not cut short after a handful)
SHRINK_STALL_CALLS = 300


@attrs.frozen
class Run:
    """What every setting's search in a verification run shares: the implementation behind
    its guard, the spec's compiled tables, and the run's knobs."""

    guard: Guard
    tables: Tables
    #: the name sent in ``new``
    game: str
    #: options sent to the implementation besides the setting's (``--impl-option``)
    other_options: Mapping[str, object]
    #: the spec's action names, in order (two bits each of a match's swarm mask)
    action_names: tuple[str, ...]
    #: the spec's set-valued fields, ``(action, field)``, compared in any order
    set_fields: frozenset[tuple[str, str]]
    #: the run's names for its two sides (``("spec", "implementation")``)
    words: tuple[str, str]
    probes: bool
    observations: bool
    #: the per-call timeout (a hang is shrunk with a shorter one)
    timeout: float
    #: candidate matches a shrink plays against the implementation before the rest play on
    #: the spec alone
    max_shrinks: int
    #: ids of the games a match was played at (their clauses hit count toward coverage)
    played: set[int]
    #: whether an observation's ``vars`` are compared with the spec's
    vars_compared: bool = True
    #: the known findings (``--known``): a divergence matching one is passed over
    known: tuple[KnownFinding, ...] = ()

    def their_options(self, opts: Mapping[str, OptionValue]) -> dict[str, object]:
        """The options sent in ``new``: the setting's and the run's other options."""
        return {**opts, **self.other_options}


class SettingSearch:
    """The state of one setting's Hypothesis search, handed to each of its matches."""

    def __init__(self, run: Run, *, skip: set[tuple[str, ...]], swarm: bool,
                 cap: int) -> None:
        self.run = run
        self.guard = run.guard
        self.words = run.words
        self.set_fields = run.set_fields
        self.probes = run.probes
        #: the signatures of divergences already reported (``--keep-going``)
        self.skip = skip
        #: whether matches may avoid some kinds of decision (see :meth:`_match`)
        self._swarm = swarm
        #: the most matches the search plays (run_setting's ``matches``)
        self._cap = cap
        #: matches played and their events
        self.matches = 0
        self.events = 0
        #: whether the implementation answers ``observe`` (false once it does not)
        self.observe_ok = run.observations
        self.vars_compared = run.vars_compared
        #: the run's known findings, and those met, with how many times each
        self.known_findings = run.known
        self.known: dict[str, int] = {}
        #: the kind of the first divergence met, once one is (then it is shrunk)
        self._first: str | None = None
        #: whether the first divergence was met while probing (probes stay on to shrink it)
        self.first_by_probe = False
        #: the last divergence met (reported unshrunk when the implementation is flaky)
        self.last: Divergence | None = None
        #: the choices of every failing example met, in order
        self._failing: list[list[int]] = []
        self._shrink_calls = 0
        #: the fewest events of a failing match yet, and when (seconds, candidates) it came
        self._best: int | None = None
        self._improved_at = 0.0
        self._improved_call = 0
        # per example (reset by the test itself)
        self._drawn: list[int] = []
        self._live: list[int] = []
        self._spec_only = False
        #: whether a match of this setting has played on past a bug already reported or a
        #: known finding, choosing among the events both sides allow: the spec alone cannot
        #: make those choices, so the rest of a match never goes on without the implementation
        self.played_past = False

    @property
    def shrinking(self) -> bool:
        """Whether a divergence has been met, and the examples now are shrink candidates."""
        return self._first is not None

    @property
    def spec_only(self) -> bool:
        """Whether the rest of this example plays on the spec alone (see :meth:`draw`)."""
        return self._spec_only

    def example(self, setting: Setting) -> Callable[[st.DataObject], None]:
        """The Hypothesis test of one match at ``setting``."""
        return self._example(setting, self.skip)

    # The test's source is part of Hypothesis's example-database key (``function_digest``):
    # changed, the examples stored by ``--db`` are not found again. It is kept as it was when
    # it was a method of the Verifier, token for token (tests/test_verify.py pins the digest;
    # comments and blank lines do not count).
    def _example(self, setting: Setting, skip: set[tuple[str, ...]]
                 ) -> Callable[[st.DataObject], None]:
        """The Hypothesis test: one match at ``setting``, a divergence in ``skip`` or (while
        shrinking) of another kind counting as a pass."""

        def test(data: st.DataObject) -> None:
            self._drawn = []
            self._live = list(range(len(self._failing)))
            self._spec_only = False
            try:
                self._match(data, setting)
            except _Diverged as e:
                if e.divergence.signature() in skip:
                    return  # a bug already reported (--keep-going): look for others
                if self._first is not None and e.divergence.kind != self._first:
                    return  # shrinking one kind of divergence: another kind counts as a pass
                self._note_failure(e.divergence)
                raise

        return test

    def _match(self, data: st.DataObject, setting: Setting) -> None:
        """One match at ``setting``; a divergence that is a known finding is marked as one
        (its signature is then the finding's, which the run skips) and counted."""
        try:
            self._match_played(data, setting)
        except _Diverged as e:
            known = match_known(self.known_findings, e.divergence)
            if known is not None:
                e.divergence.known = known
                self.known[known] = self.known.get(known, 0) + 1
            raise

    def _match_played(self, data: st.DataObject, setting: Setting) -> None:
        """One match at ``setting``: the dealer and the swarm drawn, then played."""
        run = self.run
        if self._first is not None:
            self._shrink_calls += 1
            if (time.monotonic() - self._improved_at > SHRINK_STALL
                    and self._shrink_calls - self._improved_call > SHRINK_STALL_CALLS):
                # no shorter failing match for a while: the rest of the shrink is the cheap
                # kind (see draw), as past max_shrinks
                self._shrink_calls = max(self._shrink_calls, run.max_shrinks + 1)
        # The table and options are the setting's: drawing them too would make Hypothesis's
        # first (simplest) example of every setting a match at the defaults. A divergence's
        # setting is simplified afterwards (Verifier._simplify).
        players, opts = setting.players, setting.opts
        try:
            game = run.tables.game(players, opts)
        except ConfigurationError:
            reject()
        dealer = self.draw(data, st.integers(0, players - 1))
        # Swarm testing (Groce et al.): each match may avoid some kinds of decision wherever
        # another kind is legal (no bids: every deal passed out; no draws: short deals), which
        # reaches corners uniform choices seldom meet, such as a tie at the top. One integer,
        # two bits per action name, the name avoided when both are set (one match in four
        # avoids a given kind); it shrinks to 0, uniform choices.
        names = run.action_names
        mask = self.draw(data, st.integers(0, 4 ** len(names) - 1))
        avoid = (frozenset(n for i, n in enumerate(names) if mask >> 2 * i & 3 == 3)
                 if self._swarm else frozenset())
        run.played.add(id(game))
        try:
            state = game.new_initial_state(dealer)
        except RuleRuntimeError as e:  # the spec's first automatic steps failed
            raise SpecFailed(e, run.game, players, opts, dealer, []) from None
        match = Match(self, state, players, opts, dealer, avoid)
        try:
            self._play(match, data)
        except RuleRuntimeError as e:
            # the spec's fault (exit 70), with the match up to the event that met it: Hypothesis
            # shrinks it as any failure, and the command line writes its record
            events = match.events + ([match.pending] if match.pending is not None else [])
            raise SpecFailed(e, run.game, players, opts, dealer, events) from None

    def _play(self, match: Match, data: st.DataObject) -> None:
        """Play ``match``, live or (see :meth:`draw`) on the spec alone."""
        run = self.run
        if self._first is None and self.matches >= self._cap and not self.played_past:
            # Hypothesis asks for another example after one it cut short (a very long match
            # that drew past its limit of choices): the cut one was played, and counts, so
            # this one is played on the spec alone, drawing as a live match would (a
            # setting's matches stay within its share: --games N is N matches in all). Not
            # once a match has played on among the events both sides allow: the spec alone
            # cannot draw as that match did, so the extra one is played live.
            self._spec_only = True
        if self._spec_only:
            match.play_spec_only(data)
            return
        match.start(run.game, run.their_options(match.opts))
        self.matches += 1
        try:
            match.play(data)
        finally:
            self.events += len(match.events)

    def _note_failure(self, d: Divergence) -> None:
        if self._first is None:
            self._first = d.kind
            if d.kind == "timeout":
                # shrink a hang with a short timeout: a multiple of the slowest answer seen
                self.guard.set_timeout(min(self.run.timeout, max(0.5, 5 * self.guard.slowest)))
        self._failing.append(list(self._drawn))
        self.last = d
        if self._best is None or len(d.events) < self._best:
            self._best, self._improved_at = len(d.events), time.monotonic()
            self._improved_call = self._shrink_calls

    def draw(self, data: st.DataObject, strategy: st.SearchStrategy[int]) -> int:
        """The next choice of this example (every choice a match makes is drawn here)."""
        v = data.draw(strategy)
        i = len(self._drawn)
        self._drawn.append(v)
        if self._first is not None:
            # Shrinking: past its budget, only the failing matches already seen are replayed
            # (so Hypothesis's last replay agrees); every other candidate is dropped at once.
            spent = self._shrink_calls > self.run.max_shrinks
            if spent and not self._spec_only and not self.played_past:
                self._live = [j for j in self._live
                              if len(self._failing[j]) > i and self._failing[j][i] == v]
                # The choices leave every failure seen: play on with the spec alone. The draws
                # depend on the spec only, so they are the same as a live run that does not
                # diverge would make, and Hypothesis sees a consistent, cheap pass.
                self._spec_only = not self._live
        return v

    def checks_on(self, kinds: tuple[str, ...]) -> bool:
        """Sampled checks are switched off while a divergence that they do not bear on is
        shrunk (their draws still happen, so the choices mean the same)."""
        return self._first is None or self._first in kinds

    def not_a_match(self) -> None:
        """The example counted as a match is dropped: its choices were not worth playing
        (``Match._choose``)."""
        self.matches -= 1
