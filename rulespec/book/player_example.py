"""The example deal of a player's book, told turn by turn in a player's words: each turn on a
line, numbered, each decision by its name in words and its choices as a player says them
("declare, pile: yes"), with the cards it brought to a player, and a note in italics where
something happens that the moves alone do not show (a trick gathered to its winner, numbered,
with the winner's count; cards a player takes on someone else's move, a penalty or an Ace's
draw; cards a rule sends where everyone sees them, failed cards to the centre). A trick of a
card from each player is told on one line (:mod:`rulespec.book.tricks_told`).

The deal was played once, by :mod:`rulespec.book.facts`; nothing here runs the game.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from rulespec.book.causes import ONLY, named_values
from rulespec.book.document import Inline, Run, em, inline
from rulespec.book.english import cap, words
from rulespec.book.example_end import ending
from rulespec.book.facts import RANK_ORDER, Example, Told
from rulespec.book.hands_told import PILE_CARDS, Held
from rulespec.book.i18n import Words
from rulespec.book.labels import first_clause, truth
from rulespec.book.reading import clause, prose, steps_of
from rulespec.book.said import said, told_of
from rulespec.book.tricks_told import Moved, Played, by_trick
from rulespec.lang import ast, walk
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["EXAMPLE_MOVES", "EXAMPLE_TURNS", "example_lines", "steps_of_actions", "zone_said",
           "zone_word"]

#: the turns an example tells at most (the rest is summed up in one line), and the moves of
#: one turn
EXAMPLE_TURNS = 80
EXAMPLE_MOVES = 12
#: where a zone's text's first words end (a zone named by them in a note)
_HEAD = re.compile(r"[:;.(]")
_COMMA = re.compile(r"[,،]")


def zone_word(spec: CheckedSpec, name: str, w: Words) -> str:
    """A zone by the word the game's terms give it (``discard`` -> the term ``discard pile``,
    in the book's language), else its name in words."""
    said = name.replace("_", " ")
    for t in spec.terms:
        if t.word.lower().startswith(said.lower()):
            return w.text(t.word)
    return w.any(said)


#: the ranks in a suit's order from the 2 up, for runs of cards
_RANKS = RANK_ORDER[::-1]
#: the fewest cards of a suit in a row written as a run, ``2♣–A♣`` (a bid suit taken whole)
RUN_AT_LEAST = 5


def _cards(cards: tuple[str, ...], order: Mapping[str, int] | None,
           second: bool = False) -> list[Run]:
    """Cards in the deck's order (``order``; None: as given, a trick's in the order played);
    five or more of one suit with ranks in a row written as a run from the first to the last
    (``2♣–A♣``: a suit taken whole is not thirteen cards); with ``second``, cards of a second
    pack, each card or run in angle quotes (``‹2♠›``, ``‹2♣–A♣›``: square brackets are
    Markdown's own)."""
    ranked = list(cards) if order is None else sorted(cards, key=lambda x: order.get(x, 0))
    groups: list[list[str]] = []
    for c in ranked:
        last = groups[-1][-1] if groups else None
        if last is not None and _next_in_suit(last, c):
            groups[-1].append(c)
        else:
            groups.append([c])
    runs: list[Run] = []
    for g in groups:
        shown = [g[0], "–", g[-1]] if len(g) >= RUN_AT_LEAST else g
        for i, c in enumerate(shown):
            if c == "–":
                runs.extend(inline("–"))
                continue
            if not runs or runs[-1].text != "–":
                runs.extend(inline(" ‹" if second else " "))
            runs.append(Run("card", c))
            if second and (i == len(shown) - 1 or shown[i + 1] != "–"):
                runs.extend(inline("›"))
    return runs


def _next_in_suit(a: str, b: str) -> bool:
    """Whether card ``b`` is the card after ``a`` in its suit (``9♣`` then ``T♣``)."""
    return (len(a) == len(b) == 2 and a[1] == b[1] and a[0] in _RANKS and b[0] in _RANKS
            and _RANKS.index(b[0]) == _RANKS.index(a[0]) + 1)


def _dealt(spec: CheckedSpec, t: Told, w: Words, order: Mapping[str, int]) -> Inline:
    """What a chance event did: each hand's cards, and what lies elsewhere."""
    parts: list[Run] = list(w.say("The deal."))
    for name, z in (t.zones or {}).items():
        zone = cap(zone_said(spec, name, w))
        if z and isinstance(z[0], list):
            for q, h in enumerate(z):
                if isinstance(h, list) and h:
                    parts += [*inline(" "), *w.say("Seat {seat}:", seat=str(q + 1)),
                              *_cards(tuple(str(c) for c in h), order), *inline(".")]
        elif z and len(z) <= PILE_CARDS:
            parts += [*inline(f" {zone}:"), *_cards(tuple(str(c) for c in z), order),
                      *inline(".")]
        elif z:
            parts += [*inline(" "), *w.say("{zone}: {n} cards.", zone=zone, n=str(len(z)))]
    return tuple(parts)


def example_lines(spec: CheckedSpec, ex: Example, w: Words, hands: frozenset[str] = frozenset(),
                  mark: tuple[str, list[int]] | None = None,
                  second: frozenset[str] = frozenset()) -> list[tuple[Inline, str | None]]:
    """The example's lines: the deal, then each turn (the moves of one player in a row);
    ``hands`` are the zones the deal fills for each player (cards a move brings there are
    told as taken). With ``mark`` (a decision and a list), the index of the line where that
    decision is first made is added to the list (the table's figure goes before it).
    ``second``: the zones that hold only a second pack's cards (written in angle quotes)."""
    told = _Teller(spec, ex, w, hands)
    told.rounds.second = second
    for t in ex.events:
        if not told.event(t, mark):
            break
    told.end_turn(None)
    lines = by_trick(told.lines, told.played, w, lambda z: zone_word(spec, z, w))
    return _after(spec, lines, ex, told.turns > EXAMPLE_TURNS, w, second)


class _Teller:
    """The example's lines as they are told, event by event."""

    def __init__(self, spec: CheckedSpec, ex: Example, w: Words, hands: frozenset[str]) -> None:
        self.spec, self.w, self.hands = spec, w, hands
        self.order = spec.deck.order or CARD_ORDER
        self.actions = {a.name: a for a in spec.actions}
        self.sets = _set_by(spec)
        self.stage = steps_of_actions(spec)
        self.lines: list[tuple[Inline, str | None]] = []
        self.turn: list[Run] = []
        self.seat: object = None
        self.turns = self.moves = 0
        self.src: str | None = None
        self.noted = _Notes(spec, w)
        self.rounds = _Rounds(ex.hands)
        self.rounds.final = ex.events[-1] if ex.ended and ex.events else None
        self.settled = _Settled(spec, w, self.order)
        self.last: int | None = None  # the step of the deal of the last move
        self.closed = 0  # the rounds gathered when the turn began
        self.chosen: set[tuple[str, ...]] = set()  # the choices said to be choices
        self.chosen_now: set[tuple[str, ...]] = set()  # and in the turn being told
        #: the author's notes of a given deal, by the index of the event each follows
        self.notes = dict(ex.notes)
        self.index = -1  # the event being told
        #: the turns of one move, by their line's index (a trick's told on one line)
        self.played: dict[int, Played] = {}
        self.one: Played | None = None  # the turn being told, while it is of one move
        self.held = Held(hands, lambda z: cap(zone_said(spec, z, w)))

    def end_turn(self, step_over: range | None) -> None:
        """The turn told, what it made true for a player, and where steps of the deal are
        over (``step_over``, their numbers), what they set that the game's words name (round
        9: who declared, what is D?)."""
        if self.turn:
            self.lines.append((tuple(self.turn), self.src))
            if self.one is not None and self.moves == 1:
                self.played[len(self.lines) - 1] = self.one
            self.lines.extend(self.noted.flush())
            every = self.held.line(self.turns, self.w, lambda cs: _cards(cs, self.order))
            if every is not None:
                self.lines.append((every, None))
        self.one = None
        if step_over is not None:
            self.lines.extend(self.settled.flush(step_over))

    def event(self, t: Told, mark: tuple[str, list[int]] | None) -> bool:
        """One event told; False once the example has told as many turns as it tells."""
        ev, w = t.event, self.w
        self.index += 1
        if "chance" in ev:
            self.held.follow(t)
            # the deal; a shuffle within a turn (the stock made again) and the cards drawn
            # after it, told with the turn (round 8: an Ace's draws went untold)
            if t.zones is not None and not self.lines and not self.turn:
                self.lines.append((_dealt(self.spec, t, w, self.order),
                                   clause(self.spec.deal.span)))
            elif self.turn and t.gained:
                self.turn += _shuffled(self.spec, t, self.seat, w, self.order,
                                       self.rounds.hands)
                self.turn += self._note()
                self.one = None  # a turn with a shuffle in it is told on its own line
            return True
        phase = self.stage.get(str(ev["action"]))
        step_over = (range(self.last, phase) if phase is not None and self.last is not None
                     and phase != self.last else None)
        if ev["seat"] != self.seat or step_over is not None or self.rounds.n != self.closed:
            # a turn is one player's moves in a row within one step of the deal, and a round
            # gathered (a trick won) ends it: the last exposure and the first lead are two
            # turns (round 6), and so are the card that wins a trick and the next lead
            # (round 7)
            self.closed = self.rounds.n
            self.end_turn(step_over)
            if mark is not None and ev["action"] == mark[0] and not mark[1]:
                mark[1].append(len(self.lines))  # the figure goes before this turn
            self.turns, self.moves, self.seat = self.turns + 1, 0, ev["seat"]
            if self.turns > EXAMPLE_TURNS:
                self.turn = []
                return False
            self.chosen_now = set()
            self.turn = self._header(ev)
            info = self.actions.get(str(ev["action"]))
            self.src = clause(info.span) if info else None
        # the hands after the turn before this one are told before this move changes them
        self.held.follow(t)
        self.last = phase if phase is not None else self.last
        self.moves += 1
        # what the move made true that the decision itself does not set (a rule applied as
        # the turn passes on): told on a line after the turn
        self.noted.add([r for r in t.raised
                        if r[0] not in self.sets.get(str(ev["action"]), set())])
        self.settled.add(t.settled)
        if self.moves <= EXAMPLE_MOVES:
            moved = _move(self.spec, t, w, self.order, self.hands, self.rounds)
            extra = _chose(str(ev["action"]), t.instead, w, self.chosen, self.chosen_now)
            extra += self._note()
            # a move after three notes on its own line (rounds 36 to 41: a turn of six moves in one)
            busy = sum(r.kind == "em" and r.text.lstrip()[:1] == "(" for r in self.turn) > 2
            cut = [Run("break", " ")] if busy else inline(w.marks(";"))
            self.turn += [*(cut if self.moves > 1 else ()), *moved.runs(tuple(extra))]
            self.one = Played(int(str(ev["seat"])), str(ev["action"]), moved, extra)
        elif self.moves == EXAMPLE_MOVES + 1:
            self.turn += inline("; …")
        return True

    def _header(self, ev: Mapping[str, object]) -> list[Run]:
        """The turn's start: its number and seat, which is the subject of a move said as a
        sentence (round 30: "place, tricks: 1 2" read as a machine's log)."""
        n, seat = str(self.turns), str(int(str(self.seat)) + 1)
        if told_of(self.spec.actions, ev):
            return [*self.w.say("Turn {n}: seat {seat}", n=n, seat=seat)]
        return [*self.w.say("Turn {n}, seat {seat}:", n=n, seat=seat)]

    def _note(self) -> list[Run]:
        """The author's note after the event being told, if any: why the player chose so
        (round 18: "why does seat 4 lead the Joker?"), or what the cards just drawn mean."""
        note = self.notes.get(self.index)
        return [] if note is None else [*inline(" "), em("(" + self.w.text(note).rstrip(".")
                                                         + ")")]


def _chose(action: str, instead: tuple[str, ...], w: Words, said: set[tuple[str, ...]],
           now: set[tuple[str, ...]]) -> list[Run]:
    """A decision without choices (a draw, a pass) made while a card could have been
    played: said to be a choice (round 9: a pass with a card to play read as a mistake; round
    17: a draw while holding an eight); one that was the only decision allowed, said to be so
    (round 17: a pass after three draws with nothing to play on an eight); each the first
    time only (``said``: what was said so); a later choice of the same kind said in a word,
    once a turn (``now``; round 22: draws unmarked after the first read as forced)."""
    key = (action, *instead)
    if not instead or key in now or key in said and instead == (ONLY,):
        return []
    now.add(key)
    if key in said:
        return [*inline(" "), em(w.word("(by choice)"))]
    said.add(key)
    if instead == (ONLY,):
        return [*inline(" "), em(w.word("(nothing else was allowed)"))]
    other = w.marks(", ").join(w.decision(words(a)) for a in instead)
    return [*inline(" "), em(w.word("(by choice: {decision} was allowed too)", decision=other))]


class _Settled:
    """The table's values that the game's words name (the declarer, B), as a step of the
    deal leaves them: kept as the moves change them, told when the step ends."""

    def __init__(self, spec: CheckedSpec, w: Words, order: Mapping[str, int]) -> None:
        self.named = named_values(spec)
        self.seats = _seat_values(spec)
        self.w = w
        self.order = order
        self.now: dict[str, object] = {}
        #: the values each step of the deal sets, in its body and the procedures it calls
        self.set_in = [_sets(spec, step.body, set()) for step in steps_of(spec.deal.body)]

    def add(self, settled: tuple[tuple[str, object], ...]) -> None:
        self.now.update(settled)

    def flush(self, steps: range) -> list[tuple[Inline, str | None]]:
        """What the steps ``steps`` set that the game's words name, as they left it."""
        done = {n for i in steps if 0 <= i < len(self.set_in) for n in self.set_in[i]}
        parts: list[Run] = []
        for name, value in self.now.items():
            if value is None or name not in self.named or name not in done:
                continue
            # (not "word": a name the catalog's extractor takes for the book's function)
            term = self.w.text(self.named[name])
            # capitalised as the line starts, not after a semicolon (round 23's «; Заказ»)
            term = term if parts else term[:1].upper() + term[1:]
            if parts:
                parts.append(em(self.w.marks("; ")))
            if name in self.seats and isinstance(value, int):
                parts.append(em(self.w.word("{term}: seat {seat}", term=term,
                                            seat=str(value + 1))))
            elif isinstance(value, str) and value in ("C", "D", "H", "S"):
                parts += [em(f"{term}: "), Run("suit", value)]
            elif isinstance(value, str) and value in self.order:
                parts += [em(f"{term}: "), Run("card", value)]
            else:
                parts.append(em(f"{term}: {self.w.digits(str(value))}"))
        if not parts:
            return []
        # one stretch of italics where nothing else comes between (a card would)
        merged: list[Run] = []
        for r in (*parts, em(".")):
            if merged and r.kind == "em" and merged[-1].kind == "em":
                merged[-1] = em(merged[-1].text + r.text)
            else:
                merged.append(r)
        return [(tuple(merged), None)]


def _seat_values(spec: CheckedSpec) -> set[str]:
    """The table's values that hold a seat: the player a decision is asked of (``choose
    declarer``), or an index of something each player has (``hand[declarer]``)."""
    per_player = {z.name for z in spec.zones if z.per_player} | {
        v.name for v in spec.vars if v.per_player}
    out: set[str] = set()

    def name(e: object) -> str | None:
        while isinstance(e, ast.Cited):  # ``choose maker [ES-2]``
            e = e.expr
        return e.id if isinstance(e, ast.Name) else None

    for n in walk.descendants(spec.items):
        if isinstance(n, ast.Choose):
            found = name(n.seat)
        elif isinstance(n, ast.Index) and name(n.target) in per_player:
            found = name(n.index)
        elif isinstance(n, ast.Call) and n.func in _OF_A_SEAT and len(n.args) == 1:
            found = name(n.args[0])  # ``partner(maker)``
        else:
            continue
        if found is not None:
            out.add(found)
    return out


#: the builtins whose one argument is a seat
_OF_A_SEAT = frozenset({"left_of", "right_of", "seats_from", "team_of", "partner"})


def _after(spec: CheckedSpec, lines: list[tuple[Inline, str | None]], ex: Example, cut: bool,
           w: Words, second: frozenset[str]) -> list[tuple[Inline, str | None]]:
    """The lines after the turns told: where the telling stopped (``cut``: before the deal's
    end), then the deal's end (``second``: the zones of a second pack's cards)."""
    if not ex.ended:
        lines.append((w.say("… the deal had not ended after {n} events, and is not told "
                            "further.", n=str(ex.length)), None))
        return lines
    if cut:
        lines.append((w.say("… and so on, to the end of the deal ({n} moves in all).",
                            n=str(ex.length)), None))
    return ending(spec, lines, ex, w, _cards, second)


class _Notes:
    """The lines that tell what a turn made true for a player, in the spec's words: the
    truth's whole text the first time, its first clause after."""

    def __init__(self, spec: CheckedSpec, w: Words) -> None:
        self.docs = {v.name: v.doc for v in spec.vars if v.doc}
        self.w = w
        self.told: set[str] = set()
        self.pending: list[tuple[str, int]] = []

    def add(self, raised: list[tuple[str, int]]) -> None:
        self.pending += [r for r in raised if r not in self.pending]

    def flush(self) -> list[tuple[Inline, str | None]]:
        out: list[tuple[Inline, str | None]] = []
        for name, q in self.pending:
            text = prose(self.w.text(self.docs[name]))
            state = truth(text.rstrip(".") if name not in self.told else first_clause(text, 90))
            self.told.add(name)
            said = self._said(state, q)
            out.append(((em(said),), None))
        self.pending = []
        return out

    def _said(self, state: str, q: int) -> str:
        """A truth about a player said of its seat (round 22: "Seat 4 now: the player is
        ..." read as machine-made)."""
        w = self.w
        subject = w.word("the player") + " "
        if state.startswith(subject):
            seat = w.word("the player at seat {seat}", seat=str(q + 1))
            return w.word("Now {state}.", state=seat + " " + state[len(subject):])
        return w.word("Seat {seat} now: {state}.", seat=str(q + 1), state=state)


def steps_of_actions(spec: CheckedSpec, first: bool = False) -> dict[str, int]:
    """Each decision's step of the deal (its number in the deal block's steps), found in the
    step's body and the procedures it calls; a decision in no step has none, nor one in
    several (or, where ``first``, the first of them)."""
    procs = spec.proc_named
    found: dict[str, set[int]] = {}

    def visit(body: object, i: int, seen: set[str]) -> None:
        for n in walk.descendants(body):
            if isinstance(n, ast.Alternative):
                found.setdefault(n.action, set()).add(i)
            elif isinstance(n, ast.CallStmt) and n.name in procs and n.name not in seen:
                seen.add(n.name)
                visit(procs[n.name].body, i, seen)

    for i, step in enumerate(steps_of(spec.deal.body)):
        visit(step.body, i, set())
    return {a: min(s) for a, s in found.items() if len(s) == 1 or first}


def _sets(spec: CheckedSpec, body: object, seen: set[str]) -> set[str]:
    """The variables ``body`` sets, itself and in the procedures it calls."""
    procs = spec.proc_named
    out: set[str] = set()
    for n in walk.descendants(body):
        if isinstance(n, ast.Set):
            out.add(n.name)
        elif isinstance(n, ast.CallStmt) and n.name in procs and n.name not in seen:
            seen.add(n.name)
            out |= _sets(spec, procs[n.name].body, seen)
    return out


def _set_by(spec: CheckedSpec) -> dict[str, set[str]]:
    """The variables each decision sets, in its own body and the procedures it calls."""
    found: dict[str, set[str]] = {}
    for body in (spec.match.body, spec.deal.body, *(p.body for p in spec.procs)):
        for n in walk.descendants(body):
            if isinstance(n, ast.Alternative):
                found.setdefault(n.action, set()).update(_sets(spec, n.body, set()))
    return found


def _move(spec: CheckedSpec, t: Told, w: Words, order: Mapping[str, int],
          hands: frozenset[str], rounds: _Rounds) -> Moved:
    """One move, as a player says it: the decision by its name in words and its choices, and
    the cards it brought: into the mover's hand (a draw: ``→ 3♣``; after a move of another
    kind, said as taken), into another player's hand (taken), a round of the table gathered to
    one player (a trick won, numbered), to another player's other cards, or to a zone everyone
    sees (failed cards to the centre)."""
    ev = t.event
    out: list[Run] = []

    def note(text: str, cards: tuple[str, ...], tail: str = ")", played: bool = False,
             zone: str = "") -> None:
        out.extend([*inline(" "), em(text),
                    *_cards(cards, None if played else order, zone in rounds.second),
                    em(tail)])

    why = _why(spec, t, w)
    plain = not [k for k in ev if k not in ("seat", "action")]
    own = _own(ev)
    gathered = rounds.gathered(t)
    out += _so_far(t, rounds, gathered is not None, w)
    drawn: list[tuple[int, tuple[str, ...]]] = []
    # the others' cards in the order they came, clockwise from the mover's left (round 14:
    # an Ace's draws told in seat order read against "to the left")
    for zone, q, cards in _from_left(t.gained, ev["seat"], rounds.hands):
        held = zone in hands or not hands
        if gathered is not None and (q, cards) == gathered[1:3]:
            continue
        if q == ev["seat"] and set(cards) <= own:
            continue  # the move's own cards, laid among the mover's: told by the move
        if q == ev["seat"] and _of_suit_named(ev, cards):
            continue  # a suit chosen and its cards taken: "choose suit ♣" says it
        if q == ev["seat"] and held and plain:
            out += [*inline(w.marks(" →")), *_cards(cards, order)]
        elif q == ev["seat"] and held:
            note(f"({why}:" if why else w.word("(then draws a card:") if len(cards) == 1 else
                 w.word("(then draws {n} cards:", n=str(len(cards))), cards)
        elif held:
            drawn.append((q, cards))
        elif q != ev["seat"] or _collects(ev, cards) or _public(spec, zone):
            note(w.word("(to seat {seat}, {zone}:", seat=str(q + 1),
                        zone=zone_said(spec, zone, w)), cards, zone=zone)
    out += _others_drew(drawn, w, order)
    # the move's own cards, unless the round gathered them: a card of the same name that a
    # rule sends to the centre in that move is another card (two packs), and is told
    placed = own - set(gathered[2]) if gathered is not None else own
    for text, cards, zone in _sent(spec, t, w, placed, rounds.zone):
        note(text, cards, zone=zone)
    told = told_of(spec.actions, ev)
    return Moved(inline(" ", w.decision(words(str(ev["action"])))), tuple(_fields(ev, w, order)),
                 _won_note(spec, gathered, w), (*out, *_raised(spec, t, w)),
                 gathered[:2] + gathered[3:] if gathered is not None else None,
                 said(told, ev, w, functools.partial(_is_card, order)) if told else ())


def _others_drew(drawn: list[tuple[int, tuple[str, ...]]], w: Words,
                 order: Mapping[str, int]) -> list[Run]:
    """The cards other players drew in a move, in seat order: a card each said in one note
    (round 31: an Ace's three draws were three notes in a row), else a note each."""
    out: list[Run] = []
    if len(drawn) > 1 and all(len(cards) == 1 for _, cards in drawn):
        seats = [str(q + 1) for q, _ in drawn]
        said = w.say("{a} and {b}", a=w.marks(", ").join(seats[:-1]), b=seats[-1])
        cards = tuple(c for _, cs in drawn for c in cs)
        return [*inline(" "), em(w.word("(seats {seats} each draw a card:",
                                         seats="".join(r.text for r in said))),
                *_cards(cards, None), em(")")]
    for q, cards in drawn:
        out += [*inline(" "), em(w.word("(seat {seat} draws a card:", seat=str(q + 1))
                                 if len(cards) == 1 else
                                 w.word("(seat {seat} draws {n} cards:", seat=str(q + 1),
                                        n=str(len(cards)))),
                *_cards(cards, order), em(")")]
    return out


def _won_note(spec: CheckedSpec, gathered: tuple[str, int, tuple[str, ...], int, int] | None,
              w: Words) -> Inline:
    """The note of a round gathered, on the line of the move that gathered it: its cards in
    the order played (round 11: sorted, the lead was lost), then its winner and their count
    (round 9: "who now has 1: 7♣ 8♣" read as one trick of four cards)."""
    if gathered is None:
        return ()
    zone, q, cards, n, k = gathered
    return (*inline(" "), em(w.word("({zone} {n}:", zone=zone_word(spec, zone, w), n=str(n))),
            *_cards(cards, None),
            # the count by its noun (round 15: "who now has 1" read as "1 what?")
            em(w.word(", to seat {seat}: {zone}s now {k})", seat=str(q + 1), k=str(k),
                      zone=zone_word(spec, zone, w))))


def _so_far(t: Told, rounds: _Rounds, gathered: bool, w: Words) -> list[Run]:
    """Who would succeed were the deal to end now, after a round that changed it (round 16)."""
    was, rounds.verdicts = rounds.verdicts, t.verdicts
    out: list[Run] = []
    if not gathered or was is None or t is rounds.final:  # (round 41: said as it ended)
        return out
    for (term, before), (_, now) in zip(was, t.verdicts, strict=False):
        if before != now:
            who = [str(q + 1) for q, x in enumerate(now) if x]
            out.extend([*inline(" "), em(
                w.word("({term} if the deal ended now: seat {seat})", term=w.text(term),
                       seat=who[0]) if len(who) == 1 else
                w.word("({term} if the deal ended now: seats {seats})", term=w.text(term),
                       seats=w.marks(", ").join(who)) if who else
                w.word("({term} if the deal ended now: nobody)", term=w.text(term)))])
    return out


def _sent(spec: CheckedSpec, t: Told, w: Words, placed: set[str], gathered: str | None
          ) -> list[tuple[str, tuple[str, ...], str]]:
    """The cards a rule sent where everyone sees them in move ``t`` (failed cards to the
    centre), but for the move's own (``placed``) and the round gathered (zone ``gathered``):
    each note's opening words, its cards and the zone they went to."""
    out: list[tuple[str, tuple[str, ...], str]] = []
    for zone, cards, _ in t.shared:
        z = spec.zone_named.get(zone)
        sent = tuple(c for c in cards if c not in placed)
        if sent and len(sent) == len(cards) and z is not None and z.visibility == "all" \
                and zone != gathered:
            # cards a rule sent where everyone sees them (failed cards to the centre), each
            # player's said with whose they were (round 7: whose is the A♠ in the centre?)
            # and from which of their places (round 15: a bid card sent to the centre read
            # as a playing card thrown away)
            for owner, source, mine in _owners(t, sent):
                where = zone_word(spec, zone, w)
                out.append((w.word("(to the {zone}:", zone=where) if owner is None else
                            w.word("(to the {zone}, from seat {seat}'s {source}:", zone=where,
                                   seat=str(owner + 1),
                                   source=_unowned(zone_said(spec, source, w))), mine,
                            zone))
    return out


def _raised(spec: CheckedSpec, t: Told, w: Words) -> list[Run]:
    """A truth of the whole table that a word of the game names, which the event made true
    (an extra turn; round 9: the Ace's extra turn went unmarked), by that word."""
    out: list[Run] = []
    for name in t.raised_all:
        said = name.replace("_", " ").lower()
        for term in spec.terms:
            if term.word.lower().startswith(said):
                # the word itself (round 12: the truth's whole text crowded the turn)
                out += [*inline(" "), em(f"({w.text(term.word)})")]
                break
    return out


def _public(spec: CheckedSpec, zone: str) -> bool:
    """Whether a zone lies where everyone sees it: the mover's own cards laid there (a row
    turned up) are told; those laid face down for themselves (bid cards placed) are the move
    itself."""
    z = spec.zone_named.get(zone)
    return z is not None and z.visibility == "all"


def _why(spec: CheckedSpec, t: Told, w: Words) -> str | None:
    """The rule that drew a player's cards where it is not the decision's own (the penalty
    drawn as the turn passes on; round 9: why did seat 1 draw three cards?), as the head of
    its text says it ("the player draws the penalty cards"), or None."""
    procs = spec.proc_named
    for r in t.rules:
        doc = procs[r].doc if r in procs else None
        if doc:
            # round 10: the whole sentence, "(three by default) from the stock, one at a
            # time", buried the cards it drew
            text = re.sub(r" \([^()]*\)", "", prose(w.text(doc)))
            rule = re.split(r"[,;:.]", text, maxsplit=1)[0].strip()
            return rule[:1].lower() + rule[1:]
    return None


def _first_sentence(text: str) -> str:
    """A text's first sentence, without its full stop."""
    return re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].rstrip(".")


def _from_left(gained: tuple[tuple[str, int, tuple[str, ...]], ...], seat: object, hands: int
               ) -> list[tuple[str, int, tuple[str, ...]]]:
    """Cards gained, seat by seat clockwise from ``seat``'s left, ``seat`` itself last."""
    mover = seat if isinstance(seat, int) else -1
    return sorted(gained, key=lambda g: (g[1] - mover - 1) % max(hands, 1))


def _shuffled(spec: CheckedSpec, t: Told, seat: object, w: Words, order: Mapping[str, int],
              hands: int) -> list[Run]:
    """A shuffle in the middle of a turn, said as which pile made which (round 9: "(a
    shuffle)" did not say the discard pile made a new stock), and the cards each player drew
    after it."""
    source = next((z for z, got, lost in t.shared if lost and not got), None)
    made = next((z for z, got, _ in t.shared if got), None)
    # why: the pile drawn from has run out (round 19: the reshuffle came out of nowhere)
    said = (w.word("(the {zone} has run out: the {source} is shuffled into a new one)",
                   source=zone_word(spec, source, w), zone=zone_word(spec, made, w))
            if source is not None and made is not None else w.word("(a shuffle)"))
    out: list[Run] = [*inline(" "), em(said)]
    drawn = [(q, cards) for _, q, cards in _from_left(t.gained, seat, hands)]
    for cards in [cs for q, cs in drawn if q == seat]:
        said = (w.word("(then draws a card:") if len(cards) == 1 else
                w.word("(then draws {n} cards:", n=str(len(cards))))
        out.extend([*inline(" "), em(said), *_cards(cards, order), em(")")])
    return out + _others_drew([d for d in drawn if d[0] != seat], w, order) + _raised(spec, t, w)


def _owners(t: Told, cards: tuple[str, ...]
            ) -> list[tuple[int | None, str, tuple[str, ...]]]:
    """``cards`` by the player and the zone the move took each from (None and "": from no
    player's), in seat order, the cards of no player's last."""
    left = list(cards)
    out: list[tuple[int | None, str, tuple[str, ...]]] = []
    for q, zone in sorted({(q, z) for z, q, _ in t.lost}):
        gone = [c for z, p, got in t.lost if p == q and z == zone for c in got]
        mine = []
        for c in list(left):
            if c in gone:
                gone.remove(c)
                left.remove(c)
                mine.append(c)
        if mine:
            out.append((q, zone, tuple(mine)))
    if left:
        out.append((None, "", tuple(left)))
    return out


class _Rounds:
    """The rounds of the table gathered to one player, numbered (the tricks of a trick-taking
    game): a shared zone that a move empties, its cards one from each hand, the move's own
    last among them, all going to one player's zone. Each player's count of them is kept."""

    def __init__(self, hands: int) -> None:
        self.hands = hands
        self.zone: str | None = None
        self.n = 0
        self.won: dict[int, int] = {}
        #: the zones that hold only a second pack's cards: their cards are told in angle quotes
        self.second: frozenset[str] = frozenset()
        #: the players' yes/no (success) had the deal ended after the last event
        self.verdicts: tuple[tuple[str, tuple[bool, ...]], ...] | None = None
        self.final: Told | None = None  # the deal's last event, after which it ended

    def gathered(self, t: Told) -> tuple[str, int, tuple[str, ...], int, int] | None:
        """The round this move gathered: (its zone, to whom, its cards, its number, the
        player's count), or None."""
        own = _own(t.event)
        for zone, cards, lost in t.shared:
            # the zone held the round but the move's card, which joined it and left with it
            if cards or not lost or self.zone not in (zone, None):
                continue
            for _, q, got in t.gained:
                mine = own & set(got)
                if len(got) == self.hands and mine and sorted(got) == sorted([*lost, *mine]):
                    self.zone, self.n = zone, self.n + 1
                    self.won[q] = self.won.get(q, 0) + 1
                    return zone, q, got, self.n, self.won[q]
        return None


def _of_suit_named(ev: Mapping[str, object], cards: tuple[str, ...]) -> bool:
    """Whether the move names a suit (``suit: C``) and ``cards`` are all of it."""
    named = {v for k, v in ev.items() if k not in ("seat", "action")
             and isinstance(v, str) and len(v) == 1 and v in "CDHS"}
    return len(named) == 1 and all(len(c) == 2 and c[1] in named for c in cards)


def _own(ev: Mapping[str, object]) -> set[str]:
    """The cards a move names (those it plays or lays)."""
    return {str(x) for k, v in ev.items() if k not in ("seat", "action")
            for x in (v if isinstance(v, list) else [v])}


def _fields(ev: Mapping[str, object], w: Words, order: Mapping[str, int]) -> list[Run]:
    """A move's choices as a player says them: the cards alone, any other choice by its name
    where the move has several, or it is a yes or no ("pile: yes") or a list ("tricks: 3 5")."""
    out: list[Run] = []
    fields = [(k, v) for k, v in sorted(ev.items()) if k not in ("seat", "action")]
    card = functools.partial(_is_card, order)
    for i, (k, v) in enumerate(fields):
        vals = v if isinstance(v, list) else [v]
        cards = bool(vals) and all(card(x) for x in vals)
        # a yes or no, or a list of numbers ("tricks: 3 5 9"), says what it is of
        named = not cards and (len(fields) > 1 or isinstance(v, (bool, list)))
        out += inline(w.marks(", ") if i or named else " ")
        if named:
            out += inline(w.word("{field}:", field=w.any(words(k))), " ")
        if not vals:
            out += inline(w.word("none"))
        for j, x in enumerate(vals):
            out += inline(" ") if j else ()
            if card(x):
                out.append(Run("card", str(x)))
            elif isinstance(x, str) and x in ("C", "D", "H", "S"):
                out.append(Run("suit", x))
            elif isinstance(x, bool):
                out += inline(w.word("yes") if x else w.word("no"))
            else:
                out += inline(w.digits(str(x)))
    return out


def _is_card(order: Mapping[str, int], x: object) -> bool:
    """Whether a move's value is a card."""
    return isinstance(x, str) and (x in order or x == "JK" or len(x) == 2 and x[1] in "CDHS")


def zone_said(spec: CheckedSpec, name: str, w: Words) -> str:
    """A zone as a player says it: its term, else the few words its text starts with where
    they do not hold its name ("The declarer's right row: ..." for ``right_up`` is "the
    declarer's right row"), else its name in words (:func:`zone_word`)."""
    z = spec.zone_named.get(name)
    said = name.replace("_", " ")
    if z is None or not z.doc or any(t.word.lower().startswith(said.lower())
                                     for t in spec.terms):
        return zone_word(spec, name, w)
    # judged on the spec's own text, so alike in every language
    english = _head(prose(z.doc))
    head = _head(prose(w.text(z.doc)))
    if english is None or head is None or _plainly(english, said):
        return zone_word(spec, name, w)
    return head[:1].lower() + head[1:]


def _unowned(said: str) -> str:
    """A zone as said after its owner's seat: "a player's left row" is "left row" in "from
    seat 3's left row" (Persian «ردیف چپِ بازیکن», Russian «левый ряд игрока» alike)."""
    said = re.sub(r"^(?:(?:a|an|each|the) [\w-]+'s |the )", "", said)
    return re.sub(r"(?:\u0650? بازیکن| игрока)$", "", said)


def _plainly(head: str, name: str) -> bool:
    """Whether a zone's text starts with its name alone, an article's or an owner's word
    before it ("The stock", "A player's hand"): the name says as much, in fewer words."""
    said, named = head.lower().split(), name.lower().split()
    if said[-len(named):] != named:
        return False
    before = said[:-len(named)]
    return not before or len(before) <= 2 and (before[-1] in ("a", "an", "the", "each")
                                               or before[-1].endswith("'s"))


def _head(text: str) -> str | None:
    """The few words a text starts with, up to its first colon, full stop or bracket (else its
    first comma), or None where they are more than four."""
    for head in (_HEAD.split(text, 1)[0], _COMMA.split(text, 1)[0]):
        if len(head.split()) <= 4:
            return head.strip()
    return None


def _collects(ev: Mapping[str, object], cards: tuple[str, ...]) -> bool:
    """Whether cards coming to the mover's own zones are more than the move's own (a trick
    it won), not the move itself (bid cards laid in a row)."""
    played = {str(x) for v in ev.values() for x in (v if isinstance(v, list) else [v])}
    return bool(played & set(cards)) and len(cards) > len(played & set(cards))
