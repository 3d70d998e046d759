"""The rulebook of a game, built from its checked spec as a :class:`rulespec.book.Book`.

The order is that of a good rule page (pagat's): what the game is; the players and the cards
(the packs and hands of every table size, worked out by dealing them); play, decision by
decision in the order a deal meets them, each with who decides, when, and the choices; the
scoring; the end of the game; the variations (the options); and, for implementers, the
reference: the state, the record vocabulary, the rules as the spec writes them, and the index
of the ambiguities the spec settles. Every block names the spec clause it comes from.

Nothing here knows a game: each sentence is built from the spec's declarations and texts.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import attrs

from rulespec.book.document import (
    Block,
    Book,
    Bullets,
    Code,
    Figure,
    Heading,
    Inline,
    Paragraph,
    Part,
    Table,
    code,
    inline,
    strong,
    to_markdown,
)
from rulespec.book.english import mentioned, say, words
from rulespec.lang import ast, walk
from rulespec.lang.cards import card_sort_key
from rulespec.lang.model import ActionInfo, CheckedSpec, OptionInfo
from rulespec.lang.pretty import pretty_expr, pretty_item
from rulespec.shown import escape_line

__all__ = ["build_book", "clause", "rulebook"]

_PACKAGE = Path(__file__).resolve().parents[1]

# What a zone's visibility means at the table (a zone "visible to all" may hold cards lying
# face down whose identity everyone knows, so "face up" would mislead)
_VIS = {"all": "open: every player may know its cards",
        "owner": "private: only its owner sees its cards",
        "nobody": "hidden: no player sees its cards"}
#: the same, in a player's few words
_SEEN = {"all": "open", "owner": "seen by its owner only", "nobody": "face down"}


def clause(span: ast.Span) -> str:
    """Where a construct is written, as ``file:line``: relative to the package for a shipped
    spec or module (so books are the same on every machine), else the file's name."""
    p = Path(span.source)
    try:
        name = p.resolve().relative_to(_PACKAGE).as_posix()
    except ValueError:
        # a user's file name, any bytes the system allows: its control characters and bytes
        # that are not UTF-8 (lone surrogates) written as escapes, so that the book is text
        name = escape_line(p.name)
    return f"{name}:{span.line}"


def rulebook(spec: CheckedSpec) -> str:
    """Markdown text of the rulebook of ``spec``."""
    return to_markdown(build_book(spec))


@attrs.frozen
class _For:
    """The table a book is for: every size the spec allows, or one; options as given."""

    players: int | None
    options: Mapping[str, object]
    #: the example deal's seed, chosen once per book (example_seed)
    seed: int = 1


def build_book(spec: CheckedSpec, players: int | None = None,
               options: Mapping[str, object] | None = None) -> Book:
    """The rulebook of ``spec`` as a document, ready for any renderer; for one table size and
    some option values if given (a usage error names a size or value the spec refuses)."""
    from rulespec.errors import RulespecError
    from rulespec.loading import game_for, normalise_options

    opts = dict(normalise_options(spec, options or {}))
    sizes = [players] if players is not None else range(spec.min_players, spec.max_players + 1)
    refused: RulespecError | None = None
    for p in sizes:
        try:
            game_for(spec, p, opts, 0)
            break
        except RulespecError as e:  # a table or option value the spec does not offer
            refused = refused or e
    else:
        assert refused is not None
        raise refused
    target = _For(players, opts)
    target = attrs.evolve(target, seed=example_seed(spec, target))
    blocks: list[Block] = []
    for part in (_introduction, _glance, _players_and_cards, _components, _deal_section,
                 _play, _scoring,
                 _tables_section, _game_end, _example, _variations, _glossary, _reference):
        part(spec, target, blocks.append)
    return Book(spec.title, tuple(blocks))


_W = Callable[[Block], None]
_CITE = re.compile(r"\s*\[([A-Z]+-?\d+)\]")


def prose(text: str | None) -> str:
    """A spec's text for the body of the book, on one line, without its ID citations
    (``[NEW-5]``): a player's book names the ambiguities in its variations and its index."""
    if not text:
        return ""
    return _CITE.sub("", " ".join(text.split())).strip()


def cited(text: str | None) -> str:
    """A spec's text for the reference: on one line, its citations in parentheses."""
    if not text:
        return ""
    return _CITE.sub(r" (\1)", " ".join(text.split())).replace(") (", "; ")


def _h(level: int, text: str, anchor: str) -> Heading:
    return Heading(level, inline(text), anchor)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


# ---- introduction ----------------------------------------------------------------------------
def _introduction(spec: CheckedSpec, target: _For, w: _W) -> None:
    """What the game is, who plays and who wins."""
    w(_h(1, "Introduction", "introduction"))
    if spec.doc:
        w(Paragraph(inline(" ".join(spec.doc.split())), None))
    players = (f"{spec.min_players} players" if spec.min_players == spec.max_players
               else f"{spec.min_players} to {spec.max_players} players")
    w(Paragraph(inline(f"For {players}. A match is a series of deals; the player with the "
                       f"{spec.winner} total at the end of the match wins. How long a match "
                       "lasts is agreed beforehand (see ", strong("The end of the game"),
                       ").")))
    if target.players is not None or target.options:
        setting = ", ".join(f"{k} = {_show(v)}" for k, v in target.options.items())
        size = f"{target.players} players" if target.players is not None else "every table"
        w(Paragraph(inline(strong("This book is for:"), " ", size,
                           f", with {setting}" if setting else "", ".")))


# ---- players and cards -----------------------------------------------------------------------
def _show(v: object) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


#: the most table sizes a book works out one by one (each is compiled and played): a spec
#: for 2 to 1,000 players gets its smallest sizes and its largest
BOOK_SIZES = 14


def book_sizes(spec: CheckedSpec, target: _For) -> list[int]:
    """The table sizes the book works out: the book's own, else every size the spec allows,
    or, past BOOK_SIZES of them, the smallest BOOK_SIZES - 1 and the largest."""
    if target.players is not None:
        return [target.players]
    sizes = list(range(spec.min_players, spec.max_players + 1))
    return sizes if len(sizes) <= BOOK_SIZES else sizes[:BOOK_SIZES - 1] + sizes[-1:]


def _tables(spec: CheckedSpec, target: _For) -> Iterator[tuple[int, dict[str, object], object]]:
    """Each table size the spec accepts with its default options, and its first state after
    the first shuffle (the pack in canonical order: which cards are dealt where does not
    matter, only how many)."""
    from rulespec.errors import RulespecError
    from rulespec.loading import game_for

    extra: list[dict[str, object]] = [{}]
    for o in spec.options:
        # a table that only an option opens (a dummy hand, say) gets its own row
        if o.kind == "bool" and o.default is False and o.name not in target.options:
            extra.append({o.name: True})
    seen: set[tuple[int, int]] = set()
    for p in book_sizes(spec, target):
        for opts in extra:
            try:
                st = game_for(spec, p, {**target.options, **opts}, 0).new_initial_state()
            except RulespecError:
                continue
            if opts and (p, st.game.hands) in seen:
                continue  # the option changes nothing at this table size
            seen.add((p, st.game.hands))
            yield p, opts, st


def _deal_counts(spec: CheckedSpec, st: object) -> tuple[int, dict[str, str]]:
    """Cards in the pack, and what the deal block's ``deal`` statements give: N cards to each of
    M hands (worked out from the rules at this table, before any card moves), and what is left
    over."""
    from rulespec.engine.state import State
    from rulespec.errors import RulespecError

    assert isinstance(st, State)
    legal = st.legal_actions()
    if not legal or legal[0].get("chance") != "shuffle":
        return 0, {}
    cards = legal[0]["cards"]
    assert isinstance(cards, list)
    counts: dict[str, str] = {}
    dealt = 0
    for s in walk.descendants(spec.deal.body):
        if not isinstance(s, ast.DealCards) or _reads_locals(spec, (s.count, s.seats)):
            continue  # a count kept in a 'let' is worked out by play, not a table's fact
        try:
            n = st.game.evaluate(s.count, st, {})
            seats = st.game.evaluate(s.seats, st, {})
        except (RulespecError, KeyError, TypeError):
            continue  # a count that depends on the play so far: not a table's fact
        if isinstance(n, int) and isinstance(seats, (list, tuple)):
            counts[f"{s.zone} each"] = str(n)
            counts["hands dealt"] = str(len(seats))
            dealt += n * len(seats)
    if counts:
        counts["left over"] = str(len(cards) - dealt)
    return len(cards), counts


def _reads_locals(spec: CheckedSpec, e: object) -> bool:
    """Whether ``e`` reads a local of its rule (a ``let``, a loop's variable): a name it does
    not bind itself, as a comprehension binds its variable."""
    from rulespec.lang.model import BoundLocal, pos

    own = {n.var for n in walk.descendants(e) if isinstance(n, (ast.Comprehension, ast.GenCall))}
    return any(isinstance(n, ast.Name) and n.id not in own
               and isinstance(spec.resolution.bindings.get(pos(n.span)), BoundLocal)
               for n in walk.descendants(e))


def _players_and_cards(spec: CheckedSpec, target: _For, w: _W) -> None:
    """A table of the packs and what is dealt, for every table size."""
    w(_h(1, "Players and cards", "players-and-cards"))
    rows: list[tuple[Inline, ...]] = []
    zones: list[str] = []
    table = list(_tables(spec, target))
    counted = [(p, opts, _deal_counts(spec, st)) for p, opts, st in table]
    for _, _, (_, counts) in counted:
        zones.extend(z for z in counts if z not in zones)
    for p, opts, (n, counts) in counted:
        setting = ", ".join(f"{k} = {_show(v)}" for k, v in opts.items())
        rows.append((inline(str(p) + (f" ({setting})" if setting else "")), inline(str(n)),
                     *(inline(counts.get(z, "–")) for z in zones)))
    w(Paragraph(inline("What each table size plays with, worked out from the rules with the "
                       "options of this book and every other at its default: the cards in "
                       "play, the cards dealt to each hand, and those left over once the hands "
                       "are dealt (the stock, a card turned up)."), clause(spec.deal.span)))
    w(Table((inline("players"), inline("cards"), *(inline(z) for z in zones)),
            tuple(rows), source=clause(spec.deal.span)))
    sizes = book_sizes(spec, target)
    if target.players is None and len(sizes) < spec.max_players - spec.min_players + 1:
        w(Paragraph(inline(f"Tables of {sizes[-2] + 1} to {sizes[-1] - 1} players are not "
                           "worked out here: ", code("rulespec doc --players N"),
                           " writes the book of one of them."), clause(spec.deal.span)))
    for it in spec.items:
        if isinstance(it, ast.HandsDecl) and it.doc:
            w(Paragraph(inline(prose(it.doc)), clause(it.span)))


def _requires(spec: CheckedSpec, w: _W) -> None:
    """The spec's ``require``s: what every table and setting keeps to (for implementers: a
    player meets them only as settings refused)."""
    if spec.requires:
        w(_h(2, "What every table keeps to", "requires"))
        w(Paragraph(inline("Settings that break one of these are refused before a deal:")))
        w(Bullets(tuple((inline(_cap(r.message.rstrip(".")) + "."), clause(r.span))
                        for r in spec.requires)))


def _components(spec: CheckedSpec, target: _For, w: _W) -> None:
    """Where the cards lie, in the zones' own words, and a picture of the table in play (the
    zones' kinds and visibility, as a table, are in the reference)."""
    w(_h(2, "Where the cards lie", "components"))
    w(Bullets(tuple((inline(strong(_cap(words(z.name))),
                            f" ({'each player' if z.per_player else 'one for the table'}; "
                            f"{_SEEN.get(z.visibility or '', '?')}): ", prose(z.doc)),
                     clause(z.span)) for z in spec.zones)))
    w(Paragraph(inline("Cards are written by rank and suit: A (Ace), K, Q, J, T (ten), 9 "
                       "down to 2, then ♣ clubs, ♦ diamonds, ♥ hearts or ♠ spades; JK is "
                       "the Joker.")))
    fig = _table_figure(spec, target)
    if fig is not None:
        w(fig)


def _zones_table(spec: CheckedSpec, w: _W) -> None:
    """For implementers: each zone's name, kind and visibility."""
    w(_h(2, "Zones", "zones"))
    w(Table((inline("zone"), inline("kind"), inline("who sees it"), inline("what it is")),
            tuple((inline(code(z.name)),
                   inline("one per player" if z.per_player else "shared"),
                   inline(_VIS.get(z.visibility or "", "?")), inline(prose(z.doc)))
                  for z in spec.zones)))


def _table_figure(spec: CheckedSpec, target: _For) -> Figure | None:
    """The table of the example deal just before its most frequent decision is first made
    (the first lead, the first play): every zone as it lies then, seat by seat."""
    import collections
    import random

    from rulespec.book.layout import table_picture
    from rulespec.engine.state import CHANCE, State
    from rulespec.simulate import sample_event

    found = _example_table(spec, target)
    if found is None:
        return None
    _, st = found
    assert isinstance(st, State)
    # the example's own draws, played once to find its most frequent decision, then again
    # to the moment before the first one
    seed = target.seed
    probe, rng = st.clone(), random.Random(seed)
    made: collections.Counter[str] = collections.Counter()
    deals = len(st.deals)
    # bounded as every example is: a deal that never ends is told no further than this
    for _ in range(EXAMPLE_MAX_EVENTS):
        if probe.is_terminal() or len(probe.deals) != deals:
            break
        ev = sample_event(probe.legal_actions(), rng)
        if probe.to_move != CHANCE:
            made[str(ev["action"])] += 1
        probe.apply(ev)
    if not made:
        return None
    most = made.most_common(1)[0][0]
    rng = random.Random(seed)
    for _ in range(EXAMPLE_MAX_EVENTS):
        ev = sample_event(st.legal_actions(), rng)
        if st.to_move != CHANCE and ev["action"] == most:
            break
        st.apply(ev)
    else:  # pragma: no cover - the same draws reach the decision the probe met
        return None
    moment = f"just before the first {words(most)} of the example deal"
    d = table_picture(spec, st.z, st.game.hands, st.game.dealer,
                      f"{spec.title}: the table {moment}", moment)
    return Figure(d.svg, d.alt, inline(f"The table {moment}: where the cards lie, seat by "
                                       "seat, with the shared zones in the middle."))


# ---- play ------------------------------------------------------------------------------------
@attrs.frozen
class _Met:
    """A decision as a deal meets it: the alternative, who decides, and the loops, conditions
    and procedures around it (outermost first)."""

    alt: ast.Alternative
    seat: ast.Expr
    around: tuple[str, ...]
    options: tuple[str, ...]
    #: the options of the conditions around the decision (not of its own guard)
    enclosing: tuple[str, ...] = ()


def decisions_met(spec: CheckedSpec, target: _For) -> dict[str, frozenset[int]]:
    """The decisions met at this book's settings (every other option at its default): for
    each action, the table sizes at which DEFAULT_DEALS random deals made it. A decision
    that the rules put under an option but that these deals make (drawing, which only the
    draw limit shapes; naming trumps at a table with no card to turn up) is no variation."""
    import random

    from rulespec.engine.state import CHANCE, State
    from rulespec.simulate import sample_event

    memo = ("decisions_met", repr((target.players, sorted(target.options.items()))))
    known = spec.worked_out.get(memo)
    if isinstance(known, dict):
        return known
    met: dict[str, set[int]] = {}
    for p, opts, start in _tables(spec, target):
        if opts:
            continue  # a table that an option opens is a variation's
        assert isinstance(start, State)
        for seed in range(DEFAULT_DEALS):
            st, rng, events = start.clone(), random.Random(seed), 0
            while not st.is_terminal() and not st.deals and events < EXAMPLE_MAX_EVENTS:
                ev = sample_event(st.legal_actions(), rng)
                if st.to_move != CHANCE:
                    met.setdefault(str(ev["action"]), set()).add(p)
                st.apply(ev)
                events += 1
    out = {a: frozenset(ps) for a, ps in met.items()}
    spec.worked_out[memo] = out
    return out


#: random deals per table size that decisions_met plays
DEFAULT_DEALS = 6


def _only(spec: CheckedSpec, target: _For, action: str, optional: bool) -> str:
    """When a decision is offered, as the book tags it: "" when these settings offer it at
    every table; "by default only with 2 players" at some; "only under some options" when
    the rules put it under an option and no deal at these settings makes it."""
    sizes = sorted({p for p, opts, _ in _tables(spec, target) if not opts})
    at = sorted(decisions_met(spec, target).get(action, frozenset()))
    if at and at != sizes:
        return "by default only with " + _or_list([str(n) for n in at]) + " players"
    if not at and optional:
        return "only under some options"
    return ""


def _or_list(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


def _option_names(spec: CheckedSpec, e: object) -> set[str]:
    """The options ``e`` reads, directly or through the definitions it calls."""
    names = set(spec.option_names)
    defs = {d.name: d for d in spec.defs}
    out: set[str] = set()
    seen: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, ast.Name) and x.id in names:
            out.add(x.id)
        if isinstance(x, (ast.Call, ast.GenCall)) and x.func in defs and x.func not in seen:
            seen.add(x.func)
            walk(defs[x.func].body)
        cls = type(x)
        if attrs.has(cls) and not isinstance(x, ast.Span):
            for f in attrs.fields(cls):
                walk(getattr(x, f.name))
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
    walk(e)
    return out


def _guard_options(spec: CheckedSpec, guard: ast.Expr | None) -> set[str]:
    """The options a guard tests itself, in its conjuncts (``stake_mode != free and ...``): an
    alternative whose guard names one exists only under some of its values. Options read
    deep inside the definitions a guard calls shape the choices; they do not make the
    alternative optional."""
    return {x.id for c in _option_conjuncts(spec, guard) for x in walk.descendants(c)
            if isinstance(x, ast.Name) and x.id in spec.option_names}


def _option_conjuncts(spec: CheckedSpec, guard: ast.Expr | None) -> list[ast.Expr]:
    """The conjuncts of a guard that read options and constants alone: each is true or false
    for a whole match, whatever the state."""
    if guard is None:
        return []
    if isinstance(guard, ast.And):
        return _option_conjuncts(spec, guard.left) + _option_conjuncts(spec, guard.right)
    if isinstance(guard, ast.Cited):
        return _option_conjuncts(spec, guard.expr)
    from rulespec.lang.model import BoundConstant, BoundEnumValue, BoundOption, pos

    # a conjunct that reads the state as well (``draws < max_draws``) shapes when the choice
    # is there; only one that reads options and constants alone can rule it out for good
    nodes = list(walk.descendants(guard))
    if any(isinstance(y, (ast.Call, ast.GenCall, ast.Index, ast.Comprehension)) for y in nodes):
        return []
    bound = [spec.resolution.bindings.get(pos(x.span)) for x in nodes
             if isinstance(x, ast.Name)]
    if not bound or not all(isinstance(b, (BoundOption, BoundConstant, BoundEnumValue))
                            for b in bound):
        return []
    return [guard]


def _off_here(spec: CheckedSpec, target: _For, alt: ast.Alternative) -> bool:
    """Whether an alternative's guard rules it out at this book's settings (every other option
    at its default): one of its option conjuncts is false there."""
    from rulespec.engine.state import State

    found = _example_table(spec, target)
    if found is None:
        return False
    _, st = found
    assert isinstance(st, State)
    return any(st.game.evaluate(c, st, {}) is False for c in _option_conjuncts(spec, alt.guard))


def _walk_play(spec: CheckedSpec) -> list[_Met]:
    """Every alternative in the order a deal reaches it: the deal block from the top, each
    procedure where it is first run, then the match block."""
    procs = {p.name: p for p in spec.procs}
    seen: set[str] = set()
    out: list[_Met] = []
    # a procedure run from several places is described by its name, not by the conditions
    # around the first place that runs it
    sites: dict[str, int] = {}
    for node in walk.descendants((spec.deal, spec.match, spec.procs)):
        if isinstance(node, ast.CallStmt):
            sites[node.name] = sites.get(node.name, 0) + 1
    # the options every place that runs a procedure tests around it (its own body's ifs)
    common: dict[str, frozenset[str]] = {}

    def note_sites(b: ast.Block, opts: frozenset[str]) -> None:
        for s in b.stmts:
            if isinstance(s, ast.CallStmt):
                common[s.name] = common.get(s.name, opts) & opts
            if isinstance(s, ast.If):
                o = opts | frozenset(_option_names(spec, s.cond))
                note_sites(s.then, o)
                if s.else_ is not None:
                    note_sites(s.else_ if isinstance(s.else_, ast.Block)
                               else ast.Block((s.else_,)), o)
                continue
            for f in attrs.fields(type(s)):
                v = getattr(s, f.name)
                if isinstance(v, ast.Block):
                    note_sites(v, opts)
            if isinstance(s, ast.Choose):
                for alt in s.alternatives:
                    note_sites(alt.body, opts)

    for body in (spec.deal.body, spec.match.body, *(pr.body for pr in spec.procs)):
        note_sites(body, frozenset())

    def visit(b: ast.Block, around: tuple[str, ...], opts: frozenset[str]) -> None:
        for s in b.stmts:
            stmt(s, around, opts)

    def stmt(s: ast.Stmt, around: tuple[str, ...], opts: frozenset[str]) -> None:
        if isinstance(s, ast.CallStmt) and s.name in procs and s.name not in seen:
            seen.add(s.name)
            if sites.get(s.name, 0) > 1:
                loops = tuple(a for a in around if not a.startswith(("when ", "unless ")))
                visit(procs[s.name].body, (*loops, f"in {words(s.name)}"),
                     common.get(s.name, frozenset()))
            else:
                visit(procs[s.name].body, around, opts)
        elif isinstance(s, ast.Choose):
            for alt in s.alternatives:
                guard = _guard_options(spec, alt.guard)
                out.append(_Met(alt, s.seat, around, tuple(sorted(opts | guard)),
                                tuple(sorted(opts))))
                visit(alt.body, around, opts)
        elif isinstance(s, ast.If):
            cond = say(s.cond, spec)
            o = frozenset(_option_names(spec, s.cond))
            visit(s.then, (*around, f"when {cond}"), opts | o)
            if isinstance(s.else_, ast.Block):
                visit(s.else_, (*around, f"unless {cond}"), opts | o)
            elif isinstance(s.else_, ast.If):
                stmt(s.else_, (*around, f"unless {cond}"), opts | o)
        elif isinstance(s, ast.For):
            such = f" such that {say(s.cond, spec)}" if s.cond is not None else ""
            visit(s.body, (*around, f"for each {s.var} in {say(s.source, spec)}{such}"), opts)
        elif isinstance(s, ast.Repeat):
            visit(s.body, (*around, f"{say(s.count, spec)} times over"), opts)
        elif isinstance(s, (ast.Loop, ast.While)):
            again = "again and again"
            visit(s.body, around if again in around else (*around, again), opts)
        elif isinstance(s, ast.Step):
            visit(s.body, around, opts)

    visit(spec.deal.body, (), frozenset())
    visit(spec.match.body, ("between deals",), frozenset())
    return out


def _diagram(spec: CheckedSpec) -> Figure | None:
    try:
        from rulespec.book.diagram import phase_diagram
    except ImportError:  # the diagram is optional while it is being built
        return None
    d = phase_diagram(spec)
    return Figure(d.svg, d.alt, inline("The phases of a deal and the decisions in them."))


def _play(spec: CheckedSpec, target: _For, w: _W) -> None:
    """Every decision, in the order a deal meets it, in words."""
    w(_h(1, "Play", "play"))
    fig = _diagram(spec)
    if fig is not None:
        w(fig)
    for pr in spec.procs:
        steps = _steps_list(spec, pr.body, True)
        if steps is None:
            continue
        w(Heading(2, inline(_cap(words(pr.name))), f"steps-{pr.name}"))
        if pr.doc:
            w(Paragraph(inline(prose(pr.doc)), clause(pr.span)))
        w(steps)
    w(Paragraph(inline("The decisions of a deal, in the order the deal meets them. Everything "
                       "else (dealing, moving cards, keeping count) follows from the rules "
                       "and is done for the players.")))
    by_action: dict[str, list[_Met]] = {}
    for m in _walk_play(spec):
        by_action.setdefault(m.alt.action, []).append(m)
    for action, mets in by_action.items():
        w(Heading(2, inline("Decision: ", code(action)), f"decision-{action}"))
        for m in mets:
            w(Paragraph(_decision_text(spec, target, m), clause(m.alt.span)))
        # the definitions a choice rests on, for a choice the spec gives no words of its own
        # (the spec's text for it already says what they mean)
        used = [d for m in mets if not m.alt.doc
                for d in mentioned((m.alt.generators, m.alt.guard), spec)]
        notes = [(inline(strong(words(d.name)), ": ", prose(d.doc)), clause(d.span))
                 for i, d in enumerate(used) if d.doc and d not in used[:i]]
        if notes:
            w(Paragraph(inline("Where:")))
            w(Bullets(tuple(notes)))


def _decision_text(spec: CheckedSpec, target: _For, m: _Met) -> Inline:
    """One alternative for a player: the spec's words for it (or, without any, who decides
    and the choices as the rules define them), and whether it exists only under options or
    at some table sizes."""
    parts: list[Part] = [_cap(prose(m.alt.doc))] if m.alt.doc else list(_precise(spec, m))
    when = _only(spec, target, m.alt.action, bool(m.options))
    if _off_here(spec, target, m.alt) and not when:
        parts.append(" It is a variation: these rules do not offer it (see Variations).")
    elif when.startswith("only under") and m.options:
        parts.append(" It is offered only under some settings of " +
                     ", ".join(words(o) for o in m.options) + " (see Variations).")
    elif when:
        parts.append(f" It is offered {when}.")
    return inline(*parts)


def _precise(spec: CheckedSpec, m: _Met) -> Inline:
    """One alternative exactly: who decides, in which loops and conditions, the choices and
    the guard, in words (the reference's account; a player reads the spec's text)."""
    loop_vars = {a.split(" ")[2] for a in m.around if a.startswith("for each ")}
    seat = m.seat.expr if isinstance(m.seat, ast.Cited) else m.seat
    known = {v.name for v in spec.vars} | set(spec.option_names)
    if isinstance(seat, ast.Name) and seat.id in loop_vars:
        who = "each player in turn"
    elif isinstance(seat, ast.Name) and seat.id not in known and seat.id != "dealer":
        who = f"the player {seat.id}"  # a procedure's parameter: the seat it is run for
    else:
        who = say(seat, spec)
    parts: list[Part] = [code(m.alt.action), ": ", _cap(who), " decides"]
    if m.around:
        parts.append(" (" + "; ".join(m.around) + ")")
    gens = [f"{g.var}, {say(g.source, spec)}" for g in m.alt.generators]
    if gens:
        parts.append(", with one choice for each " + "; and each ".join(gens))
        if m.alt.guard is not None:
            parts.append(", such that " + say(m.alt.guard, spec))
    elif m.alt.guard is not None:
        parts.append(", offered only when " + say(m.alt.guard, spec))
    parts.append(".")
    return inline(*parts)


# ---- scoring and the end -----------------------------------------------------------------------
def _end_deals(spec: CheckedSpec) -> list[ast.EndDeal]:
    out: list[ast.EndDeal] = []

    def walk(x: object) -> None:
        if isinstance(x, ast.EndDeal):
            out.append(x)
        cls = type(x)
        if attrs.has(cls) and not isinstance(x, (ast.Span, ast.EndDeal)):
            for f in attrs.fields(cls):
                walk(getattr(x, f.name))
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
    walk(spec.deal)
    for p in spec.procs:
        walk(p)
    return out


def _scoring(spec: CheckedSpec, target: _For, w: _W) -> None:
    """How a deal is scored: the scoring definitions, with their texts and formulas."""
    w(_h(1, "Scoring", "scoring"))
    defs = {d.name: d for d in spec.defs}
    done: set[str] = set()
    # the ordinary end first, then deals that end as a flag says (blocked, abandoned...)
    for e in sorted(_end_deals(spec), key=lambda x: x.flag is not None):
        d = defs.get(e.scoring)
        if d is None or d.name in done:
            continue
        done.add(d.name)
        how = f"When a deal is {words(e.flag)}: " if e.flag else ""
        w(Paragraph(inline(how + _cap(prose(d.doc))), clause(e.span)))
        notes = [(inline(strong(words(x.name)), ": ", prose(x.doc)), clause(x.span))
                 for x in mentioned(d.body, spec) if x.doc]
        if notes:
            w(Bullets(tuple(notes)))
    if spec.results:
        w(Paragraph(inline("Besides the scores, each deal's result records:")))
        w(Bullets(tuple((inline(code(r.name), " (one per player)" if r.per_player else "",
                                ": ", prose(r.doc)), clause(r.span)) for r in spec.results)))


def _game_end(spec: CheckedSpec, target: _For, w: _W) -> None:
    """The match: how long it lasts and who wins, in the spec's words and its options'."""
    w(_h(1, "The end of the game", "the-end-of-the-game"))
    texts = [(prose(spec.match.doc), clause(spec.match.span))] if spec.match.doc else []
    if not texts:  # the match block's text says it all when it is there
        texts = [(prose(it.doc), clause(it.span)) for it in spec.items
                 if isinstance(it, ast.GameEndDecl) and it.doc]
    for text, src in texts:
        w(Paragraph(inline(text), src))
    if not texts:
        w(Paragraph(inline(f"When the match ends, the player with the {spec.winner} total "
                           "wins.")))
    steps = _steps_list(spec, spec.match.body, False)
    if steps is not None:
        w(steps)
    length = [o for o in spec.options if o.name in ("deals", "target")]
    if length:
        w(Bullets(tuple((inline(strong(words(o.name)), " (default ", code(_show(o.default)),
                                "): ", prose(o.doc)), clause(o.span)) for o in length)))


def _no_doc(it: ast.Item) -> ast.Item:
    """An item without its text, for a code block whose text the book prints beside it."""
    if isinstance(it, (ast.DefDecl, ast.HookDecl, ast.ProcDecl, ast.MatchDecl, ast.DealDecl)):
        return attrs.evolve(it, doc=None)
    return it


def steps_of(body: object) -> list[ast.Step]:
    """The ``step``s of a block in source order, at any depth (inside ifs, loops and
    decisions), but not those inside another step: they are that step's own."""
    out: list[ast.Step] = []

    def walk(x: object) -> None:
        if isinstance(x, ast.Step):
            out.append(x)
        elif isinstance(x, tuple):
            for y in x:
                walk(y)
        elif attrs.has(cls := type(x)) and not isinstance(x, (ast.Span, *_EXPR_TYPES)):
            for f in attrs.fields(cls):
                walk(getattr(x, f.name))

    walk(body)
    return out


#: what steps_of need not look inside: no step is in an expression
_EXPR_TYPES: tuple[type, ...] = (ast.IntLit, ast.StrLit, ast.Name, ast.Call, ast.GenCall,
                                 ast.Comprehension, ast.Index, ast.ListLit, ast.BinOp,
                                 ast.Compare, ast.And, ast.Or, ast.Not, ast.Neg, ast.IfExpr,
                                 ast.Cited, ast.OptionArg)


def _step_text(spec: CheckedSpec, s: ast.Step, in_deal: bool) -> Inline:
    """One step for a player: its title, its text (or what its body does, in words), and
    its own steps after it, lettered."""
    from rulespec.book.diagram import block_in_words

    said = prose(s.doc) if s.doc else block_in_words(spec, s.body, in_deal)
    parts: list[Part] = [strong(s.title.rstrip(".") + "."),
                         " " + _cap(said) + ("" if said.endswith(".") else ".") if said else ""]
    for i, sub in enumerate(steps_of(s.body.stmts)):
        parts += [f" ({chr(ord('a') + i % 26)}) ", *_step_text(spec, sub, in_deal)]
    return inline(*parts)


def _steps_list(spec: CheckedSpec, body: ast.Block, in_deal: bool) -> Bullets | None:
    """A block's steps as a numbered list, each naming its clause; None without steps."""
    steps = steps_of(body.stmts)
    if not steps:
        return None
    return Bullets(tuple((_step_text(spec, s, in_deal), clause(s.span)) for s in steps),
                   ordered=True)


def _deal_section(spec: CheckedSpec, target: _For, w: _W) -> None:
    """The deal: what happens before the first decision, in the spec's words, step by step
    where the deal is written in steps."""
    w(_h(1, "The deal", "the-deal"))
    if spec.deal.doc:
        w(Paragraph(inline(prose(spec.deal.doc)), clause(spec.deal.span)))
    steps = _steps_list(spec, spec.deal.body, True)
    if steps is not None:
        w(steps)
    w(Paragraph(inline("How many cards each table size deals is in ", strong("Players and "
                       "cards"), " above.")))


def _cell_runs(v: object) -> Inline:
    """A computed value as the book shows it: cards and suits with their symbols."""
    from rulespec.book.document import Run

    if isinstance(v, (list, tuple)):
        parts: list[Part] = []
        for i, x in enumerate(v):
            parts += [" " if i else "", *_cell_runs(x)]
        return inline(*parts)
    if isinstance(v, str) and (v == "JK" or len(v) == 2 and v[1] in "CDHS"):
        return (Run("card", v),)
    if isinstance(v, str) and v in ("C", "D", "H", "S"):
        return (Run("suit", v),)
    return inline("–" if v is None else _show(v))


def _table_rows(tb: ast.TableDecl, st: object) -> tuple[tuple[Inline, ...], ...]:
    from rulespec.engine.state import State

    assert isinstance(st, State)
    rows = st.game.evaluate(tb.source, st, {})
    assert isinstance(rows, (list, tuple))
    return tuple(tuple(_cell_runs(st.game.evaluate(c.value, st, {tb.var: r}))
                       for c in tb.columns) for r in rows)


def _tables_section(spec: CheckedSpec, target: _For, w: _W) -> None:
    """The tables the spec declares, worked out at each table size: one table when every size
    gives the same, else one per size."""
    if not spec.tables:
        return
    w(_h(1, "Tables", "tables"))
    states = [(p, opts, st) for p, opts, st in _tables(spec, target)]
    for tb in spec.tables:
        w(Heading(2, inline(tb.title), f"table-{tb.name}"))
        if tb.doc:
            w(Paragraph(inline(prose(tb.doc)), clause(tb.span)))
        head = tuple(inline(c.heading) for c in tb.columns)
        by_size: list[tuple[str, tuple[tuple[Inline, ...], ...]]] = []
        for p, opts, st in states:
            setting = ", ".join(f"{k} = {_show(v)}" for k, v in opts.items())
            label = f"{p} players" + (f" ({setting})" if setting else "")
            by_size.append((label, _table_rows(tb, st)))
        if len({rows for _, rows in by_size}) == 1:
            w(Table(head, by_size[0][1], source=clause(tb.span)))
            continue
        for label, rows in by_size:
            w(Table(head, rows, caption=inline(label + ":"), source=clause(tb.span)))


def _glossary(spec: CheckedSpec, target: _For, w: _W) -> None:
    """The words of the game, as the spec explains them, in alphabetical order."""
    if not spec.terms:
        return
    w(_h(1, "Glossary", "glossary"))
    w(Bullets(tuple((inline(strong(x.word), ": ", prose(x.meaning)), clause(x.span))
                    for x in sorted(spec.terms, key=lambda x: x.word.lower()))))


def _glance(spec: CheckedSpec, target: _For, w: _W) -> None:
    """A quick reference: the decisions in order, how a deal is scored, how the match ends."""
    w(_h(1, "At a glance", "at-a-glance"))
    items: list[tuple[Inline, str | None]] = []
    by_action: dict[str, list[_Met]] = {}
    for m in _walk_play(spec):
        by_action.setdefault(m.alt.action, []).append(m)
    for action, mets in by_action.items():
        # optional: under a condition on options, or one alternative whose guard tests one
        # (two alternatives guarded by opposite values of an option are always there)
        optional = all(m.enclosing for m in mets) or (len(mets) == 1 and bool(mets[0].options))
        when = _only(spec, target, action, optional)
        only = f" ({when}, see Variations)" if when.startswith("only under") else \
            f" ({when})" if when else ""
        # the first sentence of each alternative's text: alternatives with different texts
        # are different moves (the declarer's and the others'), each on its own line
        firsts = list(dict.fromkeys(
            (prose(m.alt.doc).split(". ")[0].rstrip("."), _off_here(spec, target, m.alt))
            for m in mets if m.alt.doc)) or [("", False)]
        for f, off in firsts:
            tag = " (a variation, see Variations)" if off and not only else only
            items.append((inline(code(action), tag, ": " + f + "." if f else ""),
                          clause(mets[0].alt.span)))
    if items:
        w(Paragraph(inline(strong("The decisions of a deal, in order:"))))
        w(Bullets(tuple(items), ordered=True))
    defs = {d.name: d for d in spec.defs}
    for e in _end_deals(spec):
        d = defs.get(e.scoring)
        if e.flag is None and d is not None and d.doc:
            w(Paragraph(inline(strong("Scoring:"), " ", prose(d.doc)), clause(d.span)))
            break
    w(Paragraph(inline(strong("Winning:"), f" the {spec.winner} total when the match ends.")))


# ---- a worked example --------------------------------------------------------------------------
#: the seed of the book's example deal: fixed, so the committed books stay byte-stable
EXAMPLE_SEED = 1
#: lines of the example told before it is cut short (a long deal is played to its end all the
#: same, for its result)
EXAMPLE_LINES = 60
#: how many seeds, from EXAMPLE_SEED on, the example is chosen from (example_seed), and the
#: longest deal considered
EXAMPLE_TRIES = 40
EXAMPLE_MAX_EVENTS = 2000


def example_seed(spec: CheckedSpec, target: _For) -> int:
    """The seed of the example deal: of the first EXAMPLE_TRIES seeds, the one whose deal
    ends as a deal normally does (no flag such as blocked or abandoned), shows the most kinds
    of decision, then (where a score adds up several terms) the most terms at work, a success
    bonus paid, say, and is the shortest, so that it can be told whole; the smallest such
    seed."""
    import random

    from rulespec.engine.state import CHANCE, State
    from rulespec.simulate import sample_event

    memo = ("example_seed", repr((target.players, sorted(target.options.items()))))
    known = spec.worked_out.get(memo)
    if isinstance(known, int):
        return known
    found = _example_table(spec, target)
    if found is None:
        return EXAMPLE_SEED
    _, start = found
    assert isinstance(start, State)
    flags = {e.flag for e in _end_deals(spec) if e.flag}
    best: tuple[tuple[int, int, int, int], int] | None = None
    for seed in range(EXAMPLE_SEED, EXAMPLE_SEED + EXAMPLE_TRIES):
        st, rng = start.clone(), random.Random(seed)
        ended: list[State] = []
        st.on_deal_end = lambda s, into=ended: into.append(s.clone())
        kinds: set[str] = set()
        events = 0
        while not st.is_terminal() and not st.deals and events < EXAMPLE_MAX_EVENTS:
            ev = sample_event(st.legal_actions(), rng)
            if st.to_move != CHANCE:
                kinds.add(str(ev["action"]))
            st.apply(ev)
            events += 1
        if not st.deals:
            continue  # longer than any example should be
        flagged = any(st.deals[0].get(f) for f in flags)
        key = (int(flagged), -len(kinds), -_terms_at_work(spec, ended[-1]) if ended else 0,
               events)
        if best is None or key < best[0]:
            best = (key, seed)
    seed = best[1] if best is not None else EXAMPLE_SEED
    spec.worked_out[memo] = seed
    return seed


def _terms_at_work(spec: CheckedSpec, st: object) -> int:
    """How many terms of the scoring definition are not 0 for some player in ``st``, a state
    at the end of a deal: 0 when the scoring is not a sum of terms."""
    from rulespec.engine.state import State

    assert isinstance(st, State)
    d = spec_scoring(spec, st)
    if d is None:
        return 0
    param = d.params[0].name
    return sum(1 for _, e in _terms(d.body)
               if any(st.game.evaluate(e, st, {param: q}) not in (0, None, False)
                      for q in range(st.game.players)))


def _example_table(spec: CheckedSpec, target: _For) -> tuple[int, object] | None:
    """The table of the example: the book's own size, else four players (or the nearest size
    the spec allows), with the book's options; and its initial state."""
    from rulespec.errors import RulespecError
    from rulespec.loading import game_for

    sizes = ([target.players] if target.players is not None else
             sorted(range(spec.min_players, spec.max_players + 1), key=lambda n: abs(n - 4)))
    for n in sizes:
        try:
            return n, game_for(spec, n, dict(target.options), 0).new_initial_state()
        except RulespecError:
            continue
    return None


def _deal_lines(spec: CheckedSpec, st: object, rng: object) -> list[tuple[Inline, str | None]]:
    """One deal played by seeded random choices, told event by event: the deal, then each run
    of decisions of one kind on a line of its own."""
    import random

    from rulespec.engine.state import State
    from rulespec.simulate import sample_event

    assert isinstance(st, State) and isinstance(rng, random.Random)
    actions = {a.name: a for a in spec.actions}
    lines: list[tuple[Inline, str | None]] = []
    run: list[Part] = []
    run_action: str | None = None
    run_events = 0
    deals = len(st.deals)
    # each player's counters (taken, stake...): one that changes for a single player in a
    # line says what the line did (who won the trick), in the state's own words
    counters = [v.name for v in spec.vars if v.per_player and
                isinstance(v.type, ast.TypeName) and v.type.name == "int"]

    def counts() -> dict[str, tuple[object, ...]]:
        return {n: tuple(st.v[n]) for n in counters}

    run_start = counts()

    def flush(now: dict[str, tuple[object, ...]]) -> None:
        nonlocal run, run_action, run_events
        if run:
            for n in counters:
                seats = [q for q, (a, b) in enumerate(zip(run_start[n], now[n], strict=True))
                         if a != b]
                if len(seats) == 1:
                    run.append(f"; then {words(n)} of seat {seats[0]}: {now[n][seats[0]]}")
            info = actions.get(run_action or "")
            lines.append((inline(*run), clause(info.span) if info else None))
        run, run_action, run_events = [], None, 0

    told = 0
    held = [name for name, per in st.game.zone_kinds if per]
    while not st.is_terminal() and len(st.deals) == deals:
        if told >= EXAMPLE_MAX_EVENTS:
            break  # a deal random play does not finish: told this far, and said so below
        ev = sample_event(st.legal_actions(), rng)
        before = counts()
        had = {name: [list(z) for z in st.z[name]] for name in held}
        st.apply(ev)
        told += 1
        if len(lines) >= EXAMPLE_LINES:
            continue  # played to the end for the result, but no longer told
        if "chance" in ev:
            flush(before)
            lines.append((_dealt(st, ev, hands=told == 1), clause(spec.deal.span)))
            continue
        action = str(ev["action"])
        # a line per round: as many events of one kind as there are hands (a trick, say)
        if action != run_action or run_events == st.game.hands:
            flush(before)
            run_action, run_events, run_start = action, 0, before
            run = [code(action), ": "]
        else:
            run.append("; ")
        run_events += 1
        run += [f"seat {ev['seat']}", *_fields(ev), *_gained(st, had)]
    # once the match is over the counters are as the deal left them; when another deal has
    # started, it may have set them back: what the last line did is then not told
    flush(counts() if st.is_terminal() or len(st.deals) == deals else run_start)
    if not st.is_terminal() and len(st.deals) == deals:
        lines.append((inline(f"... and so on: the deal had not ended after {told} events, and "
                             "is not played further here."), None))
    elif len(lines) >= EXAMPLE_LINES:
        lines.append((inline(f"... and so on to the end of the deal ({told} events in all)."),
                      None))
    return lines


def _gained(st: object, had: Mapping[str, list[list[str]]]) -> list[Part]:
    """The cards an event brought into each player's zones (a draw, penalty cards, a trick
    won), told after it: "(to seat 2's hand: 3♥)"."""
    import collections

    from rulespec.book.document import Run
    from rulespec.engine.state import State

    assert isinstance(st, State)
    out: list[Part] = []
    for name, before in had.items():
        now = st.z[name]
        if len(now) != len(before):
            continue
        for q, (a, b) in enumerate(zip(before, now, strict=True)):
            new = collections.Counter(b) - collections.Counter(a)
            if not new:
                continue
            out.append(f" (to seat {q}'s {words(name)}:")
            for c in sorted(new.elements(), key=card_sort_key):
                out += [" ", Run("card", c)]
            out.append(")")
    return out


def _fields(ev: dict[str, object]) -> list[Part]:
    """An event's fields in words: cards with their suits, lists joined."""
    from rulespec.book.document import Run

    out: list[Part] = []
    first = True
    for k, v in sorted(ev.items()):
        if k in ("seat", "action"):
            continue
        vals = v if isinstance(v, list) else [v]
        # one field is its value alone ("seat 2 7♠"); several are named, "expose 3 4 5,
        # pile yes"
        out.append((" " if first else ", ") + (f"{words(k)} " if len(ev) > 3 else ""))
        first = False
        if not vals:
            out.append("none")
        for i, x in enumerate(vals):
            if i:
                out.append(" ")
            if isinstance(x, str) and len(x) == 2 and x[1] in "CDHS" or x == "JK":
                out.append(Run("card", str(x)))
            elif isinstance(x, str) and x in ("C", "D", "H", "S"):
                out.append(Run("suit", x))
            elif isinstance(x, bool):
                out.append("yes" if x else "no")
            else:
                out.append(_show(x))
    return out


def _dealt(st: object, ev: dict[str, object], hands: bool) -> Inline:
    """A chance event told as what it did: each hand's cards (at the deal, ``hands``), and what
    lies elsewhere."""
    from rulespec.book.document import Run
    from rulespec.engine.state import State

    assert isinstance(st, State)
    parts: list[Part] = [f"{_cap(str(ev['chance']))}. "]
    for name, z in st.z.items():
        if z and isinstance(z[0], list):
            for i, h in enumerate(z if hands else ()):
                if h:
                    parts.append(f"{name} of seat {i}:")
                    for c in sorted(h, key=card_sort_key):
                        parts += [" ", Run("card", c)]
                    parts.append(". ")
        elif z and len(z) <= 3:
            parts.append(f"{name}:")
            for c in z:
                parts += [" ", Run("card", c)]
            parts.append(". ")
        elif z:
            parts.append(f"{name}: {len(z)} cards. ")
    return inline(*parts)


def _example(spec: CheckedSpec, target: _For, w: _W) -> None:
    """A seeded deal played by the interpreter and told step by step, so that it can never
    disagree with the rules."""
    import random

    from rulespec.engine.state import State

    found = _example_table(spec, target)
    if found is None:
        return
    n, st = found
    assert isinstance(st, State)
    w(_h(1, "An example deal", "example"))
    seed = target.seed
    w(Paragraph(inline(f"A deal at a table of {n}, seat 0 dealing, every choice drawn at "
                       f"random (seed {seed}, the deal of the first {EXAMPLE_TRIES} seeds "
                       "that ends as deals usually do, with the most kinds of decision, "
                       "in the fewest moves), played by the rules of this book. Each line is a "
                       "run of decisions of one kind, one round of the table at most (a "
                       "trick, say), in the order they were made, with the cards each one "
                       "brought to a player.")))
    ended: list[State] = []
    st.on_deal_end = lambda s: ended.append(s.clone())
    lines = _deal_lines(spec, st, random.Random(seed))
    w(Bullets(tuple(lines), ordered=True))
    if ended and spec_scoring(spec, ended[-1]) is not None:
        _score_terms(spec, ended[-1], n, w)
    if st.deals:
        entry = st.deals[-1]
        head = [inline("seat"), inline("score")]
        extra = [k for k, v in entry.items() if k != "scores" and isinstance(v, list)]
        rows = []
        for q in range(n):
            cells = [inline(str(q)), inline(str(entry["scores"][q]))]
            cells += [inline(str(entry[k][q])) for k in extra]
            rows.append(tuple(cells))
        w(Table((*head, *(inline(code(k)) for k in extra)), tuple(rows),
                caption=inline("The deal's result:")))
        shared = [(k, v) for k, v in entry.items() if k != "scores" and not isinstance(v, list)]
        if shared:
            w(Paragraph(inline(*[f"{k}: {_show(v)}. " for k, v in shared])))
        # what each field of the result means, in the spec's words
        docs = {r.name: r for r in spec.results if r.doc}
        told = [(inline(code(k), ": ", prose(docs[k].doc)), clause(docs[k].span))
                for k in entry if k in docs]
        if told:
            w(Bullets(tuple(told)))


def _terms(e: ast.Expr) -> list[tuple[str, ast.Expr]]:
    """The terms of a sum, each with its sign: ``a + b - c`` is ``+a``, ``+b``, ``-c``."""
    if isinstance(e, ast.Cited):
        return _terms(e.expr)
    if isinstance(e, ast.BinOp) and e.op in ("+", "-"):
        right = _terms(e.right) if e.op == "+" else [("-", e.right)]
        return _terms(e.left) + right
    return [("+", e)]


def spec_scoring(spec: CheckedSpec, st: object) -> ast.DefDecl | None:
    """The definition that scored the deal ``st`` has just ended (None for a flagged deal or a
    scoring with one term only, which a table would not explain)."""
    from rulespec.engine.state import State

    assert isinstance(st, State)
    defs = {d.name: d for d in spec.defs}
    for e in _end_deals(spec):
        d = defs.get(e.scoring)
        if e.flag is None and d is not None and len(d.params) == 1 and len(_terms(d.body)) > 1:
            return d
    return None


def _term_label(spec: CheckedSpec, e: ast.Expr, param: str) -> str:
    """A term of a player's score in a table heading: a definition or a per-player value of
    the player by its name ("success bonus", "taken"), a product of them with its sign
    ("multiplier × suit cards"), anything else in words."""
    if isinstance(e, ast.Cited):
        return _term_label(spec, e.expr, param)
    if isinstance(e, ast.Call) and [a for a in e.args if not (isinstance(a, ast.Name)
                                                                and a.id == param)] == []:
        return words(e.func)
    if isinstance(e, ast.Index) and isinstance(e.target, ast.Name) \
            and isinstance(e.index, ast.Name) and e.index.id == param:
        return words(e.target.id)
    if isinstance(e, ast.BinOp) and e.op in ("*", "+", "-"):
        op = "×" if e.op == "*" else e.op
        return f"{_term_label(spec, e.left, param)} {op} {_term_label(spec, e.right, param)}"
    return say(e, spec)


def _score_terms(spec: CheckedSpec, st: object, n: int, w: _W) -> None:
    """The example's scores term by term: each term of the scoring definition evaluated for
    each player in the deal's final state, so the sum can be checked by hand."""
    from rulespec.engine.state import State

    assert isinstance(st, State)
    d = spec_scoring(spec, st)
    assert d is not None
    param = d.params[0].name
    terms = _terms(d.body)
    defs = {x.name: x for x in spec.defs}
    head: list[Inline] = [inline("seat")]
    notes: list[tuple[Inline, str | None]] = []
    for sign, e in terms:
        # a term that is a definition's call is headed by the definition's words ("success
        # bonus"); any other by the expression in words
        called = defs.get(e.func) if isinstance(e, ast.Call) else None
        label = _cap(_term_label(spec, e, param))
        head.append(inline(("minus " if sign == "-" else "") + label))
        if called is not None and called.doc:
            notes.append((inline(strong(label), ": ", prose(called.doc)), clause(called.span)))
    head.append(inline(strong("score")))
    rows = []
    for q in range(n):
        cells = [inline(str(q))]
        total = 0
        for sign, e in terms:
            v = st.game.evaluate(e, st, {param: q})
            cells.append(inline(_show(v)))
            if isinstance(v, int):
                total += -v if sign == "-" else v
        cells.append(inline(strong(str(total))))
        rows.append(tuple(cells))
    w(Table(tuple(head), tuple(rows), caption=inline("The scores term by term, from the "
                                                     "deal's final position:"),
            source=clause(d.span)))
    if notes:
        w(Bullets(tuple(notes)))


# ---- variations --------------------------------------------------------------------------------
def _values(o: OptionInfo) -> str:
    if o.kind == "enum":
        return ", ".join(o.describe_value(v) for v in o.values)
    if o.kind == "bool":
        return "true, false"
    if o.bounds is not None:
        return f"a number from {o.bounds[0]} to {o.bounds[1]}"
    return "a number"


def _variations(spec: CheckedSpec, target: _For, w: _W) -> None:
    """Every option, each of its values explained on its own, then all of them in a table."""
    w(_h(1, "Variations", "variations"))
    w(Paragraph(inline("The rules above are the defaults. Each option below changes one rule, "
                       "if the players agree to it before the match; most settle a question "
                       "the game's sources leave open or answer twice, named in parentheses "
                       "(the list is at the end, for implementers).")))
    for o in spec.options:
        ref = f" ({o.ref})" if o.ref else ""
        chosen = target.options.get(o.name)
        w(Paragraph(inline(code(o.name), ref, ": ", prose(o.doc)), clause(o.span)))
        items: list[tuple[Inline, str | None]] = []
        for v in (o.values if o.kind in ("enum", "bool") else ()):
            marks = []
            if _name_of(o, o.default) == v:
                marks.append("the default" if o.default == v else f"the default: {o.default}")
            if chosen is not None and _name_of(o, chosen) == v:
                marks.append("in this book")
            note = f" ({', '.join(marks)})" if marks else ""
            text = o.value_doc(v)
            items.append((inline(code(o.describe_value(v) if o.kind == "enum" else _show(v)),
                                 note, ": " + prose(text) if text else ""), None))
        if o.kind == "int":
            rng = (f"from {o.bounds[0]} to {o.bounds[1]}" if o.bounds is not None
                   else "a whole number")
            extra = f"; in this book {_show(chosen)}" if chosen is not None else ""
            items.append((inline(f"{rng}; the default is ", code(_show(o.default)), extra),
                          None))
        if items:
            w(Bullets(tuple(items)))
    rows = []
    for o in spec.options:
        row = [inline(code(o.name)), inline(code(_values(o))), inline(code(_show(o.default)))]
        rows.append((*row, inline(o.ref or "")))
    w(Table((inline("option"), inline("values"), inline("default"), inline("settles")),
            tuple(rows), caption=inline("All the options at a glance:")))


def _name_of(o: OptionInfo, value: object) -> object:
    """An option value's name (a parametric value's, without its arguments)."""
    if o.params and isinstance(value, str) and "(" in value:
        return value.split("(", 1)[0]
    return value


# ---- reference ---------------------------------------------------------------------------------
def _reference(spec: CheckedSpec, target: _For, w: _W) -> None:
    """For implementers: state, record vocabulary, the rules as written, the ambiguity index."""
    w(_h(1, "Reference for implementers", "reference"))
    facts = [f"Spec name: {spec.name}."]
    if spec.hands is not None:
        facts.append(f"Hands dealt: {pretty_expr(spec.hands)}.")
    if spec.score_range is not None:
        lo, hi = (pretty_expr(e) for e in spec.score_range)
        facts.append(f"A deal's score: from {lo} to {hi} for each player.")
    if spec.max_events is not None:
        facts.append(f"Longest deal: at most {pretty_expr(spec.max_events)} events, chance "
                     "events included.")
    w(Bullets(tuple((inline(f), None) for f in facts)))
    _requires(spec, w)
    _zones_table(spec, w)
    if spec.vars:
        w(_h(2, "What the rules keep track of", "state"))
        w(Bullets(tuple((inline(code(v.name), " (one per player)" if v.per_player else "",
                                ": ", prose(v.doc)), clause(v.span)) for v in spec.vars)))
    w(_h(2, "Record vocabulary", "record-vocabulary"))
    w(Paragraph(inline("Each decision is written in a game record as ",
                       code('{"seat": s, "action": NAME, ...}'), ".")))
    w(Table((inline("action"), inline("fields"), inline("when"), inline("settles"),
             inline("clause")),
            tuple((inline(code(a.name)), inline(", ".join(a.fields) or "—"),
                   inline(cited(a.doc)), inline(", ".join(a.refs)), inline(clause(a.span)))
                  for a in _in_play_order(spec))))
    w(_h(2, "The decisions precisely", "decisions-precisely"))
    w(Paragraph(inline("Who makes each decision, inside which loops and conditions of the "
                       "rules, and the choices offered, as the rules define them.")))
    w(Bullets(tuple((_precise(spec, m), clause(m.alt.span)) for m in _walk_play(spec))))
    _rules(spec, w)
    _ambiguities(spec, w)


def _rules(spec: CheckedSpec, w: _W) -> None:
    """The definitions (the modules' hooks among them) and procedures, as written."""
    w(_h(2, "The rules as the spec writes them", "the-rules"))
    defined = {it.name for it in spec.items if isinstance(it, ast.DefDecl)}
    # the spec's own sections, when it has them, head its rules here as they do in the spec
    level = 4 if any(isinstance(it, ast.SectionDecl) for it in spec.items) else 3
    for it in spec.items:
        if isinstance(it, ast.SectionDecl):
            w(Heading(3, inline(it.title), f"section-{_slug(it.title)}"))
            if it.doc:
                w(Paragraph(inline(prose(it.doc)), clause(it.span)))
            continue
        if not isinstance(it, (ast.DefDecl, ast.HookDecl, ast.ProcDecl, ast.MatchDecl,
                               ast.DealDecl)):
            continue
        title = {ast.DefDecl: "Definition", ast.HookDecl: "Hook", ast.ProcDecl: "Procedure",
                 ast.MatchDecl: "The match", ast.DealDecl: "A deal"}[type(it)]
        name = getattr(it, "name", "")
        w(Heading(level, inline(title, " ", code(name)) if name else inline(title),
                  f"rule-{title.lower().replace(' ', '-')}{'-' + name if name else ''}"))
        doc = getattr(it, "doc", None)
        note = _hook_note(it, it.name in defined) if isinstance(it, ast.HookDecl) else ""
        if doc or note:
            w(Paragraph(inline(prose((doc or "") + " " + note)), clause(it.span)))
        w(Code(pretty_item(_no_doc(it)), "rules"))


def _slug(text: str) -> str:
    """A heading's text as an anchor: lower case, words joined by hyphens."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower())) or "section"


def _hook_note(h: ast.HookDecl, defined: bool) -> str:
    """Who supplies a module's hook: the spec's definition of that name, or the default."""
    if defined:
        instead = " in place of the default below" if h.default is not None else ""
        return f"A module's hook, supplied by the spec's definition of that name{instead}."
    return "A module's hook; the spec does not define it, so the default below applies."


def _refs(node: object) -> Iterator[tuple[str, ast.Span]]:
    if isinstance(node, ast.Cited):
        yield node.ref, node.span
    cls = type(node)
    if attrs.has(cls) and not isinstance(node, ast.Span):
        for f in attrs.fields(cls):
            v = getattr(node, f.name)
            if f.name == "ref" and isinstance(v, str):
                yield v, node.span  # type: ignore[attr-defined]
            else:
                yield from _refs(v)
    elif isinstance(node, tuple):
        for x in node:
            yield from _refs(x)


def _ambiguities(spec: CheckedSpec, w: _W) -> None:
    """Each ambiguity ID with the options that settle it (default and alternatives) and the
    clauses that cite it."""
    w(_h(2, "Ambiguities this spec settles", "ambiguities"))
    seen: dict[str, list[str]] = {}
    for it in spec.items:
        for ref, span in _refs(it):
            where = clause(span)
            if span.line and where not in seen.setdefault(ref, []):
                seen[ref].append(where)
    by_ref: dict[str, list[OptionInfo]] = {}
    for o in spec.options:
        if o.ref:
            by_ref.setdefault(o.ref, []).append(o)
            seen.setdefault(o.ref, [])
    items = []
    for ref in sorted(seen, key=_ref_key):
        parts: list[Part] = [strong(ref), ": "]
        for o in by_ref.get(ref, []):
            dv = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
            parts += ["option ", code(o.name), " (default ", code(dv), "; also ",
                      code(_values(o)), "). "]
        if seen[ref]:
            parts += ["Cited at ", ", ".join(seen[ref]), "."]
        items.append((inline(*parts), None))
    w(Bullets(tuple(items)))


def _in_play_order(spec: CheckedSpec) -> list[ActionInfo]:
    """The decisions in the order a deal reaches them (see :func:`_walk_play`), then any the
    walk does not reach."""
    by_span = {(a.span.source, a.span.start_pos): a for a in spec.actions}
    order: list[ActionInfo] = []
    for m in _walk_play(spec):
        info = by_span.get((m.alt.span.source, m.alt.span.start_pos))
        if info is not None and info not in order:
            order.append(info)
    return order + [a for a in spec.actions if a not in order]


def _ref_key(ref: str) -> tuple[str, int]:
    head = ref.rstrip("0123456789").rstrip("-")
    num = ref[len(ref.rstrip("0123456789")):]
    return head, int(num or 0)
