"""Where a piece of a spec is written: the one type every stage shares, below them all.

It sits beneath :mod:`rulespec.errors` so that an error can point at text without the error
tree depending on the language stage; :mod:`rulespec.lang.ast` re-exports it with the nodes.
"""

from __future__ import annotations

from attrs import frozen

__all__ = ["NOSPAN", "Span"]


@frozen
class Span:
    """A region of a source file: 1-based lines and columns, 0-based offsets."""

    source: str
    line: int
    column: int
    end_line: int
    end_column: int
    start_pos: int = 0
    end_pos: int = 0

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"


NOSPAN = Span("<builtin>", 0, 0, 0, 0)
