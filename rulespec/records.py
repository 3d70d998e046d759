"""Records (``rulespec-record/1``) and the replay answer, as records.md and resolutions.md fix them.

A record names a game, a table and every event; :func:`replay` applies it to the spec's engine
and answers with the JSON object of records.md, plus the exit code of H7.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulespec.checker import check_file
from rulespec.errors import (
    IllegalActionError,
    RecordError,
    RuleRuntimeError,
    SpecCheckError,
    SpecSyntaxError,
)
from rulespec.interpreter.engine import Game, State
from rulespec.model import CheckedSpec

__all__ = [
    "FORMAT",
    "GAMES_DIR",
    "game_for",
    "load_game_spec",
    "normalise_options",
    "replay",
    "resolve_game",
    "shipped_games",
    "write_record",
]

FORMAT = "rulespec-record/1"
GAMES_DIR = Path(__file__).resolve().parent / "games"
_HEADER_KEYS = {"format", "game", "players", "options", "dealer", "events"}


def shipped_games() -> list[str]:
    """Names of the specs shipped in ``rulespec/games`` (modules that only hold shared rules
    and declare no game are left out)."""
    out = []
    for p in sorted(GAMES_DIR.glob("*.rules")):
        text = p.read_text(encoding="utf-8")
        if re.search(r"^\s*game\s", text, re.MULTILINE):
            out.append(p.stem.replace("_", "-"))
    return out


def resolve_game(game: str, base: Path | None = None) -> Path:
    """The .rules file for a shipped game name or a path (relative to ``base``)."""
    shipped = GAMES_DIR / f"{game.replace('-', '_')}.rules"
    if "/" not in game and not game.endswith(".rules") and shipped.is_file():
        return shipped
    p = Path(game)
    if not p.is_absolute() and base is not None:
        p = base / p
    if p.is_file():
        return p
    raise RecordError(f"unknown game {game!r}: not a shipped game "
                      f"({', '.join(shipped_games())}) nor a .rules file")


@functools.cache
def _load(path: str, mtime: float) -> CheckedSpec:
    return check_file(path)


def load_game_spec(path: Path) -> CheckedSpec:
    """Check a spec file once per process (re-read if it changes)."""
    return _load(str(path), path.stat().st_mtime)


def normalise_options(spec: CheckedSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    """Options of a record or request, with ``game_end`` spelled as ``deals``/``target`` (R9).

    Unknown names and bad values are errors of the record as a whole (H2, R3).
    """
    if not isinstance(options, Mapping):
        raise RecordError("'options' is a JSON object")
    out = dict(options)
    if "game_end" in out:
        ge = out.pop("game_end")
        m = re.fullmatch(r"\s*(deals|target|elimination)\s*\(\s*(\d+)\s*\)\s*", str(ge))
        if not m:
            raise RecordError(f"game_end must be deals(k), target(T) or elimination(T), "
                              f"not {ge!r}")
        if m.group(1) not in spec.game_end_forms:
            allowed = ", ".join(f"{f}(...)" for f in spec.game_end_forms) or "none"
            raise RecordError(f"{spec.name} does not end by {m.group(1)}(...): game_end may be "
                              f"{allowed} (R9)")
        key = "deals" if m.group(1) == "deals" else "target"
        if "deals" in out or "target" in out:
            raise RecordError("game_end cannot be given with deals or target (R9)")
        out[key] = int(m.group(2))
    if "deals" in out and "target" in out:
        raise RecordError("deals and target together are an error (R9)")
    names = set(spec.option_names)
    for k, v in out.items():
        if k not in names:
            raise RecordError(f"unknown option {k!r} for {spec.name}")
        why = spec.option(k).check_value(v)
        if why:
            raise RecordError(f"option {k!r} {why}, not {json.dumps(v)}")
        if k in ("deals", "target") and v < 1:
            raise RecordError(f"option {k!r} must be at least 1")
    return out


_GAME_CACHE: dict[tuple[str, int, str, int], Game] = {}


def game_for(spec: CheckedSpec, players: Any, options: Mapping[str, Any], dealer: Any) -> Game:
    """A compiled :class:`Game` for a table, cached (compiling is the costly part)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("'players' is a number")
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError("'dealer' is a seat number")
    opts = normalise_options(spec, options)
    key = (f"{spec.name}:{id(spec)}", players, json.dumps(opts, sort_keys=True), dealer)
    g = _GAME_CACHE.get(key)
    if g is None:
        if len(_GAME_CACHE) > 256:
            _GAME_CACHE.clear()
        g = Game(spec, players, opts, dealer)
        _GAME_CACHE[key] = g
    return g


def write_record(record: Mapping[str, Any], out: Path, spec_path: Path | None) -> Path:
    """Write ``record`` to ``out`` so that it replays from any folder (H10): a shipped game is
    named by its name; a user's spec (``spec_path``) is copied, with the files it imports,
    into ``<out stem>.spec/`` beside the record, and the record names the copy."""
    rec = dict(record)
    if spec_path is not None:
        main = spec_path.resolve()
        folder = out.parent / f"{out.stem}.spec"
        spec = load_game_spec(spec_path)
        for src in spec.sources:
            p = Path(src).resolve()
            if p.is_relative_to(GAMES_DIR) or not p.is_file():
                continue  # a shipped module resolves by its name wherever the record goes
            if not p.is_relative_to(main.parent):
                raise RecordError(f"cannot copy {p} beside the record: it is outside the "
                                  f"folder of {main.name}")
            dest = folder / p.relative_to(main.parent)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
        rec["game"] = f"{folder.name}/{main.name}"
    out.write_text(json.dumps(rec, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def replay(record: Any, base: Path | None = None,
           spec: Path | None = None) -> tuple[int, dict[str, Any]]:
    """Apply a record; return (exit code, answer) as records.md and H7 specify. ``spec``
    replaces the record's ``game`` for this run (``rulespec replay --spec``).

    Raises SpecSyntaxError / SpecCheckError when the named spec fails to parse or check
    (exit 65, diagnostics printed by the CLI).
    """
    try:
        state = start(record, base, spec)
    except (SpecSyntaxError, SpecCheckError):
        raise
    except RecordError as e:
        return 1, {"ok": False, "event": None, "error": str(e), "legal": []}
    events = record["events"]
    for i, ev in enumerate(events):
        if state.is_terminal():
            return 1, {"ok": False, "event": i, "error": "the match is over", "legal": []}
        try:
            state.apply(ev)
        except (IllegalActionError, RecordError) as e:
            return 1, {"ok": False, "event": i, "error": str(e), "legal": state.legal_actions()}
        except RuleRuntimeError:
            raise  # a fault of the spec, not of the record: the CLI reports it (exit 70)
    return 0, state.result()


def start(record: Any, base: Path | None = None, spec_path: Path | None = None) -> State:
    """Validate a record's header and return the state before its first event."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    extra = set(record) - _HEADER_KEYS
    if extra:
        raise RecordError(f"unknown record field(s): {', '.join(sorted(extra))}")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}")
    game = record.get("game")
    if not isinstance(game, str):
        raise RecordError("'game' names a shipped game or a .rules file")
    if not isinstance(record.get("events"), list):
        raise RecordError("'events' is a list")
    path = spec_path if spec_path is not None else resolve_game(game, base)
    spec = load_game_spec(path)
    g = game_for(spec, record.get("players"), record.get("options") or {},
                 record.get("dealer", 0))
    return g.new_initial_state()
