"""Known findings (``rulespec verify --known FILE``): divergences a team has already reported,
so that verify can stay in its CI while a fix is pending.

The file is JSON: ``{"known": [FINDING, ...]}``, each finding an object with

- ``id``: its name, as reports show it (``"openspiel-spades-broken"``);
- ``kind``: the divergence's kind (``legal``, ``result``, ``who-moves``, ...);
- optionally ``events``: the action (or chance) names the divergence's events carry, as
  ``--keep-going`` tells bugs apart (``["play"]``);
- optionally ``message``: a regular expression searched in the divergence's message;
- optionally ``options``: option values the divergence's setting must have;
- optionally ``after``: an object of event fields and regular expressions that the last event
  before the divergence must match (``{"action": "play", "card": "^R"}``: just after a Reverse
  was played), which tells apart divergences that carry no event of their own (who moves).

A divergence that matches a finding is reported as known and the search goes on for others;
only divergences that match none fail the run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import attrs

from rulespec.errors import RecordError
from rulespec.verify.report import Divergence

__all__ = ["KnownFinding", "load_known", "match_known"]


@attrs.frozen
class KnownFinding:
    """One finding of a ``--known`` file."""

    id: str
    kind: str
    events: tuple[str, ...] | None = None
    message: re.Pattern[str] | None = None
    options: Mapping[str, object] = attrs.field(factory=dict)
    after: Mapping[str, re.Pattern[str]] = attrs.field(factory=dict)

    def matches(self, d: Divergence) -> bool:
        """Whether divergence ``d`` is this finding."""
        if d.kind != self.kind:
            return False
        if self.events is not None and tuple(sorted(self.events)) != d.signature()[1:]:
            return False
        if self.message is not None and not self.message.search(d.message):
            return False
        if not all(d.options.get(k) == v for k, v in self.options.items()):
            return False
        if self.after:
            last = d.events[-1] if d.events else {}
            return all(isinstance(last.get(k), (str, int)) and p.search(str(last.get(k)))
                       for k, p in self.after.items())
        return True


def match_known(known: Sequence[KnownFinding], d: Divergence) -> str | None:
    """The id of the first known finding ``d`` matches, or None."""
    return next((k.id for k in known if k.matches(d)), None)


def load_known(path: str | Path) -> list[KnownFinding]:
    """The findings of a ``--known`` file; RecordError saying what is wrong with it."""
    where = str(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise RecordError(f"{where}: cannot read the known findings: "
                          f"{e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RecordError(f"{where}: the known findings are not JSON: {e}") from None
    items = data.get("known") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise RecordError(f'{where}: write the known findings as {{"known": [...]}}')
    return [_finding(x, f"{where}: known[{i}]") for i, x in enumerate(items)]


def _finding(x: object, where: str) -> KnownFinding:
    if not isinstance(x, dict):
        raise RecordError(f"{where} is not an object")
    fid, kind = x.get("id"), x.get("kind")
    if not isinstance(fid, str) or not fid or not isinstance(kind, str) or not kind:
        raise RecordError(f"{where} needs an 'id' and a 'kind', both texts")
    unknown = sorted(set(x) - {"id", "kind", "events", "message", "options", "after", "title"})
    if unknown:
        raise RecordError(f"{where} has unknown fields: {', '.join(unknown)}")
    events = x.get("events")
    if events is not None and not (isinstance(events, list)
                                   and all(isinstance(e, str) for e in events)):
        raise RecordError(f"{where}: 'events' is a list of action names")
    message = x.get("message")
    pattern = _pattern(message, f"{where}: 'message'") if message is not None else None
    options = x.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"{where}: 'options' is an object of option values")
    after = x.get("after", {})
    if not isinstance(after, dict):
        raise RecordError(f"{where}: 'after' is an object of event fields and patterns")
    return KnownFinding(fid, kind, tuple(events) if events is not None else None, pattern,
                        options, {k: _pattern(v, f"{where}: 'after'.{k}")
                                  for k, v in after.items()})


def _pattern(text: object, where: str) -> re.Pattern[str]:
    try:
        return re.compile(str(text))
    except re.error as e:
        raise RecordError(f"{where} is not a regular expression: {e}") from None
