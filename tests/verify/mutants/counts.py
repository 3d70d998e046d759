"""A mutant of hidden sizes: the spec's own engine on ``tests/specs/ok/hidden_counts.rules``,
right everywhere except that ``observe`` gives the size of every zone, also where the spec
lets the seat not count it (docs/protocol.md §3.1: null there). Not in the catalogue, which
holds the two oracles' games; ``tests/test_verify.py`` runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulespec.lang.checker import check_file
from rulespec.protocol import SpecImplementation

SPEC_PATH = Path(__file__).resolve().parents[2] / "specs" / "ok" / "hidden_counts.rules"
SPEC = check_file(SPEC_PATH)


class HiddenCountsView(SpecImplementation):
    """The correct base: the engine itself, every match of the hidden-counts spec."""

    def __init__(self) -> None:
        super().__init__(spec=SPEC)


class ShowsHiddenSizes(HiddenCountsView):
    """``observe(seat)`` gives a count where the seat may not count a zone (an
    implementation written before sizes could be hidden: every hidden zone as its size)."""

    def observe(self, seat: int) -> dict[str, Any]:
        obs = super().observe(seat)
        assert self.state is not None
        zones = dict(obs["zones"])
        for name, z in zones.items():
            real = self.state.z[name]
            if z is None:
                zones[name] = len(real)
            elif isinstance(z, list) and None in z:
                zones[name] = [len(real[q]) if x is None else x for q, x in enumerate(z)]
        return {**obs, "zones": zones}
