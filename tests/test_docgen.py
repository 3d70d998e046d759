"""The rulebook built from a spec (rulespec/book/: reading, facts, sections, markdown): its
parts in a rule page's order, tables and the example worked out by the interpreter, and spec
text escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from rulespec.book import build_book, rulebook, to_markdown
from rulespec.book.document import Table
from rulespec.engine import State
from rulespec.lang.checker import check_file, check_text
from rulespec.loading import resolve

HERE = Path(__file__).resolve().parent
TABLES = HERE / "specs" / "ok" / "book_tables.rules"


def test_parts_come_in_a_rule_pages_order() -> None:
    for game in ("abracadabra-newton", "abracadabra", "vandatta"):
        book = build_book(resolve(game).spec)
        # every shipped spec declares tables and a glossary: parts of their own
        top = [h.anchor for h in book.headings() if h.level == 1]
        assert top == ["introduction", "at-a-glance", "players-and-cards", "the-deal", "play",
                       "scoring", "tables", "the-end-of-the-game", "example", "variations",
                       "glossary", "reference"], game


def test_a_book_compiles_each_table_once_and_plays_each_deal_once(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """What play shows is worked out once per book (rulespec.book.facts): the whole HTML book
    of Vändåtta compiles each table at most once, and plays each deal once, but the example
    deal: the candidates are played without telling what each event did, and the one chosen
    is played again, told (one deal told, not forty)."""
    from rulespec.book import facts, to_html
    from rulespec.engine import Game

    # a spec of its own (no table compiled yet), and without the example given beside the
    # shipped one: its example is chosen among random deals
    copy = tmp_path / "vandatta.rules"
    copy.write_text(resolve("vandatta").path.read_text(encoding="utf-8"), encoding="utf-8")
    spec = check_file(copy)
    compiled: list[tuple[int, str]] = []
    played: list[tuple[int, str, int]] = []
    covering: list[int] = []  # the example's table, compiled to note the rules entered
    init, play = Game.__init__, facts._Worker._play

    def counted_init(self: Game, spec: object, players: int,
                     options: Mapping[str, object] | None = None, *args: object,
                     **kwargs: object) -> None:
        if kwargs.get("coverage") or kwargs.get("trace"):
            covering.append(players)
        else:
            compiled.append((players, json.dumps(dict(options or {}), sort_keys=True)))
        init(self, spec, players, options, *args, **kwargs)  # type: ignore[arg-type]

    def counted_play(self: facts._Worker, start: State, seed: int, tell: bool,
                     cut: int | None, given: object = None) -> object:
        played.append((start.game.players, json.dumps(start.game.options, sort_keys=True),
                       seed))
        return play(self, start, seed, tell, cut, given)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "__init__", counted_init)
    monkeypatch.setattr(facts._Worker, "_play", counted_play)
    book = build_book(spec)
    assert to_html(book).startswith("<!DOCTYPE html>")
    assert compiled and len(compiled) == len(set(compiled)), compiled
    # the tables of 2 to 14 players; an option that would open another table (a dummy hand)
    # opens none here, and is found out without compiling it
    assert sorted(p for p, _ in compiled) == list(range(2, 15))
    told = re.search(r"A deal at a table of (\d+), .*?\(seed (\d+),", to_markdown(book))
    assert told is not None
    example = (int(told[1]), int(told[2]))
    # the told deal is played at its table compiled once more, noting the rules each event
    # enters (what drew a player's penalty cards), and only that one
    assert covering == [example[0]]
    assert sum(1 for p, _, seed in played if (p, seed) == example) == 2
    others = [d for d in played if (d[0], d[2]) != example]
    assert others and len(others) == len(set(others))


def test_tables_are_worked_out_at_each_table_size() -> None:
    book = build_book(check_file(TABLES))
    tables = [b for b in book.blocks if isinstance(b, Table)]
    bonus = [t for t in tables if t.header[0][0].text == "successful players"]
    # 2, 3 and 4 players give different rows: one table for each
    assert [len(t.rows) for t in bonus] == [2, 3, 4]
    four = bonus[-1]
    assert [[r[1][0].text for r in four.rows]] == [["40", "30", "20", "10"]]
    # the card table is the same at every size: once, the cards drawn as cards
    worth = [t for t in tables if t.header[0][0].text == "card"]
    assert len(worth) == 1 and worth[0].rows[-1][0][0].kind == "card"
    assert worth[0].rows[-1][1][0].text == "11"  # the Ace of hearts, by the spec's worth(c)


def test_options_change_the_tables() -> None:
    book = build_book(check_file(TABLES), players=4, options={"bonus": 5})
    text = to_markdown(book)
    assert "| 1 | 20 |" in text and "| 1 | 40 |" not in text


def test_glossary_is_sorted_and_cites_its_clause() -> None:
    text = rulebook(check_file(TABLES))
    assert "## Glossary\n\n- **the pot**: All the chips staked, waiting for a winner." in text
    book = build_book(check_file(TABLES))
    assert any(c.startswith("book_tables.rules:") for _, c in book.sources())


def test_the_example_scores_add_up() -> None:
    """The term-by-term table of the example: each row's terms sum to its score, and the
    scores are those of the deal's result."""
    book = build_book(resolve("abracadabra").spec)
    terms = next(b for b in book.blocks if isinstance(b, Table)
                 and b.caption and "term by term" in "".join(r.text for r in b.caption))
    result = next(b for b in book.blocks if isinstance(b, Table)
                  and b.caption and "result" in "".join(r.text for r in b.caption))
    for row, res in zip(terms.rows, result.rows, strict=True):
        values = [int(c[0].text) for c in row[1:-1]]
        assert sum(values) == int(row[-1][0].text) == int(res[1][0].text)


def test_the_example_says_who_took_each_trick() -> None:
    """A trick's line ends with the one player whose count of tricks went up: the winner,
    by the engine, which the counts in the result confirm."""
    text = to_markdown(build_book(resolve("abracadabra-newton").spec))
    example = text.split("## An example deal")[1].split("The scores term by term")[0]
    tricks = [ln for ln in example.splitlines() if "`play`:" in ln]
    winners = [re.search(r"then taken of seat (\d): (\d+)$", ln) for ln in tricks]
    assert len(tricks) == 13 and all(winners)
    per_seat: dict[str, int] = {}
    for m in winners:
        assert m is not None
        per_seat[m[1]] = per_seat.get(m[1], 0) + 1
        assert int(m[2]) == per_seat[m[1]]  # each seat's count goes up one trick at a time
    # the bids, which every player makes, are not told again as changes
    assert "then bids" not in example


def test_spec_text_cannot_break_the_markdown() -> None:
    spec = check_text('''
game g title "G <b>" "A game | with `ticks` and <script>x</script>."
players 2 to 3
winner highest total
option style: {plain "Plain | pipes", fancy "A `tick`"} = plain "Which | style."
zone stock: shared visible to nobody
def score(q: int) = 0
deal {
  fill stock with pack(1)
  shuffle stock
  end deal scoring score
}
match {
  run deal
  end match winners seats
}
''', "g.rules")
    text = rulebook(spec)
    assert "<script>" not in text and "<b>" not in text
    assert "A game \\| with \\`ticks\\` and \\<script\\>x\\</script\\>." in text
    assert "- `plain` (the default): Plain \\| pipes" in text
    # every table row keeps its number of cells
    for line in text.splitlines():
        if line.startswith("| `style`"):
            assert line.count(" | ") == 3


#: every character some reader of Markdown ends a line at, and control characters
LINE_BREAKS = ("\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x00", "\x1b")


@pytest.mark.parametrize("brk", LINE_BREAKS, ids=[repr(b) for b in LINE_BREAKS])
def test_no_line_break_lets_spec_text_out_of_its_place_in_markdown(brk: str) -> None:
    """Whatever line break spec text holds, rendered Markdown (markdown-it, CommonMark) has no
    element the text put there: a code span, a heading, a table cell and a paragraph each keep
    their text, and a fenced block keeps its fence."""
    from markdown_it import MarkdownIt

    from rulespec.book.document import Book, Bullets, Code, Heading, Paragraph, code, inline

    evil = f"x{brk}<script>alert(1)</script>{brk}# heading{brk}| a | b |{brk}```"
    book = Book(f"T{brk}<script>t</script>", (
        Heading(1, inline(evil), "h"),
        Paragraph(inline("p ", code(evil), " ", evil)),
        Bullets(((inline(code(evil)), evil),)),
        Table((inline(evil), inline("b")), ((inline(code(evil)), inline(evil)),)),
        Code(evil, lang=f"py{brk}<script>"),
    ))
    html = MarkdownIt("commonmark").enable("table").render(to_markdown(book))
    assert "<script" not in html
    # the title; the heading and "Where each part comes from"
    assert html.count("<h1>") == 1 and html.count("<h2>") == 2
    assert html.count("<pre>") == 1 and "</code></pre>" in html


@pytest.mark.parametrize("start", ["- ", "+ ", "1. ", "2) ", "---", "===", "  - "])
def test_spec_text_starting_like_a_list_or_a_rule_stays_text(start: str) -> None:
    """A description that starts like a list item or a rule (found by the fuzzer) is a
    paragraph of text in the rendered Markdown, as in a list item."""
    from markdown_it import MarkdownIt

    from rulespec.book.document import Book, Bullets, Paragraph, inline

    text = f"{start}the dealer deals"
    book = Book("T", (Paragraph(inline(text)), Bullets(((inline(text), None),))))
    html = MarkdownIt("commonmark").render(to_markdown(book))
    assert "<hr" not in html and "<h2" not in html and html.count("<li>") == 1, html
    assert "<ol" not in html and html.count("<ul>") == 1, html


def test_expressions_said_in_plain_english() -> None:
    """Each name said as the checker bound it: the expressions are definitions added to a
    shipped spec and checked with it."""
    from rulespec.book.english import say

    said_texts = {
        "size(stock) > 0": "the number of cards in the stock is more than 0",
        "range(0, tricks())": "a number from 0 to tricks",
        "subsets(hand[declarer], 0, size(hand[declarer]))":
            "any cards of the hand of the declarer, or none",
        "stake_mode == free and not dummy": "the stake mode rule is free and not dummy",
        "abandoned or passed[0]": "abandoned, or passed of 0",  # truth values
        "[q for q in seats if taken[q] > 0]":
            "the players, each one q such that the taken of q is more than 0",
        "left_of(dealer)": "the player on the dealer's left",
        "count(taken[q] == 0 for q in seats)": "how many q in the players have the taken of q is 0",
        "if dummy then 1 else 0": "1 if dummy, otherwise 0",
    }
    path = resolve("abracadabra-newton").path
    added = "".join(f"\ndef said_{i}() = {text}\n" for i, text in enumerate(said_texts))
    spec = check_text(path.read_text(encoding="utf-8") + added, str(path))
    defs = {d.name: d for d in spec.defs}
    for i, (text, words) in enumerate(said_texts.items()):
        assert say(defs[f"said_{i}"].body, spec) == words, text


def test_the_shipped_books_carry_their_tables_and_glossaries() -> None:
    for game, table in (("vandatta", "Penalty points"), ("abracadabra", "Success bonus")):
        text = rulebook(resolve(game).spec)
        assert f"### {table}" in text and "## Glossary" in text, game


STEPS = HERE / "specs" / "ok" / "steps.rules"


def test_steps_are_numbered_with_their_texts_and_clauses() -> None:
    from rulespec.book.document import Bullets, Heading

    book = build_book(check_file(STEPS))
    blocks = list(book.blocks)
    deal = next(i for i, b in enumerate(blocks)
                if isinstance(b, Heading) and b.anchor == "the-deal")
    lists = [b for b in blocks[deal:] if isinstance(b, Bullets) and b.ordered]
    steps = lists[0]
    texts = ["".join(r.text for r in item) for item, _ in steps.items]
    assert texts[0] == "Shuffle. The dealer gathers and shuffles the pack."
    # a step without a text says what its body does; its own steps follow it, lettered
    assert texts[1].startswith("Deal. Deal n cards from the stock")
    assert "(a) Count. Nothing is left to count" in texts[1]
    assert texts[2] == "Turn. The player on the dealer's left turns their card."
    assert [src for _, src in steps.items] == ["steps.rules:15", "steps.rules:22",
                                               "steps.rules:28"]


def test_sections_head_the_reference_as_in_the_spec() -> None:
    book = build_book(check_file(STEPS))
    heads = [(h.level, "".join(r.text for r in h.text)) for h in book.headings()]
    at = heads.index((3, "The cards"))
    # the definitions after a section are under it, a level down
    assert heads.index((3, "Scoring")) > at
    assert (4, "Definition score") in heads[heads.index((3, "Scoring")):]
    md = to_markdown(book)
    assert "One pack; each player holds one card." in md
