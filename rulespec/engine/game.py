"""A checked spec at one table, compiled: :class:`Game` (OpenSpiel's ``Game``).

A game is built once per table (player count, options, first dealer): the options are
normalised and checked with the table (:func:`validate_setting`), every procedure is compiled
to a Python function (``codegen/``), and each :meth:`Game.new_initial_state` starts a match on
the shared compiled rules.
"""

from __future__ import annotations

import types
from collections.abc import Mapping

from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.codegen.stmts import compile_procedures
from rulespec.engine.machine import MAX_WORK, Procedure
from rulespec.engine.state import State
from rulespec.errors import ConfigurationError
from rulespec.lang import ast, walk
from rulespec.lang.builtins import LEFT as _LEFT
from rulespec.lang.model import CheckedSpec

__all__ = ["MAX_PLAYERS", "Game", "validate_setting"]


#: what table-time code sees as the state: a ``require`` runs before any state exists
_NO_STATE = types.SimpleNamespace(v={}, z={}, work=MAX_WORK)


def _no_state() -> types.SimpleNamespace:
    """The stand-in state table-time values are computed in, its work budget full."""
    _NO_STATE.work = MAX_WORK
    _LEFT[0] = 10 * MAX_WORK
    return _NO_STATE


#: the most players a table may have, whatever a spec's ``players`` line allows: every seat
#: costs memory before the first event
MAX_PLAYERS = 1000


def validate_setting(spec: CheckedSpec, players: int, options: Mapping[str, object] | None = None,
                     dealer: int = 0, cover: set[str] | None = None,
                     compiled: set[str] | None = None) -> tuple[dict[str, object], int]:
    """The full options and the number of hands of a table, or ConfigurationError when the
    spec refuses it (an unknown option, a value out of its type, the player count, the
    dealer, a ``require``): everything :class:`Game` checks before it compiles, so a caller
    that only asks whether a setting is offered does not pay for the compile."""
    opts: dict[str, object] = dict(spec.defaults())
    opts.update(spec.check_options(options or {}))
    if isinstance(players, int) and players > MAX_PLAYERS:
        raise ConfigurationError(f"a table holds at most {MAX_PLAYERS} players, not {players}")
    if not (isinstance(players, int) and spec.min_players <= players <= spec.max_players):
        raise ConfigurationError(
            f"{spec.name} takes {spec.min_players} to {spec.max_players} players, "
            f"not {players}")
    if not (isinstance(dealer, int) and 0 <= dealer < players):
        raise ConfigurationError(f"the dealer must be a seat 0..{players - 1}, not {dealer}")
    hands = players
    if spec.hands is not None:
        ok, val = ExprCompiler(spec, players, opts).const(spec.hands)
        if not ok or not isinstance(val, int) or not players <= val <= MAX_PLAYERS:
            raise ConfigurationError(
                f"{spec.name}: 'hands' must be a number from the players to {MAX_PLAYERS}, "
                f"known once the options are (got {val!r})")
        hands = val
    # a game's coverage counts the expression arms its requires compile and take
    ec = ExprCompiler(spec, players, opts, hands, cover=cover, compiled=compiled)
    for r in spec.requires:
        ok, val = ec.const(r.cond)
        if not ok:
            # table-time: no state yet (the checker keeps variables and zones out of a
            # require); definitions not inlined still read st.v and st.z
            val = ec.expr(r.cond, frozenset())(_no_state(), {})
        if not val:
            refs = [x.ref for x in walk.descendants(r.cond) if isinstance(x, ast.Cited)]
            cite = f" ({', '.join(refs)})" if refs else ""
            raise ConfigurationError(
                f"{spec.name} with {players} players and these options: {r.message}{cite}")
    return opts, hands


class Game:
    """A checked spec at one table: player count, options and first dealer fixed.

    Build it once and call :meth:`new_initial_state` for each match; the compiled rules are
    shared by every state.
    """

    def __init__(self, spec: CheckedSpec, players: int, options: Mapping[str, object] | None = None,
                 dealer: int = 0, coverage: bool = False, keep_sources: bool = False) -> None:
        self.spec = spec
        #: clause ids (rulespec.lang.clauses) this table compiles, and, with ``coverage=True``, the
        #: set every state of this game adds the clauses it enters to
        self.compiled_clauses: set[str] = set()
        self.cover: set[str] | None = set() if coverage else None
        self.players = players
        self.dealer = dealer
        self.options, self.hands = validate_setting(spec, players, options, dealer,
                                                    self.cover, self.compiled_clauses)
        self._ec = ExprCompiler(spec, players, self.options, self.hands, cover=self.cover,
                                compiled=self.compiled_clauses, keep_sources=keep_sources)
        #: the declared bounds at this table: (low, high) of a deal's scores, and the most
        #: events a deal may have (None where the spec declares none)
        self.score_range: tuple[int, int] | None = None
        self.max_events: int | None = None
        if spec.score_range is not None:
            lo, hi = (self._table_number(e) for e in spec.score_range)
            if lo is None or hi is None or lo > hi:
                raise ConfigurationError(
                    f"{spec.name}: 'score_range' must be two numbers, the first at most the "
                    f"second, known once the options are (got {lo}..{hi})")
            self.score_range = (lo, hi)
        if spec.max_events is not None:
            self.max_events = self._table_number(spec.max_events)
            if self.max_events is None or self.max_events < 1:
                raise ConfigurationError(
                    f"{spec.name}: 'max_events' must be a number of at least 1, known once the "
                    f"options are (got {self.max_events})")
        procs: list[tuple[str, tuple[str, ...], ast.Block, ast.Span | None]] = [
            (p.name, tuple(x.name for x in p.params), p.body, p.span) for p in spec.procs]
        procs += [("#deal", (), spec.deal.body, None), ("#match", (), spec.match.body, None)]
        self.procs: dict[str, Procedure] = compile_procedures(
            self._ec, procs, self.compiled_clauses, self.cover)
        self.var_inits = [(v.name, v.per_player, self._ec.expr(v.init, frozenset()))
                           for v in spec.vars]
        #: the result fields: name, per player, the initial value (each deal starts from it)
        self.result_inits = [(r.name, r.per_player, self._ec.expr(r.init, frozenset()))
                              for r in spec.results]
        self.action_fields: dict[str, set[str]] = {}
        for a in spec.actions:
            self.action_fields.setdefault(a.name, set()).update(a.fields)
        self.set_fields = {(a.name, f) for a in spec.actions for f in a.set_fields}
        self.zone_kinds = tuple((z.name, z.per_player) for z in spec.zones)
        #: some local holds a zone itself, so a clone must repoint it (see State.clone)
        self.binds_zones = any(p.binds_zones for p in self.procs.values())
        if coverage or keep_sources:
            self._ec.compile_defs()

    def _table_number(self, e: ast.Expr) -> int | None:
        """A number the table fixes (the checker keeps state out of it), or None."""
        v = self._ec.expr(e, frozenset())(_no_state(), {})
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def evaluate(self, e: ast.Expr, state: State, bindings: Mapping[str, object]) -> object:
        """The value of ``e``, an expression written in this spec (a term of a definition,
        say: the checker has typed it), in ``state``, with ``bindings`` for the names local to
        it (the definition's parameters). For tools that explain a result, the rulebook's
        scoring term by term; play never needs it."""
        return self._ec.expr(e, frozenset(bindings))(state, dict(bindings))

    @property
    def sources(self) -> list[tuple[str, str]]:
        """(file name, text) of every Python function generated for this table, in the order
        they were made; empty unless the game was built with ``keep_sources=True``."""
        return list(self._ec.sources or ())

    def new_initial_state(self, dealer: int | None = None) -> State:
        """A fresh match, stopped at its first chance event or decision; ``dealer`` replaces
        the game's first dealer for this match."""
        if dealer is None:
            dealer = self.dealer
        elif isinstance(dealer, bool) or not (isinstance(dealer, int)
                                              and 0 <= dealer < self.players):
            raise ConfigurationError(
                f"the dealer must be a seat 0..{self.players - 1}, not {dealer}")
        return State.initial(self, dealer)
