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
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from rulespec.lang.cards import RANK_OF, SUIT_OF

__all__ = ["MeldError", "MAX_STEPS", "NumberedDeadwood", "best_melds", "deadwood", "is_meld",
           "melds"]


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


class _Layouts:
    """The search for the least deadwood over one hand: ``least(left)`` answers it for the
    cards of ``left`` (a bit for each place in the hand), any part of the hand, each answer
    remembered by the cards still to place."""

    __slots__ = ("best", "cards", "context", "holding", "place", "values")

    def __init__(self, cards: tuple[str, ...], values: tuple[int, ...],
                 context: tuple[tuple[int, ...], Mapping[str, int], Mapping[str, object]]
                 ) -> None:
        self.cards, self.values, self.context = cards, values, context
        n = len(cards)
        self.holding: list[list[tuple[int, _Meld]]] = [[] for _ in range(n)]
        for pos in _meld_positions(cards, *context):
            mask = 0
            for i in pos:
                mask |= 1 << i
            self.holding[pos[0]].append((mask, pos))
        #: for each cards-still-to-place: their least deadwood, what is left after the first
        #: one is placed, and the meld it went into (None: left out)
        self.best: dict[int, tuple[int, int, _Meld | None]] = {0: (0, 0, None)}
        #: each card's place, for a hand of distinct cards (the others answer only for
        #: themselves)
        self.place = {c: i for i, c in enumerate(cards)} if len(set(cards)) == n else None

    def least(self, left: int) -> int:
        """The least deadwood of the cards of ``left``; melds tried before leaving a card
        out, each card's melds in position order (the first layout found is kept)."""
        best = self.best
        got = best.get(left)
        if got is not None:
            return got[0]
        if len(best) > MAX_STEPS:
            raise MeldError(f"the deadwood of {len(self.cards)} cards needs more than "
                            f"{MAX_STEPS} steps of search")
        # the lowest card still to place is placed now
        i = (left & -left).bit_length() - 1
        choice: tuple[int, int, _Meld | None] | None = None
        for mask, pos in self.holding[i]:
            if mask & left == mask:
                total = self.least(left & ~mask)
                if choice is None or total < choice[0]:
                    choice = (total, left & ~mask, pos)
        rest = self.least(left & ~(1 << i)) + self.values[i]
        if choice is None or rest < choice[0]:
            choice = (rest, left & ~(1 << i), None)
        best[left] = choice
        return choice[0]

    def part(self, cards: tuple[str, ...], values: tuple[int, ...]) -> int | None:
        """The bits of ``cards`` (distinct, each with the same value here) in this hand, or
        None where they are not a part of it."""
        place = self.place
        if place is None:
            return None
        left, mine = 0, self.values
        for c, v in zip(cards, values, strict=True):
            i = place.get(c)
            if i is None or mine[i] != v or left >> i & 1:
                return None
            left |= 1 << i
        return left


#: the last few searches: a rule asks the deadwood of a hand less each of its cards in turn
#: (may a player knock by discarding it?), each a part of one hand (see _part_of_recent)
_RECENT: list[_Layouts] = []
_RECENT_MAX: Final = 4


def _part_of_recent(cards: tuple[str, ...], values: tuple[int, ...],
                    context: tuple[tuple[int, ...], Mapping[str, int], Mapping[str, object]]
                    ) -> tuple[_Layouts, int] | None:
    """A recent search that answers for ``cards``, with their bits there: one whose hand holds
    them all, or, for a hand that is a recent one with one card changed (the same hand less
    another card), a search over the two together, which answers for every such hand after."""
    for lay in _RECENT:
        if lay.context == context:
            left = lay.part(cards, values)
            if left is not None:
                return lay, left
    for lay in _RECENT:
        if lay.context != context or lay.place is None or len(lay.cards) != len(cards):
            continue
        new = [i for i, c in enumerate(cards) if c not in lay.place]
        if len(new) != 1:
            continue
        k = new[0]
        union = _Layouts((*lay.cards, cards[k]), (*lay.values, values[k]), context)
        left = union.part(cards, values)
        if left is not None:
            _remember(union)
            return union, left
    return None


def _remember(lay: _Layouts) -> None:
    _RECENT.insert(0, lay)
    del _RECENT[_RECENT_MAX:]


def _search(cards: tuple[str, ...], values: tuple[int, ...], order: tuple[int, ...],
            rank_of: Mapping[str, int], suit_of: Mapping[str, object]
            ) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """The least deadwood of ``cards`` and the melds of the first layout found that gives it
    (melds tried before leaving a card out, each card's melds in position order)."""
    key = (values, *_key(cards, order, rank_of, suit_of))
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    lay = _Layouts(cards, values, (order, rank_of, suit_of))
    left = (1 << len(cards)) - 1
    total = lay.least(left)
    _remember(lay)
    laid: list[tuple[str, ...]] = []
    while left:
        _, left, placed = lay.best[left]
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


class _DeckMelds:
    """Every meld of a deck's cards (the keys of ``rank_of``), each card a bit, and the least
    deadwood of any set of them remembered across hands: a rummy game asks the deadwood of a
    hand less each of its cards at every turn, hands that share most of their parts, which
    one search over the whole deck answers together (issue 29: gin rummy spent 70% of a
    playout in ``deadwood``). The search is :class:`_Layouts`' (the lowest card placed in each
    meld that holds it as its lowest, or left out), over the deck's bits instead of a hand's
    places; it answers only hands of distinct cards of the deck, each card always with the
    same value (a card asked with another value starts the memory afresh). The memory is the
    process's, shared by every caller: one thread at a time (the engine plays a match in one
    thread; simulate's workers are processes)."""

    __slots__ = ("answers", "bit", "last", "lowest", "masks", "meld_value", "memo", "order",
                 "parent", "rank_of", "suit_of", "value", "version")

    def __init__(self, order: tuple[int, ...], rank_of: Mapping[str, int],
                 suit_of: Mapping[str, object]) -> None:
        self.order, self.rank_of, self.suit_of = order, rank_of, suit_of
        deck = tuple(c for c in rank_of if c in suit_of)
        self.bit = {c: i for i, c in enumerate(deck)}
        #: for each card's bit, the melds (as masks) whose lowest bit it is
        self.lowest: list[list[int]] = [[] for _ in deck]
        for pos in _meld_positions(deck, order, rank_of, suit_of):
            mask = 0
            for i in pos:
                mask |= 1 << i
            self.lowest[pos[0]].append(mask)
        #: each card's value, as the rules gave it (None: not asked yet)
        self.value: list[int | None] = [None] * len(deck)
        #: counts the times the values were forgotten (a caller that checked them all once,
        #: NumberedDeadwood.of_mask, checks again after)
        self.version = 0
        self.memo: dict[int, int] = {0: 0}
        #: a hand whose every hand less one card has its deadwood worked out (``answers``, by
        #: the card's bit), and the hand asked last (see :meth:`deadwood_of`)
        self.parent, self.last = 0, 0
        self.answers: dict[int, int] = {}
        #: each meld's total value (the values as they are now)
        self.meld_value: dict[int, int] = {}
        #: the hands asked last, by their cards: their values and mask
        self.masks: dict[tuple[str, ...], tuple[tuple[int, ...], int]] = {}

    def hand(self, cards: tuple[str, ...], values: tuple[int, ...]) -> int | None:
        """The mask of ``cards``, or None where this table cannot answer for them (a card not
        of the deck, or twice)."""
        got = self.masks.get(cards)
        if got is not None and got[0] == values:
            return got[1]  # a hand asked again: the same rule, once for each alternative
        mask = self._hand(cards, values)
        if mask is not None:
            # the last few only: a rule asks again within one decision, and a long memory of
            # tuples would be more for the garbage collector to go through
            if len(self.masks) >= 64:
                self.masks.clear()
            self.masks[cards] = (values, mask)
        return mask

    def _hand(self, cards: tuple[str, ...], values: tuple[int, ...]) -> int | None:
        bit, value, mask = self.bit, self.value, 0
        for c, v in zip(cards, values, strict=True):
            i = bit.get(c)
            if i is None or mask >> i & 1:
                return None
            had = value[i]
            if had != v:
                if had is not None:
                    # the rules value this card otherwise now: nothing remembered holds
                    self.forget()
                    return self._hand(cards, values)
                value[i] = v
            mask |= 1 << i
        return mask

    def forget(self) -> None:
        """Forget every card's value and every deadwood worked out."""
        self.value = [None] * len(self.value)
        self.version += 1
        self.memo = {0: 0}
        self.masks = {}
        self.parent, self.last, self.answers, self.meld_value = 0, 0, {}, {}

    def deadwood_of(self, left: int) -> int:
        """The least deadwood of the cards of ``left``, as :meth:`least`; where the rules
        ask it of a hand less each of its cards in turn (may a player knock, discarding
        this card?), the second such question works out every one of the hand's at once,
        and the rest are looked up (issue 29: gin rummy asks eleven a turn)."""
        parent = self.parent
        rest = parent ^ left
        if left & parent == left and rest and not rest & (rest - 1):
            return self.answers[rest]
        last, self.last = self.last, left
        whole = last | left
        extra = whole ^ left
        if last and extra and not extra & (extra - 1) and whole.bit_count() <= _HAND_MAX \
                and whole ^ last != 0 and not (whole ^ last) & ((whole ^ last) - 1):
            if self._siblings(whole):
                return self.answers[extra]
        return self.least(left)

    def _siblings(self, whole: int) -> bool:
        """The deadwood of ``whole`` less each of its cards: every set of melds in it that
        share no card (few, in a hand), and for each card the best of those that leave it
        out; False where the sets are too many (a long hand of one suit: each is asked
        alone)."""
        value, meld_value = self.value, self.meld_value
        melds: list[int] = []
        total, m = 0, whole
        while m:
            low = m & -m
            m ^= low
            i = low.bit_length() - 1
            total += value[i]  # type: ignore[operator]
            melds.extend(x for x in self.lowest[i] if x & whole == x)
        packs = [(0, 0)]
        for x in melds:
            v = meld_value.get(x)
            if v is None:
                v = meld_value[x] = sum(value[i] for i in range(x.bit_length())  # type: ignore[misc]
                                        if x >> i & 1)
            packs += [(pm | x, pv + v) for pm, pv in packs if not pm & x]
            if len(packs) > _PACKS_MAX:
                return False
        packs.sort(key=lambda p: -p[1])
        answers: dict[int, int] = {}
        m = whole
        while m:
            b = m & -m
            m ^= b
            for pm, pv in packs:  # noqa: B007  (the best that leaves the card out)
                if not pm & b:
                    break
            answers[b] = total - value[b.bit_length() - 1] - pv  # type: ignore[operator]
        self.parent, self.answers = whole, answers
        return True

    def least(self, left: int) -> int:
        """The least deadwood of the cards of ``left``."""
        memo = self.memo
        got = memo.get(left)
        if got is not None:
            return got
        low = left & -left
        i = low.bit_length() - 1
        best = self.least(left ^ low) + self.value[i]  # type: ignore[operator]
        for mask in self.lowest[i]:
            if mask & left == mask:
                total = self.least(left ^ mask)
                if total < best:
                    best = total
        if len(memo) >= _MEMO_MAX:
            memo.clear()
            memo[0] = 0
        memo[left] = best
        return best


#: the most cards a deck's table is made for (its melds are listed once), the largest hand it
#: answers (its search, like _Layouts', is bounded by 2 ** cards: within MAX_STEPS), and the
#: most sets of cards it remembers
_DECK_MAX: Final = 128
_HAND_MAX: Final = 16
_MEMO_MAX: Final = 200_000
#: the most sets of melds sharing no card a hand's deadwood less each card is worked out from
_PACKS_MAX: Final = 4096
#: the tables of the decks and run orders asked lately (rank_of and suit_of by identity)
_DECKS: list[_DeckMelds] = []


def _few_melds(rank_of: Mapping[str, int], suit_of: Mapping[str, object]) -> bool:
    """Whether a deck's melds are few enough to list them all: at most 8 cards of one rank
    (a rank's sets are its subsets of three cards or more, 2 ** n of them) and at most 2 of
    one suit and rank (a run takes either), as a pack or two of the usual deck has. A deck
    of many suits, or of many cards with no rank, is searched hand by hand as before."""
    by_rank: Counter[object] = Counter()
    by_suit_rank: Counter[tuple[object, object]] = Counter()
    for c, r in rank_of.items():
        if c in suit_of:
            by_rank[r] += 1
            by_suit_rank[suit_of[c], r] += 1
    return max(by_rank.values(), default=0) <= 8 and max(by_suit_rank.values(), default=0) <= 2


def _deck_melds(order: tuple[int, ...], rank_of: Mapping[str, int],
                suit_of: Mapping[str, object]) -> _DeckMelds | None:
    for t in _DECKS:
        if t.rank_of is rank_of and t.suit_of is suit_of and t.order == order:
            return t
    if len(rank_of) > _DECK_MAX or not _few_melds(rank_of, suit_of):
        return None
    t = _DeckMelds(order, rank_of, suit_of)
    _DECKS.insert(0, t)
    del _DECKS[4:]
    return t


def deadwood(cards: Sequence[str], values: Sequence[int], order: Sequence[int],
             rank_of: Mapping[str, int] = RANK_OF, suit_of: Mapping[str, object] = SUIT_OF
             ) -> int:
    """The least total of ``values`` (one for each card, in order) over the cards left out of
    melds that share no card; runs follow ``order``."""
    cards, values, order = _args(cards, values, order, "deadwood")
    if len(cards) <= _HAND_MAX:
        table = _deck_melds(order, rank_of, suit_of)
        if table is not None:
            mask = table.hand(cards, values)
            if mask is not None:
                return table.deadwood_of(mask)
    found = _part_of_recent(cards, values, (order, rank_of, suit_of))
    if found is not None:
        lay, left = found
        try:
            return lay.least(left)
        except MeldError:
            pass  # the larger hand searched past the limit: this one alone may not
    return _search(cards, values, order, rank_of, suit_of)[0]


class NumberedDeadwood:
    """:func:`deadwood` of hands given by their cards' numbers (``codes[n]`` is number
    ``n``'s card), each card valued ``values[n]`` (a value of the card alone), with the order
    of runs ``order``: the typed lowering's hands, answered from the deck's table without a
    card's code looked up. Where the table cannot answer (no table for the deck, a hand too
    large, a card twice, a card the table holds another value for), ``fallback`` (the
    engine's own built-in, with its errors) is asked with the codes and values."""

    def __init__(self, codes: Sequence[str], values: Sequence[int], order: Sequence[int],
                 rank_of: Mapping[str, int], suit_of: Mapping[str, object],
                 fallback: Callable[[list[str], list[int], Sequence[int]], int]) -> None:
        self.codes, self.values, self.order = tuple(codes), tuple(values), tuple(order)
        self.fallback = fallback
        # the deck's table with its cards in the order of their numbers: a hand's mask of
        # numbers is then the table's own
        self.table = _deck_melds(self.order, _numbered_ranks(self.codes, rank_of, suit_of),
                                 suit_of) if all(type(x) is int for x in self.order) else None
        self.bits = [None if self.table is None else self.table.bit.get(c) for c in codes]
        #: whether each card's number is its bit in the table
        self.same = all(b == n for n, b in enumerate(self.bits) if b is not None)
        #: the numbers of the cards the table does not hold (no rank or suit)
        self.outside = sum(1 << n for n, b in enumerate(self.bits) if b is None)
        #: the table's version at which every card's value was found to be ours (-1: not yet)
        self.checked = -1

    def of_mask(self, mask: int) -> int:
        """The deadwood of the cards whose numbers are the bits of ``mask``."""
        table = self.table
        if table is not None and self.same and not mask & self.outside and \
                mask.bit_count() <= _HAND_MAX and (
                self.checked == table.version or self._claim(table)):
            return table.deadwood_of(mask)
        return self([n for n in range(len(self.codes)) if mask >> n & 1])

    def _claim(self, table: _DeckMelds) -> bool:
        """Every card's value in the table made ours: those not heard yet set, and where the
        table holds another value for a card (another rule's), what it remembered forgotten
        (as deadwood forgets where a card is asked with another value). The table's cards
        are this object's, in the order of their numbers: another deck's rules make
        another table."""
        held = table.value
        if any(held[i] is not None and held[i] != v
               for i, v in zip(self.bits, self.values, strict=True) if i is not None):
            table.forget()
            held = table.value
        for i, v in zip(self.bits, self.values, strict=True):
            if i is not None:
                held[i] = v
        self.checked = table.version
        return True

    def __call__(self, nums: Sequence[int]) -> int:
        table = self.table
        if table is not None and len(nums) <= _HAND_MAX and (
                self.checked == table.version or self._claim(table)):
            bits, mask = self.bits, 0
            for n in nums:
                i = bits[n]
                if i is None or mask >> i & 1:
                    break
                mask |= 1 << i
            else:
                return table.deadwood_of(mask)
        return self.fallback([self.codes[n] for n in nums], [self.values[n] for n in nums],
                             self.order)


#: each deck's ranks in the order of a lowering's numbers (by the codes and the identity of
#: the deck's tables): the same dict each time, so that the deck's table is found again
_NUMBERED: dict[tuple[tuple[str, ...], int, int], tuple[Mapping[str, int], Mapping[str, int]]] = {}


def _numbered_ranks(codes: tuple[str, ...], rank_of: Mapping[str, int],
                    suit_of: Mapping[str, object]) -> Mapping[str, int]:
    key = (codes, id(rank_of), id(suit_of))
    got = _NUMBERED.get(key)
    if got is None or got[1] is not rank_of:
        if len(_NUMBERED) >= 8:
            _NUMBERED.clear()  # a few decks at a time, as _DECKS keeps
        ranks = {c: rank_of[c] for c in codes if c in rank_of}
        ranks.update((c, r) for c, r in rank_of.items() if c not in ranks)
        got = _NUMBERED[key] = (ranks, rank_of)
    return got[0]


def best_melds(cards: Sequence[str], values: Sequence[int], order: Sequence[int],
               rank_of: Mapping[str, int] = RANK_OF, suit_of: Mapping[str, object] = SUIT_OF
               ) -> tuple[tuple[str, ...], ...]:
    """Melds that share no card and leave the least deadwood (:func:`deadwood`): of the
    layouts that do, the one that melds the hand's earliest cards first."""
    return _search(*_args(cards, values, order, "best_melds"), rank_of, suit_of)[1]
