"""A decision's ``told`` text: how a book's example deal says a move of it, as a sentence.

``bid(tricks = n) for n in ... "Bid a number of tricks..." told "bids {tricks}"`` makes the
example say "seat 2 bids 5" where it would say "bid 5". The text is the predicate of a sentence
whose subject (the seat) the book writes, and it is a small part of ICU MessageFormat, the
notation translators already know from Android, ICU and most web stacks:

- ``{field}``: the move's choice, as the book writes a value (a card, a suit, a number, a list
  "1, 2 and 3");
- ``{field, select, true {...} false {...} other {...}}``: the text of the case the value
  names (a yes/no is ``true`` or ``false``; an enumeration's value by its name);
- ``{field, plural, =0 {...} one {...} other {...}}``: the text of the count's case, by the
  language's own plural rules (CLDR: Russian has ``few`` and ``many``); the count is the
  number itself or a list's length, and ``#`` in the case is that count.

An apostrophe is a letter, not ICU's quote: a told text may not hold a brace of its own. The
checker reads the text (:func:`parse_told`) so that a wrong field is an error at the spec's
line, and a translation is read the same way, falling back to the English where it does not
parse or names another field.
"""

from __future__ import annotations

import re

from attrs import frozen

#: the plural categories of CLDR, which a ``plural`` case may name
PLURAL_CASES = frozenset({"zero", "one", "two", "few", "many", "other"})


@frozen
class Text:
    """Words as written."""

    text: str


@frozen
class Arg:
    """``{field}``: the choice's value."""

    name: str


@frozen
class Count:
    """``#`` inside a plural case: the count."""


@frozen
class Cases:
    """``{field, select|plural, key {...} ...}``: the text of the case the value names."""

    name: str
    kind: str  # select | plural
    cases: tuple[tuple[str, tuple[Part, ...]], ...]


Part = Text | Arg | Count | Cases


class ToldError(ValueError):
    """A told text that does not read: ``offset`` is where, in the text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message, self.offset = message, offset


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_KEY = re.compile(r"\s*(=\d+|[A-Za-z_][A-Za-z0-9_]*)\s*")


def parse_told(text: str) -> tuple[Part, ...]:
    """The parts of a told text. Raises ToldError where it does not read."""
    parts, at = _Reader(text).message(0, False)
    if at != len(text):
        raise ToldError("a '}' closes nothing", at)
    return parts


def fields_named(parts: tuple[Part, ...]) -> list[tuple[str, str]]:
    """Each field the parts name, with how (``value``, ``select`` or ``plural``), in order."""
    out: list[tuple[str, str]] = []
    for p in parts:
        if isinstance(p, Arg):
            out.append((p.name, "value"))
        elif isinstance(p, Cases):
            out.append((p.name, p.kind))
            for _, sub in p.cases:
                out.extend(fields_named(sub))
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text

    def message(self, at: int, in_plural: bool) -> tuple[tuple[Part, ...], int]:
        """Parts from ``at`` up to an unmatched ``}`` or the end."""
        text, parts, start = self.text, list[Part](), at
        while at < len(text) and text[at] != "}":
            c = text[at]
            if c == "{" or c == "#" and in_plural:
                if at > start:
                    parts.append(Text(text[start:at]))
                if c == "#":
                    parts.append(Count())
                    at += 1
                else:
                    part, at = self.argument(at + 1, in_plural)
                    parts.append(part)
                start = at
            else:
                at += 1
        if at > start:
            parts.append(Text(text[start:at]))
        return tuple(parts), at

    def argument(self, at: int, in_plural: bool) -> tuple[Part, int]:
        """After a ``{``: a field alone, or its cases; returns the part and where it ends."""
        m = _NAME.match(self.text, at)
        if m is None:
            raise ToldError("a '{' must be followed by the name of one of the decision's "
                            "fields", at)
        name, at = m.group(1), m.end()
        if self.text.startswith("}", at):
            return Arg(name), at + 1
        if not self.text.startswith(",", at):
            raise ToldError(f"after {{{name}, expected '}}' or ', select' or ', plural'", at)
        m = _NAME.match(self.text, at + 1)
        if m is None or m.group(1) not in ("select", "plural"):
            raise ToldError("expected 'select' or 'plural' after the field's comma",
                            at + 1 if m is None else m.start(1))
        kind, at = m.group(1), m.end()
        if not self.text.startswith(",", at):
            raise ToldError(f"expected ',' and the cases after '{kind}'", at)
        return self.cases(name, kind, at + 1, in_plural)

    def cases(self, name: str, kind: str, at: int, in_plural: bool) -> tuple[Part, int]:
        out: list[tuple[str, tuple[Part, ...]]] = []
        while True:
            m = _KEY.match(self.text, at)
            if m is None:
                if self.text.startswith("}", at) and out:
                    break
                raise ToldError("expected a case's key (true, false, other, a value's name; "
                                "for plural =N or one, few, many, other)", at)
            key, at = m.group(1), m.end()
            if kind == "plural" and not key.startswith("=") and key not in PLURAL_CASES:
                raise ToldError(f"{key!r} is not a plural case: use =N or one of "
                                f"{', '.join(sorted(PLURAL_CASES))}", m.start(1))
            if any(k == key for k, _ in out):
                raise ToldError(f"the case {key!r} is given twice", m.start(1))
            if not self.text.startswith("{", at):
                raise ToldError(f"expected '{{' and the text of the case {key!r}", at)
            sub, at = self.message(at + 1, kind == "plural" or in_plural)
            if not self.text.startswith("}", at):
                raise ToldError(f"the text of the case {key!r} is not closed with '}}'", at)
            out.append((key, sub))
            at += 1
            while at < len(self.text) and self.text[at].isspace():
                at += 1
        keys = {k for k, _ in out}
        if "other" not in keys and not (kind == "select" and keys == {"true", "false"}):
            raise ToldError(f"a {kind} needs an 'other' case (a yes/no may give 'true' and "
                            "'false' instead)", at)
        return Cases(name, kind, tuple(out)), at + 1

