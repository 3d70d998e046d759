"""Chance events: what a shuffle, a reshuffle, a bury or a pick lists, and how an outcome is
checked and laid in its zones (or, for a pick, left for the rules to store).

The engine holds no random generator (resolutions.md H4, R2): at a shuffle or a reshuffle it
lists one template event (the cards in canonical order), and whoever drives it supplies an
ordering of exactly those cards; at a bury it lists every position; at a pick every value,
each with its weight (:func:`pick_outcomes`).
"""

from __future__ import annotations

import collections
import functools
import random
import reprlib
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeVar

from rulespec.engine.events import Event, canonical_key, encode, json_value
from rulespec.engine.machine import ChanceStop, Fn, Running, Values
from rulespec.errors import IllegalActionError, RecordError, RuleRuntimeError

__all__ = ["apply_chance", "bury_order", "chance_template", "listed_weights", "pick_at",
           "pick_outcomes",
           "probabilities", "sample_chance", "sample_event", "shuffle", "uniform_outcomes",
           "weighted_outcomes"]

_T = TypeVar("_T")



def chance_template(spec: ChanceStop, st: Running, L: Values) -> Event | list[Event]:
    """The one template event of a shuffle or reshuffle, or a bury's every position."""
    if spec.kind == "shuffle":
        cards = sorted(spec.src(st, L), key=spec.deck.order.__getitem__)
        return {"chance": "shuffle", "cards": cards}
    if spec.kind == "reshuffle":
        # the discard pile without its top card, in pile order (bottom first) (R2)
        return {"chance": "reshuffle", "cards": list(spec.src(st, L)[:-1])}
    if spec.kind == "pick":
        return [{"chance": "pick", "value": encode(v)} for v, _ in pick_outcomes(spec, st, L)]
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
    if spec.kind == "pick":
        _apply_pick(spec, st, L, event)
        return
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


def sample_chance(spec: ChanceStop, st: Running, L: Values, rng: random.Random,
                  weighted: bool = True) -> Event | None:
    """At a shuffle or reshuffle: the event :func:`sample_event` would draw from its template
    with ``rng``, laid in its zone and returned, without the checks an event from outside
    needs (its cards are the template's own, ordered here): a sampled deal costs one sort of
    the pack and one shuffle. At a pick: the outcome ``sample_event`` draws, by the weights
    (``weighted``) or uniformly among the events in their canonical order, its value left
    for the rules; at a bury, a position drawn uniformly among its events in their canonical
    order, the card laid there; neither with its events listed and sorted. None at no other
    (the caller would draw from ``legal_actions``)."""
    if spec.kind == "pick":
        merged = _merged_outcomes(spec, st, L)
        outcomes: list[tuple[object, int]] = [(v, w) for v, w in merged.values()]
        v: object
        if weighted:
            v = pick_at(outcomes, rng.randrange(sum(w for _, w in outcomes)))
        else:
            # uniform over the events in their canonical order, as sample_event draws from
            # legal_actions: the order of these values remembered, not sorted each time
            v = outcomes[_canonical_order(merged)[rng.randrange(len(outcomes))]][0]
        assert spec.slot is not None
        L[spec.slot] = v
        return {"chance": "pick", "value": encode(v)}
    if spec.kind == "bury":
        # a position drawn uniformly among the events in their canonical order (their
        # texts': position 10 before 2), laid as apply_chance lays it
        dst = spec.dst(st, L)
        k = bury_order(len(dst) + 1)[rng.randrange(len(dst) + 1)]
        # the card taken before its place is counted, as apply_chance does (a zone buried
        # into itself is one card shorter by then)
        card = spec.src(st, L).pop()
        dst.insert(len(dst) - k, card)
        return {"chance": "bury", "position": k}
    if spec.kind not in ("shuffle", "reshuffle"):
        return None
    template = chance_template(spec, st, L)
    assert isinstance(template, dict)
    cards: list[str] = template["cards"]  # type: ignore[assignment]
    shuffle(rng, cards)
    _place(spec, st, L, cards)
    return {"chance": spec.kind, "cards": list(cards)}


def _shuffle_inline(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)`` as CPython's ``random.Random`` does it (Fisher-Yates, each index
    drawn by ``getrandbits`` of its bit length, drawn again while too large), with the two
    method calls an element written out: a 52-card pack 15 -> 7 microseconds."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _same_as_random() -> bool:
    """Whether :func:`_shuffle_inline` draws exactly what this Python's ``Random.shuffle``
    draws (checked once, on a few seeds: a later Python may shuffle otherwise)."""
    for seed in range(8):
        a, b = list(range(60)), list(range(60))
        r1, r2 = random.Random(seed), random.Random(seed)
        r1.shuffle(a)
        _shuffle_inline(r2, b)
        if a != b or r1.random() != r2.random():
            return False
    return True


_INLINE_SHUFFLE = _same_as_random()


def shuffle(rng: random.Random, x: list[Any]) -> None:
    """``rng.shuffle(x)``: the same order from the same generator, faster for a plain
    ``random.Random`` (a subclass, or a Python that shuffles otherwise, is asked itself)."""
    if _INLINE_SHUFFLE and type(rng) is random.Random:
        _shuffle_inline(rng, x)
    else:
        rng.shuffle(x)


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


# ---- pick -------------------------------------------------------------------------------------

def uniform_outcomes(values: Fn) -> Fn:
    """A uniform pick's outcomes, ``(st, L) -> [(value, 1), ...]``: each element of the list
    ``values`` gives once, with weight 1."""
    def outcomes(st: Running, L: Values) -> list[tuple[object, int]]:
        return [(x, 1) for x in values(st, L)]
    return outcomes


def weighted_outcomes(pairs: tuple[tuple[Fn, Fn], ...]) -> Fn:
    """A weighted pick's outcomes, ``(st, L) -> [(value, weight), ...]``, in the order
    written, from each outcome's value and weight."""
    def outcomes(st: Running, L: Values) -> list[tuple[object, object]]:
        return [(v(st, L), w(st, L)) for v, w in pairs]
    return outcomes


def pick_outcomes(spec: ChanceStop, st: Running, L: Values) -> list[tuple[object, int]]:
    """The outcomes of the pick due, as (value, weight), in the order the spec lists them:
    each value once (a value listed again adds its weight to its first place), every weight
    a whole number of at least 1. A pick of nothing, or a weight below 1, is a runtime error
    at the pick."""
    return [(v, w) for v, w in _merged_outcomes(spec, st, L).values()]


#: for the JSON texts of a pick's values in the order listed, where each stands in the
#: canonical order of their events (see :func:`_canonical_order`)
_ORDERS: dict[tuple[str, ...], list[int]] = {}
_ORDERS_MAX = 10_000


def _canonical_order(merged: dict[str, list[Any]]) -> list[int]:
    """The places of a pick's outcomes (``_merged_outcomes``) in the canonical order of their
    events, which ``legal_actions`` lists: the same values are picked from at every deal, so
    the order is worked out once for each list of values."""
    texts = tuple(merged)
    got = _ORDERS.get(texts)
    if got is None:
        keys = [canonical_key({"chance": "pick", "value": encode(v)}) for v, _ in merged.values()]
        got = sorted(range(len(keys)), key=keys.__getitem__)
        if len(_ORDERS) >= _ORDERS_MAX:
            _ORDERS.clear()
        _ORDERS[texts] = got
    return got


@functools.lru_cache(maxsize=256)
def bury_order(n: int) -> list[int]:
    """The positions 0 to ``n - 1`` of a bury in the canonical order of their events."""
    return sorted(range(n), key=lambda k: f"{k}}}")


def _merged_outcomes(spec: ChanceStop, st: Running, L: Values) -> dict[str, list[Any]]:
    """:func:`pick_outcomes` by the JSON text of each value: [value, weight]."""
    merged: dict[str, list[Any]] = {}
    for v, w in spec.src(st, L):
        if type(w) is not int or w < 1:
            raise RuleRuntimeError(f"a pick's weight must be 1 or more, not {w!r}",
                                   spec.node.span, "give every outcome a weight of 1 or more")
        key = json_value(v)  # one text per value, so True and 1 stay apart
        if key in merged:
            merged[key][1] += w
        else:
            merged[key] = [v, w]
    if not merged:
        raise RuleRuntimeError("pick from an empty list", spec.node.span,
                               "check the list has an element before this rule")
    return merged


def pick_at(outcomes: list[tuple[_T, int]], r: int) -> _T:
    """The outcome that number ``r`` (0 to the total weight less 1) falls on, counting each
    outcome's weight in the order listed: a uniform number gives a draw by the weights, and
    0 the first outcome (what a shrinker moves toward)."""
    for ev, w in outcomes:
        if r < w:
            return ev
        r -= w
    raise ValueError("r is past the total weight")


def _apply_pick(spec: ChanceStop, st: Running, L: Values, event: Mapping[str, object]) -> None:
    """Check a pick event against the outcomes listed and leave its value in the frame."""
    if set(event) != {"chance", "value"}:
        raise RecordError("a pick event has exactly the field 'value'")
    want = event["value"]
    outcomes = pick_outcomes(spec, st, L)
    for text in (json_value(want), json_value(spec.deck.normalise_value(want))):
        for v, _ in outcomes:
            if json_value(v) == text:
                assert spec.slot is not None
                L[spec.slot] = v
                return
    listed = ", ".join(json_value(encode(v)) for v, _ in outcomes[:10])
    more = ", ..." if len(outcomes) > 10 else ""
    raise IllegalActionError(f"the pick's value must be one of {listed}{more}, "
                             f"not {reprlib.repr(want)}")


def listed_weights(spec: ChanceStop, st: Running, L: Values,
                   legal: Callable[[], list[Event]]) -> list[tuple[Event, int]]:
    """The outcomes of a chance stop that lists them, with whole-number weights: a pick's in
    the order the spec lists them, a bury's positions (``legal()``) each 1; none for a
    shuffle, which is sampled."""
    if spec.kind == "pick":
        return [({"chance": "pick", "value": encode(v)}, w) for v, w in pick_outcomes(spec, st, L)]
    if spec.kind != "bury":
        return []
    return [(e, 1) for e in legal()]


def probabilities(weights: list[tuple[Event, int]]) -> list[tuple[Event, float]]:
    """Each outcome with its weight over the total, as a float (OpenSpiel's contract: they
    sum to 1 to float precision; as fractions, exactly)."""
    total = sum(w for _, w in weights)
    return [(e, float(Fraction(w, total))) for e, w in weights]


def sample_event(legal: list[Event], rng: random.Random,
                 weights: Callable[[], list[tuple[Event, int]]] | None = None) -> Event:
    """One event drawn uniformly: a permutation for a shuffle template, else a legal event;
    at a pick, given ``weights`` (a State's ``chance_weights``), one outcome drawn by its
    weight (without them, uniformly among the values)."""
    if len(legal) == 1 and legal[0].get("chance") in ("shuffle", "reshuffle"):
        ev = dict(legal[0])
        cards = list(ev["cards"])
        shuffle(rng, cards)
        ev["cards"] = cards
        return ev
    if weights is not None and "chance" in legal[0] and legal[0]["chance"] == "pick":
        outcomes = weights()
        return pick_at(outcomes, rng.randrange(sum(w for _, w in outcomes)))
    return legal[rng.randrange(len(legal))]
