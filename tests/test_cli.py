"""The command line as a user meets it: exit codes, output, determinism, records round trip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_check_valid_spec_summary() -> None:
    code, out, _ = run("check", str(ROOT / "rulespec/games/vandatta.rules"))
    assert code == 0
    assert "ok: Vändåtta" in out and "decisions (5): play, draw, pass, lappen, no_lappen" in out
    assert "options (22)" in out


def test_check_shipped_name_and_usage_errors() -> None:
    assert run("check", "vandatta")[0] == 0
    assert run("check", "no_such_game")[0] == 2
    assert run("check")[0] == 2


def test_simulate_same_seed_same_numbers() -> None:
    args = ("simulate", "vandatta", "--players", "3", "--games", "15", "--seed", "7", "--json")
    a, b = run(*args), run(*args)
    assert a[0] == 0 and a[1] == b[1]
    data = json.loads(a[1])
    assert data["games"] == 15 and len(data["win_rate"]) == 3
    assert abs(sum(data["win_rate"]) - 1.0) < 1e-9
    other = json.loads(run("simulate", "vandatta", "-p", "3", "-n", "15", "--seed", "8",
                           "--json")[1])
    assert other != data


def test_simulate_table_and_options() -> None:
    code, out, _ = run("simulate", "vandatta", "-p", "4", "-n", "5", "--seed", "1",
                       "--option", "ace_on_ace=false", "-o", "scoring=swedish")
    assert code == 0
    assert "win rate" in out and "mean reshuffles" in out and "ace_on_ace=false" in out


def test_simulate_bad_option_is_a_clean_error() -> None:
    code, out, err = run("simulate", "vandatta", "-p", "4", "-n", "1", "-o", "ace_on_ace=7")
    assert code == 2 and "ace_on_ace" in err and "Traceback" not in err
    code, _, err = run("simulate", "vandatta", "-p", "15", "-n", "1")
    assert code == 2 and "15" in err


def test_records_replay_to_the_same_result(tmp_path: Path) -> None:
    code, out, _ = run("simulate", "vandatta", "-p", "3", "-n", "6", "--seed", "3",
                       "--records", str(tmp_path), "--json", "-o", "deals=2")
    assert code == 0
    summary = json.loads(out)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    totals = [0.0] * 3
    for f in files:
        rcode, rout, _ = run("replay", str(f))
        assert rcode == 0
        ans = json.loads(rout)
        assert ans["ok"] and ans["complete"] and len(ans["deals"]) == 2
        for q in range(3):
            totals[q] += ans["totals"][q]
    assert [t / 6 for t in totals] == pytest.approx(summary["mean_total"])


def write(tmp_path: Path, rec: object) -> str:
    p = tmp_path / "r.json"
    p.write_text(json.dumps(rec))
    return str(p)


def header(**kw: object) -> dict:
    rec = {"format": "rulespec-record/1", "game": "vandatta", "players": 3, "options": {},
           "events": []}
    rec.update(kw)
    return rec


def test_replay_incomplete_record_lists_legal(tmp_path: Path) -> None:
    code, out, _ = run("replay", write(tmp_path, header()))
    ans = json.loads(out)
    assert code == 0
    assert list(ans) == ["ok", "complete", "deals", "totals", "winners", "to_move", "legal"]
    assert ans["to_move"] == "chance" and ans["legal"][0]["chance"] == "shuffle"
    assert ans["winners"] == [] and ans["totals"] == [0, 0, 0]


@pytest.mark.parametrize("rec,needle", [
    (header(format="x"), "format"),
    (header(game="nope"), "unknown game"),
    (header(options={"colour": 1}), "unknown option"),
    (header(options={"deals": 2, "target": 30}), "R9"),
    (header(players=1), "players"),
    (header(dealer=5), "dealer"),
    (header(extra=1), "unknown record field"),
])
def test_replay_bad_header_r3(tmp_path: Path, rec: dict, needle: str) -> None:
    code, out, _ = run("replay", write(tmp_path, rec))
    ans = json.loads(out)
    assert code == 1
    assert ans["ok"] is False and ans["event"] is None and ans["legal"] == []
    assert needle in ans["error"]


def test_replay_illegal_event_reports_index_and_legal(tmp_path: Path) -> None:
    rec = header(events=[{"seat": 1, "action": "draw"}])
    code, out, _ = run("replay", write(tmp_path, rec))
    ans = json.loads(out)
    assert code == 1 and ans["event"] == 0 and ans["legal"][0]["chance"] == "shuffle"


def test_replay_events_after_the_end_r5(tmp_path: Path) -> None:
    rec_dir = tmp_path / "recs"
    run("simulate", "vandatta", "-p", "2", "-n", "1", "--records", str(rec_dir))
    rec = json.loads(next(rec_dir.glob("*.json")).read_text())
    rec["events"].append({"seat": 0, "action": "draw"})
    code, out, _ = run("replay", write(tmp_path, rec))
    ans = json.loads(out)
    assert code == 1 and ans["error"] == "the match is over" and ans["legal"] == []
    assert ans["event"] == len(rec["events"]) - 1


def test_replay_usage_and_spec_errors(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "missing.json"))[0] == 2
    bad = tmp_path / "bad.rules"
    bad.write_text("game x title \"X\"\nplayers 2 to 3\n")
    code, _, err = run("replay", write(tmp_path, header(game="bad.rules")))
    assert code == 65 and "bad.rules" in err
    (tmp_path / "r.json").write_text("{not json")
    assert run("replay", str(tmp_path / "r.json"))[0] == 1


@pytest.mark.parametrize("game,idents", [
    ("vandatta", ("VAN-13", "V4", "lappen_penalty_trigger", "announced_but_not_out")),
    ("abracadabra", ("ABR-1", "ABR-19", "A11", "success_rule", "exact_named_set")),
    ("abracadabra-newton", ("NEW-1", "NEW-17", "N5", "stake_mode", "free(low: int in 0..100")),
    ("uno", ("UE-1", "UE-8", "US-7", "draw_four_when", "Wild Draw Four")),
    ("gin-rummy", ("GR-1", "GR-13", "GS-2", "stock_end", "undercut")),
    ("euchre", ("EU-1", "EU-8", "ES-4", "lone_defender", "left bower")),
    ("crazy-eights", ("CE-1", "CE-11", "CS-7", "special_cards", "name_suit")),
    ("oh-hell", ("OH-1", "OH-10", "OS-5", "largest_no_trump", "given(n: int in 1..51)")),
])
def test_doc_matches_committed_rulebook(game: str, idents: tuple[str, ...]) -> None:
    book = ROOT / "docs" / "rules" / f"{game}.md"
    ref = ROOT / "docs" / "rules" / f"{game}-reference.md"
    for page, more in ((book, ()), (ref, ("--reference",))):
        code, _, err = run("doc", game, "--out", str(page), "--check", *more)
        assert code == 0, err  # the book and its figures are those the spec gives today
        code, _, err = run("doc", game, "--format", "html", "--out",
                           str(page.with_suffix(".html")), "--check", *more)
        assert code == 0, err
    linked = book.read_text(encoding="utf-8").replace("<", "").replace(">", "")
    assert f"]({game}-reference.md)" in linked
    text = ref.read_text(encoding="utf-8")
    for ident in idents:
        assert ident in text


def test_doc_check_for_a_users_own_book(tmp_path: Path) -> None:
    book = tmp_path / "book.md"
    code, _, err = run("doc", "vandatta", "--out", str(book), "--check")
    assert code == 1 and "missing" in err
    assert run("doc", "vandatta", "--out", str(book))[0] == 0
    code, out, _ = run("doc", "vandatta", "--out", str(book), "--check")
    assert code == 0 and "up to date" in out
    book.write_text(book.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    code, _, err = run("doc", "vandatta", "--out", str(book), "--check")
    assert code == 1 and "out of date" in err and "rulespec doc vandatta" in err
    assert run("doc", "vandatta", "--check")[0] == 2  # --check needs --out


def test_doc_for_one_table_and_options() -> None:
    code, out, _ = run("doc", "abracadabra-newton", "-p", "3", "-o", "stake_mode=free(1, 5)")
    assert code == 0
    assert "This book is for:** 3 players, stake\\_mode = free(1,5)" in out
    assert "| 3 | 37 |" in out and "| 4 | 53 |" not in out
    code, _, err = run("doc", "abracadabra-newton", "-p", "7")
    assert code == 2 and "7" in err
    code, _, err = run("doc", "abracadabra-newton", "-o", "stake_mode=free(5,1)")
    assert code == 2 and "low <= high" in err


def test_every_shipped_game_has_a_committed_rulebook() -> None:
    from rulespec.loading import shipped_games

    for game in shipped_games():
        for page in (game, f"{game}-reference"):
            assert (ROOT / f"docs/rules/{page}.md").is_file(), page
            assert (ROOT / f"docs/rules/{page}.html").is_file(), page


def test_verify_oracle_against_spec() -> None:
    code, out, _ = run("verify", "vandatta", "--python", "tests.oracles.vandatta:VandattaOracle",
                       "-p", "2", "-o", "scoring=swedish", "-n", "3")
    assert code == 0, out
    assert "no divergence" in out


def test_compile_emits_the_generated_source_with_its_clauses() -> None:
    code, out, _ = run("compile", "vandatta", "-p", "3")
    assert code == 0 and "vandatta, 3 players:" in out and "generated functions" in out
    code, out, _ = run("compile", "abracadabra", "-p", "4", "-o", "joker=none", "--emit")
    assert code == 0
    heads = [ln for ln in out.splitlines() if ln.startswith("# ---- <rules:")]
    assert heads and all("abracadabra.rules" in h or "tricks.rules" in h for h in heads)
    assert "legal events of the alternative" in out and "def _enum(" in out
    compile(out, "<emitted>", "exec")  # what is printed is Python
    code, _, err = run("compile", "vandatta", "-p", "99")
    assert code == 2 and "2 to 14 players" in err


def test_generated_code_shows_in_a_traceback() -> None:
    """A traceback through generated code shows its line (linecache), not '???'."""
    import traceback

    from rulespec import Game, check_text
    from rulespec.engine.codegen.pyexec import exec_source

    spec = check_text(
        'game t title "T"\nplayers 2 to 2\nwinner lowest total\n'
        "zone stock: shared visible to nobody\n"
        'deal {\n  choose 0 {\n    show() "S." {\n      end deal scoring z\n    }\n  }\n}\n'
        "def z(p: int) = 0\n"
        "match {\n  run deal\n  end match winners [q for q in seats]\n}\n", "t.rules")
    Game(spec, 2)
    fn = exec_source("def _f():\n    return 1 // 0\n", "_f", {}, spec.deal.span, "test")
    try:
        fn()
    except ZeroDivisionError:
        text = traceback.format_exc()
    assert "return 1 // 0" in text and "<rules:t.rules:" in text


def test_generated_text_compiled_again_keeps_its_own_file_name() -> None:
    """Python compiles a generated text once (pyexec._compiled); the same text executed again
    runs that code under its own registered file name, nested code (a lambda) included, so a
    traceback through either shows its line."""
    import traceback

    from rulespec.engine.codegen.pyexec import exec_source
    from rulespec.spans import Span

    text = "def _f(x):\n    return (lambda y: 1 // y)(x)\n"
    where = Span("same.rules", 1, 1, 1, 2)
    first, second = (exec_source(text, "_f", {}, where, "test") for _ in range(2))
    names = []
    for fn in (first, second):
        try:
            fn(0)
        except ZeroDivisionError as e:
            frames = traceback.extract_tb(e.__traceback__)
            names.append(frames[-1].filename)
            assert frames[-1].line == "return (lambda y: 1 // y)(x)"
    assert names[0] != names[1] and all(n.startswith("<rules:same.rules:1#") for n in names)
    assert first.__code__.co_filename == names[0] and second.__code__.co_filename == names[1]


def test_a_spec_that_is_not_utf8_is_a_clean_error(tmp_path: Path) -> None:
    bad = tmp_path / "latin.rules"
    bad.write_bytes(b'game g title "G"\n# caf\xe9\nplayers 2 to 3\n')
    code, _, err = run("check", str(bad))
    assert code == 65 and "latin.rules:2:6: error: this file is not UTF-8 text" in err
    assert "internal error" not in err and "save the spec as UTF-8" in err
    main_spec = tmp_path / "main.rules"
    main_spec.write_text('import "latin"\n', encoding="utf-8")
    code, _, err = run("simulate", str(main_spec), "-p", "2", "-n", "1")
    assert code == 65 and "not UTF-8 text" in err


@pytest.mark.parametrize(("args", "says"), [
    (["-n", "-5"], "'--games'"),
    (["--workers", "0"], "'--workers'"),
    (["--records", "/proc/no-such-folder/recs"], "cannot write records to"),
])
def test_simulate_refuses_bad_counts_and_folders(args: list[str], says: str) -> None:
    code, _, err = run("simulate", "vandatta", "-p", "2", "-n", "1", *args)
    assert code == 2 and says in err and "internal error" not in err


def test_replay_of_hostile_files_is_a_bad_record(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text('{"format": "rulespec-record/1", "events": ' + "[" * 100_000
                    + "]" * 100_000 + "}", encoding="utf-8")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00\x01garbage")
    for f in (deep, binary):
        code, out, err = run("replay", str(f))
        assert code == 1 and "internal error" not in err  # H7: a bad record, exit 1
        assert json.loads(out)["ok"] is False


def test_serve_answers_bad_lines_and_goes_on() -> None:
    lines = ['{"op": "new", "game": ' + "[" * 100_000 + "]" * 100_000 + "}",
             '{"op": "new", "game": 5, "players": 2}',
             '{"op": "new", "game": "vandatta", "players": 2}',
             '{"op": "to_move"}']
    res = CliRunner().invoke(main, ["serve"], input="\n".join(lines) + "\n")
    answers = [json.loads(x) for x in res.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True, True]
    assert "names a shipped game" in answers[1]["error"] and answers[3]["to_move"] == "chance"


def test_a_record_may_name_only_a_spec_in_its_own_folder(tmp_path: Path) -> None:
    """H10: an absolute path, a way out of the folder, a link leading out and an import of a
    file elsewhere are refused without reading or quoting the file."""
    secret = tmp_path / "secret.rules"
    secret.write_text("the secret line\n", encoding="utf-8")
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "link.rules").symlink_to(secret)
    (folder / "sub" / "imports.rules").write_text(f'import "{secret}"\n', encoding="utf-8")
    for game in (str(secret), "../secret.rules", "sub/link.rules", "sub/imports.rules"):
        rec = folder / "r.json"
        rec.write_text(json.dumps({"format": "rulespec-record/1", "game": game, "players": 2,
                                   "events": []}), encoding="utf-8")
        code, out, err = run("replay", str(rec))
        assert code in (1, 65), (game, out, err)
        assert "the secret line" not in out + err, game
        if code == 1:
            assert "--spec PATH (H10)" in json.loads(out)["error"]
    # the user may still choose that spec with --spec (trusted as given)
    code, _, err = run("replay", str(rec), "--spec", str(secret))
    assert code == 65 and "the secret line" in err


def test_the_collection_limit_is_set_by_its_environment_variable(tmp_path: Path) -> None:
    """Through the same door as a user: a fresh process with RULESPEC_MAX_COLLECTION=10 stops
    the first rule that builds a longer list (the 52-card pack), at its clause, exit 70."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "RULESPEC_MAX_COLLECTION": "10"}
    res = subprocess.run([sys.executable, "-m", "rulespec", "simulate", "vandatta", "-p", "3",
                          "-n", "1"], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=120)
    assert res.returncode == 70, res.stderr
    assert "vandatta.rules:" in res.stderr and "pack(1) would hold 52 elements" in res.stderr
    assert "limit of 10 (RULESPEC_MAX_COLLECTION)" in res.stderr
    assert "internal error" not in res.stderr and "Traceback" not in res.stderr


def test_a_match_past_the_simulations_event_limit_is_a_usage_error() -> None:
    code, _, err = run("simulate", "vandatta", "-p", "3", "-n", "2", "-o", "deals=30",
                       "--max-events", "100")
    assert code == 2 and "did not end within 100 events" in err and "--max-events" in err
    assert "internal error" not in err
    assert run("simulate", "vandatta", "-p", "3", "--max-events", "0")[0] == 2


def test_serve_leaves_the_match_as_it_was_when_a_rule_fails_halfway(tmp_path: Path) -> None:
    """An apply whose rule fails after it has changed the state (here a set, then a division
    by zero) is answered with the error, and the match is exactly as before the event."""
    spec = tmp_path / "half.rules"
    spec.write_text('''
game half title "Half"
players 2 to 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
var n: int = 0
var zero: int = 0
def score(p: int) = n
deal {
  loop {
    choose 0 {
      bad() "Fails halfway." {
        set n = n + 1
        set n = n // zero
      }
      good() "Ends the deal." {
        end deal scoring score
      }
    }
  }
}
match {
  run deal
  end match winners [0]
}
''', encoding="utf-8")
    lines = [json.dumps({"op": "new", "game": str(spec), "players": 2}),
             json.dumps({"op": "observe", "seat": 0}),
             json.dumps({"op": "apply", "event": {"seat": 0, "action": "bad"}}),
             json.dumps({"op": "observe", "seat": 0}),
             json.dumps({"op": "legal"}),
             json.dumps({"op": "apply", "event": {"seat": 0, "action": "good"}}),
             json.dumps({"op": "result"})]
    res = CliRunner().invoke(main, ["serve"], input="\n".join(lines) + "\n")
    answers = [json.loads(x) for x in res.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, True, False, True, True, True, True]
    assert "division by zero" in answers[2]["error"]
    assert answers[3]["observation"] == answers[1]["observation"]  # n is still 0
    assert [e["action"] for e in answers[4]["legal"]] == ["bad", "good"]
    assert answers[6]["deals"] == [{"scores": [0, 0]}]


def test_simulate_interrupted_reports_and_leaves_only_complete_records(tmp_path: Path) -> None:
    """Ctrl-C during simulate --records: exit 130, a line saying how many games were played,
    and every record in the folder a complete game that replays (records are written to a
    temporary file and renamed)."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "recs"
    proc = subprocess.Popen([sys.executable, "-m", "rulespec", "simulate", "vandatta", "-p",
                             "3", "-n", "100000", "--records", str(out)], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and len(list(out.glob("game-*.json"))) < 3:
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "are complete games" in err
    assert "Traceback" not in err and "internal error" not in err
    recs = sorted(out.glob("game-*.json"))
    assert recs and not list(out.glob(".*.tmp"))
    for rec in recs[-2:]:
        code, answer, _ = run("replay", str(rec))
        assert code == 0 and json.loads(answer)["complete"] is True


def test_serve_refuses_a_line_past_its_limit_without_holding_it(monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    from rulespec import protocol

    monkeypatch.setattr(protocol, "MAX_LINE", 1000)
    lines = ['{"op": "new", "game": "' + "x" * 50_000 + '"}',
             '{"op": "new", "game": "vandatta", "players": 2}', '{"op": "to_move"}']
    res = CliRunner().invoke(main, ["serve"], input="\n".join(lines) + "\n")
    answers = [json.loads(x) for x in res.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, True, True]
    assert "at most 1000 characters" in answers[0]["error"]


def test_serve_stops_after_its_idle_timeout_and_answers_until_then() -> None:
    """A client that goes silent does not hold a server for ever: after --idle-timeout
    seconds with no request, serve says so on standard error and exits 0. A request that
    comes in time is answered and starts the wait again."""
    import subprocess
    import sys
    import time

    with subprocess.Popen([sys.executable, "-m", "rulespec", "serve", "--idle-timeout", "1"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        for _ in range(3):  # each within the timeout: the server is still there
            time.sleep(0.5)
            proc.stdin.write('{"op": "to_move"}\n')
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["ok"] is False  # no match yet
        start = time.monotonic()
        assert proc.wait(timeout=30) == 0
        assert time.monotonic() - start >= 0.9
        assert "no request for 1 s (--idle-timeout)" in proc.stderr.read()


def test_progress_through_a_pipe_is_plain_lines(tmp_path: Path) -> None:
    """Through a pipe the progress bar is hidden (it needs a terminal); a long run still says it
    is alive, in plain lines on standard error: the first at once, then one every 10 s, none
    with --json. (A verify with no budget once ran for minutes through a pipe in silence.)"""
    import subprocess
    import sys

    def err_of(*args: str) -> str:
        res = subprocess.run([sys.executable, "-m", "rulespec", *args], capture_output=True,
                             text=True, cwd=ROOT, timeout=300)
        assert res.returncode == 0, res.stderr
        return res.stderr

    err = err_of("simulate", "vandatta", "-p", "3", "-n", "5")
    assert err.splitlines()[0] == "simulate: 1/5 games", err
    verify = ("verify", "vandatta", "--python", "tests.oracles.vandatta:VandattaOracle", "-p",
              "2", "-o", "scoring=swedish", "-n", "1", "--budget", "2")
    err = err_of(*verify)
    assert err.startswith("verify: setting 1 of "), err
    assert "budget 2 s: 2 players" in err.splitlines()[0], err
    assert err_of(*verify, "--json") == ""


class _Enough(Exception):
    pass


def test_simulate_makes_its_games_as_it_plays_them() -> None:
    """A trillion games: the chunks are made as they are played and each game is added to
    the summary and let go, so the run starts at once and holds the memory of a few games
    (a list of a trillion chunks ran out of memory before the first game)."""
    from rulespec.simulate import simulate

    played: list[int] = []

    def progress(k: int) -> None:
        played.append(k)
        if len(played) == 3:
            raise _Enough

    with pytest.raises(_Enough):
        simulate("vandatta", 2, 10**12, seed=1, progress=progress)
    assert played == [1, 1, 1]


def test_simulate_starts_no_more_workers_than_it_has_chunks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers 200 for 2 games starts 2 processes, not 200; the numbers are those of one."""
    import concurrent.futures

    from rulespec import simulate as sim

    started: list[int] = []

    class Pool(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            started.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(sim, "ProcessPoolExecutor", Pool)
    many = sim.simulate("vandatta", 2, 2, seed=5, workers=200)
    assert started == [2]
    assert many.to_json() == sim.simulate("vandatta", 2, 2, seed=5).to_json()


@pytest.mark.parametrize("name", ["g", "x" * 252])
def test_records_of_a_spec_named_without_rules_replay(tmp_path: Path, name: str) -> None:
    """A spec file named ``g`` (no .rules) simulated with --records: its copy beside the records
    is ``spec/g.rules``, so that the records replay (a record may name only a .rules file); a
    name too long for that is cut short with a hash."""
    spec = tmp_path / name
    spec.write_text((ROOT / "tests/hostile/lib/minimal.rules").read_text(encoding="utf-8"),
                    encoding="utf-8")
    code, _, err = run("simulate", str(spec), "-p", "2", "-n", "2", "--records",
                       str(tmp_path / "recs"))
    assert code == 0, err
    copies = [p.name for p in (tmp_path / "recs" / "spec").iterdir()]
    assert len(copies) == 1 and copies[0].endswith(".rules") and len(copies[0]) <= 255
    assert name != "g" or copies == ["g.rules"]
    code, out, _ = run("replay", str(tmp_path / "recs" / "game-000001.json"))
    assert code == 0 and json.loads(out)["complete"] is True


def test_every_command_means_the_same_file_by_the_same_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # loading.resolve is the one door: a bare name is a shipped game or nothing, even with a
    # file of that name in the current folder; a path is that file, for check and simulate alike
    from rulespec.loading import resolve

    minimal = (ROOT / "tests/specs/ok/minimal.rules").read_text(encoding="utf-8")
    (tmp_path / "mini.rules").write_text(minimal, encoding="utf-8")
    (tmp_path / "vandatta.rules").write_text(minimal, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for cmd in (["check"], ["simulate", "-p", "2", "-n", "1"]):
        code, _, err = run(cmd[0], "mini", *cmd[1:])
        assert code == 2 and "unknown game 'mini': not a shipped game" in err, cmd
        assert run(cmd[0], "./mini.rules", *cmd[1:])[0] == 0, cmd
    assert "ok: Vändåtta" in run("check", "vandatta")[1]
    assert json.loads(run("simulate", "vandatta", "-p", "3", "-n", "1", "--json")[1])[
        "game"] == "vandatta"
    assert json.loads(run("simulate", "vandatta.rules", "-p", "3", "-n", "1", "--json")[1])[
        "game"] == "minimal"
    assert resolve("vandatta").shipped and not resolve("./vandatta.rules").shipped
    assert resolve(Path("vandatta.rules")).spec.name == "minimal"


def test_the_command_line_collects_young_objects_less_often() -> None:
    """The command line owns its process and sets the collector's young threshold (a third of
    a protocol playout went to collecting short-lived lists at the default); importing and
    using the library leaves it alone."""
    import gc

    from rulespec.cli import GC_YOUNG
    from rulespec.loading import game_for, resolve

    was = gc.get_threshold()
    try:
        gc.set_threshold(700, *was[1:])
        game_for(resolve("hearts").spec, 4, {}, 0).new_initial_state()
        assert gc.get_threshold()[0] == 700  # the library alone: untouched
        res = CliRunner().invoke(main, ["check", "hearts"])
        assert res.exit_code == 0, res.output
        assert gc.get_threshold() == (GC_YOUNG, *was[1:])
    finally:
        gc.set_threshold(*was)
