"""What a seat sees of a simultaneous decision (``choose together``) before the reveal: the
seats still to choose, and its own choice once made, never another seat's. The choices are
held in the deciding frame's locals (:class:`~rulespec.engine.machine.Together`), out of
reach of every rule, and revealed together once all are in."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rulespec.engine.events import JSONObject
from rulespec.engine.machine import ChooseStop, Values
from rulespec.lang import ast
from rulespec.lang.decks import Deck

__all__ = ["together_view"]


def together_view(stop: ChooseStop, L: Values, seat: int, set_fields: set[tuple[str, str]],
                  evaluate: Callable[[ast.Expr, Mapping[str, object]], object],
                  deck: Deck) -> JSONObject:
    """The entries a simultaneous decision adds to ``seat``'s observation: ``waiting``, the
    seats still to choose, and ``chosen``, the seat's own choice as its event would write it
    (without the seat), once it has chosen. ``evaluate(e, names)`` is the value of ``e`` in
    the state with the local ``names``; ``deck`` spells and orders its cards."""
    tg = stop.together
    assert tg is not None
    out: JSONObject = {"waiting": list(L[tg.pending])}
    for q, i, binds in L[tg.held]:
        if q != seat:
            continue
        alt = stop.node.alternatives[i]
        # the event's fields worked out again from what the choice bound (an observation is
        # no hot path: the held choice keeps no event)
        names = {**L, tg.var: seat, **dict(binds)}
        chosen: JSONObject = {"action": alt.action}
        for f in alt.fields:
            x = deck.normalise_value(_plain(evaluate(f.value, names)))
            if (alt.action, f.name) in set_fields and isinstance(x, list):
                order = deck.order
                x = sorted(x, key=lambda c: (0, order[c], "") if c in order else (1, 0, c))
            chosen[f.name] = x
        out["chosen"] = chosen
    return out


def _plain(x: object) -> object:
    """A value as JSON shows it: tuples (snapshots) and sets become lists."""
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    return x
