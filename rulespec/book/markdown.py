"""The rulebook as one Markdown page (CommonMark with tables): every piece of the spec's text
made inert, the figures linked as files beside the page, and the spec clauses of each section
listed at the end.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterable, Sequence

from rulespec.book.document import (
    CARD_IN_TEXT,
    Book,
    Bullets,
    Code,
    Figure,
    Heading,
    Inline,
    Paragraph,
    Table,
    card_text,
    suit_text,
)

__all__ = ["figure_files", "md_inline", "to_markdown"]

_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#~])")


#: every character at which some reader of Markdown ends a line (CommonMark: LF, CR; others:
#: U+2028, U+2029, NEL, a form feed), and the other control characters: inside one line of
#: the page, each is written as a space, so that spec text cannot end the code span, table
#: cell or heading it stands in and start raw HTML on a line of its own
_MD_BREAKS = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
#: the same inside a code block, whose lines end at LF
_MD_CODE_BREAKS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(text: str) -> str:
    return _MD_BREAKS.sub(" ", text)


def _md_text(text: str) -> str:
    """Plain text made inert in Markdown: its markup characters escaped, line breaks and
    control characters as spaces."""
    return _MD_SPECIAL.sub(r"\\\1", _one_line(text))


def _md_code(text: str) -> str:
    """Inline code: a fence longer than any run of backticks inside; ``|`` escaped for tables;
    line breaks and control characters as spaces."""
    text = _one_line(text)
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}".replace("|", "\\|")


def _ltr_cards(text: str, rtl: bool) -> str:
    """In a right-to-left book, each card a text writes isolated left to right, as a card run
    is (round 40: the cards of a Persian author's note turned about)."""
    return CARD_IN_TEXT.sub(lambda m: "\u2066" + m.group() + "\u2069", text) if rtl else text


def md_inline(text: Inline, rtl: bool = False) -> str:
    """Runs as Markdown; in a right-to-left book (``rtl``) each card isolated left to right,
    as the figures write them (round 23: a Persian reader could not tell a group's order,
    which decides the top card, with "6♦ 6♠" turned about by the text around it)."""
    out = []
    for r in text:
        if r.kind == "text":
            out.append(_ltr_cards(_md_text(r.text), rtl))
        elif r.kind == "code":
            out.append(_md_code(r.text))
        elif r.kind == "strong":
            out.append(f"**{_md_text(r.text)}**")
        elif r.kind == "em":
            # spaces at either end outside the asterisks: "* — to seat 4)*" is no emphasis
            # in CommonMark (round 16: a Russian note's italics broke on its dash)
            body = r.text.strip()
            lead, tail = r.text[:len(r.text) - len(r.text.lstrip())], \
                r.text[len(r.text.rstrip()):]
            out.append(f"{lead}*{_ltr_cards(_md_text(body), rtl)}*{tail}" if body else r.text)
        elif r.kind == "suit":
            out.append(_md_text(suit_text(r.text)))
        elif r.kind == "link":
            # a relative address of our own making (another book): no parenthesis or space
            out.append(f"[{_md_text(r.text)}](<{r.text.replace('>', '%3E')}>)")
        elif r.kind == "break":
            # a hard line break, the next line indented to stay in a list item: two spaces,
            # which a reader of the raw text does not see (round 38: the backslash read as a
            # stray mark)
            out.append("  \n   ")
        elif rtl:
            out.append("\u2066" + _md_text(card_text(r.text)) + "\u2069")
        else:
            out.append(_md_text(card_text(r.text)))
    return "".join(out)


#: what starts a block of its own when a line begins with it: a list item (``- ``, ``+ ``,
#: ``1. ``, ``1) ``), a rule or a heading's underline (``---``, ``===``)
_MD_BLOCK_START = re.compile(r"^( {0,3})([-+]|[0-9]{1,9}[.)]|[-=_]{2,})(?=\s|$)")


def _md_block(text: str) -> str:
    """Markdown text that stands at the start of a block (a paragraph, a list item), with a
    leading list marker or rule escaped: spec text reads as text, not as a list or a rule."""
    m = _MD_BLOCK_START.match(text)
    if m is None:
        return text
    marker = m.group(2)
    # a backslash before the character that makes the marker (the dot of 1., the - of -)
    at = m.start(2) + (len(marker) - 1 if marker[0].isdigit() else 0)
    return text[:at] + "\\" + text[at:]


def _md_rows(cells: Iterable[Inline], rtl: bool) -> str:
    return "| " + " | ".join(md_inline(c, rtl) or " " for c in cells) + " |"


def figure_files(book: Book, stem: str) -> list[tuple[str, str]]:
    """(file name, SVG text) for each figure of the book, named after the page's ``stem``: a
    Markdown page links its pictures (viewers differ on SVG written inline)."""
    figs = [b for b in book.blocks if isinstance(b, Figure)]
    return [(f"{stem}-figure-{i}.svg", f.svg + "\n") for i, f in enumerate(figs, 1)]


def to_markdown(book: Book, figures: Sequence[str] = ()) -> str:
    """The book as one Markdown page. ``figures`` names the file of each figure, in order
    (:func:`figure_files`); a figure without one is left to the HTML page, and only its
    caption is written."""
    out = [f"# {_md_text(book.title)}\n"]
    rtl = book.direction == "rtl"
    n_fig = 0
    for b in book.blocks:
        if isinstance(b, Heading):
            out.append(f"{'#' * min(6, b.level + 1)} {md_inline(b.text, rtl)}\n")
        elif isinstance(b, Paragraph):
            out.append(_md_block(md_inline(b.text, rtl)) + "\n")
        elif isinstance(b, Bullets):
            for i, (item, _) in enumerate(b.items, 1):
                out.append(f"{i}. " if b.ordered else "- ")
                out[-1] += _md_block(md_inline(item, rtl))
            out.append("")
        elif isinstance(b, Table):
            if b.caption:
                out.append(md_inline(b.caption, rtl) + "\n")
            out.append(_md_rows(b.header, rtl))
            out.append("|" + "---|" * len(b.header))
            out.extend(_md_rows(row, rtl) for row in b.rows)
            out.append("")
        elif isinstance(b, Code):
            # a code block keeps its lines, but only LF ends one (a CR would end a line for
            # CommonMark that the fence's length did not account for)
            text = _MD_CODE_BREAKS.sub(" ", b.text.replace("\r\n", "\n").replace("\r", "\n"))
            longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
            fence = "`" * max(3, longest + 1)
            out.append(f"{fence}{_one_line(b.lang)}\n{text.rstrip()}\n{fence}\n")
        else:
            n_fig += 1
            caption = md_inline(b.caption)
            if n_fig <= len(figures):
                # the caption names the picture; its long description is in the SVG itself
                # (<title>, <desc>) and in the HTML page's label
                alt = _md_text("".join(r.text for r in b.caption)) or "figure"
                # a file name of the user's, any bytes the system allows (surrogateescape)
                link = urllib.parse.quote(figures[n_fig - 1].encode("utf-8", "surrogateescape"))
                out.append(f"![{alt}]({link})\n\n*{caption}*\n")
            else:
                out.append(f"*{caption} (The picture is in the HTML edition of this "
                           "book.)*\n")
    out += _md_sources(book)
    # how the page was made is for its maintainers, not its readers: at the very end, out of
    # the way of a reader who reads the page as text; a player's book has none (rounds 30 to
    # 44: every reader of the raw text read it as a leftover)
    if book.generator_note:
        out.append(f"<!-- {book.generator_note} -->")
    return "\n".join(out).rstrip() + "\n"


def _md_sources(book: Book) -> list[str]:
    """Where each section's paragraphs come from: the spec clauses, section by section (the
    HTML page shows each clause beside its paragraph; a Markdown page lists them here)."""
    titles = {h.anchor: md_inline(h.text) for h in book.headings()}
    by_section: dict[str, list[str]] = {}
    for anchor, src in book.sources():
        clauses = by_section.setdefault(anchor, [])
        if src not in clauses:
            clauses.append(src)
    if not by_section:
        return []
    out = ["## Where each part comes from\n",
           "The spec clauses (file:line) each section is written from.\n",
           "| section | clauses |", "|---|---|"]
    for anchor, clauses in by_section.items():
        out.append(f"| {titles.get(anchor, anchor)} | {_md_text(', '.join(clauses))} |")
    out.append("")
    return out
