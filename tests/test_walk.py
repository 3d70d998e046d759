"""The generic walks of lang/walk.py that the checker's passes are written with."""

from __future__ import annotations

from rulespec.lang import ast, walk
from rulespec.lang.parser import parse

_HEAD = ('game g title "G"\nplayers 2 to 4\nwinner lowest total\n'
         'zone stock: shared visible to nobody\n')


def _items(text: str) -> tuple[ast.Item, ...]:
    return parse(_HEAD + text, "w.rules").items


def test_statements_are_met_once_in_order_with_their_loops() -> None:
    deal = next(it for it in _items(
        "deal {\n  shuffle stock\n  loop {\n    if true { break } else if false { p() }\n  }\n"
        "  choose 0 {\n    a() {\n      repeat 2 { q() }\n    }\n  }\n}\n")
        if isinstance(it, ast.DealDecl))
    got = [(type(s).__name__, loops) for s, loops in walk.statements(deal.body)]
    assert got == [("Shuffle", 0), ("Loop", 0), ("If", 1), ("Break", 1), ("If", 1),
                   ("CallStmt", 1), ("Choose", 0), ("Repeat", 0), ("CallStmt", 1)]


def test_through_definitions_enters_each_body_once_at_its_first_call() -> None:
    items = _items("def a(x: int) = x + b(x) + b(1)\ndef b(y: int) = y + [z for z in seats][0]\n")
    defs = {it.name: it for it in items if isinstance(it, ast.DefDecl)}
    names = [(n.id, bound) for n, bound in walk.through_definitions(defs["a"].body, defs)
             if isinstance(n, ast.Name)]
    # b's body comes right after its first call, before that call's argument
    assert [n for n, _ in names] == ["x", "y", "z", "seats", "x"]
    assert names[1][1] == frozenset({"y"}) and names[2][1] == frozenset({"y", "z"})
    # a comprehension's source is read outside it
    assert names[3][1] == frozenset({"y"})
    # the walk starts outside any definition: a's own parameter is free in its body
    assert [n.id for n in walk.names_read(defs["a"].body, defs)] == ["x", "seats", "x"]


def test_citations_are_listed_in_order() -> None:
    df = next(it for it in _items("def d() = ((1 [VAN-2]) + (2 [VAN-3])) [VAN-4]\n")
              if isinstance(it, ast.DefDecl))
    assert list(walk.citations(df.body)) == ["VAN-4", "VAN-2", "VAN-3"]
