"""typed/invariant.py: a comprehension's unchanging parts worked out once, by the first
element that needs them, with the plain expression's values and errors."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rulespec.engine.typed.invariant import UNSET, once_each


class _Counted:
    """A pure function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *xs: int) -> int:
        self.calls += 1
        return sum(xs)


def _names() -> Any:
    c = itertools.count()
    return lambda p: f"_{p}{next(c)}"


def _run(src: str, **env: Any) -> tuple[object, int]:
    f = _Counted()
    glb: dict[str, Any] = {"_U": UNSET, "f": f, **env}
    try:
        got: object = eval(src, glb)
    except (ZeroDivisionError, ValueError) as e:
        got = ("ZeroDivisionError", str(e))
    return got, f.calls


EXPRESSIONS = [
    # a sum of what the element does not read, read by every element
    "[x + f(*v) for x in v]",
    # read only by some elements (behind an if): worked out by the first that reads it
    "[f(*v) if x > 2 else x for x in v]",
    # in a test, and nested: a part of the inner comprehension's once for each outer
    # element that reads the variable, the whole inner one once where it does not
    "sum(x * max([f(x, z) for z in v if z > f(*w)]) for x in v if x != f(*w))",
    "sum(x * max([f(z) + f(*w) for z in v] + [0]) for x in v if x != f(*w))",
    # two generators: left as it is
    "sum(x * max([f(y, z) for z in v if z > f(*w)]) for x in v if x != f(*w) for y in [1])",
    # an error raised by the part: at the first element that reads it, or never
    "[1 // (f(*w) - f(*w)) if x > 3 else x for x in v]",
    # a comprehension in another's iterable: left as it is
    "[a for a in [b + f(*v) for b in v]]",
    # the part reads the variable: worked out for every element
    "[f(x, *v) for x in v]",
]


@pytest.mark.parametrize("src", EXPRESSIONS)
@pytest.mark.parametrize("v", [(), (1,), (1, 5, 2, 7), (4, 4)])
def test_the_values_and_errors_of_the_plain_expression(src: str, v: tuple[int, ...]) -> None:
    once = once_each(src, _names())
    for w in ((), (1, 2), (3,)):
        got, calls = _run(once, v=v, w=w)
        want, plain_calls = _run(src, v=v, w=w)
        assert got == want, (once, v, w)
        assert calls <= plain_calls


def test_each_unchanging_part_is_worked_out_once() -> None:
    v = tuple(range(10))
    assert _run(once_each(EXPRESSIONS[0], _names()), v=v) == (_run(EXPRESSIONS[0], v=v)[0], 1)
    # only the elements past 2 read it: once, not seven times
    assert _run(once_each(EXPRESSIONS[1], _names()), v=v)[1] == 1
    assert _run(EXPRESSIONS[1], v=v)[1] == 7
    # the part that reads the variable is not taken out
    assert _run(once_each(EXPRESSIONS[7], _names()), v=v)[1] == 10
    assert once_each(EXPRESSIONS[6], _names()) == "[a for a in [b + f(*v) for b in v]]"
    # the inner comprehension, which reads nothing of the outer's element: once in all
    # (its own f(*w) once too, and the outer test's), where the plain expression makes it
    # for every element
    assert _run(once_each(EXPRESSIONS[3], _names()), v=v, w=(20,))[1] == 1 + 10 + 1
    assert _run(EXPRESSIONS[3], v=v, w=(20,))[1] == 10 + 10 * 20


def test_a_generator_is_not_kept_for_the_next_element() -> None:
    """A generator beside the variable would be spent by the first element (a second reader
    found it kept: [61, 2, 3])."""
    src = "[g(x, (y * 2 for y in w)) for x in v]"
    env = {"g": lambda x, ys: x + sum(ys), "v": [1, 2, 3], "w": [10, 20], "_U": UNSET}
    assert eval(once_each(src, _names()), env) == eval(src, env) == [61, 62, 63]
