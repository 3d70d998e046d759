"""Clauses: the places of a spec where play can branch, each with a stable id.

A *clause* is a place where play can go one way or another: a decision alternative, a
procedure, each arm of a statement ``if``/``else`` (an ``if`` without ``else`` has an empty else
arm), each arm of an expression ``if then else``, and each outcome a ``pick`` lists in its text
(``pick face from [1, 2, 3]``, ``pick d from [left: 1, hold: 2]``; not the elements of a list
it computes). The engine, built with ``coverage=True``,
marks a clause each time play enters it; the compiler also records which clauses it compiled
for a table, because an option that is constant for the match folds the other arm away, and a
clause that no tested setting compiles "cannot run under the tested options".
"""

from __future__ import annotations

import attrs

from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec
from rulespec.lang.pretty import pretty_expr

__all__ = ["Clause", "clause_id", "clauses", "pick_arms"]


def clause_id(kind: str, span: ast.Span) -> str:
    """The stable identity of a clause: its kind and where it starts."""
    return f"{kind}@{span.source}:{span.line}:{span.column}"


@attrs.frozen
class Clause:
    """One clause of a spec."""

    id: str
    kind: str  # alternative | procedure | then | else | expr-then | expr-else | outcome
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

    for node in walk.descendants(spec.items):
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
            case ast.Pick(name=name):
                for value, span in pick_arms(node):
                    add("outcome", span, f"pick {name}: {pretty_expr(value)}")
            case _:
                pass
    return sorted(out.values(), key=lambda c: (c.span.source, c.span.line, c.span.column,
                                                c.kind))


def pick_arms(s: ast.Pick) -> list[tuple[ast.Expr, ast.Span]]:
    """The outcomes a ``pick`` lists in its text, each value with the span its clause starts
    at: a weighted pick's every ``VALUE: WEIGHT``, a plain list's every element."""
    if s.source is None:
        return [(o.value, o.span) for o in s.weighted]
    src = walk.uncited(s.source)
    return [(x, x.span) for x in src.items] if isinstance(src, ast.ListLit) else []
