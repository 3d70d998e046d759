"""A book's example deal given beside its spec: ``GAME.example.json`` next to ``GAME.rules``, a
record (docs/records.md) of one deal whose choices a person made as a thoughtful player
would, with an optional ``notes`` object of the author's sentences, each after an event,
saying why (translated through the spec's catalogs like its other texts). Random play is
honest but teaches nothing (readers' rounds 3 to 16: a declarer bidding 13 on a weak hand,
showing eight cards that only cost chips); a game's author may give the deal a player learns
from, and the book tells it with the same notes as any other.

The record is read only for the book whose table and options are the record's; it must
replay from the table's first state to the end of its first deal, each event legal, or the
book is not written (a given example that does not replay is a fault of the spec's folder,
said as one). Nothing here plays: :mod:`rulespec.book.facts` applies the events and works
out what each did.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulespec.engine import CHANCE, State
from rulespec.engine.events import Event, canonical_key
from rulespec.errors import IllegalActionError, RecordError, RulespecError
from rulespec.files import exists, plain_or_absent, read_bounded
from rulespec.lang.model import CheckedSpec
from rulespec.records import FORMAT

__all__ = ["EXAMPLE_SUFFIX", "Given", "example_notes", "example_path", "given_example",
           "read_example", "without_notes"]

#: the file beside a spec that gives its book's example deal
EXAMPLE_SUFFIX = ".example.json"
#: the largest given example read (a deal's record is a few kilobytes)
_LIMIT = 1 << 20


def example_path(spec: CheckedSpec) -> Path | None:
    """Where ``spec``'s given example would be: beside its own file (the first of its
    sources), or None for a spec read from no file."""
    first = next(iter(spec.sources), None)
    if first is None or first.startswith("<"):
        return None
    return Path(first).with_suffix(EXAMPLE_SUFFIX)


class Given:
    """A given example's events, handed out one by one as the deal is played, and its notes:
    a sentence of the author's after an event (by its index among the events), saying why
    a player chose as they did, which no rule of the spec can say."""

    def __init__(self, path: Path, events: Sequence[Event],
                 notes: Mapping[int, str] | None = None) -> None:
        self.path = path
        self.events = events
        self.notes = dict(notes or {})
        self.i = 0

    def next(self, st: State) -> tuple[Event, int | None, bool]:
        """The next event, and at a decision its index among the legal events (as
        :func:`rulespec.book.choosing.draw` gives them); the third value is always False (no
        move was made for the player)."""
        if self.i >= len(self.events):
            raise RecordError(f"{self.path.name}: the record ends before the deal does "
                              f"(after {self.i} events)")
        ev = self.events[self.i]
        self.i += 1
        if st.to_move == CHANCE:
            return ev, None, False
        key = canonical_key(ev)
        for k, legal in enumerate(st.legal_actions()):
            if canonical_key(legal) == key:
                return legal, k, False
        raise RecordError(f"{self.path.name}: event {self.i - 1} ({key}) is not legal at "
                          f"that point of the deal")


    def apply(self, st: State, ev: Event, k: int | None) -> None:
        """Apply the event :meth:`next` gave, an error of it said as the file's."""
        try:
            if k is None:
                st.apply(ev)
            else:
                st.apply_index(k)
        except (IllegalActionError, RecordError) as e:
            raise RecordError(f"{self.path.name}: event {self.i - 1}: {e}") from None


def given_example(spec: CheckedSpec, start: State, options: Mapping[str, object]
                  ) -> Given | None:
    """The example given beside ``spec`` for the table ``start`` is the first state of, at
    the book's ``options``; None where there is none, or where it is of another table or other
    options (a book of a variation tells a deal of its own). A record that cannot be read is
    an error naming the file."""
    path = example_path(spec)
    # exists(): a name the system cannot hold (the example's suffix is longer than the
    # spec's) has no example
    if path is None or not exists(path):
        return None
    record = read_example(path)
    notes = example_notes(record, path)
    game = start.game
    if record.get("players") != game.players or record.get("dealer", 0) != game.dealer:
        return None
    try:
        theirs = spec.check_options(record.get("options") or {})
    except RulespecError as e:
        raise RecordError(f"{path}: {e}") from None
    if dict(theirs) != dict(options):
        return None
    return Given(path, record["events"], notes)


def read_example(path: Path) -> dict[str, Any]:
    """The given example at ``path``, read as a record is: a plain file of at most 1 MiB,
    JSON, with the record's format and a list of events; anything else is an error naming
    the file. (The book and the catalogs that collect its notes both read it so.)"""
    if not plain_or_absent(path):
        raise RecordError(f"{path}: the given example is not a plain file")
    try:
        record = json.loads(read_bounded(path, _LIMIT, "example record"))
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"{path}: the given example is not JSON ({e})") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT \
            or not isinstance(record.get("events"), list):
        raise RecordError(f"{path}: the given example is not a {FORMAT} record")
    return record


def example_notes(record: Mapping[str, object], path: Path) -> dict[int, str]:
    """A given example's notes (``"notes": {"12": "Seat 4 leads the Joker: ..."}``, each keyed
    by the index of the event it follows), checked: a key that is not an event's index or a
    note that is not text is an error naming the file."""
    notes = record.get("notes", {})
    events = record.get("events")
    n = len(events) if isinstance(events, list) else 0
    if not isinstance(notes, dict):
        raise RecordError(f"{path}: 'notes' is an object of event indices and texts")
    out: dict[int, str] = {}
    for k, text in notes.items():
        if not (isinstance(k, str) and k.isdigit() and int(k) < n and isinstance(text, str)
                and text.strip()):
            raise RecordError(f"{path}: the note {k!r} is not a text after one of the "
                              f"{n} events")
        out[int(k)] = text
    return out


def without_notes(record: Mapping[str, object]) -> dict[str, object]:
    """A given example as the record it is, its notes left out (``rulespec replay`` reads
    the rest)."""
    return {k: v for k, v in record.items() if k != "notes"}

