"""Hostile inputs: no spec, record, protocol line or command line may crash, hang or exhaust
rulespec. Every case in tests/hostile/ states what it must give (tests/hostile/README.md); a
case whose header says ``# known failure: ...`` shows a defect of rulespec today and is an
expected failure (strict: it fails the suite once the defect is fixed, so the mark is removed)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import resource
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from tests.alarm import alarm

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
KINDS = (".rules", ".json", ".serve", ".args")
#: seconds an in-process case may run before it counts as a hang: far above what any case
#: takes (each is a few seconds at most on a loaded machine), so a busy machine, where
#: everything runs three times slower, does not turn a slow case into a "hang"
HANG_S = 90
#: a known failure that hangs shows it as well in a few seconds (the suite stays short)
KNOWN_HANG_S = 4
#: seconds a subprocess case may run (as HANG_S)
SUBPROCESS_S = 120
#: the address space a subprocess case may take (it must not exhaust the machine)
SUBPROCESS_MEMORY = 1024**3
HEADER = re.compile(r"^# (expect [a-z]+|setup [a-z]+|known failure)(?::\s?(.*))?$")
BOM = b"\xef\xbb\xbf"
#: how a spec error and a rule runtime error start (docs/language.md, Runtime errors)
POSITION = re.compile(r":\d+:\d+: error: ")


class Hang(BaseException):
    """Raised by the alarm in a case that runs too long (a BaseException, so that no
    ``except Exception`` in rulespec can swallow it)."""


@dataclass
class Case:
    path: Path
    exit: int | None = None
    errors: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)
    answers: list[bool] | None = None
    players: int = 2
    subprocess: bool = False
    known_failure: str | None = None
    body: bytes = b""
    #: (what, argument) for each ``# setup WHAT: ARG`` line, in order
    setup: list[tuple[str, str]] = field(default_factory=list)
    #: paths (``{tmp}`` filled) that must not exist after the run: a file a payload would write
    missing: list[str] = field(default_factory=list)
    #: paths whose kind (regular file, FIFO, device) the run must not change
    unchanged: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.path.suffix


def header_lines(data: bytes) -> tuple[list[str], bytes]:
    """The leading ``#`` lines of a case file, and the bytes after them."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    lines: list[str] = []
    rest = data
    while rest.startswith(b"#"):
        line, _, rest = rest.partition(b"\n")
        lines.append(line.decode("utf-8", "replace").rstrip("\r"))
    return lines, rest


def load(path: Path) -> Case:
    case = Case(path)
    raw = path.read_bytes()
    if path.suffix == ".json":
        sidecar = path.with_suffix(".expect")
        assert sidecar.exists(), f"{path.name} has no sidecar {sidecar.name}"
        lines, _ = header_lines(sidecar.read_bytes())
        case.body = raw
    else:
        lines, rest = header_lines(raw)
        case.body = raw if path.suffix == ".rules" else rest
    for line in lines:
        m = HEADER.match(line)
        if m is None:
            continue
        key, value = m.group(1), (m.group(2) or "").strip()
        if key == "expect exit":
            case.exit = int(value)
        elif key == "expect error":
            case.errors.append(value)
        elif key == "expect absent":
            case.absent.append(value)
        elif key == "expect answers":
            case.answers = [v.strip() == "true" for v in value.split(",") if v.strip()]
        elif key == "expect players":
            case.players = int(value)
        elif key == "expect subprocess":
            case.subprocess = True
        elif key == "expect missing":
            case.missing.append(value)
        elif key == "expect unchanged":
            case.unchanged.append(value)
        elif key.startswith("setup "):
            case.setup.append((key.removeprefix("setup "), value))
        elif key == "known failure":
            case.known_failure = value
        else:
            raise AssertionError(f"{path.name}: unknown header line {line!r}")
    assert case.exit is not None, f"{path.name} has no '# expect exit:' line"
    if path.suffix == ".serve":
        assert case.answers is not None, f"{path.name} has no '# expect answers:' line"
    return case


def cases() -> Iterator[object]:
    for path in sorted(p for p in HOSTILE.iterdir() if p.suffix in KINDS and p.is_file()):
        case = load(path)
        marks = []
        if case.known_failure:
            marks.append(pytest.mark.xfail(strict=True, reason=case.known_failure))
        yield pytest.param(case, id=path.name, marks=marks)


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str

    @property
    def text(self) -> str:
        return self.stdout + self.stderr


def deadline(seconds: int) -> contextlib.AbstractContextManager[None]:
    return alarm(seconds, lambda: Hang("the case ran past its time"))


def in_process(argv: list[str], stdin: bytes | None = None, seconds: int = HANG_S) -> Outcome:
    try:
        with deadline(seconds):
            res = CliRunner().invoke(main, argv, input=stdin)
    except Hang:
        pytest.fail(f"hang: rulespec {' '.join(argv)[:200]} ran past {seconds} s")
    err = res.stderr
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        import traceback

        err += "Traceback (escaped from the command):\n" + "".join(
            traceback.format_exception(res.exception))
    return Outcome(res.exit_code, res.stdout, err)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SUBPROCESS_MEMORY, SUBPROCESS_MEMORY))


def in_subprocess(argv: list[str], stdin: bytes | None = None) -> Outcome:
    env = {k: v for k, v in os.environ.items() if k != "RULESPEC_DEBUG"}
    try:
        proc = subprocess.run([sys.executable, "-m", "rulespec", *argv], input=stdin or b"",
                              capture_output=True, timeout=SUBPROCESS_S, cwd=ROOT, env=env,
                              preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang: rulespec {' '.join(argv)[:200]} ran past {SUBPROCESS_S} s")
    return Outcome(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                   proc.stderr.decode("utf-8", "replace"))


def fill(text: str, tmp_path: Path) -> str:
    return text.replace("{hostile}", str(HOSTILE)).replace("{tmp}", str(tmp_path)) \
        .replace("{python}", sys.executable)


def fill_name(text: str, tmp_path: Path) -> str:
    """A path of a setup or expect line: ``{tmp}`` filled, and Python's escapes (``\\n``,
    ``\\r``, ``\\u2028``) read, so that a header line can name a file whose name holds a line
    break."""
    return fill(_ESCAPE.sub(_unescape, text), tmp_path)


_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[nrt\\])")


def _unescape(m: re.Match[str]) -> str:
    e = m.group(1)
    return {"n": "\n", "r": "\r", "t": "\t", "\\": "\\"}.get(e) or chr(int(e[1:], 16))


def set_up(case: Case, tmp_path: Path) -> None:
    """The files a case needs that a repository cannot hold (README.md, "The header"):

    * ``copy: SRC -> DEST`` copies ``hostile/SRC`` to ``DEST``;
    * ``fifo: PATH`` makes a FIFO that nobody writes to or reads from;
    * ``link: TARGET -> PATH`` makes a symbolic link."""
    for what, arg in case.setup:
        if what == "copy":
            src, dest = (x.strip() for x in arg.split(" -> "))
            Path(fill_name(dest, tmp_path)).write_bytes((HOSTILE / src).read_bytes())
        elif what == "fifo":
            os.mkfifo(fill_name(arg, tmp_path))
        elif what == "link":
            target, at = (x.strip() for x in arg.split(" -> "))
            os.symlink(fill_name(target, tmp_path), fill_name(at, tmp_path))
        else:
            raise AssertionError(f"{case.path.name}: unknown setup {what!r}")


def kind_of(path: str) -> int | None:
    try:
        return os.lstat(path).st_mode & 0o170000
    except OSError:
        return None


def play(case: Case, tmp_path: Path) -> tuple[list[str], Outcome]:
    """Runs the case; gives the command line that decided the outcome, and the outcome."""
    if case.subprocess:
        run = in_subprocess
    else:
        hangs = case.known_failure is not None and "hang" in case.known_failure.lower()
        run = functools.partial(in_process, seconds=KNOWN_HANG_S if hangs else HANG_S)
    path = str(case.path)
    if case.kind == ".rules":
        argv = ["check", path]
        out = run(argv)
        if out.code == 0:
            argv = ["simulate", path, "-p", str(case.players), "-n", "2"]
            out = run(argv)
        return argv, out
    if case.kind == ".json":
        argv = ["replay", path]
        return argv, run(argv)
    if case.kind == ".args":
        text = case.body.decode("utf-8", "surrogateescape")
        argv = [fill_name(a, tmp_path) for a in text.split("\n")]
        while argv and argv[-1] == "":
            argv.pop()
        return argv, run(argv)
    assert case.kind == ".serve"
    stdin = fill(case.body.decode("utf-8", "surrogateescape"), tmp_path).encode(
        "utf-8", "surrogateescape")
    return ["serve"], run(["serve"], stdin)


def answers_of(stdout: str) -> list[bool | None]:
    oks: list[bool | None] = []
    for line in stdout.splitlines():
        if not line.strip():
            continue
        try:
            answer = json.loads(line)
        except ValueError:
            oks.append(None)
            continue
        oks.append(answer.get("ok") if isinstance(answer, dict) else None)
    return oks


@pytest.mark.parametrize("case", list(cases()))
def test_hostile_input(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("RULESPEC_DEBUG", raising=False)
    set_up(case, tmp_path)
    kinds = {p: kind_of(fill_name(p, tmp_path)) for p in case.unchanged}
    argv, out = play(case, tmp_path)
    shown = f"rulespec {' '.join(argv)[:300]}\n--- exit {out.code}\n--- stdout\n" \
            f"{out.stdout[-3000:]}\n--- stderr\n{out.stderr[-3000:]}"
    assert "Traceback" not in out.text, f"a traceback\n{shown}"
    assert "internal error:" not in out.text, f"an internal error\n{shown}"
    assert out.code == case.exit, f"exit {out.code}, expected {case.exit}\n{shown}"
    if case.kind in (".rules", ".args") and case.exit == 70:
        assert POSITION.search(out.stderr), f"no 'FILE:LINE:COL: error:' on stderr\n{shown}"
    if case.exit == 65:
        assert "error: " in out.stderr, f"no diagnostic on stderr\n{shown}"
    for s in case.errors:
        assert s in out.text, f"{s!r} missing from the output\n{shown}"
    for s in case.absent:
        assert s not in out.text, f"{s!r} must not appear in the output\n{shown}"
    if case.kind == ".json" and case.exit in (0, 1):
        lines = [line for line in out.stdout.splitlines() if line.strip()]
        assert lines, f"replay wrote no JSON answer\n{shown}"
        answer = json.loads(lines[-1])
        assert isinstance(answer, dict) and answer.get("ok") is (case.exit == 0), shown
    for p in case.missing:
        assert not os.path.lexists(fill_name(p, tmp_path)), f"{p} was made\n{shown}"
    for p, before in kinds.items():
        after = kind_of(fill_name(p, tmp_path))
        assert after == before, f"{p} changed kind: {before:o} -> {after}\n{shown}"
    if case.answers is not None:
        got = answers_of(out.stdout)
        assert got == case.answers, f"answers {got}, expected {case.answers}\n{shown}"


def test_the_corpus_is_large_and_every_case_is_read() -> None:
    paths = [p for p in HOSTILE.iterdir() if p.suffix in KINDS]
    assert len(paths) >= 100
    for p in paths:
        load(p)
    for sidecar in HOSTILE.glob("*.expect"):
        assert sidecar.with_suffix(".json").exists(), f"{sidecar.name} has no record"
