"""Options whose values take parameters (``stake_mode = ante(1) | equals_bid | free(1,5)``):
the name and the arguments reach the rules, the command line and records carry the canonical
text, bad values are usage errors, and verify's schedule tries the variations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.errors import ConfigurationError, RuleRuntimeError
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.verify.schedule import option_values

SPEC = Path(__file__).parent / "specs" / "ok" / "option_values.rules"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def totals(options: dict[str, object], players: int = 2) -> list[int]:
    st = Game(check_file(SPEC), players, options).new_initial_state()
    while not st.is_terminal():
        st.apply_index(0)
    return st.totals()


def test_defaults_are_canonical_texts() -> None:
    spec = check_file(SPEC)
    assert spec.defaults() == {"stake_mode": "ante(1)", "show_effect": "add_per_card(1)",
                               "bonus": "plain"}


def test_behaviour_follows_the_name_and_the_arguments() -> None:
    plain = {"show_effect": "none"}
    ranks = totals({**plain, "stake_mode": "equals_bid"})
    assert totals(plain) == ranks  # ante(1)
    assert totals({**plain, "stake_mode": "ante(3)"}) == [3 * r for r in ranks]
    held = totals({**plain, "stake_mode": "free( 2 , 5 )"})
    assert held == [min(max(r, 2), 5) for r in ranks]
    assert totals({"stake_mode": "equals_bid", "show_effect": "add_per_card(4)"}) == \
        [r + 4 for r in ranks]
    assert totals({"stake_mode": "equals_bid", "show_effect": "multiply_per_card(2)"}) == \
        [2 * r for r in ranks]
    # a bool argument: the dealer (seat 0) only, or everyone
    assert totals({**plain, "stake_mode": "equals_bid", "bonus": "boosted(2,true)"}) == \
        [ranks[0] + 2, ranks[1]]
    assert totals({**plain, "stake_mode": "equals_bid", "bonus": "boosted(2, false)"}) == \
        [r + 2 for r in ranks]


def test_game_keeps_the_canonical_text() -> None:
    g = Game(check_file(SPEC), 2, {"stake_mode": "free(1, 5)"})
    assert g.options["stake_mode"] == "free(1,5)"


@pytest.mark.parametrize("value,needle", [
    ("free(1)", "takes 2 arguments"), ("ante(11)", "k expects an integer in 1..10"),
    ("bogus(1)", "expects one of"), ("ante", "takes 1 argument"),
    ("equals_bid(2)", "takes no arguments"), ("free(1,x)", "each argument is a number"),
    ("ante(true)", "k expects an integer"), (3, "expects one of"),
])
def test_bad_values_are_configuration_errors(value: object, needle: str) -> None:
    with pytest.raises(ConfigurationError, match="stake_mode") as info:
        Game(check_file(SPEC), 2, {"stake_mode": value})
    assert needle in str(info.value)


def test_simulate_records_and_replay(tmp_path: Path) -> None:
    code, out, _ = run("simulate", str(SPEC), "-p", "2", "-n", "3", "--json",
                       "-o", "stake_mode=free(1, 5)", "-o", "show_effect=none",
                       "--records", str(tmp_path))
    assert code == 0
    summary = json.loads(out)
    assert summary["options"]["stake_mode"] == "free(1,5)"
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    rec = json.loads(files[0].read_text())
    assert rec["options"] == {"stake_mode": "free(1,5)", "show_effect": "none"}
    code, out, _ = run("replay", str(files[0]))
    assert code == 0
    ans = json.loads(out)
    assert ans["ok"] and ans["complete"] and ans["totals"] == [5, 5]


def test_replay_of_a_record_with_a_bad_value(tmp_path: Path) -> None:
    (tmp_path / SPEC.name).write_text(SPEC.read_text(encoding="utf-8"), encoding="utf-8")
    rec = {"format": "rulespec-record/1", "game": SPEC.name, "players": 2,
           "options": {"stake_mode": "free(1)"}, "events": []}
    p = tmp_path / "r.json"
    p.write_text(json.dumps(rec))
    code, out, err = run("replay", str(p))
    assert code != 0 and "stake_mode" in out + err and "Traceback" not in out + err


@pytest.mark.parametrize("value", ["free(1)", "ante(0)", "nothing", "ante(1,2)"])
def test_bad_value_on_the_command_line_is_exit_2(value: str) -> None:
    code, _, err = run("simulate", str(SPEC), "-p", "2", "-n", "1", "-o", f"stake_mode={value}")
    assert code == 2
    assert "stake_mode" in err and "Traceback" not in err


def test_verify_schedule_tries_the_variations() -> None:
    vals = option_values(check_file(SPEC))
    assert vals["stake_mode"] == ["ante(1)", "ante(10)", "equals_bid", "free(1,1)",
                                  "free(2,1)", "free(1,2)"]
    assert vals["show_effect"] == ["add_per_card(1)", "add_per_card(2)",
                                   "multiply_per_card(1)", "multiply_per_card(2)", "none"]
    assert vals["bonus"] == ["plain", "boosted(0,false)", "boosted(3,false)",
                             "boosted(0,true)"]


def test_rulebook_lists_the_parameters() -> None:
    code, out, _ = run("doc", str(SPEC), "--reference")
    assert code == 0
    assert "`ante(k: int in 1..10), equals_bid, free(low: int, high: int)` | `ante(1)`" in out
    code, out, _ = run("doc", str(SPEC))  # the player's book names the parameters alone
    assert code == 0 and "`ante(k)`" in out


def test_pretty_round_trip() -> None:
    spec = parse(SPEC.read_text(), "s.rules")
    assert parse(pretty(spec), "p.rules") == spec


UNGUARDED = """
game ug title "U"
players 2 to 2
winner highest total
zone stock: shared visible to nobody
option stake_mode: {ante(k: int), equals_bid, free(low: int, high: int)} = ante(1)
def score(p: int) = stake_mode.low
deal {
  choose left_of(dealer) {
    show() {
      end deal scoring score
    }
  }
}
match {
  run deal
  end match winners seats
}
"""


def test_a_parameter_the_value_lacks_is_a_runtime_error_of_the_rule() -> None:
    spec = check_text(UNGUARDED, "ug.rules")
    st = Game(spec, 2, {"stake_mode": "free(4,6)"}).new_initial_state()
    st.apply_index(0)
    assert st.totals() == [4, 4]
    st = Game(spec, 2).new_initial_state()  # ante(1): no 'low'; the table still builds
    with pytest.raises(RuleRuntimeError, match="option 'stake_mode' is ante\\(1\\)") as info:
        st.apply_index(0)
    assert info.value.span is not None and info.value.span.line == 7


def test_each_value_may_carry_its_own_text(tmp_path: Path) -> None:
    spec_path = tmp_path / "v.rules"
    spec_path.write_text(SPEC.read_text().replace(
        "option stake_mode: {ante(k: int in 1..10), equals_bid,",
        'option stake_mode: {ante(k: int in 1..10) "Everyone puts <k> in | out.", equals_bid,'))
    from rulespec.lang.checker import check_file

    o = check_file(spec_path).option("stake_mode")
    assert o.value_doc("ante") == "Everyone puts <k> in | out." and o.value_doc("free") is None
    tree = parse(spec_path.read_text(), "v.rules")
    assert parse(pretty(tree), "v.rules") == tree
    code, out, _ = run("doc", str(spec_path), "--reference")
    assert code == 0
    assert ("- `ante(k: int in 1..10)` (the default: ante(1)): Everyone puts \\<k\\> in \\| "
            "out.") in out
