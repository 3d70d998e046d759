"""Checking a large spec: seconds and peak memory against its size, one child process a size.

    python bench/check_size.py [--mb 1 2 5]

Each spec is Vändåtta with enough extra definitions appended to reach the size (each a
small formula over a card, with its text, all different), so the parser, the transformer
and the checker see a realistic mix of tokens. The target (issue 10) is linear time and a 5 MB
spec checked in under 30 s and 1 GiB; the seconds per MB column shows whether time grows
linearly. Each size runs in a process of its own, so its peak memory is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def big_spec(megabytes: float) -> str:
    """Vändåtta with definitions appended until the text is ``megabytes`` long."""
    base = (ROOT / "rulespec" / "games" / "vandatta.rules").read_text(encoding="utf-8")
    parts = [base, "\n"]
    size, i = len(base), 0
    while size < megabytes * 1_000_000:
        d = (f"def extra_{i}(c: card) = if eight(c) then rank(c) + {i} > 3 "
             f"else suit(c) == hearts and rank(c) > {i % 13} or is_ace(c)\n"
             f"  \"An extra definition, number {i}, there for its size.\"\n")
        parts.append(d)
        size += len(d)
        i += 1
    return "".join(parts)


def measure(megabytes: float) -> dict[str, float]:
    """Check a spec of this size here; seconds, peak memory (MiB) and the size."""
    from rulespec.lang.checker import check_text

    text = big_spec(megabytes)
    start = time.perf_counter()
    check_text(text, "big.rules")
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {"mb": len(text) / 1_000_000, "seconds": seconds, "peak_mib": peak}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, nargs="+", default=[1.0, 2.0, 5.0])
    ap.add_argument("--one", type=float, help=argparse.SUPPRESS)  # a child's own size
    args = ap.parse_args()
    if args.one is not None:
        print(json.dumps(measure(args.one)))
        return
    print(f"{'size (MB)':>10} {'seconds':>9} {'s per MB':>9} {'peak MiB':>9}")
    for mb in args.mb:
        out = subprocess.run([sys.executable, __file__, "--one", str(mb)], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out)
        print(f"{r['mb']:>10.2f} {r['seconds']:>9.1f} {r['seconds'] / r['mb']:>9.1f} "
              f"{r['peak_mib']:>9.0f}")


if __name__ == "__main__":
    main()
