"""Loading: which spec a game name means, checking it once, and compiled tables.

Everything between a name on a command line (or in a record) and a :class:`Game`: one
:func:`resolve` for every command, with the two levels of trust of docs/security.md
(:class:`Trust`); shipped games are looked up in ``rulespec/games``, a spec file is checked once
per process (again if it changes), a request's options are checked by the spec's one validator,
and each table is validated and compiled once per process (``engine/game.py``'s cache).
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import attrs

from rulespec.engine.game import Game, tables_of
from rulespec.engine.native import native_game
from rulespec.engine.typed import TypedGame, Unsupported
from rulespec.errors import ConfigurationError, RecordError
from rulespec.files import why_not_regular
from rulespec.lang.checker import check_file
from rulespec.lang.model import CheckedSpec
from rulespec.lang.sources import GAMES_DIR, MAX_SPEC_BYTES, is_file

__all__ = ["ENGINES", "Resolved", "Trust", "game_for", "normalise_options", "resolve",
           "shipped_games", "shipped_name"]



# A shipped game's name is its file's name with "_" written "-": records spell names with
# hyphens (a-game-name) and the grammar's names have none. These two functions are the
# only places that map one to the other; everything else asks them.
def shipped_name(path: Path) -> str | None:
    """The game name a shipped spec file goes by (records, reports, summaries), or None for a
    file outside ``rulespec/games``."""
    if path.resolve().parent != GAMES_DIR:
        return None
    return path.stem.replace("_", "-")


def _shipped_file(game: str) -> Path:
    return GAMES_DIR / f"{game.replace('-', '_')}.rules"


def shipped_games() -> list[str]:
    """Names of the specs shipped in ``rulespec/games`` (modules that only hold shared rules
    and declare no game are left out)."""
    out = []
    for p in sorted(GAMES_DIR.glob("*.rules")):
        text = p.read_text(encoding="utf-8")
        name = shipped_name(p)
        if name is not None and re.search(r"^\s*game\s", text, re.MULTILINE):
            out.append(name)
    return out


class Trust(enum.Enum):
    """How far the one who names a spec is trusted (docs/security.md, "Two kinds of input")."""

    #: what the user names: a command line, the requests of their own driver to ``serve``, a
    #: test. A shipped game's name, or a path (relative to the base folder) to a regular file
    GIVEN = "given"
    #: what someone else's record names (H10): a shipped game's name, or a relative path to a
    #: regular ``.rules`` file inside the record's folder, whose imports stay in that folder
    #: or are shipped modules; anything else is refused before a byte of it is read
    RECORD = "record"


@attrs.frozen
class Resolved:
    """The spec a game argument means: its file, whether it is a shipped game, and the spec
    checked (a shipped spec's ``name`` is its shipped name, :func:`shipped_name`)."""

    path: Path
    shipped: bool
    spec: CheckedSpec


def resolve(game: str | Path, base: Path | None = None,
            trust: Trust = Trust.GIVEN) -> Resolved:
    """The spec ``game`` names, found and checked (once per process, again if its file
    changes): the one place a name on a command line, in a request or in a record becomes a
    spec, so that every command reads the same file for the same name.

    A string spelled as a game name (no ``/`` nor ``\\``, no ``.rules`` ending) means a shipped
    game or nothing: it is never looked up as a file of the current folder. Any other string,
    and any :class:`~pathlib.Path`, is a path relative to ``base`` (the current folder if
    None); under :attr:`Trust.RECORD`, ``base`` is the record's folder and the path must stay
    inside it. RecordError for a name that means no spec; SpecSyntaxError or SpecCheckError
    for a spec that does not check."""
    if isinstance(game, str) and _is_game_name(game):
        path = _shipped_file(game)
        if not is_file(path):
            raise RecordError(f"unknown game {_quoted(game)}: not a shipped game "
                              f"({', '.join(shipped_games())}); name a spec file by a path "
                              "ending in .rules or holding a /")
        spec = _load(str(path), path.stat().st_mtime)
    elif trust is Trust.RECORD:
        path = _inside_folder(str(game), (base or Path.cwd()).resolve())
        spec = _load_confined(str(path), path.stat().st_mtime)
    else:
        path = Path(game)
        if not path.is_absolute() and base is not None:
            path = base / path
        why = why_not_regular(path)
        if why:
            raise RecordError(f"no spec file {_quoted(str(game))}: {why}")
        spec = _load(str(path), path.stat().st_mtime)
    return Resolved(path, shipped_name(path) is not None, spec)


def _is_game_name(game: str) -> bool:
    """Whether ``game`` is spelled as a shipped game's name rather than as a path."""
    return "/" not in game and "\\" not in game and not game.endswith(".rules")


def _inside_folder(game: str, folder: Path) -> Path:
    """The file a record's ``game`` path names inside the record's ``folder`` (H10): a
    relative path to a regular ``.rules`` file of at most MAX_SPEC_BYTES that stays inside the
    folder, links followed. A RecordError that reads nothing and quotes only ``game``
    otherwise."""
    hint = "; to replay it on a spec you choose, give --spec PATH (H10)"
    rel = Path(game)
    if rel.is_absolute() or not game.endswith(".rules"):
        raise RecordError(f"'game' is a shipped game or a relative path to a .rules file in "
                          f"the record's folder, not {game!r}{hint}")
    try:
        real = (folder / rel).resolve(strict=True)
    except (OSError, RuntimeError, ValueError):  # ValueError: a NUL in the path
        raise RecordError(f"there is no spec {game!r} in the record's folder{hint}") from None
    if not real.is_relative_to(folder):
        raise RecordError(f"'game' {game!r} leads out of the record's folder{hint}")
    if not real.is_file():
        raise RecordError(f"'game' {game!r} is not a regular file{hint}")
    if real.stat().st_size > MAX_SPEC_BYTES:
        raise RecordError(f"'game' {game!r} is larger than {MAX_SPEC_BYTES} bytes{hint}")
    return real


def _quoted(text: str) -> str:
    """A name from a command line or a record as an error message shows it: short, and with
    its control characters escaped (repr), so it cannot write to the terminal."""
    return repr(text if len(text) <= 80 else text[:77] + "...")


#: checked specs kept per process: a long-running process (serve, a fuzzer's worker) that
#: meets spec after spec keeps the most recent, each with its compiled tables
_SPECS_KEPT = 32


@functools.lru_cache(maxsize=_SPECS_KEPT)
def _load(path: str, mtime: float) -> CheckedSpec:
    spec = check_file(path)
    name = shipped_name(Path(path))
    # a shipped spec goes by its shipped name, whatever its game line declares
    return spec if name is None or name == spec.name else attrs.evolve(spec, name=name)


@functools.lru_cache(maxsize=_SPECS_KEPT)
def _load_confined(path: str, mtime: float) -> CheckedSpec:
    p = Path(path)
    return check_file(p, confine=p.resolve().parent)


def normalise_options(spec: CheckedSpec,
                      options: Mapping[str, object]) -> dict[str, int | str | bool]:
    """Options of a record or request, checked, with ``game_end`` spelled as
    ``deals``/``target`` (R9); see :meth:`CheckedSpec.check_options`."""
    # check_options lets through only declared values (OptionInfo.check_value): a bool, an
    # int, or a value equal to one of an enum's (a JSON 1.0 passes for an enum's 1)
    return cast("dict[str, int | str | bool]", spec.check_options(options))


#: the engines a table can be played by: the generated Python, that code compiled to a
#: native module (rulespec.engine.native; the Python engine where none can be built), or the
#: table lowered to typed code (rulespec.engine.typed; random play by index only, the
#: Python engine where the lowering does not cover the table)
ENGINES = ("python", "native", "typed")


def game_for(spec: CheckedSpec, players: object, options: Mapping[str, object],
             dealer: object, engine: str = "python") -> Game:
    """A compiled :class:`Game` for a table of a record or a request: the table validated
    once and compiled once per process (:func:`rulespec.engine.game.tables_of`); with
    ``engine="native"``, its generated code compiled to a native module
    (:func:`rulespec.engine.native.native_game`, which says why when it plays in Python).
    The typed lowering's game is :func:`typed_game_for` (this is its Python game)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("'players' is a number")
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError("'dealer' is a seat number")
    if engine == "native":
        return native_game(spec, players, options, dealer).game
    if engine not in ("python", "typed"):
        raise ConfigurationError(f"no engine {engine!r}: {' or '.join(ENGINES)}")
    return tables_of(spec).game(players, options, dealer)


def typed_game_for(game: Game) -> tuple[TypedGame | None, str]:
    """``game`` lowered to typed code with its actions (:mod:`rulespec.engine.typed`), once a
    process; None and why where the lowering does not cover its table."""
    got = _TYPED.get(id(game))
    if got is None or got[0] is not game:
        try:
            got = (game, TypedGame(game, actions=True), "")
        except Unsupported as e:
            got = (game, None, f"the typed lowering does not cover this table ({e})")
        if len(_TYPED) >= 64:
            _TYPED.clear()
        _TYPED[id(game)] = got
    return got[1], got[2]


#: typed_game_for's answers, by their games (kept, so that an id is not reused)
_TYPED: dict[int, tuple[Game, TypedGame | None, str]] = {}
