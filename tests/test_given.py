"""A book's example deal given beside its spec (rulespec.book.given): told when the book is of
the record's table and options, ignored for another, an error naming the file when it does
not replay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulespec.book.facts import book_facts
from rulespec.book.given import EXAMPLE_SUFFIX, example_path, without_notes
from rulespec.errors import RecordError
from rulespec.loading import resolve
from rulespec.records import replay

SEEDS = ["vandatta", "abracadabra", "abracadabra-newton"]


@pytest.mark.parametrize("game", SEEDS)
def test_each_seed_game_gives_an_example_that_replays_and_is_told(game: str) -> None:
    found = resolve(game)
    path = example_path(found.spec)
    assert path is not None and path.exists() and path.name.endswith(EXAMPLE_SUFFIX)
    record = json.loads(path.read_text(encoding="utf-8"))
    code, answer = replay(without_notes(record))
    assert code == 0 and answer["complete"], answer
    ex = book_facts(found.spec).example
    assert ex is not None and ex.given == path.name and ex.ended
    # every event of the record is the deal told, in order
    assert [t.event for t in ex.events] == record["events"][:len(ex.events)]
    assert ex.length == len(record["events"])


def test_a_book_of_other_options_tells_a_deal_of_its_own() -> None:
    spec = resolve("abracadabra-newton").spec
    ex = book_facts(spec, options={"bidding": "ascending_with_pass"}).example
    assert ex is not None and ex.given is None


def _copy(game: str, folder: Path) -> Path:
    found = resolve(game)
    for source in found.spec.sources:
        p = Path(source)
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    return folder / found.path.name


def test_a_given_example_that_does_not_replay_is_an_error_naming_its_file(
        tmp_path: Path) -> None:
    rules = _copy("abracadabra-newton", tmp_path)
    record = json.loads(example_path(resolve("abracadabra-newton").spec)
                        .read_text(encoding="utf-8"))  # type: ignore[union-attr]
    bids = [i for i, e in enumerate(record["events"]) if e.get("action") == "bid"]
    record["events"][bids[0]]["tricks"] = 99  # no such bid
    given = rules.with_suffix(EXAMPLE_SUFFIX)
    given.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError, match=given.name):
        book_facts(resolve(rules).spec)
    # cut short: the deal does not end
    record = json.loads(example_path(resolve("abracadabra-newton").spec)
                        .read_text(encoding="utf-8"))  # type: ignore[union-attr]
    record["events"] = record["events"][:10]
    record.pop("notes", None)  # notes after the tenth event would be an error of their own
    given.write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError, match="ends before the deal does"):
        book_facts(resolve(rules).spec)
    given.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not JSON"):
        book_facts(resolve(rules).spec)


def test_a_given_example_of_another_table_is_not_told(tmp_path: Path) -> None:
    rules = _copy("abracadabra-newton", tmp_path)
    record = json.loads(example_path(resolve("abracadabra-newton").spec)
                        .read_text(encoding="utf-8"))  # type: ignore[union-attr]
    record["players"] = 3
    rules.with_suffix(EXAMPLE_SUFFIX).write_text(json.dumps(record), encoding="utf-8")
    ex = book_facts(resolve(rules).spec).example
    assert ex is not None and ex.given is None


def test_a_spec_whose_example_name_is_too_long_for_the_system_has_none(tmp_path: Path) -> None:
    """A spec's file name near the system's limit of 255 bytes: the example's name beside it,
    longer by its suffix, is one no file can have, so there is none (the fuzzer's find: the
    system's error escaped ``rulespec doc``)."""
    rules = tmp_path / ("x" * 249 + ".rules")
    rules.write_text((Path(__file__).parent / "specs" / "ok" / "called_partner.rules")
                     .read_text(encoding="utf-8"), encoding="utf-8")
    ex = book_facts(resolve(rules).spec).example
    assert ex is not None and ex.given is None


@pytest.mark.parametrize("game", SEEDS)
def test_the_authors_notes_follow_their_events_in_every_language(game: str) -> None:
    """Each note of a given example is told after its event, translated in fa and ru (the
    spec's catalogs hold them: `rulespec doc --check` lists any left in English)."""
    from rulespec.book.i18n import words_for
    from rulespec.book.player import player_book

    found = resolve(game)
    path = example_path(found.spec)
    assert path is not None
    notes = json.loads(path.read_text(encoding="utf-8"))["notes"]
    assert notes
    for lang in ("en", "fa", "ru"):
        words = words_for(lang, [found.path, *map(Path, found.spec.sources)])
        book = player_book(found.spec, words)
        text = " ".join(r.text for b in book.blocks for item in getattr(b, "items", ())
                        for r in item[0])
        for note in notes.values():
            said = words.text(note).rstrip(".")
            assert f"({said})" in text, (lang, said)
        assert not words.missing, (lang, sorted(words.missing)[:3])


def test_a_note_that_follows_no_event_is_an_error(tmp_path: Path) -> None:
    rules = _copy("vandatta", tmp_path)
    record = json.loads(example_path(resolve("vandatta").spec)
                        .read_text(encoding="utf-8"))  # type: ignore[union-attr]
    record["notes"] = {"100000": "Never."}
    rules.with_suffix(EXAMPLE_SUFFIX).write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(RecordError, match="not a text after one of the"):
        book_facts(resolve(rules).spec)


def test_every_hand_is_told_again_as_the_record_leaves_it() -> None:
    """Round 23: the example could be followed only by rebuilding every hand. Every tenth
    turn of a deal whose hands grow, the book tells every hand, and the stock's count where it
    has changed since the deal (rounds 52, 53); the engine, replaying the given record, holds
    exactly those cards then."""
    from rulespec.book.markdown import to_markdown
    from rulespec.book.player import player_book
    from rulespec.records import start

    spec = resolve("vandatta").spec
    md = to_markdown(player_book(spec))
    told = {int(m.group(1)): m.group(2) for m in
            re.finditer(r"^- Hands after turn (\d+): (.*)$", md, re.MULTILINE)}
    assert sorted(told) == [10, 20]
    record = without_notes(json.loads(
        example_path(spec).read_text(encoding="utf-8")))  # type: ignore[union-attr]
    state = start(record)
    turns, seat = 0, None
    for ev in record["events"]:
        if "chance" not in ev and ev["seat"] != seat:
            if turns in told:
                hands = [state.observation(q)["zones"]["hand"][q] for q in range(4)]
                said = [re.findall(r"(?:10|[2-9AKQJ])[♣♦♥♠]", part) for part in
                        re.split(r"Seat \d: ", told[turns])[1:]]
                assert [sorted(h) for h in said] == [
                    sorted(c.replace("T", "10").translate(_SUITS) for c in h) for h in hands]
                assert f"Stock: {len(state.z['stock'])} cards." in told[turns]
                told.pop(turns)
            turns, seat = turns + 1, ev["seat"]
        state.apply(ev)
    assert not told


_SUITS = str.maketrans("CDHS", "♣♦♥♠")
