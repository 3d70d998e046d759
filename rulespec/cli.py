"""The ``rulespec`` command line: check, simulate, replay, verify, doc, serve.

The only module that prints. Exit codes (jlox, resolutions.md H7): 0 ok, 1 bad record or a
divergence found, 2 usage, 65 spec error, 70 runtime error.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from rulespec.errors import (
    RecordError,
    RuleRuntimeError,
    RulespecError,
    SpecCheckError,
    SpecSyntaxError,
)

EXIT_OK, EXIT_RECORD, EXIT_USAGE, EXIT_SPEC, EXIT_RUNTIME = 0, 1, 2, 65, 70


def _err(text: str) -> None:
    click.echo(text, err=True)


def _spec_error(e: SpecSyntaxError | SpecCheckError) -> None:
    _err(e.render())
    n = len(e.diagnostics)
    _err(f"{n} error{'s' if n != 1 else ''}")


def _runtime_error(e: RuleRuntimeError) -> None:
    src = None
    if e.span is not None:
        try:
            src = Path(e.span.source).read_text(encoding="utf-8")
        except OSError:
            src = None
    _err(e.render(src))


@contextlib.contextmanager
def _reported(other_errors: int = EXIT_USAGE) -> Iterator[None]:
    """Turn library errors into diagnostics and exit codes: 65 spec, 70 runtime, else
    ``other_errors`` (usage errors of the command, by default)."""
    try:
        yield
    except (SpecSyntaxError, SpecCheckError) as e:
        _spec_error(e)
        sys.exit(EXIT_SPEC)
    except RuleRuntimeError as e:
        _runtime_error(e)
        sys.exit(EXIT_RUNTIME)
    except RulespecError as e:
        _err(f"error: {e}")
        sys.exit(other_errors)


def _parse_option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise click.BadParameter(f"{text!r}: write NAME=VALUE", param_hint="--option")
    k, v = text.split("=", 1)
    k, v = k.strip(), v.strip()
    if v in ("true", "false"):
        return k, v == "true"
    try:
        return k, int(v)
    except ValueError:
        return k, v


def _options(items: tuple[str, ...]) -> dict[str, Any]:
    return dict(_parse_option(t) for t in items)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulespec")
def main() -> None:
    """Card games written once, precisely: check, play, verify and document them."""


# ---- check ---------------------------------------------------------------------------------
@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def check(files: tuple[str, ...]) -> None:
    """Parse and statically check .rules FILES (or shipped game names)."""
    from rulespec.checker import check_file
    from rulespec.records import resolve_game

    status = EXIT_OK
    for f in files:
        try:
            path = Path(f) if Path(f).exists() else resolve_game(f)
            spec = check_file(path)
        except (SpecSyntaxError, SpecCheckError) as e:
            _spec_error(e)
            status = EXIT_SPEC
            continue
        except (RecordError, OSError) as e:
            _err(f"error: {e}")
            sys.exit(EXIT_USAGE)
        phases = ["match", "deal"] + [p.name for p in spec.procs]
        click.echo(f"{path}: ok: {spec.title} ({spec.name}), {spec.min_players}-"
                   f"{spec.max_players} players, {spec.winner} total wins")
        click.echo(f"  phases ({len(phases)}): {', '.join(phases)}")
        acts = spec.action_names()
        click.echo(f"  decisions ({len(acts)}): {', '.join(acts)}")
        click.echo(f"  options ({len(spec.options)}): "
                   + ", ".join(f"{o.name}={_show(o.default)}" for o in spec.options))
    sys.exit(status)


def _show(v: Any) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


# ---- simulate ------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--games", "-n", type=int, default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A named option (house rule); repeatable.")
@click.option("--dealer", type=int, default=0, show_default=True)
@click.option("--records", type=click.Path(file_okay=False), default=None,
              help="Write every game as a record in this folder.")
@click.option("--workers", type=int, default=1, show_default=True,
              help="Local processes to play in.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="'ray' spreads games over a Ray cluster.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def simulate(game: str, players: int, games: int, seed: int, opts: tuple[str, ...],
             dealer: int, records: str | None, workers: int, backend: str,
             as_json: bool) -> None:
    """Play GAMES random games of GAME and summarise them."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.table import Table

    from rulespec.simulate import simulate as run

    options = _options(opts)
    console = Console(stderr=True)
    with _reported(), Progress("[progress.description]{task.description}", BarColumn(),
                               MofNCompleteColumn(), TimeRemainingColumn(), console=console,
                               disable=as_json or not console.is_terminal,
                               transient=True) as prog:
        task = prog.add_task(f"{game}, {players} players", total=games)
        summary = run(game, players, games, seed, options, dealer, records, workers, backend,
                      progress=lambda k: prog.advance(task, k))
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
        return
    out = Console()
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
    out.print(t)
    s = Table(title=f"per seat ({summary.winner} total wins)")
    s.add_column("seat", justify="right")
    s.add_column("win rate", justify="right")
    s.add_column("mean total", justify="right")
    for q in range(players):
        s.add_row(str(q), f"{summary.win_rate[q]:.3f}", f"{summary.mean_total[q]:.2f}")
    out.print(s)
    if options:
        out.print("options: " + ", ".join(f"{k}={_show(v)}" for k, v in options.items()))


# ---- replay --------------------------------------------------------------------------------
@main.command()
@click.argument("record", type=click.Path())
def replay(record: str) -> None:
    """Apply a game RECORD and print the result (records.md)."""
    from rulespec.records import replay as run

    path = Path(record)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _err(f"error: no such file: {record}")
        sys.exit(EXIT_USAGE)
    except (OSError, UnicodeDecodeError) as e:
        _err(f"error: cannot read {record}: {e}")
        sys.exit(EXIT_USAGE)
    except json.JSONDecodeError as e:
        click.echo(json.dumps({"ok": False, "event": None, "error": f"not JSON: {e}",
                               "legal": []}))
        sys.exit(EXIT_RECORD)
    with _reported():
        code, answer = run(data, path.parent)
    click.echo(json.dumps(answer, ensure_ascii=False))
    sys.exit(code)


# ---- verify --------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--impl", "impl_cmd", default=None,
              help="Command line of an implementation speaking the JSON protocol.")
@click.option("--python", "impl_py", default=None, metavar="MODULE:CLASS",
              help="A Python class implementing the protocol.")
@click.option("--players", "-p", type=int, multiple=True, required=True)
@click.option("--games", "-n", type=int, default=50, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the minimal diverging record here.")
def verify(game: str, impl_cmd: str | None, impl_py: str | None, players: tuple[int, ...],
           games: int, seed: int, opts: tuple[str, ...], out_path: str | None) -> None:
    """Drive an implementation of GAME beside the spec and report the first divergence."""
    import shlex

    from rich.console import Console
    from rich.progress import Progress

    from rulespec.verify import load_python_impl
    from rulespec.verify import verify as run

    if (impl_cmd is None) == (impl_py is None):
        _err("error: give exactly one of --impl or --python")
        sys.exit(EXIT_USAGE)
    options = _options(opts)
    with _reported():
        if impl_py is not None:
            factory = load_python_impl(impl_py)
        else:
            from rulespec.protocol import ProcessImplementation

            argv = shlex.split(impl_cmd or "")
            factory = lambda: ProcessImplementation(argv)  # noqa: E731
        console = Console(stderr=True)
        with Progress(console=console, transient=True, disable=not console.is_terminal) as prog:
            task = prog.add_task("verifying", total=games * len(players))
            report = run(game, factory, list(players), games, seed, options,
                         progress=lambda: prog.advance(task))
    if report.divergence is None:
        click.echo(f"ok: {report.games} games, {report.events} events, no divergence")
        return
    d = report.divergence
    click.echo(f"divergence at event {d.index}: {d.what}")
    click.echo(f"  spec:           {json.dumps(d.expected, ensure_ascii=False)[:2000]}")
    click.echo(f"  implementation: {json.dumps(d.got, ensure_ascii=False)[:2000]}")
    click.echo(f"  minimal record: {len(d.record['events'])} events")
    if out_path:
        Path(out_path).write_text(json.dumps(d.record, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
        click.echo(f"  written to {out_path}")
    sys.exit(EXIT_RECORD)


# ---- doc -----------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None)
def doc(game: str, out_path: str | None) -> None:
    """Write the rulebook of GAME (a shipped name or a .rules file) as Markdown."""
    from rulespec.checker import check_file
    from rulespec.docgen import rulebook
    from rulespec.records import resolve_game

    with _reported():
        path = Path(game) if Path(game).exists() else resolve_game(game)
        text = rulebook(check_file(path))
    if out_path:
        Path(out_path).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


# ---- serve ---------------------------------------------------------------------------------
@main.command()
def serve() -> None:
    """Answer the JSON-lines implementation protocol on standard input/output."""
    from rulespec.protocol import serve as run

    run(sys.stdin, sys.stdout, Path.cwd())


def run() -> None:
    """Entry point: an unexpected failure is reported in one line, not as a traceback."""
    import os

    try:
        main(standalone_mode=True)
    except SystemExit:
        raise
    except Exception as e:  # noqa: BLE001 - the last line of defence of the command line
        if os.environ.get("RULESPEC_DEBUG"):
            raise
        _err(f"internal error: {type(e).__name__}: {e}")
        _err("  hint: this is a bug in rulespec; RULESPEC_DEBUG=1 shows the traceback")
        sys.exit(EXIT_RUNTIME)


if __name__ == "__main__":  # pragma: no cover
    run()
