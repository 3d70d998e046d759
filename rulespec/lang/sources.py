"""Spec files: the one module that reads them and resolves their imports.

A spec named on a command line, by a record or by an ``import`` is read here (a regular file of
at most :data:`MAX_SPEC_BYTES`, UTF-8 or a :class:`SpecSyntaxError`), its imports are found here
(beside the importing file, else among the modules shipped in :data:`GAMES_DIR`), and a spec
reached through someone else's record is confined here to its own folder (docs/security.md).
"""

from __future__ import annotations

from pathlib import Path

import attrs

from rulespec.errors import Diagnostic, SpecCheckError, SpecSyntaxError
from rulespec.files import read_bounded
from rulespec.lang import ast
from rulespec.lang.parser import parse
from rulespec.lang.text import normalise_newlines

__all__ = ["GAMES_DIR", "MAX_SPEC_BYTES", "LoadedSpec", "is_file", "load_spec", "parse_file",
           "read_spec", "resolve_import"]

#: the folder of the shipped games and of the modules they import (the one spelling of it)
GAMES_DIR = Path(__file__).resolve().parents[1] / "games"

#: the largest spec file rulespec reads: one named on a command line, by a record (H10) or by
#: an import (the shipped specs are 10 to 40 KB)
MAX_SPEC_BYTES = 4 * 1024 * 1024


def is_file(p: Path) -> bool:
    """Whether ``p`` is a regular file; False, not OSError, for a name the system refuses (a
    name of 10,000 letters is "File name too long", and a record or an import may name one)."""
    try:
        return p.is_file()
    except OSError:
        return False


def read_spec(path: Path, name: str) -> str:
    """The text of a spec file (files.read_bounded: a regular file of at most MAX_SPEC_BYTES,
    else an OSError saying why); a file that is not UTF-8 text is a syntax error at the first
    byte that cannot be read, not a crash."""
    data = read_bounded(path, MAX_SPEC_BYTES, "spec")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        before = data[:e.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        col = len(before) - (before.rfind("\n") + 1) + 1
        span = ast.Span(name, line, col, line, col + 1)
        shown = data.decode("utf-8", errors="replace")
        raise SpecSyntaxError(Diagnostic(span, f"this file is not UTF-8 text: byte "
                                         f"0x{data[e.start]:02x} cannot be read",
                                         "save the spec as UTF-8"), shown) from None


def parse_file(path: str | Path) -> ast.Spec:
    """Read and parse a .rules file (its imports are not followed); the span's source is the
    path as given. Bad UTF-8 is a SpecSyntaxError, as for :func:`rulespec.check_file`."""
    return parse(read_spec(Path(path), str(path)), str(path))


@attrs.frozen
class LoadedSpec:
    """A spec with everything it imports, parsed: the items of all its files in reading order
    (the imports themselves left out), every file's text by its source name, and for each
    imported file the ``import`` that first brought it in (where a hook it declares and the
    spec lacks is reported)."""

    items: tuple[ast.Item, ...]
    sources: dict[str, str]
    imports: dict[str, ast.Span]


def load_spec(text: str, source_name: str, confine: Path | None = None) -> LoadedSpec:
    """Parse a spec and everything it imports.

    An import names a file relative to the importing one, or a module shipped in
    :data:`GAMES_DIR` (:func:`resolve_import`, confined to ``confine`` when given). Each file is
    read once; an import that finds nothing and an import cycle are a SpecCheckError, a syntax
    error in any file a SpecSyntaxError naming that file.
    """
    sources: dict[str, str] = {}
    items: list[ast.Item] = []
    diags: list[Diagnostic] = []
    imports: dict[str, ast.Span] = {}

    def visit(txt: str, name: str, chain: tuple[str, ...]) -> None:
        txt = normalise_newlines(txt)  # as parse reads it: the spans count lines by LF
        sources[name] = txt
        spec = parse(txt, name)
        for it in spec.items:
            if not isinstance(it, ast.ImportDecl):
                items.append(it)
                continue
            target = resolve_import(it.path, name, confine)
            if target is None:
                diags.append(Diagnostic(it.span, f"cannot find the spec {it.path!r} to import",
                                        "give a path relative to this file, or the name of a "
                                        "shipped module"))
                continue
            key = str(target)
            if key in chain:
                diags.append(Diagnostic(it.span, f"import cycle through {it.path!r}"))
                continue
            if key in sources:
                continue
            imports[key] = it.span
            # a syntax error in an imported file is a SpecSyntaxError, as in the main file
            visit(read_spec(target, key), key, chain + (key,))

    visit(text, source_name, (source_name,))
    if diags:
        raise SpecCheckError(diags, sources)
    return LoadedSpec(tuple(items), sources, imports)


def resolve_import(path: str, importer: str, confine: Path | None = None) -> Path | None:
    """The file an import names: beside the importing file, else a shipped module. Under
    ``confine`` (a spec reached through someone else's record, H10) only shipped modules and
    regular files inside that folder, of a spec's size, are found."""
    base = Path(importer).parent if not importer.startswith("<") else Path.cwd()
    local = [] if confine is not None and Path(path).is_absolute() else \
        [base / path, base / f"{path}.rules"]
    for cand in (*local, GAMES_DIR / path, GAMES_DIR / f"{path}.rules"):
        # only .rules files: an import of /etc/passwd finds nothing, and reads nothing
        if cand.suffix != ".rules" or not is_file(cand):
            continue
        real = cand.resolve()
        if confine is not None and not real.is_relative_to(GAMES_DIR) and (
                not real.is_relative_to(confine) or real.stat().st_size > MAX_SPEC_BYTES):
            continue
        return real
    return None
