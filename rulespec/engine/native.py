"""A native backend, as an experiment (issue 29): a table's generated code compiled by Cython.

Every procedure, enumerator and expression of a table is Python source that runs through one
door, :func:`~rulespec.engine.codegen.pyexec.exec_source`. :func:`native_game` builds the
table twice. The first build runs as always and keeps every text that passed the door
(``keep_sources``, which also compiles every definition, so none is left to compile in play).
Those texts become ONE Cython module: each text inside a factory ``_mk_K(_G, _CN)`` that reads the
globals the text names out of the dict ``_G`` the compiler would have handed to ``exec`` (so
they become the closure's cells: per function, as each exec had its own globals) and returns
the function. The second build asks the module's factories for its functions in place of
``exec`` (:data:`~rulespec.engine.codegen.pyexec.RUNNERS`). The state, the machine, the events
and every record are the Python engine's own: only the generated functions are native.

The module is cached on disk by a hash of its text, Cython's and Python's versions and the
compiler's command (:func:`cache_dir`; ``RULESPEC_NATIVE_CACHE`` overrides the folder), built
in a folder of its own and renamed into place, so two processes building at once never load
half a file. The folder is trusted as the package is: a module found there is loaded and run,
so it is made readable and writable by its owner alone. Where Cython, a C compiler or Python's
headers are missing, or the build fails, :func:`native_game` gives the Python engine's game and
a one-line reason.

The C types (``typed``) are those the generated code's shape shows without asking the checker:
the state's values and zones and a frame's locals are exact dicts, a procedure's ``pc`` a C
integer. A spec's variables live in those dicts, so the types the checker knows of them (ints,
bools, cards) cannot reach C without a generator that lays the state out otherwise
(docs/architecture.md, "A native backend?").

What it does not keep: a runtime error in native code names the procedure or expression it
happens in, not the line (Cython's tracebacks do not carry the generated line numbers that
``_LS`` maps to clauses).
"""

from __future__ import annotations

import atexit
import builtins
import collections
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import symtable
import sys
import sysconfig
import tempfile
import time
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rulespec.engine.codegen.pyexec import RUNNERS
from rulespec.engine.game import Game, tables_of
from rulespec.engine.table import Table
from rulespec.errors import ConfigurationError
from rulespec.files import write_atomic
from rulespec.lang.lalr_cache import cache_folder
from rulespec.lang.model import CheckedSpec
from rulespec.shown import escape_line as shown

__all__ = ["CACHE_ENV", "OPT_ENV", "NativeBuild", "cache_dir", "canonical", "module_source",
           "native_game", "toolchain_missing"]

#: the environment variable that names the folder of built modules
CACHE_ENV = "RULESPEC_NATIVE_CACHE"
#: the environment variable that sets the C compiler's optimisation (-O0 to -O3)
OPT_ENV = "RULESPEC_NATIVE_OPT"
#: the optimisation by default: -O1 builds in half -O2's time (7 s against 15 s for hearts'
#: 90,000 lines of C) and plays as fast (the code calls the CPython API almost everywhere:
#: there are few loops of C to optimise); -O0 builds in 2 s
_OPT = "-O1"
_CFLAGS = ("-shared", "-fPIC", "-DNDEBUG", "-fno-strict-aliasing", "-w")
#: Cython's directives for the generated module: its annotations, if any, are not C types; and
#: bounds stay checked (the generated code relies on IndexError from an empty zone)
_DIRECTIVES = ("language_level=3", "annotation_typing=False")
#: the longest a build may take (a table of a large spec is a large C file)
_BUILD_TIMEOUT = 600
#: the names of the enumerators' caches, numbered by a counter of the process: a text is kept
#: with them renamed in order of appearance (``_CK0``, ...), so that the same table built twice
#: (or in another process) gives the same module
_CACHE_NAME = re.compile(r"(?<![\w'\"])_C\d+\b")
#: the first line of each generated procedure and expression: the names it reads of the state
_HEAD = re.compile(r"^(?P<ind> +)V = st\.v; Z = st\.z(?P<L>; L = F\.L)?(?P<pc>; pc = F\.pc)?$",
                   re.MULTILINE)


class NativeBuild:
    """What :func:`native_game` made: the ``game``, and ``reason`` (one line) when it is the
    Python engine's because no native module could be built or loaded; ``seconds`` the build
    took (0 when the module was found in the cache)."""

    def __init__(self, game: Game, reason: str | None, seconds: float = 0.0,
                 module: Path | None = None, missed: int = 0) -> None:
        self.game = game
        self.reason = reason
        self.seconds = seconds
        #: the built module's file, and how many generated texts still ran in Python
        self.module = module
        self.missed = missed

    @property
    def native(self) -> bool:
        """True when the game's generated functions are native code."""
        return self.reason is None


def cache_dir() -> Path:
    """The folder of built modules: ``$RULESPEC_NATIVE_CACHE``, else ``native`` in the
    folder where rulespec keeps what it works out once (``$RULESPEC_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/rulespec``, else ``~/.cache/rulespec``: the parser's tables' folder);
    where that keeps nothing (set empty, or no home), a temporary folder of this process."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    kept = cache_folder()
    if kept is not None:
        return kept / "native"
    if not _TEMPORARY:
        _TEMPORARY.append(Path(tempfile.mkdtemp(prefix="rulespec-native-")))
        # a module loaded stays loaded when its file goes (Linux, macOS)
        atexit.register(shutil.rmtree, _TEMPORARY[0], True)
    return _TEMPORARY[0]


#: the folder of this process's modules where none are kept (made once)
_TEMPORARY: list[Path] = []


def _compiler() -> list[str]:
    """The C compiler Python was built with (``CC``), as a command."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def _cflags() -> list[str]:
    opt = os.environ.get(OPT_ENV) or _OPT
    if opt not in ("-O0", "-O1", "-O2", "-O3"):
        raise ConfigurationError(f"{OPT_ENV} is one of -O0, -O1, -O2, -O3, not {opt!r}")
    return [opt, *_CFLAGS]


def _cython_version() -> str | None:
    try:
        return importlib.metadata.version("Cython")
    except importlib.metadata.PackageNotFoundError:
        return None


def toolchain_missing() -> str | None:
    """Why no module can be built here (one line), or None when Cython, a C compiler and
    Python's headers are all present."""
    if _cython_version() is None or importlib.util.find_spec("Cython") is None:
        return "Cython is not installed (pip install 'rulespec[native]')"
    cc = _compiler()
    if not cc or shutil.which(cc[0]) is None:
        return f"no C compiler ({cc[0] if cc else 'cc'}) on the PATH"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file():
        return "Python's C headers are missing (python3-dev)"
    return None


# ---- the module's text ---------------------------------------------------------------------
def canonical(full: str) -> tuple[str, list[str]]:
    """``full`` with its cache names renamed in order of appearance, and the names it had."""
    seen: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        return seen.setdefault(m.group(0), f"_CK{len(seen)}")
    return _CACHE_NAME.sub(rename, full), list(seen)


def _globals_read(full: str) -> set[str]:
    """The names the functions defined in ``full`` read as globals (their own scopes and the
    lambdas and comprehensions inside them)."""
    out: set[str] = set()
    stack = list(symtable.symtable(full, "<generated>", "exec").get_children())
    while stack:
        t = stack.pop()
        out.update(s.get_name() for s in t.get_symbols() if s.is_global())
        stack.extend(t.get_children())
    return out


def _typed(text: str) -> str:
    """``text`` with C types Cython can use: the state's values, zones and a frame's locals
    are exact dicts, and a procedure's ``pc`` a small int."""
    def decl(m: re.Match[str]) -> str:
        ind = m.group("ind")
        names = "V, Z, L" if m.group("L") else "V, Z"
        extra = f"\n{ind}cdef Py_ssize_t pc" if m.group("pc") else ""
        return f"{ind}cdef dict {names}{extra}\n{m.group(0)}"
    return _HEAD.sub(decl, text)


def _factory(k: int, full: str, name: str, names: list[str], typed: bool) -> str:
    """The factory of one generated text: its globals bound from ``_G``, the text, its
    function returned."""
    # the line a Python traceback gives is not Cython's: errors are mapped to the function's
    # own clause (_LS's default)
    body = full.replace("e.__traceback__.tb_lineno", "-1")
    if typed:
        body = _typed(body)
    lines = [f"def _mk_{k}(_G, _CN):"]
    # a cache's name is the text's own (_CKi), its object the exec's (the ith name it had)
    lines += [f"    {n} = _G[_CN[{n[3:]}]]" if n.startswith("_CK") else f"    {n} = _G[{n!r}]"
              for n in names]
    lines += ["    " + line if line.strip() else "" for line in body.splitlines()]
    lines.append(f"    return {name}")
    return "\n".join(lines) + "\n"


def module_source(texts: list[tuple[str, str, list[str]]], typed: bool = True) -> str:
    """The Cython module of a table: for each (text, function name, globals read), in order,
    a factory ``_mk_K``."""
    head = "# cython: " + ", ".join(_DIRECTIVES) + "\n# generated by rulespec.engine.native\n"
    return head + "\n".join(_factory(k, full, name, names, typed)
                            for k, (full, name, names) in enumerate(texts))


# ---- building and loading -----------------------------------------------------------------
def _key(source: str) -> str:
    h = hashlib.sha256()
    for part in (source, _cython_version() or "", sys.version, sysconfig.get_platform(),
                 " ".join(_compiler() + _cflags())):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def _run(cmd: list[str], what: str) -> None:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=_BUILD_TIMEOUT,
                              check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ConfigurationError(f"{what} did not run: {e}") from None
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        first = next((x for x in said if "rror" in x), said[-1] if said else "")
        raise ConfigurationError(f"{what} failed: {first.strip()[:200]}")


def _build(source: str, name: str, folder: Path) -> tuple[Path, bool]:
    """The extension module ``name`` built from ``source`` in ``folder`` (kept there), and
    whether it was built now (False: found there)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    target = folder / (name + suffix)
    # the owner's alone: a module found in it is run (a folder given that exists keeps its mode)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    mine = folder.stat()
    if mine.st_uid != os.getuid() or mine.st_mode & 0o022:
        raise ConfigurationError(f"the folder {shown(str(folder))} is not yours alone, and "
                                 "a module found there would be run")
    if target.is_file():
        return target, False
    work = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=folder))
    try:
        pyx, c, so = work / f"{name}.pyx", work / f"{name}.c", work / (name + suffix)
        write_atomic(pyx, source)
        _run([sys.executable, "-m", "cython", "-3", str(pyx), "-o", str(c)], "Cython")
        _run([*_compiler(), *_cflags(), f"-I{sysconfig.get_paths()['include']}", str(c), "-o",
              str(so)], "the C compiler")
        # the text beside the module, for reading; then the module itself, renamed whole
        os.replace(pyx, folder / f"{name}.pyx")
        os.replace(so, target)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target, True


#: the modules loaded in this process, by name (an extension module loads once a process)
_LOADED: dict[str, types.ModuleType] = {}


def _load(name: str, path: Path) -> types.ModuleType:
    got = _LOADED.get(name)
    if got is None:
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        spec = importlib.util.spec_from_file_location(name, path, loader=loader)
        assert spec is not None
        got = importlib.util.module_from_spec(spec)
        loader.exec_module(got)
        _LOADED[name] = got
    return got


# ---- the game ------------------------------------------------------------------------------
@contextmanager
def _running(module: types.ModuleType, index: Mapping[str, int],
             missed: list[str]) -> Iterator[None]:
    """While open, the door asks ``module``'s factories for each text it knows; a text it
    does not know (none should come) runs in Python, and is noted in ``missed``."""
    def runner(full: str, name: str, glb: dict[str, object]) -> Any:
        text, caches = canonical(full)
        k = index.get(text)
        if k is not None:
            try:
                return getattr(module, f"_mk_{k}")(glb, caches)
            except KeyError:  # a global it reads is not among these: Python's exec decides
                pass
        missed.append(full)
        return None
    RUNNERS.append(runner)
    try:
        yield
    finally:
        RUNNERS.remove(runner)


#: native games built in this process, by spec and table (each holds its spec)
_GAMES: collections.OrderedDict[tuple[int, tuple[object, ...], bool, str],
                                tuple[CheckedSpec, NativeBuild]] = collections.OrderedDict()
_GAMES_MAX = 16


def native_game(spec: CheckedSpec, players: int, options: Mapping[str, object] | None = None,
                dealer: int = 0, typed: bool = True) -> NativeBuild:
    """The table compiled to native code (see the module's text), or the Python engine's
    game and why not. ``typed`` gives Cython the C types the generated code's shape shows
    (the state's dicts, a procedure's ``pc``)."""
    table = tables_of(spec).table(players, options, dealer)
    key = (id(spec), table.key, typed, os.environ.get(OPT_ENV) or _OPT)
    got = _GAMES.get(key)
    if got is not None and got[0] is spec:
        return got[1]
    missing = toolchain_missing()
    if missing is not None:
        build = NativeBuild(tables_of(spec).game(players, options, dealer), missing)
    else:
        build = _native(spec, table, typed)
        if not build.native:  # the process's own Python game of the table
            build.game = tables_of(spec).game(players, options, dealer)
    if len(_GAMES) >= _GAMES_MAX:
        _GAMES.popitem(last=False)
    _GAMES[key] = (spec, build)
    return build


def _native(spec: CheckedSpec, table: Table, typed: bool) -> NativeBuild:
    # built once in Python, keeping every text that passes the door
    python = Game(spec, table.players, dealer=table.dealer, keep_sources=True, table=table)
    texts: list[tuple[str, str, list[str]]] = []
    index: dict[str, int] = {}
    for _, original in python.sources:
        full = canonical(original)[0]
        if full not in index:
            index[full] = len(texts)
            fn = re.search(r"^def (\w+)\(", full, re.MULTILINE)
            assert fn is not None, "a generated text defines a function"
            names = sorted(n for n in _globals_read(full) if not hasattr(builtins, n))
            texts.append((full, fn.group(1), names))
    source = module_source(texts, typed)
    start = time.perf_counter()
    try:
        name = "_rulespec_native_" + _key(source)
        path, fresh = _build(source, name, cache_dir())
        module = _load(name, path)
    except (ConfigurationError, OSError, ImportError) as e:
        return NativeBuild(python, f"the native build failed ({e})")
    seconds = time.perf_counter() - start if fresh else 0.0
    missed: list[str] = []
    with _running(module, index, missed):
        game = Game(spec, table.players, dealer=table.dealer, keep_sources=True, table=table)
    return NativeBuild(game, None, seconds, path, len(missed))
