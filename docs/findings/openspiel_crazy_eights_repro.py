"""Reproductions of the OpenSpiel crazy_eights findings with pyspiel alone (docs/findings.md).

Run: python docs/findings/openspiel_crazy_eights_repro.py  -- prints one line per finding, each
"SHOWN" when the engine behaves as the finding says."""

from __future__ import annotations

import pyspiel

SUITS, RANKS = "CDHS", "23456789TJQKA"
DRAW, PASS, DEALER = 52, 53, 52


def card(code: str) -> int:
    """crazy_eights numbers a card rank by rank: 2C is 0, 2D is 1, AS is 51."""
    return RANKS.index(code[0]) * 4 + SUITS.index(code[1])


def penalty_by_action_id() -> bool:
    """Two players, player 0 dealing: player 1 holds seven hearts and plays them one by one
    onto the 2 of hearts turned up; player 0, holding 2C 3C 4C 5C 6C 7C 9C, draws a court card
    each turn and passes. Player 0 is left with those seven clubs (face values 36) and six
    court cards (60): a penalty of 96 by the rules and by the game's own header. The game
    returns -162: each card from two to ten costs its action id plus 2 (the 9 of clubs, action
    28, costs 30)."""
    game = pyspiel.load_game("crazy_eights", {"players": 2, "max_draw_cards": 1})
    s = game.new_initial_state()
    s.apply_action(DEALER + 0)
    p0 = ["2C", "3C", "4C", "5C", "6C", "7C", "9C"]
    p1 = ["3H", "4H", "5H", "6H", "7H", "9H", "TH"]
    for k in range(14):  # dealt one at a time from the dealer's left: player 1 first
        s.apply_action(card((p1 if k % 2 == 0 else p0)[k // 2]))
    s.apply_action(card("2H"))  # turned up
    draws = iter(["JS", "QS", "KS", "AS", "JD", "QD"])
    for i, c in enumerate(p1):
        s.apply_action(card(c))
        if i < 6:
            s.apply_action(DRAW)
            s.apply_action(card(next(draws)))
            s.apply_action(PASS)
    return s.is_terminal() and s.returns() == [-162.0, 0.0]


if __name__ == "__main__":
    for f in (penalty_by_action_id,):
        print(f.__name__, "SHOWN" if f() else "not shown")
