"""verify: agreement with a correct implementation, a divergence found in a wrong one and
shrunk to a small record that replays, and the JSON-lines protocol end to end."""

from __future__ import annotations

import json
import sys

from rulespec.protocol import ProcessImplementation, SpecImplementation
from rulespec.records import replay
from rulespec.verify import verify
from tests.buggy_impl import NoAceOnAce
from tests.oracles.vandatta import VandattaOracle


def test_oracle_passes_verification() -> None:
    report = verify("vandatta", VandattaOracle, [3, 6], games=3, seed=5)
    assert report.divergence is None and report.games == 6 and report.events > 100


def test_divergence_is_found_and_shrunk() -> None:
    report = verify("vandatta", NoAceOnAce, [3], games=30, seed=1)
    d = report.divergence
    assert d is not None
    assert d.what == "legal events"
    # the spec offers an Ace on an Ace that the wrong implementation lacks
    assert any('"A' in k for k in d.expected) and d.got == []
    # the record reproduces the position: replaying it ends where the implementations part
    code, ans = replay(d.record)
    assert code == 0 and not ans["complete"]
    assert any(e.get("cards", [""])[0].startswith("A") for e in ans["legal"])
    # shrinking zeroed most choices: a shorter game than the random one that found it
    assert len(d.record["events"]) == d.index


def test_json_lines_protocol_against_serve() -> None:
    impl = ProcessImplementation([sys.executable, "-m", "rulespec.cli", "serve"])
    try:
        report_ok = verify("vandatta", lambda: impl, [2, 4], games=2, seed=3)
    finally:
        impl.close()
    assert report_ok.divergence is None


def test_serve_answers_errors_as_json() -> None:
    import io

    from rulespec.protocol import serve

    reqs = [{"op": "legal"}, {"op": "new", "game": "vandatta", "players": 99, "options": {}},
            {"op": "new", "game": "vandatta", "players": 3, "options": {}, "dealer": 1},
            {"op": "to_move"}, {"op": "apply", "event": {"seat": 0, "action": "draw"}},
            {"op": "observe", "seat": 0}, {"op": "frobnicate"}]
    out = io.StringIO()
    serve(io.StringIO("\n".join(json.dumps(r) for r in reqs) + "\nnot json\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True, True, False, True, False, False]
    assert answers[3]["to_move"] == "chance"
    impl = SpecImplementation()
    impl.new("vandatta", 3, {}, 1)
    assert impl.to_move() == "chance"
