"""Chance events: what a shuffle, a reshuffle or a bury lists, and how an outcome is checked
and laid in its zones.

The engine holds no random generator (resolutions.md H4, R2): at a shuffle or a reshuffle it
lists one template event (the cards in canonical order), and whoever drives it supplies an
ordering of exactly those cards; at a bury it lists every position.
"""

from __future__ import annotations

import collections
import reprlib
from collections.abc import Mapping
from typing import Any

from rulespec.engine.events import Event
from rulespec.engine.machine import ChanceStop, Running, Values
from rulespec.errors import IllegalActionError, RecordError

__all__ = ["apply_chance", "chance_template"]



def chance_template(spec: ChanceStop, st: Running, L: Values) -> Event | list[Event]:
    """The one template event of a shuffle or reshuffle, or a bury's every position."""
    if spec.kind == "shuffle":
        cards = sorted(spec.src(st, L), key=spec.deck.order.__getitem__)
        return {"chance": "shuffle", "cards": cards}
    if spec.kind == "reshuffle":
        # the discard pile without its top card, in pile order (bottom first) (R2)
        return {"chance": "reshuffle", "cards": list(spec.src(st, L)[:-1])}
    dst = spec.dst(st, L)
    return [{"chance": "bury", "position": k} for k in range(len(dst) + 1)]


def apply_chance(spec: ChanceStop, st: Running, L: Values,
                 event: Mapping[str, object]) -> None:
    """Check ``event`` against the chance event due and move its cards; an illegal one
    raises and moves nothing."""
    if not isinstance(event, Mapping) or "chance" not in event:
        raise IllegalActionError(f"a chance event ({spec.kind}) is due")
    kind = event.get("chance")
    if kind != spec.kind:
        raise IllegalActionError(f"a {spec.kind} is due, not {kind!r}")
    if spec.kind == "bury":
        if set(event) != {"chance", "position"}:
            raise RecordError("a bury event has exactly the field 'position'")
        k = event["position"]
        dst = spec.dst(st, L)
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= len(dst):
            raise IllegalActionError(f"bury position must be 0..{len(dst)}, not {k!r}")
        src = spec.src(st, L)
        card = src.pop()
        dst.insert(len(dst) - k, card)
        return
    if set(event) != {"chance", "cards"}:
        raise RecordError(f"a {spec.kind} event has exactly the field 'cards'")
    raw = event["cards"]
    if not isinstance(raw, list):
        raise RecordError("'cards' is a list of card codes")
    template = chance_template(spec, st, L)
    assert isinstance(template, dict)
    _place(spec, st, L, _ordered_cards(spec, raw, template["cards"]))


def _ordered_cards(spec: ChanceStop, raw: list[Any], want: list[str]) -> list[str]:
    """The cards of a shuffle's or reshuffle's event, checked to be exactly ``want``'s."""
    try:
        # the usual event, the template's own codes reordered: card codes only (checked
        # first, so no list is sorted that holds nested lists to compare at any depth),
        # the same cards, each as often (any one order of codes tells; the pack's order
        # would cost a key call per card), and nothing to normalise
        if spec.deck.codes.issuperset(raw) and sorted(raw) == sorted(want):
            return raw
    except TypeError:  # a list or an object among them: the normalising loop says which
        pass
    cards = []
    order = spec.deck.order
    for c in raw:
        # a code already canonical is its own normal form (the usual event, a pack
        # reordered): no call for each card of a shuffle
        code = c if type(c) is str and c in order else \
            spec.deck.normalise(c) if isinstance(c, str) else None
        if code is None:
            # reprlib: a short text of any value, however deeply nested
            raise RecordError(f"{reprlib.repr(c)} is not a card code")
        cards.append(code)
    if sorted(cards) != sorted(want):
        # what differs first, then the cards it must order
        have, need = collections.Counter(cards), collections.Counter[str](want)
        extra, missing = sorted((have - need).elements()), sorted((need - have).elements())
        diff = "; ".join(part for part in (
            f"{' '.join(extra[:10])} {'is' if len(extra) == 1 else 'are'} one too many"
            if extra else "",
            f"{' '.join(missing[:10])} {'is' if len(missing) == 1 else 'are'} missing"
            if missing else "") if part)
        raise IllegalActionError(f"the {spec.kind} must order exactly the cards of its "
                                 f"zone: {diff} (it orders {' '.join(want)})")
    return cards


def _place(spec: ChanceStop, st: Running, L: Values, cards: list[str]) -> None:
    """Lay a shuffle's or reshuffle's cards, already checked, in their zone."""
    dst = spec.dst(st, L)
    if spec.kind == "reshuffle":
        src = spec.src(st, L)
        top = src[-1]
        src[:] = [top]
    # event lists top card first; zones keep their top at the end
    dst[:] = cards[::-1]
