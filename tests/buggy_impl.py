"""A deliberately wrong implementation, for testing that verify finds and shrinks divergences."""

from __future__ import annotations

from typing import Any

from tests.oracles.vandatta import VandattaOracle


class NoAceOnAce(VandattaOracle):
    """Forgets that an Ace may be played on an Ace (VAN-7 default: allowed)."""

    def legal(self) -> list[dict[str, Any]]:
        evs = super().legal()
        if self.to_move() in (None, "chance") or not self._discard:
            return evs
        if self._discard[-1] % 13 != 12:  # top card is not an Ace
            return evs
        return [e for e in evs
                if not (e.get("action") == "play" and e["cards"][0][0] == "A")]
