"""Melds and deadwood, the built-ins of rummy games (``is_meld``, ``melds``, ``deadwood``,
``best_melds``).

A *meld* is a set or a run. A set is three cards or more of one rank, no two of one suit. A run
is three cards or more of one suit whose ranks follow each other in the *run order*, a list of
ranks the rules pass: ``[ace] + range(2, king)`` for the ace low (A-2-3, never Q-K-A),
``range(2, ace)`` for the ace high, ``[ace] + range(2, ace)`` for either end (never K-A-2). A
run's ranks are a stretch of that list, each rank once.

The *deadwood* of a hand is the least total value of the cards left out of melds, over every
way of laying the hand out in melds that share no card; the values come from the rules, one
for each card, in the hand's order (``[points(c) for c in hand]``), so any card's worth can
be given. The work is a search over the hand's cards, each either left out or put in one of
the melds that hold it, remembered by the cards still to place: a ten-card hand takes a few
hundred steps. Results are kept (a decision asks the same hand again and again).

A card is a text and a rank or suit comes from the deck's tables (``rank_of``, ``suit_of``),
so a declared deck's cards meld by its own ranks and suits; a card with no suit (a Joker) is
in no run, a card with no rank in the order in no run.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Final

from rulespec.lang.cards import RANK_OF, SUIT_OF

__all__ = ["MeldError", "MAX_STEPS", "best_melds", "deadwood", "is_meld", "melds"]


class MeldError(Exception):
    """A meld built-in refused what a rule gave it (values that do not match the cards, a hand
    past the search limit): the caller turns it into the rule's runtime error."""


#: the most hands-still-to-place one deadwood search may remember (a hand of 30 cards or so of
#: one suit): past it the rule stops with a runtime error instead of searching for minutes
MAX_STEPS: Final = 200_000

#: a meld as positions in the hand, and the cards at them
_Meld = tuple[int, ...]
_CACHE_MAX: Final = 100_000
_CACHE: dict[tuple[object, ...], tuple[int, tuple[tuple[str, ...], ...]]] = {}
_MELD_CACHE: dict[tuple[object, ...], tuple[_Meld, ...]] = {}


def _is_set(cards: Sequence[str], rank_of: Mapping[str, object],
            suit_of: Mapping[str, object]) -> bool:
    ranks = {rank_of[c] for c in cards}
    suits = [suit_of[c] for c in cards]
    return len(ranks) == 1 and len(set(suits)) == len(suits)


def _is_run(cards: Sequence[str], order: Sequence[int], rank_of: Mapping[str, int],
            suit_of: Mapping[str, object]) -> bool:
    suits = {suit_of[c] for c in cards}
    if len(suits) != 1 or None in suits:
        return False
    ranks = {rank_of[c] for c in cards}
    n = len(cards)
    if len(ranks) != n:
        return False
    for i in range(len(order) - n + 1):
        stretch = order[i:i + n]
        if len(set(stretch)) == n and set(stretch) == ranks:
            return True
    return False


def is_meld(cards: Sequence[str], order: Sequence[int], rank_of: Mapping[str, int] = RANK_OF,
            suit_of: Mapping[str, object] = SUIT_OF) -> bool:
    """Whether ``cards`` are one meld: a set, or a run in the run order ``order``."""
    if len(cards) < 3:
        return False
    return _is_set(cards, rank_of, suit_of) or _is_run(cards, order, rank_of, suit_of)


def _key(cards: tuple[str, ...], order: tuple[int, ...], rank_of: Mapping[str, int],
         suit_of: Mapping[str, object]) -> tuple[object, ...]:
    # the cards with their ranks and suits: two decks may give one text different ones
    return (cards, order, tuple(rank_of[c] for c in cards), tuple(suit_of[c] for c in cards))


def _meld_positions(cards: tuple[str, ...], order: tuple[int, ...], rank_of: Mapping[str, int],
                    suit_of: Mapping[str, object]) -> tuple[_Meld, ...]:
    """Every meld among ``cards``, as sorted positions; two equal cards (two packs) give a meld
    for each, so that a search may use either copy."""
    key = _key(cards, order, rank_of, suit_of)
    got = _MELD_CACHE.get(key)
    if got is not None:
        return got
    out: set[_Meld] = set()
    by_rank: dict[int, list[int]] = {}
    by_suit_rank: dict[tuple[object, int], list[int]] = {}
    for i, c in enumerate(cards):
        by_rank.setdefault(rank_of[c], []).append(i)
        if suit_of[c] is not None:
            by_suit_rank.setdefault((suit_of[c], rank_of[c]), []).append(i)
    for same in by_rank.values():
        for k in range(3, len(same) + 1):
            for pos in itertools.combinations(same, k):
                if _is_set([cards[i] for i in pos], rank_of, suit_of):
                    out.add(pos)
    suits = {suit_of[c] for c in cards if suit_of[c] is not None}
    n = len(order)
    for s in suits:
        for i in range(n - 2):
            # the stretch of the run order from i grown a rank at a time while the suit holds
            # each rank and none comes twice: each of three ranks or more is a run
            if (s, order[i]) not in by_suit_rank or (s, order[i + 1]) not in by_suit_rank:
                continue
            ranks: set[int] = set()
            j = i
            while j < n and order[j] not in ranks and (s, order[j]) in by_suit_rank:
                ranks.add(order[j])
                j += 1
                if j - i >= 3:
                    for pos in itertools.product(*(by_suit_rank[s, r] for r in order[i:j])):
                        out.add(tuple(sorted(pos)))
    got = tuple(sorted(out))
    if len(_MELD_CACHE) < _CACHE_MAX:
        _MELD_CACHE[key] = got
    return got


def melds(cards: Sequence[str], order: Sequence[int], rank_of: Mapping[str, int] = RANK_OF,
          suit_of: Mapping[str, object] = SUIT_OF) -> tuple[tuple[str, ...], ...]:
    """Every meld that ``cards`` hold, each once, its cards in the hand's order; the melds in
    the order of their positions in the hand (the one holding the earliest card first)."""
    cards, seen = tuple(cards), set()
    out: list[tuple[str, ...]] = []
    for pos in _meld_positions(cards, tuple(order), rank_of, suit_of):
        m = tuple(cards[i] for i in pos)
        if m not in seen:
            seen.add(m)
            out.append(m)
    return tuple(out)


def _search(cards: tuple[str, ...], values: tuple[int, ...], order: tuple[int, ...],
            rank_of: Mapping[str, int], suit_of: Mapping[str, object]
            ) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """The least deadwood of ``cards`` and the melds of the first layout found that gives it
    (melds tried before leaving a card out, each card's melds in position order)."""
    key = (values, *_key(cards, order, rank_of, suit_of))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    n = len(cards)
    holding: list[list[tuple[int, _Meld]]] = [[] for _ in range(n)]
    for pos in _meld_positions(cards, order, rank_of, suit_of):
        mask = 0
        for i in pos:
            mask |= 1 << i
        holding[pos[0]].append((mask, pos))
    best: dict[int, tuple[int, int, _Meld | None]] = {0: (0, 0, None)}

    def least(left: int) -> int:
        # ``left``: the cards still to place, a bit each; the lowest one is placed now
        if left in best:
            return best[left][0]
        if len(best) > MAX_STEPS:
            raise MeldError(f"the deadwood of {n} cards needs more than {MAX_STEPS} steps "
                            f"of search")
        i = (left & -left).bit_length() - 1
        choice: tuple[int, int, _Meld | None] | None = None
        for mask, pos in holding[i]:
            if mask & left == mask:
                got = least(left & ~mask)
                if choice is None or got < choice[0]:
                    choice = (got, left & ~mask, pos)
        rest = least(left & ~(1 << i)) + values[i]
        if choice is None or rest < choice[0]:
            choice = (rest, left & ~(1 << i), None)
        best[left] = choice
        return choice[0]

    left = (1 << n) - 1
    total = least(left)
    laid: list[tuple[str, ...]] = []
    while left:
        _, left, placed = best[left]
        if placed is not None:
            laid.append(tuple(cards[i] for i in placed))
    out = (total, tuple(laid))
    if len(_CACHE) < _CACHE_MAX:
        _CACHE[key] = out
    return out


def _args(cards: Sequence[str], values: Sequence[int], order: Sequence[int], what: str
          ) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    cards, values = tuple(cards), tuple(values)
    if len(values) != len(cards):
        raise MeldError(f"{what} takes one value for each card: {len(values)} value(s) for "
                        f"{len(cards)} card(s)")
    return cards, values, tuple(order)


def deadwood(cards: Sequence[str], values: Sequence[int], order: Sequence[int],
             rank_of: Mapping[str, int] = RANK_OF, suit_of: Mapping[str, object] = SUIT_OF
             ) -> int:
    """The least total of ``values`` (one for each card, in order) over the cards left out of
    melds that share no card; runs follow ``order``."""
    return _search(*_args(cards, values, order, "deadwood"), rank_of, suit_of)[0]


def best_melds(cards: Sequence[str], values: Sequence[int], order: Sequence[int],
               rank_of: Mapping[str, int] = RANK_OF, suit_of: Mapping[str, object] = SUIT_OF
               ) -> tuple[tuple[str, ...], ...]:
    """Melds that share no card and leave the least deadwood (:func:`deadwood`): of the
    layouts that do, the one that melds the hand's earliest cards first."""
    return _search(*_args(cards, values, order, "best_melds"), rank_of, suit_of)[1]
