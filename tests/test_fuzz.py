"""The fuzzer (tests/fuzz.py), a little of each kind: generated and mutated specs, mutated
records and protocol conversations, command lines, and the classes of issue 23 (file names,
line breaks, devices, totals, numbers, chains), each run in a guarded worker process; any
exception that is not a RulespecError, a hang or a dead worker fails, with the input
Hypothesis shrank it to. The Hypothesis profile (dev, ci) decides how many of the first kinds,
a few of each class of issue 23 (they run whole command lines);
``pytest -m slow tests/slow/test_fuzz.py`` runs 100,000."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests import fuzz


@pytest.fixture(scope="module")
def fuzzing() -> Iterator[tuple[fuzz.Worker, fuzz.Seeds]]:
    with fuzz.fuzzing(games=1) as both:
        yield both


@pytest.mark.parametrize("kind", fuzz.FIRST_KINDS)
# from_lark discards the derivations that grow too deep, and big specs are slow to make: the
# count stays the profile's
@settings(suppress_health_check=list(HealthCheck))
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@given(data=st.data())
def test_no_input_crashes_or_hangs_rulespec(
        kind: str, data: st.DataObject, fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    worker, seeds = fuzzing
    fuzz.check_input(worker, data.draw(fuzz.strategy(kind, seeds), label="input"))


@pytest.mark.parametrize("kind", fuzz.NEW_KINDS)
# an input of these runs several command lines (a book, a verify): a few of each in this suite,
# unshrunk (a hang costs its seconds at every step of a shrink), 5,000 of each in the slow run,
# which shrinks
@settings(max_examples=4, suppress_health_check=list(HealthCheck), phases=[Phase.generate])
# Hypothesis warns at a long repr of a failing input: as an error (the suite's warnings are),
# that warning would take the failure's place
@pytest.mark.filterwarnings("ignore:Generating overly large repr")
@given(data=st.data())
def test_no_input_of_the_classes_of_issue_23_crashes_or_hangs_rulespec(
        kind: str, data: st.DataObject, fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    worker, seeds = fuzzing
    fuzz.check_input(worker, data.draw(fuzz.strategy(kind, seeds), label="input"))


def test_the_seeds_replay_and_converse(fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    worker, seeds = fuzzing
    assert len({sub.split("-")[0] for sub, _ in seeds.records}) >= 8  # every spec that checks
    sub, rec = next((s, r) for s, r in seeds.records if s.startswith("minimal"))
    out = worker.run(fuzz.Input("record", json.dumps(rec).encode(), sub))
    assert (out.failure, out.stage) == (None, "exit 0")
    lines = fuzz.conversation(rec)
    out = worker.run(fuzz.Input("serve", "\n".join(lines).encode(), sub))
    assert (out.failure, out.stage) == (None, f"{len(lines)} answers")
    spec = fuzz.SEED_SPECS[0].read_bytes()
    out = worker.run(fuzz.Input("spec", spec))
    assert (out.failure, out.stage) == (None, "played")
    line = ["simulate", "vandatta", "-p", "3", "-n", "1", "-o", "hand_size=6"]
    out = worker.run(fuzz.Input("cli", json.dumps(line).encode()))
    assert (out.failure, out.stage) == (None, "exit 0")
    line[-1] = "hand_size=10**30"
    out = worker.run(fuzz.Input("cli", json.dumps(line).encode()))
    assert (out.failure, out.stage) == (None, "exit 2")


def test_a_hang_is_a_failure_and_the_worker_starts_again(
        fuzzing: tuple[fuzz.Worker, fuzz.Seeds]) -> None:
    _, seeds = fuzzing
    spec = (fuzz.ROOT / "rulespec/games/vandatta.rules").read_bytes()
    with fuzz.Worker(seeds.folder) as worker:
        assert worker.run(fuzz.Input("spec", b"")).failure is None  # started
        worker.timeout = 0.001
        out = worker.run(fuzz.Input("spec", spec))
        assert out.failure is not None and out.failure.startswith("hang")
        worker.timeout = fuzz.TIMEOUT_S
        assert worker.run(fuzz.Input("spec", spec)).failure is None


def test_an_exception_of_python_is_a_failure(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import rulespec.lang.checker

    def boom(*args: object, **kwargs: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(rulespec.lang.checker, "check_file", boom)
    out = fuzz.execute("spec", b"game g", tmp_path, tmp_path)
    assert out.failure is not None and "KeyError: 'boom'" in out.failure


def test_mutations() -> None:
    text = 'game g title "G"\nplayers 2 to 4\n'
    assert fuzz.mutate_spec(text, [(0, 0, 0, 0)], [text]) == b' g title "G"\nplayers 2 to 4\n'
    number = fuzz.TEXT_OPS.index("number")
    assert fuzz.mutate_spec(text, [(number, 1, 0, 0)], [text]).endswith(b"2 to 0\n")
    flip = fuzz.TEXT_OPS.index("bytes")
    assert b"\xff" in fuzz.mutate_spec(text, [(flip, 3, 0, 0)], [])
    nest = fuzz.JSON_OPS.index("nest")
    deep = fuzz.mutate_json({"a": 1}, [(nest, 1, 6, 0)])
    assert deep == b'{"a": ' + b"[" * 100_000 + b"0" + b"]" * 100_000 + b"}"
    drop = fuzz.JSON_OPS.index("drop")
    assert json.loads(fuzz.mutate_json({"a": 1, "b": [2]}, [(drop, 1, 0, 0)])) == {"b": [2]}


def test_reduce_lines_keeps_what_fails() -> None:
    data = b"\n".join(b"line %d" % i for i in range(40)) + b"\nBAD\nBAD2"
    assert fuzz.reduce_lines(data, lambda d: b"BAD2" in d) == b"BAD2"


def test_a_run_cut_into_slices_is_the_whole_run() -> None:
    counts = {"spec": 1200, "devices": 500, "totals": 20}
    whole = fuzz.plan(counts, start=7, size=500)
    assert [s.index for s in whole] == list(range(len(whole)))
    assert [s.seed for s in whole] == [7 + s.index for s in whole]
    for kind, n in counts.items():
        assert sum(s.examples for s in whole if s.kind == kind) == n
    # each kind's slices spread over the run, not kind after kind
    assert [s.kind for s in whole] == ["spec", "spec", "devices", "totals", "spec"]
    first, second = fuzz.seed_range(":2"), fuzz.seed_range("2:")
    assert [s for s in whole if s.index in first] + [s for s in whole if s.index in second] \
        == whole
    with pytest.raises(ValueError):
        fuzz.seed_range("3")


@given(fuzz.hostile_names())
def test_a_hostile_name_is_a_name_a_file_can_have(name: str) -> None:
    assert "/" not in name and "\0" not in name and name not in ("", ".", "..")
    assert len(os.fsencode(name)) <= 255


def test_the_alarm_stops_a_hang() -> None:
    with pytest.raises(fuzz._Hang), fuzz._alarm(0.05):
        time.sleep(5)


def test_a_book_with_markup_of_the_specs_own_fails() -> None:
    fuzz._check_book_html("book", "<h1>Title</h1><p>x &lt;script&gt;</p>")
    for bad in ("<p><script>x</script></p>", "<fz-tag>", '<img src=x onerror="a()">',
                '<a href=" javascript:x()">x</a>'):
        with pytest.raises(fuzz._Failure):
            fuzz._check_book_html("book", bad)
    twin = fuzz._Tags("<h1>n0</h1><p>x</p>")
    with pytest.raises(fuzz._Failure, match="neutral twin"):
        fuzz._same_elements("book", fuzz._Tags("<h1>a</h1><h1>b</h1><p>x</p>"),
                            "<h1>a</h1><h1>b</h1><p>x</p>", twin, "<h1>n0</h1><p>x</p>")
    # a drawing follows the length of its labels: only the <svg> itself counts
    assert fuzz._Tags("<svg><text>a</text><text>b</text></svg>").seq == ["svg", "/svg"]


def test_the_neutral_twin_of_a_string() -> None:
    cr = fuzz._Piece("\r# heading")
    word = fuzz._Piece("word", hostile=False)
    tab = fuzz._Piece("\t")
    assert fuzz._literal([word, cr], False, None) == '"word\r# heading"'
    assert fuzz._literal([word, cr], False, iter(range(9))) == '"wordn0"'
    assert fuzz._literal([tab, cr, word], False, iter(range(9))) == '"\tn0word"'
    assert fuzz._literal([fuzz._Piece("\\n", raw=True)], False, None) == '"\\n"'
    # a string that is white space alone stays as it is (a book may leave it out)
    assert fuzz._literal([fuzz._Piece("\u2028")], True, iter(range(9))) == '"""\u2028"""'


def test_a_device_turned_into_a_file_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    def replaces(argv: list[str], stdin: object = None) -> object:
        out = argv[argv.index("--out") + 1]
        os.unlink(out)
        Path(out).write_text("a book", encoding="utf-8")
        return SimpleNamespace(exit_code=0, output="")

    case = {"argv": ["doc", "@spec", "--out", "@fifo-read"], "game": "s.rules",
            "stdin": "null", "plant": False}
    monkeypatch.setattr(fuzz, "cli", replaces)
    out = fuzz.execute("device", json.dumps(case).encode(), tmp_path, tmp_path)
    assert out.failure is not None and "was a FIFO and is now a regular file" in out.failure

    def leaks(argv: list[str], stdin: object = None) -> object:
        return SimpleNamespace(exit_code=1, output="root:x:0:0:root:/root:/bin/sh")

    monkeypatch.setattr(fuzz, "cli", leaks)
    case = {"argv": ["replay", "@game"], "game": "notes", "stdin": "null", "plant": True}
    out = fuzz.execute("device", json.dumps(case).encode(), tmp_path, tmp_path)
    assert out.failure is not None and "quotes /etc/passwd" in out.failure


def test_a_file_name_that_runs_code_fails(tmp_path: Path) -> None:
    (tmp_path / fuzz.MARKER).write_text("", encoding="utf-8")
    with pytest.raises(fuzz._Failure, match="a file name ran code"):
        fuzz._no_marker(tmp_path, "check")
    assert not (tmp_path / fuzz.MARKER).exists()
