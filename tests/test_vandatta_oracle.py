"""Differential tests: the engine running vandatta.rules against the oracle written from the
brief alone. Same chance outcomes, same decisions; at every step the same player to move and
the same set of legal events (H5), and at the end the same scores (resolutions.md H1, R7b)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import assume, given, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from rulespec.protocol import SpecImplementation
from tests.lockstep import compare_game
from tests.oracles.vandatta import VandattaOracle
from tests.strategies import VANDATTA_PLAYERS, table_fits, vandatta_options


@given(players=st.sampled_from(VANDATTA_PLAYERS), opts=vandatta_options(),
       dealer=st.integers(0, 13), seed=st.integers(0, 2**32),
       prefix=st.lists(st.integers(0, 2**16), max_size=40))
def test_engine_agrees_with_oracle(players: int, opts: dict[str, Any], dealer: int, seed: int,
                                   prefix: list[int]) -> None:
    assume(table_fits(players, opts))
    dealer %= players
    rng = random.Random(seed)
    d, n, _ = compare_game(SpecImplementation(), VandattaOracle(), "vandatta", players, opts,
                           dealer, prefix, extend=lambda: rng.randrange(2**31))
    if d is not None:
        note(json.dumps(d.record)[:4000])
    assert d is None, f"{d.what} at event {d.index}: spec {d.expected} oracle {d.got}"
    assert n > 0


class AgreementMachine(RuleBasedStateMachine):
    """Stateful form of the same comparison: Hypothesis picks every event, and shrinks a
    disagreement to the fewest events (Hypothesis docs/stateful.rst)."""

    @initialize(players=st.sampled_from([2, 3, 4, 6]), opts=vandatta_options())
    def start(self, players: int, opts: dict[str, Any]) -> None:
        opts.pop("target", None)
        assume(table_fits(players, opts))
        self.engine = SpecImplementation()
        self.oracle = VandattaOracle()
        self.engine.new("vandatta", players, opts, 0)
        self.oracle.new("vandatta", players, dict(opts), 0)

    @rule(k=st.integers(0, 2**16))
    def step(self, k: int) -> None:
        if self.engine.to_move() is None:
            return
        legal = self.engine.legal()
        ev = legal[k % len(legal)]
        if ev.get("chance") in ("shuffle", "reshuffle"):
            ev = dict(ev)
            cards = list(ev["cards"])
            random.Random(k).shuffle(cards)
            ev["cards"] = cards
        self.engine.apply(ev)
        self.oracle.apply(ev)

    @invariant()
    def agree(self) -> None:
        if not hasattr(self, "engine"):
            return
        assert self.engine.to_move() == self.oracle.to_move()
        ke = {json.dumps(e, sort_keys=True) for e in self.engine.legal()}
        ko = {json.dumps(e, sort_keys=True) for e in self.oracle.legal()}
        assert ke == ko
        re_, ro = self.engine.result(), self.oracle.result()
        assert re_["deals"] == ro["deals"] and re_["totals"] == ro["totals"]


TestAgreement = AgreementMachine.TestCase
