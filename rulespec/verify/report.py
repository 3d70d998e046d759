"""What a verification run found: the kinds of divergence, a :class:`Divergence` with all a
report shows, each setting's result, and the :class:`Report` as versioned JSON and as text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TypedDict

import attrs

from rulespec.engine.events import Event, JSONObject, JSONValue
from rulespec.errors import RuleRuntimeError
from rulespec.records import FORMAT, write_record
from rulespec.shown import escape_line, escape_text, json_text
from rulespec.verify.coverage import Coverage
from rulespec.verify.schedule import OptionValue, Setting, option_text

__all__ = ["KINDS", "ClauseRef", "MISSED_SHOWN", "REPORT_FORMAT", "SIDES", "Diverged", "Divergence",
           "Report", "SettingResult", "SpecFailed", "format_report", "kind_text",
           "never_reached", "only_under", "the"]

REPORT_FORMAT = "rulespec-verify/1"

#: what each kind of divergence means; ``{spec}`` and ``{impl}`` are the two sides as the
#: run names them (:func:`kind_text`)
KINDS = {
    "who-moves": "{impl} says another seat (or chance) moves",
    "legal": "the legal events differ",
    "duplicate": "{impl} lists an event twice",
    "refused-legal": "{impl} refused a legal event",
    "accepted-illegal": "{impl} accepted an illegal event",
    "changed-by-illegal": "a refused illegal event changed {impl}'s state",
    "leak": "an observation shows cards, or a zone's size, {spec} hides from that seat",
    "observation": "an observation shows a zone unlike {spec}",
    "result": "the replay answers differ",
    "crash": "{impl} crashed",
    "exit": "{impl} exited",
    "timeout": "{impl} did not answer in time",
    "garbage": "{impl} wrote something that is not a JSON answer",
    "shape": "{impl} answered with the wrong shape",
    "flaky": "{impl} is not deterministic: the same choices met different answers",
}


#: the words for the two sides: verify compares a spec and an implementation, diff spec A
#: and spec B
SIDES = ("spec", "implementation")


def the(word: str) -> str:
    """A side in a sentence: ``the spec``, ``the implementation``, but ``A``, ``B``."""
    return word if word[:1].isupper() else f"the {word}"


def kind_text(kind: str, words: tuple[str, str] = SIDES) -> str:
    """What a divergence of ``kind`` means, in the run's ``words`` for its two sides."""
    return KINDS.get(kind, kind).format(spec=the(words[0]), impl=the(words[1]))


class ClauseRef(TypedDict):
    """A clause of the spec a divergence bears on, as reports name it."""

    #: ``file:line``
    where: str
    #: the action's name, or ``end deal``
    action: str
    #: the rulebook references cited in the clause
    refs: list[str]


@attrs.define
class Divergence:
    """Where the implementation parts from the spec, with everything a report shows."""

    kind: str
    message: str
    index: int
    players: int
    options: dict[str, OptionValue]
    dealer: int
    events: list[Event]
    event: Event | None = None
    spec_says: JSONValue = None
    impl_says: JSONValue = None
    missing: list[JSONValue] = attrs.field(factory=list)
    extra: list[JSONValue] = attrs.field(factory=list)
    clauses: list[ClauseRef] = attrs.field(factory=list)
    stderr: list[str] = attrs.field(factory=list)
    setting: str = ""
    #: the id of the known finding (``--known``) it matches, if any
    known: str | None = None

    def record(self, game: str) -> dict[str, JSONValue]:
        """The match up to the divergence, as a record ``rulespec replay`` accepts."""
        return {"format": FORMAT, "game": game, "players": self.players,
                "options": dict(self.options), "dealer": self.dealer,
                "events": list(self.events)}

    def signature(self) -> tuple[str, ...]:
        """What makes two divergences the same bug for ``--keep-going`` (a known finding's:
        its id)."""
        if self.known is not None:
            return ("known", self.known)
        names = sorted({str(e.get("action", e.get("chance"))) for e in
                        [*self.missing, *self.extra, *([self.event] if self.event else [])]
                        if isinstance(e, dict)})
        return (self.kind, *names)

    def to_json(self, game: str, words: tuple[str, str] = SIDES) -> dict[str, JSONValue]:
        """As the JSON report writes it (``words``: the run's names for its two sides)."""
        return {"kind": self.kind, "what": kind_text(self.kind, words),
                "message": self.message, "event_index": self.index,
                "players": self.players, "options": self.options, "dealer": self.dealer,
                "event": self.event, "spec": self.spec_says, "implementation": self.impl_says,
                "missing": self.missing, "extra": self.extra, "clauses": self.clauses,
                "stderr": self.stderr, "record": self.record(game)}


class Diverged(Exception):
    """Raised inside a match; one subclass per kind keeps Hypothesis's failures apart."""

    def __init__(self, d: Divergence) -> None:
        super().__init__(f"{d.kind}: {d.message}")
        self.divergence = d


class SpecFailed(RuleRuntimeError):
    """A rule of the spec failed while a match was played (exit 70): the spec's own error,
    with the match up to the event that met it, as a record that replays to the same error
    (``record``; with no events when the match's first automatic steps met it)."""

    def __init__(self, error: RuleRuntimeError, game: str, players: int,
                 options: dict[str, OptionValue], dealer: int, events: list[Event]) -> None:
        super().__init__(error.message, error.span, error.hint, error.note)
        self.record: dict[str, JSONValue] = {
            "format": FORMAT, "game": game, "players": players, "options": dict(options),
            "dealer": dealer, "events": list(events)}

    def written(self, out: Path, spec_path: Path | None) -> RuleRuntimeError:
        """The error, its record written to ``out`` (a user's spec, ``spec_path``, copied
        beside it, as :func:`rulespec.records.write_record` does), noted with where it is."""
        try:
            write_record(self.record, out, spec_path)
            where = (f"verify met it in a match; the match up to it is the record "
                     f"{escape_line(str(out))} (rulespec replay {escape_line(str(out))})")
        except OSError as e:
            where = f"verify met it in a match, which cannot be written: {e.strerror or e}"
        return self.noted("; ".join(n for n in (self.note, where) if n))


_KIND_EXC: dict[str, type[Diverged]] = {
    k: type(f"Diverged_{k.replace('-', '_')}", (Diverged,), {}) for k in KINDS}


def diverged(d: Divergence) -> Diverged:
    """The exception that carries ``d`` out of a match: of its kind's own subclass."""
    return _KIND_EXC[d.kind](d)


@attrs.define
class SettingResult:
    """What one scheduled setting gave."""

    setting: Setting
    matches: int = 0
    events: int = 0
    refused: str | None = None
    divergence: Divergence | None = None
    #: the known findings (``--known``) its matches met, with how many matches met each
    known: dict[str, int] = attrs.field(factory=dict)


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
    #: the known findings (``--known``) the run met, by id, with how many matches met each
    known: dict[str, int] = attrs.field(factory=dict)

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

    def to_json(self) -> JSONObject:
        """The versioned machine-readable report (its parts typed loosely: the command line
        adds to them before writing)."""
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
            "known": dict(self.known),
            "coverage": {
                "summary": cov.summary(),
                "exercised": sum(1 for c in cov.reachable if c.id in cov.hit),
                "reachable": len(cov.reachable),
                "never_reached": [f"{where} {label}" for where, label in never_reached(cov)],
                "never_reached_only_under": {f"{where} {label}": under for (where, label), under
                                             in only_under(cov).items()},
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
    if report.known:
        met = ", ".join(f"{k} ({n} time{'s' if n > 1 else ''})"
                        for k, n in sorted(report.known.items()))
        lines.append(f"  known findings met (--known), not counted: {escape_line(met)}")
    if report.stopped_by == "budget":
        lines.append(f"  stopped: the budget was spent after {len(report.results)} settings")
    if report.matches:
        lines.append(f"  coverage: {cov.summary()}")
    missed = never_reached(cov) if report.matches else []
    if missed and not report.divergences:
        lines.append(f"  never reached ({len(missed)}):")
        width = max(len(where) for where, _ in missed[:MISSED_SHOWN])
        under = only_under(cov)
        for where, label in missed[:MISSED_SHOWN]:
            note = under.get((where, label))
            lines.append(f"    {escape_line(where).ljust(width)}  {escape_line(label)}"
                         + (f"  (runs only under {escape_line(note)})" if note else ""))
        if len(missed) > MISSED_SHOWN:
            lines.append(f"    ... and {len(missed) - MISSED_SHOWN} more (--json lists "
                         "them all)")
    # when every setting was refused for one reason, the verdict has said it
    if report.not_offered and (verified or len({r.refused for r in report.not_offered}) > 1):
        lines.append(f"  not offered by {the(impl_word)} ({len(report.not_offered)}):")
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


def only_under(cov: Coverage) -> dict[tuple[str, str], str]:
    """For the clauses :func:`never_reached` lists that run only under some option values
    (every tested setting that compiles them has those values), the values, by
    ``(file:line:col, label)``: ``"bonus=-50 or -1"``, ``"deals=2, target=5"``."""
    out: dict[tuple[str, str], str] = {}
    for c in cov.missed:
        under = cov.only_under.get(c.id)
        if under:
            # more than a few: only combinations of many options compiled it (no setting of
            # one value each has been played yet)
            out.setdefault((c.where(), c.label), ", ".join(
                f"{n}={' or '.join(sorted(vs))}" for n, vs in sorted(under.items()))
                if len(under) <= ONLY_UNDER_SHOWN else
                f"combinations of {len(under)} options off their defaults")
    return out


#: the most option values a clause's "runs only under" note names
ONLY_UNDER_SHOWN = 3


def _not_verified(report: Report, impl_word: str) -> str:
    """The verdict of a run that verified no setting, in one line: what the implementation
    answered when every setting was refused for one reason, and, for a game that is not
    shipped, how ``rulespec serve`` serves it."""
    refused = report.not_offered
    if not refused:
        return "not verified: no match was played"
    tried = "the one setting" if len(refused) == 1 else f"all {len(refused)} settings"
    line = f"not verified: {the(impl_word)} refused {tried} tried at 'new'"
    reasons = {r.refused for r in refused}
    if len(reasons) == 1:
        line += f", answering: {next(iter(reasons))}"
    if not report.shipped:
        line += (f" (the spec is not a shipped game: 'new' names it {report.game!r}, as its "
                 "game line declares; `rulespec serve FILE.rules` serves it under that name)")
    return escape_line(line)


def _divergence_text(n: int, d: Divergence, path: str | None, spec_word: str,
                     impl_word: str) -> list[str]:
    js = json_text
    opts = escape_line(", ".join(f"{k}={option_text(v)}" for k, v in d.options.items())
                       or "defaults")
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
        out += _legal_text(d, spec_word, impl_word)
    else:
        if d.spec_says is not None:
            out.append(f"  {spec_word} says: {js(d.spec_says)[:4000]}")
        if d.impl_says is not None:
            out.append(f"  {impl_word} says: {js(d.impl_says)[:4000]}")
    for c in d.clauses:
        refs = f" [{', '.join(c['refs'])}]" if c["refs"] else ""
        out.append(f"  {spec_word} clause: " + escape_line(f"{c['where']} {c['action']}{refs}"))
    if d.stderr:
        out.append(f"  {the(impl_word)}'s last lines on standard error:")
        out += [f"    | {escape_line(line)}" for line in d.stderr[-12:]]
    if path:
        where = escape_line(path)
        out.append(f"  record: {where} ({len(d.events)} events): rulespec replay {where}")
    return out


def _legal_text(d: Divergence, spec_word: str, impl_word: str) -> list[str]:
    """The lines of a divergence over the legal events: how many each side lists, what is
    missing and extra (twenty of each), and the spec's list when it is short."""
    js = json_text
    # both sides' lists, as a match reports them (Match.play)
    ours = d.spec_says if isinstance(d.spec_says, list) else []
    theirs = d.impl_says if isinstance(d.impl_says, list) else []
    out = [f"  {spec_word}: {len(ours)} legal events; {impl_word}: {len(theirs)}",
           f"  missing ({spec_word} allows, {impl_word} does not): "
           + (", ".join(js(e) for e in d.missing[:20]) or "none")
           + (f" and {len(d.missing) - 20} more" if len(d.missing) > 20 else ""),
           f"  extra ({impl_word} allows, {spec_word} does not): "
           + (", ".join(js(e) for e in d.extra[:20]) or "none")
           + (f" and {len(d.extra) - 20} more" if len(d.extra) > 20 else "")]
    if len(ours) <= 40:
        out.append(f"  {spec_word}'s legal events: " + ", ".join(js(e) for e in ours))
    return out
