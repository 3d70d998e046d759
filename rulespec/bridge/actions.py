"""The bridge's action ids: every decision event of a spec as one integer, or, where it holds a
list (a set of cards), as a short sequence of integers.

OpenSpiel, PettingZoo and the learning code around them want a fixed number of distinct
actions, each id meaning the same thing wherever it is legal. A spec's events are JSON objects
(``{"seat": 1, "action": "play", "card": "QS"}``), so the ids are worked out from the spec's
decisions and the checker's type of each field:

- **The head.** Each alternative (its action name and its fields that are not lists) is a block
  of ids, one per combination of those fields' values, numbered in mixed radix (the first field
  slowest). A field's values are its type's: a card, the deck's distinct cards in deck order; a
  suit, the deck's suits; a truth value, false then true; a number, ``numbers`` (0 to 127 by
  default, see :data:`NUMBERS`); an option's value or an enumeration's name, its values in
  declared order. ``play(card = c)`` in a 52-card deck is 52 ids, one a card.
  Where that would be more than :data:`HEAD_MAX` ids, the later fields follow the head an
  id each, from their type's element block (below).
- **The tail.** A field that holds a list (``set_of(...)``, a choice of many cards) is told
  after the head one element at a time, each element an id of the element block of its type
  (the cards, the numbers, ...), and closed by the id ``END``: a choice among a hand's 8,192
  subsets becomes at most 14 steps of at most 14 ids each, where one id an event would need
  8,192. List fields come in the order of their names, their elements in the event's order
  (a set's canonical order).

The seat is not in the id: it is the player to move. An event that holds a value its type's
block lacks (a number outside ``numbers``) cannot be numbered: :class:`BridgeError` says which,
and ``numbers`` is the setting that widens the block.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from rulespec.engine.events import Event
from rulespec.errors import ConfigurationError
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec
from rulespec.lang.types import (
    Bool,
    Card,
    EnumOf,
    Int,
    ListOf,
    Named,
    Str,
    Suit,
    Type,
    describe,
)

__all__ = ["NUMBERS", "ActionScheme", "BridgeError", "Head", "default_numbers"]

#: the numbers an event's field may hold at the least (a bid, a count, a seat): 0 to 127,
#: widened to the spec's largest whole-number literal (a skat bid of 264) by default
NUMBERS = range(0, 128)
#: the most ids one alternative's head may have: past it, its later fields are told an id
#: each after the head, as a list's elements are
HEAD_MAX = 4096


class BridgeError(ConfigurationError):
    """A spec, or one of its events, the bridge cannot number (a usage error: a setting of
    the bridge, such as ``numbers``, or the spec is the user's to change), or a step the
    bridge cannot take; ``hint`` says what to do."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message + (f"\n  hint: {hint}" if hint else ""))
        self.hint = hint


@attrs.frozen
class Head:
    """One alternative's block of head ids: its action, its fields that are not lists (each
    with its values) and those that are (each with its element block's name), its first id
    and how many ids it has."""

    action: str
    scalars: tuple[tuple[str, tuple[object, ...]], ...]
    lists: tuple[tuple[str, str], ...]
    base: int
    size: int
    #: the fields not lists that come after the head, an id each (where the head would
    #: have more than HEAD_MAX ids)
    told: tuple[tuple[str, str], ...] = ()


class ActionScheme:
    """The action ids of one spec's decision events (see the module's docstring)."""

    def __init__(self, spec: CheckedSpec, numbers: Sequence[int] | None = None) -> None:
        self.spec = spec
        self.numbers = tuple(numbers if numbers is not None else default_numbers(spec))
        self._domains: dict[str, tuple[object, ...]] = {}
        self._scalar_doms: dict[tuple[str, tuple[str, ...]], tuple[str, ...]] = {}
        heads: dict[tuple[str, tuple[str, ...]], tuple[Head, ast.Alternative]] = {}
        base = 0
        for alt in _alternatives(spec):
            scalars: list[tuple[str, str]] = []
            lists: list[tuple[str, str]] = []
            for f in sorted(alt.fields, key=lambda f: f.name):
                t = spec.type_of(f.value)
                if isinstance(t, ListOf):
                    lists.append((f.name, self._domain_name(t.elem, alt, f)))
                else:
                    scalars.append((f.name, self._domain_name(t, alt, f)))
            key = (alt.action, tuple(sorted(f.name for f in alt.fields)))
            if key in heads:
                continue  # the same action with the same fields elsewhere: one block
            size, told = 1, []
            for i, (_, dom) in enumerate(scalars):
                if size * len(self._domains[dom]) > HEAD_MAX:
                    scalars, told = scalars[:i], scalars[i:]
                    break
                size *= len(self._domains[dom])
            head = Head(alt.action, tuple((n, self._domains[d]) for n, d in scalars),
                        tuple(lists), base, size, tuple(told))
            self._scalar_doms[key] = tuple(d for _, d in scalars)
            heads[key] = (head, alt)
            base += head.size
        self.heads = tuple(h for h, _ in heads.values())
        self._by_key = {k: h for k, (h, _) in heads.items()}
        #: the element blocks, in order of first use, each a run of ids after the heads
        self.element_base: dict[str, int] = {}
        for h in self.heads:
            for _, dom in (*h.told, *h.lists):
                if dom not in self.element_base:
                    self.element_base[dom] = base
                    base += len(self._domains[dom])
        #: the id that closes a list field
        self.END = base
        #: how many distinct ids there are
        self.size = base + 1
        self._index = {dom: {_frozen(v): i for i, v in enumerate(vals)}
                       for dom, vals in self._domains.items()}

    # ---- the domains ------------------------------------------------------------------------
    def _domain_name(self, t: Type, alt: ast.Alternative, f: ast.Field) -> str:
        values: tuple[object, ...]
        if isinstance(t, Card):
            name, values = "card", tuple(self.spec.deck.order)
        elif isinstance(t, Suit):
            name, values = "suit", tuple(self.spec.deck.suit_codes)
        elif isinstance(t, Bool):
            name, values = "bool", (False, True)
        elif isinstance(t, Int):
            name, values = "number", self.numbers
        elif isinstance(t, EnumOf):
            name, values = f"option {t.option}", tuple(self.spec.option(t.option).values)
        elif isinstance(t, Named):
            name, values = f"enum {t.enum}", tuple(self.spec.enum_values(t.enum))
        elif isinstance(t, Str):
            name = "name"
            values = tuple(sorted({str(v) for o in self.spec.options if o.kind == "enum"
                                   for v in o.values}))
        else:
            raise BridgeError(
                f"{alt.span.source}:{alt.span.line}: the field {f.name!r} of {alt.action!r} "
                f"holds {describe(t)}, which the bridge cannot number",
                hint="a field of a decision the bridge numbers is a card, a suit, a number, "
                     "a truth value, an option's value, a name of an enumeration, or a list "
                     "of one of these")
        self._domains.setdefault(name, values)
        return name

    # ---- events to ids and back ---------------------------------------------------------------
    def encode(self, event: Mapping[str, Any]) -> tuple[int, ...]:
        """The ids of a decision event: its head, then each list field's elements and END."""
        fields = tuple(sorted(k for k in event if k not in ("seat", "action")))
        key = (str(event["action"]), fields)
        head = self._by_key.get(key)
        if head is None:
            raise BridgeError(f"the event {event!r} is of no decision of the spec",
                              hint="the bridge numbers the events of the spec it was made for")
        k = 0
        for (name, values), dom in zip(head.scalars, self._scalar_doms[key], strict=True):
            k = k * len(values) + self._value_index(dom, event[name])
        out = [head.base + k]
        out.extend(self.element_base[dom] + self._value_index(dom, event[name])
                   for name, dom in head.told)
        for name, dom in head.lists:
            base = self.element_base[dom]
            out.extend(base + self._value_index(dom, x) for x in event[name])
            out.append(self.END)
        return tuple(out)

    def _value_index(self, dom: str, value: object) -> int:
        i = self._index[dom].get(_frozen(value))
        if i is None:
            raise BridgeError(
                f"the value {value!r} is not among the bridge's {dom} values",
                hint=f"a number outside {self.numbers[0]}..{self.numbers[-1]}: load the game "
                     f"with a wider numbers= range"
                     if dom == "number" else "the spec made a value its type does not list")
        return i

    def text(self, action: int) -> str:
        """What the id ``action`` means, in words: ``play card=QS``, ``card 7H``, ``end``."""
        if action == self.END:
            return "end"
        for dom, base in self.element_base.items():
            vals = self._domains[dom]
            if base <= action < base + len(vals):
                return f"{dom} {_shown(vals[action - base])}"
        for head in self.heads:
            if head.base <= action < head.base + head.size:
                k = action - head.base
                parts: list[str] = []
                for name, values in reversed(head.scalars):
                    k, i = divmod(k, len(values))
                    parts.append(f"{name}={_shown(values[i])}")
                lists = [f"{name}=..." for name, _ in head.told] + \
                    [f"{name}=[...]" for name, _ in head.lists]
                return " ".join([head.action, *reversed(parts), *lists])
        raise BridgeError(f"{action} is not an action id of this game (0 to {self.size - 1})")


def default_numbers(spec: CheckedSpec) -> range:
    """:data:`NUMBERS`, widened to hold every whole number the spec's play writes."""
    top = NUMBERS.stop - 1
    # the play's code, not the options' declarations (a target of up to 100,000 is no
    # field of any event)
    for part in (*spec.procs, *spec.defs, spec.deal, spec.match):
        for node in walk.descendants(part):
            if isinstance(node, ast.IntLit):
                top = max(top, node.value)
    return range(NUMBERS.start, top + 1)


def _alternatives(spec: CheckedSpec) -> Iterator[ast.Alternative]:
    """Every decision alternative of the spec, in the order written."""
    seen: set[int] = set()
    for item in spec.items:
        for node in walk.descendants(item):
            if isinstance(node, ast.Alternative) and id(node) not in seen:
                seen.add(id(node))
                yield node


def _frozen(v: object) -> object:
    return tuple(_frozen(x) for x in v) if isinstance(v, (list, tuple)) else \
        (type(v), v)


def _shown(v: object) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


def legal_prefixes(events: Sequence[Event], scheme: ActionScheme
                   ) -> list[tuple[tuple[int, ...], Event]]:
    """Each legal event with its ids (:meth:`ActionScheme.encode`)."""
    return [(scheme.encode(e), e) for e in events]
