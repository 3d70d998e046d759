"""Reproduction of the OpenSpiel skat finding with pyspiel alone (docs/findings.md).

Run: python docs/findings/openspiel_skat_repro.py  -- prints one line per finding, "SHOWN" when
the engine behaves as the finding says."""

from __future__ import annotations

import pyspiel

#: skat's observation tensor: position 3, phase 3, hand 32, bids 3 x 7, solo player 3, skat 32,
#: then the game type, 7 entries (unknown/pass, diamonds, hearts, spades, clubs, grand, null),
#: then the current trick's leader, 3 entries
GAME_TYPE = 3 + 3 + 32 + 3 * 7 + 3 + 32
NULL = GAME_TYPE + 6


def first_lead_shows_null() -> bool:
    """Player 0 names a diamonds game and lays two cards away; before the first card is played,
    every player's observation tensor marks the game both diamonds and null (the leader of
    the empty first trick is -1, and ``ptr[-1] = 1`` lands on the last entry of the game
    type), and the observation string says ``CurrTrick(Leader:-1)``. After the first card the
    tensor is right again."""
    s = pyspiel.load_game("skat").new_initial_state()
    for card in range(32):  # dealt in order: the k-th card goes where skat's deal sends it
        s.apply_action(card)
    s.apply_action(32 + 1)  # player 0 names diamonds
    s.apply_action(s.legal_actions()[0])  # two cards laid away
    s.apply_action(s.legal_actions()[0])
    before = [s.observation_tensor(p)[GAME_TYPE:GAME_TYPE + 7] for p in range(3)]
    leader_minus_one = "CurrTrick(Leader:-1)" in s.observation_string(0)
    s.apply_action(s.legal_actions()[0])  # player 0 leads
    after = s.observation_tensor(0)[GAME_TYPE:GAME_TYPE + 7]
    return (all(t == [0, 1, 0, 0, 0, 0, 1] for t in before) and leader_minus_one
            and list(after) == [0, 1, 0, 0, 0, 0, 0])


if __name__ == "__main__":
    print("openspiel-skat-1 (the first lead's tensor marks a null):",
          "SHOWN" if first_lead_shows_null() else "not shown")
