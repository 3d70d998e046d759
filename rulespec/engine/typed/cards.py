"""The typed lowering's cards: each card a small int, its number in the order its events' texts
sort (the kernel's bit sets number them so, ``kernel/bits.py``), so that a zone of distinct
cards is an int whose bit ``i`` is card ``i``, and the ``k``-th set bit of a listing's mask
is its ``k``-th legal event."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import comb

from rulespec.engine.kernel.bits import COMPARE, bit_deck, chunk_subsets
from rulespec.lang.decks import Deck

__all__ = ["TypedDeck", "typed_deck"]

#: bits of a mask read at once by :meth:`TypedDeck.cards_of`'s tables
_CHUNK = 13
_LOW = (1 << _CHUNK) - 1


class TypedDeck:
    """A deck's cards as numbers, and the tables the generated code reads: each number's code,
    suit and rank (the engine's values), each code's number, each suit's and rank's mask, and
    every mask's cards by lookups of each 13 bits."""

    def __init__(self, deck: Deck) -> None:
        bits = bit_deck(deck)
        #: whether the k-th set bit is the k-th event of a listing whatever follows the card
        #: in its events' keys (the kernel's condition for listing a hand by its mask)
        self.ordered = bits.ordered
        self.code: tuple[str, ...] = bits.codes
        self.num: dict[str, int] = {c: i for i, c in enumerate(self.code)}
        self.suit: tuple[object, ...] = tuple(deck.suit_of[c] for c in self.code)
        self.rank: tuple[object, ...] = tuple(deck.rank_of[c] for c in self.code)
        self.all = (1 << len(self.code)) - 1
        #: each suit's cards; None's (a suit the deck does not have, or none) none
        self.suit_mask: dict[object, int] = {None: 0}
        self.rank_mask: dict[object, int] = {}
        for i, c in enumerate(self.code):
            s, r = deck.suit_of[c], deck.rank_of[c]
            self.suit_mask[s] = self.suit_mask.get(s, 0) | 1 << i
            self.rank_mask[r] = self.rank_mask.get(r, 0) | 1 << i
        #: for a shuffle: each number's place in the deck's order, which orders the cards of
        #: a shuffle's template (chance.chance_template)
        self.deck_order: tuple[int, ...] = tuple(deck.order[c] for c in self.code)
        self._chunks = [chunk_subsets(tuple(range(i, min(i + _CHUNK, len(self.code)))))
                        for i in range(0, len(self.code), _CHUNK)]
        #: the cards of a mask, lowest number first: each chunk of bits looked up, the
        #: lookups written out as one expression (it is called at every listing)
        self.cards_of = _unrolled(self._chunks)
        self._rank_cmp: dict[tuple[str, object], int] = {}
        self._templates: dict[tuple[int, ...], list[int]] = {}

    def cards_expr(self, m: str) -> str:
        """:attr:`cards_of` of the name ``m`` written out as an expression (no call)."""
        if len(self._chunks) == 1:
            return f"_CK[0][{m} & {_LOW}]"
        return " + ".join(f"_CK[{i}][{m} >> {_CHUNK * i} & {_LOW}]"
                          for i in range(len(self._chunks)))

    def bits_of(self, cards: Iterable[int]) -> int:
        """The mask of ``cards`` (distinct)."""
        m = 0
        for c in cards:
            m |= 1 << c
        return m

    def rank_cmp(self, op: str, x: object) -> int:
        """The cards whose rank ``op`` ``x`` holds."""
        key = (op, x)
        got = self._rank_cmp.get(key)
        if got is None:
            got = 0
            for r, m in self.rank_mask.items():
                if r is not None and COMPARE[op](r, x):
                    got |= m
            self._rank_cmp[key] = got
        return got

    def subset(self, m: int, lo: int, hi: int, k: int) -> int:
        """The ``k``-th subset of the cards of ``m`` of ``lo`` to ``hi`` cards (clamped as
        :class:`~rulespec.engine.events.SubsetAxis` clamps them), as a mask, in the order
        of its events (SubsetAxis's, over the cards' codes): the sets whose first card in
        the pack's order is ``j`` come in the order of ``j``'s text, each group ``j`` with
        every set of the cards after it in the pack's order in this same order, the empty
        set last. A card's number is its text's place, so the groups go by number."""
        cards = self.cards_of(m)
        n = len(cards)
        lo, hi = max(lo, 0), min(hi, n)
        # each card's place in the pack's order among the hand's, the cards in text order
        pos = {c: i for i, c in enumerate(sorted(cards, key=self.deck_order.__getitem__))}
        pairs = [(pos[c], c) for c in cards]
        out, j = 0, -1
        while hi > 0:
            row = _COMB[lo] if lo == hi else None
            for i, c in pairs:
                if i <= j:
                    continue
                g = row[n - 1 - i] if row is not None else sizes(n - 1 - i, lo - 1, hi - 1)
                if k < g:
                    out |= 1 << c
                    j, lo, hi = i, lo - 1, hi - 1
                    break
                k -= g
            else:
                break
        return out

    def template(self, cards: list[int]) -> list[int]:
        """A shuffle's cards in the pack's order (chance.chance_template's order), a new list;
        the last few zones' answers remembered (a deal's pack is the same pack each time)."""
        key = tuple(cards)
        got = self._templates.get(key)
        if got is None:
            if len(self._templates) >= 16:
                self._templates.clear()
            got = self._templates[key] = sorted(cards, key=self.deck_order.__getitem__)
        return list(got)

    def runtime(self) -> dict[str, object]:
        """The names the generated code reads."""
        by_number: dict[int | None, str | None] = {None: None, **dict(enumerate(self.code))}
        return {"_CODE": self.code, "_CN": by_number,
                "_NUM": self.num, "_TS": self.suit, "_TR": self.rank,
                "_ALL": self.all, "_SM": self.suit_mask, "_RM": self.rank_mask,
                "_RE": {r: m for r, m in self.rank_mask.items() if r is not None},
                "_cardsof": self.cards_of, "_CK": self._chunks, "_bitsof": self.bits_of,
                "_rcmp": self.rank_cmp,
                "_DORD": self.deck_order, "_kth": self.subset, "_sizes": sizes,
                "_template": self.template}


def _unrolled(chunks: list[list[tuple[int, ...]]]) -> Callable[[int], tuple[int, ...]]:
    """:attr:`TypedDeck.cards_of` for these chunks, each chunk's lookup written out."""
    parts = " + ".join(f"_CK[{i}][m >> {_CHUNK * i} & {_LOW}]" for i in range(len(chunks)))
    made: Callable[[int], tuple[int, ...]] = eval(f"lambda m: {parts}", {"_CK": chunks})
    return made


#: ``_COMB[r][m]``: how many sets of ``r`` of ``m`` elements (``r`` of -1 for none), for hands
#: of up to 64 cards
_COMB = [[0] * 65] + [[comb(m, r) for m in range(65)] for r in range(65)]


def sizes(m: int, lo: int, hi: int) -> int:
    """How many subsets of ``m`` elements have ``lo`` to ``hi`` elements."""
    return sum(comb(m, t) for t in range(max(lo, 0), min(hi, m) + 1))


_DECKS: dict[Deck, TypedDeck] = {}


def typed_deck(deck: Deck) -> TypedDeck:
    """The deck's numbers, made once a process."""
    got = _DECKS.get(deck)
    if got is None:
        got = _DECKS[deck] = TypedDeck(deck)
    return got
