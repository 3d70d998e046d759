"""What a spec's declarations introduce, and the diagnostics sink: the tables every part of
the checker reads and fills (the names of each kind, their declared types, the hooks and how
each is supplied, the bindings and types recorded for the compiler), with the small lookups
over them. The parts of :mod:`rulespec.lang.checker` share one :class:`Symbols`, as mypy's
checkers share one ``TypeChecker``.
"""

from __future__ import annotations

import difflib
from typing import assert_never

import attrs

from rulespec.errors import Diagnostic
from rulespec.lang import ast, walk
from rulespec.lang.decks import FRENCH, FRENCH_CONSTANTS, Deck, build_deck
from rulespec.lang.model import (
    BUILTIN_CONSTANTS,
    BUILTIN_FUNCTIONS,
    BUILTIN_VARS,
    ActionInfo,
    Binding,
    OptionInfo,
    Pos,
    pos,
)
from rulespec.lang.types import ANY, BOOL, CARD, INT, STR, SUIT, ZONE, ListOf, Named, Per, Type

__all__ = ["BASIC_TYPES", "Decls", "Scope", "Symbols"]

#: the built-in constants that are the French deck's: a declared deck names its own
FRENCH_NAMES = frozenset(FRENCH_CONSTANTS)

#: the type names a declaration may use, and the types they stand for
BASIC_TYPES: dict[str, Type] = {"int": INT, "bool": BOOL, "suit": SUIT, "card": CARD, "str": STR}


@attrs.define
class Scope:
    """The local names where a statement or expression stands, with their types; whether it
    is inside a loop; and what it is inside (the match, the deal, a procedure, a definition)."""

    names: dict[str, Type]
    in_loop: bool = False
    where: str = "match"  # match | deal | procedure | def

    def child(self, **kw: object) -> Scope:
        """A scope inside this one: its names start as this one's, and ``kw`` changes the
        rest."""
        new = Scope(dict(self.names), self.in_loop, self.where)
        for k, v in kw.items():
            setattr(new, k, v)
        return new


@attrs.define
class Decls:
    """The spec's one-per-spec declarations as found (None where missing), its requires, and
    where each top-level name was first declared."""

    game: ast.GameDecl | None = None
    players: ast.PlayersDecl | None = None
    hands: ast.HandsDecl | None = None
    teams: ast.TeamsDecl | None = None
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
    hints: list[ast.HintDecl] = attrs.Factory(list)
    tables: list[ast.TableDecl] = attrs.Factory(list)


class Symbols:
    """The checker's tables and its diagnostics (jlox's Resolver: every error is collected,
    and the check stops only at the end)."""

    def __init__(self, items: tuple[ast.Item, ...], sources: dict[str, str],
                 imports: dict[str, ast.Span] | None = None) -> None:
        self.items = items
        #: the spec declares fixed partnerships (the team built-ins are then in force)
        self.has_teams = any(isinstance(it, ast.TeamsDecl) for it in items)
        #: the teams are formed in play (``teams ... in play``): not known before the deal
        self.teams_in_play = any(isinstance(it, ast.TeamsDecl) and it.in_play for it in items)
        #: the spec has a 'sit out' statement (``sitting_out`` is then in force)
        self.sits_out = any(isinstance(x, ast.SitOut) for x in walk.descendants(items))
        self.reveals = any(isinstance(x, ast.Reveal) for x in walk.descendants(items))
        self.sources = sources
        #: each imported file, with the ``import`` that first brought it in
        self.imports = dict(imports or {})
        self.diags: list[Diagnostic] = []
        self.options: dict[str, OptionInfo] = {}
        self.enum_values: dict[str, set[str]] = {}  # value -> option names
        #: the named enumerations (``enum colour: {red, blue}``), and each of their values
        #: with the enumeration it belongs to
        self.enums: dict[str, ast.EnumDecl] = {}
        self.named_values: dict[str, str] = {}
        #: whether the rules read or set the direction of play (CheckedSpec.directed)
        self.directed = False
        self.zones: dict[str, ast.ZoneDecl] = {}
        #: the variables, result fields included (both are read and set alike)
        self.vars: dict[str, ast.VarDecl | ast.ResultDecl] = {}
        self.results: dict[str, ast.ResultDecl] = {}
        #: the ``set`` statements (by position) whose target is a result field
        self.result_sets: dict[Pos, str] = {}
        self.var_types: dict[str, Type] = {}
        self.defs: dict[str, ast.DefDecl] = {}
        #: each definition's type once worked out, and those being worked out
        self.def_types: dict[str, Type] = {}
        self.inferring: set[str] = set()
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
        self.actions: list[ActionInfo] = []
        #: what each name (and the function of each call) resolved to, and each expression's
        #: type, by position: handed on in CheckedSpec.resolution
        self.bindings: dict[Pos, Binding] = {}
        self.types: dict[Pos, Type] = {}
        #: the spec's deck (the French one unless it declares one) and the constants in
        #: force: the general ones and those its deck names (suits, ranks, extra cards)
        self.deck: Deck = FRENCH
        self.constants: dict[str, Type] = dict(BUILTIN_CONSTANTS)
        self._declare_deck()

    def _declare_deck(self) -> None:
        """The spec's ``deck`` declaration, if any: built, its mistakes reported, its names
        made constants (in place of the French deck's)."""
        decls = [it for it in self.items if isinstance(it, ast.DeckDecl)]
        if not decls:
            return
        for extra in decls[1:]:
            self.error(extra.span, "a spec has one 'deck' declaration (first at "
                                   f"{decls[0].span})", "declare every card in one deck")
        deck, problems = build_deck(decls[0])
        for span, msg, hint in problems:
            self.error(span, msg, hint)
        self.deck = deck
        self.constants = {k: t for k, t in BUILTIN_CONSTANTS.items() if k not in FRENCH_NAMES}
        spans = {e.name: e.span for e in decls[0].entries}
        for n, (t, _) in deck.constants().items():
            if n in self.constants or n in BUILTIN_VARS or n in BUILTIN_FUNCTIONS:
                self.error(spans.get(n, decls[0].span), f"the deck's name {n!r} is already "
                           "defined (a built-in name)", "choose another name")
            else:
                self.constants[n] = t

    def error(self, span: ast.Span | None, msg: str, hint: str | None = None) -> None:
        """Report a mistake; checking goes on."""
        self.diags.append(Diagnostic(span, msg, hint))

    def bind(self, e: ast.Expr, b: Binding) -> None:
        """Record what the name or call ``e`` resolved to, for the compiler."""
        self.bindings[pos(e.span)] = b

    def kind(self, n: str) -> str:
        """What the top-level name ``n`` is, in words (a name that no let may hide)."""
        if n in self.results:
            return "result field"
        if n in self.vars:
            return "variable"
        if n in self.options:
            return "option"
        return "built-in"

    def resolvable(self, n: str, scope: Scope) -> bool:
        """Whether ``n`` names a value where ``scope`` stands."""
        return (n in scope.names or n in self.vars or n in self.options or n in self.zones
                or n in self.constants or n in BUILTIN_VARS or n in self.enum_values
                or n in self.enums or n in self.named_values)

    def suggest(self, n: str, default: str | None) -> str | None:
        """A hint for the unknown name ``n``: the known name it is closest to, else
        ``default``."""
        if n in FRENCH_NAMES and not self.deck.french:
            own = [x for x in self.deck.constants() if x != "suits"][:6]
            return (f"{n!r} belongs to the French deck; this spec declares its own deck, whose "
                    f"names are {', '.join(own)}{' ...' if len(own) == 6 else ''}")
        pool = list(self.vars) + list(self.options) + list(self.defs) + list(self.procs) + \
            list(self.hooks) + \
            list(self.zones) + list(self.constants) + list(BUILTIN_FUNCTIONS) + \
            list(BUILTIN_VARS) + list(self.enum_values) + list(self.enums) + \
            list(self.named_values)
        close = difflib.get_close_matches(n, pool, n=1)
        if close:
            return f"did you mean {close[0]!r}?"
        return default

    def type_of_texpr(self, t: ast.TypeExpr) -> Type:
        """The type a declaration writes (an unknown one reported, and taken as any)."""
        match t:
            case ast.TypeName(name=n):
                if n in BASIC_TYPES:
                    return BASIC_TYPES[n]
                if n in self.enums:
                    return Named(n)
                self.error(t.span, f"unknown type {n!r}", "types: int, bool, suit, card, "
                           "list of T, T? (optional), or an enumeration the spec declares "
                           "(enum NAME: {a, b})")
                return ANY
            case ast.TypeOptional(inner=i):
                return self.type_of_texpr(i)
            case ast.TypeList(elem=e):
                if e in self.enums:
                    return ListOf(Named(e))
                if e not in BASIC_TYPES:
                    self.error(t.span, f"unknown type {e!r}")
                    return ListOf(ANY)
                return ListOf(BASIC_TYPES[e])
            case ast.TypeEnum():
                return STR
            case _:
                assert_never(t)
        return ANY  # pragma: no cover

    def var_type(self, v: ast.VarDecl | ast.ResultDecl) -> Type:
        """The declared type of a variable or result field (per player where it is)."""
        t = self.type_of_texpr(v.type)
        return Per(t) if v.per_player else t

    def param_type(self, p: ast.Param) -> Type:
        """The type of a parameter: as written, or as the hook it supplies declares it."""
        hooked = self.hook_param_types.get(pos(p.span))
        if hooked is not None:
            return hooked
        return self.type_of_texpr(p.type) if p.type is not None else ANY

    def hook_type(self, t: ast.TypeExpr) -> Type:
        """A type written in a hook: a declaration's types, and ``zone`` (what a hand plays
        from, say)."""
        bare = t.inner if isinstance(t, ast.TypeOptional) else t
        if isinstance(bare, ast.TypeName) and bare.name == "zone":
            return ZONE
        return self.type_of_texpr(t)
