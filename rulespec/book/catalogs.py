"""Writing the message catalogs the books are translated with (Babel): extracting a spec's prose
and the book's own, updating a language's ``.po`` file, compiling it to the ``.mo`` file the
standard library reads (:mod:`rulespec.book.i18n`), and listing what is left to translate.

Babel is a translator's and a build's tool: ``rulespec doc`` itself reads only compiled catalogs.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Iterable
from pathlib import Path

import attrs
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from rulespec.book.diagram import phase_diagram
from rulespec.book.example import table_figure
from rulespec.book.facts import book_facts
from rulespec.book.given import EXAMPLE_SUFFIX, example_notes, read_example
from rulespec.book.i18n import DECISION, CatalogError, prose_catalog_path, spec_catalog_path
from rulespec.book.reading import scoring_parts
from rulespec.files import exists
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec
from rulespec.lang.parser import parse, texts

__all__ = ["PROSE_KEYWORDS", "CatalogState", "compile_catalog", "extract_rules", "names",
           "prose_po", "prose_template", "refresh", "spec_po", "spec_template", "state_of",
           "update_catalog"]

#: the book's calls whose first argument is a message of rulespec's own catalog
PROSE_KEYWORDS = {"say": None, "word": None, "N_": None, "words": None, "w": None, "t": None}
#: the modules whose prose the catalog holds
_PROSE_MODULES = ("player.py", "player_example.py", "example_end.py", "variations.py",
                  "grids.py", "counts.py", "diagram.py", "svg.py", "labels.py", "layout.py",
                  "example.py", "tricks_told.py", "decisions.py")
_BOOK = Path(__file__).resolve().parent


def spec_template(spec_file: Path) -> Catalog:
    """A template catalog of a spec's prose (every message, none translated), and of the names
    a book shows in words: its zones', its decisions' and their choices' (``left_down`` as
    "left down"), which a translated book draws in its figures and names in its tables."""
    cat = Catalog(project=spec_file.stem, fuzzy=False)
    name = spec_file.name
    text = spec_file.read_text(encoding="utf-8")
    for message, line in texts(text, str(spec_file)):
        if message.strip():
            cat.add(message, locations=[(name, line)])
    for word, line in names(text, str(spec_file)):
        if word not in cat:
            cat.add(word, locations=[(name, line)], auto_comments=["a name of the spec, in words"])
    # a decision named by a term's word, as a decision: the two may be translated apart
    for word, line in decisions_named_as_terms(text, str(spec_file)):
        if cat.get(word, context=DECISION) is None:
            cat.add(word, locations=[(name, line)], context=DECISION,
                    auto_comments=["a decision's name, apart from the term of the same word"])
    # the notes of the example deal given beside it, each after its event
    given = spec_file.with_suffix(EXAMPLE_SUFFIX)
    if exists(given):
        for k, note in sorted(example_notes(read_example(given), given).items()):
            if note not in cat:
                cat.add(note, locations=[(given.name, k)],
                        auto_comments=["a note of the example deal, after event " + str(k)])
    return cat


def names(text: str, source_name: str) -> list[tuple[str, int]]:
    """The names of a spec's zones, decisions and their choices, in words, with their lines,
    in order."""
    out: list[tuple[str, int]] = []
    items = parse(text, source_name).items
    for node in walk.descendants(items):
        if isinstance(node, ast.ZoneDecl):
            out.append((node.name.replace("_", " "), node.span.line))
        elif isinstance(node, ast.Alternative):
            out.append((node.action.replace("_", " "), node.span.line))
            # a decision's choices by name, as the example deal says them ("pile: yes")
            out.extend((f.name.replace("_", " "), node.span.line) for f in node.fields)
    # the parts of a score, by name, as the example's score lines label them
    out.extend(scoring_parts(items))
    return out


def decisions_named_as_terms(text: str, source_name: str) -> list[tuple[str, int]]:
    """The decisions whose name in words is a term's word (``bid``), with their lines."""
    items = parse(text, source_name).items
    terms = {n.word for n in walk.descendants(items) if isinstance(n, ast.TermDecl)}
    out: dict[str, int] = {}
    for node in walk.descendants(items):
        if isinstance(node, ast.Alternative) and node.action.replace("_", " ") in terms:
            out.setdefault(node.action.replace("_", " "), node.span.line)
    return list(out.items())


def prose_template(games: Iterable[CheckedSpec] = ()) -> Catalog:
    """A template catalog of the book's own prose, extracted from the book's modules, with the
    words the figures of ``games`` draw that are not their specs' texts (a template the code
    picks at run time, a zone said as "the stock": words put together from a spec's names)."""
    cat = Catalog(project="rulespec", fuzzy=False)
    for spec in games:
        drawn: list[str] = []
        phase_diagram(spec, functools.partial(_recorded, drawn))
        table_figure(spec, book_facts(spec), functools.partial(_recorded, drawn))
        own = {t for f in spec.sources for t, _ in [*texts(spec.sources[f], f),
                                                   *names(spec.sources[f], f)]}
        for m in drawn:
            if m.strip() and m not in own and m not in cat:
                cat.add(m, locations=[("figures", 0)])
    for module in _PROSE_MODULES:
        path = _BOOK / module
        if not path.exists():
            continue
        for line, message, comments, _ in extract_from_file(
                "python", str(path), keywords=PROSE_KEYWORDS, comment_tags=("TRANSLATORS:",)):
            # a piece of a phrase put together in code ("the " + a name) is not a message:
            # the whole phrase is, recorded from the diagrams
            if isinstance(message, str) and message.strip() and not message.endswith(" "):
                cat.add(message, locations=[(module, line)], auto_comments=comments)
    return cat


def _recorded(into: list[str], message: str) -> str:
    into.append(message)
    return message


def update_catalog(template: Catalog, po: Path, lang: str) -> Path:
    """Merge a template into a language's ``.po`` file (created when missing): new messages come
    in untranslated, changed ones fuzzy with their old translation, gone ones are dropped."""
    if po.exists():
        with po.open("rb") as f:
            cat = read_po(f, locale=lang)
        cat.update(template, update_header_comment=False)
        cat.obsolete.clear()
    else:
        cat = Catalog(locale=lang, project=template.project, fuzzy=False)
        cat.update(template)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=False, omit_header=False)
    po.write_bytes(buf.getvalue())
    return po


def compile_catalog(po: Path) -> Path:
    """Compile a ``.po`` file to the ``.mo`` beside it; fuzzy translations are left out."""
    try:
        with po.open("rb") as f:
            cat = read_po(f)
    except (OSError, ValueError) as e:
        raise CatalogError(f"{po}: cannot read this catalog ({e})",
                           hint="fix the .po file (msgfmt --check shows where)") from None
    mo = po.with_suffix(".mo")
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    mo.write_bytes(buf.getvalue())
    return mo


@attrs.frozen
class CatalogState:
    """How far a language's catalog is: messages the template has that it does not translate."""

    po: Path
    total: int
    untranslated: tuple[str, ...]


def state_of(template: Catalog, po: Path, lang: str) -> CatalogState:
    """What is left to translate in ``po`` for this template (everything, when it is missing)."""
    done: dict[str, str] = {}
    if po.exists():
        with po.open("rb") as f:
            for m in read_po(f, locale=lang):
                if m.id and isinstance(m.id, str) and m.string and not m.fuzzy:
                    done[m.id] = str(m.string)
    ids = [m.id for m in template if m.id and isinstance(m.id, str)]
    return CatalogState(po, len(ids), tuple(i for i in ids if i not in done))


def spec_po(spec_file: Path, lang: str) -> Path:
    """The ``.po`` file of a spec in a language."""
    return spec_catalog_path(spec_file, lang, compiled=False)


def prose_po(lang: str) -> Path:
    """The ``.po`` file of the book's prose in a language."""
    return prose_catalog_path(lang, compiled=False)


def extract_rules(fileobj: io.BufferedIOBase, keywords: Iterable[str], comment_tags: Iterable[str],
                  options: dict[str, str]) -> Iterable[tuple[int, str, str, list[str]]]:
    """A Babel extractor for ``.rules`` files (``pybabel extract``, ``[rulespec: **.rules]``):
    every piece of a spec's prose, as :func:`spec_template` takes it."""
    text = fileobj.read().decode("utf-8")
    for message, line in texts(text, options.get("source", "<spec>")):
        if message.strip():
            yield line, "", message, []


def refresh(spec_file: Path, action: str, langs: Iterable[str]) -> list[Path]:
    """``rulespec catalog``: bring a spec's catalogs up to its texts (``update``: new texts
    untranslated, changed ones fuzzy) or compile them (``compile``); the files written."""
    out = []
    for lang in langs:
        po = spec_po(spec_file, lang)
        if action == "update":
            out.append(update_catalog(spec_template(spec_file), po, lang))
        elif po.exists():
            out.append(compile_catalog(po))
    return out
