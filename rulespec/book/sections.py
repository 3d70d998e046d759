"""The rulebook of a game, built from its checked spec as a :class:`rulespec.book.Book`.

The order is that of a good rule page (pagat's): what the game is; the players and the cards
(the packs and hands of every table size, worked out by dealing them); play, decision by
decision in the order a deal meets them, each with who decides, when, and the choices; the
scoring; the end of the game; the variations (the options); and, for implementers, the
reference: the state, the record vocabulary, the rules as the spec writes them, and the index
of the ambiguities the spec settles. Every block names the spec clause it comes from.

Nothing here knows a game: each sentence is built from the spec's declarations and texts
(read by :mod:`rulespec.book.reading`) and from what play shows (:mod:`rulespec.book.facts`,
worked out once per book before the first sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

import attrs

from rulespec.book.diagram import block_in_words, phase_diagram
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
    Run,
    Table,
    code,
    inline,
    strong,
)
from rulespec.book.english import cap, mentioned, say, show, words
from rulespec.book.example import example_section, table_figure
from rulespec.book.facts import BookFacts, Progress, book_facts
from rulespec.book.markdown import to_markdown
from rulespec.book.reading import (
    Met,
    book_sizes,
    citations,
    cited,
    clause,
    end_deals,
    in_play_order,
    prose,
    ref_key,
    steps_of,
    walk_play,
)
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec, OptionInfo
from rulespec.lang.pretty import pretty_expr, pretty_item

__all__ = ["build_book", "rulebook"]

# What a zone's visibility means at the table (a zone "visible to all" may hold cards lying
# face down whose identity everyone knows, so "face up" would mislead)
_VIS = {"all": "open: every player may know its cards",
        "owner": "private: only its owner sees its cards",
        "team": "the team's: its owner and the owner's partners see its cards",
        "nobody": "hidden: no player sees its cards"}
#: the same, in a player's few words
_SEEN = {"all": "open", "owner": "seen by its owner only",
         "team": "seen by its owner's team only", "nobody": "face down"}
#: who may count a zone's cards, where not everyone may (``, size visible to WHO``)
_SIZE = {"owner": "its size is seen only by its owner", "nobody": "its size is seen by nobody"}


def _seen(z: ast.ZoneDecl, words: Mapping[str, str]) -> str:
    """Who sees a zone's cards, in ``words``, and, where not everyone may, who counts them."""
    seen = words.get(z.visibility or "", "?")
    size = _SIZE.get(z.size_visibility or "")
    return seen if size is None else f"{seen}; {size}"


_W = Callable[[Block], None]


def rulebook(spec: CheckedSpec) -> str:
    """Markdown text of the rulebook of ``spec``."""
    return to_markdown(build_book(spec))


def build_book(spec: CheckedSpec, players: int | None = None,
               options: Mapping[str, object] | None = None,
               progress: Progress | None = None) -> Book:
    """The rulebook of ``spec`` as a document, ready for any renderer; for one table size and
    some option values if given (a usage error names a size or value the spec refuses).
    What play shows is worked out first, once (:func:`rulespec.book.facts.book_facts`, which
    tells ``progress`` how far it is)."""
    facts = book_facts(spec, players, options, progress)
    blocks: list[Block] = []
    for part in (_introduction, _glance, _players_and_cards, _components, _deal_section,
                 _play, _scoring, _tables_section, _game_end, example_section, _variations,
                 _glossary, _reference):
        part(spec, facts, blocks.append)
    return Book(spec.title, tuple(blocks))


def _h(level: int, text: str, anchor: str) -> Heading:
    return Heading(level, inline(text), anchor)


def _introduction(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """What the game is, who plays and who wins."""
    w(_h(1, "Introduction", "introduction"))
    if spec.doc:
        w(Paragraph(inline(" ".join(spec.doc.split())), None))
    players = (f"{spec.min_players} players" if spec.min_players == spec.max_players
               else f"{spec.min_players} to {spec.max_players} players")
    w(Paragraph(inline(f"For {players}. A match is a series of deals; the {_who_wins(spec)} "
                       f"with the {spec.winner} total at the end of the match wins. How long a "
                       "match lasts is agreed beforehand (see ", strong("The end of the game"),
                       ").")))
    if facts.players is not None or facts.options:
        setting = ", ".join(f"{k} = {show(v)}" for k, v in facts.options.items())
        size = f"{facts.players} players" if facts.players is not None else "every table"
        w(Paragraph(inline(strong("This book is for:"), " ", size,
                           f", with {setting}" if setting else "", ".")))


def _players_and_cards(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """A table of the packs and what is dealt, for every table size."""
    w(_h(1, "Players and cards", "players-and-cards"))
    rows: list[tuple[Inline, ...]] = []
    zones: list[str] = []
    for t in facts.tables:
        zones.extend(z for z in t.counts if z not in zones)
    for t in facts.tables:
        setting = ", ".join(f"{k} = {show(v)}" for k, v in t.options.items())
        rows.append((inline(str(t.players) + (f" ({setting})" if setting else "")),
                     inline(str(t.cards)), *(inline(t.counts.get(z, "–")) for z in zones)))
    w(Paragraph(inline("What each table size plays with, worked out from the rules with the "
                       "options of this book and every other at its default: the cards in "
                       "play, the cards dealt to each hand, and those left over once the hands "
                       "are dealt (the stock, a card turned up)."), clause(spec.deal.span)))
    w(Table((inline("players"), inline("cards"), *(inline(z) for z in zones)),
            tuple(rows), source=clause(spec.deal.span)))
    sizes = book_sizes(spec, facts.players)
    if facts.players is None and len(sizes) < spec.max_players - spec.min_players + 1:
        w(Paragraph(inline(f"Tables of {sizes[-2] + 1} to {sizes[-1] - 1} players are not "
                           "worked out here: ", code("rulespec doc --players N"),
                           " writes the book of one of them."), clause(spec.deal.span)))
    for it in spec.items:
        if isinstance(it, ast.HandsDecl) and it.doc:
            w(Paragraph(inline(prose(it.doc)), clause(it.span)))
    _deck_section(spec, w)


def _deck_section(spec: CheckedSpec, w: _W) -> None:
    """A declared deck, card by card, with the names the book calls them by (the French deck
    needs no such table, and a spec that plays with it gets none)."""
    deck = spec.deck
    decl = next((it for it in spec.items if isinstance(it, ast.DeckDecl)), None)
    if deck.french or decl is None:
        return
    src = clause(decl.span)
    w(_h(2, "The cards", "the-cards"))
    intro = f"{prose(decl.doc)} " if decl.doc else ""
    w(Paragraph(inline(intro + f"A pack holds {len(deck.one_pack)} cards. A record writes each "
                       "card by its code, and the rules name it as below."), src))
    if deck.suits:
        suits: list[Part] = []
        for i, st in enumerate(deck.suits):
            suits += [", " if i else "", f"{st.label} (", code(st.code), ")"]
        w(Paragraph(inline("The suits, in order: ", *suits, ". Each has the ranks below, as "
                           "many copies of each as the table says; a card's code is its rank's "
                           "then its suit's."), src))
        rows = tuple((inline(r.label), inline(code(r.code)), inline(str(r.number)),
                      inline(str(deck.copies_default if r.copies is None else r.copies)))
                     for r in deck.ranks)
        w(Table((inline("rank"), inline("code"), inline("number"),
                 inline("copies in each suit")), rows, source=src))
    if deck.extras:
        rows = tuple((inline(x.label), inline(code(x.code)), inline(str(x.number)),
                      inline(str(deck.copies[x.code]))) for x in deck.extras)
        w(Paragraph(inline("The cards of no suit, after the suits in the canonical order:"),
                    src))
        w(Table((inline("card"), inline("code"), inline("number"), inline("copies")), rows,
                source=src))
    for it in decl.entries:
        if isinstance(it, ast.DeckPack):
            doc = f" {prose(it.doc)}" if it.doc else ""
            w(Paragraph(inline(strong(f"The {words(it.name)} pack"),
                               f" ({len(deck.packs[it.name])} cards) holds the cards of ",
                               ", ".join(words(m) for m in it.members), f".{doc}"),
                        clause(it.span)))


def _requires(spec: CheckedSpec, w: _W) -> None:
    """The spec's ``require``s: what every table and setting keeps to (for implementers: a
    player meets them only as settings refused)."""
    if spec.requires:
        w(_h(2, "What every table keeps to", "requires"))
        w(Paragraph(inline("Settings that break one of these are refused before a deal:")))
        w(Bullets(tuple((inline(cap(r.message.rstrip(".")) + "."), clause(r.span))
                        for r in spec.requires)))


def _components(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """Where the cards lie, in the zones' own words, and a picture of the table in play (the
    zones' kinds and visibility, as a table, are in the reference)."""
    w(_h(2, "Where the cards lie", "components"))
    w(Bullets(tuple((inline(strong(cap(words(z.name))),
                            f" ({_owner(z)}; "
                            f"{_seen(z, _SEEN)}): ", prose(z.doc)),
                     clause(z.span)) for z in spec.zones)))
    if spec.deck.french:
        w(Paragraph(inline("Cards are written by rank and suit: A (Ace), K, Q, J, 10, 9 "
                           "down to 2, then ♣ clubs, ♦ diamonds, ♥ hearts or ♠ spades; JK is "
                           "the Joker.")))
    else:
        w(Paragraph(inline("Cards are written by their codes, as in ", strong("The cards"),
                           " above.")))
    fig = table_figure(spec, facts)
    if fig is not None:
        w(fig)


def _who_wins(spec: CheckedSpec) -> str:
    """Who wins a match: a player, or, where the match names winning teams, a team."""
    teams = any(isinstance(x, ast.EndMatch) and x.teams for x in walk.descendants(spec.items))
    return "team" if teams else "player"


def _owner(z: ast.ZoneDecl) -> str:
    """Whose a zone is, in the book's words."""
    return "each team" if z.per_team else "each player" if z.per_player else "one for the table"


def _teams(spec: CheckedSpec, w: _W) -> None:
    """Fixed partnerships: who plays with whom, and how a team's score is made."""
    t = spec.teams
    if t is None:
        return
    d = spec.def_named[t.by]
    formed = (" The teams are formed in play, deal by deal: " + cap(prose(d.doc)) + " A "
              "player knows another's team only as far as the cards they see show it."
              if t.in_play and d.doc else "")
    w(Paragraph(inline("The players play in ", say(t.count, spec), " teams. ",
                       cap(prose(t.doc or d.doc)) + formed), clause(t.span)))
    per_team = [e.per_team for e in end_deals(spec)]
    how = []
    if any(per_team):
        how.append("where a deal is scored by team, each player scores their team's score")
    if not all(per_team):
        how.append("where each player is scored, a team's score is the sum of its "
                   "players' scores")
    w(Paragraph(inline(cap("; ".join(how)) + ". A team's total is the sum of its scores "
                       "over the deals.")))


def _zones_table(spec: CheckedSpec, w: _W) -> None:
    """For implementers: each zone's name, kind and visibility."""
    w(_h(2, "Zones", "zones"))
    w(Table((inline("zone"), inline("kind"), inline("who sees it"), inline("what it is")),
            tuple((inline(code(z.name)),
                   inline("one per team" if z.per_team else
                          "one per player" if z.per_player else "shared"),
                   inline(_seen(z, _VIS)), inline(prose(z.doc)))
                  for z in spec.zones)))


def _direction_kept(spec: CheckedSpec) -> tuple[tuple[Inline, str | None], ...]:
    """The direction of play among what the rules keep, where they read or set it."""
    if not spec.directed:
        return ()
    return ((inline(code("clockwise"), " (kept by the rules engine; every player sees it): "
                    "the direction of play, true while play goes to the left (clockwise), "
                    "false while it goes to the right; true when the match starts, and kept "
                    "from deal to deal until the rules change it."), None),)


def _enums(spec: CheckedSpec, w: _W) -> None:
    """For implementers: each named enumeration, its values in order and what each means
    (records, observations and results carry a value as its name)."""
    if not spec.enums:
        return
    w(_h(2, "Named values", "named-values"))
    w(Paragraph(inline("Each of these is a kind of value the rules keep; a record, an "
                       "observation and a deal's result write a value as its name.")))
    for en in spec.enums:
        docs = en.values.docs
        said = (prose(en.doc), " Its values, in order:") if en.doc else ("its values, in order:",)
        w(Paragraph(inline(code(en.name), ": ", *said), clause(en.span)))
        w(Bullets(tuple((inline(code(str(v)), *((": ", prose(docs[i]))
                                                 if i < len(docs) and docs[i] else ())), None)
                        for i, v in enumerate(en.values.values))))


def _only(spec: CheckedSpec, facts: BookFacts, action: str, optional: bool) -> str:
    """When a decision is offered, as the book tags it: "" when these settings offer it at
    every table; "by default only with 2 players" at some; "only under some options" when
    the rules put it under an option and no deal at these settings makes it."""
    sizes = sorted({t.players for t in facts.tables if not t.options})
    at = sorted(facts.met.get(action, frozenset()))
    if at and at != sizes:
        return "by default only with " + _or_list([str(n) for n in at]) + " players"
    if not at and optional:
        return "only under some options"
    return ""


def _or_list(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


def _play(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """Every decision, in the order a deal meets it, in words."""
    w(_h(1, "Play", "play"))
    d = phase_diagram(spec)
    w(Figure(d.svg, d.alt, inline("The phases of a deal and the decisions in them.")))
    for pr in spec.procs:
        steps = _steps_list(spec, pr.body, True)
        if steps is None:
            continue
        w(Heading(2, inline(cap(words(pr.name))), f"steps-{pr.name}"))
        if pr.doc:
            w(Paragraph(inline(prose(pr.doc)), clause(pr.span)))
        w(steps)
    w(Paragraph(inline("The decisions of a deal, in the order the deal meets them. Everything "
                       "else (dealing, moving cards, keeping count) follows from the rules "
                       "and is done for the players.")))
    by_action: dict[str, list[Met]] = {}
    for m in walk_play(spec):
        by_action.setdefault(m.alt.action, []).append(m)
    for action, mets in by_action.items():
        w(Heading(2, inline("Decision: ", code(action)), f"decision-{action}"))
        for m in mets:
            w(Paragraph(_decision_text(spec, facts, m), clause(m.alt.span)))
        # the definitions a choice rests on, for a choice the spec gives no words of its own
        # (the spec's text for it already says what they mean)
        used = [d for m in mets if not m.alt.doc
                for d in mentioned((m.alt.generators, m.alt.guard), spec)]
        notes = [(inline(strong(words(d.name)), ": ", prose(d.doc)), clause(d.span))
                 for i, d in enumerate(used) if d.doc and d not in used[:i]]
        if notes:
            w(Paragraph(inline("Where:")))
            w(Bullets(tuple(notes)))


def _decision_text(spec: CheckedSpec, facts: BookFacts, m: Met) -> Inline:
    """One alternative for a player: the spec's words for it (or, without any, who decides
    and the choices as the rules define them), and whether it exists only under options or
    at some table sizes."""
    parts: list[Part] = [cap(prose(m.alt.doc))] if m.alt.doc else list(_precise(spec, m))
    if m.alt.rare:
        parts.append(" " + cap(prose(m.alt.rare)))
    if m.together is not None:
        parts.append(f" {cap(_together_who(spec, m.seat))} makes this choice at the same "
                     "time, in secret: nobody sees another's choice until all have chosen; "
                     "then all the choices are carried out at once.")
    when = _only(spec, facts, m.alt.action, bool(m.options))
    if m.alt in facts.off and not when:
        parts.append(" It is a variation: these rules do not offer it (see Variations).")
    elif when.startswith("only under") and m.options:
        parts.append(" It is offered only under some settings of " +
                     ", ".join(words(o) for o in m.options) + " (see Variations).")
    elif when:
        parts.append(f" It is offered {when}.")
    return inline(*parts)


def _precise(spec: CheckedSpec, m: Met) -> Inline:
    """One alternative exactly: who decides, in which loops and conditions, the choices and
    the guard, in words (the reference's account; a player reads the spec's text)."""
    loop_vars = {a.split(" ")[2] for a in m.around if a.startswith("for each ")}
    seat = m.seat.expr if isinstance(m.seat, ast.Cited) else m.seat
    known = {v.name for v in spec.vars} | set(spec.option_names)
    if m.together is not None:
        who = f"{_together_who(spec, seat)}, at once and in secret,"
    elif isinstance(seat, ast.Name) and seat.id in loop_vars:
        who = "each player in turn"
    elif isinstance(seat, ast.Name) and seat.id not in known and seat.id != "dealer":
        who = f"the player {seat.id}"  # a procedure's parameter: the seat it is run for
    else:
        who = say(seat, spec)
    parts: list[Part] = [code(m.alt.action), ": ", cap(who), " decides"]
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


def _together_who(spec: CheckedSpec, seats: ast.Expr) -> str:
    """Who decides in a simultaneous decision: "each player", or each of a list said."""
    bare = walk.uncite(seats)
    said = say(seats, spec)
    # every seat, in whatever order: the order does not matter when all choose at once
    if isinstance(bare, ast.Name) and bare.id == "seats" or said.startswith("each player"):
        return "each player"
    return f"each player of {said}"


def _scoring(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """How a deal is scored: the scoring definitions, with their texts and formulas."""
    w(_h(1, "Scoring", "scoring"))
    defs = spec.def_named
    done: set[str] = set()
    # the ordinary end first, then deals that end as a flag says (blocked, abandoned...)
    for e in sorted(end_deals(spec), key=lambda x: x.flag is not None):
        d = defs.get(e.scoring)
        if d is None or d.name in done:
            continue
        done.add(d.name)
        how = f"When a deal is {words(e.flag)}: " if e.flag else ""
        w(Paragraph(inline(how + cap(prose(d.doc))), clause(e.span)))
        notes = [(inline(strong(words(x.name)), ": ", prose(x.doc)), clause(x.span))
                 for x in mentioned(d.body, spec) if x.doc]
        if notes:
            w(Bullets(tuple(notes)))
    _teams(spec, w)
    if spec.results:
        w(Paragraph(inline("Besides the scores, each deal's result records:")))
        w(Bullets(tuple((inline(code(r.name), " (one per player)" if r.per_player else "",
                                ": ", prose(r.doc)), clause(r.span)) for r in spec.results)))


def _game_end(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """The match: how long it lasts and who wins, in the spec's words and its options'."""
    w(_h(1, "The end of the game", "the-end-of-the-game"))
    texts = [(prose(spec.match.doc), clause(spec.match.span))] if spec.match.doc else []
    if not texts:  # the match block's text says it all when it is there
        texts = [(prose(it.doc), clause(it.span)) for it in spec.items
                 if isinstance(it, ast.GameEndDecl) and it.doc]
    for text, src in texts:
        w(Paragraph(inline(text), src))
    if not texts:
        w(Paragraph(inline(f"When the match ends, the {_who_wins(spec)} with the "
                           f"{spec.winner} total wins.")))
    steps = _steps_list(spec, spec.match.body, False)
    if steps is not None:
        w(steps)
    length = [o for o in spec.options if o.name in ("deals", "target")]
    if length:
        w(Bullets(tuple((inline(strong(words(o.name)), " (default ", code(show(o.default)),
                                "): ", prose(o.doc)), clause(o.span)) for o in length)))


def _no_doc(it: ast.Item) -> ast.Item:
    """An item without its text, for a code block whose text the book prints beside it."""
    if isinstance(it, (ast.DefDecl, ast.HookDecl, ast.ProcDecl, ast.MatchDecl, ast.DealDecl)):
        return attrs.evolve(it, doc=None)
    return it


def _step_text(spec: CheckedSpec, s: ast.Step, in_deal: bool) -> Inline:
    """One step for a player: its title, its text (or what its body does, in words), and
    its own steps after it, lettered."""
    said = prose(s.doc) if s.doc else block_in_words(spec, s.body, in_deal)
    said += (" " + cap(prose(s.rare))) if s.rare and said else ""
    parts: list[Part] = [strong(s.title.rstrip(".") + "."),
                         " " + cap(said) + ("" if said.endswith(".") else ".") if said else ""]
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


def _deal_section(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
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
    if isinstance(v, (list, tuple)):
        parts: list[Part] = []
        for i, x in enumerate(v):
            parts += [" " if i else "", *_cell_runs(x)]
        return inline(*parts)
    if isinstance(v, str) and (v == "JK" or len(v) == 2 and v[1] in "CDHS"):
        return (Run("card", v),)
    if isinstance(v, str) and v in ("C", "D", "H", "S"):
        return (Run("suit", v),)
    return inline("–" if v is None else show(v))


def _tables_section(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """The tables the spec declares, worked out at each table size: one table when every size
    gives the same, else one per size."""
    if not spec.tables:
        return
    w(_h(1, "Tables", "tables"))
    for tb in spec.tables:
        w(Heading(2, inline(tb.title), f"table-{tb.name}"))
        if tb.doc:
            w(Paragraph(inline(prose(tb.doc)), clause(tb.span)))
        head = tuple(inline(c.heading) for c in tb.columns)
        by_size: list[tuple[str, tuple[tuple[Inline, ...], ...]]] = []
        for t in facts.tables:
            setting = ", ".join(f"{k} = {show(v)}" for k, v in t.options.items())
            label = f"{t.players} players" + (f" ({setting})" if setting else "")
            by_size.append((label, tuple(tuple(_cell_runs(v) for v in row)
                                         for row in t.rows[tb.name])))
        if len({rows for _, rows in by_size}) == 1:
            w(Table(head, by_size[0][1], source=clause(tb.span)))
            continue
        for label, rows in by_size:
            w(Table(head, rows, caption=inline(label + ":"), source=clause(tb.span)))


def _glossary(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """The words of the game, as the spec explains them, in alphabetical order."""
    if not spec.terms:
        return
    w(_h(1, "Glossary", "glossary"))
    w(Bullets(tuple((inline(strong(x.word), ": ", prose(x.meaning)), clause(x.span))
                    for x in sorted(spec.terms, key=lambda x: x.word.lower()))))


def _glance(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """A quick reference: the decisions in order, how a deal is scored, how the match ends."""
    w(_h(1, "At a glance", "at-a-glance"))
    items: list[tuple[Inline, str | None]] = []
    by_action: dict[str, list[Met]] = {}
    for m in walk_play(spec):
        by_action.setdefault(m.alt.action, []).append(m)
    for action, mets in by_action.items():
        # optional: under a condition on options, or one alternative whose guard tests one
        # (two alternatives guarded by opposite values of an option are always there)
        optional = all(m.enclosing for m in mets) or (len(mets) == 1 and bool(mets[0].options))
        when = _only(spec, facts, action, optional)
        only = f" ({when}, see Variations)" if when.startswith("only under") else \
            f" ({when})" if when else ""
        # the first sentence of each alternative's text: alternatives with different texts
        # are different moves (the declarer's and the others'), each on its own line
        firsts = list(dict.fromkeys(
            (prose(m.alt.doc).split(". ")[0].rstrip("."), m.alt in facts.off)
            for m in mets if m.alt.doc)) or [("", False)]
        for f, off in firsts:
            tag = " (a variation, see Variations)" if off and not only else only
            items.append((inline(code(action), tag, ": " + f + "." if f else ""),
                          clause(mets[0].alt.span)))
    if items:
        w(Paragraph(inline(strong("The decisions of a deal, in order:"))))
        w(Bullets(tuple(items), ordered=True))
    defs = spec.def_named
    for e in end_deals(spec):
        d = defs.get(e.scoring)
        if e.flag is None and d is not None and d.doc:
            w(Paragraph(inline(strong("Scoring:"), " ", prose(d.doc)), clause(d.span)))
            break
    w(Paragraph(inline(strong("Winning:"), f" the {spec.winner} total when the match ends.")))


def _variations(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """Every option, each of its values explained on its own, then all of them in a table."""
    w(_h(1, "Variations", "variations"))
    w(Paragraph(inline("The rules above are the defaults. Each option below changes one rule, "
                       "if the players agree to it before the match; most settle a question "
                       "the game's sources leave open or answer twice, named in parentheses "
                       "(the list is at the end, for implementers).")))
    for o in spec.options:
        ref = f" ({o.ref})" if o.ref else ""
        chosen = facts.options.get(o.name)
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
            items.append((inline(code(o.describe_value(v) if o.kind == "enum" else show(v)),
                                 note, ": " + prose(text) if text else ""), None))
        if o.kind == "int":
            rng = (f"from {o.bounds[0]} to {o.bounds[1]}" if o.bounds is not None
                   else "a whole number")
            extra = f"; in this book {show(chosen)}" if chosen is not None else ""
            items.append((inline(f"{rng}; the default is ", code(show(o.default)), extra),
                          None))
        if items:
            w(Bullets(tuple(items)))
    rows = []
    for o in spec.options:
        row = [inline(code(o.name)), inline(code(_values(o))), inline(code(show(o.default)))]
        rows.append((*row, inline(o.ref or "")))
    w(Table((inline("option"), inline("values"), inline("default"), inline("settles")),
            tuple(rows), caption=inline("All the options at a glance:")))


def _values(o: OptionInfo) -> str:
    if o.kind == "enum":
        return ", ".join(o.describe_value(v) for v in o.values)
    if o.kind == "bool":
        return "true, false"
    if o.bounds is not None:
        return f"a number from {o.bounds[0]} to {o.bounds[1]}"
    return "a number"


def _name_of(o: OptionInfo, value: object) -> object:
    """An option value's name (a parametric value's, without its arguments)."""
    if o.params and isinstance(value, str) and "(" in value:
        return value.split("(", 1)[0]
    return value


def _reference(spec: CheckedSpec, facts: BookFacts, w: _W) -> None:
    """For implementers: state, record vocabulary, the rules as written, the ambiguity index."""
    w(_h(1, "Reference for implementers", "reference"))
    said = [f"Spec name: {spec.name}."]
    if spec.hands is not None:
        said.append(f"Hands dealt: {pretty_expr(spec.hands)}.")
    if spec.teams is not None:
        said.append(f"Teams: {pretty_expr(spec.teams.count)}, each seat's team given by "
                    f"{spec.teams.by}" + (", formed in play (each deal's result lists them)."
                                          if spec.teams.in_play else "."))
    if spec.score_range is not None:
        lo, hi = (pretty_expr(e) for e in spec.score_range)
        said.append(f"A deal's score: from {lo} to {hi} for each player.")
    if spec.max_events is not None:
        said.append(f"Longest deal: at most {pretty_expr(spec.max_events)} events, chance "
                     "events included.")
    w(Bullets(tuple((inline(f), None) for f in said)))
    _requires(spec, w)
    _zones_table(spec, w)
    _enums(spec, w)
    if spec.vars or spec.directed:
        w(_h(2, "What the rules keep track of", "state"))
        w(Bullets(tuple((inline(code(v.name), " (one per player)" if v.per_player else "",
                                ": ", prose(v.doc)), clause(v.span)) for v in spec.vars)
                  + _direction_kept(spec)))
    w(_h(2, "Record vocabulary", "record-vocabulary"))
    w(Paragraph(inline("Each decision is written in a game record as ",
                       code('{"seat": s, "action": NAME, ...}'), ".")))
    w(Table((inline("action"), inline("fields"), inline("when"), inline("settles"),
             inline("clause")),
            tuple((inline(code(a.name)), inline(", ".join(a.fields) or "—"),
                   inline(cited(a.doc)), inline(", ".join(a.refs)), inline(clause(a.span)))
                  for a in in_play_order(spec, walk_play(spec)))))
    w(_h(2, "The decisions precisely", "decisions-precisely"))
    w(Paragraph(inline("Who makes each decision, inside which loops and conditions of the "
                       "rules, and the choices offered, as the rules define them.")))
    w(Bullets(tuple((_precise(spec, m), clause(m.alt.span)) for m in walk_play(spec))))
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


def _ambiguities(spec: CheckedSpec, w: _W) -> None:
    """Each ambiguity ID with the options that settle it (default and alternatives) and the
    clauses that cite it."""
    w(_h(2, "Ambiguities this spec settles", "ambiguities"))
    seen: dict[str, list[str]] = {}
    for it in spec.items:
        for ref, span in citations(it):
            where = clause(span)
            if span.line and where not in seen.setdefault(ref, []):
                seen[ref].append(where)
    by_ref: dict[str, list[OptionInfo]] = {}
    for o in spec.options:
        if o.ref:
            by_ref.setdefault(o.ref, []).append(o)
            seen.setdefault(o.ref, [])
    items = []
    for ref in sorted(seen, key=ref_key):
        parts: list[Part] = [strong(ref), ": "]
        for o in by_ref.get(ref, []):
            dv = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
            parts += ["option ", code(o.name), " (default ", code(dv), "; also ",
                      code(_values(o)), "). "]
        if seen[ref]:
            parts += ["Cited at ", ", ".join(seen[ref]), "."]
        items.append((inline(*parts), None))
    w(Bullets(tuple(items)))
