"""The implementation behind a guard: every call timed, every misbehaviour (a crash, an exit,
garbage, a hang) turned into an :class:`ImplementationError`, and the implementation made anew
after one."""

from __future__ import annotations

import contextlib
import shlex
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from rulespec.errors import (
    IllegalActionError,
    ImplementationError,
    ImplementationStartError,
    RecordError,
)
from rulespec.protocol import Implementation, ProcessImplementation, json_problem
from rulespec.shown import escape_line

__all__ = ["Guard", "Watchdog"]


class Watchdog:
    """Interrupts a Python implementation's call that runs past its timeout.

    Only possible in the main thread (a SIGINT to it); elsewhere calls run unguarded. One
    daemon thread polls a timestamp, so a call costs two attribute writes. The signal is
    verify's own, so a SIGINT handler tells it from a user's Ctrl-C: it interrupts only the
    call it was sent for, and one that arrives after that call has answered (a loaded machine
    can delay it) is dropped rather than landing in verify's own code.
    """

    def __init__(self) -> None:
        self.timeout = 10.0
        self.started: float | None = None
        #: the start of the call the watchdog sent its signal for, until the handler takes it
        self.fired_for: float | None = None
        #: set by the handler when it interrupts a call for its timeout
        self.timed_out = False
        self.enabled = threading.current_thread() is threading.main_thread()
        self._stop = threading.Event()
        if self.enabled:
            self._before = signal.signal(signal.SIGINT, self._on_sigint)
            threading.Thread(target=self._watch, daemon=True).start()

    def stop(self) -> None:
        """End the polling thread and give SIGINT its handler back: a process that verifies
        again and again (a test suite, a fuzzer's worker) keeps no thread nor handler of a
        run that is over."""
        if self.enabled and not self._stop.is_set():
            self._stop.set()
            if signal.getsignal(signal.SIGINT) == self._on_sigint:
                signal.signal(signal.SIGINT, self._before)

    def _watch(self) -> None:
        while not self._stop.wait(0.05):
            t = self.started
            if t is not None and self.fired_for is None and time.monotonic() - t > self.timeout \
                    and self.started is t:
                self.fired_for = t
                # a real signal, so a call blocked in sleep() or a lock wakes up too
                signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)

    def unraisable(self, before: Callable[[sys.UnraisableHookArgs], object]
                   ) -> Callable[[sys.UnraisableHookArgs], None]:
        """A ``sys.unraisablehook`` for the span of a guarded call: the interrupt this watchdog
        raised where Python cannot raise (a gc or weakref callback, a finalizer: it reports
        such an exception as unraisable and goes on) is dropped, and the watchdog sends it
        again at its next look; anything else goes to ``before``."""
        def hook(args: sys.UnraisableHookArgs) -> None:
            if args.exc_type is KeyboardInterrupt and self.timed_out:
                self.timed_out = False
                return
            before(args)
        return hook

    def _on_sigint(self, signum: int, frame: object) -> None:
        t = self.fired_for
        if t is None:  # the user's Ctrl-C: as it would have been without verify
            before = self._before
            if before == signal.SIG_IGN:
                return
            if callable(before):
                before(signum, frame)  # type: ignore[arg-type]
                return
            raise KeyboardInterrupt
        self.fired_for = None
        if self.started is t:
            self.timed_out = True
            raise KeyboardInterrupt
        # the call has answered since: the signal is stale, and nothing is interrupted


#: what a guarded call into the implementation returns
_T = TypeVar("_T")


class Guard:
    """Calls into the implementation, turning every misbehaviour into an ImplementationError,
    and recreating the implementation after one.

    Until the implementation has answered once, a failure is not a divergence but a
    usage error (ImplementationStartError): an implementation that cannot be made, or a
    program that exits, writes no JSON or stays silent before its first answer, does not
    speak the protocol (a wrong command, a path that does not exist where verify runs), and a
    record of no events would say nothing about the rules."""

    def __init__(self, factory: Callable[[], Implementation], timeout: float) -> None:
        self.factory = factory
        self.timeout = timeout
        self.impl: Implementation | None = None
        self.is_process = False
        self.watchdog: Watchdog | None = None
        self.slowest = 0.0
        self.round_trips = 0
        #: whether the implementation has answered a request (refusals included)
        self.answered = False
        try:
            self._fresh()
        except ImplementationError as e:
            raise ImplementationStartError(
                escape_line(f"the implementation cannot be made: {e.message}")
                + "".join(f"\n    | {escape_line(line)}" for line in e.stderr[-12:])) from None

    def _drop(self) -> None:
        """Forget the implementation after a failure, stopping it if it is a process."""
        old, self.impl = self.impl, None
        stop = getattr(old, "stop", None)
        if callable(stop):
            with contextlib.suppress(Exception):
                stop()

    def _fresh(self) -> Implementation:
        """A new implementation from the factory, the old one dropped."""
        self._drop()
        impl = self.call("start", self.factory)
        self.impl = impl
        self.is_process = isinstance(impl, ProcessImplementation)
        if isinstance(impl, ProcessImplementation):
            impl.timeout = self.timeout
        elif self.watchdog is None:
            self.watchdog = Watchdog()
        return impl

    def set_timeout(self, seconds: float) -> None:
        """The per-call timeout from now on."""
        self.timeout = seconds
        if isinstance(self.impl, ProcessImplementation):  # None: dropped, the next one gets it
            self.impl.timeout = seconds

    def call(self, op: str, fn: Callable[..., _T], *args: object) -> _T:
        """``fn(*args)``; IllegalActionError/RecordError pass through (refusals), anything else
        the implementation does wrong becomes an ImplementationError."""
        wd = self.watchdog
        try:
            return self._timed(op, fn, args)
        except ImplementationStartError:
            raise
        except ImplementationError as e:
            if not self.is_process:
                self.impl = None
            elif not self.answered:
                raise self._never_answered(op, e) from None
            raise
        except (IllegalActionError, RecordError, ValueError) as e:
            if op in ("apply", "new"):
                self.answered = True
                raise
            raise ImplementationError(
                "crash", f"{op!r} raised {type(e).__name__}: {e}", _tb_tail(e)) from None
        except KeyboardInterrupt:
            if wd is not None and wd.timed_out:
                wd.timed_out = False
                self._drop()
                raise ImplementationError(
                    "timeout", f"no answer to {op!r} within {self.timeout:g} s") from None
            raise
        except SystemExit as e:
            self._drop()
            raise ImplementationError("exit", f"the implementation exited ({e.code!r}) in "
                                      f"{op!r}") from None
        except RecursionError as e:
            self._drop()
            raise ImplementationError("crash", f"{op!r} raised RecursionError",
                                      _tb_tail(e)) from None
        except Exception as e:  # noqa: BLE001 - anything the implementation raises is its bug
            self._drop()
            raise ImplementationError(
                "crash", f"{op!r} raised {type(e).__name__}: {e}", _tb_tail(e)) from None

    def _timed(self, op: str, fn: Callable[..., _T], args: tuple[object, ...]) -> _T:
        """``fn(*args)`` under the watchdog, counted and timed; a Python implementation's
        answer is checked to be JSON."""
        wd = self.watchdog
        # the first answer of a process just started waits for its start-up too, and says
        # nothing of how long an answer takes
        starting = self.is_process and getattr(self.impl, "starting", False)
        t0 = time.monotonic()
        hook = sys.unraisablehook
        if wd is not None and wd.enabled:
            wd.timeout = self.timeout
            wd.timed_out = False
            sys.unraisablehook = wd.unraisable(hook)
            wd.started = t0
        try:
            if self.is_process:
                out = fn(*args)
            else:
                # a Python implementation's prints must not reach verify's own output
                with contextlib.redirect_stdout(sys.stderr):
                    out = fn(*args)
        finally:
            if wd is not None:
                wd.started = None
                sys.unraisablehook = hook
            self.round_trips += 1
        # only answers count toward the slowest: a hang's short timeout is based on it
        if not starting:
            self.slowest = max(self.slowest, time.monotonic() - t0)
        if op != "start":
            self.answered = True
        if not self.is_process and op != "start":
            # a Python implementation's answer may be any object (a process's was read as
            # JSON, and checked then): what cannot be compared and reported without
            # recursing past Python's limit or failing to print is its garbage
            why = json_problem(out)
            if why is not None:
                raise ImplementationError("shape", f"its answer to {op!r} holds {why}")
        return out

    def _never_answered(self, op: str, e: ImplementationError) -> ImplementationStartError:
        """The usage error for a program that failed before its first answer, with the
        last lines it wrote to standard error."""
        command = shlex.join(getattr(self.impl, "command", []))
        cwd = getattr(self.impl, "cwd", None) or Path.cwd()
        head = (f"{e.message}, its first request: check that `{command}`, run in {cwd}, "
                "starts a program that speaks the protocol (docs/protocol.md)")
        tail = [f"    | {escape_line(line)}" for line in e.stderr[-12:]]
        head += "; its last lines on standard error:" if tail else \
            "; it wrote nothing to standard error"
        return ImplementationStartError("\n".join([escape_line(head), *tail]))

    def ready(self) -> Implementation:
        """The implementation, recreated if a failure discarded it."""
        return self._fresh() if self.impl is None else self.impl

    def stderr_tail(self) -> list[str]:
        """The last lines of the child's standard error (process implementations)."""
        if isinstance(self.impl, ProcessImplementation):
            return list(self.impl.stderr_tail())
        return []

    def close(self) -> None:
        """Ask the implementation to quit (a process) or drop it; stop the watchdog."""
        if self.impl is not None:
            close = getattr(self.impl, "close", None)
            if callable(close):
                with contextlib.suppress(Exception):
                    close()
        self.impl = None
        if self.watchdog is not None:
            self.watchdog.stop()
            self.watchdog = None


def _tb_tail(e: BaseException, n: int = 8) -> list[str]:
    tb = e.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next  # the implementation's frames only, not verify's own
    lines = traceback.format_exception(type(e), e, tb)
    text = "".join(lines).rstrip().splitlines()
    return text[-n:]

