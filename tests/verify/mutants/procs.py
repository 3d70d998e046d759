"""Process-only misbehaviours: ``python -m tests.verify.mutants.procs MODE``.

A JSON-lines server (protocol.md: one request per line on stdin, one answer line per request on
stdout, flushed) around a correct Vändåtta oracle, misbehaving as MODE says:

* ``garbage``: answers the 11th request with a line that is not JSON (then goes on normally);
* ``flood``: at the 11th request writes 50 MB without any newline, then sleeps (an hour at
  most, so a forgotten process does not live forever);
* ``exit_at_once``: writes one line to stderr and exits with code 4 before reading anything;
* ``silent``: reads requests and never answers (exits at the end of its input);
* ``exit_after_first``: answers its first request, then writes one line to stderr and exits
  with code 4 at the second;
* ``silent_after_first``: answers its first request, then never answers again;
* ``stderr_then_die``: answers 15 requests; at the 16th writes ``fatal: deck corrupted`` to
  stderr and exits with code 1.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from .base import VandattaView

MODES = ("garbage", "flood", "exit_at_once", "silent", "exit_after_first",
         "silent_after_first", "stderr_then_die")


def answer(impl: VandattaView, req: Any) -> dict[str, Any]:
    """The protocol answer to one request (``quit`` is handled by the caller)."""
    if not isinstance(req, dict):
        return {"ok": False, "error": "a request is a JSON object"}
    op: Any = req.get("op")
    arg: Any = req.get
    try:
        if op == "new":
            impl.new(arg("game", ""), arg("players"), arg("options") or {}, arg("dealer", 0))
            return {"ok": True}
        if op == "to_move":
            return {"ok": True, "to_move": impl.to_move()}
        if op == "legal":
            return {"ok": True, "legal": impl.legal()}
        if op == "apply":
            impl.apply(arg("event"))
            return {"ok": True}
        if op == "result":
            return impl.result()
        if op == "observe":
            return {"ok": True, "observation": impl.observe(arg("seat"))}
        return {"ok": False, "error": f"unknown request {op!r}"}
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        return {"ok": False, "error": str(e) or type(e).__name__}


def _sleep(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(1)


def serve(mode: str) -> int:
    """Run the server in ``mode``; the process's exit code."""
    if mode == "exit_at_once":
        sys.stderr.write("procs: exit_at_once: cannot start\n")
        sys.stderr.flush()
        return 4
    impl = VandattaView()
    out = sys.stdout
    n = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        n += 1
        if mode == "silent" or (mode == "silent_after_first" and n > 1):
            continue
        if mode == "exit_after_first" and n == 2:
            sys.stderr.write("procs: exit_after_first: lost the deck\n")
            sys.stderr.flush()
            return 4
        if mode == "stderr_then_die" and n == 16:
            sys.stderr.write("fatal: deck corrupted\n")
            sys.stderr.flush()
            return 1
        if mode == "flood" and n == 11:
            chunk = "x" * (1 << 20)
            try:
                for _ in range(50):
                    out.write(chunk)
                out.flush()
            except BrokenPipeError:
                return 1
            _sleep(3600)
            return 0
        try:
            req = json.loads(line)
        except json.JSONDecodeError:
            ans: dict[str, Any] = {"ok": False, "error": "a request is one JSON object per line"}
        else:
            if isinstance(req, dict) and req.get("op") == "quit":
                return 0
            ans = answer(impl, req)
        if mode == "garbage" and n == 11:
            out.write("<html>500 Internal Server Error {not json\n")
        else:
            out.write(json.dumps(ans, ensure_ascii=False) + "\n")
        out.flush()


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in MODES:
        sys.stderr.write(f"usage: python -m tests.verify.mutants.procs {{{'|'.join(MODES)}}}\n")
        return 2
    return serve(argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
