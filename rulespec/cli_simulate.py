"""``rulespec simulate``'s settings, reports and tables: the settings ``--compare`` makes of
repeated ``-o`` options, the bots handed to :func:`rulespec.simulate.simulate`, the HTML report
written, and the tables printed (a command-line module: it may print)."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from rulespec.cli_options import option_text, parse_option
from rulespec.engine.native import native_game
from rulespec.errors import ConfigurationError, RulespecError
from rulespec.files import write_atomic
from rulespec.loading import game_for, resolve, typed_game_for
from rulespec.report import Comparison, RunReport, comparison_page, run_page
from rulespec.shown import escape_line as shown
from rulespec.simulate import SimulationSummary
from rulespec.simulate import simulate as simulate_games

__all__ = ["Setting", "call_simulate", "default_report_path", "print_comparison",
           "print_results", "print_sentences", "print_summary", "report_json", "report_of",
           "settings_of", "warn_native", "write_report"]

#: a setting: its label (``scoring=pagat``; empty for a single run) and its options
Setting = tuple[str, dict[str, bool | int | str]]


def settings_of(items: Sequence[str], compare: bool) -> list[Setting]:
    """The settings ``-o`` options make: one without ``--compare`` (a key given twice takes
    its last value, as before); with it, one per value of the one key given more than once,
    each with the keys given once. A usage error (click's, exit 2) when ``--compare`` has no
    repeated key, or more than one."""
    pairs = [parse_option(t) for t in items]
    if not compare:
        return [("", dict(pairs))]
    counts: dict[str, int] = {}
    for k, _ in pairs:
        counts[k] = counts.get(k, 0) + 1
    repeated = [k for k, n in counts.items() if n > 1]
    if not repeated:
        raise click.UsageError("--compare compares the values of one option: give it once per "
                               "value (-o NAME=A -o NAME=B)")
    if len(repeated) > 1:
        names = ", ".join(shown(k) for k in repeated)
        raise click.UsageError(f"--compare compares one option, but {names} are each given "
                               "more than once: repeat only the option compared")
    key = repeated[0]
    common = {k: v for k, v in pairs if k != key}
    values: list[bool | int | str] = []
    for k, v in pairs:
        if k == key and v not in values:
            values.append(v)
    if len(values) < 2:
        raise click.UsageError(f"--compare: {shown(key)} is given the same value twice; give "
                               "the values to compare")
    return [(f"{key}={option_text(v)}", {**common, key: v}) for v in values]


def call_simulate(game: str, players: int | None, games: int, seed: int,
                  options: dict[str, bool | int | str], *, bots: Sequence[str],
                  per_game: bool, **kw: object) -> SimulationSummary:
    """:func:`rulespec.simulate.simulate`, with ``bots`` passed on where given. The one place
    that knows ``simulate`` may not take bots yet (they come with the bots' own work): then
    ``--bot`` is a usage error saying so."""
    if bots:
        if "bots" not in inspect.signature(simulate_games).parameters:
            raise ConfigurationError(f"--bot {shown(' '.join(bots))}: this rulespec plays "
                                     "random decisions only (its simulate has no bots yet)")
        kw["bots"] = list(bots)
    run: Callable[..., SimulationSummary] = simulate_games
    return run(game, players, games, seed, options, per_game=per_game, **kw)


def warn_engine(engine: str, game: str, players: int | None,
                options: dict[str, bool | int | str], dealer: int, kept: bool) -> None:
    """Say (on stderr, one line) why ``--engine native`` or ``typed`` plays ``game`` in
    Python, if it does (``kept``: records, bots or a report are asked for)."""
    if engine == "native":
        warn_native(game, players, options, dealer)
    elif engine == "typed":
        warn_typed(game, players, options, dealer, kept)


def warn_native(game: str, players: int | None, options: dict[str, bool | int | str],
                dealer: int) -> None:
    """Say (on stderr, one line) why ``--engine native`` plays ``game`` in Python, if it
    does: its table is built here once, and the runs after find it in this process or on
    disk."""
    spec = resolve(game).spec
    if players is None and spec.min_players != spec.max_players:
        return  # simulate says how many players to name
    why = native_game(spec, players or spec.min_players, options, dealer).reason
    if why:
        click.echo(f"--engine native: {why}; playing in Python", err=True)


def warn_typed(game: str, players: int | None, options: dict[str, bool | int | str],
               dealer: int, kept: bool) -> None:
    """Say (on stderr, one line) why ``--engine typed`` plays ``game`` in Python, if it
    does: ``kept`` where records, bots or a report are asked for, else where the typed
    lowering does not cover the table."""
    if kept:
        click.echo("--engine typed: records, bots and reports are the Python engine's; "
                   "playing in Python", err=True)
        return
    spec = resolve(game).spec
    if players is None and spec.min_players != spec.max_players:
        return  # simulate says how many players to name
    _, why = typed_game_for(game_for(spec, players or spec.min_players, options, dealer))
    if why:
        click.echo(f"--engine typed: {why}; playing in Python", err=True)


def report_of(game: str, summaries: Sequence[tuple[str, SimulationSummary]]
              ) -> RunReport | Comparison:
    """The report of one run, or the comparison of several settings' runs."""
    spec = resolve(game).spec
    runs = tuple(RunReport.of(s, spec, label) for label, s in summaries)
    return runs[0] if len(runs) == 1 else Comparison(runs)


def report_json(report: RunReport | Comparison) -> str:
    """The report's data as JSON text (``--json``)."""
    return json.dumps(report.to_json(), indent=2)


def write_report(path: str, report: RunReport | Comparison) -> None:
    """Write the report's HTML page to ``path``, whole or not at all."""
    page = comparison_page(report) if isinstance(report, Comparison) else run_page(report)
    try:
        write_atomic(Path(path), page)
    except OSError as e:
        raise RulespecError(f"cannot write the report to {shown(path)}: "
                            f"{e.strerror or e}") from None


def default_report_path(game: str) -> str:
    """Where ``--compare`` writes its page without ``--report``: ``<game>-compare.html`` in
    the current folder (the name kept to letters, digits, ``-`` and ``_``)."""
    stem = re.sub(r"[^A-Za-z0-9_-]+", "_", Path(game).stem)[:60] or "game"
    return f"{stem}-compare.html"


def print_results(summary: SimulationSummary, report: RunReport | Comparison | None,
                  options: dict[str, bool | int | str], seed: int, as_json: bool) -> None:
    """What simulate prints: without a report, the summary (its tables, or its JSON); with
    one, the report's data as JSON, or the comparison's table (a single run's summary tables)
    and the report's plain-English summary."""
    if report is None:
        if as_json:
            click.echo(json.dumps(summary.to_json(), indent=2))
        else:
            print_summary(summary, summary.players, seed, options)
    elif as_json:
        click.echo(report_json(report))
    else:
        if isinstance(report, Comparison):
            print_comparison(report)
        else:
            print_summary(summary, summary.players, seed, options)
        print_sentences(report)


def print_sentences(report: RunReport | Comparison) -> None:
    """The report's plain-English summary, one line each."""
    out = Console(markup=False, highlight=False)
    for line in report.sentences():
        out.print(line)


def print_comparison(comparison: Comparison) -> None:
    """The differences of a comparison as a table (a * marks a significant one)."""
    out = Console(markup=False)
    runs = comparison.runs
    t = Table(title=f"{runs[0].game}: {runs[0].games} games a setting, differences from "
                    f"{runs[0].label} (95%)")
    many = len(runs) > 2  # two settings: the other is named in the title, not each row
    cols = ("measure", *(("setting",) if many else ()), runs[0].label,
            "value" if many else runs[1].label, "difference", "")
    for i, col in enumerate(cols):
        t.add_column(col, justify="left" if i < 1 + many else "right")
    quiet = 0
    for d in comparison.differences():
        if d.clause and not d.significant:
            quiet += 1
            continue
        fmt = (lambda x: f"{100 * x:.1f}%") if d.percent else (lambda x: f"{x:.2f}")
        e = d.diff
        diff = (f"{100 * e.estimate:+.1f} pts ({100 * e.low:+.1f} to {100 * e.high:+.1f})"
                if d.percent else f"{e.estimate:+.2f} ({e.low:+.2f} to {e.high:+.2f})")
        t.add_row(d.measure, *((d.setting,) if many else ()), fmt(d.first), fmt(d.other),
                  diff, "*" if d.significant else "")
    out.print(t)
    if quiet:
        out.print(f"({quiet} option-guarded clause rows without a significant difference are "
                  "left out here: the report's page lists them)")


def _show(v: object) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


def print_summary(summary: SimulationSummary, players: int, seed: int,
                  options: dict[str, int | str | bool]) -> None:
    """simulate's summary as two tables (the measures, and per seat) on standard output."""
    # no rich markup in the tables: every name and value in them (a path, an option value) is
    # shown as the text it is, never read as [bold] or [link=...]
    out = Console(markup=False)
    t = Table(title=f"{summary.game}: {summary.games} games, {players} players, seed {seed}")
    t.add_column("measure")
    t.add_column("value", justify="right")
    t.add_row("mean events", f"{summary.mean_events:.1f}")
    t.add_row("mean turns", f"{summary.mean_turns:.1f}")
    t.add_row("mean deals", f"{summary.mean_deals:.2f}")
    for k, v in summary.mean_actions.items():
        t.add_row(f"mean '{k}' decisions", f"{v:.2f}")
    for k, v in summary.mean_chances.items():
        t.add_row(f"mean {k}s", f"{v:.2f}")
    for k, v in summary.flags.items():
        t.add_row(f"deals {k}", str(v))
    for k, m in summary.mean_result_per_deal.items():
        t.add_row(f"mean {k} per deal", f"{m:.2f}")
    out.print(t)
    s = Table(title=f"per seat ({summary.winner} total wins)")
    s.add_column("seat", justify="right")
    s.add_column("win rate", justify="right")
    s.add_column("mean total", justify="right")
    for k in summary.mean_result_totals:
        s.add_column(f"mean {k}", justify="right")
    for q in range(players):
        s.add_row(str(q), f"{summary.win_rate[q]:.3f}", f"{summary.mean_total[q]:.2f}",
                  *(f"{v[q]:.2f}" if q < len(v) else "" for v in
                    summary.mean_result_totals.values()))
    out.print(s)
    if summary.team_win_rate:
        tt = Table(title="per team")
        for col in ("team", "win rate", "mean total"):
            tt.add_column(col, justify="right")
        for i, (w, m) in enumerate(zip(summary.team_win_rate, summary.team_mean_total,
                                       strict=True)):
            tt.add_row(str(i), f"{w:.3f}", f"{m:.2f}")
        out.print(tt)
    if options:
        out.print("options: " + ", ".join(f"{k}={_show(v)}" for k, v in options.items()))
