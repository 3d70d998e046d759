"""openspiel-euchre-1, reproduced with OpenSpiel alone (no rulespec): makers who take no trick
lose 2, where euchre.h says the game plays "super-Euchres" (the makers lose 4).

Dealer North (0); East (1) orders up the Jack of spades and goes alone holding no trump; North
takes the card and discards the 9 of diamonds; North and South take all five tricks. The
shrunk record is docs/findings/openspiel-euchre-1.json (rulespec replay gives the makers' side
-4, that is, 4 to the defenders)."""

import pyspiel

ACTIONS = [0,                                                        # dealer: North
           1, 0, 8, 16, 5, 4, 12, 20, 22, 9, 21, 10, 3, 13, 2, 14, 7, 17, 6, 18,  # the deal
           11,                                                       # up-card: JS
           28, 1, 29,                                  # East orders spades; N discards 9D; alone
           0, 12, 3, 22, 9, 2, 11, 17, 8, 5, 13, 21, 6, 7, 4]       # five tricks of three

state = pyspiel.load_game("euchre").new_initial_state()
for a in ACTIONS:
    assert a in state.legal_actions() or state.is_chance_node()
    state.apply_action(a)
print(state)
makers = [t.winner() % 2 for t in state.tricks()].count(state.declarer() % 2)
print("tricks taken by the makers:", makers)   # 0
print("returns:", state.returns())             # [2.0, -2.0, 2.0, -2.0]; the header says 4
assert makers == 0 and state.returns()[state.declarer()] == -2.0
