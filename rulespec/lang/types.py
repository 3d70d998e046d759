"""The static checker's types, as values.

A type is one of a small closed union of frozen classes (:data:`Type`). A class without fields
has one instance, named here in capitals (:data:`INT`, :data:`ZONE`...); the others are
:class:`ListOf` (a list of one kind of value), :class:`Per` (a per-player variable),
:class:`EnumOf` (a value of one enumerated option) and :class:`Var` (a type variable of a
built-in's signature: :data:`T` is bound to a list's element).

:func:`compatible` says whether a value of one type may stand where another is expected,
:func:`element` gives what iterating over a value yields, :func:`substitute` fills in a
signature's type variable, and :func:`describe` gives the words error messages use.
"""

from __future__ import annotations

from typing import Final, assert_never

from attrs import frozen

__all__ = [
    "ANY",
    "BOOL",
    "CARD",
    "INT",
    "NONE",
    "PZONE",
    "STR",
    "SUIT",
    "T",
    "ZONE",
    "AnyT",
    "Bool",
    "Card",
    "EnumOf",
    "Int",
    "ListOf",
    "Named",
    "NoneT",
    "PZone",
    "Per",
    "Str",
    "Suit",
    "Type",
    "Var",
    "Zone",
    "compatible",
    "describe",
    "element",
    "has_var",
    "substitute",
]


@frozen
class Int:
    """A number (also a seat, a rank or a count)."""


@frozen
class Bool:
    """A condition: true or false."""


@frozen
class Suit:
    """A suit."""


@frozen
class Card:
    """A card."""


@frozen
class Str:
    """A name: a bare value of some enumerated option."""


@frozen
class NoneT:
    """The type of ``none``: fits wherever a value may be missing."""


@frozen
class AnyT:
    """Not known statically; fits everywhere."""


@frozen
class Zone:
    """A shared zone, or a per-player zone at one seat; readable as a list of cards."""


@frozen
class PZone:
    """A per-player zone, indexed by seat."""


@frozen
class ListOf:
    """A list whose elements are all of type ``elem``."""

    elem: Type


@frozen
class Per:
    """A per-player variable holding an ``elem`` for each seat."""

    elem: Type


@frozen
class EnumOf:
    """A value of the enumerated option ``option``."""

    option: str


@frozen
class Named:
    """A value of the spec's named enumeration ``enum`` (``enum colour: {red, blue}``): one of
    its names, equal only to values of the same enumeration."""

    enum: str


@frozen
class Var:
    """A type variable of a built-in's signature, bound to the element of a list argument."""

    name: str


Type = (Int | Bool | Suit | Card | Str | NoneT | AnyT | Zone | PZone | ListOf | Per | EnumOf
        | Named | Var)

INT: Final = Int()
BOOL: Final = Bool()
SUIT: Final = Suit()
CARD: Final = Card()
STR: Final = Str()
NONE: Final = NoneT()
ANY: Final = AnyT()
ZONE: Final = Zone()
PZONE: Final = PZone()
#: the type variable of the built-ins' signatures
T: Final = Var("T")


def element(t: Type) -> Type | None:
    """What going through a value of type ``t`` yields, or None if it is not list-like."""
    match t:
        case ListOf(elem=e):
            return e
        case Zone():
            return CARD
        case AnyT():
            return ANY
        case Int() | Bool() | Suit() | Card() | Str() | NoneT() | PZone() | Per() | EnumOf() \
                | Named() | Var():
            return None
        case _:
            assert_never(t)


def compatible(expected: Type, actual: Type) -> bool:
    """Whether a value of type ``actual`` may stand where ``expected`` is wanted.

    ``any`` fits everything and ``none`` too (optional values: the runtime catches misuse); a
    zone is read as a list of cards, but a list is not a zone; lists are compared by their
    elements (either way round, as far as ``any`` and ``none`` go); an enum value fits a name,
    a number (mixed enums such as ``{auto, 1, 2}``) and a value of any option.
    """
    if expected == actual or ANY in (expected, actual):
        return True
    if NONE in (expected, actual):
        return True
    match expected:
        case ListOf(elem=want):
            if isinstance(actual, Zone):
                return compatible(expected, ListOf(CARD))
            return isinstance(actual, ListOf) and compatible(want, actual.elem)
        case EnumOf():
            return isinstance(actual, (Str, EnumOf))
        case Str() | Int():
            return isinstance(actual, EnumOf)  # an enum value is a name, or a number
        case Bool() | Suit() | Card() | NoneT() | AnyT() | Zone() | PZone() | Per() | Named() \
                | Var():
            return False  # a list is not a zone; the rest fit only themselves
        case _:
            assert_never(expected)


def has_var(t: Type) -> bool:
    """Whether ``t`` mentions a type variable (a generic built-in's result)."""
    match t:
        case Var():
            return True
        case ListOf(elem=e) | Per(elem=e):
            return has_var(e)
        case Int() | Bool() | Suit() | Card() | Str() | NoneT() | AnyT() | Zone() | PZone() \
                | EnumOf() | Named():
            return False
        case _:
            assert_never(t)


def substitute(t: Type, bound: Type) -> Type:
    """``t`` with every type variable replaced by ``bound``."""
    match t:
        case Var():
            return bound
        case ListOf(elem=e):
            return ListOf(substitute(e, bound))
        case Per(elem=e):
            return Per(substitute(e, bound))
        case Int() | Bool() | Suit() | Card() | Str() | NoneT() | AnyT() | Zone() | PZone() \
                | EnumOf() | Named():
            return t
        case _:
            assert_never(t)


def describe(t: Type) -> str:
    """The words an error message uses for ``t``: "a number", "a list of cards"..."""
    match t:
        case Int():
            return "a number"
        case Bool():
            return "a condition (true/false)"
        case Suit():
            return "a suit"
        case Card():
            return "a card"
        case Str():
            return "a name"
        case NoneT():
            return "none"
        case AnyT():
            return "any"
        case Zone():
            return "a zone"
        case PZone():
            return "a per-player zone"
        case ListOf(elem=Card()):
            return "a list of cards"
        case ListOf(elem=Int()):
            return "a list of numbers"
        case ListOf(elem=Suit()):
            return "a list of suits"
        case ListOf(elem=Named(enum=n)):
            return f"a list of {n} values"
        case ListOf(elem=e):
            return f"a list of {describe(e)}"
        case Per():
            return "a per-player value"
        case EnumOf(option=o):
            return f"a value of option {o}"
        case Named(enum=n):
            return f"{'an' if n[:1] in 'aeiou' else 'a'} {n}"
        case Var(name=n):
            return n
        case _:
            assert_never(t)
