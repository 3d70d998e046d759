"""Deliberately broken variants of the OpenSpiel euchre adapter: wrappers around the engine's
state that take an illegal action, break a follow rule, a score or a turn. verify must catch
each with its default settings."""

from __future__ import annotations

from typing import Any

from rulespec.adapters.openspiel_euchre import Euchre
from tests.adapters.mutants import Unchecked

MATE = {"C": "S", "S": "C", "D": "H", "H": "D"}


class EuchreUnchecked(Unchecked, Euchre):
    """Takes any action the event names, legal or not (OpenSpiel's ``apply_action``)."""


def suit_in_play(card: str, trump: str) -> str:
    """A card's suit in play: the left bower's is the trump suit."""
    return trump if card[0] == "J" and card[1] == MATE[trump] else card[1]


class EuchreMustTrump(Euchre):
    """A player who cannot follow suit must play a trump if they hold one (a follow rule)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        plays = [e for e in events if e.get("action") == "play"]
        trick = list(self.state.current_trick().cards()) if plays else []
        if not plays or not trick or self.state.num_cards_played() % len(
                [a for a in self.state.active_players() if a]) == 0:
            return events
        trump = "CDHS"[self.state.trump_suit()]
        led = suit_in_play(_card(trick[0]), trump)
        suits = {suit_in_play(str(e["card"]), trump) for e in plays}
        if led not in suits and trump in suits:
            return [e for e in plays if suit_in_play(str(e["card"]), trump) == trump]
        return events


def _card(action: int) -> str:
    return "9TJQKA"[action // 4] + "CDHS"[action % 4]


class EuchreMarchScoresOne(Euchre):
    """A march with the partner scores 1, not 2 (a score)."""

    def answer(self) -> dict[str, object]:
        out = super().answer()
        if out["complete"] and 2 in out["totals"]:  # type: ignore[operator]
            st: Any = self.state
            makers = st.declarer() % 2
            tricks = sum(1 for t in st.tricks() if t.winner() % 2 == makers)
            if tricks == 5:
                scores = [1 if s == 2 else s for s in out["totals"]]  # type: ignore[attr-defined]
                deals: Any = out["deals"]
                deals[0].update(scores=scores, team_scores=scores[:2])
                out.update(totals=scores, team_totals=scores[:2])
        return out


class EuchreSkipsAfterTrick(Euchre):
    """The seat after the trick's winner named to lead the next trick (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        st = self.state
        if isinstance(tm, int) and self.phase() == "PLAY":
            played = st.num_cards_played()
            if played and played % sum(1 for a in st.active_players() if a) == 0:
                return (tm + 1) % 4
        return tm
