"""A picture of the table at one moment of play: where every card lies, seat by seat.

Drawn from a running :class:`~rulespec.engine.state.State` and the spec's zone
declarations alone, so it shows any game's layout (rows, piles, a centre, a stock) without a
line of game-specific code: each seat's own zones in a box at its place around the table, the
shared zones in the middle. A zone every player may see shows its cards; one only its owner
sees shows them too, marked as private (the reader is shown what a player would see of their
own place); one nobody sees shows how many cards it holds. Empty zones are left out.

The SVG is written by hand, like :mod:`rulespec.book.diagram`: integer coordinates, no scripts, no
external references, the same state always giving the same bytes. Its words go through ``words``
(the identity by default; a translated book passes its catalog lookup), generated phrases as
templates filled after translation; a right-to-left book's table (``direction="rtl"``) sets each
line from the right edge of its box, each card code kept left to right ("T♥").
"""

from __future__ import annotations

import attrs

from rulespec.book.document import card_text
from rulespec.book.svg import Diagram, Words, bidi_safe, escape_xml, fill, same, text_px
from rulespec.lang import ast
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["table_picture"]

_CHAR_W10 = 60  # ten characters' width in the picture's 12px sans-serif, rounded up
#: text_px measures 13px text, a Latin character 7 px wide: this picture's 12px text is 6
_PX_TO_12 = (6, 7)
_LINE_H = 17
_PAD = 8
_GAP = 14
_MARGIN = 12
_RED = frozenset({"H", "D"})
_SEEN = {"owner": "{zone} (hidden from the others)",
         "team": "{zone} (hidden from the other team)"}


@attrs.frozen
class _Box:
    """A block of lines: its heading and, for each zone shown, a label and its cards."""

    heading: str
    lines: tuple[tuple[str, tuple[str, ...], str], ...]  # label, cards, or a note for none

    @property
    def width(self) -> int:
        longest = max([_px(self.heading)] + [
            _px(label) + 2 * _CHAR_W10 // 10
            + (sum(_px(_card(c)) + _CHAR_W10 // 10 for c in cards) if cards else _px(note))
            for label, cards, note in self.lines])
        return longest + 2 * _PAD

    @property
    def height(self) -> int:
        return (1 + len(self.lines)) * _LINE_H + 2 * _PAD


def _px(text: str) -> int:
    """The width of ``text`` in the picture's 12px type: ten Latin characters take 60 px, wider
    scripts (Cyrillic, Persian) more."""
    return text_px(text) * _PX_TO_12[0] // _PX_TO_12[1]


def _card(code: str) -> str:
    # the picture writes a card as the book's text does (the ten as 10: "T♣" reads as an
    # ace, туз, to a Russian reader), a second pack's in its angle quotes (:func:`_quoted`)
    if code.startswith("‹"):
        return "‹" + card_text(code.strip("‹›")) + "›"
    return card_text(code)


def _zone_lines(spec: CheckedSpec, zones: dict[str, object], seat: int | None, words: Words,
                names: Words | None = None, digits: Words = same, card: Words = same,
                second: frozenset[str] = frozenset()
                ) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    out: list[tuple[str, tuple[str, ...], str]] = []
    said = names or words
    for z in spec.zones:
        if z.per_team:
            # a team's pile lies on the table, between its players
            piles = zones[z.name] if seat is None else []
            assert isinstance(piles, list)
            for t, pile in enumerate(piles):
                _zone_line(out, z, fill(words("{zone} of team {team}"),
                    zone=said(z.name), team=digits(str(t))), pile, words, digits, card)
            continue
        if z.per_player != (seat is not None):
            continue
        cards = zones[z.name]
        if seat is not None:
            assert isinstance(cards, list)
            # a player's own cards in the order the book writes them, suit by suit (a pile in
            # the middle keeps its order: its top card is the one that counts)
            order = spec.deck.order or CARD_ORDER
            cards = sorted(cards[seat], key=lambda c: order.get(str(c), 0))
        _zone_line(out, z, said(z.name), cards, words, digits,
                   _quoted(card) if z.name in second else card)
    return tuple(out)


def _quoted(card: Words) -> Words:
    """A second pack's card as the example's text writes it, in angle quotes (``‹2♠›``;
    round 22: the figure wrote the bid cards as playing cards)."""
    return lambda code: "‹" + card(code) + "›"


def _zone_line(out: list[tuple[str, tuple[str, ...], str]], z: ast.ZoneDecl, name: str,
               cards: object, words: Words, digits: Words = same, card: Words = same) -> None:
    """One pile of the picture, as its visibility lets it be shown (none when empty)."""
    assert isinstance(cards, list)
    if not cards:
        return
    seen = _SEEN.get(z.visibility or "")
    label = fill(words(seen), zone=name) if seen else name
    if z.visibility == "nobody":
        key = "{count} card face down" if len(cards) == 1 else "{count} cards face down"
        out.append((label, (), fill(words(key), count=digits(str(len(cards))))))
    else:
        # top card last, as the zones keep them; a pile reads bottom to top
        out.append((label, tuple(card(str(c)) for c in cards), ""))


def table_picture(spec: CheckedSpec, zones: dict[str, object], hands: int, dealer: int,
                  title: str, moment: str, words: Words = same,
                  direction: str = "ltr", first_seat: int = 0,
                  names: Words | None = None, digits: Words = same,
                  card: Words = same, second: frozenset[str] = frozenset()) -> Diagram:
    """The table as ``zones`` (a state's zones: a list per shared zone, a list of lists per
    per-player one) lay: ``hands`` seats around a middle of shared zones. ``moment`` says
    when this is ("just before the first play"), for the alt text. Its words go through
    ``words``, a zone's name through ``names`` where given (a player's book says it in
    words, "the declarer's right row"), its numbers through ``digits`` (Persian writes
    ۰۱۲…۹; round 9: the figure said «جایگاه 3» where the text says «جایگاه ۳»);
    ``direction="rtl"`` sets its text right to left."""
    seats = [_Box(fill(words("seat {seat} (dealer)") if q == dealer else words("seat {seat}"),
                       seat=digits(str(q + first_seat))),
                  _zone_lines(spec, zones, q, words, names, digits, card, second))
             for q in range(hands)]
    middle = _Box(words("the middle of the table"),
                  _zone_lines(spec, zones, None, words, names, digits, card, second))
    rtl = direction == "rtl"
    # seat 0 at the bottom, then clockwise: left, top, right; more seats share the top and
    # bottom rows (a long table)
    bottom, left, top, right = _places(hands)
    col_w = max([middle.width] + [seats[q].width for q in bottom + top])
    side_w = max([0] + [seats[q].width for q in left + right])
    row_h = {k: max([0] + [seats[q].height for q in qs])
             for k, qs in (("top", top), ("bottom", bottom))}
    side_h = sum(seats[q].height + _GAP for q in left) - _GAP if left else 0
    side_h = max(side_h, sum(seats[q].height + _GAP for q in right) - _GAP if right else 0)
    mid_h = max(middle.height, side_h)
    top_w = sum(seats[q].width + _GAP for q in top) - _GAP if top else 0
    bot_w = sum(seats[q].width + _GAP for q in bottom) - _GAP if bottom else 0
    centre_w = max(col_w, top_w, bot_w)
    w = 2 * _MARGIN + (side_w + _GAP if left else 0) + centre_w + (side_w + _GAP if right
                                                                    else 0)
    h = 2 * _MARGIN + (row_h["top"] + _GAP if top else 0) + mid_h + \
        (row_h["bottom"] + _GAP if bottom else 0)
    cx = _MARGIN + (side_w + _GAP if left else 0)
    y_mid = _MARGIN + (row_h["top"] + _GAP if top else 0)
    out: list[str] = []
    _row(out, [seats[q] for q in top], cx, _MARGIN, centre_w, rtl)
    _draw(out, middle, cx + (centre_w - middle.width) // 2,
          y_mid + (mid_h - middle.height) // 2, "rst-middle", rtl)
    _column(out, [seats[q] for q in left], _MARGIN, y_mid, mid_h, rtl)
    _column(out, [seats[q] for q in right], cx + centre_w + _GAP, y_mid, mid_h, rtl)
    _row(out, [seats[q] for q in bottom], cx, y_mid + mid_h + _GAP, centre_w, rtl)
    alt = _alt(moment, seats, middle, words)
    prefix = "rst-" + "".join(ch if ch.isalnum() else "-" for ch in spec.name)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rst-table" viewBox="0 0 {w} {h}" '
            f'width="{w}" height="{h}" role="img" '
            f'aria-labelledby="{prefix}-title {prefix}-desc">')
    parts = [head, f'<title id="{prefix}-title">{escape_xml(title)}</title>',
             f'<desc id="{prefix}-desc">{escape_xml(alt)}</desc>', f"<style>{_STYLE}</style>",
             f'<rect class="rst-bg" x="0" y="0" width="{w}" height="{h}"/>', *out, "</svg>"]
    return Diagram("\n".join(parts) + "\n", alt)


def _places(n: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """The seats at the bottom (left to right), left side (top down), top (right to left,
    as the players sit clockwise) and right side."""
    if n == 1:
        return [0], [], [], []
    if n == 2:
        return [0], [], [1], []
    if n == 3:
        return [0], [1], [], [2]
    if n == 4:
        return [0], [1], [2], [3]
    # a long table: half the seats along the bottom (clockwise runs right to left there),
    # one at each end, the rest along the top
    rest = list(range(1, n))
    below = (n - 2) // 2
    bottom = list(reversed([0] + rest[-below:])) if below else [0]
    left = [rest[0]]
    top = rest[1:len(rest) - below - 1]
    right = [rest[len(rest) - below - 1]]
    return bottom, left, top, right


def _row(out: list[str], boxes: list[_Box], x: int, y: int, width: int, rtl: bool) -> None:
    total = sum(b.width + _GAP for b in boxes) - _GAP if boxes else 0
    x += (width - total) // 2
    for b in boxes:
        _draw(out, b, x, y, "rst-seat", rtl)
        x += b.width + _GAP


def _column(out: list[str], boxes: list[_Box], x: int, y: int, height: int, rtl: bool) -> None:
    total = sum(b.height + _GAP for b in boxes) - _GAP if boxes else 0
    y += (height - total) // 2
    for b in boxes:
        _draw(out, b, x, y, "rst-seat", rtl)
        y += b.height + _GAP


def _draw(out: list[str], b: _Box, x: int, y: int, cls: str, rtl: bool) -> None:
    out.append(f'<rect class="{cls}" x="{x}" y="{y}" width="{b.width}" height="{b.height}" '
               'rx="6"/>')
    ty = y + _PAD + 12
    # right to left: each line starts at the box's right edge, and a card code keeps its
    # suit on its right
    tx, attr = (x + b.width - _PAD, ' direction="rtl"') if rtl else (x + _PAD, "")

    def esc(text: str) -> str:
        return escape_xml(bidi_safe(text) if rtl else text)

    out.append(f'<text class="rst-head" x="{tx}" y="{ty}"{attr}>{esc(b.heading)}</text>')
    for label, cards, note in b.lines:
        ty += _LINE_H
        spans = [f'<tspan class="rst-zone">{esc(label)}:</tspan>']
        if cards:
            for c in cards:
                code = c.strip("‹›").partition("|")[0]
                red = len(code) == 2 and code[1] in _RED
                spans.append(f'<tspan class="{"rst-red" if red else "rst-card"}"> '
                             f'{esc(_card(c))}</tspan>')
        else:
            spans.append(f'<tspan class="rst-note"> {esc(note)}</tspan>')
        out.append(f'<text x="{tx}" y="{ty}"{attr}>{"".join(spans)}</text>')


def _alt(moment: str, seats: list[_Box], middle: _Box, words: Words) -> str:
    def said(b: _Box) -> str:
        parts = [fill(words("{zone}: {cards}"),
            zone=label, cards=" ".join(_card(c) for c in cards) if cards else note)
            for label, cards, note in b.lines]
        return fill(words("{place}: {zones}"),
            place=b.heading, zones="; ".join(parts) if parts else words("nothing"))
    return fill(words("The table {moment}."), moment=moment) + " " + ". ".join(
        [said(middle)] + [said(s) for s in seats]) + "."


_STYLE = (
    ".rst-table{font:12px sans-serif}"
    ".rst-bg{fill:#fff}"
    ".rst-seat{fill:#f4f7fb;stroke:#345;stroke-width:1.2}"
    ".rst-middle{fill:#eef6ee;stroke:#354;stroke-width:1.2}"
    ".rst-head{font-weight:bold;fill:#123}"
    ".rst-zone{fill:#345}"
    ".rst-card{fill:#111}"
    ".rst-red{fill:#b00}"
    ".rst-note{fill:#555;font-style:italic}"
)
