"""The result fields of a running match (``result NAME: TYPE = INIT`` in a spec): kept in the
state's variables, started again at each ``run deal``, and copied into the last deal's entry
while it is open. Shared by :class:`~rulespec.engine.state.State` and the kernel's state
(:mod:`rulespec.engine.kernel`)."""

from __future__ import annotations

from typing import cast

from rulespec.engine.events import JSONObject
from rulespec.engine.machine import GameRules, Running, Values
from rulespec.engine.observe import plain

__all__ = ["ResultFields"]


class ResultFields:
    """The result fields of a running match, kept in ``v`` and copied into the last deal's
    entry while it is open: State's, and the kernel's state's (rulespec.engine.kernel)."""

    __slots__ = ("_results_open",)
    game: GameRules
    v: Values
    deals: list[JSONObject]

    def reset_results(self) -> None:
        """Every result field at its initial value (per player: one per real player)."""
        for name, per, f in self.game.result_inits:
            x = f(cast(Running, self), {})
            self.v[name] = [x] * self.game.players if per else x

    def _sync_results(self) -> None:
        """While the last deal's entry is open, copy the result fields into it."""
        if self._results_open:
            rec = self.deals[-1]
            for name, _, _ in self.game.result_inits:
                rec[name] = plain(self.v[name])

    def open_results(self) -> None:
        """A deal has ended: its entry takes the result fields, now and as later rules
        change them, until the next deal starts or the match ends."""
        self._results_open = True
        self._sync_results()

    def close_results(self) -> None:
        """The match has ended: the last deal's entry takes the result fields, for good."""
        self._sync_results()
        self._results_open = False

    def start_deal(self) -> None:
        """``run deal`` with result fields: the last deal's entry is final, and the fields
        start again from their initial values."""
        self._sync_results()
        self._results_open = False
        self.reset_results()
