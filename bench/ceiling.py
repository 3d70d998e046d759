"""How fast could a Python engine be? A ceiling for issue 29, measured side by side.

    python bench/ceiling.py [--games 2000] [--rounds 3]

OpenSpiel's hearts written by hand in the representation a typed backend would lower a spec
to (a card a small int, a hand a 52-bit set, the state a few ints and lists, a legal event an
index among the set bits), driven from Python exactly as ``bench/engines.py`` drives both
sides (``legal_count`` and ``apply_index`` at each decision, a sampled outcome at chance),
against pyspiel's hearts driven the same way and rulespec's index path on the spec.

This is not an engine: nothing here is checked against the rules beyond what a random
playout needs (follow suit, no heart led until hearts are broken or the hand holds nothing
else, the two of clubs first, a pass of three cards in a drawn direction, the trick's
winner leading). It is the least work any Python engine of this design must do per game, so
its games per second bound from above what a representation change inside the Python engine
could reach; where even it stays below pyspiel driven from Python, parity in Python is out of
reach and only a native backend can meet issue 29's bar.

Two more sides: ``shaped``, the same hearts as a generator on the engine's own values
(dictionaries, card codes, lists), as ``rulespec.engine.kernel`` runs a spec: what a perfect
lowering that keeps those values could reach; ``shaped-ints``, the same code with the cards
as small ints (the zones still lists): what changing the cards alone would give.

And ``typed``: the spec's hearts as the typed lowering of docs/architecture.md would write it
(the rules' own bookkeeping kept, a card a small int, hands and won cards bit sets, the
variables a generator's locals, a legal event the k-th set bit), driven as the kernel is, with
its log and count of events: what that second code generator could reach where the ceiling
leaves out what the spec's rules do.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/playouts.py

CHANCE = -1
#: the cards of each suit as a 52-bit set: card ``13 * suit + rank``, clubs first, the two low
SUIT_MASK = [((1 << 13) - 1) << (13 * s) for s in range(4)]
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO_OF_CLUBS = 0
QUEEN_OF_SPADES = 13 * SPADES + 10


def _kth(m: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``m``, from the low end."""
    for _ in range(k):
        m &= m - 1
    return (m & -m).bit_length() - 1


class Hearts:
    """One deal of four-player hearts in sets of bits (module docstring)."""

    __slots__ = ("broken", "direction", "hands", "led", "leader", "passed", "passing",
                 "points", "to_move", "trick", "tricks")

    def __init__(self) -> None:
        self.hands = [0, 0, 0, 0]
        self.passed = [0, 0, 0, 0]
        self.points = [0, 0, 0, 0]
        self.trick: list[int] = []
        self.direction = -1  # the pass direction, drawn at the first chance event
        self.passing = 0  # cards passed so far (12 in all)
        self.to_move = CHANCE
        self.leader = 0
        self.led = -1
        self.broken = False
        self.tricks = 0

    # -- chance: the deal, then the pass direction -----------------------------------------
    def deal(self, rng: random.Random) -> None:
        """The shuffle and the deal, one chance event."""
        pack = list(range(52))
        rng.shuffle(pack)
        for i, c in enumerate(pack):
            self.hands[i & 3] |= 1 << c
        # the direction is a chance event of its own, next
        self.to_move = CHANCE

    def draw_direction(self, rng: random.Random) -> None:
        self.direction = rng.randrange(4)
        if self.direction == 0:  # no pass: play starts
            self.passing = 12
            self._start_play()
        else:
            self.to_move = 0

    # -- decisions ---------------------------------------------------------------------------
    def legal_count(self) -> int:
        q = self.to_move
        if self.passing < 12:
            return self.hands[q].bit_count()
        return self._legal_mask(q).bit_count()

    def apply_index(self, k: int) -> None:
        q = self.to_move
        if self.passing < 12:
            c = _kth(self.hands[q], k)
            self.hands[q] &= ~(1 << c)
            self.passed[(q + self.direction) & 3] |= 1 << c
            self.passing += 1
            if self.passing % 3 == 0:
                if self.passing == 12:
                    for p in range(4):
                        self.hands[p] |= self.passed[p]
                    self._start_play()
                else:
                    self.to_move = q + 1
            return
        c = _kth(self._legal_mask(q), k)
        self.hands[q] &= ~(1 << c)
        if not self.trick:
            self.led = c // 13
        self.trick.append(c)
        if c // 13 == HEARTS or c == QUEEN_OF_SPADES:
            self.broken = True
        if len(self.trick) < 4:
            self.to_move = (q + 1) & 3
            return
        # the trick is won by the highest card of the suit led
        best, at = -1, 0
        for i, x in enumerate(self.trick):
            if x // 13 == self.led and x > best:
                best, at = x, i
        winner = (self.leader + at) & 3
        self.points[winner] += sum(1 for x in self.trick if x // 13 == HEARTS) + (
            13 if QUEEN_OF_SPADES in self.trick else 0)
        self.trick = []
        self.tricks += 1
        self.leader = self.to_move = winner if self.tricks < 13 else -2

    def _legal_mask(self, q: int) -> int:
        hand = self.hands[q]
        if self.trick:
            follow = hand & SUIT_MASK[self.led]
            return follow or hand
        if self.tricks == 0:
            return 1 << TWO_OF_CLUBS
        if not self.broken:
            other = hand & ~SUIT_MASK[HEARTS]
            return other or hand
        return hand

    def _start_play(self) -> None:
        for p in range(4):
            if self.hands[p] & 1:
                self.leader = self.to_move = p


@attrs.frozen
class Values:
    """How a :class:`Shaped` deal writes its cards: the pack, and each card's suit, rank and
    place in the events' order, by card."""

    pack: list[Any]
    suit: Any
    rank: Any
    key: Any
    two_of_clubs: Any
    queen_of_spades: Any
    hearts: Any


def _codes() -> Values:
    """The engine's own values: cards as codes, suits as letters (lang/cards.py's)."""
    codes = [r + s for s in "CDHS" for r in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                             "Q", "K", "A")]
    # the order of the events a card's play writes: by the card's text in JSON
    order = sorted(codes, key=lambda c: f'"{c}"')
    return Values(codes, {c: c[-1] for c in codes}, {c: codes.index(c) % 13 for c in codes},
                  {c: order.index(c) for c in codes}, "2C", "QS", "H")


def _ints() -> Values:
    """Cards as small ints (``13 * suit + rank``), in lists indexed by card: what a typed
    lowering would make of a card, the zones still lists."""
    codes = _codes()
    return Values(list(range(52)), [c // 13 for c in range(52)], [c % 13 for c in range(52)],
                  [codes.key[codes.pack[c]] for c in range(52)], 0, 13 * 3 + 10, 2)


CODES = _codes()
INTS = _ints()


def shaped_match(st: Shaped) -> Any:
    """One deal of the same hearts as a generator on the engine's own shapes (the variables
    and zones in dictionaries, locals as Python's, cards as ``st.values`` writes them), as
    the kernel (rulespec.engine.kernel) runs a spec: it yields (seat, legal values) at a
    decision and is sent the index chosen; a chance event yields the outcomes and is sent
    one. No checks and no work budget: what the kernel could reach with a perfect lowering
    that keeps the engine's values (CODES), or changes only the cards to ints (INTS)."""
    V, Z = st.v, st.z
    rep = st.values
    SUIT, RANK, KEY = rep.suit, rep.rank, rep.key
    two, queen, hearts = rep.two_of_clubs, rep.queen_of_spades, rep.hearts
    V["broken"] = False
    V["trick_number"] = 0
    for q in range(4):
        Z["hand"][q] = []
        Z["won"][q] = []
    direction = yield (CHANCE, ["left", "right", "across", "hold"])
    shift = {"left": 1, "across": 2, "right": 3}.get(direction, 0)
    Z["stock"] = list(rep.pack)
    Z["stock"][:] = (yield (CHANCE, "shuffle"))[::-1]
    for i in range(52):
        Z["hand"][(i + 1) % 4].append(Z["stock"].pop())
    if shift:
        held = []
        for q in range(4):
            sets = list(itertools.combinations(sorted(Z["hand"][q], key=KEY.__getitem__), 3))
            held.append((q, sets[(yield (q, sets))]))
        for q, cs in held:
            for c in cs:
                Z["hand"][q].remove(c)
                Z["hand"][(q + shift) % 4].append(c)
    leader = next(q for q in range(4) if two in Z["hand"][q])
    for _ in range(13):
        V["trick_number"] += 1
        trick: list[Any] = []
        Z["trick"] = trick
        V["trick_from"] = ()
        for h in [(leader + j) % 4 for j in range(4)]:
            hand = Z["hand"][h]
            if not trick:
                if V["trick_number"] == 1:
                    legal = [c for c in hand if c == two]
                else:
                    only = all(SUIT[d] == hearts for d in hand)
                    legal = [c for c in hand if SUIT[c] != hearts or V["broken"] or only]
            else:
                led = SUIT[trick[0]]
                void = not any(SUIT[d] == led for d in hand)
                legal = [c for c in hand if SUIT[c] == led or void]
            legal.sort(key=KEY.__getitem__)
            c = legal[(yield (h, legal))]
            hand.remove(c)
            trick.append(c)
            V["trick_from"] = V["trick_from"] + (h,)
            if SUIT[c] == hearts or c == queen:
                V["broken"] = True
        led = SUIT[trick[0]]
        power = [RANK[c] if SUIT[c] == led else -1 for c in trick]
        leader = V["trick_from"][power.index(max(power))]
        Z["won"][leader].extend(trick)
    st.points = [sum(1 if SUIT[c] == hearts else 13 if c == queen else 0 for c in Z["won"][q])
                 for q in range(4)]


class Shaped:
    """A match of :func:`shaped_match`, driven by index."""

    def __init__(self, values: Values = CODES) -> None:
        self.values = values
        self.v: dict[str, Any] = {}
        self.z: dict[str, Any] = {"hand": [[], [], [], []], "won": [[], [], [], []]}
        self.points: list[int] = []
        self.gen = shaped_match(self)
        self.to_move, self.pending = next(self.gen)

    def send(self, x: object) -> None:
        try:
            self.to_move, self.pending = self.gen.send(x)
        except StopIteration:
            self.to_move = None


def shaped_games(games: int, seed: int, values: Values = CODES) -> tuple[float, int]:
    """Seconds and events of ``games`` random deals of :class:`Shaped`."""
    events = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        st = Shaped(values)
        while st.to_move is not None:
            if st.to_move != CHANCE:
                st.send(rng.randrange(len(st.pending)))
            elif st.pending == "shuffle":
                cards = list(values.pack)
                rng.shuffle(cards)
                st.send(cards)
            else:
                st.send(st.pending[rng.randrange(len(st.pending))])
            events += 1
    return time.perf_counter() - start, events


def _typed_tables() -> tuple[list[int], list[int], list[int], int, int, int]:
    """The typed side's cards: numbered in the order their events sort (as the kernel's bit
    sets number them, so that the k-th set bit of a mask is the k-th legal event), each
    card's suit and rank, each suit's mask, and the two of clubs' and queen of spades' bits."""
    order = sorted(CODES.pack, key=CODES.key.__getitem__)
    suit = ["CDHS".index(CODES.suit[c]) for c in order]
    rank = [CODES.rank[c] for c in order]
    masks = [sum(1 << i for i in range(52) if suit[i] == s) for s in range(4)]
    return suit, rank, masks, order.index("2C"), order.index("QS"), masks[2]


T_SUIT, T_RANK, T_SUITMASK, T_TWO, T_QUEEN, T_HEARTS = _typed_tables()
#: the places (in a hand's set bits, lowest first) of each set of three of thirteen cards
T_THREES = list(itertools.combinations(range(13), 3))


def _bits_of(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def typed_match(st: Typed) -> Any:
    """One deal of the spec's hearts as the typed lowering of docs/architecture.md would write
    it, by hand: the rules' own bookkeeping kept (the trick's number, its cards and players,
    tricks taken, hearts broken, the moon checked, each seat's score from its won cards), but
    a card a small int, a hand and a pile of won cards a bit set, the rules' variables the
    generator's locals, a legal event the k-th set bit of a mask; it yields (seat, how many)
    at a decision and is sent the index. No checks, no budget, no events."""
    hands, won = st.hands, st.won
    # the pick's four directions in their events' order: across, hold, left, right
    direction = yield (CHANCE, 4)
    shift = (2, 0, 1, 3)[direction]
    pack = yield (CHANCE, -1)
    for i, c in enumerate(pack):
        hands[(i + 1) & 3] |= 1 << c
    if shift:
        held = []
        for q in range(4):
            k = yield (q, 286)
            bits = _bits_of(hands[q])
            held.append(sum(1 << bits[j] for j in T_THREES[k]))
        for q in range(4):
            hands[q] ^= held[q]
            hands[(q + shift) & 3] |= held[q]
    leader = next(q for q in range(4) if hands[q] >> T_TWO & 1)
    broken = False
    points = T_HEARTS | 1 << T_QUEEN
    taken = [0, 0, 0, 0]
    for trick_number in range(1, 14):
        trick: list[int] = []
        trick_from: tuple[int, ...] = ()
        for j in range(4):
            h = (leader + j) & 3
            hand = hands[h]
            if not trick:
                if trick_number == 1:
                    mask = hand & 1 << T_TWO
                elif broken or hand & T_HEARTS == hand:
                    mask = hand
                else:
                    mask = hand & ~T_HEARTS
            else:
                mask = hand & T_SUITMASK[T_SUIT[trick[0]]] or hand
                if trick_number == 1 and hand & points != hand:
                    mask &= ~points
            m = mask
            for _ in range((yield (h, mask.bit_count()))):
                m &= m - 1
            c = (m & -m).bit_length() - 1
            hands[h] = hand & ~(1 << c)
            trick.append(c)
            trick_from = trick_from + (h,)
            if T_SUIT[c] == 2 or c == T_QUEEN:
                broken = True
        led = T_SUIT[trick[0]]
        power = [T_RANK[x] if T_SUIT[x] == led else 0 for x in trick]
        w = trick_from[power.index(max(power))]
        taken[w] += 1
        leader = w
        for x in trick:
            won[w] |= 1 << x
    shooter = next((q for q in range(4) if (won[q] & points).bit_count() == 14), -1)
    st.points = [(won[q] & T_HEARTS).bit_count() + (13 if won[q] >> T_QUEEN & 1 else 0)
                 for q in range(4)]
    if shooter >= 0:
        st.points = [0 if q == shooter else 26 for q in range(4)]


class Typed:
    """A deal of :func:`typed_match`, driven as the kernel is (``to_move``, ``legal_count``,
    ``apply_index``), with the kernel's own bookkeeping of a choice: the log of choices made
    and the deal's count of events."""

    def __init__(self) -> None:
        self.hands = [0, 0, 0, 0]
        self.won = [0, 0, 0, 0]
        self.points: list[int] = []
        self.log: list[object] = []
        self.deal_events = 0
        self.gen = typed_match(self)
        self.to_move, self.count = next(self.gen)

    def legal_count(self) -> int:
        return self.count

    def apply_index(self, k: int) -> None:
        if not 0 <= k < self.count:
            raise IndexError(k)
        self.log.append(k)
        self.deal_events += 1
        try:
            self.to_move, self.count = self.gen.send(k)
        except StopIteration:
            self.to_move = None

    def sample_chance(self, rng: random.Random) -> None:
        if self.count == -1:
            cards = list(range(52))
            rng.shuffle(cards)
            self.log.append(cards)
            self.apply_index_chance(cards)
        else:
            k = rng.randrange(self.count)
            self.log.append(k)
            self.apply_index_chance(k)

    def apply_index_chance(self, x: object) -> None:
        self.deal_events += 1
        self.to_move, self.count = self.gen.send(x)


def typed_games(games: int, seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` random deals of :class:`Typed`, by the loop every
    bench's index side runs (playouts.fast_games)."""
    events = 0
    start = time.perf_counter()
    for i in range(games):
        st = Typed()
        rng = random.Random(seed * 100_003 + i)
        while st.to_move is not None:
            if st.to_move == CHANCE:
                st.sample_chance(rng)
            else:
                st.apply_index(rng.randrange(st.legal_count()))
            events += 1
    return time.perf_counter() - start, events


def ceiling_games(games: int, seed: int) -> tuple[float, int]:
    """Seconds and events of ``games`` random deals of :class:`Hearts`."""
    events = 0
    start = time.perf_counter()
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        st = Hearts()
        st.deal(rng)
        st.draw_direction(rng)
        events += 2
        while st.to_move >= 0:
            st.apply_index(rng.randrange(st.legal_count()))
            events += 1
    return time.perf_counter() - start, events


def main(argv: list[str] | None = None) -> None:
    import engines
    from playouts import index_playouts

    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    spec, players, options, adapter = engines.settings_of("openspiel:hearts")
    best = {"ceiling": 0.0, "typed": 0.0, "shaped": 0.0, "shaped-ints": 0.0, "pyspiel": 0.0,
            "rulespec": 0.0, "kernel": 0.0}
    for r in range(args.rounds):
        for side in best:
            seed = 1000 * r + 7
            if side == "ceiling":
                secs, _ = ceiling_games(args.games, seed)
            elif side == "typed":
                secs, _ = typed_games(args.games, seed)
            elif side == "shaped":
                secs, _ = shaped_games(args.games, seed)
            elif side == "shaped-ints":
                secs, _ = shaped_games(args.games, seed, INTS)
            elif side == "kernel":
                secs, _ = engines.kernel_games(spec, players, options, args.games, seed)
            elif side == "pyspiel":
                secs, _ = engines.engine_games(adapter, players, options, args.games, seed)
            else:
                secs, _ = index_playouts(spec, players, options, args.games, seed)
            best[side] = max(best[side], args.games / secs)
    print("side        games/s  × pyspiel")
    for side, gps in best.items():
        print(f"{side:<10} {gps:9.0f}  {gps / best['pyspiel']:8.2f}")


if __name__ == "__main__":
    main()
