"""The rulebook as one self-contained web page: :func:`to_html` renders a :class:`Book`.

The page makes no request of any kind (the style sheet is inline, figures are inline SVG, there
are no scripts, fonts or images by address), so it can be mailed, archived or opened from disk
and looks the same. It reads at phone width (one column, the contents folded; a table as wide
as its cells need, its rows stacked where the column is too narrow for it; long code lines
wrapped: nothing is wider than its box), in the book's language and direction (a right-to-left
book mirrors the layout; code, cards and clause markers stay left to right), prints with its
contents open, and shows every block's spec clause as a small marker. Everything that comes
from the book is escaped with :func:`html.escape`; only :attr:`Figure.svg`, which our own code
draws, is inserted as it is. The same book always gives the same bytes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from html import escape
from importlib import resources

import attrs

from rulespec.book.document import (
    CARD_IN_TEXT,
    SUIT_SYMBOL,
    Block,
    Book,
    Bullets,
    Code,
    Figure,
    Heading,
    Inline,
    Paragraph,
    Run,
    Table,
    card_text,
    suit_text,
)

__all__ = ["to_html"]

# The page's own ids; a book anchor equal to one of them is renamed so that ids stay unique
_MAIN_ID = "rulebook-main"
_RESERVED_IDS = frozenset({_MAIN_ID})

#: the page's style sheet, a file of its own beside this module (rulespec/book/page.css)
_CSS = resources.files("rulespec.book").joinpath("page.css").read_text(encoding="utf-8")


@attrs.frozen
class _Words:
    """The page's own few words (not the book's), and the writing direction, in one language.
    A language with none of its own here gets the English words."""

    contents: str = "Contents"
    skip: str = "Skip to the rules"
    table: str = "Table"
    clause: str = "spec clause"
    rtl: bool = False


def _words(book: Book) -> _Words:
    """The page's words in the book's language (the book's labels, which its catalog gives),
    its direction the book's."""
    known = {k: v for k, v in book.labels if k in ("contents", "skip", "table", "clause")}
    return attrs.evolve(_Words(), rtl=book.direction == "rtl", **known)


def _e(text: str) -> str:
    """Text from the book made inert: ``<``, ``>``, ``&`` and both quotes escaped, so that it is
    safe in element content and in a double-quoted attribute alike."""
    return escape(text, quote=True)


#: a number with a sign before it (``-5``, ``+10``) or a range (``2–5``): in right-to-left
#: text the bidirectional algorithm would put the sign after the digits (``5-``) or the range
#: backwards (``5–2``), so it is isolated as left-to-right; digits alone need nothing
_NUMBER = re.compile(r"(?<![\w.])[-+\u2212\u00b1]?\d+(?:[.,:/\u2013-]\d+)*")
_PLAIN_NUMBER = re.compile(r"[\d.,]+")
_LTR = re.compile(f"{CARD_IN_TEXT.pattern}|{_NUMBER.pattern}")


def _text(text: str, w: _Words) -> str:
    """Plain text as HTML; in a right-to-left page a signed number or a range is kept left to
    right."""
    if not w.rtl:
        return _e(text)
    out, at = [], 0
    # a signed number or a range, or a card a text writes (an author's note), left to right
    for m in _LTR.finditer(text):
        if _PLAIN_NUMBER.fullmatch(m.group()):
            continue
        out.append(f"{_e(text[at:m.start()])}<bdi dir=\"ltr\">{_e(m.group())}</bdi>")
        at = m.end()
    return "".join(out) + _e(text[at:])


def _run(r: Run, w: _Words) -> str:
    """One run as HTML; a suit or card keeps its letter or name beside the coloured symbol, so
    colour is never the only cue. Code and cards are left to right in any page (``T♥`` in
    Persian text reads as it does in English), each isolated from the text around it."""
    if r.kind == "code":
        return f'<code dir="ltr">{_e(r.text)}</code>'
    if r.kind == "strong":
        return f"<strong>{_text(r.text, w)}</strong>"
    if r.kind == "em":
        return f"<em>{_text(r.text, w)}</em>"
    if r.kind == "break":
        return "<br>"
    if r.kind == "link":  # an address shown as itself: left to right in any page
        return f'<a class="address" href="{_e(r.text)}" dir="ltr">{_e(r.text)}</a>'
    if r.kind == "suit":
        cls = f" suit-{r.text[:1]}" if r.text[:1] in SUIT_SYMBOL else ""
        return f'<span class="suit{cls}">{_e(suit_text(r.text))}</span>'
    if r.kind == "card":
        code = r.text.partition("|")[0]
        suit = code[1:] if len(code) == 2 and code != "JK" else ""
        cls = f" suit-{suit}" if suit in SUIT_SYMBOL else ""
        return f'<span class="card{cls}" dir="ltr">{_e(card_text(r.text))}</span>'
    return _text(r.text, w)


def _inline(text: Inline, w: _Words) -> str:
    """Runs as HTML."""
    return "".join(_run(r, w) for r in text)


def _plain(text: Inline) -> str:
    """Runs as plain text (for an attribute such as a label), suits and cards with symbols."""
    out = []
    for r in text:
        if r.kind == "suit":
            out.append(suit_text(r.text))
        elif r.kind == "card":
            out.append(card_text(r.text))
        else:
            out.append(r.text)
    return "".join(out)


def _src(source: str | None, w: _Words) -> str:
    """The marker of a block's spec clause: small visible text (a file name and line, left to
    right in any page), the clause again as a tooltip."""
    if not source:
        return ""
    s = _e(source)
    return f' <span class="src" dir="ltr" title="{_e(w.clause)} {s}">{s}</span>'


_SVG_ID = re.compile(r"""\bid\s*=\s*["']([^"']*)["']""")


def _ids(book: Book) -> list[str]:
    """The id of each heading: its anchor, made unique in the page (a repeated anchor, an empty
    one, one of the page's own ids or one used inside a figure's SVG gets a numbered suffix), so
    every link finds its heading."""
    headings = book.headings()
    seen: set[str] = set(_RESERVED_IDS)
    for b in book.blocks:
        if isinstance(b, Figure):
            seen.update(_SVG_ID.findall(b.svg))
    out = []
    for h in headings:
        base = h.anchor or "section"
        cand, n = base, 1
        while cand in seen:
            n += 1
            cand = f"{base}-{n}"
        seen.add(cand)
        out.append(cand)
    return out


def _toc(headings: Sequence[Heading], ids: Sequence[str], w: _Words) -> str:
    """The table of contents: nested ordered lists by heading level, a link to each heading,
    folded under its title (a ``<details>``, closed: the style sheet keeps it open on a wide
    screen and on paper, so that on a phone the rules, not the contents, fill the first screen).
    ``open_`` holds the level of each open list; a heading deeper than the innermost opens a list
    inside the current item, a shallower one closes lists until its level fits (a jump of
    levels, 1 then 3, nests one step, never leaves an empty item)."""
    if not headings:
        return ""
    out = [f'<nav class="toc" aria-label="{_e(w.contents)}">', "<details>",
           f'<summary class="toc-title">{_e(w.contents)}</summary>']
    open_: list[int] = []
    for h, hid in zip(headings, ids, strict=True):
        if not open_ or h.level > open_[-1]:
            out.append("<ol>")
            open_.append(h.level)
        else:
            out.append("</li>")
            while len(open_) > 1 and h.level <= open_[-2]:
                out.append("</ol></li>")
                open_.pop()
            open_[-1] = h.level
        out.append(f'<li><a href="#{_e(hid)}">{_inline(h.text, w)}</a>')
    out.append("</li>" + "</ol></li>" * (len(open_) - 1) + "</ol>")
    out.append("</details>")
    out.append("</nav>")
    return "\n".join(out)


# ---- tables: as wide as their cells need; stacked where the column is narrower -------------
#: the width of a character and the padding and border of a cell, in rem, as a guess at
#: what a table needs (proportional text averages about half an em a character)
_CHAR_REM, _CELL_REM = 0.55, 1.3
#: a cell short enough is never wrapped, a longer one wraps at no less than this many chars
_UNWRAPPED = 14
#: a table needing no more than this (a 320 px phone's column, in rem) never stacks
_FITS_ANY = 18
#: the widths, in rem, a table's need is rounded up to (one set of rules each)
_STEP = 5
#: headroom on the guess (bold headers, Cyrillic's wider letters): a table that stacks a little
#: early costs less than one wider than its box (tests/test_bookpages.py tries every page just
#: above each width at which one of its tables stacks)
_MARGIN = 1.2


def _chars(text: Inline) -> tuple[int, int]:
    """The length of the longest unbreakable word of ``text`` and of the whole, in characters
    (a card counts one more, for its frame)."""
    plain = _plain(text) + " " * sum(r.kind == "card" for r in text)
    return max((len(word) for word in plain.split()), default=0), len(plain)


def _need(t: Table) -> float:
    """A guess at the width, in rem, that a table needs to be read without squeezing: each
    column as wide as its longest word, and as its longest body cell up to ``_UNWRAPPED``
    characters (a header wraps freely)."""
    total = 0.0
    for i, head in enumerate(t.header):
        column = [_chars(row[i]) for row in t.rows if i < len(row)]
        word = max([_chars(head)[0], *(c[0] for c in column)])
        cell = max((c[1] for c in column), default=0)
        total += max(word, min(cell, _UNWRAPPED)) * _CHAR_REM + _CELL_REM
    return total


def _stack_width(t: Table) -> int:
    """The column width, in rem, below which the table stacks its rows (each cell on a line of
    its own after its header's words); 0 for a table that fits any screen."""
    need = _need(t) * _MARGIN
    return 0 if need <= _FITS_ANY else _STEP * math.ceil(need / _STEP)


def _stack_css(width: int) -> str:
    """The rules that stack the rows of the tables of class ``stack-<width>`` once the text
    column is narrower than ``width`` rem: each row a box, each cell a line with its header's
    words (``data-label``) before it; the header row stays for screen readers only."""
    c = f".stack-{width}"
    return (f"@container book (width < {width}rem) {{\n"
            f"  {c} {{ width: auto; }}\n"
            f"  {c} :is(table, caption, tbody, tr) {{ display: block; }}\n"
            f"  {c} thead {{ position: absolute; width: 1px; height: 1px; overflow: hidden;"
            " clip-path: inset(50%); }\n"
            f"  {c} tr {{ border: 1px solid var(--line); margin-bottom: .5em; }}\n"
            f"  {c} td {{ display: block; border: 0; overflow-wrap: anywhere; }}\n"
            f"  {c} td + td {{ border-top: 1px solid var(--line); }}\n"
            f'  {c} td::before {{ content: attr(data-label) ": "; font-weight: 600; }}\n'
            "}\n")


def _table(t: Table, w: _Words) -> str:
    """A table as wide as its cells need (the style sheet wraps them); one too wide for a
    narrow column gets the class that stacks its rows there, each cell labelled with its
    header's words, and explicit roles, so that a screen reader still reads a table once the
    style has made its rows blocks. The box is labelled and focusable, for a keyboard user
    should it ever scroll."""
    label = _e(_plain(t.caption)) if t.caption else _e(w.table)
    width = _stack_width(t)
    cls, role = (f"table-wrap stack-{width}", ' role="{}"') if width else ("table-wrap", "")
    labels = [f' data-label="{_e(_plain(h))}"' if width else "" for h in t.header]
    out = [f'<div class="{cls}" role="region" aria-label="{label}" tabindex="0">',
           f"<table{role.format('table')}>"]
    if t.caption:
        out.append(f"<caption>{_inline(t.caption, w)}</caption>")
    out.append(f"<thead{role.format('rowgroup')}><tr{role.format('row')}>"
               + "".join(f'<th scope="col"{role.format("columnheader")}>{_inline(c, w)}</th>'
                         for c in t.header) + "</tr></thead>")
    out.append(f"<tbody{role.format('rowgroup')}>")
    out.extend(f"<tr{role.format('row')}>"
               + "".join(f"<td{role.format('cell')}{labels[i] if i < len(labels) else ''}>"
                         f"{_inline(c, w)}</td>" for i, c in enumerate(row))
               + "</tr>" for row in t.rows)
    out.append("</tbody></table>")
    if t.source:  # inside the box, so that it ends where the table ends
        out.append(f'<p class="src-after">{_src(t.source, w).strip()}</p>')
    out.append("</div>")
    return "\n".join(out)


_XML_PROLOG = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)


def _figure(f: Figure, w: _Words) -> str:
    """A figure: the SVG as drawn (trusted: our own code made it) inside a labelled image role so
    that the alt text is what a screen reader announces, with the caption below. The picture is
    focusable: on a phone, a tap shows it at its own size (the style sheet)."""
    svg = _XML_PROLOG.sub("", f.svg, count=1).strip()  # a prolog is an error inside HTML
    out = ["<figure>",
           f'<div class="figure-art" role="img" aria-label="{_e(f.alt)}" tabindex="0">',
           svg, "</div>"]
    if f.caption:
        out.append(f"<figcaption>{_inline(f.caption, w)}</figcaption>")
    out.append("</figure>")
    return "\n".join(out)


def _bullets(b: Bullets, w: _Words) -> str:
    """A list, each item ending with the marker of its clause."""
    tag = "ol" if b.ordered else "ul"
    items = "\n".join(f"<li>{_inline(item, w)}{_src(src, w)}</li>" for item, src in b.items)
    return f"<{tag}>\n{items}\n</{tag}>"


def _block(b: Block, heading_id: str | None, w: _Words) -> str:
    """One block as HTML; ``heading_id`` is the id given to a heading."""
    if isinstance(b, Heading):
        n = min(6, b.level + 1)  # the title is the one h1, as in the Markdown rendering
        return f'<h{n} id="{_e(heading_id or b.anchor)}">{_inline(b.text, w)}</h{n}>'
    if isinstance(b, Paragraph):
        return f"<p>{_inline(b.text, w)}{_src(b.source, w)}</p>"
    if isinstance(b, Bullets):
        return _bullets(b, w)
    if isinstance(b, Table):
        return _table(b, w)
    if isinstance(b, Code):
        lang = f' data-lang="{_e(b.lang)}"' if b.lang else ""
        return f'<pre dir="ltr"{lang}><code>{_e(b.text.rstrip())}</code></pre>'
    return _figure(b, w)


def _note(text: str) -> str:
    """The generator's note: plain text, where a stretch between backticks (as the note is
    written for Markdown) is shown as code. The text is escaped first, so no tag can come from
    it other than the ``<code>`` added here."""
    return re.sub(r"`([^`]+)`", r'<code dir="ltr">\1</code>', _e(text))


def _body(blocks: Iterable[Block], ids: Iterable[str], w: _Words) -> list[str]:
    """The blocks in order, each heading with its id."""
    it = iter(ids)
    return [_block(b, next(it) if isinstance(b, Heading) else None, w) for b in blocks]


def _style(book: Book) -> str:
    """The style sheet, with the rules that stack the rows of this book's wide tables (one set
    for each width at which one of them stacks, in order: the same book, the same bytes)."""
    widths = sorted({_stack_width(b) for b in book.blocks if isinstance(b, Table)} - {0})
    return _CSS + "".join(_stack_css(width) for width in widths)


def to_html(book: Book) -> str:
    """The book as one self-contained HTML5 page (inline style sheet and figures, no script, no
    request of any kind), in the book's language and writing direction, with a table of
    contents, the spec clause of every block shown beside it, a phone-width layout and print
    styles. The same book always gives the same text."""
    headings = book.headings()
    ids = _ids(book)
    w = _words(book)
    title = _e(book.title)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(book.lang)}" dir="{book.direction}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="rulespec">',
        f"<title>{title}</title>",
        f"<style>\n{_style(book)}</style>",
        "</head>",
        "<body>",
        f'<a class="skip" href="#{_MAIN_ID}">{_e(w.skip)}</a>',
        '<div class="page">',
        _toc(headings, ids, w),
        f'<main id="{_MAIN_ID}">',
        f"<h1>{title}</h1>",
        *_body(book.blocks, ids, w),
        # dir="auto": the note may be left in English in a book in another language
        *([f'<p class="generator" dir="auto">{_note(book.generator_note)}</p>']
          if book.generator_note else []),
        "</main>",
        "</div>",
        "</body>",
        "</html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"
