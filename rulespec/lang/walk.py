"""Walking the AST: the one home of every generic pass over nodes (as Lark keeps all of its
tree walking in ``visitors.py``). A pass that needs every node below a point uses
:func:`descendants` or :func:`with_depths` and a ``match``; one over the statements of a block
:func:`statements`; one that follows calls into the definitions they call
:func:`through_definitions` or :func:`names_read`; one that rebuilds a tree :func:`replace_name`
or :func:`children`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TypeVar, cast, get_args

import attrs

from rulespec.lang import ast

__all__ = ["EXPR_TYPES", "child_fields", "children", "citations", "descendants", "names_read",
           "outermost", "reachable", "replace_name", "statements", "through_definitions",
           "uncite", "uncited", "with_depths"]

_N = TypeVar("_N")

#: the classes of the ``ast.Expr`` union, for ``isinstance``
EXPR_TYPES: tuple[type, ...] = get_args(ast.Expr)


def children(node: object) -> Iterator[object]:
    """The AST nodes directly below ``node`` (a tuple field's items one by one), in field order."""
    cls = type(node)
    if not attrs.has(cls) or isinstance(node, ast.Span):
        return
    for f in attrs.fields(cls):
        if f.name == "span":
            continue
        v = getattr(node, f.name)
        items = v if isinstance(v, tuple) else (v,)
        for x in items:
            if attrs.has(type(x)) and not isinstance(x, ast.Span):
                yield x


def uncited(e: ast.Expr) -> ast.Expr:
    """``e`` without the citations around it (``[VAN-6]``), which do not change its value."""
    while isinstance(e, ast.Cited):
        e = e.expr
    return e


def uncite(e: ast.Expr) -> ast.Expr:
    """``e`` without any citation at any depth (:func:`uncited` removes those around it only):
    what a picture or a phrase says, which names no ambiguity IDs."""
    out = _uncite(e)
    assert isinstance(out, EXPR_TYPES)
    return cast(ast.Expr, out)


def _uncite(node: object) -> object:
    if isinstance(node, ast.Cited):
        return _uncite(node.expr)
    if isinstance(node, tuple):
        items = tuple(_uncite(x) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    cls = type(node)
    if not attrs.has(cls) or isinstance(node, ast.Span):
        return node
    changes = {}
    for f in attrs.fields(cls):
        if f.name != "span":
            v = getattr(node, f.name)
            if (w := _uncite(v)) is not v:
                changes[f.name] = w
    # evolve keeps the span
    return attrs.evolve(node, **changes) if changes else node  # type: ignore[misc]


def child_fields(cls: type) -> tuple[str, ...] | None:
    """The names of the fields of an AST class that may hold nodes (all but ``span``), in
    field order; None for anything that is not a node. Worked out once per class: every walk
    asks it for every node it meets."""
    try:
        return _CHILD_FIELDS[cls]
    except KeyError:
        names = (tuple(f.name for f in attrs.fields(cls) if f.name != "span")
                 if attrs.has(cls) and not issubclass(cls, ast.Span) else None)
        _CHILD_FIELDS[cls] = names
        return names


_CHILD_FIELDS: dict[type, tuple[str, ...] | None] = {}


def descendants(node: object) -> Iterator[object]:
    """``node`` and every AST node below it, depth first, in field order. Walked with a stack
    of its own: a generator per level would cost a resumption per level for every node, and
    compiling a table walks definition bodies hundreds of thousands of times."""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        x = pop()
        if isinstance(x, tuple):
            stack.extend(reversed(x))
            continue
        names = child_fields(type(x))
        if names is None:
            continue
        yield x
        for name in reversed(names):
            push(getattr(x, name))


def outermost(node: object, cls: type[_N], skip: tuple[type, ...] = ()) -> Iterator[_N]:
    """The nodes of class ``cls`` at or below ``node`` that are not inside another one, in
    field order; nodes of the classes in ``skip`` are not looked inside (``EXPR_TYPES``, for a
    statement that no expression can hold)."""
    if isinstance(node, cls):
        yield node
    elif isinstance(node, tuple):
        for x in node:
            yield from outermost(x, cls, skip)
    elif attrs.has(kind := type(node)) and not isinstance(node, (ast.Span, *skip)):
        for f in attrs.fields(kind):
            if f.name != "span":
                yield from outermost(getattr(node, f.name), cls, skip)


def with_depths(node: object) -> Iterator[tuple[object, int]]:
    """Every AST node at or below ``node``, each with its depth below it (``node`` is at 0;
    the items of a tuple field are one level below the node that holds it). Walked with a
    stack of its own, in no promised order."""
    stack: list[tuple[object, int]] = [(node, 0)]
    while stack:
        x, depth = stack.pop()
        if isinstance(x, tuple):
            stack.extend((y, depth) for y in x)
            continue
        cls = type(x)
        if not attrs.has(cls) or isinstance(x, ast.Span):
            continue
        yield x, depth
        stack.extend((getattr(x, f.name), depth + 1) for f in attrs.fields(cls)
                     if f.name != "span")


def citations(node: object) -> Iterator[str]:
    """The IDs cited anywhere at or below ``node`` (``[VAN-6]`` gives ``VAN-6``), in order."""
    for x in descendants(node):
        if isinstance(x, ast.Cited):
            yield x.ref


#: the statements that repeat their body
LOOPS = (ast.While, ast.Loop, ast.For, ast.Repeat)


def statements(block: ast.Block) -> Iterator[tuple[ast.Stmt, int]]:
    """Every statement of ``block`` and of the blocks nested in it (branches, loop bodies,
    steps, the alternatives of a decision), depth first in the order written, each once, with
    the number of loops inside ``block`` that enclose it. Expressions are not entered. Walked
    with a stack of its own."""
    stack: list[tuple[ast.Stmt, int]] = [(s, 0) for s in reversed(block.stmts)]
    while stack:
        s, loops = stack.pop()
        yield s, loops
        inner = loops + isinstance(s, LOOPS)
        below: list[tuple[ast.Stmt, int]] = []
        for f in attrs.fields(type(s)):
            v = getattr(s, f.name)
            if isinstance(v, ast.Block):
                below += [(x, inner) for x in v.stmts]
            elif isinstance(v, ast.If):  # else if
                below.append((v, inner))
            elif isinstance(v, tuple):
                below += [(x, inner) for a in v if isinstance(a, ast.Alternative)
                          for x in a.body.stmts]
        stack.extend(reversed(below))


def through_definitions(node: object, defs: Mapping[str, ast.DefDecl]
                        ) -> Iterator[tuple[object, frozenset[str]]]:
    """Every AST node at or below ``node`` and, right after the first call of each definition
    of ``defs`` (a call or a generator call), every node of that definition's body: what
    ``node`` works out, through the definitions it uses. Each node comes with the local names
    bound where it stands: the parameters of the definition whose body it is in, and the
    variables of the comprehensions and generators around it (bound in their element and
    condition, not in their source, which is read outside them). Depth first in field order,
    each definition's body once, on a stack of its own (a chain of definitions may be long)."""
    entered: set[str] = set()
    stack: list[tuple[object, frozenset[str]]] = [(node, frozenset())]
    while stack:
        x, bound = stack.pop()
        if isinstance(x, tuple):
            stack.extend((y, bound) for y in reversed(x))
            continue
        cls = type(x)
        if not attrs.has(cls) or isinstance(x, ast.Span):
            continue
        yield x, bound
        inner, scoped = bound, frozenset[str]()
        if isinstance(x, (ast.Comprehension, ast.GenCall)):
            inner, scoped = bound | {x.var}, frozenset({"elem", "cond"})
        stack.extend((getattr(x, f.name), inner if f.name in scoped else bound)
                     for f in reversed(attrs.fields(cls)) if f.name != "span")
        if isinstance(x, (ast.Call, ast.GenCall)) and x.func in defs and x.func not in entered:
            entered.add(x.func)
            d = defs[x.func]
            stack.append((d.body, frozenset(p.name for p in d.params)))


def names_read(node: object, defs: Mapping[str, ast.DefDecl]) -> Iterator[ast.Name]:
    """Each name ``node`` reads that no parameter, comprehension or generator binds where it
    stands, through the definitions of ``defs`` it calls (:func:`through_definitions`)."""
    for x, bound in through_definitions(node, defs):
        if isinstance(x, ast.Name) and x.id not in bound:
            yield x


def replace_name(node: object, name: str, by: ast.Expr) -> object:
    """``node`` with every free occurrence of the name ``name`` replaced by ``by``. A
    comprehension that binds ``name`` itself hides it from its element and condition (not from
    its source, which is read outside it)."""
    if isinstance(node, ast.Name):
        return by if node.id == name else node
    if isinstance(node, tuple):
        items = tuple(replace_name(x, name, by) for x in node)
        return node if all(a is b for a, b in zip(items, node, strict=True)) else items
    cls = type(node)
    if not attrs.has(cls) or isinstance(node, ast.Span):
        return node
    changes = {}
    hidden = isinstance(node, (ast.Comprehension, ast.GenCall)) and node.var == name
    for f in attrs.fields(cls):
        if f.name == "span" or (hidden and f.name in ("elem", "cond")):
            continue
        v = getattr(node, f.name)
        w = replace_name(v, name, by)
        if w is not v:
            changes[f.name] = w
    return attrs.evolve(node, **changes) if changes else node  # type: ignore[misc]


def reachable(starts: Iterable[str], edges: Mapping[str, Iterable[str]]) -> set[str]:
    """The names reached from ``starts`` along ``edges`` (a zone's cards flowing to others),
    the starts included."""
    seen: set[str] = set()
    todo = list(starts)
    while todo:
        z = todo.pop()
        if z not in seen:
            seen.add(z)
            todo.extend(edges.get(z, ()))
    return seen
