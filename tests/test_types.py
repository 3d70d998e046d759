"""The checker's types (rulespec.lang.types): which values fit where, and the words errors use."""

from __future__ import annotations

import itertools

import pytest

from rulespec.lang.types import (
    ANY,
    BOOL,
    CARD,
    INT,
    NONE,
    PZONE,
    STR,
    SUIT,
    ZONE,
    EnumOf,
    ListOf,
    Per,
    T,
    Type,
    compatible,
    describe,
    element,
    has_var,
    substitute,
)

MODE = EnumOf("mode")
OTHER = EnumOf("other")


# ---- compatible ---------------------------------------------------------------------------

def test_a_type_fits_itself() -> None:
    for t in (INT, BOOL, SUIT, CARD, STR, NONE, ANY, ZONE, PZONE, ListOf(CARD), Per(INT), MODE):
        assert compatible(t, t)


def test_basic_types_fit_only_themselves() -> None:
    basic: tuple[Type, ...] = (INT, BOOL, SUIT, CARD)
    for a, b in itertools.permutations(basic, 2):
        assert not compatible(a, b), (a, b)
    assert not compatible(STR, INT) and not compatible(INT, STR)


def test_any_fits_everything_both_ways() -> None:
    for t in (INT, CARD, ZONE, PZONE, ListOf(INT), Per(BOOL), MODE, STR):
        assert compatible(ANY, t) and compatible(t, ANY)


@pytest.mark.parametrize("t", [INT, BOOL, SUIT, CARD, ListOf(CARD), ZONE, PZONE, Per(INT), MODE])
def test_none_fits_an_optional_value_both_ways(t: Type) -> None:
    # var trump: suit? = none; set trump = none; trump != none
    assert compatible(t, NONE)
    assert compatible(NONE, t)


def test_a_zone_is_read_as_a_list_of_cards() -> None:
    assert compatible(ListOf(CARD), ZONE)
    assert compatible(ListOf(ANY), ZONE)
    assert not compatible(ListOf(INT), ZONE)
    # but a list is not a zone
    assert not compatible(ZONE, ListOf(CARD))
    assert not compatible(ZONE, ListOf(ANY))
    # nor is a per-player zone a list (it needs a seat first)
    assert not compatible(ListOf(CARD), PZONE)
    assert not compatible(ZONE, PZONE) and not compatible(PZONE, ZONE)


def test_per_player_values() -> None:
    assert compatible(Per(INT), Per(INT))
    assert not compatible(Per(INT), Per(BOOL))
    assert not compatible(INT, Per(INT)) and not compatible(Per(INT), INT)
    assert not compatible(ListOf(INT), Per(INT))


def test_enum_values() -> None:
    # an enum value is a name, a number (mixed enums such as {auto, 1, 2}) or a value of any
    # option; a name fits an enum, a number does not
    assert compatible(STR, MODE) and compatible(MODE, STR)
    assert compatible(INT, MODE)
    assert not compatible(MODE, INT)
    assert compatible(MODE, OTHER) and compatible(OTHER, MODE)
    assert not compatible(BOOL, MODE) and not compatible(MODE, BOOL)
    assert not compatible(CARD, MODE)


def test_list_elements_follow_the_element_rule() -> None:
    assert compatible(ListOf(INT), ListOf(INT))
    assert not compatible(ListOf(INT), ListOf(CARD))
    # any and none elements fit either way
    assert compatible(ListOf(INT), ListOf(ANY)) and compatible(ListOf(ANY), ListOf(INT))
    assert compatible(ListOf(CARD), ListOf(NONE)) and compatible(ListOf(NONE), ListOf(CARD))
    # the element rule is one-way where it is one-way: enum elements fit a list of numbers, not
    # the other way round; a list of zones fits a list of lists of cards, not the other way
    assert compatible(ListOf(INT), ListOf(MODE))
    assert not compatible(ListOf(MODE), ListOf(INT))
    assert compatible(ListOf(ListOf(CARD)), ListOf(ZONE))
    assert not compatible(ListOf(ZONE), ListOf(ListOf(CARD)))
    assert compatible(ListOf(ListOf(INT)), ListOf(ListOf(ANY)))
    assert not compatible(ListOf(ListOf(INT)), ListOf(INT))
    assert not compatible(ListOf(INT), INT) and not compatible(INT, ListOf(INT))


# ---- describe -----------------------------------------------------------------------------

@pytest.mark.parametrize(("t", "text"), [
    (INT, "a number"),
    (BOOL, "a condition (true/false)"),
    (SUIT, "a suit"),
    (CARD, "a card"),
    (STR, "a name"),
    (NONE, "none"),
    (ANY, "any"),
    (ZONE, "a zone"),
    (PZONE, "a per-player zone"),
    (ListOf(CARD), "a list of cards"),
    (ListOf(INT), "a list of numbers"),
    (ListOf(SUIT), "a list of suits"),
    (ListOf(BOOL), "a list of a condition (true/false)"),
    (ListOf(ANY), "a list of any"),
    (ListOf(NONE), "a list of none"),
    (ListOf(ZONE), "a list of a zone"),
    (ListOf(ListOf(CARD)), "a list of a list of cards"),
    (ListOf(ListOf(INT)), "a list of a list of numbers"),
    (ListOf(MODE), "a list of a value of option mode"),
    (ListOf(Per(INT)), "a list of a per-player value"),
    (Per(INT), "a per-player value"),
    (Per(ListOf(CARD)), "a per-player value"),
    (MODE, "a value of option mode"),
    (T, "T"),
])
def test_describe(t: Type, text: str) -> None:
    assert describe(t) == text


# ---- the helpers the checker uses -----------------------------------------------------------

def test_element() -> None:
    assert element(ListOf(INT)) == INT
    assert element(ListOf(ListOf(CARD))) == ListOf(CARD)
    assert element(ZONE) == CARD
    assert element(ANY) == ANY
    for t in (INT, BOOL, CARD, STR, NONE, PZONE, Per(INT), MODE):
        assert element(t) is None


def test_signature_variables() -> None:
    assert has_var(T) and has_var(ListOf(ListOf(T)))
    assert not has_var(ListOf(INT)) and not has_var(ANY)
    assert substitute(T, CARD) == CARD
    assert substitute(ListOf(ListOf(T)), INT) == ListOf(ListOf(INT))
    assert substitute(ListOf(INT), CARD) == ListOf(INT)


def test_types_are_values() -> None:
    assert ListOf(INT) == ListOf(INT) and hash(ListOf(INT)) == hash(ListOf(INT))
    assert ListOf(INT) != ListOf(CARD)
    assert EnumOf("mode") == MODE != OTHER
    assert Per(INT) != ListOf(INT)
    assert ZONE != ListOf(CARD)
