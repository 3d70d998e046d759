"""Static checks: every rule of the language that can be checked before anything runs.

``check(spec)`` resolves imports, names and types, and either returns a :class:`CheckedSpec` or
raises :class:`SpecCheckError` holding *every* diagnostic found (jlox's Resolver: report all,
then stop). Every check lives here, none in the node classes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, assert_never, cast

import attrs

from rulespec.errors import Diagnostic, SpecCheckError
from rulespec.lang import ast, walk
from rulespec.lang.model import (
    BUILTIN_CONSTANTS,
    BUILTIN_FUNCTIONS,
    BUILTIN_VARS,
    GENERATOR_FUNCTIONS,
    SETTABLE_BUILTINS,
    ActionInfo,
    Binding,
    BoundBuiltin,
    BoundBuiltinVar,
    BoundConstant,
    BoundDef,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    BoundVar,
    BoundZone,
    CheckedSpec,
    OptionInfo,
    ParamInfo,
    Pos,
    Resolution,
    pos,
    value_text,
)
from rulespec.lang.parser import MAX_NESTING, paused_gc
from rulespec.lang.pretty import hook_signature
from rulespec.lang.sources import load_spec, read_spec
from rulespec.lang.types import (
    ANY,
    BOOL,
    CARD,
    INT,
    NONE,
    PZONE,
    STR,
    SUIT,
    ZONE,
    EnumOf,
    ListOf,
    Per,
    T,
    Type,
    compatible,
    describe,
    element,
    has_var,
    substitute,
)

__all__ = ["check", "check_file", "check_text"]

#: the type names a declaration may use, and the types they stand for
_BASIC_TYPES: dict[str, Type] = {"int": INT, "bool": BOOL, "suit": SUIT, "card": CARD, "str": STR}


@attrs.define
class _Scope:
    names: dict[str, Type]
    in_loop: bool = False
    where: str = "match"  # match | deal | procedure | def

    def child(self, **kw: object) -> _Scope:
        new = _Scope(dict(self.names), self.in_loop, self.where)
        for k, v in kw.items():
            setattr(new, k, v)
        return new


@attrs.define
class _Decls:
    """The spec's one-per-spec declarations as found (None where missing), its requires, and
    where each top-level name was first declared."""

    game: ast.GameDecl | None = None
    players: ast.PlayersDecl | None = None
    hands: ast.HandsDecl | None = None
    score_range: ast.ScoreRangeDecl | None = None
    max_events: ast.MaxEventsDecl | None = None
    game_end: ast.GameEndDecl | None = None
    winner: ast.WinnerDecl | None = None
    match: ast.MatchDecl | None = None
    deal: ast.DealDecl | None = None
    requires: list[ast.RequireDecl] = attrs.Factory(list)
    seen: dict[str, ast.Span] = attrs.Factory(dict)
    #: the rulebook's glossary words and computed tables
    terms: list[ast.TermDecl] = attrs.Factory(list)
    tables: list[ast.TableDecl] = attrs.Factory(list)


#: the declarations a spec gives once, each with the _Decls field it fills and its name
_ONCE: dict[type, tuple[str, str]] = {
    ast.GameDecl: ("game", "'game' declaration"),
    ast.PlayersDecl: ("players", "'players' declaration"),
    ast.HandsDecl: ("hands", "'hands' declaration"),
    ast.ScoreRangeDecl: ("score_range", "'score_range' declaration"),
    ast.MaxEventsDecl: ("max_events", "'max_events' declaration"),
    ast.WinnerDecl: ("winner", "'winner' declaration"),
    ast.MatchDecl: ("match", "'match' block"),
    ast.DealDecl: ("deal", "'deal' block"),
}
_OnceDecl = (ast.GameDecl | ast.PlayersDecl | ast.HandsDecl | ast.ScoreRangeDecl |
             ast.MaxEventsDecl | ast.WinnerDecl | ast.MatchDecl | ast.DealDecl)
_ONCE_TYPES = (ast.GameDecl, ast.PlayersDecl, ast.HandsDecl, ast.ScoreRangeDecl,
               ast.MaxEventsDecl, ast.WinnerDecl, ast.MatchDecl, ast.DealDecl)
_NamedItem = (ast.GameEndDecl | ast.ImportDecl | ast.OptionDecl | ast.RequireDecl |
              ast.ZoneDecl | ast.VarDecl | ast.ResultDecl | ast.DefDecl | ast.HookDecl |
              ast.ProcDecl | ast.TermDecl | ast.TableDecl | ast.SectionDecl)


def _cycles(calls: Mapping[str, Sequence[tuple[str, ast.Span]]]
            ) -> list[tuple[list[str], ast.Span]]:
    """The cycles of a call graph (name → the names it calls, each with the call's place),
    each once: its names from where the search met it, and the place of the call that
    closes it. Iterative, so no depth of calls can exhaust Python's stack."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    found: list[tuple[list[str], ast.Span]] = []
    seen: set[frozenset[str]] = set()
    for root in sorted(calls):
        if root in state:
            continue
        path = [root]
        state[root] = 1
        todo = [iter(calls[root])]
        while todo:
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                state[path.pop()] = 2
                continue
            callee, span = step
            if state.get(callee) == 1:
                cycle = path[path.index(callee):]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    found.append((cycle, span))
            elif callee not in state:
                state[callee] = 1
                path.append(callee)
                todo.append(iter(calls[callee]))
    return found


def _snapshot_type(t: Type) -> Type:
    """The type of a snapshot of a value of type ``t``: zones become lists of cards."""
    if t == ZONE:
        return ListOf(CARD)
    if isinstance(t, ListOf):
        return ListOf(_snapshot_type(t.elem))
    return t


class _Checker:
    def __init__(self, items: tuple[ast.Item, ...], sources: dict[str, str],
                 imports: dict[str, ast.Span] | None = None) -> None:
        self.items = items
        self.sources = sources
        #: each imported file, with the ``import`` that first brought it in
        self.imports = dict(imports or {})
        self.diags: list[Diagnostic] = []
        self.options: dict[str, OptionInfo] = {}
        self.enum_values: dict[str, set[str]] = {}  # value -> option names
        self.zones: dict[str, ast.ZoneDecl] = {}
        #: the variables, result fields included (both are read and set alike)
        self.vars: dict[str, ast.VarDecl | ast.ResultDecl] = {}
        self.results: dict[str, ast.ResultDecl] = {}
        #: the ``set`` statements (by position) whose target is a result field
        self.result_sets: dict[Pos, str] = {}
        self.var_types: dict[str, Type] = {}
        self.defs: dict[str, ast.DefDecl] = {}
        self.def_types: dict[str, Type] = {}
        self._inferring: set[str] = set()
        self.procs: dict[str, ast.ProcDecl] = {}
        #: the hooks the modules declare; those missing or supplied with the wrong signature
        #: (their calls are typed by the hook, so the module reports nothing more); the hooks
        #: whose default is in force; the type of each parameter a hook gives a definition
        self.hooks: dict[str, ast.HookDecl] = {}
        self.broken_hooks: set[str] = set()
        self.default_hooks: set[str] = set()
        self.hook_param_types: dict[Pos, Type] = {}
        #: each hook's parameter types and result type, as it declares them
        self.hook_types: dict[str, tuple[list[Type], Type]] = {}
        self.called_procs: set[str] = set()
        self.actions: list[ActionInfo] = []
        #: what each name (and the function of each call) resolved to, and each expression's
        #: type, by position: handed on in CheckedSpec.resolution
        self.bindings: dict[Pos, Binding] = {}
        self.types: dict[Pos, Type] = {}

    def error(self, span: ast.Span | None, msg: str, hint: str | None = None) -> None:
        self.diags.append(Diagnostic(span, msg, hint))

    # ---- declarations -------------------------------------------------------------------
    def run(self) -> CheckedSpec:
        d = self._collect()
        self._check_missing(d)
        self._check_vars()
        self._check_results()
        for r in d.requires:
            self._table_only(r.cond, "a 'require'")
            t = self.expr(r.cond, _Scope({}, where="def"))
            self._want_bool(r.cond, t)
        forms = self._game_end_forms(d.game_end)
        for e, what in self._table_numbers(d):
            self._table_only(e, f"'{what}'")
            self._want(e, INT, self.expr(e, _Scope({}, where="def")),
                       f"{what} is a number, known once the options are")
        for tb in d.tables:
            self._check_table(tb)
        # the call graph first, from the names alone: typing a body types each definition it
        # calls, so a chain of calls too deep (or a cycle) would take the checker's own stack
        # with it; such a spec is reported as that, and its bodies are not typed
        errors = len(self.diags)
        self._no_recursion()
        if len(self.diags) == errors:
            self._check_bodies(d)
        self._reachability(d.match, d.deal)
        self._end_deal_outside_deal(d.match)
        self._results_outside_deal(d.match)

        if self.diags:
            raise SpecCheckError(self.diags, self.sources)
        game, players, winner, match, deal = d.game, d.players, d.winner, d.match, d.deal
        assert game and players and winner and match and deal
        return CheckedSpec(
            name=game.name, title=game.title, doc=game.doc, min_players=players.min,
            max_players=players.max, winner=winner.direction,
            hands=d.hands.count if d.hands is not None else None, game_end_forms=forms,
            score_range=(d.score_range.low, d.score_range.high)
            if d.score_range is not None else None,
            max_events=d.max_events.count if d.max_events is not None else None,
            options=tuple(self.options.values()), requires=tuple(d.requires),
            zones=tuple(self.zones.values()),
            vars=tuple(v for v in self.vars.values() if isinstance(v, ast.VarDecl)),
            results=tuple(self.results.values()), hooks=tuple(self.hooks.values()),
            defs=tuple(self.defs.values()), procs=tuple(self.procs.values()), match=match,
            deal=deal, actions=tuple(self.actions), items=self.items, sources=self.sources,
            resolution=Resolution.of(self.bindings, self.types),
            terms=tuple(d.terms), tables=tuple(d.tables),
        )

    def _check_table(self, tb: ast.TableDecl) -> None:
        """A rulebook table: its rows come from a list, its cells from expressions over the
        row's value, all known once the options are (the book works them out at each table
        size, with no game in play)."""
        what = f"table {tb.name!r}"
        self._table_only(tb.source, what)
        src = self.expr(tb.source, _Scope({}, where="def"))
        elem = element(src)
        if elem is None:
            self.error(tb.source.span, f"{what} takes its rows from a list, not "
                       f"{describe(src)}", "write: for x in LIST")
            elem = ANY
        scope = _Scope({tb.var: elem}, where="def")
        for col in tb.columns:
            self._table_only(col.value, what)
            self.expr(col.value, scope)

    @staticmethod
    def _table_numbers(d: _Decls) -> list[tuple[ast.Expr, str]]:
        """The numbers a table fixes: the hands dealt and the declared bounds."""
        out = [(d.hands.count, "hands")] if d.hands is not None else []
        if d.score_range is not None:
            out += [(d.score_range.low, "score_range"), (d.score_range.high, "score_range")]
        if d.max_events is not None:
            out.append((d.max_events.count, "max_events"))
        return out

    def _collect(self) -> _Decls:
        """Sort the items into declarations; check that each one-per-spec declaration is
        given once and each named one takes a free name."""
        d = _Decls()
        for it in self.items:
            if isinstance(it, _ONCE_TYPES):
                self._collect_once(d, it)
            else:
                self._collect_named(d, it)
        self._resolve_hooks(d)
        return d

    def _collect_once(self, d: _Decls, it: _OnceDecl) -> None:
        """A declaration a spec gives once: the first stands, a second is an error."""
        field, what = _ONCE[type(it)]
        if getattr(d, field) is not None:
            self.error(it.span, f"a spec has one {what}")
        else:
            setattr(d, field, it)
        if isinstance(it, ast.PlayersDecl) and not 1 <= it.min <= it.max:
            self.error(it.span, f"players {it.min} to {it.max} is an empty range")

    def _collect_named(self, d: _Decls, it: _NamedItem) -> None:
        """Any other item: a name claimed, a hook, a require, a term, a table or a section
        heading."""
        match it:
            case ast.GameEndDecl():
                d.game_end = it
                for f in it.forms:
                    if f not in ("deals", "target", "elimination"):
                        self.error(it.span, f"unknown game_end form {f!r}",
                                   "forms: deals, target, elimination")
            case ast.ImportDecl():
                pass
            case ast.OptionDecl():
                if self._claim(d, it.name, it.span, "option"):
                    self._declare_option(it)
            case ast.RequireDecl():
                d.requires.append(it)
            case ast.ZoneDecl():
                if self._claim(d, it.name, it.span, "zone"):
                    self._declare_zone(it)
            case ast.VarDecl():
                if self._claim(d, it.name, it.span, "variable"):
                    self.vars[it.name] = it
            case ast.ResultDecl():
                if self._claim(d, it.name, it.span, "result field"):
                    self.vars[it.name] = it
                    self.results[it.name] = it
            case ast.DefDecl():
                if self._claim(d, it.name, it.span, "definition"):
                    self.defs[it.name] = it
            case ast.HookDecl():
                self._declare_hook(it)
            case ast.ProcDecl():
                if self._claim(d, it.name, it.span, "procedure"):
                    self.procs[it.name] = it
            case ast.TermDecl():
                if any(x.word == it.word for x in d.terms):
                    self.error(it.span, f"the term {it.word!r} is explained twice")
                d.terms.append(it)
            case ast.TableDecl():
                if any(x.name == it.name for x in d.tables):
                    self.error(it.span, f"table {it.name!r} is already declared",
                               "give each table its own name")
                d.tables.append(it)
            case ast.SectionDecl():
                if not it.title.strip():
                    self.error(it.span, "a section needs a title", 'write section "Title"')
            case _:
                assert_never(it)

    # ---- hooks ------------------------------------------------------------------------------
    def _declare_hook(self, h: ast.HookDecl) -> None:
        """Record a module's hook; its name is claimed once it is known what supplies it."""
        if h.name in self.hooks:
            self.error(h.span, f"hook {h.name!r} is already declared (first at "
                       f"{self.hooks[h.name].span})", "declare each hook once")
        elif h.name in BUILTIN_CONSTANTS or h.name in BUILTIN_VARS \
                or h.name in BUILTIN_FUNCTIONS:
            self.error(h.span, f"hook {h.name!r} is already defined (a built-in name)",
                       "choose another name")
        else:
            self.hooks[h.name] = h
            for prm in h.params:
                if prm.type is None:
                    self.error(prm.span, f"parameter {prm.name!r} of hook {h.name!r} has no "
                               "type", f"write {prm.name}: TYPE")
            self.hook_types[h.name] = (
                [self._hook_type(p.type) if p.type is not None else ANY for p in h.params],
                self._hook_type(h.type))

    def _hook_type(self, t: ast.TypeExpr) -> Type:
        """A type written in a hook: a declaration's types, and ``zone`` (what a hand plays
        from, say)."""
        bare = t.inner if isinstance(t, ast.TypeOptional) else t
        if isinstance(bare, ast.TypeName) and bare.name == "zone":
            return ZONE
        return self._type_of_texpr(t)

    @staticmethod
    def _hook_hint(h: ast.HookDecl) -> str:
        return f"the module declares it at {Path(h.span.source).name}:{h.span.line}: hook " \
            f"{hook_signature(h)}"

    def _resolve_hooks(self, d: _Decls) -> None:
        """Match each hook with the definition of the importing spec that supplies it (the
        number of parameters, their types, the result), or put its default in force; report
        each hook missing or mistyped once, at the ``import`` that brought its module in."""
        matched: list[tuple[ast.HookDecl, ast.Span]] = []
        for name, h in self.hooks.items():
            site = self.imports.get(h.span.source)
            if site is None:
                self.error(h.span, f"hook {name!r} is declared in the main spec; a hook belongs "
                           "in a module, for the spec that imports it to define",
                           f"write: def {name}(...) = ...")
            module = Path(h.span.source).stem
            params = self.hook_types[name][0]
            df = self.defs.get(name)
            if df is None and name in d.seen:
                if site is not None:
                    self.error(site, f"the module {module!r} needs a definition "
                               f"{hook_signature(h)}, but {name!r} is not a definition here "
                               f"(at {d.seen[name]})", self._hook_hint(h))
                self.broken_hooks.add(name)
            elif df is None and h.default is not None:
                d.seen[name] = h.span
                self.defs[name] = ast.DefDecl(name, h.params, h.default, h.doc, span=h.span)
                self.default_hooks.add(name)
                for prm, t in zip(h.params, params, strict=True):
                    self.hook_param_types[pos(prm.span)] = t
                matched.append((h, h.default.span))
            elif df is None:
                if site is not None:
                    self.error(site, f"the module {module!r} needs a definition "
                               f"{hook_signature(h)}", self._hook_hint(h))
                self.broken_hooks.add(name)
            elif site is not None and self._hook_params_fit(h, df, params, module, site):
                matched.append((h, site))
            elif site is not None:
                self.broken_hooks.add(name)
        # every definition is known now: keep them in the order of the spec's text
        order = [it.name for it in self.items
                 if (isinstance(it, ast.DefDecl) and self.defs.get(it.name) is it)
                 or (isinstance(it, ast.HookDecl) and it.name in self.default_hooks
                     and self.hooks.get(it.name) is it)]
        self.defs = {n: self.defs[n] for n in order}
        for h, where in matched:
            want, got = self.hook_types[h.name][1], self._def_type(h.name)
            if compatible(want, got):
                continue
            self.broken_hooks.add(h.name)
            if h.name in self.default_hooks:
                self._hook_default_fits(h, want, got)
            else:
                self.error(where, f"{h.name} must give {describe(want)}, as the module "
                           f"{Path(h.span.source).stem!r} declares, not {describe(got)}",
                           self._hook_hint(h))

    def _hook_default_fits(self, h: ast.HookDecl, want: Type, got: Type) -> None:
        if h.default is not None and not compatible(want, got):
            self.error(h.default.span, f"the default of hook {h.name!r} gives {describe(got)}, "
                       f"not {describe(want)}")

    def _hook_params_fit(self, h: ast.HookDecl, df: ast.DefDecl, params: list[Type],
                         module: str, site: ast.Span) -> bool:
        """Whether the definition ``df`` takes the hook's parameters (reported at ``site`` if
        not); a parameter without a written type takes the hook's."""
        if len(df.params) != len(h.params):
            self.error(site, f"{h.name} must take {len(h.params)} parameter(s), as the module "
                       f"{module!r} declares, not {len(df.params)}", self._hook_hint(h))
            return False
        fit = True
        for mine, want in zip(df.params, params, strict=True):
            if mine.type is None:
                self.hook_param_types[pos(mine.span)] = want
                continue
            got = self._hook_type(mine.type)
            if not (compatible(got, want) and compatible(want, got)):
                self.error(site, f"{h.name} must take {describe(want)} for {mine.name!r}, as "
                           f"the module {module!r} declares, not {describe(got)}",
                           self._hook_hint(h))
                fit = False
        return fit

    def _hook_call(self, e: ast.Call, f: str, args: tuple[ast.Expr, ...],
                   targs: list[Type]) -> Type:
        """A call of a hook that is missing or mistyped (reported at the import): checked
        against the hook's own signature, and of the hook's type."""
        h = self.hooks[f]
        if f in self.defs:
            self._bind(e, BoundDef(f))
        if len(args) != len(h.params):
            self.error(e.span, f"{f!r} takes {len(h.params)} argument(s), not {len(args)}")
        else:
            for a, t, prm, want in zip(args, targs, h.params, self.hook_types[f][0],
                                       strict=True):
                if not compatible(want, t):
                    self.error(a.span, f"{f!r} expects {describe(want)} for {prm.name!r}, "
                               f"not {describe(t)}")
        return self.hook_types[f][1]

    def _claim(self, d: _Decls, name: str, span: ast.Span, what: str) -> bool:
        """Record a top-level name; report it if it is already taken, by the spec or a
        built-in."""
        if name in d.seen or name in BUILTIN_CONSTANTS or name in BUILTIN_VARS \
                or name in BUILTIN_FUNCTIONS:
            where = f" (first at {d.seen[name]})" if name in d.seen else " (a built-in name)"
            self.error(span, f"{what} {name!r} is already defined{where}",
                       "choose another name")
            return False
        d.seen[name] = span
        return True

    def _declare_zone(self, z: ast.ZoneDecl) -> None:
        """Record a zone; check that it says who may see it, and that only a per-player zone
        is visible to its owner."""
        self.zones[z.name] = z
        if z.visibility is None:
            self.error(z.span, f"zone {z.name!r} does not say who may see it",
                       "add 'visible to all', 'visible to owner' or "
                       "'visible to nobody'")
        elif z.visibility == "owner" and not z.per_player:
            self.error(z.span, f"shared zone {z.name!r} has no owner",
                       "use 'visible to all' or 'visible to nobody'")

    def _check_missing(self, d: _Decls) -> None:
        """Report each declaration a spec must have and this one lacks."""
        top = self.items[0].span if self.items else None
        if d.game is None:
            self.error(top, "the spec has no 'game' declaration",
                       'start with: game NAME title "Title"')
        if d.players is None:
            self.error(top, "the spec does not say how many players it takes",
                       "add: players MIN to MAX")
        if d.winner is None:
            self.error(top, "the spec does not say who wins",
                       "add: winner lowest total, or winner highest total")
        if d.match is None:
            self.error(top, "the spec has no 'match' block", "add: match { loop { run deal } }")
        if d.deal is None:
            self.error(top, "the spec has no 'deal' block", "add: deal { ... }")

    def _check_vars(self) -> None:
        """Type every variable, then check that its starting value fits that type and can be
        worked out when the table is set up."""
        for name, v in self.vars.items():
            self.var_types[name] = self._var_type(v)
        for v in self.vars.values():
            self._table_only(v.init, f"the starting value of {v.name!r}")
            t = self.expr(v.init, _Scope({}, where="def"))
            want = self.var_types[v.name]
            if isinstance(want, Per):
                want = want.elem
            if not compatible(want, t):
                what = "result field" if isinstance(v, ast.ResultDecl) else "variable"
                self.error(v.init.span, f"{what} {v.name!r} is {describe(want)} but starts as "
                           f"{describe(t)}")

    def _check_results(self) -> None:
        """A result field is written into each deal's entry under its name, beside ``scores``
        and the flag of ``end deal as FLAG``: it may be called neither."""
        flags = {n.flag for n in walk.descendants(self.items)
                 if isinstance(n, ast.EndDeal) and n.flag is not None}
        for r in self.results.values():
            if r.name == "scores":
                self.error(r.span, "result field 'scores' would hide the deal's scores",
                           "choose another name")
            elif r.name in flags:
                self.error(r.span, f"result field {r.name!r} is also a flag of 'end deal as "
                           f"{r.name}'", "choose another name")

    def _game_end_forms(self, game_end: ast.GameEndDecl | None) -> tuple[str, ...]:
        """The game_end forms in force; check that each declared form has its option."""
        if game_end is None:
            # no game_end declaration: the options the spec declares say how the game ends
            return tuple(f for f in ("deals", "target") if f in self.options)
        for f in game_end.forms:
            need = "deals" if f == "deals" else "target"
            if f in ("deals", "target", "elimination") and need not in self.options:
                self.error(game_end.span, f"game_end {f}(...) sets option {need!r}, which "
                           "the spec does not declare", f"add: option {need}: int = ...")
        return game_end.forms

    def _check_bodies(self, d: _Decls) -> None:
        """Check the definitions, then the procedures, the deal and the match."""
        for df in self.defs.values():
            self._def_type(df.name)
        for h in self.hooks.values():
            if h.default is not None and h.name not in self.default_hooks:
                # a default the spec replaces is checked all the same: it is the module's code
                params, want = self.hook_types[h.name]
                scope = _Scope({p.name: t for p, t in zip(h.params, params, strict=True)},
                               where="def")
                self._hook_default_fits(h, want, self.expr(h.default, scope))
        for p in self.procs.values():
            scope = _Scope({}, where="procedure")
            for prm in p.params:
                scope.names[prm.name] = self._param_type(prm)
            self.block(p.body, scope)
        if d.deal is not None:
            self.block(d.deal.body, _Scope({}, where="deal"))
        if d.match is not None:
            self.block(d.match.body, _Scope({}, where="match"))

    def _declare_option(self, o: ast.OptionDecl) -> None:
        t = o.type
        if isinstance(o.default, ast.ValueCall) and not isinstance(t, ast.TypeEnum):
            self.error(o.default.span, f"option {o.name!r} is not a set of values; its default "
                       "takes no arguments")
            default: int | str | bool = o.default.name
        else:
            default = cast("int | str", o.default)
        if o.bounds is not None and not (isinstance(t, ast.TypeName) and t.name == "int"):
            self.error(o.span, f"option {o.name!r}: only an int option takes a range",
                       "write 'int in LO..HI'")
        match t:
            case ast.TypeName(name="bool"):
                if default not in ("true", "false"):
                    self.error(o.span, f"option {o.name!r} is a bool; its default must be true "
                               "or false")
                    default = False
                else:
                    default = default == "true"
                info = OptionInfo(o.name, "bool", (True, False), default, o.ref, o.doc, o.span)
            case ast.TypeName(name="int"):
                if not isinstance(default, int):
                    self.error(o.span, f"option {o.name!r} is an int; its default must be a "
                               "number")
                    default = 0
                if o.bounds is not None:
                    lo, hi = o.bounds
                    if lo > hi:
                        self.error(o.span, f"option {o.name!r}: the range {lo}..{hi} is empty",
                                   "write the smaller end first")
                    elif not lo <= default <= hi:
                        self.error(o.span, f"the default {default} of option {o.name!r} is not "
                                   f"in its range {lo}..{hi}")
                info = OptionInfo(o.name, "int", (), default, o.ref, o.doc, o.span, o.bounds)
            case ast.TypeEnum(values=items) if any(isinstance(v, ast.ParamValue)
                                                   for v in items):
                info = self._declare_parametric(o, items)
            case ast.TypeEnum(values=values):
                if isinstance(o.default, ast.ValueCall):
                    self.error(o.default.span, f"no value of option {o.name!r} takes "
                               "arguments", "write the default without them")
                    default = o.default.name
                if len(set(values)) != len(values):
                    self.error(t.span, f"option {o.name!r} lists a value twice")
                if default not in values:
                    self.error(o.span, f"the default {default!r} of option {o.name!r} is not "
                               "one of its values",
                               "values: " + ", ".join(str(v) for v in values))
                for v in values:
                    if isinstance(v, str):
                        self.enum_values.setdefault(v, set()).add(o.name)
                info = OptionInfo(o.name, "enum", tuple(cast("tuple[int | str, ...]", values)),
                                  default, o.ref, o.doc, o.span,
                                  value_docs=_value_docs(t))
            case _:
                self.error(t.span, f"option {o.name!r} has an unknown type",
                           "use bool, int, or a set of values such as {a, b}")
                info = OptionInfo(o.name, "int", (), 0, o.ref, o.doc, o.span)
        self.options[o.name] = info

    def _declare_parametric(self, o: ast.OptionDecl,
                            items: tuple[int | str | ast.ParamValue, ...]) -> OptionInfo:
        """An enumerated option some of whose values take typed parameters: the values, their
        parameters (int or bool, a range on an int) and the default with its arguments."""
        names: list[int | str] = []
        params: list[tuple[str, tuple[ParamInfo, ...]]] = []
        kinds: dict[str, str] = {}  # parameter name -> its type, across the values
        for v in items:
            if not isinstance(v, ast.ParamValue):
                names.append(v)
                continue
            names.append(v.name)
            ps: list[ParamInfo] = []
            for prm in v.params:
                if prm.type not in ("int", "bool"):
                    self.error(prm.span, f"parameter {prm.name!r} of {v.name} has the type "
                               f"{prm.type!r}; a value's parameter is an int or a bool")
                    continue
                if prm.bounds is not None:
                    if prm.type != "int":
                        self.error(prm.span, f"parameter {prm.name!r} of {v.name}: only an "
                                   "int takes a range")
                    elif prm.bounds[0] > prm.bounds[1]:
                        self.error(prm.span, f"parameter {prm.name!r} of {v.name}: the range "
                                   f"{prm.bounds[0]}..{prm.bounds[1]} is empty",
                                   "write the smaller end first")
                if any(q.name == prm.name for q in ps):
                    self.error(prm.span, f"{v.name} names the parameter {prm.name!r} twice")
                    continue
                if kinds.setdefault(prm.name, prm.type) != prm.type:
                    self.error(prm.span, f"parameter {prm.name!r} of {v.name} is of type "
                               f"{prm.type}, but of type {kinds[prm.name]} in another value "
                               f"of option {o.name!r}", "give the two different names")
                ps.append(ParamInfo(prm.name, prm.type,
                                    prm.bounds if prm.type == "int" else None))
            params.append((v.name, tuple(ps)))
        if len(set(names)) != len(names):
            self.error(o.type.span, f"option {o.name!r} lists a value twice")
        for n in names:
            if isinstance(n, str):
                self.enum_values.setdefault(n, set()).add(o.name)
        info = OptionInfo(o.name, "enum", tuple(names), names[0], o.ref, o.doc, o.span,
                          params=tuple(params), value_docs=_value_docs(o.type))
        d = o.default
        if isinstance(d, ast.ValueCall):
            args: list[object] = [a if isinstance(a, int) else
                                  {"true": True, "false": False}.get(a, a) for a in d.args]
            text = f"{d.name}(" + ", ".join(str(a) for a in d.args) + ")"
            ok = all(isinstance(a, (int, bool)) for a in args)
            default: object = value_text(d.name, tuple(cast("list[int | bool]", args))) \
                if ok else text
        else:
            default, text = d, str(d)
        why = info.check_value(default)
        if why is not None:
            self.error(d.span if isinstance(d, ast.ValueCall) else o.span,
                       f"the default {text} of option {o.name!r} is not one of its values: "
                       f"{why}", "values: " + ", ".join(info.describe_value(n) for n in names))
            return info
        return attrs.evolve(info, default=cast("int | str", default))

    def _type_of_texpr(self, t: ast.TypeExpr) -> Type:
        match t:
            case ast.TypeName(name=n):
                if n in _BASIC_TYPES:
                    return _BASIC_TYPES[n]
                self.error(t.span, f"unknown type {n!r}", "types: int, bool, suit, card, "
                           "list of T, T? (optional)")
                return ANY
            case ast.TypeOptional(inner=i):
                return self._type_of_texpr(i)
            case ast.TypeList(elem=e):
                if e not in _BASIC_TYPES:
                    self.error(t.span, f"unknown type {e!r}")
                    return ListOf(ANY)
                return ListOf(_BASIC_TYPES[e])
            case ast.TypeEnum():
                return STR
            case _:
                assert_never(t)
        return ANY  # pragma: no cover

    def _var_type(self, v: ast.VarDecl | ast.ResultDecl) -> Type:
        t = self._type_of_texpr(v.type)
        return Per(t) if v.per_player else t

    def _param_type(self, p: ast.Param) -> Type:
        hooked = self.hook_param_types.get(pos(p.span))
        if hooked is not None:
            return hooked
        return self._type_of_texpr(p.type) if p.type is not None else ANY

    def _def_type(self, name: str) -> Type:
        if name in self.def_types:
            return self.def_types[name]
        if name in self._inferring:
            return ANY  # recursion: the result type is not needed to check the call
        d = self.defs[name]
        self._inferring.add(name)
        scope = _Scope({p.name: self._param_type(p) for p in d.params}, where="def")
        t = self.expr(d.body, scope)
        self._inferring.discard(name)
        self.def_types[name] = t
        return t

    def _table_only(self, e: ast.Expr, what: str) -> None:
        """``e`` is evaluated when the table is set up: it may read options, the player count
        and constants, not variables, zones or the dealer (directly or through definitions)."""
        seen: set[str] = set()

        def reads(x: Any, params: frozenset[str]) -> ast.Name | None:
            if isinstance(x, ast.Name):
                n = x.id
                if n in params:
                    return None
                if n in self.vars or n in self.zones or n in BUILTIN_VARS:
                    return x
                return None
            if isinstance(x, (ast.Call, ast.GenCall)) and x.func in self.defs \
                    and x.func not in seen:
                seen.add(x.func)
                d = self.defs[x.func]
                hit = reads(d.body, frozenset(p.name for p in d.params))
                if hit is not None:
                    return hit
            if isinstance(x, (ast.Comprehension, ast.GenCall)):
                params = params | {x.var}
            if attrs.has(type(x)) and not isinstance(x, ast.Span):
                for f in attrs.fields(type(x)):
                    hit = reads(getattr(x, f.name), params)
                    if hit is not None:
                        return hit
            elif isinstance(x, tuple):
                for y in x:
                    hit = reads(y, params)
                    if hit is not None:
                        return hit
            return None

        hit = reads(e, frozenset())
        if hit is not None:
            self.error(hit.span, f"{what} is worked out when the table is set up, before any "
                       f"card is dealt, so it cannot read {hit.id!r}",
                       "use options, player_count and constants only")

    def _run_outside_deal(self, match: ast.MatchDecl | None) -> Iterator[tuple[str, ast.Block]]:
        """Each procedure the match block runs outside a deal (directly or through other
        procedures), once, with its body."""
        if match is None:
            return
        seen: set[str] = set()
        todo = list(_calls_in(match.body))
        while todo:
            n = todo.pop()
            if n in seen or n not in self.procs:
                continue
            seen.add(n)
            body = self.procs[n].body
            yield n, body
            todo.extend(_calls_in(body))

    def _end_deal_outside_deal(self, match: ast.MatchDecl | None) -> None:
        """An 'end deal' reached from the match without a deal running is an error."""
        for n, body in self._run_outside_deal(match):
            for s in _walk(body):
                if isinstance(s, ast.EndDeal):
                    self.error(s.span, f"'end deal' in procedure {n!r}, which the match runs "
                               "outside a deal", "end a deal only from the deal block and "
                               "the procedures it runs")

    def _results_outside_deal(self, match: ast.MatchDecl | None) -> None:
        """Outside a deal only the match block itself reads and sets result fields (the
        last deal's entry, after its 'run deal'): a procedure the match runs, or a definition
        such a procedure uses, may not."""
        if not self.results:
            return
        for n, body in self._run_outside_deal(match):
            hit = self._result_use(body, set())
            if hit is not None:
                span, verb, field = hit
                self.error(span, f"procedure {n!r}, which the match runs outside a deal, "
                           f"{verb} the result field {field!r}",
                           "read and set result fields in the deal, or in the match block "
                           "itself after 'run deal'")

    def _result_use(self, node: object, defs_seen: set[str]
                    ) -> tuple[ast.Span, str, str] | None:
        """The first read or set of a result field in ``node``, through the definitions it
        calls: (where, "reads" or "sets", the field)."""
        for x in walk.descendants(node):
            if isinstance(x, ast.Set) and self.result_sets.get(pos(x.span)) is not None:
                return x.span, "sets", x.name
            if isinstance(x, ast.Name):
                b = self.bindings.get(pos(x.span))
                if isinstance(b, BoundVar) and b.name in self.results:
                    return x.span, "reads", b.name
            if isinstance(x, (ast.Call, ast.GenCall)) and x.func in self.defs \
                    and x.func not in defs_seen:
                defs_seen.add(x.func)
                hit = self._result_use(self.defs[x.func].body, defs_seen)
                if hit is not None:
                    return hit
        return None

    # ---- reachability ---------------------------------------------------------------------
    def _no_recursion(self) -> None:
        """No definition or procedure may call itself, directly or through others: a
        definition's value and a procedure's steps are then always finite to compute, and no
        Python limit can be reached by a spec (repetition is written with loop, while, repeat,
        for, or a comprehension). Each cycle is reported once, at the call that closes it."""
        def_calls = {n: [(c.func, c.span) for c in walk.descendants(d.body)
                         if isinstance(c, ast.Call) and c.func in self.defs]
                     for n, d in self.defs.items()}
        proc_calls = {n: [(c.name, c.span) for c in walk.descendants(p.body)
                          if isinstance(c, ast.CallStmt) and c.name in self.procs]
                      for n, p in self.procs.items()}
        cyclic = False
        for calls, what, hint in (
                (def_calls, "definition", "a definition cannot call itself; write the "
                 "repetition as a comprehension, or as a loop in a procedure"),
                (proc_calls, "procedure", "a procedure cannot call itself; repeat its steps "
                 "with loop, while, repeat or for")):
            for cycle, span in _cycles(calls):
                cyclic = True
                path = " → ".join([*cycle, cycle[0]])
                self.error(span, f"{what} {cycle[0]!r} calls itself ({path}): recursion is "
                           "not allowed", hint)
        if not cyclic:  # the depths are worked out over a graph with no cycle
            self._call_depths()

    def _call_depths(self) -> None:
        """No definition or procedure may nest deeper than MAX_NESTING levels counting what
        it calls: a call is as deep as the body it stands for. The compiler expands a
        definition in place and a procedure's code calls the next, so a chain of a thousand
        definitions each calling the one before is as deep, for Python, as an expression of
        a thousand levels (the parser bounds only what is written in one place). Worked out
        over the call graph in order, with no recursion of our own (there is no cycle)."""
        graph: dict[str, ast.DefDecl | ast.ProcDecl] = {**self.defs, **self.procs}
        # each body's calls: (callee, depth of the call in the body); a procedure's calls of
        # procedures are statements, its calls of definitions expressions
        calls: dict[str, list[tuple[str, int, ast.Span]]] = {}
        own: dict[str, int] = {}
        for name, d in graph.items():
            calls[name] = []
            deepest = 0
            for node, depth in walk.with_depths(d.body):
                deepest = max(deepest, depth)
                if isinstance(node, ast.Call) and node.func in graph:
                    calls[name].append((node.func, depth, node.span))
                elif isinstance(node, ast.CallStmt) and node.name in graph:
                    calls[name].append((node.name, depth, node.span))
            own[name] = deepest
        total: dict[str, int] = {}
        for name in graph:
            stack = [name]
            while stack:
                top = stack[-1]
                if top in total:
                    stack.pop()
                    continue
                waiting = [c for c, _, _ in calls[top] if c not in total]
                if waiting:
                    stack.extend(waiting)
                    continue
                stack.pop()
                # the callee's body stands one level below its call: a call at the top of a
                # body (def d(v) = e(v + 1)) still nests the chain one deeper
                total[top] = max([own[top]] + [k + 1 + total[c] for c, k, _ in calls[top]])
        self.call_depths = total
        for name, d in graph.items():
            if total[name] <= MAX_NESTING:
                continue
            # the first call that takes this body past the limit, and the chain below it
            over = [(c, sp) for c, k, sp in calls[name] if k + 1 + total[c] > MAX_NESTING]
            if not over or total[over[0][0]] > MAX_NESTING:
                continue  # reported at the callee, where the chain first passes the limit
            chain = [name, over[0][0]]
            while len(chain) < 6 and calls[chain[-1]]:
                chain.append(max(calls[chain[-1]], key=lambda x: x[1] + 1 + total[x[0]])[0])
            what = "definition" if isinstance(d, ast.DefDecl) else "procedure"
            self.error(over[0][1], f"{what} {name!r} nests more than {MAX_NESTING} levels deep "
                       f"counting what it calls ({' → '.join(chain)}"
                       f"{' → ...' if len(chain) == 6 else ''}): a call is as deep as the body "
                       "it stands for",
                       "a chain of definitions or procedures each calling the next counts one "
                       "level for each; compute the steps with a comprehension or a loop")

    def _reachability(self, match: ast.MatchDecl | None, deal: ast.DealDecl | None) -> None:
        calls: dict[str, set[str]] = {}
        for name, p in self.procs.items():
            calls[name] = set(_calls_in(p.body))
        reach: set[str] = set()
        todo = [c for b in (match, deal) if b is not None for c in _calls_in(b.body)]
        while todo:
            n = todo.pop()
            if n in reach or n not in calls:
                continue
            reach.add(n)
            todo.extend(calls[n])
        # the main file is the one that declares the game, however the spec was loaded
        # (check(parse(text)) has no sources to tell it)
        main = next((it.span.source for it in self.items if isinstance(it, ast.GameDecl)),
                    None)
        for name, p in self.procs.items():
            # an imported module is a library: its unused procedures are not dead phases
            if name not in reach and p.span.source == main:
                self.error(p.span, f"procedure {name!r} is never reached from the match or the "
                           "deal", "call it, or remove it")
        if match is not None and not any(isinstance(s, ast.RunDeal) for s in _walk(match.body)):
            self.error(match.span, "the match never runs a deal", "add 'run deal' to the match")

    # ---- loops that cannot stop -----------------------------------------------------------
    def _loop_moves(self, body: ast.Block, changes: bool) -> bool:
        """Whether a loop's body can make progress: it holds (here or in a procedure it calls)
        a decision, a chance event or a way out of the loop (a ``break`` of its own, a
        ``return``, an ``end``, a ``run deal``); with ``changes``, any statement that changes
        the game counts too (a ``while`` whose condition may change)."""
        seen: set[str] = set()
        stops = (ast.Choose, ast.Shuffle, ast.Reshuffle, ast.Bury, ast.Return, ast.EndDeal,
                 ast.EndMatch, ast.RunDeal)
        change = (ast.Set, ast.Move, ast.Fill, ast.DealCards)

        def walk(b: ast.Block, nested: bool, called: bool) -> bool:
            # nested: inside an inner loop (its break is not ours); called: inside a procedure
            # the loop calls (its break and return leave the procedure, not the loop)
            for s in b.stmts:
                if isinstance(s, stops) and not (called and isinstance(s, ast.Return)):
                    return True
                if isinstance(s, ast.Break) and not nested and not called:
                    return True
                if changes and isinstance(s, change):
                    return True
                if isinstance(s, ast.CallStmt) and s.name in self.procs and s.name not in seen:
                    seen.add(s.name)
                    if changes or walk(self.procs[s.name].body, True, True):
                        return True
                inner = nested or isinstance(s, (ast.While, ast.Loop, ast.For, ast.Repeat))
                for f in attrs.fields(type(s)):
                    v = getattr(s, f.name)
                    if isinstance(v, ast.Block) and walk(v, inner, called):
                        return True
                    if isinstance(v, ast.If) and walk(ast.Block((v,)), inner, called):
                        return True
            return False

        return walk(body, False, False)

    # ---- statements -----------------------------------------------------------------------
    def block(self, b: ast.Block, scope: _Scope) -> None:
        inner = scope.child()
        for s in b.stmts:
            self.stmt(s, inner)

    def stmt(self, s: ast.Stmt, scope: _Scope) -> None:
        match s:
            case ast.Let(name=n, value=v):
                self._check_let(s, n, v, scope)
            case ast.Set(name=n, index=idx, value=v):
                self._check_set(s, n, idx, v, scope)
            case ast.If(cond=c, then=th, else_=el):
                self._want_bool(c, self.expr(c, scope))
                self.block(th, scope)
                if isinstance(el, ast.Block):
                    self.block(el, scope)
                elif isinstance(el, ast.If):
                    self.stmt(el, scope)
            case ast.While(cond=c, body=b):
                self._want_bool(c, self.expr(c, scope))
                self.block(b, scope.child(in_loop=True))
                if not self._loop_moves(b, changes=True):
                    self.error(s.span, "this 'while' can never stop: its body changes "
                               "nothing, so its condition stays as it is",
                               "change something in the body, or add a decision or a 'break'")
            case ast.Loop(body=b):
                self.block(b, scope.child(in_loop=True))
                if not self._loop_moves(b, changes=False):
                    self.error(s.span, "this 'loop' can never stop: its body holds no "
                               "decision, no chance event and no way out",
                               "add a 'choose', a 'break', or an 'end deal'")
            case ast.For(var=v, source=src, cond=c, body=b):
                inner = scope.child(in_loop=True)
                inner.names[v] = self._iter_elem(src, scope)
                if c is not None:
                    self._want_bool(c, self.expr(c, inner))
                self.block(b, inner)
            case ast.Repeat(count=c, body=b):
                self._want(c, INT, self.expr(c, scope), "repeat needs a number")
                self.block(b, scope.child(in_loop=True))
            case ast.Move(what=w, src=a, dst=z):
                self._check_move(w, a, z, scope)
            case ast.Fill(zone=z, cards=c):
                self._want_zone(z, scope)
                self._want(c, ListOf(CARD), self.expr(c, scope), "fill needs a list of cards")
            case ast.DealCards(count=c, src=a, zone=zn, seats=ss):
                self._check_deal_cards(s, c, a, zn, ss, scope)
            case ast.Shuffle(zone=z):
                self._want_zone(z, scope)
            case ast.Reshuffle(src=a, dst=z) | ast.Bury(src=a, dst=z):
                self._want_zone(a, scope)
                self._want_zone(z, scope)
            case ast.CallStmt(name=n, args=args):
                self._check_proc_call(s, n, args, scope)
            case ast.Choose(seat=seat, alternatives=alts):
                self._check_choose(s, seat, alts, scope)
            case ast.Break() | ast.Continue():
                if not scope.in_loop:
                    word = "break" if isinstance(s, ast.Break) else "continue"
                    self.error(s.span, f"'{word}' outside a loop")
            case ast.Return():
                if scope.where != "procedure":
                    self.error(s.span, "'return' is allowed only in a procedure")
            case ast.EndDeal(scoring=fn):
                self._check_end_deal(s, fn, scope)
            case ast.EndMatch(winners=w):
                self._want(w, ListOf(INT), self.expr(w, scope), "winners is a list of seats")
            case ast.RunDeal():
                if scope.where != "match":
                    self.error(s.span, "'run deal' belongs in the match block")
            case ast.Step(title=t, body=b):
                if not t.strip():
                    self.error(s.span, "a step needs a title", 'write step "Title" { ... }')
                self.block(b, scope)
            case _:
                assert_never(s)

    def _check_let(self, s: ast.Let, n: str, v: ast.Expr, scope: _Scope) -> None:
        """Bind ``n`` to the type of ``v``; a let may not hide a variable, option or
        constant."""
        t = self.expr(v, scope)
        if n in self.vars or n in self.options or n in BUILTIN_CONSTANTS:
            self.error(s.span, f"'let {n}' hides the {self._kind(n)} {n!r}",
                       "choose another name")
        # a let takes a snapshot: a zone bound by let is the list of cards it held, a list of
        # zones a list of such lists (the compiler stores tuples all the way down)
        scope.names[n] = _snapshot_type(t)

    def _check_move(self, w: ast.Expr, a: ast.Expr, z: ast.Expr, scope: _Scope) -> None:
        """A move takes a card or a list of cards from one zone to another."""
        tw = self.expr(w, scope)
        if not (tw in (CARD, ANY) or element(tw) in (CARD, ANY)):
            self.error(w.span, f"move expects a card or a list of cards, not "
                       f"{describe(tw)}")
        self._want_zone(a, scope)
        self._want_zone(z, scope)

    def _check_deal_cards(self, s: ast.DealCards, c: ast.Expr, a: ast.Expr, zn: str,
                          ss: ast.Expr, scope: _Scope) -> None:
        """A deal takes a number of cards from a zone into a per-player zone, for a list of
        seats."""
        self._want(c, INT, self.expr(c, scope), "deal needs a number of cards")
        self._want_zone(a, scope)
        zd = self.zones.get(zn)
        if zd is None or not zd.per_player:
            self.error(s.span, f"deal needs a per-player zone, and {zn!r} is not one")
        self._want(ss, ListOf(INT), self.expr(ss, scope), "deal needs a list of seats")

    def _check_choose(self, s: ast.Choose, seat: ast.Expr,
                      alts: tuple[ast.Alternative, ...], scope: _Scope) -> None:
        """A decision names the seat that decides, and is not made inside a definition."""
        self._want(seat, INT, self.expr(seat, scope), "choose needs the seat that "
                   "decides")
        if scope.where == "def":  # pragma: no cover - grammar prevents it
            self.error(s.span, "a decision cannot appear in a definition")
        for alt in alts:
            self._alternative(alt, scope)

    def _check_end_deal(self, s: ast.EndDeal, fn: str, scope: _Scope) -> None:
        """'end deal' is not written in the match, and scores with a definition of one seat
        that gives a number."""
        if scope.where == "match":
            self.error(s.span, "'end deal' belongs inside the deal, not the match")
        d = self.defs.get(fn)
        if d is None:
            self.error(s.span, f"no definition {fn!r} to score the deal with",
                       f"add: def {fn}(p: int) = ...")
        elif len(d.params) != 1:
            self.error(s.span, f"the scoring definition {fn!r} must take one seat")
        else:
            self._want(d.body, INT, self._def_type(fn), "a score is a number")

    def _kind(self, n: str) -> str:
        if n in self.results:
            return "result field"
        if n in self.vars:
            return "variable"
        if n in self.options:
            return "option"
        return "built-in"

    def _check_set(self, s: ast.Set, n: str, idx: ast.Expr | None, v: ast.Expr,
                   scope: _Scope) -> None:
        tv = self.expr(v, scope)
        if n in self.options:
            self.error(s.span, f"option {n!r} cannot be set while the game runs",
                       "options are fixed when the match starts")
            return
        if n in BUILTIN_VARS and n not in SETTABLE_BUILTINS:
            self.error(s.span, f"{n!r} is kept by the rules engine and cannot be set")
            return
        if n in scope.names:
            if idx is not None:
                self.error(s.span, f"{n!r} is not a per-player variable")
            scope.names[n] = tv
            return
        t = self.var_types.get(n)
        if t is None:
            t = BUILTIN_VARS.get(n)
        if t is None:
            self.error(s.span, f"no variable {n!r}", self._suggest(n, "add: var "
                       f"{n}: TYPE = VALUE"))
            return
        if n in self.results:
            self.result_sets[pos(s.span)] = n
        if isinstance(t, Per):
            if idx is None:
                self.error(s.span, f"{n!r} is per player: set {n}[SEAT] = ...")
                return
            self._want(idx, INT, self.expr(idx, scope), "a seat is a number")
            t = t.elem
        elif idx is not None:
            self.error(s.span, f"{n!r} is not a per-player variable")
        if not compatible(t, tv):
            self.error(v.span, f"{n!r} holds {describe(t)}, not {describe(tv)}")

    def _check_proc_call(self, s: ast.CallStmt, n: str, args: tuple[ast.Expr, ...],
                         scope: _Scope) -> None:
        p = self.procs.get(n)
        for a in args:
            self.expr(a, scope)
        if p is None:
            if n in self.defs or n in BUILTIN_FUNCTIONS or n in self.hooks:
                self.error(s.span, f"{n!r} computes a value; it is not a procedure to run",
                           "use it inside an expression, for example: let x = "
                           f"{n}(...)")
            else:
                self.error(s.span, f"no procedure {n!r}", self._suggest(n, None))
            return
        if len(args) != len(p.params):
            self.error(s.span, f"procedure {n!r} takes {len(p.params)} argument(s), "
                       f"not {len(args)}")
            return
        for a, prm in zip(args, p.params, strict=True):
            want = self._param_type(prm)
            got = self.expr(a, scope)
            if not compatible(want, got):
                self.error(a.span, f"procedure {n!r} expects {describe(want)} for {prm.name!r}, "
                           f"not {describe(got)}")

    def _alternative(self, a: ast.Alternative, scope: _Scope) -> None:
        inner = scope.child()
        for g in a.generators:
            inner.names[g.var] = self._iter_elem(g.source, inner)
            src = walk.uncited(g.source)
            if isinstance(src, ast.ListLit) and not src.items:
                self.error(g.span, f"decision {a.action!r} draws its choices from an empty list, "
                           "so it can never be chosen")
        if a.guard is not None:
            self._want_bool(a.guard, self.expr(a.guard, inner))
            bare = walk.uncited(a.guard)
            if isinstance(bare, ast.Name) and bare.id == "false":
                self.error(a.guard.span, f"decision {a.action!r} is guarded by 'false', so its "
                           "choice set is always empty", "remove the alternative or its guard")
        names = set()
        set_fields = []
        for f in a.fields:
            if f.name in ("seat", "action", "chance"):
                self.error(f.span, f"{f.name!r} is written by the record itself; choose "
                           "another field name")
            if f.name in names:
                self.error(f.span, f"field {f.name!r} is given twice")
            names.add(f.name)
            t = self.expr(f.value, inner)
            fv = walk.uncited(f.value)
            if isinstance(fv, ast.Call) and fv.func == "set_of":
                set_fields.append(f.name)
            if t in (ZONE, PZONE) or isinstance(t, Per):
                self.error(f.value.span, "a decision field holds a value, not "
                           f"{describe(t)}")
        refs = tuple(_refs(a.guard)) if a.guard is not None else ()
        # IDs cited in the decision's doc text count too: "... [VAN-13]"
        for r in re.findall(r"\[([A-Z]+-?[0-9]+)\]", a.doc or ""):
            if r not in refs:
                refs += (r,)
        self.actions.append(ActionInfo(a.action, tuple(f.name for f in a.fields),
                                       tuple(set_fields), a.doc, refs, a.span))
        self.block(a.body, inner)

    # ---- expressions ----------------------------------------------------------------------
    def _want_bool(self, e: ast.Expr, t: Type) -> None:
        self._want(e, BOOL, t, "a condition must be true or false")

    def _want(self, e: ast.Expr, want: Type, got: Type, hint: str | None = None) -> None:
        if not compatible(want, got):
            self.error(e.span, f"expected {describe(want)}, found {describe(got)}", hint)

    def _want_zone(self, e: ast.Expr, scope: _Scope) -> None:
        t = self.expr(e, scope)
        if t == PZONE:
            self.error(e.span, "a per-player zone needs a seat: write ZONE[SEAT]")
        elif t not in (ZONE, ANY):
            self.error(e.span, f"expected a zone, found {describe(t)}",
                       "zones: " + ", ".join(self.zones) if self.zones else None)

    def _iter_elem(self, src: ast.Expr, scope: _Scope) -> Type:
        t = self.expr(src, scope)
        el = element(t)
        if el is None:
            self.error(src.span, f"cannot go through {describe(t)}; expected a list or a zone")
            return ANY
        return el

    def _suggest(self, n: str, default: str | None) -> str | None:
        import difflib

        pool = list(self.vars) + list(self.options) + list(self.defs) + list(self.procs) + \
            list(self.hooks) + \
            list(self.zones) + list(BUILTIN_CONSTANTS) + list(BUILTIN_FUNCTIONS) + \
            list(BUILTIN_VARS) + list(self.enum_values)
        close = difflib.get_close_matches(n, pool, n=1)
        if close:
            return f"did you mean {close[0]!r}?"
        return default

    def _bind(self, e: ast.Expr, b: Binding) -> None:
        self.bindings[pos(e.span)] = b

    def expr(self, e: ast.Expr, scope: _Scope) -> Type:
        """The type of ``e`` in ``scope``, recorded for the compiler (CheckedSpec.resolution)."""
        t = self._expr(e, scope)
        self.types[pos(e.span)] = t
        return t

    def _expr(self, e: ast.Expr, scope: _Scope) -> Type:
        match e:
            case ast.IntLit():
                return INT
            case ast.StrLit():
                return STR
            case ast.Cited(expr=wrapped):
                return self.expr(wrapped, scope)
            case ast.Name(id=n):
                return self._name(e, n, scope)
            case ast.Index(target=tg, index=ix):
                return self._index(e, tg, ix, scope)
            case ast.ListLit(items=items):
                return self._list_lit(items, scope)
            case ast.Comprehension(elem=el, var=v, source=src, cond=c):
                inner = scope.child()
                inner.names[v] = self._iter_elem(src, scope)
                if c is not None:
                    self._want_bool(c, self.expr(c, inner))
                return ListOf(self.expr(el, inner))
            case ast.GenCall(func=f, elem=el, var=v, source=src, cond=c):
                return self._gen_call(e, f, el, v, src, c, scope)
            case ast.Call(func=f, args=args):
                return self._call(e, f, args, scope)
            case ast.BinOp(op=op, left=lft, right=rgt):
                tl, tr = self.expr(lft, scope), self.expr(rgt, scope)
                if op == "+" and element(tl) is not None and element(tr) is not None:
                    return tl if tl != ZONE else ListOf(CARD)
                self._want(lft, INT, tl, f"'{op}' works on numbers")
                self._want(rgt, INT, tr, f"'{op}' works on numbers")
                return INT
            case ast.Compare(op=op, left=lft, right=rgt):
                return self._compare(e, op, lft, rgt, scope)
            case ast.And(left=lft, right=rgt) | ast.Or(left=lft, right=rgt):
                self._want_bool(lft, self.expr(lft, scope))
                self._want_bool(rgt, self.expr(rgt, scope))
                return BOOL
            case ast.Not(operand=o):
                self._want_bool(o, self.expr(o, scope))
                return BOOL
            case ast.Neg(operand=o):
                self._want(o, INT, self.expr(o, scope))
                return INT
            case ast.IfExpr(cond=c, then=th, else_=el):
                return self._if_expr(e, c, th, el, scope)
            case ast.OptionArg(option=o, param=p):
                return self._option_arg(e, o, p, scope)
            case _:
                assert_never(e)
        return ANY  # pragma: no cover

    def _option_arg(self, e: ast.OptionArg, o: str, p: str, scope: _Scope) -> Type:
        """The type of ``OPTION.PARAM``: the parameter ``p`` of a value of option ``o``, as the
        declaration types it. Whether the table's value has it is known only with the
        options (see docs/language.md, "Options whose values take parameters")."""
        if o not in self.options or o in scope.names:
            self.error(e.span, f"'{o}.{p}': only an option's value has parameters to read "
                       f"with '.', and {o!r} is not an option")
            return ANY
        opt = self.options[o]
        found = [q for _, ps in opt.params for q in ps if q.name == p]
        if not found:
            have = sorted({q.name for _, ps in opt.params for q in ps})
            self.error(e.span, f"no value of option {o!r} takes a parameter {p!r}",
                       "parameters: " + ", ".join(have) if have
                       else f"the values of {o!r} take no parameters")
            return ANY
        self._bind(e, BoundOption(o))
        return BOOL if found[0].kind == "bool" else INT

    def _index(self, e: ast.Index, tg: ast.Expr, ix: ast.Expr, scope: _Scope) -> Type:
        """The type of ``tg[ix]``: the index is a number, the target a per-player zone or value,
        or a list."""
        tt = self.expr(tg, scope)
        ti = self.expr(ix, scope)
        self._want(ix, INT, ti, "an index is a seat or a position")
        if tt == PZONE:
            return ZONE
        if isinstance(tt, Per):
            return tt.elem
        el = element(tt)
        if el is None:
            self.error(e.span, f"cannot index {describe(tt)}")
            return ANY
        return el

    def _list_lit(self, items: tuple[ast.Expr, ...], scope: _Scope) -> Type:
        """The type of a list literal; its items are all of one kind."""
        ts = [self.expr(i, scope) for i in items]
        known = [t for t in ts if t not in (ANY, NONE)]
        el = known[0] if known else ANY
        for i, t in zip(items, ts, strict=True):
            if not compatible(el, t):
                self.error(i.span, f"a list mixes {describe(el)} and {describe(t)}")
        return ListOf(el)

    def _gen_call(self, e: ast.GenCall, f: str, el: ast.Expr, v: str, src: ast.Expr,
                  c: ast.Expr | None, scope: _Scope) -> Type:
        """The type of ``f(el for v in src if c)``: ``f`` takes a generator, which gives
        conditions for any, all and count and numbers for the rest."""
        inner = scope.child()
        inner.names[v] = self._iter_elem(src, scope)
        if c is not None:
            self._want_bool(c, self.expr(c, inner))
        te = self.expr(el, inner)
        if f not in GENERATOR_FUNCTIONS:
            self.error(e.span, f"{f!r} does not take a generator",
                       "generators work with: " + ", ".join(sorted(GENERATOR_FUNCTIONS)))
            return ANY
        self._bind(e, BoundBuiltin(f))
        if f in ("any", "all", "count"):
            self._want_bool(el, te)
            return INT if f == "count" else BOOL
        self._want(el, INT, te, f"{f} adds or compares numbers")
        return INT

    def _compare(self, e: ast.Compare, op: str, lft: ast.Expr, rgt: ast.Expr,
                 scope: _Scope) -> Type:
        """Check a comparison: an enum against its own values, 'in' against a list or zone,
        an order comparison between numbers, anything else between values of one kind."""
        bare_l, bare_r = walk.uncited(lft), walk.uncited(rgt)
        for x, y in ((bare_l, bare_r), (bare_r, bare_l)):
            if isinstance(x, ast.Name) and isinstance(y, ast.Name) \
                    and y.id in self.options and self.options[y.id].kind == "enum" \
                    and y.id not in scope.names and x.id in self.options[y.id].values \
                    and x.id not in scope.names:
                # OPTION == VALUE, the value possibly a built-in name
                self._bind(x, BoundEnumValue(x.id))
                self._bind(y, BoundOption(y.id))
                for side in (lft, rgt):
                    t_side: Type = STR if walk.uncited(side) is x else EnumOf(y.id)
                    for node in _cited_chain(side):
                        self.types[pos(node.span)] = t_side
                return BOOL
        tl = self.expr(lft, scope)
        bare = walk.uncited(rgt)
        if isinstance(tl, EnumOf) and isinstance(bare, ast.Name) \
                and not self._resolvable(bare.id, scope):
            opt = self.options[tl.option]
            self.error(bare.span, f"{bare.id!r} is not a value of option {opt.name!r}",
                       "values: " + ", ".join(str(v) for v in opt.values))
            return BOOL
        tr = self.expr(rgt, scope)
        if op in ("in", "not in"):
            el = element(tr)
            if el is None:
                self.error(rgt.span, f"'{op}' needs a list or a zone on its right")
            elif not compatible(el, tl):
                self.error(e.span, f"cannot look for {describe(tl)} among "
                           f"{describe(tr)}")
            return BOOL
        self._check_enum_compare(lft, tl, rgt, tr)
        if op in ("<", "<=", ">", ">="):
            self._want(lft, INT, tl, "order comparisons work on numbers")
            self._want(rgt, INT, tr, "order comparisons work on numbers")
        elif not (compatible(tl, tr) or compatible(tr, tl)):
            self.error(e.span, f"comparing {describe(tl)} with {describe(tr)} is "
                       "always false", "compare values of the same kind")
        return BOOL

    def _if_expr(self, e: ast.IfExpr, c: ast.Expr, th: ast.Expr, el: ast.Expr,
                 scope: _Scope) -> Type:
        """The type of an if-expression: the condition is true or false and the branches give
        values of one kind."""
        self._want_bool(c, self.expr(c, scope))
        t1, t2 = self.expr(th, scope), self.expr(el, scope)
        if t1 in (NONE, ANY):
            return t2
        if not (compatible(t1, t2) or compatible(t2, t1)):
            self.error(e.span, f"the branches give {describe(t1)} and {describe(t2)}")
        if isinstance(t1, EnumOf) and t2 == INT:
            return INT
        return t1

    def _check_enum_compare(self, lft: ast.Expr, tl: Type, rgt: ast.Expr, tr: Type) -> None:
        for ta, b in ((tl, rgt), (tr, lft)):
            if not isinstance(ta, EnumOf):
                continue
            opt = self.options[ta.option]
            bb = walk.uncited(b)
            if isinstance(bb, ast.Name) and bb.id in self.enum_values and bb.id not in opt.values:
                self.error(bb.span, f"{bb.id!r} is not a value of option {opt.name!r}",
                           "values: " + ", ".join(str(v) for v in opt.values))
            if isinstance(bb, ast.IntLit) and bb.value not in opt.values:
                self.error(bb.span, f"{bb.value} is not a value of option {opt.name!r}",
                           "values: " + ", ".join(str(v) for v in opt.values))

    def _resolvable(self, n: str, scope: _Scope) -> bool:
        return (n in scope.names or n in self.vars or n in self.options or n in self.zones
                or n in BUILTIN_CONSTANTS or n in BUILTIN_VARS or n in self.enum_values)

    def _name(self, e: ast.Expr, n: str, scope: _Scope) -> Type:
        """The type of the name ``n``; what it is bound to is recorded (the one place names
        are resolved: the compiler reads the binding)."""
        if n in scope.names:
            self._bind(e, BoundLocal(n))
            return scope.names[n]
        if n in self.vars:
            self._bind(e, BoundVar(n))
            if n in self.var_types:
                return self.var_types[n]
            return self._var_type(self.vars[n])  # while var types are being computed
        if n in self.options:
            self._bind(e, BoundOption(n))
            o = self.options[n]
            kinds: dict[str, Type] = {"bool": BOOL, "int": INT}
            return kinds.get(o.kind, EnumOf(n))
        if n in BUILTIN_CONSTANTS:
            self._bind(e, BoundConstant(n))
            return BUILTIN_CONSTANTS[n]
        if n in BUILTIN_VARS:
            self._bind(e, BoundBuiltinVar(n))
            return BUILTIN_VARS[n]
        if n in self.zones:
            self._bind(e, BoundZone(n))
            return PZONE if self.zones[n].per_player else ZONE
        if n in self.enum_values:
            self._bind(e, BoundEnumValue(n))
            return STR
        if n in self.defs or n in self.procs or n in BUILTIN_FUNCTIONS or n in self.hooks:
            self.error(e.span, f"{n!r} must be called: write {n}(...)")
            return ANY
        self.error(e.span, f"undefined name {n!r}", self._suggest(
            n, "declare it with var, option, zone or def, or bind it with let or for"))
        return ANY

    def _call(self, e: ast.Call, f: str, args: tuple[ast.Expr, ...], scope: _Scope) -> Type:
        targs = [self.expr(a, scope) for a in args]
        if f in self.broken_hooks:
            return self._hook_call(e, f, args, targs)
        if f in self.defs:
            self._bind(e, BoundDef(f))
            d = self.defs[f]
            if len(args) != len(d.params):
                self.error(e.span, f"{f!r} takes {len(d.params)} argument(s), not {len(args)}")
                return self._def_type(f)
            for a, t, prm in zip(args, targs, d.params, strict=True):
                want = self._param_type(prm)
                if not compatible(want, t):
                    self.error(a.span, f"{f!r} expects {describe(want)} for {prm.name!r}, not "
                               f"{describe(t)}")
            return self._def_type(f)
        if f in BUILTIN_FUNCTIONS:
            self._bind(e, BoundBuiltin(f))
            params, result = BUILTIN_FUNCTIONS[f]
            if len(args) != len(params):
                self.error(e.span, f"{f!r} takes {len(params)} argument(s), not {len(args)}")
                return result if not has_var(result) else ANY
            bound: Type = ANY
            for a, t, want in zip(args, targs, params, strict=True):
                if want == ListOf(T):
                    el = element(t)
                    if el is None:
                        self.error(a.span, f"{f!r} expects a list, not {describe(t)}")
                    else:
                        bound = el
                    continue
                if not compatible(want, t):
                    self.error(a.span, f"{f!r} expects {describe(want)}, not {describe(t)}")
            return substitute(result, bound)
        if f in self.procs:
            self.error(e.span, f"procedure {f!r} changes the game and gives no value",
                       f"run it as a statement: {f}(...)")
            return ANY
        self.error(e.span, f"no function {f!r}", self._suggest(f, None))
        return ANY


def _cited_chain(e: ast.Expr) -> Iterator[ast.Expr]:
    """``e`` and, while it is a citation, the expression it cites."""
    yield e
    while isinstance(e, ast.Cited):
        e = e.expr
        yield e


def _refs(e: ast.Expr) -> Iterator[str]:
    """Ambiguity IDs cited anywhere inside an expression."""
    if isinstance(e, ast.Cited):
        yield e.ref
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        if attrs.has(type(v)) and not isinstance(v, ast.Span):
            yield from _refs(v)
        elif isinstance(v, tuple):
            for x in v:
                if attrs.has(type(x)):
                    yield from _refs(x)


def _walk(b: ast.Block) -> Iterator[ast.Stmt]:
    for s in b.stmts:
        yield s
        for f in attrs.fields(type(s)):
            v = getattr(s, f.name)
            if isinstance(v, ast.Block):
                yield from _walk(v)
            elif isinstance(v, ast.If):
                yield v
                yield from _walk(ast.Block((v,)))
            elif isinstance(v, tuple):
                for x in v:
                    if isinstance(x, ast.Alternative):
                        yield from _walk(x.body)


def _calls_in(b: ast.Block) -> Iterator[str]:
    for s in _walk(b):
        if isinstance(s, ast.CallStmt):
            yield s.name


def check(spec: ast.Spec, sources: dict[str, str] | None = None) -> CheckedSpec:
    """Check a parsed spec that has no imports (or whose imports are already merged)."""
    with paused_gc():
        return _Checker(spec.items, dict(sources or {})).run()


def check_text(text: str, source_name: str = "<spec>",
               confine: Path | None = None) -> CheckedSpec:
    """Parse, resolve imports and check; raise SpecSyntaxError or SpecCheckError. With
    ``confine``, imports resolve only to shipped modules and files inside that folder."""
    with paused_gc():  # a big spec is millions of objects, none in a cycle (parser.paused_gc)
        loaded = load_spec(text, source_name, confine)
        return _Checker(loaded.items, loaded.sources, loaded.imports).run()


def check_file(path: str | Path, confine: Path | None = None) -> CheckedSpec:
    """Parse, resolve imports and check a .rules file (imports confined as in
    :func:`check_text`)."""
    return check_text(read_spec(Path(path), str(path)), str(path), confine)


def _value_docs(t: ast.TypeExpr) -> tuple[tuple[int | str | bool, str], ...]:
    """Each value of an enumerated option type with the text the spec gives it."""
    if not isinstance(t, ast.TypeEnum):
        return ()
    return tuple((v.name if isinstance(v, ast.ParamValue) else v, d)
                 for v, d in zip(t.values, t.docs, strict=False) if d is not None)
