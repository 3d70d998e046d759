"""Robustness mutants on the Vändåtta oracle: the rules are right, the implementation misbehaves
(raises, hangs, answers the wrong shape, accepts illegal events, leaks hidden cards, exits)."""

from __future__ import annotations

import sys
import time
from typing import Any

from tests.oracles.vandatta import CODE

from .base import VandattaView


class _Counting(VandattaView):
    """Counts the events applied in the current match (``new`` resets the count)."""

    _applied = 0

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        super().new(game, players, options, dealer)
        self._applied = 0

    def apply(self, event: dict) -> None:
        super().apply(event)
        self._applied += 1


class Raises(VandattaView):
    """``apply`` raises RuntimeError (not ValueError) when a reshuffle event is applied (V1): an
    implementation that crashes on a legal event."""

    def apply(self, event: dict) -> None:
        if isinstance(event, dict) and event.get("chance") == "reshuffle":
            raise RuntimeError("internal error: cannot rebuild the stock")
        super().apply(event)


class Hangs(_Counting):
    """After 25 applied events ``legal()`` never returns (sleeps in a loop)."""

    def legal(self) -> list[dict]:
        while self._applied >= 25:
            time.sleep(1)
        return super().legal()


class WrongShape(_Counting):
    """After 10 applied events ``legal()`` returns a dict instead of a list of events."""

    def legal(self) -> Any:
        evs = super().legal()
        if self._applied >= 10:
            return {"events": evs}
        return evs


class AcceptsIllegal(VandattaView):
    """``apply`` of an illegal (or malformed) decision returns normally instead of raising; the
    state is unchanged (protocol.md: "raising on an illegal event")."""

    def apply(self, event: dict) -> None:
        try:
            super().apply(event)
        except ValueError:
            if isinstance(event, dict) and "chance" not in event:
                return
            raise


class Leaks(VandattaView):
    """``observe(seat)`` shows every hand's cards, not only the seat's own (hidden information
    leaks; the other hands must be counts)."""

    def _hand_zone(self, seat: int) -> list[Any]:
        return [[CODE[c] for c in h] for h in self._hands]


class ExitsEarly(VandattaView):
    """``new`` calls ``sys.exit(3)``: a process that dies at once."""

    def new(self, game: str, players: int, options: dict | None = None, dealer: int = 0) -> None:
        sys.exit(3)
