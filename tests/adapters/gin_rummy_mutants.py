"""Deliberately broken variants of the two gin rummy adapters: each breaks a legal rule, a
score or a turn. verify (OpenSpiel) and the lock-step matches (RLCard) must catch each."""

from __future__ import annotations

from rulespec.adapters.openspiel_gin_rummy import GinRummy as OpenSpielGin
from rulespec.adapters.rlcard_gin_rummy import GinRummy as RLCardGin


# ---- OpenSpiel
class OpenSpielKnockAnyCard(OpenSpielGin):
    """A player about to discard may knock with any card, whatever the deadwood left (a legal
    rule)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        knocks = [{**e, "action": "knock"} for e in events if e.get("action") == "discard"]
        return events + [k for k in knocks if k not in events]


class OpenSpielScoresSwapped(OpenSpielGin):
    """Each seat is given the other seat's return (a score)."""

    def answer(self) -> dict[str, object]:
        out = super().answer()
        if out["complete"]:
            scores = list(reversed(out["totals"]))  # type: ignore[call-overload]
            out.update(totals=scores, deals=[{"scores": scores}])
        return out


class OpenSpielDealerDraws(OpenSpielGin):
    """After both pass the first upcard, the dealer is said to draw, not the non-dealer (a
    turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        st = self.state
        if isinstance(tm, int) and self.phase() == 1 and all(st.pass_on_first_upcard()):
            return 1 - tm
        return tm


# ---- RLCard
class RLCardDiscardTaken(RLCardGin):
    """The card just picked up may be discarded again (a legal rule)."""

    def legal(self) -> list[dict[str, object]]:
        events = super().legal()
        env = self.env
        if self.opening or env is None or env.game.is_over():
            return events
        last = env.game.get_last_action()
        if type(last).__name__ != "PickUpDiscardAction":
            return events
        card = str(env.game.round.move_sheet[-1].card)
        extra = {"seat": self.to_move(), "action": "discard", "card": card}
        return events if extra in events else [*events, extra]


class RLCardWinnerSwapped(RLCardGin):
    """The points of a hand go to the loser (a score)."""

    def scores(self) -> list[int]:
        return list(reversed(super().scores()))


class RLCardDealerStarts(RLCardGin):
    """The dealer, not the non-dealer, is said to take the first turn (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        return 1 - tm if self.opening and isinstance(tm, int) else tm
