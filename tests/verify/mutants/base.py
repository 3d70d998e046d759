"""The correct bases every mutant is built on: the two oracles plus a correct ``observe``.

``observe(seat)`` follows the observation schema ``{"seat": S, "to_move": ..., "zones": {...}}``
with the spec's zone names, derived from the oracle's internal state:

* Vändåtta: ``stock`` (hidden from all: a count), ``discard`` (public: card codes, bottom
  first), ``hand`` (one entry per seat: the codes for seat S, a count for the others).
* Abracadabra: ``hand`` only, same shape; in the dummy game the dummy's hand (seat 2) is an
  entry too, shown as a count.

The oracles' ``clone`` builds an object of the oracle's own class; the mixins keep the
subclass, so a clone of a mutant is the same mutant.
"""

from __future__ import annotations

from typing import Any

from tests.oracles.abracadabra import AbracadabraOracle, is_int
from tests.oracles.vandatta import CODE, VandattaOracle


def _check_seat(seat: Any, n: int) -> int:
    if not is_int(seat) or not 0 <= seat < n:
        raise ValueError(f"bad seat {seat!r} to observe (0..{n - 1})")
    return int(seat)


class VandattaView(VandattaOracle):
    """The Vändåtta oracle with a correct ``observe`` and a class-keeping ``clone``."""

    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own hand, the discard pile, counts for the rest."""
        to_move = self.to_move()  # raises before new()
        s = _check_seat(seat, self._P)
        return {
            "seat": s,
            "to_move": to_move,
            "zones": {
                "stock": len(self._stock),
                "discard": [CODE[c] for c in self._discard],
                "hand": self._hand_zone(s),
            },
        }

    def _hand_zone(self, seat: int) -> list[Any]:
        return [[CODE[c] for c in h] if i == seat else len(h) for i, h in enumerate(self._hands)]

    def clone(self) -> VandattaOracle:
        c = super().clone()
        c.__class__ = type(self)
        return c


class AbracadabraView(AbracadabraOracle):
    """The Abracadabra oracle with a correct ``observe`` and a class-keeping ``clone``."""

    def observe(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of the hands: its own cards, a count for every other hand."""
        if self.cfg is None:
            raise ValueError("no match: call new first")
        s = _check_seat(seat, self.cfg.players)
        # Not under "zones": the spec lays the dummy's cards out in zones of its own (its hand
        # is empty once they are face up), so a hand list here would not match its "hand".
        return {"seat": s, "to_move": self.to_move(), "hands": self._hand_zone(s)}

    def _hand_zone(self, seat: int) -> list[Any]:
        assert self.cfg is not None
        hands: list[list[str]] = [[] for _ in range(self.cfg.nhands)]
        if self.deal is not None and self.deal.hands:
            hands = self.deal.hands
        return [list(h) if i == seat else len(h) for i, h in enumerate(hands)]

    def clone(self) -> AbracadabraOracle:
        c = super().clone()
        c.__class__ = type(self)
        return c
