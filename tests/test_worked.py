"""A score part worked out in the example (rulespec.book.worked) adds up to the part's value,
and the cards it names are the ones counted."""

from __future__ import annotations

import pytest

from rulespec.book.facts import book_facts
from rulespec.book.worked import Token
from rulespec.loading import resolve


def _value(tokens: tuple[Token, ...]) -> int:
    text = " ".join(str(t) if not isinstance(t, tuple) else "0" for t in tokens)
    out = eval(text.replace("×", "*").replace("−", "-"), {"__builtins__": {}})  # noqa: S307
    assert isinstance(out, int)
    return out


def _addends(tokens: tuple[Token, ...]) -> int:
    """How many values a sum's tokens add: ``k × v`` is k of them."""
    n, i = 0, 0
    while i < len(tokens):
        t = tokens[i]
        if isinstance(t, int) and i + 2 < len(tokens) and tokens[i + 1] == "×":
            n, i = n + t, i + 3
        else:
            n, i = n + isinstance(t, int), i + 1
    return n


@pytest.mark.parametrize("game", ["abracadabra", "abracadabra-newton", "hearts"])
def test_each_worked_part_adds_up_to_its_value(game: str) -> None:
    ex = book_facts(resolve(game).spec).example
    assert ex is not None and ex.score_terms is not None and ex.score_worked is not None
    seen = 0
    for values, workings in zip(ex.score_terms, ex.score_worked, strict=True):
        for value, how in zip(values, workings, strict=True):
            if how is None:
                continue
            tokens, cards = how
            assert _value(tokens) == value
            seen += 1
            # a count of cards names as many cards as it counts, a sum as many as it adds
            # (``13 × 1 + 13``: fourteen)
            counts = [t for t in tokens if isinstance(t, int)]
            if cards:
                assert len(cards) in counts or len(cards) == _addends(tokens), (tokens, cards)
    assert seen >= 1  # the success bonus, a rank or suit bonus, face values, card points


def test_a_part_of_plain_values_is_not_worked_out() -> None:
    """Tricks taken is a value the line says already: nothing beneath it to work out."""
    ex = book_facts(resolve("abracadabra-newton").spec).example
    assert ex is not None and ex.score_worked is not None
    assert all(w[1] is None for w in ex.score_worked)  # trick points: taken[p]


def test_a_score_of_one_value_is_worked_out_whole_with_the_cards_it_adds() -> None:
    """Round 24: "work out one final score". Vändåtta scores a hand's penalty, one value: the
    example's end works each out whole, its sum adding up to the score and its cards, the
    hand left, worth what the penalty table says."""
    ex = book_facts(resolve("vandatta").spec).example
    assert ex is not None and ex.score_terms is None and ex.score_worked is not None
    assert ex.result is not None
    scores = ex.result["scores"]
    assert isinstance(scores, list)
    worth = {"8": 10, "A": 5}
    told = 0
    for score, (how,) in zip(scores, ex.score_worked, strict=True):
        if how is None:
            continue
        tokens, cards = how
        assert _value(tokens) == score
        assert sum(worth.get(c[0], 1) for c in cards) == score
        told += 1
    assert told >= 2  # the players left holding cards
