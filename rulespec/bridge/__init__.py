"""What OpenSpiel's and PettingZoo's bridges share: a spec's decisions as action ids, a shuffle
dealt one card at a time, and what a seat observes as strings and tensors. No game logic:
every answer comes from the engine and the spec."""
