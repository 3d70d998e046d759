"""A rare case of a rule (``rare "TEXT"`` on a step or an alternative): parsed, printed back,
told apart in the player's book and in place in the reference (issue 27: readers of rounds 31
to 35 tripped on Vändåtta's thirteen players left with only eights, told in its steps)."""

from __future__ import annotations

import pytest

from rulespec.book.markdown import to_markdown
from rulespec.book.sections import build_book
from rulespec.lang import ast, walk
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty_item
from rulespec.loading import resolve
from tests.test_player_book import book

SPEC = '''
game g title "G"
players 2 to 2
deal {
  step "Turn up" "The top card is turned up." rare "With no card left, nothing is turned up." {
    choose 0 {
      draw() "Draw a card." rare "An empty stock gives nothing." told "draws" {
      }
    }
  }
}
'''


def test_a_rare_case_is_parsed_and_printed_back() -> None:
    items = parse(SPEC, "g").items
    step = next(n for n in walk.descendants(items) if isinstance(n, ast.Step))
    alt = next(n for n in walk.descendants(items) if isinstance(n, ast.Alternative))
    assert step.rare == "With no card left, nothing is turned up."
    assert alt.rare == "An empty stock gives nothing." and alt.told is not None
    printed = "\n".join(pretty_item(i) for i in items)
    assert 'rare "An empty stock gives nothing." told "draws"' in printed
    again = [n for n in walk.descendants(parse(printed, "again").items)
             if isinstance(n, (ast.Step, ast.Alternative))]
    assert [n.rare for n in again] == [step.rare, alt.rare]


def test_vandattas_rare_cases_are_told_apart_in_the_book() -> None:
    md = to_markdown(book("vandatta", "en")[0])
    steps = md[md.index("## The deal"):md.index("## Play")]
    assert "14 players" not in steps and "nothing to shuffle" not in md[:md.index("### Rare")]
    rare = md[md.index("### Rare cases"):md.index("## Scoring")]
    assert md.index("### Lappen") < md.index("### Rare cases")
    assert "- **Turn up**: At a table of 14 players, should the stock hold only" in rare
    assert "- **Draw**: If the stock is empty and there is nothing to shuffle" in rare


@pytest.mark.parametrize(("lang", "head"), [("fa", "### موارد نادر"), ("ru", "### Редкие случаи")])
def test_the_rare_cases_are_headed_in_the_books_language(lang: str, head: str) -> None:
    md = to_markdown(book("vandatta", lang)[0])
    assert md.count(head) == 1 and any(x in md[md.index(head):] for x in ("13", "۱۳"))


def test_the_reference_says_a_rare_case_in_place() -> None:
    spec = resolve("vandatta").spec
    md = to_markdown(build_book(spec))
    turn_up = md[md.index("**Turn up.**"):]
    assert turn_up[:turn_up.index("\n")].endswith(
        "At a table of 14 players, should the stock hold only eights, the eight turned up "
        "stays as the first card of the discard pile, and its suit is the one to follow.")
