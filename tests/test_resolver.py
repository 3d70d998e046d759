"""One resolver: the checker resolves every name and types every expression, and the compiler
(rulespec/interpreter/eval.py) reads what it recorded (``CheckedSpec.resolution``) rather than
resolving names again, so the two cannot disagree."""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from rulespec.engine.codegen.exprs import ExprCompiler
from rulespec.engine.game import Game
from rulespec.errors import SpecCheckError, SpecSyntaxError
from rulespec.lang import ast, walk
from rulespec.lang.checker import check, check_file, check_text
from rulespec.lang.model import (
    BoundBuiltin,
    BoundBuiltinVar,
    BoundConstant,
    BoundDef,
    BoundEnum,
    BoundEnumValue,
    BoundLocal,
    BoundOption,
    BoundVar,
    BoundZone,
    CheckedSpec,
    pos,
)
from rulespec.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted([*(ROOT / "rulespec" / "games").glob("*.rules"),
                  *(ROOT / "examples").glob("*.rules"), *(ROOT / "docs").glob("*.rules"),
                  *(ROOT / "tests" / "specs" / "ok").glob("*.rules")])
BAD = sorted((ROOT / "tests" / "specs" / "bad").glob("*.rules"))
EXPR_CLASSES = typing.get_args(ast.Expr)


#: a game around a module (a spec without a game of its own), so its names are checked too
WRAP = """import "{path}"
game wrap title "Wrap"
players 2 to 2
winner lowest total
def wrap_zero(p: int) = 0
deal {{
  choose 0 {{
    show() "Show." {{
      end deal scoring wrap_zero
    }}
  }}
}}
match {{
  run deal
  end match winners seats
}}
"""


def _is_game(path: Path) -> bool:
    return any(line.startswith("game ") for line in path.read_text(encoding="utf-8").split("\n"))


def _load(path: Path) -> CheckedSpec:
    if _is_game(path):
        return check_file(path)
    return check_text(WRAP.format(path=path), str(path.parent / "wrap.rules"))


#: the games, and the modules that stand on their own (tricks.rules needs its importer's
#: definitions: it is checked as part of abracadabra)
CHECKED = [p for p in SHIPPED if _is_game(p) or p.name != "tricks.rules"]


def test_every_shipped_file_is_covered() -> None:
    sources = {it.span.source for p in CHECKED for it in _load(p).items}
    assert {str(Path(s).resolve()) for s in sources} >= {str(p) for p in SHIPPED}


def _exprs(spec: CheckedSpec) -> list[ast.Expr]:
    return [typing.cast(ast.Expr, x) for x in walk.descendants(spec.items)
            if isinstance(x, EXPR_CLASSES)]


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.stem)
def test_every_name_of_a_shipped_spec_is_bound_and_every_expression_typed(path: Path) -> None:
    spec = _load(path)
    res = spec.resolution
    zones = {z.name for z in spec.zones}
    # a result field is bound as a variable (model.BoundVar)
    variables = {v.name for v in spec.vars} | {r.name for r in spec.results}
    options = {o.name for o in spec.options}
    defs = {d.name for d in spec.defs}
    names = 0
    for e in _exprs(spec):
        res.type_of(e)  # every expression has its type
        if isinstance(e, ast.Name):
            names += 1
            b = res.binding(e.span)
            match b:
                case BoundLocal(name=n) | BoundConstant(name=n) | BoundBuiltinVar(name=n):
                    assert n == e.id
                case BoundVar(name=n):
                    assert n == e.id and n in variables
                case BoundOption(name=n):
                    assert n == e.id and n in options
                case BoundZone(name=n):
                    assert n == e.id and n in zones
                case BoundEnumValue(value=v):
                    assert v == e.id
                case BoundEnum(name=n):
                    assert n == e.id and n in {en.name for en in spec.enums}
                case _:
                    pytest.fail(f"{e.span}: the name {e.id!r} is bound to {b}")
        elif isinstance(e, ast.Call | ast.GenCall):
            b = res.binding(e.span, "call")
            assert b in (BoundDef(e.func), BoundBuiltin(e.func))
            assert not isinstance(b, BoundDef) or e.func in defs
    assert names > 0
    # nothing in the tables that is not an expression of the spec
    assert set(res.types) == {pos(e.span) for e in _exprs(spec)}


def test_the_tables_are_read_only() -> None:
    res = check_file(ROOT / "tests" / "specs" / "ok" / "minimal.rules").resolution
    with pytest.raises(TypeError):
        res.bindings[("x", 1, 1, 1, 2)] = BoundLocal("x")  # type: ignore[index]
    with pytest.raises(TypeError):
        res.types[("x", 1, 1, 1, 2)] = None  # type: ignore[index]


SHADOW = """
game shadow title "Shadow"
players 2 to 2
winner lowest total
option bonus: int = 5
option mode: {none, some} = none
zone stock: shared visible to nobody
zone hand: per player visible to owner
var seen: int = 0
var flag: int = 0
def points(p: int) = bonus + p
def zone_param(hand: int) = hand * 100
def zone_read(p: int) = size(hand[p])
def mode_is_none() = mode == none
def zero(p: int) = 0
deal {
  fill stock with pack(1)
  fill hand[0] with []
  fill hand[1] with []
  for bonus in [1, 2] {
    set seen = seen + bonus
  }
  let points = 1000
  set seen = seen + points + points(20)
  set seen = seen + zone_param(3) + zone_read(0)
  set seen = seen + sum(hand for hand in [10000, 20000])
  set seen = seen + sum(stock * 0 + 1 for stock in seats)
  set flag = if mode_is_none() then 1 else 2
  choose 0 {
    show() "Show." {
      end deal scoring zero
    }
  }
}
match {
  run deal
  end match winners seats
}
"""
#: 1 + 2 (the for loop's bonus, not the option) + 1000 (the let) + 5 + 20 (the definition,
#: which reads the option) + 300 (the parameter called hand) + 0 (the zone) + 30000 + 2
SHADOW_SEEN = 3 + 1000 + 25 + 300 + 0 + 30000 + 2


@pytest.mark.parametrize("inline", ["", "1"])
def test_a_local_shadowing_an_option_a_zone_and_a_definition(
        inline: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESPEC_NO_INLINE", inline)
    spec = check_text(SHADOW, "shadow.rules")
    game = Game(spec, 2, keep_sources=True)
    state = game.new_initial_state()
    assert state.v["seen"] == SHADOW_SEEN
    # the option's value reaches only the definition that reads it
    state9 = Game(spec, 2, {"bonus": 9}).new_initial_state()
    assert state9.v["seen"] == SHADOW_SEEN + 4
    # mode == none: the enum value, not the constant none, in the definition inlined or not
    assert state.v["flag"] == 1
    src = "\n".join(text for _, text in game.sources)
    assert "L['bonus']" in src          # the for variable, not the option folded to 5
    assert "L['points']" in src         # the let, next to the call of the definition
    assert "Z['hand']" in src           # the zone, read in zone_read
    assert "v_hand" in src and "v_stock" in src  # the generators' variables


def test_each_use_is_bound_as_the_checker_chose() -> None:
    spec = check_text(SHADOW, "shadow.rules")
    res = spec.resolution
    lines = SHADOW.split("\n")
    got: dict[tuple[str, str], set[str]] = {}
    for e in _exprs(spec):
        if isinstance(e, ast.Name) and e.id in ("bonus", "hand", "stock", "points", "none"):
            line = lines[e.span.line - 1].strip()
            got.setdefault((e.id, line), set()).add(type(res.binding(e.span)).__name__)
        if isinstance(e, ast.Call) and e.func == "points":
            got[("points()", "")] = {type(res.binding(e.span, "call")).__name__}
    assert got[("bonus", "set seen = seen + bonus")] == {"BoundLocal"}
    assert got[("bonus", "def points(p: int) = bonus + p")] == {"BoundOption"}
    assert got[("hand", "def zone_param(hand: int) = hand * 100")] == {"BoundLocal"}
    assert got[("hand", "def zone_read(p: int) = size(hand[p])")] == {"BoundZone"}
    assert got[("hand", "set seen = seen + sum(hand for hand in [10000, 20000])")] \
        == {"BoundLocal"}
    assert got[("stock", "fill stock with pack(1)")] == {"BoundZone"}
    assert got[("stock", "set seen = seen + sum(stock * 0 + 1 for stock in seats)")] \
        == {"BoundLocal"}
    assert got[("points", "set seen = seen + points + points(20)")] == {"BoundLocal"}
    assert got[("points()", "")] == {"BoundDef"}
    assert got[("none", "def mode_is_none() = mode == none")] == {"BoundEnumValue"}


def test_a_name_the_checker_did_not_resolve_is_a_bug_not_a_guess() -> None:
    spec = check_text(SHADOW, "shadow.rules")
    ec = ExprCompiler(spec, 2, spec.defaults())
    stray = ast.Name("seen", span=ast.Span("elsewhere.rules", 7, 3, 7, 7))
    with pytest.raises(AssertionError, match="elsewhere.rules:7:3"):
        ec.expr(stray, frozenset())


def _diagnostics(run: typing.Callable[[], object]) -> object:
    try:
        spec = run()
    except SpecSyntaxError as e:
        return ("syntax", [(d.span, d.message, d.hint) for d in e.diagnostics])
    except SpecCheckError as e:
        return ("check", [(d.span, d.message, d.hint) for d in e.diagnostics])
    assert isinstance(spec, CheckedSpec)
    return ("ok", dict(spec.resolution.bindings), dict(spec.resolution.types))


@pytest.mark.parametrize("path", [p for p in SHIPPED + BAD
                                  if "\nimport " not in "\n" + p.read_text()],
                         ids=lambda p: p.stem)
def test_check_of_parse_gives_what_check_text_gives(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    via_parse = _diagnostics(lambda: check(parse(text)))
    via_text = _diagnostics(lambda: check_text(text))
    assert via_parse == via_text
