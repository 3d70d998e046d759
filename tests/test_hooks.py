"""Modules with declared hooks (issue 8): ``hook NAME(PARAMS): TYPE [= DEFAULT] [DOC]``.

tests/specs/ok/joker_on_top.rules imports the shipped tricks module and gives its own
``power(c)``, the strength the module ranks a trick's cards by, with the Joker above every card;
the same text without that definition plays with the module's default. The bad specs
(tests/specs/bad/hook_*.rules, tests/test_corpus.py) hold the errors.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.errors import SpecCheckError
from rulespec.lang import ast
from rulespec.lang.cards import pack
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.model import CheckedSpec
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.lang.types import CARD

SPEC_PATH = Path(__file__).parent / "specs" / "ok" / "joker_on_top.rules"
TEXT = SPEC_PATH.read_text(encoding="utf-8")
#: the spec without its own power(c): the module's default is in force
DEFAULT_TEXT = re.sub(r"\ndef power\(c: card\) =.*?\n\n", "\n\n", TEXT, flags=re.DOTALL)
#: seat 1 (the leader) gets AC KC QC, seat 0 the Joker and two diamonds; hearts are trumps
ORDER = ["AC", "JK", "KC", "2D", "QC", "3D"]


def _play(spec: CheckedSpec) -> State:
    """Seat 0 plays the Joker as soon as it may, the first card it may otherwise; seat 1 the
    first card it may."""
    st = Game(spec, 2, {}).new_initial_state()
    st.apply({"chance": "shuffle",
              "cards": ORDER + [c for c in pack(1) + ["JK"] if c not in ORDER]})
    while not st.is_terminal():
        legal = st.legal_actions()
        joker = [e for e in legal if e["seat"] == 0 and e["card"] == "JK"]
        st.apply(joker[0] if joker else legal[0])
    return st


def test_the_spec_overrides_the_default() -> None:
    spec = check_file(SPEC_PATH)
    power = next(d for d in spec.defs if d.name == "power")
    assert power.span.source == str(SPEC_PATH)
    assert [h.name for h in spec.hooks] == ["card_as", "cards_of", "must_trump_if_void", "led_suit",
                                             "power"]
    st = _play(spec)
    # the Joker takes the first trick (led AC), then seat 0 leads and keeps the lead
    assert st.totals() == [3, 0]
    assert st.winners == [0]


def test_the_default_applies_when_not_overridden() -> None:
    assert "def power" not in DEFAULT_TEXT
    spec = check_text(DEFAULT_TEXT, str(SPEC_PATH))
    power = next(d for d in spec.defs if d.name == "power")
    assert Path(power.span.source).name == "tricks.rules"
    st = _play(spec)
    # the Joker follows no suit and is no trump: the ace led wins, and seat 1 keeps the lead
    assert st.totals() == [0, 3]
    assert st.winners == [1]


def test_a_parameter_without_a_type_takes_the_hooks() -> None:
    spec = check_file(SPEC_PATH)  # def card_as(c) = c
    card_as = next(d for d in spec.defs if d.name == "card_as")
    assert card_as.params[0].type is None
    assert spec.resolution.type_of(card_as.body) == CARD
    with pytest.raises(SpecCheckError) as info:
        check_text(TEXT.replace("def card_as(c) = c", "def card_as(c) = if c == hearts then c "
                                "else c"), str(SPEC_PATH))
    assert [d.message for d in info.value.diagnostics] == [
        "comparing a card with a suit is always false"]


def test_a_missing_hook_is_one_error_at_the_import() -> None:
    with pytest.raises(SpecCheckError) as info:
        check_text(TEXT.replace("def card_as(c) = c\n", ""), str(SPEC_PATH))
    (d,) = info.value.diagnostics
    assert d.message == "the module 'tricks' needs a definition card_as(c: card): card"
    assert d.span is not None and (d.span.source, d.span.line) == (str(SPEC_PATH), 5)
    assert d.hint is not None and "tricks.rules:" in d.hint and "hook card_as" in d.hint


def test_a_name_that_is_not_a_definition_does_not_supply_a_hook() -> None:
    text = TEXT.replace("def must_trump_if_void() = false",
                        'option must_trump_if_void: bool = false "Trump when void."')
    with pytest.raises(SpecCheckError) as info:
        check_text(text, str(SPEC_PATH))
    (d,) = info.value.diagnostics
    assert d.message.startswith("the module 'tricks' needs a definition "
                                "must_trump_if_void(): bool, but 'must_trump_if_void' is not")


def test_hooks_round_trip() -> None:
    text = Path(check_file(SPEC_PATH).hooks[0].span.source).read_text(encoding="utf-8")
    spec = parse(text, "tricks.rules")
    assert any(isinstance(it, ast.HookDecl) and it.default is not None for it in spec.items)
    assert parse(pretty(spec), "tricks.rules") == spec
