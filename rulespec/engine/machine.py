"""What generated code and the running state share: the machine's vocabulary.

The compiler (``codegen/``) writes each procedure as a function ``run(st, F)`` and each
decision's alternatives as enumerators; :class:`~rulespec.engine.state.State` runs them. Both
sides speak of the same few things, defined here, below both: a :class:`Frame` (a running
procedure, its ``pc`` and locals), a :class:`Procedure` and the *stops* it may reach
(:class:`ChooseStop` a decision, :class:`ChanceStop` a chance event, :class:`EndDeal`,
:class:`EndMatch`, :class:`Return`), the legal events a decision lists (:class:`LegalMap`,
:class:`LazyLegal`), the work budget (:data:`MAX_WORK`) and the helpers the generated
statements call (moving, dealing, filling and snapshotting zones). The generated code sees the
state through the :class:`Running` protocol, so nothing here, and nothing in ``codegen/``,
imports :class:`State`.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias, cast

import attrs

from rulespec.engine.events import Event
from rulespec.errors import RuleRuntimeError
from rulespec.lang import ast
from rulespec.lang.builtins import MAX_COLLECTION, LimitError, check_size, spend
from rulespec.lang.decks import FRENCH, Deck
from rulespec.lang.model import CheckedSpec

__all__ = ["MAX_WORK", "MEMO_MAX", "Alternative", "ChanceStop", "ChooseStop", "EndDeal",
           "EndMatch", "Fn", "Frame", "GameRules", "LazyLegal", "LazyProduct", "LazySets",
           "LegalEntry", "LegalMap",
           "Procedure", "Resolver", "Return", "Running", "Stop", "Together", "deal_cards",
           "fill_zone", "hold_choice", "move_cards", "snapshot", "snapshot_sum",
           "together_seats"]


def _max_work() -> int:
    try:
        return max(1, int(os.environ.get("RULESPEC_MAX_WORK", "")))
    except ValueError:
        return 1_000_000


#: the most work the rules may do between two events (decisions or chance events), counted
#: in rounds of loops and, for a definition compiled as a function, the nodes of its body at
#: each call: past it, a runtime error at the loop or the definition. RULESPEC_MAX_WORK sets
#: it.
MAX_WORK = _max_work()

#: a state's variables or zones, or a frame's locals, by generated name: what generated code
#: reads and writes (any value a rule computes)
Values: TypeAlias = dict[str, Any]


class Running(Protocol):
    """The state as generated code sees it: what the compiled rules read and write, and
    nothing else (:class:`~rulespec.engine.state.State` is one; so is the stand-in a table's
    ``require`` is evaluated in before any state exists)."""

    #: the variables and the zones, by name
    v: Values
    z: Values
    #: loop rounds the rules may still take before the next event (see MAX_WORK)
    work: int
    #: list elements the comprehensions may still go through (builtins.spend)
    left: int


class Machine(Running, Protocol):
    """A running match as its procedures see it: the frames, the cards in play (``fill``
    bounds them), the count of the deal's events, and the start of a deal."""

    stack: list[Frame]
    in_play: int
    deal_events: int

    def start_deal(self) -> None:
        """``run deal`` with result fields: the last deal's entry is final."""

    def seen_by(self, seat: object) -> list[str]:
        """``seen_by(seat)``: every card ``seat`` has seen in this deal."""

    def remember(self) -> None:
        """A stop of a spec that calls ``seen_by``: each seat notes the cards it sees now."""

    def forget(self) -> None:
        """``run deal`` of a spec that calls ``seen_by``: the seats' memories start empty."""


#: a compiled expression: ``fn(st, L)``, the state and the running procedure's locals
Fn = Callable[[Running, Values], Any]

#: Alternative.resolve: (state, locals, what an entry keeps) to the generators' values
Resolver = Callable[[Running, dict[str, object], object], object]


@attrs.define(eq=False)
class Alternative:
    """One alternative of a decision: its action, the function that lists its legal events,
    and where its body starts in the procedure."""

    action: str
    #: enum(st, L, out, seat, alt) adds every legal event of this alternative to ``out``, or,
    #: while ``out`` is empty, may return the map it remembered for the same inputs instead
    enum: Callable[..., LegalMap | None]
    body_pc: int
    node: ast.Alternative
    gen_vars: tuple[str, ...]
    #: where the entries keep not the generator's value but what it is found from when the
    #: event is applied, resolve(st, L, kept) gives the value (see _lazy_subsets)
    resolve: Resolver | None = None
    #: the generator's variable where there is exactly one and nothing to resolve (its value
    #: is bound as it is)
    one_var: str | None = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.one_var = self.gen_vars[0] if len(self.gen_vars) == 1 and \
            self.resolve is None else None


@attrs.frozen
class Together:
    """What a simultaneous decision (``choose together NAME in SEATS``) keeps in the locals of
    its frame while the seats choose: ``var`` the name each seat is bound to (the seat asked
    now), ``pending`` the local holding the seats still to choose (a sorted tuple), ``held``
    the one holding the choices made, in secret, as (seat, alternative, bindings), sorted by
    seat."""

    var: str
    pending: str
    held: str


@attrs.frozen
class ChooseStop:
    """A decision: the seat that makes it and its alternatives."""

    seat: Fn
    alts: tuple[Alternative, ...]
    node: ast.Choose
    #: lists the events of every alternative in one call, legal(st, L, out, seat, alts);
    #: None where an alternative remembers its events (then each is asked in turn)
    legal: Callable[..., None] | None = None
    #: the local that names the seat, where the seat is one (read directly, without ``seat``)
    seat_local: str | None = None
    #: where several seats choose at once: the locals the decision keeps (see Together)
    together: Together | None = None


@attrs.frozen
class ChanceStop:
    """A chance event: a shuffle, reshuffle or bury from ``src`` into ``dst``; or a pick,
    whose ``src`` gives its outcomes as (value, weight) pairs and which leaves the value
    picked in the local ``slot`` (the code after the stop stores it where the spec says)."""

    kind: str  # shuffle | reshuffle | bury | pick
    src: Fn
    dst: Fn
    node: ast.Stmt
    slot: str | None = None
    #: the spec's deck: the codes a shuffle may hold, and their order
    deck: Deck = FRENCH


@attrs.frozen
class EndDeal:
    """``end deal [as FLAG] scoring DEF``."""

    flag: str | None
    score: Callable[..., object]
    node: ast.EndDeal


@attrs.frozen
class EndMatch:
    """``end match winners EXPR``."""

    winners: Fn
    node: ast.EndMatch


@attrs.frozen
class Return:
    """The end of a procedure (a ``return`` or its last statement)."""


Stop = ChooseStop | ChanceStop | EndDeal | EndMatch | Return


class Procedure:
    """One compiled procedure: ``run(st, frame) -> None | 1`` (returned, or stopped) and the
    stop at each stopping ``pc``."""

    __slots__ = ("name", "params", "run", "stops", "binds_zones")

    def __init__(self, name: str, params: tuple[str, ...]) -> None:
        self.name = name
        self.params = params
        self.run: Callable[[Machine, Frame], int | None] = _not_compiled
        self.stops: dict[int, Stop] = {}
        #: a local of this procedure may hold a zone itself (``for h in [hand[0], hand[1]]``),
        #: not a snapshot of it: a clone must then point it at its own copy of the zone
        self.binds_zones = False


class Frame:
    """A running procedure: where it stands (``pc``), its locals, and whether it is the deal
    (which must end with ``end deal``). A clone copies the locals and shares the rest."""

    __slots__ = ("proc", "pc", "L", "is_deal")

    def __init__(self, proc: Procedure, pc: int, L: Values, is_deal: bool) -> None:
        self.proc = proc
        self.pc = pc
        self.L = L
        self.is_deal = is_deal

    def copy(self) -> Frame:
        """An independent copy (the locals' values are immutable: tuples, numbers, cards)."""
        return Frame(self.proc, self.pc, dict(self.L), self.is_deal)


def _not_compiled(st: Machine, frame: Frame) -> int | None:  # pragma: no cover
    raise AssertionError("procedure used before it was compiled")


class LegalMap(dict):  # type: ignore[type-arg]
    """The legal events of a decision (canonical key → (event, alternative, bindings)) that an
    enumerator remembered: shared by every state that meets the same inputs, so never
    changed, and ``order`` keeps its events in canonical order once sorted."""

    __slots__ = ("order", "entries", "presorted", "lazy")

    def __init__(self) -> None:
        super().__init__()
        self.order: list[Event] | None = None
        #: the entries in the same order, for State.apply_index (set with ``order``)
        self.entries: list[tuple[Event, Alternative | None, object]] | None = None
        #: whether the keys went in in canonical order (a hand's subsets, listed in the
        #: order of their texts), so that nothing is left to sort
        self.presorted = False
        #: a map not written yet (see :class:`LazyLegal`: a hand's subsets, or a product
        #: of them with short lists). Empty as a dict until :meth:`fill`: State.legal_map
        #: fills it for every reader but the engine's own hot paths, which read ``lazy``
        self.lazy: LazyLegal | None = None

    def fill(self, st: Running) -> None:
        """Write a lazy map's keys and entries, at the decision of ``st`` (see
        :meth:`LazyLegal.write`)."""
        if self.lazy is not None:
            self.lazy.write(st, self)

    def size(self) -> int:
        """How many legal events the map holds, written or not."""
        return len(self) if self.lazy is None else self.lazy.size()


#: legal events one enumerator remembers, all its maps together; past this it forgets them
#: all and starts again. A bidding game's maps hold thousands of events each, and each event
#: kept is a few more objects for Python's garbage collector to scan: counted in maps (1,024
#: of them before), the memory had no useful bound. Measured on the 4-player bidding game: 100,000
#: events is too few (the engine went from 0.15 to 0.9 of the oracle's time), 200,000 keeps
#: 0.2 with about 300 MB for the process after 300 games.
MEMO_MAX = 200_000


#: a legal event, the alternative that allows it (None for chance) and its generators' values
LegalEntry = tuple[Event, Alternative | None, object]


class LazyLegal:
    """A decision's legal events not written yet (:attr:`LegalMap.lazy`): thousands of them,
    of which a playout applies one. The readers (State's count, index, event and key
    lookups, :meth:`LegalMap.fill`) ask through these methods, which each kind answers
    building only what is asked: :class:`LazySets` (a hand's subsets), :class:`LazyProduct`
    (subsets times short lists)."""

    __slots__ = ("alt",)

    #: whether :meth:`events` lists the events without the map written
    lists_alone = False

    def __init__(self, alt: Alternative) -> None:
        #: the alternative that allows them all
        self.alt = alt

    def size(self) -> int:
        """How many events."""
        raise NotImplementedError

    def event(self, k: int) -> Event:
        """The ``k``-th event (canonical order), made alone."""
        raise NotImplementedError

    def binding(self, k: int) -> object:
        """What the ``k``-th event's entry keeps for its generators (LegalEntry's third)."""
        raise NotImplementedError

    def events(self) -> list[Event]:
        """Every event, in canonical order, where :attr:`lists_alone`."""
        raise NotImplementedError

    def write(self, st: Running, into: LegalMap) -> None:
        """Write the keys and entries into ``into`` (the map that holds this one, at the
        decision of ``st``), and make it an ordinary map: ``lazy`` None, and ``order`` and
        ``entries`` set where they are known."""
        raise NotImplementedError

    def find(self, key: str) -> int:
        """The index of the event whose canonical key is ``key``, or -1."""
        raise NotImplementedError


class LazySets(LazyLegal):
    """A hand's thousands of subsets, unwritten. Each event is made from a set alone, so
    the map keeps the sets, their texts in sorted order, and how to make a key from a text
    and the events from the sets."""

    __slots__ = ("key_of", "all_events", "sets", "texts", "event_of")

    lists_alone = True

    def __init__(self, key: Callable[[str], str], events: Callable[[], list[Event]],
                 sets: Sequence[list[object]], texts: Sequence[str], alt: Alternative,
                 event: Callable[[list[object]], Event]) -> None:
        super().__init__(alt)
        #: the canonical key of the event whose set has this text
        self.key_of = key
        #: every event, in canonical order (made when ``legal_actions`` asks)
        self.all_events = events
        #: the sets, each the value the alternative's variable is bound to, in canonical order
        self.sets = sets
        #: their JSON texts, sorted (so that a key is found by bisection)
        self.texts = texts
        #: the event of one set (State.legal_event: one event told without the others)
        self.event_of = event

    def size(self) -> int:
        return len(self.sets)

    def events(self) -> list[Event]:
        """Every event, in canonical order, made from the sets (no key, no entry)."""
        return self.all_events()

    def event(self, k: int) -> Event:
        return self.event_of(self.sets[k])

    def binding(self, k: int) -> object:
        return self.sets[k]

    def write(self, st: Running, into: LegalMap) -> None:
        # the events legal_actions handed out, if it did, so that a driver's events are
        # found by identity as ever
        order = into.order if into.order is not None else self.events()
        alt = self.alt
        entries: list[tuple[Event, Alternative | None, object]] = [
            (e, alt, b) for e, b in zip(order, self.sets, strict=True)]
        into.update(zip(map(self.key_of, self.texts), entries, strict=True))
        into.order, into.entries, into.presorted, into.lazy = order, entries, True, None

    def find(self, key: str) -> int:
        """The index of the event whose canonical key is ``key``, or -1: the keys are
        sorted, so a search reads a dozen of them."""
        keyf, texts = self.key_of, self.texts
        i = bisect.bisect_left(texts, key, key=keyf)
        return i if i < len(texts) and keyf(texts[i]) == key else -1


class LazyProduct(LazyLegal):
    """The legal events of an alternative whose generators are a subsets source and short
    lists of values, each variable one field of the event
    (``declare(expose = set_of(xs), pile = x) for xs in subsets(...) for x in [false, true]``),
    unwritten: the index of an event is a number in mixed radix, one digit per field in the
    order of the fields' names, which is the order of the canonical keys (see
    ``codegen/lazy.py``, which builds one only where that is proved), less those a filter
    refuses (``accepted``: the numbers kept, ascending). It counts, tells one event, binds
    one entry and finds one key; the whole map is written by the alternative's own
    enumerator (``eager``), as it always was (its events kept from decision to decision)."""

    __slots__ = ("seat", "action", "names", "axes", "radix", "accepted", "chunks", "gens",
                 "subset_of", "eager", "budget")

    def __init__(self, alt: Alternative, seat: int, action: str,
                 names: tuple[tuple[str, int, bool, object], ...],
                 axes: tuple[tuple[Sequence[object], Sequence[str]], ...] | Callable[
                     [], tuple[tuple[Sequence[object], Sequence[str]], ...]],
                 radix: tuple[int, ...], chunks: tuple[str, ...], gens: tuple[int, ...],
                 subset_of: Callable[[list[object]], object],
                 accepted: Sequence[int] | None, eager: Callable[..., LegalMap | None],
                 budget: tuple[int, int]) -> None:
        super().__init__(alt)
        self.seat, self.action = seat, action
        #: each field in the order the spec writes it: its name, its axis (-1 for none),
        #: whether a set, and the value where it has no axis (one the table fixes)
        self.names = names
        #: each axis (a field written by a generator's variable, in the order of the fields'
        #: names): its values and their JSON texts, in the order of the keys; or what makes
        #: them when first asked (a driver that lists the events never does)
        self.axes = axes
        #: how many values each axis has
        self.radix = radix
        #: the key's constant texts, before the first axis, between two, after the last
        self.chunks = chunks
        #: each generator's axis, in the generators' order (what an entry binds)
        self.gens = gens
        #: the subset the alternative's variable is bound to, from its set
        self.subset_of = subset_of
        self.accepted = accepted
        #: the alternative's own enumerator, and the work budget (``left``, ``work``) it
        #: would have had at the decision, had it listed the events then
        self.eager = eager
        self.budget = budget

    def size(self) -> int:
        if self.accepted is not None:
            return len(self.accepted)
        n = 1
        for r in self.radix:
            n *= r
        return n

    def digits(self, k: int) -> list[int]:
        """The ``k``-th event's value on each axis, by index."""
        f = self.accepted[k] if self.accepted is not None else k
        out = [0] * len(self.radix)
        for j in range(len(self.radix) - 1, -1, -1):
            f, out[j] = divmod(f, self.radix[j])
        return out

    def made(self) -> tuple[tuple[Sequence[object], Sequence[str]], ...]:
        """The axes, made now if they were not."""
        axes = self.axes
        if callable(axes):
            axes = self.axes = axes()
        return axes

    def key(self, k: int) -> str:
        """The ``k``-th event's canonical key."""
        d, chunks, axes = self.digits(k), self.chunks, self.made()
        return chunks[0] + "".join(axes[j][1][d[j]] + chunks[j + 1] for j in range(len(d)))

    def event(self, k: int) -> Event:
        d, axes = self.digits(k), self.made()
        ev: Event = {"seat": self.seat, "action": self.action}
        for name, j, is_set, fixed in self.names:
            v = fixed if j < 0 else axes[j][0][d[j]]
            ev[name] = list(v) if is_set else v  # type: ignore[call-overload]
        return ev

    def binding(self, k: int) -> object:
        d, axes = self.digits(k), self.made()
        out = tuple(self.subset_of(axes[j][0][d[j]]) if i == 0  # type: ignore[arg-type]
                    else axes[j][0][d[j]] for i, j in enumerate(self.gens))
        return out[0] if len(out) == 1 else out

    def find(self, key: str) -> int:
        n = self.size()
        i = bisect.bisect_left(range(n), key, key=self.key)
        return i if i < n and self.key(i) == key else -1

    def write(self, st: Running, into: LegalMap) -> None:
        # the enumerator runs with the budget it had at the decision, so that it spends,
        # and stops, as it would have then
        left, work = st.left, st.work
        st.left, st.work = self.budget
        out: dict[str, LegalEntry] = {}
        try:
            got = self.eager(st, cast("Machine", st).stack[-1].L, out, self.seat, self.alt)
        finally:
            st.left, st.work = left, work
        into.lazy = None
        if got is None:
            into.update(out)
            return
        into.update(got)  # a map the enumerator remembered: shared, so copied
        into.presorted = got.presorted
        if got.order is not None:
            into.order, into.entries = got.order, got.entries


def together_seats(seats: Iterable[object], hands: int, span: ast.Span) -> tuple[int, ...]:
    """The seats of a simultaneous decision, checked and sorted: each a seat of a hand at the
    table, none twice."""
    out: list[int] = []
    for q in seats:
        if type(q) is not int or not 0 <= q < hands:
            raise RuleRuntimeError(f"seat {q!r} must decide here, but this table's hands are "
                                   f"seats 0 to {hands - 1}", span,
                                   "choose together needs seats of hands at the table")
        out.append(q)
    if len(set(out)) != len(out):
        raise RuleRuntimeError(f"a seat is listed twice among the seats that decide together "
                               f"({out})", span, "each seat chooses once: list it once")
    return tuple(sorted(out))


def hold_choice(held: tuple[tuple[int, int, tuple[tuple[str, object], ...]], ...], seat: int,
                alt: int, binds: tuple[tuple[str, object], ...]
                ) -> tuple[tuple[int, int, tuple[tuple[str, object], ...]], ...]:
    """The choices held in a simultaneous decision, with ``seat``'s added: kept sorted by seat,
    so that the held choices (and the reveal) are the same whatever order they came in."""
    return tuple(sorted((*held, (seat, alt, binds)), key=lambda h: h[0]))


def snapshot(st: Running, x: object) -> object:
    """A list value as the rules keep it: tuples all the way down (a zone's cards, or a list of
    zones), so that later moves change nothing in it. Its length is charged to the
    comprehensions' budget (builtins.spend), as every statement that builds a list is."""
    if isinstance(x, (list, tuple)):
        spend(st, x)
        if not x or type(x[0]) not in (list, tuple):
            return x if type(x) is tuple else tuple(x)
        return tuple(snapshot(st, y) for y in x)
    return x


def snapshot_sum(st: Running, x: Sequence[object], y: Sequence[object]) -> tuple[object, ...]:
    """``snapshot(st, x + y)`` for two lists of plain values (numbers, cards, suits: what the
    checker's type of the sum says), in one call: ``set trick_from = trick_from + [h]``, at
    every card of a trick-taking game (issue 29). The same checks, in the same order: the
    joined list's size, then its length spent from the budget."""
    if len(x) + len(y) > MAX_COLLECTION:
        check_size(len(x) + len(y), "the joined list")
    r = (x if type(x) is tuple else tuple(x)) + (y if type(y) is tuple else tuple(y))
    st.left -= len(r)
    if st.left < 0:
        st.left += len(r)
        spend(st, r)  # raises, as snapshot's spend would
    return r


def move_cards(what: str | Sequence[str], src: list[str], dst: list[str], bottom: bool,
               span: ast.Span) -> None:
    """``move WHAT from SRC to DST [to bottom]``."""
    if type(what) is str and src.count(what) == 1:
        # one card, one copy of it: the usual move (a card played), without the loop
        src.remove(what)
        if bottom:
            dst.insert(0, what)
        else:
            dst.append(what)
        return
    # a snapshot: "move hand[p] from hand[p] to ..." moves the whole zone
    cards = (what,) if isinstance(what, str) else tuple(what)
    for c in cards:
        n = src.count(c)
        if n == 1:
            src.remove(c)  # the usual case, one copy: found at C speed
        elif n == 0:
            raise RuleRuntimeError(f"card {c} is not in the zone it is moved from", span)
        else:
            # take the topmost copy, so a duplicate from a second pack is interchangeable
            for i in range(len(src) - 1, -1, -1):
                if src[i] == c:
                    del src[i]
                    break
        if bottom:
            dst.insert(0, c)
        else:
            dst.append(c)


def fill_zone(st: Machine, zone: list[str], cards: Iterable[str]) -> None:
    """``fill ZONE with CARDS``: the one statement that brings cards into play (or takes them
    out). What it builds is charged to the comprehensions' budget (builtins.spend), and the
    cards of every zone together (``st.in_play``, kept as each fill changes it: moves and
    deals only carry cards from zone to zone) stay within MAX_COLLECTION: a list of a million
    cards is the most one rule may build, and a thousand zones of such lists would exhaust
    memory as surely."""
    new = list(cards)
    spend(st, new)
    total = st.in_play - len(zone) + len(new)
    if total > MAX_COLLECTION:
        raise LimitError(f"the zones would hold {total} cards in all, more than the limit of "
                         f"{MAX_COLLECTION} (RULESPEC_MAX_COLLECTION)")
    zone[:] = new
    st.in_play = total


def deal_cards(n: int, src: list[str], hands: list[list[str]], seats: Sequence[int],
               span: ast.Span) -> None:
    """``deal N from SRC to ZONE[seats]``: one card at a time, seat by seat."""
    for _ in range(n):
        for q in seats:
            if not src:
                raise RuleRuntimeError("the pack ran out while dealing", span)
            hands[q].append(src.pop())


class GameRules(Protocol):
    """What a state reads of its game (:class:`rulespec.engine.game.Game` is the one): the
    table, its declared bounds and the compiled rules. A protocol, so that this module does
    not import the one that builds states."""

    spec: CheckedSpec
    players: int
    hands: int
    dealer: int
    options: dict[str, object]
    #: (low, high) of a deal's scores, and the most events a deal may have, at this table
    score_range: tuple[int, int] | None
    max_events: int | None
    #: every compiled procedure by name, the deal and the match as ``#deal`` and ``#match``
    procs: dict[str, Procedure]
    #: the variables' and the result fields' names, whether per player, and initial values
    var_inits: list[tuple[str, bool, Fn]]
    result_inits: list[tuple[str, bool, Fn]]
    #: the fields of each action, and the (action, field) pairs that hold a set
    action_fields: dict[str, set[str]]
    set_fields: set[tuple[str, str]]
    #: each zone's name and whether it is one per hand
    zone_kinds: tuple[tuple[str, bool], ...]
    #: some local may hold a zone itself, so a clone must repoint it (see State.clone)
    binds_zones: bool
    #: with 'teams': each seat's team and how many teams (None and 0 without)
    teams: tuple[int, ...] | None
    team_count: int
    #: with teams formed in play ('teams ... in play'): a seat's team in a state
    team_now: Callable[..., int] | None

    def evaluate(self, e: ast.Expr, state: Any, bindings: Mapping[str, object]) -> object:
        """The value of ``e`` in ``state`` (a State: see Game.evaluate)."""
