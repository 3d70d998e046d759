"""Common subexpressions of generated Python expressions, read once (over Python's ``ast``).

Inlined definitions repeat their arguments: a shedding game's guard reads ``rank(first(g))``
several times for one group. :func:`share_common` binds the first evaluation of each repeated
subscript, ``len(...)`` or call to a temporary with ``:=`` where it dominates the others.

Inlined definitions repeat whole computations too: a partnership game's score of a deal
reads a partnership's contract (a sum over its members) in the test of "made", in the points
for it, in the overtricks, the bags ... seventy sums where five differ. A call is shared like a
subscript; one that spends the work budget (its text names ``st``: a comprehension's
source, a called definition) has what its first evaluation spent measured, and each reuse
spends as much again (``_rs``, :func:`rulespec.lang.builtins.respend`), or, where the budget
would not hold it, evaluates it again as written, to stop where the plain expression stops:
the budget left, and the error where it runs out, are the plain expression's.
"""

from __future__ import annotations

import ast as pyast

__all__ = ["share_common", "written"]


#: Python nodes whose inside is evaluated apart from the expression around it (per element, or
#: not at all): nothing in them is shared with the rest, nor taken out of them
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
    if src.count("[") + src.count("(") < 2:
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
    body = _Measured(sharer.used & sharer.costly).visit(body)
    body = _Forward(body).visit(body)
    return written(body, src)


def written(body: pyast.expr, src: str) -> str:
    """``body``, a rewriting of the expression ``src``, as Python source; ``src`` where
    Python refuses it (a ``:=`` where Python forbids one)."""
    out = pyast.unparse(pyast.fix_missing_locations(pyast.Expression(body)))
    try:
        compile(out, "<shared>", "eval")
    except SyntaxError:  # pragma: no cover - the rewritings keep out of those places
        return src
    return out


class _Sharer:
    """One pass in evaluation order; ``avail`` maps an expression (its dump) to the temporary
    that holds it on every path reaching this point."""

    def __init__(self) -> None:
        #: each shared expression's temporary, by its key, in the scope being visited (a
        #: comprehension's element has a scope of its own: its keys read names that a
        #: comprehension inside or around it may bind again, and a ``:=`` in a
        #: comprehension binds in the function around it, so no temporary is shared
        #: between two scopes); ``made`` numbers them all
        self.names: dict[str, str] = {}
        self.made = 0
        self.used: set[str] = set()
        #: a name bound by ``:=`` (an inlined parameter) to the key of the expression it
        #: holds: its uses are keyed as that expression (``rank(c)`` with ``c := first(g)``
        #: is rank(first(g)))
        self.alias: dict[str, str] = {}
        #: whether each node (by id) holds no ``:=`` and nothing evaluated apart
        self._pure: dict[int, bool] = {}
        #: the temporaries of calls that spend the work budget (see the module docstring)
        self.costly: set[str] = set()

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
            case _ if any(isinstance(x, _OPAQUE) for x in pyast.walk(e)):
                return "#" + _alpha_dump(e, self.alias)
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
        if isinstance(e, (pyast.GeneratorExp, pyast.ListComp, pyast.SetComp)) and \
                len(e.generators) == 1 and not e.generators[0].is_async:
            return self._inside(e)
        if isinstance(e, _OPAQUE):
            return e
        key = self._key(e) if self._candidate(e) else None
        if key is not None and key in avail:
            name = avail[key]
            self.used.add(name)
            if name not in self.costly:
                return pyast.Name(name, pyast.Load())
            # spend again what the first evaluation spent, or evaluate it again as written
            again = pyast.Call(pyast.Name("_rs", pyast.Load()), [
                pyast.Name(x, pyast.Load()) for x in ("st", name + "l", name + "w")], [])
            return pyast.IfExp(again, pyast.Name(name, pyast.Load()), e)
        whole = e
        e = self._children(e, avail)
        if key is None:
            return e
        got = self.names.get(key)
        if got is None:
            got = self.names[key] = f"_x{self.made}"
            self.made += 1
        name = got
        if isinstance(whole, pyast.Call) and "st" in _names(whole):
            self.costly.add(name)
        avail[key] = name
        return pyast.NamedExpr(pyast.Name(name, pyast.Store()), e)

    def _inside(self, e: pyast.GeneratorExp | pyast.ListComp | pyast.SetComp) -> pyast.expr:
        """A comprehension with its tests and element shared within one element's
        evaluation: each element starts afresh (nothing of another element's, nor of the
        expression around, is assumed), its tests dominate its value. Its ``:=`` binds in
        the scope around (Python's rule), where each temporary holds one expression: what
        it holds after the comprehension is never read there. The iterable is left as it is
        (Python forbids ``:=`` in it)."""
        gen = e.generators[0]
        inner: dict[str, str] = {}
        outer, self.names = self.names, {}
        try:
            ifs = [self.visit_expr(x, inner) for x in gen.ifs]
            elt = self.visit_expr(e.elt, inner)
        finally:
            self.names = outer
        made = pyast.comprehension(gen.target, gen.iter, ifs, 0)
        return type(e)(elt, [made])

    def _candidate(self, e: pyast.expr) -> bool:
        if isinstance(e, (pyast.IfExp, pyast.BoolOp, pyast.Compare, pyast.BinOp)):
            # an inlined definition's test or choice (a card's suit with its bower's, the
            # suit led's), read again: nothing inside that calls, binds a name or is
            # evaluated apart, and, for a comparison or arithmetic, some reading of a table
            return self._is_pure(e) and not any(
                isinstance(x, (pyast.Call, pyast.Attribute)) for x in pyast.walk(e)) and (
                isinstance(e, (pyast.IfExp, pyast.BoolOp)) or
                any(isinstance(x, pyast.Subscript) for x in pyast.walk(e)))
        if isinstance(e, pyast.Subscript):
            # nothing inside that binds a name or is evaluated apart
            return self._is_pure(e)
        if not (isinstance(e, pyast.Call) and isinstance(e.func, pyast.Name)):
            return False
        if e.func.id == "len" and len(e.args) == 1 and not e.keywords:
            return self._is_pure(e)
        # a call of the runtime (a sum, a definition, a loop's function): a comprehension
        # inside is evaluated with it, but nothing in it may bind a name for the rest, nor
        # be called for what it does
        return not any(isinstance(x, (pyast.NamedExpr, pyast.Lambda)) or (
            isinstance(x, pyast.Name) and x.id in _EFFECTS) for x in pyast.walk(e))

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
            case pyast.Call(func=f, args=args, keywords=kws) if not any(
                    isinstance(a, pyast.Starred) for a in args) and all(k.arg for k in kws):
                # arguments, then keyword arguments (a loop's ``st=st``), as Python does
                f2 = v(f, avail)
                args2 = [v(a, avail) for a in args]
                return pyast.Call(f2, args2, [pyast.keyword(k.arg, v(k.value, avail))
                                              for k in kws])
            case pyast.Attribute(value=val, attr=a):
                # a method's object (``(p := [...]).index(max(p))``, every trick's winner)
                return pyast.Attribute(v(val, avail), a, e.ctx)
            case pyast.Tuple(elts=elts) if not any(isinstance(x, pyast.Starred) for x in elts):
                return pyast.Tuple([v(x, avail) for x in elts], e.ctx)
            case _:
                # anything else (a name, a constant, an f-string...) is left as it is
                return e


#: runtime functions called for what they do, never shared: an option's missing parameter
#: (always raises), a coverage mark, the budget's own spending again
_EFFECTS = frozenset({"_NP", "_CV", "_COV", "_rs"})


def _names(e: pyast.AST) -> set[str]:
    return {x.id for x in pyast.walk(e) if isinstance(x, pyast.Name)}


def _alpha_dump(e: pyast.expr, alias: dict[str, str]) -> str:
    """``e``'s dump with the names its comprehensions bind numbered in order and the names
    bound by ``:=`` outside it read as what they hold: two inlined copies of one sum (each
    with fresh names for its variable) dump alike."""
    bound: dict[str, str] = {}
    for node in pyast.walk(e):
        if isinstance(node, pyast.comprehension):
            for t in pyast.walk(node.target):
                if isinstance(t, pyast.Name):
                    bound.setdefault(t.id, f"${len(bound)}")

    class _Rename(pyast.NodeTransformer):
        def visit_Name(self, node: pyast.Name) -> pyast.Name:
            return pyast.Name(bound.get(node.id) or alias.get(node.id, node.id), node.ctx)

    return pyast.dump(_Rename().visit(pyast.parse(pyast.unparse(e), mode="eval").body))


class _Measured(pyast.NodeTransformer):
    """The first evaluation of a costly temporary ``_xN`` with what it spent measured:
    ``(_xNl := st.left, _xNw := st.work, _xN := value, _xNl := _xNl - st.left,
    _xNw := _xNw - st.work)[2]``."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def visit_NamedExpr(self, node: pyast.NamedExpr) -> pyast.expr:
        node.value = self.visit(node.value)
        n = node.target.id
        if n not in self.names:
            return node

        def bind(name: str, value: pyast.expr) -> pyast.NamedExpr:
            return pyast.NamedExpr(pyast.Name(name, pyast.Store()), value)

        def budget(attr: str) -> pyast.Attribute:
            return pyast.Attribute(pyast.Name("st", pyast.Load()), attr, pyast.Load())

        return pyast.Subscript(pyast.Tuple([
            bind(n + "l", budget("left")), bind(n + "w", budget("work")), node,
            bind(n + "l", pyast.BinOp(pyast.Name(n + "l", pyast.Load()), pyast.Sub(),
                                       budget("left"))),
            bind(n + "w", pyast.BinOp(pyast.Name(n + "w", pyast.Load()), pyast.Sub(),
                                       budget("work")))], pyast.Load()),
            pyast.Constant(2), pyast.Load())


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
