"""A comprehension's parts that do not change from one element to the next, worked out once.

An inlined definition puts whole computations inside a comprehension's element: a count of
the trumps above the highest one a hand misses reads, for each trump, the highest missed one,
the same each time (``count(power(c) > max([... for d in pack if d not in cs]) for c in
trumps)``). :func:`once_each` rewrites each such part (one that reads no name the comprehension
binds, and calls something) as a temporary worked out by the first element that
needs it and read by the others: ``(_h if _h is not _U else (_h := part))``, with ``_h := _U``
set just before the comprehension. Nothing is evaluated that the plain expression would not
evaluate, and it is evaluated at the first place the plain expression evaluates it, so an
error is raised where it was (the typed lowering's values are pure: the same each time).

Only for the typed lowering: the engine's comprehensions spend the work budget element by
element, which a part worked out once would not.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Callable

from rulespec.engine.codegen.cse import written

__all__ = ["UNSET", "once_each"]

#: ``_U``: a temporary not worked out yet
UNSET = object()

_COMPS = (pyast.ListComp, pyast.GeneratorExp, pyast.SetComp)
#: nodes a part may not hold: each is evaluated apart from its place, or does something
_APART = (pyast.Lambda, pyast.Yield, pyast.YieldFrom, pyast.Await, pyast.DictComp)


def once_each(src: str, fresh: Callable[[str], str]) -> str:
    """``src`` (a generated Python expression) with each comprehension's unchanging parts
    worked out once (see the module's text); ``fresh`` names the temporaries."""
    if "for " not in src:
        return src
    try:
        tree = pyast.parse(src, mode="eval")
    except SyntaxError:  # pragma: no cover - the lowering writes valid Python
        return src
    lazy = _Lazy(fresh)
    body = lazy.visit(tree.body)
    if not lazy.made:
        return src
    return written(body, src)


class _Lazy(pyast.NodeTransformer):
    def __init__(self, fresh: Callable[[str], str]) -> None:
        self.fresh = fresh
        self.made = 0
        #: how deep inside comprehensions' iterables the visit is (no ``:=`` there)
        self.in_iter = 0

    def generic_visit(self, node: pyast.AST) -> pyast.AST:
        if isinstance(node, pyast.comprehension):
            # the iterable: no ``:=`` may be written there, so nothing is taken out of it
            self.in_iter += 1
            node.iter = self.visit(node.iter)
            self.in_iter -= 1
            node.ifs = [self.visit(x) for x in node.ifs]
            return node
        return super().generic_visit(node)

    def visit_ListComp(self, node: pyast.ListComp) -> pyast.expr:
        return self._comp(node)

    def visit_GeneratorExp(self, node: pyast.GeneratorExp) -> pyast.expr:
        return self._comp(node)

    def visit_SetComp(self, node: pyast.SetComp) -> pyast.expr:
        return self._comp(node)

    def _comp(self, node: pyast.ListComp | pyast.GeneratorExp | pyast.SetComp) -> pyast.expr:
        if self.in_iter or len(node.generators) != 1 or node.generators[0].is_async:
            self.generic_visit(node)
            return node
        gen = node.generators[0]
        # what changes from one element to the next: the variable, and the temporaries
        # bound in the element (codegen/cse.py's), unless a part binds them itself
        bound = {n.id for n in pyast.walk(gen.target) if isinstance(n, pyast.Name)} | {
            n.target.id for part in (node.elt, *gen.ifs) for n in pyast.walk(part)
            if isinstance(n, pyast.NamedExpr) and isinstance(n.target, pyast.Name)}
        slots: list[str] = []
        by_src: dict[str, str] = {}

        def take(e: pyast.expr) -> pyast.expr:
            """``e`` with its largest unchanging parts read from temporaries."""
            if _unchanging(e, bound) and _costly(e):
                text = pyast.unparse(e)
                h = by_src.get(text)
                if h is None:
                    h = by_src[text] = self.fresh("h")
                    slots.append(h)
                    e = self.visit(e)  # its own comprehensions' parts, once each time
                return pyast.IfExp(pyast.Compare(_load(h), [pyast.IsNot()], [_load("_U")]),
                                   _load(h), pyast.NamedExpr(pyast.Name(h, pyast.Store()), e))
            if isinstance(e, _COMPS):
                return self.visit(e)
            for field, value in pyast.iter_fields(e):
                if isinstance(value, pyast.expr):
                    setattr(e, field, take(value))
                elif isinstance(value, list):
                    setattr(e, field, [take(x) if isinstance(x, pyast.expr) else x
                                       for x in value])
            return e

        gen.ifs = [take(x) for x in gen.ifs]
        node.elt = take(node.elt)
        self.in_iter += 1
        gen.iter = self.visit(gen.iter)
        self.in_iter -= 1
        if not slots:
            return node
        self.made += len(slots)
        starts: list[pyast.expr] = [pyast.NamedExpr(pyast.Name(h, pyast.Store()), _load("_U"))
                                    for h in slots]
        return pyast.Subscript(pyast.Tuple([*starts, node], pyast.Load()),
                               pyast.Constant(-1), pyast.Load())


def _load(name: str) -> pyast.Name:
    return pyast.Name(name, pyast.Load())


def _unchanging(e: pyast.expr, bound: set[str]) -> bool:
    """Whether ``e`` reads no name that changes from element to element (``bound``) but
    those it binds itself before reading them (its own comprehensions' variables, its own
    shared parts: codegen/cse.py reads a temporary only where its binding came first)."""
    names = [n for n in pyast.walk(e) if isinstance(n, pyast.Name)]
    own = {n.id for n in names if isinstance(n.ctx, pyast.Store)}
    return not any(isinstance(n, _APART) for n in pyast.walk(e)) and not any(
        n.id in bound and n.id not in own for n in names)


def _costly(e: pyast.expr) -> bool:
    """Whether ``e`` calls something (a sum, a max, a comprehension), or does several
    lookups and operations: worth a temporary; and
    whether its value may be kept: no generator but one a call consumes (a generator read
    by one element would be empty for the next)."""
    nodes = list(pyast.walk(e))
    consumed = {id(a) for n in nodes if isinstance(n, pyast.Call) for a in n.args}
    if any(isinstance(n, pyast.GeneratorExp) and id(n) not in consumed for n in nodes):
        return False
    # a call, a comprehension; or several lookups and operations (the bits of a few zones
    # joined: ``z_hand[d] | z_skat``), which cost more than the temporary's test
    return any(isinstance(n, (pyast.Call, *_COMPS)) for n in nodes) or \
        sum(isinstance(n, (pyast.Subscript, pyast.BinOp)) for n in nodes) >= 4
