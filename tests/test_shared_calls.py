"""Calls shared by codegen/cse.py: an inlined definition's sum computed once where it is
read several times, its value, its errors and the work budget it spends the plain
expression's, whatever budget is left (the sweep runs each expression from every budget
that matters)."""

from __future__ import annotations

from typing import Any

import pytest

from rulespec.engine.codegen.cse import share_common
from rulespec.lang.builtins import LimitError, respend, spend, total


class _St:
    """A running state as the budgets see it."""

    def __init__(self, left: int, work: int) -> None:
        self.left, self.work = left, work


def _called(st: _St, k: int) -> int:
    """A definition called, not inlined: it spends the work budget as the engine's do."""
    st.work -= 3
    if st.work < 0:
        raise RuntimeError("the work budget ran out in a definition")
    return k * 2


def _run(src: str, left: int, work: int) -> tuple[object, int, int]:
    st = _St(left, work)
    env: dict[str, Any] = {"st": st, "_total": total, "_spend": spend, "_rs": respend,
                           "_d": _called, "v": (1, 2, 3, 4, 5), "w": (), "x": 4}
    try:
        got: object = eval(src, env)
    except (LimitError, RuntimeError, ValueError) as e:
        got = (type(e).__name__, str(e))
    return got, st.left, st.work


EXPRESSIONS = [
    # a sum read three times
    "_total([x for x in _spend(st, v)]) + _total([y for y in _spend(st, v)]) * "
    "_total([z for z in _spend(st, v)])",
    # read in the test of an if and in both its arms
    "(_total([x for x in _spend(st, v)]) + 1) if _total([y for y in _spend(st, v)]) > 3 "
    "else -_total([z for z in _spend(st, v)])",
    # a definition called three times with one argument, and once with another
    "_d(st, 2) + _d(st, 2) + _d(st, 3) + _d(st, 2)",
    # a repeat only one arm evaluates: never read unbound
    "(_total([x for x in _spend(st, v)]) if len(w) else 0) + _total([y for y in _spend(st, v)])",
    # the max of an empty list raised by the first evaluation, as before
    "max([x for x in _spend(st, w)]) + max([y for y in _spend(st, w)])",
    # a repeat within each element of a comprehension (its variable read by both)
    "any((_total([x for x in _spend(st, v) if x > t]) + "
    "_total([y for y in _spend(st, v) if y > t]) > 7) for t in v)",
    # a comprehension's test dominates its element; the test's own repeat shared too
    "[_d(st, k) + _d(st, k) for k in v if _d(st, k) > 2 and _d(st, k) < 9]",
    # a comprehension in another's iterable: left as it is (Python forbids := there)
    "sum([a for a in [b for b in v if _d(st, b) + _d(st, b) > 4]])",
    # an inlined definition's choice and test read again (no call inside: shared as they are)
    "(v[0] + v[1] if v[2] > 2 and v[3] > 3 else v[4]) * 10 + "
    "(v[0] + v[1] if v[2] > 2 and v[3] > 3 else v[4])",
    # within a method's object: every trick's winner, the first position of the best
    "[(v[0] if v[1] > 0 else v[2]) * x + (v[0] if v[1] > 0 else v[2]) for x in v]"
    ".index(max(v))",
    # a comprehension inside another that binds its variable's name again (the engine names
    # a variable by its name in the rules): each keeps temporaries of its own (a second
    # reader found the inner one's overwrote the outer's: 0, not 5)
    "_total([(v[x] if v[x] > max([v[x] for x in (0, 1)]) else 0) for x in (4,)])",
    "(v[x] + v[x]) * 100 + _total([v[x] * v[x] for x in (0, 1)]) + v[x]",
]


@pytest.mark.parametrize("src", EXPRESSIONS)
def test_a_shared_call_is_the_plain_expression_from_every_budget(src: str) -> None:
    shared = share_common(src)
    for left in range(0, 25):
        for work in (0, 2, 3, 5, 6, 8, 9, 11, 12, 100):
            assert _run(shared, left, work) == _run(src, left, work), (left, work)


def test_a_sum_read_three_times_is_computed_once() -> None:
    shared = share_common(EXPRESSIONS[0])
    assert shared.count(":= _total(") == 1 and shared.count("_rs(") == 2
    # with the budget to spare, each reuse spends again what the first evaluation spent
    assert _run(shared, 100, 100) == _run(EXPRESSIONS[0], 100, 100) == (15 + 15 * 15, 85, 100)


def test_a_repeat_inside_each_element_is_computed_once_an_element() -> None:
    shared = share_common(EXPRESSIONS[5])
    assert shared.count(":= _total(") == 1, shared
    shared = share_common(EXPRESSIONS[6])
    # the test's first call bound, its second and the element's two calls read it again
    assert shared.count(":= _d(") == 1 and shared.count("_rs(") == 3, shared
    # the iterable's comprehension is not rewritten: its repeat stays as written
    assert share_common(EXPRESSIONS[7]) == EXPRESSIONS[7]


def test_a_choice_read_again_is_read_once() -> None:
    shared = share_common(EXPRESSIONS[8])
    assert shared.count(":= (v[0] + v[1] if") == 1 and shared.count(" if ") == 1, shared
    shared = share_common(EXPRESSIONS[9])
    assert shared.count(":= (v[0] if") == 1 and shared.count(" if ") == 1, shared


def test_a_comprehension_that_binds_a_name_again_keeps_its_own_temporaries() -> None:
    for src, want in ((EXPRESSIONS[10], 5), (EXPRESSIONS[11], 1000 + 1 + 4 + 5)):
        shared = share_common(src)
        assert _run(shared, 100, 100)[0] == _run(src, 100, 100)[0] == want, shared
