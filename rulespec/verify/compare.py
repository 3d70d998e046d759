"""Comparing what the two sides say: an implementation's events read leniently (card codes in
any accepted spelling, set-valued fields in any order), replay answers compared by the rule of
docs/protocol.md, and the card codes a JSON value shows."""

from __future__ import annotations

import collections
import contextlib
import json
from collections.abc import Iterator, Mapping
from typing import Any

from rulespec.engine.state import canonical_key
from rulespec.lang.cards import card_sort_key, normalise_card
from rulespec.lang.decks import FRENCH, Deck
from rulespec.verify.report import SIDES, the

__all__ = ["card_code", "card_codes", "card_sort", "compare_answers", "normal_key", "visible"]

_FLAGS = ("blocked", "abandoned")


def normal_key(e: Mapping[str, object], set_fields: frozenset[tuple[str, str]] = frozenset(),
               deck: Deck = FRENCH) -> str:
    """The canonical text of an event written leniently: card codes (of ``deck``) in any
    accepted spelling, set-valued fields (``(action, field)`` in ``set_fields``) in any
    order."""
    out: dict[str, object] = {}
    action = e.get("action")
    if not isinstance(action, str):
        action = None  # an implementation's event may name its action with anything at all
    for f, x in e.items():
        if card_code(x, deck) is not None:
            x = card_code(x, deck)
        elif isinstance(x, list) and x and all(card_code(y, deck) is not None for y in x):
            x = [card_code(y, deck) for y in x]
        if isinstance(x, list) and (action, f) in set_fields:
            with contextlib.suppress(TypeError):
                x = sorted(x, key=lambda y: card_sort(y, deck))
        out[f] = x
    return canonical_key(out)


def compare_answers(spec: Mapping[str, Any], other: object,
                    set_fields: frozenset[tuple[str, str]] = frozenset(),
                    words: tuple[str, str] = SIDES, deck: Deck = FRENCH) -> list[str]:
    """The differences between two replay answers, by the rule of docs/protocol.md: ``ok``,
    ``complete``, ``totals``, ``winners`` equal (and, in a game of teams, ``teams``,
    ``team_totals``, ``team_winners``); ``deals`` deal by deal over the union of keys,
    an absent ``blocked``/``abandoned`` being false; when incomplete, ``to_move`` equal and
    ``legal`` equal as a set. Other top-level keys are ignored. ``words`` name the two sides
    in the differences. (``spec`` is the spec's own answer, :meth:`State.result`.)"""
    mine, yours = words
    if not isinstance(other, Mapping):
        return ["the answer is not a JSON object"]
    out: list[str] = []
    if other.get("ok") is not True:
        return [f"ok is {other.get('ok')!r}: {str(other.get('error', ''))[:300]}"]
    for k in ("complete", "totals", "winners"):
        a, b = spec.get(k), other.get(k)
        if k == "winners" and isinstance(b, list):
            with contextlib.suppress(TypeError):
                b = sorted(b)
        if a != b:
            out.append(f"{k}: {mine} {json.dumps(a)}, {yours} {json.dumps(b)}")
    for k in ("teams", "team_totals", "team_winners"):
        # a game of teams (docs/records.md): compared where the spec's answer has them
        if k in spec and spec[k] != other.get(k):
            out.append(f"{k}: {mine} {json.dumps(spec[k])}, {yours} "
                       f"{json.dumps(other.get(k))}")
    da, db = spec.get("deals") or [], other.get("deals")
    if not isinstance(db, list):
        out.append(f"deals: {the(yours)} gives no list")
    else:
        if len(da) != len(db):
            out.append(f"deals: {mine} has {len(da)} finished deal(s), {yours} {len(db)}")
        for i, (x, y) in enumerate(zip(da, db, strict=False)):
            if not isinstance(y, Mapping):
                out.append(f"deal {i + 1}: not an object")
                continue
            for key in sorted(set(x) | set(y)):
                vx, vy = x.get(key), y.get(key)
                if key in _FLAGS:
                    vx, vy = bool(vx), bool(vy)
                if vx != vy:
                    out.append(f"deal {i + 1} {key}: {mine} {json.dumps(vx)}, "
                               f"{yours} {json.dumps(vy)}")
    if not spec.get("complete") and other.get("complete") is False:
        if spec.get("to_move") != other.get("to_move"):
            out.append(f"to_move: {mine} {json.dumps(spec.get('to_move'))}, {yours} "
                       f"{json.dumps(other.get('to_move'))}")
        la = {canonical_key(e) for e in spec.get("legal") or []}
        try:
            lb = {normal_key(e, set_fields, deck) for e in other.get("legal") or []}
        except (TypeError, ValueError, AttributeError):
            lb = set()
        if la != lb:
            out.append(f"legal: {len(la - lb)} missing, {len(lb - la)} extra")
    return out


def card_codes(x: object, depth: int = 0, deck: Deck = FRENCH) -> Iterator[str]:
    """Every card-code string inside a JSON value (bounded depth)."""
    if depth > 50:
        return
    if isinstance(x, str):
        # upper case only: "as" or "ad" in a free-text field is a word, not a card
        c = card_code(x, deck) if x == x.upper() else None
        if c is not None:
            yield c
    elif isinstance(x, list):
        for y in x:
            yield from card_codes(y, depth + 1, deck)
    elif isinstance(x, dict):
        for y in x.values():
            yield from card_codes(y, depth + 1, deck)


def card_code(x: object, deck: Deck = FRENCH) -> str | None:
    """The canonical code of a card of ``deck`` written leniently (``th``, ``10H``), else
    None."""
    if deck.french:
        if isinstance(x, str) and 2 <= len(x) <= 3:
            return normalise_card(x)
        return None
    return deck.normalise(x) if isinstance(x, str) and 1 <= len(x) <= 4 else None


def visible(obs_zones: Mapping[str, object], deck: Deck = FRENCH) -> collections.Counter[str]:
    """The cards the zones of an observation show, with their multiplicities."""
    seen: collections.Counter[str] = collections.Counter()
    for z in obs_zones.values():
        seen.update(card_codes(z, 0, deck))
    return seen


def sizes_shown(mine: Mapping[str, object], theirs: Mapping[str, object]) -> list[str]:
    """The zones whose size an observation's ``zones`` (``theirs``) gives where the spec's
    own observation (``mine``) has null, a size the seat may not count: anything but null
    there (a count, cards, placeholders) tells it. Each as ``'held'`` or ``'held' of seat
    2``; zones ``theirs`` does not give, or gives in another shape, are left to the zones'
    comparison."""
    out: list[str] = []
    for name, m in mine.items():
        if name not in theirs:
            continue
        t = theirs[name]
        if m is None:
            if t is not None:
                out.append(repr(name))
        elif (type(m) is list and None in m and type(t) is list
              and len(t) == len(m)):
            out.extend(f"{name!r} of seat {q}" for q, (x, y) in enumerate(zip(m, t, strict=True))
                       if x is None and y is not None)
    return out


def card_sort(x: object, deck: Deck = FRENCH) -> tuple[int, int | str]:
    """The order of a set-valued field's elements: numbers, then cards in card order, then
    anything else by its text."""
    c = card_code(x, deck)
    if c is not None:
        return (1, card_sort_key(c) if deck.french else deck.order[c])
    return (0, x) if isinstance(x, int) else (2, str(x))

