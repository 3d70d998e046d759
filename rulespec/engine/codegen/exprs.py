"""Expressions compiled to Python functions.

Each expression of a spec becomes the source text of one Python expression, and is turned into a
function ``fn(st, L)`` by ``exec`` once per table: ``st`` is the running state (its variables
``st.v`` and zones ``st.z``), ``L`` the local bindings of the running procedure. Generating one
Python expression per rule, rather than a tree of closures, removes a Python call per node of the
tree; this is what brings the interpreter within a small factor of hand-written Python.

Options, the player count and the built-in constants are known when a table is set up, so they
are folded here: ``if turnup_eight == bury_random ...`` compiles to one branch, and a spec pays
nothing at run time for the house rules it does not use. Calls of definitions are expanded in
place (the checker has made sure they are well-typed), so the folding sees through them.

Names are not resolved here: the checker has recorded what each one is bound to
(``CheckedSpec.resolution``, keyed by where the name is written), and :meth:`ExprCompiler._name`
reads that. The only names the compiler binds itself are its temporaries (``NAME#K``).
"""

from __future__ import annotations

import ast as pyast
import builtins
import re
from collections.abc import Callable, Mapping
from typing import NoReturn, assert_never, cast

from rulespec.engine.codegen.best import best_of, best_values, first_best
from rulespec.engine.codegen.inline import (
    INLINE_MAX_NODES,
    Gen,
    GlobalName,
    Inliner,
    Known,
    Raw,
    expanded_sizes,
    inlining_default,
    is_atom,
)
from rulespec.engine.codegen.loopinv import loop_lines
from rulespec.engine.codegen.pyexec import (
    exec_source,
    overcall,
    pyname,
    runtime_error,
)
from rulespec.engine.events import set_and_json, subset_in_order, subset_sets
from rulespec.engine.machine import Fn, Running
from rulespec.engine.teams import fixed_teams, teams_in_play
from rulespec.errors import ConfigurationError, RuleRuntimeError
from rulespec.lang import ast, walk
from rulespec.lang.builtins import (
    BUILTINS,
    RUNTIME_HELPERS,
    EmptyError,
    Value,
    add,
    mul,
    sub,
)
from rulespec.lang.clauses import clause_id
from rulespec.lang.decks import deck_runtime
from rulespec.lang.model import (
    BUILTIN_VALUES,
    BoundBuiltin,
    BoundBuiltinVar,
    BoundConstant,
    BoundDef,
    BoundEnum,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    BoundVar,
    BoundZone,
    CheckedSpec,
)
from rulespec.lang.types import (
    Bool,
    Card,
    EnumOf,
    Int,
    NoneT,
    Str,
    Suit,
    Type,
)

__all__ = ["SCALAR", "ExprCompiler"]


_Empty = EmptyError  # the name generated code catches
#: what folding a constant call or operation may raise: the rule's error, not the compiler's,
#: and only if the rule reaches it at run time (``if p > 5 then 1 // 0 else 0``)
_FOLD_ERRORS = (IndexError, KeyError, TypeError, ZeroDivisionError, ValueError, EmptyError)

_RUNTIME_GLOBALS: dict[str, object] = dict(RUNTIME_HELPERS)

#: the team built-ins where the teams are formed in play: functions of the state
_TEAMS_NOW = {"team_of": "_TEAMNOW", "members": "_MEMNOW", "partner": "_PARTNOW"}

#: Python's built-in names: a generated loop reads them where it runs, not as parameters
_PY_BUILTINS = frozenset(dir(builtins))

#: the checked types whose values are never a list (a list, a zone, a per-player value, or a
#: value whose type is not known statically, may be one)
SCALAR = (Int, Bool, Suit, Card, Str, NoneT, EnumOf)

#: sources not worth a temporary: a name, or one subscript of the state or the locals
_CHEAP = re.compile(r"^(?:\w+|[VZL]\[[^\[\]()]*\])$")
_NONE: frozenset[str] = frozenset()


class ExprCompiler(Inliner):
    """Compiles the expressions of one spec for one table (player count and options)."""

    #: with 'teams': each seat's team (None: no teams), and the number of teams
    teams: tuple[int, ...] | None = None
    team_count = 0
    #: with teams formed in play: a seat's team in a state (None otherwise)
    team_now: Callable[[Running, int], int] | None = None
    #: a declared deck's constants and folds, and the runtime names bound to its tables
    #: (all empty for the French deck: see _bind_deck)
    _deck_values: dict[str, object]
    _folds: dict[str, Callable[..., object]] | None
    deck_runtime: dict[str, object]

    def __init__(self, spec: CheckedSpec, players: int, options: Mapping[str, object],
                 hands: int | None = None, cover: set[str] | None = None,
                 compiled: set[str] | None = None, inline: bool | None = None,
                 keep_sources: bool = False) -> None:
        self.spec = spec
        # coverage (rulespec.lang.clauses): ids of the expression arms compiled, and, when on, the
        # set the generated code adds an arm's id to each time it is taken
        self.cover = cover
        self.compiled = compiled if compiled is not None else set()
        self.players = players
        self.hands = players if hands is None else hands
        self.options = options
        self.seats = tuple(range(players))
        #: what the checker resolved: the binding of every name, the type of every expression
        self.resolution = spec.resolution
        self.defs = spec.def_named
        #: each definition's size, its calls expanded (see expanded_sizes); those too large
        #: to expand in place are called
        self._sizes = expanded_sizes(spec.defs)
        self._called = frozenset(f for f, n in self._sizes.items() if n > INLINE_MAX_NODES)
        self._inlining: list[str] = []
        #: while a definition's table is compiled (its comprehensions spend nothing)
        self._tabulating = False
        #: the functions compiled for all(...) and any(...) (see _short_circuit)
        self._short: list[str] = []
        #: expand calls of definitions in place (see :func:`inlining_default`)
        self.inline = inlining_default() if inline is None else inline
        #: (file name, text) of every generated function, with ``keep_sources``
        self.sources: list[tuple[str, str]] | None = [] if keep_sources else None
        self._fresh = 0
        #: while an enumerator's loops are compiled: loop-invariant sources, each with the
        #: name of the temporary computed once before the loops (see :meth:`hoisting`)
        self._hoist: dict[str, str] = {}
        self._hoisting = False
        self._fixed: frozenset[str] = frozenset()  # see hoisting
        #: above zero while a comprehension's iterable is compiled (no ``:=`` there)
        self._in_iterable = 0
        self.globals: dict[str, object] = dict(_RUNTIME_GLOBALS)
        # seats_from(s) for each seat: slices of one tuple of seats, so that the numbers are
        # shared (at a table of 1,000 a million seat numbers would each be an object)
        seats = tuple(range(players))
        self.globals["_SF"] = tuple(seats[s:] + seats[:s] for s in seats)
        self.globals["_N"] = players
        _bind_deck(self, spec)
        self._consts: dict[int, str] = {}
        #: each expression compiled from the top, by its node and scope (see _top)
        self._seen: dict[tuple[int, frozenset[str], frozenset[str]], tuple[ast.Expr, Gen]] = {}
        #: each option read so far as its value's name and arguments (see _option_value)
        self._opt_split: dict[str, tuple[object, dict[str, int | bool]]] = {}
        self.def_fns: dict[str, Callable[..., Value]] = {}
        self._def_compilers: list[Callable[[], None]] = []
        #: each definition's table of values, by its global name, or None (see _table)
        self._tables: dict[str, str | None] = {}
        #: how many times each definition's body names each name (see _expand)
        self._uses: dict[str, dict[str, int]] = {}
        for d in spec.defs:
            self._compile_def(d)
        if spec.teams is not None:
            _set_teams(self, spec.teams)

    # ---- public ---------------------------------------------------------------------------
    def compile_defs(self) -> None:
        """Compile every definition now rather than on first use (coverage needs to know
        which of their clauses this table compiles before play reaches them)."""
        for f in self._def_compilers:
            f()

    def expr(self, e: ast.Expr, local: frozenset[str],
             pyvars: frozenset[str] = frozenset()) -> Fn:
        """A function ``(st, L) -> value`` for ``e``; ``local`` names the bindings in ``L``."""
        g = self._top(e, local, pyvars)
        if isinstance(g, Known):
            v = g.value
            return lambda st, L: v
        return self._function(g, e.span)

    def const(self, e: ast.Expr, local: frozenset[str] = frozenset(),
              pyvars: frozenset[str] = frozenset()) -> tuple[bool, object]:
        """(True, value) if ``e`` is constant for this table."""
        g = self._top(e, local, pyvars)
        return (True, g.value) if isinstance(g, Known) else (False, None)

    def folded(self, e: ast.Expr, local: frozenset[str],
               pyvars: frozenset[str]) -> tuple[bool, object, str]:
        """:meth:`const` and :meth:`source` of ``e`` from one compile: (True, value, "") if
        it is constant for this table, else (False, None, its source). While loop
        invariants are collected nothing is remembered between the two (see :meth:`_top`),
        and a guard compiled twice is most of what a table's enumerators cost."""
        g = self._top(e, local, pyvars)
        return (True, g.value, "") if isinstance(g, Known) else (False, None, self._src(g))

    def source(self, e: ast.Expr, local: frozenset[str], pyvars: frozenset[str]) -> str:
        """Python source text of ``e`` (constants included as literals or globals)."""
        return self._src(self._top(e, local, pyvars))

    def build(self, name: str, text: str, span: ast.Span,
              extra: dict[str, object] | None = None, what: str = "") -> Callable[..., Value]:
        """exec a generated function definition ``text`` defining ``name``; ``_span`` in it is
        ``span``, for runtime errors."""
        glb = dict(self.globals)
        glb.update(extra or {})
        glb["_span"] = span
        return exec_source(text, name, glb, span, what or name,  # type: ignore[no-any-return]
                           self.sources)

    def hoisting(self, on: bool, fresh: bool = False, fixed: frozenset[str] = _NONE) -> None:
        """Start (``on``) or pause collecting loop-invariant subexpressions; ``fresh``
        forgets those collected so far (a new enumerator). While on, every compound
        subexpression whose source names no variable bound inside the loops (a generator's,
        a comprehension's or an inlined parameter's: ``v_*`` and ``t*_*``, but the names in
        ``fixed``, the kernel's procedure locals) becomes a temporary ``_hK``, computed once
        before the loops. The legal moves of a shedding game test every group of cards
        against the same top card; the card's rank and suit are then read once, not once
        per group. Coverage marks are side effects: nothing is hoisted with coverage on."""
        if fresh:
            self._hoist = {}
        self._hoisting = on and self.cover is None
        self._fixed = fixed if on else frozenset()

    def fresh(self, base: str) -> str:
        """A new temporary's name, ``base#K``: no spec name, and no other temporary, is it."""
        self._fresh += 1
        return f"{base}#{self._fresh}"

    def invariant(self, src: str) -> str:
        """``src``, Python source that no loop of the enumerator being compiled changes, as a
        temporary computed once before the loops while hoisting is on (see :meth:`hoisting`);
        as it is otherwise."""
        if not self._hoisting:
            return src
        name = self._hoist.get(src)
        if name is None:
            name = self._hoist[src] = f"_h{len(self._hoist)}"
        return name

    def type_of(self, e: ast.Expr) -> Type:
        """The type the checker gave ``e`` (an expression of the spec, not one made here)."""
        return self.resolution.type_of(e)

    def hoisted(self) -> list[tuple[str, str]]:
        """The temporaries collected since :meth:`hoisting` was turned on, in the order they
        must be computed (each after the ones it reads)."""
        return [(name, src) for src, name in self._hoist.items()]

    # ---- plumbing -------------------------------------------------------------------------
    def _function(self, code: str, span: ast.Span) -> Fn:
        text = (
            "def _f(st, L):\n"
            "    V = st.v; Z = st.z\n"
            "    try:\n"
            f"        return {code}\n"
            "    except (IndexError, KeyError, TypeError, ZeroDivisionError, _Empty) as e:\n"
            "        raise _rt(e, _span)\n"
        )
        self.globals.setdefault("_Empty", _Empty)
        self.globals.setdefault("_rt", runtime_error)
        glb = dict(self.globals)
        glb["_span"] = span
        return exec_source(text, "_f", glb, span, "expression",  # type: ignore[no-any-return]
                           self.sources)

    def _src(self, g: Gen) -> str:
        if not isinstance(g, Known):
            return g
        v = g.value
        if v is None or isinstance(v, (bool, int, str)):
            return repr(v)
        key = id(v)
        name = self._consts.get(key)
        if name is None:
            name = f"_k{len(self._consts)}"
            self._consts[key] = name
            self.globals[name] = v
            # keep the object alive so its id stays unique
            self.globals[name + "_keep"] = v
        return name

    def _compile_def(self, d: ast.DefDecl) -> None:
        params = [p.name for p in d.params]
        holder: list[Callable[..., Value]] = []
        # what one call spends of the work budget: the nodes its body evaluates, at most
        cost = self._sizes.get(d.name, 1)

        # Compiled on first use, so definitions may refer to each other in any order.
        def compile_now() -> None:
            if not holder:
                pyvars = frozenset(params)
                body = self._src(self._g(d.body, frozenset(), pyvars))
                names = ", ".join(pyname(p) for p in params)
                text = (f"def _d(st{', ' if names else ''}{names}):\n"
                        "    V = st.v; Z = st.z\n"
                        "    try:\n"
                        f"        return {body}\n"
                        "    except (IndexError, KeyError, TypeError, ZeroDivisionError,"
                        " _Empty) as e:\n"
                        "        raise _rt(e, _span)\n")
                glb = dict(self.globals)
                glb.update(_Empty=_Empty, _rt=runtime_error, _span=d.span)
                holder.append(exec_source(text, "_d", glb, d.span, f"def {d.name}",
                                          self.sources))

        def call(st: Running, *args: Value) -> Value:
            if not holder:
                compile_now()
            # a call spends the work budget as a loop's round does: calls of calls (2**30 of
            # them down a chain of definitions) stop with an error, not after hours
            st.work -= cost
            if st.work < 0:
                overcall(d.span)
            return holder[0](st, *args)

        self._def_compilers.append(compile_now)
        self.def_fns[d.name] = call
        self.globals[f"_def_{d.name}"] = call

    # ---- code generation --------------------------------------------------------------------
    def _top(self, e: ast.Expr, local: frozenset[str], py: frozenset[str]) -> Gen:
        """``_g`` of an expression of the rules, asked for by a statement or an enumerator:
        remembered, for a table compiles the same guard several times over (whether it is
        constant, then its source; an alternative's enumerator, the plain version beside the
        hoisted one, and the decision's). Not while loop invariants are collected (what it
        hoists belongs to one enumerator) nor with coverage (which counts arms as compiled);
        the node is kept with its text, so that its id is not reused while remembered."""
        if self._hoisting or self.cover is not None or self._inlining or self._in_iterable \
                or self._tabulating:
            return self._g(e, local, py)
        key = (id(e), local, py)
        hit = self._seen.get(key)
        if hit is not None and hit[0] is e:
            return hit[1]
        g = self._g(e, local, py)
        self._seen[key] = (e, g)
        return g

    def _g(self, e: ast.Expr, local: frozenset[str], py: frozenset[str]) -> Gen:
        g = self._g_node(e, local, py)
        if self._hoisting and type(g) is str and not _CHEAP.match(g) and self.hoistable(g):
            return self.invariant(g)
        return g

    def _g_node(self, e: ast.Expr, local: frozenset[str],  # noqa: C901
                py: frozenset[str]) -> Gen:
        match e:
            case ast.IntLit(value=v) | ast.StrLit(value=v) | ast.CardLit(code=v):
                return Known(v)
            case ast.Cited(expr=inner):
                return self._g(inner, local, py)
            case ast.Name():
                return self._name(e, local, py)
            case GlobalName():
                # a definition's free name: never a local of the place it is inlined into
                return self._name(e, frozenset(), frozenset())
            case Raw(src=src):
                return src
            case ast.Index(target=tg, index=ix):
                t, i = self._g(tg, local, py), self._g(ix, local, py)
                if isinstance(t, Known) and isinstance(i, Known) and type(i.value) is int and \
                        0 <= i.value < len(t.value):
                    return Known(t.value[i.value])
                ii = self._src(i)
                bare = ix.expr if isinstance(ix, ast.Cited) else ix
                if (isinstance(i, Known) and not (type(i.value) is int and i.value >= 0)) or \
                        isinstance(bare, ast.Neg) or (isinstance(bare, ast.BinOp) and
                                                      bare.op in ("-", "//", "%")):
                    # an index that may be negative is checked: Python's xs[-1] would read
                    # the last element where the rule reads past the start
                    ii = f"_ix({ii})"
                    self.globals["_ix"] = _nonnegative
                return f"{self._src(t)}[{ii}]"
            case ast.ListLit(items=items):
                parts = [self._g(i, local, py) for i in items]
                if all(isinstance(p, Known) for p in parts):
                    return Known(tuple(p.value for p in parts))  # type: ignore[union-attr]
                return "(" + "".join(self._src(p) + ", " for p in parts) + ")"
            case ast.Comprehension(elem=el, var=v, source=src, cond=cond):
                return f"tuple({self._gen_body(el, v, src, cond, local, py, eager=True)})"
            case ast.GenCall(elem=el, var=v, source=src, cond=cond):
                return self._gencall(e, el, v, src, cond, local, py)
            case ast.Call(args=args):
                return self._call(e, args, local, py)
            case ast.BinOp(op=op, left=a, right=b):
                ga, gb = self._g(a, local, py), self._g(b, local, py)
                if isinstance(ga, Known) and isinstance(gb, Known):
                    try:
                        return Known(_fold_binop(op, ga.value, gb.value))
                    except _FOLD_ERRORS:
                        pass  # raised by the generated code, if that code is ever run
                # every sum and difference is checked for size (builtins.MAX_INT_BITS), but
                # one with a small constant, which moves a number by that constant only: a
                # counter's ``+ 1`` costs nothing, and no number passes the limit by more
                # than the constants a rule adds
                if op in ("+", "-") and not (_small_int_k(ga) or _small_int_k(gb)):
                    return f"_{'add' if op == '+' else 'sub'}({self._src(ga)}, {self._src(gb)})"
                if op == "*":
                    # a product is checked for size: squaring, or ten times over a million
                    # rounds, would otherwise make numbers of millions of digits
                    return f"_mul({self._src(ga)}, {self._src(gb)})"
                return f"({self._src(ga)} {op} {self._src(gb)})"
            case ast.Compare(op=op, left=a, right=b):
                ga, gb = self._g(a, local, py), self._g(b, local, py)
                if isinstance(ga, Known) and isinstance(gb, Known):
                    try:
                        return Known(_fold_compare(op, ga.value, gb.value))
                    except _FOLD_ERRORS:
                        pass
                return f"({self._src(ga)} {op} {self._src(gb)})"
            case ast.And() | ast.Or() | ast.Not() | ast.Neg() | ast.IfExpr():
                return self._logic(e, local, py)
            case ast.OptionArg():
                return self._option_arg(e)
            case _:
                assert_never(e)

    def _logic(self, e: ast.And | ast.Or | ast.Not | ast.Neg | ast.IfExpr, local: frozenset[str],
               py: frozenset[str]) -> Gen:
        """The connectives and ``if … then … else``: a constant side decides the result (an
        option settles a branch for the whole match, and the arm taken counts as covered)."""
        match e:
            case ast.And(left=a, right=b):
                ga = self._g(a, local, py)
                if isinstance(ga, Known):
                    return self._g(b, local, py) if ga.value else Known(False)
                gb = self._g(b, local, py)
                if isinstance(gb, Known):
                    return ga if gb.value else Known(False)
                return f"({ga} and {gb})"
            case ast.Or(left=a, right=b):
                ga = self._g(a, local, py)
                if isinstance(ga, Known):
                    return Known(True) if ga.value else self._g(b, local, py)
                gb = self._g(b, local, py)
                if isinstance(gb, Known):
                    return Known(True) if gb.value else ga
                return f"({ga} or {gb})"
            case ast.Not(operand=o):
                go = self._g(o, local, py)
                return Known(not go.value) if isinstance(go, Known) else f"(not {go})"
            case ast.Neg(operand=o):
                go = self._g(o, local, py)
                return Known(-go.value) if isinstance(go, Known) else f"(-{go})"
            case ast.IfExpr(cond=c, then=t, else_=f):
                gc = self._g(c, local, py)
                if isinstance(gc, Known):
                    # an option settles the arm for the whole match: it counts as exercised
                    arm = clause_id("expr-then" if gc.value else "expr-else", e.span)
                    self.compiled.add(arm)
                    if self.cover is not None:
                        self.cover.add(arm)
                    return self._g(t if gc.value else f, local, py)
                gt, gf = self._g(t, local, py), self._g(f, local, py)
                st, sf = self._src(gt), self._src(gf)
                ids = (clause_id("expr-then", e.span), clause_id("expr-else", e.span))
                self.compiled.update(ids)
                if self.cover is not None:
                    # ``None or x`` is x: the mark leaves the arm's value alone
                    self.globals["_CV"] = self.cover.add
                    st, sf = f"(_CV({ids[0]!r}) or {st})", f"(_CV({ids[1]!r}) or {sf})"
                return f"({st} if {gc} else {sf})"
            case _:
                assert_never(e)

    def _name(self, e: ast.Name | GlobalName, local: frozenset[str],
              py: frozenset[str]) -> Gen:
        """The source of a name: what the checker bound it to (or one of the compiler's
        temporaries), in the place this table keeps it."""
        n = e.id
        if "#" in n:
            # a temporary (an inlined parameter bound once, a renamed bound variable): the
            # compiler's own Python local
            if n not in py:
                raise AssertionError(f"{e.span}: the temporary {n!r} is not bound here")
            return pyname(n)
        b = self.resolution.binding(e.span)
        match b:
            case BoundLocal(name=x):
                if x != n:
                    raise AssertionError(f"{e.span}: {n!r} was resolved as the local {x!r}")
                # a Python local (a generator's, a comprehension's or a compiled definition's
                # variable) or one of the running procedure's bindings in L
                if n in py:
                    return pyname(n)
                if n in local:
                    return f"L[{n!r}]"
                raise AssertionError(f"{e.span}: the local {n!r} is not bound here")
            case BoundVar(name=x) | BoundBuiltinVar(name=x):
                return f"V[{x!r}]"
            case BoundOption(name=x):
                # a parametric option's value is its name here (``stake_mode == free``); its
                # arguments are read by ``stake_mode.low`` (_option_arg)
                return Known(self._option_value(x)[0])
            case BoundConstant(name=x):
                return Known(self._constant(x))
            case BoundZone(name=x):
                return f"Z[{x!r}]"
            case BoundEnumValue(value=v):
                return Known(v)
            case BoundEnum(name=x):
                return Known(self.spec.enum_values(x))
            case BoundDef() | BoundBuiltin():
                raise AssertionError(f"{e.span}: the name {n!r} is bound to a function")
            case _:
                assert_never(b)

    def _option_value(self, x: str) -> tuple[object, dict[str, int | bool]]:
        """The value of option ``x`` at this table as its name and its arguments."""
        got = self._opt_split.get(x)
        if got is None:
            got = self._opt_split[x] = self.spec.option(x).split(self.options[x])
        return got

    def _option_arg(self, e: ast.OptionArg) -> Gen:
        """``OPTION.PARAM``: the argument, a constant of the table; where the table's value
        has no such parameter, code that raises a runtime error naming the rule when it is
        evaluated (a read the options fold away, ``if o == v then o.p else ...``, is never
        compiled)."""
        b = self.resolution.binding(e.span, "option")
        if b != BoundOption(e.option):
            raise AssertionError(f"{e.span}: {e.option}.{e.param} was resolved as {b}")
        name, args = self._option_value(e.option)
        if e.param in args:
            return Known(args[e.param])
        opt = self.spec.option(e.option)
        with_it = [n for n in opt.values if any(p.name == e.param for p in opt.value_params(n))]
        err = RuleRuntimeError(
            f"option {e.option!r} is {self.options[e.option]}, whose value {name} has no "
            f"parameter {e.param!r}", e.span,
            f"read it only where {e.option} is " + " or ".join(str(n) for n in with_it)
            + f": if {e.option} == {with_it[0]} then {e.option}.{e.param} else ...")
        self.globals["_NP"] = _no_param
        return f"_NP({self._src(Known(err))})"

    def _constant(self, n: str) -> object:
        """The value of the built-in constant ``n`` at this table."""
        if n in self._deck_values:
            return self._deck_values[n]
        if n == "seats":
            return self.seats
        if n == "player_count":
            return self.players
        if n == "hand_count":
            return self.hands
        if n == "team_count":
            return self.team_count
        if n == "suits":
            return ("C", "D", "H", "S")
        if n in ("clubs", "diamonds", "hearts", "spades"):
            return "CDHS"[BUILTIN_VALUES[n]]  # type: ignore[index]
        return BUILTIN_VALUES[n]

    def _gen_body(self, el: ast.Expr, v: str, src: ast.Expr, cond: ast.Expr | None,
                  local: frozenset[str], py: frozenset[str], eager: bool = False) -> str:
        """A generator expression, or with ``eager`` a list comprehension: the same elements,
        evaluated in the same order, all of them (Python makes a list about twice as fast as
        it resumes a generator, so whatever consumes every element gets a list)."""
        self._in_iterable += 1
        try:
            s = self._src(self._g(src, local, py))
        finally:
            self._in_iterable -= 1
        # its length spent from the work budget each time it runs (builtins.spend); a
        # tabulated definition is worked out once for its whole domain, and pays nothing
        if not self._tabulating:
            s = f"_spend(st, {s})"
        inner = py | {v}
        ge = self._src(self._g(el, local, inner))
        tail = ""
        if cond is not None:
            gc = self._g(cond, local, inner)
            if isinstance(gc, Known):
                if not gc.value:
                    return "[]" if eager else "(x for x in ())"
            else:
                tail = f" if {gc}"
        if eager:
            return f"[{ge} for {pyname(v)} in {s}{tail}]"
        return f"({ge} for {pyname(v)} in {s}{tail})"

    def _gencall(self, e: ast.GenCall, el: ast.Expr, v: str, src: ast.Expr,
                 cond: ast.Expr | None, local: frozenset[str], py: frozenset[str]) -> str:
        fn = self.resolution.binding(e.span, "call")
        if not isinstance(fn, BoundBuiltin):
            raise AssertionError(f"{e.span}: a generator call of {fn}")
        b = BUILTINS[fn.name]
        if fn.name in ("all", "any"):
            return self._short_circuit(e, fn.name == "all", el, v, src, cond, local, py)
        body = self._gen_body(el, v, src, cond, local, py, eager=b.eager)
        return b.template.format(body)

    def _short_circuit(self, e: ast.GenCall | ast.Call, every: bool | None, el: ast.Expr,
                       v: str, src: ast.Expr, cond: ast.Expr | None, local: frozenset[str],
                       py: frozenset[str]) -> str:
        """``all(...)`` or ``any(...)`` over a generator (``every`` True or False), or
        ``first([...])`` of a comprehension (``every`` None), as a call of a generated
        function that loops and returns at the first element that decides: the same elements
        tested, in the same order, without the generator Python would make and resume (a
        third of the time, for the few cards a hand's test reads), or the whole list built to
        read its first element (the next player still in, out of fourteen seats). The
        function's parameters are the names its loop reads from the place of the call (the
        state, the locals, temporaries, an enclosing loop's variables), passed in as they are
        there."""
        gen = self._gen_body(el, v, src, cond, local, py)
        tree = pyast.parse(gen, mode="eval").body
        assert isinstance(tree, pyast.GeneratorExp) and len(tree.generators) == 1
        comp = tree.generators[0]
        var = pyast.unparse(comp.target)
        # bound inside: a nested comprehension's variable, an inlined parameter's ``:=``, a
        # lambda's parameter (an inlined definition in a comprehension's iterable)
        stored = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)
                  and isinstance(n.ctx, pyast.Store)} | {
            n.arg for n in pyast.walk(tree) if isinstance(n, pyast.arg)}
        free = sorted({n.id for n in pyast.walk(pyast.Tuple([tree.elt, *comp.ifs], pyast.Load()))
                       if isinstance(n, pyast.Name) and isinstance(n.ctx, pyast.Load)}
                      - stored - {var} - set(self.globals) - _PY_BUILTINS)
        it = comp.iter
        spends = isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and \
            it.func.id == "_spend" and len(it.args) == 2
        # the state whose budget the loop spends, where nothing else of it is read: passed
        # by keyword (``st=st``), so that the call reads as no read of the state (READS_STATE)
        budget = ["st=st"] if spends and "st" not in free else []
        lines = [f"def _sc({', '.join(['_xs', *free, *(['*', 'st'] if budget else [])])}):"]
        if spends:
            # the work budget spent here, as builtins.spend spends it, without its call
            assert isinstance(it, pyast.Call)
            it = it.args[1]
            lines += ["    st.left -= len(_xs)", "    if st.left < 0:", "        _spend(st, _xs)"]
        # the test's (and all/any's element's) invariants computed once (loopinv), not
        # with coverage on: its marks are side effects
        lines += loop_lines(var, comp.ifs, tree.elt, every, stored, self.cover is None)
        what = "first([...])" if every is None else f"{'all' if every else 'any'}(...)"
        name = f"_sc{len(self._short)}"
        self._short.append(name)
        self.globals[name] = exec_source("\n".join(lines) + "\n", "_sc", self.globals, e.span,
                                         f"{what}, as a loop", self.sources)
        return f"{name}({', '.join([pyast.unparse(it), *free, *budget])})"

    def _call(self, e: ast.Call, args: tuple[ast.Expr, ...], local: frozenset[str],
              py: frozenset[str]) -> Gen:
        fn = self.resolution.binding(e.span, "call")
        match fn:
            case BoundDef(name=f):
                if f in self._inlining or not self.inline or f in self._called:
                    # recursion, inlining off, or a definition whose expansion would be too
                    # large: call the compiled definition
                    parts = ", ".join(self._src(self._g(a, local, py)) for a in args)
                    return f"_def_{f}(st{', ' if parts else ''}{parts})"
                return self._inline(self.defs[f], args, local, py)
            case BoundBuiltin(name=f):
                if f in _TEAMS_NOW and self.team_now is not None:
                    # teams formed in play: the team is the definition's value now
                    return f"{_TEAMS_NOW[f]}(st, {self._src(self._g(args[0], local, py))})"
            case _:
                raise AssertionError(f"{e.span}: a call of {fn}")
        b = BUILTINS[f]
        if f == "first":
            c = walk.uncited(args[0])
            if isinstance(c, ast.Comprehension):
                # stops at the first element that passes, as any(...) stops at the first
                # that decides: the elements after it are not looked at
                loop = self._short_circuit(e, None, c.elem, c.var, c.source, c.cond, local, py)
                best = best_of(c, lambda sp: self.resolution.binding(sp, "call")) \
                    if self.cover is None and not self._tabulating else None
                values = best and best_values(self._gen_body(
                    best[1].elem, best[1].var, best[0], None, local, py, eager=True))
                if best is None or values is None:
                    return loop
                self.globals["_first_best"] = first_best
                many = self.resolution.binding(best[1].span, "call") == BoundBuiltin("max")
                return f"_first_best(st, {values}, {many}, lambda: {loop})"
        # not with coverage on: a folded ``if size([c]) == 1`` would count its arm as taken
        # whether or not any event takes it
        if b.on_items is not None and self.cover is None and \
                isinstance(lit := walk.uncited(args[0]), ast.ListLit) and lit.items and \
                all(map(is_atom, lit.items)):
            picked = b.on_items(lit.items)
            return Known(picked) if type(picked) is int else \
                self._g(cast(ast.Expr, picked), local, py)
        gs = [self._g(a, local, py) for a in args]
        fold = b.fold if self._folds is None else self._folds.get(f, b.fold)
        if fold is not None and all(isinstance(g, Known) for g in gs):
            try:
                return Known(fold(*(g.value for g in gs)))  # type: ignore[union-attr]
            except _FOLD_ERRORS:
                pass  # not folded: the call raises where the rule reaches it, if it does
        if f in _READ_ONCE and isinstance(gs[0], str):
            gs[0] = _unfrozen(gs[0])
        return b.template.format(*(self._src(g) for g in gs))


def _no_param(err: RuleRuntimeError) -> NoReturn:
    """Raise ``err``: a rule read a parameter the table's value of an option does not have."""
    raise err


#: built-ins that read one element or the length of their list and keep nothing of it
_READ_ONCE = frozenset({"size", "top", "bottom", "first", "last"})


def _unfrozen(src: str) -> str:
    """A comprehension's list without the ``tuple(...)`` that makes it a value to keep, for
    a built-in that only takes its length or one element (``first([r for r in ...])``):
    the same length and elements, and the same errors (an empty one's is an IndexError
    either way)."""
    if not (src.startswith("tuple([") and src.endswith("])")):
        return src
    try:
        inner = pyast.parse(src[len("tuple("):-1], mode="eval").body
    except SyntaxError:
        return src  # "tuple([...]) ... ([...])": not one call
    return src[len("tuple("):-1] if isinstance(inner, pyast.ListComp) else src


def _small_int_k(g: Gen) -> bool:
    """A constant number of at most 64 bits."""
    return isinstance(g, Known) and type(g.value) is int and g.value.bit_length() <= 64


def _nonnegative(i: int) -> int:
    """``i`` as an index: a negative one is past the start of the list (an IndexError, which
    the rule's error reports), not Python's count from the end."""
    if i < 0:
        raise IndexError(f"position {i}")
    return i


def _fold_binop(op: str, x: Value, y: Value) -> Value:
    # the checked operations, as the generated code runs them: folding never makes a number
    # the rules could not
    if op == "+":
        return add(x, y)
    if op == "*":
        return mul(x, y)
    if op == "-":
        return sub(x, y)
    return {"//": lambda: x // y, "%": lambda: x % y}[op]()


def _fold_compare(op: str, x: Value, y: Value) -> bool:
    return {"==": lambda: x == y, "!=": lambda: x != y, "<": lambda: x < y,
            "<=": lambda: x <= y, ">": lambda: x > y, ">=": lambda: x >= y,
            "in": lambda: x in y, "not in": lambda: x not in y}[op]()


def _set_teams(ec: ExprCompiler, decl: ast.TeamsDecl) -> None:
    """The partnerships of this table (engine/teams.py works them out): the tables
    team_of, members and partner read (_TEAM, _MEM, _PART), or, for teams formed in
    play, the functions of the state they call (_TEAMNOW..., see _call)."""
    ok, count = ec.const(decl.count)
    if not ok or type(count) is not int or not 1 <= count <= ec.players:
        raise ConfigurationError(f"{ec.spec.name}: 'teams' must be a number from 1 to "
                                 f"the players, known once the options are (got {count!r})")
    ec.team_count = count
    side, sf = ec.def_fns[decl.by], cast("tuple[tuple[int, ...], ...]", ec.globals["_SF"])
    if decl.in_play:
        team_of, members, partner = teams_in_play(decl, count, side, sf)
        ec.team_now = team_of
        ec.globals.update(_TEAMNOW=team_of, _MEMNOW=members, _PARTNOW=partner)
        return
    ec.teams, mem, part = fixed_teams(ec.spec.name, decl, count, side, sf)
    ec.globals.update(_TEAM=ec.teams, _MEM=mem, _PART=part)


def _bind_deck(ec: ExprCompiler, spec: CheckedSpec) -> None:
    """A declared deck: the built-ins that read cards read its tables (the French deck's
    are the built-ins' own, so a spec without a deck compiles as it always did)."""
    deck = spec.deck
    ec._deck_values = {}
    ec._folds = None
    ec.deck_runtime = {}
    if not deck.french:
        ec._deck_values = {n: v for n, (_, v) in deck.constants().items()}
        ec._folds = deck.folds()
        ec.deck_runtime = deck_runtime(deck, {
            "_setjv": set_and_json, "_subset_sets": subset_sets,
            "_subset_in_order": subset_in_order})
        ec.globals.update(ec.deck_runtime)
