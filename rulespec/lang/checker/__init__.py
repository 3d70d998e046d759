"""Static checks: every rule of the language that can be checked before anything runs.

``check(spec)`` resolves names and types and either returns a :class:`CheckedSpec` or raises
:class:`SpecCheckError` holding *every* diagnostic found (jlox's Resolver: report all, then
stop). Every check lives in this package, none in the node classes. It is split as mypy splits
its checker: :mod:`.symbols` (what declarations introduce, and the diagnostics sink),
:mod:`.declarations`, :mod:`.statements`, :mod:`.expressions` and :mod:`.flow` (recursion,
reachability, endless loops, placement). Reading files and following imports is
:mod:`rulespec.lang.sources`'s.
"""

from __future__ import annotations

from pathlib import Path

from rulespec.errors import SpecCheckError
from rulespec.lang import ast
from rulespec.lang.checker import flow
from rulespec.lang.checker.declarations import DeclarationChecker
from rulespec.lang.checker.expressions import ExpressionChecker
from rulespec.lang.checker.statements import StatementChecker
from rulespec.lang.checker.symbols import Decls, Symbols
from rulespec.lang.model import CheckedSpec, Resolution
from rulespec.lang.sources import load_spec, read_spec
from rulespec.lang.text import paused_gc

__all__ = ["check", "check_file", "check_text"]


def check(spec: ast.Spec, sources: dict[str, str] | None = None) -> CheckedSpec:
    """Check a parsed spec that has no imports (or whose imports are already merged)."""
    with paused_gc():
        return _check(Symbols(spec.items, dict(sources or {})))


def check_text(text: str, source_name: str = "<spec>",
               confine: Path | None = None) -> CheckedSpec:
    """Parse, resolve imports and check; raise SpecSyntaxError or SpecCheckError. With
    ``confine``, imports resolve only to shipped modules and files inside that folder."""
    with paused_gc():  # a big spec is millions of objects, none in a cycle (parser.paused_gc)
        loaded = load_spec(text, source_name, confine)
        return _check(Symbols(loaded.items, loaded.sources, loaded.imports))


def check_file(path: str | Path, confine: Path | None = None) -> CheckedSpec:
    """Parse, resolve imports and check a .rules file (imports confined as in
    :func:`check_text`)."""
    return check_text(read_spec(Path(path), str(path)), str(path), confine)


def told_alike(sym: Symbols) -> None:
    """Alternatives of one decision with the same fields are told alike: a move records its
    decision and fields, not which alternative made it, so a book could not tell them apart."""
    told: dict[tuple[str, frozenset[str]], str] = {}
    for a in sym.actions:
        if a.told is None:
            continue
        key = (a.name, frozenset(a.fields))
        first = told.setdefault(key, a.told)
        if first != a.told:
            sym.error(a.span, f"decision {a.name!r} is told two ways for the same fields",
                      "a move records its decision and fields, not which alternative made "
                      "it: give these alternatives one told text (a plural or select case "
                      "can tell them apart by a field)")


def _check(sym: Symbols) -> CheckedSpec:
    """collect → declarations → bodies → flow, then raise every diagnostic or give the
    checked spec."""
    exprs = ExpressionChecker(sym)
    decls = DeclarationChecker(sym, exprs, StatementChecker(sym, exprs))
    d = decls.collect()
    forms = decls.check_declared(d)
    # the call graph first, from the names alone: typing a body types each definition it
    # calls, so a chain of calls too deep (or a cycle) would take the checker's own stack
    # with it; such a spec is reported as that, and its bodies are not typed
    errors = len(sym.diags)
    flow.no_recursion(sym)
    if len(sym.diags) == errors:
        decls.check_bodies(d)
    flow.reachability(sym, d.match, d.deal)
    flow.end_deal_outside_deal(sym, d.match)
    flow.results_outside_deal(sym, d.match)
    told_alike(sym)
    if sym.diags:
        raise SpecCheckError(sym.diags, sym.sources)
    return _checked_spec(sym, d, forms)


def _checked_spec(sym: Symbols, d: Decls, forms: tuple[str, ...]) -> CheckedSpec:
    """The checked spec of a spec that passed every check."""
    game, players, winner, match, deal = d.game, d.players, d.winner, d.match, d.deal
    assert game and players and winner and match and deal
    return CheckedSpec(
        name=game.name, title=game.title, doc=game.doc, min_players=players.min,
        max_players=players.max, winner=winner.direction,
        hands=d.hands.count if d.hands is not None else None, game_end_forms=forms,
        score_range=(d.score_range.low, d.score_range.high)
        if d.score_range is not None else None,
        max_events=d.max_events.count if d.max_events is not None else None,
        options=tuple(sym.options.values()), requires=tuple(d.requires),
        zones=tuple(sym.zones.values()),
        vars=tuple(v for v in sym.vars.values() if isinstance(v, ast.VarDecl)),
        results=tuple(sym.results.values()), hooks=tuple(sym.hooks.values()),
        defs=tuple(sym.defs.values()), procs=tuple(sym.procs.values()), match=match,
        deal=deal, actions=tuple(sym.actions), items=sym.items, sources=sym.sources,
        resolution=Resolution.of(sym.bindings, sym.types),
        terms=tuple(d.terms), hints=tuple(d.hints), tables=tuple(d.tables), deck=sym.deck,
        teams=d.teams,
        sits_out=sym.sits_out, reveals=sym.reveals, enums=tuple(sym.enums.values()),
        directed=sym.directed,
    )
