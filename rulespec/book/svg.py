"""The phase diagram's picture: the tree of what is drawn (steps, decisions, ends, frames,
rows of branches, folded frames), folded where it is too deep, measured bottom-up and drawn
top-down as SVG, and said in words as its alt text; and the escaping every SVG of the book
shares (:mod:`rulespec.book.layout` draws the table with it).

The SVG is written by hand, with nothing but the standard library: no external fonts, no links,
no scripts, every coordinate an integer, so the same tree always gives the same bytes (a
committed rulebook stays byte-stable). Text widths are estimated character by character, wider
for Cyrillic and Arabic script than for Latin. Nothing here reads a spec:
:mod:`rulespec.book.diagram` builds the tree, every condition in it already said in words.

Every word this module adds (``decides``, ``if ...:``, ``(folded)``) goes through ``words``, a
function passed in (the identity by default; a translated book passes its catalog lookup), as a
template whose ``{placeholders}`` are filled after translation. A right-to-left book's picture
(``direction="rtl"``) keeps its flow, top to bottom and left to right, and sets each line of
text from the right edge of its box.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from html import escape
from typing import assert_never

import attrs
from attrs import frozen

__all__ = ["OTHERWISE", "UNSAID", "Decision", "Diagram", "Folded", "Frame", "Line", "Node", "Ref",
           "Row", "Steps", "Terminal", "Words", "alt_text", "bidi_safe", "cond_head", "decides",
           "draw", "escape_xml", "fill", "fold", "frame_label", "id_prefix", "if_label",
           "lower_first", "said_if", "same", "short", "text_px"]

#: a function that gives the words of a text in the book's language (the identity in English)
Words = Callable[[str], str]


def same(text: str) -> str:
    """The text as it is: the words of an English book."""
    return text


_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def fill(template: str, **values: object) -> str:
    """``template`` (a phrase through ``words``) with each ``{name}`` replaced by its value.
    A translation is untrusted text, like a spec's (docs/security.md): unlike ``str.format``,
    a placeholder it misspells, a brace, ``{0}`` or ``{x.attr}`` stays as written, and no
    attribute is ever read."""
    return _PLACEHOLDER.sub(
        lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), template)



@frozen
class Diagram:
    """A picture of a game's structure: ``svg``, a complete ``<svg>`` element (with ``<title>``
    and ``<desc>``, labelled for assistive technology), and ``alt``, the same structure in plain
    English for readers who cannot see it."""

    svg: str
    alt: str


# ---- the picture's parts -------------------------------------------------------------------
# The spec is first turned into a small tree of what is drawn (the nodes below, built by
# rulespec.book.diagram), then the tree is measured bottom-up and drawn top-down; the alt text
# is read off the same tree, so the two cannot disagree.

@frozen
class Line:
    """One line of a steps box; ``children`` are indented under it (a loop's body)."""

    text: str
    children: tuple[Line, ...] = ()


@frozen
class Steps:
    """Steps without a decision, one box (consecutive steps share it)."""

    lines: tuple[Line, ...]


@frozen
class Decision:
    """A ``choose``: who decides, each action name with a phrase from its doc, and what the
    alternatives lead to that is worth drawing (``after``: a frame, or a row of them)."""

    who: str
    actions: tuple[tuple[str, str], ...]
    title: str | None = None
    #: the ``for`` loop whose variable decides, if any (then the loop needs no frame)
    loop: int | None = None
    after: tuple[Node, ...] = ()


@frozen
class Terminal:
    """``end deal`` or ``end match``, under the conditions of the ``if`` around it (each in
    words, :data:`OTHERWISE`, or :data:`UNSAID`)."""

    text: str
    conds: tuple[str, ...] = ()


@frozen
class Ref:
    """A procedure (or the deal) drawn once already."""

    text: str
    conds: tuple[str, ...] = ()


@frozen
class Frame:
    """A loop (``loop``), an ``if`` (``if``, label from ``conds``), the consequences of one
    alternative (``after``), a procedure (``proc``) or the deal (``deal``) around its body."""

    kind: str
    label: str
    children: tuple[Node, ...]
    conds: tuple[str, ...] = ()


@frozen
class Row:
    """Branches of which one happens, side by side."""

    branches: tuple[Node, ...]


@frozen
class Folded:
    """A frame too deep to draw, folded into one box naming the decisions inside it."""

    label: str
    decisions: tuple[str, ...]


Node = Steps | Decision | Terminal | Ref | Frame | Row | Folded


# ---- text in a box -----------------------------------------------------------------------------

def short(text: str, limit: int) -> str:
    """``text`` cut at a word before ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit - 1)
    return text[: cut if cut > limit // 2 else limit - 1].rstrip(" ,;:") + "…"


#: the condition of an ``else`` arm (the arms before it are not repeated)
OTHERWISE = "otherwise"
#: a condition the spec gives no words for
UNSAID = ""


def cond_head(conds: Sequence[str], words: Words) -> str:
    """The head of a box drawn under ``conds``: "if A and B:", "otherwise:", "in some
    cases:"; empty when there are none."""
    if not conds:
        return ""
    said = [c for c in conds if c and c != OTHERWISE]
    if said:
        return fill(words("if {condition}:"), condition=short(_and(said, words), 110))
    return words("otherwise:") if OTHERWISE in conds else words("in some cases:")


def if_label(conds: Sequence[str], words: Words) -> str:
    """The label of a frame around what runs under ``conds``."""
    said = [c for c in conds if c and c != OTHERWISE]
    if said:
        return fill(words("only if {condition}"), condition=short(_and(said, words), 110))
    return words("otherwise") if OTHERWISE in conds else words("only in some cases")


def said_if(conds: Sequence[str], text: str, words: Words) -> str:
    """``text`` under ``conds``, as the alt text says it."""
    if not conds:
        return text
    said = [c for c in conds if c and c != OTHERWISE]
    if said:
        return fill(words("if {condition}, {then}"), condition=_and(said, words), then=text)
    key = "otherwise, {then}" if OTHERWISE in conds else "in some cases, {then}"
    return fill(words(key), then=text)


def _and(parts: Sequence[str], words: Words) -> str:
    out = parts[0]
    for p in parts[1:]:
        out = fill(words("{a} and {b}"), a=out, b=p)
    return out


def lower_first(s: str) -> str:
    """``s`` with a small first letter, as a clause that continues a phrase."""
    # a phrase from a doc continues a sentence; an initialism ("HTML") stays as written
    if len(s) > 1 and s[0].isupper() and not s[1].isupper():
        return s[0].lower() + s[1:]
    return s




def decides(who: str, words: Words = same) -> str:
    """Who decides, as a clause: "each player from the declarer's left, except the declarer,
    decides" (a comma before the verb when the subject has one)."""
    key = "{who}, decides" if "," in who else "{who} decides"
    return fill(words(key), who=who)


def frame_label(f: Frame, words: Words = same) -> str:
    """A frame's label: an ``if`` frame's conditions, any other frame's own label."""
    return if_label(f.conds, words) if f.kind == "if" else f.label


# ---- measuring and drawing -----------------------------------------------------------------------
# Text is 13 px; a Latin character is taken as 7 px wide (the estimate errs wide for most
# text: Chromium's sans-serif sets English labels at 5.6 px a character, bold a little wider).
# Cyrillic runs about 15% wider than Latin in the same font (6.5 px): it is taken as 8 px.
# Persian measured up to 6.4 px, but its fonts vary most from one system to another and its
# widest letters (ط ظ ض) run wider still: it is taken as 9 px.

_CHAR_W = 7
_WIDE_W = 8
_ARABIC_W = 9
#: characters that take no room: the marks that keep a card code left to right in a
#: right-to-left line, joiners
_ZERO_W = frozenset("\u200b\u200c\u200d\u200e\u200f\u2066\u2067\u2068\u2069")
_LINE_H = 18
_PAD_X = 12
_PAD_Y = 8
_GAP = 26  # between two nodes of a column: room for the arrow
_FRAME_PAD = 12
_LOOP_INSET = 18  # room on a loop frame's left for its arrow back to the top
_FORK = 14
_ROW_GAP = 18
_HEX = 12  # how far a decision box's sides point out
_WRAP = 52
_LABEL_WRAP = 66
_MAX_STEP_LINES = 14
_MARGIN = 12


@frozen
class _Text:
    """A line of text in a box: ``indent`` in px; ``act``: the action name it starts with."""

    indent: int
    cls: str
    text: str
    act: str = ""


@attrs.define
class _M:
    """A measured node: its size, its text lines, its measured parts."""

    node: Node | None
    w: int
    h: int
    texts: list[_Text] = attrs.field(factory=list)
    kids: list[_M] = attrs.field(factory=list)
    #: a box's own size (a decision's consequences hang under its box)
    box_w: int = 0
    box_h: int = 0


def _char_px(ch: str) -> int:
    if ch in _ZERO_W:
        return 0
    o = ord(ch)
    if 0x400 <= o < 0x530:  # Cyrillic
        return _WIDE_W
    if 0x600 <= o < 0x780 or 0xFB50 <= o < 0xFF00:  # Arabic script, its presentation forms
        return _ARABIC_W
    return _CHAR_W


def text_px(text: str) -> int:
    """The estimated width of ``text`` in px, at the pictures' 13 px (12 px text is narrower,
    and this errs wide)."""
    return sum(_char_px(ch) for ch in text)


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of about ``width`` Latin characters' room: fewer characters of a wider
    script."""
    px = text_px(text)
    if px > _CHAR_W * len(text):
        width = width * _CHAR_W * len(text) // px
    return textwrap.wrap(text, width=max(width, 12), break_on_hyphens=False) or [""]


def _step_texts(lines: Sequence[Line], words: Words, depth: int = 0) -> list[_Text]:
    out: list[_Text] = []
    for line in lines:
        if depth > 3:
            return [_Text(depth * 2 * _CHAR_W, "t", "…")]
        for i, part in enumerate(_wrap(line.text, _WRAP - 2 * depth)):
            out.append(_Text((depth * 2 + (2 if i else 0)) * _CHAR_W, "t", part))
        out += _step_texts(line.children, words, depth + 1)
    if depth == 0 and len(out) > _MAX_STEP_LINES:
        out = out[: _MAX_STEP_LINES - 1] + [_Text(0, "t", words("… and more"))]
    return out


def _decision_texts(d: Decision, words: Words) -> list[_Text]:
    out = [_Text(0, "title", t) for t in _wrap(d.title, _WRAP)] if d.title else []
    out += [_Text(0, "who", t) for t in _wrap(f"{decides(d.who, words)}:", _WRAP)]
    for name, phrase in d.actions:
        for i, part in enumerate(_wrap(f"{name}: {phrase}" if phrase else name, _WRAP - 2)):
            act = name if i == 0 and part.startswith(name) else ""
            out.append(_Text((2 if i else 0) * _CHAR_W + _CHAR_W, "t", part, act))
    return out


def _box_texts(n: Node, words: Words) -> list[_Text]:
    match n:
        case Steps(lines=ls):
            return _step_texts(ls, words)
        case Decision():
            return _decision_texts(n, words)
        case Terminal(text=t, conds=c) | Ref(text=t, conds=c):
            head = [_Text(0, "cond", s) for s in _wrap(cond_head(c, words), _WRAP)] if c else []
            return head + [_Text(0, "t", s) for s in _wrap(t, _WRAP)]
        case Folded(label=lbl, decisions=ds):
            out = [_Text(0, "cond", s) for s in
                   _wrap(fill(words("{label} (folded), decisions:"), label=lbl), _WRAP)]
            return out + [_Text(_CHAR_W, "acts", s) for s in _wrap(", ".join(ds), _WRAP)]
        case _:
            return []


def _text_w(texts: Sequence[_Text]) -> int:
    return max((t.indent + text_px(t.text) for t in texts), default=0)


def _measure(n: Node, words: Words) -> _M:
    if isinstance(n, Frame):
        label = [_Text(0, "label", s) for s in _wrap(_loop_mark(n) + frame_label(n, words),
                                                    _LABEL_WRAP)]
        col = _measure_column(n.children, words)
        inset = _LOOP_INSET if n.kind == "loop" else 0
        inner = max(col.w, _text_w(label))
        return _M(n, inner + 2 * _FRAME_PAD + inset,
                  2 * _FRAME_PAD + len(label) * _LINE_H + 4 + col.h, label, [col])
    if isinstance(n, Row):
        kids = [_measure(b, words) for b in n.branches]
        return _M(n, sum(k.w for k in kids) + _ROW_GAP * (len(kids) - 1),
                  2 * _FORK + max(k.h for k in kids), kids=kids)
    texts = _box_texts(n, words)
    side = _HEX if isinstance(n, Decision) else 0
    w = _text_w(texts) + 2 * (_PAD_X + side)
    h = len(texts) * _LINE_H + 2 * _PAD_Y
    m = _M(n, w, h, texts, box_w=w, box_h=h)
    if isinstance(n, Decision) and n.after:
        after = _measure_column(n.after, words)
        m.kids = [after]
        m.w = max(w, after.w)
        m.h = h + _GAP + after.h
    return m


def _measure_column(nodes: Sequence[Node], words: Words) -> _M:
    kids = [_measure(n, words) for n in nodes]
    return _M(None, max((k.w for k in kids), default=0),
              sum(k.h for k in kids) + _GAP * max(len(kids) - 1, 0), kids=kids)


def _loop_mark(n: Frame) -> str:
    return "↻ " if n.kind == "loop" else ""


class _Canvas:
    """Collects the SVG elements; ``arrow`` is the id of the arrowhead marker; ``rtl``: text
    is set right to left, from the right edge of its room."""

    def __init__(self, arrow: str, rtl: bool = False) -> None:
        self.out: list[str] = []
        self.arrow = arrow
        self.rtl = rtl

    def line(self, x1: int, y1: int, x2: int, y2: int, head: bool = True) -> None:
        end = f' marker-end="url(#{self.arrow})"' if head else ""
        self.out.append(f'<path class="rsd-edge" d="M{x1},{y1} L{x2},{y2}"{end}/>')

    def texts(self, x: int, y: int, texts: Sequence[_Text], room: int) -> None:
        """``texts`` a line each, from ``x`` (from ``x + room``, right to left)."""
        def esc(text: str) -> str:
            return _esc(bidi_safe(text) if self.rtl else text)

        for i, t in enumerate(texts):
            ty = y + (i + 1) * _LINE_H - 5
            body = esc(t.text)
            if t.cls == "acts":  # a list of action names, each marked as one
                body = ", ".join(f'<tspan class="rsd-act">{esc(a)}</tspan>'
                                 for a in t.text.rstrip(",").split(", "))
                body += "," if t.text.endswith(",") else ""
            elif t.act:
                body = (f'<tspan class="rsd-act">{esc(t.act)}</tspan>'
                        f"{esc(t.text[len(t.act):])}")
            tx, rtl = (x + room - t.indent, ' direction="rtl"') if self.rtl \
                else (x + t.indent, "")
            self.out.append(f'<text class="rsd-{t.cls}" x="{tx}" y="{ty}"{rtl}>{body}</text>')


def _draw(c: _Canvas, m: _M, x: int, y: int) -> None:
    n = m.node
    if n is None:
        _draw_column(c, m, x, y)
    elif isinstance(n, Frame):
        _draw_frame(c, m, n, x, y)
    elif isinstance(n, Row):
        _draw_row(c, m, x, y)
    else:
        _draw_box(c, m, n, x, y)


def _draw_column(c: _Canvas, m: _M, x: int, y: int) -> None:
    cx = x + m.w // 2
    for i, k in enumerate(m.kids):
        if i:
            c.line(cx, y - _GAP, cx, y - 1)
        _draw(c, k, x + (m.w - k.w) // 2, y)
        y += k.h + _GAP


_BOX_CLASS = {Steps: "steps", Decision: "decision", Terminal: "end", Ref: "ref",
              Folded: "folded"}


def _draw_box(c: _Canvas, m: _M, n: Node, x: int, y: int) -> None:
    kind = _BOX_CLASS[type(n)]
    w, h = m.box_w, m.box_h
    bx = x + (m.w - w) // 2
    c.out.append(f'<g class="rsd-node rsd-{kind}">')
    if isinstance(n, Decision):
        pts = [(bx + _HEX, y), (bx + w - _HEX, y), (bx + w, y + h // 2), (bx + w - _HEX, y + h),
               (bx + _HEX, y + h), (bx, y + h // 2)]
        c.out.append(f'<polygon class="rsd-box rsd-{kind}" points="'
                     + " ".join(f"{px},{py}" for px, py in pts) + '"/>')
    else:
        rx = 16 if isinstance(n, Terminal) else 3
        c.out.append(f'<rect class="rsd-box rsd-{kind}" x="{bx}" y="{y}" width="{w}" '
                     f'height="{h}" rx="{rx}"/>')
    side = _HEX if isinstance(n, Decision) else 0
    c.texts(bx + _PAD_X + side, y + _PAD_Y, m.texts, w - 2 * (_PAD_X + side))
    c.out.append("</g>")
    if m.kids:  # a decision's consequences, under it
        cx = x + m.w // 2
        c.line(cx, y + h, cx, y + h + _GAP - 1)
        _draw_column(c, m.kids[0], x + (m.w - m.kids[0].w) // 2, y + h + _GAP)


def _draw_frame(c: _Canvas, m: _M, n: Frame, x: int, y: int) -> None:
    c.out.append(f'<g class="rsd-frame rsd-{n.kind}">')
    c.out.append(f'<rect class="rsd-frame rsd-{n.kind}" x="{x}" y="{y}" width="{m.w}" '
                 f'height="{m.h}" rx="8"/>')
    c.texts(x + _FRAME_PAD, y + _FRAME_PAD - 4, m.texts, m.w - 2 * _FRAME_PAD)
    col = m.kids[0]
    inset = _LOOP_INSET if n.kind == "loop" else 0
    top = y + _FRAME_PAD + len(m.texts) * _LINE_H + 4
    inner = m.w - 2 * _FRAME_PAD - inset
    if n.kind == "loop":  # the way back to the top of the body, drawn, not only coloured
        ax, left = x + _FRAME_PAD + 2, x + _FRAME_PAD + inset - 2
        c.out.append(f'<path class="rsd-back" d="M{left},{top + col.h - 8} H{ax} V{top + 8} '
                     f'H{left}" marker-end="url(#{c.arrow})"/>')
    _draw_column(c, col, x + _FRAME_PAD + inset + (inner - col.w) // 2, top)
    c.out.append("</g>")


def _draw_row(c: _Canvas, m: _M, x: int, y: int) -> None:
    centres: list[int] = []
    bx = x
    for k in m.kids:
        centres.append(bx + k.w // 2)
        bx += k.w + _ROW_GAP
    cx, bottom = x + m.w // 2, y + m.h
    lo, hi = min(centres[0], cx), max(centres[-1], cx)
    c.line(lo, y, hi, y, head=False)
    c.line(lo, bottom, hi, bottom, head=False)
    bx = x
    for k, kc in zip(m.kids, centres, strict=True):
        c.line(kc, y, kc, y + _FORK - 1)
        _draw(c, k, bx, y + _FORK)
        c.line(kc, y + _FORK + k.h, kc, bottom, head=False)
        bx += k.w + _ROW_GAP


_STYLE = (
    ".rsd-bg{fill:#fff}"
    ".rsd-diagram text{font-family:sans-serif;font-size:13px;fill:#1a1a1a}"
    ".rsd-title,.rsd-who,.rsd-label,.rsd-act{font-weight:bold}"
    ".rsd-cond{font-style:italic}"
    ".rsd-box{stroke:#333;stroke-width:1.5}"
    "rect.rsd-steps{fill:#f2f2f2}"
    "polygon.rsd-decision{fill:#fff3cc;stroke-width:2}"
    "rect.rsd-end{fill:#dde8f3;stroke-width:2.5}"
    "rect.rsd-ref{fill:#fff;stroke-dasharray:5 3}"
    "rect.rsd-folded{fill:#f7f7f7;stroke-dasharray:1 3}"
    "rect.rsd-frame{fill:none;stroke:#666;stroke-width:1.2}"
    "rect.rsd-loop{stroke-dasharray:7 4}"
    "rect.rsd-if,rect.rsd-after{stroke-dasharray:2 3}"
    "rect.rsd-deal{stroke:#333;stroke-width:1.8}"
    ".rsd-edge,.rsd-back{stroke:#444;stroke-width:1.3;fill:none}"
    ".rsd-head{fill:#444}"
)

# XML 1.0 allows no control characters but tab and newlines, whatever a doc string holds
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def escape_xml(text: str) -> str:
    """``text`` as XML character data or an attribute value: escaped, and without the
    control characters XML 1.0 refuses."""
    # html's escape, not xml.sax.saxutils': that one imports urllib, http and ssl (a
    # hundredth of a second of every book); & < > and " as that one wrote them
    return escape(_XML_BAD.sub("?", text), quote=False).replace('"', "&quot;")


_esc = escape_xml

# a card code: a rank, then a suit's symbol ("T♥", "10♠")
_CARD_CODE = re.compile("(?:10|[2-9TJQKA])[♠♥♦♣]")


def bidi_safe(text: str) -> str:
    """``text`` for a right-to-left line: each card code isolated left to right (U+2066 ...
    U+2069), so that "T♥" keeps its suit on its right (a suit symbol alone takes the line's
    direction, and a mark after it does not hold across ``tspan``s in Chromium), while a run
    of cards reads, like the line, from the right."""
    return _CARD_CODE.sub(lambda m: "\u2066" + m.group(0) + "\u2069", text)


def id_prefix(name: str) -> str:
    """The prefix of the ids of a game's diagram, from its spec's name (ids stay unique when
    several pictures share one page)."""
    return "rsd-" + (re.sub(r"[^A-Za-z0-9_-]", "-", name) or "game")


def draw(nodes: Sequence[Node], title: str, alt: str, prefix: str, words: Words = same,
         direction: str = "ltr") -> str:
    """The whole ``<svg>`` element of ``nodes`` (a column, top to bottom), labelled by ``title``
    and ``alt`` for assistive technology, its ids prefixed by ``prefix``; the words it adds
    through ``words``, its text set right to left when ``direction`` is ``rtl``."""
    col = _measure_column(nodes, words)
    w, h = col.w + 2 * _MARGIN, col.h + 2 * _MARGIN
    c = _Canvas(f"{prefix}-arrow", direction == "rtl")
    _draw_column(c, col, _MARGIN, _MARGIN)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rsd-diagram" '
            f'viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc">')
    marker = (f'<defs><marker id="{c.arrow}" viewBox="0 0 10 10" refX="9" refY="5" '
              'markerWidth="7" markerHeight="7" orient="auto">'
              '<path class="rsd-head" d="M0,0 L10,5 L0,10 z"/></marker></defs>')
    parts = [head, f'<title id="{prefix}-title">{_esc(title)}</title>',
             f'<desc id="{prefix}-desc">{_esc(alt)}</desc>', f"<style>{_STYLE}</style>",
             marker, f'<rect class="rsd-bg" x="0" y="0" width="{w}" height="{h}"/>',
             *c.out, "</svg>"]
    return "\n".join(parts) + "\n"


# ---- keeping it readable -----------------------------------------------------------------------

_MAX_BOXES = 40
_MAX_DEPTH = 7


def _kids(n: Node) -> tuple[Node, ...]:
    if isinstance(n, Frame):
        return n.children
    if isinstance(n, Row):
        return n.branches
    if isinstance(n, Decision):
        return n.after
    return ()


def _count(nodes: Sequence[Node]) -> int:
    return sum((0 if isinstance(n, Row) else 1) + _count(_kids(n)) for n in nodes)


def _depth(nodes: Sequence[Node], d: int = 0) -> int:
    """The depth of the deepest frame (0: none)."""
    return max((max(d + 1 if isinstance(n, Frame) else 0,
                    _depth(_kids(n), d + 1 if isinstance(n, Frame) else d)) for n in nodes),
               default=0)


def _decision_names(nodes: Sequence[Node]) -> list[str]:
    out: list[str] = []
    for n in nodes:
        if isinstance(n, Decision):
            out += [a for a, _ in n.actions]
        elif isinstance(n, Folded):
            out += list(n.decisions)
        out += _decision_names(_kids(n))
    return list(dict.fromkeys(out))




def _fold_at(nodes: Sequence[Node], at: int, words: Words, d: int = 0) -> tuple[Node, ...]:
    """``nodes`` with every frame at depth ``at`` or deeper folded into one box."""
    out: list[Node] = []
    for n in nodes:
        if isinstance(n, Frame):
            if d + 1 >= at:
                out.append(Folded(frame_label(n, words), tuple(_decision_names(n.children))))
            else:
                out.append(attrs.evolve(n, children=_fold_at(n.children, at, words, d + 1)))
        elif isinstance(n, Row):
            out.append(Row(_fold_at(n.branches, at, words, d)))
        elif isinstance(n, Decision):
            out.append(attrs.evolve(n, after=_fold_at(n.after, at, words, d)))
        else:
            out.append(n)
    return tuple(out)


def fold(nodes: Sequence[Node], words: Words = same) -> tuple[Node, ...]:
    """Deep detail folded until the picture has at most about ``_MAX_BOXES`` boxes; the deal's
    own frame and the frames just inside it are always drawn."""
    out = tuple(nodes)
    if _depth(out) > _MAX_DEPTH:
        out = _fold_at(out, _MAX_DEPTH + 1, words)
    while _count(out) > _MAX_BOXES and _depth(out) > 3:
        out = _fold_at(out, _depth(out), words)
    return out


# ---- the alt text --------------------------------------------------------------------------------

def _say_line(line: Line, w: Words) -> str:
    text = line.text.rstrip(":")
    if not line.children:
        return text
    return fill(w("{head}: {body}"), head=text, body=", ".join(_say_line(c, w)
                                                              for c in line.children))


def _say(nodes: Sequence[Node], deals: list[str], w: Words) -> str:
    return w("; then ").join(_say_node(n, deals, w) for n in nodes)


def _say_decision(n: Decision, deals: list[str], w: Words) -> str:
    acts = w(" or ").join(
        fill(w("{action} ({text})"), action=name, text=lower_first(short(p, 60)))
        if p and p.lower() != name.replace("_", " ") else name
        for name, p in n.actions)
    text = fill(w("{who}: {actions}"), who=decides(n.who, w), actions=acts)
    if n.title:
        text = fill(w("{title}: {decision}"), title=n.title, decision=text)
    if n.after:
        text = fill(w("{decision}; after that, {then}"), decision=text,
                                                          then=_say(n.after, deals, w))
    return text


def _say_node(n: Node, deals: list[str], w: Words) -> str:
    match n:
        case Steps(lines=ls):
            return ", ".join(_say_line(x, w) for x in ls)
        case Decision():
            return _say_decision(n, deals, w)
        case Terminal(text=t, conds=c) | Ref(text=t, conds=c):
            return said_if(c, t, w)
        case Frame(kind="deal"):
            deals.append(_say(n.children, deals, w))
            return w("a deal is played (described below)")
        case Frame():
            return fill(w("{label} ({inner})"), label=frame_label(n, w),
                                                 inner=_say(n.children, deals, w))
        case Row(branches=bs):
            return fill(w("either {branches}"), branches=w(", or ").join(
                f"({_say_node(b, deals, w)})" for b in bs))
        case Folded(label=lbl, decisions=ds):
            return fill(w("{label} (details folded; decisions {names})"),
                label=lbl, names=", ".join(ds) or w("none"))
        case _:
            assert_never(n)


def alt_text(nodes: Sequence[Node], w: Words = same) -> str:
    """The picture in words, for readers who cannot see it: the match in a sentence, then
    each deal in one."""
    deals: list[str] = []
    first = nodes[0] if len(nodes) == 1 else None
    if (isinstance(first, Frame) and first.kind == "loop" and first.children
            and isinstance(first.children[0], Frame) and first.children[0].kind == "deal"):
        # the usual match, a loop that starts with a deal: say it as a series of deals
        deals.append(_say(first.children[0].children, deals, w))
        head = fill(w("A match is a series of deals ({loop})"), loop=first.label)
        rest = first.children[1:]
        match_text = fill(w("{match}; after each deal, {then}"),
            match=head, then=_say(rest, deals, w)) if rest else head
    else:
        match_text = fill(w("A match: {steps}"), steps=_say(nodes, deals, w))
    return " ".join([fill(w("{text}."), text=match_text)]
                    + [fill(w("Each deal: {steps}."), steps=d) for d in deals])
