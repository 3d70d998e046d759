"""What every engine adapter shares: an engine's state wrapped as a protocol
:class:`~rulespec.protocol.Implementation` of a shipped spec.

An adapter translates, and nothing else: the spec's events into the engine's actions (an event
may be several actions, such as a pass of three cards or a whole shuffle dealt card by card),
the engine's legal actions into the spec's events, its chance nodes into chance events, and its
returns into a replay answer. It never decides a rule: an event the engine refuses is refused,
an illegal event the engine accepts is accepted (verify then reports it), and a setting the
engine cannot play is "not offered" (``ValueError`` at ``new``).

Every event is applied to a copy of the engine's state, which replaces the state only when all
of the event's actions were taken: a refusal leaves the engine as it was, as the protocol asks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.lang.cards import pack
from rulespec.loading import normalise_options, resolve

__all__ = ["Adapter", "NotOffered", "dealt_hands", "permutation_of", "winners_of"]

#: the French pack in the spec's canonical order (records.md §1.4)
FRENCH_PACK: tuple[str, ...] = tuple(pack(1))


class NotOffered(ValueError):
    """A table, option value or event the engine cannot play or express."""


class Adapter:
    """The shape of an engine adapter: a protocol implementation with a little more.

    ``spec`` is the shipped spec the adapter answers for; ``engine`` names the engine's own
    game for messages. ``fixed`` holds the options the engine always plays (OpenSpiel's Hearts
    plays one deal, say): any other value is not offered. ``usual`` holds the values of the
    engine's own default parameters where the engine can play others too (Hearts' random pass
    direction, where it can also play without passing). ``rulespec verify --engine`` sets
    both unless the user gives them.
    """

    spec: str = ""
    engine: str = ""
    fixed: Mapping[str, object] = {}
    usual: Mapping[str, object] = {}
    #: the table sizes the engine plays (verify --engine tries only these unless -p says)
    players: tuple[int, ...] = ()

    def new(self, game: str, players: int, options: Mapping[str, object],
            dealer: int = 0) -> None:
        """Start a fresh match; NotOffered for a setting the engine cannot play."""
        raise NotImplementedError

    def to_move(self) -> int | str | None:
        """A seat, ``"chance"``, or None when the match is over."""
        raise NotImplementedError

    def legal(self) -> list[dict[str, object]]:
        """Every legal event, as the spec's vocabulary writes it."""
        raise NotImplementedError

    def apply(self, event: Mapping[str, object]) -> None:
        """Apply an event; ValueError when the engine refuses it (state unchanged)."""
        raise NotImplementedError

    def result(self) -> dict[str, object]:
        """The replay answer for the events so far."""
        raise NotImplementedError

    def check_game(self, game: str, options: Mapping[str, object]) -> dict[str, Any]:
        """Every option of the spec, those not given at their defaults, after the checks
        every adapter makes: the game is this adapter's spec, each option is one the spec
        offers, and every fixed option has its fixed value."""
        if game != self.spec:
            raise NotOffered(f"{self.engine} plays {self.spec!r}, not {game!r}")
        spec = resolve(self.spec).spec
        opts: dict[str, Any] = {o.name: o.default for o in spec.options}
        opts.update(normalise_options(spec, options))
        for name, value in self.fixed.items():
            if name in opts and opts[name] != value:
                raise NotOffered(f"{self.engine} plays only {name}={value!r}")
        return opts


def permutation_of(event: Mapping[str, object], cards: Sequence[str]) -> list[str]:
    """The ``cards`` of a shuffle event, checked to be an order of ``cards``; NotOffered
    otherwise."""
    order = event.get("cards")
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(cards):
        raise NotOffered("a shuffle is an order of the whole pack")
    return [str(c) for c in order]


def dealt_hands(order: Sequence[str], seats: int, first: int, each: int) -> list[list[str]]:
    """The hands a deal from the top of ``order`` gives, one card at a time round the table
    from seat ``first`` (the spec's ``deal N from stock to hand of seats_from(...)``)."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    for i, card in enumerate(order[:seats * each]):
        hands[(first + i) % seats].append(card)
    return hands


def winners_of(totals: Sequence[int], lowest: bool) -> list[int]:
    """The seats with the best total (the lowest or the highest), ties shared."""
    best = min(totals) if lowest else max(totals)
    return [q for q, t in enumerate(totals) if t == best]
