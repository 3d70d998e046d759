"""A decision's told text (rulespec.lang.told, rulespec.book.said): read by the checker, printed
back by the pretty printer, and said in a book's example as a sentence, by the language's own
plural rules, with a translation that does not read replaced by the English."""

from __future__ import annotations

import gettext
import re

import pytest

from rulespec.book.document import Run
from rulespec.book.i18n import Words, english
from rulespec.book.said import said, told_of
from rulespec.lang.checker import check_text
from rulespec.lang.model import ActionInfo
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty_item
from rulespec.lang.told import Arg, Cases, Count, Text, ToldError, fields_named, parse_told
from rulespec.loading import resolve

LAY = ("{tricks, plural, =0 {lays no card} one {lays its card for trick {tricks}} "
       "other {lays # cards, for tricks {tricks}}}")


def _text(runs: tuple[Run, ...]) -> str:
    return "".join(f"[{r.text}]" if r.kind in ("card", "suit") else r.text for r in runs)


def _card(x: object) -> bool:
    return isinstance(x, str) and len(x) == 2 and x[1] in "CDHS"


def test_a_told_text_reads_as_its_parts() -> None:
    parts = parse_told("lays {n, plural, =0 {none} other {# of {cards}}} and {open, select, "
                       "true {shows} false {hides}}")
    assert parts[0] == Text("lays ")
    assert isinstance(parts[1], Cases) and parts[1].kind == "plural"
    assert parts[1].cases[1] == ("other", (Count(), Text(" of "), Arg("cards")))
    assert fields_named(parts) == [("n", "plural"), ("cards", "value"), ("open", "select")]
    # '#' is the count only inside a plural case
    assert parse_told("plays #1") == (Text("plays #1"),)


@pytest.mark.parametrize(("text", "where"), [
    ("bids {", 6), ("bids {n", 7), ("bids {n, count, x {y}}", 9), ("bids }", 5),
    ("{n, select, a {b}}", 17), ("{n, plural, lots {b} other {c}}", 12),
    ("{n, plural, one {a} one {b} other {c}}", 20), ("{n, select, true {a", 19),
])
def test_a_told_text_that_does_not_read_says_where(text: str, where: int) -> None:
    with pytest.raises(ToldError) as info:
        parse_told(text)
    assert info.value.offset == where


def test_the_pretty_printer_writes_a_told_text_back() -> None:
    found = resolve("abracadabra")
    text = found.path.read_text(encoding="utf-8")
    items = parse(text, str(found.path)).items
    printed = "\n".join(pretty_item(i) for i in items)
    assert 'told "bids {tricks}"' in printed
    again = parse(printed, "again").items
    told = [n for i in again for n in re.findall(r'told "[^"]*"', pretty_item(i))]
    assert told == re.findall(r'told "[^"]*"', printed) and len(told) >= 8


def _words(lang: str, spec: dict[str, str]) -> Words:
    """Words of ``lang`` whose spec catalog translates ``spec``."""
    cat = gettext.NullTranslations()
    table = dict(spec)
    cat.gettext = lambda m: table.get(m, m)  # type: ignore[method-assign]
    return Words(lang, cat, gettext.NullTranslations(), known_spec=frozenset(spec))


@pytest.mark.parametrize(("tricks", "out"), [
    ([], "lays no card"), ([3], "lays its card for trick 3"),
    ([1, 2], "lays 2 cards, for tricks 1 and 2"),
    ([1, 2, 13], "lays 3 cards, for tricks 1, 2 and 13"),
])
def test_a_move_is_said_by_its_count(tricks: list[int], out: str) -> None:
    ev = {"seat": 0, "action": "place", "tricks": tricks}
    assert _text(said(LAY, ev, english(), _card)) == out


def test_cards_and_suits_are_runs_and_a_yes_or_no_selects() -> None:
    told = "plays {card} on {suit} and {open, select, true {shows} other {hides}} it"
    ev = {"seat": 1, "action": "play", "card": "QH", "suit": "S", "open": False}
    assert _text(said(told, ev, english(), _card)) == "plays [QH] on [S] and hides it"


def test_russian_counts_by_its_own_plural_rules() -> None:
    """CLDR's Russian cases through Babel: 1 and 21 one, 2 to 4 few, 5 to 20 many."""
    told = "{n, plural, one {# card} other {# cards}}"
    ru = ("{n, plural, one {# карту} few {# карты} many {# карт} other {# карты}}")
    w = _words("ru", {told: ru})
    got = [_text(said(told, {"n": n}, w, _card)) for n in (1, 2, 5, 21, 11)]
    assert got == ["1 карту", "2 карты", "5 карт", "21 карту", "11 карт"]
    assert not w.missing


@pytest.mark.parametrize("bad", ["bids {n", "bids {stake}"])
def test_a_translation_that_does_not_read_gives_way_to_the_english(bad: str) -> None:
    """A translation that does not parse, or names a field the English does not, is not used:
    the English is, and the text is listed as missing (``rulespec doc --check``)."""
    w = _words("ru", {"bids {n}": bad})
    assert _text(said("bids {n}", {"n": 5}, w, _card)) == "bids 5"
    assert w.missing == {"bids {n}"}


def test_the_told_text_is_the_alternative_with_the_moves_fields() -> None:
    span = parse("game g title \"G\"", "g").items[0].span
    actions = [ActionInfo("bid", ("tricks",), (), None, (), span, "bids {tricks}"),
               ActionInfo("bid", ("tricks", "stake"), (), None, (), span,
                          "bids {tricks}, staking {stake}"),
               ActionInfo("play", ("card",), (), None, (), span)]
    assert told_of(actions, {"action": "bid", "seat": 0, "tricks": 2, "stake": 1}) == \
        "bids {tricks}, staking {stake}"
    assert told_of(actions, {"action": "bid", "seat": 0, "tricks": 2}) == "bids {tricks}"
    assert told_of(actions, {"action": "play", "seat": 0, "card": "AS"}) is None


def test_the_seed_books_say_every_move_before_play_as_a_sentence() -> None:
    """Round 30: "place, tricks: 1 2 3 4 5" and "declare, expose: 1, pile: no" read as a
    machine's log; each is a sentence with the seat for subject, in every language."""
    from tests.test_player_book import _example_lines, book

    for game in ("abracadabra", "abracadabra-newton"):
        for lang, turn in (("en", r"Turn \d+: seat \d "), ("ru", r"№ \d+: место \d "),
                           ("fa", r"نوبت [۰-۹]+: جایگاه [۰-۹]+ ")):
            b, missing = book(game, lang)
            lines = ["".join(r.text for r in i) for i in _example_lines(b)]
            turns = [t for t in lines if re.match(turn, t)]
            assert len(turns) >= 5, (game, lang)
            assert not [t for t in lines if re.search(r": (bid|place|declare|show)\b", t)]
            assert not {m for m in missing if "{" in m}, (game, lang)


def test_the_checker_reads_a_told_text_at_its_place() -> None:
    spec = resolve("abracadabra").path.read_text(encoding="utf-8")
    bad = spec.replace('told "bids {tricks}"', 'told "bids {trick}"')
    with pytest.raises(Exception) as info:
        check_text(bad, "abracadabra.rules")
    [d] = info.value.diagnostics  # type: ignore[attr-defined]
    assert "names {trick}, which is not one of its fields" in d.message
    line = bad.splitlines()[d.span.line - 1]
    assert line[d.span.column - 1:].startswith('"bids {trick}"')
