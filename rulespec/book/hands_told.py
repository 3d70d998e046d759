"""Every hand again, now and then, in an example deal whose hands grow as it goes (cards
drawn): "Hands after turn 10: Seat 1: 9♦ A♦ ...". A reader following the deal need not
rebuild each hand from the deal and every draw since (round 23: "the example can only be
followed by rebuilding every hand yourself"). Used by :mod:`rulespec.book.player_example`.
"""

from __future__ import annotations

from collections.abc import Callable

from rulespec.book.document import Inline, Run, inline
from rulespec.book.facts import Told
from rulespec.book.i18n import Words

__all__ = ["EVERY", "PILE_CARDS", "Held"]

#: the turns between two lines of every hand
EVERY = 10
#: the most cards of a shared pile the deal's line lists (a pile of more is told by number)
PILE_CARDS = 3


class Held:
    """The cards of each player's hands (``zones``, the zones the deal fills for each player)
    as the example's events leave them, and whether a hand has grown since they were last
    told."""

    def __init__(self, zones: frozenset[str], named: Callable[[str], str] = str) -> None:
        self.zones, self.named = zones, named
        self.cards: dict[int, list[str]] = {}
        self.grew = False
        #: the shared piles the deal told by their number of cards (the stock), and that
        #: number as the events leave it: told again with the hands where it has changed
        #: (rounds 52 and 53: the reshuffle could be checked only by counting every draw)
        self.piles: dict[str, int] = {}
        self.dealt: dict[str, int] = {}

    def follow(self, t: Told) -> None:
        """The hands after event ``t``: as dealt, where it dealt them, else with the cards it
        brought to them and took from them."""
        if t.zones is not None and not self.cards:
            for name in self.zones:
                for q, h in enumerate(t.zones.get(name) or []):
                    if isinstance(h, list):
                        self.cards.setdefault(q, []).extend(str(c) for c in h)
            # as the deal's line tells them: a pile of more than PILE_CARDS by its number
            self.dealt = {name: len(z) for name, z in t.zones.items() if len(z) > PILE_CARDS
                          and not isinstance(z[0], list)}
            self.piles = dict(self.dealt)
            return
        for zone, gained, lost in t.shared:
            if zone in self.piles:
                self.piles[zone] += len(gained) - len(lost)
        for zone, q, cards in t.gained:
            if zone in self.zones and q in self.cards:
                self.cards[q].extend(cards)
                self.grew = True
        for zone, q, cards in t.lost:
            if zone in self.zones and q in self.cards:
                for c in cards:
                    if c in self.cards[q]:
                        self.cards[q].remove(c)

    def line(self, turn: int, w: Words, cards: Callable[[tuple[str, ...]], list[Run]]
             ) -> Inline | None:
        """Every hand after ``turn``, where it is a tenth turn and a hand has grown since the
        last such line; else None."""
        if turn % EVERY or not self.grew or not self.cards:
            return None
        self.grew = False
        runs: list[Run] = [*w.say("Hands after turn {n}:", n=str(turn))]
        for q in sorted(self.cards):
            held = tuple(self.cards[q])
            runs += [*inline(" "), *w.say("Seat {seat}:", seat=str(q + 1)),
                     *(cards(held) if held else inline(" " + w.word("no cards"))),
                     *inline(".")]
        for zone, n in self.piles.items():
            if n != self.dealt[zone]:
                runs += [*inline(" "), *w.say("{zone}: {n} cards.", zone=self.named(zone),
                                              n=str(n))]
        return tuple(runs)
