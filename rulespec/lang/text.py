"""The text the parser reads: a spec's line breaks made one, the grammar's own file, and the
cycle collector paused while a big spec is parsed or checked."""

from __future__ import annotations

import contextlib
import gc
import importlib.resources
from collections.abc import Iterator
from pathlib import Path

__all__ = ["grammar_text", "normalise_newlines", "paused_gc", "unquote"]


def grammar_text() -> str:
    """The grammar: from the wheel's package data, else from the repository's ``grammar/``."""
    try:
        res = importlib.resources.files("rulespec") / "_grammar" / "rulespec.lark"
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover
        pass
    here = Path(__file__).resolve().parents[2] / "grammar" / "rulespec.lark"
    return here.read_text(encoding="utf-8")


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector off for the span of a parse or a check, then as it was.

    A spec builds its tokens, trees and AST nodes by the million, none of them in a cycle, and
    the collector would walk all of them again at each of its passes: on a 2 MB spec that was
    half the time of checking it. What is freed meanwhile is freed by reference counts, as
    always; only the search for cycles waits."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def normalise_newlines(text: str) -> str:
    """``text`` with CRLF and a lone CR written LF: the one line break a spec's lines end at.

    Python's tokenizer and CommonMark also end a line at CR, so a CR left in a string would
    start a line in generated source or a Markdown book; and a spec checked out with CRLF line
    ends must read as the same spec."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def unquote(tok: str) -> str:
    """A STRING token's text: a docstring's whitespace made single spaces, a one-line
    string's escapes read."""
    if tok.startswith('"""'):
        body = tok[3:-3]
        # Docstrings are indented with the spec; normalise runs of whitespace to one space.
        return " ".join(body.split())
    body = tok[1:-1]
    if "\\" not in body:
        return body
    # the escapes of JSON strings that matter in prose; anything else stays as written
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)
