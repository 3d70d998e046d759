"""Deliberately broken variants of the Oh Hell! adapter (OpenSpiel's ``oh_hell``): wrappers
around the engine's state that take an illegal action (as OpenSpiel's plain ``apply_action``
does), break a follow rule, a score, a turn, or show a card the seat may not see. verify must
catch each with its default settings."""

from __future__ import annotations

from typing import Any

from rulespec.adapters.openspiel_oh_hell import OhHell
from tests.adapters.mutants import Unchecked


def plays(h: OhHell) -> int:
    """How many cards have been played to tricks in the deal: the history less the two draws,
    the cards dealt, the trump card and the bids."""
    history = h.state.history()
    if len(history) < 2:
        return 0
    return max(0, len(history) - 2 - h.table * history[0] - 1 - h.table)


class OhHellUnchecked(Unchecked, OhHell):
    """Takes any action the event names, legal or not (OpenSpiel's ``apply_action``): a card
    that does not follow suit, a bid the hook forbids."""


class OhHellMustTrump(OhHell):
    """A player who cannot follow suit and holds a trump is offered only trumps (a follow
    rule of other games, not Oh Hell's)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        cards = [str(e["card"]) for e in events if e.get("action") == "play"]
        history = self.state.history()
        if not cards or plays(self) % self.table == 0:
            return events
        trump = self.card(history[2 + self.table * history[0]])[1]
        led = self.card(history[-(plays(self) % self.table)])[1]
        if any(c[1] == led for c in cards) or not any(c[1] == trump for c in cards):
            return events
        return [e for e in events if str(e["card"])[1] == trump]


class OhHellMissCostsOne(OhHell):
    """A player who scored under 10 (a missed bid, at the usual scoring) scores one less (a
    score)."""

    def answer(self) -> dict[str, object]:
        out = super().answer()
        if out["complete"]:
            totals: Any = out["totals"]
            scores = [t - 1 if t < 10 else t for t in totals]
            out.update(totals=scores, deals=[{"scores": scores}])
        return out


class OhHellSkipsAfterTrick(OhHell):
    """The seat after the trick's winner named to lead (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        n = plays(self)
        if isinstance(tm, int) and n and n % self.table == 0:
            return (tm + 1) % self.table
        return tm


class OhHellShowsLeftHand(OhHell):
    """A seat's observation shows the hand of the player on its left (a leak)."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        zones: Any = obs["zones"]
        if "hand" in zones:
            left = (seat + 1) % self.table
            zones["hand"][left] = super().observe(left)["zones"]["hand"][left]
        return obs
