"""The grammar and the parser: strict LALR, round trips, and fuzzing that may only ever raise
RulespecError (Hypothesis extra/lark.py; hypothesmith)."""

from __future__ import annotations

import random
from pathlib import Path

import lark
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from rulespec.checker import check_text
from rulespec.errors import RulespecError, SpecSyntaxError
from rulespec.parser import grammar_text, parse
from rulespec.pretty import pretty

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
    assert "'to'" in (d.hint or "")
    rendered = info.value.render()
    assert rendered.startswith("s.rules:2:11: error: unexpected '4'")
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
