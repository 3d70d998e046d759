"""One self-contained HTML page for a run or a comparison: CSS inline, plots as inline SVG, no
script and no file beside it. Every text a spec supplies (its name, actions, options' values,
conditions) is escaped."""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

from rulespec.report.measures import Comparison, Difference, RunReport
from rulespec.report.plots import plot_svgs
from rulespec.report.stats import Interval

__all__ = ["comparison_page", "run_page"]

_CSS = """
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1em;max-width:60em;color:#222;
line-height:1.4}
h1{font-size:1.5em;overflow-wrap:anywhere}h2{font-size:1.15em;margin-top:1.6em}
.summary{background:#f4f6f8;border-left:4px solid #1f77b4;padding:.5em 1em}
.summary li{overflow-wrap:anywhere}
figure{margin:1em 0}svg.plot{display:block;width:100%;height:auto;max-width:44em}
#first svg.plot{max-width:26em}
.table{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:.9em}td,th{border-bottom:1px solid #ddd;
padding:.2em .6em;text-align:right;vertical-align:top}
th:first-child,td:first-child{text-align:left;overflow-wrap:anywhere;min-width:9em;
max-width:22em}
td+td{white-space:nowrap}.sig{font-weight:bold}.muted{color:#777}
"""


def _h(x: object) -> str:
    return escape(str(x), quote=True)


def _iv(i: Interval | None, pct: bool, digits: int = 2) -> str:
    if i is None:
        return '<span class="muted">folded away</span>'
    if not math.isfinite(i.low - i.high):  # one game: a mean has no interval
        return f"{i.estimate:.{digits}f}"
    if pct:
        return f"{100 * i.estimate:.1f}% ({100 * i.low:.1f}-{100 * i.high:.1f}%)"
    return f"{i.estimate:.{digits}f} ({i.low:.{digits}f} to {i.high:.{digits}f})"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table; ``head`` and the cells are HTML already (the callers escape)."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f'<div class="table"><table><thead><tr>{th}</tr></thead><tbody>{body}</tbody>' \
           "</table></div>"


def _page(title: str, summary: Sequence[str], sections: Sequence[str]) -> str:
    items = "".join(f"<li>{_h(s)}</li>" for s in summary)
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{_h(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{_h(title)}</h1><ul class=\"summary\">{items}</ul>"
            + "".join(sections) + "</body></html>\n")


def _tables(runs: Sequence[RunReport]) -> dict[str, str]:
    """Each plot's numbers as a table, one column per setting."""
    heads = ["", *(_h(r.label) for r in runs)]
    players = max(r.players for r in runs)
    wins = [[f"seat {q}", *(_iv(r.win[q], True) if q < r.players else "" for r in runs)]
            for q in range(players)]
    wins.append(["fair share", *(f"{100 * r.fair:.1f}%" for r in runs)])
    first = [["first mover", *(_iv(r.first, True) for r in runs)],
             ["games with a decision", *(str(r.first_games) for r in runs)]]
    lengths = [[f"{k} a game", *(_iv(r.lengths[k], False) for r in runs)]
               for k in ("events", "turns", "deals")]
    scores = [[f"seat {q} mean total", *(_iv(r.total[q], False) if q < r.players else ""
                                           for r in runs)] for q in range(players)]
    names = sorted({k for r in runs for k in r.decisions})
    decisions = [[_h(k), *(_iv(r.decisions.get(k), False) for r in runs)] for k in names]
    clauses = [[_h(c.label), *(_iv(r.clauses[i][1], True) if i < len(r.clauses) else ""
                               for r in runs)] for i, (c, _) in enumerate(runs[0].clauses)]
    return {"wins": _table(heads, wins), "first": _table(heads, first),
            "lengths": _table(heads, lengths), "scores": _table(heads, scores),
            "decisions": _table(heads, decisions) if decisions else "<p>No decisions.</p>",
            "clauses": _table(heads, clauses) if clauses else
            "<p>No condition of this game reads an option.</p>"}


def _sections(runs: Sequence[RunReport]) -> list[str]:
    tables = _tables(runs)
    return [f'<section id="{key}"><h2>{_h(title)}</h2><figure>{svg}</figure>{tables[key]}'
            "</section>" for key, title, svg in plot_svgs(runs)]


def _about(runs: Sequence[RunReport]) -> str:
    r = runs[0]
    return (f"<p>{r.games} random games each, {r.players} players, seed {r.seed}. Intervals "
            "are 95%: Wilson's for a share, Student's t for a mean. A seat's fair share is "
            "the mean number of winners a game has over the number of seats (ties and teams "
            "share wins).</p>")


def run_page(run: RunReport) -> str:
    """The report of one setting, as an HTML page."""
    title = f"{run.title}: {run.label}"
    return _page(title, run.sentences(), [_about([run]), *_sections([run])])


def _diff(d: Difference) -> str:
    e = d.diff
    if d.percent:
        text = f"{100 * e.estimate:+.1f} pts ({100 * e.low:+.1f} to {100 * e.high:+.1f})"
    else:
        text = f"{e.estimate:+.2f} ({e.low:+.2f} to {e.high:+.2f})"
    return f'<span class="sig">{text} *</span>' if d.significant else text


def comparison_page(comparison: Comparison) -> str:
    """The side-by-side report of two or more settings, as an HTML page."""
    runs = comparison.runs
    title = f"{runs[0].title}: " + " vs ".join(r.label for r in runs)
    many = len(runs) > 2  # with two settings, the columns name both
    rows = [[_h(d.measure), *((_h(d.setting),) if many else ()),
             f"{100 * d.first:.1f}%" if d.percent else f"{d.first:.2f}",
             f"{100 * d.other:.1f}%" if d.percent else f"{d.other:.2f}", _diff(d)]
            for d in comparison.differences()]
    head = ["measure", *(("setting",) if many else ()), _h(runs[0].label),
            "setting's value" if many else _h(runs[1].label), "difference"]
    diffs = ('<section id="differences"><h2>Differences from '
             f"{_h(runs[0].label)} (95% intervals; * significant)</h2>"
             + _table(head, rows) + "</section>")
    caution = ("<p>Each difference is tested alone: among many measures that do not change, "
               "about one in twenty is marked significant by chance. Play more games, or "
               "another seed, to confirm a difference before acting on it.</p>")
    return _page(title, comparison.sentences(),
                 [_about(runs), caution, diffs, *_sections(runs)])
