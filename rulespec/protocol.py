"""The implementation protocol (protocol.md): how rulespec talks to any game engine.

:class:`SpecImplementation` speaks it for a spec's interpreter; :class:`ProcessImplementation`
speaks it to a child process over JSON lines; :func:`serve` answers it on a stream, so the engine
itself can be driven by someone else's verifier.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any, Protocol

from rulespec.errors import IllegalActionError, RecordError, RulespecError
from rulespec.interpreter.engine import State
from rulespec.records import game_for, load_game_spec, resolve_game

__all__ = ["Implementation", "ProcessImplementation", "SpecImplementation", "serve"]


class Implementation(Protocol):
    """What ``rulespec verify`` drives (protocol.md, "In Python")."""

    def new(self, game: str, players: int, options: Mapping[str, Any], dealer: int = 0) -> None:
        """Start a fresh match."""

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None when the match is over."""

    def legal(self) -> list[dict[str, Any]]:
        """Every legal event."""

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply an event; raise ValueError if illegal (state unchanged)."""

    def result(self) -> dict[str, Any]:
        """The replay answer for the events so far."""


class SpecImplementation:
    """The protocol over a spec's interpreter: the engine as an implementation like any other."""

    def __init__(self, base: Path | None = None) -> None:
        self.base = base
        self.state: State | None = None

    def new(self, game: str, players: int, options: Mapping[str, Any] | None = None,
            dealer: int = 0) -> None:
        """Start a fresh match (RecordError for a table the spec does not offer)."""
        spec = load_game_spec(resolve_game(game, self.base))
        self.state = game_for(spec, players, options or {}, dealer).new_initial_state()

    def _st(self) -> State:
        if self.state is None:
            raise RecordError("no match: send 'new' first")
        return self.state

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None when the match is over."""
        return self._st().current_player()

    def legal(self) -> list[dict[str, Any]]:
        """Every legal event in canonical order."""
        return self._st().legal_actions()

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply an event; IllegalActionError (a ValueError) leaves the state unchanged."""
        self._st().apply(event)

    def result(self) -> dict[str, Any]:
        """The replay answer for the events applied so far."""
        return self._st().result()

    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see."""
        return self._st().observation(seat)

    def clone(self) -> SpecImplementation:
        """An independent copy of the match."""
        c = SpecImplementation(self.base)
        c.state = self._st().clone()
        return c


class ProcessImplementation:
    """An implementation in any language: a child process speaking JSON lines."""

    def __init__(self, command: Sequence[str], timeout: float = 30.0) -> None:
        self.command = list(command)
        self.timeout = timeout
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)

    def _ask(self, req: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise RecordError(f"the implementation exited (request {req['op']!r})") from None
        line = self.proc.stdout.readline()
        if not line:
            raise RecordError(f"the implementation exited (request {req['op']!r})")
        try:
            ans = json.loads(line)
        except json.JSONDecodeError:
            raise RecordError(f"the implementation answered with no JSON: {line[:200]!r}") \
                from None
        if not isinstance(ans, dict):
            raise RecordError("the implementation's answer is not a JSON object")
        return ans

    def new(self, game: str, players: int, options: Mapping[str, Any] | None = None,
            dealer: int = 0) -> None:
        """Start a fresh match in the child."""
        ans = self._ask({"op": "new", "game": game, "players": players,
                         "options": dict(options or {}), "dealer": dealer})
        if not ans.get("ok"):
            raise RecordError(str(ans.get("error", "the implementation refused the table")))

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None."""
        return self._ask({"op": "to_move"}).get("to_move")  # type: ignore[no-any-return]

    def legal(self) -> list[dict[str, Any]]:
        """Every legal event, as the child lists them."""
        return list(self._ask({"op": "legal"}).get("legal", []))

    def apply(self, event: Mapping[str, Any]) -> None:
        """Apply an event in the child; ValueError if it refuses."""
        ans = self._ask({"op": "apply", "event": dict(event)})
        if not ans.get("ok"):
            raise IllegalActionError(str(ans.get("error", "refused")))

    def result(self) -> dict[str, Any]:
        """The child's replay answer."""
        return self._ask({"op": "result"})

    def close(self) -> None:
        """Ask the child to quit, wait for it and close the pipes (safe to call twice)."""
        if self.proc.returncode is not None:
            return
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps({"op": "quit"}) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None:
                pipe.close()


def serve(inp: IO[str], out: IO[str], base: Path | None = None) -> None:
    """Answer protocol requests from ``inp`` on ``out`` until ``quit`` or end of input."""
    impl = SpecImplementation(base)
    for line in inp:
        if not line.strip():
            continue
        try:
            req = json.loads(line)
            op = req.get("op") if isinstance(req, dict) else None
            ans: dict[str, Any]
            if op == "quit":
                return
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
                ans = {"ok": True, "observation": impl.observe(req.get("seat"))}
            else:
                ans = {"ok": False, "error": f"unknown request {op!r}"}
        except json.JSONDecodeError:
            ans = {"ok": False, "error": "a request is one JSON object per line"}
        except (RulespecError, ValueError, TypeError) as e:
            ans = {"ok": False, "error": str(e)}
        out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()
