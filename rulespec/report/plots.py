"""The report's plots, drawn by matplotlib (figures made without pyplot, so no display and no
backend of the process is touched) and written as inline SVG. Text is drawn as paths and never
read as mathtext, so a spec's names reach the page as shapes, never as markup."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulespec.report.measures import RunReport
from rulespec.report.stats import Interval

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["PLOTS", "plot_svgs"]

#: the settings' colours (matplotlib's default cycle, repeated past ten settings)
_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
            "#7f7f7f", "#bcbd22", "#17becf")
_RC: dict[Any, Any] = {"text.parse_math": False, "svg.fonttype": "path", "font.size": 9,
       "axes.spines.top": False, "axes.spines.right": False}


def _colour(i: int) -> str:
    return _COLOURS[i % len(_COLOURS)]


def _errs(ivs: Sequence[Interval]) -> list[list[float]]:
    """matplotlib's error bar lengths (below, above) for intervals (0 where unbounded)."""
    def ok(x: float) -> float:
        return max(0.0, x) if x == x and abs(x) != float("inf") else 0.0
    return [[ok(i.estimate - i.low) for i in ivs], [ok(i.high - i.estimate) for i in ivs]]


def _bars(ax: Axes, runs: Sequence[RunReport], names: Sequence[str],
          values: Callable[[RunReport, int], Interval | None], horizontal: bool) -> None:
    """Grouped bars, one group per name, one bar per setting, with interval whiskers."""
    width = 0.8 / len(runs)
    for r, run in enumerate(runs):
        ivs = [values(run, k) or Interval(0, 0, 0) for k in range(len(names))]
        pos = [k - 0.4 + width * (r + 0.5) for k in range(len(names))]
        est = [i.estimate for i in ivs]
        if horizontal:
            ax.barh(pos, est, height=width, xerr=_errs(ivs), color=_colour(r), capsize=2,
                    label=run.label)
        else:
            ax.bar(pos, est, width=width, yerr=_errs(ivs), color=_colour(r), capsize=2,
                   label=run.label)
    ticks = list(range(len(names)))
    if horizontal:
        ax.set_yticks(ticks, list(names))
        ax.invert_yaxis()
    else:
        ax.set_xticks(ticks, list(names))


def _lengths(fig: Figure, runs: Sequence[RunReport]) -> None:
    ax = fig.subplots()
    data = [run.columns.column("events") for run in runs]
    lo, hi = min(min(d) for d in data), max(max(d) for d in data)
    bins = min(40, max(1, hi - lo + 1))
    for r, (run, d) in enumerate(zip(runs, data, strict=True)):
        ax.hist(d, bins=bins, range=(lo, hi + 1), histtype="step" if len(runs) > 1 else "bar",
                color=_colour(r), label=run.label, linewidth=1.5)
    ax.set_xlabel("events a game")
    ax.set_ylabel("games")


def _scores(fig: Figure, runs: Sequence[RunReport]) -> None:
    ax = fig.subplots()
    players = max(run.players for run in runs)
    width = 0.8 / len(runs)
    for r, run in enumerate(runs):
        pos = [q - 0.4 + width * (r + 0.5) for q in range(run.players)]
        box = ax.boxplot([[float(x) for x in t.tolist()] for t in run.columns.totals],
                         positions=pos, widths=width * 0.9, patch_artist=True,
                         flierprops={"markersize": 2})
        for patch in box["boxes"]:
            patch.set_facecolor(_colour(r))
            patch.set_alpha(0.6)
    ax.set_xticks(range(players), [str(q) for q in range(players)])
    ax.set_xlabel("seat")
    ax.set_ylabel("match total")
    if len(runs) > 1:
        from matplotlib.patches import Patch

        ax.legend(handles=[Patch(color=_colour(r), alpha=0.6, label=run.label)
                           for r, run in enumerate(runs)], fontsize=7)


def _wins(fig: Figure, runs: Sequence[RunReport]) -> None:
    ax = fig.subplots()
    players = max(run.players for run in runs)
    _bars(ax, runs, [str(q) for q in range(players)],
          lambda run, q: run.win[q] if q < run.players else None, horizontal=False)
    ax.axhline(runs[0].fair, color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_xlabel("seat")
    ax.set_ylabel("share of games won")


def _decisions(fig: Figure, runs: Sequence[RunReport]) -> None:
    names = sorted({k for run in runs for k in run.decisions})
    ax = fig.subplots()
    if not names:
        ax.text(0.5, 0.5, "no decisions", ha="center", transform=ax.transAxes)
        return
    _bars(ax, runs, names, lambda run, k: run.decisions.get(names[k]), horizontal=True)
    ax.set_xlabel("times taken a game (mean)")


def _clauses(fig: Figure, runs: Sequence[RunReport]) -> None:
    clauses = [c for c, _ in runs[0].clauses]
    ax = fig.subplots()
    if not clauses:
        ax.text(0.5, 0.5, "no clause reads an option", ha="center", transform=ax.transAxes)
        return
    _bars(ax, runs, [c.short for c in clauses], lambda run, k: run.clauses[k][1]
          if k < len(run.clauses) else None, horizontal=True)
    ax.set_xlim(0, 1.05)
    ax.set_xlabel("share of games that entered it")


def _first(fig: Figure, runs: Sequence[RunReport]) -> None:
    ax = fig.subplots()
    _bars(ax, runs, ["first mover"], lambda run, _: run.first, horizontal=False)
    ax.axhline(runs[0].fair, color="black", linestyle="--", linewidth=1, label="fair share")
    ax.set_ylabel("share of games won")
    ax.set_xlim(-0.6, 0.6)


#: id, title and drawing of each plot, in the page's order
PLOTS: tuple[tuple[str, str, Callable[[Figure, Sequence[RunReport]], None]], ...] = (
    ("wins", "Win rate per seat (95% intervals)", _wins),
    ("first", "First-player advantage (95% interval)", _first),
    ("lengths", "Game length", _lengths),
    ("scores", "Score distribution per seat", _scores),
    ("decisions", "Decision frequencies (95% intervals)", _decisions),
    ("clauses", "Option-guarded clauses: games that entered them (95% intervals)", _clauses),
)


def _height(key: str, runs: Sequence[RunReport]) -> float:
    """A plot's height in inches: the horizontal bar charts grow with their rows."""
    rows = len({k for r in runs for k in r.decisions}) if key == "decisions" else \
        len(runs[0].clauses) if key == "clauses" else 0
    return max(3.0, 0.8 + rows * (0.25 + 0.1 * len(runs))) if rows else 3.2


def plot_svgs(runs: Sequence[RunReport]) -> list[tuple[str, str, str]]:
    """Each plot of :data:`PLOTS` as (id, title, SVG text) for the settings ``runs``."""
    # matplotlib is imported when a report is drawn, not when the command line starts; figures
    # made without pyplot touch no global backend or figure registry of the user's process
    import matplotlib
    from matplotlib.figure import Figure

    out = []
    with matplotlib.rc_context(_RC):
        for i, (key, title, draw) in enumerate(PLOTS):
            wide = 7.5 if key in ("decisions", "clauses") else 3.6 if key == "first" else 6.4
            fig = Figure(figsize=(wide, _height(key, runs)))
            draw(fig, runs)
            if len(runs) > 1 or key in ("wins", "first"):
                for ax in fig.axes:
                    if ax.get_legend() is None and ax.get_legend_handles_labels()[0]:
                        ax.legend(fontsize=7, loc="best")
            fig.tight_layout()
            buf = io.StringIO()
            # the ids of one plot's clip paths differ from another's on the same page
            with matplotlib.rc_context({"svg.hashsalt": f"rulespec-{key}-{i}"}):
                fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
            out.append((key, title, _inline(buf.getvalue(), key)))
    return out


def _inline(svg: str, key: str) -> str:
    """matplotlib's SVG file as an element of a page: no XML prologue or doctype, scaled to
    its box by CSS, labelled for a screen reader."""
    start = svg.index("<svg")
    svg = svg[start:]
    svg = re.sub(r'\s(width|height)="[^"]*"', "", svg[:svg.index(">")], count=2) + \
        svg[svg.index(">"):]
    return svg.replace("<svg", f'<svg class="plot" id="plot-{key}" role="img"', 1)
