"""The command line's shared options: parsing ``-o NAME=VALUE``, a number of seconds, and the
options ``verify`` and ``diff`` share. It prints nothing (only ``cli.py`` prints)."""

from __future__ import annotations

import errno
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from rulespec.files import read_bounded
from rulespec.shown import escape_line as shown

__all__ = ["MAX_SECONDS", "Seconds", "option_text", "options_of", "parse_option", "stale_pages",
           "verification_options"]

#: a click command function, before or after its options are added
_F = TypeVar("_F", bound=Callable[..., object])


def parse_option(text: str) -> tuple[str, bool | int | str]:
    """``NAME=VALUE`` as a name and a boolean, an integer or a text."""
    if "=" not in text:
        raise click.BadParameter(f"{text!r}: write NAME=VALUE", param_hint="--option")
    k, v = text.split("=", 1)
    k, v = k.strip(), v.strip()
    if v in ("true", "false"):
        return k, v == "true"
    # ASCII digits only: int() would also read "1_0" as 10 and a fullwidth "３" as 3
    if re.fullmatch(r"-?[0-9]{1,4000}", v):
        return k, int(v)
    return k, v


def options_of(items: tuple[str, ...]) -> dict[str, bool | int | str]:
    """Every ``-o NAME=VALUE`` given, as a dict."""
    return dict(parse_option(t) for t in items)


def option_text(value: object) -> str:
    """An option's value as ``-o NAME=VALUE`` writes it."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


MAX_SECONDS = 1_000_000.0


class Seconds(click.FloatRange):
    """A number of seconds: finite, within ``[min, MAX_SECONDS]``. ``inf`` and ``nan`` are
    floats to Python and pass a plain FloatRange (``nan`` compares false with every bound),
    then overflow a timer or wait for ever; here they are usage errors."""

    name = "seconds"

    def __init__(self, min: float) -> None:  # noqa: A002 - click's own name for it
        super().__init__(min=min, max=MAX_SECONDS)

    def convert(self, value: str | float, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        try:
            rv = float(value)
        except ValueError:
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(rv):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        return float(super().convert(rv, param, ctx))


def verification_options(f: _F) -> _F:
    """The options verify and diff share."""
    for opt in reversed([
        click.option("--players", "-p", type=click.IntRange(min=1), multiple=True,
                     help="Only these table sizes (repeatable); default: every size the spec "
                          "allows."),
        click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
                     help="Fix an option (repeatable); the others are varied."),
        click.option("--games", "-n", type=click.IntRange(min=1), default=None,
                     help="Matches in all, spread over the schedule in its order: one at "
                          "each setting, the rest shared out evenly, so -n 2 plays two "
                          "(default: each setting its share of a fixed amount of work, "
                          "sized so a correct in-process implementation takes about a "
                          "minute)."),
        click.option("--budget", type=Seconds(min=1), default=None,
                     metavar="SECONDS", help="Search for this long, then stop (checked "
                     "between settings, after the first match)."),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option("--keep-going", is_flag=True,
                     help="After a divergence, go on looking for different ones."),
        click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
                     help="Where to write the shrunk match as a record "
                          "[default: rulespec-divergence.json]."),
        click.option("--json", "as_json", is_flag=True, help="Print a JSON report."),
        click.option("--db", type=click.Path(file_okay=False), default=None,
                     help="Keep Hypothesis's example database here (off by default)."),
    ]):
        f = opt(f)
    return f


def stale_pages(pages: list[tuple[Path, str]]) -> list[str]:
    """doc --check: each page that is missing or differs from what it would be now, with why."""
    stale = []
    for path, want in pages:
        try:
            # bounded: --out may name /dev/zero; a file larger than twice the new book is
            # out of date whatever it holds
            old = read_bounded(path, 2 * len(want.encode()) + 1024, "book")
            why = "" if old.decode("utf-8", "replace") == want else "out of date"
        except FileNotFoundError:
            why = "missing"
        except OSError as e:
            why = "out of date" if e.errno == errno.EFBIG else str(e.strerror)
        if why:
            stale.append(f"{shown(str(path))}: {why}")
    return stale
