"""A spec's deck: its cards, their codes, order, ranks, suits, copies and book names.

A card is still its code (a short string) everywhere in the engine: the deck only says which
codes there are and what the built-ins make of them. A spec that declares no deck has the
French one, :data:`FRENCH`, whose tables *are* :mod:`rulespec.lang.cards`'s (the same dict
objects), so the three seed games compile to the same code as before and pay nothing for
decks. A ``deck { ... }`` declaration (``ast.DeckDecl``) is turned into a :class:`Deck` by
:func:`build_deck`, which reports each mistake with its span; the compiler then binds the
deck's own tables and helpers where generated code reads the French ones
(:meth:`Deck.runtime`, :meth:`Deck.folds`).

Code rules (docs/records.md): a code is 1 to 4 characters, upper-case letters and digits; a
suited card's code is its rank's code then its suit's (``5R``, ``TH``); an extra card has a
code of its own; every card code differs from every other and from every suit code, so a
record's string names one card or one suit and nothing else.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, assert_never

import attrs

from rulespec.lang import ast
from rulespec.lang.builtins import (
    TEXT_ORDER,
    EmptyError,
    check_size,
    groups,
    meld_guard,
    multi_groups,
    set_of,
    without_ranks,
)
from rulespec.lang.cards import CARD_ORDER, RANK_OF, SUIT_OF, SUITS, normalise_card
from rulespec.lang.cards import pack as french_pack
from rulespec.lang.melds import best_melds, deadwood, is_meld, melds
from rulespec.lang.types import CARD, INT, SUIT, ListOf, Type

__all__ = ["FRENCH", "Deck", "ExtraDef", "RankDef", "SuitDef", "build_deck", "CODE_RE"]

#: what a code may be: 1 to 4 upper-case letters and digits
CODE_RE: Final = re.compile(r"[0-9A-Z]{1,4}")

_RANK_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
               9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace"}


@attrs.frozen
class SuitDef:
    """A declared suit (or colour): its name in the spec, its code, its name in the book."""

    name: str
    code: str
    label: str


@attrs.frozen
class RankDef:
    """A declared rank: name, code, the number ``rank(c)`` gives, copies of each of its cards
    in a pack (None: the deck's), and its name in the book."""

    name: str
    code: str
    number: int
    copies: int | None
    label: str


@attrs.frozen
class ExtraDef:
    """A card outside the suits (a Joker, a Wild, a trump): name, code, rank number, copies
    (None: the deck's), its book name, and the ``cards`` run it belongs to (None: alone)."""

    name: str
    code: str
    number: int
    copies: int | None
    label: str
    run: str | None = None


class Deck:
    """Every card identity of a spec, with the tables the engine reads (see module doc)."""

    def __init__(self, suits: Sequence[SuitDef], ranks: Sequence[RankDef],
                 extras: Sequence[ExtraDef], copies: int = 1, french: bool = False) -> None:
        self.suits = tuple(suits)
        self.ranks = tuple(ranks)
        self.extras = tuple(extras)
        self.copies_default = copies
        #: the default deck: its tables are cards.py's, its code the same as before decks
        self.french = french
        cards: list[str] = []
        self.rank_of: dict[str, int] = {}
        self.suit_of: dict[str, str | None] = {}
        self.copies: dict[str, int] = {}
        self.names: dict[str, str] = {}
        for s in self.suits:
            for r in self.ranks:
                c = r.code + s.code
                cards.append(c)
                self.rank_of[c], self.suit_of[c] = r.number, s.code
                self.copies[c] = copies if r.copies is None else r.copies
                self.names[c] = f"{r.label} of {s.label}"
        for x in self.extras:
            cards.append(x.code)
            self.rank_of[x.code], self.suit_of[x.code] = x.number, None
            self.copies[x.code] = copies if x.copies is None else x.copies
            self.names[x.code] = x.label
        self.cards = tuple(cards)
        self.order: dict[str, int] = {c: i for i, c in enumerate(cards)}
        #: every card code, to tell a shuffle's usual event (codes only) at a glance
        self.codes = frozenset(cards)
        self.suit_codes = tuple(s.code for s in self.suits)
        self.text_order: dict[str, int] = {**{s: i for i, s in enumerate(self.suit_codes)},
                                           **self.order}
        self.one_pack = tuple(c for c in cards for _ in range(self.copies[c]))
        #: the named packs (``pack NAME = ...``), each in canonical order
        self.packs: dict[str, tuple[str, ...]] = {}
        self._set_cache: dict[tuple[object, ...], tuple[object, ...]] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[object, ...]:
        """What the deck is declared as (two decks declared alike are equal)."""
        return (self.suits, self.ranks, self.extras, self.copies_default, self.french,
                tuple(self.packs.items()))

    # ---- what the checker and the compiler read -----------------------------------------
    def constants(self) -> dict[str, tuple[Type, object]]:
        """The names the deck brings into a spec, each with its type and value: each suit,
        ``suits``, each rank (its number), each extra card, each run of cards (a list)."""
        out: dict[str, tuple[Type, object]] = {"suits": (ListOf(SUIT), self.suit_codes)}
        for s in self.suits:
            out[s.name] = (SUIT, s.code)
        for r in self.ranks:
            out[r.name] = (INT, r.number)
        for x in self.extras:
            if x.run is None:
                out[x.name] = (CARD, x.code)
            else:
                got = out.get(x.run)
                prev = got[1] if got is not None else ()
                assert isinstance(prev, tuple)
                out[x.run] = (ListOf(CARD), prev + (x.code,))
        for n, cards in self.packs.items():
            out[n] = (ListOf(CARD), cards)
        return out

    def pack(self, n: int) -> tuple[str, ...]:
        """``pack(n)``: ``n`` of the deck's packs, in canonical order (copies side by side)."""
        if self.french:
            if n < 0:
                raise EmptyError(f"pack({n}): the number of packs cannot be negative")
            check_size(52 * n, f"pack({n})")
            return tuple(french_pack(n))
        if n < 0:
            raise EmptyError(f"pack({n}): the number of packs cannot be negative")
        check_size(len(self.one_pack) * n, f"pack({n})")
        return tuple(c for c in self.one_pack for _ in range(n))

    def set_of(self, xs: object) -> tuple[object, ...]:
        """``set_of`` in this deck's order."""
        return set_of(xs, self.text_order, self._set_cache)

    def folds(self) -> dict[str, Callable[..., object]]:
        """The fold of each built-in that reads the deck, for a declared deck."""
        return {"rank": self.rank_of.__getitem__, "suit": self.suit_of.__getitem__,
                "pack": self.pack, "set_of": self.set_of,
                "without_ranks": functools.partial(without_ranks, rank_of=self.rank_of),
                **self.meld_functions()}

    def meld_functions(self) -> dict[str, Callable[..., object]]:
        """The meld built-ins (:mod:`rulespec.lang.melds`) on this deck's ranks and suits."""
        r, s = self.rank_of, self.suit_of
        return {"is_meld": functools.partial(is_meld, rank_of=r, suit_of=s),
                "melds": functools.partial(melds, rank_of=r, suit_of=s),
                "deadwood": meld_guard(functools.partial(deadwood, rank_of=r, suit_of=s)),
                "best_melds": meld_guard(functools.partial(best_melds, rank_of=r, suit_of=s))}

    def normalise(self, text: str) -> str | None:
        """The code of a card written leniently (upper or lower case), or None."""
        if self.french:
            return normalise_card(text)
        t = text.strip().upper()
        return t if t in self.order else None

    def normalise_value(self, v: object) -> object:
        """Card codes and suit codes written leniently become canonical (R6, R6b)."""
        if isinstance(v, list):
            return [self.normalise_value(x) for x in v]
        if isinstance(v, str):
            card = self.normalise(v)
            if card is not None:
                return card
            if v.strip().upper() in self.suit_codes:
                return v.strip().upper()
        return v

    def summary(self) -> str:
        """The deck in a line: ``108 cards a pack, 54 kinds (4 suits of 13 ranks, 2 of no
        suit)``."""
        return (f"{len(self.one_pack)} cards a pack, {len(self.order)} kinds ({len(self.suits)} "
                f"suits of {len(self.ranks)} ranks, {len(self.extras)} of no suit)")

    def name_of(self, code: str) -> str:
        """A card's name in the book: ``5 of red``, ``Wild Draw Four``."""
        return self.names.get(code, code)


def _french() -> Deck:
    suits = [SuitDef(n, c, n) for n, c in zip(("clubs", "diamonds", "hearts", "spades"), SUITS,
                                               strict=True)]
    ranks = [RankDef(_RANK_WORDS[i + 2], r, i + 2, None, _RANK_WORDS[i + 2])
             for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K",
                                    "A"))]
    d = Deck(suits, ranks, [ExtraDef("joker_card", "JK", 0, 0, "joker")], french=True)
    # the tables are cards.py's own objects: code that reads them reads the same dicts
    d.order, d.rank_of, d.suit_of, d.text_order = CARD_ORDER, RANK_OF, SUIT_OF, TEXT_ORDER
    return d


#: the default deck: 52 cards in four suits and a Joker (``joker_card``, in no pack)
FRENCH: Final = _french()

#: the names the French deck brings, as before decks could be declared
FRENCH_CONSTANTS: Final[Mapping[str, tuple[Type, object]]] = {
    "suits": (ListOf(SUIT), tuple(SUITS)),
    **{s.name: (SUIT, s.code) for s in FRENCH.suits},
    "jack": (INT, 11), "queen": (INT, 12), "king": (INT, 13), "ace": (INT, 14),
    "joker_card": (CARD, "JK"),
}

Problem = tuple[ast.Span, str, str | None]


def build_deck(d: ast.DeckDecl) -> tuple[Deck, list[Problem]]:
    """The deck a declaration makes, and every mistake in it (a span, a message, a hint)."""
    b = _Builder()
    copies = b.copies_ok(d.copies, d.span)
    for e in d.entries:
        b.entry(e)
    _check_unique(d, b.suits, b.ranks, b.extras, b.problems)
    if not b.suits and not b.extras:
        b.problems.append((d.span, "the deck has no cards",
                           "declare a suit and a rank, or a card"))
    elif b.suits and not b.ranks:
        b.problems.append((d.span, "the deck has suits but no ranks",
                           'add rank NAME "CODE" = N'))
    deck = Deck(b.suits, b.ranks, b.extras, copies if copies is not None else 1)
    for pk in b.packs:
        deck.packs[pk.name] = _named_pack(deck, pk, b.problems)
    return deck, b.problems


@attrs.define
class _Builder:
    """The entries of a deck declaration as read so far, and the mistakes found."""

    problems: list[Problem] = attrs.Factory(list)
    seen: dict[str, ast.Span] = attrs.Factory(dict)
    suits: list[SuitDef] = attrs.Factory(list)
    ranks: list[RankDef] = attrs.Factory(list)
    extras: list[ExtraDef] = attrs.Factory(list)
    packs: list[ast.DeckPack] = attrs.Factory(list)

    def entry(self, e: ast.DeckEntry) -> None:
        """One line of the declaration: its name claimed, its codes checked, its cards kept."""
        if e.name in self.seen:
            self.problems.append((e.span, f"the deck already names {e.name!r} (first at "
                                          f"{self.seen[e.name]})",
                                  "give each suit, rank and card its own name"))
        self.seen[e.name] = e.span
        label = e.doc if e.doc is not None else e.name.replace("_", " ")
        match e:
            case ast.DeckSuit():
                self.code_ok(e.code, e.span, "suit")
                self.suits.append(SuitDef(e.name, e.code, label))
            case ast.DeckRank():
                self.code_ok(e.code, e.span, "rank")
                n = self.copies_ok(e.copies, e.span)
                self.ranks.append(RankDef(e.name, e.code, e.number, n, label))
            case ast.DeckCard():
                self.code_ok(e.code, e.span, "card")
                n = self.copies_ok(e.copies, e.span)
                self.extras.append(ExtraDef(e.name, e.code, e.number or 0, n, label))
            case ast.DeckRun():
                if e.low > e.high or e.high - e.low > 99:
                    self.problems.append((e.span, f"cards {e.low}..{e.high} is not a run of 1 "
                                                  "to 100 numbers", None))
                copies = self.copies_ok(e.copies, e.span)
                for n in range(e.low, min(e.high, e.low + 99) + 1):
                    code = f"{e.code}{n}"
                    if self.code_ok(code, e.span, "card"):
                        self.extras.append(ExtraDef(f"{e.name}#{n}", code, n, copies,
                                                    f"{n} of {label}", run=e.name))
            case ast.DeckPack():
                if self.copies_ok(e.copies, e.span) != e.copies:
                    e = attrs.evolve(e, copies=1)
                self.packs.append(e)
            case _:
                assert_never(e)

    def code_ok(self, code: str, span: ast.Span, what: str) -> bool:
        """Whether ``code`` is 1 to 4 upper-case letters and digits (reported if not)."""
        if CODE_RE.fullmatch(code):
            return True
        self.problems.append((span, f"{what} code {code!r} is not 1 to 4 upper-case letters "
                                    "and digits", f"write it as {_suggest_code(code)!r}"))
        return False

    def copies_ok(self, n: int | None, span: ast.Span) -> int | None:
        """A number of copies must be 0 to 100; the number the deck is built with (1 in place
        of one refused, so that a spec with a wrong one is reported, not built a googol
        cards large)."""
        if n is not None and not 0 <= n <= 100:
            self.problems.append((span, f"copies {n} is not 0 to 100", None))
            return 1
        return n


def _named_pack(deck: Deck, pk: ast.DeckPack, problems: list[Problem]) -> tuple[str, ...]:
    """The cards of ``pack NAME = MEMBER, ...``: of the ranks and suits named (all of either
    when none is named), and the cards of no suit named (singly or by their run), in canonical
    order, each as often as the deck holds it or ``copies`` times."""
    members = set(pk.members)
    suits = [s for s in deck.suits if s.name in members]
    ranks = [r for r in deck.ranks if r.name in members]
    known = {s.name for s in deck.suits} | {r.name for r in deck.ranks} | \
        {x.name for x in deck.extras} | {x.run for x in deck.extras if x.run is not None}
    for m in pk.members:
        if m not in known:
            problems.append((pk.span, f"pack {pk.name!r} names {m!r}, which is no suit, rank or "
                                      "card of the deck", "name the deck's suits, ranks and "
                                                          "cards of no suit"))
    chosen: set[str] = set()
    if suits or ranks:
        chosen |= {r.code + s.code for s in suits or deck.suits for r in ranks or deck.ranks}
    chosen |= {x.code for x in deck.extras if x.name in members or x.run in members}
    return tuple(c for c in deck.cards if c in chosen
                 for _ in range(deck.copies[c] if pk.copies is None else pk.copies))


def _check_unique(d: ast.DeckDecl, suits: list[SuitDef], ranks: list[RankDef],
                  extras: list[ExtraDef], problems: list[Problem]) -> None:
    """Every card code once, no card code a suit code, suit and rank codes each once, rank
    numbers each once."""
    spans = {e.name: e.span for e in d.entries}

    def span_of(name: str) -> ast.Span:
        return spans.get(name.split("#")[0], d.span)

    twice: set[str] = set()  # suits and ranks whose code another has: reported once, here
    for what, items in (("suit", suits), ("rank", ranks)):
        codes: dict[str, str] = {}
        for it in items:
            if it.code in codes:
                problems.append((span_of(it.name), f"{what} {it.name!r} has the code "
                                                    f"{it.code!r} of {codes[it.code]!r}",
                                 f"give each {what} its own code"))
                twice.add(it.name)
            codes[it.code] = it.name
    numbers: dict[int, str] = {}
    for r in ranks:
        if r.number in numbers:
            problems.append((span_of(r.name), f"rank {r.name!r} has the number {r.number} of "
                                              f"{numbers[r.number]!r}",
                             "give each rank its own number: rank(c) tells them apart"))
        numbers[r.number] = r.name
    owner: dict[str, str] = {s.code: f"the suit {s.name!r}" for s in suits}
    for s in suits:
        for r in ranks:
            code = r.code + s.code
            if r.name in twice or s.name in twice:
                continue  # two ranks or suits with one code: reported above
            if len(code) > 4:
                problems.append((span_of(r.name), f"the card code {code!r} (rank {r.name!r}, "
                                                  f"suit {s.name!r}) is longer than 4",
                                 "shorten the rank or the suit code"))
            if code in owner:
                problems.append((span_of(r.name), f"the card code {code!r} of rank {r.name!r} "
                                                  f"in suit {s.name!r} is also {owner[code]}",
                                 "change a code"))
            owner[code] = f"the card {r.name} of {s.name}"
    for x in extras:
        if x.code in owner:
            problems.append((span_of(x.name), f"the card code {x.code!r} is also "
                                              f"{owner[x.code]}", "change a code"))
        owner[x.code] = f"the card {x.name.split('#')[0]!r}"


def _suggest_code(code: str) -> str:
    s = re.sub(r"[^0-9A-Z]", "", code.upper())[:4]
    return s or "X"


def deck_runtime(deck: Deck, event_helpers: Mapping[str, Callable[..., Any]]
                 ) -> dict[str, object]:
    """The runtime names of the built-ins bound to ``deck``'s tables (``event_helpers``:
    the engine's set helpers, each taking an ``order=`` keyword)."""
    rank_of = deck.rank_of
    out: dict[str, object] = {
        "_RANK": rank_of, "_SUIT": deck.suit_of, "_pack": deck.pack,
        "_without": functools.partial(without_ranks, rank_of=rank_of),
        "_groups": functools.partial(groups, rank_of=rank_of),
        "_multi_groups": functools.partial(multi_groups, rank_of=rank_of),
        "_set_of": deck.set_of,
        **{f"_{k}": f for k, f in deck.meld_functions().items()},
    }
    for k, f in event_helpers.items():
        out[k] = functools.partial(f, order=deck.text_order)
    return out


def sorted_cards(deck: Deck, cards: Iterable[str]) -> list[str]:
    """Cards in ``deck``'s canonical order."""
    return sorted(cards, key=deck.order.__getitem__)

