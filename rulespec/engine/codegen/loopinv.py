"""Loop invariants of a generated loop computed once before it (over Python's ``ast``).

``all(...)``, ``any(...)`` and ``first([...])`` become a generated function that loops over the
source (ExprCompiler._short_circuit). A subexpression of the test (or of the decided element)
that reads nothing the loop binds is the same at every element: tricks.rules' winning card
compares each card's power with ``max(power(c) for c in trick)``, worked out again for each
card. :func:`loop_lines` writes the loop with each such subexpression read from a local
computed before it, in front of the loop as it was, which stays for whatever the hoisted one
cannot answer exactly as the plain one would:

- **errors.** An invariant may raise (the max of an empty trick) where the plain loop never
  evaluates it (an empty source, a test whose left side is false for every element). It is
  computed inside ``try``; whatever it or the hoisted loop raises, the plain loop runs, from
  the same budget, and raises what it raises, where it raises it, or nothing.
- **the work budget.** An invariant that names the state (``st``: a comprehension spends its
  source's length from ``st.left``, a called definition ``st.work``) is measured once, and
  spends that much again at each place the plain loop would have evaluated it (a counter
  bumped there by ``:=``; an invariant is a function of a state the loop does not change, so
  each evaluation spends the same). The loop's budget is settled after it; if it ran out,
  the plain loop runs from the budget the hoisted one started with, and stops where the plain
  loop stops. Either way the budget left after the call is what the plain loop leaves.
- **coverage.** Its marks are side effects: the caller hoists nothing with coverage on.

A loop over fewer than two elements, where nothing can be saved, runs plainly.
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
    costly = [k for k, t in enumerate(texts) if "st" in _names(found.by_text[t])]
    names = {t: (f"((_ivn{k} := _ivn{k} + 1) and _iv{k})" if k in costly else f"_iv{k}")
             for k, t in enumerate(texts)}
    swapped = [pyast.unparse(_Swap(found.nodes, names).visit(h)) for h in hot]
    new_ifs = swapped[:len(ifs)]
    new_elt = swapped[-1] if every is not None else pyast.unparse(elt)
    ind = "            "
    pre: list[str] = []
    for k, t in enumerate(texts):
        if k in costly:
            pre += [f"_ivc{k} = st.left; _ivd{k} = st.work", f"_iv{k} = {t}",
                    f"_ivc{k} -= st.left; _ivd{k} -= st.work; _ivn{k} = 0"]
        else:
            pre.append(f"_iv{k} = {t}")
    loop = _loop(var, new_ifs, new_elt, every, ind, settle=bool(costly))
    if not costly:
        return (["    if len(_xs) > 1:", "        try:", *(ind + x for x in pre),
                 "        except Exception:", "            pass", "        else:"]
                + loop + plain)
    spent = " + ".join(f"_ivn{k} * _ivc{k}" for k in costly)
    worked = " + ".join(f"_ivn{k} * _ivd{k}" for k in costly)
    return (["    if len(_xs) > 1:", "        _ivl = st.left; _ivw = st.work", "        try:",
             *(ind + x for x in pre), f"{ind}st.left = _ivl; st.work = _ivw"] + loop +
            [f"{ind}st.left -= {spent}; st.work -= {worked}",
             f"{ind}if st.left >= 0 and st.work >= 0: return _ivr",
             "        except Exception:", "            pass",
             "        st.left = _ivl; st.work = _ivw"] + plain)


def _loop(var: str, ifs: list[str], elt: str, every: bool | None, ind: str,
          settle: bool = False) -> list[str]:
    """``for var in _xs`` at indentation ``ind``: returning its value, or with ``settle``
    leaving it in ``_ivr`` (the budget is settled after the loop; an empty ``first`` raises,
    and the plain loop raises it)."""
    body = ind + "    "
    lines = [f"{ind}for {var} in _xs:"] + [f"{body}if not ({t}): continue" for t in ifs]
    if every is None:
        if settle:
            return lines + [f"{body}_ivr = {elt}; break", f"{ind}else:",
                            f"{body}raise IndexError('first of an empty list')"]
        # an empty list's first element: the IndexError that [...][0] would raise
        return lines + [f"{body}return {elt}", f"{ind}raise IndexError('first of an empty list')"]
    test = f"if {'not ' if every else ''}({elt})"
    if settle:
        return lines + [f"{body}{test}: _ivr = {not every}; break", f"{ind}else:",
                        f"{body}_ivr = {every}"]
    return lines + [f"{body}{test}: return {not every}", f"{ind}return {every}"]


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
