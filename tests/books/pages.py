"""The rulebook pages the page tests open in Chromium (tests/test_bookpages.py): one list, from
:func:`book_pages`, that grows as books are added (the player's books in English, Persian and
Russian join it as they are written).

Today it holds the shipped books (docs/rules/<game>.html, in English) and two books built here by
hand, one in Persian (right to left) and one in Russian, each with what strains a page: headings,
paragraphs with cards, code and a signed number, a wide table of three columns, a figure, a list
and a long line of code. They are rendered by :func:`rulespec.book.html.to_html` into
build/bookpages/ (ignored by git), so the page is tested apart from the books' sections.
"""

from __future__ import annotations

import os
from pathlib import Path

from rulespec.book.document import (
    Book,
    Bullets,
    Code,
    Figure,
    Heading,
    Paragraph,
    Run,
    Table,
    inline,
    strong,
)
from rulespec.book.document import code as c
from rulespec.book.html import to_html

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "docs" / "rules"
RENDERED = ROOT / "build" / "bookpages"

#: (game, language, the page's file)
BookPage = tuple[str, str, Path]


def book_pages() -> list[BookPage]:
    """Every page to open: the shipped books, then the hand-built Persian and Russian ones
    (written afresh on each call, so they follow html.py). The file name of a shipped page
    ``<game>.html`` is an English book; ``<game>.<lang>.html`` one in ``lang``."""
    pages: list[BookPage] = []
    for path in sorted(SHIPPED.glob("*.html")):
        game, _, lang = path.stem.partition(".")
        pages.append((game, lang or "en", path))
    RENDERED.mkdir(parents=True, exist_ok=True)
    for book, game in ((persian_book(), "sample"), (russian_book(), "sample")):
        path = RENDERED / f"{game}.{book.lang}.html"
        # each test worker writes it: whole, under a name of its own, then renamed over the
        # page, so that no worker ever opens a page half written by another
        part = path.with_name(f"{path.name}.{os.getpid()}.part")
        part.write_text(to_html(book), encoding="utf-8")
        part.replace(path)
        pages.append((game, book.lang, path))
    return pages


def _figure(words: tuple[str, str, str]) -> str:
    """A small diagram of three boxes joined by arrows, labelled with ``words`` (left to right
    as drawn; the SVG's own direction is the diagram helper's business, not the page's)."""
    boxes = "".join(
        f'<rect x="{8 + i * 220}" y="8" width="170" height="64" rx="10" fill="#eef4ff" '
        f'stroke="#333"/><text x="{93 + i * 220}" y="47" text-anchor="middle" '
        f'font-size="18">{w}</text>' for i, w in enumerate(words))
    arrows = "".join(f'<path d="M{178 + i * 220} 40 H{228 + i * 220}" stroke="#333" '
                     'stroke-width="2" marker-end="url(#sample-arrow)"/>' for i in range(2))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 660 80" width="660" '
            'height="80"><defs><marker id="sample-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0 L10 5 L0 10 z"/>'
            f"</marker></defs>{boxes}{arrows}</svg>")


def persian_book() -> Book:
    """A short rulebook in Persian: right to left, with cards, code and numbers left to right
    inside it, the seed article's suit names, and a word joined by a zero-width non-joiner."""
    cards = tuple(Run("card", x) for x in ("TH", "AS", "QD", "7C"))
    return Book(
        title="آبراکادابرا: نمونهٔ کتاب قواعد",
        lang="fa",
        blocks=(
            Heading(1, inline("بازیکنان و کارت‌ها"), "players"),
            Paragraph(inline("بازی با ", strong("۴ تا ۶"), " بازیکن و یک دست ۵۲ کارتی انجام "
                             "می‌شود. خال‌ها دل، پیک، خشت و گشنیز هستند. کارت‌های ", cards[0],
                             " و ", cards[1], " و ", cards[2], " و ", cards[3],
                             " بیشترین امتیاز را دارند."), "games/abracadabra.rules:12"),
            Paragraph(inline("در نوبت خود حرکت ", c("play"), " را انجام دهید یا با ",
                             c("pass"), " رد کنید؛ کسی که کارتی ندارد -5 امتیاز می‌گیرد و "
                             "بازی در دور 3 تمام می‌شود."), "games/abracadabra.rules:40"),
            Table(header=(inline("کارت"), inline("امتیاز در شمارش معمول"),
                          inline("توضیح")),
                  rows=((inline(cards[0]), inline("10"),
                         inline("بالاترین کارت خال دل؛ اگر در آخرین دست بازی شود دو برابر "
                                "حساب می‌شود و بازیکنی که آن را گرفته است شروع می‌کند.")),
                        (inline(cards[1]), inline("-5"),
                         inline("آس پیک امتیاز منفی دارد، مگر آنکه خال حکم پیک باشد.")),
                        (inline(cards[3]), inline("0"), inline("بی‌امتیاز."))),
                  caption=inline("امتیاز کارت‌ها"), source="games/abracadabra.rules:88"),
            Heading(1, inline("روند بازی"), "play"),
            Figure(_figure(("پخش", "بازی", "شمارش")), alt="سه مرحله: پخش، بازی، شمارش.",
                   caption=inline("مراحل یک دست.")),
            Heading(2, inline("تصمیم: ", c("play")), "decision-play"),
            Bullets(((inline("از خال کارت اول پیروی کنید."), "games/abracadabra.rules:51"),
                     (inline("اگر نمی‌توانید، هر کارتی، مثلاً ", cards[2], "، بازی کنید."),
                      None)), ordered=True),
            Code("rule play(c in hand(turn)) when follows(c, lead): move c from hand(turn) to "
                 "trick  # a long line of code that a phone cannot show in one go", "rulespec"),
        ),
    )


def russian_book() -> Book:
    """A short rulebook in Russian: Cyrillic, long words, the standard suit names and the
    Newton article's words (масть, козырь, взятка)."""
    cards = tuple(Run("card", x) for x in ("TH", "AS", "8D", "JK"))
    return Book(
        title="Вендотта: образец книги правил",
        lang="ru",
        blocks=(
            Heading(1, inline("Игроки и карты"), "players"),
            Paragraph(inline("Играют от ", strong("2 до 14"), " игроков одной или двумя "
                             "колодами. Масти: червы, пики, бубны и трефы; козырь не "
                             "назначается. Карты ", cards[0], ", ", cards[1], ", ", cards[2],
                             " и джокер ", cards[3], "."), "games/vandatta.rules:10"),
            Paragraph(inline("В свой ход сделайте ", c("play"), " или ", c("draw"), "; "
                             "достопримечательности правил: взятка, переворачивание, "
                             "предупреждение «лаппен» и штраф −3."), "games/vandatta.rules:30"),
            Table(header=(inline("карта (показаны пики; все масти одинаковы)"),
                          inline("штрафные очки (обычный счёт)"),
                          inline("шведский счёт (вариант правил)")),
                  rows=tuple((inline(Run("card", f"{r}S")), inline(str(p)), inline(str(s)))
                             for r, p, s in (("2", 1, 5), ("8", 10, 25), ("A", 5, 15))),
                  caption=inline("Штрафные очки"), source="games/vandatta.rules:444"),
            Heading(1, inline("Ход игры"), "play"),
            Figure(_figure(("раздача", "розыгрыш", "подсчёт")),
                   alt="Три этапа: раздача, розыгрыш, подсчёт.",
                   caption=inline("Этапы одной сдачи.")),
            Heading(2, inline("Решение: ", c("draw")), "decision-draw"),
            Bullets(((inline("Возьмите верхнюю карту из прикупа."), "games/vandatta.rules:311"),
                     (inline("Не более трёх карт за ход."), None))),
            Code("rule draw when size(stock) > 0 and draws(turn) < max_draws: move top(stock) "
                 "to hand(turn)  # a long line of code that a phone cannot show in one go",
                 "rulespec"),
        ),
    )
