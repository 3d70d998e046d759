"""verify: correct implementations conform, wrong ones are caught and shrunk, through the
child-process protocol as well as in Python; the report, the record and the exit codes.

The full catalogue of mutants runs behind the slow marker (tests/slow/test_verify_catalogue.py)
and in bench/verify.py; here a seeded, bounded sample of each class runs.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulespec.lang.clauses import clauses
from rulespec.loading import resolve
from rulespec.protocol import ProcessImplementation, load_python_impl
from rulespec.records import replay
from rulespec.verify.compare import compare_answers
from rulespec.verify.report import Report, format_report
from rulespec.verify.runner import Verifier
from rulespec.verify.schedule import schedule
from tests.oracles.abracadabra import AbracadabraOracle
from tests.oracles.abracadabra_newton import AbracadabraNewtonOracle
from tests.oracles.vandatta import VandattaOracle
from tests.verify.mutants import by_name
from tests.verify.mutants.base import VandattaView
from tests.verify.mutants.together import (
    AsksHighestFirst,
    ShowsChoicesEarly,
    TakesASecondChoice,
)

ROOT = Path(__file__).resolve().parent.parent
VAN = resolve("vandatta").spec
VAN_TEXT = resolve("vandatta").path.read_text(encoding="utf-8")
ABR = resolve("abracadabra").spec
NEW = resolve("abracadabra-newton").spec


def _verify(spec: Any, game: str, factory: Any, **kw: Any) -> Report:
    # generous: a call of an in-process implementation, its collector included, can take
    # seconds on a loaded machine; the tests of hangs say their own short timeouts
    timeout = kw.pop("timeout", 30.0)
    # shrinking is bounded in seconds; a short bound keeps the suite quick
    return Verifier(spec, game, factory, timeout=timeout, shrink_seconds=5.0).run(**kw)


def _every_setting(spec: Any, players: list[int], fixed: dict[str, Any] | None = None) -> int:
    """The --games that plays every setting of the schedule once, and the steered
    combinations after it (verify's slots: the schedule and one in four more, at least 3)."""
    from rulespec.loading import normalise_options
    from rulespec.verify.runner import _Tables

    n = len(schedule(spec, _Tables(spec), players, normalise_options(spec, fixed or {})))
    return n + max(3, n // 4)


def _process(name: str, timeout: float = 10.0) -> Any:
    m = by_name(name)
    argv = [sys.executable if a == "{python}" else a for a in m.command]
    return lambda: ProcessImplementation(argv, timeout, cwd=ROOT)


def _cli(*args: str, cwd: Path = ROOT, timeout: float = 300,
         input: str | None = None) -> subprocess.CompletedProcess[str]:  # noqa: A002
    env_path = str(ROOT)
    import os

    env = {**os.environ, "PYTHONPATH": env_path}
    return subprocess.run([sys.executable, "-m", "rulespec.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, input=input)


# ---- the schedule -------------------------------------------------------------------------
def test_an_integer_option_is_tried_on_both_sides_of_a_constant_the_spec_compares_it_with(
        ) -> None:
    """``if bonus < 0`` with bonus at 20 in -50..50: its default, neighbours and ends never
    meet the edge, so verify tries -1 and 0 too, and a mutant whose rule starts one lower
    (``bonus < -1``), which differs at -1 only, is caught there."""
    from rulespec.lang.checker import check_text
    from rulespec.protocol import SpecImplementation
    from rulespec.verify.schedule import option_values

    path = ROOT / "tests" / "specs" / "ok" / "compared_option.rules"
    spec = resolve(str(path)).spec
    assert option_values(spec) == {"bonus": [20, 19, 21, -50, 50, -1, 0]}
    mutant = check_text(path.read_text(encoding="utf-8").replace("bonus < 0", "bonus < -1"),
                        "mutant.rules")
    r = _verify(spec, "compared_option", lambda: SpecImplementation(spec=mutant),
                games=_every_setting(spec, [2]), seed_=0)
    assert r.divergences and r.divergences[0].kind == "result", \
        [d.message for d in r.divergences]
    assert r.divergences[0].options == {"bonus": -1}


def test_a_clause_never_reached_says_the_options_it_runs_only_under(tmp_path: Path) -> None:
    """A clause that only settings with some option values compile, and that no match
    reached, is listed with those values: where the search would have to look for it."""
    from rulespec.protocol import SpecImplementation

    text = (ROOT / "tests" / "specs" / "ok" / "compared_option.rules").read_text(
        encoding="utf-8").replace(
            "(if bonus < 0 then 0 else",
            "(if bonus < 0 then (if rank(first(hand[p])) > 14 then 1 else 0) else")
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    spec = resolve(str(path)).spec
    r = _verify(spec, "compared_option", lambda: SpecImplementation(spec=spec),
                games=_every_setting(spec, [2]), seed_=0)
    noted = [ln.split(None, 1)[1] for ln in format_report(r, "t").splitlines()
             if ln.startswith("    t.rules:")]
    assert "if-expression: then arm  (runs only under bonus=-1 or -50)" in noted, noted
    assert list(r.to_json()["coverage"]["never_reached_only_under"].values()) == [
        "bonus=-1 or -50"]


def test_schedule_covers_every_table_and_every_option_value() -> None:
    from rulespec.verify.runner import _Tables
    from rulespec.verify.schedule import option_values

    plan = schedule(VAN, _Tables(VAN))
    assert sorted(s.players for s in plan if not s.options) == list(range(2, 15))
    seen = {(k, json.dumps(v)) for s in plan for k, v in s.options}
    defaults = VAN.defaults()
    for name, values in option_values(VAN).items():
        for v in values:
            if v == defaults[name]:
                continue
            accepted = any(_Tables(VAN).accepts(p, {name: v}) for p in range(2, 15))
            # a value no table takes alone may still come in a combination with others
            # (hand_size=51: two players and two packs)
            assert (name, json.dumps(v)) in seen or not accepted, (name, v)
    assert all(_Tables(VAN).accepts(s.players, dict(s.options)) for s in plan)
    # the dummy game is a table of Abracadabra's schedule
    plan = schedule(ABR, _Tables(ABR))
    assert any(s.players == 2 and dict(s.options).get("dummy") is True for s in plan)


# ---- correct implementations conform ------------------------------------------------------
# (one test per oracle, so that the parallel workers share them out)
def test_vandatta_oracle_conforms_in_python() -> None:
    r = _verify(VAN, "vandatta", VandattaOracle, players=[2], games=_every_setting(VAN, [2]),
                seed_=2)
    assert r.conforms and len(r.verified) > 20 and not r.not_offered


def test_abracadabra_oracle_conforms_in_python() -> None:
    r = _verify(ABR, "abracadabra", AbracadabraOracle, players=[3],
                games=_every_setting(ABR, [3]), seed_=2)
    assert r.conforms and {s.setting.players for s in r.verified} == {3}
    assert r.coverage.hit and "clauses exercised" in r.coverage.summary()


def test_newton_oracle_conforms_in_python() -> None:
    r = _verify(NEW, "abracadabra-newton", AbracadabraNewtonOracle, players=[2, 4], games=12,
                seed_=2)
    assert r.conforms and {s.setting.players for s in r.verified} == {2, 4}
    # NEW-5's ascending auction is the spec's own option: the oracle refuses it, and says so
    r = _verify(NEW, "abracadabra-newton", AbracadabraNewtonOracle, players=[4], games=5,
                options={"bidding": "ascending_with_pass"}, seed_=2)
    assert not r.conforms and r.not_offered and not r.verified
    assert all("unknown option 'bidding'" in (s.refused or "") for s in r.not_offered)


class _ShowsOwnHandTwice(VandattaView):
    """A correct observation that names each of the seat's own cards twice (its hand, and a
    list of the same cards, as an implementation listing a declarer's shown cards would)."""

    def observe(self, seat: int) -> dict[str, Any]:
        obs = super().observe(seat)
        obs["mine_again"] = list(obs["zones"]["hand"][seat])
        return obs


def test_a_visible_card_named_twice_is_no_leak_unless_a_copy_is_hidden() -> None:
    # one pack (a setting with decks=2 is the case below)
    r = _verify(VAN, "vandatta", _ShowsOwnHandTwice, players=[3], options={"decks": 1},
                games=8, seed_=4)
    assert r.conforms, r.divergences[0].message if r.divergences else ""
    # with two packs, a second mention may be the copy the seat cannot see
    r = _verify(VAN, "vandatta", _ShowsOwnHandTwice, players=[8], games=8, seed_=4)
    assert r.divergences and r.divergences[0].kind == "leak"


def test_a_card_the_seat_has_seen_may_be_shown_again_another_hand_may_not() -> None:
    """The leak check knows what a seat has seen: a Hearts observation that adds the cards the
    seat passed (now in another's hidden hand) is no leak; one that adds the left neighbour's
    hand, which the seat never saw, still is."""
    from tests.verify.mutants.history import ShowsTheLeftHand, ShowsWhatItPassed

    hearts = resolve("hearts").spec
    fixed = {"pass_rotation": "rotate"}
    r = _verify(hearts, "hearts", lambda: ShowsWhatItPassed(spec=hearts), players=[4],
                options=fixed, games=4, seed_=0)
    assert not r.divergences and r.conforms, [d.message for d in r.divergences]
    r = _verify(hearts, "hearts", lambda: ShowsTheLeftHand(spec=hearts), players=[4],
                options=fixed, games=4, seed_=0)
    assert r.divergences and r.divergences[0].kind == "leak", [d.message for d in r.divergences]


def test_the_variables_an_observation_gives_are_compared_with_the_spec() -> None:
    """An observation's ``vars`` are compared where both sides give a variable: UNO's colour in
    force given right (with a variable of the implementation's own, and the spec's others
    not sent) conforms; the colour always given as red is an observation divergence."""
    from tests.verify.mutants.observed import GivesTheColourOnly, SaysTheColourIsRed

    uno = resolve("uno").spec
    r = _verify(uno, "uno", lambda: GivesTheColourOnly(spec=uno), players=[2], games=3,
                seed_=0)
    assert not r.divergences and r.conforms, [d.message for d in r.divergences]
    r = _verify(uno, "uno", lambda: SaysTheColourIsRed(spec=uno), players=[2], games=3,
                seed_=0)
    assert r.divergences and r.divergences[0].kind == "observation", \
        [d.message for d in r.divergences]
    assert "sees variable 'colour' unlike the spec" in r.divergences[0].message


def test_a_hidden_size_shown_is_a_leak() -> None:
    # the engine on a spec with sizes some seats may not count conforms to the spec, nulls
    # and all; the same engine giving those sizes as counts leaks them
    from tests.verify.mutants.counts import SPEC, HiddenCountsView, ShowsHiddenSizes

    r = _verify(SPEC, "hidden_counts", HiddenCountsView, players=[3], games=8, seed_=2)
    assert r.conforms, r.divergences[0].message if r.divergences else ""
    r = _verify(SPEC, "hidden_counts", ShowsHiddenSizes, players=[3], games=8, seed_=2)
    assert r.divergences and r.divergences[0].kind == "leak"
    assert "gives the size of 'stock'" in r.divergences[0].message


def test_oracle_conforms_through_the_process_protocol() -> None:
    argv = [sys.executable, "-m", "rulespec.cli", "serve", "--python",
            "tests.oracles.vandatta:VandattaOracle"]
    r = _verify(VAN, "vandatta", lambda: ProcessImplementation(argv, 10.0, cwd=ROOT),
                players=[2, 5], options={"scoring": "swedish"}, games=10, seed_=3)
    assert r.conforms and r.verified and r.round_trips > r.events


def test_the_spec_conforms_to_itself_through_serve() -> None:
    argv = [sys.executable, "-m", "rulespec.cli", "serve"]
    r = _verify(ABR, "abracadabra", lambda: ProcessImplementation(argv, 10.0, cwd=ROOT),
                players=[3], options={"success_rule": "at_least"},
                games=_every_setting(ABR, [3], {"success_rule": "at_least"}), seed_=1)
    assert r.conforms


# ---- a bounded sample of each class of bug, caught with verify's own choices ----------------
@pytest.mark.parametrize(("name", "kind", "players"), [
    ("no_ace_on_ace", "legal", [2]),
    ("no_extra_turn_after_ace", "legal", [2]),
    ("court_cards_ten", "result", [2]),
    ("no_follow_suit", "legal", [3]),
    ("no_suit_bonus", "result", [3]),
    ("accepts_illegal", "accepted-illegal", [2]),
    ("leaks_hands", "leak", [2]),
    ("raises_on_reshuffle", "crash", [2]),
    ("wrong_shape_after_10", "shape", [2]),
])
def test_python_mutant_is_caught(name: str, kind: str, players: list[int]) -> None:
    m = by_name(name)
    spec = VAN if m.game == "vandatta" else ABR
    assert m.python is not None
    r = _verify(spec, m.game, load_python_impl(m.python), players=players, games=100, seed_=1)
    assert r.divergences, f"{name} not caught"
    d = r.divergences[0]
    assert d.kind == kind or (kind == "legal" and d.kind in ("legal", "who-moves"))
    # the shrunk match replays on the spec up to the divergence
    code, ans = replay(d.record(m.game))
    assert code == 0, ans
    if kind == "legal":
        assert len(d.events) <= 20


def test_db_keeps_a_shrunk_divergence_and_the_next_run_tries_it_first(tmp_path: Path) -> None:
    """``--db DIR`` stores each shrunk divergence (docs/verify.md), and a later run with another
    seed meets it again from the store: the same shrunk match."""
    m = by_name("court_cards_ten")
    assert m.python is not None
    db = tmp_path / "db"

    def run(seed_: int) -> Report:
        return Verifier(VAN, m.game, load_python_impl(m.python), timeout=10.0, shrink_seconds=5.0,
                        db=str(db)).run(players=[2], games=100, seed_=seed_)

    first = run(1)
    assert first.divergences
    assert any(f.is_file() for f in db.rglob("*")), "--db stored nothing"
    again = run(2)
    assert again.divergences
    assert again.divergences[0].events == first.divergences[0].events


def test_option_bug_is_found_by_the_schedule() -> None:
    """A bug that shows only under a non-default value of an integer option (default + 1 is
    in the schedule): verify reaches it by itself."""
    m = by_name("pile_bonus_always_four")
    spec = ABR
    assert m.python is not None
    r = _verify(spec, m.game, load_python_impl(m.python), seed_=0)
    assert r.divergences and r.divergences[0].kind == "result"
    opt = next(iter(m.shows["options"]))  # type: ignore[call-overload]
    assert opt in r.divergences[0].options


def test_dealer_bug_is_found() -> None:
    r = _verify(VAN, "vandatta", load_python_impl("tests.verify.mutants.vandatta:"
                                                  "SeatZeroAlwaysDeals"),
                players=[3], games=100, seed_=0)
    assert r.divergences and r.divergences[0].dealer != 0


def test_keep_going_finds_distinct_divergences() -> None:
    from tests.verify.mutants.vandatta import CourtCardsTen, NoAceOnAce

    class TwoBugs(NoAceOnAce, CourtCardsTen):
        """No Ace on an Ace, and court cards scored 10."""

    # every option but one fixed at its default: a short schedule, played to its end
    fixed = {o.name: o.default for o in VAN.options
             if o.name not in ("scoring", "target", "deals")}
    v = Verifier(VAN, "vandatta", TwoBugs, shrink_seconds=5.0)
    r = v.run(players=[2], options=fixed, games=36, seed_=1, keep_going=True)
    kinds = [d.kind for d in r.divergences]
    assert "legal" in kinds and "result" in kinds, kinds
    assert len({d.signature() for d in r.divergences}) == len(r.divergences)
    one = Verifier(VAN, "vandatta", TwoBugs, shrink_seconds=5.0).run(players=[2], games=120,
                                                                    seed_=1)
    assert len(one.divergences) == 1 and one.stopped_by == "divergence"


def test_hang_is_found_and_shrunk_quickly_in_python() -> None:
    """A hang is found at the run's timeout, then shrunk with a short one (five times the
    slowest answer, at least 0.5 s): what keeps its shrinking to seconds. Checked by the
    timeout shrinking used, not by the clock, which a loaded machine moves."""
    m = by_name("hangs_after_25")
    assert m.python is not None
    v = Verifier(VAN, "vandatta", load_python_impl(m.python), timeout=3.0, shrink_seconds=5.0)
    r = v.run(players=[2], games=2, seed_=0)
    assert r.divergences and r.divergences[0].kind == "timeout"
    assert v.guard is not None and v.guard.timeout < 3.0


@pytest.mark.parametrize(("name", "kinds"), [
    ("proc_garbage", {"garbage"}),
    ("proc_flood", {"garbage", "timeout"}),
    ("proc_exit_after_first", {"exit"}),
    ("proc_silent_after_first", {"timeout"}),
    ("proc_stderr_then_die", {"exit"}),
])
def test_misbehaving_process_is_a_divergence(name: str, kinds: set[str]) -> None:
    r = _verify(VAN, "vandatta", _process(name, timeout=2.0), players=[2], games=2, seed_=0,
                timeout=2.0)
    assert r.divergences and r.divergences[0].kind in kinds
    if name in ("proc_exit_after_first", "proc_stderr_then_die"):
        assert r.divergences[0].stderr, "the child's standard error is reported"


@pytest.mark.parametrize(("mode", "says"), [
    ("exit_at_once", "| procs: exit_at_once: cannot start"),
    ("silent", "no answer to 'new' within 1.5 s, its first request"),
])
def test_a_program_that_never_answers_is_a_usage_error(mode: str, says: str) -> None:
    """A program that exits, or stays silent, before its first answer does not speak the
    protocol: no divergence (its record would hold no event), but the usage error, with
    what it wrote to standard error."""
    from rulespec.errors import ImplementationStartError

    with pytest.raises(ImplementationStartError) as e:
        argv = [sys.executable, "-m", "tests.verify.mutants.procs", mode]
        _verify(VAN, "vandatta", lambda: ProcessImplementation(argv, 1.0, cwd=ROOT,
                                                               start_seconds=0.5),
                players=[2], games=2, seed_=0, timeout=1.0)
    assert says in str(e.value) and "its first request" in str(e.value), str(e.value)


def test_cli_leaves_no_hypothesis_folder_unless_db_names_one(tmp_path: Path) -> None:
    """verify run in a folder leaves nothing there but what it was asked for: no
    ``.hypothesis/`` (Hypothesis's cache of constants goes to a temporary folder), with
    ``--db`` or without (its database is at the path it names, made when a divergence is
    stored: test_db_keeps_a_shrunk_divergence...)."""
    impl = "tests.oracles.vandatta:VandattaOracle"
    out = _cli("verify", "vandatta", "--python", impl, "-p", "2", "-n", "2", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    out = _cli("verify", "vandatta", "--python", impl, "-p", "2", "-n", "2", "--db", "db",
               cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) in ([], ["db"])


def test_cli_the_first_answer_may_wait_for_the_programs_start_up(tmp_path: Path) -> None:
    """A program that takes 2 s to start answers its first request later than --timeout 1
    allows a call: not a timeout, since the first answer of each process waits for its
    start-up too (protocol.md §6)."""
    slow = f"sh -c 'sleep 2; exec {sys.executable} -m rulespec serve'"
    out = _cli("verify", "vandatta", "--impl", slow, "--timeout", "1", "-p", "2", "-n", "1",
               cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "ok: no divergence" in out.stdout


def test_cli_a_rule_that_fails_at_run_time_writes_its_record(tmp_path: Path) -> None:
    """A rule runtime error of the spec met during verify (exit 70) writes the match up to
    the event that met it as a record (--out), which replays to the same error."""
    spec = ROOT / "tests" / "specs" / "ok" / "fails_at_run_time.rules"
    out = _cli("verify", str(spec), "--impl", f"{sys.executable} -m rulespec serve {spec}",
               "-n", "2", "--out", "fail.json", cwd=tmp_path)
    assert out.returncode == 70, out.stdout + out.stderr
    assert "error: division by zero" in out.stderr
    assert "the match up to it is the record fail.json (rulespec replay fail.json)" in out.stderr
    rec = json.loads((tmp_path / "fail.json").read_text(encoding="utf-8"))
    # the shuffle, two plays, and the third play, which divides by zero
    assert [e.get("action", e.get("chance")) for e in rec["events"]] == [
        "shuffle", "play", "play", "play"]
    again = _cli("replay", "fail.json", cwd=tmp_path)
    assert again.returncode == 70 and "error: division by zero" in again.stderr


def test_cli_an_implementation_that_cannot_start_here_is_a_usage_error(tmp_path: Path) -> None:
    """The README's command run from another folder, where its relative path names nothing:
    exit 2, the program's own complaint, and no record."""
    out = _cli("verify", "vandatta", "--impl", "node examples/js/vandatta.js", "-p", "2",
               cwd=tmp_path)
    assert out.returncode == 2, out.stdout + out.stderr
    assert "its first request: check that `node examples/js/vandatta.js`, run in " \
        f"{tmp_path}" in out.stderr
    assert "Cannot find module" in out.stderr and "DIVERGENCE" not in out.stdout
    assert not (tmp_path / "rulespec-divergence.json").exists()


def test_wrong_implementation_through_the_process_protocol() -> None:
    argv = [sys.executable, "-m", "rulespec.cli", "serve", "--python",
            "tests.verify.mutants.vandatta:NoAceOnAce"]
    r = _verify(VAN, "vandatta", lambda: ProcessImplementation(argv, 10.0, cwd=ROOT),
                players=[2], games=100, seed_=1)
    d = r.divergences[0]
    assert d.kind == "legal" and len(d.events) <= 20, (d.kind, d.message, d.stderr[-5:])
    assert any(e["cards"][0][0] == "A" for e in d.missing) and not d.extra
    assert d.clauses and any("VAN-" in ref for c in d.clauses for ref in c["refs"])


# ---- the JavaScript implementation -----------------------------------------------------------
JS = ["node", "examples/js/vandatta.js"]


def test_javascript_vandatta_conforms() -> None:
    r = _verify(VAN, "vandatta", lambda: ProcessImplementation(JS, 10.0, cwd=ROOT),
                players=[2, 6], games=_every_setting(VAN, [2, 6]), seed_=4)
    assert not r.divergences, [d.message for d in r.divergences]
    assert len(r.verified) > 20


@pytest.mark.parametrize("name", ["eight_on_ace", "hardcoded_dealer", "accepts_anything",
                                  "leaks_hands", "crash_on_reshuffle"])
def test_javascript_mutant_is_caught(name: str) -> None:
    r = _verify(VAN, "vandatta", _process(f"js_{name}", timeout=3.0), players=[3], games=100,
                seed_=0, timeout=3.0)
    assert r.divergences, f"js {name} not caught"


# ---- comparing answers ----------------------------------------------------------------------
def test_compare_answers_follows_the_documented_rule() -> None:
    spec = {"ok": True, "complete": True, "deals": [{"scores": [1, 2]}], "totals": [1, 2],
            "winners": [0]}
    assert compare_answers(spec, {**spec, "extra_key": 1}) == []
    assert compare_answers(spec, {**spec, "deals": [{"scores": [1, 2], "blocked": False}]}) == []
    assert compare_answers(spec, {**spec, "winners": [0]}) == []
    assert compare_answers(spec, {**spec, "deals": [{"scores": [1, 2], "blocked": True}]})
    assert compare_answers(spec, {**spec, "totals": [2, 1]})
    assert compare_answers(spec, {"ok": False, "error": "x"})
    assert compare_answers(spec, [1]) == ["the answer is not a JSON object"]
    inc = {"ok": True, "complete": False, "deals": [], "totals": [0, 0], "winners": [],
           "to_move": 1, "legal": [{"seat": 1, "action": "draw"}, {"seat": 1, "action": "pass"}]}
    assert compare_answers(inc, {**inc, "legal": list(reversed(inc["legal"]))}) == []
    assert compare_answers(inc, {**inc, "legal": inc["legal"][:1]})
    assert compare_answers(inc, {**inc, "to_move": 0})


def test_coverage_lists_the_clauses_of_the_spec() -> None:
    cs = clauses(VAN)
    kinds = {c.kind for c in cs}
    assert {"alternative", "procedure", "then", "else"} <= kinds
    assert len({c.id for c in cs}) == len(cs)


# ---- the command line, as a user runs it ------------------------------------------------------
def test_cli_verify_reports_and_writes_a_record_that_replays_anywhere(tmp_path: Path) -> None:
    out = _cli("verify", "vandatta", "--python", "tests.verify.mutants.vandatta:NoAceOnAce",
               "-p", "2", "--games", "100", "--seed", "1", cwd=tmp_path)
    assert out.returncode == 1, out.stderr
    assert "divergence 1: the legal events differ (legal)" in out.stdout
    assert "missing (spec allows, implementation does not):" in out.stdout
    assert "vandatta.rules:" in out.stdout and "Traceback" not in out.stdout + out.stderr
    rec = tmp_path / "rulespec-divergence.json"
    assert json.loads(rec.read_text())["game"] == "vandatta"
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    again = _cli("replay", str(rec), cwd=elsewhere)
    assert again.returncode == 0 and json.loads(again.stdout)["complete"] is False


def test_cli_verify_of_a_users_spec_copies_it_beside_the_record(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    spec = mine / "my_vandatta.rules"
    spec.write_text(resolve("vandatta").path.read_text(encoding="utf-8"), encoding="utf-8")
    out = _cli("verify", str(spec), "--python", "tests.verify.mutants.vandatta:NoAceOnAce",
               "-p", "2", "--games", "100", "--seed", "1", "--out",
               str(tmp_path / "found.json"), cwd=ROOT)
    assert out.returncode == 1, out.stderr
    rec = json.loads((tmp_path / "found.json").read_text())
    assert rec["game"] == "found.spec/my_vandatta.rules"
    assert (tmp_path / "found.spec" / "my_vandatta.rules").is_file()
    spec.unlink()  # the record travels with its own copy
    again = _cli("replay", str(tmp_path / "found.json"), cwd=mine)
    assert again.returncode == 0, again.stdout + again.stderr


def test_cli_verify_json_report(tmp_path: Path) -> None:
    """The report as JSON. The oracle's conformance over the whole 3-player schedule is
    test_abracadabra_oracle_conforms_in_python's; here every option but success_rule, joker and
    target (fixed together with deals, an error) is fixed at its default, which keeps the
    schedule to a few settings."""
    def shown(v: object) -> str:
        return json.dumps(v) if isinstance(v, bool) else str(v)

    defaults = {o.name: o.default for o in ABR.options
                if o.name not in ("success_rule", "joker", "target")}
    fixed = [x for k, v in defaults.items() for x in ("-o", f"{k}={shown(v)}")]
    out = _cli("verify", "abracadabra", "--python", "tests.oracles.abracadabra:AbracadabraOracle",
               "-p", "3", "--games", str(_every_setting(ABR, [3], defaults)), "--json", *fixed,
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["format"] == "rulespec-verify/1" and data["conforms"] is True
    assert data["coverage"]["reachable"] >= data["coverage"]["exercised"] > 0
    assert all(s["players"] == 3 for s in data["settings"])


def test_cli_python_module_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "myimpl.py").write_text(
        "from tests.oracles.vandatta import VandattaOracle\n"
        "def make():\n    return VandattaOracle()\n", encoding="utf-8")
    out = _cli("verify", "vandatta", "--python", "myimpl:make", "-p", "2", "-o",
               "scoring=swedish", "--games", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[1].startswith("ok: no divergence")


@pytest.mark.parametrize(("args", "message"), [
    (["--impl", "no-such-program-xyz"], "cannot start the implementation"),
    (["--impl", "'unbalanced"], "quoting"),
    (["--python", "no_such_module_xyz:Impl"], "cannot import"),
    (["--python", "tests.oracles.vandatta:Nothing"], "has no 'Nothing'"),
    ([], "exactly one of"),
    (["--python", "tests.oracles.vandatta:VandattaOracle", "-p", "99"], "takes 2 to 14"),
])
def test_cli_verify_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    out = _cli("verify", "vandatta", *args, cwd=ROOT)
    assert out.returncode == 2, out.stdout + out.stderr
    assert message in out.stderr and "Traceback" not in out.stderr
    assert "internal error" not in out.stderr


def test_cli_strict_and_not_offered(tmp_path: Path) -> None:
    """The JavaScript implementation refuses multi_aces = true at new: reported as not offered,
    not as a divergence; with --strict that is a failure; offered nothing at all, verify says
    so. (Every other option is fixed at its default, which keeps the schedule to a few
    settings.)"""
    def shown(v: object) -> str:
        return json.dumps(v) if isinstance(v, bool) else str(v)

    defaults = {o.name: o.default for o in VAN.options
                if o.name not in ("multi_aces", "scoring", "target")}
    fixed = [x for k, v in defaults.items() for x in ("-o", f"{k}={shown(v)}")]
    base = ["verify", "vandatta", "--impl", "node examples/js/vandatta.js", "-p", "3",
            "--games", str(_every_setting(VAN, [3], defaults)), "--json", *fixed]
    out = _cli(*base, cwd=ROOT)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr
    data = json.loads(out.stdout)
    refused = [s for s in data["settings"] if s["refused"]]
    assert refused and all(s["options"].get("multi_aces") is True for s in refused)
    assert any(s["options"].get("scoring") == "swedish" and s["matches"] for s in data["settings"])
    strict = _cli(*base, "--strict", cwd=ROOT)
    assert strict.returncode == 1 and json.loads(strict.stdout)["conforms"] is False
    nothing = _cli("verify", "vandatta", "--impl", "node examples/js/vandatta.js", "-p", "3",
                   "-o", "multi_aces=true", *fixed, "--games", "1", cwd=ROOT)
    assert nothing.returncode == 1, nothing.stdout + nothing.stderr
    # one line says it, with the implementation's reason
    assert "not verified: the implementation refused the one setting tried at 'new', " \
        "answering: not offered: multi_aces = true\n" in nothing.stdout


def test_cli_diff_finds_where_two_settings_part(tmp_path: Path) -> None:
    out = _cli("diff", "abracadabra", "abracadabra", "--b-option", "success_rule=at_least",
               "-p", "3", "--games", "40", "--seed", "1", cwd=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    assert "(result)" in out.stdout and "A says:" in out.stdout and "B says:" in out.stdout
    code, _ = replay(json.loads((tmp_path / "rulespec-divergence.json").read_text()))
    assert code == 0
    same = _cli("diff", "vandatta", "vandatta", "-p", "2", "--games", "3",
                cwd=tmp_path)
    assert same.returncode == 0, same.stdout + same.stderr


# ---- rulespec.testing --------------------------------------------------------------------------
def test_testing_assert_conforms_and_strategies() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from rulespec.testing import assert_conforms, matches

    assert_conforms("vandatta", VandattaOracle, players=[2], options={"scoring": "swedish"},
                    games=3)
    with pytest.raises(AssertionError, match="legal events differ"):
        assert_conforms("vandatta", load_python_impl("tests.verify.mutants.vandatta:NoAceOnAce"),
                        players=[2], games=100, seed=1)

    @settings(max_examples=3, deadline=None)
    @given(matches("abracadabra", players=[3]), st.data())
    def inner(m: Any, data: Any) -> None:
        code, ans = replay(m.record())
        assert code == 0 and ans["complete"]
        # inside the user's own @given, assert_conforms still works (no nested @given)
        assert_conforms("abracadabra", AbracadabraOracle, players=[3],
                        options={"joker": "none"}, games=2)

    inner()


def test_integer_options_are_tried_at_the_ends_of_their_range() -> None:
    from rulespec.lang.checker import check_file
    from rulespec.verify.runner import _Tables
    from rulespec.verify.schedule import option_values

    spec = check_file(ROOT / "tests/specs/ok/highest_trump.rules")
    assert option_values(spec)["cards"] == [3, 2, 4, 1, 10]  # default, +-1, the range's ends
    plan = schedule(spec, _Tables(spec))
    tried = {dict(s.options).get("cards") for s in plan}
    assert {1, 2, 4, 10} <= tried
    # the combinations hold the values too, and every setting is within the range
    assert all(1 <= dict(s.options).get("cards", 3) <= 10 for s in plan)


def test_the_watchdog_interrupts_only_the_call_it_fired_for() -> None:
    """verify's timeout signal is its own: one that arrives after the slow call has answered
    (a loaded machine delays it) is dropped instead of raising in verify's own code; a
    user's Ctrl-C still interrupts; a call still running is interrupted as a timeout."""
    import signal
    import time

    from rulespec.verify.guard import Watchdog

    before = signal.getsignal(signal.SIGINT)
    try:
        wd = Watchdog()
        assert wd.enabled
        # stale: the watchdog fired for a call that has since answered
        wd.started, wd.fired_for = None, 123.0
        signal.raise_signal(signal.SIGINT)
        assert wd.fired_for is None and not wd.timed_out
        # the user's Ctrl-C
        with pytest.raises(KeyboardInterrupt):
            signal.raise_signal(signal.SIGINT)
        # a call past its timeout
        wd.timeout = 0.1
        wd.started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            time.sleep(5)
        assert wd.timed_out
        wd.started = None
    finally:
        signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("where", ["gc", "weakref"])
def test_a_timeout_signal_that_lands_in_a_gc_callback_is_sent_again(where: str) -> None:
    """Python reports an exception raised in a callback of the cycle collector (or a weakref
    callback, or a finalizer it runs) as unraisable and goes on, so a timeout's interrupt
    raised there would be lost, and under pytest be a warning: the guard drops it, the
    watchdog sends it again, and the call ends as a timeout."""
    import gc
    import time
    import weakref

    from rulespec.errors import ImplementationError
    from rulespec.verify.guard import Guard

    def slow(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and where == "gc":
            time.sleep(0.5)  # the signal lands here, in the callback

    class Thing:
        pass

    def call() -> object:
        if where == "gc":
            gc.collect()
        else:
            thing = Thing()
            ref = weakref.ref(thing, lambda _: time.sleep(0.5))
            del thing  # the callback runs now, and the signal lands in it
            assert ref() is None
        time.sleep(5)  # interrupted here, once the watchdog has sent it again
        return []

    guard = Guard(object, timeout=0.1)
    gc.callbacks.append(slow)
    try:
        with pytest.raises(ImplementationError) as info:
            guard.call("legal", call)
        assert info.value.kind == "timeout"
    finally:
        gc.callbacks.remove(slow)
        guard.close()


class _ResultNotJson(VandattaView):
    """Answers ``result`` with a value that is no JSON: what ``KIND`` says."""

    KIND = "set"

    def result(self) -> dict[str, Any]:
        r = super().result()
        deep: list[Any] = []
        for _ in range(990):
            deep = [deep]
        r["totals"] = {"set": {1, 2}, "deep": deep, "digits": [10**5000],
                       "nan": [float("nan")]}[self.KIND]
        return r


@pytest.mark.parametrize(("kind", "says"), [
    ("set", "a Python set"), ("deep", "nested more than 32 levels deep"),
    ("digits", "more than 4,000 digits"), ("nan", "not a JSON number")])
def test_a_python_answer_that_is_no_json_is_a_shape_divergence(kind: str, says: str) -> None:
    """A Python implementation returns objects, not text: one that is no JSON value (or one
    nested past the recursion limit, or a number Python cannot write) is the
    implementation's shape error, and the report, text and JSON, is still written."""
    impl = type("Impl", (_ResultNotJson,), {"KIND": kind})
    r = _verify(VAN, "vandatta", impl, players=[2], options={"scoring": "swedish"}, games=1,
                seed_=1)
    d = r.divergences[0]
    assert d.kind == "shape" and says in d.message, d.message
    json.loads(json.dumps(r.to_json(), allow_nan=False))
    assert "divergence 1:" in format_report(r, "t")


# ---- how much a run plays, and what it says as it goes ------------------------------------
def test_games_counts_matches_in_all_spread_over_the_schedule() -> None:
    """-n 2 plays two matches, the first two settings once each; a larger N gives every
    setting one before any gets a second; the progress numbers count the settings' runs from
    1 and never pass the total they announce."""
    seen: list[tuple[int, int | None]] = []
    v = Verifier(VAN, "vandatta", VandattaOracle, shrink_seconds=5.0)
    r = v.run(players=[2], games=2, seed_=0,
              progress=lambda label, n, total, cov: seen.append((n, total)))
    assert r.matches == 2 and [s.matches for s in r.results] == [1, 1]
    assert seen == [(1, 2), (2, 2)]
    from rulespec.loading import normalise_options
    from rulespec.verify.runner import _Tables

    # every option but three fixed at its default: a schedule of a few settings
    fixed = {o.name: o.default for o in VAN.options
             if o.name not in ("scoring", "target", "deals")}
    plan = schedule(VAN, _Tables(VAN), [2], normalise_options(VAN, fixed))
    slots = len(plan) + 3  # and three steered combinations
    seen.clear()
    r = Verifier(VAN, "vandatta", VandattaOracle, shrink_seconds=5.0).run(
        players=[2], options=fixed, games=slots + 2, seed_=0,
        progress=lambda label, n, total, cov: seen.append((n, total)))
    assert r.matches == slots + 2
    # the first two settings of the schedule twice, every other once (a steered combination
    # that repeats a setting is counted with it)
    assert [s.matches for s in r.results][:len(plan)] == [2, 2] + [1] * (len(plan) - 2)
    assert [n for n, _ in seen] == list(range(1, len(seen) + 1))
    assert all(total is not None and n <= total for n, total in seen)
    assert seen[-1][0] == seen[-1][1]


def test_cli_games_2_plays_two_matches(tmp_path: Path) -> None:
    out = _cli("verify", "vandatta", "--python", "tests.oracles.vandatta:VandattaOracle",
               "-p", "2", "-n", "2", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["matches"] == 2


def test_a_budget_spent_before_the_first_match_still_plays_one() -> None:
    """A loaded machine may spend a short budget on planning alone: the run still plays its
    first match (and says the budget stopped it), never reports that nothing was offered."""
    r = _verify(VAN, "vandatta", VandattaOracle, players=[2], budget=0.0, seed_=0)
    assert r.matches >= 1 and r.verified and r.conforms
    assert r.stopped_by == "budget" and len(r.results) == 1
    assert "stopped: the budget was spent after 1 settings" in format_report(r, "t")


_REFUSES = ("import json, sys\n"
            "for line in sys.stdin:\n"
            "    if json.loads(line).get('op') == 'quit':\n"
            "        break\n"
            "    print(json.dumps({'ok': False, 'error': 'not offered here'}), flush=True)\n")


def test_an_implementation_that_refuses_every_setting_is_told_at_once() -> None:
    """Refusals cost a `new` call each, no search and no compiled table; once every scheduled
    setting is refused the run stops, and says so in one line."""
    from rulespec.verify.runner import _Tables

    seen: list[tuple[int, int | None]] = []
    r = Verifier(VAN, "vandatta", lambda: ProcessImplementation(
        [sys.executable, "-c", _REFUSES], 10.0)).run(
            progress=lambda label, n, total, cov: seen.append((n, total)))
    plan = schedule(VAN, _Tables(VAN))
    assert r.stopped_by == "refused" and not r.verified and r.matches == 0
    # one 'new' a setting, and one for each option of a combination refused (its parts)
    assert r.round_trips <= len(plan) + 30 * sum(s.why == "combination" for s in plan)
    assert all(total is not None and n <= total for n, total in seen)
    text = format_report(r, "t")
    assert text.splitlines()[1] == (f"not verified: the implementation refused all "
                                    f"{len(r.not_offered)} settings tried at 'new', answering: "
                                    "not offered here")
    assert "not offered by" not in text  # the one reason is in the verdict


def test_a_users_spec_that_serve_does_not_know_is_said_in_one_line(tmp_path: Path) -> None:
    """`rulespec serve` serves shipped games by name; verify names a user's spec by the name
    its game line declares: every setting refused, and the verdict says why."""
    spec = tmp_path / "my.rules"
    spec.write_text(resolve("vandatta").path.read_text(encoding="utf-8").replace(
        "game vandatta", "game my_vandatta", 1), encoding="utf-8")
    out = _cli("verify", str(spec), "--impl", f"{sys.executable} -m rulespec serve", "-p", "2",
               cwd=tmp_path)
    assert out.returncode == 1, out.stdout + out.stderr
    verdict = out.stdout.splitlines()[1]
    assert verdict.startswith("not verified: the implementation refused all "), verdict
    assert "unknown game 'my_vandatta'" in verdict, verdict
    assert "(the spec is not a shipped game: 'new' names it 'my_vandatta', as its game line " \
        "declares; `rulespec serve FILE.rules` serves it under that name)" in verdict
    assert len(out.stdout.splitlines()) == 2, out.stdout


def test_serve_file_serves_a_users_spec_under_its_declared_name(tmp_path: Path) -> None:
    """`rulespec serve my.rules` answers 'new' for the name my.rules declares, so verify of a
    user's spec against it conforms; another name is refused, naming the one it serves."""
    spec = tmp_path / "my.rules"
    spec.write_text(VAN_TEXT.replace("game vandatta", "game my_vandatta", 1), encoding="utf-8")
    out = _cli("verify", "my.rules", "--impl", f"{sys.executable} -m rulespec serve my.rules",
               "-p", "2", "-n", "2", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("verify my_vandatta against ")
    assert "ok: no divergence: 2 settings, 2 matches" in out.stdout, out.stdout
    asked = _cli("serve", "my.rules", cwd=tmp_path, timeout=60,
                 input='{"op": "new", "game": "vandatta", "players": 2}\n')
    assert asked.returncode == 0, asked.stderr
    assert json.loads(asked.stdout) == {
        "ok": False, "error": "unknown game 'vandatta': this server serves 'my_vandatta' only"}
    bad = _cli("serve", "my.rules", "--python", "x:Y", cwd=tmp_path, timeout=60)
    assert bad.returncode == 2 and "not both" in bad.stderr


def test_the_never_reached_list_names_each_clause_once_with_its_column() -> None:
    r = _verify(VAN, "vandatta", VandattaOracle, players=[2], games=2, seed_=0)
    text = format_report(r, "t")
    listed = [ln.split()[0] for ln in text.splitlines()
              if ln.startswith("    vandatta.rules:")]
    assert listed and len(listed) <= 12
    assert all(ln.count(":") == 2 for ln in listed), listed
    entries = r.to_json()["coverage"]["never_reached"]
    assert len(entries) == len(set(entries))
    # the two if-expressions of packs_for's line, told apart by their columns: the inner
    # one's else arm (two packs at a table of two) is never reached
    line = next(i for i, text in enumerate(VAN_TEXT.splitlines(), 1)
                if text.startswith("def packs_for(n: int) = if decks == auto then (if n <= 5"))
    column = VAN_TEXT.splitlines()[line - 1].index("if n <= 5") + 1
    assert f"vandatta.rules:{line}:{column} if-expression: else arm" in entries
    assert not any(e.startswith(f"vandatta.rules:{line}:{column - 1} ") for e in entries)


class _ResultFailsMidMatch(VandattaOracle):
    """Correct in play, but its result crashes when asked before the match is over: only the
    probes of illegal events ask it then."""

    def result(self) -> dict[str, Any]:
        if self.to_move() is not None:
            raise RuntimeError("no result before the end")
        return super().result()


def test_a_divergence_met_while_probing_is_shrunk_with_the_probes_on() -> None:
    r = _verify(VAN, "vandatta", _ResultFailsMidMatch, players=[2], games=3, seed_=2)
    assert r.divergences, "the mid-match result was never asked"
    d = r.divergences[0]
    assert d.kind == "crash" and "did not fail the same way twice" not in d.message, d.message
    code, _ = replay(d.record("vandatta"))
    assert code == 0


def test_an_event_whose_action_is_no_name_has_a_key() -> None:
    """An implementation may list an event whose action is a list (found by the fuzzer: a
    TypeError while normalising it made Hypothesis call verify flaky)."""
    from rulespec.verify.compare import normal_key

    assert normal_key({"action": [[["x"]]], "seat": 0}).startswith("{")


def test_a_run_leaves_no_thread_and_gives_sigint_back() -> None:
    """Verifying in process again and again (a test suite, a fuzzer's worker) keeps no
    watchdog thread of a run that is over (they piled up until no thread could start) and
    gives SIGINT its handler back."""
    import signal
    import threading

    before, handler = threading.active_count(), signal.getsignal(signal.SIGINT)
    for seed in range(3):
        _verify(VAN, "vandatta", VandattaOracle, players=[2], games=1, seed_=seed)
    assert signal.getsignal(signal.SIGINT) == handler
    for _ in range(400):  # a stopped watchdog ends at once (its wait is cut short)
        if threading.active_count() <= before:
            break
        threading.Event().wait(0.05)
    assert threading.active_count() <= before


# ---- what verify relies on in Hypothesis -----------------------------------------------------
#: the digest Hypothesis gives verify's test function (hypothesis.internal.reflection's
#: function_digest: its source without comments, and its signature), before the per-setting
#: part is added; the example database (--db) files examples under it
TEST_DIGEST = ("9f079812b51135e5fe58bfaef71b683e2e51a2602ecf996336894e98c6e53eeff171e43e6d096fed25"
               "37190dac5f7a6a")


def _search() -> Any:
    from rulespec.verify.runner import _Tables
    from rulespec.verify.search import Run, SettingSearch

    # no implementation: the test function is only made, not run
    run = Run(guard=None, tables=_Tables(VAN), game="vandatta", other_options={},
              action_names=VAN.action_names(), set_fields=frozenset(), words=("spec", "impl"),
              probes=True, observations=True, timeout=10.0, max_shrinks=3000, played=set())
    return SettingSearch(run, skip=set(), swarm=True, cap=1)


def test_the_test_function_keeps_its_example_database_key() -> None:
    """Examples stored with --db are found by the digest of verify's test function: moving or
    changing its code loses them (comments do not count). The digest is the one the test had
    as a method of the Verifier, before the package was split."""
    from hypothesis.internal.reflection import function_digest

    from rulespec.verify.schedule import Setting

    test = _search().example(Setting(2))
    assert function_digest(test).hex() == TEST_DIGEST


def test_the_shrink_bound_is_where_hypothesis_reads_it() -> None:
    """verify bounds the seconds a shrink takes through Hypothesis's private constant: the
    constant is there, Hypothesis's engine reads it when a shrink starts, verify's bound
    holds inside the block and Hypothesis's own comes back after it. If a new Hypothesis moves
    the constant, this fails, and so does verify, loudly (not shrinking for five minutes)."""
    import importlib
    import inspect

    from rulespec.verify.runner import SHRINK_BOUND, shrink_bound

    module, name = SHRINK_BOUND
    home = importlib.import_module(module)
    before = getattr(home, name)
    assert isinstance(before, (int, float))
    reads = [line for line in inspect.getsource(home).splitlines()
             if name in line and not line.lstrip().startswith(("#", name))]
    assert reads, f"{module} no longer reads {name}"
    with shrink_bound(2.5):
        assert getattr(home, name) == 2.5
    assert getattr(home, name) == before


def test_a_hypothesis_without_the_shrink_bound_is_an_error(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from rulespec.verify import runner

    monkeypatch.setattr(runner, "SHRINK_BOUND", (runner.SHRINK_BOUND[0], "NO_SUCH_BOUND"))
    with pytest.raises(RuntimeError, match="NO_SUCH_BOUND"), runner.shrink_bound(1.0):
        pass


# ---- simultaneous decisions (choose together) -------------------------------------------------
TOGETHER_PATH = ROOT / "tests" / "specs" / "ok" / "simultaneous_pass.rules"
TOGETHER = resolve(TOGETHER_PATH).spec


def test_an_implementation_that_asks_the_seats_in_another_order_conforms() -> None:
    r = _verify(TOGETHER, str(TOGETHER_PATH), lambda: AsksHighestFirst(spec=TOGETHER),
                players=[3, 4], games=30, seed_=2)
    assert r.conforms, r.divergences[0].message if r.divergences else ""


def test_a_choice_shown_before_the_reveal_is_a_leak() -> None:
    r = _verify(TOGETHER, str(TOGETHER_PATH), lambda: ShowsChoicesEarly(spec=TOGETHER),
                players=[4], games=100, seed_=1)
    assert r.divergences and r.divergences[0].kind == "leak", \
        [d.message for d in r.divergences]
    d = r.divergences[0]
    # shrunk: the leak is met in the pass, before any card is shown
    assert all(e.get("action") != "show" for e in d.events)


def test_a_second_choice_from_a_seat_that_has_chosen_is_refused() -> None:
    r = _verify(TOGETHER, str(TOGETHER_PATH), lambda: TakesASecondChoice(spec=TOGETHER),
                players=[4], games=100, seed_=1)
    assert r.divergences and r.divergences[0].kind == "accepted-illegal", \
        [d.message for d in r.divergences]
