"""Loop invariants of all/any/first([...]) computed once before the loop
(rulespec/engine/codegen/loopinv.py): the hoisted loop must answer, raise and spend the work
budget exactly as the plain loop does, whatever budget is left when it starts."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from rulespec import check_text
from rulespec.engine.codegen import best, loopinv
from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.errors import RulespecError

HEAD = """
game t title "T"
players 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
var k: int = 0
def zero(p: int) = 0
def heavy(c: card) = k + rank(c) + size([d for d in stock if d == c])
"""
TAIL = """
deal {
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""

#: the winner of a trick as tricks.rules finds it, its max(...) the same for every position
FIRST = ("first([i for i in range(0, size(stock) - 1) "
         "if rank(stock[i]) == max(rank(c) for c in stock)])")
#: a short circuit whose right side raises (the max of an empty hand) where it is evaluated
ANY = "any(rank(c) > k and max(rank(d) for d in hand[0]) > 3 for c in stock)"
#: all(...), its invariant a call of a definition (spends ``work`` when not expanded)
ALL = "all(rank(c) <= max(heavy(d) for d in stock) for c in stock)"
CASES = [FIRST, ANY, ALL]


def _compiled(body: str, hoist: bool, monkeypatch: pytest.MonkeyPatch, inline: bool = True,
              cover: set[str] | None = None) -> tuple[object, list[tuple[str, str]]]:
    spec = check_text(HEAD + f"def e() = {body}\n" + TAIL, "t.rules")
    monkeypatch.setattr(loopinv, "HOIST", hoist)
    ec = ExprCompiler(spec, 2, {}, inline=inline, cover=cover, keep_sources=True)
    return ec.expr(spec.def_named["e"].body, frozenset()), ec.sources or []


def _outcome(fn: object, k: int, stock: list[str], hand: list[str], left: int,
             work: int) -> tuple[object, ...]:
    st = SimpleNamespace(v={"k": k}, z={"stock": stock, "hand": [hand, []]}, left=left,
                         work=work)
    try:
        got: tuple[object, ...] = ("value", fn(st, {}))  # type: ignore[operator]
    except RulespecError as e:
        got = ("error", type(e).__name__, str(e), getattr(e, "span", None))
    return (*got, st.left, st.work)


STOCKS = [[], ["5H"], ["5H", "KS", "2C"], ["KS", "5H", "KS", "2C"], ["2C", "3C", "4C", "5C"]]


@pytest.mark.parametrize("body", CASES)
@pytest.mark.parametrize("inline", [True, False])
def test_hoisted_loops_answer_raise_and_spend_as_the_plain_ones(
        body: str, inline: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    plain, _ = _compiled(body, False, monkeypatch, inline)
    hoisted, sources = _compiled(body, True, monkeypatch, inline)
    assert any("_iv0 = " in text for _, text in sources)  # something was hoisted
    for stock in STOCKS:
        for hand in ([], ["9D"]):
            for k in (0, 9):
                # from a budget that runs out at once to one that is never short, and a
                # work budget short for the called definitions, or not
                for left in [*range(0, 40), 10**6]:
                    for work in (0, 3, 10**6):
                        want = _outcome(plain, k, stock, hand, left, work)
                        got = _outcome(hoisted, k, stock, hand, left, work)
                        assert got == want, (stock, hand, k, left, work)


def test_the_trick_winner_is_found_with_its_max_worked_out_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(best, "BEST", False)  # the loop itself (its fast form: test below)
    fn, sources = _compiled(FIRST, True, monkeypatch)
    text = "".join(t for _, t in sources if "first([...])" in t)
    # one local, worked out where the plain loop first evaluates it, read after
    assert "_iv0 if _iv0 is not _U" in text and text.count("_max(") == 1
    # the budget: the source (4 positions: range includes its end) and the max's 4 cards at
    # each position looked at
    assert _outcome(fn, 0, ["5H", "KS", "2C", "KS"], [], 100, 50) == ("value", 1, 100 - 4 - 8, 50)
    assert _outcome(fn, 0, ["KS", "5H", "2C", "3C"], [], 100, 50) == ("value", 0, 100 - 4 - 4, 50)


def test_an_invariant_behind_a_false_test_raises_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """max of an empty hand is an error where it is evaluated: behind ``rank(c) > k`` false
    for every card it never is, hoisted or not; where it is, the error is the plain one."""
    fn, _ = _compiled(ANY, True, monkeypatch)
    assert _outcome(fn, 20, ["5H", "KS"], [], 100, 50)[:2] == ("value", False)
    err = _outcome(fn, 0, ["5H", "KS"], [], 100, 50)
    assert err[0] == "error" and "empty" in str(err[2])


def test_nothing_is_hoisted_with_coverage_on(monkeypatch: pytest.MonkeyPatch) -> None:
    _, sources = _compiled(FIRST, True, monkeypatch, cover=set())
    assert not any("_iv" in text for _, text in sources)


def test_a_variable_bound_in_the_loop_is_never_hoisted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The element's own variable, an inner comprehension's reading it, and an inlined
    parameter's ``:=`` stay in the loop; an inner comprehension that reuses the outer
    variable's name is still a value of its own."""
    body = ("first([c for c in stock if rank(c) == max(rank(c) for c in stock) "
            "and size([d for d in stock if d == c]) > 0])")
    fn, sources = _compiled(body, True, monkeypatch)
    text = "".join(t for _, t in sources if "first([...])" in t)
    # what a local holds: the text after ``_ivK :=``, up to the read's end
    held = re.findall(r"_iv\d+ := (.*?)\)\[2\]|_iv\d+ := (.*?)\)\)", text)
    hoisted = [a or b for a, b in held]
    assert any("_max(" in h for h in hoisted)
    assert not any("== v_c" in h or "== t" in h for h in hoisted)
    assert _outcome(fn, 0, ["5H", "KS", "2C"], [], 100, 50)[:2] == ("value", "KS")


#: FIRST's kin: the least, a value of each card's own (a definition), and forms the idiom
#: does not cover (another start, a test beside the comparison, a value that spends the
#: budget): each answers, raises and spends as the loop written out does
BESTS = [
    FIRST,
    FIRST.replace("max(", "min("),
    ("first([i for i in range(0, size(stock) - 1) "
     "if rank(stock[i]) + k == max(rank(c) + k for c in stock)])"),
    ("first([i for i in range(1, size(stock) - 1) "
     "if rank(stock[i]) == max(rank(c) for c in stock)])"),
    ("first([i for i in range(0, size(stock) - 1) "
     "if rank(stock[i]) == max(rank(c) for c in stock) and i > 0])"),
    ("first([i for i in range(0, size(stock) - 1) "
     "if heavy(stock[i]) == max(heavy(c) for c in stock)])"),
]


@pytest.mark.parametrize("body", BESTS)
@pytest.mark.parametrize("inline", [True, False])
def test_the_first_of_the_best_answers_raises_and_spends_as_its_loop(
        body: str, inline: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """codegen/best.py: the winning position worked out from one list of values, with the
    budget the loop would spend up to it, or the loop itself where that does not hold."""
    monkeypatch.setattr(best, "BEST", False)
    loop, _ = _compiled(body, True, monkeypatch, inline)
    monkeypatch.setattr(best, "BEST", True)
    fast, sources = _compiled(body, True, monkeypatch, inline)
    taken = any("_first_best(" in text for _, text in sources)
    # taken for the idiom's own forms, not for the others
    assert taken == (body in BESTS[:3]), body
    for stock in [*STOCKS, ["KS", "5H", "KS"], ["2C", "AS", "AS", "AH"]]:
        for k in (0, 9):
            for left in [*range(0, 40), 10**6]:
                for work in (0, 3, 10**6):
                    want = _outcome(loop, k, stock, [], left, work)
                    got = _outcome(fast, k, stock, [], left, work)
                    assert got == want, (stock, k, left, work)
