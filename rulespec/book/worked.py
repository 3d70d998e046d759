"""A part of a player's score worked out as a reader would check it: the sum or count the
spec's scoring definition makes, with what it adds up or counts. ``face_values(p) =
sum(value(c) for c in left_up[p])`` at the end of a deal gives ``2 + 7 + 8 + 13``;
``rank_bonus(p) = 2 * count(number(c) == D for c in won[p])`` gives ``2 × 2`` and the cards
counted, 5♠ 5♦ (rounds 14 and 15: a score line the reader could not check from the log).

Only what lies beneath a sum or a count over a sequence is worked out: a part made of plain
values (a bonus, a number of tricks) is its value, which the score line says already. The
definitions the part calls are followed with their arguments' values, a condition is
followed down the arm it takes; nothing is played, only evaluated on the state the deal ended
in. Used by :mod:`rulespec.book.facts`; the book writes the tokens in its language.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.engine import State
from rulespec.errors import RulespecError
from rulespec.lang import ast
from rulespec.lang.model import CheckedSpec

__all__ = ["Token", "Working", "worked"]

#: a number, an operator or bracket as the book writes it ("+", "−", "×", "(", ")"), or a
#: card counted (``("card", "5S")``)
Token = int | str | tuple[str, str]
#: a part's arithmetic and the cards its counts counted (a sum's cards with the zone they lie
#: in after a bar, ``4S|left_up``, so that a second pack's are written in angle quotes)
Working = tuple[tuple[Token, ...], tuple[str, ...]]


class Worked:
    """A part's working: ``tokens`` the arithmetic, ``cards`` the cards its counts counted,
    in the order met."""

    __slots__ = ("cards", "tokens")

    def __init__(self, tokens: list[Token], cards: list[str]) -> None:
        self.tokens = tokens
        self.cards = cards


#: how deep definitions are followed (a definition calling itself would never end)
_DEPTH = 12
_OPS = {"+": "+", "-": "−", "*": "×"}


def worked(spec: CheckedSpec, st: State, e: ast.Expr, bindings: Mapping[str, object],
           summed: bool = False) -> Working | None:
    """The working of ``e`` in ``st`` (a state where a deal has just ended) with
    ``bindings`` for its parameters: its arithmetic as tokens and the cards its counts
    counted (with ``summed``, the cards its sums added up too: a score that is one sum over
    a hand); None where no sum or count lies beneath it, or where working it out would say
    no more than its value (a sum of one value)."""
    try:
        w = _work(spec, st, e, dict(bindings), 0, summed)
    except (RulespecError, KeyError, TypeError, ValueError, ZeroDivisionError):
        return None  # a part the evaluator cannot take apart: its value alone is told
    if w is None or len(w.tokens) < 2 and not w.cards:
        return None
    return tuple(w.tokens), tuple(w.cards)


def _value(st: State, e: ast.Expr, env: Mapping[str, object]) -> object:
    return st.game.evaluate(e, st, env)


def _work(spec: CheckedSpec, st: State, e: ast.Expr, env: dict[str, object], depth: int,
          summed: bool = False) -> Worked | None:
    if depth > _DEPTH:
        return None
    if isinstance(e, ast.Cited):
        return _work(spec, st, e.expr, env, depth, summed)
    if isinstance(e, ast.IfExpr):
        arm = e.then if _value(st, e.cond, env) is True else e.else_
        return _work(spec, st, arm, env, depth, summed)
    if isinstance(e, ast.Call) and e.func in spec.def_named:
        d = spec.def_named[e.func]
        if len(d.params) != len(e.args):
            return None
        inner = {p.name: _value(st, a, env) for p, a in zip(d.params, e.args, strict=True)}
        return _work(spec, st, d.body, inner, depth + 1, summed)
    if isinstance(e, ast.BinOp) and e.op in _OPS:
        left = _work(spec, st, e.left, env, depth, summed)
        right = _work(spec, st, e.right, env, depth, summed)
        if left is None and right is None:
            return None
        a = left if left is not None else _plain(st, e.left, env)
        b = right if right is not None else _plain(st, e.right, env)
        if a is None or b is None:
            return None
        # nothing added or taken away is left out: "2 × 1", not "2 × 1 − 2 × 0" (a right
        # row with no card lost)
        if e.op in ("+", "-") and _value(st, e.right, env) == 0:
            return a
        if e.op == "+" and _value(st, e.left, env) == 0:
            return b
        if e.op == "*":  # a sum inside a product is bracketed: 2 × (9 + 11)
            a, b = _bracketed(a), _bracketed(b)
        elif e.op == "-":
            b = _bracketed(b)
        return Worked([*a.tokens, _OPS[e.op], *b.tokens], a.cards + b.cards)
    if isinstance(e, ast.GenCall) and e.func in ("sum", "count"):
        return _gen(st, e, env, summed)
    return None


def _gen(st: State, e: ast.GenCall, env: dict[str, object], summed: bool = False
         ) -> Worked | None:
    """A sum's addends, or a count's cards, in ``st`` (with ``summed``, a sum's cards too)."""
    items = _value(st, e.source, env)
    if not isinstance(items, (list, tuple)):
        return None
    values: list[int] = []
    counted: list[object] = []
    for x in items:
        inner = {**env, e.var: x}
        if e.cond is not None and _value(st, e.cond, inner) is not True:
            continue
        v = _value(st, e.elem, inner)
        if e.func == "count":
            if v is True:
                counted.append(x)
        elif isinstance(v, int) and not isinstance(v, bool):
            values.append(v)
            if v:
                counted.append(x)
        else:
            return None
    if e.func == "count":
        # a count of cards names them; a count of anything else (the players who
        # succeeded, which the line before says) is a plain value
        if any(not isinstance(x, str) for x in counted):
            return None
        return Worked([len(counted)], [str(x) for x in counted])
    # a sum's cards each with the zone they lie in (``4S|left_up``), so that a second pack's
    # (bid cards) are written as the example writes them
    zone = _zone_of(e.source)
    cards = [f"{x}|{zone}" if zone else str(x) for x in counted] \
        if summed and all(isinstance(x, str) for x in counted) else []
    return Worked(_added(values), cards)


def _zone_of(e: ast.Expr) -> str | None:
    """The name an expression indexes or is (``left_up[p]``: ``left_up``), else None."""
    while isinstance(e, (ast.Index, ast.Cited)):
        e = e.target if isinstance(e, ast.Index) else e.expr
    return e.id if isinstance(e, ast.Name) else None


#: a sum of more addends than this is said with equal ones grouped: ``13 × 1 + 13``
_GROUP_OVER = 6


def _added(values: list[int]) -> list[Token]:
    """A sum's addends as a reader checks them: the zeros left out (a card worth nothing),
    equal ones grouped where there are many (thirteen hearts at 1 point each)."""
    kept = [v for v in values if v]
    if not kept:
        return [0]
    if len(kept) > _GROUP_OVER:
        counts: dict[int, int] = {}
        for v in kept:
            counts[v] = counts.get(v, 0) + 1
        tokens: list[Token] = []
        for v, k in counts.items():
            if tokens:
                tokens.append("+" if v > 0 else "−")
            elif v < 0:
                tokens.append("−")
            tokens += [k, "×", abs(v)] if k > 1 else [abs(v)]
        return tokens
    tokens = [kept[0]]
    for v in kept[1:]:
        tokens += ["+", v] if v > 0 else ["−", -v]
    return tokens


def _plain(st: State, e: ast.Expr, env: Mapping[str, object]) -> Worked | None:
    v = _value(st, e, env)
    if isinstance(v, int) and not isinstance(v, bool):
        return Worked([v], [])
    return None


def _bracketed(w: Worked) -> Worked:
    """``w`` in brackets where a sum or difference stands at its top level."""
    depth = 0
    for t in w.tokens:
        depth += 1 if t == "(" else -1 if t == ")" else 0
        if depth == 0 and t in ("+", "−"):
            return Worked(["(", *w.tokens, ")"], w.cards)
    return w
