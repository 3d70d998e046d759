"""The command line's progress on standard error: plain lines through a pipe (a heartbeat),
and a book's progress (a spinner, then a bar, on a terminal). Part of the command line, the
one place that writes to the terminal."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from rulespec.book.facts import shown_after
from rulespec.shown import escape_line as shown

__all__ = ["Heartbeat", "book_progress"]


class Heartbeat:
    """Progress as plain lines on a standard error that is not a terminal (a pipe, a CI log),
    where the progress bar is hidden: the first at once, then one each ``every`` seconds, so
    a long run through a pipe shows it is alive without flooding the log."""

    def __init__(self, on: bool, every: float = 10.0) -> None:
        self.on = on
        self.every = every
        self.last: float | None = None

    def __call__(self, text: str) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if self.last is None or now - self.last >= self.every:
            self.last = now
            click.echo(text, err=True)


@contextlib.contextmanager
def book_progress(title: str, after: float) -> Iterator[Callable[[int, int], None]]:
    """A book's progress on standard error: on a terminal a spinner, past ``after`` seconds a
    bar (nothing left behind); else a line, then the steps done, a line each 10 s."""
    what = f"working out the book of {title}: its tables, decisions and example deal"
    console = Console(stderr=True)
    tty, beat = console.is_terminal, Heartbeat(not console.is_terminal)
    # rich markup: the title is the spec's text, shown as text
    bar = Progress(escape(shown(f"the book of {title}")), BarColumn(), MofNCompleteColumn(),
                   "steps", TimeElapsedColumn(), console=console, transient=True, disable=not tty)
    task, status = bar.add_task("", start=False, visible=False), console.status(
        escape(shown(what)) + "...")

    def progress(done: int, total: int) -> None:
        if tty and not bar.live.is_started:
            status.stop()
            bar.start()
            bar.start_task(task)
        bar.update(task, completed=done, total=total, visible=True)
        beat(f"doc: {done}/{total} steps (tables worked out, deals played)")

    if tty:
        status.start()
    else:
        click.echo(f"doc: {what}...", err=True)
    try:
        yield shown_after(after, progress)
    finally:
        status.stop()
        bar.stop()
