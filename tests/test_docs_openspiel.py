"""docs/openspiel.md's examples run as written: loading a game, and ISMCTS playing a deal of
Euchre (the CFR example's figures are tests/test_openspiel_algorithms.py's)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "openspiel.md").read_text(),
                    re.S)


def test_the_doc_has_its_examples() -> None:
    assert len(BLOCKS) == 4
    assert "CFRSolver" in BLOCKS[3] and "examples/kuhn.rules" in BLOCKS[3]


@pytest.mark.parametrize("k", [0, 1, 2])
def test_an_example_runs(k: int, monkeypatch: pytest.MonkeyPatch,
                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(BLOCKS[k], f"docs/openspiel.md example {k}", "exec"), {})
    out = capsys.readouterr().out
    if k == 1:
        assert out.splitlines()[:2] == ["54 5724",
                                        "['play card=2C', 'play card=6C', 'play card=TC']"]
    if k == 2:
        returns = ast.literal_eval(out.strip())
        assert len(returns) == 4 and sum(returns) == pytest.approx(1.0)
