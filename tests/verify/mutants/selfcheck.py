"""Self-check of the mutant catalogue: ``python -m tests.verify.mutants.selfcheck``.

For every Python mutant, random matches (seeded) are played at the mutant's ``shows`` setting,
driving the correct base (oracle + ``observe``) and the mutant side by side with the same
events: a random legal event of the correct side, a random permutation of a shuffle template.
After each step ``to_move`` and the set of legal events (canonical JSON) are compared, and the
result at the end; for ``leak`` mutants the observations, for ``illegal`` mutants the answer to
an illegal decision.  A mutant call that raises, exits, hangs (5 s) or answers the wrong shape
is a difference too.  Prints the number of matches until the first difference, or FAILED TO
DIFFER after ``--matches`` (200).  Then the process-only modes of ``procs.py`` are run once
each and their misbehaviour checked (``--no-procs`` skips that).  Exit code 1 if anything failed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import select
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from tests.alarm import alarm

from . import MUTANTS, Mutant
from .base import AbracadabraView, VandattaView

REFERENCE: dict[str, type] = {"vandatta": VandattaView, "abracadabra": AbracadabraView}
CALL_TIMEOUT = 5.0
MAX_STEPS = 20_000


class Differs(Exception):
    """The mutant differs from the correct implementation (the message says how)."""


class _Timeout(Exception):
    pass


def call(what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Call a mutant method; a raise, an exit or a hang becomes ``Differs``.  A ValueError
    (the protocol's refusal) passes through from ``new`` and ``apply`` only."""
    try:
        with alarm(CALL_TIMEOUT, _Timeout):
            return fn(*args)
    except _Timeout:
        raise Differs(f"{what}: no answer within {CALL_TIMEOUT:g} s") from None
    except SystemExit as e:
        raise Differs(f"{what}: exited with code {e.code}") from None
    except ValueError as e:
        if what.startswith(("new", "apply")):
            raise
        raise Differs(f"{what}: raised ValueError: {e}") from None
    except Exception as e:  # noqa: BLE001 - any crash of the mutant is the finding
        raise Differs(f"{what}: raised {type(e).__name__}: {e}") from None


def canon(e: Any) -> str:
    return json.dumps(e, sort_keys=True, separators=(",", ":"))


def load(path: str) -> type:
    module, _, cls = path.partition(":")
    obj = getattr(importlib.import_module(module), cls)
    assert isinstance(obj, type), path
    return obj


def setting(m: Mutant) -> tuple[int, dict[str, Any], int]:
    """(players, options, dealer) of the mutant's ``shows``."""
    shows: dict[str, Any] = m.shows
    return int(shows.get("players", 3)), dict(shows.get("options", {})), int(shows.get("dealer", 0))


def pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal event; a shuffle template becomes a random permutation of its cards."""
    ev = rng.choice(legal)
    if "chance" in ev and "cards" in ev:
        cards = list(ev["cards"])
        rng.shuffle(cards)
        return {"chance": ev["chance"], "cards": cards}
    return ev


def _check_illegal(ref: Any, mut: Any, seat: int, players: int) -> None:
    """An event from the wrong seat must be refused (ValueError), state unchanged."""
    bad = {"seat": (seat + 1) % players, "action": "draw"}
    try:
        ref.apply(bad)
    except ValueError:
        pass
    else:  # pragma: no cover - the reference is correct
        raise AssertionError("reference accepted an illegal event")
    try:
        call("apply(illegal)", mut.apply, bad)
    except ValueError:
        return
    raise Differs(f"apply accepted the illegal event {canon(bad)}")


def play_match(m: Mutant, cls: type, rng: random.Random) -> None:
    """One random match side by side; raises ``Differs`` at the first difference."""
    players, options, dealer = setting(m)
    ref = REFERENCE[m.game]()
    mut: Any = cls()
    ref.new(m.game, players, dict(options), dealer)
    try:
        call("new", mut.new, m.game, players, dict(options), dealer)
    except ValueError as e:
        raise Differs(f"new refused the setting: {e}") from None
    for _ in range(MAX_STEPS):
        tm = ref.to_move()
        tm_m = call("to_move", mut.to_move)
        if tm != tm_m:
            raise Differs(f"to_move {tm!r} != {tm_m!r}")
        if tm is None:
            r, r_m = ref.result(), call("result", mut.result)
            if canon(r) != canon(r_m):
                raise Differs(f"result {canon(r)[:200]} != {canon(r_m)[:200]}")
            return
        legal = ref.legal()
        legal_m = call("legal", mut.legal)
        if not isinstance(legal_m, list) or not all(isinstance(e, dict) for e in legal_m):
            raise Differs(f"legal answered a {type(legal_m).__name__}, not a list of events")
        a, b = {canon(e) for e in legal}, {canon(e) for e in legal_m}
        if a != b:
            only_ref, only_mut = sorted(a - b)[:2], sorted(b - a)[:2]
            raise Differs(f"legal: missing {only_ref} extra {only_mut}")
        if m.kind == "leak" and isinstance(tm, int):
            for s in range(players):
                o, o_m = ref.observe(s), call("observe", mut.observe, s)
                if canon(o) != canon(o_m):
                    raise Differs(f"observe({s}) {canon(o_m)[:120]}")
        if m.kind == "illegal" and isinstance(tm, int):
            _check_illegal(ref, mut, tm, players)
        ev = pick(legal, rng)
        ref.apply(ev)
        try:
            call("apply", mut.apply, ev)
        except ValueError as e:
            raise Differs(f"apply refused {canon(ev)[:80]}: {e}") from None


def check_mutant(m: Mutant, matches: int, seed: int) -> tuple[int | None, str]:
    """(match number of the first difference, how) or (None, "") if none was found."""
    assert m.python is not None
    cls = load(m.python)
    for i in range(1, matches + 1):
        rng = random.Random(f"{seed}:{m.name}:{i}")
        try:
            play_match(m, cls, rng)
        except Differs as d:
            return i, str(d)
    return None, ""


RULE_KINDS = ("legal", "turn", "effect", "score", "option", "table")


def check_consistent(m: Mutant, matches: int, seed: int) -> str | None:
    """A rule mutant played alone by its own legal lists: every listed event is accepted, and
    a clone keeps the class and the state.  The problem found, or None."""
    assert m.python is not None
    cls = load(m.python)
    players, options, dealer = setting(m)
    for i in range(1, matches + 1):
        rng = random.Random(f"own:{seed}:{m.name}:{i}")
        mut: Any = cls()
        mut.new(m.game, players, dict(options), dealer)
        for step in range(MAX_STEPS):
            if mut.to_move() is None:
                mut.result()
                break
            legal = mut.legal()
            if not legal:
                return f"match {i}: empty legal list at step {step}"
            if step % 7 == 0:
                twin: Any = mut.clone()
                same_class = type(twin) is cls
                if not same_class or canon(twin.legal()) != canon(legal):
                    return f"match {i}: clone differs at step {step}"
            ev = pick(legal, rng)
            try:
                mut.apply(ev)
            except ValueError as e:
                return f"match {i}: refused its own legal event {canon(ev)[:80]}: {e}"
    return None


# ---- process-only modes -------------------------------------------------------------------


class _Proc:
    """A child process with non-blocking reads of its stdout."""

    def __init__(self, mode: str) -> None:
        self.p = subprocess.Popen(
            [sys.executable, "-m", "tests.verify.mutants.procs", mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.buf = b""

    def send(self, req: dict[str, Any]) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write((json.dumps(req) + "\n").encode())
        self.p.stdin.flush()

    def read(self, timeout: float, want: int = 1 << 16) -> bytes:
        """Up to ``want`` bytes of stdout, waiting at most ``timeout`` in all."""
        assert self.p.stdout is not None
        fd = self.p.stdout.fileno()
        end = time.monotonic() + timeout
        while len(self.buf) < want and b"\n" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                break
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            self.buf += chunk
        return self.buf

    def line(self, timeout: float = 10.0) -> bytes | None:
        self.read(timeout)
        if b"\n" not in self.buf:
            return None
        ln, _, self.buf = self.buf.partition(b"\n")
        return ln

    def close(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            if f is not None:
                f.close()


NEW = {"op": "new", "game": "vandatta", "players": 3, "options": {}, "dealer": 0}


def _answers(p: _Proc, n: int) -> None:
    """Send ``new`` then ``to_move`` requests, n in all, and expect n JSON answers."""
    for i in range(n):
        p.send(NEW if i == 0 else {"op": "to_move"})
        ln = p.line()
        if ln is None or not json.loads(ln).get("ok"):
            raise Differs(f"answer {i + 1} missing or not ok: {ln!r}")


def check_proc(mode: str) -> str:
    """Run one mode and check its misbehaviour; the finding, or raise ``Differs`` (failed)."""
    p = _Proc(mode)
    try:
        if mode == "exit_at_once":
            _, err = p.p.communicate(timeout=30)
            if p.p.returncode != 4 or not err.strip():
                raise Differs(f"exit code {p.p.returncode}, stderr {err!r}")
            return f"exit code 4 before reading, stderr {err.decode().strip()!r}"
        if mode == "silent":
            p.send(NEW)
            if p.read(2.0):
                raise Differs("it answered")
            return "no answer within 2 s"
        if mode == "garbage":
            _answers(p, 10)
            p.send({"op": "to_move"})
            ln = p.line()
            try:
                json.loads(ln or b"")
            except json.JSONDecodeError:
                return f"answer 11 is not JSON: {ln!r}"
            raise Differs(f"answer 11 is JSON: {ln!r}")
        if mode == "flood":
            _answers(p, 10)
            p.send({"op": "to_move"})
            got = p.read(30.0, want=4 << 20)
            if b"\n" in got or len(got) < 4 << 20:
                raise Differs(f"{len(got)} bytes, newline: {got.count(10) > 0}")
            return f"{len(got) >> 20} MiB read without a newline (then stopped reading)"
        if mode == "stderr_then_die":
            _answers(p, 15)
            p.send({"op": "to_move"})
            ln = p.line()
            rc = p.p.wait(timeout=30)
            assert p.p.stderr is not None
            text = p.p.stderr.read().decode()
            if ln is not None or rc != 1 or "fatal: deck corrupted" not in text:
                raise Differs(f"answer {ln!r}, exit code {rc}, stderr {text!r}")
            return f"no answer 16, exit code 1, stderr {text.strip()!r}"
        raise AssertionError(mode)
    finally:
        p.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.verify.mutants.selfcheck")
    ap.add_argument("--matches", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append", default=[], help="mutant name (repeatable)")
    ap.add_argument("--no-procs", action="store_true", help="skip the process-only modes")
    args = ap.parse_args(argv)
    failed = 0
    todo = [m for m in MUTANTS if m.python and (not args.only or m.name in args.only)]
    width = max((len(m.name) for m in todo), default=10)
    for m in todo:
        t0 = time.monotonic()
        n, how = check_mutant(m, args.matches, args.seed)
        dt = time.monotonic() - t0
        if n is None:
            failed += 1
            print(f"{m.name:<{width}}  {m.kind:<7}  FAILED TO DIFFER after {args.matches}"
                  f"  ({dt:.1f} s)", flush=True)
        else:
            print(f"{m.name:<{width}}  {m.kind:<7}  match {n:>3}  ({dt:.1f} s)  {how[:90]}",
                  flush=True)
    for m in todo:
        if m.kind in RULE_KINDS:
            problem = check_consistent(m, 3, args.seed)
            if problem:
                failed += 1
                print(f"{m.name:<{width}}  {m.kind:<7}  INCONSISTENT: {problem}", flush=True)
    procs = [m for m in MUTANTS if m.command[2:3] == ("tests.verify.mutants.procs",)]
    if not args.no_procs:
        for m in procs:
            if args.only and m.name not in args.only:
                continue
            mode = m.command[-1]
            try:
                print(f"{m.name:<{width}}  {m.kind:<7}  ok: {check_proc(mode)}", flush=True)
            except (Differs, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
                failed += 1
                print(f"{m.name:<{width}}  {m.kind:<7}  FAILED: {e}", flush=True)
    print(f"{len(todo)} Python mutants checked, {failed} failure(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
