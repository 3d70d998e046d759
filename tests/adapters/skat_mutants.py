"""Deliberately broken variants of the skat adapter: wrappers around OpenSpiel's skat state that
break a follow rule, a score or a turn. verify must catch each with its default settings."""

from __future__ import annotations

from typing import Any

from rulespec.adapters.openspiel_skat import Skat, skat_card


def own_hand(a: Skat) -> list[str]:
    """The cards of the player to move, read off skat's observation tensor (after three
    position and three phase entries, the 32 cards of the player's hand)."""
    st: Any = a.state
    t = st.observation_tensor(int(st.current_player()))
    return [skat_card(c) for c in range(32) if t[6 + c]]


class SkatNoFollow(Skat):
    """A player to a trick under way is offered every card of their hand, as if nobody had to
    follow (a follow rule)."""

    def events(self) -> list[dict[str, object]]:
        events = super().events()
        if self.phase() != "play" or self.plays % 3 == 0:
            return events
        seat = self.to_move()
        offered = {str(e["card"]) for e in events}
        return events + [{"seat": seat, "action": "play", "card": c}
                         for c in own_hand(self) if c not in offered]


class SkatDeclarerHalved(Skat):
    """The declarer's score is the return times 120, not 240: their card points counted half
    (a score)."""

    def answer(self) -> dict[str, object]:
        out = super().answer()
        if out["complete"] and self.declarer is not None:
            scores = list(out["totals"])  # type: ignore[call-overload]
            scores[self.declarer] //= 2
            out.update(totals=scores, deals=[{"scores": scores}])
        return out


class SkatDeclarerLeads(Skat):
    """The declarer, not forehand, is said to lead to the first trick (a turn)."""

    def to_move(self) -> int | str | None:
        tm = super().to_move()
        if isinstance(tm, int) and self.phase() == "play" and self.plays == 0 \
                and self.declarer is not None:
            return self.declarer
        return tm
