"""The player's book of a game: what a player reads in ten minutes, in pagat's order.

The game and who wins; the players and the cards; the deal; play, with the turn in one place and
the decisions in one table; scoring, with the spec's tables; the end of the match; an example deal
told turn by turn with a word where something happens; the variations that change something; and
the spec's words of advice (``hint``). Each term of the game is
defined once, just after the paragraph that first uses it. The exact rules, the record vocabulary
and the spec's source are the implementer's reference (:func:`rulespec.book.sections.build_book`),
which the book links to.

Every word reaches the page through :class:`rulespec.book.i18n.Words`: the spec's texts through
its catalogs, the book's own through rulespec's (``say``/``word`` calls, extracted by
``rulespec catalog``), so one generator writes the book in every language.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Mapping
from pathlib import Path

import attrs

from rulespec.book.counts import players_table
from rulespec.book.decisions import (
    decision_name,
    decision_rows,
    decisions_said,
    offered,
    placed_in_steps,
    step_lines,
)
from rulespec.book.document import (
    Block,
    Book,
    Bullets,
    Figure,
    Heading,
    Inline,
    Paragraph,
    Run,
    Table,
    card_in,
    code,
    inline,
    strong,
)
from rulespec.book.english import cap, show
from rulespec.book.example import table_figure
from rulespec.book.facts import (
    RANKS_KEY,
    BookFacts,
    Example,
    Progress,
    book_facts,
)
from rulespec.book.grids import by_rank, by_size, cell, merged, scores_table
from rulespec.book.i18n import Words, english
from rulespec.book.labels import SENTENCE_BREAK
from rulespec.book.packs import second_pack_zones, second_packs
from rulespec.book.player_example import example_lines, zone_said
from rulespec.book.reading import (
    as_list,
    book_sizes,
    clause,
    end_deals,
    prose,
    steps_of,
    term_pattern,
    walk_play,
)
from rulespec.book.variations import house_rules
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec

__all__ = ["player_book", "reference_name", "rules_words"]

_W = Callable[[Block], None]

#: the anchors of the sections that count as the rules (the example, the variations and the
#: hints aside), for the word counts of issue 27
RULES_SECTIONS = ("the-game", "words-of-the-game", "players-and-cards", "the-deal", "play",
                  "scoring", "the-end", "words")
#: the anchors' start of the sections on what a deal yields besides the scores (rules too)
YIELDS = "yields-"
_SENTENCE = SENTENCE_BREAK  # not after an abbreviation: "(см. «Варианты»)" is one sentence
_LETTER = re.compile(r"[^\W\d_]")
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                 "seventeen", "eighteen", "nineteen", "twenty")


def player_book(spec: CheckedSpec, words: Words | None = None, players: int | None = None,
                options: Mapping[str, object] | None = None, facts: BookFacts | None = None,
                reference: str | None = None, progress: Progress | None = None) -> Book:
    """The player's book of ``spec`` in the language of ``words`` (English by default), for one
    table size and some option values if given; ``reference`` is the address of the
    implementer's reference, linked at the end of the book."""
    w = words or english()
    facts = facts if facts is not None else book_facts(spec, players, options, progress)
    out = _Writer(spec, w)
    # every word of the game in one section after the players and cards, before the deal
    # (rounds 36 to 39, readers of the longest book: the steps used words said after them;
    # rounds 30 to 32 had asked for them after, when where the cards lie did not name the
    # places the words name), in the order the rules first use them, a word only the house
    # rules use (the dummy) last: the order found by writing the book once
    parts = (_game, _players_and_cards, _words, _deal, _play, _rare_cases, _scoring, _yields,
             _end, _example, _variations)
    first = _Writer(spec, w)
    for part in parts:
        part(spec, facts, w, first)
    out.early = first.in_variations
    out.later = [x for x in first.order if x not in first.in_variations]
    out.gather = True
    for part in parts[:-1]:
        part(spec, facts, w, out)
    # the hints before the house rules, which a learner may skip at first (round 30)
    _hints(spec, w, out)
    _variations(spec, facts, w, out)
    out.terms_left()
    if reference:
        # a player needs nothing more (round 10: a link to a file the reader lacked read as
        # a missing part of the book)
        out.add(Paragraph(w.say("A player needs nothing beyond this book. Programmers and "
                                "referees who want every rule in exact form will find it in a "
                                "separate reference, {reference}.",
                                reference=Run("link", reference))))
    # a player's book names no clause: the reference does
    suits = {"C": w.word("clubs"), "D": w.word("diamonds"), "H": w.word("hearts"),
             "S": w.word("spades")}
    blocks = tuple(_localised(_unsourced(b), suits, w.lang) for b in out.blocks)
    labels = (("contents", w.word("Contents")), ("skip", w.word("Skip to the rules")),
              ("table", w.word("Table")), ("clause", w.word("spec clause")))
    # no note of how it was made: a player reads the page, not its history (the reference,
    # which maintainers read, keeps it)
    return Book(w.text(spec.title), blocks, lang=w.lang, labels=labels, generator_note="")


def reference_name(book: str, fmt: str) -> str:
    """The file of the implementer's reference beside a player's book: ``game.fa.md`` ->
    ``game-reference.md``."""
    name = f"{Path(book).name.split('.')[0]}-reference.{fmt}"
    # a user's file name, any bytes the system allows: percent-encoded, as a link's address is
    return urllib.parse.quote(name.encode("utf-8", "surrogateescape"))


def direction_of(w: Words) -> str:
    """The writing direction of a book in ``w``'s language."""
    return Book("", (), lang=w.lang).direction


def _unsourced(b: Block) -> Block:
    if isinstance(b, (Paragraph, Table)) and b.source:
        return attrs.evolve(b, source=None)
    if isinstance(b, Bullets):
        return attrs.evolve(b, items=tuple((i, None) for i, _ in b.items))
    return b


def _localised(b: Block, suits: Mapping[str, str], lang: str) -> Block:
    """A block with its suits named in the book's language (``H червы``, document.suit_text)
    and its cards' ranks written as it writes them (``QS|Д``, document.card_text)."""
    def runs(text: Inline) -> Inline:
        return tuple(Run("suit", f"{r.text} {suits[r.text]}")
                     if r.kind == "suit" and r.text in suits else
                     Run("card", card_in(r.text, lang)) if r.kind == "card" else r
                     for r in text)
    if isinstance(b, Paragraph):
        return attrs.evolve(b, text=runs(b.text))
    if isinstance(b, Bullets):
        return attrs.evolve(b, items=tuple((runs(i), s) for i, s in b.items))
    if isinstance(b, Table):
        return attrs.evolve(b, header=tuple(runs(c) for c in b.header),
                            rows=tuple(tuple(runs(c) for c in row) for row in b.rows))
    return b


class _Writer:
    """The blocks of a book as they are written: no sentence of prose said twice, and each term
    of the game defined once, after the first paragraph that uses it."""

    def __init__(self, spec: CheckedSpec, w: Words) -> None:
        self.blocks: list[Block] = []
        self.said: set[str] = set()
        self.w = w
        # a term's first sentence defines it; the rest are rules the book says in their place
        self.terms = [(w.text(t.word), _SENTENCE.split(prose(w.text(t.meaning)))[0],
                       clause(t.span)) for t in spec.terms]
        #: while the house rules are written, and the words first defined among them; the
        #: words to define with the opening's (those of a first writing's house rules)
        self.variations = False
        self.in_variations: list[str] = []
        self.early: list[str] = []
        #: whether every word goes in the section of words (a first writing leaves each
        #: where it is first used, to find that order); the words in the order they were
        #: defined; those of a first writing's rules, in that order
        self.gather = False
        self.hold = False
        self.order: list[str] = []
        self.later: list[str] = []

    def add(self, b: Block) -> None:
        self.blocks.append(b)

    def para(self, text: str, source: str | None = None, lead: Inline = (),
             define: bool = True) -> None:
        """A paragraph of prose, without the sentences already said, and the terms it uses
        first defined after it (unless ``define`` is false: the book's own words, such as
        the card notation's "A (Ace)", which are not the game's terms in use)."""
        kept = [s for s in _SENTENCE.split(prose(text)) if s and s not in self.said]
        self.said.update(kept)
        if not kept and not lead:
            return
        run: list[str] = []
        for s in kept:
            listed = as_list(s)
            if listed is None:
                run.append(s)
                continue
            # a list written as one sentence ("adds up five parts: a; b; c; and d") as a list
            head, items = listed
            self.blocks.append(Paragraph((*lead, *inline(" ".join([*run, head]))), source))
            self.blocks.append(Bullets(tuple((inline(i), source) for i in items)))
            run, lead = [], ()
        if run or lead:
            self.blocks.append(Paragraph((*lead, *inline(" ".join(run))), source))
        if define:
            self.define(" ".join(kept))

    def define(self, text: str) -> None:
        """After a block that uses terms not yet defined: their definitions, as a list (none
        while they are held for the section of words that follows)."""
        if self.hold:
            return
        found = self.take(text)
        if self.variations:
            self.in_variations += [word for word, _, _ in found]
        self.listed(found)

    def listed(self, found: list[tuple[str, str, str]]) -> None:
        """Terms (word, definition, source) as a list of definitions."""
        if found:
            self.blocks.append(Bullets(tuple((inline(strong(word), ": ", meaning), src)
                                             for word, meaning, src in found)))

    def take(self, text: str, peek: bool = False) -> list[tuple[str, str, str]]:
        """The terms ``text`` uses not yet defined, with those their definitions use, in the
        order they are best read, each (word, definition, source): they count as defined
        (unless ``peek``)."""
        found = self._used(text, self.terms)
        # a term a definition uses is defined with it ("eight" says "ordinary card"; round 7:
        # it was defined ten uses later)
        more = found
        while more:
            rest = [t for t in self.terms if t not in found]
            more = self._used(" ".join(str(m) for _, m, _ in more), rest)
            found = found + more
        if not found:
            return []
        found = self._before_use(found, text.lower())
        if peek:
            return found
        self.order += [word for word, _, _ in found]
        self.terms = [t for t in self.terms if t not in found]
        self.said.update(meaning for _, meaning, _ in found)
        return found

    def _before_use(self, found: list[tuple[str, str, str]], low: str
                    ) -> list[tuple[str, str, str]]:
        """``found`` ordered so that a term comes before the definitions that use it (round
        17: the Joker was defined by the trump indicator, defined just after it); a cycle of
        terms that say one another broken at the one ``low`` (the text) uses first (round 25:
        the Joker, copying the trump indicator, came before it); otherwise in the order
        given."""
        needs = {t[0]: {u[0] for u in self._used(str(t[1]), found) if u[0] != t[0]}
                 for t in found}
        out: list[tuple[str, str, str]] = []
        left = list(found)
        while left:
            done = {t[0] for t in out}
            ready = min(left, key=lambda t: (bool(needs[t[0]] - done),
                                             _first_at(t[0], low, self.w)
                                             if needs[t[0]] - done else 0))
            out.append(ready)
            left.remove(ready)
        return out

    def _used(self, text: str, terms: list[tuple[str, str, str]]
              ) -> list[tuple[str, str, str]]:
        """The terms of ``terms`` that ``text`` uses, as whole words in any case and in any of
        their forms (round 9: a Russian «обычную карту» did not count as a use of «обычная
        карта», which was defined far below its first use)."""
        low = text.lower()
        return [t for t in terms if re.search(term_pattern(t[0], self.w.lang), low)]

    def terms_left(self) -> None:
        """The terms no paragraph used, at the end (a book always defines every term)."""
        if self.terms:
            self.blocks.append(Heading(1, inline(self.w.word("More words of the game")),
                                       "words"))
            self.define(" ".join(t[0] for t in self.terms))


def _first_at(word: str, low: str, w: Words) -> int:
    """Where a term is first used in a lower-cased text (its length where it is not)."""
    m = re.search(term_pattern(word, w.lang), low)
    return m.start() if m else len(low)


def _h(out: _Writer, text: str, anchor: str) -> None:
    out.add(Heading(1, inline(text), anchor))


def _words(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    """Every word of the game in one section (round 29: "one glossary"), after the players
    and cards, before the deal's steps that use them (rounds 36 to 39): the opening's words
    first, then the rules' in the order they first come, then those only a house rule uses."""
    if not out.gather:
        return
    out.hold = False
    opening = prose(w.text(spec.doc or ""))
    rest = " ".join(t[0] for t in out.terms)
    if out.take(" ".join([opening, rest]), peek=True):
        _h(out, w.word("Words of the game"), "words-of-the-game")
        found = out.take(opening)
        for word in [*out.later, *out.early]:
            found += out.take(word)
        out.listed(found + out.take(rest))


def _game(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    _h(out, w.word("The game"), "the-game")
    if spec.doc:
        # the words the opening uses, defined in a section of their own after it (round 28:
        # moved to where the rules first use them, eight of them crowded the deal's first
        # step; readers asked for a section of terms, round 27 for no list under the
        # opening that said it again); the rest where the rules first use them
        out.para(w.text(spec.doc), define=False)
        out.hold = out.gather
    lo, hi = spec.min_players, spec.max_players
    # what the game's own opening (or its match's text, for the winner) says already is not
    # said again: judged on the spec's own texts, so alike in every language
    told = " ".join(x for x in (spec.doc, spec.match.doc) if x).lower()
    who = "" if _names_number(spec.doc or "", hi) else (
        w.word("For {n} players.", n=lo) if lo == hi
        else w.word("For {lo} to {hi} players.", lo=lo, hi=hi))
    win = "" if f"{spec.winner} total" in told else (
        w.word("The lowest total at the end of the match wins.") if spec.winner == "lowest"
        else w.word("The highest total at the end of the match wins."))
    if who or win:
        out.para(" ".join(x for x in (who, win) if x))
    if facts.players is not None or facts.options:
        setting = ", ".join(f"{k} = {show(v)}" for k, v in facts.options.items())
        size = (w.word("{n} players", n=facts.players) if facts.players is not None
                else w.word("every table"))
        out.add(Paragraph((strong(w.word("This book is for:")), *inline(" ", size),
                           *inline(f", {setting}" if setting else ""), *inline("."))))


def _names_number(text: str, n: int) -> bool:
    """Whether an English text names the number ``n``, in digits or in words."""
    said = {str(n), *([_NUMBER_WORDS[n]] if n < len(_NUMBER_WORDS) else [])}
    return any(re.search(rf"(?<![\w-]){x}(?![\w-])", text.lower()) for x in said)


def _seen(z: ast.ZoneDecl, w: Words) -> str:
    vis = z.visibility or ""
    return {"all": w.word("known to everyone"), "owner": w.word("seen by its owner only"),
            "team": w.word("seen by its owner's team"),
            "nobody": w.word("face down")}.get(vis, vis)


def _players_and_cards(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    _h(out, w.word("Players and cards"), "players-and-cards")
    table, shared = players_table(spec, facts, w)
    _card_notes(spec, facts, w, out)
    if table is not None:
        out.add(table)
    if shared is not None:
        out.add(shared)
    sizes = book_sizes(spec, facts.players)
    if facts.players is None and len(sizes) < spec.max_players - spec.min_players + 1:
        out.add(Paragraph(w.say("Tables of {lo} to {hi} players are not worked out here: {cmd} "
                                "writes the book of one of them.", lo=str(sizes[-2] + 1),
                                hi=str(sizes[-1] - 1), cmd=code("rulespec doc --players N"))))
    held = _held_at_start(facts)
    kept = _kept(facts)
    zones: list[tuple[Inline, str | None]] = []
    for z in spec.zones:
        # a zone the game's words name (the stock, the pile) is defined here, by its word,
        # and not again among the words (rounds 36 and 37: the pile and the centre missing
        # from the table's places, read of in the steps before the words said them)
        # named by its name, or by the label its text opens with ("A player's left row: ...")
        head = (z.doc or "").split(":")[0].lower() if ":" in (z.doc or "") else ""
        named = [clause(t.span) for t in spec.terms if z.name.replace("_", " ") in t.word.lower()
                 or head.endswith(" " + t.word.lower())]
        term = next((t for t in out.terms if t[2] in named), None)
        # a place cards lie when play starts, or go to and stay (the centre), not one they
        # pass through (rounds 40 and 41: the trick read as no place on the table)
        if term is not None and (held is None or z.name in held or z.name in kept):
            out.terms.remove(term)
            out.said.add(term[1])
            # who sees it beside its word, before a long text (round 41: "...the leader
            # first (known to everyone)" read as a tag on the last clause)
            zones.append((inline(strong(term[0]), f" ({_seen(z, w)}): ",
                                 term[1].rstrip("."), "."), clause(z.span)))
        elif z.doc and (held is None or z.name in held):
            # a zone in a few words: its text's first sentence (by its text alone: a zone's
            # name is the spec's, "left_down", not a player's word)
            zones.append((inline(_SENTENCE.split(prose(w.text(z.doc)))[0].rstrip("."),
                                 f" ({_seen(z, w)})."), clause(z.span)))
    if len(zones) > 1:  # a hand alone needs no list
        out.add(Paragraph(w.say("Where the cards lie:")))
        out.add(Bullets(tuple(zones)))
        out.define(" ".join("".join(r.text for r in z[0]) for z in zones))


def _card_notes(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    """Before the first table that writes cards: how cards are written, and a second pack's
    needs and notation."""
    # how cards are written, before the first table that writes them (round 17)
    if spec.deck.french and any("JK" in t.counts.get(RANKS_KEY, "") for t in facts.tables):
        out.para(w.word("Cards are written by rank and suit: A (Ace), K, Q, J, 10, 9 down to "
                        "2, then ♣ clubs, ♦ diamonds, ♥ hearts or ♠ spades; JK is the Joker."),
                 define=False)
    elif spec.deck.french:
        # a game without a Joker does not name one (nor is "Ace" here the game's word: the
        # notation defines no term)
        out.para(w.word("Cards are written by rank and suit: A (Ace), K, Q, J, 10, 9 down to "
                        "2, then ♣ clubs, ♦ diamonds, ♥ hearts or ♠ spades."), define=False)
    packs = second_packs(facts)
    if packs:
        # what a table needs before anything else (rounds 43 to 45: two packs with different
        # backs were said only in a word's definition)
        out.para(w.word("Two packs are needed, with different backs: the cards to play with, "
                        "and {pack}.", pack=zone_said(spec, packs[0], w)), define=False)
    if packs and spec.deck.french:
        # a second pack's cards bear the same names (rounds 15 to 20: a bid card A♠ read as
        # the A♠ played): the example writes them in angle quotes
        out.para(w.word("In the example deal a card of {pack} is written in angle brackets, "
                        "‹2♠›, to tell it apart from the playing cards.",
                        pack=zone_said(spec, packs[0], w)))


def _kept(facts: BookFacts) -> set[str]:
    """The zones the example's cards go to and never leave (failed cards to the centre)."""
    gained: set[str] = set()
    lost: set[str] = set()
    for t in facts.example.events if facts.example is not None else ():
        gained.update(zone for zone, cards, _ in t.shared if cards)
        lost.update(zone for zone, _, cards in t.shared if cards)
        gained.update(zone for zone, _, _ in t.gained)
        lost.update(zone for zone, _, _ in t.lost)
    return gained - lost


def _held_at_start(facts: BookFacts) -> set[str] | None:
    """The zones that hold cards when play starts in the example (the places a player sees
    on the table then), or None without an example."""
    ex = facts.example
    if ex is None or ex.picture is None:
        return None
    held = set()
    for name, z in ex.picture[1].items():
        cards = [c for h in z for c in (h if isinstance(h, list) else [h])]
        if cards:
            held.add(name)
    return held


def _steps(spec: CheckedSpec, body: ast.Block, w: Words, out: _Writer,
           decided: Callable[[int], Inline] | None = None) -> None:
    """The steps of ``body`` with a text, numbered; ``decided`` gives, for a step by its place
    among all of ``body``'s steps, the decisions made in it, said after its text."""
    # a step without a text is the spec's structure only: its procedure's text says it
    # (round 22: the turn told in an opening line, three steps and the decisions)
    items = []
    for i, s in enumerate(steps_of(body.stmts)):
        if not s.doc:
            continue
        text = prose(w.text(s.doc))
        title = strong(w.text(s.title).rstrip(".") + ".")
        out.said.update(_SENTENCE.split(text))
        # the words a step first uses, defined in it (rounds 22 to 25: a list of them after
        # the steps came too late, before them too soon), each on a line of its own (rounds
        # 26 and 27: three of them run into the step's text crammed it)
        made = decided(i) if decided else ()
        said: list[Run] = []
        used = " ".join([text, *(r.text for r in made)])
        for word, meaning, _ in ([] if out.hold else out.take(used)):
            said += [Run("break", " "), strong(cap(word) + ":"), *inline(" " + meaning)]
        items.append((inline(title, " " + text, *made, *said), clause(s.span)))
    if items:
        out.add(Bullets(tuple(items), ordered=True))


def _deal(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    _h(out, w.word("The deal"), "the-deal")
    if spec.deal.doc:
        out.para(w.text(spec.deal.doc), clause(spec.deal.span))
    # each decision inside the step that makes it (rounds 32 and 35: the steps, then the
    # same choices again in a list of decisions, told each rule twice)
    placed = placed_in_steps(spec, facts)

    def decided(i: int) -> Inline:
        return step_lines(decision_rows(spec, facts, w, out.said,
                                        lambda a: placed.get(a) == i, named=False))

    _steps(spec, spec.deal.body, w, out, decided)


def _play(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    """Play, in the order a player reads it: the turn's steps, what may be played (the
    spec's tables of play), the decisions, one row each, the phases' figure, then the other
    rules of play (a procedure without steps), each under its section's title where that
    section is its own."""
    _h(out, w.word("Play"), "play")
    told = [pr for pr in spec.procs if steps_of(pr.body.stmts) or _decides(pr, facts)]
    stepped = [pr for pr in told if steps_of(pr.body.stmts)]
    for pr in stepped:
        _proc(spec, pr, w, out)
    _tables(spec, facts, w, out, scoring=False)
    placed = placed_in_steps(spec, facts)
    rows = decision_rows(spec, facts, w, out.said, lambda a: a not in placed)
    if rows:
        # the play alone, its rules under its name (the others are in the deal's steps)
        if len(rows) > 1:
            out.add(Paragraph(w.say("The decisions you make in a deal:")))
        for b in decisions_said(rows):
            out.add(b)
        out.define(" ".join(" ".join(texts) for _, texts in rows.values()))
    # no phase diagram here: readers of six rounds found it said less, and less clearly, than
    # the sections that follow; it is the implementer's reference's (sections.py)
    sections = _sections_of(spec)
    headed: set[str] = set()
    for pr in told:
        if pr in stepped:
            continue
        section = sections.get(pr.name)
        if section is not None and section.title not in headed:
            headed.add(section.title)
            out.add(Heading(2, inline(w.text(section.title)), f"play-{len(headed)}"))
        _proc(spec, pr, w, out)


def _rare_cases(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    """The rare cases of the steps and decisions (``rare``), after the rest of Play, each by
    the step's title or the decision's name (rounds 31 to 35: a case of the largest tables
    only, or of an empty stock with nothing to shuffle, told in the steps, tripped a first
    reading)."""
    found: list[tuple[Inline, str, ast.Span]] = []
    for body in (spec.deal.body, *(pr.body for pr in spec.procs)):
        found += [((strong(w.text(s.title).rstrip(".")),), s.rare, s.span)
                  for s in walk.descendants(body) if isinstance(s, ast.Step) and s.rare]
    found += [(decision_name(m.alt.action, w), m.alt.rare, m.alt.span) for m in walk_play(spec)
              if m.alt.rare and offered(facts, m.alt.action) and m.alt not in facts.off]
    items = []
    for name, text, span in found:
        said = prose(w.text(text))
        if said not in out.said:
            out.said.add(said)
            items.append((inline(*name, ": ", said), clause(span)))
    if items:
        out.add(Heading(2, inline(w.word("Rare cases")), "rare-cases"))
        out.add(Bullets(tuple(items)))
        out.define(" ".join("".join(r.text for r in i) for i, _ in items))


def _proc(spec: CheckedSpec, pr: ast.ProcDecl, w: Words, out: _Writer) -> None:
    if pr.doc:
        out.para(w.text(pr.doc), clause(pr.span))
    _steps(spec, pr.body, w, out)


def _sections_of(spec: CheckedSpec) -> dict[str, ast.SectionDecl]:
    """The procedures of a section of their own (no deal, no match, no procedure with steps
    in it: a section on one rule of play, a penalty rule, say), by name, with that section."""
    found: dict[str, ast.SectionDecl] = {}
    section: ast.SectionDecl | None = None
    members: dict[int, list[object]] = {}
    heads: dict[int, ast.SectionDecl] = {}
    for it in spec.items:
        if isinstance(it, ast.SectionDecl):
            section = it
            heads[id(it)] = it
            members[id(it)] = []
        elif section is not None:
            members[id(section)].append(it)
    for key, items in members.items():
        if any(isinstance(x, (ast.DealDecl, ast.MatchDecl)) or isinstance(x, ast.ProcDecl)
               and steps_of(x.body.stmts) for x in items):
            continue
        found.update((x.name, heads[key]) for x in items if isinstance(x, ast.ProcDecl))
    return found


def _decides(pr: ast.ProcDecl, facts: BookFacts) -> bool:
    """Whether a procedure holds a rule a player must know, steps or none: a decision, unless
    it is nothing but one choice these settings never offer (a variation's decision)."""
    alts = [x for x in walk.descendants(pr.body) if isinstance(x, ast.Alternative)]
    only_a_choice = len(pr.body.stmts) == 1 and isinstance(pr.body.stmts[0], ast.Choose)
    return bool(alts) and (not only_a_choice or any(offered(facts, a.action) for a in alts))


def _tables(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer, scoring: bool
            ) -> None:
    """The tables the spec declares for the book, as the first table size works them out."""
    # the tables as the example's table size works them out (the usual table), said so
    size = facts.example.players if facts.example is not None else None
    first = next((t for t in facts.tables if t.players == size and not t.options),
                 facts.tables[0] if facts.tables else None)
    for tb in spec.tables:
        if first is None or tb.name not in first.rows or scores_table(tb) != scoring:
            continue
        if tb.doc:
            out.para(w.text(tb.doc), clause(tb.span))
        same = all(t.rows.get(tb.name) == first.rows[tb.name] for t in facts.tables)
        sizes = [t for t in facts.tables if not t.options and tb.name in t.rows]
        if not same and len(tb.columns) == 2 and len(sizes) > 1:
            # a number by table size: a column for each size (round 11: the bonus for two
            # and three players was left to the reader's arithmetic)
            out.add(by_size(tb, sizes, w))
            continue
        caption = (inline(w.text(tb.title)) if same else
                   w.say("{title}, with {n} players:", title=w.text(tb.title),
                         n=str(first.players)))
        ranks = by_rank(first.rows[tb.name], w.lang)
        rows = [tuple(inline(ranks[i]) if ranks and j == 0 else cell(v, w)
                      for j, v in enumerate(row)) for i, row in enumerate(first.rows[tb.name])]
        out.add(Table(tuple(inline(w.text(c.heading)) for c in tb.columns),
                      tuple(merged(rows, inline(w.word("any other card")) if ranks else None)),
                      caption=caption, source=clause(tb.span)))


def _scoring(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    _h(out, w.word("Scoring"), "scoring")
    defs = spec.def_named
    done: set[str] = set()
    for e in sorted(end_deals(spec), key=lambda x: x.flag is not None):
        d = defs.get(e.scoring)
        if d is None or d.name in done or not d.doc:
            continue
        done.add(d.name)
        out.para(w.text(d.doc), clause(d.span))
    _tables(spec, facts, w, out, scoring=True)


def _yields(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    """After Scoring: each section of the spec that declares what a deal yields besides the
    scores (a ``result``: chips won, a pot carried over), under its own title, in its words."""
    found: list[ast.SectionDecl] = []
    section: ast.SectionDecl | None = None
    for it in spec.items:
        if isinstance(it, ast.SectionDecl):
            section = it
        elif isinstance(it, ast.ResultDecl) and section is not None and section.doc \
                and section not in found:
            found.append(section)
    for i, s in enumerate(found, start=1):
        _h(out, w.text(s.title), f"{YIELDS}{i}")
        out.para(w.text(s.doc or ""), clause(s.span))


def _end(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    _h(out, w.word("The end of the match"), "the-end")
    if spec.match.doc:
        out.para(w.text(spec.match.doc), clause(spec.match.span))
    _steps(spec, spec.match.body, w, out)


def _example(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    ex: Example | None = facts.example
    if ex is None:
        return
    _h(out, w.word("An example deal"), "example")
    # a player who could empty their hand did (facts._going_out): the book says so, since
    # the rest is chance
    out.add(Paragraph(w.say(
        "A deal at a table of {n}, played by the rules of this book, each choice made as a "
        "thoughtful player might make it; seat 1 deals, and the seats are numbered clockwise. "
        "A note in italics tells what a move did that the move itself does not show.",
        n=str(ex.players)) if ex.given is not None else w.say(
        "A deal at a table of {n}, played by the rules of this book, every choice drawn at "
        "random except that a player who can go out does; seat 1 deals, and the seats are "
        "numbered clockwise. A note in italics tells what a move did that the move itself does "
        "not show.", n=str(ex.players)) if ex.went_out else
        w.say(
        "A deal at a table of {n}, played by the rules of this book, every choice drawn at "
        "random; seat 1 deals, and the seats are numbered clockwise. A note in italics tells "
        "what a move did that the move itself does not show.",
        n=str(ex.players))))
    # the zones the deal fills for each player: cards a move brings there are taken
    hands = frozenset(k[:-5] for t in facts.tables for k in t.counts if k.endswith(" each"))
    at: list[int] = []
    second = second_pack_zones(spec, second_packs(facts))
    lines = example_lines(spec, ex, w, hands,
                          (ex.picture[0], at) if ex.picture is not None else None, second)
    arrow = w.marks(" →")
    if any(r.text == arrow for line, _ in lines for r in line):
        # a draw's cards after an arrow (round 53: "→ 8♠" had to be guessed as drawn)
        out.add(Paragraph(w.say("An arrow, {arrow}, gives the cards a move brought to the "
                                "player's hand.", arrow=arrow.strip())))
    # the table as it lies just before the first play, in the example where that comes
    # (rounds 8 and 9: a figure in "Players and cards" was far from the deal it shows);
    # seats counted from 1, as players count them (the records count from 0)
    fig = table_figure(spec, facts, w.any, direction_of(w), first_seat=1,
                       names=lambda name: zone_said(spec, name, w), digits=w.digits,
                       card=lambda c: card_in(c, w.lang), second=second)
    if fig is None or not at:
        out.add(Bullets(tuple(lines), ordered=False))
        return
    out.add(Bullets(tuple(lines[:at[0]]), ordered=False))
    out.add(Figure(fig.svg, fig.alt, w.say("The table just before the first play of the "
                                           "example deal.")))
    out.add(Bullets(tuple(lines[at[0]:]), ordered=False))


def _variations(spec: CheckedSpec, facts: BookFacts, w: Words, out: _Writer) -> None:
    blocks = house_rules(spec, w)
    if not blocks:
        return
    _h(out, w.word("Variations"), "variations")
    out.add(Paragraph(w.say("The rules above are the defaults, and a first game needs nothing "
                            "more. Each house rule below changes them if the players agree to it "
                            "before the match.")))
    # a word only the house rules use (the dummy) is defined with them, not in an appendix
    # (round 10: "More words of the game" held the dummy alone), after the first rule that
    # uses it (round 27: after the last, it read as a stray line)
    out.variations = True
    told: list[str] = []
    for b in blocks:
        if told and isinstance(b, Paragraph) and b.text[:1] and b.text[0].kind == "strong":
            out.define(" ".join(told))  # the rule before, told whole: its title, its ways
            told = []
        out.add(b)
        told.append(_text_of(b))
    out.define(" ".join(told))


def _hints(spec: CheckedSpec, w: Words, out: _Writer) -> None:
    """The spec's words of advice (``hint``). Numbers measured by random play are left out:
    random play is not how people play, and its figures (a five-hundred-turn deal) mislead."""
    if not spec.hints:
        return
    _h(out, w.word("Hints"), "hints")
    out.add(Bullets(tuple((inline(prose(w.text(h.text))), clause(h.span)) for h in spec.hints)))


def rules_words(book: Book) -> tuple[int, int]:
    """The words of a player's book's rules (every section but the example, the variations and
    the hints) and of its example deal, as issue 27 counts them: tables and lists included, a
    word being a run of text with a letter in it (a table's numbers are not words)."""
    rules = example = 0
    where = ""
    for b in book.blocks:
        if isinstance(b, Heading) and b.level == 1:
            where = b.anchor
            continue
        # a word holds a letter: the numbers of a table (52, 7, 2♠) are not words
        n = sum(1 for t in _text_of(b).split() if _LETTER.search(t))
        if where in RULES_SECTIONS or where.startswith(YIELDS):
            rules += n
        elif where == "example":
            example += n
    return rules, example


def _text_of(b: Block) -> str:
    if isinstance(b, Paragraph):
        return "".join(r.text for r in b.text)
    if isinstance(b, Bullets):
        return " ".join("".join(r.text for r in i) for i, _ in b.items)
    if isinstance(b, Table):
        cells = [*b.header, *(c for row in b.rows for c in row)]
        return " ".join("".join(r.text for r in c) for c in cells)
    if isinstance(b, Heading):
        return "".join(r.text for r in b.text)
    return ""
