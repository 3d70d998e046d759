"""The first position of the best: ``first([i for i in range(0, size(X) - 1) if E(X[i]) ==
max(E(x) for x in X)])`` (or ``min``), every trick-taking game's winning card, computed as one
list of values and its greatest.

Written as it reads, the comprehension is a loop over the positions that evaluates ``E`` of
the card at each one and, at the first, ``max`` over the whole trick (a loop invariant, kept:
``codegen/loopinv.py``), spending the work budget as the engine does: the positions' list,
then the trick's length for ``max``'s list, then the trick's length again at each later
position, where the invariant is read again. For four cards that is two evaluations of ``E``
a card, a generated function's call and a respend a position: 3 µs a trick, a tenth of a
trick-taking playout on the kernel. :func:`first_best` gets the same position from one list of the
values, ``values.index(max(values))``, and spends in one subtraction exactly what the loop
would have spent up to that position (``n * (2 + j)`` for ``n`` cards and position ``j``).
Where the budget would not hold it, the list is empty, or a value raises, the loop written
out runs instead (``fallback``), from the start, so that it stops where the engine stops,
with the engine's error: the values are pure (``E`` reads no budget and marks no coverage, or
the idiom is not taken), so computing them once more changes nothing.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Callable

import attrs

from rulespec.lang import ast, walk
from rulespec.lang.model import BoundBuiltin

__all__ = ["BEST", "best_of", "best_values", "first_best"]

#: whether the idiom is taken (tests hold it to the loop written out, with it off)
BEST = True


def best_of(c: ast.Comprehension, binding: Callable[[ast.Span], object]
            ) -> tuple[ast.Expr, ast.GenCall] | None:
    """Where the comprehension is ``[i for i in range(0, size(X) - 1) if E(X[i]) == M]``
    with ``M`` a ``max`` or ``min`` of ``E(x) for x in X`` (no condition; ``X`` reading
    neither variable): ``X`` and ``M``; else None. ``binding`` gives what a call's name
    is bound to (a built-in, or a definition of the spec)."""
    if not BEST:
        return None
    el = walk.uncited(c.elem)
    if not (isinstance(el, ast.Name) and el.id == c.var):
        return None
    src = walk.uncited(c.source)
    cond = walk.uncited(c.cond) if c.cond is not None else None
    if not (isinstance(src, ast.Call) and _builtin(binding, src, "range") and
            isinstance(cond, ast.Compare) and cond.op == "=="):
        return None
    lo, hi = (walk.uncited(a) for a in src.args)
    if not (isinstance(lo, ast.IntLit) and lo.value == 0 and isinstance(hi, ast.BinOp) and
            hi.op == "-" and isinstance(one := walk.uncited(hi.right), ast.IntLit) and
            one.value == 1 and isinstance(size := walk.uncited(hi.left), ast.Call) and
            _builtin(binding, size, "size")):
        return None
    xs = size.args[0]
    m = walk.uncited(cond.right)
    if not (isinstance(m, ast.GenCall) and m.cond is None and
            isinstance(b := binding(m.span), BoundBuiltin) and b.name in ("max", "min") and
            _same(m.source, xs)):
        return None
    names = {n.id for n in walk.descendants(xs) if isinstance(n, ast.Name)}
    if c.var in names or m.var in names:
        return None
    at = ast.Index(xs, ast.Name(c.var, span=c.elem.span), span=c.elem.span)
    if not _same(walk.replace_name(m.elem, m.var, at), cond.left):  # type: ignore[arg-type]
        return None
    return xs, m


def best_values(listed: str) -> str | None:
    """The list of values ``[E for x in _spend(st, X)]`` as the expression compiler writes
    ``M``'s, without its spending (:func:`first_best` spends it); None where ``E`` reads the
    state (a budget, a coverage mark: the values would not be pure)."""
    tree = pyast.parse(listed, mode="eval").body
    if not (isinstance(tree, pyast.ListComp) and len(tree.generators) == 1):
        return None
    comp = tree.generators[0]
    it = comp.iter
    if not (isinstance(it, pyast.Call) and isinstance(it.func, pyast.Name) and
            it.func.id == "_spend" and len(it.args) == 2 and not comp.ifs):
        return None
    if any(isinstance(n, pyast.Name) and n.id == "st" for n in pyast.walk(tree.elt)):
        return None
    comp.iter = it.args[1]
    return pyast.unparse(tree)


def first_best(st: _Budget, values: list[int], many: bool, fallback: Callable[[], int]
               ) -> int:
    """The first position of the greatest (``many``) or least of ``values``, with the work
    budget spent as the loop written out would spend it (see the module's text); else the
    loop itself, ``fallback()``."""
    if values:
        j = values.index(max(values) if many else min(values))
        n = len(values) * (2 + j)
        if st.left >= n:
            st.left -= n
            return j
    return fallback()


class _Budget:
    left: int


def _builtin(binding: Callable[[ast.Span], object], call: ast.Call, name: str) -> bool:
    b = binding(call.span)
    return isinstance(b, BoundBuiltin) and b.name == name and call.func == name


def _same(a: object, b: object) -> bool:
    """Whether two trees are the same but for their places in the text (and citations)."""
    if isinstance(a, ast.Cited):
        return _same(a.expr, b)
    if isinstance(b, ast.Cited):
        return _same(a, b.expr)
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        assert isinstance(b, tuple)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    cls = type(a)
    if not attrs.has(cls):
        return a == b
    return all(f.name == "span" or _same(getattr(a, f.name), getattr(b, f.name))
               for f in attrs.fields(cls))
