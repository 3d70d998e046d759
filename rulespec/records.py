"""Records (``rulespec-record/1``) and the replay answer, as records.md and resolutions.md fix them.

A record names a game, a table and every event; :func:`replay` applies it to the spec's engine
and answers with the JSON object of records.md, plus the exit code of H7.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

from rulespec.engine.state import State
from rulespec.errors import (
    IllegalActionError,
    RecordError,
    RuleRuntimeError,
    SpecCheckError,
    SpecSyntaxError,
)
from rulespec.files import write_atomic
from rulespec.lang.sources import GAMES_DIR, read_spec
from rulespec.loading import Trust, game_for, resolve

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "copy_spec", "replay", "start", "write_record"]

FORMAT = "rulespec-record/1"
#: the largest record file rulespec reads: a record comes from anyone, and reading one must not
#: exhaust memory (the longest shipped matches are a few MB)
MAX_RECORD_BYTES = 64 * 1024 * 1024
_HEADER_KEYS = {"format", "game", "players", "options", "dealer", "events"}


def copy_spec(spec_path: Path, folder: Path) -> str:
    """Copy a user's spec and the files it imports (shipped modules apart: they resolve by
    their names anywhere) into ``folder``, keeping their places relative to the spec; return
    the copy's path relative to ``folder``'s parent, which a record beside ``folder`` names in
    its ``game`` (H10: a record names only a spec inside its own folder)."""
    main = spec_path.resolve()
    spec = resolve(spec_path).spec
    for src in spec.sources:
        p = Path(src).resolve()
        if p.is_relative_to(GAMES_DIR) or not p.is_file():
            continue  # a shipped module resolves by its name wherever the record goes
        if not p.is_relative_to(main.parent):
            raise RecordError(f"cannot copy {p} beside the record: it is outside the "
                              f"folder of {main.name}")
        dest = folder / p.relative_to(main.parent)
        if p == main:
            dest = dest.with_name(_copy_name(main))
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(dest, read_spec(p, str(p)))
    return f"{folder.name}/{_copy_name(main)}"


#: the longest file name most file systems take, in bytes
_NAME_MAX = 255


def _copy_name(spec_path: Path) -> str:
    """The name of a spec's copy beside its records: its own, ending in .rules (a record names
    only a .rules file, H10; a spec simulated as ``./g`` is copied as ``g.rules``), cut short
    with a hash of the whole when that would be too long for a file name."""
    name = spec_path.name if spec_path.name.endswith(".rules") else f"{spec_path.name}.rules"
    raw = os.fsencode(name)
    if len(raw) <= _NAME_MAX:
        return name
    digest = hashlib.sha256(raw).hexdigest()[:16]
    stem = os.fsdecode(raw[:150])  # the first 150 bytes, as the file system spells them
    return f"{stem}-{digest}.rules"


def write_record(record: Mapping[str, object], out: Path, spec_path: Path | None) -> Path:
    """Write ``record`` to ``out`` so that it replays from any folder (H10): a shipped game is
    named by its name; a user's spec (``spec_path``) is copied, with the files it imports,
    into ``<out stem>.spec/`` beside the record, and the record names the copy."""
    rec = dict(record)
    if spec_path is not None:
        rec["game"] = copy_spec(spec_path, out.parent / f"{out.stem}.spec")
    write_atomic(out, json.dumps(rec, ensure_ascii=False) + "\n")
    return out


def replay(record: object, base: Path | None = None,
           spec: Path | None = None) -> tuple[int, dict[str, object]]:
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
    assert isinstance(record, Mapping)  # start checked the header
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


def start(record: object, base: Path | None = None, spec_path: Path | None = None) -> State:
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
    # a spec the user names is trusted; one the record names obeys H10
    spec = resolve(spec_path).spec if spec_path is not None else \
        resolve(game, base, Trust.RECORD).spec
    g = game_for(spec, record.get("players"), record.get("options") or {},
                 record.get("dealer", 0))
    return g.new_initial_state()
