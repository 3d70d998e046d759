"""The built-in functions of the language: one table, one entry per function.

Each :class:`Builtin` says everything the rest of the house needs: its signature (the checker
types calls with it), whether it accepts a generator (``sum(x for x in xs)``), the Python
template the compiler writes for a call, the function that folds a call whose arguments are
all known while compiling, and the runtime helpers the template names. Adding a built-in is
adding one entry here (and its paragraph in docs/language.md); ``tests/test_builtins.py``
fails when an entry's template names a helper it does not bring, or when a fold disagrees with
the generated code.

Types are :mod:`rulespec.lang.types` values (``ListOf(T)``: ``T`` is bound to a list's element).
"""

from __future__ import annotations

import enum
import itertools
import math
import os
import reprlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, TypeAlias, TypeVar

import attrs

from rulespec.lang.cards import CARD_ORDER, RANK_OF, SUIT_OF, SUITS
from rulespec.lang.cards import pack as make_pack
from rulespec.lang.melds import MeldError, best_melds, deadwood, is_meld, melds
from rulespec.lang.types import ANY, BOOL, CARD, INT, SUIT, ListOf, T, Type

#: a value of the language at run time: an int, a bool, a str (a card, a suit, a name), a tuple
#: of values (a list) or None; the checker types it, so the runtime helpers take it as given
Value: TypeAlias = Any

__all__ = ["Value", "BUILTINS", "MAX_COLLECTION", "Builtin", "EmptyError", "LimitError",
           "RUNTIME_HELPERS", "add", "check_size", "groups", "meld_guard", "mul", "multi_groups",
           "respend", "seat", "pile", "UNSET", "set_of", "sitter", "spend", "sub", "total",
           "turns_back"]


class EmptyError(Exception):
    """A built-in refused what a rule gave it (min or max of nothing, a list past the size
    limit): the rule's error, turned into a RuleRuntimeError with the rule's span."""


class LimitError(EmptyError):
    """A list a rule would build is longer than :data:`MAX_COLLECTION`."""


def _limit() -> int:
    try:
        return max(1, int(os.environ.get("RULESPEC_MAX_COLLECTION", "")))
    except ValueError:
        return 1_000_000


#: the most elements one list made by a rule may hold (``range``, ``pack``, ``subsets``,
#: ``groups``, ``+``): past it the rule stops with a runtime error naming its clause, before
#: the list is built, instead of exhausting memory. RULESPEC_MAX_COLLECTION sets it.
MAX_COLLECTION: Final = _limit()


#: the most bits a number a rule computes may have (about 1,000 digits): a product past it
#: is refused before it is computed, so squaring in a loop cannot exhaust memory
MAX_INT_BITS: Final = 3_400


def mul(x: Value, y: Value) -> Value:
    """``*`` of the language, refusing a product of more than MAX_INT_BITS bits."""
    if type(x) is int and type(y) is int and x.bit_length() + y.bit_length() > MAX_INT_BITS:
        raise LimitError(f"a product of {x.bit_length()} and {y.bit_length()} bits would be "
                         f"a number of more than {MAX_INT_BITS} bits (about 1,000 digits)")
    return x * y


class Spending(Protocol):
    """A running state as :func:`spend` sees it: ``left`` is what the comprehensions of the
    rules may still go through before the next event (the machine fills it as each stretch of
    rules starts: ten times engine.machine.MAX_WORK). Each state has its own, so two states
    played side by side, or from two threads, do not share a budget."""

    left: int


def spend(st: Spending, xs: Value) -> Value:
    """``xs``, a comprehension's source or a list a statement builds (``fill``, a list stored
    with ``set``), its length spent from ``st.left``: a comprehension of a million elements
    whose every element runs another, or a list grown by a pack at every round, stops with
    an error."""
    st.left -= len(xs)
    if st.left < 0:
        raise LimitError("the rules here go through or build more list elements between two "
                         "events than the work budget allows (ten times RULESPEC_MAX_WORK)")
    return xs


def check_size(n: int, what: str) -> None:
    """Raise LimitError when a list of ``n`` elements (described by ``what``) is too long."""
    if n > MAX_COLLECTION:
        raise LimitError(f"{what} would hold {n} elements, more than the limit of "
                         f"{MAX_COLLECTION} (RULESPEC_MAX_COLLECTION)")


class _Missing(enum.Enum):
    """min/max's default for nothing (an enum member, so ``is _MISSING`` narrows its type)."""

    MISSING = enum.auto()


_MISSING: Final = _Missing.MISSING
#: an element of a list of the language
_E = TypeVar("_E")


def groups(cards: Sequence[str], rank_of: Mapping[str, int] = RANK_OF
           ) -> tuple[tuple[str, ...], ...]:
    """Every ordered sequence of one or more cards of one rank from ``cards``, each once.

    Identical duplicates (two packs) give identical sequences, which appear once (V10). The
    ranks come in the order their first cards do.
    """
    # a rank's one card is kept as it is, and becomes a tuple at its second: this runs at
    # every decision of a shedding game, where most ranks of a hand have one card
    by_rank: dict[int, Value] = {}
    several = False
    for c in cards:
        r = rank_of[c]
        if r in by_rank:
            several = True
            same = by_rank[r]
            by_rank[r] = (same, c) if type(same) is str else same + (c,)
        else:
            by_rank[r] = c
    if not several:
        return tuple(zip(cards))  # one card of each rank: each alone, in the hand's order
    out: list[tuple[str, ...]] = []
    for same in by_rank.values():
        if type(same) is str:
            out.append((same,))
        else:
            # the sequences of a rank's cards, worked out once for each way they lie in a
            # hand (a few hundred with one pack): a pair has 4, three of a kind 15
            got = _SAME_RANK.get(same)
            if got is None:
                got = _same_rank_groups(same)
            out += got
    return tuple(out)


def multi_groups(cards: Sequence[str], rank_of: Mapping[str, int] = RANK_OF
                 ) -> Sequence[tuple[str, ...]]:
    """The sequences of :func:`groups` of two cards or more, ranks in the order their second
    cards come.

    A loop over ``groups(hand)`` is compiled as a loop over the hand's cards, each alone, and
    then one over these: no tuple is made for a single card, and a hand with no two cards of
    one rank (the usual hand) has none of these at all.
    """
    # as groups() does, but the ranks that come twice are noted as they come: only theirs
    # are looked at again (a shedding game's hand holds a pair more often than not)
    by_rank: dict[int, Value] = {}
    twice: list[int] | None = None
    for c in cards:
        r = rank_of[c]
        if r in by_rank:
            same = by_rank[r]
            by_rank[r] = (same, c) if type(same) is str else same + (c,)
            if twice is None:
                twice = [r]
            elif r not in twice:
                twice.append(r)
        else:
            by_rank[r] = c
    if twice is None:
        return ()
    out: list[tuple[str, ...]] = []
    for r in twice:
        same = by_rank[r]
        got = _SAME_RANK_MULTI.get(same)
        if got is None:
            got = tuple(g for g in _SAME_RANK.get(same) or _same_rank_groups(same)
                        if len(g) > 1)
            if len(_SAME_RANK_MULTI) < _SAME_RANK_MAX:
                _SAME_RANK_MULTI[same] = got
        out += got
    return out


#: :func:`groups` of cards of one rank, by the cards in hand order; at most _SAME_RANK_MAX
_SAME_RANK: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}
_SAME_RANK_MAX = 20_000
#: the sequences of two cards or more of :data:`_SAME_RANK` (see :func:`multi_groups`)
_SAME_RANK_MULTI: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = {}


def _same_rank_groups(same: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    m = len(same)
    check_size(sum(math.perm(m, k) for k in range(1, m + 1)),
               f"the groups of {m} cards of one rank")
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    for k in range(1, m + 1):
        for perm in itertools.permutations(same, k):
            if perm not in seen:
                seen.add(perm)
                out.append(perm)
    got = tuple(out)
    if len(_SAME_RANK) < _SAME_RANK_MAX:
        _SAME_RANK[same] = got
    return got


def count_true(xs: Iterable[object]) -> int:
    """How many of ``xs`` are true (``count``)."""
    return sum(1 for x in xs if x)


def min_of(xs: Iterable[int]) -> int:
    """The least element; EmptyError for none."""
    m = min(xs, default=_MISSING)
    if m is _MISSING:
        raise EmptyError("min of an empty list")
    return m


def max_of(xs: Iterable[int]) -> int:
    """The greatest element; EmptyError for none."""
    m = max(xs, default=_MISSING)
    if m is _MISSING:
        raise EmptyError("max of an empty list")
    return m


def add(x: Value, y: Value) -> Value:
    """``+`` of the language: numbers add, lists concatenate."""
    if isinstance(x, (list, tuple)):
        if len(x) + len(y) > MAX_COLLECTION:  # the test written out: + runs in hot loops
            check_size(len(x) + len(y), "the joined list")
        return tuple(x) + tuple(y)
    r = x + y
    if type(r) is int and r.bit_length() > MAX_INT_BITS:  # doubling a number, round by round
        raise LimitError(f"a sum of more than {MAX_INT_BITS} bits (about 1,000 digits)")
    return r


def seat(x: object, players: int) -> int:
    """``x`` as the dealer, a seat of a table of ``players``; EmptyError (the rule's runtime
    error) for anything else."""
    if type(x) is not int or not 0 <= x < players:
        raise EmptyError(f"the dealer must be a seat of this table, 0 to {players - 1}, not "
                         f"{reprlib.repr(x)}")
    return x


def sitter(x: object, players: int) -> int:
    """``x`` as the seat of ``sit out``, a seat of a table of ``players``; EmptyError (the
    rule's runtime error) for anything else."""
    if type(x) is not int or not 0 <= x < players:
        raise EmptyError(f"only a seat of this table, 0 to {players - 1}, may sit out, not "
                         f"{reprlib.repr(x)}")
    return x


def pile(x: object, piles: int) -> int:
    """``x`` as one of a zone's ``piles`` (``reveal ZONE[x]``); EmptyError (the rule's
    runtime error) for anything else."""
    if type(x) is not int or not 0 <= x < piles:
        raise EmptyError(f"the zone has piles 0 to {piles - 1}, not {reprlib.repr(x)}")
    return x


def sub(x: int, y: int) -> int:
    """``-`` of the language, refusing a difference of more than MAX_INT_BITS bits (``x - (0 -
    x)`` doubles a number as surely as ``x + x``)."""
    r = x - y
    if r.bit_length() > MAX_INT_BITS:
        raise LimitError(f"a difference of more than {MAX_INT_BITS} bits (about 1,000 digits)")
    return r


def total(xs: Iterable[int]) -> int:
    """``sum`` of the language: a total of more than MAX_INT_BITS bits is refused."""
    r = sum(xs)
    if r.bit_length() > MAX_INT_BITS:
        raise LimitError(f"a sum of more than {MAX_INT_BITS} bits (about 1,000 digits)")
    return r


_SET_CACHE: dict[tuple[Value, ...], tuple[Value, ...]] = {}
#: the canonical order of the texts a set may hold: cards in pack order, suits C D H S (a set
#: holds one kind only); looked up by dict, at C speed, rather than through a Python key
TEXT_ORDER: dict[str, int] = {**{s: i for i, s in enumerate(SUITS)}, **CARD_ORDER}
_SET_CACHE_MAX = 200_000


def set_of(xs: Value, order: Mapping[str, int] = TEXT_ORDER,
           cache: dict[tuple[Value, ...], tuple[Value, ...]] = _SET_CACHE) -> tuple[Value, ...]:
    """The distinct elements in canonical order (numbers ascending, cards in pack order,
    suits C, D, H, S); a declared deck passes its own ``order`` and ``cache``."""
    key = xs if type(xs) is tuple else None
    if key is not None:
        hit = cache.get(key)
        if hit is not None:
            return hit
    out = sorted_distinct(xs, order)
    if key is not None and len(cache) < _SET_CACHE_MAX:
        cache[key] = out
    return out


def sorted_distinct(xs: Value, order: Mapping[str, int] = TEXT_ORDER) -> tuple[Value, ...]:
    """:func:`set_of` without its cache, for callers that keep their own."""
    xs = tuple(xs)
    if xs and isinstance(xs[0], str):
        try:
            return tuple(sorted(set(xs), key=order.__getitem__))
        except KeyError:
            # the values of a named enumeration: after the cards and suits, by their names
            return tuple(sorted(set(xs), key=lambda x: (order.get(x, len(order)), x)))
    return tuple(sorted(set(xs)))


def subsets(xs: Iterable[_E], lo: int, hi: int) -> tuple[tuple[_E, ...], ...]:
    """Every subset of ``xs`` with ``lo`` to ``hi`` elements, each in the order of ``xs``."""
    xs = tuple(xs)
    ks = range(max(0, lo), min(len(xs), hi) + 1)
    check_size(sum(math.comb(len(xs), k) for k in ks), "the list of subsets")
    out: list[tuple[_E, ...]] = []
    for k in ks:
        out.extend(itertools.combinations(xs, k))
    return tuple(out)


def without_ranks(cards: Iterable[str], ranks: Iterable[int],
                  rank_of: Mapping[str, int] = RANK_OF) -> tuple[str, ...]:
    """The cards whose rank is not among ``ranks``."""
    drop = set(ranks)
    return tuple(c for c in cards if rank_of[c] not in drop)


def _pack(n: int) -> tuple[str, ...]:
    if n < 0:
        raise EmptyError(f"pack({n}): the number of packs cannot be negative")
    check_size(52 * n, f"pack({n})")
    return tuple(make_pack(n))


def turns_back(s: int, n: int) -> tuple[int, ...]:
    """Every seat once, from ``s`` to the right (counter-clockwise): ``turns_from`` while the
    direction of play is reversed. A seat outside the table is the rule's runtime error, as
    ``seats_from``'s is."""
    if type(s) is not int or not 0 <= s < n:
        raise IndexError(f"seat {reprlib.repr(s)} is not a seat of this table")
    return tuple((s - k) % n for k in range(n))


def _inclusive_range(a: int, b: int) -> tuple[int, ...]:
    if b - a >= MAX_COLLECTION:
        check_size(b - a + 1, f"range({a}, {b})")
    return tuple(range(a, b + 1))


_F = TypeVar("_F", bound=Callable[..., Any])


def meld_guard(f: _F) -> _F:
    """``f``, a built-in of :mod:`rulespec.lang.melds`, whose refusal (values that do not
    match the cards, a search past its limit) is the rule's runtime error."""
    def run(*args: Any, **kw: Any) -> Any:
        try:
            return f(*args, **kw)
        except MeldError as e:
            raise EmptyError(str(e)) from None
    return run  # type: ignore[return-value]


_deadwood = meld_guard(deadwood)
_best_melds = meld_guard(best_melds)


@attrs.frozen
class Builtin:
    """One built-in function of the language."""

    name: str
    params: tuple[Type, ...]
    result: Type
    #: Python source of a call: ``{0}``, ``{1}``... are the arguments' source (a generator
    #: argument is a parenthesised generator expression, or a list comprehension if ``eager``)
    template: str
    #: evaluates a call whose arguments are all known while compiling; None: never folded
    fold: Callable[..., object] | None = None
    #: accepts ``f(expr for x in xs if cond)``
    generator: bool = False
    #: with a generator: it consumes every element (sum, not any), so the compiler hands it a
    #: list, which Python builds faster than it runs a generator; the template works on both
    eager: bool = False
    #: runtime names the template uses, besides the table's own ``_N`` and ``_SF``
    helpers: Mapping[str, object] = attrs.field(factory=dict)
    #: folds a call on a list literal without making the list (``size([c])`` is 1,
    #: ``first([c])`` is ``c``), from the literal's items: a number, or the item picked;
    #: None: not folded. The compiler folds only items that cannot fail or cost anything
    #: (names and literals): the items not picked are never evaluated
    on_items: Callable[[tuple[object, ...]], object] | None = None


def _b(name: str, params: tuple[Type, ...], result: Type, template: str,
       fold: Callable[..., object] | None = None, generator: bool = False,
       eager: bool = False, on_items: Callable[[tuple[object, ...]], object] | None = None,
       **helpers: object) -> Builtin:
    return Builtin(name, params, result, template, fold, generator, eager, helpers, on_items)


def _first_item(items: tuple[object, ...]) -> object:
    return items[0]


def _last_item(items: tuple[object, ...]) -> object:
    return items[-1]


#: every built-in function, by name
BUILTINS: Mapping[str, Builtin] = {b.name: b for b in (
    _b("rank", (CARD,), INT, "_RANK[{0}]", RANK_OF.__getitem__, _RANK=RANK_OF),
    _b("suit", (CARD,), SUIT, "_SUIT[{0}]", SUIT_OF.__getitem__, _SUIT=SUIT_OF),
    _b("size", (ListOf(ANY),), INT, "len({0})", len, on_items=len),
    _b("top", (ListOf(CARD),), CARD, "{0}[-1]", on_items=_last_item),
    _b("bottom", (ListOf(CARD),), CARD, "{0}[0]", on_items=_first_item),
    _b("first", (ListOf(T),), T, "{0}[0]", on_items=_first_item),
    _b("last", (ListOf(T),), T, "{0}[-1]", on_items=_last_item),
    # the table's seat count _N is known only at a table: left_of and seats_from are generated
    # with it, not folded here
    _b("left_of", (INT,), INT, "(({0}) + 1) % _N"),
    _b("seats_from", (INT,), ListOf(INT), "_SF[{0}]"),
    _b("right_of", (INT,), INT, "(({0}) - 1) % _N"),
    # the direction of play, the built-in variable clockwise, read where play goes on: a spec
    # that never names these (nor clockwise) has no such variable and pays nothing for it
    _b("next_of", (INT,), INT, "(({0}) + (1 if V['clockwise'] else -1)) % _N"),
    _b("turns_from", (INT,), ListOf(INT),
       "(_SF[{0}] if V['clockwise'] else _turns_back({0}, _N))", _turns_back=turns_back),
    # a seat's memory of the deal's cards: kept by the state only for a spec that calls it
    # (the compiler has it note what each seat sees at each stop), never folded
    _b("seen_by", (INT,), ListOf(CARD), "st.seen_by({0})"),
    # fixed partnerships ('teams COUNT by DEF'): tables the table builds (_TEAM, _MEM, _PART)
    _b("team_of", (INT,), INT, "_TEAM[{0}]"),
    _b("members", (INT,), ListOf(INT), "_MEM[{0}]"),
    _b("partner", (INT,), INT, "_PART[{0}]"),
    _b("pack", (INT,), ListOf(CARD), "_pack({0})", _pack, _pack=_pack),
    _b("without_ranks", (ListOf(CARD), ListOf(INT)), ListOf(CARD), "_without({0}, {1})",
       without_ranks, _without=without_ranks),
    _b("groups", (ListOf(CARD),), ListOf(ListOf(CARD)), "_groups({0})", _groups=groups),
    _b("subsets", (ListOf(T), INT, INT), ListOf(ListOf(T)), "_subsets({0}, {1}, {2})",
       _subsets=subsets),
    # rummy: melds (sets and runs, runs in the order of ranks the rules pass) and the least
    # deadwood; a declared deck binds them to its own ranks and suits (decks.deck_runtime)
    _b("is_meld", (ListOf(CARD), ListOf(INT)), BOOL, "_is_meld({0}, {1})", is_meld,
       _is_meld=is_meld),
    _b("melds", (ListOf(CARD), ListOf(INT)), ListOf(ListOf(CARD)), "_melds({0}, {1})", melds,
       _melds=melds),
    _b("deadwood", (ListOf(CARD), ListOf(INT), ListOf(INT)), INT, "_deadwood({0}, {1}, {2})",
       _deadwood, _deadwood=_deadwood),
    _b("best_melds", (ListOf(CARD), ListOf(INT), ListOf(INT)), ListOf(ListOf(CARD)),
       "_best_melds({0}, {1}, {2})", _best_melds, _best_melds=_best_melds),
    _b("range", (INT, INT), ListOf(INT), "_range({0}, {1})", _inclusive_range,
       _range=_inclusive_range),
    _b("set_of", (ListOf(T),), ListOf(T), "_set_of({0})", set_of, _set_of=set_of),
    _b("min", (ListOf(INT),), INT, "_min({0})", None, True, True, _min=min_of),
    _b("max", (ListOf(INT),), INT, "_max({0})", None, True, True, _max=max_of),
    _b("sum", (ListOf(INT),), INT, "_total({0})", total, True, True, _total=total),
    # any and all stop at the first element that decides: a generator, not a list
    _b("any", (ListOf(BOOL),), BOOL, "any({0})", any, True),
    _b("all", (ListOf(BOOL),), BOOL, "all({0})", all, True),
    # a helper, not "sum(1 for _x in {0} if _x)": the argument would be a comprehension's
    # iterable, where Python refuses the ":=" of an inlined definition
    _b("count", (ListOf(BOOL),), INT, "_count({0})", count_true, True, True,
       _count=count_true),
)}

#: a local not yet worked out (codegen/loopinv.py): no value of the rules is it
UNSET: Final = object()


class Budgeted(Spending, Protocol):
    """A running state with its work budget too (``work``: the steps of the rules left
    before the next event, which a called definition spends)."""

    work: int


def respend(st: Budgeted, left: int, work: int) -> bool:
    """Whether the budgets (``st.left``, ``st.work``) hold ``left`` and ``work`` more, and
    if so, those spent: what evaluating again a value read from a temporary would have spent
    (codegen/cse.py). Where they do not, nothing is spent, and the caller evaluates it again,
    to stop where that evaluation stops."""
    if st.left >= left and st.work >= work:
        st.left -= left
        st.work -= work
        return True
    return False


#: every runtime name generated code may use, gathered from the table (plus the arithmetic
#: helpers)
RUNTIME_HELPERS: Mapping[str, object] = {
    "_add": add, "_sub": sub, "_mul": mul, "_seat": seat, "_spend": spend, "_sitter": sitter,
    "_pile": pile, "_rs": respend, "_U": UNSET,
    "_multi_groups": multi_groups,
    **{k: v for b in BUILTINS.values() for k, v in b.helpers.items()}}
