"""Enumerators compiled when first needed (rulespec.engine.codegen.enumerators.Later): an
alternative's own, where its decision lists its events in one function, and its version
without hoisted temporaries (``_plain``), both called only when a temporary raises. Compiled
then, they decide as those compiled with the table do, and a table compiles the same clauses."""

from __future__ import annotations

from rulespec.engine import Game
from rulespec.lang.checker import check_text
from tests.test_engine import GUARDED, HEAD


def test_the_version_without_temporaries_compiled_when_first_needed() -> None:
    # on an empty pile the hoisted rank(top(pile)) raises, and the rule's own short-circuit
    # makes every card of the hand legal
    guard = "size(pile) == 0 or rank(top(pile)) == rank(c)"
    spec = check_text(HEAD + GUARDED.replace("GUARD", guard), "t.rules")
    eager, lazy = Game(spec, 2, keep_sources=True), Game(spec, 2)
    assert any("_plain(" in text for _, text in eager.sources), "nothing was hoisted"
    assert lazy.compiled_clauses == eager.compiled_clauses
    for game in (eager, lazy):
        state = game.new_initial_state()
        state.apply(state.legal_actions()[0])  # the shuffle; the pile is empty
        assert sorted(e["action"] for e in state.legal_actions()) == ["none", "take", "take"]
