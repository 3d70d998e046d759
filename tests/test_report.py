"""Simulation reports (rulespec/report, rulespec/columns.py, ``simulate --report/--compare``):
the intervals against published figures, the per-game columns against the records of the same
games, the HTML page in Chromium at a desk's and a phone's width, a spec's text escaped, and
``--compare`` end to end from another folder."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rulespec.columns import GameColumns, NumberColumn
from rulespec.loading import resolve
from rulespec.report import (
    Comparison,
    RunReport,
    comparison_page,
    mean_difference,
    mean_interval,
    option_clauses,
    proportion_difference,
    run_page,
    wilson,
)
from rulespec.report.plots import PLOTS
from rulespec.report.stats import t_quantile
from rulespec.simulate import GameStats, simulate
from tests.test_bookhtml import CHROMIUM, CHROMIUM_ARGS

if TYPE_CHECKING:
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parent.parent


# ---- statistics ------------------------------------------------------------------------------
@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics
    # in Medicine 17:857-872, Table I, method 3 (the Wilson score interval without correction)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
    (29, 29, 0.8830, 1.0),
])
def test_wilson_interval_matches_newcombe(k: int, n: int, low: float, high: float) -> None:
    iv = wilson(k, n)
    assert iv.estimate == pytest.approx(k / n)
    assert (round(iv.low, 4), round(iv.high, 4)) == (low, high)


def test_difference_of_proportions_matches_newcombe() -> None:
    # Newcombe (1998), "Interval estimation for the difference between independent
    # proportions", Statistics in Medicine 17:873-890, example (a) 56/70 - 48/80, method 10
    d = proportion_difference(48, 80, 56, 70)
    assert d.estimate == pytest.approx(0.2)
    assert (round(d.low, 4), round(d.high, 4)) == (0.0524, 0.3339)
    assert d.excludes(0.0)
    assert not proportion_difference(10, 30, 12, 30).excludes(0.0)


def test_t_quantiles_match_the_tables() -> None:
    for df, want in ((1, 12.7062), (2, 4.3027), (4, 2.7764), (10, 2.2281), (30, 2.0423),
                     (120, 1.9799)):
        assert t_quantile(df) == pytest.approx(want, abs=1e-3), df


def test_mean_interval_and_welch() -> None:
    # mean 5, s^2 = 32/7, n = 8: 5 -+ t(7) s / sqrt(8) = 5 -+ 2.3646 * 0.75593
    iv = mean_interval([2, 4, 4, 4, 5, 5, 7, 9])
    assert (round(iv.low, 3), round(iv.high, 3)) == (3.213, 6.787)
    # Welch: m1 2.5 (v 5/3, n 4), m2 6 (v 10, n 5); se^2 = 5/12 + 2, df = 5.52
    d = mean_difference([1, 2, 3, 4], [2, 4, 6, 8, 10])
    se = math.sqrt(5 / 12 + 2)
    assert d.estimate == pytest.approx(3.5)
    assert t_quantile(6) * se < d.high - d.estimate < t_quantile(5) * se
    assert not d.excludes(0.0)
    assert mean_difference([1, 2, 3, 4] * 10, [11, 12, 13, 14] * 10).excludes(0.0)


# ---- the per-game columns ------------------------------------------------------------------
def test_a_column_outgrows_64_bits() -> None:
    col = NumberColumn([1, -2])
    col.append(2 ** 100)
    assert col.tolist() == [1, -2, 2 ** 100]


def test_columns_pad_a_decision_first_taken_later() -> None:
    cols = GameColumns(2)
    for acts, winners in (({"play": 3}, (0,)), ({"play": 1, "pass": 2}, (0, 1))):
        cols.add(GameStats(5, 4, 3, acts, {}, 1, (1, 2), winners, {}, None, first=1,
                           clauses=frozenset({"c"})))
    assert cols.actions["pass"].tolist() == [0, 2]
    assert cols.winner_counts() == [2, 1] and cols.winners_per_game() == 1.5
    assert cols.clause_games["c"] == 2 and cols.first.tolist() == [1, 1]


def test_per_game_changes_no_number_and_agrees_with_the_records(tmp_path: Path) -> None:
    plain = simulate("whist", None, 12, seed=3)
    kept = simulate("whist", None, 12, seed=3, per_game=True, records=tmp_path)
    assert plain.per_game is None and plain.to_json() == kept.to_json()
    cols = kept.per_game
    assert cols is not None and len(cols) == 12
    for i in range(12):
        events = json.loads((tmp_path / f"game-{i:06d}.json").read_text())["events"]
        decisions = [e for e in events if "seat" in e and "action" in e]
        assert cols.first[i] == decisions[0]["seat"]
        assert cols.events[i] == len(events)
        assert cols.actions["play"][i] == len(decisions)
    assert sum(cols.events.tolist()) / 12 == pytest.approx(kept.mean_events)


def test_per_game_columns_do_not_depend_on_the_workers() -> None:
    one = simulate("whist", None, 6, seed=4, per_game=True)
    two = simulate("whist", None, 6, seed=4, per_game=True, workers=2)
    a, b = one.per_game, two.per_game
    assert a is not None and b is not None
    assert [a.first.tolist(), a.events.tolist(), a.totals[1].tolist(), a.winners.tolist()] == \
        [b.first.tolist(), b.events.tolist(), b.totals[1].tolist(), b.winners.tolist()]
    assert a.clause_games == b.clause_games and a.compiled == b.compiled


def test_option_clauses_are_the_arms_an_option_decides() -> None:
    spec = resolve("whist").spec
    found = option_clauses(spec)
    assert found and all(c.arm in ("then", "else") for c in found)
    conds = {c.condition for c in found}
    assert any("honours" in c for c in conds), conds
    run = RunReport.of(simulate("whist", None, 10, seed=1, per_game=True), spec)
    shares = dict((c.id, s) for c, s in run.clauses)
    assert set(shares) == {c.id for c in found}
    assert any(s is not None and 0 < s.estimate for s in shares.values())


# ---- the page --------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tab() -> Iterator[Page]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = b.new_page(viewport={"width": 1280, "height": 900})
            yield page
        finally:
            b.close()


_CHECK_JS = """() => {
  const doc = document.documentElement;
  return {
    wide: doc.scrollWidth > doc.clientWidth ? `${doc.scrollWidth} in ${doc.clientWidth}` : '',
    plots: [...document.querySelectorAll('svg.plot')].map(s => {
      const r = s.getBoundingClientRect();
      return [s.id, Math.round(r.width), Math.round(r.height), s.querySelectorAll('path').length];
    }),
    scripts: document.querySelectorAll('script, link, img, iframe, [src]').length,
    h1: document.querySelector('h1').textContent,
    bold: document.querySelectorAll('h1 *, li *').length,
  };
}"""


def _open(tab: Page, path: Path) -> list[dict[str, object]]:
    tab.goto(path.as_uri(), wait_until="load")
    out = []
    for width in (1280, 390):
        tab.set_viewport_size({"width": width, "height": 900})
        out.append(tab.evaluate(_CHECK_JS))
    return out


def test_report_page_fits_and_shows_every_plot(tab: Page, tmp_path: Path) -> None:
    spec = resolve("whist").spec
    run = RunReport.of(simulate("whist", None, 30, seed=2, per_game=True), spec)
    page = tmp_path / "whist.html"
    page.write_text(run_page(run), encoding="utf-8")
    for seen in _open(tab, page):
        assert seen["wide"] == "", seen["wide"]
        assert seen["scripts"] == 0
        plots = seen["plots"]
        assert isinstance(plots, list)
        assert [p[0] for p in plots] == [f"plot-{k}" for k, _, _ in PLOTS]
        for _, w, h, paths in plots:
            assert w > 200 and h > 100 and paths > 5
    assert "Seat 0 wins" in page.read_text()


def test_a_spec_string_with_html_is_shown_as_text(tab: Page, tmp_path: Path) -> None:
    evil = "<b>Bold</b> & <script>alert(1)</script>"
    src = (ROOT / "tests/specs/ok/compared_option.rules").read_text()
    spec_path = tmp_path / "evil.rules"
    spec_path.write_text(src.replace('title "Compared option"', f'title "{evil}"'))
    spec = resolve(str(spec_path)).spec
    runs = tuple(RunReport.of(simulate(str(spec_path), None, 8, options={"bonus": b},
                                       per_game=True), spec, f"bonus={b}") for b in (20, -5))
    page = tmp_path / "evil.html"
    page.write_text(comparison_page(Comparison(runs)), encoding="utf-8")
    assert evil not in page.read_text() and "&lt;b&gt;Bold&lt;/b&gt; &amp;" in page.read_text()
    seen = _open(tab, page)[0]
    assert seen["h1"] == f"{evil}: bonus=20 vs bonus=-5"
    assert seen["bold"] == 0 and seen["scripts"] == 0


# ---- the command line ----------------------------------------------------------------------
def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(cwd),
           "COLUMNS": "160"}
    return subprocess.run([sys.executable, "-m", "rulespec", "simulate", *args], cwd=cwd,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


def test_compare_end_to_end_from_another_folder(tmp_path: Path) -> None:
    res = _cli("whist", "-n", "12", "--compare", "-o", "honours=true", "-o", "honours=false",
               "-o", "target=3", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "honours=true" in res.stdout and "honours=false" in res.stdout
    assert "seat 0 win rate" in res.stdout
    page = tmp_path / "whist-compare.html"
    assert page.is_file() and "report written to whist-compare.html" in res.stderr
    text = page.read_text()
    assert "honours=true vs honours=false" in text and text.count('<svg class="plot"') == 6


def test_compare_json_is_the_comparisons_data(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from rulespec.cli import main

    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["simulate", "whist", "-n", "8", "--compare", "-o",
                                    "honours=true", "-o", "honours=false", "--json",
                                    "--report", "out.html"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert [s["setting"] for s in data["settings"]] == ["honours=true", "honours=false"]
    assert data["settings"][1]["options"]["honours"] is False
    assert data["differences"] and data["summary"] and (tmp_path / "out.html").is_file()


@pytest.mark.parametrize(("args", "says"), [
    (["--compare"], "give it once per value"),
    (["--compare", "-o", "honours=true", "-o", "honours=false", "-o", "target=3",
      "-o", "target=4"], "honours, target are each given more than once"),
    (["--compare", "-o", "honours=true", "-o", "honours=true"], "same value twice"),
    (["--bot", "nobody"], "nobody"),
])
def test_usage_errors(args: list[str], says: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulespec.cli import main

    res = CliRunner().invoke(main, ["simulate", "whist", "-n", "1", *args])
    assert res.exit_code == 2, res.output
    assert says in res.output


def test_one_game_reports_no_unbounded_interval() -> None:
    run = RunReport.of(simulate("whist", None, 1, seed=1, per_game=True), resolve("whist").spec)
    text = re.sub(r"<svg.*?</svg>", "", run_page(run), flags=re.DOTALL)
    assert "inf" not in " ".join(run.sentences()) and "inf" not in text


def test_report_json_is_the_reports_data(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulespec.cli import main

    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["simulate", "whist", "-n", "6", "--report", str(out),
                                    "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["games"] == 6 and len(data["seats"]) == 4 and data["summary"]
    assert out.read_text().startswith("<!DOCTYPE html>")
