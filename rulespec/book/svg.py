"""The phase diagram's picture: the tree of what is drawn (steps, decisions, ends, frames,
rows of branches, folded frames), measured bottom-up and drawn top-down as SVG; and the
escaping every SVG of the book shares (:mod:`rulespec.book.layout` draws the table with it).

The SVG is written by hand, with nothing but the standard library: no external fonts, no links,
no scripts, every coordinate an integer, so the same tree always gives the same bytes (a
committed rulebook stays byte-stable). Text widths are estimated from the number of characters.
Nothing here reads a spec: :mod:`rulespec.book.diagram` builds the tree, every condition in it
already said in words.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from html import escape

import attrs
from attrs import frozen

__all__ = ["Decision", "Diagram", "Folded", "Frame", "Line", "Node", "Ref", "Row", "Steps",
           "Terminal", "cond_text", "decides", "draw", "escape_xml", "frame_label", "id_prefix",
           "short"]


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
    """``end deal`` or ``end match``, under the conditions of the ``if`` around it."""

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


def cond_text(conds: Sequence[str], limit: int = 110) -> str:
    """Conditions that all hold (each in words), as one phrase."""
    return short(" and ".join(conds), limit) if conds else "true"


def decides(who: str) -> str:
    """Who decides, as a clause: "each player from the declarer's left, except the declarer,
    decides" (a comma before the verb when the subject has one)."""
    # "each player from the declarer's left, except the declarer, decides"
    return f"{who}{',' if ',' in who else ''} decides"


def frame_label(f: Frame) -> str:
    """A frame's label: an ``if`` frame's conditions, any other frame's own label."""
    return f"only if {cond_text(f.conds)}" if f.kind == "if" else f.label


# ---- measuring and drawing -----------------------------------------------------------------------
# Text is 13 px; a character is taken as 7 px wide (the estimate errs wide for most text).

_CHAR_W = 7
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


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width=max(width, 12), break_on_hyphens=False) or [""]


def _step_texts(lines: Sequence[Line], depth: int = 0) -> list[_Text]:
    out: list[_Text] = []
    for line in lines:
        if depth > 3:
            return [_Text(depth * 2 * _CHAR_W, "t", "…")]
        for i, part in enumerate(_wrap(line.text, _WRAP - 2 * depth)):
            out.append(_Text((depth * 2 + (2 if i else 0)) * _CHAR_W, "t", part))
        out += _step_texts(line.children, depth + 1)
    if depth == 0 and len(out) > _MAX_STEP_LINES:
        out = out[: _MAX_STEP_LINES - 1] + [_Text(0, "t", "… and more")]
    return out


def _decision_texts(d: Decision) -> list[_Text]:
    out = [_Text(0, "title", t) for t in _wrap(d.title, _WRAP)] if d.title else []
    out += [_Text(0, "who", t) for t in _wrap(f"{decides(d.who)}:", _WRAP)]
    for name, phrase in d.actions:
        for i, part in enumerate(_wrap(f"{name}: {phrase}" if phrase else name, _WRAP - 2)):
            act = name if i == 0 and part.startswith(name) else ""
            out.append(_Text((2 if i else 0) * _CHAR_W + _CHAR_W, "t", part, act))
    return out


def _box_texts(n: Node) -> list[_Text]:
    match n:
        case Steps(lines=ls):
            return _step_texts(ls)
        case Decision():
            return _decision_texts(n)
        case Terminal(text=t, conds=c) | Ref(text=t, conds=c):
            head = [_Text(0, "cond", s) for s in _wrap(f"if {cond_text(c)}:", _WRAP)] if c else []
            return head + [_Text(0, "t", s) for s in _wrap(t, _WRAP)]
        case Folded(label=lbl, decisions=ds):
            out = [_Text(0, "cond", s) for s in _wrap(lbl + " (folded), decisions:", _WRAP)]
            return out + [_Text(_CHAR_W, "acts", s) for s in _wrap(", ".join(ds), _WRAP)]
        case _:
            return []


def _text_w(texts: Sequence[_Text]) -> int:
    return max((t.indent + len(t.text) * _CHAR_W for t in texts), default=0)


def _measure(n: Node) -> _M:
    if isinstance(n, Frame):
        label = [_Text(0, "label", s) for s in _wrap(_loop_mark(n) + frame_label(n),
                                                    _LABEL_WRAP)]
        col = _measure_column(n.children)
        inset = _LOOP_INSET if n.kind == "loop" else 0
        inner = max(col.w, _text_w(label))
        return _M(n, inner + 2 * _FRAME_PAD + inset,
                  2 * _FRAME_PAD + len(label) * _LINE_H + 4 + col.h, label, [col])
    if isinstance(n, Row):
        kids = [_measure(b) for b in n.branches]
        return _M(n, sum(k.w for k in kids) + _ROW_GAP * (len(kids) - 1),
                  2 * _FORK + max(k.h for k in kids), kids=kids)
    texts = _box_texts(n)
    side = _HEX if isinstance(n, Decision) else 0
    w = _text_w(texts) + 2 * (_PAD_X + side)
    h = len(texts) * _LINE_H + 2 * _PAD_Y
    m = _M(n, w, h, texts, box_w=w, box_h=h)
    if isinstance(n, Decision) and n.after:
        after = _measure_column(n.after)
        m.kids = [after]
        m.w = max(w, after.w)
        m.h = h + _GAP + after.h
    return m


def _measure_column(nodes: Sequence[Node]) -> _M:
    kids = [_measure(n) for n in nodes]
    return _M(None, max((k.w for k in kids), default=0),
              sum(k.h for k in kids) + _GAP * max(len(kids) - 1, 0), kids=kids)


def _loop_mark(n: Frame) -> str:
    return "↻ " if n.kind == "loop" else ""


class _Canvas:
    """Collects the SVG elements; ``arrow`` is the id of the arrowhead marker."""

    def __init__(self, arrow: str) -> None:
        self.out: list[str] = []
        self.arrow = arrow

    def line(self, x1: int, y1: int, x2: int, y2: int, head: bool = True) -> None:
        end = f' marker-end="url(#{self.arrow})"' if head else ""
        self.out.append(f'<path class="rsd-edge" d="M{x1},{y1} L{x2},{y2}"{end}/>')

    def texts(self, x: int, y: int, texts: Sequence[_Text]) -> None:
        for i, t in enumerate(texts):
            ty = y + (i + 1) * _LINE_H - 5
            body = _esc(t.text)
            if t.cls == "acts":  # a list of action names, each marked as one
                body = ", ".join(f'<tspan class="rsd-act">{_esc(a)}</tspan>'
                                 for a in t.text.rstrip(",").split(", "))
                body += "," if t.text.endswith(",") else ""
            elif t.act:
                body = (f'<tspan class="rsd-act">{_esc(t.act)}</tspan>'
                        f"{_esc(t.text[len(t.act):])}")
            self.out.append(f'<text class="rsd-{t.cls}" x="{x + t.indent}" y="{ty}">'
                            f"{body}</text>")


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
    c.texts(bx + _PAD_X + side, y + _PAD_Y, m.texts)
    c.out.append("</g>")
    if m.kids:  # a decision's consequences, under it
        cx = x + m.w // 2
        c.line(cx, y + h, cx, y + h + _GAP - 1)
        _draw_column(c, m.kids[0], x + (m.w - m.kids[0].w) // 2, y + h + _GAP)


def _draw_frame(c: _Canvas, m: _M, n: Frame, x: int, y: int) -> None:
    c.out.append(f'<g class="rsd-frame rsd-{n.kind}">')
    c.out.append(f'<rect class="rsd-frame rsd-{n.kind}" x="{x}" y="{y}" width="{m.w}" '
                 f'height="{m.h}" rx="8"/>')
    c.texts(x + _FRAME_PAD, y + _FRAME_PAD - 4, m.texts)
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


def id_prefix(name: str) -> str:
    """The prefix of the ids of a game's diagram, from its spec's name (ids stay unique when
    several pictures share one page)."""
    return "rsd-" + (re.sub(r"[^A-Za-z0-9_-]", "-", name) or "game")


def draw(nodes: Sequence[Node], title: str, alt: str, prefix: str) -> str:
    """The whole ``<svg>`` element of ``nodes`` (a column, top to bottom), labelled by ``title``
    and ``alt`` for assistive technology, its ids prefixed by ``prefix``."""
    col = _measure_column(nodes)
    w, h = col.w + 2 * _MARGIN, col.h + 2 * _MARGIN
    c = _Canvas(f"{prefix}-arrow")
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
