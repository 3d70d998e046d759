"""Cards as the record contract writes them: two-character codes such as ``TH`` and ``JK``.

Inside the engine a card *is* its canonical code (a short interned string), so an event needs no
conversion, sets of cards hash cheaply, and duplicates from a second pack are simply equal
(records.md: "the two copies are interchangeable"). The canonical order is suit C, D, H, S, then
rank 2..A within a suit, the Joker last (resolutions.md H5).
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "JOKER", "RANKS", "SUITS", "CARD_ORDER", "RANK_OF", "SUIT_OF", "card_sort_key", "is_card",
    "normalise_card", "pack", "sort_cards",
]

SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
JOKER = "JK"

_ALL = [r + s for s in SUITS for r in RANKS] + [JOKER]
CARD_ORDER: dict[str, int] = {c: i for i, c in enumerate(_ALL)}
#: Rank as a number: 2..10, J=11, Q=12, K=13, A=14; the Joker has rank 0.
RANK_OF: dict[str, int] = {r + s: i + 2 for s in SUITS for i, r in enumerate(RANKS)}
RANK_OF[JOKER] = 0
#: Suit letter; the Joker has none.
SUIT_OF: dict[str, str | None] = {r + s: s for s in SUITS for r in RANKS}
SUIT_OF[JOKER] = None


def is_card(code: object) -> bool:
    """True for a canonical card code."""
    return isinstance(code, str) and code in CARD_ORDER


def normalise_card(text: str) -> str | None:
    """Canonical code for a card written leniently (``th``, ``10H``), or None (R6)."""
    t = text.strip().upper()
    if t.startswith("10") and len(t) == 3:
        t = "T" + t[2]
    return t if t in CARD_ORDER else None


def card_sort_key(code: str) -> int:
    """Position of a card in the canonical order."""
    return CARD_ORDER[code]


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in canonical order (duplicates kept, adjacent)."""
    return sorted(cards, key=CARD_ORDER.__getitem__)


def pack(n: int = 1, joker: bool = False) -> list[str]:
    """``n`` standard 52-card packs in canonical order, with one Joker each if asked."""
    one = _ALL[:-1] + ([JOKER] if joker else [])
    return sort_cards(one * n)
