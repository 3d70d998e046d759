"""A seat's observation as a fixed-length vector of numbers, laid out from the spec.

For learning code (OpenSpiel's observation tensors, PettingZoo's observation spaces) what a
seat sees (:meth:`rulespec.engine.state.State.observation`, worked out from each zone's
visibility) is written into a flat vector whose layout depends on the table alone:

- who moves: one slot a seat, and one for chance or the match's end;
- each zone, pile by pile (one pile for a shared zone, one a hand or a team for the others):
  a slot per distinct card of the deck holding how many of it the seat sees there, then one
  slot for the pile's size where the seat may count it, -1 where it may not;
- each public variable that holds a number or a truth value: one slot; one that holds one of
  those for every seat: a slot a seat. Other variables (a card, a list of cards) are left
  out: the zones show the cards.

The information-state vector is the observation's, followed by a slot per distinct card: 1
where the seat has seen that card face up somewhere in this deal (a card played to a trick and
gathered since is still remembered), which is what a card player keeps in mind.
"""

from __future__ import annotations

import attrs

from rulespec.engine.state import State

__all__ = ["Layout"]


@attrs.frozen
class Layout:
    """Where each part of a seat's observation goes in the vector (see the module)."""

    players: int
    cards: tuple[str, ...]
    #: each zone's name and how many piles it has (None: a shared zone, one pile)
    zones: tuple[tuple[str, int | None], ...]
    #: each variable's name and how many slots it takes (None: one, a single value)
    variables: tuple[tuple[str, int | None], ...]

    @classmethod
    def of(cls, state: State) -> Layout:
        """The layout of ``state``'s table, read from its first state."""
        spec = state.game.spec
        zones = tuple((zd.name, len(state.z[zd.name]) if zd.per_player or zd.per_team
                       else None) for zd in spec.zones)
        variables: list[tuple[str, int | None]] = []
        for name, v in state.v.items():
            if name.startswith("#"):
                continue  # the engine's own bookkeeping
            if _number(v):
                variables.append((name, None))
            elif isinstance(v, (list, tuple)) and v and all(_number(x) for x in v):
                variables.append((name, len(v)))
        return cls(state.game.players, tuple(spec.deck.order), zones, tuple(variables))

    @property
    def size(self) -> int:
        n = self.players + 1
        for _, piles in self.zones:
            n += (piles or 1) * (len(self.cards) + 1)
        for _, k in self.variables:
            n += k or 1
        return n

    @property
    def information_size(self) -> int:
        return self.size + len(self.cards)

    def write_information(self, state: State, seat: int, met: set[str]) -> list[float]:
        """``seat``'s information-state vector: its observation, then the cards ``met``."""
        return self.write(state, seat) + [1.0 if c in met else 0.0 for c in self.cards]

    def write(self, state: State, seat: int) -> list[float]:
        """``seat``'s observation of ``state`` as the vector (a new list)."""
        vec = [0.0] * self.size
        obs = state.observation(seat)
        to_move = obs["to_move"]
        vec[to_move if isinstance(to_move, int) and 0 <= to_move < self.players
            else self.players] = 1.0
        at = self.players + 1
        index = {c: i for i, c in enumerate(self.cards)}
        zones = obs["zones"]
        assert isinstance(zones, dict)
        width = len(self.cards) + 1
        for name, piles in self.zones:
            seen = zones.get(name)
            shown = seen if piles is not None and isinstance(seen, list) else [seen]
            for k in range(piles or 1):
                pile = shown[k] if k < len(shown) else None
                if isinstance(pile, list):
                    for c in pile:
                        if c in index:
                            vec[at + index[c]] += 1.0
                    vec[at + width - 1] = float(len(pile))
                elif isinstance(pile, int):
                    vec[at + width - 1] = float(pile)
                else:
                    vec[at + width - 1] = -1.0
                at += width
        public = obs["vars"]
        assert isinstance(public, dict)
        for name, slots in self.variables:
            v = public.get(name)
            if slots is None:
                vec[at] = float(v) if _number(v) else 0.0  # type: ignore[arg-type]
                at += 1
            else:
                xs = v if isinstance(v, list) else []
                for i in range(slots):
                    x = xs[i] if i < len(xs) else 0
                    vec[at + i] = float(x) if _number(x) else 0.0
                at += slots
        return vec


def _number(v: object) -> bool:
    return isinstance(v, (int, bool))
