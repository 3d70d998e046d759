"""Issue 25's small things: ``players N``, negative numbers wherever a number goes, one clear
error for a list mistake, named enumerations for variables and results, and the direction of
play as state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulespec.cli import main
from rulespec.engine.game import Game
from rulespec.errors import ConfigurationError, SpecCheckError
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.verify.schedule import option_values

OK = Path(__file__).parent / "specs" / "ok"
NEGATIVE = OK / "negative_numbers.rules"


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args))
    return res.exit_code, res.stdout, res.stderr


def play(path: Path, players: int, options: dict[str, object]) -> list[int]:
    st_ = Game(check_file(path), players, options).new_initial_state()
    while not st_.is_terminal():
        st_.apply_index(0)
    return st_.totals()


# ---- negative numbers -------------------------------------------------------------------------

def test_negative_defaults_ranges_and_values_are_read() -> None:
    spec = check_file(NEGATIVE)
    assert spec.defaults() == {"mercy_threshold": -350, "penalty": -5, "handicap": "fixed(-3)"}
    assert spec.option("mercy_threshold").bounds == (-1000, 0)
    assert spec.option("penalty").values == (-10, -5, 0)
    assert spec.option("handicap").value_params("fixed")[0].bounds == (-20, 20)


def test_negative_numbers_print_back() -> None:
    spec = parse(NEGATIVE.read_text(encoding="utf-8"))
    text = pretty(spec)
    assert "option mercy_threshold: int in -1000..0 = -350" in text
    assert "{-10, -5, 0} = -5" in text and "fixed(k: int in -20..20)} = fixed(-3)" in text
    assert parse(text) == spec


@given(lo=st.integers(-10**6, 10**6), width=st.integers(0, 10**6), data=st.data())
def test_any_integer_option_round_trips(lo: int, width: int, data: st.DataObject) -> None:
    hi = lo + width
    default = data.draw(st.integers(lo, hi))
    text = NEGATIVE.read_text(encoding="utf-8").replace(
        "int in -1000..0 = -350", f"int in {lo}..{hi} = {default}")
    spec = check_text(text, "n.rules")
    assert spec.option("mercy_threshold").default == default
    assert spec.option("mercy_threshold").bounds == (lo, hi)
    assert parse(pretty(parse(text))) == parse(text)
    assert set(option_values(spec)["mercy_threshold"]) <= set(range(lo, hi + 1))


def test_a_negative_default_outside_its_range_is_refused() -> None:
    text = NEGATIVE.read_text(encoding="utf-8").replace("= -350", "= -1001")
    with pytest.raises(SpecCheckError, match="the default -1001 of option 'mercy_threshold' is "
                       "not in its range -1000..0"):
        check_text(text, "n.rules")


def test_negative_values_play_and_are_checked() -> None:
    assert play(NEGATIVE, 2, {"penalty": -10, "handicap": "fixed(-20)"}) != \
        play(NEGATIVE, 2, {"penalty": 0, "handicap": "none"})
    with pytest.raises(ConfigurationError, match=r"expects an integer in -1000\.\.0, not -1001"):
        Game(check_file(NEGATIVE), 2, {"mercy_threshold": -1001})
    with pytest.raises(ConfigurationError, match="expects one of -10, -5, 0, not -7"):
        Game(check_file(NEGATIVE), 2, {"penalty": -7})


def test_a_record_with_negative_option_values_replays(tmp_path: Path) -> None:
    code, _, err = run("simulate", str(NEGATIVE), "-p", "3", "-n", "2", "--json",
                       "-o", "mercy_threshold=-2", "-o", "penalty=-10",
                       "-o", "handicap=fixed(-20)", "--records", str(tmp_path))
    assert code == 0, err
    files = sorted(tmp_path.glob("*.json"))
    rec = json.loads(files[0].read_text())
    assert rec["options"] == {"mercy_threshold": -2, "penalty": -10, "handicap": "fixed(-20)"}
    code, out, _ = run("replay", str(files[0]))
    assert code == 0 and json.loads(out)["ok"]


def test_a_negative_value_out_of_range_on_the_command_line_is_exit_2() -> None:
    code, _, err = run("simulate", str(NEGATIVE), "-p", "2", "-n", "1",
                       "-o", "mercy_threshold=-2000")
    assert code == 2 and "expects an integer in -1000..0" in err


# ---- one clear error for a list mistake --------------------------------------------------------

MINIMAL = (OK / "minimal.rules").read_text(encoding="utf-8")


def _errors(fill: str) -> list[tuple[int, int, str, str | None]]:
    text = MINIMAL.replace("fill stock with pack(1)", f"fill stock with {fill}")
    with pytest.raises(SpecCheckError) as info:
        check_text(text, "l.rules")
    return [(d.span.line, d.span.column, d.message, d.hint)
            for d in info.value.diagnostics if d.span is not None]


@pytest.mark.parametrize(("fill", "col", "message", "hint"), [
    ("pack(1) + [joker_card] * 8", 29, "'*' does not repeat a list: it multiplies numbers",
     "write 8 copies of joker_card as [joker_card for i in range(1, 8)]"),
    ("8 * [joker_card] + pack(1)", 19, "'*' does not repeat a list: it multiplies numbers",
     "write 8 copies of joker_card as [joker_card for i in range(1, 8)]"),
    ("pack(1) + joker_card", 19, "cannot add a card to a list of cards",
     "'+' joins two lists: put the single value in brackets, pack(1) + [joker_card]"),
    ("joker_card + pack(1)", 19, "cannot add a card to a list of cards",
     "'+' joins two lists: put the single value in brackets, [joker_card] + pack(1)"),
    ("pack(1) + 3", 19, "cannot add a number to a list of cards",
     "'+' adds two numbers or joins two lists of the same kind"),
    ("pack(1) + [1]", 19, "cannot join a list of cards and a list of numbers",
     "'+' joins two lists of the same kind of values"),
    ("pack(2) - pack(1)", 19, "'-' does not take values out of a list",
     "keep the others with a comprehension: [x for x in XS if x not in YS]"),
    ("pack(1) % 2", 19, "'%' works on numbers, not on a list of cards",
     "to count a list's elements, use size(...)"),
])
def test_a_list_mistake_is_one_error_that_says_how_to_write_it(fill: str, col: int,
                                                               message: str, hint: str) -> None:
    assert _errors(fill) == [(15, col, message, hint)]


def test_the_hint_of_a_repeated_list_checks_and_plays() -> None:
    text = MINIMAL.replace("fill stock with pack(1)",
                           "fill stock with pack(1) + [joker_card for i in range(1, 8)]")
    st_ = Game(check_text(text, "l.rules"), 2, {}).new_initial_state()
    st_.apply_index(0)  # the shuffle
    assert st_.in_play == 60


# ---- named enumerations -----------------------------------------------------------------------

NAMED = OK / "named_values.rules"


def test_an_enumeration_is_a_type_of_its_own() -> None:
    from rulespec.lang.types import NONE, STR, ListOf, Named, compatible, describe

    assert compatible(Named("colour"), Named("colour"))
    assert not compatible(Named("colour"), Named("mood"))
    assert not compatible(Named("colour"), STR) and not compatible(STR, Named("colour"))
    assert compatible(Named("colour"), NONE)
    assert describe(Named("colour")) == "a colour" and describe(Named("order")) == "an order"
    assert describe(ListOf(Named("colour"))) == "a list of colour values"


def test_an_enumeration_prints_back() -> None:
    spec = parse(NAMED.read_text(encoding="utf-8"))
    assert 'enum colour: {red "The hearts.", yellow "The diamonds.", green "The clubs.", ' \
        'blue "The spades."} "A colour a player may name."' in pretty(spec)
    assert parse(pretty(spec)) == spec


#: names no keyword, built-in or card code takes
_VALUE_NAMES = st.from_regex(r"x_[a-z0-9_]{1,6}", fullmatch=True)


@given(values=st.lists(_VALUE_NAMES, min_size=1, max_size=6, unique=True))
def test_any_enumeration_lists_its_values_in_order(values: list[str]) -> None:
    text = (f"game g title \"G\"\nplayers 2\nwinner lowest total\n"
            f"enum kind: {{{', '.join(values)}}}\n"
            f"var latest: kind = {values[-1]}\n"
            f"def score(p: int) = size(kind)\n"
            f"deal {{\n  for k in kind {{\n    set latest = k\n  }}\n  end deal scoring score\n}}\n"
            f"match {{\n  run deal\n  end match winners seats\n}}\n")
    spec = check_text(text, "e.rules")
    assert spec.enum_values("kind") == tuple(values)
    assert parse(pretty(parse(text))) == parse(text)
    st_ = Game(spec, 2, {}).new_initial_state()
    assert st_.is_terminal() and st_.totals() == [len(values)] * 2
    assert st_.observation(0)["vars"]["latest"] == values[-1]


def test_enumeration_values_are_decided_observed_cloned_and_recorded(tmp_path: Path) -> None:
    spec = check_file(NAMED)
    st_ = Game(spec, 3, {}).new_initial_state()
    st_.apply_index(0)  # the shuffle
    legal = st_.legal_actions()
    assert [e["colour"] for e in legal] == ["blue", "green", "yellow"]  # not red, the last
    twin = st_.clone()
    st_.apply({"seat": 1, "action": "name_colour", "colour": "green"})
    assert st_.observation(2)["vars"]["named"] == "green"
    assert st_.observation(2)["vars"]["calls"] == ["blue", "green", "blue"]
    assert twin.observation(2)["vars"]["named"] == "red"
    code, _, err = run("simulate", str(NAMED), "-p", "3", "-n", "2", "--records", str(tmp_path))
    assert code == 0, err
    rec = json.loads(sorted(tmp_path.glob("*.json"))[0].read_text())
    named = [e["colour"] for e in rec["events"] if e.get("action") == "name_colour"]
    assert named and set(named) <= {"red", "yellow", "green", "blue"}
    code, out, _ = run("replay", str(sorted(tmp_path.glob("*.json"))[0]))
    ans = json.loads(out)
    assert code == 0 and ans["ok"] and ans["deals"][-1]["chosen"] == named[-1]


def test_a_value_of_another_kind_in_a_record_is_refused() -> None:
    st_ = Game(check_file(NAMED), 2, {}).new_initial_state()
    st_.apply_index(0)
    with pytest.raises(ValueError):
        st_.apply({"seat": 1, "action": "name_colour", "colour": "purple"})


def test_the_book_lists_the_values() -> None:
    from rulespec.book.sections import rulebook

    book = rulebook(check_file(NAMED))
    assert "### Named values" in book
    assert "`colour`: A colour a player may name. Its values, in order:" in book
    assert "- `red`: The hearts." in book


# ---- the direction of play ------------------------------------------------------------------

DIRECTION = OK / "direction.rules"


def test_only_a_spec_that_names_the_direction_keeps_it() -> None:
    assert check_file(DIRECTION).directed
    plain = Game(check_file(OK / "minimal.rules"), 3, {}).new_initial_state()
    assert not check_file(OK / "minimal.rules").directed
    assert "clockwise" not in plain.observation(0)["vars"]


def test_a_reversal_turns_play_round_is_observed_and_cloned() -> None:
    st_ = Game(check_file(DIRECTION), 4, {}).new_initial_state()
    st_.apply_index(0)  # the shuffle
    assert st_.observation(2)["vars"]["clockwise"] is True
    assert st_.observation(0)["vars"]["order"] == [1, 2, 3, 0]
    plays = 0
    while st_.current_player() != "chance" and not st_.is_terminal():
        p = st_.current_player()
        assert isinstance(p, int)
        legal = st_.legal_actions()
        queens = [e for e in legal if e["card"][0] == "Q"]
        before = st_.clone()
        st_.apply(queens[0] if queens else legal[0])
        plays += 1
        now = st_.observation(1)["vars"]["clockwise"]
        # a Queen turns play round; the clone taken before keeps the old direction
        assert (now is not before.observation(1)["vars"]["clockwise"]) == bool(queens)
        if plays < 6:
            assert st_.current_player() == (p + (1 if now else -1)) % 4
    assert plays == 6


@given(players=st.integers(2, 6), start=st.integers(0, 5), clockwise=st.booleans())
def test_next_of_and_turns_from_follow_the_direction(players: int, start: int,
                                                    clockwise: bool) -> None:
    from rulespec.lang.builtins import BUILTINS, RUNTIME_HELPERS

    s = start % players
    glb = {**RUNTIME_HELPERS, "_N": players,
           "_SF": tuple(tuple(range(q, players)) + tuple(range(q)) for q in range(players)),
           "V": {"clockwise": clockwise}}
    turns = eval(BUILTINS["turns_from"].template.format("s"), glb, {"s": s})  # noqa: S307
    nxt = eval(BUILTINS["next_of"].template.format("s"), glb, {"s": s})  # noqa: S307
    right = eval(BUILTINS["right_of"].template.format("s"), glb, {"s": s})  # noqa: S307
    assert sorted(turns) == list(range(players)) and turns[0] == s
    assert turns[1 % players] == nxt if players > 1 else True
    assert nxt == ((s + 1) % players if clockwise else right)
    assert right == (s - 1) % players


def test_a_record_of_a_reversed_game_replays(tmp_path: Path) -> None:
    code, _, err = run("simulate", str(DIRECTION), "-p", "3", "-n", "3", "--records",
                       str(tmp_path))
    assert code == 0, err
    for f in sorted(tmp_path.glob("*.json")):
        code, out, _ = run("replay", str(f))
        assert code == 0 and json.loads(out)["complete"]


def test_the_book_and_the_diagram_say_the_direction() -> None:
    from rulespec.book.diagram import block_in_words
    from rulespec.book.sections import rulebook

    spec = check_file(DIRECTION)
    assert "`clockwise` (kept by the rules engine; every player sees it): the direction of " \
        "play" in rulebook(spec)
    said = block_in_words(spec, parse("deal {\n set clockwise = not clockwise\n"
                                      " set clockwise = false\n}\n").items[0].body)
    assert "the direction of play reverses" in said and "play goes counter-clockwise" in said
    from rulespec.book.english import say
    from rulespec.lang import ast, walk

    spoken = {say(x, spec) for it in spec.items for x in walk.descendants(it)
              if isinstance(x, ast.Not) or (isinstance(x, ast.Call) and x.func in
                                            ("next_of", "turns_from", "right_of"))}
    assert spoken == {"play goes counter-clockwise", "the player after the turn in the "
                      "direction of play", "the player on the dealer's right",
                      "each player in turn from the player on the dealer's left, in the "
                      "direction of play"}


def test_the_engine_conforms_to_its_own_specs_of_the_small_things() -> None:
    """verify, in process, of the engine against each spec here: events, observations (a
    list variable built by the rules is a JSON list there) and results agree."""
    from rulespec.protocol import SpecImplementation
    from rulespec.testing import assert_conforms

    for path in (NAMED, DIRECTION, NEGATIVE):
        spec = check_file(path)
        assert_conforms(spec, lambda spec=spec: SpecImplementation(spec=spec), players=[3],
                        games=3)


def test_a_pick_of_a_named_value_and_of_a_seat_in_the_direction_of_play() -> None:
    text = ('game pe title "Pick a colour"\nplayers 2 to 4\nwinner highest total\n'
            "enum colour: {red, yellow, green, blue}\nvar named: colour = red\n"
            "def score(p: int) = if named == blue then 1 else 0\n"
            "deal {\n  pick named from colour\n  pick c from [red: 3, blue: 1]\n"
            "  if c == blue {\n    set clockwise = not clockwise\n  }\n"
            "  pick d from turns_from(dealer)\n  end deal scoring score\n}\n"
            "match {\n  run deal\n  end match winners seats\n}\n")
    st_ = Game(check_text(text, "p.rules"), 3, {}).new_initial_state()
    assert [(e["value"], p) for e, p in st_.chance_outcomes()] == [
        ("red", 0.25), ("yellow", 0.25), ("green", 0.25), ("blue", 0.25)]
    st_.apply({"chance": "pick", "value": "blue"})
    assert st_.observation(1)["vars"]["named"] == "blue"
    st_.apply({"chance": "pick", "value": "blue"})
    assert st_.observation(1)["vars"]["clockwise"] is False
    assert [e["value"] for e, _ in st_.chance_outcomes()] == [0, 2, 1]  # from 0, to the right
