"""A pack of cards in a few signs, for the book's Players and cards: the ranks of each suit as
a run from the Ace down (``A–6``), the Joker, the copies of each card, and how many cards a
suit a second pack holds. Pure functions of the cards' codes; nothing here plays."""

from __future__ import annotations

import collections

__all__ = ["RANK_ORDER", "pack_text", "per_suit"]

#: the French ranks from the Ace down, as card codes write them (the ten as T)
RANK_ORDER = "AKQJT98765432"


def per_suit(cards: list[str]) -> int:
    """How many cards of each suit a pack holds, where its four suits hold as many (0 where
    they do not): a second pack is said as its suits (rounds 52 and 53 read "48" for two
    players as the bid cards they use, where each player takes one suit of twelve)."""
    counted = collections.Counter(str(c)[-1] for c in cards)
    return counted.most_common(1)[0][1] if len(counted) == 4 and len(set(counted.values())) == 1 \
        else 0


def pack_text(cards: list[str]) -> str | None:
    """The cards of a shuffle in a few signs: each suit's ranks as a run from the Ace down
    (``A–6``), the Joker (``+ JK``) and how many copies of each card (``×2``); None for a pack
    these signs cannot say (suits that differ, a gap in a run, cards not French)."""
    jokers = sum(c == "JK" for c in cards)
    french = [c for c in cards if c != "JK"]
    counted = collections.Counter(french)
    copies = set(counted.values())
    if len(copies) != 1 or any(len(c) != 2 or c[0] not in RANK_ORDER for c in counted):
        return None
    suits: dict[str, set[str]] = {}
    for c in counted:
        suits.setdefault(c[1], set()).add(c[0])
    ranks = {frozenset(r) for r in suits.values()}
    if len(suits) != 4 or len(ranks) != 1:
        return None
    run = len(next(iter(ranks)))
    if set(RANK_ORDER[:run]) != next(iter(ranks)) or run < 2:
        return None
    text = f"A–{RANK_ORDER[run - 1]}"
    n = copies.pop()
    text += f" ×{n}" if n > 1 else ""
    return text + (f" + JK ×{jokers}" if jokers > 1 else " + JK" if jokers else "")
