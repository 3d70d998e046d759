"""A twin implementation for tests: every call goes to an oracle *and* to the spec's engine,
and after every step the two must agree on who moves, the set of legal events and the result.

The oracles' own suites (tests/oracles/test_oracle_vandatta.py, test_oracle_abracadabra.py) put
the twin in place of the oracle class in their ``[engine]`` cases (the ``implementation``
fixture), so every worked example and settled point they construct checks the engine too.
"""

from __future__ import annotations

import json
from typing import Any

from rulespec.errors import RulespecError
from rulespec.protocol import SpecImplementation


def _keys(events: list[dict[str, Any]]) -> set[str]:
    return {json.dumps(e, sort_keys=True, separators=(",", ":")) for e in events}


def make_twin(oracle_cls: type, game: str, white_box: dict[str, str] | None = None) -> type:
    """A class with the oracle's interface that also drives the engine on ``game``.

    ``white_box`` maps oracle attributes that a test may set directly (a carried pot, the totals
    before a deal) to the engine's variables of the same meaning: setting one on the twin sets
    both, so a worked example that starts mid-match runs on both sides."""
    engine_vars = dict(white_box or {})

    class Twin:
        def __init__(self) -> None:
            self.o = oracle_cls()
            self.e = SpecImplementation()

        def new(self, g: str, players: int, options: dict | None = None,
                dealer: int = 0) -> None:
            if g != game:
                # another game: the engine plays every shipped game, the oracle only its own
                self.o.new(g, players, dict(options or {}), dealer)
                return
            err_o: Exception | None = None
            try:
                self.o.new(g, players, dict(options or {}), dealer)
            except ValueError as e:
                err_o = e
            try:
                self.e.new(g, players, dict(options or {}), dealer)
            except RulespecError as e:
                assert err_o is not None, f"engine refused a table the oracle accepts: {e}"
                raise
            assert err_o is None, f"engine accepted a table the oracle refuses: {err_o}"
            self._agree()

        def _agree(self) -> None:
            assert self.e.to_move() == self.o.to_move(), "who moves"
            lo, le = self.o.legal(), self.e.legal()
            assert _keys(le) == _keys(lo), (
                f"legal differs: engine only {sorted(_keys(le) - _keys(lo))[:5]}, "
                f"oracle only {sorted(_keys(lo) - _keys(le))[:5]}")
            if self.o.to_move() is None:
                ro, re_ = self.o.result(), self.e.result()
                for k in ("complete", "deals", "totals", "winners"):
                    assert ro[k] == re_[k], f"result {k}: oracle {ro[k]} engine {re_[k]}"

        def apply(self, event: dict) -> None:
            try:
                self.o.apply(event)
            except ValueError as refused:
                before = self.e.result()
                try:
                    self.e.apply(event)
                except ValueError:
                    assert self.e.result() == before, "an illegal event changed the engine"
                    raise
                raise AssertionError(
                    f"engine accepted an event the oracle refuses: {event}") from refused
            self.e.apply(event)
            self._agree()

        def legal(self) -> list[dict]:
            return self.o.legal()

        def to_move(self) -> Any:
            return self.o.to_move()

        def result(self) -> dict:
            ro, re_ = self.o.result(), self.e.result()
            assert {k: ro[k] for k in ("complete", "deals", "totals", "winners")} == \
                {k: re_[k] for k in ("complete", "deals", "totals", "winners")}
            return ro

        def clone(self) -> Twin:
            c = Twin.__new__(Twin)
            c.o = self.o.clone()
            c.e = self.e.clone()
            return c

        def __getattr__(self, name: str) -> Any:
            return getattr(self.o, name)

        def __setattr__(self, name: str, value: Any) -> None:
            if name in ("o", "e"):
                object.__setattr__(self, name, value)
                return
            if name not in engine_vars:
                raise AttributeError(f"the twin cannot set {name!r} on the engine too")
            setattr(self.o, name, value)
            state = self.e.state
            assert state is not None
            state.v[engine_vars[name]] = list(value) if isinstance(value, list) else value

    return Twin

