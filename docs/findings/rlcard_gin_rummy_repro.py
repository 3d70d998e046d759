"""The rlcard-gin_rummy findings, reproduced with RLCard alone (no rulespec).

Each function deals a hand through RLCard's environment with a stand-in for the game's numpy
RandomState (``game.np_random``: its ``choice`` draws the dealer, its ``shuffle`` orders the
deck, which RLCard deals from its end), steps it with action ids as an agent does, prints what
it shows, and returns True when RLCard behaves as the finding says.

- rlcard-gin_rummy-1: the dealer deals 11 cards to the other player and no upcard (RLCard's
  documented deal; the rules deal ten each and turn up a card).
- rlcard-gin_rummy-2: a player may knock (or must gin) with the card just picked up from the
  discard pile, though RLCard's ``is_allowed_to_discard_picked_up_card`` is False.
- rlcard-gin_rummy-3: the gin action discards a card of RLCard's choosing.
- rlcard-gin_rummy-4: after 200 moves the only action is to declare the hand dead.
"""

from __future__ import annotations

from typing import Any

import rlcard

DRAW, PICK_UP, DEAD_HAND, GIN, DISCARD, KNOCK = 2, 3, 4, 5, 6, 58


def card_id(name: str) -> int:
    """RLCard's card id of a card written "KS" (rank, then suit; suits spades, hearts,
    diamonds, clubs)."""
    return "SHDC".index(name[1]) * 13 + "A23456789TJQK".index(name[0])


class Stacked:
    """RLCard's RandomState, stacked: player 1 deals, player 0 gets ``first`` (11 cards), player
    1 ``second`` (10 cards), the rest of the pack is the stock."""

    def __init__(self, first: str, second: str) -> None:
        self.order = [*first.split(), *second.split()]

    def choice(self, values: Any) -> int:
        return 1

    def shuffle(self, deck: list[Any]) -> None:
        by_name = {str(c): c for c in deck}
        order = self.order + [c for c in by_name if c not in self.order]
        deck[:] = [by_name[c] for c in reversed(order)]  # dealt from the end


def dealt(first: str, second: str) -> Any:
    env = rlcard.make("gin-rummy")
    env.game.np_random = Stacked(first, second)
    env.reset()
    return env


def legal(env: Any) -> list[int]:
    return list(env.get_state(env.game.round.current_player_id)["legal_actions"])


# player 0 holds the King of spades among cards that meld nothing, and discards it
JUNK = "KS 4S 6S 8S TC QD 2D 5H 9S JH 3S"


def deals_eleven_cards() -> bool:
    env = dealt(JUNK, "AC 2C 3C 4D 5D 6D 7H 8H 9H 2S")
    hands = [len(p.hand) for p in env.game.round.players]
    pile = env.game.round.dealer.discard_pile
    print("hands:", hands, "discard pile:", pile, "first actions:", legal(env)[:3])
    return hands == [11, 10] and not pile and all(a >= DISCARD for a in legal(env))


def knock_with_picked_up_card() -> bool:
    """Player 1 picks up the King of spades: discarding it is not offered, knocking with it
    is."""
    env = dealt(JUNK, "AC 2C 3C 4D 5D 6D 7H 8H 9H 2S")
    env.step(DISCARD + card_id("KS"))
    env.step(PICK_UP)
    actions = legal(env)
    discard, knock = DISCARD + card_id("KS") in actions, KNOCK + card_id("KS") in actions
    print("discard KS offered:", discard, "knock with KS offered:", knock)
    return not discard and knock


def gin_with_picked_up_card() -> bool:
    """Player 1 holds gin and picks up the King of spades: the only action is gin, which
    discards the King just picked up."""
    env = dealt(JUNK, "AC 2C 3C 4C 5D 6D 7D 7H 8H 9H")
    env.step(DISCARD + card_id("KS"))
    env.step(PICK_UP)
    only_gin = legal(env) == [GIN]
    env.step(GIN)
    hand = sorted(map(str, env.game.round.players[1].hand))
    print("only gin:", only_gin, "hand after gin:", hand)
    return only_gin and "KS" not in hand


def gin_chooses_discard() -> bool:
    """Player 1 picks up the 9 of hearts: eleven cards in three runs, gin with a discard of
    the Ace or 4 of clubs, or the 5 or 8 of diamonds; RLCard offers one gin action and
    discards the card it chooses."""
    env = dealt("KS 4S 6S 8S TC QD 2D 5H 9H JH 3S", "AC 2C 3C 4C 5D 6D 7D 8D 7H 8H")
    env.step(DISCARD + card_id("9H"))
    env.step(PICK_UP)
    actions = legal(env)
    env.step(GIN)
    left = {str(c) for c in env.game.round.players[1].hand}
    gone = {"AC", "4C", "5D", "8D"} - left
    print("actions:", actions, "discarded by the gin action:", gone)
    return actions == [GIN] and len(gone) == 1


def move_limit_dead_hand() -> bool:
    """Both players pick up the discard and discard another card, turn after turn: after 200
    moves, with 31 cards still in the stock, the only action is to declare the hand dead."""
    env = dealt(JUNK, "AC 3C 5D 7D 9H 8C KC QH 2C 4H")
    while len(env.game.round.move_sheet) < 200:
        actions = legal(env)
        if PICK_UP in actions:
            env.step(PICK_UP)
        else:
            env.step(max(a for a in actions if DISCARD <= a < KNOCK))
    stock = len(env.game.round.dealer.stock_pile)
    print("moves:", len(env.game.round.move_sheet), "stock:", stock, "actions:", legal(env))
    return legal(env) == [DEAD_HAND] and stock == 31


if __name__ == "__main__":
    for f in (deals_eleven_cards, knock_with_picked_up_card, gin_with_picked_up_card,
              gin_chooses_discard, move_limit_dead_hand):
        print("SHOWN" if f() else "NOT SHOWN")
