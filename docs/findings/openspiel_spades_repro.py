"""Reproductions of the OpenSpiel spades findings with pyspiel alone (docs/findings.md).

Run: python docs/findings/openspiel_spades_repro.py  -- prints one line per finding, each
"SHOWN" when the engine behaves as the finding says."""

from __future__ import annotations

import pyspiel

SUITS, RANKS = "CDHS", "23456789TJQKA"


def card(code: str) -> int:
    """spades numbers a card suit by suit: 2C is 0, AS is 51."""
    return SUITS.index(code[1]) * 13 + RANKS.index(code[0])


def dealt(hands: list[list[str]], scores: tuple[int, int] = (0, 0)) -> pyspiel.State:
    """A spades state with these four hands dealt (the k-th card goes to player k % 4)."""
    state = pyspiel.load_game("spades").new_initial_state()
    state.set_current_scores(list(scores))
    for k in range(52):
        state.apply_action(card(hands[k % 4][k // 4]))
    return state


HANDS = [
    ["AC"] + [r + "H" for r in RANKS[:-1]],  # player 0: the Ace of clubs, twelve hearts
    [r + "S" for r in RANKS[:-1]] + ["AH"],  # player 1: twelve spades, the Ace of hearts
    [r + "C" for r in RANKS[:-1]] + ["AS"],  # player 2: twelve clubs, the Ace of spades
    [r + "D" for r in RANKS],                # player 3: thirteen diamonds
]


def never_broken() -> bool:
    """Player 1 trumps the first trick with a spade, so spades are broken; leading the second
    trick with eleven spades and the Ace of hearts, they may lead a spade. The game offers
    only the Ace of hearts."""
    s = dealt(HANDS)
    for _ in range(4):
        s.apply_action(52 + 1)  # everyone bids 1
    for c in ("AC", "2S", "2C", "2D"):
        s.apply_action(card(c))
    assert s.current_player() == 1
    return [s.action_to_string(a) for a in s.legal_actions()] == ["HA"]


def mercy_on_deal_score() -> bool:
    """A partnership at -340 bids 13 and nil and fails: its total falls to -470 or less, past
    the mercy threshold of -350, yet the match goes on: the game compares the threshold with
    the deal's score (-30 or -230), not with the total."""
    s = dealt(HANDS, (-340, 0))
    for bid in (13, 1, 0, 1):
        s.apply_action(52 + bid)
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
    total = s.get_current_scores()[0]
    return total <= -350 and not s.is_game_over()


def bags_from_negative_score() -> bool:
    """The bags are read off the last digit of the score, which C++ gives negative for a
    negative score: the same deal, in which partnership 1 takes nine tricks over its bid,
    costs it 100 points at a total of 9 (nine bags) and nothing at -191, whose last digit
    is also 9."""
    def penalty(start: int) -> int:
        s = dealt(HANDS, (0, start))
        for bid in (1, 1, 1, 1):
            s.apply_action(52 + bid)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])
        return int(s.get_current_scores()[1] - start)

    return penalty(9) != penalty(-191)


if __name__ == "__main__":
    for f in (never_broken, mercy_on_deal_score, bags_from_negative_score):
        print(f.__name__, "SHOWN" if f() else "not shown")
