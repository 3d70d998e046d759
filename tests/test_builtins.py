"""The table of built-in functions (rulespec.lang.builtins) is consistent with itself: every
template names only helpers its entry brings, and a call folded while compiling gives what the
generated code gives at run time."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec.engine.events import canonical_key, cards_event_key, subset_sets
from rulespec.lang.builtins import BUILTINS, RUNTIME_HELPERS, set_of, subsets
from rulespec.lang.cards import SUITS, pack
from rulespec.lang.model import BUILTIN_FUNCTIONS, GENERATOR_FUNCTIONS, VALUED_BUILTINS
from rulespec.lang.types import ANY, BOOL, CARD, INT, ListOf, T, Type

CARDS = pack(1)
TABLE_NAMES = {"_N", "_SF", "_x",  # given by each table, or bound inside the template
               "_TEAM", "_MEM", "_PART"}  # the partnerships of a table with teams

ARG: dict[Type, st.SearchStrategy[Any]] = {
    INT: st.integers(0, 14),
    CARD: st.sampled_from(CARDS),
    ListOf(CARD): st.lists(st.sampled_from(CARDS), max_size=8).map(tuple),
    ListOf(INT): st.lists(st.integers(0, 14), max_size=8).map(tuple),
    ListOf(T): st.lists(st.integers(0, 14), max_size=6).map(tuple),
    ListOf(ANY): st.lists(st.integers(0, 14), max_size=8).map(tuple),
    ListOf(BOOL): st.lists(st.booleans(), max_size=8).map(tuple),
}


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_template_names_only_what_it_brings(name: str) -> None:
    b = BUILTINS[name]
    used = set(re.findall(r"\b_[A-Za-z]\w*", b.template))
    assert used <= set(b.helpers) | TABLE_NAMES, (name, used)
    assert set(b.helpers) <= set(RUNTIME_HELPERS)
    assert BUILTIN_FUNCTIONS[name] == (b.params, b.result)
    assert (name in GENERATOR_FUNCTIONS) == b.generator
    # one argument slot per parameter
    assert set(re.findall(r"\{(\d+)\}", b.template)) == {str(i) for i in range(len(b.params))}


@pytest.mark.parametrize("name", sorted(n for n, b in BUILTINS.items() if b.fold is not None))
@given(data=st.data())
def test_fold_agrees_with_the_generated_code(name: str, data: st.DataObject) -> None:
    b = BUILTINS[name]
    assert b.fold is not None
    args = [data.draw(ARG[p]) for p in b.params]
    if name in ("rank", "suit"):
        args = [data.draw(st.sampled_from(CARDS))]
    if name in VALUED_BUILTINS:  # one value for each card (the checker sees to it)
        n = len(args[0])
        args[1] = tuple(data.draw(st.lists(st.integers(0, 14), min_size=n, max_size=n)))
    glb = {**RUNTIME_HELPERS, "_N": 4, "_SF": ((0, 1, 2, 3),) * 4}
    code = b.template.format(*(f"_a{i}" for i in range(len(args))))
    ran = eval(code, glb, {f"_a{i}": a for i, a in enumerate(args)})  # noqa: S307
    assert b.fold(*args) == ran, (name, args)


SUBSET_SOURCES = st.one_of(
    st.lists(st.sampled_from(CARDS), unique=True, max_size=11),
    st.lists(st.sampled_from(list(SUITS)), unique=True),
    st.lists(st.sampled_from(CARDS[:6]), max_size=7),  # repeats: the plain path
    st.lists(st.integers(-3, 9), max_size=7),
)


@given(SUBSET_SOURCES, st.integers(-1, 12), st.integers(-1, 12))
def test_subset_sets_are_subsets_with_their_sets_and_texts(xs: list[Any], lo: int,
                                                           hi: int) -> None:
    """What the enumerators of a set field over ``subsets`` read: each subset of
    ``subsets(xs, lo, hi)`` once, with ``set_of`` of it as a list and that list's canonical
    JSON text, however they are built."""
    got = subset_sets(xs, lo, hi, {})
    want = [(s, list(set_of(s)), json.dumps(list(set_of(s)), separators=(",", ":")))
            for s in subsets(xs, lo, hi)]
    assert len(got) == len(want)
    assert sorted(got, key=repr) == sorted(want, key=repr)
    assert got == subset_sets(list(xs), lo, hi, {})
    lists = [s for _, s, _ in got]
    assert len({id(s) for s in lists}) == len(lists), "each event needs a list of its own"


@given(st.sampled_from(["shuffle", "reshuffle", "bury", "odd kind", 'q"uote']),
       st.lists(st.sampled_from([*CARDS, "JK", "C", "x", 'a"b', "é"]), max_size=110))
def test_a_chance_template_key_is_its_canonical_json(kind: str, cards: list[str]) -> None:
    """The key written by joining card codes is the text json.dumps writes, for every list a
    template can hold and for texts that need escaping (which fall back to json)."""
    event = {"chance": kind, "cards": cards}
    assert cards_event_key(event) == canonical_key(event)
