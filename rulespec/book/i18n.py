"""The words of a book in one language: gettext catalogs, read with the standard library.

Two kinds of text reach a book. The spec's own prose (titles, docstrings, option values' texts,
terms, step names) is translated by the spec's catalogs, kept beside each spec as
``game.<lang>.po`` and compiled to ``game.<lang>.mo`` when the package is built (``hatch_build.py``)
or by ``rulespec catalog compile``. The book's generated prose ("{n} cards each") is translated by
rulespec's own catalog, ``rulespec/book/locale/<lang>.po``. English is the source language: an
English book reads no catalog.

A catalog is untrusted text like a spec's strings (docs/security.md): a translation becomes runs of
plain text that every renderer escapes, a placeholder a translation names but its English does not
is refused (it could not be filled in, and must not reach the page as a format string), and a
missing translation falls back to English and is listed (:attr:`Words.missing`), for ``rulespec doc
--check``.
"""

from __future__ import annotations

import gettext
import re
import string
import struct
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from rulespec.book.document import Inline, Run, inline
from rulespec.errors import RulespecError
from rulespec.files import exists

__all__ = ["LANGUAGES", "CatalogError", "Words", "english", "prose_catalog_path",
           "spec_catalog_path", "words_for"]

#: the languages rulespec's own prose is translated into; English is the source language
LANGUAGES = ("en", "fa", "ru")
#: the context of a decision's name whose word is also a term's (``msgctxt "decision"``): the
#: two may be translated apart (Russian «заявка», a bid in the auction, and «заказ», the term)
DECISION = "decision"

_LOCALE = Path(__file__).resolve().parent / "locale"
_FIELD = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
#: the digits of the languages that do not write 0-9
_DIGITS = {"fa": str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")}
#: the comma and the semicolon of the languages that do not write "," and ";"
#: the marks a language writes its own way: Persian's comma and semicolon, and an arrow that
#: points the way its text runs (round 50: "→" in right-to-left text pointed back at the verb)
_MARKS = {"fa": str.maketrans(",;→", "،؛←")}


class CatalogError(RulespecError):
    """A catalog that cannot be read: missing, not compiled, stale or broken."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(f"{message}\n  hint: {hint}")
        self.message = message
        self.hint = hint


def spec_catalog_path(spec_file: Path, lang: str, compiled: bool = True) -> Path:
    """Where the catalog of a spec lies: ``game.rules`` -> ``game.fa.mo`` (or ``.po``)."""
    return spec_file.with_name(f"{spec_file.stem}.{lang}.{'mo' if compiled else 'po'}")


def prose_catalog_path(lang: str, compiled: bool = True) -> Path:
    """Where rulespec's own catalog for the book's prose lies."""
    return _LOCALE / f"{lang}.{'mo' if compiled else 'po'}"


def _load(po: Path, mo: Path) -> gettext.NullTranslations | None:
    """A compiled catalog, or None where none was written; refuses one older than its source."""
    if not exists(mo):
        if exists(po):
            raise CatalogError(f"{po}: this catalog is not compiled",
                               hint="run `rulespec catalog compile` (or reinstall the package)")
        return None
    if exists(po) and po.stat().st_mtime > mo.stat().st_mtime + 1:
        raise CatalogError(f"{mo}: this compiled catalog is older than {po.name}",
                           hint="run `rulespec catalog compile` (or reinstall the package)")
    try:
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    except (OSError, UnicodeDecodeError) as e:
        raise CatalogError(f"{mo}: not a readable catalog ({e})",
                           hint="compile it again from its .po file") from None


def _chain(catalogs: Iterable[gettext.NullTranslations | None]) -> gettext.NullTranslations:
    """One catalog of several: each asks the next for what it does not translate."""
    found = [c for c in catalogs if c is not None]
    last = gettext.NullTranslations()
    for c in reversed(found):
        c.add_fallback(last)
        last = c
    return last


@attrs.define
class Words:
    """The words of one book: :meth:`text` for the spec's prose, :meth:`say` for the book's own.

    ``missing`` collects every message looked up that no catalog translates (English: none);
    ``known`` holds the messages the book's catalog does translate (a translation may be the
    English itself, ``{title}: {label}``)."""

    lang: str
    spec: gettext.NullTranslations
    prose: gettext.NullTranslations
    missing: set[str] = attrs.field(factory=set)
    known: frozenset[str] = frozenset()
    #: the messages the spec's catalogs translate (a translation may be the English itself)
    known_spec: frozenset[str] = frozenset()

    def _look(self, chain: gettext.NullTranslations, message: str, known: frozenset[str]) -> str:
        if self.lang == "en" or not message.strip():
            return message
        out = chain.gettext(message)
        if out == message and message not in known:
            self.missing.add(message)
        return out

    def text(self, message: str) -> str:
        """A text of the spec in the book's language."""
        return self._look(self.spec, message, self.known_spec)

    def any(self, message: str) -> str:
        """A figure's words: a text of the spec, else one of the book's own (a figure draws
        both through one function); listed as missing when neither catalog has it."""
        if self.lang == "en" or not message.strip():
            return message
        out = self.spec.gettext(message)
        return out if out != message or message in self.known_spec else \
            self.digits(self._look(self.prose, message, self.known))

    def decision(self, name: str) -> str:
        """A decision's name in words: its translation as a decision (:data:`DECISION`), where
        a catalog gives one apart from a term of the same word, else as :meth:`any` has it."""
        if self.lang == "en":
            return name
        out = self.spec.pgettext(DECISION, name)
        return out if out != name else self.any(name)

    def marks(self, text: str) -> str:
        """Commas, semicolons and arrows as the book's language writes them (Persian ``،``
        ``؛`` ``←``)."""
        table = _MARKS.get(self.lang)
        return text.translate(table) if table else text

    def digits(self, text: str) -> str:
        """Numbers in the digits of the book's language (Persian writes ۰۱۲…۹)."""
        table = _DIGITS.get(self.lang)
        return text.translate(table) if table else text

    def word(self, template: str, **values: object) -> str:
        """The book's own words as plain text, placeholders filled with plain values."""
        out = self._template(template, values)
        return out.format(**{k: self.digits(str(v)) for k, v in values.items()})

    def say(self, template: str, **parts: str | Run | Inline) -> Inline:
        """The book's own words as runs: ``{name}`` placeholders take text, a run (a card, a
        code) or runs, so that a translation may put them in its own order."""
        out = self._template(template, parts)
        runs: list[Run] = []
        at = 0
        for m in _FIELD.finditer(out):
            runs.extend(inline(out[at:m.start()]))
            value = parts[m.group(1)]
            if isinstance(value, str):
                value = self.digits(value)
            runs.extend(inline(value) if isinstance(value, (str, Run)) else value)
            at = m.end()
        runs.extend(inline(out[at:]))
        return tuple(runs)

    def _template(self, template: str, values: Mapping[str, object]) -> str:
        out = self._look(self.prose, template, self.known)
        wanted = set(_FIELD.findall(template))
        named = set(_FIELD.findall(out))
        # a translation may drop a placeholder but never invent one; braces outside placeholders
        # are taken literally (format would choke on them)
        if not named <= wanted or not wanted <= set(values) or _stray_braces(out):
            out = template
            if not wanted <= set(values):
                raise ValueError(f"placeholders {sorted(wanted - set(values))} not given")
        return out


def _stray_braces(text: str) -> bool:
    try:
        return any(field is not None and not _FIELD.fullmatch("{" + field + "}")
                   for _, field, _, _ in string.Formatter().parse(text))
    except ValueError:
        return True


def english() -> Words:
    """The words of an English book: no catalog."""
    null = _chain([])
    return Words("en", null, null)


def words_for(lang: str, spec_files: Iterable[Path]) -> Words:
    """The words of a book in ``lang``, from the catalogs beside the spec's files (the game's own
    first, then those of the modules it imports) and rulespec's catalog for the prose.

    Raises CatalogError for an unknown language or a catalog that is not compiled or is stale."""
    if lang not in LANGUAGES:
        raise CatalogError(f"no book language {lang!r}",
                           hint=f"the languages are {', '.join(LANGUAGES)}")
    if lang == "en":
        return english()
    files = [(spec_catalog_path(f, lang, False), spec_catalog_path(f, lang))
             for f in dict.fromkeys(spec_files)]
    files.append((prose_catalog_path(lang, False), prose_catalog_path(lang)))
    loaded = [_load(po, mo) for po, mo in files]
    known = [frozenset(_translated(mo)) if exists(mo) else frozenset() for _, mo in files]
    return Words(lang, _chain(loaded[:-1]), _chain(loaded[-1:]), known=known[-1],
                 known_spec=frozenset().union(*known[:-1]))


def _translated(mo: Path) -> list[str]:
    """The messages a compiled catalog translates (GNU .mo format: a table of original strings,
    each a length and an offset; the header, the empty message, left out)."""
    data = mo.read_bytes()
    order = "<" if data[:4] == b"\xde\x12\x04\x95" else ">"
    try:
        count, originals = struct.unpack(order + "4x4xII", data[:16])
        out = []
        for i in range(count):
            length, at = struct.unpack(order + "II", data[originals + 8 * i:originals + 8 * i + 8])
            text = data[at:at + length].decode("utf-8")
            if text:
                out.append(text.split("\x04")[-1].split("\x00")[0])
    except (struct.error, UnicodeDecodeError) as e:
        raise CatalogError(f"{mo}: not a readable catalog ({e})",
                           hint="compile it again from its .po file") from None
    return out
