"""Deliberately broken variants of the engine adapters: wrappers around the engine's state that
take an illegal action (as OpenSpiel's plain ``apply_action`` does), break a follow rule, a
score or a turn. verify must catch each with its default settings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.adapters.openspiel import CrazyEights, Hearts, Spades

RANKS = "23456789TJQKA"


class Unchecked:
    """Takes any action the event names, legal or not (OpenSpiel's ``apply_action``)."""

    def apply(self: Any, event: Mapping[str, object]) -> None:
        st = self.state.clone()
        try:
            for a in self.actions(event):
                st.apply_action(a)
        except Exception as e:  # noqa: BLE001 - the engine's own check failed: a refusal
            raise ValueError(str(e)) from None
        self.state = st
        self.taken(event)


class HeartsUnchecked(Unchecked, Hearts):
    """Hearts taking illegal plays."""


class SpadesUnchecked(Unchecked, Spades):
    """Spades taking illegal plays."""


def hearts_plays(h: Hearts) -> int:
    """How many cards have been played to tricks in a hearts deal."""
    history = h.state.history()
    passes = 12 if history and history[0] != 0 else 0
    return max(0, len(history) - 1 - 52 - passes)


class HeartsNoHighFollow(Hearts):
    """A player following suit with two cards of it or more is not offered the highest (a
    follow rule)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        plays = [e for e in events if e.get("action") == "play"]
        if hearts_plays(self) % 4 and len(plays) > 1 and len({str(e["card"])[1]
                                                               for e in plays}) == 1:
            top = max(plays, key=lambda e: RANKS.index(str(e["card"])[0]))
            return [e for e in events if e is not top]
        return events


class HeartsQueenCounts12(Hearts):
    """The Queen of spades scored 12, not 13 (a score): a player with 14 points or more took
    her (the hearts alone make 13), unless the moon was shot."""

    def answer(self) -> dict[str, object]:
        out = super().answer()
        totals = out["totals"]
        assert isinstance(totals, list)
        if out["complete"] and 26 not in totals:
            totals = [t - 1 if t >= 14 else t for t in totals]
            out.update(totals=totals, deals=[{"scores": totals}])
        return out


class HeartsSkipsAfterTrick(Hearts):
    """The seat after the trick's winner named to lead (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        n = hearts_plays(self)
        if isinstance(tm, int) and n and n % 4 == 0:
            return (tm + 1) % 4
        return tm


class SpadesSecondSeatLeads(Spades):
    """The first lead given to the seat after the one on the dealer's left (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        if isinstance(tm, int) and len(self.state.history()) == 52 + 4:
            return (tm + 1) % 4
        return tm


class SpadesFailedContractCheaper(Spades):
    """A partnership that loses points in a deal loses 10 fewer (a score)."""

    def taken(self, event: Mapping[str, object]) -> None:
        ended = self.state.is_terminal()
        before = len(self.deals)
        super().taken(event)
        if ended and len(self.deals) > before:
            scores = list(self.deals[-1]["scores"])  # type: ignore[call-overload]
            for q in range(4):
                if scores[q] < 0:
                    scores[q] += 10
            for t in (0, 1):
                self.team_totals[t] += scores[t] - self.deals[-1]["team_scores"][t]  # type: ignore[index]
            self.deals[-1] = {"scores": scores, "team_scores": scores[:2]}


class HeartsShowsNextHand(Hearts):
    """Each seat's observation shows the next seat's hand (a leak)."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        zones = obs["zones"]
        assert isinstance(zones, dict)
        if "hand" in zones:
            nxt = (seat + 1) % 4
            theirs = super().observe(nxt)["zones"]
            assert isinstance(theirs, dict)
            zones["hand"][nxt] = theirs["hand"][nxt]
        return obs
# ---- Crazy Eights ------------------------------------------------------------------------------
class CrazyEightsUnchecked(CrazyEights):
    """Crazy Eights taking any action the game's own checks let through (plain
    ``apply_action``)."""

    checked = False


class CrazyEightsNoRankMatch(CrazyEights):
    """A card that matches the top card by rank only (not by suit, not an eight) is not
    offered (a follow rule)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        if not self.discard or self.state.is_chance_node():
            return events
        top = self.discard[-1]

        def rank_only(e: dict[str, object]) -> bool:
            c = str(e.get("card", ""))
            return (e.get("action") == "play" and c[0] == top[0] != "8"
                    and c[1] != top[1])

        return [e for e in events if not rank_only(e)]


class CrazyEightsTurnSkipsAfterEight(CrazyEights):
    """After a suit is named for an eight, the turn is said to be the seat after the next (a
    turn)."""

    def to_move(self) -> int | str | None:
        seat = super().to_move()
        if isinstance(seat, int) and self.state.history() and \
                self.state.history()[-1] >= 54 and not self.state.is_chance_node():
            return (seat + 1) % self.table
        return seat
