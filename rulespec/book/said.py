"""A move said as a sentence, by its decision's told text (rulespec.lang.told): "bids 5" for
``{"action": "bid", "tricks": 5}`` where the decision says ``told "bids {tricks}"``.

The text is the spec's, translated by its catalog like every other text of the spec; a
translation that does not read, or names a field the English does not, is not used (the
English is, and ``rulespec doc --check`` lists it as missing).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

from babel import Locale

from rulespec.book.document import Inline, Run, inline
from rulespec.book.english import words
from rulespec.book.i18n import Words
from rulespec.lang.model import ActionInfo
from rulespec.lang.told import Arg, Cases, Count, Part, Text, ToldError, fields_named, parse_told

#: a suit as a move names it
_SUITS = frozenset("CDHS")


def told_of(actions: Sequence[ActionInfo], ev: Mapping[str, object]) -> str | None:
    """The told text of the decision ``ev`` is a move of: the alternative of its name whose
    fields are the event's (a decision may have alternatives of one name, each its own)."""
    keys = {k for k in ev if k not in ("seat", "action")}
    for a in actions:
        if a.name == ev.get("action") and set(a.fields) == keys and a.told is not None:
            return a.told
    return None


def said(told: str, ev: Mapping[str, object], w: Words, is_card: Callable[[object], bool]
         ) -> Inline:
    """The move ``ev`` said by ``told`` in the book's language; ``is_card`` tells a card's
    text from another value's."""
    parts = _parts(told, w)
    return tuple(_say(parts, ev, w, is_card, None))


def _parts(told: str, w: Words) -> tuple[Part, ...]:
    english = parse_told(told)
    text = w.text(told)
    if text == told:
        return english
    try:
        parts = parse_told(text)
    except ToldError:
        w.missing.add(told)
        return english
    if not {n for n, _ in fields_named(parts)} <= {n for n, _ in fields_named(english)}:
        w.missing.add(told)
        return english
    return parts


def _say(parts: tuple[Part, ...], ev: Mapping[str, object], w: Words,
         is_card: Callable[[object], bool],
         count: int | None) -> list[Run]:
    out: list[Run] = []
    for p in parts:
        if isinstance(p, Text):
            out += inline(w.marks(p.text))
        elif isinstance(p, Count):
            out += inline(w.digits(str(count if count is not None else 0)))
        elif isinstance(p, Arg):
            out += _value(ev.get(p.name), w, is_card)
        elif isinstance(p, Cases):
            v = ev.get(p.name)
            n = len(v) if isinstance(v, list) else v if isinstance(v, int) else None
            key = _case(p, v, n, w.lang)
            chosen = dict(p.cases)[key]
            out += _say(chosen, ev, w, is_card, n if p.kind == "plural" else count)
    return out


def _case(p: Cases, v: object, n: int | None, lang: str) -> str:
    """The key of the case ``v`` (its count ``n``) falls in."""
    keys = {k for k, _ in p.cases}
    if p.kind == "plural" and n is not None:
        if f"={n}" in keys:
            return f"={n}"
        form = _plural_form(lang)(n)
        return form if form in keys else "other"
    key = ("true" if v else "false") if isinstance(v, bool) else str(v)
    return key if key in keys else "other"


@cache
def _plural_form(lang: str) -> Callable[[int], str]:
    """The language's plural rule (CLDR, through Babel): a count's case, "one" or "few"..."""
    rule: Callable[[int], str] = Locale.parse(lang).plural_form
    return rule


def _value(v: object, w: Words, is_card: Callable[[object], bool]) -> list[Run]:
    """A value as the book writes it: a card or a suit as such, a yes or no in words, a list
    "1, 2 and 3"."""
    if isinstance(v, list):
        items = [_value(x, w, is_card) for x in v]
        if not items:
            return list(inline(w.word("none")))
        out = items[-1]
        if len(items) > 1:
            head: list[Run] = []
            for i, x in enumerate(items[:-1]):
                head += [*inline(w.marks(", ") if i else ""), *x]
            out = list(w.say("{a} and {b}", a=tuple(head), b=tuple(out)))
        return out
    if isinstance(v, bool):
        return list(inline(w.word("yes") if v else w.word("no")))
    if isinstance(v, str) and is_card(v):
        return [Run("card", v)]
    if isinstance(v, str) and v in _SUITS:
        return [Run("suit", v)]
    if isinstance(v, str):
        return list(inline(w.any(words(v))))
    return list(inline(w.digits(str(v))))
