"""Which zones hold only the cards of a second pack (a pack of bid cards), read from the
spec: the zones its cards can reach through the rules' moves that the playing pack's cannot.
The example deal writes their cards in angle quotes, ‹2♠›, so that a bid card is not taken for
the playing card of the same name (rounds 15 to 20: "the bid card A♠ looks exactly like the
A♠ seat 2 plays"). Static: nothing here plays."""

from __future__ import annotations

from collections.abc import Iterable

from rulespec.book.facts import BookFacts
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec

__all__ = ["second_pack_zones", "second_packs"]


def _root(e: ast.Expr, zones: set[str]) -> str | None:
    """The zone an expression of the rules names (``left_down[q]`` is ``left_down``), or None
    where it is worked out otherwise (a hook, a definition)."""
    while isinstance(e, (ast.Index, ast.Cited)):
        e = e.target if isinstance(e, ast.Index) else e.expr
    return e.id if isinstance(e, ast.Name) and e.id in zones else None


def second_pack_zones(spec: CheckedSpec, packs: Iterable[str]) -> frozenset[str]:
    """The zones only the cards of ``packs`` (the zones that hold a second pack as play
    starts) ever reach: every move of the rules followed from them, less every zone the other
    cards reach (a move from a zone the rules work out, a hook, counts as from anywhere)."""
    packs = set(packs)
    if not packs:
        return frozenset()
    zones = {z.name for z in spec.zones}
    edges: dict[str, set[str]] = {}
    anywhere: set[str] = set()
    for s in walk.descendants(spec.items):
        if isinstance(s, ast.Move):
            src, dst = _root(s.src, zones), _root(s.dst, zones)
            if dst is None:
                continue
            if src is None:
                anywhere.add(dst)
            else:
                edges.setdefault(src, set()).add(dst)
        elif isinstance(s, ast.DealCards):
            src = _root(s.src, zones)
            if src is not None:
                edges.setdefault(src, set()).add(s.zone)
    theirs = walk.reachable(packs, edges)
    others = walk.reachable({z for z in zones if z not in theirs} | anywhere, edges)
    return frozenset(theirs - others)


def second_packs(facts: BookFacts) -> list[str]:
    """The zones that hold a pack of their own as play starts (a bid pack), by the book's
    tables' counts."""
    return sorted({k.removesuffix(" pack at play") for t in facts.tables for k in t.counts
                   if k.endswith(" pack at play")})
