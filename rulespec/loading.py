"""Loading: which spec a game name means, checking it once, and compiled tables.

Everything between a name on a command line (or in a record) and a :class:`Game`: shipped
games are looked up in ``rulespec/games``, a spec file is checked once per process (again if it
changes), a request's options are checked by the spec's one validator, and each table is
validated and compiled once per process (``engine/game.py``'s cache).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import cast

import attrs

from rulespec.engine.game import Game, tables_of
from rulespec.errors import RecordError
from rulespec.files import why_not_regular
from rulespec.lang.checker import check_file
from rulespec.lang.model import CheckedSpec
from rulespec.lang.parser import MAX_SPEC_BYTES

__all__ = ["GAMES_DIR", "game_for", "is_game_name", "load_game_spec", "normalise_options",
           "record_spec", "resolve_game", "shipped_games", "shipped_name"]

GAMES_DIR = Path(__file__).resolve().parent / "games"


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


def _is_file(p: Path) -> bool:
    """Whether ``p`` is a regular file; False, not OSError, for a name the system refuses (a
    name of 10,000 letters is "File name too long", and a record may name one)."""
    try:
        return p.is_file()
    except OSError:
        return False


def is_game_name(game: str) -> bool:
    """Whether ``game`` is spelled as a shipped game's name rather than as a path: no ``/``
    (nor ``\\``) and no ``.rules`` ending. Such a name means a shipped game or nothing: it is
    never looked up as a file of the current folder (docs/security.md)."""
    return "/" not in game and "\\" not in game and not game.endswith(".rules")


def resolve_game(game: str, base: Path | None = None) -> Path:
    """The .rules file ``game`` means: a shipped game for a bare name (:func:`is_game_name`),
    else a path (relative to ``base``, or to the current folder) to a regular file.

    The one place a name on a command line, in a request or in a record becomes a file, so
    that every command reads the same file for the same name."""
    if is_game_name(game):
        shipped = _shipped_file(game)
        if _is_file(shipped):
            return shipped
        raise RecordError(f"unknown game {_quoted(game)}: not a shipped game "
                          f"({', '.join(shipped_games())}); name a spec file by a path "
                          "ending in .rules or holding a /")
    p = Path(game)
    if not p.is_absolute() and base is not None:
        p = base / p
    why = why_not_regular(p)
    if not why:
        return p
    raise RecordError(f"no spec file {_quoted(game)}: {why}")


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


def record_spec(game: str, base: Path | None) -> CheckedSpec:
    """The spec a record's ``game`` names, as H10 allows: a shipped name, or a relative path to
    a regular ``.rules`` file inside the record's folder ``base`` (subfolders allowed), of at
    most MAX_SPEC_BYTES, whose imports stay in its own folder or are shipped modules.
    Anything else is a RecordError that reads nothing and quotes nothing."""
    if is_game_name(game):
        return load_game_spec(resolve_game(game))  # a shipped name (or the list of them)
    hint = "; to replay it on a spec you choose, give --spec PATH (H10)"
    folder = (base or Path.cwd()).resolve()
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
    spec = _load_confined(str(real), real.stat().st_mtime)
    return spec


def load_game_spec(path: Path) -> CheckedSpec:
    """Check a spec file once per process (re-read if it changes). A shipped spec's ``name``
    is its shipped name (:func:`shipped_name`)."""
    return _load(str(path), path.stat().st_mtime)


def normalise_options(spec: CheckedSpec,
                      options: Mapping[str, object]) -> dict[str, int | str | bool]:
    """Options of a record or request, checked, with ``game_end`` spelled as
    ``deals``/``target`` (R9); see :meth:`CheckedSpec.check_options`."""
    # check_options lets through only declared values (OptionInfo.check_value): a bool, an
    # int, or a value equal to one of an enum's (a JSON 1.0 passes for an enum's 1)
    return cast("dict[str, int | str | bool]", spec.check_options(options))


def game_for(spec: CheckedSpec, players: object, options: Mapping[str, object],
             dealer: object) -> Game:
    """A compiled :class:`Game` for a table of a record or a request: the table validated
    once and compiled once per process (:func:`rulespec.engine.game.tables_of`)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("'players' is a number")
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError("'dealer' is a seat number")
    return tables_of(spec).game(players, options, dealer)
