"""Deliberately broken variants of the RLCard uno adapter: a follow rule, a score and a turn.
The lock-step matches of tests/test_adapters_rlcard.py must catch each."""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.adapters.rlcard import Uno


class UnoNoNumberMatch(Uno):
    """A card that matches the top card by number or symbol only (not by colour) is not
    offered (a follow rule)."""

    def legal(self) -> list[dict[str, object]]:
        events = super().legal()
        if self.need is not None or not events:
            return events
        top = self.env.game.round.target
        colour = str(top.color).upper()
        return [e for e in events if not (isinstance(e.get("card"), str)
                                          and "colour" not in e
                                          and str(e["card"])[1] != colour)]


class UnoWinnerScoresTwo(Uno):
    """The winner of the hand scores 2, not 1 (a score)."""

    def result(self) -> dict[str, object]:
        out = super().result()
        if out["complete"]:
            totals = [2 if t == 1 else t for t in out["totals"]]  # type: ignore[attr-defined]
            out.update(totals=totals, deals=[{"scores": totals}])
        return out


class UnoSkipIgnored(Uno):
    """After a Skip is played, the skipped player is said to move (a turn)."""

    skipped = False

    def apply(self, event: Mapping[str, object]) -> None:
        super().apply(event)
        card = event.get("card")
        self.skipped = isinstance(card, str) and card.startswith("S")

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        if self.skipped and isinstance(tm, int):
            return (tm + 1) % self.table
        return tm
