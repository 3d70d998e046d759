"""A table of a spec (players, options, first dealer), validated once.

:meth:`Table.of` checks a table against its spec: the options (normalised by the spec's one
validator, :meth:`~rulespec.lang.model.CheckedSpec.check_options`, and completed with the
defaults), the player count, the dealer, the number of hands and the spec's ``require``
lines; a table the spec refuses is a :class:`~rulespec.errors.ConfigurationError`. A
:class:`Table` is then one canonical key, whatever spelling the request used.

:class:`~rulespec.engine.game.Tables` (beside the game it builds) is the one cache of a
spec's tables: each request validated once, each table compiled once.
"""

from __future__ import annotations

import json
import types
from collections.abc import Mapping

import attrs

from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.machine import MAX_WORK
from rulespec.errors import ConfigurationError
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec

__all__ = ["MAX_PLAYERS", "Table", "check_requires", "no_state"]

#: the most players a table may have, whatever a spec's ``players`` line allows: every seat
#: costs memory before the first event
MAX_PLAYERS = 1000

#: what table-time code sees as the state: a ``require`` runs before any state exists
_NO_STATE = types.SimpleNamespace(v={}, z={}, work=MAX_WORK, left=10 * MAX_WORK)


def no_state() -> types.SimpleNamespace:
    """The stand-in state table-time values are computed in, its work budget full."""
    _NO_STATE.work = MAX_WORK
    _NO_STATE.left = 10 * MAX_WORK
    return _NO_STATE


@attrs.frozen
class Table:
    """One table of a spec, validated: the player count, every option's value (the defaults
    included, each in its canonical form), the first dealer and the number of hands.

    Build it with :meth:`of`. ``key`` is the same for every request that names this table,
    however it spells the options."""

    spec: CheckedSpec = attrs.field(eq=False, repr=False)
    players: int
    options: Mapping[str, object] = attrs.field(eq=False)
    dealer: int
    hands: int
    #: (players, the options as sorted JSON, dealer): one text per table
    key: tuple[int, str, int]
    #: the clause ids the ``require`` lines compiled (a game's ``compiled_clauses`` counts them)
    require_clauses: frozenset[str] = attrs.field(eq=False, repr=False)

    @classmethod
    def of(cls, spec: CheckedSpec, players: int, options: Mapping[str, object] | None = None,
           dealer: int = 0) -> Table:
        """The table, or ConfigurationError when the spec refuses it (an unknown option, a
        value out of its type, the player count, the dealer, ``hands``, a ``require``)."""
        opts: dict[str, object] = dict(spec.defaults())
        opts.update(spec.check_options(options or {}))
        if isinstance(players, int) and players > MAX_PLAYERS:
            raise ConfigurationError(
                f"a table holds at most {MAX_PLAYERS} players, not {players}")
        if not (isinstance(players, int) and spec.min_players <= players <= spec.max_players):
            raise ConfigurationError(
                f"{spec.name} takes {spec.player_counts(' to ')} players, not {players}")
        if not (isinstance(dealer, int) and 0 <= dealer < players):
            raise ConfigurationError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
        hands = _hands(spec, players, opts)
        compiled: set[str] = set()
        check_requires(ExprCompiler(spec, players, opts, hands, compiled=compiled), spec,
                       players)
        key = (players, json.dumps(opts, sort_keys=True, default=str), dealer)
        return cls(spec, players, types.MappingProxyType(opts), dealer, hands, key,
                   frozenset(compiled))


def _hands(spec: CheckedSpec, players: int, opts: Mapping[str, object]) -> int:
    """The number of hands at the table: the players, or what the spec's ``hands`` says."""
    if spec.hands is None:
        return players
    ok, val = ExprCompiler(spec, players, opts).const(spec.hands)
    if not ok or not isinstance(val, int) or not players <= val <= MAX_PLAYERS:
        raise ConfigurationError(
            f"{spec.name}: 'hands' must be a number from the players to {MAX_PLAYERS}, "
            f"known once the options are (got {val!r})")
    return val


def check_requires(ec: ExprCompiler, spec: CheckedSpec, players: int) -> None:
    """Raise ConfigurationError at the first ``require`` the table fails; ``ec`` is the
    table's expression compiler (with coverage on, it marks the arms the requires take)."""
    for r in spec.requires:
        ok, val = ec.const(r.cond)
        if not ok:
            # table-time: no state yet (the checker keeps variables and zones out of a
            # require); definitions not inlined still read st.v and st.z
            val = ec.expr(r.cond, frozenset())(no_state(), {})
        if not val:
            refs = [x.ref for x in walk.descendants(r.cond) if isinstance(x, ast.Cited)]
            cite = f" ({', '.join(refs)})" if refs else ""
            raise ConfigurationError(
                f"{spec.name} with {players} players and these options: {r.message}{cite}")
