"""Walking the AST: the one home of every generic pass over nodes (as Lark keeps all of its
tree walking in ``visitors.py``). A pass that needs every node below a point uses
:func:`descendants` or :func:`with_depths` and a ``match``; one that rebuilds a tree uses
:func:`replace_name` or :func:`children`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TypeVar, cast, get_args

import attrs

from rulespec.lang import ast

__all__ = ["EXPR_TYPES", "children", "descendants", "outermost", "replace_name", "through_calls",
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


def descendants(node: object) -> Iterator[object]:
    """``node`` and every AST node below it, depth first, in field order."""
    if isinstance(node, tuple):
        for x in node:
            yield from descendants(x)
        return
    cls = type(node)
    if not attrs.has(cls) or isinstance(node, ast.Span):
        return
    yield node
    for f in attrs.fields(cls):
        if f.name != "span":
            yield from descendants(getattr(node, f.name))


def through_calls(node: object, defs: Mapping[str, ast.DefDecl]) -> Iterator[object]:
    """Every AST node at or below ``node`` and, at each call of one of ``defs`` (a spec's
    definitions by name), every node of that definition's body: what ``node`` reads when it
    runs. Each definition is walked once, at its first call, so recursion ends."""
    seen: set[str] = set()
    stack: list[object] = [node]
    while stack:
        for x in descendants(stack.pop()):
            yield x
            if isinstance(x, (ast.Call, ast.GenCall)) and x.func in defs and x.func not in seen:
                seen.add(x.func)
                stack.append(defs[x.func].body)


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
