"""The grammar's LALR tables kept as JSON in the cache folder (rulespec.lang.lalr_cache): read
back, they parse every spec as the tables built afresh do, errors included; a damaged file is
built again and written over; an empty RULESPEC_CACHE_DIR keeps nothing."""

from __future__ import annotations

from pathlib import Path

import lark
import pytest

from rulespec.lang.lalr_cache import CACHE_ENV, cache_folder, cached_lark
from rulespec.lang.text import grammar_text

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted((ROOT / "rulespec" / "games").glob("*.rules")) + \
    sorted((ROOT / "examples").glob("*.rules"))
OPTIONS: dict[str, object] = {"parser": "lalr", "propagate_positions": True,
                              "maybe_placeholders": True}
STRINGS: list[str] = []


def _seen(tok: lark.Token) -> lark.Token:
    STRINGS.append(str(tok))  # the lexer's callback is given again when the tables are read
    return tok


def _parsers(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[lark.Lark, lark.Lark]:
    monkeypatch.setenv(CACHE_ENV, str(folder))
    built = cached_lark(grammar_text(), {"STRING": _seen}, **OPTIONS)
    assert [p.name for p in folder.iterdir()] != [], "the tables were kept"
    return built, cached_lark(grammar_text(), {"STRING": _seen}, **OPTIONS)


def test_tables_read_back_parse_as_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built, read = _parsers(tmp_path, monkeypatch)
    assert read is not built
    for path in SPECS:
        text = path.read_text(encoding="utf-8")
        STRINGS.clear()
        tree = built.parse(text)
        seen = list(STRINGS)
        STRINGS.clear()
        assert read.parse(text) == tree, path.name
        assert STRINGS == seen and seen, path.name  # the callback runs on the read tables
        assert read.parse(text).children[0].meta.line == tree.children[0].meta.line
    for bad in ("game x {", "deal { let }", "zzz"):
        with pytest.raises(lark.UnexpectedInput) as one:
            built.parse(bad)
        with pytest.raises(lark.UnexpectedInput) as other:
            read.parse(bad)
        assert (type(one.value), one.value.column) == (type(other.value), other.value.column)


def test_a_damaged_file_is_built_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _parsers(tmp_path, monkeypatch)
    (kept,) = tmp_path.iterdir()
    kept.write_text('{"data": {"options": {}}, "memo": [1]}', encoding="utf-8")
    again = cached_lark(grammar_text(), {"STRING": _seen}, **OPTIONS)
    assert again.parse((ROOT / "examples" / SPECS[-1].name).read_text(encoding="utf-8"))
    assert kept.read_text(encoding="utf-8").startswith('{"data": {"parser"'), "written over"


def test_an_empty_folder_setting_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, "")
    assert cache_folder() is None
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", "/x")
    assert cache_folder() == Path("/x/rulespec")
