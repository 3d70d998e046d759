"""Sentences in the books' prose end at a full stop, not at an abbreviation's: a Russian
"(см. «Варианты»)" (see Variations) is one sentence, so a term defined by its first sentence
is not cut inside the parenthesis (round 5's Russian reader found two such cuts)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.book.labels import SENTENCE_BREAK, first_clause

BOOKS = Path(__file__).parent.parent / "docs" / "rules"


def test_an_abbreviation_ends_no_sentence() -> None:
    text = "Третья рука — вариант (см. «Варианты»). Вторая, т. е. другая. A rule (e.g. this). End."
    assert SENTENCE_BREAK.split(text) == ["Третья рука — вариант (см. «Варианты»).",
                                          "Вторая, т. е. другая.", "A rule (e.g. this).", "End."]
    assert first_clause("Очки (см. таблицу ниже) за успех. Ещё", 200) == \
        "Очки (см. таблицу ниже) за успех"


@pytest.mark.parametrize("book", sorted(p.name for p in BOOKS.glob("*.md")
                                        if not p.name.endswith("-reference.md")))
def test_no_glossary_entry_is_cut_inside_a_parenthesis(book: str) -> None:
    for line in (BOOKS / book).read_text(encoding="utf-8").splitlines():
        if line.startswith("- **"):
            assert line.count("(") == line.count(")"), line


def test_a_list_written_as_a_sentence_is_a_list() -> None:
    from rulespec.book.reading import as_list

    got = as_list("Their score adds up three parts: the bonus (see: a; b); one point a trick; "
                   "and the suit bonus.")
    assert got == ("Their score adds up three parts:",
                   ["the bonus (see: a; b)", "one point a trick", "the suit bonus"])
    assert as_list("Pass: leave the choice; nothing more.") is None  # two items: prose
    assert as_list("No colon; a; b; c.") is None
    # the books' scoring says its parts as a list
    text = (BOOKS / "abracadabra.md").read_text(encoding="utf-8")
    assert "five parts:\n\n- the success bonus" in text
