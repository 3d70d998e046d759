"""The rulebook as one self-contained web page: :func:`to_html` renders a :class:`Book`.

The page makes no request of any kind (the style sheet is inline, figures are inline SVG, there
are no scripts, fonts or images by address), so it can be mailed, archived or opened from disk
and looks the same. It reads at phone width (one column; wide tables and code scroll inside
their own box, never the page), prints without its table of contents, and shows every block's
spec clause as a small marker. Everything that comes from the book is escaped with
:func:`html.escape`; only :attr:`Figure.svg`, which our own code draws, is inserted as it is.
The same book always gives the same bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

from rulespec.book.document import (
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

# Colours checked for contrast on white (WCAG AA for small text): the muted grey of the clause
# markers is 7.0:1, the red of hearts and diamonds 7.3:1.
_CSS = """\
:root { color-scheme: light; --fg: #1b1b1b; --muted: #595959; --red: #b0001a;
  --line: #cfcfcf; --soft: #f5f5f3; --link: #0b4f9c; }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff; overflow-wrap: break-word;
  font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans",
  "Liberation Sans", Arial, sans-serif; }
a { color: var(--link); }
a:focus-visible, .table-wrap:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; padding: .5rem 1rem; background: #fff; }
.skip:focus { left: .5rem; z-index: 1; }
.page { max-width: 72rem; margin: 0 auto; padding: 1rem; display: grid;
  grid-template-columns: minmax(0, 1fr); gap: 1rem 2.5rem; }
main { min-width: 0; max-width: 46rem; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.6em 0 .5em; scroll-margin-top: 1rem; }
h1 { font-size: 2rem; margin-top: .3em; }
h2 { font-size: 1.5rem; border-bottom: 1px solid var(--line); padding-bottom: .2em; }
h3 { font-size: 1.2rem; }
h4, h5, h6 { font-size: 1rem; }
p, ul, ol { margin: .6em 0; }
li { margin: .25em 0; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas,
  monospace; font-size: .9em; }
code { background: var(--soft); border-radius: 3px; padding: 0 .2em; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 4px;
  padding: .7em .9em; overflow-x: auto; line-height: 1.4; }
pre code { background: none; padding: 0; font-size: 1em; }
.table-wrap { max-width: 100%; overflow-x: auto; margin: .8em 0;
  /* shadows at an edge where more of the table lies hidden: the white covers move with the
     content (local), the shadows stay (scroll), so a shadow shows only while there is more */
  background:
    linear-gradient(to right, #fff 30%, rgba(255, 255, 255, 0)) left / 2rem 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255, 255, 255, 0)) right / 2rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, .25), rgba(0, 0, 0, 0))
      left / .8rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, .25), rgba(0, 0, 0, 0))
      right / .8rem 100% no-repeat scroll; }
table { border-collapse: collapse; min-width: 50%; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0 0 .3em; }
th, td { border: 1px solid var(--line); padding: .3em .6em; text-align: left;
  vertical-align: top; overflow-wrap: normal; }
th { background: var(--soft); white-space: nowrap; }  /* headers are short: keep them whole */
figure { margin: 1.2em 0; }
figure svg, img { max-width: 100%; height: auto; }
/* a diagram shrunk to a phone's width is too small to read: it keeps a readable width and
   scrolls sideways in its own box instead (the page itself never does) */
.figure-art { overflow-x: auto; }
@media (max-width: 40rem) { .figure-art svg { max-width: none; width: 40rem; } }
figcaption { font-size: .9em; color: var(--muted); margin-top: .3em; }
.suit, .card { white-space: nowrap; font-variant-emoji: text; }
.card { font-weight: 600; border: 1px solid var(--line); border-radius: 3px; padding: 0 .2em; }
.suit-H, .suit-D { color: var(--red); }
.suit-C, .suit-S { color: #000; }
.src { display: inline-block; max-width: 100%; margin-left: .4em; color: var(--muted);
  font: .72em/1.3 ui-monospace, "DejaVu Sans Mono", monospace; overflow-wrap: anywhere;
  vertical-align: baseline; cursor: help; }
.src-after { text-align: right; margin: -.5em 0 .8em; }
.src-after .src { margin-left: 0; }
.toc { font-size: .92rem; border-bottom: 1px solid var(--line); padding-bottom: .8rem; }
.toc-title { font-weight: 700; margin: 0 0 .3rem; }
.toc ol { list-style: none; margin: 0; padding-left: 0; }
.toc ol ol { padding-left: 1rem; }
.toc li { margin: .15em 0; }
.toc a { text-decoration: none; }
.toc a:hover { text-decoration: underline; }
.generator { margin-top: 3rem; font-size: .8em; color: var(--muted);
  border-top: 1px solid var(--line); padding-top: .5rem; }
@media (min-width: 60rem) {
  .page { grid-template-columns: 15rem minmax(0, 1fr); padding: 1.5rem; }
  .toc { position: sticky; top: 1rem; align-self: start; max-height: calc(100vh - 2rem);
    overflow-y: auto; border-bottom: 0; padding-bottom: 0; }
}
@media print {
  .toc, .skip { display: none; }
  .page { display: block; max-width: none; padding: 0; }
  main { max-width: none; }
  body { color: #000; font-size: 11pt; }
  a, a:visited { color: #000; text-decoration: none; }
  h2 { border-color: #000; }
  .src, figcaption, .generator { color: #000; }
  .suit-H, .suit-D { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  table, figure, pre, .table-wrap, li { break-inside: avoid; page-break-inside: avoid; }
  /* paper does not scroll: a wide table shrinks and wraps to the page, long code lines wrap */
  .table-wrap { overflow: visible; background: none; }
  table { width: 100%; font-size: 9pt; }
  th, td { white-space: normal; overflow-wrap: anywhere; padding: .2em .3em; }
  pre { white-space: pre-wrap; overflow: visible; }
  h1, h2, h3, h4, h5, h6 { break-after: avoid; page-break-after: avoid; }
}
"""


def _e(text: str) -> str:
    """Text from the book made inert: ``<``, ``>``, ``&`` and both quotes escaped, so that it is
    safe in element content and in a double-quoted attribute alike."""
    return escape(text, quote=True)


def _run(r: Run) -> str:
    """One run as HTML; a suit or card keeps its letter or name beside the coloured symbol, so
    colour is never the only cue."""
    if r.kind == "code":
        return f"<code>{_e(r.text)}</code>"
    if r.kind == "strong":
        return f"<strong>{_e(r.text)}</strong>"
    if r.kind == "em":
        return f"<em>{_e(r.text)}</em>"
    if r.kind == "link":
        return f'<a href="{_e(r.text)}">{_e(r.text)}</a>'
    if r.kind == "suit":
        cls = f" suit-{r.text[:1]}" if r.text[:1] in SUIT_SYMBOL else ""
        return f'<span class="suit{cls}">{_e(suit_text(r.text))}</span>'
    if r.kind == "card":
        suit = r.text[1:] if len(r.text) == 2 and r.text != "JK" else ""
        cls = f" suit-{suit}" if suit in SUIT_SYMBOL else ""
        return f'<span class="card{cls}">{_e(card_text(r.text))}</span>'
    return _e(r.text)


def _inline(text: Inline) -> str:
    """Runs as HTML."""
    return "".join(_run(r) for r in text)


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


def _src(source: str | None) -> str:
    """The marker of a block's spec clause: small visible text, the clause again as a tooltip."""
    if not source:
        return ""
    s = _e(source)
    return f' <span class="src" title="spec clause {s}">{s}</span>'


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


def _toc(headings: Sequence[Heading], ids: Sequence[str]) -> str:
    """The table of contents: nested ordered lists by heading level, a link to each heading.
    ``open_`` holds the level of each open list; a heading deeper than the innermost opens a list
    inside the current item, a shallower one closes lists until its level fits (a jump of
    levels, 1 then 3, nests one step, never leaves an empty item)."""
    if not headings:
        return ""
    out = ['<nav class="toc" aria-label="Contents">', '<p class="toc-title">Contents</p>']
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
        out.append(f'<li><a href="#{_e(hid)}">{_inline(h.text)}</a>')
    out.append("</li>" + "</ol></li>" * (len(open_) - 1) + "</ol>")
    out.append("</nav>")
    return "\n".join(out)


def _table(t: Table) -> str:
    """A table in a box that scrolls sideways when the table is wider than the screen; the box is
    focusable and labelled, so a keyboard user can scroll it too."""
    label = _e(_plain(t.caption)) if t.caption else "Table"
    out = [f'<div class="table-wrap" role="region" aria-label="{label}" tabindex="0">', "<table>"]
    if t.caption:
        out.append(f"<caption>{_inline(t.caption)}</caption>")
    out.append("<thead><tr>" + "".join(f'<th scope="col">{_inline(c)}</th>' for c in t.header)
               + "</tr></thead>")
    out.append("<tbody>")
    out.extend("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in row) + "</tr>"
               for row in t.rows)
    out.append("</tbody></table></div>")
    if t.source:
        out.append(f'<p class="src-after">{_src(t.source).strip()}</p>')
    return "\n".join(out)


_XML_PROLOG = re.compile(r"^\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)


def _figure(f: Figure) -> str:
    """A figure: the SVG as drawn (trusted: our own code made it) inside a labelled image role so
    that the alt text is what a screen reader announces, with the caption below."""
    svg = _XML_PROLOG.sub("", f.svg, count=1).strip()  # a prolog is an error inside HTML
    out = ["<figure>", f'<div class="figure-art" role="img" aria-label="{_e(f.alt)}">',
           svg, "</div>"]
    if f.caption:
        out.append(f"<figcaption>{_inline(f.caption)}</figcaption>")
    out.append("</figure>")
    return "\n".join(out)


def _bullets(b: Bullets) -> str:
    """A list, each item ending with the marker of its clause."""
    tag = "ol" if b.ordered else "ul"
    items = "\n".join(f"<li>{_inline(item)}{_src(src)}</li>" for item, src in b.items)
    return f"<{tag}>\n{items}\n</{tag}>"


def _block(b: Block, heading_id: str | None) -> str:
    """One block as HTML; ``heading_id`` is the id given to a heading."""
    if isinstance(b, Heading):
        n = min(6, b.level + 1)  # the title is the one h1, as in the Markdown rendering
        return f'<h{n} id="{_e(heading_id or b.anchor)}">{_inline(b.text)}</h{n}>'
    if isinstance(b, Paragraph):
        return f"<p>{_inline(b.text)}{_src(b.source)}</p>"
    if isinstance(b, Bullets):
        return _bullets(b)
    if isinstance(b, Table):
        return _table(b)
    if isinstance(b, Code):
        lang = f' data-lang="{_e(b.lang)}"' if b.lang else ""
        return f"<pre{lang}><code>{_e(b.text.rstrip())}</code></pre>"
    return _figure(b)


def _note(text: str) -> str:
    """The generator's note: plain text, where a stretch between backticks (as the note is
    written for Markdown) is shown as code. The text is escaped first, so no tag can come from
    it other than the ``<code>`` added here."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", _e(text))


def _body(blocks: Iterable[Block], ids: Iterable[str]) -> list[str]:
    """The blocks in order, each heading with its id."""
    it = iter(ids)
    return [_block(b, next(it) if isinstance(b, Heading) else None) for b in blocks]


def to_html(book: Book) -> str:
    """The book as one self-contained HTML5 page (inline style sheet and figures, no script, no
    request of any kind), with a table of contents, the spec clause of every block shown beside
    it, a phone-width layout and print styles. The same book always gives the same text."""
    headings = book.headings()
    ids = _ids(book)
    title = _e(book.title)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="rulespec">',
        f"<title>{title}</title>",
        f"<style>\n{_CSS}</style>",
        "</head>",
        "<body>",
        f'<a class="skip" href="#{_MAIN_ID}">Skip to the rules</a>',
        '<div class="page">',
        _toc(headings, ids),
        f'<main id="{_MAIN_ID}">',
        f"<h1>{title}</h1>",
        *_body(book.blocks, ids),
        f'<p class="generator">{_note(book.generator_note)}</p>',
        "</main>",
        "</div>",
        "</body>",
        "</html>",
    ]
    return "\n".join(p for p in parts if p) + "\n"
