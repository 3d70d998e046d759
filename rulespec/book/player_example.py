"""The example deal of a player's book, told turn by turn: each turn on a line, numbered, with
the cards it brought to a player, and a note in italics where something happens that the moves
alone do not show (a player's count changes: a trick won, a bid made; cards a player takes on
someone else's move, a penalty or an Ace's draw, with the move that caused it).

The deal was played once, by :mod:`rulespec.book.facts`; nothing here runs the game.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.book.document import Inline, Run, code, em, inline
from rulespec.book.example import event_fields
from rulespec.book.facts import Example, Told
from rulespec.book.i18n import Words
from rulespec.book.labels import first_clause, truth
from rulespec.book.reading import clause, prose
from rulespec.lang import ast, walk
from rulespec.lang.cards import CARD_ORDER
from rulespec.lang.model import CheckedSpec

__all__ = ["EXAMPLE_MOVES", "EXAMPLE_TURNS", "example_lines", "zone_word"]

#: the turns an example tells at most (the rest is summed up in one line), and the moves of
#: one turn
EXAMPLE_TURNS = 80
EXAMPLE_MOVES = 12


def zone_word(spec: CheckedSpec, name: str, w: Words) -> str:
    """A zone by the word the game's terms give it (``discard`` -> the term ``discard pile``,
    in the book's language), else its name in words."""
    said = name.replace("_", " ")
    for t in spec.terms:
        if t.word.lower().startswith(said.lower()):
            return w.text(t.word)
    return w.any(said)


def _cards(cards: tuple[str, ...], order: Mapping[str, int]) -> list[Run]:
    runs: list[Run] = []
    for c in sorted(cards, key=lambda x: order.get(x, 0)):
        runs.extend(inline(" "))
        runs.append(Run("card", c))
    return runs


def _dealt(spec: CheckedSpec, t: Told, w: Words, order: Mapping[str, int]) -> Inline:
    """What a chance event did: each hand's cards, and what lies elsewhere."""
    parts: list[Run] = list(w.say("The deal."))
    for name, z in (t.zones or {}).items():
        zone = zone_word(spec, name, w)
        if z and isinstance(z[0], list):
            for q, h in enumerate(z):
                if isinstance(h, list) and h:
                    parts += [*inline(" "), *w.say("Seat {seat}:", seat=str(q + 1)),
                              *_cards(tuple(str(c) for c in h), order), *inline(".")]
        elif z and len(z) <= 3:
            parts += [*inline(f" {zone}:"), *_cards(tuple(str(c) for c in z), order),
                      *inline(".")]
        elif z:
            parts += [*inline(" "), *w.say("{zone}: {n} cards.", zone=zone, n=str(len(z)))]
    return tuple(parts)


def example_lines(spec: CheckedSpec, ex: Example, w: Words, hands: frozenset[str] = frozenset()
                  ) -> list[tuple[Inline, str | None]]:
    """The example's lines: the deal, then each turn (the moves of one player in a row);
    ``hands`` are the zones the deal fills for each player (cards a move brings there are
    told as taken)."""
    order = spec.deck.order or CARD_ORDER
    actions = {a.name: a for a in spec.actions}
    sets = _set_by(spec)
    lines: list[tuple[Inline, str | None]] = []
    turn: list[Run] = []
    seat: object = None
    turns = moves = 0
    src: str | None = None
    noted = _Notes(spec, w)
    for t in ex.events:
        ev = t.event
        if "chance" in ev:
            if t.zones is not None and not lines and not turn:
                lines.append((_dealt(spec, t, w, order), clause(spec.deal.span)))
            continue
        if ev["seat"] != seat:
            if turn:
                lines.append((tuple(turn), src))
                lines += noted.flush()
            turns, moves, seat = turns + 1, 0, ev["seat"]
            if turns > EXAMPLE_TURNS:
                turn = []
                break
            turn = [*w.say("Turn {n}, seat {seat}:", n=str(turns), seat=str(int(str(seat)) + 1))]
            info = actions.get(str(ev["action"]))
            src = clause(info.span) if info else None
        moves += 1
        # what the move made true that the decision itself does not set (a rule applied as
        # the turn passes on): told on a line after the turn
        noted.add([r for r in t.raised if r[0] not in sets.get(str(ev["action"]), set())])
        if moves <= EXAMPLE_MOVES:
            turn += [*inline(";" if moves > 1 else ""), *_move(spec, t, w, order, hands)]
        elif moves == EXAMPLE_MOVES + 1:
            turn += inline("; …")
    if turn:
        lines.append((tuple(turn), src))
        lines += noted.flush()
    if not ex.ended:
        lines.append((w.say("… the deal had not ended after {n} events, and is not told "
                            "further.", n=str(ex.length)), None))
        return lines
    if turns > EXAMPLE_TURNS:
        lines.append((w.say("… and so on, to the end of the deal ({n} moves in all).",
                            n=str(ex.length)), None))
    return _ending(spec, lines, ex, w)


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
            said = self.w.word("Seat {seat} now: {state}.", seat=str(q + 1), state=state)
            out.append(((em(said),), None))
        self.pending = []
        return out


def _set_by(spec: CheckedSpec) -> dict[str, set[str]]:
    """The variables each decision sets, in its own body and the procedures it calls."""
    procs = spec.proc_named

    def sets(body: object, seen: set[str]) -> set[str]:
        out: set[str] = set()
        for n in walk.descendants(body):
            if isinstance(n, ast.Set):
                out.add(n.name)
            elif isinstance(n, ast.CallStmt) and n.name in procs and n.name not in seen:
                seen.add(n.name)
                out |= sets(procs[n.name].body, seen)
        return out

    found: dict[str, set[str]] = {}
    for body in (spec.match.body, spec.deal.body, *(p.body for p in spec.procs)):
        for n in walk.descendants(body):
            if isinstance(n, ast.Alternative):
                found.setdefault(n.action, set()).update(sets(n.body, set()))
    return found


def _move(spec: CheckedSpec, t: Told, w: Words, order: Mapping[str, int],
          hands: frozenset[str]) -> list[Run]:
    """One move: the decision, and the cards it brought: into the mover's hand (a draw:
    ``→ 3♣``; after a move of another kind, said as taken), into another player's hand
    (taken), or to another player's other cards (a trick won: "to seat 2's won cards")."""
    ev = t.event
    out: list[Run] = [*inline(" "), code(str(ev["action"])), *inline(*event_fields(ev))]

    def public(zone: str) -> bool:
        # the mover's own cards laid where everyone sees them (a row turned up) are told;
        # those laid face down for themselves (bid cards placed) are the move itself
        z = spec.zone_named.get(zone)
        return z is not None and z.visibility == "all"

    plain = not [k for k in ev if k not in ("seat", "action")]
    for zone, q, cards in t.gained:
        held = zone in hands or not hands
        if q == ev["seat"] and held and plain:
            out += [*inline(" → "), *_cards(cards, order)]
        elif q == ev["seat"] and held:
            out += [*inline(" "), em(w.word("(then takes {n} cards:", n=str(len(cards)))),
                    *_cards(cards, order), em(")")]
        elif held:
            out += [*inline(" "), em(w.word("(seat {seat} takes {n} cards:", seat=str(q + 1),
                                            n=str(len(cards)))),
                    *_cards(cards, order), em(")")]
        elif q != ev["seat"] or _collects(ev, cards) or public(zone):
            # another's trick won, or the mover's own: the cards of the move with others'
            out += [*inline(" "), em(w.word("(to seat {seat}, {zone}:", seat=str(q + 1),
                                            zone=zone_word(spec, zone, w))),
                    *_cards(cards, order), em(")")]
    return out


def _collects(ev: Mapping[str, object], cards: tuple[str, ...]) -> bool:
    """Whether cards coming to the mover's own zones are more than the move's own (a trick
    it won), not the move itself (bid cards laid in a row)."""
    played = {str(x) for v in ev.values() for x in (v if isinstance(v, list) else [v])}
    return bool(played & set(cards)) and len(cards) > len(played & set(cards))


def _ending(spec: CheckedSpec, lines: list[tuple[Inline, str | None]], ex: Example,
            w: Words) -> list[tuple[Inline, str | None]]:
    """The deal's end: each seat's score, as the sum of its parts where the scoring adds
    parts up, and each other result the spec records (chips won, say), in its own words."""
    entry = ex.result
    if entry is None or not isinstance(entry.get("scores"), list):
        return lines
    scores = entry["scores"]
    assert isinstance(scores, list)
    lines.append((w.say("The deal ends."), None))
    if ex.score_terms is not None:
        for q, parts in enumerate(ex.score_terms):
            lines.append((w.say("Seat {seat}: {sum} = {total}", seat=str(q + 1),
                                sum=_sum(parts),
                                total=str(scores[q])), None))
        lines.append((w.say("Each score adds up the parts the scoring rules list, in their "
                            "order."), None))
    else:
        said = ", ".join(w.word("seat {seat} {score}", seat=str(q + 1), score=str(x))
                         for q, x in enumerate(scores))
        lines.append((w.say("Scores: {scores}.", scores=said), None))
    for r in spec.results:
        value = entry.get(r.name)
        if not r.doc or value is None:
            continue
        what = _first(prose(w.text(r.doc)))
        told = (", ".join(w.word("seat {seat} {score}", seat=str(q + 1), score=str(x))
                          for q, x in enumerate(value)) if isinstance(value, list)
                else w.digits(str(value)))
        lines.append((w.say("{what}: {values}.", what=what, values=told), None))
    return lines


def _sum(parts: tuple[object, ...]) -> str:
    """Parts added up as a reader writes them: ``40 + 11 − 24``."""
    out = ""
    for i, x in enumerate(parts):
        n = int(x) if isinstance(x, (int, bool)) else 0
        out += (f"{'−' if n < 0 else ''}{abs(n)}" if i == 0 else
                f" {'−' if n < 0 else '+'} {abs(n)}")
    return out


def _first(text: str) -> str:
    """A text's first clause (up to its first colon or full stop), for a label."""
    for mark in (":", ". "):
        if mark in text:
            text = text.split(mark, 1)[0]
    return text.rstrip(".")
