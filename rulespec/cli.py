"""The ``rulespec`` command line: check, simulate, replay, verify, diff, same-deal, doc, serve.

The only module that prints. Exit codes (jlox, resolutions.md H7): 0 ok, 1 bad record or a
divergence found, 2 usage, 65 spec error, 70 runtime error.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from rulespec.cli_options import Seconds as _Seconds
from rulespec.cli_options import option_text as _option_text
from rulespec.cli_options import options_of as _options
from rulespec.cli_options import verification_options as _verification_options
from rulespec.errors import (
    RecordError,
    RuleRuntimeError,
    RulespecError,
    SpecCheckError,
    SpecSyntaxError,
)
from rulespec.shown import escape_line as shown

if TYPE_CHECKING:
    from rulespec.book.document import Book
    from rulespec.loading import Resolved
    from rulespec.protocol import Implementation
    from rulespec.verify.report import Report
    from rulespec.verify.runner import Verifier

EXIT_OK, EXIT_RECORD, EXIT_USAGE, EXIT_SPEC, EXIT_RUNTIME = 0, 1, 2, 65, 70
EXIT_INTERRUPTED = 130  # the shell's code for a run stopped by Ctrl-C (128 + SIGINT)



def _err(text: str) -> None:
    click.echo(text, err=True)


def _spec_error(e: SpecSyntaxError | SpecCheckError) -> None:
    _err(e.render())
    n = len(e.diagnostics)
    _err(f"{n} error{'s' if n != 1 else ''}")


def _runtime_error(e: RuleRuntimeError) -> None:
    from rulespec.files import read_bounded
    from rulespec.lang.sources import MAX_SPEC_BYTES

    src = None
    if e.span is not None:
        try:
            src = read_bounded(e.span.source, MAX_SPEC_BYTES, "spec").decode("utf-8", "replace")
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


#: how long serve waits for a request before it stops, by default (seconds)
IDLE_SECONDS = 3600.0
_LIMITS = (
    "Limits (docs/language.md, Limits): a rule builds no list longer than "
    "RULESPEC_MAX_COLLECTION elements (default 1,000,000), and the zones hold no more cards "
    "together, nor runs more than RULESPEC_MAX_WORK rounds of loops between two events "
    "(default 1,000,000); rules nest at most 100 levels, a call counting as deep as its body; "
    "numbers have at most 3,400 bits; a record is at most 64 MB and a spec at most 4 MB; "
    "simulate plays at most --max-events events a match (default 1,000,000); "
    "serve reads request lines of at most 16 MiB and stops after --idle-timeout "
    f"seconds without one (default {IDLE_SECONDS:.0f}). "
    "RULESPEC_DEBUG=1 shows the traceback of an internal error.")


#: the collector's young-generation threshold for the command line's process. A playout makes
#: and drops many small lists and dicts an event, almost none in a cycle, and at Python's
#: default (700) a third of a protocol playout went to collecting them (issue 29: Hearts by
#: the protocol 282 -> 397 games/s at 10,000, one process after the other). Only the command
#: line, which owns its process, sets it: the library leaves a caller's collector alone.
GC_YOUNG = 10_000


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog=_LIMITS)
@click.version_option(package_name="rulespec")
def main() -> None:
    """Card games written once, precisely: check, play, verify and document them."""
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


# ---- check ---------------------------------------------------------------------------------
@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
def check(files: tuple[str, ...]) -> None:
    """Parse and statically check .rules FILES (or shipped game names)."""
    from rulespec.loading import resolve

    status = EXIT_OK
    for f in files:
        try:
            found = resolve(f)
            path, spec = found.path, found.spec
        except (SpecSyntaxError, SpecCheckError) as e:
            _spec_error(e)
            status = EXIT_SPEC
            continue
        except (RecordError, OSError) as e:
            _err(f"error: {e}")
            sys.exit(EXIT_USAGE)
        click.echo(f"{shown(str(path))}: ok: {shown(spec.title)} ({spec.name}), "
                   f"{spec.player_counts('-')} players, {spec.winner} total wins")
        click.echo(_listed("phases", ["match", "deal"] + [p.name for p in spec.procs]))
        click.echo(_listed("decisions", spec.action_names()))
        click.echo(_listed("options", [f"{o.name}={_show(o.default)}" for o in spec.options]))
        if not spec.deck.french:
            click.echo(f"  deck: {spec.deck.summary()}")
    sys.exit(status)


def _listed(what: str, items: Sequence[str], most: int = 24) -> str:
    """A line of check's summary: ``  decisions (2): play, pass``, or ``  decisions: none``;
    past ``most`` items, the first of them and how many more."""
    if not items:
        return f"  {what}: none"
    more = f", ... ({len(items) - most} more)" if len(items) > most else ""
    return f"  {what} ({len(items)}): {', '.join(items[:most])}{more}"


def _show(v: object) -> str:
    return json.dumps(v) if isinstance(v, bool) else str(v)


# ---- compile -------------------------------------------------------------------------------
@main.command(name="compile")
@click.argument("game")
@click.option("--players", "-p", type=int, default=None,
              help="Number of players (default: the smallest table).")
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A named option (house rule); repeatable.")
@click.option("--emit", is_flag=True, help="Print the generated Python source.")
def compile_(game: str, players: int | None, opts: tuple[str, ...], emit: bool) -> None:
    """Compile GAME for one table and say what was generated (--emit prints it).

    Each function starts with a comment naming the spec clause it comes from; the same text
    appears in tracebacks (RULESPEC_DEBUG=1). Expressions and the lists of legal events are
    generated Python; RULESPEC_NO_INLINE=1 compiles each definition as a function of its own
    instead of expanding its calls in place.
    """
    import time

    from rulespec.engine.game import Game
    from rulespec.loading import normalise_options, resolve

    with _reported():
        spec = resolve(game).spec
        n = spec.min_players if players is None else players
        t0 = time.perf_counter()
        g = Game(spec, n, normalise_options(spec, _options(opts)), keep_sources=True)
        took = time.perf_counter() - t0
    if emit:
        for name, text in g.sources:
            click.echo(f"# ---- {name}")
            click.echo(text)
        return
    lines = sum(text.count("\n") for _, text in g.sources)
    click.echo(f"{spec.name}, {n} players: {len(g.sources)} generated functions, {lines} lines, "
               f"compiled in {took * 1000:.0f} ms (--emit prints them)")


# ---- simulate ------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--players", "-p", type=int, default=None, help="Number of players, if several.")
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A named option (house rule); repeatable.")
@click.option("--dealer", type=int, default=0, show_default=True)
@click.option("--records", type=click.Path(file_okay=False), default=None,
              help="Write every game as a record in this folder.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Local processes to play in.")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True, help="'ray' spreads games over a Ray cluster.")
@click.option("--max-events", type=click.IntRange(min=1), default=1_000_000, show_default=True,
              help="Give up on a match that runs past this many events (a usage error).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the summary as JSON (with --report or --compare, the report's data).")
@click.option("--report", "report", type=click.Path(dir_okay=False), default=None,
              help="Write an HTML report (plots, 95% intervals) to this file.")
@click.option("--compare", is_flag=True,
              help="Compare the values of the one option given more than once (-o K=A -o K=B) "
                   "side by side; the page goes to --report or GAME-compare.html.")
@click.option("--bot", "bots", multiple=True, metavar="NAME",
              help="The bot that decides: once for every seat, or once per seat.")
@click.option("--engine", type=click.Choice(["python", "native", "typed"]), default="python",
              show_default=True,
              help="'native' compiles the table's code with Cython (an experiment; Python where "
                   "it cannot be built); 'typed' lowers the table to typed code (random games "
                   "without --records, --bot or a report; Python where it does not cover the "
                   "table).")
def simulate(game: str, players: int | None, games: int, seed: int, opts: tuple[str, ...],
             dealer: int, records: str | None, workers: int, backend: str, max_events: int,
             as_json: bool, report: str | None, compare: bool, bots: tuple[str, ...],
             engine: str) -> None:
    """Play GAMES random games of GAME and summarise them (docs/simulate.md)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from rulespec import cli_simulate as cs

    settings = cs.settings_of(opts, compare)
    if compare and records is not None:
        raise click.UsageError("--records keeps the games of one setting: not with --compare")
    if records is not None:
        _records_folder(records)
    wants_report = report is not None or compare
    console = Console(stderr=True)
    played = [0]
    from rulespec.cli_progress import Heartbeat

    beat = Heartbeat(not as_json and not console.is_terminal)
    total = games * len(settings)

    def advance(k: int) -> None:
        played[0] += k
        prog.advance(task, k)
        beat(f"simulate: {played[0]}/{total} games")

    with _reported():
        cs.warn_engine(engine, game, players, settings[0][1], dealer,
                       records is not None or bool(bots) or wants_report)
    summaries = []
    made, page = None, ""
    try:
        with _reported(), Progress("[progress.description]{task.description}", BarColumn(),
                                   MofNCompleteColumn(), TimeRemainingColumn(),
                                   console=console, disable=as_json or not console.is_terminal,
                                   transient=True) as prog:
            # the description is rich markup: the game's name (a path) is shown as text
            task = prog.add_task(escape(f"{shown(game)}, {players or 'its'} players"), total=total)
            for label, options in settings:
                summaries.append((label, cs.call_simulate(
                    game, players, games, seed, options, bots=bots, per_game=wants_report,
                    dealer=dealer, records=records, workers=workers, backend=backend,
                    progress=advance, max_events=max_events, engine=engine)))
            made = cs.report_of(game, summaries) if wants_report else None
            if made is not None:
                page = report or cs.default_report_path(game)
                cs.write_report(page, made)
    except KeyboardInterrupt:
        # records are written whole or not at all (files.write_atomic): those there are
        # complete games
        where = f"; the records in {records} are complete games" if records else ""
        _err(f"interrupted after {played[0]} of {total} games{where}")
        sys.exit(EXIT_INTERRUPTED)
    cs.print_results(summaries[0][1], made, settings[0][1], seed, as_json)
    if made is not None:
        _err(f"report written to {shown(page)}")


def _records_folder(records: str) -> None:
    """A usage error, before any game is played, for a records folder that cannot be written."""
    if not records.strip():
        _err("error: --records names a folder; give one (. for the current folder)")
        sys.exit(EXIT_USAGE)
    from rulespec.files import why_no_folder_to_write

    why = why_no_folder_to_write(Path(records))
    if why:
        _err(f"error: cannot write records to {shown(records)}: {why}")
        sys.exit(EXIT_USAGE)


# ---- replay --------------------------------------------------------------------------------
@main.command()
@click.argument("record", type=click.Path())
@click.option("--spec", "spec_path", type=click.Path(dir_okay=False), default=None,
              help="Replay on this spec instead of the one the record names.")
def replay(record: str, spec_path: str | None) -> None:
    """Apply a game RECORD (a file, or - for standard input) and print the result
    (docs/records.md)."""
    import errno

    from rulespec.files import read_bounded, read_stream
    from rulespec.records import MAX_RECORD_BYTES
    from rulespec.records import replay as run

    # "-" is standard input (a pipe); any other name a regular file (files.read_bounded: not
    # a FIFO, nor a device such as /dev/zero), read up to MAX_RECORD_BYTES either way
    path = Path.cwd() / "-" if record == "-" else Path(record)
    try:
        raw = read_stream(sys.stdin.buffer, MAX_RECORD_BYTES, "record") if record == "-" \
            else read_bounded(path, MAX_RECORD_BYTES, "record")
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        _err(f"error: no such file: {shown(record)}")
        sys.exit(EXIT_USAGE)
    except OSError as e:
        if e.errno == errno.EFBIG:  # too large: a bad record (H7), as records.md says
            click.echo(json.dumps({"ok": False, "event": None, "legal": [],
                                   "error": f"the record is larger than {MAX_RECORD_BYTES} "
                                            "bytes; rulespec reads records up to that size"}))
            sys.exit(EXIT_RECORD)
        hint = "; give - to read a record from standard input" \
            if e.errno == errno.EINVAL else ""
        _err(f"error: cannot read {shown(record)}: {e.strerror or e}{hint}")
        sys.exit(EXIT_USAGE)
    except (ValueError, RecursionError) as e:
        # a record that is not JSON text is a bad record (H7), whatever its bytes are (JSON
        # errors and undecodable bytes are ValueErrors, and so is a number of 5,000 digits)
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e)
        click.echo(json.dumps({"ok": False, "event": None, "error": f"not JSON: {why}",
                               "legal": []}))
        sys.exit(EXIT_RECORD)
    if spec_path is not None and not Path(spec_path).is_file():
        _err(f"error: no such file: {spec_path}")
        sys.exit(EXIT_USAGE)
    with _reported():
        code, answer = run(data, path.parent, Path(spec_path) if spec_path else None)
    click.echo(json.dumps(answer, ensure_ascii=False))
    sys.exit(code)


# ---- verify and diff -----------------------------------------------------------------------
#: the longest wait any seconds option takes (a timer or a select() past about 10**9 s
#: overflows the platform's time_t): 1,000,000 s, eleven days and a half
@main.command()
@click.argument("game")
@click.option("--impl", "impl_cmd", default=None, metavar="CMD",
              help="Command line of an implementation speaking the JSON-lines protocol.")
@click.option("--python", "impl_py", default=None, metavar="MODULE:ATTR",
              help="A Python implementation: a class, a factory or an object.")
@click.option("--engine", "engine", default=None, metavar="ENGINE:GAME",
              help="An engine's game through rulespec's adapter (openspiel:hearts, "
                   "rlcard:uno, ...; pip install \"rulespec[engines]\"). The options the "
                   "engine always plays, and those its default parameters play, are set "
                   "unless given.")
@click.option("--known", "known_path", default=None, metavar="FILE",
              type=click.Path(dir_okay=False),
              help="Known findings (JSON, docs/verify.md): a divergence that matches one is "
                   "reported as known and the search goes on.")
@click.option("--timeout", type=_Seconds(min=0.01), default=10.0, show_default=True,
              metavar="SECONDS", help="The longest one protocol call may take.")
@click.option("--strict", is_flag=True,
              help="A setting the implementation refuses at 'new' is a failure.")
@_verification_options
def verify(game: str, impl_cmd: str | None, impl_py: str | None, engine: str | None,
           known_path: str | None, timeout: float, strict: bool, players: tuple[int, ...],
           opts: tuple[str, ...],
           games: int | None, budget: float | None, seed: int, keep_going: bool,
           out_path: str | None, as_json: bool, db: str | None) -> None:
    """Verify an implementation of GAME (a shipped name or a .rules file) against the spec.

    verify chooses the tables, options, dealers, decisions and shuffles itself, compares the
    two sides at every step, and shrinks the first divergence to a small record. Exit 0: it
    conforms; 1: a divergence (or, with --strict, a refused setting); 2: usage; 65: the spec
    does not check; 70: a rule runtime error of the spec.
    """
    import shlex

    from rulespec.loading import resolve
    from rulespec.protocol import ProcessImplementation, load_python_impl
    from rulespec.verify.report import SpecFailed
    from rulespec.verify.runner import Verifier

    if sum(x is not None for x in (impl_cmd, impl_py, engine)) != 1:
        _err("error: give exactly one of --impl CMD, --python MODULE:ATTR or --engine "
             "ENGINE:GAME")
        sys.exit(EXIT_USAGE)
    with _reported():
        found = resolve(game)
        spec = found.spec
        factory: Callable[[], Implementation]
        if engine is not None:
            from rulespec.adapters import engine_adapter

            adapter = engine_adapter(engine)
            factory, who = adapter, engine
            given = {t.split("=", 1)[0].strip() for t in opts}
            settled = {**getattr(adapter, "fixed", {}), **getattr(adapter, "usual", {})}
            opts = tuple(f"{k}={_option_text(v)}" for k, v in settled.items()
                         if k not in given) + opts
            # the tables the engine plays, of those the spec offers
            players = players or tuple(p for p in getattr(adapter, "players", ())
                                       if spec.min_players <= p <= spec.max_players)
        elif impl_py is not None:
            factory = load_python_impl(impl_py)
            who = impl_py
        else:
            try:
                argv = shlex.split(impl_cmd or "")
            except ValueError as e:
                raise click.UsageError(f"--impl: {e} (check the quoting)") from None
            factory = lambda: ProcessImplementation(argv, timeout)  # noqa: E731
            who = impl_cmd or ""
        name = spec.name  # a shipped spec goes by its shipped name (loading.shipped_name)
        from rulespec.verify.known import load_known

        known = load_known(known_path) if known_path is not None else []
        v = Verifier(spec, name, factory, timeout=timeout, db=db, known=known)
        try:
            report = _drive(v, players, opts, games, budget, seed, keep_going, strict, as_json)
        except SpecFailed as e:  # exit 70, and the match that met it as a record
            raise e.written(Path(out_path or "rulespec-divergence.json"),
                            None if found.shipped else found.path) from None
    _finish(report, f"verify {name} against {who}", found, out_path, as_json)


@main.command()
@click.argument("a")
@click.argument("b")
@click.option("--b-option", "b_opts", multiple=True, metavar="NAME=VALUE",
              help="An option for B only (repeatable): one spec under two settings.")
@_verification_options
def diff(a: str, b: str, b_opts: tuple[str, ...], players: tuple[int, ...],
         opts: tuple[str, ...], games: int | None, budget: float | None, seed: int,
         keep_going: bool, out_path: str | None, as_json: bool, db: str | None) -> None:
    """Find a match on which specs A and B (same event vocabulary) part.

    `rulespec diff GAME GAME --b-option NAME=VALUE` compares one
    spec under two settings. Exit 0: no difference found; 1: they part (the shrunk match is
    written as a record of A).
    """
    from rulespec.loading import resolve
    from rulespec.protocol import SpecImplementation
    from rulespec.verify.runner import Verifier

    with _reported():
        found_a = resolve(a)
        spec_a, spec_b = found_a.spec, resolve(b).spec
        name = spec_a.name
        v = Verifier(spec_a, name, lambda: SpecImplementation(spec=spec_b),
                     other_options=_options(b_opts), db=db, probes=False, words=("A", "B"),
                     vars_compared=False)
        report = _drive(v, players, opts, games, budget, seed, keep_going, False, as_json,
                        command="diff")
    _finish(report, f"diff {a} {b}", found_a, out_path, as_json)


@main.command(name="same-deal")
@click.argument("game_a")
@click.argument("game_b")
@click.option("--players", "-p", type=int, default=4, show_default=True,
              help="Number of players.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Draws the shuffle and every decision of both games.")
@click.option("--dealer", type=int, default=0, show_default=True)
@click.option("--a-option", "-a", "a_opts", multiple=True, metavar="NAME=VALUE",
              help="An option for GAME_A (repeatable).")
@click.option("--b-option", "-b", "b_opts", multiple=True, metavar="NAME=VALUE",
              help="An option for GAME_B (repeatable).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the deal, both games' decisions, tricks, results and records as "
                   "JSON.")
def same_deal(game_a: str, game_b: str, players: int, seed: int, dealer: int,
              a_opts: tuple[str, ...], b_opts: tuple[str, ...], as_json: bool) -> None:
    """Play one shuffle under GAME_A and GAME_B and show both deals side by side.

    For two specs whose event vocabularies differ (two versions of a game), where `diff` does
    not apply: the same shuffle of the same pack, every decision drawn at random from --seed,
    then each game's decisions before play, the tricks and the scores. Exit 0: played; 2: the
    games do not shuffle the same cards, or a usage error; 65: a spec does not check; 70: a
    rule runtime error.
    """
    from rulespec.sidebyside import same_deal as run

    with _reported():
        report = run(game_a, game_b, players, None, seed, _options(a_opts), _options(b_opts),
                     dealer)
    from rulespec.shown import escape_text, json_text

    if as_json:
        click.echo(json_text(report.to_json(), indent=2))
    else:
        click.echo(escape_text(report.text()), nl=False)


def _drive(v: Verifier, players: tuple[int, ...], opts: tuple[str, ...], games: int | None,
           budget: float | None, seed: int, keep_going: bool, strict: bool,
           as_json: bool, command: str = "verify") -> Report:
    """Run ``v`` with a progress bar on a terminal, plain lines on a pipe (``command`` names
    the run in them: ``verify`` or ``diff``)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from rulespec.shown import escape_line
    from rulespec.verify.runner import scratch_storage

    console = Console(stderr=True)
    from rulespec.cli_progress import Heartbeat

    beat = Heartbeat(not as_json and not console.is_terminal)
    with scratch_storage(), Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), "{task.fields[cov]}",
                  console=console, transient=True,
                  disable=as_json or not console.is_terminal) as prog:
        task = prog.add_task(command, total=None, cov="")

        def progress(label: str, number: int, total: int | None, cov: str) -> None:
            # a label holds option values, anyone's text: shown as text, never as rich markup
            label = escape_line(label)
            prog.update(task, description=escape(label[:60]), completed=number - 1,
                        total=total, cov=escape(cov))
            of = f" of {total}" if total is not None else ""
            until = "" if budget is None else f", budget {budget:g} s"
            beat(f"{command}: setting {number}{of}{until}: {label}; {cov}")

        return v.run(players=players, options=_options(opts), games=games, budget=budget,
                     seed_=seed, keep_going=keep_going, strict=strict, progress=progress)


def _finish(report: Report, title: str, found: Resolved, out_path: str | None,
            as_json: bool) -> None:
    from rulespec.records import write_record
    from rulespec.shown import escape_line

    written: list[str] = []
    base = Path(out_path or "rulespec-divergence.json")
    for i, d in enumerate(report.divergences):
        out = base if i == 0 else base.with_name(f"{base.stem}-{i + 1}{base.suffix}")
        try:
            write_record(d.record(report.game), out, None if found.shipped else found.path)
        except OSError as e:
            _err(f"error: cannot write the record {escape_line(str(out))}: {e.strerror or e}")
            sys.exit(EXIT_USAGE)
        written.append(str(out))
    if as_json:
        from rulespec.shown import json_text

        data = report.to_json()
        for d, path in zip(data["divergences"], written, strict=True):
            d["record_file"] = path
        click.echo(json_text(data, indent=2))
    else:
        from rulespec.verify.report import format_report

        click.echo(format_report(report, title, written))
    failed = bool(report.divergences) or not report.conforms
    sys.exit(EXIT_RECORD if failed else EXIT_OK)


# ---- doc -----------------------------------------------------------------------------------
@main.command()
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md",
              show_default=True, help="Markdown, or one self-contained HTML page.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="Write the book here (default: standard output).")
@click.option("--players", "-p", type=click.IntRange(min=1), default=None,
              help="A book for this table size only.")
@click.option("--option", "-o", "opts", multiple=True, metavar="NAME=VALUE",
              help="A book for these option values (repeatable).")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing: exit 1 if the book at --out is missing or out of date; "
                   "list the texts its catalogs leave in English.")
@click.option("--lang", type=click.Choice(["en", "fa", "ru"]), default="en", show_default=True,
              help="The book's language (the spec's catalogs beside it, rulespec's own).")
@click.option("--reference", is_flag=True,
              help="The implementer's reference (every clause, exact decisions, record "
                   "vocabulary, the spec's source) instead of the player's book.")
def doc(game: str, fmt: str, out_path: str | None, players: int | None,
        opts: tuple[str, ...], check_only: bool, lang: str, reference: bool) -> None:
    """Write GAME's player's book (or --reference, the implementer's) in Markdown or HTML."""
    from rulespec.book import build_book
    from rulespec.book.i18n import words_for
    from rulespec.book.player import player_book, reference_name
    from rulespec.loading import resolve

    if check_only and not out_path:
        raise click.UsageError("--check compares with the book at --out: give --out PATH")
    if reference and lang != "en":
        raise click.UsageError("the implementer's reference is written in English only")
    if out_path and not check_only:
        _writable(Path(out_path))  # before the book is worked out (seconds of work)
    with _reported():
        found = resolve(game)
        spec = found.spec
        words = words_for(lang, [found.path, *map(Path, spec.sources)])
        # the book plays example deals at every table: seconds of work, not to be silent
        from rulespec.cli_progress import book_progress

        with book_progress(spec.title, DOC_PROGRESS_AFTER) as progress:
            book = (build_book(spec, players, _options(opts), progress) if reference else
                    player_book(spec, words, players, _options(opts), progress=progress,
                                reference=reference_name(out_path or found.path.stem, fmt)))
        text, files = _rendered(book, fmt, out_path, lang)
    if check_only and words.missing:
        _err(f"{out_path}: {len(words.missing)} text(s) not translated into {lang}, shown in "
             "English:")
        for m in sorted(words.missing):
            _err(f"  {shown(m[:100])}")
    pages = [(Path(out_path), text)] if out_path else []
    pages += [(Path(out_path or ".").parent / name, svg) for name, svg in files]
    if check_only:
        again = " ".join(["rulespec doc", game, "--format", fmt, "--out", str(out_path),
                          *(["--lang", lang] if lang != "en" else []),
                          *(["--reference"] if reference else [])])
        _check_pages(pages, out_path, again)
        return
    if not pages:
        click.echo(text, nl=False)
    from rulespec.files import write_atomic

    for path, content in pages:
        try:
            write_atomic(path, content)
        except OSError as e:
            _err(f"error: cannot write {path}: {e.strerror or e}")
            sys.exit(EXIT_USAGE)


def _rendered(book: Book, fmt: str, out_path: str | None, lang: str
              ) -> tuple[str, list[tuple[str, str]]]:
    """A book's page in ``fmt``, and the pictures a Markdown page written to a file links,
    written beside it (name, SVG)."""
    if fmt == "html":
        from rulespec.book import to_html

        return to_html(book), []
    from rulespec.book.markdown import figure_files, to_markdown
    from rulespec.files import plain_or_absent

    files: list[tuple[str, str]] = []
    # pictures go beside a book written to a file, not beside a device or a FIFO
    # (--out /dev/stdout): that page has their captions only, as standard output has
    if out_path and plain_or_absent(Path(out_path)):
        files = figure_files(book, Path(out_path).name.split(".")[0] +
                             ("" if lang == "en" else f".{lang}"))
    return to_markdown(book, [name for name, _ in files]), files


def _check_pages(pages: list[tuple[Path, str]], out_path: str | None, again: str) -> None:
    """doc --check: exit 1 naming each page that is missing or differs from what it would be
    now (``again`` is the command that writes them), else say the book at ``out_path`` is up
    to date."""
    from rulespec.cli_options import stale_pages

    stale = stale_pages(pages)
    if stale:
        _err("; ".join(stale) + f"; regenerate with: {again}")
        sys.exit(EXIT_RECORD)
    click.echo(f"{out_path}: up to date")


@main.command()
@click.argument("action", type=click.Choice(["update", "compile"]))
@click.argument("game")
@click.option("--lang", "langs", multiple=True, type=click.Choice(["fa", "ru"]))
def catalog(action: str, game: str, langs: tuple[str, ...]) -> None:
    """Update GAME's catalogs (game.LANG.po beside its spec) to its texts, or compile them."""
    from rulespec.book.catalogs import refresh
    from rulespec.loading import resolve

    with _reported():
        for path in refresh(resolve(game).path, action, langs or ("fa", "ru")):
            click.echo(shown(str(path)))


#: seconds a book is worked out before its progress is shown: most books take less
DOC_PROGRESS_AFTER = 2.0


def _writable(path: Path) -> None:
    """A usage error, now, for an --out that cannot be written."""
    from rulespec.files import why_not_writable

    why = why_not_writable(path)
    if why:
        _err(f"error: cannot write {shown(str(path))}: {why}")
        sys.exit(EXIT_USAGE)


# ---- serve ---------------------------------------------------------------------------------
@main.command()
@click.argument("spec_file", metavar="[FILE.rules]", required=False)
@click.option("--python", "impl_py", default=None, metavar="MODULE:ATTR",
              help="Serve this Python implementation instead of the spec's engine.")
@click.option("--idle-timeout", "idle", type=_Seconds(min=0), default=IDLE_SECONDS,
              show_default=True, metavar="SECONDS",
              help="Stop when no request has come for this long (0: wait for ever).")
def serve(spec_file: str | None, impl_py: str | None, idle: float) -> None:
    """Answer the JSON-lines implementation protocol on standard input/output.

    By default the answers are the spec's own, for any shipped game; with FILE.rules, for
    that spec, under the name its game line declares; with --python, any Python
    implementation is served, so it can be verified (or used) as a child process.
    """
    from rulespec.errors import ImplementationStartError
    from rulespec.protocol import SpecImplementation, load_python_impl
    from rulespec.protocol import serve as run
    from rulespec.shown import escape_line

    impl = served = None
    if spec_file is not None:
        if impl_py is not None:
            raise click.UsageError("give FILE.rules or --python MODULE:ATTR, not both")
        with _reported():  # a spec that does not check: exit 65 now, not an answer later
            served = SpecImplementation.serving(spec_file, Path.cwd())
    # a line that is not UTF-8 is read with its bad bytes replaced: it is then not JSON, and
    # answered so, instead of ending the server
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace") \
        if hasattr(sys.stdin, "buffer") else sys.stdin
    if impl_py is None:
        if run(stdin, sys.stdout, Path.cwd(), served, idle_timeout=idle):
            _err(f"serve: no request for {idle:g} s (--idle-timeout); stopping")
        return
    with _reported():
        make = load_python_impl(impl_py)
        try:
            impl = make()
        except RulespecError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's class or factory failed
            raise ImplementationStartError(escape_line(
                f"--python: making {impl_py} failed: {type(e).__name__}: {e}")) from None
    try:
        if run(stdin, sys.stdout, Path.cwd(), impl, idle_timeout=idle):
            _err(f"serve: no request for {idle:g} s (--idle-timeout); stopping")
    except Exception:  # noqa: BLE001 - the served implementation crashed, as a program would
        import traceback

        _err(traceback.format_exc().rstrip())
        _err(f"error: the implementation {impl_py} crashed (above); it is served no more")
        sys.exit(EXIT_RECORD)


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
