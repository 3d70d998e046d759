"""The checked, resolved definition of a game: what the checker hands to the engine and the book.

A :class:`CheckedSpec` is frozen and holds only declarations that passed every static check, so
the engine can compile it without re-validating. The built-in names of the language (constants
and functions) are declared here once, with their types, for both the checker and the engine.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping
from types import MappingProxyType

import attrs
from attrs import frozen

from rulespec.errors import ConfigurationError
from rulespec.lang import ast
from rulespec.lang.builtins import BUILTINS
from rulespec.lang.decks import FRENCH, Deck
from rulespec.lang.types import BOOL, CARD, INT, NONE, SUIT, ListOf, Per, Type

__all__ = [
    "BUILTIN_CONSTANTS",
    "BUILTIN_FUNCTIONS",
    "VALUED_BUILTINS",
    "DIRECTED_BUILTINS",
    "SIT_OUT_NAMES",
    "TEAM_NAMES",
    "ActionInfo",
    "Binding",
    "BoundBuiltin",
    "BoundBuiltinVar",
    "BoundConstant",
    "BoundDef",
    "BoundEnum",
    "BoundEnumValue",
    "BoundLocal",
    "BoundOption",
    "BoundVar",
    "BoundZone",
    "CheckedSpec",
    "OptionInfo",
    "ParamInfo",
    "Pos",
    "Resolution",
    "pos",
]

# Types are rulespec.lang.types values: INT, BOOL, SUIT, CARD, STR, NONE, ANY, ListOf(T), ZONE (a
# shared zone, readable as a list of cards), PZONE (a per-player zone, indexed by seat), Per(T)
# (a per-player variable), EnumOf(NAME) (a value of option NAME).

BUILTIN_CONSTANTS: Mapping[str, Type] = {
    "seats": ListOf(INT),
    "player_count": INT,
    "hand_count": INT,
    "team_count": INT,        # with a 'teams' declaration: how many teams
    "joker_card": CARD,
    "suits": ListOf(SUIT),
    "clubs": SUIT,
    "diamonds": SUIT,
    "hearts": SUIT,
    "spades": SUIT,
    "jack": INT,
    "queen": INT,
    "king": INT,
    "ace": INT,
    "true": BOOL,
    "false": BOOL,
    "none": NONE,
}

# Built-in variables: readable everywhere, settable where noted.
BUILTIN_VARS: Mapping[str, Type] = {
    "dealer": INT,            # settable: the seat that deals the next deal
    "totals": Per(INT),       # read-only: match totals so far
    "deals_played": INT,      # read-only: finished deals
    "team_totals": Per(INT),  # read-only, with 'teams': each team's match total so far
    "sitting_out": Per(BOOL),  # read-only, with 'sit out': who sits out the deal
    # settable: true while play goes to the left (clockwise); only a spec that names it (or
    # next_of, turns_from) has it: CheckedSpec.directed
    "clockwise": BOOL,
}
#: the built-in functions that follow the direction of play (the variable ``clockwise``)
DIRECTED_BUILTINS = frozenset({"next_of", "turns_from"})
SETTABLE_BUILTINS = frozenset({"dealer", "clockwise"})
#: the built-in names of fixed partnerships: usable only in a spec that declares ``teams``,
#: and free for a spec without one to declare as its own (specs written before teams)
TEAM_NAMES = frozenset({"team_count", "team_totals", "team_of", "members", "partner"})
#: the same for ``sitting_out``, in force only in a spec with a ``sit out`` statement
SIT_OUT_NAMES = frozenset({"sitting_out"})

# name -> (parameter types, result type), from the one table of built-ins (rulespec.lang.builtins)
BUILTIN_FUNCTIONS: Mapping[str, tuple[tuple[Type, ...], Type]] = {
    n: (b.params, b.result) for n, b in BUILTINS.items()}

GENERATOR_FUNCTIONS = frozenset(n for n, b in BUILTINS.items() if b.generator)
#: the built-ins whose second argument gives one value for each card of their first
VALUED_BUILTINS = frozenset({"deadwood", "best_melds"})

BUILTIN_VALUES: Mapping[str, object] = {
    "clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3,
    "jack": 11, "queen": 12, "king": 13, "ace": 14,
    "true": True, "false": False, "none": None, "joker_card": "JK",
}


@frozen
class ParamInfo:
    """A typed parameter of a value of an enumerated option (``low: int``, ``k: int in 1..10``)."""

    name: str
    kind: str  # int | bool
    bounds: tuple[int, int] | None = None

    def describe(self) -> str:
        """``k: int in 1..10`` as the declaration writes it."""
        rng = f" in {self.bounds[0]}..{self.bounds[1]}" if self.bounds is not None else ""
        return f"{self.name}: {self.kind}{rng}"

    def check_arg(self, arg: object) -> str | None:
        """None if ``arg`` suits this parameter, else why not."""
        if self.kind == "bool":
            return None if isinstance(arg, bool) else f"{self.name} expects true or false"
        if not isinstance(arg, int) or isinstance(arg, bool):
            return f"{self.name} expects an integer"
        if self.bounds is not None and not self.bounds[0] <= arg <= self.bounds[1]:
            return f"{self.name} expects an integer in {self.bounds[0]}..{self.bounds[1]}"
        return None


#: ``NAME`` or ``NAME(ARG, ...)``, the text of a value of a parametric option
_VALUE_TEXT = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*", re.DOTALL)


def value_text(name: str, args: tuple[int | bool, ...]) -> str:
    """The canonical text of a value: ``free(1,5)``, ``ante(1)``, a plain value its name."""
    if not args:
        return name
    return name + "(" + ",".join(str(a).lower() if isinstance(a, bool) else str(a)
                                 for a in args) + ")"


def split_value_text(text: str) -> tuple[str, tuple[int | bool, ...]] | None:
    """``free(1, 5)`` as ``("free", (1, 5))``; None if it is not a name with arguments of
    numbers, true or false."""
    m = _VALUE_TEXT.fullmatch(text)
    if not m:
        return None
    if m.group(2) is None:
        return m.group(1), ()
    args: list[int | bool] = []
    for a in m.group(2).split(","):
        a = a.strip()
        if a in ("true", "false"):
            args.append(a == "true")
        elif re.fullmatch(r"-?[0-9]+", a):
            args.append(int(a))
        else:
            return None
    return m.group(1), tuple(args)


@frozen
class OptionInfo:
    """A named option (house rule) with its values, default, documentation and ambiguity ID."""

    name: str
    kind: str  # bool | int | enum
    values: tuple[int | str | bool, ...]
    default: int | str | bool
    ref: str | None
    doc: str | None
    span: ast.Span = attrs.field(eq=False)
    #: an integer option's declared range (both ends included), if any
    bounds: tuple[int, int] | None = None
    #: an enumerated option's values that take parameters, each with its parameters in order
    #: (a parametric option's values are texts: ``free(1,5)``, see :func:`value_text`)
    params: tuple[tuple[str, tuple[ParamInfo, ...]], ...] = ()
    #: what each value of an enumerated option means for the players, where the spec says
    value_docs: tuple[tuple[int | str | bool, str], ...] = ()
    #: the house rule's name in the players' words (``"Ace on Ace"``), where the spec gives one
    title: str | None = None

    def value_doc(self, name: object) -> str | None:
        """The text the spec gives value ``name`` (None if it gives none)."""
        for n, d in self.value_docs:
            if n == name:
                return d
        return None

    def value_params(self, name: object) -> tuple[ParamInfo, ...]:
        """The parameters of the value ``name`` (none for a plain value)."""
        for n, ps in self.params:
            if n == name:
                return ps
        return ()

    def describe_value(self, name: int | str | bool) -> str:
        """A value as the declaration writes it: ``free(low: int, high: int)``."""
        ps = self.value_params(name)
        if not ps:
            return str(name)
        return f"{name}(" + ", ".join(p.describe() for p in ps) + ")"

    def split(self, value: object) -> tuple[object, dict[str, int | bool]]:
        """A checked value of this option as its name and its arguments by parameter name
        (a plain value: itself and no arguments)."""
        if not self.params or not isinstance(value, str):
            return value, {}
        parts = split_value_text(value)
        if parts is None:  # pragma: no cover - the value was checked
            raise AssertionError(f"option {self.name!r}: unchecked value {value!r}")
        name, args = parts
        return name, {p.name: a for p, a in zip(self.value_params(name), args, strict=True)}

    def canonical(self, value: object) -> object:
        """A checked value in its canonical form: a parametric value's text without spaces."""
        if not self.params or not isinstance(value, str):
            return value
        parts = split_value_text(value)
        return value if parts is None else value_text(*parts)

    def _check_parametric(self, value: object) -> str | None:
        shown = ", ".join(self.describe_value(v) for v in self.values)
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            return f"expects one of {shown}"
        if isinstance(value, int):
            return None if value in self.values else f"expects one of {shown}"
        m = _VALUE_TEXT.fullmatch(value)
        if m is None or m.group(1) not in self.values:
            return f"expects one of {shown}"
        parts = split_value_text(value)
        if parts is None:
            return f"value {m.group(1)}: each argument is a number, true or false"
        name, args = parts
        ps = self.value_params(name)
        if not ps and args:
            return f"value {name} takes no arguments"
        if len(args) != len(ps):
            return (f"value {name} takes {len(ps)} argument{'s' if len(ps) != 1 else ''} "
                    f"({self.describe_value(name)})")
        for p, a in zip(ps, args, strict=True):
            why = p.check_arg(a)
            if why:
                return f"value {name}: {why}"
        return None

    def check_value(self, value: object) -> str | None:
        """None if ``value`` is allowed for this option, else why not."""
        if self.params:
            return self._check_parametric(value)
        if self.kind == "bool":
            return None if isinstance(value, bool) else "expects true or false"
        if self.kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                return "expects an integer"
            if self.bounds is not None and not self.bounds[0] <= value <= self.bounds[1]:
                return f"expects an integer in {self.bounds[0]}..{self.bounds[1]}"
            return None
        # the value itself, not one equal to it: a JSON 1.0 is no enum's 1 (it would reach the
        # rules as a float, where pack(1.0) fails as a rule's error)
        if not any(type(v) is type(value) and v == value for v in self.values):
            shown = ", ".join(str(v) for v in self.values)
            return f"expects one of {shown}"
        return None


@frozen
class ActionInfo:
    """One decision alternative as the docs and the record vocabulary see it."""

    name: str
    fields: tuple[str, ...]
    set_fields: tuple[str, ...]
    doc: str | None
    refs: tuple[str, ...]
    span: ast.Span = attrs.field(eq=False)
    #: how a book's example says a move of it (``told "..."``; rulespec.lang.told)
    told: str | None = None


# ---- what the checker resolved ---------------------------------------------------------------
# jlox's Resolver hands the interpreter a table of what each variable use refers to; here the
# checker hands the compiler (interpreter/eval.py) the binding of every name and the type of
# every expression, so that the two cannot disagree about what a name means.

#: where a node is written: (source name, line, column, end line, end column). Tables are keyed
#: by it, not by the node (AST equality ignores spans, so two equal names written in different
#: places would meet) and not by ``id()``.
Pos = tuple[str, int, int, int, int]


def pos(span: ast.Span) -> Pos:
    """The key of the node written at ``span``."""
    return (span.source, span.line, span.column, span.end_line, span.end_column)


@frozen
class BoundLocal:
    """A local of the enclosing rule: a parameter (of a procedure or a definition), a ``let``,
    a ``for`` or decision-generator variable, a comprehension's or generator's variable."""

    name: str


@frozen
class BoundVar:
    """A state variable the spec declares (``var``), or a field of a deal's result
    (``result``): both live in the state's variables."""

    name: str


@frozen
class BoundBuiltinVar:
    """A variable the engine keeps (``dealer``, ``totals``, ``deals_played``)."""

    name: str


@frozen
class BoundOption:
    """An option: fixed for the whole match once the table is set up."""

    name: str


@frozen
class BoundZone:
    """A zone (shared, or per player and then indexed by seat)."""

    name: str


@frozen
class BoundConstant:
    """A built-in constant (``seats``, ``hearts``, ``none``...; BUILTIN_CONSTANTS)."""

    name: str


@frozen
class BoundEnumValue:
    """A bare value of an enumerated option: the name stands for itself."""

    value: str


@frozen
class BoundEnum:
    """A named enumeration's name as a value: the list of its values, in declared order."""

    name: str


@frozen
class BoundDef:
    """The function of a call is a definition of the spec (``def``)."""

    name: str


@frozen
class BoundBuiltin:
    """The function of a call is a built-in function (rulespec.lang.builtins.BUILTINS)."""

    name: str


#: what a name (an ``ast.Name``), or the function of a call (``ast.Call``, ``ast.GenCall``), is
#: bound to
Binding = (BoundLocal | BoundVar | BoundBuiltinVar | BoundOption | BoundZone | BoundConstant
           | BoundEnumValue | BoundEnum | BoundDef | BoundBuiltin)


@frozen
class Resolution:
    """The checker's results for every expression of a checked spec, keyed by :func:`pos`.

    ``bindings``: for every ``ast.Name`` the checker resolved, what it is bound to; for every
    ``ast.Call`` and ``ast.GenCall``, the function called. ``types``: for every expression,
    its type (rulespec.lang.types). Both are read-only. A lookup that misses is a bug of the checker
    or the compiler, and raises AssertionError naming the position."""

    bindings: Mapping[Pos, Binding] = attrs.field(factory=lambda: MappingProxyType({}))
    types: Mapping[Pos, Type] = attrs.field(factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, bindings: Mapping[Pos, Binding], types: Mapping[Pos, Type]) -> Resolution:
        """A resolution holding read-only copies of ``bindings`` and ``types``."""
        return cls(MappingProxyType(dict(bindings)), MappingProxyType(dict(types)))

    def binding(self, span: ast.Span, what: str = "name") -> Binding:
        """What the name (or call) written at ``span`` is bound to."""
        b = self.bindings.get(pos(span))
        if b is None:
            raise AssertionError(f"the checker resolved no {what} at {span}")
        return b

    def type_of(self, e: ast.Expr) -> Type:
        """The type the checker gave the expression ``e``."""
        t = self.types.get(pos(e.span))
        if t is None:
            raise AssertionError(f"the checker typed no expression at {e.span}")
        return t


@frozen
class CheckedSpec:
    """A spec that passed every static check, with its names resolved into tables."""

    name: str
    title: str
    doc: str | None
    min_players: int
    max_players: int
    winner: str  # lowest | highest
    hands: ast.Expr | None
    game_end_forms: tuple[str, ...]
    options: tuple[OptionInfo, ...]
    requires: tuple[ast.RequireDecl, ...]
    zones: tuple[ast.ZoneDecl, ...]
    vars: tuple[ast.VarDecl, ...]
    defs: tuple[ast.DefDecl, ...]
    procs: tuple[ast.ProcDecl, ...]
    match: ast.MatchDecl
    deal: ast.DealDecl
    actions: tuple[ActionInfo, ...]
    items: tuple[ast.Item, ...] = attrs.field(eq=False, repr=False)
    #: ``score_range LOW..HIGH``: every seat's score in a deal lies in it (None: undeclared)
    score_range: tuple[ast.Expr, ast.Expr] | None = None
    #: ``max_events N``: no deal has more events, chance included (None: undeclared)
    max_events: ast.Expr | None = None
    #: ``result NAME: ...``: the fields every deal's entry of the record's results carries,
    #: besides ``scores`` and a flag, in declaration order
    results: tuple[ast.ResultDecl, ...] = ()
    #: ``hook NAME(...): TYPE``: the hooks the imported modules declare, each supplied by a
    #: definition of the spec or, failing one, by its default (then among ``defs``)
    hooks: tuple[ast.HookDecl, ...] = ()
    #: for the rulebook: the glossary (``term``) and the tables it works out (``table``)
    terms: tuple[ast.TermDecl, ...] = ()
    #: for the player's book: words of advice (``hint``)
    hints: tuple[ast.HintDecl, ...] = ()
    #: ``teams COUNT by DEF``: fixed partnerships (None: every seat plays for itself)
    teams: ast.TeamsDecl | None = None
    #: the spec has a ``sit out`` statement: each deal records who sat out
    sits_out: bool = False
    #: the spec has a ``reveal`` statement: the state keeps the piles laid face up
    reveals: bool = False
    tables: tuple[ast.TableDecl, ...] = ()
    #: the cards of the game: its ``deck`` declaration's, or the French deck (decks.FRENCH)
    deck: Deck = FRENCH
    #: ``enum NAME: {...}``: the named enumerations, in declaration order
    enums: tuple[ast.EnumDecl, ...] = ()
    #: whether the rules read or set the direction of play (``clockwise``, ``next_of``,
    #: ``turns_from``): only then does the state keep it, public, from the match's start
    directed: bool = False
    sources: Mapping[str, str] = attrs.field(eq=False, repr=False, factory=dict)
    #: what every name of every expression is bound to, and every expression's type, as the
    #: checker resolved them (the compiler reads them rather than resolving names again)
    resolution: Resolution = attrs.field(eq=False, repr=False, factory=Resolution)
    #: the definitions, procedures and zones by name: one table each, made with the spec
    def_named: Mapping[str, ast.DefDecl] = attrs.field(init=False, eq=False, repr=False)
    proc_named: Mapping[str, ast.ProcDecl] = attrs.field(init=False, eq=False, repr=False)
    zone_named: Mapping[str, ast.ZoneDecl] = attrs.field(init=False, eq=False, repr=False)

    @def_named.default
    def _def_named(self) -> Mapping[str, ast.DefDecl]:
        return MappingProxyType({d.name: d for d in self.defs})

    @proc_named.default
    def _proc_named(self) -> Mapping[str, ast.ProcDecl]:
        return MappingProxyType({p.name: p for p in self.procs})

    @zone_named.default
    def _zone_named(self) -> Mapping[str, ast.ZoneDecl]:
        return MappingProxyType({z.name: z for z in self.zones})

    def type_of(self, e: ast.Expr) -> Type:
        """The checked type of the expression ``e`` of this spec."""
        return self.resolution.type_of(e)

    def option(self, name: str) -> OptionInfo:
        """The option called ``name`` (KeyError if none)."""
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def enum_values(self, name: str) -> tuple[str, ...]:
        """The values of the named enumeration ``name``, in declared order."""
        for e in self.enums:
            if e.name == name:
                return tuple(str(v) for v in e.values.values)
        raise KeyError(name)

    def player_counts(self, between: str) -> str:
        """The numbers of players, ``2{between}4``, or ``4`` for a game of exactly four."""
        low, high = self.min_players, self.max_players
        return f"{low}" if low == high else f"{low}{between}{high}"

    @property
    def option_names(self) -> tuple[str, ...]:
        """Declared option names in source order."""
        return tuple(o.name for o in self.options)

    def defaults(self) -> dict[str, int | str | bool]:
        """Every option at its default."""
        return {o.name: o.default for o in self.options}

    def check_options(self, options: Mapping[str, object]) -> dict[str, object]:
        """``options`` (the non-default ones, as a record or a request gives them) checked
        against the declarations, with ``game_end`` spelled as ``deals``/``target`` (R9): the
        one option validator, for records, the protocol, the command line and the engine.
        Raises ConfigurationError (a RecordError: a bad option is an error of the record as a
        whole, H2, R3)."""
        if not isinstance(options, Mapping):
            raise ConfigurationError("'options' is a JSON object")
        out = dict(options)
        if "game_end" in out:
            ge = out.pop("game_end")
            m = re.fullmatch(r"\s*(deals|target|elimination)\s*\(\s*(\d+)\s*\)\s*", str(ge))
            if not m:
                raise ConfigurationError(f"game_end must be deals(k), target(T) or "
                                         f"elimination(T), not {ge!r}")
            if m.group(1) not in self.game_end_forms:
                allowed = ", ".join(f"{f}(...)" for f in self.game_end_forms) or "none"
                raise ConfigurationError(f"{self.name} does not end by {m.group(1)}(...): "
                                         f"game_end may be {allowed} (R9)")
            key = "deals" if m.group(1) == "deals" else "target"
            if "deals" in out or "target" in out:
                raise ConfigurationError("game_end cannot be given with deals or target (R9)")
            if int(m.group(2)) < 1:  # the form asks for a number of deals or a target
                raise ConfigurationError(f"game_end {m.group(1)}(...) must be at least 1")
            out[key] = int(m.group(2))
        if "deals" in out and "target" in out:
            raise ConfigurationError("deals and target together are an error (R9)")
        names = set(self.option_names)
        for k, v in out.items():
            if k not in names:
                close = difflib.get_close_matches(k, sorted(names), n=1, cutoff=0.7)
                raise ConfigurationError(f"unknown option {k!r} for {self.name}" + (
                    f"; did you mean {close[0]!r}?" if close else ""))
            why = self.option(k).check_value(v)
            if why:
                raise ConfigurationError(f"option {k!r} {why}, not {json.dumps(v)}")
            # a match lasts a deal at least; a target of 0 is none (the default of a spec
            # that plays to a target only when one is set), and no target is below it
            least = {"deals": 1, "target": 0}.get(k)
            if least is not None and isinstance(v, int) and v < least:
                raise ConfigurationError(f"option {k!r} must be at least {least}")
        return {k: self.option(k).canonical(v) for k, v in out.items()}

    def canonical_options(self, options: Mapping[str, object]) -> dict[str, object]:
        """``options`` with each value of a parametric option in its canonical text
        (``free(1,5)``), the rest as given: what a record carries."""
        names = set(self.option_names)
        return {k: self.option(k).canonical(v) if k in names else v
                for k, v in options.items()}

    def action_names(self) -> tuple[str, ...]:
        """Decision names in first-declared order."""
        seen: dict[str, None] = {}
        for a in self.actions:
            seen.setdefault(a.name, None)
        return tuple(seen)
