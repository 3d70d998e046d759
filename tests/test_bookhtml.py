"""The rulebook's web page (rulespec.book.html): escaping, the table of contents, no request of any
kind, the same bytes every time; and the page in a real headless Chromium at desktop and phone
width (no console error, no request, no sideways scroll of the page), screenshots kept in
build/screenshots/ to look at.

The books are built here by hand, so that the page is tested apart from the book's sections.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

from rulespec.book.document import (
    Book,
    Bullets,
    Code,
    Figure,
    Heading,
    Paragraph,
    Run,
    Table,
    code,
    em,
    inline,
    strong,
)
from rulespec.book.html import to_html

if TYPE_CHECKING:
    from playwright.sync_api import Dialog, Page

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "build" / "screenshots"
EVIL = "<script>alert(1)</script> & \"q\" 'a' | `tick` <b>x</b>"
SVG_NS = "http://www.w3.org/2000/svg"
SMALL_SVG = (
    f'<svg xmlns="{SVG_NS}" viewBox="0 0 320 60" width="640" height="120">'
    '<rect x="4" y="4" width="130" height="50" rx="8" fill="#eef" stroke="#333"/>'
    '<text x="69" y="35" text-anchor="middle" font-size="14">deal</text>'
    '<path d="M134 29 H186" stroke="#333" marker-end="url(#arrow)"/>'
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" '
    'markerHeight="6" orient="auto"><path d="M0 0 L10 5 L0 10 z"/></marker></defs>'
    '<rect x="186" y="4" width="130" height="50" rx="8" fill="#efe" stroke="#333"/>'
    '<text x="251" y="35" text-anchor="middle" font-size="14">play</text></svg>'
)


def evil_book() -> Book:
    """Every place the book puts text, holding markup, quotes, ``|`` and backticks."""
    return Book(
        title=EVIL,
        blocks=(
            Heading(1, inline(EVIL, code(EVIL)), 'evil"><script>x</script>'),
            Paragraph(inline(EVIL, code(EVIL), strong(EVIL), em(EVIL)), f'src"{EVIL}'),
            Bullets(((inline(EVIL), EVIL), (inline(code(EVIL)), None))),
            Table(header=(inline(EVIL), inline(code("a|b"))),
                  rows=((inline(EVIL), inline(code(EVIL))),),
                  caption=inline(EVIL), source=EVIL),
            Code(EVIL, lang='x"><script>'),
            Figure(SMALL_SVG, alt=EVIL, caption=inline(EVIL)),
        ),
        generator_note=EVIL,
    )


def sample_book() -> Book:
    """A rulebook much like the sections': nested sections (with a jump of level), clause markers,
    suits and cards, a table too wide for a phone, long code, a list, a figure."""
    wide = tuple(inline(f"column {i}") for i in range(12))
    return Book(
        title="Crazy Sevens",
        blocks=(
            Heading(1, inline("The game"), "the-game"),
            Paragraph(inline("A shedding game for ", strong("2 to 5"), " players with one pack; "
                             "the first to empty their hand wins the deal."),
                      "games/sevens.rules:3"),
            Heading(2, inline("Players and cards"), "players-and-cards"),
            Paragraph(inline("Suits rank equal: ", Run("suit", "H"), ", ", Run("suit", "D"), ", ",
                             Run("suit", "C"), ", ", Run("suit", "S"), ". The cards ",
                             Run("card", "TH"), " ", Run("card", "QD"), " ", Run("card", "7C"),
                             " ", Run("card", "AS"), " and the Joker ", Run("card", "JK"), "."),
                      "games/sevens.rules:10"),
            Table(header=(inline("players"), inline("hand"), inline("stock"), *wide),
                  rows=tuple((inline(str(n)), inline(str(7 if n < 4 else 5)),
                              inline(str(52 - n * 7)), *wide) for n in range(2, 6)),
                  caption=inline("Hands by table size"), source="games/sevens.rules:14"),
            Heading(1, inline("Play"), "play"),
            Figure(SMALL_SVG, alt="Two boxes, deal then play, joined by an arrow.",
                   caption=inline("The phases of a deal.")),
            Heading(3, inline("Decision: ", code("play")), "decision-play"),
            Paragraph(inline("The seat ", code("turn"), " decides. Play a card matching the "
                             "top of the pile by suit or rank, or any ", Run("card", "7S"), "."),
                      "games/sevens.rules:31"),
            Bullets(((inline("Follow suit or rank."), "games/sevens.rules:32"),
                     (inline("An eight names a new suit, ", em("any"), " suit."),
                      "games/sevens.rules:33"),
                     (inline("Otherwise draw."), None)), ordered=True),
            Heading(2, inline("Decision: ", code("draw")), "decision-draw"),
            Bullets(((inline("Draw one card from the stock."), "games/sevens.rules:40"),)),
            Heading(1, inline("Reference"), "reference"),
            Code("rule play(c in hand(turn)) when matches(c, top(pile)):\n"
                 "    move c from hand(turn) to pile  # a deliberately long line of code that "
                 "a phone cannot show in one go\n", lang="rulespec"),
        ),
    )


class _Page(HTMLParser):
    """The parts of a page the tests look at: every start tag with its attributes, the text, and
    whether each end tag closes the element last opened."""

    VOID = frozenset({"meta", "link", "br", "hr", "img", "input", "wbr", "source"})

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.unbalanced: list[str] = []
        self._open: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self._open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def named(self, tag: str) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag]


# ---- the page as text -------------------------------------------------------------------------
def test_head_is_complete() -> None:
    html = to_html(sample_book())
    assert html.startswith("<!DOCTYPE html>\n<html lang=\"en\" dir=\"ltr\">")
    assert '<meta charset="utf-8">' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html
    assert "<title>Crazy Sevens</title>" in html
    assert "@media print" in html
    page = _Page(html)
    assert page.unbalanced == [] and page._open == []


def test_everything_from_the_book_is_escaped() -> None:
    html = to_html(evil_book())
    page = _Page(html)
    # no tag comes from the book: the only tags are the page's own and the trusted SVG's
    svg_tags = {"svg", "rect", "text", "path", "defs", "marker"}
    page_tags = {"html", "head", "meta", "title", "style", "body", "a", "div", "nav", "p", "ol",
                 "ul", "li", "main", "h1", "h2", "code", "strong", "em", "table", "caption",
                 "thead", "tbody", "tr", "th", "td", "pre", "figure", "figcaption", "span",
                 "details", "summary"}
    assert {t for t, _ in page.tags} <= page_tags | svg_tags
    assert page.named("script") == [] and page.named("b") == []
    assert page.unbalanced == []
    assert "<script>" not in html and "<b>" not in html
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 15
    # the text reads back as the author wrote it: escaped, not dropped or mangled
    text = "".join(page.text)
    assert text.count(EVIL) >= 15
    for s in ("|", "`tick`", "&", '"q"', "'a'"):
        assert s in text
    # attribute values come back whole: no quote broke out of its attribute
    (h2,) = page.named("h2")
    assert h2["id"] == 'evil"><script>x</script>'
    assert {"href": '#evil"><script>x</script>'} in page.named("a")
    titles = [a["title"] for a in page.named("span") if a.get("class") == "src"]
    assert titles == [f'spec clause src"{EVIL}', f"spec clause {EVIL}", f"spec clause {EVIL}"]
    assert {"class": "figure-art", "role": "img", "aria-label": EVIL, "tabindex": "0"} \
        in page.named("div")
    assert any(a.get("aria-label") == EVIL and a.get("role") == "region"
               for a in page.named("div"))
    assert page.named("pre") == [{"dir": "ltr", "data-lang": 'x"><script>'}]
    assert page.named("title") == [{}] and f"<title>{_escaped(EVIL)}</title>" in html


def _escaped(s: str) -> str:
    from html import escape
    return escape(s, quote=True)


def test_every_heading_is_in_the_contents_with_its_id() -> None:
    book = sample_book()
    page = _Page(to_html(book))
    ids = [a["id"] for t, a in page.tags if re.fullmatch(r"h[2-6]", t)]
    assert ids == [h.anchor for h in book.headings()]
    links = [a["href"] for a in page.named("a") if a.get("class") != "skip"]
    assert links == ["#" + h.anchor for h in book.headings()]
    # levels: headings of level n are h(n+1) under the title's h1; the jump 1 -> 3 nests once
    levels = [int(t[1]) - 1 for t, _ in page.tags if re.fullmatch(r"h[2-6]", t)]
    assert levels == [h.level for h in book.headings()]
    # in the contents, the jump from level 1 to 3 nests one step, and the 2 after it is its
    # sibling: the depth of each link is the number of lists open around it
    html = to_html(book)
    toc = html[html.index('<nav class="toc"'):html.index("</nav>")]
    depth, depths = 0, []
    for m in re.finditer(r"<ol>|</ol>|<a ", toc):
        depth += {"<ol>": 1, "</ol>": -1}.get(m.group(), 0)
        if m.group() == "<a ":
            depths.append(depth)
    assert depths == [1, 2, 1, 2, 2, 1] and depth == 0


def test_repeated_anchors_get_unique_ids() -> None:
    book = Book("t", (Heading(1, inline("a"), "x"), Heading(1, inline("b"), "x"),
                      Heading(1, inline("c"), ""), Heading(1, inline("d"), "rulebook-main"),
                      Heading(1, inline("e"), "arrow"), Figure(SMALL_SVG, "boxes")))
    page = _Page(to_html(book))
    ids = [a["id"] for t, a in page.tags if "id" in a]
    assert len(ids) == len(set(ids))
    assert [a["href"] for a in page.named("a")][1:] == ["#x", "#x-2", "#section",
                                                          "#rulebook-main-2", "#arrow-2"]


def test_suits_and_cards_keep_their_letters_and_names() -> None:
    html = to_html(sample_book())
    assert '<span class="suit suit-H">♥ hearts</span>' in html
    assert '<span class="suit suit-S">♠ spades</span>' in html
    assert '<span class="card suit-H" dir="ltr">10♥</span>' in html
    assert '<span class="card suit-C" dir="ltr">7♣</span>' in html
    assert '<span class="card" dir="ltr">JK</span>' in html
    css = html[html.index("<style>"):html.index("</style>")]
    assert re.search(r"\.suit-H, \.suit-D \{ color: var\(--red\)", css)


def test_clause_markers() -> None:
    html = to_html(sample_book())
    marker = ('<span class="src" dir="ltr" title="spec clause games/sevens.rules:31">'
              "games/sevens.rules:31</span></p>")
    assert marker in html
    assert ('<li>Follow suit or rank. <span class="src" dir="ltr" '
            'title="spec clause games/sevens.rules:32">' in html)
    assert ('<p class="src-after"><span class="src" dir="ltr" '
            'title="spec clause games/sevens.rules:14">' in html)
    assert html.count('class="src"') == len(sample_book().sources())


def test_no_address_but_the_svg_namespace() -> None:
    for book in (sample_book(), evil_book()):
        html = to_html(book)
        svgs = [(m.start(), html.index("</svg>", m.start())) for m in re.finditer("<svg", html)]
        assert svgs
        for m in re.finditer(r"https?://[^\s\"'<>]*", html):
            assert m.group() == SVG_NS
            assert any(a < m.start() < b for a, b in svgs), "an address outside the SVG"
        assert not re.search(r"(src|href)=\"(?!#)", html), "a link or source out of the page"
        assert "@import" not in html and "url(" not in html.replace("url(#arrow)", "")


def _digest_here() -> str:
    return hashlib.sha256(to_html(sample_book()).encode()).hexdigest()


def test_same_book_same_bytes() -> None:
    assert to_html(sample_book()) == to_html(sample_book())
    assert to_html(evil_book()) == to_html(evil_book())
    # and across processes with different hash seeds: nothing depends on set or dict order
    prog = "import tests.test_bookhtml as t; print(t._digest_here())"
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", prog], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True)
        digests.add(run.stdout.strip())
    assert digests == {_digest_here()}


def test_language_and_direction() -> None:
    """The page says the book's language and direction; in a right-to-left book a signed number
    and a range are isolated left to right (the bidi algorithm would turn ``-5`` into ``5-``),
    digits alone are not; code, cards and clause markers are left to right in any book; the
    page's own words are the book's (its labels, which the player's book takes from its
    catalog)."""
    text = inline("امتیاز -5 و ", code("play"), " برای 2–5 نفر و 10 کارت ", Run("card", "TH"))
    blocks = (Heading(1, inline("بازی"), "play"), Paragraph(text, "games/x.rules:3"))
    labels = (("contents", "فهرست"), ("clause", "بند قواعد"))
    html = to_html(Book("بازی", blocks, lang="fa", labels=labels))
    assert html.startswith('<!DOCTYPE html>\n<html lang="fa" dir="rtl">')
    assert '<bdi dir="ltr">-5</bdi>' in html and '<bdi dir="ltr">2–5</bdi>' in html
    assert " و 10 کارت " in html and html.count("<bdi") == 2
    assert '<code dir="ltr">play</code>' in html and '<span class="card suit-H" dir="ltr">' in html
    assert '<span class="src" dir="ltr" title="بند قواعد games/x.rules:3">' in html
    assert '<summary class="toc-title">فهرست</summary>' in html
    english = to_html(Book("t", (Paragraph(inline("score -5 for 2–5")),)))
    assert "<bdi" not in english and "score -5 for 2–5" in english
    russian = to_html(Book("t", blocks, lang="ru-RU", labels=(("contents", "Содержание"),)))
    assert russian.startswith('<!DOCTYPE html>\n<html lang="ru-RU" dir="ltr">')
    assert "Содержание" in russian and "<bdi" not in russian


def test_a_link_to_another_book_shows_its_address() -> None:
    """A link run is shown as its address, left to right in any page, marked so that print
    does not print the address a second time after it."""
    html = to_html(Book("t", (Paragraph(inline("See ", Run("link", "x-reference.html"))),),
                        lang="fa"))
    assert '<a class="address" href="x-reference.html" dir="ltr">x-reference.html</a>' in html


def test_only_a_table_too_wide_for_its_column_stacks() -> None:
    """A table a phone shows whole stays a plain table; a wide one gets the class that stacks
    its rows below the width it needs, the rules for that width, its cells labelled with their
    headers, and explicit roles."""
    narrow = Table(header=(inline("card (spades shown; every suit alike)"),
                           inline("penalty points")),
                   rows=((inline(Run("card", "TS")), inline("1")),))
    html = to_html(Book("t", (narrow,)))
    assert '<div class="table-wrap" role="region"' in html and "stack-" not in html
    assert "data-label" not in html and 'role="table"' not in html
    html = to_html(sample_book())
    wrap = re.search(r'<div class="table-wrap stack-(\d+)"', html)
    assert wrap is not None and int(wrap[1]) > 40  # fifteen columns: stacked even on a desk
    assert f"@container book (width < {wrap[1]}rem)" in html
    assert f".stack-{wrap[1]} td::before {{ content: attr(data-label)" in html
    assert '<td role="cell" data-label="players">2</td>' in html
    assert '<table role="table">' in html and '<th scope="col" role="columnheader">' in html


def test_svg_prolog_is_dropped() -> None:
    fig = Figure('<?xml version="1.0"?>\n' + SMALL_SVG, alt="boxes")
    html = to_html(Book("t", (fig,)))
    assert "<?xml" not in html and SMALL_SVG in html


# ---- the page in a browser --------------------------------------------------------------------
CHROMIUM = "/usr/bin/chromium"
# --disable-dev-shm-usage: a container's /dev/shm is often 64 MB, too small for Chromium, which
# then crashes; Debian's launcher means to add it but its check of the free space can misfire
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


def test_page_in_chromium(tmp_path: Path) -> None:
    """No console error and no request beyond the file itself; every heading listed in the
    contents, open beside the text on a desk, folded on a phone until tapped; at phone width
    nothing is wider than its box (the wide table stacks its rows, the figure fits); printing
    shows the contents open and keeps table rows and figures whole. Not skipped when Chromium or
    Playwright is missing: .ci/system-deps and the dev extra install them."""
    from playwright.sync_api import sync_playwright

    book = sample_book()
    path = tmp_path / "book.html"
    path.write_text(to_html(book), encoding="utf-8")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda m: problems.append(f"console: {m.text}")
                    if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on("requestfailed", lambda r: problems.append(f"failed: {r.url}"))
            page.on("request", lambda r: None if r.url.startswith(("file://", "data:"))
                    else problems.append(f"request: {r.url}"))
            page.goto(path.as_uri(), wait_until="load")
            _check_contents(page, book)
            _check_desktop_layout(page)
            page.screenshot(path=str(SCREENSHOTS / "book-desktop.png"), full_page=True)
            page.set_viewport_size({"width": 390, "height": 844})
            _check_phone_layout(page)
            page.screenshot(path=str(SCREENSHOTS / "book-phone.png"), full_page=True)
            _open_contents(page)
            _check_contents(page, book)
            page.locator("nav.toc summary").click()  # folded again, for the print
            _check_print(page)
            page.screenshot(path=str(SCREENSHOTS / "book-print.png"), full_page=True)
            page.emulate_media(media="screen")
            page.set_viewport_size({"width": 390, "height": 844})
            _open_contents(page)
            page.locator("nav.toc a", has_text="Decision: draw").click()
            assert page.evaluate("location.hash") == "#decision-draw"
            _check_evil_page(page, tmp_path)
        finally:
            browser.close()
    assert problems == []


def _check_evil_page(page: Page, tmp_path: Path) -> None:
    """The book full of markup opens as text: no script in the page, no dialog, the text as
    written, the odd anchor reachable."""
    path = tmp_path / "evil.html"
    path.write_text(to_html(evil_book()), encoding="utf-8")
    dialogs: list[str] = []

    def on_dialog(d: Dialog) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.goto(path.as_uri(), wait_until="load")
    assert page.evaluate("document.scripts.length") == 0
    assert page.title() == EVIL
    assert page.locator("h1").inner_text() == EVIL
    _open_contents(page)
    _check_contents(page, evil_book())
    page.screenshot(path=str(SCREENSHOTS / "evil-phone.png"), full_page=True)
    assert dialogs == []


def _open_contents(page: Page) -> None:
    """On a phone the contents are folded under their title: a tap opens them."""
    summary = page.locator("nav.toc summary")
    assert summary.is_visible()
    assert not page.locator("nav.toc a").first.is_visible(), "the contents should be folded"
    summary.click()
    assert page.locator("nav.toc details").get_attribute("open") is not None


def _check_contents(page: Page, book: Book) -> None:
    """Each heading has its id in the page, once, and a visible link to it in the contents."""
    links = page.locator("nav.toc a")
    want = ["#" + h.anchor for h in book.headings()]
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == want
    heads = page.locator("main :is(h2, h3, h4, h5, h6)")
    assert heads.count() == len(book.headings())
    for i, h in enumerate(book.headings()):
        assert page.evaluate("(id) => [...document.querySelectorAll('[id]')]"
                             ".filter(e => e.id === id).length", h.anchor) == 1
        assert heads.nth(i).get_attribute("id") == h.anchor
        assert heads.nth(i).is_visible()
        assert links.nth(i).is_visible(), h.anchor


def _check_desktop_layout(page: Page) -> None:
    """The contents stand beside the text, not above it, open though their <details> is
    closed; nothing is wider than its box."""
    nav, main = page.locator("nav.toc").bounding_box(), page.locator("main").bounding_box()
    assert nav is not None and main is not None
    assert nav["x"] + nav["width"] <= main["x"]
    assert page.locator("nav.toc details").get_attribute("open") is None
    _check_nothing_overflows(page)


def _check_nothing_overflows(page: Page) -> None:
    """The page does not scroll sideways, and no table, cell, figure or code block holds more
    than its box shows."""
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width
    over = page.evaluate("[...document.querySelectorAll('.table-wrap, table, td, th, figure, "
                         ".figure-art, pre')].filter(e => e.scrollWidth > e.clientWidth + 1)"
                         ".map(e => e.tagName + '.' + e.className)")
    assert over == []


def _check_phone_layout(page: Page) -> None:
    """Nothing wider than its box: the table too wide for a phone stacks its rows, each cell
    labelled with its header; the figure is drawn to the column's width, and at its own size
    once tapped; the contents are folded above the text."""
    width = page.evaluate("window.innerWidth")
    assert width == 390
    _check_nothing_overflows(page)
    cell = page.locator(".table-wrap td").first
    assert cell.evaluate("e => getComputedStyle(e).display") == "block"
    assert cell.get_attribute("data-label") == "players"
    assert "attr(data-label)" not in cell.evaluate(
        "e => getComputedStyle(e, '::before').content")
    assert not page.locator(".table-wrap thead").is_visible() or page.locator(
        ".table-wrap thead").evaluate("e => e.getBoundingClientRect().width") <= 1
    art = page.locator("figure .figure-art")
    box = art.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    svg = page.locator("figure svg").bounding_box()
    assert svg is not None and svg["width"] <= box["width"]
    # tapped, the figure shows at its own size, scrolling in its own box; elsewhere, small again
    art.click()
    svg = page.locator("figure svg").bounding_box()
    assert svg is not None and svg["width"] >= 600, "the tapped diagram should be full size"
    assert art.evaluate("e => e.scrollWidth > e.clientWidth"), "the figure should scroll"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("h1").click()
    assert art.evaluate("e => e.scrollWidth <= e.clientWidth")
    nav, main = page.locator("nav.toc").bounding_box(), page.locator("main").bounding_box()
    assert nav is not None and main is not None and nav["y"] + nav["height"] <= main["y"]
    assert nav["height"] < 80, "the folded contents take a line, not the first screen"


def _check_print(page: Page) -> None:
    """On paper: the contents open (their <details> closed on screen), nothing wider than the
    page, no page break inside a table row or a figure, an address out of the page printed
    after its link."""
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 720, "height": 1000})  # A4 less its margins
    assert page.locator("nav.toc details").get_attribute("open") is None
    assert page.locator("nav.toc a").first.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 720
    for sel in ("tr", "figure"):
        assert page.locator(sel).first.evaluate("e => getComputedStyle(e).breakInside") \
            == "avoid", sel
    css = page.evaluate("[...document.styleSheets[0].cssRules].map(r => r.cssText).join(' ')")
    assert 'a[href]:not([href^="#"], .address)::after { content: " <" attr(href) ">"' in css
