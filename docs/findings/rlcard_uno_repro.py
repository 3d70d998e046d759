"""Reproductions of the RLCard uno findings with rlcard alone (docs/findings.md).

Run: python docs/findings/rlcard_uno_repro.py  -- prints one line per finding, each "SHOWN"
when the engine behaves as the finding says. Each sets up a two-player game the way RLCard's
own environment makes one (``rlcard.make("uno")``, ``reset``), then puts the cards where the
finding needs them and steps the environment."""

from __future__ import annotations

from typing import Any

import numpy as np
import rlcard
from rlcard.games.uno.card import UnoCard
from rlcard.games.uno.utils import ACTION_SPACE


def card(code: str) -> UnoCard:
    """An RLCard uno card from its name: ``r-5``, ``g-reverse``, ``b-wild_draw_4``."""
    colour, trait = code.split("-", 1)
    kind = ("wild" if trait.startswith("wild") else "number" if trait.isdigit()
            else "action")
    return UnoCard(kind, colour, trait)


def table(hand0: list[str], hand1: list[str], top: str, deck: list[str] | None = None,
          seed: int = 0) -> Any:
    """A two-player environment after ``reset``, with these hands, this top card and, when
    given, this draw pile (its last card drawn first); player 0 to play."""
    env = rlcard.make("uno", config={"seed": seed})
    env.reset()
    game = env.game
    game.players[0].hand = [card(c) for c in hand0]
    game.players[1].hand = [card(c) for c in hand1]
    game.round.target = card(top)
    game.round.played_cards = [game.round.target]
    game.round.current_player, game.round.direction = 0, 1
    if deck is not None:
        game.dealer.deck = [card(c) for c in deck]
    return env


def reverse_with_two_players() -> bool:
    """With two players a Reverse acts as a Skip: its player plays again (Mattel's rules;
    RLCard's docs point to unorules.com, which says the same). RLCard gives the turn to the
    other player."""
    env = table(["r-reverse", "g-3"], ["b-4"], top="r-5")
    _, player = env.step(ACTION_SPACE["r-reverse"])
    return player == 1


def first_draw_two_does_not_skip() -> bool:
    """A Draw Two turned up to start the discard pile makes the player on the dealer's left
    (RLCard's player 0) draw two and miss the turn. RLCard deals player 0 two cards and lets
    them play."""

    class DrawTwoOnTop(np.random.RandomState):  # type: ignore[misc]
        """Shuffles, then puts a Draw Two where RLCard turns up its first card."""

        def shuffle(self, deck: list[Any]) -> None:
            super().shuffle(deck)
            i = next(i for i, c in enumerate(deck) if c.trait == "draw_2")
            deck[i], deck[-15] = deck[-15], deck[i]  # 14 cards dealt, then the 15th turned

    env = rlcard.make("uno")
    env.game.np_random = DrawTwoOnTop(0)
    _, player = env.reset()
    game = env.game
    return (game.round.target.trait == "draw_2" and len(game.players[0].hand) == 9
            and player == 0)


def drawn_wild_draw_four_has_no_effect() -> bool:
    """A player who cannot play draws a Wild Draw Four; RLCard plays it at once (its colour
    at random), but the next player neither draws four nor misses the turn, as they must
    when a Wild Draw Four is played."""
    env = table(["g-3"], ["b-4", "b-6"], top="r-5", deck=["y-1", "r-wild_draw_4"])
    _, player = env.step(ACTION_SPACE["draw"])
    game = env.game
    return (game.round.target.trait == "wild_draw_4" and len(game.players[1].hand) == 2
            and player == 1)


def reshuffle_keeps_the_top_card() -> bool:
    """When the draw pile is empty, the discards except the top card become the new draw
    pile. RLCard shuffles the top card in too, and leaves it on top: the same card is then
    both on the discard pile and in the draw pile (109 cards in play)."""
    played = ["g-1", "g-2", "b-7", "y-8", "g-9", "b-skip", "y-3"]
    # seed 1: the card drawn from the new pile is not the top card itself (with seed 0 it is,
    # and RLCard plays the 5 of red a second time)
    env = table(["g-3"], ["b-4"], top="r-5", seed=1)
    game = env.game
    game.dealer.deck = []
    game.round.played_cards = [card(c) for c in played] + [game.round.target]
    top = game.round.target
    env.step(ACTION_SPACE["draw"])  # player 0 cannot play: RLCard reshuffles and draws
    hands = [c for p in game.players for c in p.hand]
    return any(c is top for c in game.dealer.deck + hands)


FINDINGS = (reverse_with_two_players, first_draw_two_does_not_skip,
            drawn_wild_draw_four_has_no_effect, reshuffle_keeps_the_top_card)

if __name__ == "__main__":
    for f in FINDINGS:
        print(f.__name__, "SHOWN" if f() else "not shown")
