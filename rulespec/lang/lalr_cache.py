"""The grammar's LALR tables, worked out once per grammar and Lark version and kept as JSON in
the user's cache folder: building them is most of the time a short command takes (a third of
a second, as long as checking a shipped spec), reading them back a twentieth of it.

JSON, not the pickle that Lark's own ``cache=True`` writes into the shared temporary folder:
a file someone else planted there would run code when read. Read back, this file can only
describe a grammar; it is found by a name that hashes the grammar's text and Lark's version,
and one that cannot be read or does not load is ignored (the tables are built again, and
written over it). ``RULESPEC_CACHE_DIR`` names another folder; set empty, nothing is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

__all__ = ["CACHE_ENV", "cache_folder", "cached_lark"]

#: the environment variable naming the cache folder ("" keeps nothing)
CACHE_ENV = "RULESPEC_CACHE_DIR"
#: bumped when what is written changes shape
_FORMAT = "1"
#: options that are not part of the tables: given again when they are read back
_GIVEN_AGAIN = frozenset({"lexer_callbacks", "transformer", "postlex", "tree_class", "_plugins"})


def cache_folder() -> Path | None:
    """Where rulespec keeps what it works out once: ``$RULESPEC_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/rulespec``, else ``~/.cache/rulespec``; None when it is set empty or
    there is no home."""
    named = os.environ.get(CACHE_ENV)
    if named is not None:
        return Path(named) if named else None
    base = os.environ.get("XDG_CACHE_HOME")
    if base:
        return Path(base) / "rulespec"
    try:
        return Path.home() / ".cache" / "rulespec"
    except RuntimeError:  # no home directory known
        return None


def cached_lark(grammar: str, callbacks: Mapping[str, Callable[[lark.Token], lark.Token]],
                **options: object) -> lark.Lark:
    """``lark.Lark(grammar, lexer_callbacks=callbacks, **options)`` (an LALR parser), its
    tables read from the cache folder when they were kept there, else built and kept."""
    folder = cache_folder()
    digest = hashlib.sha256("\0".join(
        [_FORMAT, lark.__version__, json.dumps(options, sort_keys=True), grammar]
    ).encode()).hexdigest()[:24]
    path = folder / f"lalr-{digest}.json" if folder is not None else None
    if path is not None:
        got = _read(path, callbacks)
        if got is not None:
            return got
    parser = lark.Lark(grammar, lexer_callbacks=dict(callbacks), **options)
    if path is not None:
        _write(path, parser)
    return parser


def _int_keys(pairs: list[tuple[str, object]]) -> dict[object, object]:
    # JSON writes the tables' int keys (states, memo ids) as strings; no name of the grammar
    # is all digits, so those are they
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def _read(path: Path, callbacks: Mapping[str, Callable[[lark.Token], lark.Token]]
          ) -> lark.Lark | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_int_keys)
        data["data"]["options"]["lexer_callbacks"] = dict(callbacks)
        return lark.Lark.load(data)
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError,
            lark.exceptions.LarkError):
        return None  # missing, unreadable or not tables of this grammar: built again


def _write(path: Path, parser: lark.Lark) -> None:
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k not in _GIVEN_AGAIN}
    try:
        text = json.dumps({"data": data, "memo": memo})
    except (TypeError, ValueError):
        return  # an option JSON cannot write: nothing kept
    with contextlib.suppress(OSError):  # a read-only home, a full disk: nothing kept
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".lalr-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
