"""The record examples of docs/records.md replay as the text after each one says: every
``rulespec-record/1`` block is a valid record, and where the text gives the replay's
``"to_move"``, the replay answers that seat."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulespec.records import replay

DOC = Path(__file__).resolve().parent.parent / "docs" / "records.md"
BLOCK = re.compile(r"```json\n(.*?)```(.{0,600})", re.S)


def _examples() -> list[tuple[str, dict, str]]:
    out = []
    for m in BLOCK.finditer(DOC.read_text(encoding="utf-8")):
        body, after = m.group(1), m.group(2)
        if '"rulespec-record/1"' not in body or "..." in body:
            continue
        rec = json.loads(body)
        out.append((f"{rec['game']}-{len(out)}", rec, after))
    return out


EXAMPLES = _examples()


def test_the_shipped_games_each_have_an_example() -> None:
    assert {rec["game"] for _, rec, _ in EXAMPLES} >= {"abracadabra", "abracadabra-newton"}


@pytest.mark.parametrize(("name", "record", "after"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_record_example_replays(name: str, record: dict, after: str) -> None:
    code, answer = replay(record)
    assert code == 0, answer
    said = re.search(r'`"to_move": (\d+)`', after)
    if said is not None:
        assert answer["complete"] is False and answer["to_move"] == int(said.group(1))
