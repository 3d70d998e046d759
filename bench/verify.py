"""Verify benchmark: every mutant of tests/verify/mutants caught, how fast, how small.

    python bench/verify.py                      # the whole catalogue, both modes
    python bench/verify.py --mode process       # through the child-process protocol only
    python bench/verify.py --only no_ace_on_ace --only js_eight_on_ace
    python bench/verify.py --correct            # speed of verifying correct implementations

verify runs with its default settings (no -p, no -o): it must find each bug by itself. For each
mutant and mode it prints the seconds to catch it, the divergence kind, and the shrunk record
(events, finished deals, table), and checks the targets: caught within 60 s; a legal-move or
turn-order bug shrunk to at most 20 events; a scoring or deal-end bug to at most one deal plus
5 events. Run from the project root (the mutants' commands are relative to it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulespec.loading import resolve  # noqa: E402
from rulespec.protocol import ProcessImplementation, load_python_impl  # noqa: E402
from rulespec.records import replay  # noqa: E402
from rulespec.verify.runner import Verifier  # noqa: E402
from tests.verify.mutants import MUTANTS, Mutant  # noqa: E402

SMALL_KINDS = ("legal", "turn")
DEAL_KINDS = ("score", "effect", "option", "table")


def _factory(m: Mutant, mode: str) -> Any:
    if mode == "python":
        assert m.python is not None
        return load_python_impl(m.python)
    argv = [sys.executable if a == "{python}" else a for a in m.command]
    return lambda: ProcessImplementation(argv, 10.0, cwd=ROOT)


def catch(m: Mutant, mode: str, seed: int = 0) -> dict[str, Any]:
    """Run verify with default settings on one mutant; what it found and how fast."""
    spec = resolve(m.game).spec
    t0 = time.monotonic()
    report = Verifier(spec, m.game, _factory(m, mode)).run(seed_=seed)
    took = time.monotonic() - t0
    row: dict[str, Any] = {"mutant": m.name, "mode": mode, "kind": m.kind,
                           "seconds": round(took, 1), "caught": bool(report.divergences)}
    if report.divergences:
        d = report.divergences[0]
        rec = d.record(m.game)
        code, ans = replay(rec)
        deals = len(ans.get("deals", [])) if code == 0 else None
        row.update(found=d.kind, events=len(d.events), deals=deals, players=d.players,
                   options=d.options)
        ok = took <= 60
        if m.kind in SMALL_KINDS:
            ok = ok and len(d.events) <= 20
        elif m.kind in DEAL_KINDS:
            first = _first_deal_length(rec)
            ok = ok and (deals or 0) <= 1 and len(d.events) <= first + 5
        row["target_met"] = ok
    else:
        row["target_met"] = False
    return row


def _first_deal_length(rec: dict[str, Any]) -> int:
    """Events up to the end of the record's first deal (all of them if it has none)."""
    from rulespec.records import start

    st = start(rec)
    for i, ev in enumerate(rec["events"]):
        st.apply(ev)
        if st.deals:
            return i + 1
    return len(rec["events"])


def correct_speed() -> list[dict[str, Any]]:
    """Verifying the correct oracles with default settings, in-process and as a process."""
    rows = []
    for game, target in (("vandatta", "tests.oracles.vandatta:VandattaOracle"),
                         ("abracadabra", "tests.oracles.abracadabra:AbracadabraOracle")):
        spec = resolve(game).spec
        for mode in ("python", "process"):
            if mode == "python":
                factory: Any = load_python_impl(target)
            else:
                argv = [sys.executable, "-m", "rulespec.cli", "serve", "--python", target]
                factory = lambda argv=argv: ProcessImplementation(argv, 10.0, cwd=ROOT)  # noqa: E731
            t0 = time.monotonic()
            r = Verifier(spec, game, factory).run(seed_=0)
            took = time.monotonic() - t0
            rows.append({"game": game, "mode": mode, "conforms": r.conforms,
                         "settings": len(r.verified), "matches": r.matches, "events": r.events,
                         "seconds": round(took, 1),
                         "matches_per_s": round(r.matches / took, 2),
                         "events_per_s": round(r.events / took),
                         "calls_per_event": round(r.round_trips / max(1, r.events), 2),
                         "coverage": r.coverage.summary()})
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mode", choices=["python", "process", "both"], default="both")
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--correct", action="store_true", help="measure correct implementations")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.correct:
        rows = correct_speed()
        for r in rows:
            print(json.dumps(r) if args.json else
                  f"{r['game']:12} {r['mode']:8} conforms={r['conforms']} {r['settings']} "
                  f"settings {r['matches']} matches {r['events']} events {r['seconds']} s: "
                  f"{r['matches_per_s']} matches/s, {r['events_per_s']} events/s, "
                  f"{r['calls_per_event']} calls/event; {r['coverage']}", flush=True)
        return 0 if all(r["conforms"] for r in rows) else 1
    chosen = [m for m in MUTANTS if not args.only or m.name in args.only]
    failures = 0
    for m in chosen:
        modes = ["python", "process"] if args.mode == "both" else [args.mode]
        for mode in modes:
            if mode == "python" and m.python is None:
                continue
            r = catch(m, mode, args.seed)
            failures += not r["target_met"]
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                got = (f"{r['found']:18} {r['events']:4} events {r['deals']} deals, "
                       f"{r['players']}p {json.dumps(r['options'])}" if r["caught"]
                       else "NOT CAUGHT")
                mark = "ok " if r["target_met"] else "MISS"
                print(f"{mark} {m.name:32} {mode:8} {r['seconds']:6.1f} s  {got}", flush=True)
    print(f"{len(chosen)} mutants, {failures} targets missed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
