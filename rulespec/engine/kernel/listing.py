"""Helpers of the kernel's lowering (``lower.py``): the order of a decision's alternatives
known from their events' templates, the texts values sort by, a guard split around the value it
tests, and which procedures may stop."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import cast

import attrs

from rulespec.engine.events import json_value
from rulespec.lang import ast, walk

__all__ = ["SortTexts", "Template", "blocks", "key_template", "once", "reads", "sort_text",
           "split", "stopping", "zone_of"]


def sort_text(value: object, follow: str) -> str:
    """What orders the events of a decision whose one varying field holds ``value``: its
    canonical JSON text and the character after it in the key (``,`` or ``}``). Two keys
    that differ only there compare as these texts do: ``1`` before ``12`` where a ``,``
    follows (``1,`` < ``12``), as the keys themselves sort."""
    return json_value(value) + follow

@attrs.frozen
class Template:
    """An alternative's events' keys up to the value its generator binds (``listing``: the
    variable and the character after its value), or whole (``listing`` None)."""

    text: str
    listing: tuple[str, str] | None


def key_template(a: ast.Alternative, var: str | None,
                 constant: Callable[[ast.Expr], tuple[bool, object]]) -> Template | None:
    """An alternative's events' keys up to the value its one generator's ``var`` binds (the
    field that is that variable), or whole (no ``var``): the action, the seat a mark (the
    same for every alternative of a decision) and each other field's constant value
    (``constant`` folds it); None where a field is neither, or no field holds the value."""
    parts: dict[str, str | None] = {"action": json_value(a.action), "seat": "\x00"}
    for f in a.fields:
        e = walk.uncited(f.value)
        if isinstance(e, ast.Name) and e.id == var:
            parts[f.name] = None
            continue
        ok, value = constant(f.value)
        if not ok:
            return None
        parts[f.name] = json_value(value)
    names = sorted(parts)
    text = "{"
    for i, name in enumerate(names):
        text += ("," if i else "") + json_value(name) + ":"
        if parts[name] is None:
            assert var is not None
            return Template(text, (var, "}" if i == len(names) - 1 else ","))
        text += cast(str, parts[name])
    return None if var is not None else Template(text + "}", None)


def blocks(templates: list[Template | None]) -> list[list[int]] | None:
    """The alternatives (by their places) in the canonical order of their events, where the
    order is known from the templates alone: any two differ in a character before either
    varies. Alternatives without a generator whose events are one and the same make one
    block, in the order written (the first that holds writes the event, as the engine's
    enumerators keep the first). None where the order is known only from the values."""
    if any(t is None for t in templates):
        return None
    ts = cast("list[Template]", templates)
    blocks: list[list[int]] = []
    for i, t in enumerate(ts):
        for b in blocks:
            u = ts[b[0]]
            if t.text == u.text and t.listing is None and u.listing is None:
                b.append(i)
                break
        else:
            blocks.append([i])
    for x, y in itertools.combinations(blocks, 2):
        tx, ty = ts[x[0]].text, ts[y[0]].text
        if not any(p != q for p, q in zip(tx, ty, strict=False)):
            return None  # one is the other's beginning: the values decide
    return sorted(blocks, key=lambda b: ts[b[0]].text)


class SortTexts(dict[object, str]):
    """Each value's :func:`sort_text`, made once."""

    def __init__(self, follow: str) -> None:
        super().__init__()
        self.follow = follow

    def __missing__(self, key: object) -> str:
        text = self[key] = sort_text(key, self.follow)
        return text


def split(guard: ast.Expr | None, var: str) -> tuple[list[ast.Expr], list[ast.Expr]]:
    """The guard's conjuncts that do not read ``var`` (tested once, before the list) and
    those that do (tested on each value), each in the order written."""
    parts: list[ast.Expr] = []

    def conj(e: ast.Expr) -> None:
        e2 = walk.uncited(e)
        if isinstance(e2, ast.And):
            conj(e2.left)
            conj(e2.right)
        else:
            parts.append(e)
    if guard is not None:
        conj(guard)
    # the engine's enumerators test every conjunct that reads no value before the loop,
    # wherever it is written (enumerators._levels): the same order, so the same errors
    return [c for c in parts if not reads(c, var)], [c for c in parts if reads(c, var)]


def reads(e: ast.Expr, var: str) -> bool:
    """Whether ``e`` names ``var``."""
    return any(isinstance(x, ast.Name) and x.id == var for x in walk.descendants(e))



def stopping(procs: dict[str, tuple[tuple[str, ...], ast.Block]]) -> set[str]:
    """The procedures that may stop: those that decide, draw by chance or run a deal, and
    those that call one that may."""
    direct: dict[str, set[str]] = {}
    stops: set[str] = set()
    for name, (_, body) in procs.items():
        calls = set()
        for x in walk.descendants(body):
            if isinstance(x, (ast.Choose, ast.Shuffle, ast.Reshuffle, ast.Bury, ast.Pick,
                              ast.RunDeal)):
                stops.add(name)
            elif isinstance(x, ast.CallStmt):
                calls.add(x.name)
        direct[name] = calls
    changed = True
    while changed:
        changed = False
        for name, calls in direct.items():
            if name not in stops and calls & stops:
                stops.add(name)
                changed = True
    return stops


def zone_of(e: ast.Expr) -> str | None:
    """The zone a generator's source names (``hand[h]`` is ``hand``), else None."""
    while isinstance(e, (ast.Index, ast.Cited)):
        e = e.target if isinstance(e, ast.Index) else e.expr
    return e.id if isinstance(e, ast.Name) else None


def once(values: str, unique: bool) -> str:
    """A listing's values each once: as they are from a zone of distinct cards, else through
    ``dict.fromkeys``, one event per value as the engine's map keys them (two packs)."""
    return values if unique else f"dict.fromkeys({values})"


