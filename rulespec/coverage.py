"""Clause coverage: which parts of a spec a set of matches exercised.

A *clause* is a place where play can go one way or another: a decision alternative, a
procedure, each arm of a statement ``if``/``else`` (an ``if`` without ``else`` has an empty else
arm) and each arm of an expression ``if then else``. The engine, built with ``coverage=True``,
marks a clause each time play enters it; the compiler also records which clauses it compiled
for a table, because an option that is constant for the match folds the other arm away, and a
clause that no tested setting compiles "cannot run under the tested options".
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from rulespec import ast
from rulespec.model import CheckedSpec

__all__ = ["Clause", "Coverage", "clause_id", "clauses"]


def clause_id(kind: str, span: ast.Span) -> str:
    """The stable identity of a clause: its kind and where it starts."""
    return f"{kind}@{span.source}:{span.line}:{span.column}"


@attrs.frozen
class Clause:
    """One clause of a spec."""

    id: str
    kind: str  # alternative | procedure | then | else | expr-then | expr-else
    label: str
    span: ast.Span = attrs.field(eq=False)

    def where(self) -> str:
        """``file:line:col`` of the clause (the file's name only, for reports): one line may
        hold several clauses (four ``if ... then ... else`` on one line)."""
        name = self.span.source.rsplit("/", 1)[-1]
        return f"{name}:{self.span.line}:{self.span.column}"


def clauses(spec: CheckedSpec) -> list[Clause]:
    """Every clause of ``spec`` (imported modules included), in source order."""
    out: dict[str, Clause] = {}

    def add(kind: str, span: ast.Span, label: str) -> None:
        cid = clause_id(kind, span)
        out.setdefault(cid, Clause(cid, kind, label, span))

    for node in ast.descendants(spec.items):
        match node:
            case ast.ProcDecl(name=name, span=span):
                add("procedure", span, f"procedure {name}")
            case ast.Alternative(action=action, span=span):
                add("alternative", span, f"decision {action}")
            case ast.If(span=span):
                add("then", span, "if: then arm")
                if not isinstance(node.else_, ast.If):
                    add("else", span, "if: else arm" if node.else_ else "if: (no else) arm")
            case ast.IfExpr(span=span):
                add("expr-then", span, "if-expression: then arm")
                add("expr-else", span, "if-expression: else arm")
            case _:
                pass
    return sorted(out.values(), key=lambda c: (c.span.source, c.span.line, c.span.column,
                                                c.kind))


@attrs.define
class Coverage:
    """What a verification run reached: clauses compiled under some tested setting, and hit."""

    universe: list[Clause]
    compiled: set[str] = attrs.field(factory=set)
    hit: set[str] = attrs.field(factory=set)

    def add(self, compiled: Iterable[str], hit: Iterable[str]) -> None:
        """Fold in one setting's compiled and hit clauses."""
        self.compiled.update(compiled)
        self.hit.update(hit)

    @property
    def reachable(self) -> list[Clause]:
        """Clauses some tested setting compiles."""
        return [c for c in self.universe if c.id in self.compiled]

    @property
    def missed(self) -> list[Clause]:
        """Reachable clauses no match exercised."""
        return [c for c in self.reachable if c.id not in self.hit]

    @property
    def not_compiled(self) -> list[Clause]:
        """Clauses that cannot run under any tested setting (options folded them away)."""
        return [c for c in self.universe if c.id not in self.compiled]

    def summary(self) -> str:
        """One line, e.g. ``412 of 430 clauses exercised``."""
        reach = self.reachable
        if not reach:
            return "no clause exercised yet"  # before the first setting is compiled
        n_hit = sum(1 for c in reach if c.id in self.hit)
        text = f"{n_hit} of {len(reach)} clauses exercised"
        if self.not_compiled:
            text += f" ({len(self.not_compiled)} more cannot run under the tested options)"
        return text
