"""Flow: the checks over the shape of the rules rather than the type of a value.

No recursion (a definition or procedure calling itself, directly or through others) and no
chain of calls nested past MAX_NESTING; every procedure reached and a deal run; no loop that can
never stop; and placement: what is worked out when the table is set up reads no state, and
what the match runs outside a deal neither ends a deal nor touches its result fields. Each
walk is one of :mod:`rulespec.lang.walk`'s.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from rulespec.lang import ast, walk
from rulespec.lang.checker.symbols import Symbols
from rulespec.lang.model import BUILTIN_VARS, BoundVar, pos
from rulespec.lang.parser import MAX_NESTING

__all__ = ["end_deal_outside_deal", "loop_moves", "no_recursion", "reachability",
           "results_outside_deal", "table_only"]


def no_recursion(sym: Symbols) -> None:
    """No definition or procedure may call itself, directly or through others: a
    definition's value and a procedure's steps are then always finite to compute, and no
    Python limit can be reached by a spec (repetition is written with loop, while, repeat,
    for, or a comprehension). Each cycle is reported once, at the call that closes it."""
    def_calls = {n: [(c.func, c.span) for c in walk.descendants(d.body)
                     if isinstance(c, ast.Call) and c.func in sym.defs]
                 for n, d in sym.defs.items()}
    proc_calls = {n: [(c.name, c.span) for c in walk.descendants(p.body)
                      if isinstance(c, ast.CallStmt) and c.name in sym.procs]
                  for n, p in sym.procs.items()}
    cyclic = False
    for calls, what, hint in (
            (def_calls, "definition", "a definition cannot call itself; write the "
             "repetition as a comprehension, or as a loop in a procedure"),
            (proc_calls, "procedure", "a procedure cannot call itself; repeat its steps "
             "with loop, while, repeat or for")):
        for cycle, span in _cycles(calls):
            cyclic = True
            path = " → ".join([*cycle, cycle[0]])
            sym.error(span, f"{what} {cycle[0]!r} calls itself ({path}): recursion is "
                      "not allowed", hint)
    if not cyclic:  # the depths are worked out over a graph with no cycle
        _call_depths(sym)


def _call_depths(sym: Symbols) -> None:
    """No definition or procedure may nest deeper than MAX_NESTING levels counting what
    it calls: a call is as deep as the body it stands for. The compiler expands a
    definition in place and a procedure's code calls the next, so a chain of a thousand
    definitions each calling the one before is as deep, for Python, as an expression of
    a thousand levels (the parser bounds only what is written in one place). Worked out
    over the call graph in order, with no recursion of our own (there is no cycle)."""
    graph: dict[str, ast.DefDecl | ast.ProcDecl] = {**sym.defs, **sym.procs}
    # each body's calls: (callee, depth of the call in the body); a procedure's calls of
    # procedures are statements, its calls of definitions expressions
    calls: dict[str, list[tuple[str, int, ast.Span]]] = {}
    own: dict[str, int] = {}
    for name, d in graph.items():
        calls[name] = []
        deepest = 0
        for node, depth in walk.with_depths(d.body):
            deepest = max(deepest, depth)
            if isinstance(node, ast.Call) and node.func in graph:
                calls[name].append((node.func, depth, node.span))
            elif isinstance(node, ast.CallStmt) and node.name in graph:
                calls[name].append((node.name, depth, node.span))
        own[name] = deepest
    total: dict[str, int] = {}
    for name in graph:
        stack = [name]
        while stack:
            top = stack[-1]
            if top in total:
                stack.pop()
                continue
            waiting = [c for c, _, _ in calls[top] if c not in total]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            # the callee's body stands one level below its call: a call at the top of a
            # body (def d(v) = e(v + 1)) still nests the chain one deeper
            total[top] = max([own[top]] + [k + 1 + total[c] for c, k, _ in calls[top]])
    for name, d in graph.items():
        if total[name] <= MAX_NESTING:
            continue
        # the first call that takes this body past the limit, and the chain below it
        over = [(c, sp) for c, k, sp in calls[name] if k + 1 + total[c] > MAX_NESTING]
        if not over or total[over[0][0]] > MAX_NESTING:
            continue  # reported at the callee, where the chain first passes the limit
        chain = [name, over[0][0]]
        while len(chain) < 6 and calls[chain[-1]]:
            chain.append(max(calls[chain[-1]], key=lambda x: x[1] + 1 + total[x[0]])[0])
        what = "definition" if isinstance(d, ast.DefDecl) else "procedure"
        sym.error(over[0][1], f"{what} {name!r} nests more than {MAX_NESTING} levels deep "
                  f"counting what it calls ({' → '.join(chain)}"
                  f"{' → ...' if len(chain) == 6 else ''}): a call is as deep as the body "
                  "it stands for",
                  "a chain of definitions or procedures each calling the next counts one "
                  "level for each; compute the steps with a comprehension or a loop")


def reachability(sym: Symbols, match: ast.MatchDecl | None, deal: ast.DealDecl | None) -> None:
    """Every procedure of the main file is reached from the match or the deal, and the match
    runs a deal."""
    calls: dict[str, set[str]] = {}
    for name, p in sym.procs.items():
        calls[name] = set(_calls_in(p.body))
    reach: set[str] = set()
    todo = [c for b in (match, deal) if b is not None for c in _calls_in(b.body)]
    while todo:
        n = todo.pop()
        if n in reach or n not in calls:
            continue
        reach.add(n)
        todo.extend(calls[n])
    # the main file is the one that declares the game, however the spec was loaded
    # (check(parse(text)) has no sources to tell it)
    main = next((it.span.source for it in sym.items if isinstance(it, ast.GameDecl)),
                None)
    for name, p in sym.procs.items():
        # an imported module is a library: its unused procedures are not dead phases
        if name not in reach and p.span.source == main:
            sym.error(p.span, f"procedure {name!r} is never reached from the match or the "
                      "deal", "call it, or remove it")
    if match is not None and not any(isinstance(s, ast.RunDeal)
                                     for s, _ in walk.statements(match.body)):
        sym.error(match.span, "the match never runs a deal", "add 'run deal' to the match")


def loop_moves(sym: Symbols, body: ast.Block, changes: bool) -> bool:
    """Whether a loop's body can make progress: it holds (here or in a procedure it calls)
    a decision, a chance event or a way out of the loop (a ``break`` of its own, a
    ``return``, an ``end``, a ``run deal``); with ``changes``, any statement that changes
    the game counts too (a ``while`` whose condition may change)."""
    stops = (ast.Choose, ast.Shuffle, ast.Reshuffle, ast.Bury, ast.Pick, ast.Return, ast.EndDeal,
             ast.EndMatch, ast.RunDeal)
    change = (ast.Set, ast.Move, ast.Fill, ast.DealCards)
    seen: set[str] = set()
    # each block with whether it is the body of a procedure the loop calls (its break and
    # return leave the procedure, not the loop); a break inside an inner loop is not ours
    todo = [(body, False)]
    while todo:
        block, called = todo.pop()
        for s, loops in walk.statements(block):
            if isinstance(s, stops) and not (called and isinstance(s, ast.Return)):
                return True
            if isinstance(s, ast.Break) and not loops and not called:
                return True
            if changes and isinstance(s, change):
                return True
            if isinstance(s, ast.CallStmt) and s.name in sym.procs and s.name not in seen:
                if changes:
                    return True
                seen.add(s.name)
                todo.append((sym.procs[s.name].body, True))
    return False


def together_breaks(sym: Symbols, body: ast.Block) -> tuple[str, ast.Stmt] | None:
    """What in the body of a simultaneous decision's alternative (here or in a procedure it
    calls) would stop or leave the reveal, and where: a decision, a chance event, an end, a
    ``run deal``, a ``return``, or a ``break``/``continue`` of no loop of the body's own."""
    stops = {ast.Choose: "a decision", ast.Shuffle: "a shuffle", ast.Reshuffle: "a reshuffle",
             ast.Bury: "a bury", ast.Pick: "a pick", ast.EndDeal: "'end deal'",
             ast.EndMatch: "'end match'", ast.RunDeal: "'run deal'"}
    seen: set[str] = set()
    todo: list[tuple[ast.Block, ast.Stmt | None]] = [(body, None)]
    while todo:
        block, call = todo.pop()
        for s, loops in walk.statements(block):
            what = stops.get(type(s))
            if what is None and call is None:
                if isinstance(s, ast.Return):
                    what = "'return'"
                elif isinstance(s, (ast.Break, ast.Continue)) and not loops:
                    what = "'break'" if isinstance(s, ast.Break) else "'continue'"
            if what is not None:
                return (what if call is None else f"{what} (in the procedure called)",
                        s if call is None else call)
            if isinstance(s, ast.CallStmt) and s.name in sym.procs and s.name not in seen:
                seen.add(s.name)
                todo.append((sym.procs[s.name].body, call or s))
    return None


def table_only(sym: Symbols, e: ast.Expr, what: str) -> None:
    """``e`` is evaluated when the table is set up: it may read options, the player count
    and constants, not variables, zones or the dealer (directly or through definitions)."""
    hit: ast.Name | ast.Call | None = next(
        (n for n in walk.names_read(e, sym.defs)
         if n.id in sym.vars or n.id in sym.zones or n.id in BUILTIN_VARS), None)
    # a seat's memory is the state's too
    hit = hit or next((x for x, _ in walk.through_definitions(e, sym.defs)
                       if isinstance(x, ast.Call) and x.func == "seen_by"), None)
    if hit is not None:
        name = hit.id if isinstance(hit, ast.Name) else hit.func
        sym.error(hit.span, f"{what} is worked out when the table is set up, before any "
                  f"card is dealt, so it cannot read {name!r}",
                  "use options, player_count and constants only")


def end_deal_outside_deal(sym: Symbols, match: ast.MatchDecl | None) -> None:
    """An 'end deal' reached from the match without a deal running is an error."""
    for n, body in _run_outside_deal(sym, match):
        for s, _ in walk.statements(body):
            if isinstance(s, ast.EndDeal):
                sym.error(s.span, f"'end deal' in procedure {n!r}, which the match runs "
                          "outside a deal", "end a deal only from the deal block and "
                          "the procedures it runs")


def results_outside_deal(sym: Symbols, match: ast.MatchDecl | None) -> None:
    """Outside a deal only the match block itself reads and sets result fields (the
    last deal's entry, after its 'run deal'): a procedure the match runs, or a definition
    such a procedure uses, may not."""
    if not sym.results:
        return
    for n, body in _run_outside_deal(sym, match):
        hit = _result_use(sym, body)
        if hit is not None:
            span, verb, field = hit
            sym.error(span, f"procedure {n!r}, which the match runs outside a deal, "
                      f"{verb} the result field {field!r}",
                      "read and set result fields in the deal, or in the match block "
                      "itself after 'run deal'")


def _run_outside_deal(sym: Symbols, match: ast.MatchDecl | None
                      ) -> Iterator[tuple[str, ast.Block]]:
    """Each procedure the match block runs outside a deal (directly or through other
    procedures), once, with its body."""
    if match is None:
        return
    seen: set[str] = set()
    todo = list(_calls_in(match.body))
    while todo:
        n = todo.pop()
        if n in seen or n not in sym.procs:
            continue
        seen.add(n)
        body = sym.procs[n].body
        yield n, body
        todo.extend(_calls_in(body))


def _result_use(sym: Symbols, node: object) -> tuple[ast.Span, str, str] | None:
    """The first read or set of a result field in ``node``, through the definitions it
    calls: (where, "reads" or "sets", the field)."""
    for x, _ in walk.through_definitions(node, sym.defs):
        if isinstance(x, (ast.Set, ast.Pick)) and sym.result_sets.get(pos(x.span)) is not None:
            return x.span, "sets", x.name
        if isinstance(x, ast.Name):
            b = sym.bindings.get(pos(x.span))
            if isinstance(b, BoundVar) and b.name in sym.results:
                return x.span, "reads", b.name
    return None


def _calls_in(b: ast.Block) -> Iterator[str]:
    """The procedures the statements of ``b`` run, in the order written."""
    return (s.name for s, _ in walk.statements(b) if isinstance(s, ast.CallStmt))


def _cycles(calls: Mapping[str, Sequence[tuple[str, ast.Span]]]
            ) -> list[tuple[list[str], ast.Span]]:
    """The cycles of a call graph (name → the names it calls, each with the call's place),
    each once: its names from where the search met it, and the place of the call that
    closes it. Iterative, so no depth of calls can exhaust Python's stack."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    found: list[tuple[list[str], ast.Span]] = []
    seen: set[frozenset[str]] = set()
    for root in sorted(calls):
        if root in state:
            continue
        path = [root]
        state[root] = 1
        todo = [iter(calls[root])]
        while todo:
            step = next(todo[-1], None)
            if step is None:
                todo.pop()
                state[path.pop()] = 2
                continue
            callee, span = step
            if state.get(callee) == 1:
                cycle = path[path.index(callee):]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    found.append((cycle, span))
            elif callee not in state:
                state[callee] = 1
                path.append(callee)
                todo.append(iter(calls[callee]))
    return found
