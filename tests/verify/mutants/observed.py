"""Implementations of UNO whose observations give variables (``vars``), built on the spec's
own engine (:class:`rulespec.protocol.SpecImplementation`).

* :class:`GivesTheColourOnly` is correct: its ``vars`` hold the colour in force, as the spec
  names it, and a note of its own; the spec's other variables it does not send. verify
  compares only the variables both sides give.
* :class:`SaysTheColourIsRed` has one bug: its ``vars`` say the colour in force is red,
  whatever it is. verify must report the observation.

They are not in the catalogue of ``__init__.py``: they test the observations' comparison.
"""

from __future__ import annotations

from rulespec.protocol import SpecImplementation


class GivesTheColourOnly(SpecImplementation):
    """Correct: the colour in force, and a variable the spec does not have."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        spec_vars = obs["vars"]
        assert isinstance(spec_vars, dict)
        obs["vars"] = {"colour": spec_vars["colour"], "engine_build": "1.0"}
        return obs


class SaysTheColourIsRed(SpecImplementation):
    """Bug: the colour in force is always given as red."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        obs["vars"] = {"colour": "R"}
        return obs
