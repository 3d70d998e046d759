"""Expressions of a spec said in plain English, for the body of the rulebook.

A rule page says "the number of cards in the stock", not ``size(stock)``. :func:`say` reads an
expression the way a player would, naming the built-ins, comparisons and the spec's own names
(``high_bid`` is "high bid"); :func:`mentioned` lists the spec's definitions an expression uses,
so the book can say what each one means next to the sentence that needs it. The wording is
general: nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import assert_never

from rulespec.lang import ast, walk
from rulespec.lang.model import (
    Binding,
    BoundBuiltinVar,
    BoundConstant,
    BoundEnum,
    BoundOption,
    BoundVar,
    BoundZone,
    CheckedSpec,
    pos,
)

__all__ = ["cap", "mentioned", "say", "say_pick", "show", "words"]

_COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
            ">": "is more than", ">=": "is at least", "in": "is in", "not in": "is not in"}
#: the built-in constants and variables in words
_NAMES = {"player_count": "the number of players", "hand_count": "the number of hands",
          "dealer": "the dealer", "seats": "the players", "none": "none", "true": "true",
          "false": "false", "deals_played": "the deals played so far",
          "totals": "the totals", "joker_card": "the Joker",
          "team_count": "the number of teams", "team_totals": "the teams' totals",
          "clockwise": "play goes clockwise"}


def words(name: str) -> str:
    """A name as words: ``high_bid`` is "high bid"."""
    return name.replace("_", " ")


def cap(text: str) -> str:
    """``text`` with a capital first letter, as a sentence starts."""
    return text[:1].upper() + text[1:]


def show(v: object) -> str:
    """A value as the book writes it: ``true``, ``false``, numbers and names as they are."""
    return str(v).lower() if isinstance(v, bool) else str(v)


def say(e: ast.Expr, spec: CheckedSpec) -> str:  # noqa: C901 - one case per kind of node
    """``e`` in plain English."""
    match e:
        case ast.IntLit(value=v):
            return str(v)
        case ast.StrLit(value=v):
            return f"“{v}”"
        case ast.CardLit(code=c):
            # a card by its name in the spec's deck: "the queen of spades", "the Wild"
            return f"the {spec.deck.name_of(c)}"
        case ast.Name():
            return _name(e, spec)
        case ast.Cited(expr=x):
            # a player's book names the ambiguities in its variations, not in every sentence
            return say(x, spec)
        case ast.Call(func=f, args=args):
            return _call(f, args, spec)
        case ast.GenCall(func=f, elem=el, var=v, source=src, cond=c):
            return _gencall(f, el, v, src, c, spec)
        case ast.Comprehension(elem=ast.Name(id=el), var=v, source=src, cond=c) if el == v:
            # the elements themselves, some of them: "the players in turn ..., each one q
            # such that playing (q)"
            such = f" such that {say(c, spec)}" if c is not None else ""
            return f"{say(src, spec)}, each one {v}{such}" if such else say(src, spec)
        case ast.Comprehension(elem=el, var=v, source=src, cond=c):
            such = f" such that {say(c, spec)}" if c is not None else ""
            return f"{say(el, spec)} for each {v} in {say(src, spec)}{such}"
        case ast.Index(target=ast.Name(id="sitting_out") as t, index=i) if isinstance(
                _binding(t, spec), BoundBuiltinVar):
            return f"{say(i, spec)} sits out the deal"
        case ast.Index(target=t, index=i):
            return f"{say(t, spec)} of {say(i, spec)}"
        case ast.ListLit(items=items):
            if not items:
                return "nothing"
            return ", ".join(say(x, spec) for x in items)
        case ast.BinOp(op=op, left=a, right=b):
            op_word = {"+": "+", "-": "−", "*": "×", "//": "divided by", "%": "modulo"}[op]
            return f"{_group(a, spec)} {op_word} {_group(b, spec)}"
        case ast.Compare(op=("==" | "!=") as op, left=ast.Name() as o,
                         right=ast.Name() | ast.StrLit() as v) if isinstance(
                             _binding(o, spec), BoundOption):
            # a house rule's setting: "the turnup eight rule is bury random"
            return f"the {words(o.id)} rule {_COMPARE[op]} {say(v, spec)}"
        case ast.Compare(op=op, left=a, right=b):
            return f"{say(a, spec)} {_COMPARE[op]} {say(b, spec)}"
        case ast.And(left=a, right=b):
            return f"{say(a, spec)} and {say(b, spec)}"
        case ast.Or(left=a, right=b):
            return f"{say(a, spec)}, or {say(b, spec)}"
        case ast.Not(operand=ast.Name(id="clockwise") as o) if isinstance(
                _binding(o, spec), BoundBuiltinVar):
            return "play goes counter-clockwise"
        case ast.Not(operand=o):
            return f"not ({say(o, spec)})" if isinstance(o, (ast.And, ast.Or)) \
                else f"not {say(o, spec)}"
        case ast.Neg(operand=o):
            return f"−{_group(o, spec)}"
        case ast.IfExpr(cond=c, then=t, else_=el):
            return f"{say(t, spec)} if {say(c, spec)}, otherwise {say(el, spec)}"
        case ast.OptionArg(option=o, param=prm):
            return f"the {words(prm)} of {words(o)}"
        case _:
            assert_never(e)


def say_pick(s: ast.Pick, spec: CheckedSpec) -> str:
    """A ``pick`` in plain English: "the face is picked at random: 1 to 6, each equally
    likely"; "the pass is picked at random: left 1 in 4, hold 3 in 4"."""
    who = f"the {words(s.name)}" if s.name != "dealer" else "the dealer"
    head = f"{who} is picked at random"
    if s.source is not None:
        src = walk.uncite(s.source)
        if isinstance(src, ast.ListLit):
            return f"{head}: {_run(src.items, spec)}, each equally likely"
        return f"{head} from {say(src, spec)}, each equally likely"
    ws = [walk.uncite(o.weight) for o in s.weighted]
    values = [say(walk.uncite(o.value), spec) for o in s.weighted]
    if all(isinstance(w, ast.IntLit) for w in ws):
        counts = [w.value for w in ws if isinstance(w, ast.IntLit)]
        total = sum(counts)
        if len(set(counts)) == 1:
            return f"{head}: {_run(tuple(o.value for o in s.weighted), spec)}, each equally likely"
        return f"{head}: " + ", ".join(f"{v} {c} in {total}"
                                       for v, c in zip(values, counts, strict=True))
    return f"{head}, each value as likely as its weight: " + ", ".join(
        f"{v} (weight {say(w, spec)})" for v, w in zip(values, ws, strict=True))


def _run(items: tuple[ast.Expr, ...], spec: CheckedSpec) -> str:
    """Values listed in words: "1 to 6" for whole numbers one after another, else "a, b
    or c"."""
    xs = [walk.uncited(x) for x in items]
    nums = [x.value for x in xs if isinstance(x, ast.IntLit)]
    if len(nums) == len(xs) > 2 and nums == list(range(nums[0], nums[0] + len(nums))):
        return f"{nums[0]} to {nums[-1]}"
    said = [say(walk.uncite(x), spec) for x in items]
    return said[0] if len(said) < 2 else f"{', '.join(said[:-1])} or {said[-1]}"


def _group(e: ast.Expr, spec: CheckedSpec) -> str:
    s = say(e, spec)
    return f"({s})" if isinstance(e, (ast.BinOp, ast.IfExpr, ast.Compare, ast.And, ast.Or)) \
        else s


def _binding(e: ast.Name, spec: CheckedSpec) -> Binding | None:
    """What the checker bound the name ``e`` to (None for a name it never saw)."""
    return spec.resolution.bindings.get(pos(e.span))


def _name(e: ast.Name, spec: CheckedSpec) -> str:
    """A name as the checker bound it: a built-in in words, a state variable or zone with
    "the", anything else (an option, a local, an enum value, a result) as its words."""
    match _binding(e, spec):
        case BoundConstant(name=n) | BoundBuiltinVar(name=n) if n in _NAMES:
            return _NAMES[n]
        case BoundConstant(name=n) if not spec.deck.french and n in _deck_words(spec):
            return _deck_words(spec)[n]
        case BoundVar(name=n):
            for v in spec.vars:
                if v.name == n:
                    # a truth value reads as a word of its own: "not drew", "owes of p"
                    bool_var = isinstance(v.type, ast.TypeName) and v.type.name == "bool"
                    return words(n) if bool_var else f"the {words(n)}"
            return words(n)  # a field of the deal's result
        case BoundZone(name=n):
            return f"the {words(n)}"
        case BoundEnum(name=n):
            return f"every {words(n)}"
    return words(e.id)


def _deck_words(spec: CheckedSpec) -> dict[str, str]:
    """The names a declared deck gives, as the book says them: a suit or a rank by its book
    name, a card "the Wild", a run of cards "the trumps"."""
    deck = spec.deck
    out = {s.name: s.label for s in deck.suits}
    out.update((r.name, r.label) for r in deck.ranks)
    for x in deck.extras:
        if x.run is None:
            out[x.name] = f"the {x.label}"
        else:
            out[x.run] = f"the {words(x.run)}"
    out.update((n, f"the {words(n)} pack") for n in deck.packs)
    return out


def _call(f: str, args: tuple[ast.Expr, ...], spec: CheckedSpec) -> str:  # noqa: C901
    a = [say(x, spec) for x in args]
    match f, len(a):
        case "size", 1:
            x = args[0]
            if isinstance(x, ast.Call) and x.func == "seen_by":
                return f"the number of cards {say(x.args[0], spec)} has seen this deal"
            return f"the number of cards in {a[0]}" if _is_zone(x, spec) \
                else f"the size of {a[0]}"
        case "range", 2:
            return f"a number from {a[0]} to {a[1]}"
        case "subsets", 3:
            lo, hi = args[1], args[2]
            if isinstance(hi, ast.Call) and hi.func == "size" and hi.args == (args[0],):
                return (f"any cards of {a[0]}, or none" if a[1] == "0"
                        else f"any {a[1]} or more cards of {a[0]}")
            if lo == hi:
                return f"exactly {a[1]} of {a[0]}"
            return f"any {a[1]} to {a[2]} of {a[0]}"
        case ("first" | "last" | "top" | "bottom"), 1:
            what = "card" if f in ("top", "bottom") else "one"
            return f"the {f} {what} of {a[0]}"
        case ("rank" | "suit"), 1:
            return f"the {f} of {a[0]}"
        case "left_of", 1:
            return f"the player on {a[0]}'s left"
        case "seats_from", 1:
            return f"each player in turn from {a[0]}"
        case "right_of", 1:
            return f"the player on {a[0]}'s right"
        case "next_of", 1:
            return f"the player after {a[0]} in the direction of play"
        case "turns_from", 1:
            return f"each player in turn from {a[0]}, in the direction of play"
        case "seen_by", 1:
            return f"the cards {a[0]} has seen this deal"
        case "set_of", 1:
            return a[0]
        # the team built-ins (a spec without teams may name its own definitions so)
        case "team_of", 1 if spec.teams is not None:
            return f"{a[0]}'s team"
        case "members", 1 if spec.teams is not None:
            return f"the players of team {a[0]}"
        case "partner", 1 if spec.teams is not None:
            return f"{a[0]}'s partner"
        case "pack", 1:
            return "a pack" if a[0] == "1" else f"{a[0]} packs"
        case ("max" | "min" | "sum" | "count" | "any" | "all"), 1:
            return f"the {f} of {a[0]}"
        case ("is_meld" | "melds" | "deadwood" | "best_melds"), _:
            return _melds(f, a)
    if not a:
        return words(f)
    return f"{words(f)} ({', '.join(a)})"


def _melds(f: str, a: list[str]) -> str:
    """The meld built-ins in words (a run's ranks follow the order the rules pass: see
    lang/melds.py)."""
    match f:
        case "is_meld":
            return f"{a[0]} form a meld (a set, or a run in {a[1]})"
        case "melds":
            return f"each meld (a set, or a run in {a[1]}) among {a[0]}"
        case "deadwood":
            return (f"the deadwood of {a[0]}: the least total of {a[1]} over the cards left "
                    f"out of melds (sets, or runs in {a[2]})")
    return (f"melds of {a[0]} (sets, or runs in {a[2]}) that leave the least "
            f"deadwood, counting {a[1]}")


def _gencall(f: str, el: ast.Expr, v: str, src: ast.Expr, c: ast.Expr | None,
             spec: CheckedSpec) -> str:
    such = f" with {say(c, spec)}" if c is not None else ""
    body, over = say(el, spec), f"{v} in {say(src, spec)}{such}"
    match f:
        case "count":
            return f"how many {v} in {say(src, spec)}{such} have {body}"
        case "sum":
            return f"the sum of {body} over each {over}"
        case "max" | "min":
            return f"the {'highest' if f == 'max' else 'lowest'} {body} over each {over}"
        case "any":
            return f"{body} for some {over}"
        case "all":
            return f"{body} for every {over}"
    return f"{words(f)} of {body} over each {over}"


def _is_zone(e: ast.Expr, spec: CheckedSpec) -> bool:
    """Whether ``e`` is a zone, or a player's zone (``hand[p]``)."""
    name = e.target if isinstance(e, ast.Index) else e
    return isinstance(name, ast.Name) and isinstance(_binding(name, spec), BoundZone)


def mentioned(e: object, spec: CheckedSpec) -> Iterator[ast.DefDecl]:
    """The spec's definitions ``e`` calls, each once, in the order they appear."""
    defs = spec.def_named
    seen: set[str] = set()
    for x in walk.descendants(e):
        if isinstance(x, (ast.Call, ast.GenCall)) and x.func in defs and x.func not in seen:
            seen.add(x.func)
            yield defs[x.func]
