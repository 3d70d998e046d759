"""The spec corpus: every file in tests/specs/ok checks cleanly; every file in tests/specs/bad
gives each error its ``# expect error: LINE:COL message`` comments name, with a caret and no
traceback, and ``rulespec check`` exits 65 (craftinginterpreters' test runner)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import main
from rulespec.errors import SpecCheckError, SpecSyntaxError
from rulespec.lang.checker import check_file

HERE = Path(__file__).parent / "specs"
OK = sorted((HERE / "ok").glob("*.rules"))
BAD = sorted((HERE / "bad").glob("*.rules"))
EXPECT = re.compile(r"^# expect error: (\d+):(\d+) (.*)$", re.MULTILINE)


@pytest.mark.parametrize("path", OK, ids=lambda p: p.stem)
def test_ok_specs_check(path: Path) -> None:
    spec = check_file(path)
    assert spec.name


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_specs_report_expected_errors(path: Path) -> None:
    expected = [(int(a), int(b), m) for a, b, m in EXPECT.findall(path.read_text())]
    assert expected, f"{path.name} has no '# expect error:' line"
    with pytest.raises((SpecSyntaxError, SpecCheckError)) as info:
        check_file(path)
    got = [(d.span.line, d.span.column, d.message) for d in info.value.diagnostics
           if d.span is not None]
    for line, col, msg in expected:
        assert any(g[0] == line and g[1] == col and g[2].startswith(msg) for g in got), \
            f"missing {line}:{col} {msg}; got {got}"
    # and nothing else: an error the file does not expect is a failure too
    unexpected = [g for g in got if not any(g[0] == line and g[1] == col and g[2].startswith(msg)
                                            for line, col, msg in expected)]
    assert not unexpected, f"unexpected errors {unexpected}"


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_cli_renders_bad_specs(path: Path) -> None:
    res = CliRunner().invoke(main, ["check", str(path)])
    assert res.exit_code == 65
    assert "Traceback" not in res.output
    first = EXPECT.search(path.read_text())
    assert first is not None
    assert f"{path}:{first.group(1)}:{first.group(2)}: error: " in res.output
    assert "^" in res.output


def test_every_error_is_reported_at_once() -> None:
    with pytest.raises(SpecCheckError) as info:
        check_file(HERE / "bad" / "several_errors.rules")
    assert len(info.value.diagnostics) >= 2


#: the corpus files without imports (check() takes a spec whose imports are merged already)
STANDALONE = [p for p in OK + BAD
              if not re.search(r"^\s*import\s", p.read_text(encoding="utf-8"), re.MULTILINE)]


@pytest.mark.parametrize("path", STANDALONE, ids=lambda p: p.stem)
def test_check_of_parse_gives_what_check_text_gives(path: Path) -> None:
    """The two entry points report the same diagnostics."""
    from rulespec.lang.checker import check, check_text
    from rulespec.lang.parser import parse

    text = path.read_text(encoding="utf-8")

    def diagnostics(f: object) -> list[tuple[int, int, str]] | str:
        try:
            f()  # type: ignore[operator]
        except (SpecSyntaxError, SpecCheckError) as e:
            return [(d.span.line, d.span.column, d.message) for d in e.diagnostics
                    if d.span is not None]
        return "ok"

    assert diagnostics(lambda: check(parse(text, str(path)))) == \
        diagnostics(lambda: check_text(text, str(path)))


def test_syntax_error_in_an_imported_file_is_a_syntax_error(tmp_path: Path) -> None:
    (tmp_path / "lib.rules").write_text("procedure broken( {\n}\n", encoding="utf-8")
    main_text = (OK[0].read_text(encoding="utf-8")).replace("\n", '\nimport "lib"\n', 1)
    spec = tmp_path / "main.rules"
    spec.write_text(main_text, encoding="utf-8")
    with pytest.raises(SpecSyntaxError) as info:
        check_file(spec)
    d = info.value.diagnostics[0]
    assert d.span is not None and d.span.source.endswith("lib.rules") and d.span.line == 1
