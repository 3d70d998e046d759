"""Implementations of Hearts whose observations show history, built on the spec's own engine
(:class:`rulespec.protocol.SpecImplementation`).

* :class:`ShowsWhatItPassed` is correct: each seat's observation adds ``passed``, the cards it
  passed in this deal. The seat saw them in its hand before it passed them, so showing them
  again is no leak, though they are now in another seat's hidden hand.
* :class:`ShowsTheLeftHand` has one bug: each seat's observation adds ``left_hand``, the hand
  of the seat on its left, which it has never seen. verify's leak check must catch it.

They are not in the catalogue of ``__init__.py``: they test the leak check, not the rules.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.protocol import SpecImplementation


class ShowsWhatItPassed(SpecImplementation):
    """Correct: each observation adds the cards the seat passed in this deal."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.passed: dict[int, list[str]] = {}

    def apply(self, event: Mapping[str, object]) -> None:
        super().apply(event)
        if event.get("chance") == "shuffle":
            self.passed = {}  # a new deal
        elif event.get("action") == "pass":
            self.passed[int(event["seat"])] = list(event["cards"])  # type: ignore[call-overload]

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        obs["passed"] = list(self.passed.get(seat, []))
        return obs


class ShowsTheLeftHand(SpecImplementation):
    """Bug: each observation adds the hand of the seat on the observer's left."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        st = self._st()
        left = (seat + 1) % st.game.hands
        obs["left_hand"] = list(st.observation(left)["zones"]["hand"][left])  # type: ignore[index]
        return obs
