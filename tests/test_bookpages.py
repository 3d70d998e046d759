"""Every rulebook page (tests/books/pages.py: ``book_pages``) in a real headless Chromium, at a
desk's width (1280 px) and a phone's (390 px): the page never scrolls sideways and no table,
figure, code block or table cell holds more than its box shows; every character of its text is
drawn by some installed font (Chromium falls back to any font fontconfig knows, so coverage by
any font is the question); the page says its language and direction, and a right-to-left page
mirrors its layout. Screenshots of each page at each width are kept in build/screenshots/
(``<game>-<lang>-<width>.png``) to look at.

One browser per module (per test worker), one tab reused. The default suite checks every page
and keeps a screenshot of its first screen; ``pytest -m slow`` keeps whole-page screenshots.
"""

from __future__ import annotations

import functools
import math
import re
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.books.pages import book_pages
from tests.test_bookhtml import CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PAGES = book_pages()
WIDTHS = ((1280, 900), (390, 844))

#: what overflows, by the page's own measure: the document wider than the window, or a box
#: whose content is wider than the box (each found one named by its tag, class and caption)
_OVERFLOW_JS = """() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth)
    out.push(`the page scrolls sideways: ${doc.scrollWidth} px in a ${doc.clientWidth} px window`);
  const boxes = document.querySelectorAll(
    'table, th, td, caption, figure, .figure-art, pre, .table-wrap, main, nav');
  for (const e of boxes) {
    if (e.scrollWidth > e.clientWidth + 1) {
      const cap = e.closest('.table-wrap')?.getAttribute('aria-label') ?? '';
      const text = (e.textContent || '').trim().slice(0, 60);
      out.push(`${e.tagName.toLowerCase()}.${e.className} (${cap}) holds ${e.scrollWidth} px ` +
               `in ${e.clientWidth} px: ${JSON.stringify(text)}`);
    }
  }
  return out;
}"""

#: every piece of text the page shows or announces: text nodes outside <style> and <script>
#: (the SVG's labels, title and description among them) and attribute text shown by the style
#: sheet (a stacked table's labels) or read out (aria-label, title)
_TEXT_JS = """() => {
  const parts = [];
  const walk = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const tag = n.parentElement?.tagName.toLowerCase();
    if (tag !== 'style' && tag !== 'script') parts.push(n.data);
  }
  for (const e of document.querySelectorAll('[data-label], [aria-label], [title]'))
    for (const a of ['data-label', 'aria-label', 'title'])
      if (e.hasAttribute(a)) parts.push(e.getAttribute(a));
  return parts.join(' ');
}"""

#: characters no font draws a glyph for by design: spaces, controls and format characters (the
#: zero-width non-joiner of Persian, bidi controls), and variation selectors
_NO_GLYPH = frozenset({"Zs", "Zl", "Zp", "Cc", "Cf"})


@functools.cache
def covered() -> frozenset[int]:
    """Every code point some installed font covers, by fontconfig (which Chromium asks for a
    fallback font): the union of all fonts' character sets, read in one call."""
    listing = subprocess.run(["fc-list", "--format", "%{charset}\n"], check=True,
                             capture_output=True, text=True).stdout
    points: set[int] = set()
    for item in listing.split():
        first, _, last = item.partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(points)


def missing_glyphs(text: str) -> list[str]:
    """The distinct characters of ``text`` that no installed font covers, as ``U+XXXX 'c'
    NAME``."""
    have = covered()
    out = []
    for ch in sorted(set(text)):
        if unicodedata.category(ch) in _NO_GLYPH or 0xFE00 <= ord(ch) <= 0xFE0F:
            continue
        if ord(ch) not in have:
            out.append(f"U+{ord(ch):04X} {ch!r} {unicodedata.name(ch, '?')}")
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def tab(browser: Browser) -> Iterator[Page]:
    page = browser.new_page(viewport={"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    yield page
    page.close()


def _id(page: tuple[str, str, Path]) -> str:
    return f"{page[0]}-{page[1]}"


def check_page(tab: Page, game: str, lang: str, path: Path, whole: bool) -> list[str]:
    """Open one page and return what is wrong with it, at each width; keep its screenshots
    (the first screen, or the whole page when ``whole``)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    tab.set_viewport_size({"width": WIDTHS[0][0], "height": WIDTHS[0][1]})
    tab.goto(path.as_uri(), wait_until="load")
    html_lang, html_dir = tab.evaluate(
        "[document.documentElement.lang, document.documentElement.dir]")
    want_dir = "rtl" if lang.split("-")[0] in ("fa", "ar", "he", "ur") else "ltr"
    if (html_lang, html_dir) != (lang, want_dir):
        problems.append(f"<html lang={html_lang!r} dir={html_dir!r}>, not {lang!r} {want_dir!r}")
    for width, height in WIDTHS:
        tab.set_viewport_size({"width": width, "height": height})
        problems += [f"at {width} px: {p}" for p in tab.evaluate(_OVERFLOW_JS)]
        tab.screenshot(path=str(SCREENSHOTS / f"{game}-{lang}-{width}.png"), full_page=whole)
    problems += _check_stacking(tab)
    problems += [f"no font draws {m}" for m in missing_glyphs(tab.evaluate(_TEXT_JS))]
    return problems


#: the narrowest screen a page must fit: a 320 px phone, a column of 18 rem
NARROWEST = 320
#: the page's layout, as page.css sets it (rem): its padding on each side, below and above the
#: width where the contents stand beside the text, which takes the contents' column and gap
_PAD, _WIDE, _SIDE, _PAD_WIDE, _MAX = 1, 60, 15 + 2.5, 1.5, 76


def _window_for(column_rem: float) -> int | None:
    """The window width (px) at which the text column is ``column_rem`` wide, or None where no
    window gives it (wider than the widest column)."""
    narrow = column_rem + 2 * _PAD
    if narrow < _WIDE:
        return math.ceil(narrow * 16)
    wide = column_rem + _SIDE + 2 * _PAD_WIDE
    return math.ceil(wide * 16) if wide <= _MAX else None


def _check_stacking(tab: Page) -> list[str]:
    """The guess html.py makes of a table's width, tried: at the narrowest phone, and just above
    each width at which one of the page's tables stacks its rows (where it is still a table, in
    the least room it ever has), nothing is wider than its box."""
    widths = tab.evaluate("[...new Set([...document.querySelectorAll('.table-wrap')]"
                          ".flatMap(w => [...w.classList].filter(c => c.startsWith('stack-'))"
                          ".map(c => +c.slice(6))))]")
    windows = {NARROWEST} | {w for w in map(_window_for, [n + 0.05 for n in widths]) if w}
    problems = []
    for window in sorted(windows):
        tab.set_viewport_size({"width": window, "height": 844})
        problems += [f"at {window} px: {p}" for p in tab.evaluate(_OVERFLOW_JS)]
    return problems


@pytest.mark.parametrize(("game", "lang", "path"), PAGES, ids=[_id(p) for p in PAGES])
def test_page_fits_and_every_glyph_is_drawn(tab: Page, game: str, lang: str, path: Path) -> None:
    assert check_page(tab, game, lang, path, whole=False) == []


@pytest.mark.slow
def test_whole_page_screenshots(tab: Page) -> None:
    """Every page again, its screenshots of the whole page (long books take seconds each)."""
    problems = [f"{game}-{lang}: {p}" for game, lang, path in PAGES
                for p in check_page(tab, game, lang, path, whole=True)]
    assert problems == []


# ---- the checks themselves find what they look for --------------------------------------------
def test_overflow_is_found(tab: Page, tmp_path: Path) -> None:
    """A page whose table cell holds a word wider than a phone, and one whose own body is wider
    than the window, fail the overflow check; the same page without them passes."""
    word = "x" * 120
    bad = tmp_path / "bad.html"
    bad.write_text(f'<!DOCTYPE html><html lang="en" dir="ltr"><meta name="viewport" '
                   f'content="width=device-width"><body><div class="table-wrap"><table><tr>'
                   f"<td>{word}</td></tr></table></div><pre>{word}</pre>"
                   f'<div style="width: 2000px">wide</div></body></html>', encoding="utf-8")
    tab.set_viewport_size({"width": 390, "height": 844})
    tab.goto(bad.as_uri())
    found = tab.evaluate(_OVERFLOW_JS)
    assert any(f.startswith("the page scrolls sideways") for f in found), found
    assert any(f.startswith("pre.") for f in found), found
    assert any(f.startswith(("td.", "table.", "div.table-wrap")) for f in found), found
    good = tmp_path / "good.html"
    good.write_text('<!DOCTYPE html><html lang="en"><meta name="viewport" content="width='
                    'device-width"><body><table><tr><td>short</td></tr></table></body></html>',
                    encoding="utf-8")
    tab.goto(good.as_uri())
    assert tab.evaluate(_OVERFLOW_JS) == []


def test_a_character_no_font_draws_is_found() -> None:
    """A private-use character and an unassigned one are covered by no font here; Latin,
    Persian, Cyrillic and the suits are; the Persian zero-width non-joiner needs no glyph."""
    assert missing_glyphs("A ب پ Ж ♥♠ \u200c") == []
    assert [m.split()[0] for m in missing_glyphs("a\U000f0001\u0378")] == ["U+0378", "U+F0001"]


def test_a_right_to_left_page_mirrors(tab: Page, tmp_path: Path) -> None:
    """The Persian page: the title and text set from the right, the contents on the right of
    the text at a desk's width, a card and code left to right inside the Persian text (code
    on a page of its own: a player's book has none since it dropped its generator's note)."""
    path = next(p for g, lang, p in PAGES if lang == "fa")
    tab.set_viewport_size({"width": 1280, "height": 900})
    tab.goto(path.as_uri())
    main, nav = tab.locator("main").bounding_box(), tab.locator("nav.toc").bounding_box()
    h1 = tab.locator("h1").evaluate("e => { const r = document.createRange(); "
                                    "r.selectNodeContents(e); const b = r.getBoundingClientRect();"
                                    " return [b.left, b.right]; }")
    assert main is not None and nav is not None
    assert nav["x"] >= main["x"] + main["width"], "the contents stand right of the text"
    assert abs(h1[1] - (main["x"] + main["width"])) < 2 < h1[0] - main["x"]
    assert tab.locator(".card").first.evaluate("e => getComputedStyle(e).direction") == "ltr"
    assert tab.locator("main p").first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    # the Persian text is set in a face drawn for it, where one is installed
    family = tab.locator("main p").first.evaluate("e => getComputedStyle(e).fontFamily")
    assert re.match(r'Vazirmatn, "Noto Sans Arabic"', family), family
    from rulespec.book.document import Book, Paragraph, code, inline
    from rulespec.book.html import to_html

    page = tmp_path / "code.fa.html"
    page.write_text(to_html(Book("بازی", (Paragraph((*inline("برای هر میز "),
                                                     code("rulespec doc --players N"),
                                                     *inline(" را اجرا کنید."))),),
                                 lang="fa")), encoding="utf-8")
    tab.goto(page.as_uri())
    assert tab.locator("main p code").first.evaluate(
        "e => getComputedStyle(e).direction") == "ltr"
    assert tab.locator("main p").first.evaluate("e => getComputedStyle(e).direction") == "rtl"
