"""The openspiel-gin_rummy findings, reproduced with OpenSpiel alone (no rulespec).

Each function deals a hand by OpenSpiel's own chance actions (ten cards to player 0, the
non-dealer, ten to player 1, then the upcard), plays it with the game's actions, prints what it
shows and returns True when OpenSpiel behaves as the finding says. Cards are written as
OpenSpiel writes them ("As" the ace of spades; its suits spades, clubs, diamonds, hearts).

- openspiel-gin_rummy-1: the hand ends, void, when the upcard is taken and discarded again by
  both players in succession (and at the 50th upcard taken): limits of the engine's own, no rule.
- openspiel-gin_rummy-2: a tie between the knocker's and the defender's deadwood scores 0;
  the GRA rules the engine follows make it an undercut (25 to the defender).
- openspiel-gin_rummy-3: a run extended twice at one end by layoffs cannot be extended a third
  time (gin_rummy_utils.cc, ``AllLayoffs``, extends each meld by the earlier layoffs in one pass).
"""

from __future__ import annotations

from typing import Any

import pyspiel

TAKE, PASS, KNOCK = 52, 54, 55


def card(name: str) -> int:
    """OpenSpiel's card action of a card written "5c" (rank, then suit)."""
    return "scdh".index(name[1]) * 13 + "A23456789TJQK".index(name[0])


def dealt(p0: str, p1: str, upcard: str) -> Any:
    """A gin_rummy state dealt these hands (space-separated cards) and this upcard."""
    state = pyspiel.load_game("gin_rummy").new_initial_state()
    for c in [*p0.split(), *p1.split(), upcard]:
        state.apply_action(card(c))
    return state


def meld(state: Any, cards: str) -> int:
    """The meld action laying exactly these cards (as the game names its meld actions)."""
    want = sorted(cards.split())
    for a in state.legal_actions():
        name = state.action_to_string(state.current_player(), a).rsplit(" ", 1)[1]
        if a >= 56 and sorted(name[i:i + 2] for i in range(0, len(name), 2)) == want:
            return int(a)
    raise AssertionError(f"no meld action of {cards}")


def play(state: Any, actions: list[int]) -> None:
    for a in actions:
        assert a in state.legal_actions(), (state.action_to_string(state.current_player(), a))
        state.apply_action(a)


def repeated_upcard_ends_hand() -> bool:
    """Both players take the upcard and discard it again: the hand is over, void, with 31
    cards still in the stock."""
    state = dealt("Ac 2c 3c 4d 5d 6d 7h 8h 9h 5s", "Tc Jc Qc 2h 2d 2s 9c 9d 9s 5h", "Ks")
    while not state.is_terminal():
        play(state, [TAKE, card("Ks")])
    print("stock:", state.stock_size(), "returns:", state.returns())
    return state.stock_size() == 31 and list(state.returns()) == [0.0, 0.0]


def tie_scores_zero() -> bool:
    """Player 0 knocks with 5 of deadwood (the 5 of spades); player 1 lays down three melds and
    keeps the 5 of hearts: 5 too. The GRA rules: an undercut, 25 to player 1. OpenSpiel: 0."""
    state = dealt("Ac 2c 3c 4d 5d 6d 7h 8h 9h 5s", "Tc Jc Qc 2h 2d 2s 9c 9d 9s 5h", "Ks")
    play(state, [TAKE, KNOCK, card("Ks")])
    for m in ("Ac 2c 3c", "4d 5d 6d", "7h 8h 9h"):
        play(state, [meld(state, m)])
    play(state, [PASS, PASS])  # player 0 has laid down; player 1 lays nothing off
    for m in ("Tc Jc Qc", "2h 2d 2s", "9c 9d 9s"):
        play(state, [meld(state, m)])
    play(state, [PASS])
    print("deadwood:", state.deadwood(), "returns:", state.returns())
    return list(state.deadwood()) == [5, 5] and list(state.returns()) == [0.0, 0.0]


def third_layoff_not_offered() -> bool:
    """Player 0 knocks and lays down 5c 6c 7c; player 1 lays off the 8 and the 9 of clubs, and
    holds the Ten: 5c..Tc is a run, but laying the Ten off is not among the legal actions."""
    state = dealt("5c 6c 7c Ad 2d 3d 4h 5h 6h As", "8c 9c Tc Jh Qh Kh 2s 3s 4s 9s", "Ks")
    play(state, [TAKE, KNOCK, card("Ks")])
    for m in ("Ad 2d 3d", "4h 5h 6h", "5c 6c 7c"):
        play(state, [meld(state, m)])
    play(state, [PASS, card("8c"), card("9c")])
    offered = card("Tc") in state.legal_actions()
    print("the Ten of clubs offered as a layoff:", offered)
    return not offered


if __name__ == "__main__":
    for shown in (repeated_upcard_ends_hand(), tie_scores_zero(), third_layoff_not_offered()):
        print("SHOWN" if shown else "NOT SHOWN")
