"""The canonical encoding of events, written once (resolutions.md H5, R6).

An event is a JSON object; its canonical text has its keys sorted and no spaces, and that text is
the event's identity everywhere: the key of a legal-event map, the order of ``legal_actions``,
the comparison of two implementations' lists in verify. :func:`canonical_key` is the definition;
:func:`event_key` and :func:`json_value` write the same text faster for the usual events (names,
card codes, numbers and flat lists of them), and the generated enumerators call ``json_value``
for each field they write.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeAlias, cast

from rulespec.errors import IllegalActionError, RecordError
from rulespec.lang.builtins import TEXT_ORDER, check_size, sorted_distinct, subsets
from rulespec.lang.cards import CARD_ORDER, SUITS, normalise_card
from rulespec.lang.decks import Deck

__all__ = ["Event", "JSONObject", "JSONValue", "FIELD_CACHE_MAX", "MAX_EVENT_DEPTH",
           "canonical_key", "cards_event_key", "encode", "event_key", "field_json", "json_value",
           "loose_key", "normalise_decision", "normalise_value", "set_and_json", "subset_in_order",
           "subset_sets", "NumberSubsetAxis", "SubsetAxis", "SubsetSets", "distinct_texts",
           "json_copy", "too_deep"]

#: a value that JSON carries (what the protocol and records exchange); ``Any`` stands for the
#: recursion, which mypy's aliases cannot spell without losing ``dict``'s invariance
JSONValue: TypeAlias = None | bool | int | float | str | list[Any] | dict[str, Any]
#: an event: a JSON object with an ``action`` (or a chance event's fields), as records and the
#: protocol carry it (docs/records.md)
Event: TypeAlias = dict[str, Any]
#: any other JSON object rulespec writes or reads: a result, an observation, a report
JSONObject: TypeAlias = dict[str, Any]


def canonical_key(event: Mapping[str, object]) -> str:
    """The canonical JSON text of an event: keys sorted, no spaces (H5)."""
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def event_key(event: Mapping[str, object]) -> str:
    """:func:`canonical_key`, fast for the usual events (names, card codes, numbers and flat
    lists of them): the same text, written without the json module where it can be."""
    try:
        parts = []
        for k in sorted(event):
            if not k.isidentifier():
                return canonical_key(event)
            v = event[k]
            # a list's text is remembered under its tuple (the same subsets recur in every
            # deal), only for plain strings and ints: (True, 2) == (1, 2) as a dict key
            if type(v) is list and all(type(x) is int or type(x) is str for x in v):
                v = tuple(v)
            parts.append(f'"{k}":{json_value(v)}')
        return "{" + ",".join(parts) + "}"
    except (TypeError, ValueError, AttributeError):
        return canonical_key(event)


def cards_event_key(event: Mapping[str, object]) -> str:
    """:func:`canonical_key` of a shuffle's or reshuffle's template, ``{"chance": KIND,
    "cards": [...]}``: written by joining the codes, which need no escaping (a reshuffle of
    a two-pack discard pile, a hundred cards, met every few turns at a large table, costs a
    tenth of what json.dumps takes)."""
    cards = event["cards"]
    kind = event["chance"]
    if len(event) == 2 and type(cards) is list and cards and type(kind) is str and \
            kind.isidentifier() and _PLAIN_TEXTS.issuperset(cards):
        return '{"cards":["' + '","'.join(cards) + '"],"chance":"' + kind + '"}'
    return canonical_key(event)


def encode(x: object) -> object:
    """A field value as the event carries it: tuples (the engine's lists) become JSON lists."""
    if isinstance(x, (tuple, list)):
        if x and type(x[0]) in (tuple, list):
            return [encode(y) for y in x]
        return list(x)
    return x


#: the JSON text of tuples of strings seen (groups of cards); only strings, which equal no
#: other kind of value, so one cache serves every caller (``(True,) == (1,)`` as a key)
_JV_CACHE: dict[tuple[object, ...], str] = {}
#: texts whose JSON is themselves in quotes: every card code and suit letter
_PLAIN_TEXTS = frozenset(CARD_ORDER) | frozenset(SUITS)
_CACHE_MAX = 200_000
#: entries one field's cache keeps (see :func:`set_and_json`, :func:`field_json`)
FIELD_CACHE_MAX = 50_000


def set_and_json(xs: Sequence[object],
                 cache: dict[tuple[object, ...], tuple[tuple[object, ...], str]],
                 order: Mapping[str, int] = TEXT_ORDER) -> tuple[tuple[object, ...], str]:
    """``set_of(xs)`` and its canonical JSON text, remembered in ``cache`` for tuples (the
    same subsets recur). Each field of each enumerator has a cache of its own: a field's
    values are of one type, so ``(True, False)`` and ``(1, 0)``, equal as keys, never meet."""
    key = xs if isinstance(xs, tuple) and (not xs or type(xs[0]) not in (list, tuple)) else None
    if key is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    # set_of's own cache is skipped: the field's cache just missed, so that one would too
    s = sorted_distinct(xs, order)
    out = (s, _json_list(s))
    if key is not None and len(cache) < FIELD_CACHE_MAX:
        cache[key] = out
    return out


class SubsetSets:
    """The subsets of a list, each with its ``set_of`` (a fresh list: an event's field) and
    that set's JSON text. Iterating gives ``(subset, set, text)`` triples, or, built without
    the subsets (``own=False``), ``(set, text)`` pairs. Equal, and hashed, by what they are
    built from, so one may key a memo."""

    __slots__ = ("key", "own", "sets", "texts", "ordered")

    def __init__(self, key: tuple[object, ...], own: Sequence[tuple[object, ...]] | None,
                 sets: Sequence[list[object]], texts: Sequence[str],
                 ordered: bool = False) -> None:
        self.key, self.own, self.sets, self.texts = key, own, sets, texts
        #: whether the texts are in sorted order (see :func:`subset_sets`)
        self.ordered = ordered

    def __len__(self) -> int:
        return len(self.sets)

    def __iter__(self) -> Iterator[tuple[object, ...]]:
        # zip hands back one tuple again and again when the loop unpacks it: no allocation
        if self.own is None:
            return zip(self.sets, self.texts, strict=True)
        return zip(self.own, self.sets, self.texts, strict=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SubsetSets) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)


def subset_sets(xs: Sequence[object], lo: int, hi: int,
                cache: dict[tuple[object, ...], tuple[tuple[object, ...], str]],
                own: bool = True, order: Mapping[str, int] = TEXT_ORDER) -> SubsetSets:
    """Each subset of ``subsets(xs, lo, hi)`` with its ``set_of`` and that set's JSON text:
    what an enumerator over a hand's subsets writes (``show(cards = set_of(cs)) for cs in
    subsets(hand, 0, size(hand))``), 8,192 of them for 13 cards. Without ``own``, the subsets
    themselves are left out: the enumerator keeps the set, and :func:`subset_in_order` gives
    the subset of the one event applied.

    For distinct card codes or suits, no subset is sorted: the subsets, and the sets in
    canonical order with their texts, are each built by doubling (every element added to
    every one so far, in order), and a mask says which set each subset is. They come in
    another order than :func:`subsets` gives them: an enumerator only keys its events by them,
    and distinct elements give distinct sets. Doubling makes all 2**n: a few of them (3 cards
    of 13 to pass, 286 of 8,192) are made one by one. Without ``own``, for distinct card
    codes or suits, nothing is made until read: the sets and texts are
    :class:`SubsetAxis` sequences, one set worked out where one is indexed (a playout applies
    one event of thousands), all of them made as here where they are gone through."""
    xs = tuple(xs)  # the zone as it is now: the sets may be made after it has changed
    if not own and distinct_texts(xs, order):
        # the same hand asked again (a simultaneous decision lists it at every seat's turn)
        # finds the axis it made, and the sets once made
        axes = cast("dict[tuple[object, ...], SubsetSets]",
                    cache.setdefault(_AXES, {}))  # type: ignore[call-overload, arg-type]
        key = (xs, lo, hi)
        got = axes.get(key)
        if got is None:
            # gone through, the sets are made by doubling where it makes mostly sets that
            # are kept, else depth first (the axis's own way)
            n = len(xs)
            few = _sizes(n, lo, hi) * 4 < 1 << n
            axis = SubsetAxis(xs, lo, hi, order, None if few else
                              lambda: _subset_sets_made(xs, lo, hi, cache, own, order))
            got = SubsetSets((xs, lo, hi, own), None, axis, axis.texts, ordered=True)
            if axis.total <= _AXES_KEPT_MOST:
                # a long one is not kept: thousands of sets held from decision to decision
                # cost the garbage collector more than making them again would
                if len(axes) >= _AXES_MAX:
                    del axes[next(iter(axes))]  # the oldest
                axes[key] = got
        return got
    return _subset_sets_made(xs, lo, hi, cache, own, order)


#: the key, in a field's cache, of its hands' subset axes (see subset_sets), and how many
#: it keeps (each may hold thousands of sets once made)
_AXES = ("#subset axes",)
_AXES_MAX = 16
#: the most sets an axis may have to be kept
_AXES_KEPT_MOST = 512


def _subset_sets_made(xs: Sequence[object], lo: int, hi: int,
                      cache: dict[tuple[object, ...], tuple[tuple[object, ...], str]],
                      own: bool, order: Mapping[str, int]) -> SubsetSets:
    """:func:`subset_sets`, every set made."""
    xs, n, key = tuple(xs), len(xs), (tuple(xs), lo, hi, own)
    check_size(count := sum(math.comb(n, k) for k in range(max(0, lo), min(n, hi) + 1)),
               "the list of subsets")
    if not distinct_texts(xs, order) or count * 4 < 1 << n:
        return _subset_sets_one_by_one(xs, lo, hi, cache, own, key, order)
    places = sorted(range(n), key=lambda i: order[cast("str", xs[i])])
    # every set (and its text, all but the closing bracket) by its mask of places in
    # canonical order, which is the order they are built in: each element is added to every
    # set so far, after a comma, but to the empty set (at mask 0) without one
    sets: list[list[object]] = [[]]
    texts = ["["]
    for j, i in enumerate(places):
        x = xs[i]
        one = [x]  # one list for all the concatenations: each makes a new list of its own
        sets += [t + one for t in sets]
        piece = f',"{x}"'
        texts += [t + piece for t in texts]
        texts[1 << j] = f'["{x}"'
    lo, hi = max(lo, 0), min(hi, n)
    if not own:
        # in the order of their events' canonical texts (H5), so that the legal events'
        # sort finds them sorted already (one pass, not 100,000 comparisons for 13 cards)
        keep = _text_order([f'"{xs[i]}"' for i in places])
        if lo > 0 or hi < n:
            keep = [c for c in keep if lo <= c.bit_count() <= hi]
        return SubsetSets(key, None, list(map(sets.__getitem__, keep)),
                          [texts[c] + "]" for c in keep], ordered=True)
    texts = [t + "]" for t in texts]
    rank = [0] * n
    for j, i in enumerate(places):
        rank[i] = j
    # and every subset by its mask of positions in xs, with the place mask of its set
    subs: list[tuple[object, ...]] = [()]
    place = [0]
    for i, x in enumerate(xs):
        subs += [t + (x,) for t in subs]
        bit = 1 << rank[i]
        place += [c | bit for c in place]
    if lo > 0 or hi < n:
        keep = [m for m in range(len(subs)) if lo <= m.bit_count() <= hi]
        subs = [subs[m] for m in keep]
        place = [place[m] for m in keep]
    return SubsetSets(key, subs, list(map(sets.__getitem__, place)),
                      list(map(texts.__getitem__, place)))


class SubsetAxis(Sequence[list[object]]):
    """What ``subset_sets(xs, lo, hi, cache, False)`` lists for distinct card codes or suits
    (its ``sets``; :attr:`texts` its texts), unwritten: the ``k``-th set in the order of the
    texts worked out when asked, so that a decision over a hand's 8,192 subsets, of which a
    playout applies one, is counted and indexed without 8,192 lists and texts being made.

    The order (see :func:`_text_order`): the sets whose first element (in canonical order) is
    ``j`` come in the order of ``j``'s quoted text, each group being ``j`` with every set of
    the elements after ``j`` in this same order, and the empty set comes last. So the
    ``k``-th set is found element by element: the group it falls in by counting each group's
    sets, sizes ``lo`` to ``hi`` allowed."""

    def __init__(self, xs: Sequence[object], lo: int, hi: int,
                 order: Mapping[str, int] = TEXT_ORDER,
                 whole: Callable[[], SubsetSets] | None = None) -> None:
        n = len(xs)
        #: what makes every set and text at once (where they are gone through), and them
        self._whole = whole
        self._made: SubsetSets | None = None
        self.lo, self.hi = max(lo, 0), min(hi, n)
        self.total = _sizes(n, self.lo, self.hi)
        check_size(self.total, "the list of subsets")
        self._xs, self._order = xs, order
        #: the elements in canonical order, their JSON texts, and the places in the order
        #: of their texts: worked out when a first set is (a driver that lists them all
        #: never needs them)
        self.elements: list[object] = []
        self.quoted: list[str] = []
        self._by_text: list[int] | None = None
        #: for each place (and -1 for none yet, at index 0) the places after it in the order
        #: of their texts, each worked out when first needed (:meth:`after`): one set's
        #: places visit a few of them, not all n + 1
        self._after: list[list[int] | None] = []

    def _prepare(self) -> None:
        n, order = len(self._xs), self._order
        self.elements = sorted(self._xs, key=order.__getitem__)  # type: ignore[arg-type]
        quoted = self.quoted = [f'"{x}"' for x in self.elements]
        self._by_text = sorted(range(n), key=quoted.__getitem__)
        self._after = [None] * (n + 1)

    def after(self, j: int) -> list[int]:
        """The places after place ``j`` (-1: all of them), in the order of their texts."""
        if self._by_text is None:
            self._prepare()
        got = self._after[j + 1]
        if got is None:
            assert self._by_text is not None
            got = self._after[j + 1] = [i for i in self._by_text if i > j]
        return got

    def __len__(self) -> int:
        return self.total

    @property
    def texts(self) -> _SubsetTexts:
        """The sets' texts, as a sequence of their own (made anew: the axis holds none, so
        that the two make no cycle, which only the garbage collector could free)."""
        return _SubsetTexts(self)

    def places(self, k: int) -> list[int]:
        """The places, ascending, of the ``k``-th set's elements."""
        if not 0 <= k < self.total:
            raise IndexError(k)
        if self._by_text is None:
            self._prepare()
        by_text = self._by_text
        assert by_text is not None
        n, lo, hi, j = len(self.elements), self.lo, self.hi, -1
        out: list[int] = []
        comb = math.comb
        while True:
            if hi <= 0:
                return out  # only the empty set is left
            # one size left (a pass of three cards): a group's count is one binomial
            fixed = lo == hi
            # the places after j in the order of their texts (``after(j)``, not made into a
            # list: one set's places visit few of them)
            for i in by_text:
                if i <= j:
                    continue
                # the sets of group i: i, with a set of the n-1-i elements after it
                g = comb(n - 1 - i, lo - 1) if fixed else _sizes(n - 1 - i, lo - 1, hi - 1)
                if k < g:
                    out.append(i)
                    j, lo, hi = i, lo - 1, hi - 1
                    break
                k -= g
            else:
                return out  # the empty set of what is left: the group's last

    def __getitem__(self, k: int) -> list[object]:  # type: ignore[override]
        if self._made is not None:  # made already: read, not worked out again
            return self._made.sets[k]
        places = self.places(k)
        els = self.elements
        return [els[i] for i in places]

    def made(self) -> SubsetSets:
        """Every set and text, made at once (by :func:`subset_sets`'s own ways, or one by
        one where no maker was given), kept."""
        if self._made is None:
            if self._whole is not None:
                self._made = self._whole()
                self._whole = None  # it holds the field's cache, which may hold this axis
            else:
                sets, texts = self._walk_all()
                self._made = SubsetSets((), None, sets, texts, ordered=True)
        return self._made

    def _walk_all(self) -> tuple[list[list[object]], list[str]]:
        """Every set and its text in order, by going through the groups depth first (each
        group's sets after its first element, the empty set last): no set sorted, no set
        searched for by its number (for 3 cards of 13 to pass, 286 sets of 8,192)."""
        if self._by_text is None:
            self._prepare()
        n, els, quoted = len(self.elements), self.elements, self.quoted
        # every list, all being gone through; the recursive walk below is a cycle, which must
        # not hold the axis (it would wait for the garbage collector)
        after = [self.after(j) for j in range(-1, n)]
        sets: list[list[object]] = []
        texts: list[str] = []

        def walk(j: int, lo: int, hi: int, chosen: list[object], text: str) -> None:
            # ``chosen`` and ``text`` (its text less the closing bracket) so far
            if hi == 1:
                # the last element: each a set of its own, no call deeper
                for i in after[j + 1] if lo <= 1 else ():
                    sets.append([*chosen, els[i]])
                    texts.append(f"{text}{quoted[i]}]")
            elif hi > 1:
                for i in after[j + 1]:
                    if _sizes(n - 1 - i, lo - 1, hi - 1):
                        walk(i, lo - 1, hi - 1, [*chosen, els[i]], f"{text}{quoted[i]},")
            if lo <= 0 <= hi:
                sets.append(list(chosen))
                texts.append(text.removesuffix(",") + "]")

        walk(-1, self.lo, self.hi, [], "[")
        return sets, texts

    def __iter__(self) -> Iterator[list[object]]:
        return iter(self.made().sets)


class _SubsetTexts(Sequence[str]):
    """The texts of a :class:`SubsetAxis`'s sets, each made when asked."""

    def __init__(self, axis: SubsetAxis) -> None:
        self.axis = axis

    def __len__(self) -> int:
        return self.axis.total

    def __getitem__(self, k: int) -> str:  # type: ignore[override]
        made = self.axis._made
        if made is not None:
            return made.texts[k]
        places = self.axis.places(k)
        q = self.axis.quoted
        return "[" + ",".join(q[i] for i in places) + "]"

    def __iter__(self) -> Iterator[str]:
        return iter(self.axis.made().texts)


class NumberSubsetAxis(Sequence[list[int]]):
    """The sets of distinct numbers (bid cards' values) that ``subsets(xs, lo, hi)`` makes,
    in the order of their JSON texts (``[1,10,2]`` before ``[1,2]``), unwritten: the
    ``k``-th set and text worked out when asked, as :class:`SubsetAxis` does for cards, so
    that a declarer's 8,192 sets are not made to apply one of them.

    A text is ``[``, then each element's digits followed by ``,`` or, for the last, ``]``
    (``]`` alone for the empty set). No such piece begins another, so two sets' texts
    compare as their first differing pieces do: the ``k``-th set is found piece by piece,
    each candidate piece sorted by its text and counted by the sets that begin with it."""

    def __init__(self, xs: Sequence[int], lo: int, hi: int,
                 whole: Callable[[], tuple[list[list[int]], list[str]]] | None = None) -> None:
        #: what makes every set and text at once, for a driver that goes through them all
        self._whole = whole
        self._made: tuple[list[list[int]], list[str]] | None = None
        self.elements = sorted(xs)
        self.lo, self.hi = max(lo, 0), min(hi, len(self.elements))
        self.total = _sizes(len(self.elements), self.lo, self.hi)
        check_size(self.total, "the list of subsets")

    def __len__(self) -> int:
        return self.total

    def _walk(self, k: int) -> tuple[list[int], str]:
        if not 0 <= k < self.total:
            raise IndexError(k)
        els, n = self.elements, len(self.elements)
        out: list[int] = []
        text, after = "[", 0  # the places from ``after`` on may follow
        while True:
            t = len(out)
            pieces: list[tuple[str, int, int]] = []  # (piece, place or -1, sets it begins)
            if t == 0 and self.lo == 0:
                pieces.append(("]", -1, 1))
            for i in range(after, n):
                left = n - 1 - i
                if self.lo <= t + 1 <= self.hi:
                    pieces.append((f"{els[i]}]", i, 1))
                more = _sizes(left, self.lo - t - 1, self.hi - t - 1) - \
                    (1 if self.lo <= t + 1 <= self.hi else 0)
                if more > 0:
                    pieces.append((f"{els[i]},", i, more))
            pieces.sort()
            for chosen in pieces:
                if k < chosen[2]:
                    break
                k -= chosen[2]
            else:  # pragma: no cover - k < total is counted above
                raise AssertionError("a set past the last")
            piece, i, _ = chosen
            text += piece
            if i >= 0:
                out.append(els[i])
            if piece.endswith("]"):
                return out, text
            after = i + 1

    def __getitem__(self, k: int) -> list[int]:  # type: ignore[override]
        if self._made is not None:
            return self._made[0][k]
        return self._walk(k)[0]

    def made(self) -> tuple[list[list[int]], list[str]]:
        """Every set and text, made at once (by ``whole``, or one by one), kept."""
        if self._made is None:
            if self._whole is not None:
                self._made, self._whole = self._whole(), None
            else:
                walked = [self._walk(k) for k in range(self.total)]
                self._made = [s for s, _ in walked], [t for _, t in walked]
        return self._made

    def __iter__(self) -> Iterator[list[int]]:
        return iter(self.made()[0])

    @property
    def texts(self) -> Sequence[str]:
        """The sets' texts, each worked out when asked."""
        return _NumberTexts(self)


class _NumberTexts(Sequence[str]):
    """The texts of a :class:`NumberSubsetAxis`'s sets."""

    def __init__(self, axis: NumberSubsetAxis) -> None:
        self.axis = axis

    def __len__(self) -> int:
        return self.axis.total

    def __getitem__(self, k: int) -> str:  # type: ignore[override]
        made = self.axis._made
        return made[1][k] if made is not None else self.axis._walk(k)[1]

    def __iter__(self) -> Iterator[str]:
        return iter(self.axis.made()[1])


@functools.lru_cache(maxsize=4096)
def _sizes(m: int, lo: int, hi: int) -> int:
    """How many subsets of ``m`` elements have ``lo`` to ``hi`` elements."""
    return sum(math.comb(m, t) for t in range(max(lo, 0), min(hi, m) + 1))


def _subset_sets_one_by_one(xs: tuple[object, ...], lo: int, hi: int,
                            cache: dict[tuple[object, ...], tuple[tuple[object, ...], str]],
                            own: bool, key: tuple[object, ...],
                            order: Mapping[str, int] = TEXT_ORDER) -> SubsetSets:
    """:func:`subset_sets` for elements that are not distinct card codes or suits: subset by
    subset, through :func:`set_and_json` and its ``cache``."""
    plain = subsets(xs, lo, hi)
    done = [set_and_json(c, cache, order) for c in plain]
    if not own:
        # a set met again is the same event: the first subset that gives it stands; in the
        # order of their texts, as the doubling gives them (the legal events' sort then has
        # nothing to do)
        first = {j: st for st, j in reversed(done)}
        texts = sorted(first)
        return SubsetSets(key, None, [list(first[t]) for t in texts], texts, ordered=True)
    return SubsetSets(key, plain, [list(st) for st, _ in done], [j for _, j in done])


def _text_order(quoted: Sequence[str]) -> list[int]:
    """The masks of every subset of ``quoted`` (element texts in the order a set lists them,
    bit k for the k-th) in the order of the sets' JSON texts.

    Two set texts first differ inside the first element they do not share, which decides by
    its quoted text (a closing quote sorts before any letter or digit); a set that is the
    other's beginning comes after it (``]`` sorts after ``,``). So the sets whose first
    element is k come in the texts' order of k, each group holding k with every subset of
    the elements after k, in their own order, and k alone last; the empty set is last of all.
    Built from the last element back, each order from the ones after it: twice 2**n masks."""
    n = len(quoted)
    after: list[list[int]] = [[0] for _ in range(n + 1)]
    for k in range(n - 1, -1, -1):
        out: list[int] = []
        for j in sorted(range(k, n), key=quoted.__getitem__):
            b = 1 << j
            out += [b | m for m in after[j + 1]]
        out.append(0)
        after[k] = out
    return after[0]


def subset_in_order(xs: Sequence[object], lo: int, hi: int,
                    chosen: Sequence[object], order: Mapping[str, int] = TEXT_ORDER
                    ) -> tuple[object, ...]:
    """The subset of ``subsets(xs, lo, hi)`` whose set is ``chosen``, as the generator gives
    it (in the order of ``xs``; the first such subset, where ``xs`` repeats an element)."""
    xs = tuple(xs)
    if distinct_texts(xs, order):
        picked = set(chosen)
        return tuple(x for x in xs if x in picked)
    want = list(chosen)
    return next(c for c in subsets(xs, lo, hi) if list(sorted_distinct(c, order)) == want)


def distinct_texts(xs: tuple[object, ...], order: Mapping[str, int] = TEXT_ORDER) -> bool:
    """Whether ``xs`` holds distinct card codes or suit letters (at least one, at most 60)
    of the deck whose order is ``order`` (the French deck's: TEXT_ORDER)."""
    return 0 < len(xs) <= 60 and all(type(x) is str and x in order for x in xs) and \
        len(set(xs)) == len(xs)


def field_json(x: object, cache: dict[tuple[object, ...] | str, str]) -> str:
    """:func:`json_value` of one field's value, a tuple's text remembered in the field's own
    ``cache`` (see :func:`set_and_json`)."""
    text = json_value(x)
    # only flat tuples: one holding lists (zones) cannot be a key, nor be trusted to stay;
    # and strings (a card, a suit), which a field of tuples never holds
    if len(cache) < FIELD_CACHE_MAX and (type(x) is str or (
            isinstance(x, tuple) and (not x or type(x[0]) not in (list, tuple)))):
        cache[x] = text
    return text


def json_value(x: object) -> str:
    """Canonical JSON text of one field value, fast for the usual card codes, suits, numbers
    and flat lists of them (equal to json.dumps with the canonical separators)."""
    t = type(x)
    if isinstance(x, tuple):
        if not x or type(x[0]) is not str:
            return _json_list(x)
        # the same few thousand groups of cards recur in every game; their text is remembered
        hit = _JV_CACHE.get(x)
        if hit is None:
            hit = _json_list(x)
            if len(_JV_CACHE) < _CACHE_MAX:
                _JV_CACHE[x] = hit
        return hit
    if isinstance(x, list):
        return _json_list(x)
    if isinstance(x, str):
        return f'"{x}"' if x.isalnum() else json.dumps(x, ensure_ascii=False)
    if t is int:
        return str(x)
    if t is bool:
        return "true" if x else "false"
    if x is None:
        return "null"
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _json_list(x: Sequence[object]) -> str:
    if not x:
        return "[]"
    t0 = type(x[0])
    if t0 is int and all(type(y) is int for y in x):
        return "[" + ",".join(map(str, x)) + "]"
    if t0 is str:
        strs = cast("Sequence[str]", x)
        # card codes and suit letters need no escaping: tested as a set, at C speed
        if _PLAIN_TEXTS.issuperset(strs) or all(type(y) is str and y.isalnum() for y in strs):
            return '["' + '","'.join(strs) + '"]'
    return "[" + ",".join(json_value(y) for y in x) + "]"


#: the deepest an event's values may nest (a legal one nests three levels at most: the
#: event, a list of cards, and a list of such lists)
MAX_EVENT_DEPTH = 32


#: the values that nest: an event's objects and lists (tuples where a caller built them)
_NESTS = (list, tuple, dict)


def too_deep(value: object, limit: int) -> bool:
    """Whether the lists and objects of ``value`` (a JSON value) nest more than ``limit``
    levels deep; walked with a stack of its own, so any depth is answered (only what nests
    goes on it: a shuffle's 52 cards are looked at, not pushed)."""
    if not isinstance(value, _NESTS):
        return False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        if depth >= limit:
            return True
        for x in v.values() if isinstance(v, dict) else v:
            if isinstance(x, _NESTS):
                stack.append((x, depth + 1))
    return False


def json_copy(value: object) -> object:
    """A copy of a JSON value all the way down (its objects and lists new, the rest shared,
    being immutable): what ``copy.deepcopy`` gives for it at a fraction of the cost. The
    value must nest no deeper than Python's recursion allows (:func:`too_deep` first)."""
    if isinstance(value, dict):
        return {k: json_copy(x) if isinstance(x, _NESTS) else x for k, x in value.items()}
    if isinstance(value, list):
        return [json_copy(x) if isinstance(x, _NESTS) else x for x in value]
    if isinstance(value, tuple):
        return tuple(json_copy(x) if isinstance(x, _NESTS) else x for x in value)
    return value


def normalise_value(v: object) -> object:
    """Card codes and suit letters written leniently become canonical (R6, R6b)."""
    if isinstance(v, list):
        return [normalise_value(x) for x in v]
    if isinstance(v, str):
        card = normalise_card(v)
        if card is not None:
            return card
        if v.upper() in ("C", "D", "H", "S"):
            return v.upper()
    return v


def loose_key(ev: Mapping[str, object]) -> str:
    """The key of ``ev`` without its false and empty-list fields (R6: an omitted ``false`` or
    ``[]`` matches a legal event that writes it)."""
    return canonical_key({k: x for k, x in ev.items() if x is not False and x != []})


def normalise_decision(event: Mapping[str, object], to_move: object,
                       action_fields: Mapping[str, set[str]], set_fields: set[tuple[str, str]],
                       deck: Deck, game: str) -> dict[str, object]:
    """A decision event as the state applies it, or RecordError/IllegalActionError: ``seat``
    must be ``to_move``, the action one of ``action_fields`` with its fields, every value
    spelled canonically (``deck``'s codes), and a set field (``set_fields``) a list of
    distinct values of one kind, sorted; ``game`` names the spec in errors."""
    if not isinstance(event, Mapping):
        raise RecordError("an event is a JSON object")
    if "chance" in event:
        raise IllegalActionError(f"a decision by seat {to_move} is due, not a chance "
                                 "event")
    seat, action = event.get("seat"), event.get("action")
    if not isinstance(action, str):
        raise RecordError("a decision needs an 'action' name")
    fields = action_fields.get(action)
    if fields is None:
        raise RecordError(f"unknown action {action!r} in {game}")
    extra = set(event) - {"seat", "action"} - fields
    if extra:
        raise RecordError(f"unknown field(s) {', '.join(sorted(extra))} in {action!r}")
    if seat != to_move or isinstance(seat, bool):
        raise IllegalActionError(f"it is seat {to_move}'s decision, not seat "
                                 f"{seat!r}'s")
    out: dict[str, object] = {"seat": seat, "action": action}
    norm = normalise_value if deck.french else deck.normalise_value
    order = deck.order
    for k, val in event.items():
        if k in ("seat", "action"):
            continue
        v = norm(val)
        if (action, k) in set_fields:
            if not isinstance(v, list):
                raise RecordError(f"{action}.{k} is a list")
            if len(set(map(json.dumps, v))) != len(v):
                raise RecordError(f"{action}.{k} repeats a value")
            if len({type(x) for x in v}) > 1:
                # a set of the language holds values of one kind (cards, numbers...)
                raise RecordError(f"{action}.{k} mixes values of different kinds")
            try:
                # cards in pack order before anything else of their kind (a text that is
                # no card code, which no legal event holds): never a card's place beside
                # a text, which Python cannot order
                v = sorted(v, key=lambda x: (0, order[x], "")
                           if isinstance(x, str) and x in order else (1, 0, x))
            except TypeError:
                raise RecordError(f"{action}.{k} holds values that cannot be put in "
                                  f"order, such as objects") from None
        out[k] = v
    return out
