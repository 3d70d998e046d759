"""Text rulespec did not write, shown as text.

Reports quote what others wrote: an implementation's standard error and its error messages,
option values, spec strings, file names. Any of them may hold terminal escapes (ESC, OSC, a
C1 control such as U+009B, which some terminals read as CSI), a carriage return that
overwrites the line it is on, a line break that forges a line of the report, or a
bidirectional override that reorders what is shown. Before such text reaches a terminal, each
of those characters is written as an escape (``\\x1b``, ``\\r``, ``\\u202e``), the way Python's
``repr`` writes them; every other character, letters of any script included, is kept.

rich's markup (``[bold]``, ``[/]``, ``[link=...]``) is another matter: it means something only
to rich, and :mod:`rulespec.cli` escapes it where text goes through rich.
"""

from __future__ import annotations

import json
import re

__all__ = ["blank_controls", "escape_line", "escape_text", "json_text"]

# C0 controls but tab, DEL and C1 controls, the Arabic letter mark, the bidirectional marks,
# embeddings, overrides and isolates, the line and paragraph separators, and lone surrogates
# (a file name read with surrogateescape)
_CONTROLS = ("\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
             "\u2066-\u2069\ud800-\udfff")
_LINE = re.compile(f"[{_CONTROLS}]")
_TEXT = re.compile(f"[{_CONTROLS.replace(chr(10) + '-', chr(11) + '-')}]")
# what json.dumps(ensure_ascii=False) leaves raw inside strings (it escapes C0 itself)
_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
                   "\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    o = ord(c)
    return _NAMED.get(c) or (f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")


def escape_line(text: str) -> str:
    """``text`` as one line: every control character, line breaks included, escaped."""
    return _LINE.sub(_escape, text)


def blank_controls(text: str) -> str:
    """``text`` with each control character written as one ``?``: a source line a diagnostic
    quotes keeps its columns, so the caret under it still points at the right character."""
    return _LINE.sub("?", text)


def escape_text(text: str) -> str:
    """``text`` with its lines kept: every control character but the line feed escaped."""
    return _TEXT.sub(_escape, text)


def json_text(data: object, indent: int | None = None) -> str:
    """``data`` as JSON text (UTF-8 letters kept) in which every character a terminal could
    take for a control is a ``\\u`` escape: still JSON, and the same value when read."""
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    return _JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
