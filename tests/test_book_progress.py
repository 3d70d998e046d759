"""How far a book's work is (rulespec.book.facts' ``progress``), and how ``rulespec doc`` shows
it: nothing more for a quick book, past DOC_PROGRESS_AFTER seconds a bar on a terminal and
plain lines through a pipe. The CLI runs in child processes, with the threshold set there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from rulespec.book import build_book
from rulespec.book.facts import DEFAULT_DEALS, EXAMPLE_TRIES, book_facts
from rulespec.lang.checker import check_file

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tests" / "specs" / "ok" / "book_tables.rules"
#: a fake terminal for rich (https://force-color.org/ and rich's own TTY_* variables)
TERMINAL = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "NO_COLOR": "1", "COLUMNS": "100"}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def test_the_work_tells_its_steps_and_ends_with_all_done() -> None:
    spec = check_file(TABLES)  # a spec of its own: nothing worked out for it yet
    calls: list[tuple[int, int]] = []
    build_book(spec, progress=lambda done, total: calls.append((done, total)))
    sizes = spec.max_players - spec.min_players + 1
    openers = 1 + sum(1 for o in spec.options if o.kind == "bool" and o.default is False)
    total = sizes * (openers + DEFAULT_DEALS) + EXAMPLE_TRIES
    assert {t for _, t in calls} == {total}
    done = [d for d, _ in calls]
    assert done == sorted(done) and done[0] == 1 and done[-1] == total
    assert len(calls) > EXAMPLE_TRIES  # a step per table, per example candidate, per deal
    # the same book again in this process: its facts are kept, and all done at once
    again: list[tuple[int, int]] = []
    assert book_facts(spec, progress=lambda d, t: again.append((d, t))) is \
        book_facts(spec)
    assert again == [(1, 1)]


def _doc(after: float, env: dict[str, str], tmp: Path) -> str:
    """Standard error of ``rulespec doc`` of a small spec (book_tables.rules, titled G) in a
    child process whose progress is shown past ``after`` seconds."""
    code = (f"from rulespec import cli; cli.DOC_PROGRESS_AFTER = {after}; "
            f"cli.main(['doc', {str(TABLES)!r}, '--out', {str(tmp / 'g.md')!r}])")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, **env}, timeout=120)
    assert res.returncode == 0, res.stderr
    return res.stderr


def test_doc_shows_a_bar_on_a_terminal_past_the_threshold(tmp_path: Path) -> None:
    err = ANSI.sub("", _doc(0.0, TERMINAL, tmp_path)).replace("\r", "\n")
    counts = [(int(d), int(t)) for d, t in re.findall(r"(\d+)/(\d+) steps", err)]
    assert counts, err
    total = counts[-1][1]
    assert counts[-1] == (total, total) and total > EXAMPLE_TRIES
    assert [d for d, _ in counts] == sorted(d for d, _ in counts)
    assert "the book of G ━" in err
    # not before: a quick book shows the spinner only
    quick = ANSI.sub("", _doc(60.0, TERMINAL, tmp_path))
    assert "working out the book of" in quick and "steps" not in quick


def test_doc_through_a_pipe_says_its_steps_in_plain_lines(tmp_path: Path) -> None:
    lines = _doc(0.0, {}, tmp_path).splitlines()
    assert lines[0] == "doc: working out the book of G: its tables, decisions and example " \
        "deal...", lines
    step = re.fullmatch(r"doc: (\d+)/(\d+) steps \(tables worked out, deals played\)", lines[1])
    assert step is not None and 1 <= int(step[1]) <= int(step[2]), lines
    assert not ANSI.search("".join(lines))
    assert _doc(60.0, {}, tmp_path).splitlines() == lines[:1]
