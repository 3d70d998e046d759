"""Implementations of a spec with a simultaneous decision (``choose together``), built on the
spec's own engine (:class:`rulespec.protocol.SpecImplementation`), for the spec
``tests/specs/ok/simultaneous_pass.rules`` (every seat passes two cards to the left at once).

* :class:`AsksHighestFirst` is correct: it asks the seats of a simultaneous decision from the
  highest down, where the spec asks the lowest first. verify must find it conforms.
* :class:`ShowsChoicesEarly` has one bug: before the reveal, its observation shows the cards
  every seat has chosen so far (a choice shown early). verify's leak check must catch it.
* :class:`TakesASecondChoice` has one bug: it accepts (and ignores) a choice from a seat that
  has already chosen. verify's near misses (another seat's event) must catch it.

They are not in the catalogue of ``__init__.py``, whose mutants are of the shipped games.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.protocol import SpecImplementation


class AsksHighestFirst(SpecImplementation):
    """Correct: at a simultaneous decision the highest seat still to choose is asked first."""

    def _turn(self) -> None:
        st = self._st()
        waiting = st.seats_to_choose()
        if len(waiting) > 1:
            st.ask(max(waiting))

    def to_move(self) -> int | str | None:
        self._turn()
        return super().to_move()

    def legal(self) -> list[dict[str, object]]:
        self._turn()
        return super().legal()

    def clone(self) -> SpecImplementation:
        c = AsksHighestFirst(self.base, self.spec)
        c.state = self._st().clone()
        return c


class ShowsChoicesEarly(SpecImplementation):
    """Bug: while a simultaneous decision waits, each observation lists every choice made so
    far, another seat's included."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.held: list[Mapping[str, object]] = []

    def apply(self, event: Mapping[str, object]) -> None:
        super().apply(event)
        if "waiting" in self._st().observation(0):
            self.held.append(event)  # a choice held: the decision still waits
        else:
            self.held = []

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        if "waiting" in obs:
            obs["chosen_so_far"] = [c for e in self.held
                                    for c in e.get("cards", [])]  # type: ignore[attr-defined]
        return obs

    def clone(self) -> SpecImplementation:
        c = ShowsChoicesEarly(self.base, self.spec)
        c.state = self._st().clone()
        c.held = list(self.held)
        return c


class TakesASecondChoice(SpecImplementation):
    """Bug: a seat that has already chosen in a simultaneous decision may send another
    choice, which is accepted (and ignored) instead of refused."""

    def apply(self, event: Mapping[str, object]) -> None:
        st = self._st()
        seat = event.get("seat")
        if "waiting" in st.observation(0) and isinstance(seat, int) \
                and seat not in st.seats_to_choose() and 0 <= seat < st.game.players:
            return  # accepted, as if a seat might change its mind
        super().apply(event)

    def clone(self) -> SpecImplementation:
        c = TakesASecondChoice(self.base, self.spec)
        c.state = self._st().clone()
        return c
