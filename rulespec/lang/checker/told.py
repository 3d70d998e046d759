"""The checks of a decision's ``told`` text (rulespec.lang.told): it reads, and every field it
names is one of the decision's, counted only where it is a number or a list."""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from rulespec.lang import ast
from rulespec.lang.told import Cases, Part, ToldError, fields_named, parse_told
from rulespec.lang.types import Bool, Int, ListOf, Type, describe

#: an error as the checker reports it: where, what, and a hint
Found = tuple[ast.Span, str, str | None]


def told_errors(action: str, told: ast.Told, fields: dict[str, Type],
                set_fields: set[str]) -> Iterator[Found]:
    """What is wrong with ``told``, the told text of a decision ``action`` whose fields have
    the types ``fields`` (``set_fields``: those written ``set_of``)."""
    try:
        parts = parse_told(told.text)
    except ToldError as e:
        yield (_at(told.span, e.offset), f"the told text of decision {action!r} does not "
               f"read: {e.message}",
               "a told text is words with {field}, {field, select, ...} or {field, plural, "
               "...} (docs/language.md, \"Told\")")
        return
    shown = ", ".join(fields) or "none"
    for name, how in fields_named(parts):
        t = fields.get(name)
        if t is None:
            yield (told.span, f"the told text of decision {action!r} names {{{name}}}, "
                   "which is not one of its fields",
                   f"its fields are: {shown}")
        elif how == "plural" and not (isinstance(t, (Int, ListOf)) or name in set_fields):
            yield (told.span, f"the told text of decision {action!r} counts {{{name}}}, "
                   f"which is {describe(t)}: only a number or a list is counted",
                   "use {" + name + ", select, ...} for a value that is not a number")
    for name, keys in _selects(parts):
        wrong = sorted(k for k in keys if k not in ("true", "false", "other"))
        if isinstance(fields.get(name), Bool) and wrong:
            yield (told.span, f"the told text of decision {action!r} selects on {{{name}}}, "
                   f"a yes or no, by {', '.join(wrong)}", "its cases are true, false and other")


def _selects(parts: tuple[Part, ...]) -> Iterator[tuple[str, list[str]]]:
    for p in parts:
        if isinstance(p, Cases):
            if p.kind == "select":
                yield p.name, [k for k, _ in p.cases]
            for _, sub in p.cases:
                yield from _selects(sub)


def _at(span: ast.Span, offset: int) -> ast.Span:
    """The place ``offset`` characters into the string written at ``span`` (its quote first),
    where the string is on one line; else the string's own place."""
    if span.line != span.end_line:
        return span
    col = span.column + 1 + offset
    return attrs.evolve(span, column=col, end_column=col + 1,
                        start_pos=span.start_pos + 1 + offset,
                        end_pos=span.start_pos + 2 + offset)
