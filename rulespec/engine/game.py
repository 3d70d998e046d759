"""A checked spec at one table, compiled: :class:`Game` (OpenSpiel's ``Game``), and the one
cache of a spec's compiled games (:class:`Tables`).

A game is built once per table (player count, options, first dealer): the table is validated
(:class:`~rulespec.engine.table.Table`), every procedure is compiled to a Python function
(``codegen/``), and each :meth:`Game.new_initial_state` starts a match on the shared compiled
rules. The cache lives here rather than beside :class:`~rulespec.engine.table.Table` because it
builds games, and a game validates its own table: ``table.py`` sits below this module.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Mapping

from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.codegen.stmts import compile_procedures
from rulespec.engine.machine import Procedure
from rulespec.engine.state import State
from rulespec.engine.table import Table, check_requires, no_state
from rulespec.errors import ConfigurationError
from rulespec.lang import ast
from rulespec.lang.model import CheckedSpec

__all__ = ["MAX_TABLES_PER_SPEC", "Game", "Tables", "tables_of"]


class Game:
    """A checked spec at one table: player count, options and first dealer fixed.

    Build it once and call :meth:`new_initial_state` for each match; the compiled rules are
    shared by every state. With ``coverage``, every clause play enters is added to
    :attr:`cover`; with ``trace``, only the statements' (a procedure, an if's arm), so that the
    enumerators stay play's own lazy ones (a rulebook tells which rule drew a player's cards).
    """

    def __init__(self, spec: CheckedSpec, players: int, options: Mapping[str, object] | None = None,
                 dealer: int = 0, coverage: bool = False, keep_sources: bool = False,
                 table: Table | None = None, watch: bool = False, trace: bool = False) -> None:
        if table is None:
            table = Table.of(spec, players, options, dealer)
        self.spec = spec
        #: the validated table (given by a cache that validated it, or validated here)
        self.table = table
        #: clause ids this table compiles, and the set its states add the clauses they enter to:
        #: all (``coverage``), or only statements' (``trace``: enumerators stay fast)
        self.compiled_clauses: set[str] = set()
        self.cover: set[str] | None = set() if coverage or trace else None
        self.players, self.dealer = table.players, table.dealer
        self.options: dict[str, object] = dict(table.options)
        self.hands = table.hands
        if coverage:
            # a game's coverage counts the expression arms its requires compile and take:
            # compiled again with the covering compiler (the table passed them already)
            check_requires(ExprCompiler(spec, self.players, self.options, self.hands,
                                        cover=self.cover, compiled=self.compiled_clauses),
                           spec, self.players)
        else:
            self.compiled_clauses.update(table.require_clauses)
        self._ec = ExprCompiler(spec, self.players, self.options, self.hands,
                                cover=self.cover if coverage else None,
                                compiled=self.compiled_clauses, keep_sources=keep_sources)
        #: the declared bounds at this table: (low, high) of a deal's scores, and the most
        #: events a deal may have (None where the spec declares none)
        self.score_range, self.max_events = self._bounds()
        #: with 'teams': each seat's team, and how many teams (None and 0 without)
        self.teams: tuple[int, ...] | None = self._ec.teams
        self.team_count = self._ec.team_count
        #: with teams formed in play: a seat's team in a state (None otherwise)
        self.team_now = self._ec.team_now
        procs: list[tuple[str, tuple[str, ...], ast.Block, ast.Span | None]] = [
            (p.name, tuple(x.name for x in p.params), p.body, p.span) for p in spec.procs]
        procs += [("#deal", (), spec.deal.body, None), ("#match", (), spec.match.body, None)]
        #: compiled to note what every seat sees after each statement that moves cards
        #: (memory.glimpse; the bridge's information sees the last card of a trick so)
        self.watch = watch
        self.procs: dict[str, Procedure] = compile_procedures(
            self._ec, procs, self.compiled_clauses, self.cover, watch)
        self.var_inits = [(v.name, v.per_player, self._ec.expr(v.init, frozenset()))
                           for v in spec.vars]
        if spec.directed:
            # the direction of play, public, only where the rules read or set it: clockwise
            # when the match starts
            self.var_inits.insert(0, ("clockwise", False, lambda st, L: True))
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

    def _bounds(self) -> tuple[tuple[int, int] | None, int | None]:
        """The spec's declared ``score_range`` and ``max_events`` at this table."""
        spec = self.spec
        score_range: tuple[int, int] | None = None
        max_events: int | None = None
        if spec.score_range is not None:
            lo, hi = (self._table_number(e) for e in spec.score_range)
            if lo is None or hi is None or lo > hi:
                raise ConfigurationError(
                    f"{spec.name}: 'score_range' must be two numbers, the first at most the "
                    f"second, known once the options are (got {lo}..{hi})")
            score_range = (lo, hi)
        if spec.max_events is not None:
            max_events = self._table_number(spec.max_events)
            if max_events is None or max_events < 1:
                raise ConfigurationError(
                    f"{spec.name}: 'max_events' must be a number of at least 1, known once the "
                    f"options are (got {max_events})")
        return score_range, max_events

    def _table_number(self, e: ast.Expr) -> int | None:
        """A number the table fixes (the checker keeps state out of it), or None."""
        v = self._ec.expr(e, frozenset())(no_state(), {})
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


#: compiled tables kept per spec, the least recently used forgotten first. Each table holds its
#: generated code and the legal events it remembers (up to MEMO_MAX per enumerator), and
#: compiling one takes 20 to 70 ms: a few dozen are plenty
MAX_TABLES_PER_SPEC = 32
#: requests (players, options as given, dealer) whose answer a cache remembers: a table, or
#: why the spec refuses it
_MAX_REQUESTS = 1024
#: specs whose plain tables the process keeps (:func:`tables_of`)
_MAX_SPECS = 16


class Tables:
    """A spec's tables: each request validated once (the table, or why the spec refuses
    it), each table compiled once, both remembered up to a bound (the least recently used
    forgotten first). With ``coverage``, the games record the clauses play enters."""

    def __init__(self, spec: CheckedSpec, coverage: bool = False,
                 max_games: int = MAX_TABLES_PER_SPEC, watch: bool = False) -> None:
        self.spec = spec
        self.coverage = coverage
        #: the games are compiled to watch their moves (see Game's ``watch``)
        self.watch = watch
        self.max_games = max_games
        self._requests: collections.OrderedDict[tuple[int, str, int], Table | str] = \
            collections.OrderedDict()
        self._games: collections.OrderedDict[tuple[int, str, int], Game] = \
            collections.OrderedDict()
        #: how many games this cache has compiled (a test counts them)
        self.compiles = 0

    def table(self, players: int, options: Mapping[str, object] | None = None,
              dealer: int = 0) -> Table:
        """The validated table; ConfigurationError (the same each time) when the spec
        refuses it."""
        if self.coverage or self.watch:
            # validated once per process: a covering cache asks the process's plain one
            return tables_of(self.spec).table(players, options, dealer)
        opts = options or {}
        if not isinstance(opts, Mapping):  # a record's or a request's "options": 5
            return Table.of(self.spec, players, opts, dealer)  # refused, as any bad option
        try:
            request = (players, json.dumps(sorted(opts.items()), default=str), dealer)
        except TypeError:  # keys of mixed kinds: not remembered, validated each time
            return Table.of(self.spec, players, opts, dealer)
        got = self._requests.get(request)
        if got is None:
            try:
                got = Table.of(self.spec, players, opts, dealer)
            except ConfigurationError as e:
                got = str(e)
            if len(self._requests) >= _MAX_REQUESTS:
                self._requests.popitem(last=False)
            self._requests[request] = got
        if isinstance(got, str):
            raise ConfigurationError(got)
        return got

    def accepts(self, players: int, options: Mapping[str, object] | None = None,
                dealer: int = 0) -> bool:
        """True when the spec offers this table (validated, nothing compiled)."""
        try:
            self.table(players, options, dealer)
        except ConfigurationError:
            return False
        return True

    def game(self, players: int, options: Mapping[str, object] | None = None,
             dealer: int = 0) -> Game:
        """The compiled game of the table; ConfigurationError when the spec refuses it."""
        t = self.table(players, options, dealer)
        g = self._games.get(t.key)
        if g is not None:
            self._games.move_to_end(t.key)
            return g
        g = Game(self.spec, players, dealer=dealer, coverage=self.coverage, table=t,
                 watch=self.watch)
        self.compiles += 1
        if len(self._games) >= self.max_games:
            self._games.popitem(last=False)
        self._games[t.key] = g
        return g

    def games(self) -> list[Game]:
        """Every game this cache holds, in the order they were last asked for."""
        return list(self._games.values())


#: the process's plain tables, by spec: each entry holds its spec, so the identity it is
#: found by cannot be another spec's while the entry lives
_BY_SPEC: collections.OrderedDict[int, Tables] = collections.OrderedDict()


def tables_of(spec: CheckedSpec, watch: bool = False) -> Tables:
    """The process's cache of ``spec``'s plain (not covering) tables; with ``watch``, of its
    tables compiled to watch their moves (a cache of their own)."""
    cache = _WATCHING if watch else _BY_SPEC
    t = cache.get(id(spec))
    if t is None or t.spec is not spec:
        t = Tables(spec, watch=watch)
        if len(cache) >= _MAX_SPECS:
            cache.popitem(last=False)
        cache[id(spec)] = t
    else:
        cache.move_to_end(id(spec))
    return t


#: the process's watching tables, by spec, as _BY_SPEC
_WATCHING: collections.OrderedDict[int, Tables] = collections.OrderedDict()
