"""The player's book (rulespec.book.player) and its languages (rulespec.book.i18n): the length
issue 27 sets, no sentence said twice, each term defined once, complete Persian and Russian
catalogs for the seed games, a catalog's text kept as text, and ``rulespec doc --lang`` through
a child process from another folder."""

from __future__ import annotations

import functools
import io
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from rulespec.book.document import Book, Bullets, Figure, Heading, Inline, Paragraph, Table
from rulespec.book.facts import book_facts
from rulespec.book.html import to_html
from rulespec.book.i18n import CatalogError, Words, english, words_for
from rulespec.book.markdown import to_markdown
from rulespec.book.player import player_book, rules_words
from rulespec.loading import resolve

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ("vandatta", "abracadabra", "abracadabra-newton")
#: issue 27: the rules sections' words at most (the example, variations and hints aside)
RULES_AT_MOST = {"vandatta": 1500, "abracadabra": 2500, "abracadabra-newton": 2500}
EXAMPLE_AT_MOST = 800


@functools.cache
def book(game: str, lang: str) -> tuple[Book, frozenset[str]]:
    found = resolve(game)
    words = words_for(lang, [found.path, *map(Path, found.spec.sources)])
    return player_book(found.spec, words), frozenset(words.missing)


def _prose(b: Book, values: frozenset[str] = frozenset()) -> list[str]:
    """The book's sentences of prose: paragraphs and list items outside the example deal, and
    outside the sentences of ``values`` that say a house rule's default in its paragraph."""
    out: list[tuple[str, str]] = []
    where = ""
    for x in b.blocks:
        if isinstance(x, Heading):
            where = x.anchor
        elif where == "example" or where == "variations" and isinstance(x, Bullets):
            continue  # the example's lines, and an option's values (a table as a list)
        elif isinstance(x, Paragraph):
            out.append((where, "".join(r.text for r in x.text)))
        elif isinstance(x, Bullets):
            out.extend((where, "".join(r.text for r in i)) for i, _ in x.items)
    sentences = []
    for where, text in out:
        sentences += [s.strip() for s in re.split(r"(?<=[.!?؟])\s+", text) if len(s.split()) > 3
                      # a house rule's default is its value, said alike for each rule
                      and not (where == "variations" and s.strip() in values)]
    return sentences


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_the_rules_fit_in_ten_minutes(game: str, lang: str) -> None:
    """Issue 27's limits, in each of the three languages: the rules sections, and the
    example deal."""
    rules, example = rules_words(book(game, lang)[0])
    assert rules < RULES_AT_MOST[game], rules
    assert example < EXAMPLE_AT_MOST, example


@pytest.mark.parametrize("game", SEEDS)
def test_every_section_is_counted_as_rules_or_kept_apart(game: str) -> None:
    """A section the book gains counts among the rules unless it is one the issue leaves
    out (the example, the variations, the hints): none escapes the limits by its name."""
    from rulespec.book.player import RULES_SECTIONS, YIELDS
    apart = {"example", "variations", "hints"}
    for x in book(game, "en")[0].blocks:
        if isinstance(x, Heading) and x.level == 1:
            assert x.anchor in RULES_SECTIONS or x.anchor.startswith(YIELDS) or \
                x.anchor in apart, x.anchor


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_no_sentence_is_said_twice(game: str, lang: str) -> None:
    found = resolve(game)
    w = words_for(lang, [found.path, *map(Path, found.spec.sources)])
    said = [w.say("In the rules above; a house rule leaves it out."),
            w.say("Not in the rules above; a house rule adds it.")]
    said += [w.say("The default is {default}; the players may agree on another number.",
                   default=w.digits(str(o.default))) for o in found.spec.options if o.kind == "int"]
    sentences = _prose(book(game, lang)[0], frozenset("".join(r.text for r in x) for x in said))
    twice = {s for s in sentences if sentences.count(s) > 1}
    assert not twice, twice


@pytest.mark.parametrize("game", SEEDS)
def test_each_term_is_defined_once_after_its_first_use(game: str) -> None:
    """Once: in the section of the game's words after the opening (or, for a book whose
    opening uses none, after the paragraph that first uses it, or in a step of the deal)."""
    b = book(game, "en")[0]
    spec = resolve(game).spec
    defined = [("".join(r.text for r in i[:1])) for x in b.blocks if isinstance(x, Bullets)
               for i, _ in x.items if i and i[0].kind == "strong"]
    # a word defined in a step is its name and its meaning; a decision made in the step is
    # its name and what you may do
    meaning = {t.word.lower(): t.meaning.strip('"')[:20] for t in spec.terms}
    defined += [r.text[:1].lower() + r.text[1:-1] for x in b.blocks
                if isinstance(x, Bullets) and x.ordered for i, _ in x.items
                for r, after in zip(i[1:], i[2:], strict=False)
                if r.kind == "strong" and r.text.endswith(":")
                and after.text.strip().startswith(meaning.get(r.text[:-1].lower(), "\0"))]
    for t in spec.terms:
        word = t.word[:1].lower() + t.word[1:]
        assert [d[:1].lower() + d[1:] for d in defined].count(word) == 1, t.word


@pytest.mark.parametrize("lang", ["fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_the_seed_games_are_wholly_translated(game: str, lang: str) -> None:
    b, missing = book(game, lang)
    assert not missing, sorted(missing)[:10]
    assert b.lang == lang and b.title != resolve(game).spec.title


def test_the_legal_plays_and_decisions_are_tables() -> None:
    b = book("vandatta", "en")[0]
    heads = [tuple("".join(r.text for r in c) for c in x.header) for x in b.blocks
             if isinstance(x, Table)]
    assert ("top card of the discard pile", "you may play") in heads
    # the decisions each by name, a long rule as a list of its sentences (rounds 10 to 13)
    names = _decision_names(b)
    assert names == ["play", "draw", "pass"]
    at = next(i for i, x in enumerate(b.blocks) if isinstance(x, Paragraph)
              and x.text[0].kind == "strong" and x.text[0].text == "Play")
    points = b.blocks[at + 1]
    assert isinstance(points, Bullets) and len(points.items) >= 3
    text = to_html(b)
    assert "an ordinary card of the Ace&#x27;s suit, or a group led by one; any other Ace" in text


def test_newton_says_there_is_no_starting_stock() -> None:
    text = " ".join(_prose(book("abracadabra-newton", "en")[0]))
    assert "nobody starts with a stock of chips" in text
    assert "bid cards" not in text


def _catalog(tmp_path: Path, lang: str, pairs: dict[str, str]) -> Path:
    spec = tmp_path / "game.rules"
    cat = Catalog(locale=lang)
    for k, v in pairs.items():
        cat.add(k, v)
    buf = io.BytesIO()
    write_mo(buf, cat)
    (tmp_path / f"game.{lang}.mo").write_bytes(buf.getvalue())
    return spec


def test_a_catalog_is_text_not_markup_nor_a_format_string(tmp_path: Path) -> None:
    spec = _catalog(tmp_path, "ru", {"Hello": "<script>alert(1)</script>"})
    w = words_for("ru", [spec])
    assert w.text("Hello") == "<script>alert(1)</script>"
    assert "<script>" not in to_html(Book("t", (Paragraph(w.say("{x}", x=w.text("Hello"))),),
                                          lang="ru"))
    # a translation that names a placeholder its English does not is refused: English stays
    evil = Words("ru", w.spec, w.spec)
    assert evil.word("{n} cards", n=3) == "3 cards"
    assert w.text("Not in the catalog") == "Not in the catalog"
    assert "Not in the catalog" in w.missing


def test_a_catalog_with_a_strange_placeholder_falls_back(tmp_path: Path) -> None:
    spec = _catalog(tmp_path, "ru", {"{n} cards": "{n.__class__} {m} карт"})
    w = words_for("ru", [spec])
    w2 = Words("ru", w.spec, w.spec)
    assert w2.word("{n} cards", n=3) == "3 cards"


def test_a_stale_or_missing_catalog_is_an_error_with_a_hint(tmp_path: Path) -> None:
    spec = tmp_path / "game.rules"
    (tmp_path / "game.fa.po").write_text("", encoding="utf-8")
    with pytest.raises(CatalogError, match="not compiled"):
        words_for("fa", [spec])
    with pytest.raises(CatalogError, match="no book language"):
        words_for("de", [spec])
    assert english().text("x") == "x"


def test_doc_in_persian_from_another_folder(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "v.fa.html"
    p = subprocess.run([sys.executable, "-m", "rulespec", "doc", "vandatta", "--lang", "fa",
                        "--format", "html", "--out", str(out)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    page = out.read_text(encoding="utf-8")
    assert 'lang="fa"' in page and 'dir="rtl"' in page and "وانداتا" in page
    assert 'href="v-reference.html"' in page
    p = subprocess.run([sys.executable, "-m", "rulespec", "doc", "vandatta", "--lang", "de"],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "de" in p.stderr
    p = subprocess.run([sys.executable, "-m", "rulespec", "doc", "vandatta", "--lang", "fa",
                        "--reference"], cwd=tmp_path, env=env, capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2 and "English only" in p.stderr


@pytest.mark.parametrize("lang", ["fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_committed_translated_books_are_current(game: str, lang: str) -> None:
    from click.testing import CliRunner

    from rulespec.cli import main

    for fmt in ("md", "html"):
        page = ROOT / "docs" / "rules" / f"{game}.{lang}.{fmt}"
        r = CliRunner().invoke(main, ["doc", game, "--lang", lang, "--format", fmt, "--out",
                                      str(page), "--check"])
        assert r.exit_code == 0, r.output


@pytest.mark.parametrize("lang", ["fa", "ru"])
def test_the_catalogs_hold_every_message_of_the_seed_games(lang: str) -> None:
    """Every text of the seed specs (and the module their tricks come from) and every message of
    the book's prose and figures is translated, none fuzzy: what `rulespec catalog update` and
    the prose template would add is already there."""
    from rulespec.book.catalogs import (
        prose_po,
        prose_template,
        spec_po,
        spec_template,
        state_of,
    )

    specs = [resolve(g).spec for g in SEEDS]
    files = {Path(f) for s in specs for f in s.sources}
    for f in sorted(files):
        left = state_of(spec_template(f), spec_po(f, lang), lang).untranslated
        assert not left, (f.name, left[:5])
    left = state_of(prose_template(specs), prose_po(lang), lang).untranslated
    assert not left, left[:10]


@pytest.mark.parametrize("lang,words", [("fa", ("وسط میز", "جایگاه")),
                                        ("ru", ("центр стола", "место"))])
def test_the_figures_are_drawn_in_the_books_language(lang: str, words: tuple[str, ...]) -> None:
    """The figure's own words come from the book's catalog, not only the spec's texts; the
    phase diagram is the reference's, not the player's book's (six rounds of readers found it
    said less than the sections), and a ten is written 10 in the picture as in the text."""
    figures = [x.svg for x in book("vandatta", lang)[0].blocks if isinstance(x, Figure)]
    assert len(figures) == 1
    drawn = " ".join(figures)
    for word in words:
        assert word in drawn
    for said in ("the middle of the table", "seat 1"):
        assert said not in drawn
    assert not re.search("T[♠♥♦♣]", drawn) and re.search("10[♠♥♦♣]", drawn)


@pytest.mark.parametrize("game,decisions", [
    ("examples/kuhn.rules", {"check", "bet", "call", "fold"}),
    ("gin-rummy", {"knock", "meld", "done"})])
def test_the_decisions_table_has_every_decision_the_example_makes(
        game: str, decisions: set[str]) -> None:
    """The table lists the decisions a deal played for the book made: the book's few random
    deals missed Kuhn poker's call and gin rummy's knock, melds and done, which the example
    deal makes."""
    found = resolve(str(ROOT / game) if game.endswith(".rules") else game)
    b = player_book(found.spec, english())
    names = set(_decision_names(b))
    assert decisions <= names, names


def _decision_names(b: Book) -> list[str]:
    """The decisions a player's book names, in lower case: in a step of the deal, on a line
    of its own led by its name in bold ("**Place:**"), and under Play, each a paragraph led
    by its name in bold."""
    deal = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading)
                and x.anchor == "the-deal")
    at = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading) and x.anchor == "play")
    names = [r.text[:-1].lower() for x in b.blocks[deal:at]
             if isinstance(x, Bullets) and x.ordered for i, _ in x.items
             for before, r in zip(i, i[1:], strict=False)
             if before.kind == "break" and r.kind == "strong" and r.text.endswith(":")]
    for x in b.blocks[at + 1:]:
        if isinstance(x, Heading):
            break
        if isinstance(x, Paragraph) and x.text and x.text[0].kind == "strong":
            names.append(x.text[0].text.lower())
    return names


def test_a_pack_is_said_by_its_ranks() -> None:
    """The pack column of Players and cards: each suit's run of ranks from the Ace, the Joker
    and the copies, worked out from the shuffle's cards; a pack those signs cannot say is
    left out."""
    from rulespec.book.packsigns import pack_text, per_suit

    suits = "CDHS"
    short = [r + s for s in suits for r in "AKQJT9876"]
    assert pack_text([*short, "JK"]) == "A–6 + JK"
    assert pack_text(short * 2) == "A–6 ×2"
    assert pack_text(short[1:]) is None  # a suit without its Ace
    assert pack_text([c for c in short if c[1] != "S"]) is None  # three suits
    # a second pack by its suits, where they hold as many (rounds 52, 53: "48" for two
    # players read as the bid cards in use, where each takes one suit of twelve)
    assert per_suit(short) == 9 and per_suit(short[1:]) == 0 and per_suit(short[:9]) == 0
    # and in the book, in players' words (round 6: "A–9" read as Ace to 9, "A–2 ×2" as a
    # sign), a row for each size whose cards left over differ (round 7)
    # (Vändåtta's cards not dealt as the piles they make when play starts: the stock, and
    # the card turned up; the hand and the card turned up, the same at every size, are said
    # once in a sentence after the table)
    # (the stock, the rest of the cards, said once with one size's count: rounds 22 and 23
    # read thirteen rows as what "one pack up to five, two from six" says)
    for game, cells in (("vandatta", [["2 to 5", "52", "one pack"],
                                      ["6 to 14", "104", "2 packs"]]),
                        # (and the bid pack beside it: a pile of more cards than the deal
                        # left, a pack of its own; rounds 12 to 14 looked for its size)
                        ("abracadabra", [["2", "24", "A K Q J 10 9 of each suit", "12", "0",
                                          "4 suits of 12"],
                                         ["3", "37", "A K Q J 10 9 8 7 6 of each suit and the "
                                          "Joker", "12", "1", "4 suits of 12"],
                                         ["4", "53", "one pack and the Joker", "13", "1",
                                          "4 suits of 13"]])):
        table = next(x for x in book(game, "en")[0].blocks if isinstance(x, Table))
        assert [["".join(r.text for r in c) for c in row] for row in table.rows] == cells
    said = to_markdown(book("vandatta", "en")[0])
    assert ("At every table: each player is dealt 7 cards; the discard pile holds 1 when play "
            "starts; the stock holds the rest (23 at a table of 4).") in said


def test_newtons_pot_has_a_section_after_scoring() -> None:
    """A spec section that declares what a deal yields besides the scores (Newton's chips) is a
    section of the book of its own, after Scoring, counted with the rules."""
    b = book("abracadabra-newton", "en")[0]
    anchors = [x.anchor for x in b.blocks if isinstance(x, Heading) and x.level == 1]
    at = anchors.index("scoring")
    assert anchors[at + 1].startswith("yields-") and anchors[at + 2] == "the-end"
    deal = anchors.index("the-deal")
    told = [x for x in b.blocks[deal:] if isinstance(x, Paragraph)][0]
    assert "pot" not in "".join(r.text for r in told.text)


def test_the_example_tells_what_a_turn_made_true() -> None:
    """Lappen is announced for a player as their turn passes on, with no decision of theirs:
    the example says so on a line after that turn, in the spec's words."""
    # (said of the seat, not "Seat 4 now: the player is...": round 22)
    for lang, said in (("en", r"Now the player at seat (\d+) is in lappen"),
                       ("ru", r"Теперь игрок на месте (\d+) находится на выходе")):
        b = book("vandatta", lang)[0]
        texts = ["".join(r.text for r in i) for i in _example_lines(b)]
        notes = [k for k, t in enumerate(texts) if re.search(said, t)]
        assert notes, texts
        # right after the turn it happened in: that turn's player's line
        seat = re.search(said, texts[notes[0]]).group(1)  # type: ignore[union-attr]
        # (a Russian turn is numbered without «Ход», a word Russian players keep for a card
        # played: round 14)
        assert re.match(rf"(Turn|№) \d+(, |: )(seat|место) {seat}\b", texts[notes[0] - 1])


def _example_lines(b: Book) -> list[Inline]:
    """The example's lines, in the lists before and after its figure."""
    at = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading) and x.anchor == "example")
    end = next((i for i, x in enumerate(b.blocks) if i > at and isinstance(x, Heading)),
               len(b.blocks))
    return [i for x in b.blocks[at:end] if isinstance(x, Bullets) for i, _ in x.items]


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_the_example_speaks_players_words(game: str, lang: str) -> None:
    """The example deal names a decision and its choices in words, never by the record's
    identifiers (``choose_suit``, a field's name in code, a zone's ``left_up``)."""
    for line in _example_lines(book(game, lang)[0]):
        assert not [r for r in line if r.kind == "code"], line
        text = "".join(r.text for r in line)
        assert "_" not in text and " true" not in text and " false" not in text, text


def test_the_example_numbers_the_tricks_and_notes_the_failed_cards() -> None:
    """A trick gathered to its winner is told on a line of its own, numbered, each card with
    its player's seat in the order played, then its winner with their count so far (rounds
    22 and 23: a line a card read as a log); cards a rule sends where everyone sees them
    (failed bid cards to the centre) are noted."""
    texts = ["".join(r.text for r in i) for i in _example_lines(book("abracadabra", "en")[0])]
    trick = re.compile(r"Trick (\d+): seat (\d) (\S+)(?: \([^()]*\))?(?:, seat (\d) (\S+)"
                       r"(?: \([^()]*\))?){3} \(seat (\d) takes it; its tricks: \d+\)")
    numbered = [int(m.group(1)) for t in texts if (m := trick.match(t))]
    assert numbered == list(range(1, 14))
    # the seats in the order of play, clockwise from the leader
    for t in texts:
        if (m := trick.match(t)):
            seats = [int(x) for x in re.findall(r"seat (\d) (?:JK|10[CDHS]|[2-9TJQKA][CDHS])", t)]
            assert seats == [(seats[0] - 1 + i) % 4 + 1 for i in range(4)], t
    # each failed card with the seat it came from (round 7: whose is the A♠?)
    assert any("(to the centre, from seat " in t for t in texts)
    # every card the deal sent to the centre is told there, even one named like the card the
    # move played (two packs: seat 3's failed J♠ bid card as seat 4 plays the J♠)
    spec = resolve("abracadabra").spec
    ex = book_facts(spec).example
    assert ex is not None
    sent = sorted(c for t in ex.events for zone, cards, _ in t.shared if zone == "centre"
                  for c in cards)
    told = sorted(c for t in texts
                  for m in re.finditer(r"\(to the centre, from seat \d's left row:([^)]*)\)", t)
                  for c in m.group(1).replace("*", "").replace("‹", "").replace("›", "")
                  .split())
    assert told == sent and sent
    # Vändåtta has no tricks: nothing is numbered there
    van = ["".join(r.text for r in i) for i in _example_lines(book("vandatta", "en")[0])]
    assert not [t for t in van if "(trick" in t]


@pytest.mark.parametrize("game", SEEDS)
def test_the_opening_is_not_said_again(game: str) -> None:
    """The seed games' openings say how many play and who wins: no paragraph after them says
    it again ("For 2 to 4 players. The highest total ... wins.")."""
    b = book(game, "en")[0]
    end = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading)
               and x.anchor == "players-and-cards")
    said = ["".join(r.text for r in x.text) for x in b.blocks[:end] if isinstance(x, Paragraph)]
    assert not [p for p in said if p.startswith("For ") or "end of the match wins" in p], said


def test_the_generator_note_is_out_of_the_readers_way() -> None:
    """A Markdown book opens with its title and its first section; a player's book says
    nothing of how it was made (rounds 30 to 44: read as a leftover in every language), the
    reference keeps it as a comment on its last line."""
    from rulespec.book.sections import build_book

    md = to_markdown(book("vandatta", "en")[0])
    lines = md.splitlines()
    assert lines[0] == "# Vändåtta" and lines[2].startswith("## ")
    assert "<!--" not in md and "rulespec doc" not in md
    assert "rulespec doc" not in to_html(book("vandatta", "en")[0])
    ref = to_markdown(build_book(resolve("vandatta").spec)).splitlines()
    assert ref[-1].startswith("<!-- Generated by `rulespec doc`") and ref[-1].endswith("-->")


@pytest.mark.parametrize("game", SEEDS)
def test_play_reads_from_top_to_bottom(game: str) -> None:
    """Play: what may be played before the decisions, each decision said once (the
    declarer's and the others' alike) named in words, and a rule of a section of its own (Vändåtta's
    lappen) after them, under that section's title."""
    b = book(game, "en")[0]
    at = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading) and x.anchor == "play")
    end = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading) and x.level == 1
               and i > at)
    part = b.blocks[at + 1:end]
    tables = [x for x in part if isinstance(x, Table)]
    names = _decision_names(b)
    # a step that makes one decision, and Play with the play alone, name none (Newton's)
    assert len(names) == len(set(names)) and (names or game == "abracadabra-newton"), names
    # named in words, as the example names them: no record's identifier beside them
    heads = [x for x in part if isinstance(x, Paragraph) and x.text[0].kind == "strong"]
    assert not [r for x in heads for r in x.text if r.kind == "code"]
    if game == "vandatta":
        last = part.index(heads[-1])
        assert tables[0].caption and "".join(r.text for r in tables[0].caption) == \
            "What may be played"
        assert part.index(tables[0]) < part.index(heads[0])
        lappen = next(i for i, x in enumerate(part) if isinstance(x, Heading))
        assert "".join(r.text for r in part[lappen].text) == "Lappen"
        assert last < lappen
        first = part[lappen + 1]
        assert isinstance(first, Paragraph)
        said = "".join(r.text for r in first.text)
        # the rule as a list of its points (round 37; round 51: "step by step" over
        # conditions read as a wrong heading)
        assert said == "Point by point:"
        steps = part[lappen + 2]
        assert isinstance(steps, Bullets) and len(steps.items) == 5
        assert "".join(r.text for r in steps.items[0][0]).startswith(
            "if your turn ends with a hand of one ordinary card")


@pytest.mark.parametrize("game", SEEDS)
def test_the_table_figure_names_zones_in_words(game: str) -> None:
    """The table before the first play names each zone in words (its term or its text's first
    words), never by its identifier ("left_down"), and shows a hand in the book's order."""
    fig = next(x for x in book(game, "en")[0].blocks if isinstance(x, Figure))
    drawn = re.findall(r">([^<>]+)<", fig.svg)
    assert not [t for t in drawn if "_" in t], drawn
    hand = [t.strip() for t in drawn[drawn.index("hand (hidden from the others):") + 1:]][:5]
    ranks, suits = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"], "♣♦♥♠"
    key = [(suits.index(c[-1]), ranks.index(c[:-1])) for c in hand]
    assert len(key) == 5 and key == sorted(key), hand


@pytest.mark.parametrize("game", SEEDS)
def test_a_seed_book_shows_no_setting_or_identifier(game: str) -> None:
    """A house rule is told in the players' words ("Played by default."), not by the setting
    software plays it with (``dummy = true``: the reference's); no code anywhere."""
    b = book(game, "en")[0]
    runs = [r for x in b.blocks if isinstance(x, (Paragraph, Bullets, Table))
            for r in (x.text if isinstance(x, Paragraph) else
                      [r for i, _ in x.items for r in i] if isinstance(x, Bullets) else
                      [r for row in (x.header, *x.rows) for c in row for r in c])]
    assert not [r.text for r in runs if r.kind == "code"]


def _random_example_book(game: str, tmp_path: Path) -> Book:
    """The English book of a copy of ``game``'s spec (and the modules it imports) in a folder
    of its own, without the example given beside the shipped spec: its example is chosen
    among random deals, as a user's spec without one has it."""
    found = resolve(game)
    for source in found.spec.sources:
        path = Path(source)
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    copy = resolve(tmp_path / found.path.name)
    return player_book(copy.spec, words_for("en", [copy.path, *map(Path, copy.spec.sources)]))


def test_a_player_who_can_go_out_in_the_example_does(tmp_path: Path) -> None:
    """The example's play is random except that a player who can empty their hand in one
    move does (round 6: a random seat kept 4♠ 4♦ it could go out with, and readers looked
    for the rule that forbade it); checked against every legal event tried on a copy."""
    from rulespec.book.choosing import GO_OUT_CARDS
    from rulespec.book.choosing import apply as _apply
    from rulespec.book.choosing import draw as _draw
    from rulespec.loading import game_for

    spec = resolve("vandatta").spec
    game = game_for(spec, 4, {}, 0)
    checked = 0
    for seed in range(6):
        st, rng = game.new_initial_state(), random.Random(seed)
        while not st.is_terminal() and not st.deals:
            q = st.to_move
            can = []
            if isinstance(q, int) and q >= 0 and 0 < len(st.z["hand"][q]) <= GO_OUT_CARDS:
                for k in range(st.legal_count()):
                    trial = st.clone()
                    trial.apply_index(k)
                    if not trial.z["hand"][q]:
                        can.append(k)
            ev, k, out = _draw(st, rng, ["hand"])
            if can:
                checked += 1
                assert out and k in can, (seed, ev)
            else:
                assert not out
            _apply(st, ev, k)
    assert checked >= 6
    random_book = _random_example_book("vandatta", tmp_path)
    assert "except that a player who can go out does" in " ".join(
        "".join(r.text for r in x.text) for x in random_book.blocks
        if isinstance(x, Paragraph))


def _variations(b: Book) -> list[Paragraph | Bullets]:
    """The blocks of a book's Variations, its opening sentence left out."""
    out: list[Paragraph | Bullets] = []
    where = ""
    for x in b.blocks:
        if isinstance(x, Heading):
            where = x.anchor
        elif where == "variations" and isinstance(x, (Paragraph, Bullets)):
            out.append(x)
    return out[1:]


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
@pytest.mark.parametrize("game", SEEDS)
def test_each_variation_is_a_named_house_rule(game: str, lang: str) -> None:
    """Issue 27: each option of a seed game reads as a house rule, its title in bold first, and
    a table agrees on a number without the range a program would check ("from 0 to 100")."""
    b, _ = book(game, lang)
    found = resolve(game)
    w = words_for(lang, [found.path, *map(Path, found.spec.sources)])
    titles = [w.text(o.title) + "." for o in found.spec.options if o.title]
    paragraphs = [x for x in _variations(b) if isinstance(x, Paragraph)]
    assert paragraphs
    heads = [p.text[0] for p in paragraphs]
    assert all(r.kind == "strong" for r in heads), [r.text for r in heads]
    assert {r.text for r in heads} <= set(titles)
    text = " ".join("".join(r.text for r in i) for x in _variations(b)
                    for i in ([x.text] if isinstance(x, Paragraph) else [i for i, _ in x.items]))
    for o in found.spec.options:
        if o.bounds is not None:
            lo, hi = (w.digits(str(n)) for n in o.bounds)
            assert not re.search(rf"\b{lo}\D{{1,6}}{hi}\b", text), (o.name, lo, hi)
    if lang == "en":
        assert not re.search(r"from \d+ to \d+", text)


def test_a_titled_option_says_its_default_before_its_text() -> None:
    from rulespec.lang.checker import check_text

    spec = check_text(
        'game g title "G"\nplayers 2\nwinner lowest total\n'
        'option ace_on_ace: bool = true "Ace on Ace" "An Ace may be played on an Ace."\n'
        'option plain: bool = false "With this rule, an eight counts double."\n'
        'option penalty: int in 0..100 = 3 "Lappen penalty" "Cards drawn for a fault."\n'
        'def score(p: int) = if ace_on_ace and plain then penalty else 0\n'
        'deal { end deal scoring score }\nmatch { run deal\n end match winners seats }\n')
    b = player_book(spec, english())
    said = ["".join(r.text for r in x.text) for x in _variations(b) if isinstance(x, Paragraph)]
    assert said == ["Ace on Ace. In the rules above; a house rule leaves it out. An Ace may be "
                    "played on an Ace.",
                    "With this rule, an eight counts double.",
                    "Lappen penalty. Cards drawn for a fault. The default is 3; the players may "
                    "agree on another number."]
    first = [x for x in _variations(b) if isinstance(x, Paragraph)][0].text[0]
    assert (first.kind, first.text) == ("strong", "Ace on Ace.")


def test_the_catalog_template_takes_option_titles() -> None:
    from rulespec.book.catalogs import spec_template

    found = resolve("vandatta")
    template = spec_template(found.path)
    for o in found.spec.options:
        assert o.title and o.title in template, o.name


def test_the_example_shows_a_move_that_gives_others_cards() -> None:
    """Of deals alike in the decisions they show, the example is one in which a decision
    gave another player cards (round 8: Vändåtta's example had no Ace making the others
    draw), and cards drawn after a shuffle within a turn are told (an Ace's draws from a
    stock made again were not)."""
    texts = ["".join(r.text for r in i) for i in _example_lines(book("vandatta", "en")[0])]
    aces = [t for t in texts
            if re.search(r"plays A[SHDC].*\(seats [\d, and]+ each draw a card:", t)]
    assert aces
    for t in texts:
        # every Ace played is followed, before the next move, by the others' draws
        for m in re.finditer(r"plays A[SHDC]([^;]*)", t):
            assert "draw a card:" in m.group(1), t


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
def test_a_yes_no_house_rule_reads_as_its_two_ways(lang: str) -> None:
    """A yes/no rule whose text says "With this rule, ... Without this rule, ..." (in the
    book's language) is told as its two ways, the default first (round 8: the status line
    before it read the wrong way round; round 43: the other way alone read backwards), each
    other way marked as a variation, as an enumeration's are."""
    blocks = _variations(book("vandatta", lang)[0])
    w = words_for(lang, [resolve("vandatta").path])
    heads = ["".join(r.text for r in x.text) for x in blocks if isinstance(x, Paragraph)]
    i = next(k for k, x in enumerate(blocks) if isinstance(x, Paragraph)
             and "".join(r.text for r in x.text) == w.text("Drawing at will") + ".")
    ways = blocks[i + 1]
    assert isinstance(ways, Bullets) and len(ways.items) == 2
    said = ["".join(r.text for r in item) for item, _ in ways.items]
    assert said[0].startswith(w.say("By default: {rule}.", rule="")[0].text)
    assert w.word("With this rule, ") not in " ".join(heads + said)
    # the other way marked as a variation, as an enumeration's other values are (rounds 41
    # to 43: a rule under a title read as the game's)
    assert said[1].startswith(w.say("Variation: {rule}.", rule="")[0].text)
    i = next(k for k, x in enumerate(blocks) if isinstance(x, Paragraph)
             and "".join(r.text for r in x.text).startswith(w.text("Turned-up eight") + "."))
    ways = blocks[i + 1]
    assert isinstance(ways, Bullets)
    said = ["".join(r.text for r in item) for item, _ in ways.items]
    assert said[0].startswith(w.say("By default: {rule}.", rule="")[0].text)
    assert all(x.startswith(w.say("Variation: {rule}.", rule="")[0].text) for x in said[1:])


@pytest.mark.parametrize("lang,term,text,used", [
    ("ru", "обычная карта", "играют обычную карту", True),
    ("ru", "взятка", "он взял две взятки", True),
    ("ru", "туз", "после тузов", True),
    ("ru", "туз", "тузик", True),  # a noun's every ending: a crude stem, tested as such
    ("ru", "взятка", "он взял карту", False),
    ("fa", "دست", "دست‌ها را", True),
    ("fa", "دست", "دستور", False),
    ("en", "trick", "two tricks", True),
    ("en", "trick", "trickster", False),
])
def test_a_term_is_found_in_its_other_forms(lang: str, term: str, text: str,
                                            used: bool) -> None:
    """A term is defined where first used in any of its forms (round 9: «обычную карту» did
    not count as «обычная карта», defined far below its first use)."""
    from rulespec.book.reading import term_pattern

    assert bool(re.search(term_pattern(term, lang), text.lower())) is used


def test_the_example_says_what_the_auction_settled_and_who_succeeded() -> None:
    """After the auction, the example names the declarer and B as the bids made them (round
    9: who declared, what is D?); before the scores, who succeeded, as the score lines pay
    them (a success bonus to each successful seat, to no other)."""
    texts = ["".join(r.text for r in i) for i in _example_lines(book("abracadabra", "en")[0])]
    bids = [(int(m.group(1)), int(m.group(2))) for t in texts
            for m in re.finditer(r"^Turn \d+: seat (\d) bids (\d+)", t)]
    settled = [t for t in texts if t.startswith("Declarer: ")]
    assert bids and len(settled) == 1
    seat, top = max(bids, key=lambda b: b[1])
    assert settled[0] == f"Declarer: seat {seat}; B: {top}."
    # told after the last bid and before the first card is laid
    at = texts.index(settled[0])
    assert re.match(r"Turn \d+: seat \d (bids|passes)", texts[at - 1])
    for game in ("abracadabra", "abracadabra-newton"):
        texts = ["".join(r.text for r in i) for i in _example_lines(book(game, "en")[0])]
        said = [t for t in texts if t.startswith("Success: ")]
        assert len(said) == 1
        winners = set(re.findall(r"\d", said[0]))
        paid = {m.group(1) for t in texts
                for m in re.finditer(r"^Seat (\d): success bonus", t)}
        assert winners == paid and paid  # an example where someone succeeds (round 9)


def test_the_example_names_the_rule_that_drew_cards_and_a_pass_by_choice(
        tmp_path: Path) -> None:
    """Cards drawn by a rule outside the decision (the lappen penalty as the turn passes on)
    are told with that rule's words; an Ace's extra turn is said; a pass while a card could
    be played is said to be a choice (round 9: all three read as mistakes or went unseen).
    The random deal of a spec without a given example makes all three."""
    texts = ["".join(r.text for r in i)
             for i in _example_lines(_random_example_book("vandatta", tmp_path))]
    penalties = [t for t in texts
                 if re.search(r"\(the player draws the lappen penalty cards from the stock:"
                              r" \w+ \w+ \w+\)", t)]
    assert penalties
    assert any("(extra turn)" in t for t in texts)
    passes = [t for t in texts if t.endswith("passes (by choice: play was allowed too)")]
    assert passes
    # an Ace's draws are the Ace's own: no rule is named for them
    for t in texts:
        for m in re.finditer(r"plays A[SHDC♠♥♦♣]([^;]*)", t):
            assert "penalty" not in m.group(1), t


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
def test_the_table_figure_stands_in_the_example(lang: str) -> None:
    """The table as it lies before the first play is drawn inside the example, before the
    turn it precedes (rounds 8 and 9: it stood in Players and cards, far from the deal)."""
    b = book("abracadabra", lang)[0]
    at = next(i for i, x in enumerate(b.blocks) if isinstance(x, Heading) and x.anchor == "example")
    end = next(i for i, x in enumerate(b.blocks) if i > at and isinstance(x, Heading))
    figures = [i for i, x in enumerate(b.blocks) if isinstance(x, Figure)]
    assert len(figures) == 1 and at < figures[0] < end
    after = b.blocks[figures[0] + 1]
    assert isinstance(after, Bullets)
    first = "".join(r.text for r in after.items[0][0])
    assert re.search(r"\d", first)  # a turn of the example, numbered


@pytest.mark.parametrize("question,statement", [
    ("Whether the deal is over.", "the deal is over."),
    ("Находится ли игрок на выходе.", "игрок находится на выходе."),
    ("Есть ли у игрока карта.", "у игрока есть карта."),
    # a subject with a clause of its own: the verb after it (round 10's book said "игрок,
    # делает чья очередь ходить")
    ("Делает ли игрок, чья очередь ходить, дополнительный ход.",
     "игрок, чья очередь ходить, делает дополнительный ход."),
    ("آیا بازیکن در نوبت اضافه است", "بازیکن در نوبت اضافه است"),
])
def test_a_question_of_the_spec_reads_as_a_statement(question: str, statement: str) -> None:
    """A truth's text, written as a question ("Whether ..."), is told as a statement."""
    from rulespec.book.labels import truth

    assert truth(question) == statement


def test_the_players_table_gives_the_stock_as_play_starts() -> None:
    """Where the cards not dealt to a hand lie in several piles as play starts (the stock and
    the card turned up), the table gives each pile, as the example deal starts with them
    (round 10: "24 not dealt to a hand" against a stock of 23)."""
    b = book("vandatta", "en")[0]
    table = next(x for x in b.blocks if isinstance(x, Table))
    head = ["".join(r.text for r in c) for c in table.header]
    assert "not dealt to a hand" not in head
    # the pile of one card at every size, and the stock holding the rest, said once beside
    # the table, the stock with the example's count
    md = to_markdown(b)
    assert "the discard pile holds 1 when play starts" in md
    assert "the stock holds the rest (23 at a table of 4)" in md
    dealt = "".join(r.text for r in _example_lines(b)[0])
    assert "Stock: 23 cards." in dealt


def test_a_russian_book_writes_the_ranks_as_russian_players_do() -> None:
    """Т К Д В for туз, король, дама, валет in the Russian books, in the text, the tables and
    the figure (rounds 9 and 10: the Latin A K Q J read as foreign), the suit's colour kept
    in HTML; the other languages keep A K Q J."""
    from rulespec.book.markdown import figure_files

    b = book("abracadabra", "ru")[0]
    md = to_markdown(b)
    assert not re.search(r"(?<![A-Za-z])[AKQJ][♠♥♦♣]", md)
    assert re.search(r"Т[♠♥♦♣]", md) and "Т (туз)" in md
    svg = "".join(text for _, text in figure_files(b, "x"))
    assert not re.search(r"(?<![A-Za-z])[AKQJ][♠♥♦♣]", svg) and re.search(r"[ТКДВ][♠♥♦♣]", svg)
    html = to_html(b)
    assert re.search(r'class="card suit-[CDHS]" dir="ltr">[ТКДВ][♠♥♦♣]<', html)
    assert re.search(r"(?<![A-Za-z])[AKQJ][♠♥♦♣]", to_markdown(book("abracadabra", "fa")[0]))


def test_newtons_example_shows_the_stakes_that_make_the_pot() -> None:
    """Each player's stake is told at the deal's end, so a reader sees where a chip gain
    comes from (round 11: "pot 12, stake 9, so +3" had to be worked out): each successful
    seat gains its share of the stakes less its own."""
    texts = ["".join(r.text for r in i) for i in _example_lines(book("abracadabra-newton",
                                                                     "en")[0])]
    stake = next(t for t in texts if t.startswith("Stake: "))
    stakes = [int(x) for x in re.findall(r"seat \d (\d+)", stake)]
    won = next(t for t in texts if t.startswith("Success: "))
    seats = [int(x) for x in re.findall(r"\d", won)]
    gains = next(t for t in texts if t.startswith("Each player's net gain in chips"))
    gain = {int(q): int(x.replace("−", "-")) for q, x in re.findall(r"seat (\d) (−?\d+)", gains)}
    assert len(stakes) == 4 and seats
    # the pot split among the successful seats: each gains its share less its stake, and
    # the odd chips go to the match's winner (the deal is the whole match), so that no chip
    # is left
    share, odd = divmod(sum(stakes), len(seats))
    for q in seats:
        assert gain[q] - (share - stakes[q - 1]) in (0, odd)
    assert sum(gain.values()) == 0


def test_a_number_by_table_size_has_a_column_for_each_size() -> None:
    """A two-column table whose rows differ by table size (the success bonus) is one table
    with a column for each size, "–" where a size has no such row (round 11: the bonus for
    two and three players was left to arithmetic)."""
    b = book("abracadabra-newton", "en")[0]
    table = next(x for x in b.blocks if isinstance(x, Table)
                 and "".join(r.text for r in x.header[0]) == "successful players")
    head = ["".join(r.text for r in c) for c in table.header]
    assert head[1:] == [f"{n} players at the table" for n in (2, 3, 4)]
    rows = [["".join(r.text for r in c) for c in row] for row in table.rows]
    assert rows == [["1", "20", "30", "40"], ["2", "10", "20", "30"], ["3", "–", "10", "20"],
                    ["4", "–", "–", "10"]]


def test_a_step_tells_what_it_set_even_unchanged() -> None:
    """What a step of the deal sets that the game's words name is told when the step ends,
    whatever it was before: the first seat as declarer is the value the deal starts from,
    and was left out when only changes were told."""
    from rulespec.book.player_example import _Settled

    spec = resolve("abracadabra-newton").spec
    told = _Settled(spec, english(), {})
    told.add((("declarer", 0), ("contract", 5), ("pot", 0)))
    text = "".join(r.text for line, _ in told.flush(range(1, 3)) for r in line)
    assert text == "Declarer: seat 1; D: 5."
    assert told.flush(range(3, 4)) == []  # the tricks set neither


def test_the_example_says_who_would_succeed_as_a_trick_changes_it() -> None:
    """Round 16: "seat 2 reaches 5 tricks, then fails by taking a 6th" went unsaid. A trick
    that changes who would succeed, were the deal to end then, says so after its count; no
    other line does."""
    texts = ["".join(r.text for r in i)
             for i in _example_lines(book("abracadabra-newton", "en")[0])]
    noted = [t for t in texts if "(success if the deal ended now:" in t]
    assert noted and all(re.match(r"Trick \d+: ", t) and " takes it; its tricks: " in t
                         for t in noted)
    # the last trick says none: the deal has ended, and its end says who succeeded (round 41:
    # "if the deal ended now" read after the last trick)
    last = [t for t in texts if re.match(r"Trick \d+: ", t)][-1]
    assert "(success if the deal ended now:" not in last
    assert [t for t in texts if t.startswith("Success:")]


def test_emphasis_keeps_its_spaces_outside_the_asterisks() -> None:
    """Round 16: a Russian note that starts with a space and a dash ("* — месту 4)*") is no
    emphasis in CommonMark: the spaces go outside the asterisks."""
    from rulespec.book.document import em
    from rulespec.book.markdown import md_inline

    assert md_inline((em(" — месту 4)"),)) == " *— месту 4)*"
    assert md_inline((em("(trick 1: "),)) == "*(trick 1:* "
    assert md_inline((em(" "),)) == " "


def test_a_score_table_puts_the_value_most_cards_share_last() -> None:
    """Round 22: "2–7 | 1" and "9–K | 1" on either side of "8 | 10" read as if they
    differed; the cards of the value most share are one row, "any other card", last."""
    md = to_markdown(book("vandatta", "en")[0])
    assert "| 8 | 10 |\n| A | 5 |\n| any other card | 1 |" in md


def test_a_choice_is_said_at_every_turn_it_is_made() -> None:
    """Round 22: draws unmarked after the first read as forced; each later one is said in a
    word, once in its turn."""
    lines = [x for x in to_markdown(book("vandatta", "en")[0]).splitlines()
             if x.startswith("- Turn ")]
    drew = [x for x in lines if "draws →" in x and "8" in x.split(":")[1]]
    assert any("(by choice: play was allowed too)" in x for x in lines)
    turn17 = next(x for x in lines if x.startswith("- Turn 17:"))
    assert turn17.count("*(by choice)*") == 1, turn17
    assert drew


def test_a_right_to_left_markdown_book_isolates_each_card_left_to_right() -> None:
    """Round 23: in Persian text a group "6♦ 6♠" could read turned about; each card is
    isolated left to right (U+2066 ... U+2069) as the figures write them, and only there."""
    fa = to_markdown(book("vandatta", "fa")[0])
    assert "\u2066" + "6♦" + "\u2069 و \u2066" + "6♠" + "\u2069" in fa
    assert re.search("\u2066[^\u2069]+\u2069 \u2066", fa)  # a hand's cards side by side
    assert fa.count("\u2066") == fa.count("\u2069")
    assert "\u2066" not in to_markdown(book("vandatta", "en")[0])


def test_a_decision_names_the_step_of_the_deal_it_is_made_in() -> None:
    """Round 23: "place" and "Naming tricks" read as two things. A decision made in one step
    of the deal, which makes one or two, names that step by its number and title; the
    decisions of a step that makes many (Vändåtta's turns) do not. Rounds 32 and 35: the
    steps, then the same choices in a list of decisions, told each rule twice; a decision
    made in a step of the deal is told inside it, by its name where the step makes more than
    one (the step's title names its one decision: "declare" beside "Exposing" read as a
    program's word); the play is told under Play, which names its step."""
    md = to_markdown(book("abracadabra", "en")[0])
    naming = md.index("4. **Naming tricks.**")
    assert naming < md.index("**Place:**") < md.index("**Name trump:**") < md.index("5. **")
    exposing = md[md.index("5. **Exposing.**"):md.index("6. **")]
    assert "The declarer may turn" in exposing and "**Declare" not in md
    # the name opens its first sentence's line, never a line of its own (round 41)
    assert "**Place:** The declarer lays" in md and not re.search(r"\*\*[^*]+:\*\* *\n", md)
    assert "(step " not in md and "**Play**" not in md
    play = md[md.index("## Play\n"):md.index("## Scoring")]
    assert play.startswith("## Play\n\n- The leader plays any card;")
    assert "(step " not in to_markdown(book("vandatta", "en")[0])


def test_a_decision_named_as_a_term_is_translated_apart() -> None:
    """Rounds 28 to 31: the Russian «заказ» was both the auction's bid and the number of bid
    cards laid. A decision whose name is a term's word has a catalog entry of its own
    (``msgctxt "decision"``), so the auction's decision reads «заявка», the term «заказ»."""
    from rulespec.book.catalogs import spec_template

    found = resolve("abracadabra")
    ids = {(m.id, m.context) for m in spec_template(found.path) if m.context}
    assert ids == {("bid", "decision")}
    md = to_markdown(book("abracadabra", "ru")[0])
    assert "**Заявка:**" in md
    assert "- **заказ**:" in md
    assert "**Bid:**" in to_markdown(book("abracadabra", "en")[0])


def test_a_score_line_names_the_cards_its_sums_add() -> None:
    """Round 42: "face values 13" could not be checked against the bid card that made it.
    Each part a sum makes names the cards it added, a second pack's in angle quotes as the
    example writes them, a card alone without its value again."""
    md = to_markdown(book("abracadabra", "en")[0])
    seats = [line for line in md.splitlines() if line.startswith("- Seat ")]
    faces = [line for line in seats if "face values" in line]
    assert faces and all(re.search(r"face values \d+ \((\d+ \+ )*[\d ]*:? ?‹", line)
                         for line in faces), faces
    assert any(re.search(r"face values \d+ \(‹[^›]+›\)", line) for line in faces), faces
    # a playing card counted for the suit bonus is not quoted
    assert all("suit bonus" not in line or re.search(r"suit bonus \d+ \([^)]*: [^‹)]*\)", line)
               for line in seats), seats


@pytest.mark.parametrize("lang", ["en", "fa", "ru"])
def test_a_second_pack_is_said_among_what_a_table_needs(lang: str) -> None:
    """Rounds 43 to 45: the bid pack's different backs were said only in a word's definition.
    A game with a second pack says, before its table of packs, that two packs with different
    backs are needed; a game of one pack says nothing of it."""
    w = words_for(lang, [resolve("abracadabra").path])
    need = w.word("Two packs are needed, with different backs: the cards to play with, "
                  "and {pack}.", pack="")[:12]
    md = to_markdown(book("abracadabra", lang)[0])
    players = md[md.index("\n## ", 1):md.index("\n|")]
    assert need in players
    assert need not in to_markdown(book("vandatta", lang)[0])


def test_an_arrow_points_the_way_the_text_runs() -> None:
    """Round 50: "کارت می‌کشد → K♦" pointed back at the verb in right-to-left text. A drawn
    card follows its draw with an arrow that points the way the book's language runs."""
    assert " ← " in to_markdown(book("vandatta", "fa")[0])
    assert "→" not in to_markdown(book("vandatta", "fa")[0])
    assert " → " in to_markdown(book("vandatta", "en")[0])


def test_the_draw_arrow_is_said_where_the_example_draws() -> None:
    """Round 53: "→ 8♠" had to be guessed to be the card drawn. An example with a move's
    cards brought to the mover's hand after an arrow says what the arrow means, before its
    lines, in the book's language; one without (the Abracadabra's moves of bid cards, whose
    Russian note has an arrow of its own) does not."""
    van = to_markdown(book("vandatta", "en")[0])
    said = "An arrow, →, gives the cards a move brought to the player's hand."
    assert said in van and van.index(said) < van.index("- Turn 1:")
    assert "Стрелка → показывает" in to_markdown(book("vandatta", "ru")[0])
    assert "پیکانِ ←" in to_markdown(book("vandatta", "fa")[0])
    for lang in ("en", "ru"):
        md = to_markdown(book("abracadabra", lang)[0])
        assert "An arrow" not in md and "Стрелка" not in md
