"""Players for rulespec's engine: random and greedy play, information-set Monte Carlo tree
search, and the resampler they and the OpenSpiel bridge draw worlds with."""
