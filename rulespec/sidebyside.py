"""Same deal, two specs: one shuffle played under two games, and a report of both side by side.

``rulespec diff`` needs two specs with one event vocabulary; two versions of a game (two
rule sets of one trick-taking game, say) have different ones, so they are compared here on a
shared deal instead. :func:`same_deal` gives both games the same first shuffle, lets a seeded
random policy (:func:`rulespec.simulate.sample_event`) take every decision through the
implementation protocol (:class:`rulespec.protocol.SpecImplementation`), and collects each
game's decisions, tricks and result; :meth:`SideBySide.text` renders them for people and
:meth:`SideBySide.to_json` for machines.

Everything is read from the events and the replay answer: actions and their fields as the
records carry them. The few names this module looks for (:data:`PLAY_ACTION`,
:data:`CARD_FIELDS`, :data:`HAND_ZONE`, :data:`TRICK_COUNT_VARS`) are presentation only: they
say which decisions form the trick table, where a play's card is, which zone the deal fills and
which variable counts the tricks a seat has won. A game without them is still played and
reported; its trick table is then empty or has no winners.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping, Sequence

import attrs

from rulespec.engine.events import Event
from rulespec.errors import ConfigurationError, RecordError
from rulespec.lang.decks import FRENCH, Deck, sorted_cards
from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation
from rulespec.records import FORMAT
from rulespec.shown import escape_line
from rulespec.simulate import sample_event

__all__ = [
    "CARD_FIELDS",
    "HAND_ZONE",
    "PLAY_ACTION",
    "TRICK_COUNT_VARS",
    "DealPlay",
    "SideBySide",
    "Trick",
    "deal_hands",
    "draw_shuffle",
    "same_deal",
]

#: presentation only: the action whose events are the cards played to tricks
PLAY_ACTION = "play"
#: presentation only: the field of a play event that holds its card (the first one present)
CARD_FIELDS = ("card", "cards")
#: presentation only: the per-hand zone the deal fills (``tricks.rules``'s ``hand``)
HAND_ZONE = "hand"
#: presentation only: per-player variables counting the tricks credited to each seat; the seat
#: whose count goes up during a trick won it (the first of these the game declares is read)
TRICK_COUNT_VARS = ("taken",)
#: match-length options: a same-deal comparison is one deal (R9); each may be given at its
#: default
_MATCH_LENGTH = ("deals", "target", "game_end")
#: a guard against a spec that never ends
_MAX_EVENTS = 100_000


@attrs.frozen
class Trick:
    """One trick: its number (from 1), the cards in the order played, each with the seat
    (hand) that played it, and the seat credited with it (None when the game does not say)."""

    number: int
    plays: tuple[tuple[int, str], ...]
    winner: int | None = None

    def to_json(self) -> dict[str, object]:
        """A plain dict: number, plays as ``{"seat", "card"}`` objects, winner."""
        return {"number": self.number,
                "plays": [{"seat": s, "card": c} for s, c in self.plays],
                "winner": self.winner}


@attrs.frozen
class DealPlay:
    """One game's play of the shared deal.

    ``events`` is the whole record of the match (the shared shuffle first); ``decisions``
    groups the decisions made before the first card is played by action name, in the order
    each action first occurs; ``tricks`` are the plays in groups of one card per hand, and
    ``after`` maps a trick number to the other decisions made between its first card and the
    next trick's (a call, say). ``dealt`` is each hand as the engine dealt it (sorted; empty
    when the game has no :data:`HAND_ZONE`), ``result`` the first deal of the replay answer
    (``scores``, and whatever result fields the game declares), ``totals`` and ``winners`` the
    match's.
    """

    game: str
    title: str
    options: Mapping[str, object]
    hands: int
    events: tuple[Event, ...]
    decisions: tuple[tuple[str, tuple[Event, ...]], ...]
    tricks: tuple[Trick, ...]
    after: Mapping[int, tuple[Event, ...]]
    dealt: tuple[tuple[str, ...], ...]
    result: Mapping[str, object]
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    def record(self, players: int, dealer: int) -> dict[str, object]:
        """The match as a ``rulespec-record/1`` record (``rulespec replay`` accepts it when
        ``game`` is a shipped name)."""
        return {"format": FORMAT, "game": self.game, "players": players,
                "options": dict(self.options), "dealer": dealer,
                "events": [dict(e) for e in self.events]}

    def to_json(self, players: int, dealer: int) -> dict[str, object]:
        """A plain dict of everything collected, with the record of the match."""
        return {
            "game": self.game, "title": self.title, "options": dict(self.options),
            "hands": self.hands,
            "decisions": {a: [dict(e) for e in evs] for a, evs in self.decisions},
            "tricks": [t.to_json() for t in self.tricks],
            "after_tricks": {str(k): [dict(e) for e in v] for k, v in self.after.items()},
            "dealt": [list(h) for h in self.dealt],
            "result": dict(self.result), "totals": list(self.totals),
            "winners": list(self.winners),
            "record": self.record(players, dealer),
        }


@attrs.frozen
class SideBySide:
    """One shuffle played under two games: the shared deal and each game's play of it."""

    players: int
    dealer: int
    seed: int
    shuffle: tuple[str, ...]
    #: each hand as dealt from the shuffle (one card at a time from seat dealer+1, clockwise)
    hands: tuple[tuple[str, ...], ...]
    #: the cards of the shuffle after the last one dealt (a trump indicator, say)
    left_over: tuple[str, ...]
    a: DealPlay
    b: DealPlay

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--json``."""
        return {
            "players": self.players, "dealer": self.dealer, "seed": self.seed,
            "shuffle": list(self.shuffle), "hands": [list(h) for h in self.hands],
            "left_over": list(self.left_over),
            "a": self.a.to_json(self.players, self.dealer),
            "b": self.b.to_json(self.players, self.dealer),
        }

    def text(self) -> str:
        """The readable report: the deal, each game's decisions, the tricks and the scores."""
        return _render(self)


# ---- playing ---------------------------------------------------------------------------------
def _start(game: str, players: int, options: Mapping[str, object] | None,
           dealer: int) -> tuple[SpecImplementation, str, dict[str, object]]:
    """A fresh one-deal match of ``game`` at its first chance event; its title and options."""
    opts = dict(options or {})
    spec = resolve(game).spec
    # the match length checked as the spec reads it (game_end spelled as deals or target):
    # its default (one deal, no target) is the one deal played, and may be given
    defaults = spec.defaults()
    checked = spec.check_options(opts)
    length = [k for k in _MATCH_LENGTH if k in checked and checked[k] != defaults.get(k)]
    if length:
        given = [k for k in _MATCH_LENGTH if k in opts]
        raise ConfigurationError(
            f"{game}: a same-deal comparison plays one deal; drop the option "
            f"{', '.join(given)}")
    impl = SpecImplementation(spec=spec)
    impl.new(game, players, opts, dealer)
    return impl, spec.title, spec.canonical_options(opts)


def _template(impl: SpecImplementation, game: str) -> list[str]:
    """The cards of the shuffle a fresh match of ``game`` starts with."""
    legal = impl.legal() if impl.to_move() == "chance" else []
    if len(legal) != 1 or legal[0].get("chance") != "shuffle":
        raise ConfigurationError(f"{game} does not start with a shuffle: no deal to share")
    cards = legal[0]["cards"]
    assert isinstance(cards, list)
    return sorted((str(c) for c in cards), key=_deck(impl).order.__getitem__)


def _deck(impl: SpecImplementation) -> Deck:
    """The deck of the spec ``impl`` plays (the French one by default)."""
    return impl.state.game.spec.deck if impl.state is not None else FRENCH


def draw_shuffle(game: str, players: int, seed: int, options: Mapping[str, object] | None = None,
                 dealer: int = 0) -> list[str]:
    """A shuffle of ``game``'s pack at this table, drawn by ``random.Random(seed)`` as
    ``rulespec simulate`` draws one (top card first)."""
    impl, _, _ = _start(game, players, options, dealer)
    return list(sample_event([{"chance": "shuffle", "cards": _template(impl, game)}],
                             random.Random(seed))["cards"])


def deal_hands(shuffle: Sequence[str], hands: int, dealer: int, deck: Deck = FRENCH
               ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Each hand as dealt from ``shuffle`` (top card first), one card at a time from hand
    ``dealer + 1`` clockwise, as many rounds as every hand can get (records.md §1.6), and the
    cards left over. Hands are sorted in canonical order."""
    size = len(shuffle) // hands
    dealt: list[list[str]] = [[] for _ in range(hands)]
    for i, card in enumerate(shuffle[:size * hands]):
        dealt[(dealer + 1 + i) % hands].append(card)
    return tuple(tuple(sorted_cards(deck, h)) for h in dealt), tuple(shuffle[size * hands:])


def _card_of(event: Mapping[str, object]) -> str:
    for f in CARD_FIELDS:
        if f in event:
            v = event[f]
            return " ".join(map(str, v)) if isinstance(v, list) else str(v)
    return " ".join(f"{k}={_value(v)}" for k, v in event.items() if k not in ("seat", "action"))


def _trick_counts(impl: SpecImplementation) -> list[int] | None:
    """The per-seat trick counts the game keeps now (TRICK_COUNT_VARS), or None."""
    obs = impl.observe(0)
    variables = obs.get("vars")
    if not isinstance(variables, dict):
        return None
    for name in TRICK_COUNT_VARS:
        v = variables.get(name)
        if isinstance(v, list) and all(isinstance(x, int) for x in v):
            return list(v)
    return None


def _dealt(impl: SpecImplementation, hands: int) -> tuple[tuple[str, ...], ...]:
    """Each hand as the engine holds it (right after the shuffle, before any decision)."""
    out = []
    for h in range(hands):
        zones = impl.observe(h).get("zones")
        zone = zones.get(HAND_ZONE) if isinstance(zones, dict) else None
        if not isinstance(zone, list) or h >= len(zone) or not isinstance(zone[h], list):
            return ()
        out.append(tuple(sorted_cards(_deck(impl), zone[h])))
    return tuple(out)


def _play(impl: SpecImplementation, game: str, title: str, options: Mapping[str, object],
          shuffle: list[str], rng: random.Random) -> DealPlay:
    """Apply the shared shuffle, then play to the end with ``rng``'s decisions."""
    st = impl.state
    assert st is not None
    hands = st.game.hands
    impl.apply({"chance": "shuffle", "cards": list(shuffle)})
    events: list[Event] = [{"chance": "shuffle", "cards": list(shuffle)}]
    dealt = _dealt(impl, hands)
    before: dict[str, list[Event]] = {}
    tricks: list[list[tuple[int, str]]] = []
    after: dict[int, list[Event]] = {}
    counts: list[list[int] | None] = []  # the trick counts as each trick starts, then at the end
    while impl.to_move() is not None:
        if len(events) >= _MAX_EVENTS:
            raise ConfigurationError(f"{game}: the deal did not end within {_MAX_EVENTS} events")
        # a pick by its weights, as simulate draws it
        ev = sample_event(impl.legal(), rng, impl.state.chance_weights if impl.state else None)
        if ev.get("action") == PLAY_ACTION:
            if not tricks or len(tricks[-1]) == hands:
                counts.append(_trick_counts(impl))
                tricks.append([])
            impl.apply(ev)
            tricks[-1].append((int(ev["seat"]), _card_of(ev)))
        else:
            impl.apply(ev)
            if "seat" in ev:
                if tricks:
                    after.setdefault(len(tricks), []).append(ev)
                else:
                    before.setdefault(str(ev["action"]), []).append(ev)
        events.append(ev)
    counts.append(_trick_counts(impl))
    res = impl.result()
    deals = res.get("deals")
    if not isinstance(deals, list) or not deals:
        raise ConfigurationError(f"{game}: the match ended with no deal in its result")
    built = []
    for i, plays in enumerate(tricks):
        built.append(Trick(i + 1, tuple(plays), _winner(counts[i], counts[i + 1])))
    totals = res.get("totals")
    winners = res.get("winners")
    return DealPlay(
        game=game, title=title, options=dict(options), hands=hands, events=tuple(events),
        decisions=tuple((a, tuple(evs)) for a, evs in before.items()), tricks=tuple(built),
        after={k: tuple(v) for k, v in after.items()}, dealt=dealt, result=dict(deals[0]),
        totals=tuple(totals) if isinstance(totals, list) else (),
        winners=tuple(winners) if isinstance(winners, list) else ())


def _winner(before: list[int] | None, after: list[int] | None) -> int | None:
    """The one seat whose trick count went up, or None."""
    if before is None or after is None or len(before) != len(after):
        return None
    up = [q for q, (x, y) in enumerate(zip(before, after, strict=True)) if y > x]
    return up[0] if len(up) == 1 else None


def same_deal(game_a: str, game_b: str, players: int, shuffle: Sequence[str] | None = None,
              seed: int = 0, options_a: Mapping[str, object] | None = None,
              options_b: Mapping[str, object] | None = None, dealer: int = 0) -> SideBySide:
    """Play one deal of ``game_a`` and one of ``game_b`` from the same shuffle.

    ``shuffle`` lists the whole pack, top card first (lenient card codes are accepted); None
    draws one with :func:`draw_shuffle` from ``seed``. Both games must shuffle the same cards
    at this table (ConfigurationError otherwise), and ``shuffle`` must order exactly those
    cards (RecordError). Each game's decisions, and any later chance event, are drawn by its
    own ``random.Random(seed)``, so a seed gives the same report every time. ``options_a`` and
    ``options_b`` are each game's options; a match-length option (``deals``, ``target``,
    ``game_end``) other than its default is refused, as the match is the one deal.
    """
    impl_a, title_a, opts_a = _start(game_a, players, options_a, dealer)
    impl_b, title_b, opts_b = _start(game_b, players, options_b, dealer)
    pack_a, pack_b = _template(impl_a, game_a), _template(impl_b, game_b)
    if pack_a != pack_b:
        only_a = _minus(pack_a, pack_b)
        only_b = _minus(pack_b, pack_a)
        raise ConfigurationError(
            f"{game_a} and {game_b} do not shuffle the same cards with {players} players "
            f"({len(pack_a)} and {len(pack_b)} cards; only in {game_a}: "
            f"{' '.join(only_a) or '-'}; only in {game_b}: {' '.join(only_b) or '-'})")
    if shuffle is None:
        cards = list(sample_event([{"chance": "shuffle", "cards": pack_a}],
                                  random.Random(seed))["cards"])
    else:
        cards = _check_shuffle(shuffle, pack_a, _deck(impl_a))
    hands = impl_a.state.game.hands if impl_a.state is not None else players
    dealt, left = deal_hands(cards, hands, dealer, _deck(impl_a))
    a = _play(impl_a, game_a, title_a, opts_a, cards, random.Random(seed))
    b = _play(impl_b, game_b, title_b, opts_b, cards, random.Random(seed))
    return SideBySide(players, dealer, seed, tuple(cards), dealt, left, a, b)


def _minus(xs: list[str], ys: list[str]) -> list[str]:
    rest = list(ys)
    out = []
    for x in xs:
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out


def _check_shuffle(shuffle: Sequence[str], pack: list[str], deck: Deck = FRENCH) -> list[str]:
    """The shuffle in canonical codes, or RecordError unless it orders exactly ``pack``."""
    if isinstance(shuffle, str):
        raise RecordError("the shuffle is a list of card codes, not one string")
    cards = []
    for c in shuffle:
        code = deck.normalise(c) if isinstance(c, str) else None
        if code is None:
            raise RecordError(f"the shuffle holds {c!r}, which is not a card code")
        cards.append(code)
    got = sorted_cards(deck, cards)
    if got != pack:
        missing, extra = _minus(pack, got), _minus(got, pack)
        raise RecordError(
            f"the shuffle must order exactly the {len(pack)} cards of the pack, not "
            f"{len(cards)} (missing: {' '.join(missing) or '-'}; not in the pack or repeated: "
            f"{' '.join(extra) or '-'})")
    return cards


# ---- rendering -------------------------------------------------------------------------------
def _value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + " ".join(_value(x) for x in v) + "]"
    return escape_line(str(v))  # an option's or a field's value may be any spec string


def _decision(ev: Mapping[str, object]) -> str:
    fields = [f"{k}={_value(v)}" for k, v in ev.items() if k not in ("seat", "action")]
    return f"seat {ev['seat']}" + (f" {' '.join(fields)}" if fields else "")


def _joined(head: str, items: list[str], width: int = 96) -> list[str]:
    """``items`` joined by "; " after ``head``, wrapped between items, later lines indented
    under the first item."""
    lines = [head]
    for i, item in enumerate(items):
        sep = "; " if i < len(items) - 1 else ""
        if len(lines[-1]) > len(head) and len(lines[-1]) + len(item) + len(sep) > width:
            lines[-1] = lines[-1].rstrip()
            lines.append(" " * len(head))
        lines[-1] += item + sep
    return lines


def _cell(t: Trick | None) -> str:
    if t is None:
        return ""
    cards = " ".join(f"{s}:{c}" for s, c in t.plays)
    return cards + (f"  > {t.winner}" if t.winner is not None else "")


def _options_text(d: DealPlay) -> str:
    return ", ".join(f"{k}={_value(v)}" for k, v in d.options.items()) or "defaults"


def _render(r: SideBySide) -> str:
    # the games' names (file names) and titles (spec strings) are shown as text
    a = attrs.evolve(r.a, game=escape_line(r.a.game), title=escape_line(r.a.title))
    b = attrs.evolve(r.b, game=escape_line(r.b.game), title=escape_line(r.b.title))
    out = [f"same deal: A = {a.game}, B = {b.game}; {r.players} players, dealer {r.dealer}, "
           f"seed {r.seed}", ""]
    order = [(r.dealer + 1 + i) % len(r.hands) for i in range(len(r.hands))]
    out.append(f"The shuffle ({len(r.shuffle)} cards, top first):")
    out += textwrap.wrap(" ".join(r.shuffle), 80, initial_indent="  ",
                         subsequent_indent="  ")
    out.append(f"dealt one at a time from seat {order[0]}, clockwise (each hand sorted):")
    for h in order:
        out.append(f"  seat {h}: {' '.join(r.hands[h])}")
    if r.left_over:
        what = " (the trump indicator)" if len(r.left_over) == 1 else ""
        out.append(f"  left over: {' '.join(r.left_over)}{what}")
    for label, d in (("A", a), ("B", b)):
        if d.dealt and d.dealt != r.hands:
            out.append(f"  note: {label} ({d.game}) dealt other hands: "
                       + "; ".join(" ".join(h) for h in d.dealt))
    for label, d in (("A", a), ("B", b)):
        out += ["", f"{label}: {d.game} ({d.title}); options: {_options_text(d)}",
                "  decisions before play:"]
        if not d.decisions:
            out.append("    (none)")
        width = max((len(act) for act, _ in d.decisions), default=0)
        for act, evs in d.decisions:
            out += _joined(f"    {act.ljust(width)}  ", [_decision(e) for e in evs])
        for k, evs in sorted(d.after.items()):
            out += _joined(f"  during trick {k}: ",
                           [f"{e['action']} {_decision(e)}" for e in evs])
    out += ["", "Tricks (seat:card in the order played; > the seat credited with the trick):"]
    n = max(len(a.tricks), len(b.tricks))
    left = [_cell(a.tricks[i] if i < len(a.tricks) else None) for i in range(n)]
    w = max([len(f"A: {a.game}")] + [len(x) for x in left])
    out.append(f"  {'#':>2}  {f'A: {a.game}'.ljust(w)}   B: {b.game}")
    for i in range(n):
        right = _cell(b.tricks[i] if i < len(b.tricks) else None)
        out.append(f"  {i + 1:>2}  {left[i].ljust(w)}   {right}".rstrip())
    if n == 0:
        out.append("  (no cards played)")
    out += ["", "Result of the deal:"]
    out += _result_table(attrs.evolve(r, a=a, b=b))
    return "\n".join(out) + "\n"


def _result_table(r: SideBySide) -> list[str]:
    """Per-seat result fields of both games as columns, other fields as lines below."""
    cols: list[tuple[str, list[object]]] = []
    extra: list[str] = []
    for label, d in (("A", r.a), ("B", r.b)):
        for k, v in d.result.items():
            if isinstance(v, list) and len(v) == r.players:
                cols.append((f"{label} {k}", v))
            else:
                extra.append(f"  {label} {k}: {_value(v)}")
        extra.append(f"  {label} winners: {' '.join(map(str, d.winners)) or '-'}")
    heads = ["seat"] + [h for h, _ in cols]
    widths = [max(len(h), 4) for h in heads]
    lines = ["  " + "  ".join(h.rjust(wd) for h, wd in zip(heads, widths, strict=True))]
    for q in range(r.players):
        row = [str(q)] + [_value(v[q]) for _, v in cols]
        lines.append("  " + "  ".join(x.rjust(wd) for x, wd in zip(row, widths, strict=True)))
    return lines + extra
