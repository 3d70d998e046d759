"""A definition of a card and of values with few possible values, worked out once as a table.

The rules say a great deal through small definitions of one card and the state of the deal:
the suit a card plays as once trumps are made (euchre's left bower), a card's power in the
game announced (skat's jacks), whether it is a trump. Each reads the card, perhaps other
parameters of a small type, and variables of a small type: an enumeration, a suit, a
flag, each perhaps none. So the definition has one value for each card and each
combination of those, and the lowering works them all out now, by evaluating the body's
own typed source, and writes a call as a lookup: ``_TB0[g_trump][c]``, the variables and
parameters outer, the card inner. A listing's test ``f(c) == v`` is then a mask looked up
too: ``_TBM0[g_trump].get(v, 0)``, the cards whose value is ``v``.

What a lookup must keep of the rules' meaning:

- Nothing raises that did not: a combination whose every card's value raises, and a
  card that is none's too, is left out of the table (its lookup raises ``KeyError``; the
  engine's body raises there too); where a card that is none does not raise there, the row
  holds none's value alone (and its masks are left out: every card's test raises). A
  definition whose value raises for some cards of a combination but not others is not made
  a table. A card that is none raises where the body raises for it (a tuple's lookup);
  where it does not (the body need not read the card: ``k != null_game and ...``), the
  row is a dict that has none's value too. Every value of a small type may be none (a
  flag too: a ``bool?`` is passed on to a ``bool``).
- Nothing is left unevaluated that raised: the arguments are evaluated before the lookup,
  where the body may read a parameter only on some paths; so each argument is one that
  cannot raise, or one the body reads on every path.
- Only values kept as they are (numbers, flags, texts, none): a lookup gives every caller
  the same object.
"""

from __future__ import annotations

import ast as pyast
import builtins
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from rulespec.engine.kernel.bits import cannot_raise
from rulespec.lang import ast
from rulespec.lang.model import CheckedSpec

__all__ = ["DefTable", "always_reads", "domain", "domains", "safe_args", "tabulate"]

#: the most combinations of the outer values a table is made for (each is a row of cards)
MAX_ROWS = 256
_SCALARS = (int, bool, str, type(None))


class _Traced(Exception):
    """The card was read (see :class:`_Tracer`)."""


class _Tracer:
    """A card that raises :class:`_Traced` wherever the body reads it: compared, looked up,
    tested, computed with (``is`` is not seen: a body that only asks whether it is none is
    taken as one that may not read it)."""

    def _read(self, *args: object) -> object:
        raise _Traced

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _read  # type: ignore[assignment]
    __hash__ = __index__ = __bool__ = __int__ = _read  # type: ignore[assignment]
    __add__ = __radd__ = __sub__ = __rsub__ = __lshift__ = __rlshift__ = _read
    __and__ = __rand__ = __or__ = __ror__ = __getitem__ = __iter__ = _read


@attrs.frozen
class DefTable:
    """A definition made a table: the globals' names of the values (``name``), of the masks
    of each value (``masks``) and of the cards whose value is true (``truthy``); ``dims``,
    what indexes it from the outside in: ``("var", PY)`` a variable of the rules,
    ``("param", I)`` the ``I``-th argument; ``card``, the argument that is the card;
    ``read``, whether the body reads the card on every path (then its argument may be
    evaluated first even where it may raise)."""

    name: str
    masks: str
    truthy: str
    dims: tuple[tuple[str, str | int], ...]
    card: int
    read: bool

    def lookup(self, table: str, args: Sequence[str]) -> str:
        """The source of the lookup in ``table`` (one of the three names) with the call's
        arguments' sources; the masks' tables end at the outer values."""
        keys = "".join(f"[{v if isinstance(v, str) else args[v]}]" for _, v in self.dims)
        return f"{table}{keys}" + (f"[{args[self.card]}]" if table == self.name else "")


def domain(t: ast.TypeExpr | None, suits: Sequence[object],
           enums: Mapping[str, Sequence[str]]) -> list[object] | None:
    """Every value of the declared type ``t`` that is small (a flag, a suit, an
    enumeration's values; none too, for all but a flag), else None."""
    match t:
        case ast.TypeOptional(inner=i):
            got = domain(i, suits, enums)
            return None if got is None else [*got, None] if None not in got else got
        case ast.TypeName(name="bool"):
            return [False, True, None]  # a flag may hold none (``bool?`` passed on)
        case ast.TypeName(name="suit"):
            return [*suits, None]
        case ast.TypeName(name=n) if n in enums:
            return [*enums[n], None]
        case ast.TypeEnum(values=vs) if all(isinstance(v, str) for v in vs):
            return [*vs, None]
    return None


def domains(d: ast.DefDecl, spec: CheckedSpec, variables: Mapping[str, tuple[str, str]],
            suits: Sequence[object], fresh: Callable[[str], str]
            ) -> tuple[list[tuple[str, list[object] | None]], dict[str, tuple[str, str]],
                       dict[str, list[object]]] | None:
    """For the definition ``d``: each parameter's Python name (``fresh``) and values (None:
    the card), the parameters as the body reads them (their names and kinds), and the
    values of each variable of the rules (``variables``: their Python names and kinds) of
    a small type, by its Python name; None where a parameter is of no small type."""
    enums = {e.name: spec.enum_values(e.name) for e in spec.enums}
    params: list[tuple[str, list[object] | None]] = []
    inner: dict[str, tuple[str, str]] = {}
    for p in d.params:
        t = p.type.inner if isinstance(p.type, ast.TypeOptional) else p.type
        py = fresh(p.name)
        if isinstance(t, ast.TypeName) and t.name == "card":
            params.append((py, None))
            inner[p.name] = (py, "card")
            continue
        values = domain(p.type, suits, enums)
        if values is None:
            return None
        params.append((py, values))
        name = t.name if isinstance(t, ast.TypeName) else ""
        inner[p.name] = (py, "bool" if name == "bool" else "suit" if name == "suit" else "str")
    decls = {v.name: v for v in spec.vars if not v.per_player}
    small: dict[str, list[object]] = {}
    for n, (py, _) in variables.items():
        values = [False, True] if n == "clockwise" else \
            domain(decls[n].type, suits, enums) if n in decls else None
        if values is not None:
            small[py] = values
    return params, inner, small


def always_reads(node: pyast.AST, name: str) -> bool:
    """Whether evaluating ``node`` reads ``name`` on every path."""
    match node:
        case pyast.Expression(body=b):
            return always_reads(b, name)
        case pyast.Name(id=i):
            return i == name
        case pyast.IfExp(test=t, body=b, orelse=o):
            return always_reads(t, name) or (always_reads(b, name) and always_reads(o, name))
        case pyast.BoolOp(values=vs):
            return always_reads(vs[0], name)
        case pyast.Compare(left=a, comparators=cs):
            return always_reads(a, name) or always_reads(cs[0], name)
        case pyast.BinOp(left=a, right=b):
            return always_reads(a, name) or always_reads(b, name)
        case pyast.UnaryOp(operand=a) | pyast.NamedExpr(value=a) | pyast.Attribute(value=a):
            return always_reads(a, name)
        case pyast.Subscript(value=a, slice=b):
            return always_reads(a, name) or always_reads(b, name)
        case pyast.Call(func=f, args=xs):
            return always_reads(f, name) or any(always_reads(x, name) for x in xs)
        case pyast.Tuple(elts=xs) | pyast.List(elts=xs):
            return any(always_reads(x, name) for x in xs)
        case pyast.ListComp(generators=g) | pyast.GeneratorExp(generators=g) | \
                pyast.SetComp(generators=g):
            return always_reads(g[0].iter, name)
    return False


def tabulate(src: str, params: Sequence[tuple[str, list[object] | None]],
             variables: Mapping[str, list[object]], glb: dict[str, object], cards: int,
             name: str) -> tuple[DefTable, dict[str, object]] | None:
    """The table of a definition whose body's typed source is ``src``: ``params`` its
    parameters' Python names with their values (None: the card), ``variables`` the small
    variables of the rules by their Python names with theirs, ``glb`` the generated code's
    constants; its three tables by name (``name`` the first's), or None where it may not
    be one (see the module's text)."""
    try:
        tree = pyast.parse(src, mode="eval")
    except SyntaxError:  # pragma: no cover - the lowering writes valid Python
        return None
    loads = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)
             and isinstance(n.ctx, pyast.Load)}
    stores = {n.id for n in pyast.walk(tree) if isinstance(n, pyast.Name)
              and isinstance(n.ctx, pyast.Store)}
    own = {p for p, _ in params}
    read_vars = sorted(n for n in loads - own - stores if n not in glb
                       and not hasattr(builtins, n))
    if any(v not in variables for v in read_vars):
        return None  # a zone, the state, a local of the rules: not of a few values
    card_at = [i for i, (_, vs) in enumerate(params) if vs is None]
    if len(card_at) != 1 or not any(isinstance(n, (pyast.IfExp, pyast.BoolOp, pyast.Compare,
                                                  pyast.Call, pyast.BinOp))
                                    for n in pyast.walk(tree)):
        return None  # no card, or a body as cheap as a lookup
    dims: list[tuple[str, str | int]] = [("var", v) for v in read_vars] + [
        ("param", i) for i, (_, vs) in enumerate(params) if vs is not None]
    ranges: list[list[object]] = []
    names: list[str] = []
    for _, v in dims:
        py, domain_ = (v, variables[v]) if isinstance(v, str) else params[v]
        if domain_ is None:
            return None
        ranges.append(domain_)
        names.append(py)
    if _size(ranges) > MAX_ROWS:
        return None
    card = params[card_at[0]][0]
    try:
        f = eval(f"lambda {', '.join([*names, card])}: {src}", dict(glb))  # noqa: S307
    except SyntaxError:  # pragma: no cover
        return None
    got = _fill(f, itertools.product(*ranges), cards)
    if got is None:
        return None
    values, masks, truthy, read = got
    t = DefTable(name, f"{name}M", f"{name}T", tuple(dims), card_at[0], read)
    if not dims:
        if () not in masks:
            return None  # every card raises: a mask of no combination cannot say so
        return t, {t.name: values[()], t.masks: masks[()], t.truthy: truthy[()]}
    return t, {t.name: values, t.masks: masks, t.truthy: truthy}


def _fill(f: object, combos: Iterable[tuple[object, ...]], cards: int
          ) -> tuple[dict[object, object], dict[object, object], dict[object, object], bool] | None:
    """The three tables, nested by the combinations of the outer values, and whether the body
    reads the card at every one; None where the definition may not be a table."""
    values: dict[object, object] = {}
    masks: dict[object, object] = {}
    truthy: dict[object, object] = {}
    read = True
    for combo in combos:
        row = _row(f, combo, cards)
        if row is None:
            continue  # every card raises here: so does the lookup
        if isinstance(row, bool):
            return None
        read = read and _reads(f, combo)
        _put(values, combo, row)
        if len(row) < cards:  # none's value alone: every card's test raises, as its mask's
            continue
        by_value: dict[object, int] = {}
        for c in range(cards):
            x = row[c]
            by_value[x] = by_value.get(x, 0) | 1 << c
        _put(masks, combo, by_value)
        _put(truthy, combo, sum(m for x, m in by_value.items() if x))
    if not values:
        return None  # every value raises: the body is no cheaper to read than to raise
    return values, masks, truthy, read


def _size(ranges: Sequence[Sequence[object]]) -> int:
    n = 1
    for r in ranges:
        n *= len(r)
    return n


def _row(f: object, combo: tuple[object, ...], cards: int
         ) -> tuple[object, ...] | dict[object, object] | None | bool:
    """The values of every card at ``combo``, by the card's number: a tuple, or a dict that
    has the value of a card that is none too where the body takes one (it need not read
    the card), and only that where every card of the deck raises; None where every card
    and none raise; False where some cards raise and some do not, or a value is not kept
    as it is."""
    row: list[object] = []
    raised = 0
    for c in range(cards):
        try:
            x = f(*combo, c)  # type: ignore[operator]
        except Exception:  # noqa: BLE001  (a value the rules cannot take: the engine raises)
            raised += 1
            continue
        if type(x) not in _SCALARS:
            return False
        row.append(x)
    if raised and raised != cards:
        return False
    try:
        x = f(*combo, None)  # type: ignore[operator]
    except Exception:  # noqa: BLE001  (as the lookup of none in a tuple raises)
        return None if raised else tuple(row)
    if type(x) not in _SCALARS:
        return False
    return {**dict(enumerate(row)), None: x}


def _reads(f: object, combo: tuple[object, ...]) -> bool:
    """Whether the body reads its card at ``combo`` (the path to the first read of the card
    cannot depend on the card)."""
    try:
        f(*combo, _Tracer())  # type: ignore[operator]
    except _Traced:
        return True
    except Exception:  # noqa: BLE001  (raised before reading the card, or after)
        return False
    return False


def _put(table: dict[object, object], combo: tuple[object, ...], leaf: object) -> None:
    if not combo:
        table[()] = leaf
        return
    for k in combo[:-1]:
        table = table.setdefault(k, {})  # type: ignore[assignment]
    table[combo[-1]] = leaf


def safe_args(table: DefTable, body: str, params: Sequence[str], args: Sequence[str]) -> bool:
    """Whether each argument may be evaluated before the body: one that cannot raise, or
    one whose parameter the body reads on every path."""
    tree = pyast.parse(body, mode="eval")
    return all(cannot_raise(a) or (table.read if i == table.card else always_reads(tree, p))
               for i, (p, a) in enumerate(zip(params, args, strict=True)))
