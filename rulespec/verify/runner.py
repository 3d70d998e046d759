"""Verification: drive any implementation beside the spec until they part, then shrink.

The search is Hypothesis's. A *match* is one Hypothesis example: the table (shrinking toward
the smallest that accepts the setting), each non-default option of the setting (shrinking
toward its default), the dealer, one integer per decision (an index into the canonical legal
list, H5) and one integer seed per shuffle. Both sides see the same events; at every step they
must agree on who moves and on the exact set of legal events, the implementation must accept
the event played, and it must refuse sampled near misses and stay unchanged; at every deal end
and at the match end the replay answers must agree (docs/protocol.md says how they are
compared); observations, where the implementation answers ``observe``, must show no card the
spec hides and every zone as the spec shows it. A divergence raises an exception of its kind,
so Hypothesis keeps different kinds apart and shrinks each to a minimal match; a candidate match
ends where its own choices end, so shrinking never plays beyond the failing game.

An outer loop schedules *settings* (a table size and options): every table at the defaults,
every value of every option at least once (enums and booleans exhaustively, integers at the
default and default +- 1, where the spec's ``require``s accept them), then random combinations
steered toward clauses of the spec not yet exercised. Coverage is measured by the engine
(``rulespec.lang.clauses``) and steers between runs, never within one, so replay and shrinking stay
consistent.
"""

from __future__ import annotations

import collections
import contextlib
import itertools
import json
import math
import random
import reprlib
import shlex
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, reject, seed, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import Flaky, HypothesisException
from hypothesis.reporting import with_reporter

from rulespec.engine.game import Game, Tables, tables_of
from rulespec.engine.state import (
    CHANCE,
    State,
    canonical_key,
    event_key,
)
from rulespec.errors import (
    ConfigurationError,
    IllegalActionError,
    ImplementationError,
    ImplementationStartError,
    RecordError,
    RulespecError,
)
from rulespec.lang import ast, walk
from rulespec.lang.cards import card_sort_key, normalise_card
from rulespec.lang.clauses import clauses
from rulespec.lang.model import CheckedSpec, OptionInfo, value_text
from rulespec.loading import normalise_options, shipped_games
from rulespec.protocol import MAX_ANSWER_DEPTH, ProcessImplementation, json_problem
from rulespec.records import FORMAT
from rulespec.shown import escape_line, escape_text, json_text
from rulespec.verify.coverage import Coverage

__all__ = [
    "REPORT_FORMAT",
    "Divergence",
    "Report",
    "Setting",
    "Verifier",
    "compare_answers",
    "format_report",
    "normal_key",
    "schedule",
]

REPORT_FORMAT = "rulespec-verify/1"

#: by default each scheduled setting plays up to DEFAULT_MATCHES matches, stopping once their
#: work (one unit per event, one per 50 legal events listed) reaches WORK_PER_SETTING: a
#: deterministic bound, chosen so that a correct in-process implementation of a shipped game is
#: verified in about a minute on two cores
DEFAULT_MATCHES = 30
WORK_PER_SETTING = 2500
#: bounds of one match (an example holds at most about 8,000 Hypothesis choices, one per event;
#: a random deal of the shipped shedding game at 13 or 14 players runs to a few thousand events)
MAX_EVENTS = 6000
MAX_DEALS = 2
#: a match whose first decisions (of two or more events) all take the first legal event, this
#: many of them, is not played (see ``_Match._choose``)
ZERO_RUN = 60
#: seconds of shrinking without a shorter failing match (and SHRINK_STALL_CALLS candidates)
#: after which the remaining candidates
#: that leave every failure seen play on the spec alone (see ``Verifier._draw``)
SHRINK_STALL = 3.0
#: ... and as many candidates (a slow implementation is not cut short after a handful)
SHRINK_STALL_CALLS = 300
#: settings :meth:`Verifier._simplify` tries at most (two matches each, unshrunk)
SIMPLIFY_TRIES = 24


# ---- settings and their schedule ---------------------------------------------------------------
#: the value of an option, as the spec declares them (:class:`rulespec.lang.model.OptionInfo`)
OptionValue = int | str | bool


@attrs.frozen
class Setting:
    """A table and the options that differ from their defaults."""

    players: int
    options: tuple[tuple[str, OptionValue], ...] = ()
    why: str = ""

    @property
    def opts(self) -> dict[str, OptionValue]:
        """The non-default options as a dict."""
        return dict(self.options)

    def label(self) -> str:
        """``4 players, scoring=swedish`` as reports print it."""
        opts = ", ".join(f"{k}={_show(v)}" for k, v in self.options)
        return f"{self.players} players" + (f", {opts}" if opts else "")

    def to_json(self) -> dict[str, Any]:
        """As the JSON report writes it."""
        return {"players": self.players, "options": self.opts}


def _show(v: OptionValue) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


def option_values(spec: CheckedSpec) -> dict[str, list[OptionValue]]:
    """The values tried for each option: every value of an enum or a boolean, an integer at its
    default and default +- 1 (ranges come with the compiler issue)."""
    out: dict[str, list[OptionValue]] = {}
    for o in spec.options:
        if o.params:
            out[o.name] = _parametric_values(o)
        elif o.kind in ("bool", "enum"):
            out[o.name] = list(o.values)
        else:
            # the default, its neighbours, and the ends of a declared range (within it)
            d = int(o.default)
            cands = [d, d - 1, d + 1] + (list(o.bounds) if o.bounds is not None else [])
            out[o.name] = [v for v in dict.fromkeys(cands)
                           if o.bounds is None or o.bounds[0] <= v <= o.bounds[1]]
    return out


def _parametric_values(o: OptionInfo) -> list[OptionValue]:
    """The values tried for an option whose values take parameters: the default first, then
    each value at its base arguments (the default's, else the low end of a range, 1, false)
    and with one argument varied at a time (an int at base + 1, or at its range's ends; a
    bool flipped)."""
    dname, dargs = o.split(o.default)
    out: list[OptionValue] = [o.default]
    for v in o.values:
        ps = o.value_params(v)
        if not ps:
            out.append(v)
            continue
        base: list[int | bool] = []
        for p in ps:
            if v == dname and p.name in dargs:
                base.append(dargs[p.name])
            elif p.kind == "bool":
                base.append(False)
            else:
                base.append(p.bounds[0] if p.bounds is not None else 1)
        variants = [tuple(base)]
        for i, p in enumerate(ps):
            b = base[i]
            if p.kind == "bool":
                alts: list[int | bool] = [not b]
            elif p.bounds is not None:
                alts = [x for x in p.bounds if x != b]
            else:
                alts = [int(b) + 1]
            variants += [tuple(base[:i] + [a] + base[i + 1:]) for a in alts]
        out += [value_text(str(v), args) for args in variants]
    return list(dict.fromkeys(out))


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


def schedule(spec: CheckedSpec, tables: _Tables, players: Sequence[int] = (),
             fixed: Mapping[str, OptionValue] | None = None) -> list[Setting]:
    """The settings every run covers, in order: the three smallest tables at the defaults;
    then a few combinations that between them give every option a non-default value at once
    (so a bug under any one value shows in the first seconds: :func:`combinations`); then
    each non-default value of each option alone at a table that accepts it (rotating over
    the three smallest tables), with the larger tables at the defaults interleaved."""
    fixed = dict(fixed or {})
    sizes = list(players) or list(range(spec.min_players, spec.max_players + 1))
    out: list[Setting] = []
    base = tuple(fixed.items())
    tables_first = [Setting(p, base, "table") for p in sizes if tables.accepts(p, fixed)]
    defaults = spec.defaults()
    turn = 0
    # option values rotate over the three smallest tables: every table size has its own
    # setting already, and small tables play short matches, so more of them
    small = sizes[:3]
    for name, values in option_values(spec).items():
        if name in fixed:
            continue
        for v in values:
            if v == defaults[name]:
                continue
            opts = {**fixed, name: v}
            order = (small[turn % len(small):] + small[: turn % len(small)]
                     + [p for p in sizes if p not in small])
            for p in order:
                if tables.accepts(p, opts):
                    out.append(Setting(p, tuple(opts.items()), f"{name}={_show(v)}"))
                    turn += 1
                    break
    # the larger tables at the defaults are interleaved with the option settings: their
    # matches are the longest, and neither kind of bug should wait for all of the other
    big = tables_first[3:]
    step = max(1, -(-len(out) // max(1, len(big))))
    merged = list(tables_first[:3]) + combinations(spec, tables, small, fixed)
    for j in range(0, max(len(out), 1), step):
        merged += out[j:j + step]
        if big:
            merged.append(big.pop(0))
    return merged + big


COMBINATION = "combination"


def combinations(spec: CheckedSpec, tables: _Tables, sizes: Sequence[int],
                 fixed: Mapping[str, OptionValue]) -> list[Setting]:
    """Settings in which most options not fixed take a non-default value at once, so that a
    bug under any one value shows at the first combination that holds it (and values of
    different options meet: a blocked deal under a scoring rule). Built greedily, round by
    round at the small tables in turn: each option gets its first value not yet in a
    combination (or its next value, cycling, once all are), kept where the spec still
    accepts the setting; rounds go on until every value is in one or a round adds none.
    :meth:`Verifier._simplify` takes the options that do not matter back to their defaults."""
    defaults = spec.defaults()
    others = {name: [v for v in values if v != defaults[name]]
              for name, values in option_values(spec).items() if name not in fixed}
    others = {k: v for k, v in others.items() if v}
    if len(others) < 2 or not sizes:
        return []  # one option at most: its values alone are the schedule already
    todo = {(k, json.dumps(v)) for k, vals in others.items() for v in vals}
    out: list[Setting] = []
    for r in range(2 * max(len(v) for v in others.values()) + 2):
        if not todo:
            break
        p = sizes[r % len(sizes)]
        opts = dict(fixed)
        if not tables.accepts(p, opts):
            continue
        added = False
        for name, vals in others.items():
            fresh = [v for v in vals if (name, json.dumps(v)) in todo]
            for v in fresh + [vals[r % len(vals)]]:
                if tables.accepts(p, {**opts, name: v}):
                    opts[name] = v
                    added = added or (name, json.dumps(v)) in todo
                    todo.discard((name, json.dumps(v)))
                    break
        if added:
            out.append(Setting(p, tuple(opts.items()), COMBINATION))
    return out


def _random_setting(spec: CheckedSpec, tables: _Tables, rng: random.Random,
                    sizes: Sequence[int], fixed: Mapping[str, OptionValue]) -> Setting | None:
    values = option_values(spec)
    defaults = spec.defaults()
    for _ in range(20):
        p = rng.choice(list(sizes))
        opts = dict(fixed)
        for name, vals in values.items():
            if name not in fixed and rng.random() < 0.3:
                v = rng.choice(vals)
                if v != defaults[name]:
                    opts[name] = v
        if tables.accepts(p, opts):
            return Setting(p, tuple(opts.items()), "random combination")
    return None


# ---- divergences and the report --------------------------------------------------------------
#: what each kind of divergence means; ``{spec}`` and ``{impl}`` are the two sides as the
#: run names them (:func:`kind_text`)
KINDS = {
    "who-moves": "{impl} says another seat (or chance) moves",
    "legal": "the legal events differ",
    "duplicate": "{impl} lists an event twice",
    "refused-legal": "{impl} refused a legal event",
    "accepted-illegal": "{impl} accepted an illegal event",
    "changed-by-illegal": "a refused illegal event changed {impl}'s state",
    "leak": "an observation shows cards {spec} hides from that seat",
    "observation": "an observation shows a zone unlike {spec}",
    "result": "the replay answers differ",
    "crash": "{impl} crashed",
    "exit": "{impl} exited",
    "timeout": "{impl} did not answer in time",
    "garbage": "{impl} wrote something that is not a JSON answer",
    "shape": "{impl} answered with the wrong shape",
}


#: the words for the two sides: verify compares a spec and an implementation, diff spec A
#: and spec B
SIDES = ("spec", "implementation")


def _the(word: str) -> str:
    """A side in a sentence: ``the spec``, ``the implementation``, but ``A``, ``B``."""
    return word if word[:1].isupper() else f"the {word}"


def kind_text(kind: str, words: tuple[str, str] = SIDES) -> str:
    """What a divergence of ``kind`` means, in the run's ``words`` for its two sides."""
    return KINDS.get(kind, kind).format(spec=_the(words[0]), impl=_the(words[1]))


@attrs.define
class Divergence:
    """Where the implementation parts from the spec, with everything a report shows."""

    kind: str
    message: str
    index: int
    players: int
    options: dict[str, OptionValue]
    dealer: int
    events: list[dict[str, Any]]
    event: dict[str, Any] | None = None
    spec_says: Any = None
    impl_says: Any = None
    missing: list[Any] = attrs.field(factory=list)
    extra: list[Any] = attrs.field(factory=list)
    clauses: list[dict[str, Any]] = attrs.field(factory=list)
    stderr: list[str] = attrs.field(factory=list)
    setting: str = ""

    def record(self, game: str) -> dict[str, Any]:
        """The match up to the divergence, as a record ``rulespec replay`` accepts."""
        return {"format": FORMAT, "game": game, "players": self.players,
                "options": dict(self.options), "dealer": self.dealer,
                "events": list(self.events)}

    def signature(self) -> tuple[str, ...]:
        """What makes two divergences the same bug for ``--keep-going``."""
        names = sorted({str(e.get("action", e.get("chance"))) for e in
                        [*self.missing, *self.extra, *([self.event] if self.event else [])]
                        if isinstance(e, dict)})
        return (self.kind, *names)

    def to_json(self, game: str, words: tuple[str, str] = SIDES) -> dict[str, Any]:
        """As the JSON report writes it (``words``: the run's names for its two sides)."""
        return {"kind": self.kind, "what": kind_text(self.kind, words),
                "message": self.message, "event_index": self.index,
                "players": self.players, "options": self.options, "dealer": self.dealer,
                "event": self.event, "spec": self.spec_says, "implementation": self.impl_says,
                "missing": self.missing, "extra": self.extra, "clauses": self.clauses,
                "stderr": self.stderr, "record": self.record(game)}


class _Diverged(Exception):
    """Raised inside a match; one subclass per kind keeps Hypothesis's failures apart."""

    def __init__(self, d: Divergence) -> None:
        super().__init__(f"{d.kind}: {d.message}")
        self.divergence = d


_KIND_EXC: dict[str, type[_Diverged]] = {
    k: type(f"Diverged_{k.replace('-', '_')}", (_Diverged,), {}) for k in KINDS}


class _Refused(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


@attrs.define
class SettingResult:
    """What one scheduled setting gave."""

    setting: Setting
    matches: int = 0
    events: int = 0
    refused: str | None = None
    divergence: Divergence | None = None


@attrs.define
class Report:
    """The outcome of a verification run."""

    game: str
    results: list[SettingResult]
    divergences: list[Divergence]
    coverage: Coverage
    seconds: float
    stopped_by: str
    round_trips: int = 0
    strict: bool = False
    #: whether ``game`` is the name of a shipped game (an implementation that looks games up
    #: by name, as ``rulespec serve`` does, knows no other)
    shipped: bool = True
    #: the run's names for its two sides (``("A", "B")`` for ``rulespec diff``)
    words: tuple[str, str] = SIDES

    @property
    def matches(self) -> int:
        """Matches played, over every setting."""
        return sum(r.matches for r in self.results)

    @property
    def events(self) -> int:
        """Events applied, over every setting."""
        return sum(r.events for r in self.results)

    @property
    def verified(self) -> list[SettingResult]:
        """Settings the implementation offered and that were played."""
        return [r for r in self.results if r.refused is None and r.matches]

    @property
    def not_offered(self) -> list[SettingResult]:
        """Settings the implementation refused at ``new``."""
        return [r for r in self.results if r.refused is not None]

    @property
    def conforms(self) -> bool:
        """No divergence, at least one setting verified (and none refused under --strict)."""
        if self.divergences or not self.verified:
            return False
        return not (self.strict and self.not_offered)

    def to_json(self) -> dict[str, Any]:
        """The versioned machine-readable report."""
        cov = self.coverage
        return {
            "format": REPORT_FORMAT, "game": self.game, "conforms": self.conforms,
            "matches": self.matches, "events": self.events,
            "seconds": round(self.seconds, 3), "stopped_by": self.stopped_by,
            "round_trips": self.round_trips,
            "settings": [{**r.setting.to_json(), "why": r.setting.why, "matches": r.matches,
                          "events": r.events, "refused": r.refused,
                          "diverged": r.divergence is not None} for r in self.results],
            "divergences": [d.to_json(self.game, self.words) for d in self.divergences],
            "coverage": {
                "summary": cov.summary(),
                "exercised": sum(1 for c in cov.reachable if c.id in cov.hit),
                "reachable": len(cov.reachable),
                "never_reached": [f"{where} {label}" for where, label in never_reached(cov)],
                "cannot_run_under_tested_options": list(dict.fromkeys(
                    f"{c.where()} {c.label}" for c in cov.not_compiled)),
            },
        }


# ---- the report as text ---------------------------------------------------------------------
def format_report(report: Report, title: str, written: Sequence[str] = (),
                  spec_word: str | None = None, impl_word: str | None = None) -> str:
    """The report as text: the verdict, coverage, settings not offered, and each divergence
    in full (``written``: where each divergence's record was written). Text verify did not
    write itself (the implementation's messages and standard error, option values, file names)
    is shown with its control characters escaped (:mod:`rulespec.shown`). The two sides are
    named in the report's ``words`` unless ``spec_word`` or ``impl_word`` is given."""
    spec_word = spec_word or report.words[0]
    impl_word = impl_word or report.words[1]
    lines = [escape_line(title)]
    verified = report.verified
    head = (f"{len(verified)} settings, {report.matches} matches, {report.events:,} events in "
            f"{report.seconds:.1f} s")
    if report.round_trips:
        head += f" ({report.round_trips:,} calls)"
    cov = report.coverage
    if report.conforms:
        lines.append(f"ok: no divergence: {head}")
    elif report.divergences:
        lines.append(f"DIVERGENCE: {head}")
    elif not verified:
        lines.append(_not_verified(report, impl_word))
    else:
        lines.append(f"not conforming (--strict): {len(report.not_offered)} settings refused; "
                     f"{head}")
    if report.stopped_by == "budget":
        lines.append(f"  stopped: the budget was spent after {len(report.results)} settings")
    if report.matches:
        lines.append(f"  coverage: {cov.summary()}")
    missed = never_reached(cov) if report.matches else []
    if missed and not report.divergences:
        lines.append(f"  never reached ({len(missed)}):")
        width = max(len(where) for where, _ in missed[:MISSED_SHOWN])
        lines += [f"    {escape_line(where).ljust(width)}  {escape_line(label)}"
                  for where, label in missed[:MISSED_SHOWN]]
        if len(missed) > MISSED_SHOWN:
            lines.append(f"    ... and {len(missed) - MISSED_SHOWN} more (--json lists "
                         "them all)")
    # when every setting was refused for one reason, the verdict has said it
    if report.not_offered and (verified or len({r.refused for r in report.not_offered}) > 1):
        lines.append(f"  not offered by {_the(impl_word)} ({len(report.not_offered)}):")
        for r in report.not_offered[:10]:
            lines.append(f"    {escape_line(r.setting.label())}: "
                         f"{escape_line((r.refused or '')[:120])}")
        if len(report.not_offered) > 10:
            lines.append(f"    ... and {len(report.not_offered) - 10} more")
    for n, d in enumerate(report.divergences, 1):
        path = written[n - 1] if n <= len(written) else None
        lines += _divergence_text(n, d, path, spec_word, impl_word)
    return escape_text("\n".join(lines))


#: clauses never reached that the text report lists (the JSON report has them all)
MISSED_SHOWN = 12


def never_reached(cov: Coverage) -> list[tuple[str, str]]:
    """The clauses reachable under the tested settings that no match exercised, as
    ``(file:line:col, label)`` in source order, each once."""
    return list(dict.fromkeys((c.where(), c.label) for c in cov.missed))


def _not_verified(report: Report, impl_word: str) -> str:
    """The verdict of a run that verified no setting, in one line: what the implementation
    answered when every setting was refused for one reason, and, for a game that is not
    shipped, why ``rulespec serve`` does not know it."""
    refused = report.not_offered
    if not refused:
        return "not verified: no match was played"
    tried = "the one setting" if len(refused) == 1 else f"all {len(refused)} settings"
    line = f"not verified: {_the(impl_word)} refused {tried} tried at 'new'"
    reasons = {r.refused for r in refused}
    if len(reasons) == 1:
        line += f", answering: {next(iter(reasons))}"
    if not report.shipped:
        line += (f" (the spec is not a shipped game: 'new' names it {report.game!r}, as its "
                 "game line declares, and `rulespec serve` serves only shipped games)")
    return escape_line(line)


def _divergence_text(n: int, d: Divergence, path: str | None, spec_word: str,
                     impl_word: str) -> list[str]:
    js = json_text
    opts = escape_line(", ".join(f"{k}={_show(v)}" for k, v in d.options.items()) or "defaults")
    out = ["", f"divergence {n}: {kind_text(d.kind, (spec_word, impl_word))} ({d.kind})",
           f"  {escape_line(d.message)}",
           f"  table: {d.players} players, options: {opts}, dealer {d.dealer}"
           + (f" (found while testing {escape_line(d.setting)})" if d.setting else ""),
           f"  after {len(d.events)} events" + (":" if d.events else "")]
    first = max(0, len(d.events) - 6)
    if first:
        out.append(f"    ... {first} earlier events (all in the record)")
    for i in range(first, len(d.events)):
        out.append(f"    {i:>4}  {js(d.events[i])}")
    if d.event is not None:
        out.append(f"  the event: {js(d.event)}")
    if d.kind == "legal":
        out.append(f"  {spec_word}: {len(d.spec_says)} legal events; {impl_word}: "
                   f"{len(d.impl_says)}")
        out.append(f"  missing ({spec_word} allows, {impl_word} does not): "
                   + (", ".join(js(e) for e in d.missing[:20]) or "none")
                   + (f" and {len(d.missing) - 20} more" if len(d.missing) > 20 else ""))
        out.append(f"  extra ({impl_word} allows, {spec_word} does not): "
                   + (", ".join(js(e) for e in d.extra[:20]) or "none")
                   + (f" and {len(d.extra) - 20} more" if len(d.extra) > 20 else ""))
        if len(d.spec_says) <= 40:
            out.append(f"  {spec_word}'s legal events: " + ", ".join(js(e) for e in d.spec_says))
    else:
        if d.spec_says is not None:
            out.append(f"  {spec_word} says: {js(d.spec_says)[:4000]}")
        if d.impl_says is not None:
            out.append(f"  {impl_word} says: {js(d.impl_says)[:4000]}")
    for c in d.clauses:
        refs = f" [{', '.join(c['refs'])}]" if c["refs"] else ""
        out.append(f"  {spec_word} clause: " + escape_line(f"{c['where']} {c['action']}{refs}"))
    if d.stderr:
        out.append(f"  {_the(impl_word)}'s last lines on standard error:")
        out += [f"    | {escape_line(line)}" for line in d.stderr[-12:]]
    if path:
        where = escape_line(path)
        out.append(f"  record: {where} ({len(d.events)} events): rulespec replay {where}")
    return out


# ---- comparing answers -------------------------------------------------------------------------
_FLAGS = ("blocked", "abandoned")


def normal_key(e: Mapping[str, object], set_fields: frozenset[tuple[str, str]] = frozenset()
               ) -> str:
    """The canonical text of an event written leniently: card codes in any accepted
    spelling, set-valued fields (``(action, field)`` in ``set_fields``) in any order."""
    out: dict[str, object] = {}
    action = e.get("action")
    if not isinstance(action, str):
        action = None  # an implementation's event may name its action with anything at all
    for f, x in e.items():
        if _card(x) is not None:
            x = _card(x)
        elif isinstance(x, list) and x and all(_card(y) is not None for y in x):
            x = [_card(y) for y in x]
        if isinstance(x, list) and (action, f) in set_fields:
            with contextlib.suppress(TypeError):
                x = sorted(x, key=_sort_key)
        out[f] = x
    return canonical_key(out)


def compare_answers(spec: Mapping[str, Any], other: object,
                    set_fields: frozenset[tuple[str, str]] = frozenset(),
                    words: tuple[str, str] = SIDES) -> list[str]:
    """The differences between two replay answers, by the rule of docs/protocol.md: ``ok``,
    ``complete``, ``totals``, ``winners`` equal; ``deals`` deal by deal over the union of keys,
    an absent ``blocked``/``abandoned`` being false; when incomplete, ``to_move`` equal and
    ``legal`` equal as a set. Other top-level keys are ignored. ``words`` name the two sides
    in the differences."""
    mine, yours = words
    if not isinstance(other, Mapping):
        return ["the answer is not a JSON object"]
    out: list[str] = []
    if other.get("ok") is not True:
        return [f"ok is {other.get('ok')!r}: {str(other.get('error', ''))[:300]}"]
    for k in ("complete", "totals", "winners"):
        a, b = spec.get(k), other.get(k)
        if k == "winners" and isinstance(b, list):
            with contextlib.suppress(TypeError):
                b = sorted(b)
        if a != b:
            out.append(f"{k}: {mine} {json.dumps(a)}, {yours} {json.dumps(b)}")
    da, db = spec.get("deals") or [], other.get("deals")
    if not isinstance(db, list):
        out.append(f"deals: {_the(yours)} gives no list")
    else:
        if len(da) != len(db):
            out.append(f"deals: {mine} has {len(da)} finished deal(s), {yours} {len(db)}")
        for i, (x, y) in enumerate(zip(da, db, strict=False)):
            if not isinstance(y, Mapping):
                out.append(f"deal {i + 1}: not an object")
                continue
            for key in sorted(set(x) | set(y)):
                vx, vy = x.get(key), y.get(key)
                if key in _FLAGS:
                    vx, vy = bool(vx), bool(vy)
                if vx != vy:
                    out.append(f"deal {i + 1} {key}: {mine} {json.dumps(vx)}, "
                               f"{yours} {json.dumps(vy)}")
    if not spec.get("complete") and other.get("complete") is False:
        if spec.get("to_move") != other.get("to_move"):
            out.append(f"to_move: {mine} {json.dumps(spec.get('to_move'))}, {yours} "
                       f"{json.dumps(other.get('to_move'))}")
        la = {canonical_key(e) for e in spec.get("legal") or []}
        try:
            lb = {normal_key(e, set_fields) for e in other.get("legal") or []}
        except (TypeError, ValueError, AttributeError):
            lb = set()
        if la != lb:
            out.append(f"legal: {len(la - lb)} missing, {len(lb - la)} extra")
    return out


def _card_codes(x: object, depth: int = 0) -> Iterator[str]:
    """Every card-code string inside a JSON value (bounded depth)."""
    if depth > 50:
        return
    if isinstance(x, str):
        # upper case only: "as" or "ad" in a free-text field is a word, not a card
        c = _card(x) if x == x.upper() else None
        if c is not None:
            yield c
    elif isinstance(x, list):
        for y in x:
            yield from _card_codes(y, depth + 1)
    elif isinstance(x, dict):
        for y in x.values():
            yield from _card_codes(y, depth + 1)


def _card(x: object) -> str | None:
    """The canonical code of a card written leniently (``th``, ``10H``), else None."""
    if isinstance(x, str) and 2 <= len(x) <= 3:
        return normalise_card(x)
    return None


def _visible(obs_zones: Mapping[str, object]) -> collections.Counter[str]:
    seen: collections.Counter[str] = collections.Counter()
    for z in obs_zones.values():
        seen.update(_card_codes(z))
    return seen


# ---- the guarded implementation -----------------------------------------------------------------
class _Watchdog:
    """Interrupts a Python implementation's call that runs past its timeout.

    Only possible in the main thread (a SIGINT to it); elsewhere calls run unguarded. One
    daemon thread polls a timestamp, so a call costs two attribute writes. The signal is
    verify's own, so a SIGINT handler tells it from a user's Ctrl-C: it interrupts only the
    call it was sent for, and one that arrives after that call has answered (a loaded machine
    can delay it) is dropped rather than landing in verify's own code.
    """

    def __init__(self) -> None:
        self.timeout = 10.0
        self.started: float | None = None
        #: the start of the call the watchdog sent its signal for, until the handler takes it
        self.fired_for: float | None = None
        #: set by the handler when it interrupts a call for its timeout
        self.timed_out = False
        self.enabled = threading.current_thread() is threading.main_thread()
        self._stop = threading.Event()
        if self.enabled:
            self._before = signal.signal(signal.SIGINT, self._on_sigint)
            threading.Thread(target=self._watch, daemon=True).start()

    def stop(self) -> None:
        """End the polling thread and give SIGINT its handler back: a process that verifies
        again and again (a test suite, a fuzzer's worker) keeps no thread nor handler of a
        run that is over."""
        if self.enabled and not self._stop.is_set():
            self._stop.set()
            if signal.getsignal(signal.SIGINT) == self._on_sigint:
                signal.signal(signal.SIGINT, self._before)

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            t = self.started
            if t is not None and self.fired_for is None and time.monotonic() - t > self.timeout \
                    and self.started is t:
                self.fired_for = t
                # a real signal, so a call blocked in sleep() or a lock wakes up too
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    def _on_sigint(self, signum: int, frame: object) -> None:
        t = self.fired_for
        if t is None:  # the user's Ctrl-C: as it would have been without verify
            before = self._before
            if before == signal.SIG_IGN:
                return
            if callable(before):
                before(signum, frame)  # type: ignore[arg-type]
                return
            raise KeyboardInterrupt
        self.fired_for = None
        if self.started is t:
            self.timed_out = True
            raise KeyboardInterrupt
        # the call has answered since: the signal is stale, and nothing is interrupted


#: what a guarded call into the implementation returns
_T = TypeVar("_T")


class _Guard:
    """Calls into the implementation, turning every misbehaviour into an ImplementationError,
    and recreating the implementation after one.

    Until the implementation has answered once, a failure is not a divergence but a
    usage error (ImplementationStartError): an implementation that cannot be made, or a
    program that exits, writes no JSON or stays silent before its first answer, does not
    speak the protocol (a wrong command, a path that does not exist where verify runs), and a
    record of no events would say nothing about the rules."""

    def __init__(self, factory: Callable[[], Any], timeout: float) -> None:
        self.factory = factory
        self.timeout = timeout
        self.impl: Any = None
        self.is_process = False
        self.watchdog: _Watchdog | None = None
        self.slowest = 0.0
        self.round_trips = 0
        #: whether the implementation has answered a request (refusals included)
        self.answered = False
        try:
            self._fresh()
        except ImplementationError as e:
            raise ImplementationStartError(
                escape_line(f"the implementation cannot be made: {e.message}")
                + "".join(f"\n    | {escape_line(line)}" for line in e.stderr[-12:])) from None

    def _drop(self) -> None:
        """Forget the implementation after a failure, stopping it if it is a process."""
        old, self.impl = self.impl, None
        stop = getattr(old, "stop", None)
        if callable(stop):
            with contextlib.suppress(Exception):
                stop()

    def _fresh(self) -> None:
        self._drop()
        self.impl = self.call("start", self.factory)
        self.is_process = isinstance(self.impl, ProcessImplementation)
        if self.is_process:
            self.impl.timeout = self.timeout
        elif self.watchdog is None:
            self.watchdog = _Watchdog()

    def set_timeout(self, seconds: float) -> None:
        """The per-call timeout from now on."""
        self.timeout = seconds
        if self.is_process and self.impl is not None:  # None: dropped, the next one gets it
            self.impl.timeout = seconds

    def call(self, op: str, fn: Callable[..., _T], *args: object) -> _T:
        """``fn(*args)``; IllegalActionError/RecordError pass through (refusals), anything else
        the implementation does wrong becomes an ImplementationError."""
        wd = self.watchdog
        t0 = time.monotonic()
        try:
            if wd is not None and wd.enabled:
                wd.timeout = self.timeout
                wd.timed_out = False
                wd.started = t0
            try:
                if self.is_process:
                    out = fn(*args)
                else:
                    # a Python implementation's prints must not reach verify's own output
                    with contextlib.redirect_stdout(sys.stderr):
                        out = fn(*args)
            finally:
                if wd is not None:
                    wd.started = None
                self.round_trips += 1
            # only answers count toward the slowest: a hang's short timeout is based on it
            self.slowest = max(self.slowest, time.monotonic() - t0)
            if op != "start":
                self.answered = True
            if not self.is_process and op != "start":
                # a Python implementation's answer may be any object (a process's was read as
                # JSON, and checked then): what cannot be compared and reported without
                # recursing past Python's limit or failing to print is its garbage
                why = json_problem(out)
                if why is not None:
                    raise ImplementationError("shape", f"its answer to {op!r} holds {why}")
            return out
        except ImplementationStartError:
            raise
        except ImplementationError as e:
            if not self.is_process:
                self.impl = None
            elif not self.answered:
                raise self._never_answered(op, e) from None
            raise
        except (IllegalActionError, RecordError, ValueError) as e:
            if op in ("apply", "new"):
                self.answered = True
                raise
            raise ImplementationError(
                "crash", f"{op!r} raised {type(e).__name__}: {e}", _tb_tail(e)) from None
        except KeyboardInterrupt:
            if wd is not None and wd.timed_out:
                wd.timed_out = False
                self._drop()
                raise ImplementationError(
                    "timeout", f"no answer to {op!r} within {self.timeout:g} s") from None
            raise
        except SystemExit as e:
            self._drop()
            raise ImplementationError("exit", f"the implementation exited ({e.code!r}) in "
                                      f"{op!r}") from None
        except RecursionError as e:
            self._drop()
            raise ImplementationError("crash", f"{op!r} raised RecursionError",
                                      _tb_tail(e)) from None
        except Exception as e:  # noqa: BLE001 - anything the implementation raises is its bug
            self._drop()
            raise ImplementationError(
                "crash", f"{op!r} raised {type(e).__name__}: {e}", _tb_tail(e)) from None

    def _never_answered(self, op: str, e: ImplementationError) -> ImplementationStartError:
        """The usage error for a program that failed before its first answer, with the
        last lines it wrote to standard error."""
        command = shlex.join(getattr(self.impl, "command", []))
        cwd = getattr(self.impl, "cwd", None) or Path.cwd()
        head = (f"{e.message}, its first request: check that `{command}`, run in {cwd}, "
                "starts a program that speaks the protocol (docs/protocol.md)")
        tail = [f"    | {escape_line(line)}" for line in e.stderr[-12:]]
        head += "; its last lines on standard error:" if tail else \
            "; it wrote nothing to standard error"
        return ImplementationStartError("\n".join([escape_line(head), *tail]))

    def ready(self) -> Any:
        """The implementation, recreated if a failure discarded it."""
        if self.impl is None:
            self._fresh()
        return self.impl

    def stderr_tail(self) -> list[str]:
        """The last lines of the child's standard error (process implementations)."""
        if self.is_process and self.impl is not None:
            return list(self.impl.stderr_tail())
        return []

    def close(self) -> None:
        """Ask the implementation to quit (a process) or drop it; stop the watchdog."""
        if self.impl is not None:
            close = getattr(self.impl, "close", None)
            if callable(close):
                with contextlib.suppress(Exception):
                    close()
        self.impl = None
        if self.watchdog is not None:
            self.watchdog.stop()
            self.watchdog = None


def _tb_tail(e: BaseException, n: int = 8) -> list[str]:
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next  # the implementation's frames only, not verify's own
    lines = traceback.format_exception(type(e), e, tb)
    text = "".join(lines).rstrip().splitlines()
    return text[-n:]


# ---- the order of a run's work ---------------------------------------------------------------
class _Agenda:
    """The settings of a run in the order they are played, as ``(setting, pass)``: pass 0
    plays one match, pass 1 the rest of the setting's share; ``(None, 1)`` is a steered
    combination, chosen when its turn comes (``steered`` of them, None: without end)."""

    def __init__(self, plan: Sequence[Setting], steered: int | None) -> None:
        # Breadth first: the first pass plays one match at every scheduled setting, the second
        # the rest of each setting's share, then come the steered combinations. Most bugs show
        # in most matches of the setting that has them, so they are found in the first pass.
        more = (itertools.repeat((None, 1), steered) if steered is not None
                else itertools.repeat((None, 1)))
        # The smallest tables and the combinations, which between them hold every option
        # value, are played to their full share before the settings of one value each.
        head = max((j + 1 for j, s in enumerate(plan) if s.why == COMBINATION), default=0)
        self._first_stage = set(plan[:head])
        self._stages: list[tuple[collections.deque[Setting], list[Setting]]] = [
            (collections.deque(plan[:head]), []), (collections.deque(plan[head:]), [])]
        #: the queue of the stage being played, where :meth:`insert` puts a setting
        self._pending = self._stages[0][0]
        self._items: Iterator[tuple[Setting | None, int]] = itertools.chain(
            self._passes(), more)

    def __iter__(self) -> Iterator[tuple[Setting | None, int]]:
        return self._items

    def _passes(self) -> Iterator[tuple[Setting, int]]:
        for queue, played in self._stages:
            self._pending = queue
            while queue:
                yield queue.popleft(), 0
            yield from ((s, 1) for s in played)

    def insert(self, s: Setting) -> None:
        """Play ``s`` next, in the first pass of the stage being played."""
        self._pending.appendleft(s)

    def played(self, s: Setting) -> None:
        """``s`` had its first match: the rest of its share comes in its stage's second pass."""
        (self._stages[0][1] if s in self._first_stage or s.why == COMBINATION
         else self._stages[1][1]).append(s)


def spread(games: int, slots: int) -> list[int]:
    """``games`` matches spread over ``slots`` settings in order: as even as they go, the
    first ones one more (so ``spread(2, 60)`` plays the first two settings once each)."""
    base, rest = divmod(games, max(1, slots))
    return [base + (1 if j < rest else 0) for j in range(slots)]


def _runs(quota: Mapping[Setting, int] | None, s: Setting) -> int:
    """How many runs setting ``s`` of the schedule plans: its first match, then the rest of
    its share (without a quota, the share is at least two matches)."""
    q = 2 if quota is None else quota.get(s, 0)
    return min(q, 2)


def _tally(s: Setting, r: SettingResult, by_setting: dict[Setting, SettingResult],
           results: list[SettingResult], agenda: _Agenda) -> SettingResult | None:
    """Count ``r`` in the run's results: a setting's first result is listed (and the setting
    queued for its second pass), a later one is added to it. The earlier result, if any."""
    prev = by_setting.get(s)
    if prev is None:
        by_setting[s] = r
        results.append(r)
        agenda.played(s)
    else:
        prev.matches += r.matches
        prev.events += r.events
        prev.divergence = prev.divergence or r.divergence
    return prev


# ---- the verifier ------------------------------------------------------------------------------
class Verifier:
    """Verifies one implementation (``factory()`` gives one) against one checked spec.

    ``game`` is the name sent in ``new`` and written in records. See :func:`run` for the
    knobs; :meth:`run` returns a :class:`Report`.
    """

    def __init__(self, spec: CheckedSpec, game: str, factory: Callable[[], Any], *,
                 timeout: float = 10.0, probes: bool = True, observations: bool = True,
                 other_options: Mapping[str, Any] | None = None,
                 db: str | Path | None = None, shrink_seconds: float = 15.0,
                 words: tuple[str, str] = SIDES) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"timeout is a finite number of seconds above 0, not {timeout!r}")
        self.spec = spec
        self.game = game
        self.factory = factory
        self.timeout = timeout
        #: the names of the two sides in messages and reports (diff: "A" and "B")
        self.words = words
        self.spec_the, self.impl_the = _the(words[0]), _the(words[1])
        self.probes = probes
        self.observations = observations
        self.other_options = dict(other_options or {})
        self.db = DirectoryBasedExampleDatabase(str(db)) if db else None
        self.tables = _Tables(spec)
        #: the same tables without coverage marks, for estimates that play the spec alone
        self._plain = _Tables(spec, coverage=False)
        self._played: set[int] = set()
        self.guard: _Guard | None = None
        self.coverage = Coverage(clauses(spec))
        self._set_fields = frozenset((a.name, f) for a in spec.actions for f in a.set_fields)
        self._actions = {a.name: a for a in spec.actions}
        self._end_deals = [n for n in walk.descendants(spec.items) if isinstance(n, ast.EndDeal)]
        # per run
        self._first: str | None = None
        self._first_by_probe = False
        self._failing: list[list[int]] = []
        self._shrink_calls = 0
        self._shrink_started = 0.0
        self._skip: set[tuple[str, ...]] = set()
        self._action_names = spec.action_names()
        self._swarm = True
        self._drawn: list[int] = []
        self._live: list[int] = []
        self._spec_only = False
        self._enabling: dict[str, list[tuple[str, OptionValue]]] | None = None
        self._observe_ok = True
        self._matches = 0
        self._events = 0
        #: the most matches one setting's search plays (run_setting's ``matches``)
        self._cap = 0
        self._fixed: dict[str, OptionValue] = {}

        self._sizes: list[int] = []
        #: bounds of shrinking one divergence: candidate matches played, and seconds
        self.max_shrinks = 3000
        self.shrink_limit = shrink_seconds
        self.shrink_seconds = shrink_seconds

    # ---- the run --------------------------------------------------------------------------
    def run(self, *, players: Sequence[int] = (), options: Mapping[str, Any] | None = None,
            games: int | None = None, budget: float | None = None, seed_: int = 0,
            keep_going: bool = False, strict: bool = False,
            progress: Callable[[str, int, int | None, str], None] | None = None) -> Report:
        """Play the schedule. ``games``: matches in all, spread over the scheduled settings
        and a few steered combinations (:func:`spread`); without it, each setting plays its
        share of a fixed amount of work (:meth:`default_matches`), then come a few steered
        combinations. ``budget``: seconds for the whole run, checked between settings; without
        ``games``, steered combinations go on until it is spent. The budget never stops a run
        before its first match. Once the implementation has refused every scheduled setting,
        the run stops (a combination of the values it refused one at a time would be refused
        too). ``progress(label, number, total, coverage)`` is called before each setting's
        matches: ``number`` counts them from 1, ``total`` is how many the run plans (None
        once a budget's steered combinations go on past the schedule)."""
        if budget is not None and not math.isfinite(budget):
            raise ValueError(f"budget is a finite number of seconds, not {budget!r}")
        if games is not None and games < 1:
            raise ValueError(f"games is at least 1, not {games!r}")
        t0 = time.monotonic()
        sizes, fixed, plan = self._plan(players, options)
        rng = random.Random(seed_)
        steered: int | None = max(3, len(plan) // 4)
        #: with ``games``, each setting's matches in all
        quota: dict[Setting, int] | None = None
        steered_quota: list[int] = []
        if games is not None:
            shares = spread(games, len(plan) + (steered or 0))
            quota = {}
            for x, q in zip(plan, shares, strict=False):
                quota[x] = quota.get(x, 0) + q
            steered_quota = [q for q in shares[len(plan):] if q > 0]
            steered = len(steered_quota)
        elif budget is not None:
            steered = None
        results: list[SettingResult] = []
        divergences: list[Divergence] = []
        seen: set[tuple[str, ...]] = set()
        stopped = "games"
        self.guard = _Guard(self.factory, self.timeout)
        agenda = _Agenda(plan, steered)
        # the settings' runs the run plans: two for a setting (its first match, then the rest
        # of its share), one for a steered combination; less what refusals take away
        planned = sum(_runs(quota, x) for x in dict.fromkeys(plan)) + (steered or 0)
        number = 0
        by_setting: dict[Setting, SettingResult] = {}
        try:
            for i, (s, pass_) in enumerate(agenda):
                steered_one = s is None
                if s is None:
                    if not any(r.refused is None for r in results):
                        stopped = "refused"
                        break
                    s = self._steered(rng, sizes, fixed)
                    if s is None:
                        break
                if budget is not None and time.monotonic() - t0 > budget \
                        and any(r.matches for r in results):
                    stopped = "budget"
                    break
                if steered_one:  # all of its share at once (it may be a setting played before)
                    k: int | None = (self.default_matches(s, seed_ + i) if quota is None
                                     else steered_quota.pop(0))
                else:
                    k = self._share(s, pass_, quota, seed_ + i, by_setting)
                if k is None:
                    continue
                number += 1
                if progress:
                    self._fold_coverage()
                    total = planned if steered is not None or number <= planned else None
                    progress(s.label(), number, total, self.coverage.summary())
                left = None if budget is None else max(1.0, budget - (time.monotonic() - t0))
                # a divergence is found unshrunk, simplified, then shrunk once where it is
                # simplest (_simplify)
                run_seed = seed_ * 1_000_003 + i
                r = self.run_setting(s, k, run_seed, left, skip=seen, shrink=False)
                if r.refused is not None:
                    if pass_ == 0:
                        planned -= _runs(quota, s) - 1  # no rest of its share to come
                    if s.why == COMBINATION:
                        # a combination the implementation does not offer: the largest part
                        # of it that it does is played instead (only settings of one option
                        # count as not offered; the values left out have settings of their
                        # own)
                        part = self._offered_part(s)
                        if part is not None:
                            if quota is not None:
                                quota[part] = quota[s]
                            agenda.insert(part)
                            planned += _runs(quota, part)
                        continue
                prev = _tally(s, r, by_setting, results, agenda)
                if r.divergence is not None:
                    r.divergence = self._simplify(s, r.divergence, (k, run_seed), seen)
                    if prev is not None:
                        prev.divergence = r.divergence
                    divergences.append(r.divergence)
                    seen.add(r.divergence.signature())
                    if not keep_going:
                        stopped = "divergence"
                        break
        finally:
            self.guard.close()
        self._fold_coverage()
        return Report(self.game, results, divergences, self.coverage,
                      time.monotonic() - t0, stopped, self.guard.round_trips, strict,
                      shipped=self.game in shipped_games(), words=self.words)

    def _plan(self, players: Sequence[int], options: Mapping[str, Any] | None
              ) -> tuple[list[int], dict[str, OptionValue], list[Setting]]:
        """The run's table sizes, its fixed options (checked) and its schedule;
        ConfigurationError where the spec takes none of them."""
        fixed = dict(options or {})
        sizes = sorted(players) or list(range(self.spec.min_players,
                                              self.spec.max_players + 1))
        self._fixed, self._sizes = fixed, sizes
        for p in sizes:
            if not isinstance(p, int) or not self.spec.min_players <= p <= self.spec.max_players:
                raise ConfigurationError(f"{self.spec.name} takes {self.spec.min_players} to "
                                         f"{self.spec.max_players} players, not {p}")
        fixed = normalise_options(self.spec, fixed)
        self._fixed = fixed
        plan = schedule(self.spec, self.tables, sizes, fixed)
        if not plan:
            raise ConfigurationError(f"{self.spec.name} accepts none of these tables and "
                                     "options")
        return sizes, fixed, plan

    def _share(self, s: Setting, pass_: int, quota: Mapping[Setting, int] | None,
               seed_: int, by_setting: Mapping[Setting, SettingResult]) -> int | None:
        """Matches to play at scheduled setting ``s`` in pass ``pass_``: one in the first
        pass, the rest of its share in the second (its ``quota`` with ``--games``, else
        :meth:`default_matches`). None when none are left, or the implementation refused
        the setting."""
        q = None if quota is None else quota.get(s, 0)
        if pass_ == 0:
            return 1 if q is None or q >= 1 else None
        if s not in by_setting or by_setting[s].refused is not None:
            return None
        k = (self.default_matches(s, seed_) if q is None else q) - 1
        return k if k > 0 else None

    def _offered_part(self, s: Setting) -> Setting | None:
        """The options of combination ``s`` added one at a time, each kept where the spec
        and the implementation still offer the setting (a ``new`` call each, no match
        played); None when fewer than two are kept."""
        kept = [(k, v) for k, v in s.options if k in self._fixed]
        n = 0
        for k, v in s.options:
            if k in self._fixed:
                continue
            c = Setting(s.players, (*kept, (k, v)), COMBINATION)
            if not self.tables.accepts(c.players, c.opts):
                continue
            try:
                self._offered(c)
            except _Refused:
                continue
            kept.append((k, v))
            n += 1
        return Setting(s.players, tuple(kept), COMBINATION) if n >= 2 else None

    def _simplify(self, setting: Setting, d: Divergence, found: tuple[int, int],
                  skip: set[tuple[str, ...]]) -> Divergence:
        """The divergence at the simplest setting that still shows it, then shrunk.

        First the same setting with uniform choices (no swarm, see :meth:`_match`: a bug that
        does not need a swarm's bias shrinks better without one); then a smaller table; the
        options not fixed all back at their defaults, or half of them, or one of them (delta
        debugging, so a combination of twenty options comes down in a few tries). Each is
        tried with two matches, unshrunk; the first that diverges the same way is taken and
        simplified again. The divergence is then shrunk once, where it was last seen
        (``found``: the matches and seed that found it at ``setting``)."""
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
            for c in self._simpler(setting):
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

    def _simpler(self, setting: Setting) -> Iterator[Setting]:
        """Settings one step simpler than ``setting``, the biggest steps first."""
        for p in self._sizes:
            if p < setting.players and self.tables.accepts(p, setting.opts):
                yield Setting(p, setting.options, "smaller table")
        fixed = tuple((k, v) for k, v in setting.options if k in self._fixed)
        free = [(k, v) for k, v in setting.options if k not in self._fixed]
        parts: list[list[tuple[str, OptionValue]]] = []
        if len(free) > 1:
            half = len(free) // 2
            parts += [[], free[:half], free[half:]]
        parts += [[x for x in free if x != one] for one in free]
        for kept in parts:
            c = Setting(setting.players, fixed + tuple(kept),
                        "options at their defaults" if not kept else "fewer options")
            if self.tables.accepts(c.players, c.opts):
                yield c

    def _fold_coverage(self) -> None:
        """Coverage of the games matches were played at (all compiled games say what the
        tested settings can reach)."""
        for g in self.tables.games():
            self.coverage.add(g.compiled_clauses, g.cover or () if id(g) in self._played else ())

    def default_matches(self, setting: Setting, seed_: int) -> int:
        """Matches for a setting when ``--games`` is not given: WORK_PER_SETTING divided by
        the work of two seeded random matches of the spec alone (deterministic)."""
        game = self._plain.game(setting.players, setting.opts)
        rng = random.Random(seed_)
        work = 0.0
        for _ in range(2):
            st_ = game.new_initial_state(rng.randrange(setting.players))
            steps = 0
            while not st_.is_terminal() and steps < MAX_EVENTS and len(st_.deals) < MAX_DEALS:
                legal = st_.legal_actions()
                work += 1 + len(legal) / 50
                ev = legal[rng.randrange(len(legal))]
                if ev.get("chance") in ("shuffle", "reshuffle"):
                    ev = {**ev, "cards": rng.sample(ev["cards"], len(ev["cards"]))}
                st_.apply(ev)
                steps += 1
        per_match = max(1.0, work / 2)
        return max(2, min(DEFAULT_MATCHES, round(WORK_PER_SETTING / per_match)))

    def _enablers(self, sizes: Sequence[int], fixed: Mapping[str, OptionValue]
                  ) -> dict[str, list[tuple[str, OptionValue]]]:
        """For each clause, the option values whose setting compiles it where the defaults
        at the same table do not (an option folds the clause in): what a combination needs
        to be able to reach it."""
        out: dict[str, list[tuple[str, OptionValue]]] = {}
        for p in sizes:
            try:
                base = self.tables.game(p, fixed).compiled_clauses
            except ConfigurationError:
                continue
            for name, values in option_values(self.spec).items():
                if name in fixed:
                    continue
                for v in values:
                    try:
                        g = self.tables.game(p, {**fixed, name: v})
                    except ConfigurationError:
                        continue
                    for cid in g.compiled_clauses - base:
                        pairs = out.setdefault(cid, [])
                        if (name, v) not in pairs:
                            pairs.append((name, v))
            break  # the smallest table that accepts the fixed options is enough to tell
        return out

    def _steered(self, rng: random.Random, sizes: Sequence[int],
                 fixed: Mapping[str, OptionValue]) -> Setting | None:
        """A combination aimed at a clause not yet exercised: the option value that makes it
        reachable, with random other options (so it meets the interactions that make it
        happen, such as a blocked deal under a scoring option), the best of a few candidates
        by how many clauses not yet exercised it compiles. Coverage steers between runs only,
        never within one."""
        self._fold_coverage()
        missed = {c.id for c in self.coverage.universe if c.id not in self.coverage.hit}
        if self._enabling is None:
            self._enabling = self._enablers(sizes, fixed)
        targets = sorted(c for c in missed if self._enabling.get(c))
        best: Setting | None = None
        score = -1
        for _ in range(8):
            s = _random_setting(self.spec, self.tables, rng, sizes, fixed)
            if targets and s is not None:
                name, v = rng.choice(self._enabling[rng.choice(targets)])
                opts = {**s.opts, name: v}
                if self.tables.accepts(s.players, opts):
                    s = Setting(s.players, tuple(opts.items()), "steered combination")
            if s is None:
                continue
            g = self.tables.game(s.players, s.opts)
            k = len(g.compiled_clauses & missed)
            if k > score:
                best, score = s, k
        return best

    def run_setting(self, setting: Setting, matches: int, run_seed: int,
                    seconds: float | None = None,
                    skip: set[tuple[str, ...]] | None = None,
                    shrink: bool = True, swarm: bool = True) -> SettingResult:
        """Up to ``matches`` Hypothesis examples at ``setting``; the divergence if any, shrunk
        unless ``shrink`` is false. The same arguments play the same examples again (the
        seed fixes Hypothesis's generation), which is how a divergence found unshrunk is
        shrunk later."""
        assert self.guard is not None
        res = SettingResult(setting)
        try:
            self._offered(setting)
        except _Refused as e:
            res.refused = e.why
            return res
        skip = skip or set()
        self._reset(seconds, skip, swarm)
        self._cap = matches
        test = self._example(setting, skip)
        res.divergence = self._search(self._hypothesis_test(test, setting, matches, run_seed,
                                                            shrink))
        res.matches, res.events = self._matches, self._events
        if res.divergence is not None:
            d = res.divergence
            d.setting = setting.label()
            d.clauses = self._clauses_for(d)
        return res

    def _reset(self, seconds: float | None, skip: set[tuple[str, ...]], swarm: bool) -> None:
        """The state of one setting's search, fresh: nothing failed or shrunk yet, the full
        timeout, shrinking bounded by the ``seconds`` left of the run (at least 5 s)."""
        assert self.guard is not None
        self._first = None
        #: whether the first divergence was met while probing (probes stay on to shrink it)
        self._first_by_probe = False
        self._last: Divergence | None = None
        self._failing = []
        self._shrink_calls = 0
        self._best: int | None = None
        self._improved_at = 0.0
        self._improved_call = 0
        self._observe_ok = self.observations
        self._matches = self._events = 0
        self.guard.set_timeout(self.timeout)
        self._skip = skip
        self._swarm = swarm
        self.shrink_seconds = (self.shrink_limit if seconds is None
                               else max(min(5.0, self.shrink_limit),
                                        min(self.shrink_limit, seconds)))

    def _example(self, setting: Setting, skip: set[tuple[str, ...]]
                 ) -> Callable[[st.DataObject], None]:
        """The Hypothesis test: one match at ``setting``, a divergence in ``skip`` or (while
        shrinking) of another kind counting as a pass. Its source is part of Hypothesis's
        example-database key (``function_digest``): changed, stored examples are lost."""

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
        return seed(run_seed)(settings(
            max_examples=max(1, matches), deadline=None, database=db, phases=phases,
            suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
            verbosity=Verbosity.quiet, print_blob=False, derandomize=False)(
                given(st.data())(test)))

    def _search(self, wrapped: Callable[[], None]) -> Divergence | None:
        """Run the Hypothesis test ``wrapped``: the divergence it ends with, if any."""
        try:
            with with_reporter(lambda _msg: None), _shrink_deadline(self.shrink_seconds):
                wrapped()
        except _Diverged as e:
            return e.divergence
        except BaseExceptionGroup as eg:  # a flaky implementation: report what was seen
            found = _first_divergence(eg)
            if found is None:
                raise
            found.message += f" ({self.impl_the} did not fail the same way twice)"
            return found
        except Flaky:
            # the implementation answered the same choices differently (it is not
            # deterministic): report the last divergence seen, unshrunk
            if self._last is None:
                raise
            self._last.message += (f" ({self.impl_the} is not deterministic: the same match "
                                   "played again went differently, so this one is not shrunk)")
            return self._last
        except HypothesisException as e:
            if "Unsatisfiable" not in type(e).__name__:
                raise
        return None

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
                            self._their_options(setting.opts), 0)
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

    def _their_options(self, opts: Mapping[str, OptionValue]) -> dict[str, Any]:
        return {**opts, **self.other_options}

    # ---- bookkeeping for shrinking --------------------------------------------------------
    def _note_failure(self, d: Divergence) -> None:
        assert self.guard is not None
        if self._first is None:
            self._first = d.kind
            self._shrink_started = time.monotonic()
            if d.kind == "timeout":
                # shrink a hang with a short timeout: a multiple of the slowest answer seen
                self.guard.set_timeout(min(self.timeout, max(0.5, 5 * self.guard.slowest)))
        self._failing.append(list(self._drawn))
        self._last = d
        if self._best is None or len(d.events) < self._best:
            self._best, self._improved_at = len(d.events), time.monotonic()
            self._improved_call = self._shrink_calls

    def _draw(self, data: st.DataObject, strategy: st.SearchStrategy[int]) -> int:
        v = data.draw(strategy)
        i = len(self._drawn)
        self._drawn.append(v)
        if self._first is not None:
            # Shrinking: past its budget, only the failing matches already seen are replayed
            # (so Hypothesis's last replay agrees); every other candidate is dropped at once.
            spent = self._shrink_calls > self.max_shrinks
            if spent and not self._spec_only:
                self._live = [j for j in self._live
                              if len(self._failing[j]) > i and self._failing[j][i] == v]
                # The choices leave every failure seen: play on with the spec alone. The draws
                # depend on the spec only, so they are the same as a live run that does not
                # diverge would make, and Hypothesis sees a consistent, cheap pass.
                self._spec_only = not self._live
        return v

    def _checks_on(self, kinds: tuple[str, ...]) -> bool:
        """Sampled checks are switched off while a divergence that they do not bear on is
        shrunk (their draws still happen, so the choices mean the same)."""
        return self._first is None or self._first in kinds

    # ---- one match ------------------------------------------------------------------------
    def _match(self, data: st.DataObject, setting: Setting) -> None:
        assert self.guard is not None
        if self._first is not None:
            self._shrink_calls += 1
            if (time.monotonic() - self._improved_at > SHRINK_STALL
                    and self._shrink_calls - self._improved_call > SHRINK_STALL_CALLS):
                # no shorter failing match for a while: the rest of the shrink is the cheap
                # kind (see _draw), as past max_shrinks
                self._shrink_calls = max(self._shrink_calls, self.max_shrinks + 1)
        # The table and options are the setting's: drawing them too would make Hypothesis's
        # first (simplest) example of every setting a match at the defaults. A divergence's
        # setting is simplified afterwards (:meth:`_simplify`).
        players, opts = setting.players, setting.opts
        try:
            game = self.tables.game(players, opts)
        except ConfigurationError:
            reject()
        dealer = self._draw(data, st.integers(0, players - 1))
        # Swarm testing (Groce et al.): each match may avoid some kinds of decision wherever
        # another kind is legal (no bids: every deal passed out; no draws: short deals), which
        # reaches corners uniform choices seldom meet, such as a tie at the top. One integer,
        # two bits per action name, the name avoided when both are set (one match in four
        # avoids a given kind); it shrinks to 0, uniform choices.
        names = self._action_names
        mask = self._draw(data, st.integers(0, 4 ** len(names) - 1))
        avoid = (frozenset(n for i, n in enumerate(names) if mask >> 2 * i & 3 == 3)
                 if self._swarm else frozenset())
        self._played.add(id(game))
        state = game.new_initial_state(dealer)
        events: list[dict[str, Any]] = []
        ctx = _Match(self, state, players, opts, dealer, events, avoid)
        if self._first is None and self._matches >= self._cap:
            # Hypothesis asks for another example after one it cut short (a very long match
            # that drew past its limit of choices): the cut one was played, and counts, so
            # this one is played on the spec alone, drawing as a live match would (a
            # setting's matches stay within its share: --games N is N matches in all)
            self._spec_only = True
        if self._spec_only:
            ctx.play_spec_only(data)
            return
        try:
            impl = self.guard.ready()
            self.guard.call("new", impl.new, self.game, players, self._their_options(opts),
                            dealer)
        except ImplementationError as e:
            raise ctx.fail(e.kind, e.message, stderr=list(e.stderr)) from None
        except (RecordError, IllegalActionError, ValueError):
            if (players, opts) == (setting.players, setting.opts):
                raise ctx.fail("shape", f"{self.impl_the} refused a table it accepted "
                               f"before ({players} players, dealer {dealer})") from None
            reject()
        self._matches += 1
        try:
            ctx.play(data)
        finally:
            self._events += len(events)

    # ---- clauses named in a report --------------------------------------------------------
    @staticmethod
    def _where(span: ast.Span) -> str:
        """``file:line``, the file as a path from the current folder when it is below it."""
        p = Path(span.source)
        with contextlib.suppress(ValueError):
            p = p.resolve().relative_to(Path.cwd())
        return f"{p}:{span.line}"

    def _clauses_for(self, d: Divergence) -> list[dict[str, Any]]:
        names: list[str] = []
        for e in [*(d.missing or []), *(d.extra or []), *([d.event] if d.event else [])]:
            if isinstance(e, dict) and isinstance(e.get("action"), str):
                names.append(e["action"])
        out: list[dict[str, Any]] = []
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


@contextlib.contextmanager
def _shrink_deadline(seconds: float) -> Iterator[None]:
    """Bound Hypothesis's shrinking by wall-clock time.

    Hypothesis stops shrinking after MAX_SHRINKING_SECONDS (five minutes), a module constant
    it reads when shrinking starts; a shrink candidate replays a whole match, through a pipe
    when the implementation is a process, so verify sets a shorter bound for its own runs and
    puts the constant back afterwards. (The candidates that are still tried past the bound of
    ``Verifier.max_shrinks`` calls run on the spec alone, see ``Verifier._draw``.)
    """
    from hypothesis.internal.conjecture import engine

    old = getattr(engine, "MAX_SHRINKING_SECONDS", None)
    if old is None:  # pragma: no cover - a Hypothesis without the constant
        yield
        return
    engine.MAX_SHRINKING_SECONDS = seconds  # type: ignore[assignment]
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = old


def _first_divergence(eg: BaseExceptionGroup) -> Divergence | None:
    for e in eg.exceptions:
        if isinstance(e, _Diverged):
            return e.divergence
        if isinstance(e, BaseExceptionGroup):
            found = _first_divergence(e)
            if found is not None:
                return found
    return None


class _Match:
    """One match in progress: the spec's state, the implementation, the events so far."""

    def __init__(self, v: Verifier, state: State, players: int, opts: dict[str, OptionValue],
                 dealer: int, events: list[dict[str, Any]],
                 avoid: frozenset[str] = frozenset()) -> None:
        self.v = v
        assert v.guard is not None
        self.guard = v.guard
        self.state = state
        self.players = players
        self.opts = opts
        self.dealer = dealer
        self.events = events
        #: decisions so far that all took the first legal event; -1 once one did not
        self._zeros = 0
        #: action names this match does not choose where another is legal (swarm testing)
        self.avoid = avoid

    def fail(self, kind: str, message: str, **kw: Any) -> _Diverged:
        """The exception for a divergence at this point of the match."""
        stderr = kw.pop("stderr", None)
        if stderr is None:
            stderr = self.guard.stderr_tail()
        # what the implementation said goes into the report, which is JSON: anything that is
        # not a JSON value is shown as text
        kw = {k: _reportable(x) for k, x in kw.items()}
        d = Divergence(kind, message, len(self.events), self.players, dict(self.opts),
                       self.dealer, list(self.events), stderr=list(stderr), **kw)
        return _KIND_EXC[kind](d)

    def _ask(self, op: str, *args: object) -> Any:
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

    def normal_key(self, e: dict[str, Any]) -> str:
        """The canonical text after normalising card codes and set fields."""
        return normal_key(e, self.v._set_fields)

    def _to_move(self) -> int | str | None:
        tm = self._ask("to_move")
        ok = tm is None or tm == CHANCE or (isinstance(tm, int) and not isinstance(tm, bool))
        if not ok:
            raise self.fail("shape", f"to_move must be a seat, \"chance\" or null, not "
                            f"{json.dumps(tm)[:100]}")
        return tm

    def _legal_keys(self) -> dict[str, Any]:
        legal = self._ask("legal")
        if not isinstance(legal, list):
            raise self.fail("shape", f"legal must be a list, not {type(legal).__name__}")
        keys: dict[str, Any] = {}
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

    def _result(self) -> dict[str, Any]:
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
            state.apply(ev)
            self.events.append(ev)
            if len(state.deals) > deals:
                deals = len(state.deals)
                if deals >= MAX_DEALS and not state.is_terminal():
                    return

    def play(self, data: st.DataObject) -> None:
        """Play to the end of the match (or the bounds), checking at every step."""
        v, state = self.v, self.state
        prev: list[dict[str, Any]] = []
        deals = 0
        while True:
            a = state.current_player()
            b = self._to_move()
            if a != b:
                raise self.fail("who-moves", f"{v.spec_the} says {json.dumps(a)} moves, "
                                f"{v.impl_the} {json.dumps(b)}", spec_says=a, impl_says=b)
            if a is None:
                break
            spec_keys = state.legal_map()
            theirs = self._legal_keys()
            legal = state.legal_actions()
            if theirs.keys() != spec_keys.keys():
                missing = sorted(set(spec_keys) - set(theirs))
                extra = sorted(set(theirs) - set(spec_keys))
                diverged = self.fail(
                    "legal", f"{len(spec_keys)} legal events in {v.spec_the}, {len(theirs)} "
                    f"in {v.impl_the}: {len(missing)} missing, {len(extra)} extra",
                    spec_says=[spec_keys[k][0] for k in sorted(spec_keys)],
                    impl_says=[theirs[k] for k in sorted(theirs)],
                    missing=[spec_keys[k][0] for k in missing],
                    extra=[theirs[k] for k in extra])
                both = [spec_keys[k][0] for k in sorted(spec_keys) if k in theirs]
                if diverged.divergence.signature() not in v._skip or not both:
                    raise diverged
                # --keep-going, a bug already reported: play on among the events both sides
                # allow, so the match can reach the bugs behind it
                legal = both
            ev, flag, x = self._choose(data, legal)
            if v._spec_only:
                state.apply(ev)
                self.events.append(ev)
                self.play_spec_only(data)
                return
            if flag == 15:
                if v.probes and (v._first_by_probe or
                                 v._checks_on(("accepted-illegal", "changed-by-illegal"))):
                    self._probe(legal, prev, x, theirs)
            elif flag == 14 and a != CHANCE:
                # observations are compared where a player decides: in the middle of a chance
                # step (a card turned up, waiting for its burial) two faithful implementations
                # may hold the card in different places
                if v._observe_ok and v._checks_on(("leak", "observation")):
                    self._observe(x % self.players)
            state.apply(ev)  # a RuleRuntimeError here is the spec's fault: it propagates
            try:
                self._ask("apply", ev)
            except (IllegalActionError, RecordError, ValueError) as e:
                raise self.fail("refused-legal", f"{v.impl_the} refused a legal event: "
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

    def _choose(self, data: st.DataObject,
                legal: list[dict[str, Any]]) -> tuple[dict[str, Any], int, int]:
        """The event to play, and the sampled check to make here: one Hypothesis integer per
        event, ``x = flag * n + index``, so shrinking drops checks first, then moves every
        choice toward the first legal event (a shuffle: toward the unshuffled pack)."""
        if len(legal) == 1 and legal[0].get("chance") in ("shuffle", "reshuffle"):
            s = self.v._draw(data, st.integers(0, 2**32 - 1))
            ev = dict(legal[0])
            cards = list(ev["cards"])
            if s:
                random.Random(s).shuffle(cards)
            ev["cards"] = cards
            return ev, 0, s
        if self.avoid:
            pool = [e for e in legal if e.get("action") not in self.avoid]
            if pool:
                legal = pool
        n = len(legal)
        x = self.v._draw(data, st.integers(0, 16 * n - 1))
        if n > 1 and self._zeros >= 0:
            # Hypothesis tries the simplest example (every choice the first legal event)
            # first, at every setting; in a game where that is "draw" or "pass" it runs
            # to MAX_EVENTS making no progress, the dearest match of the run. Choices that
            # begin with ZERO_RUN such decisions are not a match worth playing (a rule of
            # the choices alone, so replays and shrinking see it the same way).
            self._zeros = self._zeros + 1 if x == 0 else -1
            if self._zeros >= ZERO_RUN:
                self.v._matches -= 1  # not a match played
                reject()
        return legal[x % n], x // n, x

    def _compare_results(self) -> None:
        mine = self.state.result()
        theirs = self._result()
        diffs = compare_answers(mine, theirs, self.v._set_fields, self.v.words)
        if diffs:
            shown = {k: x for k, x in mine.items() if k != "legal"}
            raise self.fail("result", "; ".join(diffs[:6]), spec_says=shown,
                            impl_says={k: x for k, x in theirs.items() if k != "legal"})

    # ---- near misses ----------------------------------------------------------------------
    def _probe(self, legal: list[dict[str, Any]], prev: list[dict[str, Any]], pick: int,
               theirs: dict[str, Any]) -> None:
        """Offer the implementation an event the spec refuses here, and check it is refused
        and changes nothing. A divergence met on the way (a crash, a result asked before or
        after) is noted as a probe's: shrinking then keeps the probes on, or the divergence
        could not be met again."""
        try:
            self._try_probe(legal, prev, pick, theirs)
        except Exception:
            if self.v._first is None:
                self.v._first_by_probe = True
            raise

    def _try_probe(self, legal: list[dict[str, Any]], prev: list[dict[str, Any]], pick: int,
                   theirs: dict[str, Any]) -> None:
        rng = random.Random(pick)
        spec_keys = self.state.legal_map()
        cands = _near_misses(legal, prev, rng, self.players, self.state)
        probe = None
        for c in cands:
            try:
                k = canonical_key(c)
            except (TypeError, ValueError):
                continue
            if k in spec_keys:
                continue
            clone = self.state.clone()
            try:
                clone.apply(c)
            except (IllegalActionError, RecordError):
                probe = c
                break
            except RulespecError:
                continue
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
            raise self.fail("accepted-illegal", f"{self.v.impl_the} accepted an event "
                            f"{self.v.spec_the} does not allow here", event=probe,
                            spec_says="illegal: " + self.state._why_illegal(probe),
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
        if not self.v._observe_ok:
            return None
        impl = self.guard.ready()
        if not hasattr(impl, "observe"):
            self.v._observe_ok = False
            return None
        try:
            obs = self.guard.call("observe", impl.observe, seat)
        except ImplementationError as e:
            raise self.fail(e.kind, e.message, stderr=list(e.stderr)) from None
        except (IllegalActionError, RecordError, ValueError):
            self.v._observe_ok = False
            return None
        if obs is None:
            self.v._observe_ok = False
            return None
        why = json_problem(obs)
        if why is not None:
            raise self.fail("shape", f"the observation holds {why}")
        return obs

    def _observe(self, seat: int) -> None:
        obs = self._observation(seat)
        if obs is None:
            return
        if not isinstance(obs, dict):
            raise self.fail("shape", "an observation is a JSON object")
        mine = self.state.observation(seat)
        # what the spec shows the seat: its zones as it sees them, and the variables (public)
        allowed = _visible(mine["zones"]) + collections.Counter(_card_codes(mine["vars"]))
        shown: collections.Counter[str] = collections.Counter(_card_codes(obs))
        # a card named twice (in the hand and again in a list of cards shown, say) reveals
        # nothing when the seat sees every copy of it; with copies the seat cannot see (two
        # packs), each extra mention may be one of them
        copies = _visible(self.state.z)
        leaked = collections.Counter({c: n - allowed[c] for c, n in shown.items()
                                      if n > allowed[c]
                                      and (allowed[c] == 0 or copies[c] > allowed[c])})
        if leaked:
            raise self.fail("leak", f"seat {seat}'s observation shows "
                            f"{', '.join(sorted(leaked.elements()))[:300]}, which "
                            f"{self.v.spec_the} hides from seat {seat}", spec_says=mine["zones"],
                            impl_says=obs)
        zones = obs.get("zones")
        if isinstance(zones, dict):
            for name, theirs in zones.items():
                if name not in mine["zones"]:
                    continue
                if not _same_zone(mine["zones"][name], theirs):
                    raise self.fail("observation", f"seat {seat} sees zone {name!r} unlike "
                                    f"{self.v.spec_the}",
                                    spec_says={name: mine["zones"][name]},
                                    impl_says={name: theirs})


def _reportable(x: Any, depth: int = 0) -> Any:
    """``x`` as a JSON value for the report: a value :func:`json_problem` finds fault with is
    replaced by a string saying what it was (a divergence's answers come from the
    implementation, and a Python one may return any object)."""
    why = json_problem(x, MAX_ANSWER_DEPTH - depth)
    if why is None:
        return x
    if depth < MAX_ANSWER_DEPTH:
        if isinstance(x, list):
            return [_reportable(y, depth + 1) for y in x]
        if isinstance(x, dict) and all(isinstance(k, str) for k in x):
            return {k: _reportable(y, depth + 1) for k, y in x.items()}
    return f"(not shown: {why})" if isinstance(x, (list, dict)) else \
        f"(not JSON: {reprlib.repr(x)})"


def _same_zone(a: Any, b: object) -> bool:
    if isinstance(a, int):
        return isinstance(b, int) and not isinstance(b, bool) and a == b
    if not isinstance(b, list) or len(a) != len(b):
        return False
    if a and isinstance(a[0], (list, int)) and not isinstance(a[0], str):
        return all(_same_zone(x, y) for x, y in zip(a, b, strict=True))
    try:
        return collections.Counter(a) == collections.Counter(_card(x) or x for x in b)
    except TypeError:
        return False


def _sort_key(x: object) -> tuple[int, int | str]:
    c = _card(x)
    if c is not None:
        return (1, card_sort_key(c))
    return (0, x) if isinstance(x, int) else (2, str(x))


def _near_misses(legal: list[dict[str, Any]], prev: list[dict[str, Any]], rng: random.Random,
                 players: int, state: State) -> list[dict[str, Any]]:
    """Events close to legal ones: another seat's, a card not held, a number one off, a set
    with one element more or less, an event that was legal one step earlier."""
    out: list[dict[str, Any]] = []
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
        elif _card(x) is not None and pack:
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
    return out
