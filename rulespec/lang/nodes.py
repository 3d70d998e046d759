"""The AST nodes that hold no expression, re-exported by :mod:`rulespec.lang.ast` (use them
from there): type expressions, and the deck declaration's entries. Frozen, each with a
:class:`Span` that equality ignores."""

from __future__ import annotations

from attrs import field, frozen

from rulespec.spans import NOSPAN, Span

__all__ = ["DeckCard", "DeckDecl", "DeckEntry", "DeckPack", "DeckRank", "DeckRun", "DeckSuit",
           "ParamValue", "TypeEnum", "TypeExpr", "TypeList", "TypeName", "TypeOptional",
           "ValueCall", "ValueParam"]


def _span() -> Span:
    return field(default=NOSPAN, eq=False, repr=False, kw_only=True)


# ---- types ---------------------------------------------------------------------------------

@frozen
class TypeName:
    name: str
    span: Span = _span()


@frozen
class TypeOptional:
    inner: TypeExpr
    span: Span = _span()


@frozen
class TypeList:
    elem: str
    span: Span = _span()


@frozen
class ValueParam:
    """A typed parameter of an option's value, ``low: int`` (``k: int in 1..10``)."""

    name: str
    type: str  # int | bool (the checker refuses the rest)
    bounds: tuple[int, int] | None = None
    span: Span = _span()


@frozen
class ParamValue:
    """A value of an enumerated option that takes parameters, ``free(low: int, high: int)``."""

    name: str
    params: tuple[ValueParam, ...]
    span: Span = _span()


@frozen
class ValueCall:
    """An option's default written with its arguments, ``ante(1)``; an argument is a number or
    a name (``true``, ``false``)."""

    name: str
    args: tuple[int | str, ...]
    span: Span = _span()


@frozen
class TypeEnum:
    values: tuple[int | str | ParamValue, ...]
    #: what each value means for the players, in the order of ``values`` (``()``: none given)
    docs: tuple[str | None, ...] = ()
    span: Span = _span()


TypeExpr = (
    TypeName
    | TypeOptional
    | TypeList
    | TypeEnum
)


# ---- the deck --------------------------------------------------------------------------------

@frozen
class DeckSuit:
    """``suit NAME "CODE" ["BOOK NAME"]``."""

    name: str
    code: str
    doc: str | None
    span: Span = _span()


@frozen
class DeckRank:
    """``rank NAME "CODE" = NUMBER [copies N] ["BOOK NAME"]``."""

    name: str
    code: str
    number: int
    copies: int | None
    doc: str | None
    span: Span = _span()


@frozen
class DeckCard:
    """``card NAME "CODE" [= NUMBER] [copies N] ["BOOK NAME"]``: a card of no suit."""

    name: str
    code: str
    number: int | None
    copies: int | None
    doc: str | None
    span: Span = _span()


@frozen
class DeckRun:
    """``cards NAME "PREFIX" LOW..HIGH [copies N] ["BOOK NAME"]``: numbered cards of no suit
    (``PREFIX`` then the number is each one's code, the number its rank)."""

    name: str
    code: str
    low: int
    high: int
    copies: int | None
    doc: str | None
    span: Span = _span()


@frozen
class DeckPack:
    """``pack NAME [copies N] = MEMBER, ... ["DOC"]``: a named pack of some of the deck's
    cards: those of the ranks and suits named (every suit, or every rank, when none is), and
    the cards of no suit named, each as often as the deck holds it (or ``N`` times)."""

    name: str
    copies: int | None
    members: tuple[str, ...]
    doc: str | None
    span: Span = _span()


DeckEntry = DeckSuit | DeckRank | DeckCard | DeckRun | DeckPack


@frozen
class DeckDecl:
    """``deck [copies N] ["DOC"] { ENTRY* }``: the cards of the game."""

    copies: int | None
    doc: str | None
    entries: tuple[DeckEntry, ...]
    span: Span = _span()
