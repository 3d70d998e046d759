"""What playing a spec shows, worked out once per book into a frozen :class:`BookFacts`: the
packs and deal counts of every table size and the book tables at each, the decisions random
deals meet, the example deal (its seed, its events, its result and its scores term by term) and
the table as it lies before the example's most frequent decision.

This is the only module of the book that runs the engine: each table is compiled once (through
:func:`rulespec.loading.game_for`) and each deal is played once, so the sections that tell
these facts (:mod:`rulespec.book.sections`) are plain functions of the spec and the facts.
"""

from __future__ import annotations

import collections
import json
import random
import time
from collections.abc import Callable, Mapping
from typing import overload

import attrs

from rulespec.book.causes import Causes
from rulespec.book.choosing import apply, draw
from rulespec.book.given import Given, given_example
from rulespec.book.packsigns import RANK_ORDER, pack_text, per_suit
from rulespec.book.reading import (
    book_sizes,
    deal_scoring,
    end_deals,
    example_sizes,
    option_conjuncts,
    reads_locals,
    scoring_def,
    terms,
    walk_play,
)
from rulespec.book.worked import Working, worked
from rulespec.engine import CHANCE, Game, State
from rulespec.engine.events import Event
from rulespec.engine.table import Table
from rulespec.errors import RecordError, RulespecError
from rulespec.lang import ast, walk
from rulespec.lang.clauses import clause_id
from rulespec.lang.model import CheckedSpec
from rulespec.loading import game_for, normalise_options
from rulespec.simulate import sample_event

__all__ = ["DEFAULT_DEALS", "EXAMPLE_LINES", "EXAMPLE_MAX_EVENTS", "EXAMPLE_SEED",
           "EXAMPLE_TRIES", "RANK_ORDER", "BookFacts", "Example", "Progress", "TableFacts", "Told",
           "book_facts", "shown_after"]

#: the seed of the book's example deal when no other is chosen: fixed, so the committed books
#: stay byte-stable
EXAMPLE_SEED = 1
#: how many seeds, from EXAMPLE_SEED on, the example is chosen from, and the longest deal
#: considered (a deal that never ends is told no further than this)
EXAMPLE_TRIES = 40
EXAMPLE_MAX_EVENTS = 2000
#: the seeds tried at most while no deal so far has every term of the score at work: a success
#: bonus that random bids earn in one deal of thirty (round 9: an example where nobody
#: succeeded never showed the heart of the game)
EXAMPLE_MORE_TRIES = 200
#: the deals tried for the piles as play starts (Facts' "at play" counts)
AT_PLAY_TRIES = 5
#: random deals per table size played to find the decisions met
DEFAULT_DEALS = 6
#: lines of the example told before it is cut short (a long deal is played to its end all the
#: same, for its result)
EXAMPLE_LINES = 60

#: what a book's work reports as it goes: steps done, steps in all (a table worked out, a
#: deal played), the last call with the two equal; the caller shows it (the book never prints)
Progress = Callable[[int, int], None]
#: books whose facts a process keeps (see :func:`book_facts`): the two books of a game, the
#: player's book and the implementer's reference, are told from the same facts
_KEPT_BOOKS = 8

#: a state's zones as they lay at one moment: a list of cards per shared zone, a list of such
#: lists per per-player one
Zones = Mapping[str, list[object]]


@attrs.frozen
class TableFacts:
    """One table size the book works out, at the book's options and, where ``options`` names
    some, the options that open this table (a dummy hand, say)."""

    players: int
    options: Mapping[str, object]
    #: the cards in play, and what the deal block's ``deal`` statements give ("hand each",
    #: "hands dealt", "left over"), worked out from the rules before any card moves
    cards: int
    counts: Mapping[str, str]
    #: each table the spec declares for the book, by name: its rows of cell values
    rows: Mapping[str, tuple[tuple[object, ...], ...]]


#: the count of a table that says which cards its pack holds (``A–6 + JK``)
RANKS_KEY = "pack"
@attrs.frozen
class Told:
    """One event of a deal played for the book, with what it did."""

    event: Event
    #: each player's int counters (taken, stake...) just after the event
    counters: Mapping[str, tuple[object, ...]]
    #: the cards the event brought into each player's zones: (zone, seat, cards)
    gained: tuple[tuple[str, int, tuple[str, ...]], ...]
    #: every zone just after the event, for a chance event (what was dealt); else None
    zones: Zones | None
    #: each player's truth the spec explains (a per-player yes/no it gives a text) that the
    #: event made true: (name, seat)
    raised: tuple[tuple[str, int], ...] = ()
    #: the cards the event brought into each shared zone, and those it took from it:
    #: (zone, gained, lost)
    shared: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = ()
    #: the cards the event took from each player's zones: (zone, seat, cards)
    lost: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    #: the table's values the game's words name (the declarer, B), after the event:
    #: (name, value)
    settled: tuple[tuple[str, object], ...] = ()
    #: the table's truths the spec explains (a yes/no for the whole table, ``extra``) that
    #: the event made true
    raised_all: tuple[str, ...] = ()
    #: the documented procedures the event's rules entered, outside the decision's own body
    #: (a penalty drawn as the turn passes on): their names
    rules: tuple[str, ...] = ()
    #: at a decision without choices (a pass), the other decisions the player could make then
    #: (a card could be played): their names; empty where none or not looked at
    instead: tuple[str, ...] = ()
    #: each per-player yes/no a word of the game names (success), had the deal ended just
    #: after the event: the word and each seat's value
    verdicts: tuple[tuple[str, tuple[bool, ...]], ...] = ()


@attrs.frozen
class _Played:
    """A deal played from a table's first state by one seed's random choices."""

    seed: int
    told: bool  # with its first events (Told), as many as an example can tell
    length: int  # events in all
    events: tuple[Told, ...]
    counters: Mapping[str, tuple[object, ...]]  # before the first event
    last: Mapping[str, tuple[object, ...]]  # after the last
    ended: bool  # within EXAMPLE_MAX_EVENTS
    terminal: bool  # the match is over as well
    result: Mapping[str, object] | None  # the deal's entry in the match's record
    flagged: bool  # the deal ended under a flag (blocked, abandoned...)
    kinds: frozenset[str]  # the decisions made
    made: Mapping[str, int]  # how often each decision was made, in order of its first
    before: Mapping[str, Zones]  # the zones just before each decision was first made (told)
    #: the scoring definition's terms for each seat, as the deal ended (None without a
    #: scoring of several terms, or a deal that did not end)
    score_terms: tuple[tuple[object, ...], ...] | None
    #: a player went out by :func:`~rulespec.book.choosing.going_out`, not by a random choice
    went_out: bool = False
    #: a decision gave another player cards (an Ace that makes the others draw)
    gave: bool = False
    #: each per-player yes/no a word of the game names (success), as the deal ended: the
    #: word and each seat's value
    verdicts: tuple[tuple[str, tuple[bool | int, ...]], ...] = ()
    #: each seat's score parts worked out (:func:`~rulespec.book.worked.worked`), told only
    score_worked: tuple[tuple[Working | None, ...], ...] | None = None


@attrs.frozen
class _Cut:
    """A deal left unfinished once it could no longer be the example (:meth:`_Worker.play`'s
    ``cut``): where it stopped, so that the decisions met are found by playing on from there
    rather than again from the start."""

    st: State
    rng: random.Random
    made: frozenset[str]
    length: int


@attrs.frozen
class Example:
    """The book's example deal: the table, the seed chosen and the deal as it was played."""

    players: int
    hands: int
    seed: int
    length: int  # events in all
    #: the first events, as many as the example can tell (EXAMPLE_LINES lines of them)
    events: tuple[Told, ...]
    counters: Mapping[str, tuple[object, ...]]  # before the first event
    last: Mapping[str, tuple[object, ...]]  # after the last
    ended: bool
    terminal: bool
    result: Mapping[str, object] | None
    score_terms: tuple[tuple[object, ...], ...] | None
    #: the decision made most often, and the table just before it was first made (None when
    #: the deal made no decision)
    picture: tuple[str, Zones, int, int] | None
    #: a player went out because they could, not by a random choice (the book says so)
    went_out: bool = False
    #: each per-player yes/no a word of the game names (success), as the deal ended
    verdicts: tuple[tuple[str, tuple[bool | int, ...]], ...] = ()
    #: each seat's score parts worked out, where a sum or a count lies beneath them; where
    #: the scoring is one value (no parts), that value worked out, one to a seat
    score_worked: tuple[tuple[Working | None, ...], ...] | None = None
    #: the file the deal was given in beside the spec (its choices a person's), or None for
    #: a deal of random choices
    given: str | None = None
    #: the given deal's notes: (the index of the event each follows, its text)
    notes: tuple[tuple[int, str], ...] = ()


@attrs.frozen
class BookFacts:
    """What play shows, for a book of ``players`` (None: every size) and ``options``."""

    players: int | None
    options: Mapping[str, object]
    tables: tuple[TableFacts, ...]
    #: for each action, the table sizes at which DEFAULT_DEALS random deals made it
    met: Mapping[str, frozenset[int]]
    example: Example | None
    #: the alternatives whose guards rule them out at the example's table (an option
    #: conjunct false there)
    off: frozenset[ast.Alternative]


def book_facts(spec: CheckedSpec, players: int | None = None,
               options: Mapping[str, object] | None = None,
               progress: Progress | None = None) -> BookFacts:
    """The facts of the book of ``spec`` for one table size and some option values if given;
    a usage error names a size or value the spec refuses. ``progress`` is told the steps done
    as the work goes (a big spec's book takes seconds).

    Worked out once per process for a spec (this very object), size and option values: a
    second book of the same game, or the same book in another format or language, is told
    from the facts the first was."""
    opts: dict[str, object] = dict(normalise_options(spec, options or {}))
    key = (id(spec), players, json.dumps(opts, sort_keys=True, default=repr))
    kept = _kept.get(key)
    if kept is not None and kept[0] is spec:
        _kept.move_to_end(key)
        if progress is not None:
            progress(1, 1)
        return kept[1]
    w = _Worker(spec, players, opts, progress)
    w.check_setting()
    tables = w.tables()
    # the example first: its candidates are played keeping what they did, and the decisions
    # met at its table reuse those deals rather than play them again
    example = w.example()
    facts = BookFacts(players, w.options, tuple(t for t, _ in tables), w.met(tables), example,
                      w.off())
    w.step(w.total)
    if len(_kept) >= _KEPT_BOOKS:
        _kept.popitem(last=False)
    _kept[key] = (spec, facts)  # the spec kept with its facts: its id is not reused meanwhile
    return facts


#: the facts of the last books worked out, by spec identity, size and options (book_facts)
_kept: collections.OrderedDict[tuple[int, int | None, str], tuple[CheckedSpec, BookFacts]] = \
    collections.OrderedDict()


def shown_after(seconds: float, progress: Progress) -> Progress:
    """``progress``, told nothing until ``seconds`` have passed from now: a quick book need
    not show its steps."""
    start = time.monotonic()

    def tell(done: int, total: int) -> None:
        if time.monotonic() - start >= seconds:
            progress(done, total)

    return tell


def _freeze(v: object) -> object:
    """A computed value with its lists as tuples, to be kept in the facts."""
    return tuple(_freeze(x) for x in v) if isinstance(v, (list, tuple)) else v


class _Worker:
    """The work of one book: each table compiled once, each deal played once."""

    def __init__(self, spec: CheckedSpec, players: int | None,
                 options: dict[str, object], progress: Progress | None = None) -> None:
        self.spec = spec
        self.players = players
        self.options = options
        #: the steps of the work, for ``progress``: each table size (with each option that
        #: may open another table) worked out, each example candidate and each deal played
        #: for the decisions met
        self.progress = progress
        self.done = 0
        sizes = len(book_sizes(spec, players))
        self.total = sizes * (len(self.openers()) + DEFAULT_DEALS) + EXAMPLE_TRIES
        self._games: dict[tuple[int, str], Game | RulespecError] = {}
        self._starts: dict[tuple[int, str], State] = {}
        self._plays: dict[tuple[int, str, int], _Played] = {}
        self._cuts: dict[tuple[int, str, int], _Cut] = {}
        self._example: tuple[int, State] | None = None
        #: the clauses the told example's table enters, cleared before each event
        self._cover: set[str] | None = None
        #: the definition that scores a deal, and its terms, read once (each deal asks)
        d = scoring_def(spec)
        self._scoring = None if d is None else (d.params[0].name, [e for _, e in terms(d.body)])
        #: where the scoring is one value (a hand's penalty), that definition, worked out whole
        whole = None if d is not None else deal_scoring(spec)
        self._whole = None if whole is None else (whole.params[0].name, whole.body)
        # each player's counters (taken, stake...): one that changes for a single player
        # in a line of the example says what the line did (who won the trick)
        self.counters = [v.name for v in spec.vars if v.per_player and
                         isinstance(v.type, ast.TypeName) and v.type.name == "int"]
        self.held = [z.name for z in spec.zones if z.per_player and not z.per_team]
        #: the zones the deal fills for each player: a player who can empty them goes out
        per_player = {z.name for z in spec.zones if z.per_player}
        self.dealt = sorted({x.zone for x in walk.descendants(spec.deal.body)
                             if isinstance(x, ast.DealCards) and x.zone in per_player})
        self.common = [z.name for z in spec.zones if not z.per_player and not z.per_team]
        self.truths = [v.name for v in spec.vars if v.per_player and v.doc and
                       isinstance(v.type, ast.TypeName) and v.type.name == "bool"]
        #: the flags an ``end deal`` may raise (read once: every deal played asks)
        self.flags = {e.flag for e in end_deals(spec) if e.flag}
        #: how many terms the scoring adds up (0 where it is not a sum of terms)
        scoring = scoring_def(spec)
        self.terms = len(list(terms(scoring.body))) if scoring is not None else 0
        #: what an event did beyond its move, as the example tells it
        self.causes = Causes(spec)
        #: each decision alternative's clause id and its action: a table offers the decisions
        #: whose alternatives it compiles (an option may fold one away)
        self.alternatives = {clause_id("alternative", x.span): x.action
                             for x in walk.descendants(spec.items)
                             if isinstance(x, ast.Alternative)}

    def step(self, to: int | None = None) -> None:
        """One step of the work done (``to``: so many done in all), told to ``progress``."""
        self.done = min(self.total, self.done + 1 if to is None else to)
        if self.progress is not None:
            self.progress(self.done, self.total)

    def openers(self) -> list[dict[str, object]]:
        """No option more, then each option that is off by default and not set for this
        book, on: one may open another table (a dummy hand)."""
        extra: list[dict[str, object]] = [{}]
        for o in self.spec.options:
            if o.kind == "bool" and o.default is False and o.name not in self.options:
                extra.append({o.name: True})
        return extra

    def game(self, players: int, opts: Mapping[str, object]) -> Game:
        """A table's game, compiled once; RulespecError for a table or option value the spec
        does not offer (asked again, the same refusal)."""
        key = (players, json.dumps(dict(opts), sort_keys=True))
        if key not in self._games:
            try:
                self._games[key] = game_for(self.spec, players, opts, 0)
            except RulespecError as e:
                self._games[key] = e
        g = self._games[key]
        if isinstance(g, RulespecError):
            raise g
        return g

    def start(self, players: int, opts: Mapping[str, object]) -> State:
        """The first state of a table (one per table: every deal is played from a clone)."""
        g = self.game(players, opts)
        key = (players, json.dumps(dict(opts), sort_keys=True))
        if key not in self._starts:
            self._starts[key] = g.new_initial_state()
        return self._starts[key]

    def check_setting(self) -> None:
        """Raise the first refusal when no table size of the book is offered."""
        sizes = ([self.players] if self.players is not None
                 else range(self.spec.min_players, self.spec.max_players + 1))
        refused: RulespecError | None = None
        for p in sizes:
            try:
                self.game(p, self.options)
                return
            except RulespecError as e:  # a table or option value the spec does not offer
                refused = refused or e
        assert refused is not None
        raise refused

    def tables(self) -> list[tuple[TableFacts, State]]:
        """Each table size the spec accepts with the book's options, and, where an option
        that is off opens a table (a dummy hand), with it on; each with its first state."""
        extra = self.openers()
        seen: set[tuple[int, int]] = set()
        out: list[tuple[TableFacts, State]] = []
        for p in book_sizes(self.spec, self.players):
            for opts in extra:
                self.step()
                try:
                    if opts and (p, Table.of(self.spec, p, {**self.options, **opts}).hands
                                 ) in seen:
                        # the option changes nothing at this table size: known before the
                        # table is compiled, which is most of a book's work
                        continue
                    st = self.start(p, {**self.options, **opts})
                except RulespecError:
                    continue
                seen.add((p, st.game.hands))
                cards, counts = self.deal_counts(st)
                rows = {tb.name: self.table_rows(tb, st) for tb in self.spec.tables}
                out.append((TableFacts(p, opts, cards, counts, rows), st))
        return out

    def deal_counts(self, st: State) -> tuple[int, dict[str, str]]:
        """Cards in the pack, and what the deal block's ``deal`` statements give: N cards to
        each of M hands (worked out at this table, before any card moves), and what is left
        over."""
        legal = st.legal_actions()
        if legal and legal[0].get("chance") == "pick":
            # a pick before the first shuffle (who deals first, say): its first outcome, on
            # a copy, so that the shuffle's cards can be read
            st = st.clone()
            while legal and legal[0].get("chance") == "pick":
                st.apply(legal[0])
                legal = st.legal_actions()
        if not legal or legal[0].get("chance") != "shuffle":
            return 0, {}
        cards = legal[0]["cards"]
        assert isinstance(cards, list)
        counts: dict[str, str] = {}
        dealt = 0
        for s in walk.descendants(self.spec.deal.body):
            if not isinstance(s, ast.DealCards) or reads_locals(self.spec, (s.count, s.seats)):
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
            counts.update(self._at_play(st, len(cards) - dealt))
            pack = pack_text([str(c) for c in cards])
            if pack is not None:
                counts = {RANKS_KEY: pack, **counts}
        return len(cards), counts

    def _at_play(self, st: State, left: int) -> dict[str, str]:
        """The shared piles when play starts, where they hold every card the deal left over
        (the stock and the card turned up: round 10 read 24 left over and a stock of 23):
        ``"ZONE at play"``, its number of cards; where a pile holds more cards than the deal
        left (a second pack), that pile alone, as ``"ZONE pack at play"``."""
        for seed in range(AT_PLAY_TRIES):
            # a few deals, the first whose piles hold the cards left over as dealt (a card
            # turned up may make everyone draw)
            rng, at = random.Random(seed), st.clone()
            for _ in range(EXAMPLE_MAX_EVENTS):
                if at.to_move != CHANCE:
                    break
                at.apply(sample_event(at.legal_actions(), rng, at.chance_weights))
            piles = {z: len(at.z[z]) for z in self.common if at.z[z]}
            if sum(piles.values()) == left:
                # one pile is what "left over" says already
                return {f"{z} at play": str(n) for z, n in piles.items()} \
                    if len(piles) > 1 else {}
            if seed == AT_PLAY_TRIES - 1 or any(n > left for n in piles.values()):
                # a pack of its own (a bid pack: rounds 12 to 14), with its cards a suit
                return {f"{z} pack at play": f"{n}/{per_suit(at.z[z])}"
                        for z, n in piles.items() if n > left}
        return {}

    @staticmethod
    def table_rows(tb: ast.TableDecl, st: State) -> tuple[tuple[object, ...], ...]:
        """A book table's cells at a table, as values."""
        rows = st.game.evaluate(tb.source, st, {})
        assert isinstance(rows, (list, tuple))
        return tuple(tuple(_freeze(st.game.evaluate(c.value, st, {tb.var: r}))
                           for c in tb.columns) for r in rows)

    def met(self, tables: list[tuple[TableFacts, State]]) -> dict[str, frozenset[int]]:
        """The decisions met at this book's settings (every other option at its default):
        for each action, the table sizes at which DEFAULT_DEALS random deals made it."""
        met: dict[str, set[int]] = {}
        for t, start in tables:
            if t.options:
                continue  # a table that an option opens is a variation's
            for seed in range(DEFAULT_DEALS):
                self.step()
                for a in self.kinds(self.game(t.players, self.options), start, seed):
                    met.setdefault(a, set()).add(t.players)
        return {a: frozenset(ps) for a, ps in met.items()}

    def example_table(self) -> tuple[int, State] | None:
        """The example's table: the first of :func:`example_sizes` the spec accepts with the
        book's options, and its first state."""
        if self._example is None:
            for n in example_sizes(self.spec, self.players):
                try:
                    self._example = (n, self.start(n, self.options))
                    break
                except RulespecError:
                    continue
        return self._example

    def example(self) -> Example | None:
        """The example deal: of the first EXAMPLE_TRIES seeds, the one whose deal ends as a
        deal normally does (no flag such as blocked or abandoned), shows the most kinds of
        decision, then (where a score adds up several terms) the most terms at work, a success
        bonus paid, say, and is the shortest, so that it can be told whole; the smallest such
        seed."""
        found = self.example_table()
        if found is None:
            return None
        n, start = found
        given = given_example(self.spec, start, self.options)
        seed = EXAMPLE_SEED if given is not None else self._best_seed(n, start)
        # played again, told: the same seed plays the same deal, at a table that notes the
        # rules each event enters (what drew a player's penalty cards)
        self._plays.pop((n, json.dumps(dict(start.game.options), sort_keys=True), seed), None)
        covering = Game(self.spec, n, self.options, trace=True,
                        table=self.game(n, self.options).table)
        self._cover = covering.cover
        if given is not None:
            # a deal given beside the spec, its choices a person's: told as it was played
            played = self._play(covering.new_initial_state(), seed, True, None, given)
            assert isinstance(played, _Played)
            if not played.ended:
                raise RecordError(f"{given.path.name}: the deal does not end within "
                                  f"{EXAMPLE_MAX_EVENTS} events")
            chosen = played
        else:
            chosen = self.play(n, covering.new_initial_state(), seed, tell=True)
        picture = None
        if chosen.made:
            most = collections.Counter(chosen.made).most_common(1)[0][0]
            picture = (most, chosen.before[most], start.game.hands, start.game.dealer)
        return Example(n, start.game.hands, chosen.seed, chosen.length, chosen.events,
                       chosen.counters, chosen.last, chosen.ended, chosen.terminal,
                       chosen.result, chosen.score_terms, picture, chosen.went_out,
                       chosen.verdicts, chosen.score_worked,
                       given.path.name if given is not None else None,
                       tuple(sorted(given.notes.items())) if given is not None else ())

    def _best_seed(self, n: int, start: State) -> int:
        """The seed of the random deal the example tells (:meth:`example`)."""
        best: tuple[tuple[int, int, int, int, int], _Played] | None = None
        # the best key a deal can have but for its length: no flag, every decision the
        # table compiles made, every term of the score at work, a decision that gave another
        # player cards (round 8: an example showed no card making the others draw)
        top = (0, -len(self._offered(self.game(n, self.options))), -self.terms, -1)
        for seed in range(EXAMPLE_SEED, EXAMPLE_SEED + EXAMPLE_MORE_TRIES):
            if seed >= EXAMPLE_SEED + EXAMPLE_TRIES and (
                    best is None or best[0][2] <= -self.terms):
                break  # past the usual tries only to find every term of the score at work
            # once a deal has that key, a deal longer than it cannot come before it: each
            # deal after is played only as long as it could still win
            cut = best[0][4] if best is not None and best[0][:4] <= top else None
            self.step()
            # told only once chosen: what each event did is worked out for one deal, not 40
            d = self.play(n, start, seed, tell=False, cut=cut)
            if d is None or not d.ended:
                continue  # longer than the best so far, or than any example should be
            if best is None or self._key(d) < best[0]:
                best = (self._key(d), d)
        return best[1].seed if best is not None else EXAMPLE_SEED

    def _key(self, d: _Played) -> tuple[int, int, int, int, int]:
        """How an example candidate ranks, smallest first: no flag, the most kinds of
        decision, the most terms of the score at work, a decision that gave another player
        cards, the fewest events."""
        at_work = sum(1 for i in range(len(d.score_terms[0]) if d.score_terms else 0)
                      if any(row[i] not in (0, None, False) for row in d.score_terms or ()))
        return (int(d.flagged), -len(d.kinds), -at_work, -int(d.gave), d.length)


    def off(self) -> frozenset[ast.Alternative]:
        """The alternatives an option conjunct of their guard rules out at the example's
        table."""
        found = self.example_table()
        if found is None:
            return frozenset()
        _, st = found
        return frozenset(m.alt for m in walk_play(self.spec)
                         if any(st.game.evaluate(c, st, {}) is False
                                for c in option_conjuncts(self.spec, m.alt.guard)))

    @overload
    def play(self, players: int, start: State, seed: int, tell: bool) -> _Played: ...

    @overload
    def play(self, players: int, start: State, seed: int, tell: bool,
             cut: int | None) -> _Played | None: ...

    def play(self, players: int, start: State, seed: int, tell: bool,
             cut: int | None = None) -> _Played | None:
        """The deal played from ``start`` by ``seed``'s random choices, once per table and
        seed; with what each event did when it may be told (``tell``: the example chosen,
        played again so, its candidates having been played untold). None once it has made
        ``cut`` events without ending: :meth:`kinds` plays such a deal on from where it
        stopped, and a deal asked for whole again is played again."""
        key = (players, json.dumps(dict(start.game.options), sort_keys=True), seed)
        if key not in self._plays:
            whole = self._play(start, seed, tell, cut)
            if isinstance(whole, _Cut):
                self._cuts[key] = whole
                return None
            self._plays[key] = whole
        played = self._plays[key]
        assert played.told or not tell, "the example is played again to be told"
        return played

    def kinds(self, game: Game, start: State, seed: int) -> frozenset[str]:
        """The decisions made in the deal played from ``start`` by ``seed``'s random choices
        (:meth:`play`'s ``kinds``), played only until every decision the table compiles has
        been made: the rest of the deal could make no new one (a random deal of a shedding
        game has made each of its decisions within about 40 of its several hundred events).
        ``start`` is the first state of ``game``'s table."""
        key = (game.players, json.dumps(dict(start.game.options), sort_keys=True), seed)
        if key in self._plays:  # played whole already (an example's candidate)
            return self._plays[key].kinds
        offered = self._offered(game)
        cut = self._cuts.pop(key, None)
        if cut is not None:  # an example's candidate, played until it could not win
            st, rng, made, length = cut.st, cut.rng, set(cut.made), cut.length
        else:
            st, rng, made, length = start.clone(), random.Random(seed), set(), 0
        # the same choices as _play's, with the same draws from rng, so the same decisions
        while (not st.is_terminal() and not st.deals and length < EXAMPLE_MAX_EVENTS
               and not made >= offered):
            ev, k, _ = draw(st, rng, self.dealt)
            if k is not None:
                made.add(str(ev["action"]))
            length += 1
            apply(st, ev, k)
        return frozenset(made)

    def _offered(self, game: Game) -> set[str]:
        """The decisions ``game``'s table compiles: the only ones its deals can make."""
        return {a for cid, a in self.alternatives.items() if cid in game.compiled_clauses}

    def _snapshot(self, st: State) -> dict[str, list[object]]:
        return {name: [list(x) if isinstance(x, list) else x for x in z]
                for name, z in st.z.items()}

    def _play(self, start: State, seed: int, tell: bool, cut: int | None,
              given: Given | None = None) -> _Played | _Cut:
        st, rng = start.clone(), random.Random(seed)
        put = apply if given is None else given.apply
        # the example tells EXAMPLE_LINES lines at most, each of one chance event or of at
        # most one decision per hand: what the events after those did is never told
        details = (EXAMPLE_LINES + 1) * (start.game.hands + 1) if tell else 0
        ended: list[State] = []
        st.on_deal_end = lambda s: ended.append(s.clone())
        first = self._counts(st)
        told: list[Told] = []
        made: dict[str, int] = {}
        before: dict[str, Zones] = {}
        length = 0
        went_out = gave = False
        while not st.is_terminal() and not st.deals and length < EXAMPLE_MAX_EVENTS:
            if cut is not None and length >= cut:
                return _Cut(st, rng, frozenset(made), length)
            ev, k, out = draw(st, rng, self.dealt) if given is None else given.next(st)
            went_out = went_out or out
            mover = st.to_move
            sizes = self._sizes(st) if k is not None and not gave and self.dealt else None
            if k is not None:
                a = str(ev["action"])
                if tell and a not in made:
                    before[a] = self._snapshot(st)
                made[a] = made.get(a, 0) + 1
            length += 1
            if length > details:
                put(st, ev, k)
                gave = gave or self._gave(st, sizes, mover)
                continue
            had = {name: [list(h) for h in st.z[name]] for name in self.held}
            lay = {name: list(st.z[name]) for name in self.common}
            was = {n: tuple(st.v[n]) for n in self.truths}
            was_all = self.causes.values(st)
            instead = self.causes.instead(st, ev) if k is not None else ()
            cover = self._cover if tell else None
            if cover is not None:
                cover.clear()
            put(st, ev, k)
            gave = gave or self._gave(st, sizes, mover)
            raised = tuple((n, q) for n in self.truths
                           for q, (a, b) in enumerate(zip(was[n], st.v[n], strict=True))
                           if b is True and a is not True)
            rules = (self.causes.rules(cover, str(ev.get("action"))) if cover is not None
                     else ())
            told.append(Told(
                ev, self._counts(st), self._gained(st, had),
                self._snapshot(st) if "chance" in ev else None, raised,
                self._shared(st, lay), self._gained(st, had, lost=True),
                *self.causes.changed(st, was_all), rules, instead,
                self.causes.verdicts_now(st) if tell else ()))
        return _Played(seed, tell, length, tuple(told), first, self._counts(st), bool(st.deals),
                       st.is_terminal(), st.deals[-1] if st.deals else None,
                       any(st.deals[0].get(f) for f in self.flags) if st.deals else False,
                       frozenset(made), made, before,
                       self._score_terms(ended[-1]) if ended else None, went_out, gave,
                       self.causes.verdicts(ended[-1]) if ended and tell else (),
                       self._score_worked(ended[-1]) if ended and tell else None)

    def _sizes(self, st: State) -> list[int]:
        """How many cards each player holds in the zones the deal fills."""
        return [sum(len(st.z[z][q]) for z in self.dealt) for q in range(len(st.z[self.dealt[0]]))]

    def _gave(self, st: State, sizes: list[int] | None, mover: object) -> bool:
        """Whether the decision just applied (``sizes`` before it, None for none looked at)
        gave a player other than ``mover`` cards."""
        return sizes is not None and any(n > sizes[q] for q, n in enumerate(self._sizes(st))
                                         if q != mover)

    def _counts(self, st: State) -> dict[str, tuple[object, ...]]:
        return {n: tuple(st.v[n]) for n in self.counters}

    def _gained(self, st: State, had: Mapping[str, list[list[str]]], lost: bool = False
                ) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
        """The cards each player's zones gained since ``had`` (with ``lost``, those they
        lost), zone by zone and seat by seat."""
        out: list[tuple[str, int, tuple[str, ...]]] = []
        for name, was in had.items():
            now = st.z[name]
            if len(now) != len(was):
                continue
            for q, (a, b) in enumerate(zip(was, now, strict=True)):
                if a == b:
                    continue  # most events leave most zones alone: no need to count
                new = (collections.Counter(a) - collections.Counter(b) if lost else
                       collections.Counter(b) - collections.Counter(a))
                if new:
                    out.append((name, q, tuple(new.elements())))
        return tuple(out)

    def _shared(self, st: State, lay: Mapping[str, list[str]]
                ) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
        """What the event did to each shared zone: the cards it brought there and those it
        took away (a trick gathered, failed cards sent to the centre)."""
        out = []
        for name, was in lay.items():
            now = st.z[name]
            if now == was:
                continue
            a: collections.Counter[str] = collections.Counter(was)
            b: collections.Counter[str] = collections.Counter(str(c) for c in now)
            out.append((name, tuple(str(c) for c in (b - a).elements()),
                        tuple(str(c) for c in (a - b).elements())))
        return tuple(out)

    def _score_worked(self, st: State) -> tuple[tuple[Working | None, ...], ...] | None:
        """Each seat's score parts worked out in ``st``, a state at the end of a deal, where
        a sum or a count lies beneath them; where the scoring is one value, that value worked
        out whole, the cards it adds up named (None for neither)."""
        if self._scoring is None:
            return None if self._whole is None else tuple(
                (worked(self.spec, st, self._whole[1], {self._whole[0]: q}, summed=True),)
                for q in range(st.game.players))
        param, parts = self._scoring
        # each part's sums name the cards they added up (round 42)
        return tuple(tuple(worked(self.spec, st, e, {param: q}, summed=True) for e in parts)
                     for q in range(st.game.players))

    def _score_terms(self, st: State) -> tuple[tuple[object, ...], ...] | None:
        """Each term of the scoring definition for each seat in ``st``, a state at the end of
        a deal (None when the scoring is not a sum of terms)."""
        if self._scoring is None:
            return None
        param, parts = self._scoring
        return tuple(tuple(st.game.evaluate(e, st, {param: q}) for e in parts)
                     for q in range(st.game.players))
