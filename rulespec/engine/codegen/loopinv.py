"""Loop invariants of a generated loop computed once (over Python's ``ast``).

``all(...)``, ``any(...)`` and ``first([...])`` become a generated function that loops over the
source (ExprCompiler._short_circuit). A subexpression of the test (or of the decided element)
that reads nothing the loop binds is the same at every element: tricks.rules' winning card
compares each card's power with ``max(power(c) for c in trick)``, worked out again for each
card. :func:`loop_lines` writes the loop with each such subexpression kept in a local, worked
out where the plain loop first evaluates it and read from the local after:

- **errors.** The first evaluation is the plain loop's own, where the plain loop makes it: an
  invariant the plain loop never reaches (the max of an empty trick behind a test that is
  false for every element, a loop that stops at its first element) is never evaluated, and
  one that raises raises there.
- **the work budget.** An invariant that names the state (``st``: a comprehension spends its
  source's length from ``st.left``, a called definition ``st.work``) has what its first
  evaluation spent measured, and each later read spends as much again (``_rs``,
  :func:`rulespec.lang.builtins.respend`; an invariant is a function of a state the loop does
  not change, so each evaluation spends the same), or, where the budget would not hold it, is
  evaluated again as written and stops where the plain loop stops. The budget left after the
  call is the plain loop's.
- **coverage.** Its marks are side effects: the caller hoists nothing with coverage on.

(Computed before the loop instead, as a first version did, a loop that stops at its first
element, most tests of "can this player play", paid for invariants it never reads: uno
playouts 8% slower.)
"""

from __future__ import annotations

import ast as pyast

__all__ = ["HOIST", "loop_lines"]

#: whether invariants are hoisted at all (a switch for tests and measures: the plain loops
#: are the reference the hoisted ones must agree with)
HOIST = True

#: Python nodes with a scope of their own: an invariant is taken whole or not at all from them
_SCOPES = (pyast.Lambda, pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp)
#: nodes that are no value of their own where they stand
_NOT_VALUES = (pyast.Slice, pyast.Starred)
#: functions called for what they do, not their value: never moved (an option's missing
#: parameter always raises; a coverage mark records)
_EFFECTS = frozenset({"_NP", "_CV"})


def loop_lines(var: str, ifs: list[pyast.expr], elt: pyast.expr, every: bool | None,
               bound: set[str], hoist: bool) -> list[str]:
    """The lines of a short-circuit loop's function after the budget of its source is spent
    (``_xs`` holds the source): ``for var in _xs`` testing ``ifs``, returning at the first
    element that passes (``every`` None: ``first([...])``) or that decides ``all``/``any``
    (``every`` True/False), preceded with ``hoist``, where there are invariants, by the same
    loop with them computed once (see the module's docstring). ``bound``: every name bound
    in the loop's generated expression (its variable, a nested comprehension's, a lambda's
    parameter, an inlined parameter's ``:=``)."""
    plain = _loop(var, [pyast.unparse(t) for t in ifs], pyast.unparse(elt), every, "    ")
    if not (hoist and HOIST):
        return plain
    # the test of every element; the element too where each one is tested (all/any)
    hot = [*ifs, elt] if every is not None else list(ifs)
    found = _Invariants(bound | {var})
    for h in hot:
        found.visit(h)
    if not found.nodes:
        return plain
    texts = list(dict.fromkeys(pyast.unparse(n) for n in found.nodes))
    names: dict[str, str] = {}
    for k, t in enumerate(texts):
        iv = f"_iv{k}"
        if "st" in _names(found.by_text[t]):
            # the first evaluation with what it spent measured; each later read spends it
            # again, or evaluates it again where the budget would not hold it
            first = (f"({iv}l := st.left, {iv}w := st.work, {iv} := {t}, "
                     f"{iv}l := {iv}l - st.left, {iv}w := {iv}w - st.work)[2]")
            names[t] = f"({iv} if {iv} is not _U and _rs(st, {iv}l, {iv}w) else {first})"
        else:
            names[t] = f"({iv} if {iv} is not _U else ({iv} := {t}))"
    swapped = [pyast.unparse(_Swap(found.nodes, names).visit(h)) for h in hot]
    new_ifs = swapped[:len(ifs)]
    new_elt = swapped[-1] if every is not None else pyast.unparse(elt)
    unset = " = ".join(f"_iv{k}" for k in range(len(texts)))
    return [f"    {unset} = _U"] + _loop(var, new_ifs, new_elt, every, "    ")


def _loop(var: str, ifs: list[str], elt: str, every: bool | None, ind: str) -> list[str]:
    """``for var in _xs`` at indentation ``ind``, returning its value."""
    body = ind + "    "
    lines = [f"{ind}for {var} in _xs:"] + [f"{body}if not ({t}): continue" for t in ifs]
    if every is None:
        # an empty list's first element: the IndexError that [...][0] would raise
        return lines + [f"{body}return {elt}", f"{ind}raise IndexError('first of an empty list')"]
    return lines + [f"{body}if {'not ' if every else ''}({elt}): return {not every}",
                    f"{ind}return {every}"]


def _names(e: pyast.AST) -> set[str]:
    return {n.id for n in pyast.walk(e) if isinstance(n, pyast.Name)}


def _free(e: pyast.AST) -> set[str]:
    """The names ``e`` reads from around it (not those its own comprehensions and lambdas
    bind)."""
    if isinstance(e, pyast.Name):
        return {e.id}
    if isinstance(e, pyast.Lambda):
        a = e.args
        params = {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]}
        params |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
        return _free(e.body) - params
    if isinstance(e, (pyast.GeneratorExp, pyast.ListComp, pyast.SetComp, pyast.DictComp)):
        gens = e.generators
        inside: set[str] = set()
        targets: set[str] = set()
        for k, g in enumerate(gens):
            targets |= _names(g.target)
            if k:
                inside |= _free(g.iter)
            for t in g.ifs:
                inside |= _free(t)
        parts = [e.key, e.value] if isinstance(e, pyast.DictComp) else [e.elt]
        for p in parts:
            inside |= _free(p)
        return _free(gens[0].iter) | (inside - targets)
    out: set[str] = set()
    for c in pyast.iter_child_nodes(e):
        out |= _free(c)
    return out


class _Invariants(pyast.NodeVisitor):
    """The largest subexpressions worth a local that read no name in ``bound`` and bind none
    (no ``:=``: the loop may read what it binds), outermost first; a scope of its own (a
    nested comprehension, a lambda) is taken whole or not looked into."""

    def __init__(self, bound: set[str]) -> None:
        self.bound = bound
        self.nodes: list[pyast.expr] = []
        self.by_text: dict[str, pyast.expr] = {}

    def generic_visit(self, node: pyast.AST) -> None:
        if isinstance(node, pyast.expr) and self._invariant(node):
            self.nodes.append(node)
            self.by_text.setdefault(pyast.unparse(node), node)
            return
        if isinstance(node, _SCOPES):
            return
        super().generic_visit(node)

    def _invariant(self, e: pyast.expr) -> bool:
        if isinstance(e, (pyast.Name, pyast.Constant, *_NOT_VALUES)) or _cheap(e):
            return False
        if any(isinstance(n, pyast.NamedExpr) for n in pyast.walk(e)):
            return False
        free = _free(e)
        return not (free & self.bound or free & _EFFECTS)


def _cheap(e: pyast.expr) -> bool:
    """A read as cheap as a local's: ``V['x']``, ``Z['hand']``, ``L['k']``, ``xs[0]``."""
    return isinstance(e, pyast.Subscript) and isinstance(e.value, pyast.Name) and \
        isinstance(e.slice, pyast.Constant)


class _Swap(pyast.NodeTransformer):
    """Each found invariant (by identity) replaced by the read of its local."""

    def __init__(self, nodes: list[pyast.expr], names: dict[str, str]) -> None:
        self.to = {id(n): names[pyast.unparse(n)] for n in nodes}

    def visit(self, node: pyast.AST) -> pyast.AST:
        src = self.to.get(id(node))
        if src is not None:
            return pyast.parse(src, mode="eval").body
        return super().visit(node)
