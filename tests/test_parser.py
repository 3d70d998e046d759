"""The grammar and the parser: strict LALR, round trips, and fuzzing that may only ever raise
RulespecError (Hypothesis extra/lark.py; hypothesmith)."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

import rulespec
from rulespec.errors import RulespecError, SpecCheckError, SpecSyntaxError
from rulespec.lang.checker import check_text
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.lang.text import grammar_text

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "rulespec" / "games").glob("*.rules")) + \
    sorted((ROOT / "examples").glob("*.rules")) + sorted((ROOT / "tests/specs/ok").glob("*.rules"))


def test_grammar_is_strict_lalr() -> None:
    lark.Lark(grammar_text(), parser="lalr", strict=True)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_pretty_round_trip(path: Path) -> None:
    spec = parse(path.read_text(encoding="utf-8"), str(path))
    again = parse(pretty(spec), "pretty")
    assert again == spec
    assert pretty(again) == pretty(spec)


def test_spans_point_into_the_source() -> None:
    text = (ROOT / "rulespec/games/vandatta.rules").read_text(encoding="utf-8")
    spec = parse(text, "v")
    first = spec.items[0]
    assert first.span.line == text.splitlines().index(
        next(line for line in text.splitlines() if line.startswith("game"))) + 1


def test_syntax_error_position_and_hint() -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse("game g title \"G\"\nplayers 2 4\n", "s.rules")
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (2, 11)
    assert "players 2 to 4" in (d.hint or "")
    rendered = info.value.render()
    assert rendered.startswith("s.rules:2:11: error: unexpected '4': the players line is")
    assert "^" in rendered


_LARK = lark.Lark(grammar_text(), parser="lalr")
_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)


@settings(max_examples=60)
@given(from_lark(_LARK, explicit={"NAME": _NAMES, "STRING": st.just('"s"'),
                                   "COMMENT": st.just("# c"), "REF": st.just("[VAN-1]"),
                                   "AT_BOTTOM": st.just("at bottom")}))
def test_generated_specs_raise_only_rulespec_errors(text: str) -> None:
    try:
        check_text(text, "gen.rules")
    except RulespecError:
        pass


@settings(max_examples=80)
@given(st.data())
def test_mutated_valid_specs_raise_only_rulespec_errors(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(SPECS))
    text = path.read_text(encoding="utf-8")
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 5))):
        i = rng.randrange(len(chars))
        op = rng.randrange(3)
        if op == 0:
            del chars[i]
        elif op == 1:
            chars.insert(i, rng.choice("{}()[]=,.:;\"#abc 1\n"))
        else:
            j = rng.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
    try:
        check_text("".join(chars), str(path))
    except RulespecError:
        pass


_HEAD = 'game g title "G"\nplayers 2 to 4\n'
_MISTAKES = [
    # (text after _HEAD, line, column, message, a piece of the hint)
    ('deal {\n  shuffle stock\n\nmatch {\n  run deal\n}\n', 6, 1,
     "unexpected 'match': a declaration starts inside a block",
     "'match' starts a declaration here; a block opened earlier may be missing its '}' "
     "(the '{' at line 3)"),
    ('deal {\n  loop {\n    shuffle stock\n  }\nprocedure p() {\n}\n', 7, 1,
     "unexpected 'procedure': a declaration starts inside a block",
     "'procedure' starts a declaration"),
    ('def f(c: card) = if rank(c) == 8 50 else 1\n', 3, 34,
     "unexpected '50': an if-expression needs 'then'", "if CONDITION then VALUE else VALUE"),
    ('deal {\n  for q in seats {\n    if size(hand[q]) = 0 {\n    }\n  }\n}\n', 5, 22,
     "unexpected '=': '=' gives a value; a condition compares with '=='", "'=='"),
    ('zone stock: shared visible to nobody The pack."\n', 3, 38,
     "unexpected 'The': the text after a declaration must be a \"doc string\"", "start the text"),
    ('zone stock: shared visible to nobody "The pack.\n', 3, 38,
     "unexpected character '\"': a string is not closed on its line", "triple quotes"),
    ('deal {\n}\nmove top(stock) from stock to discard\n', 5, 1,
     "unexpected 'move': a statement outside any block", "statements go inside a block"),
    ('var count int = 0\n', 3, 11, "unexpected 'int': a ':' is missing before the type",
     "var NAME: TYPE = VALUE"),
    ('zone stock shared visible to nobody\n', 3, 12,
     "unexpected 'shared': a ':' is missing before the type", "zone NAME: shared"),
    ('deal {\n  shuffle stock\n', 4, 11, "unexpected end of file",
     "the block opened with '{' at line 3 is missing its '}'"),
]


_PLAYERS_WHAT = "the players line is 'players N' or 'players MIN to MAX'"
_PLAYERS_MISTAKES = [
    # (the players line, column, what is unexpected): a line cut short is reported at its end,
    # never at the declaration of the next line
    ("players 2-4", 10, "'-'"),
    ("players 2..4", 10, "'..'"),
    ("players two", 9, "'two'"),
    ("players 2 to", 13, "end of line"),
    ("players", 8, "end of line"),
]


@pytest.mark.parametrize(("line", "col", "what"), _PLAYERS_MISTAKES,
                         ids=[m[0] for m in _PLAYERS_MISTAKES])
def test_a_players_line_the_grammar_refuses_says_how_to_write_it(line: str, col: int,
                                                                 what: str) -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse(f'game g title "G"\n{line}\nwinner highest total\n', "s.rules")
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.column) == (2, col)
    assert d.message == f"unexpected {what}: {_PLAYERS_WHAT}"
    assert "winner" not in d.message + (d.hint or "")
    assert d.hint == "write players 4 for exactly four players, or players 2 to 4 for two to four"


def test_players_n_is_players_n_to_n() -> None:
    one = parse('game g title "G"\nplayers 4\n', "s.rules")
    assert one == parse('game g title "G"\nplayers 4 to 4\n', "s.rules")
    assert "players 4\n" in pretty(one)


@pytest.mark.parametrize(("text", "line", "col", "message", "hint"), _MISTAKES,
                         ids=[m[3].split(": ")[-1] for m in _MISTAKES])
def test_common_mistakes_get_their_own_message(text: str, line: int, col: int, message: str,
                                               hint: str) -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse(_HEAD + text, "s.rules")
    d = info.value.diagnostics[0]
    assert (d.span.line, d.span.column, d.message) == (line, col, message)
    assert hint in (d.hint or "")


def test_a_misspelt_statement_is_not_taken_for_an_open_block() -> None:
    with pytest.raises(SpecSyntaxError) as info:
        parse(_HEAD + "deal {\n  shufle stock\n}\n", "s.rules")
    d = info.value.diagnostics[0]
    assert d.message == "unexpected 'stock'"
    assert d.hint == "expected '('; did you mean 'shuffle' (not 'shufle')?"


def test_expected_tokens_are_shown_as_the_grammar_writes_them() -> None:
    from rulespec.lang.parser import _parser
    from rulespec.lang.syntax_errors import _token_names

    names = _token_names(_parser())
    for t in _parser().terminals:
        if t.name not in ("WS", "COMMENT"):
            shown = names[t.name]
            assert t.name not in shown and "__ANON" not in shown, (t.name, shown)
    assert names["LBRACE"] == "'{'" and names["THEN"] == "'then'"
    assert names["__ANON_0"] == "'..'" and names["MINUS"] == "'-'"
    assert names["WINNER_DIR"] == "'highest' or 'lowest'"
    with pytest.raises(SpecSyntaxError) as info:
        parse('game g title "G"\nwinner best total\n', "s.rules")
    assert info.value.diagnostics[0].hint == "expected 'highest' or 'lowest'"
    with pytest.raises(SpecSyntaxError) as info:
        parse("option o: int in 1 5 = 1\n", "s.rules")
    assert info.value.diagnostics[0].hint == "expected '..'"


def test_every_mistake_example_fails_and_is_recognised() -> None:
    from rulespec.lang.syntax_errors import _EXAMPLES

    for mistake, examples in _EXAMPLES:
        for example in examples:
            with pytest.raises(SpecSyntaxError) as info:
                parse(example, "ex.rules")
            assert info.value.diagnostics[0].message.endswith(mistake.what), example


def test_a_mistake_in_an_imported_file_names_that_file(tmp_path: Path) -> None:
    from rulespec.lang.checker import check_file

    (tmp_path / "lib.rules").write_text("procedure p() {\n  shuffle stock\n\nvar x: int = 0\n",
                                        encoding="utf-8")
    main = (ROOT / "tests/specs/ok/minimal.rules").read_text(encoding="utf-8")
    (tmp_path / "main.rules").write_text('import "lib"\n' + main, encoding="utf-8")
    with pytest.raises(SpecSyntaxError) as info:
        check_file(tmp_path / "main.rules")
    d = info.value.diagnostics[0]
    assert d.span.source.endswith("lib.rules") and (d.span.line, d.span.column) == (4, 1)
    assert d.message == "unexpected 'var': a declaration starts inside a block"
    assert "lib.rules:4:1: error: unexpected 'var'" in info.value.render()


def test_nesting_deeper_than_the_limit_is_a_syntax_error_where_it_happens() -> None:
    from rulespec.engine.game import Game
    from rulespec.errors import SpecSyntaxError
    from rulespec.lang.checker import check_text
    from rulespec.lang.parser import MAX_NESTING

    head = ('game g title "G"\nplayers 2 to 4\nwinner lowest total\n'
            "zone stock: shared visible to nobody\nzone hand: per player visible to owner\n")
    tail = ("deal {\n  fill stock with pack(1)\n  shuffle stock\n  end deal scoring held\n}\n"
            "match {\n  run deal\n  end match winners seats\n}\n")
    deep = "def held(q: int) = " + " + ".join(["size(hand[q])"] * 3000) + "\n"
    with pytest.raises(SpecSyntaxError) as err:
        check_text(head + deep + tail, "deep.rules")
    d = err.value.diagnostics[0]
    assert d.span is not None and d.span.line == 6
    assert f"nested more than {MAX_NESTING} levels deep" in d.message
    nots = "def b() = " + "not " * 2000 + "true\ndef held(q: int) = 0\n"
    with pytest.raises(SpecSyntaxError):
        check_text(head + nots + tail, "nots.rules")
    # just inside the limit, every stage (checker, compiler, play) still copes
    near = "def held(q: int) = " + " + ".join(["size(hand[q])"] * (MAX_NESTING - 5)) + "\n"
    spec = check_text(head + near + tail, "near.rules")
    st = Game(spec, 3).new_initial_state()
    st.apply(st.legal_actions()[0])
    assert st.is_terminal()


@pytest.mark.parametrize("read", [rulespec.parse_file, rulespec.check_file],
                         ids=["parse_file", "check_file"])
def test_a_file_that_is_not_utf8_is_a_syntax_error(tmp_path: Path,
                                                    read: Callable[[Path], object]) -> None:
    # both public readers go through lang/sources.read_spec: a UnicodeDecodeError would break
    # the promise that rulespec raises only RulespecError for a bad spec
    bad = tmp_path / "latin.rules"
    bad.write_bytes(b'game g title "G"\n# caf\xe9\nplayers 2 to 3\n')
    with pytest.raises(SpecSyntaxError) as info:
        read(bad)
    d = info.value.diagnostics[0]
    assert d.span is not None and (d.span.line, d.span.column) == (2, 6)
    assert d.message == "this file is not UTF-8 text: byte 0xe9 cannot be read"


def test_an_option_with_two_strings_has_a_title_and_a_doc() -> None:
    text = ('game g title "G"\nplayers 2\n'
            'option ace_on_ace: bool = true [VAN-7] "Ace on Ace" "An Ace may go on an Ace."\n'
            'option lappen: int in 0..9 = 3 "Penalty cards."\n'
            'option pay: {ante(k: int in 0..9) "k chips.", none} = ante(1)\n'
            '  "Stake" "What is paid."\n')
    spec = parse(text, "t")
    titled, plain, call = spec.items[2:]
    assert (titled.title, titled.doc, titled.ref) == ("Ace on Ace", "An Ace may go on an Ace.",
                                                      "VAN-7")
    assert (plain.title, plain.doc) == (None, "Penalty cards.")
    assert (call.title, call.doc) == ("Stake", "What is paid.")
    assert parse(pretty(spec), "pretty") == spec
    assert '"Ace on Ace" "An Ace may go on an Ace."' in pretty(spec)


def test_an_option_title_must_name_the_rule() -> None:
    base = ('game g title "G"\nplayers 2\nwinner lowest total\n'
            'option fine: int in 0..9 = 3 TITLE "The fine."\n'
            'def score(p: int) = fine\ndeal { end deal scoring score }\n'
            'match { run deal\n end match winners seats }\n')
    checked = check_text(base.replace("TITLE", '"Fine"'))
    assert checked.options[0].title == "Fine"
    for title, message in (('""', "option 'fine' has an empty title"),
                           ('"Fine."', "the title 'Fine.' of option 'fine' ends in a period")):
        with pytest.raises(SpecCheckError) as info:
            check_text(base.replace("TITLE", title))
        d = info.value.diagnostics[0]
        assert d.message == message
        assert d.hint is not None
        assert (d.span.line, d.span.column) == (4, 1)
