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
import itertools
import linecache
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, assert_never, cast

import attrs

from rulespec.engine.machine import MAX_WORK, Fn
from rulespec.errors import RuleRuntimeError
from rulespec.lang import ast, walk
from rulespec.lang.builtins import (
    BUILTINS,
    LEFT,
    RUNTIME_HELPERS,
    EmptyError,
    LimitError,
    add,
    mul,
    sub,
)
from rulespec.lang.cards import CARD_ORDER, SUITS
from rulespec.lang.clauses import clause_id
from rulespec.lang.model import (
    BUILTIN_VALUES,
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
)
from rulespec.lang.types import Type

__all__ = ["ExprCompiler", "exec_source", "inlining_default", "pyname", "runtime_error",
           "share_common"]


_Empty = EmptyError  # the name generated code catches
#: what folding a constant call or operation may raise: the rule's error, not the compiler's,
#: and only if the rule reaches it at run time (``if p > 5 then 1 // 0 else 0``)
_FOLD_ERRORS = (IndexError, KeyError, TypeError, ZeroDivisionError, ValueError, EmptyError)

_RUNTIME_GLOBALS: dict[str, object] = dict(RUNTIME_HELPERS)


@attrs.frozen
class _GlobalName:
    """A name in an inlined definition's body: it means what it means where the definition is
    written (a variable, option, zone, built-in), never a local of the call site. It keeps the
    span of the name it replaces, so the checker's binding of that name is found by it."""

    id: str
    span: ast.Span = attrs.field(default=ast.NOSPAN, eq=False)


@attrs.frozen
class _Raw:
    """Python source standing for an argument in an inlined body (a temporary's name)."""

    src: str
    span: ast.Span = attrs.field(default=ast.NOSPAN, eq=False)


@attrs.frozen
class _K:
    """A value known while compiling."""

    value: Any


_Gen = _K | str  # a constant, or Python source text


def pyname(n: str) -> str:
    """The Python name of a spec name or a compiler temporary. A spec's names (letters, digits
    and ``_``) become ``v_NAME``; a temporary ``NAME#K`` (a parameter bound once, a renamed
    bound variable) becomes ``tK_NAME``: the two namespaces cannot meet, whatever a spec names
    its variables (``x_1`` and the temporary ``x#1`` once both became ``v_x_1``)."""
    base, sep, k = n.partition("#")
    return f"t{k}_{base}" if sep else "v_" + n


#: generated sources registered with linecache, so that tracebacks show them; one counter
#: makes each file name unique
_SOURCE_IDS = itertools.count()
#: the names registered, oldest first, and how many are kept
_REGISTERED: list[str] = []
_REGISTERED_MAX = 20_000


def inlining_default() -> bool:
    """Whether calls of definitions are expanded in place (``RULESPEC_NO_INLINE=1`` turns it
    off, so that a runtime error points at the definition it happens in, not the whole
    expression that inlined it)."""
    return os.environ.get("RULESPEC_NO_INLINE", "") in ("", "0")


def _commentable(text: str) -> str:
    """``text`` as it may stand in a comment of generated source: itself when it is printable
    ASCII, else as :func:`ascii` spells it.

    A spec's file name is user text. Written raw, a line break in it (LF, CR, a form feed, or
    U+2028, at which ``splitlines`` and so linecache break) would end the comment and put the
    rest of the name into the program (style.md habit 14)."""
    return text if text.isascii() and text.isprintable() else ascii(text)


def exec_source(text: str, name: str, glb: dict[str, object], span: ast.Span,
                what: str, sources: list[tuple[str, str]] | None = None) -> Any:
    """``exec`` the generated definition ``text`` and return the function ``name`` it defines.

    The one place generated code is run: the text gets a first line naming the spec clause it
    comes from, is registered with :mod:`linecache` under a unique ``<rules:...>`` name (so a
    traceback through it shows the generated line), and is appended to ``sources`` when given
    (``rulespec compile --emit``)."""
    head = f"# {_commentable(span.source)}:{span.line}:{span.column}: {_commentable(what)}\n"
    full = head + text
    filename = f"<rules:{_commentable(span.source)}:{span.line}#{next(_SOURCE_IDS)}>"
    linecache.cache[filename] = (len(full), None, full.splitlines(keepends=True), filename)
    _REGISTERED.append(filename)
    if len(_REGISTERED) > _REGISTERED_MAX:
        # a long-running process compiles table after table: the oldest sources go (a
        # traceback through their code then shows no source line, nothing worse)
        for old in _REGISTERED[:_REGISTERED_MAX // 2]:
            linecache.cache.pop(old, None)
        del _REGISTERED[:_REGISTERED_MAX // 2]
    ns: dict[str, object] = {}
    try:
        code = compile(full, filename, "exec")
    except (SyntaxError, RecursionError) as e:
        # Python's own bounds on nesting (200 parentheses, 20 blocks, its parser's stack):
        # a spec within the checker's limits should not reach them, but one that does is
        # a spec too deep, said at its clause, not our internal error
        msg = e.msg if isinstance(e, SyntaxError) else "maximum recursion depth exceeded"
        if isinstance(e, SyntaxError) and "nested" not in msg:
            raise  # a syntax error of ours
        raise RuleRuntimeError(f"the rules here nest too deeply for Python to compile them "
                               f"({msg})", span,
                               "split the expression into definitions of its own") from None
    exec(code, glb, ns)
    if sources is not None:
        sources.append((filename, full))
    return ns[name]


class ExprCompiler:
    """Compiles the expressions of one spec for one table (player count and options)."""

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
        self.defs = {d.name: d for d in spec.defs}
        #: each definition's size, its calls expanded (see _expanded_sizes); those too large
        #: to expand in place are called
        self._sizes = _expanded_sizes(spec.defs)
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
        #: above zero while a comprehension's iterable is compiled (no ``:=`` there)
        self._in_iterable = 0
        self.globals: dict[str, object] = dict(_RUNTIME_GLOBALS)
        # seats_from(s) for each seat: slices of one tuple of seats, so that the numbers are
        # shared (at a table of 1,000 a million seat numbers would each be an object)
        seats = tuple(range(players))
        self.globals["_SF"] = tuple(seats[s:] + seats[:s] for s in seats)
        self.globals["_N"] = players
        self._consts: dict[int, str] = {}
        #: each option read so far as its value's name and arguments (see _option_value)
        self._opt_split: dict[str, tuple[object, dict[str, int | bool]]] = {}
        self.def_fns: dict[str, Callable[..., Any]] = {}
        self._def_compilers: list[Callable[[], None]] = []
        #: each definition's table of values, by its global name, or None (see _table)
        self._tables: dict[str, str | None] = {}
        for d in spec.defs:
            self._compile_def(d)

    # ---- public ---------------------------------------------------------------------------
    def compile_defs(self) -> None:
        """Compile every definition now rather than on first use (coverage needs to know
        which of their clauses this table compiles before play reaches them)."""
        for f in self._def_compilers:
            f()

    def expr(self, e: ast.Expr, local: frozenset[str],
             pyvars: frozenset[str] = frozenset()) -> Fn:
        """A function ``(st, L) -> value`` for ``e``; ``local`` names the bindings in ``L``."""
        g = self._g(e, local, pyvars)
        if isinstance(g, _K):
            v = g.value
            return lambda st, L: v
        return self._function(g, e.span)

    def const(self, e: ast.Expr, local: frozenset[str] = frozenset(),
              pyvars: frozenset[str] = frozenset()) -> tuple[bool, object]:
        """(True, value) if ``e`` is constant for this table."""
        g = self._g(e, local, pyvars)
        return (True, g.value) if isinstance(g, _K) else (False, None)

    def source(self, e: ast.Expr, local: frozenset[str], pyvars: frozenset[str]) -> str:
        """Python source text of ``e`` (constants included as literals or globals)."""
        return self._src(self._g(e, local, pyvars))

    def build(self, name: str, text: str, span: ast.Span,
              extra: dict[str, object] | None = None, what: str = "") -> Callable[..., Any]:
        """exec a generated function definition ``text`` defining ``name``; ``_span`` in it is
        ``span``, for runtime errors."""
        glb = dict(self.globals)
        glb.update(extra or {})
        glb["_span"] = span
        return exec_source(text, name, glb, span, what or name,  # type: ignore[no-any-return]
                           self.sources)

    def hoisting(self, on: bool, fresh: bool = False) -> None:
        """Start (``on``) or pause collecting loop-invariant subexpressions; ``fresh``
        forgets those collected so far (a new enumerator).

        While on, every compound subexpression whose source names no variable bound inside
        the loops (a generator's, a comprehension's or an inlined parameter's: ``v_*`` and
        ``t*_*``) becomes a temporary ``_hK``, computed once before the loops. The legal
        moves of a shedding game test every group of cards against the same top card; the
        card's rank and suit are then read once, not once per group. Coverage marks are side
        effects, so nothing is hoisted with coverage on."""
        if fresh:
            self._hoist = {}
        self._hoisting = on and self.cover is None

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

    def _src(self, g: _Gen) -> str:
        if not isinstance(g, _K):
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
        holder: list[Callable[..., Any]] = []
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

        def call(st: Any, *args: Any) -> Any:
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
    def _g(self, e: ast.Expr, local: frozenset[str], py: frozenset[str]) -> _Gen:
        g = self._g_node(e, local, py)
        if self._hoisting and type(g) is str and not _CHEAP.match(g) \
                and not _BOUND_INSIDE.search(g) and "_NP(" not in g:
            return self.invariant(g)
        return g

    def _g_node(self, e: ast.Expr, local: frozenset[str],  # noqa: C901
                py: frozenset[str]) -> _Gen:
        match e:
            case ast.IntLit(value=v) | ast.StrLit(value=v):
                return _K(v)
            case ast.Cited(expr=inner):
                return self._g(inner, local, py)
            case ast.Name():
                return self._name(e, local, py)
            case _GlobalName():
                # a definition's free name: never a local of the place it is inlined into
                return self._name(e, frozenset(), frozenset())
            case _Raw(src=src):
                return src
            case ast.Index(target=tg, index=ix):
                t, i = self._g(tg, local, py), self._g(ix, local, py)
                if isinstance(t, _K) and isinstance(i, _K) and type(i.value) is int and \
                        0 <= i.value < len(t.value):
                    return _K(t.value[i.value])
                ii = self._src(i)
                bare = ix.expr if isinstance(ix, ast.Cited) else ix
                if (isinstance(i, _K) and not (type(i.value) is int and i.value >= 0)) or \
                        isinstance(bare, ast.Neg) or (isinstance(bare, ast.BinOp) and
                                                      bare.op in ("-", "//", "%")):
                    # an index that may be negative is checked: Python's xs[-1] would read
                    # the last element where the rule reads past the start
                    ii = f"_ix({ii})"
                    self.globals["_ix"] = _nonnegative
                return f"{self._src(t)}[{ii}]"
            case ast.ListLit(items=items):
                parts = [self._g(i, local, py) for i in items]
                if all(isinstance(p, _K) for p in parts):
                    return _K(tuple(p.value for p in parts))  # type: ignore[union-attr]
                return "(" + "".join(self._src(p) + ", " for p in parts) + ")"
            case ast.Comprehension(elem=el, var=v, source=src, cond=cond):
                return f"tuple({self._gen_body(el, v, src, cond, local, py, eager=True)})"
            case ast.GenCall(elem=el, var=v, source=src, cond=cond):
                return self._gencall(e, el, v, src, cond, local, py)
            case ast.Call(args=args):
                return self._call(e, args, local, py)
            case ast.BinOp(op=op, left=a, right=b):
                ga, gb = self._g(a, local, py), self._g(b, local, py)
                if isinstance(ga, _K) and isinstance(gb, _K):
                    try:
                        return _K(_fold_binop(op, ga.value, gb.value))
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
                if isinstance(ga, _K) and isinstance(gb, _K):
                    try:
                        return _K(_fold_compare(op, ga.value, gb.value))
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
               py: frozenset[str]) -> _Gen:
        """The connectives and ``if … then … else``: a constant side decides the result (an
        option settles a branch for the whole match, and the arm taken counts as covered)."""
        match e:
            case ast.And(left=a, right=b):
                ga = self._g(a, local, py)
                if isinstance(ga, _K):
                    return self._g(b, local, py) if ga.value else _K(False)
                gb = self._g(b, local, py)
                if isinstance(gb, _K):
                    return ga if gb.value else _K(False)
                return f"({ga} and {gb})"
            case ast.Or(left=a, right=b):
                ga = self._g(a, local, py)
                if isinstance(ga, _K):
                    return _K(True) if ga.value else self._g(b, local, py)
                gb = self._g(b, local, py)
                if isinstance(gb, _K):
                    return _K(True) if gb.value else ga
                return f"({ga} or {gb})"
            case ast.Not(operand=o):
                go = self._g(o, local, py)
                return _K(not go.value) if isinstance(go, _K) else f"(not {go})"
            case ast.Neg(operand=o):
                go = self._g(o, local, py)
                return _K(-go.value) if isinstance(go, _K) else f"(-{go})"
            case ast.IfExpr(cond=c, then=t, else_=f):
                gc = self._g(c, local, py)
                if isinstance(gc, _K):
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

    def _name(self, e: ast.Name | _GlobalName, local: frozenset[str],
              py: frozenset[str]) -> _Gen:
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
                return _K(self._option_value(x)[0])
            case BoundConstant(name=x):
                return _K(self._constant(x))
            case BoundZone(name=x):
                return f"Z[{x!r}]"
            case BoundEnumValue(value=v):
                return _K(v)
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

    def _option_arg(self, e: ast.OptionArg) -> _Gen:
        """``OPTION.PARAM``: the argument, a constant of the table; where the table's value
        has no such parameter, code that raises a runtime error naming the rule when it is
        evaluated (a read the options fold away, ``if o == v then o.p else ...``, is never
        compiled)."""
        b = self.resolution.binding(e.span, "option")
        if b != BoundOption(e.option):
            raise AssertionError(f"{e.span}: {e.option}.{e.param} was resolved as {b}")
        name, args = self._option_value(e.option)
        if e.param in args:
            return _K(args[e.param])
        opt = self.spec.option(e.option)
        with_it = [n for n in opt.values if any(p.name == e.param for p in opt.value_params(n))]
        err = RuleRuntimeError(
            f"option {e.option!r} is {self.options[e.option]}, whose value {name} has no "
            f"parameter {e.param!r}", e.span,
            f"read it only where {e.option} is " + " or ".join(str(n) for n in with_it)
            + f": if {e.option} == {with_it[0]} then {e.option}.{e.param} else ...")
        self.globals["_NP"] = _no_param
        return f"_NP({self._src(_K(err))})"

    def _constant(self, n: str) -> object:
        """The value of the built-in constant ``n`` at this table."""
        if n == "seats":
            return self.seats
        if n == "player_count":
            return self.players
        if n == "hand_count":
            return self.hands
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
            s = f"_spend({s})"
        inner = py | {v}
        ge = self._src(self._g(el, local, inner))
        tail = ""
        if cond is not None:
            gc = self._g(cond, local, inner)
            if isinstance(gc, _K):
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
        ind = "        "
        lines = [f"def _sc({', '.join(['_xs', *free])}):"]
        it = comp.iter
        if isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and \
                it.func.id == "_spend" and len(it.args) == 1:
            # the work budget spent here, as builtins.spend spends it, without its call
            it = it.args[0]
            lines += ["    _LEFT[0] -= len(_xs)", "    if _LEFT[0] < 0:", "        _spend(_xs)"]
            self.globals["_LEFT"] = LEFT
        lines.append(f"    for {var} in _xs:")
        for test in comp.ifs:
            lines.append(f"{ind}if not ({pyast.unparse(test)}): continue")
        elt = pyast.unparse(tree.elt)
        if every is None:
            # an empty list's first element: the IndexError that [...][0] would raise
            lines += [f"{ind}return {elt}", "    raise IndexError('first of an empty list')"]
            what = "first([...])"
        else:
            lines += [f"{ind}if {'not ' if every else ''}({elt}): return {not every}",
                      f"    return {every}"]
            what = f"{'all' if every else 'any'}(...)"
        name = f"_sc{len(self._short)}"
        self._short.append(name)
        self.globals[name] = exec_source("\n".join(lines) + "\n", "_sc", self.globals, e.span,
                                         f"{what}, as a loop", self.sources)
        return f"{name}({', '.join([pyast.unparse(it), *free])})"

    def _call(self, e: ast.Call, args: tuple[ast.Expr, ...], local: frozenset[str],
              py: frozenset[str]) -> _Gen:
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
                pass
            case _:
                raise AssertionError(f"{e.span}: a call of {fn}")
        b = BUILTINS[f]
        if f == "first":
            c = walk.uncited(args[0])
            if isinstance(c, ast.Comprehension):
                # stops at the first element that passes, as any(...) stops at the first
                # that decides: the elements after it are not looked at
                return self._short_circuit(e, None, c.elem, c.var, c.source, c.cond, local, py)
        # not with coverage on: a folded ``if size([c]) == 1`` would count its arm as taken
        # whether or not any event takes it
        if b.on_items is not None and self.cover is None and \
                isinstance(lit := walk.uncited(args[0]), ast.ListLit) and lit.items and \
                all(map(_atom, lit.items)):
            picked = b.on_items(lit.items)
            return _K(picked) if type(picked) is int else \
                self._g(cast(ast.Expr, picked), local, py)
        gs = [self._g(a, local, py) for a in args]
        if b.fold is not None and all(isinstance(g, _K) for g in gs):
            try:
                return _K(b.fold(*(g.value for g in gs)))  # type: ignore[union-attr]
            except _FOLD_ERRORS:
                pass  # not folded: the call raises where the rule reaches it, if it does
        if f in _READ_ONCE and isinstance(gs[0], str):
            gs[0] = _unfrozen(gs[0])
        return b.template.format(*(self._src(g) for g in gs))

    # A call of a definition is expanded in place: parameters become the argument expressions,
    # or, for a compound argument used more than once, a lambda parameter evaluated once.
    def _inline(self, d: ast.DefDecl, args: tuple[ast.Expr, ...], local: frozenset[str],
                py: frozenset[str]) -> _Gen:
        table = self._table(d)
        if table is None:
            return self._expand(d, args, local, py)
        # expanded all the same, with nothing hoisted, for what compiling it records (the
        # clauses compiled, temporaries numbered): only the text is replaced by the lookup
        hoisting, self._hoisting = self._hoisting, False
        try:
            g = self._expand(d, args, local, py)
        finally:
            self._hoisting = hoisting
        if isinstance(g, _K):
            return g
        return f"{table}[{self._src(self._g(args[0], local, py))}]"

    def _table(self, d: ast.DefDecl) -> str | None:
        """The global name of the table of ``d``'s values, or None where it has none.

        A definition of one card or suit that reads no state (``ordinary(c)``, ``points(c)``,
        once the options are folded) is a function of 53 or 4 values: each is computed once
        for the table, and a call is one dictionary lookup instead of the expanded body (a
        shedding game's guards test ``ordinary(c)`` for every group of cards). A value
        outside the domain (``none`` for a ``card?``) misses and is computed by the body
        itself (:class:`_Table`), raising what the expanded body raises, where it raises; a
        body that fails for some value of the domain gets no table. Not with coverage (a
        table would hide which arms each call takes) nor with inlining off."""
        if d.name in self._tables:
            return self._tables[d.name]
        self._tables[d.name] = None  # also while its body is compiled (recursion)
        domain = _domain(d) if self.cover is None and self.inline else None
        if domain is None:
            return None
        p = d.params[0].name
        hoisting, in_iterable = self._hoisting, self._in_iterable
        self._hoisting, self._in_iterable, self._tabulating = False, 0, True
        self._inlining.append(d.name)
        try:
            body = self._src(self._g(d.body, frozenset(), frozenset({p})))
        finally:
            self._inlining.pop()
            self._hoisting, self._in_iterable = hoisting, in_iterable
            self._tabulating = False
        if _READS_STATE.search(body) or (body.count("[") < 2 and "_tab_" not in body):
            # reads the state, or is already about as cheap as a lookup (``rank(c) == 8``)
            return None
        fn = exec_source(f"def _tab({pyname(p)}):\n    return {body}\n", "_tab",
                         dict(self.globals), d.span, f"def {d.name}, tabulated", self.sources)
        table = _Table(fn)
        try:
            for x in domain:
                table[x] = fn(x)
        except Exception:
            return None
        name = self._tables[d.name] = f"_tab_{d.name}"
        self.globals[name] = table
        return name

    def _expand(self, d: ast.DefDecl, args: tuple[ast.Expr, ...], local: frozenset[str],
                py: frozenset[str]) -> _Gen:
        mapping: dict[str, ast.Expr] = {}
        lets: list[tuple[str, ast.Expr]] = []
        uses = _count_names(d.body)
        for prm, a in zip(d.params, args, strict=True):
            ga = self._g(a, local, py)
            if isinstance(ga, _K) or _simple(a) or uses.get(prm.name, 0) <= 1:
                mapping[prm.name] = a
            elif _NAME.match(ga):
                # already one Python name (a temporary computed before the loops)
                mapping[prm.name] = _Raw(ga)  # type: ignore[assignment]
            else:
                fresh = self.fresh(prm.name)
                lets.append((fresh, a))
                mapping[prm.name] = ast.Name(fresh, span=a.span)
        body = self._substitute(d.body, mapping)
        self._inlining.append(d.name)
        try:
            inner = py | {n for n, _ in lets}
            g = self._g(body, local, inner)
            if not lets or isinstance(g, _K):
                return g
            vals = [self._src(self._g(a, local, py)) for _, a in lets]
            if self._in_iterable:
                # Python allows no ``:=`` in a comprehension's iterable, even in a lambda
                # there: bind the parameters as a lambda's
                names = ", ".join(pyname(n) for n, _ in lets)
                return f"(lambda {names}: {g})({', '.join(vals)})"
            # each parameter bound once by ``:=`` before the body: no function is made and
            # called, as a lambda would be, at each evaluation; ``(x or True) and body`` is
            # the body's value whatever x is (a number, a card, a list: never a side effect),
            # without the tuple that ``(x, body)[-1]`` builds and indexes
            binds = "".join(f"(({pyname(n)} := {v}) or True) and "
                            for (n, _), v in zip(lets, vals, strict=True))
            return f"({binds}{g})"
        finally:
            self._inlining.pop()

    def _substitute(self, e: Any, mapping: dict[str, ast.Expr]) -> Any:
        """``e`` with parameter names replaced, bound variables renamed to avoid capture, and
        every other name marked global (lexical scope: a definition never sees the locals of
        the place it is called from)."""
        if isinstance(e, ast.Name):
            return mapping.get(e.id) or _GlobalName(e.id, span=e.span)
        if isinstance(e, (ast.Comprehension, ast.GenCall)):
            fresh = self.fresh(e.var)
            inner = dict(mapping)
            inner[e.var] = ast.Name(fresh, span=e.span)
            return attrs.evolve(
                e, var=fresh, source=self._substitute(e.source, mapping),
                elem=self._substitute(e.elem, inner),
                cond=self._substitute(e.cond, inner) if e.cond is not None else None)
        if attrs.has(type(e)) and not isinstance(e, ast.Span):
            changes = {}
            for f in attrs.fields(type(e)):
                if f.name == "span":
                    continue
                v = getattr(e, f.name)
                if attrs.has(type(v)) or isinstance(v, tuple):
                    changes[f.name] = self._substitute(v, mapping)
            return attrs.evolve(e, **changes) if changes else e
        if isinstance(e, tuple):
            return tuple(self._substitute(x, mapping) for x in e)
        return e


class _Table(dict):  # type: ignore[type-arg]
    """A tabulated definition's values by argument (see ExprCompiler._table); a value not in
    it is computed by the definition's body, uncaught, so the expression it is inlined into
    reports any error as the expanded body would."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[object], object]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, key: object) -> object:
        return self.fn(key)


def _domain(d: ast.DefDecl) -> tuple[str, ...] | None:
    """Every value of a definition's only parameter, where it is a card or a suit."""
    if len(d.params) != 1:
        return None
    t = d.params[0].type
    if isinstance(t, ast.TypeOptional):
        t = t.inner
    if isinstance(t, ast.TypeName) and t.name == "card":
        return tuple(CARD_ORDER)
    if isinstance(t, ast.TypeName) and t.name == "suit":
        return SUITS
    return None


#: generated code that reads the state, or a temporary computed from it
_READS_STATE = re.compile(r"\b(?:V|Z|L|st|_h\d+)\b")

#: sources not worth a temporary: a name, or one subscript of the state or the locals
_CHEAP = re.compile(r"^(?:\w+|[VZL]\[[^\[\]()]*\])$")
_NAME = re.compile(r"^_h\d+$")
#: a Python name bound inside an enumerator's loops (see ExprCompiler.hoisting)
_BOUND_INSIDE = re.compile(r"\b(?:v|t\d+)_\w")


def runtime_error(e: Exception, span: ast.Span) -> RuleRuntimeError:
    if isinstance(e, RuleRuntimeError):
        return e
    if isinstance(e, ZeroDivisionError):
        return RuleRuntimeError("division by zero", span)
    if isinstance(e, (KeyError, TypeError)):
        return RuleRuntimeError(f"a value of the wrong kind reached this rule ({e})", span,
                                "a card, suit or number was expected; is it none here?")
    if isinstance(e, IndexError):
        return RuleRuntimeError("this rule took a card or an element from an empty zone or "
                                "list, or a position past its end", span,
                                "guard the rule with size(...) > 0")
    return RuleRuntimeError(str(e), span)


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


def _small_int_k(g: _Gen) -> bool:
    """A constant number of at most 64 bits."""
    return isinstance(g, _K) and type(g.value) is int and g.value.bit_length() <= 64


def _atom(e: ast.Expr) -> bool:
    """A name or a literal: evaluating it cannot fail, and costs nothing."""
    return isinstance(walk.uncited(e), (ast.Name, ast.IntLit, ast.StrLit))


def _simple(e: ast.Expr) -> bool:
    """Cheap to evaluate more than once: a name, a literal, an index of a name, or a list of
    names and literals (``[c]``: written out where it is used, ``size([c])`` and
    ``first([c])`` fold to ``1`` and ``c``)."""
    e = walk.uncited(e)
    if _atom(e):
        return True
    if isinstance(e, ast.ListLit):
        return all(map(_atom, e.items))
    return isinstance(e, ast.Index) and _simple(e.target) and _simple(e.index)


def _count_names(e: object) -> dict[str, int]:
    acc: dict[str, int] = {}
    for x in walk.descendants(e):
        if isinstance(x, ast.Name):
            acc[x.id] = acc.get(x.id, 0) + 1
    return acc


def overwork(span: ast.Span) -> NoReturn:
    """Raise the runtime error of a loop past the work budget."""
    raise RuleRuntimeError(
        f"the loops here go round more than {MAX_WORK} times between two events", span,
        "a loop that runs this long between two decisions is almost certainly endless: "
        "check how it ends (RULESPEC_MAX_WORK sets the limit)")


def overproc() -> NoReturn:
    """Raise the error of procedure calls past the work budget (a LimitError: the generated
    code gives it the call's place)."""
    raise LimitError(f"procedures are called here more than {MAX_WORK} times between two "
                     "events: procedures that call others several times multiply their "
                     "work (RULESPEC_MAX_WORK sets the limit)")


def overcall(span: ast.Span) -> NoReturn:
    """Raise the runtime error of calls of a definition past the work budget."""
    raise RuleRuntimeError(
        f"this definition is called more than {MAX_WORK} times between two events", span,
        "definitions that call others several times multiply their work: compute a value "
        "once, with let (RULESPEC_MAX_WORK sets the limit)")


#: the most AST nodes a definition may expand to, its calls expanded, for its calls to be
#: expanded in place: past it (a chain of definitions each calling the one before twice
#: doubles at each step), it is compiled once and called
INLINE_MAX_NODES = 5_000


def _expanded_sizes(defs: Sequence[ast.DefDecl]) -> dict[str, int]:
    """Each definition's size once its calls are expanded, at most INLINE_MAX_NODES + 1: the
    body's own nodes plus, for each call, the callee's size (a callee past the limit counts
    as one node: it is called, not expanded), worked out callees first without recursion
    (the checker refuses cycles)."""
    by_name = {d.name: d for d in defs}
    calls = {d.name: [c.func for c in walk.descendants(d.body)
                      if isinstance(c, ast.Call) and c.func in by_name] for d in defs}
    own = {d.name: sum(1 for _ in walk.descendants(d.body)) for d in defs}
    size: dict[str, int] = {}
    for root in by_name:
        stack, on = [root], {root}
        while stack:
            f = stack[-1]
            todo = [g for g in calls[f] if g not in size and g not in on]
            if todo:
                stack.extend(todo)
                on.update(todo)
                continue
            stack.pop()
            on.discard(f)
            if f not in size:
                big = sum(1 if size.get(g, 0) > INLINE_MAX_NODES else size.get(g, 1)
                          for g in calls[f])
                size[f] = min(own[f] + big, INLINE_MAX_NODES + 1)
    return size


def _nonnegative(i: int) -> int:
    """``i`` as an index: a negative one is past the start of the list (an IndexError, which
    the rule's error reports), not Python's count from the end."""
    if i < 0:
        raise IndexError(f"position {i}")
    return i


def _fold_binop(op: str, x: Any, y: Any) -> Any:
    # the checked operations, as the generated code runs them: folding never makes a number
    # the rules could not
    if op == "+":
        return add(x, y)
    if op == "*":
        return mul(x, y)
    if op == "-":
        return sub(x, y)
    return {"//": lambda: x // y, "%": lambda: x % y}[op]()


def _fold_compare(op: str, x: Any, y: Any) -> bool:
    return {"==": lambda: x == y, "!=": lambda: x != y, "<": lambda: x < y,
            "<=": lambda: x <= y, ">": lambda: x > y, ">=": lambda: x >= y,
            "in": lambda: x in y, "not in": lambda: x not in y}[op]()


# ---- common subexpressions ------------------------------------------------------------------
#: Python nodes whose inside is evaluated apart from the expression around it (per element, or
#: not at all): nothing in them is shared with the rest, nor taken out of them
#: Python's built-in names: a generated loop reads them where it runs, not as parameters
_PY_BUILTINS = frozenset(dir(builtins))
_OPAQUE = (pyast.Lambda, pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp)


def share_common(src: str) -> str:
    """``src``, a generated Python expression, with each subscript or ``len(...)`` that is
    evaluated again where its first evaluation has certainly happened read from a temporary.

    Inlined definitions repeat their arguments' subexpressions: the guard of a shedding game's
    play reads ``rank(first(g))`` several times for one group. Generated expressions have no
    side effects, so a second evaluation gives what the first gave; only one whose first
    evaluation dominates it (came before it on every path: the left side of ``and``/``or``,
    the test of ``if``/``else``, an earlier argument) reads the temporary, so an error is
    raised by the same evaluation as before, and nothing is evaluated that was not."""
    if src.count("[") + src.count("len(") < 2:
        return src  # nothing could be read twice (compiling many tables, this is most tests)
    got = _SHARED.get(src)
    if got is None:
        # a function of the text alone, and an enumerator's tests are compiled several
        # times (merged, alone, not hoisted), as is each table verify sets up
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        got = _SHARED[src] = _share(src)
    return got


#: share_common's answers by their sources, at most _SHARED_MAX of them
_SHARED: dict[str, str] = {}
_SHARED_MAX = 4096


def _share(src: str) -> str:
    try:
        tree = pyast.parse(src, mode="eval")
    except SyntaxError:  # pragma: no cover - the compiler writes valid Python
        return src
    sharer = _Sharer()
    body = sharer.visit_expr(tree.body, {})
    if not sharer.used:
        return src
    body = _Unbind(sharer.used).visit(body)
    body = _Forward(body).visit(body)
    return pyast.unparse(pyast.fix_missing_locations(pyast.Expression(body)))


class _Sharer:
    """One pass in evaluation order; ``avail`` maps an expression (its dump) to the temporary
    that holds it on every path reaching this point."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.used: set[str] = set()
        #: a name bound by ``:=`` (an inlined parameter) to the key of the expression it
        #: holds: its uses are keyed as that expression (``rank(c)`` with ``c := first(g)``
        #: is rank(first(g)))
        self.alias: dict[str, str] = {}
        #: whether each node (by id) holds no ``:=`` and nothing evaluated apart
        self._pure: dict[int, bool] = {}

    def _key(self, e: pyast.expr) -> str:
        """A text that two expressions share only when they compute the same value."""
        match e:
            case pyast.Name(id=n):
                return self.alias.get(n, n)
            case pyast.Constant(value=v):
                return repr(v)
            case pyast.Subscript(value=val, slice=sl):
                return f"{self._key(val)}[{self._key(sl)}]"
            case pyast.Call(func=f, args=args, keywords=[]):
                return f"{self._key(f)}({','.join(self._key(a) for a in args)})"
            case _:
                return "#" + pyast.dump(e)

    def _is_pure(self, e: pyast.AST) -> bool:
        got = self._pure.get(id(e))
        if got is None:
            got = not isinstance(e, (*_OPAQUE, pyast.NamedExpr)) and all(
                self._is_pure(x) for x in pyast.iter_child_nodes(e))
            self._pure[id(e)] = got
        return got

    def visit_expr(self, e: pyast.expr, avail: dict[str, str]) -> pyast.expr:
        if isinstance(e, _OPAQUE):
            return e
        key = self._key(e) if self._candidate(e) else None
        if key is not None and key in avail:
            self.used.add(avail[key])
            return pyast.Name(avail[key], pyast.Load())
        e = self._children(e, avail)
        if key is None:
            return e
        name = self.names.setdefault(key, f"_x{len(self.names)}")
        avail[key] = name
        return pyast.NamedExpr(pyast.Name(name, pyast.Store()), e)

    def _candidate(self, e: pyast.expr) -> bool:
        if isinstance(e, pyast.Subscript):
            pass
        elif not (isinstance(e, pyast.Call) and isinstance(e.func, pyast.Name)
                  and e.func.id == "len" and len(e.args) == 1 and not e.keywords):
            return False
        # nothing inside that binds a name or is evaluated apart
        return self._is_pure(e)

    def _children(self, e: pyast.expr, avail: dict[str, str]) -> pyast.expr:
        """``e`` with its parts rewritten, in the order Python evaluates them; a part that
        may be skipped gets a copy of ``avail``, so what it computes is not assumed after."""
        v = self.visit_expr
        match e:
            case pyast.BoolOp(values=vals):
                first = v(vals[0], avail)
                inner = dict(avail)
                return pyast.BoolOp(e.op, [first] + [v(x, inner) for x in vals[1:]])
            case pyast.IfExp(test=t, body=b, orelse=o):
                t2 = v(t, avail)
                return pyast.IfExp(t2, v(b, dict(avail)), v(o, dict(avail)))
            case pyast.Compare(left=left, ops=ops, comparators=cs):
                l2 = v(left, avail)
                c0 = v(cs[0], avail)
                inner = dict(avail)
                return pyast.Compare(l2, ops, [c0] + [v(x, inner) for x in cs[1:]])
            case pyast.NamedExpr(target=tg, value=val):
                if self._candidate(val) or isinstance(val, pyast.Name):
                    self.alias[tg.id] = self._key(val)
                return pyast.NamedExpr(tg, v(val, avail))
            case pyast.BinOp(left=a, op=op, right=b):
                a2 = v(a, avail)
                return pyast.BinOp(a2, op, v(b, avail))
            case pyast.UnaryOp(op=op, operand=o):
                return pyast.UnaryOp(op, v(o, avail))
            case pyast.Subscript(value=val, slice=sl):
                val2 = v(val, avail)
                return pyast.Subscript(val2, v(sl, avail), e.ctx)
            case pyast.Call(func=f, args=args, keywords=[]) if not any(
                    isinstance(a, pyast.Starred) for a in args):
                f2 = v(f, avail)
                return pyast.Call(f2, [v(a, avail) for a in args], [])
            case pyast.Tuple(elts=elts) if not any(isinstance(x, pyast.Starred) for x in elts):
                return pyast.Tuple([v(x, avail) for x in elts], e.ctx)
            case _:
                # anything else (a name, a constant, an f-string...) is left as it is
                return e


class _Forward(pyast.NodeTransformer):
    """Drops an inlined parameter's ``((p := x) or True) and body`` where sharing has made
    ``x`` one name: ``body`` reads ``x`` itself (``_tab_ordinary[_x0]``, not a copy of
    ``_x0`` under another name, bound at every group a guard tests). Only for a parameter
    bound once in the whole expression, to a name no ``:=`` of another value rebinds (each
    ``_x`` temporary holds one expression, and Python forbids ``:=`` on a comprehension's
    variable)."""

    def __init__(self, tree: pyast.expr) -> None:
        self.stores: dict[str, int] = {}
        for node in pyast.walk(tree):
            if isinstance(node, pyast.NamedExpr):
                self.stores[node.target.id] = self.stores.get(node.target.id, 0) + 1
        self.rename: dict[str, str] = {}

    def visit_Name(self, node: pyast.Name) -> pyast.expr:
        if isinstance(node.ctx, pyast.Load) and node.id in self.rename:
            return pyast.Name(self.rename[node.id], pyast.Load())
        return node

    def visit_BoolOp(self, node: pyast.BoolOp) -> pyast.expr:
        first = node.values[0]
        if isinstance(node.op, pyast.And) and isinstance(first, pyast.BoolOp) and \
                isinstance(first.op, pyast.Or) and len(first.values) == 2 and \
                isinstance(bind := first.values[0], pyast.NamedExpr) and \
                isinstance(bind.value, pyast.Name) and \
                isinstance(first.values[1], pyast.Constant) and first.values[1].value is True \
                and not bind.target.id.startswith("_x") and \
                self.stores.get(bind.target.id) == 1:
            # the name the parameter stands for, itself perhaps renamed already
            self.rename[bind.target.id] = self.rename.get(bind.value.id, bind.value.id)
            rest = [self.visit(x) for x in node.values[1:]]
            return rest[0] if len(rest) == 1 else pyast.BoolOp(pyast.And(), rest)
        self.generic_visit(node)
        return node


class _Unbind(pyast.NodeTransformer):
    """Drops the ``:=`` of temporaries no later evaluation reads."""

    def __init__(self, used: set[str]) -> None:
        self.used = used

    def visit_NamedExpr(self, node: pyast.NamedExpr) -> pyast.expr:
        value = self.visit(node.value)
        if node.target.id.startswith("_x") and node.target.id not in self.used:
            return value  # type: ignore[no-any-return]
        node.value = value
        return node
