"""The implementation protocol (protocol.md): how rulespec talks to any game engine.

:class:`SpecImplementation` speaks it for a spec's interpreter; :class:`ProcessImplementation`
speaks it to a child process over JSON lines; :func:`serve` answers it on a stream, so the engine
itself can be driven by someone else's verifier.
"""

from __future__ import annotations

import collections
import contextlib
import importlib
import importlib.util
import json
import math
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Protocol, cast

from rulespec.engine.state import State
from rulespec.errors import (
    IllegalActionError,
    ImplementationError,
    ImplementationStartError,
    RecordError,
    RuleRuntimeError,
    RulespecError,
)
from rulespec.lang.model import CheckedSpec
from rulespec.loading import game_for, resolve
from rulespec.shown import escape_line

__all__ = [
    "MAX_ANSWER_DEPTH",
    "Implementation",
    "ProcessImplementation",
    "SpecImplementation",
    "json_problem",
    "load_python_impl",
    "serve",
]


class Implementation(Protocol):
    """What ``rulespec verify`` drives (protocol.md, "In Python")."""

    def new(self, game: str, players: int, options: Mapping[str, object],
            dealer: int = 0) -> None:
        """Start a fresh match."""

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None when the match is over."""

    def legal(self) -> list[dict[str, object]]:
        """Every legal event."""

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply an event; raise ValueError if illegal (state unchanged)."""

    def result(self) -> dict[str, object]:
        """The replay answer for the events so far."""


class SpecImplementation:
    """The protocol over a spec's interpreter: the engine as an implementation like any other."""

    def __init__(self, base: Path | None = None, spec: CheckedSpec | None = None,
                 atomic: bool = False, name: str | None = None) -> None:
        self.base = base
        #: when given, every match is of this spec, whatever ``new`` names (``rulespec diff``)
        self.spec = spec
        #: when given (with ``spec``), the one game name ``new`` accepts: ``rulespec serve
        #: FILE`` serves a user's spec under the name its game line declares, and no other
        self.name = name
        #: whether an event that fails with a rule's runtime error leaves the match as it was
        #: (a copy kept of each state before its event: what a server owes its client; a
        #: driver that plays many games in process does without)
        self.atomic = atomic
        self.state: State | None = None

    @classmethod
    def serving(cls, spec_file: str, base: Path) -> SpecImplementation:
        """``rulespec serve FILE``: the spec ``spec_file`` (relative to ``base``), checked now,
        served atomically under the name its game line declares and no other."""
        spec = resolve(spec_file, base).spec
        return cls(base, spec, atomic=True, name=spec.name)

    def new(self, game: str, players: int, options: Mapping[str, object] | None = None,
            dealer: int = 0) -> None:
        """Start a fresh match (RecordError for a table the spec does not offer)."""
        if not isinstance(game, str):
            raise RecordError("'game' names a shipped game or a .rules file")
        if self.name is not None and game != self.name:
            raise RecordError(f"unknown game {escape_line(repr(game))}: this server serves "
                              f"{self.name!r} only")
        # the requests of the user's own driver: trusted as given (docs/security.md)
        spec = self.spec or resolve(game, self.base).spec
        self.state = game_for(spec, players, options or {}, dealer).new_initial_state()

    def _st(self) -> State:
        if self.state is None:
            raise RecordError("no match: send 'new' first")
        return self.state

    # The three calls of every step read the state inline (no _st() call): a driver that
    # plays many games pays for these wrappers on every event.
    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None when the match is over."""
        st = self.state
        if st is None:
            raise RecordError("no match: send 'new' first")
        return st.to_move

    def legal(self) -> list[dict[str, object]]:
        """Every legal event in canonical order."""
        st = self.state
        if st is None:
            raise RecordError("no match: send 'new' first")
        return st.legal_actions()

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply an event; IllegalActionError (a ValueError) leaves the state unchanged."""
        st = self.state
        if st is None:
            raise RecordError("no match: send 'new' first")
        if not self.atomic:
            st.apply(event)
            return
        before = st.clone()
        try:
            st.apply(event)
        except RuleRuntimeError:
            self.state = before  # the rule failed halfway: the match is as it was
            raise

    def result(self) -> dict[str, object]:
        """The replay answer for the events applied so far."""
        return self._st().result()

    def observe(self, seat: int) -> dict[str, object]:
        """What ``seat`` may see; RecordError for a seat the table does not have."""
        st = self._st()
        if type(seat) is not int or not 0 <= seat < st.game.hands:
            raise RecordError(f"'seat' is a seat of this table, 0 to {st.game.hands - 1}, "
                              f"not {seat!r}")
        return st.observation(seat)

    def clone(self) -> SpecImplementation:
        """An independent copy of the match."""
        c = SpecImplementation(self.base, self.spec, name=self.name)
        c.state = self._st().clone()
        return c


#: the deepest answer an implementation may send: an answer of the shipped games is at most 5
#: levels deep (an observation's per-player zone of card lists inside ``zones``); a deeper one
#: would reach Python's recursion limit in the comparisons and the report
MAX_ANSWER_DEPTH = 32
#: the longest integer an answer may hold, in bits (4,000 decimal digits: Python writes no
#: integer of more than 4,300 digits as text)
MAX_INT_BITS = 13_288


def json_problem(x: object, max_depth: int = MAX_ANSWER_DEPTH) -> str | None:
    """What keeps ``x`` from being a JSON value rulespec can compare and report, or None: a
    value that is not null, a boolean, a string, a finite number, a list or an object with
    string keys; an integer of more than 4,000 digits; lists and objects nested more than
    ``max_depth`` deep. Iterative, so no value reaches the recursion limit here."""
    stack: list[tuple[object, int]] = [(x, 0)]
    while stack:
        y, d = stack.pop()
        if y is None or isinstance(y, (bool, str)):
            continue
        if isinstance(y, int):
            if y.bit_length() > MAX_INT_BITS:
                return "an integer of more than 4,000 digits"
        elif isinstance(y, float):
            if not math.isfinite(y):
                return f"{y!r}, which is not a JSON number"
        elif isinstance(y, (list, dict)):
            if d >= max_depth:
                return f"lists or objects nested more than {max_depth} levels deep"
            if isinstance(y, dict):
                if not all(isinstance(k, str) for k in y):
                    return "an object key that is not a string"
                y = list(y.values())
            stack.extend((z, d + 1) for z in y if not isinstance(z, (str, bool)))
        else:
            return f"a Python {type(y).__name__}, which is not a JSON value"
    return None


def _not_json(constant: str) -> object:
    raise ValueError(f"{constant} is not JSON")


#: how much longer than the timeout the first answer of each process started may take, by
#: default: its start-up (an interpreter, a virtual machine, its libraries) comes before it
START_SECONDS = 10.0


class ProcessImplementation:
    """An implementation in any language: a child process speaking JSON lines.

    Every request has a deadline (``timeout`` seconds) and every answer line a size bound, so an
    implementation that hangs, floods or dies is reported as an :class:`ImplementationError`,
    never waited on forever. What the child writes to standard error is kept (the last
    ``STDERR_LINES`` lines) for reports. After a failure the process is stopped; the next
    ``new`` starts a fresh one.
    """

    STDERR_LINES = 40
    MAX_LINE = 16 * 1024 * 1024

    def __init__(self, command: Sequence[str], timeout: float = 10.0,
                 cwd: str | Path | None = None, start_seconds: float = START_SECONDS) -> None:
        if not command:
            raise ImplementationStartError("the --impl command is empty")
        self.command = list(command)
        self.timeout = timeout
        self.start_seconds = start_seconds
        self.cwd = cwd
        #: the slowest answer seen so far, in seconds (verify bases short timeouts on it)
        self.slowest = 0.0
        self.round_trips = 0
        self.proc: subprocess.Popen[bytes] | None = None
        #: whether the process now running has not answered yet (it may still be starting)
        self.starting = True
        self._stderr: collections.deque[str] = collections.deque(maxlen=self.STDERR_LINES)
        self._buf = bytearray()
        self._start()

    # ---- the process ----------------------------------------------------------------------
    def _start(self) -> None:
        try:
            # its own process group, so a wrapper's children (sh -c, npm) are stopped with it
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         cwd=self.cwd, start_new_session=True)
        except FileNotFoundError:
            raise ImplementationStartError(
                f"cannot start the implementation: no program {self.command[0]!r} (check "
                "the --impl command and its quoting)") from None
        except (PermissionError, OSError) as e:
            raise ImplementationStartError(
                f"cannot start the implementation {self.command[0]!r}: {e}") from None
        self._buf = bytearray()
        self.starting = True
        self._stderr.clear()
        err = self.proc.stderr
        assert err is not None
        self._drainer = threading.Thread(target=self._drain, args=(err.fileno(), self._stderr),
                                         daemon=True)
        self._drainer.start()

    @staticmethod
    def _drain(fd: int, into: collections.deque[str]) -> None:
        # A thread per child keeps its standard error flowing (a full pipe would block it)
        # and keeps the last lines, each cut to a readable length. It reads the raw file
        # descriptor, so closing the pipe never waits on a buffered reader's lock.
        rest = b""
        try:
            while True:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                rest += chunk
                *lines, rest = rest.split(b"\n")
                for raw in lines:
                    into.append(raw.decode("utf-8", "replace")[:500])
                rest = rest[-4096:]
        except (OSError, ValueError):
            pass
        if rest:
            into.append(rest.decode("utf-8", "replace")[:500])

    def stderr_tail(self) -> list[str]:
        """The last lines the implementation wrote to standard error."""
        drainer = getattr(self, "_drainer", None)
        if self.proc is not None and self.proc.poll() is not None and drainer is not None:
            drainer.join(timeout=0.5)  # a child that just died: let the drain reach its end
        return list(self._stderr)

    def _fail(self, kind: str, message: str) -> ImplementationError:
        tail = self.stderr_tail()
        self.stop()
        return ImplementationError(kind, message, tail)

    def _exit_message(self, op: str) -> str:
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        how = f"with code {code}" if code is not None else "its output"
        return f"the implementation exited ({how}) while answering {op!r}"

    def _ask(self, req: Mapping[str, object],
             timeout: float | None = None) -> dict[str, object]:
        op = str(req["op"])
        if self.proc is None or self.proc.poll() is not None:
            if self.proc is not None:
                raise self._fail("exit", self._exit_message(op))
            self._start()
        proc = self.proc
        assert proc is not None and proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write((json.dumps(req, ensure_ascii=False) + "\n").encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail("exit", self._exit_message(op)) from None
        limit = self.timeout if timeout is None else timeout
        if self.starting:
            limit += self.start_seconds
        t0 = time.monotonic()
        line = self._read_line(op, limit, t0 + limit)
        took = time.monotonic() - t0
        if not self.starting:  # a start-up says nothing of how long an answer takes
            self.slowest = max(self.slowest, took)
        self.starting = False
        self.round_trips += 1
        return self._decode(op, line)

    def _read_line(self, op: str, limit: float, deadline: float) -> bytes:
        """The next line the child writes, without its newline, read by ``deadline``."""
        proc = self.proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        buf = self._buf
        while True:
            nl = buf.find(b"\n")
            if nl >= 0:
                line = bytes(buf[:nl])
                del buf[: nl + 1]
                return line
            if len(buf) > self.MAX_LINE:
                raise self._fail("garbage", f"the answer to {op!r} is longer than "
                                 f"{self.MAX_LINE // (1024 * 1024)} MiB with no newline")
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail("timeout", f"no answer to {op!r} within {limit:g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise self._fail("exit", self._exit_message(op))
            buf += chunk

    def _decode(self, op: str, line: bytes) -> dict[str, object]:
        """The answer ``line`` to ``op`` read as a JSON object, or a garbage divergence."""
        try:
            ans = json.loads(line.decode("utf-8"), parse_constant=_not_json)
        except (ValueError, RecursionError) as e:
            # ValueError: not UTF-8, not JSON (NaN and Infinity included), or an integer past
            # Python's int-string limit (4,300 digits); RecursionError: nested past what the
            # JSON reader takes. Either way the implementation's answer, never our traceback.
            shown = line[:200].decode("utf-8", "replace")
            why = ("nested too deeply" if isinstance(e, RecursionError) else
                   "a number too long to read" if "digits" in str(e) else "not JSON")
            raise self._fail("garbage", f"the answer to {op!r} is {why}: {shown!r}") \
                from None
        if not isinstance(ans, dict):
            raise self._fail("garbage", f"the answer to {op!r} is not a JSON object")
        # what json.loads gives is JSON but for its depth: the walk, where the text has the
        # brackets for it
        if line.count(b"[") + line.count(b"{") > MAX_ANSWER_DEPTH:
            deep = json_problem(ans)
            if deep is not None:
                raise self._fail("garbage", f"the answer to {op!r} holds {deep}")
        return ans

    # ---- the protocol ---------------------------------------------------------------------
    def new(self, game: str, players: int, options: Mapping[str, object] | None = None,
            dealer: int = 0) -> None:
        """Start a fresh match in the child (a fresh child after a failure); RecordError when
        the implementation does not offer the table."""
        if self.proc is None or self.proc.poll() is not None:
            self.stop()
            self._start()
        ans = self._ask({"op": "new", "game": game, "players": players,
                         "options": dict(options or {}), "dealer": dealer})
        if ans.get("ok") is not True:
            raise RecordError(str(ans.get("error", "the implementation refused the table")))

    def _ok(self, ans: dict[str, object], op: str) -> dict[str, object]:
        if ans.get("ok") is not True:
            raise self._fail("shape", f"the implementation answered {op!r} with an error: "
                             f"{str(ans.get('error', ans))[:300]}")
        return ans

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None."""
        ans = self._ok(self._ask({"op": "to_move"}), "to_move")
        if "to_move" not in ans:
            raise self._fail("shape", "the answer to 'to_move' has no 'to_move'")
        # whatever JSON the child sent: the verifier checks its shape
        return cast("int | str | None", ans["to_move"])

    def legal(self) -> list[dict[str, object]]:
        """Every legal event, as the child lists them."""
        ans = self._ok(self._ask({"op": "legal"}), "legal")
        legal = ans.get("legal")
        if not isinstance(legal, list) or not all(isinstance(e, dict) for e in legal):
            raise self._fail("shape", "the answer to 'legal' has no list of event objects")
        return legal

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply an event in the child; IllegalActionError if it refuses."""
        ans = self._ask({"op": "apply", "event": dict(event)})
        if ans.get("ok") is not True:
            raise IllegalActionError(str(ans.get("error", "refused")))

    def result(self) -> dict[str, object]:
        """The child's replay answer."""
        return self._ask({"op": "result"})

    def observe(self, seat: int) -> dict[str, object] | None:
        """What the child shows ``seat``, or None when it does not answer ``observe``."""
        ans = self._ask({"op": "observe", "seat": seat})
        if ans.get("ok") is not True:
            return None
        obs = ans.get("observation")
        if not isinstance(obs, dict):
            raise self._fail("shape", "the answer to 'observe' has no observation object")
        return obs

    def stop(self) -> None:
        """Stop the child at once (after a failure); safe to call twice."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)  # the child and anything it started
        if proc.poll() is None:
            proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL
            pass
        drainer = getattr(self, "_drainer", None)
        if drainer is not None:
            drainer.join(timeout=1)  # it ends at the dead child's end of file
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()

    def close(self) -> None:
        """Ask the child to quit, give it a moment, then stop it (safe to call twice)."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                assert proc.stdin is not None
                proc.stdin.write(b'{"op": "quit"}\n')
                proc.stdin.flush()
                proc.stdin.close()
                proc.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.stop()


def load_python_impl(target: str) -> Callable[[], Implementation]:
    """``MODULE:ATTR`` (or ``path/to/file.py:ATTR``) to a factory of implementations.

    ATTR may be a class, a function returning an implementation, or an implementation object
    (then every match reuses it). The current folder is importable, as it is for ``python -m``.
    """
    mod, sep, attr = target.rpartition(":")
    if not sep or not mod or not attr:
        raise ImplementationStartError(f"--python takes MODULE:ATTR, not {target!r}")
    try:
        if mod.endswith(".py"):
            path = Path(mod)
            if not path.is_file():
                raise ImplementationStartError(f"--python: no file {mod!r}")
            folder = str(path.resolve().parent)
            if folder not in sys.path:
                sys.path.insert(0, folder)  # so the file's own sibling imports work
            name = f"_rulespec_impl_{path.stem}"
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise ImplementationStartError(f"--python: cannot import {mod!r}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(mod)
        obj = getattr(module, attr)
    except ImplementationStartError:
        raise
    except AttributeError:
        raise ImplementationStartError(f"--python: module {mod!r} has no {attr!r}") from None
    except ImportError as e:
        raise ImplementationStartError(
            escape_line(f"--python: cannot import {mod!r}: {e}")) from None
    except Exception as e:  # noqa: BLE001 - the user's module failed while importing
        raise ImplementationStartError(escape_line(
            f"--python: importing {mod!r} failed: {type(e).__name__}: {e}")) from None
    if isinstance(obj, type):
        _check_verbs(target, obj, "the class")
        return obj
    if hasattr(obj, "new"):
        _check_verbs(target, obj, "the object")
        return lambda: obj
    if callable(obj):
        def make() -> Implementation:
            impl = obj()
            _check_verbs(target, impl, "what it returns")
            return cast("Implementation", impl)
        return make
    raise ImplementationStartError(f"--python: {target} is not a class, a factory or an "
                                   "implementation object")


#: the methods every Python implementation has (``observe`` is optional)
VERBS = ("new", "to_move", "legal", "apply", "result")


def _check_verbs(target: str, obj: object, what: str) -> None:
    """ImplementationStartError unless ``obj`` has every method of the protocol."""
    missing = [v for v in VERBS if not callable(getattr(obj, v, None))]
    if len(missing) == len(VERBS):
        raise ImplementationStartError(
            f"--python: {target} is not an implementation: {what} has none of the protocol's "
            f"methods ({', '.join(VERBS)}; protocol.md §1.2)")
    if missing:
        raise ImplementationStartError(
            f"--python: {target} is not an implementation: {what} has no "
            f"{', '.join(missing)} method{'s' if len(missing) > 1 else ''} (protocol.md §1.2)")


#: the longest request line serve reads (in characters); a longer one is refused, unread
MAX_LINE = 16 * 1024 * 1024


class _Idle(Exception):
    """No request came within the idle timeout (raised by the alarm, caught by serve)."""


def serve(inp: IO[str], out: IO[str], base: Path | None = None,
          impl: Implementation | None = None, idle_timeout: float | None = None) -> bool:
    """Answer protocol requests from ``inp`` on ``out`` until ``quit`` or end of input, or
    until no request has come for ``idle_timeout`` seconds (None or 0: no limit). True when
    it stopped for being idle.

    ``impl`` is any Python implementation (protocol.md, "In Python"); by default the spec's
    own engine. An implementation that raises anything but ValueError or a RulespecError has
    crashed: the traceback goes to standard error and the exception propagates, as a crashing
    program's would.
    """
    if idle_timeout is not None and not (math.isfinite(idle_timeout) and idle_timeout >= 0):
        raise ValueError(f"idle_timeout is a finite number of seconds, not {idle_timeout!r}")
    if impl is None:
        impl = SpecImplementation(base, atomic=True)
    while True:
        try:
            line = _read_request(inp, idle_timeout)
        except _Idle:
            return True
        if not line:
            return False
        if len(line) > MAX_LINE and not line.endswith("\n"):
            # read to the end of the line a piece at a time (never all of it at once), and
            # refuse it
            while (rest := inp.readline(1 << 20)) and not rest.endswith("\n"):
                pass
            out.write(json.dumps({"ok": False, "error": f"a request line is at most "
                                  f"{MAX_LINE} characters"}) + "\n")
            out.flush()
            continue
        with contextlib.redirect_stdout(sys.stderr):  # the implementation's prints
            ans = _answer(impl, line, isinstance(impl, SpecImplementation))
        if ans is None:
            if line.strip():
                return False
            continue
        out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()


def _read_request(inp: IO[str], idle_timeout: float | None) -> str:
    """The next request line (at most MAX_LINE + 1 characters), or _Idle when none has come
    within ``idle_timeout`` seconds. The wait is an alarm, so it needs the main thread of a
    POSIX process; elsewhere serve waits as long as it takes."""
    import signal
    import threading

    if not idle_timeout or not hasattr(signal, "setitimer") \
            or threading.current_thread() is not threading.main_thread():
        return inp.readline(MAX_LINE + 1)

    def ring(signum: int, frame: object) -> None:
        raise _Idle

    before = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, idle_timeout)
    try:
        return inp.readline(MAX_LINE + 1)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)


def _answer(impl: Implementation, line: str, lenient: bool) -> dict[str, object] | None:
    """The answer to one request line; None for ``quit`` (or a blank line). ``lenient``: a
    TypeError (a request with a value of the wrong type) is answered as an error too, as the
    engine's own server does; a user's implementation that raises one has crashed."""
    if not line.strip():
        return None
    try:
        req = json.loads(line)
        op = req.get("op") if isinstance(req, dict) else None
        ans: dict[str, object]
        if op == "quit":
            return None
        if op == "new":
            impl.new(req.get("game", ""), req.get("players"), req.get("options") or {},
                     req.get("dealer", 0))
            ans = {"ok": True}
        elif op == "to_move":
            ans = {"ok": True, "to_move": impl.to_move()}
        elif op == "legal":
            ans = {"ok": True, "legal": impl.legal()}
        elif op == "apply":
            impl.apply(req.get("event"))
            ans = {"ok": True}
        elif op == "result":
            ans = impl.result()
        elif op == "observe":
            observe = getattr(impl, "observe", None)
            if observe is None:
                ans = {"ok": False, "error": "unsupported"}
            else:
                ans = {"ok": True, "observation": observe(req.get("seat"))}
        else:
            ans = {"ok": False, "error": f"unknown request {op!r}"}
    except (json.JSONDecodeError, RecursionError):
        ans = {"ok": False, "error": "a request is one JSON object per line (not nested "
                                     "deeper than JSON readers allow)"}
    except (RulespecError, ValueError) as e:
        ans = {"ok": False, "error": str(e)}
    except TypeError as e:
        if not lenient:
            raise
        ans = {"ok": False, "error": str(e)}
    return ans
