"""Declarations: the spec's items sorted into what they declare, each name claimed once;
options (parametric ones included), zones, variables, result fields, hooks and how each is
supplied, the rulebook's tables; then the bodies of definitions, procedures, the deal and the
match, through the statement checker.
"""

from __future__ import annotations

from pathlib import Path
from typing import assert_never, cast

import attrs

from rulespec.lang import ast, walk
from rulespec.lang.checker import flow
from rulespec.lang.checker.expressions import ExpressionChecker
from rulespec.lang.checker.statements import StatementChecker
from rulespec.lang.checker.symbols import BASIC_TYPES, Decls, Scope, Symbols
from rulespec.lang.model import (
    BUILTIN_FUNCTIONS,
    BUILTIN_VARS,
    SIT_OUT_NAMES,
    TEAM_NAMES,
    OptionInfo,
    ParamInfo,
    pos,
    value_text,
)
from rulespec.lang.pretty import hook_signature
from rulespec.lang.types import ANY, INT, Per, Type, compatible, describe, element

__all__ = ["DeclarationChecker"]


#: the declarations a spec gives once, each with the Decls field it fills and its name
_ONCE: dict[type, tuple[str, str]] = {
    ast.GameDecl: ("game", "'game' declaration"),
    ast.PlayersDecl: ("players", "'players' declaration"),
    ast.HandsDecl: ("hands", "'hands' declaration"),
    ast.TeamsDecl: ("teams", "'teams' declaration"),
    ast.ScoreRangeDecl: ("score_range", "'score_range' declaration"),
    ast.MaxEventsDecl: ("max_events", "'max_events' declaration"),
    ast.WinnerDecl: ("winner", "'winner' declaration"),
    ast.MatchDecl: ("match", "'match' block"),
    ast.DealDecl: ("deal", "'deal' block"),
}
_OnceDecl = (ast.GameDecl | ast.PlayersDecl | ast.HandsDecl | ast.TeamsDecl | ast.ScoreRangeDecl |
             ast.MaxEventsDecl | ast.WinnerDecl | ast.MatchDecl | ast.DealDecl)
_ONCE_TYPES = (ast.GameDecl, ast.PlayersDecl, ast.HandsDecl, ast.TeamsDecl, ast.ScoreRangeDecl,
               ast.MaxEventsDecl, ast.WinnerDecl, ast.MatchDecl, ast.DealDecl)
#: how many players a zone's visibility reaches: its size must reach at least as many as its
#: cards do (``, size visible to WHO``)
_WHO_RANK = {"nobody": 0, "owner": 1, "all": 2}
_NamedItem = (ast.GameEndDecl | ast.ImportDecl | ast.OptionDecl | ast.EnumDecl | ast.RequireDecl |
              ast.ZoneDecl | ast.VarDecl | ast.ResultDecl | ast.DefDecl | ast.HookDecl |
              ast.ProcDecl | ast.TermDecl | ast.HintDecl | ast.TableDecl | ast.SectionDecl |
              ast.DeckDecl)


class DeclarationChecker:
    """Checks a spec's declarations for one check, reporting to and filling its symbols."""

    def __init__(self, sym: Symbols, exprs: ExpressionChecker,
                 stmts: StatementChecker) -> None:
        self.sym = sym
        self.exprs = exprs
        self.stmts = stmts

    def check_declared(self, d: Decls) -> tuple[str, ...]:
        """Check what the declarations say, short of the bodies: the declarations a spec
        must have, variables and result fields, requires, the numbers a table fixes, and the
        rulebook's tables; return the game_end forms in force."""
        self._check_missing(d)
        self._check_enum_values(d)
        self._check_vars()
        self._check_results()
        for r in d.requires:
            flow.table_only(self.sym, r.cond, "a 'require'")
            t = self.exprs.expr(r.cond, Scope({}, where="def"))
            self.exprs.want_bool(r.cond, t)
        forms = self._game_end_forms(d.game_end)
        if d.teams is not None:
            self._check_teams(d.teams)
        for e, what in self._table_numbers(d):
            flow.table_only(self.sym, e, f"'{what}'")
            self.exprs.want(e, INT, self.exprs.expr(e, Scope({}, where="def")),
                            f"{what} is a number, known once the options are")
        for tb in d.tables:
            self._check_table(tb)
        return forms

    def collect(self) -> Decls:
        """Sort the items into declarations; check that each one-per-spec declaration is
        given once and each named one takes a free name."""
        d = Decls()
        for it in self.sym.items:
            if isinstance(it, _ONCE_TYPES):
                self._collect_once(d, it)
            else:
                self._collect_named(d, it)
        self._resolve_hooks(d)
        return d

    def _collect_once(self, d: Decls, it: _OnceDecl) -> None:
        """A declaration a spec gives once: the first stands, a second is an error."""
        field, what = _ONCE[type(it)]
        if getattr(d, field) is not None:
            self.sym.error(it.span, f"a spec has one {what}")
        else:
            setattr(d, field, it)
        if isinstance(it, ast.PlayersDecl) and not 1 <= it.min <= it.max:
            self.sym.error(it.span, f"players {it.min} to {it.max} is an empty range")

    def _collect_named(self, d: Decls, it: _NamedItem) -> None:
        """Any other item: a name claimed, a hook, a require, a term, a table or a section
        heading."""
        match it:
            case ast.GameEndDecl():
                d.game_end = it
                for f in it.forms:
                    if f not in ("deals", "target", "elimination"):
                        self.sym.error(it.span, f"unknown game_end form {f!r}",
                                       "forms: deals, target, elimination")
            case ast.ImportDecl() | ast.DeckDecl():
                pass  # a deck is read first, with the symbols (Symbols._declare_deck)
            case ast.OptionDecl():
                if self._claim(d, it.name, it.span, "option"):
                    self._declare_option(it)
            case ast.EnumDecl():
                if self._claim(d, it.name, it.span, "enumeration"):
                    self._declare_enum(it)
            case ast.RequireDecl():
                d.requires.append(it)
            case ast.ZoneDecl():
                if self._claim(d, it.name, it.span, "zone"):
                    self._declare_zone(it)
            case ast.VarDecl():
                if self._claim(d, it.name, it.span, "variable"):
                    self.sym.vars[it.name] = it
            case ast.ResultDecl():
                if self._claim(d, it.name, it.span, "result field"):
                    self.sym.vars[it.name] = it
                    self.sym.results[it.name] = it
            case ast.DefDecl():
                if self._claim(d, it.name, it.span, "definition"):
                    self.sym.defs[it.name] = it
            case ast.HookDecl():
                self._declare_hook(it)
            case ast.ProcDecl():
                if self._claim(d, it.name, it.span, "procedure"):
                    self.sym.procs[it.name] = it
            case ast.TermDecl():
                if any(x.word == it.word for x in d.terms):
                    self.sym.error(it.span, f"the term {it.word!r} is explained twice")
                d.terms.append(it)
            case ast.HintDecl():
                if any(x.text == it.text for x in d.hints):
                    self.sym.error(it.span, "this hint is given twice")
                d.hints.append(it)
            case ast.TableDecl():
                if any(x.name == it.name for x in d.tables):
                    self.sym.error(it.span, f"table {it.name!r} is already declared",
                                   "give each table its own name")
                d.tables.append(it)
            case ast.SectionDecl():
                if not it.title.strip():
                    self.sym.error(it.span, "a section needs a title", 'write section "Title"')
            case _:
                assert_never(it)

    def _claim(self, d: Decls, name: str, span: ast.Span, what: str) -> bool:
        """Record a top-level name; report it if it is already taken, by the spec or a
        built-in."""
        builtin = name in self.sym.constants or name in BUILTIN_VARS or name in BUILTIN_FUNCTIONS
        if name in TEAM_NAMES and not self.sym.has_teams or \
                name in SIT_OUT_NAMES and not self.sym.sits_out:
            builtin = False  # these built-ins exist only where the spec uses teams, sit out
        if name in d.seen or builtin:
            where = f" (first at {d.seen[name]})" if name in d.seen else " (a built-in name)"
            self.sym.error(span, f"{what} {name!r} is already defined{where}",
                           "choose another name")
            return False
        d.seen[name] = span
        return True

    def _declare_enum(self, en: ast.EnumDecl) -> None:
        """Record a named enumeration: a new type name, and values that are names, each listed
        once, in no other enumeration, and not to be read as a card or a suit in a record."""
        if en.name in BASIC_TYPES or en.name in ("list", "zone"):
            self.sym.error(en.span, f"{en.name!r} is a type of the language already",
                           "choose another name for the enumeration")
            return
        self.sym.enums[en.name] = en
        for v in en.values.values:
            if not isinstance(v, str) or not v.isidentifier():
                shown = v.name + "(...)" if isinstance(v, ast.ParamValue) else repr(v)
                self.sym.error(en.values.span, f"the values of enumeration {en.name!r} are "
                               f"names, not {shown}",
                               "write names: enum NAME: {first, second}; a number is an int, "
                               "and a value that takes parameters belongs to an option")
            elif v in self.sym.named_values:
                other = self.sym.named_values[v]
                self.sym.error(en.values.span, f"enumeration {en.name!r} lists {v!r} "
                               + ("twice" if other == en.name else
                                  f"which is a value of enumeration {other!r} already"),
                               "each value belongs to one enumeration, once")
            elif self.sym.deck.normalise(v) is not None or v.upper() in self.sym.deck.suit_codes:
                # a record's reader would take it for one of the deck's cards or suits
                self.sym.error(en.values.span, f"the value {v!r} of enumeration {en.name!r} "
                               "reads as a card or a suit in a record",
                               "choose a longer name")
            else:
                self.sym.named_values[v] = en.name

    def _check_enum_values(self, d: Decls) -> None:
        """A value of an enumeration is no other name of the spec: where a rule writes it, it
        must mean that value."""
        for v, en in self.sym.named_values.items():
            if v in d.seen or v in self.sym.constants or v in BUILTIN_VARS \
                    or v in BUILTIN_FUNCTIONS:
                where = f" (at {d.seen[v]})" if v in d.seen else " (a built-in name)"
                self.sym.error(self.sym.enums[en].values.span,
                               f"the value {v!r} of enumeration {en!r} is already a name{where}",
                               "choose another name for the value")

    def _declare_zone(self, z: ast.ZoneDecl) -> None:
        """Record a zone; check that it says who may see it, and that only a per-player zone
        is visible to its owner."""
        self.sym.zones[z.name] = z
        if z.visibility is None:
            self.sym.error(z.span, f"zone {z.name!r} does not say who may see it",
                           "add 'visible to all', 'visible to owner' or "
                           "'visible to nobody'")
        elif z.visibility in ("owner", "team") and not z.per_player:
            self.sym.error(z.span, f"shared zone {z.name!r} has no owner",
                           "use 'visible to all' or 'visible to nobody'")
        elif z.visibility == "team" and (not self.sym.has_teams or self.sym.teams_in_play):
            self.sym.error(z.span, f"zone {z.name!r} is visible to a team, but the spec "
                           "declares no fixed teams", "add: teams COUNT by DEF (not 'in play'), "
                           "or use 'visible to owner'")
        if z.per_team and not self.sym.has_teams:
            self.sym.error(z.span, f"zone {z.name!r} is per team, but the spec declares no teams",
                           "add: teams COUNT by DEF, DEF giving each seat's team")
        self._check_size_visibility(z)

    def _check_size_visibility(self, z: ast.ZoneDecl) -> None:
        """``, size visible to WHO``: an owner only for a per-player zone, and no fewer
        players counting the cards than see them (a seat that sees the cards counts them)."""
        sv = z.size_visibility
        if sv is None or z.visibility is None:
            return
        if sv == "team" or z.visibility == "team" or z.per_team:
            self.sym.error(z.span, f"zone {z.name!r} is a team's: who may count it follows "
                           "who may see it", f"drop ', size visible to {sv}'")
        elif sv == "owner" and not z.per_player:
            self.sym.error(z.span, f"shared zone {z.name!r} has no owner to count it",
                           "use 'size visible to all' or 'size visible to nobody'")
        elif _WHO_RANK[sv] < _WHO_RANK[z.visibility]:
            self.sym.error(z.span, f"zone {z.name!r} hides its size from players who see its "
                           f"cards (visible to {z.visibility}, size visible to {sv})",
                           "a player who sees the cards can count them: write "
                           f"'visible to {sv}' for the cards too, or drop ', size visible "
                           f"to {sv}'")

    def _declare_option(self, o: ast.OptionDecl) -> None:
        t = o.type
        if isinstance(o.default, ast.ValueCall) and not isinstance(t, ast.TypeEnum):
            self.sym.error(o.default.span, f"option {o.name!r} is not a set of values; its default "
                           "takes no arguments")
            default: int | str | bool = o.default.name
        else:
            default = cast("int | str", o.default)
        if o.bounds is not None and not (isinstance(t, ast.TypeName) and t.name == "int"):
            self.sym.error(o.span, f"option {o.name!r}: only an int option takes a range",
                           "write 'int in LO..HI'")
        match t:
            case ast.TypeName(name="bool"):
                if default not in ("true", "false"):
                    self.sym.error(o.span, f"option {o.name!r} is a bool; its default must be true "
                                   "or false")
                    default = False
                else:
                    default = default == "true"
                info = OptionInfo(o.name, "bool", (True, False), default, o.ref, o.doc, o.span)
            case ast.TypeName(name="int"):
                if not isinstance(default, int):
                    self.sym.error(o.span, f"option {o.name!r} is an int; its default must be a "
                                   "number")
                    default = 0
                if o.bounds is not None:
                    lo, hi = o.bounds
                    if lo > hi:
                        self.sym.error(o.span, f"option {o.name!r}: the range {lo}..{hi} is empty",
                                       "write the smaller end first")
                    elif not lo <= default <= hi:
                        self.sym.error(o.span, f"the default {default} of option {o.name!r} is not "
                                       f"in its range {lo}..{hi}")
                info = OptionInfo(o.name, "int", (), default, o.ref, o.doc, o.span, o.bounds)
            case ast.TypeEnum(values=items) if any(isinstance(v, ast.ParamValue)
                                                   for v in items):
                info = self._declare_parametric(o, items)
            case ast.TypeEnum(values=values):
                if isinstance(o.default, ast.ValueCall):
                    self.sym.error(o.default.span, f"no value of option {o.name!r} takes "
                                   "arguments", "write the default without them")
                    default = o.default.name
                if len(set(values)) != len(values):
                    self.sym.error(t.span, f"option {o.name!r} lists a value twice")
                if default not in values:
                    self.sym.error(o.span, f"the default {default!r} of option {o.name!r} is not "
                                   "one of its values",
                                   "values: " + ", ".join(str(v) for v in values))
                for v in values:
                    if isinstance(v, str):
                        self.sym.enum_values.setdefault(v, set()).add(o.name)
                info = OptionInfo(o.name, "enum", tuple(cast("tuple[int | str, ...]", values)),
                                  default, o.ref, o.doc, o.span,
                                  value_docs=_value_docs(t))
            case _:
                self.sym.error(t.span, f"option {o.name!r} has an unknown type",
                               "use bool, int, or a set of values such as {a, b}")
                info = OptionInfo(o.name, "int", (), 0, o.ref, o.doc, o.span)
        self.sym.options[o.name] = self._titled(o, info)

    def _titled(self, o: ast.OptionDecl, info: OptionInfo) -> OptionInfo:
        """The option with its title, the house rule's name: a heading the player's book sets in
        bold and ends with its own period, so it holds words and does not end in one."""
        title = o.title
        if title is None:
            return info
        if not title.strip():
            self.sym.error(o.span, f"option {o.name!r} has an empty title",
                           'name the house rule, as in "Ace on Ace", or drop the first string')
        elif title.rstrip().endswith("."):
            self.sym.error(o.span, f"the title {title!r} of option {o.name!r} ends in a period",
                           "a title is a name, not a sentence: the book adds the period")
        return attrs.evolve(info, title=title)

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
                    self.sym.error(prm.span, f"parameter {prm.name!r} of {v.name} has the type "
                                   f"{prm.type!r}; a value's parameter is an int or a bool")
                    continue
                if prm.bounds is not None:
                    if prm.type != "int":
                        self.sym.error(prm.span, f"parameter {prm.name!r} of {v.name}: only an "
                                       "int takes a range")
                    elif prm.bounds[0] > prm.bounds[1]:
                        self.sym.error(prm.span, f"parameter {prm.name!r} of {v.name}: the range "
                                       f"{prm.bounds[0]}..{prm.bounds[1]} is empty",
                                       "write the smaller end first")
                if any(q.name == prm.name for q in ps):
                    self.sym.error(prm.span, f"{v.name} names the parameter {prm.name!r} twice")
                    continue
                if kinds.setdefault(prm.name, prm.type) != prm.type:
                    self.sym.error(prm.span, f"parameter {prm.name!r} of {v.name} is of type "
                                   f"{prm.type}, but of type {kinds[prm.name]} in another value "
                                   f"of option {o.name!r}", "give the two different names")
                ps.append(ParamInfo(prm.name, prm.type,
                                    prm.bounds if prm.type == "int" else None))
            params.append((v.name, tuple(ps)))
        if len(set(names)) != len(names):
            self.sym.error(o.type.span, f"option {o.name!r} lists a value twice")
        for n in names:
            if isinstance(n, str):
                self.sym.enum_values.setdefault(n, set()).add(o.name)
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
            self.sym.error(d.span if isinstance(d, ast.ValueCall) else o.span,
                           f"the default {text} of option {o.name!r} is not one of its values: "
                           f"{why}", "values: " + ", ".join(info.describe_value(n) for n in names))
            return info
        return attrs.evolve(info, default=cast("int | str", default))

    def _declare_hook(self, h: ast.HookDecl) -> None:
        """Record a module's hook; its name is claimed once it is known what supplies it."""
        if h.name in self.sym.hooks:
            self.sym.error(h.span, f"hook {h.name!r} is already declared (first at "
                           f"{self.sym.hooks[h.name].span})", "declare each hook once")
        elif h.name in self.sym.constants or h.name in BUILTIN_VARS \
                or h.name in BUILTIN_FUNCTIONS:
            self.sym.error(h.span, f"hook {h.name!r} is already defined (a built-in name)",
                           "choose another name")
        else:
            self.sym.hooks[h.name] = h
            for prm in h.params:
                if prm.type is None:
                    self.sym.error(prm.span, f"parameter {prm.name!r} of hook {h.name!r} has no "
                                   "type", f"write {prm.name}: TYPE")
            self.sym.hook_types[h.name] = (
                [self.sym.hook_type(p.type) if p.type is not None else ANY for p in h.params],
                self.sym.hook_type(h.type))

    @staticmethod
    def _hook_hint(h: ast.HookDecl) -> str:
        return f"the module declares it at {Path(h.span.source).name}:{h.span.line}: hook " \
            f"{hook_signature(h)}"

    def _resolve_hooks(self, d: Decls) -> None:
        """Match each hook with the definition of the importing spec that supplies it (the
        number of parameters, their types, the result), or put its default in force; report
        each hook missing or mistyped once, at the ``import`` that brought its module in."""
        matched: list[tuple[ast.HookDecl, ast.Span]] = []
        for name, h in self.sym.hooks.items():
            site = self.sym.imports.get(h.span.source)
            if site is None:
                self.sym.error(h.span, f"hook {name!r} is declared in the main spec; a hook "
                               "belongs in a module, for the spec that imports it to define",
                               f"write: def {name}(...) = ...")
            module = Path(h.span.source).stem
            params = self.sym.hook_types[name][0]
            df = self.sym.defs.get(name)
            if df is None and name in d.seen:
                if site is not None:
                    self.sym.error(site, f"the module {module!r} needs a definition "
                                   f"{hook_signature(h)}, but {name!r} is not a definition here "
                                   f"(at {d.seen[name]})", self._hook_hint(h))
                self.sym.broken_hooks.add(name)
            elif df is None and h.default is not None:
                d.seen[name] = h.span
                self.sym.defs[name] = ast.DefDecl(name, h.params, h.default, h.doc, span=h.span)
                self.sym.default_hooks.add(name)
                for prm, t in zip(h.params, params, strict=True):
                    self.sym.hook_param_types[pos(prm.span)] = t
                matched.append((h, h.default.span))
            elif df is None:
                if site is not None:
                    self.sym.error(site, f"the module {module!r} needs a definition "
                                   f"{hook_signature(h)}", self._hook_hint(h))
                self.sym.broken_hooks.add(name)
            elif site is not None and self._hook_params_fit(h, df, params, module, site):
                matched.append((h, site))
            elif site is not None:
                self.sym.broken_hooks.add(name)
        # every definition is known now: keep them in the order of the spec's text
        order = [it.name for it in self.sym.items
                 if (isinstance(it, ast.DefDecl) and self.sym.defs.get(it.name) is it)
                 or (isinstance(it, ast.HookDecl) and it.name in self.sym.default_hooks
                     and self.sym.hooks.get(it.name) is it)]
        self.sym.defs = {n: self.sym.defs[n] for n in order}
        for h, where in matched:
            want, got = self.sym.hook_types[h.name][1], self.exprs.def_type(h.name)
            if compatible(want, got):
                continue
            self.sym.broken_hooks.add(h.name)
            if h.name in self.sym.default_hooks:
                self._hook_default_fits(h, want, got)
            else:
                self.sym.error(where, f"{h.name} must give {describe(want)}, as the module "
                               f"{Path(h.span.source).stem!r} declares, not {describe(got)}",
                               self._hook_hint(h))

    def _hook_params_fit(self, h: ast.HookDecl, df: ast.DefDecl, params: list[Type],
                         module: str, site: ast.Span) -> bool:
        """Whether the definition ``df`` takes the hook's parameters (reported at ``site`` if
        not); a parameter without a written type takes the hook's."""
        if len(df.params) != len(h.params):
            self.sym.error(site, f"{h.name} must take {len(h.params)} parameter(s), as the module "
                           f"{module!r} declares, not {len(df.params)}", self._hook_hint(h))
            return False
        fit = True
        for mine, want in zip(df.params, params, strict=True):
            if mine.type is None:
                self.sym.hook_param_types[pos(mine.span)] = want
                continue
            got = self.sym.hook_type(mine.type)
            if not (compatible(got, want) and compatible(want, got)):
                self.sym.error(site, f"{h.name} must take {describe(want)} for {mine.name!r}, as "
                               f"the module {module!r} declares, not {describe(got)}",
                               self._hook_hint(h))
                fit = False
        return fit

    def _hook_default_fits(self, h: ast.HookDecl, want: Type, got: Type) -> None:
        if h.default is not None and not compatible(want, got):
            self.sym.error(h.default.span, f"the default of hook {h.name!r} gives {describe(got)}, "
                           f"not {describe(want)}")

    def _check_missing(self, d: Decls) -> None:
        """Report each declaration a spec must have and this one lacks."""
        top = self.sym.items[0].span if self.sym.items else None
        if d.game is None:
            self.sym.error(top, "the spec has no 'game' declaration",
                           'start with: game NAME title "Title"')
        if d.players is None:
            self.sym.error(top, "the spec does not say how many players it takes",
                           "add: players N (exactly N), or players MIN to MAX")
        if d.winner is None:
            self.sym.error(top, "the spec does not say who wins",
                           "add: winner lowest total, or winner highest total")
        if d.match is None:
            self.sym.error(top, "the spec has no 'match' block", "add: match { loop { run deal } }")
        if d.deal is None:
            self.sym.error(top, "the spec has no 'deal' block", "add: deal { ... }")

    def _check_vars(self) -> None:
        """Type every variable, then check that its starting value fits that type and can be
        worked out when the table is set up."""
        for name, v in self.sym.vars.items():
            self.sym.var_types[name] = self.sym.var_type(v)
        for v in self.sym.vars.values():
            flow.table_only(self.sym, v.init, f"the starting value of {v.name!r}")
            t = self.exprs.expr(v.init, Scope({}, where="def"))
            want = self.sym.var_types[v.name]
            if isinstance(want, Per):
                want = want.elem
            if not compatible(want, t):
                what = "result field" if isinstance(v, ast.ResultDecl) else "variable"
                self.sym.error(v.init.span, f"{what} {v.name!r} is {describe(want)} but starts as "
                               f"{describe(t)}")

    def _check_results(self) -> None:
        """A result field is written into each deal's entry under its name, beside ``scores``
        and the flag of ``end deal as FLAG``: it may be called neither."""
        flags = {n.flag for n in walk.descendants(self.sym.items)
                 if isinstance(n, ast.EndDeal) and n.flag is not None}
        for r in self.sym.results.values():
            if r.name == "scores":
                self.sym.error(r.span, "result field 'scores' would hide the deal's scores",
                               "choose another name")
            elif r.name in flags:
                self.sym.error(r.span, f"result field {r.name!r} is also a flag of 'end deal as "
                               f"{r.name}'", "choose another name")

    def _check_teams(self, t: ast.TeamsDecl) -> None:
        """``teams COUNT by DEF``: DEF is a definition of one seat that gives a number (the
        table works out each seat's team with it, before play: it may read no state)."""
        d = self.sym.defs.get(t.by)
        if d is None:
            self.sym.error(t.span, f"no definition {t.by!r} to give each seat's team",
                           f"add: def {t.by}(q: int) = ..., a number from 0 to the teams less 1")
        elif len(d.params) != 1:
            self.sym.error(t.span, f"the team definition {t.by!r} must take one seat")
        else:
            if not t.in_play:  # fixed teams are worked out with the table
                flow.table_only(self.sym, d.body, f"the team definition {t.by!r}")
            self.exprs.want(d.body, INT, self.exprs.def_type(t.by), "a team is a number")

    def _game_end_forms(self, game_end: ast.GameEndDecl | None) -> tuple[str, ...]:
        """The game_end forms in force; check that each declared form has its option."""
        if game_end is None:
            # no game_end declaration: the options the spec declares say how the game ends
            return tuple(f for f in ("deals", "target") if f in self.sym.options)
        for f in game_end.forms:
            need = "deals" if f == "deals" else "target"
            if f in ("deals", "target", "elimination") and need not in self.sym.options:
                self.sym.error(game_end.span, f"game_end {f}(...) sets option {need!r}, which "
                               "the spec does not declare", f"add: option {need}: int = ...")
        return game_end.forms

    @staticmethod
    def _table_numbers(d: Decls) -> list[tuple[ast.Expr, str]]:
        """The numbers a table fixes: the hands dealt and the declared bounds."""
        out = [(d.hands.count, "hands")] if d.hands is not None else []
        if d.teams is not None:
            out.append((d.teams.count, "teams"))
        if d.score_range is not None:
            out += [(d.score_range.low, "score_range"), (d.score_range.high, "score_range")]
        if d.max_events is not None:
            out.append((d.max_events.count, "max_events"))
        return out

    def _check_table(self, tb: ast.TableDecl) -> None:
        """A rulebook table: its rows come from a list, its cells from expressions over the
        row's value, all known once the options are (the book works them out at each table
        size, with no game in play)."""
        what = f"table {tb.name!r}"
        flow.table_only(self.sym, tb.source, what)
        src = self.exprs.expr(tb.source, Scope({}, where="def"))
        elem = element(src)
        if elem is None:
            self.sym.error(tb.source.span, f"{what} takes its rows from a list, not "
                           f"{describe(src)}", "write: for x in LIST")
            elem = ANY
        scope = Scope({tb.var: elem}, where="def")
        for col in tb.columns:
            flow.table_only(self.sym, col.value, what)
            self.exprs.expr(col.value, scope)

    def check_bodies(self, d: Decls) -> None:
        """Check the definitions, then the procedures, the deal and the match."""
        for df in self.sym.defs.values():
            self.exprs.def_type(df.name)
        for h in self.sym.hooks.values():
            if h.default is not None and h.name not in self.sym.default_hooks:
                # a default the spec replaces is checked all the same: it is the module's code
                params, want = self.sym.hook_types[h.name]
                scope = Scope({p.name: t for p, t in zip(h.params, params, strict=True)},
                              where="def")
                self._hook_default_fits(h, want, self.exprs.expr(h.default, scope))
        for p in self.sym.procs.values():
            scope = Scope({}, where="procedure")
            for prm in p.params:
                scope.names[prm.name] = self.sym.param_type(prm)
            self.stmts.block(p.body, scope)
        if d.deal is not None:
            self.stmts.block(d.deal.body, Scope({}, where="deal"))
        if d.match is not None:
            self.stmts.block(d.match.body, Scope({}, where="match"))


def _value_docs(t: ast.TypeExpr) -> tuple[tuple[int | str | bool, str], ...]:
    """Each value of an enumerated option type with the text the spec gives it."""
    if not isinstance(t, ast.TypeEnum):
        return ()
    return tuple((v.name if isinstance(v, ast.ParamValue) else v, d)
                 for v, d in zip(t.values, t.docs, strict=False) if d is not None)
