"""The error tree of rulespec and the one place that renders a diagnostic.

Every error a user can cause derives from :class:`RulespecError`. Spec errors carry a
:class:`~rulespec.spans.Span`; :func:`render` turns them into ``file:line:col: error: message``
followed by the source line, a caret and an optional hint (Lark ``get_context``, pylox).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from rulespec.shown import blank_controls, escape_line
from rulespec.spans import Span

__all__ = [
    "ConfigurationError",
    "Diagnostic",
    "IllegalActionError",
    "ImplementationError",
    "ImplementationStartError",
    "RecordError",
    "RuleRuntimeError",
    "RulespecError",
    "SpecCheckError",
    "SpecSyntaxError",
    "render",
]


@attrs.frozen
class Diagnostic:
    """One problem found in a spec: where, what, and how to fix it."""

    span: Span | None
    message: str
    hint: str | None = None
    severity: str = "error"

    def render(self, source: str | None = None) -> str:
        """Render as ``file:line:col: error: message`` plus source line, caret and hint."""
        return render(self.span, self.message, self.hint, source, self.severity)


#: the widest source line a diagnostic shows whole
_WIDE = 100


def render(
    span: Span | None,
    message: str,
    hint: str | None = None,
    source: str | None = None,
    severity: str = "error",
) -> str:
    """Render one diagnostic; ``source`` is the full text the span points into."""
    if span is None:
        head = f"{severity}: {message}"
        return head + (f"\n  hint: {hint}" if hint else "")
    lines = [f"{escape_line(span.source)}:{span.line}:{span.column}: {severity}: {message}"]
    if source is not None:
        # lines as the parser counts them: at LF (CRLF and CR read as LF), not at every
        # character splitlines() breaks at (U+2028, a form feed), or the caret would point
        # into another line
        text_lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if 1 <= span.line <= len(text_lines):
            # a control character in the line (an ESC in a comment) is shown as one "?", so
            # that it cannot drive the terminal and the caret keeps its column
            line = blank_controls(text_lines[span.line - 1])
            width = 1
            if span.end_line == span.line and span.end_column > span.column:
                width = span.end_column - span.column
            col = span.column - 1
            if len(line) > _WIDE:
                # a long line is shown around the caret (a generated spec may write a whole
                # rule on one line of thousands of characters)
                start = max(0, col - _WIDE // 2)
                shown_line = line[start:start + _WIDE]
                head, tail = ("..." if start else ""), ("..." if start + _WIDE < len(line) else "")
                line, col = head + shown_line + tail, col - start + len(head)
                width = min(width, len(shown_line) - (col - len(head)))
            lines.append(f"  {line}")
            lines.append("  " + " " * col + "^" * max(1, width))
    if hint:
        lines.append(f"  hint: {hint}")
    return "\n".join(lines)


class RulespecError(Exception):
    """Root of every error a user of rulespec can cause."""


class SpecSyntaxError(RulespecError):
    """The text of a spec does not follow the grammar."""

    def __init__(self, diagnostic: Diagnostic, source: str | None = None) -> None:
        super().__init__(diagnostic.message)
        self.diagnostics: tuple[Diagnostic, ...] = (diagnostic,)
        self.source = source

    def render(self) -> str:
        """All diagnostics, rendered against the source."""
        return "\n".join(d.render(self.source) for d in self.diagnostics)


class SpecCheckError(RulespecError):
    """The spec parsed but breaks static rules; holds every diagnostic found."""

    def __init__(self, diagnostics: Sequence[Diagnostic], sources: dict[str, str] | None = None):
        first = diagnostics[0].message if diagnostics else "check failed"
        super().__init__(f"{len(diagnostics)} error(s); first: {first}")
        self.diagnostics = tuple(diagnostics)
        self.sources = dict(sources or {})

    def render(self) -> str:
        """All diagnostics, each against the file it points into."""
        out = []
        for d in self.diagnostics:
            src = self.sources.get(d.span.source) if d.span else None
            out.append(d.render(src))
        return "\n".join(out)


class RuleRuntimeError(RulespecError):
    """A checked spec did something impossible while running (an empty pile's top card...)."""

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None,
                 note: str | None = None):
        super().__init__(message)
        self.span = span
        self.message = message
        self.hint = hint
        #: where it happened, when the one running the rules knows more than they do (which
        #: game of a simulation, with which seed)
        self.note = note

    def noted(self, note: str) -> RuleRuntimeError:
        """The same error with ``note`` said after it."""
        return RuleRuntimeError(self.message, self.span, self.hint, note)

    def render(self, source: str | None = None) -> str:
        """Render with the span of the rule that was executing (and the note, if any)."""
        out = render(self.span, self.message, self.hint, source)
        return out + (f"\n  note: {self.note}" if self.note else "")


class IllegalActionError(RulespecError, ValueError):
    """An action that the rules do not allow now; the state is left as it was."""

    def __init__(self, message: str, rule: str | None = None, span: Span | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.span = span


class RecordError(RulespecError, ValueError):
    """A record (or a protocol request) is malformed: bad header, unknown option, bad field."""


class ConfigurationError(RecordError):
    """A table the spec does not offer: player count, option value, or a failed ``require``."""


class ImplementationError(RulespecError):
    """The implementation under test misbehaved: it crashed, exited, hung, answered something
    that is not a JSON object or an answer of the wrong shape. ``kind`` names the failure
    (``crash``, ``exit``, ``timeout``, ``garbage``, ``shape``); ``stderr`` holds the last lines it
    wrote to standard error (or of its traceback)."""

    def __init__(self, kind: str, message: str, stderr: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.stderr = tuple(stderr)


class ImplementationStartError(RulespecError):
    """The implementation cannot be started or loaded: a missing program, a badly quoted
    command, a Python module or attribute that does not exist (a usage error, exit 2)."""
