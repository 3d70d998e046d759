"""The spec corpus: every file in tests/specs/ok checks cleanly; every file in tests/specs/bad
gives each error its ``# expect error: LINE:COL message`` comments name, with a caret and no
traceback, and ``rulespec check`` exits 65 (craftinginterpreters' test runner)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.checker import check_file
from rulespec.cli import main
from rulespec.errors import SpecCheckError, SpecSyntaxError

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
