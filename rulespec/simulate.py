"""Random play: seeded samplers outside the engine, game statistics, local or Ray workers.

The engine holds no random generator (chance is explicit); here a seeded ``random.Random``
samples each chance outcome (a whole shuffle order, a bury position, a pick's value by its
weight) and each decision uniformly from the legal list (R11), or, given bots
(:mod:`rulespec.bots`, named by strings and made where the game is played), each seat's
decisions by its bot. Game ``i`` of a run with seed ``s`` always uses the same generators, so a
run gives the same numbers whether it runs in one process, many, or on a Ray cluster.
"""

from __future__ import annotations

import collections
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, cast

import attrs

from rulespec.bots.base import Bot
from rulespec.bots.registry import bot_class, make_bot
from rulespec.columns import GameColumns
from rulespec.engine.chance import sample_event
from rulespec.engine.events import Event
from rulespec.engine.game import Game, Tables
from rulespec.engine.state import CHANCE, State
from rulespec.engine.typed import TypedGame
from rulespec.errors import ConfigurationError, RuleRuntimeError, RulespecError
from rulespec.files import write_atomic
from rulespec.lang.model import CheckedSpec
from rulespec.loading import game_for, resolve, shipped_name, typed_game_for
from rulespec.records import FORMAT, copy_spec
from rulespec.shown import escape_line

__all__ = ["MAX_MATCH_EVENTS", "GameStats", "SimulationLimitError", "SimulationSummary",
           "play_random_game", "sample_event", "simulate"]


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game ``index`` in a run seeded ``seed``."""
    return random.Random(seed * 1_000_003 + index)


def bot_rng(seed: int, index: int, seat: int) -> random.Random:
    """The generator of ``seat``'s bot in game ``index`` of a run seeded ``seed`` (apart from
    the game's own: a bot's searching does not change the chance events)."""
    return random.Random(f"bot:{seed}:{index}:{seat}")


@attrs.frozen
class GameStats:
    """What one random game did."""

    events: int
    decisions: int
    turns: int
    actions: Mapping[str, int]
    chances: Mapping[str, int]
    deals: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    flags: Mapping[str, int]
    record: Mapping[str, object] | None
    #: each numeric result field (``result NAME: int ...``) summed over the match's deals:
    #: by seat for a per-player field, one number for a shared one
    results: Mapping[str, tuple[int, ...]] = attrs.field(factory=dict)
    #: in a game of teams, each team's total and the winning teams (empty otherwise)
    team_totals: tuple[int, ...] = ()
    team_winners: tuple[int, ...] = ()
    #: with ``simulate(..., per_game=True)``: the seat that decided first, and the clauses
    #: (rulespec.lang.clauses) the game entered
    first: int | None = None
    clauses: frozenset[str] = frozenset()


#: the most events simulate plays in one match before it gives up on it
MAX_MATCH_EVENTS = 1_000_000


class SimulationLimitError(RulespecError):
    """A random match went on past the events a simulation allows it (a usage error: the
    limit is the user's to raise, or the match to shorten)."""


def play_random_game(state: State, rng: random.Random, keep_events: bool = False,
                     max_events: int = MAX_MATCH_EVENTS,
                     events: list[dict[str, object]] | None = None,
                     bots: Sequence[Bot] | None = None
                     ) -> tuple[GameStats, list[dict[str, object]]]:
    """Play ``state`` to the end with uniformly random decisions, or with ``bots`` (one a
    seat: each of a seat's decisions is its bot's, the chance events still drawn from
    ``rng``); past ``max_events`` events, SimulationLimitError. With ``keep_events``, each
    event is appended to ``events`` (a new list if None) before it is applied: a rule's
    runtime error leaves there the match up to and with the event that met it; without, a
    chance event is drawn and applied at once (``State.sample_chance``) and a random decision
    by its index (``legal_count``, ``apply_index``): the same draws, the same match."""
    events = [] if events is None else events
    # each deal's entry is summed as it becomes final and not kept: a match of a million
    # deals runs in the memory of one (a record, which lists them all, keeps them)
    deals = _DealSums({r.name for r in state.game.spec.results})
    if not keep_events:
        state.deal_sink = deals.take
    count = _Counts()
    n = 0
    while not state.is_terminal():
        _within(n, max_events)
        n += 1
        if not keep_events and state.to_move == CHANCE:
            count.chances[str(state.sample_chance(rng)["chance"])] += 1
        elif not keep_events and bots is None:
            # the event sample_event would draw, applied by its index: only its action and
            # seat are counted, and neither needs it written
            seat = state.to_move
            count.decided(seat, str(state.apply_index(rng.randrange(state.legal_count()))))
        else:
            ev = _next_event(state, rng, bots)
            if state.current_player() == CHANCE:
                count.chances[ev["chance"]] += 1
            else:
                count.decided(ev["seat"], ev["action"])
            if keep_events:
                events.append(ev)
            state.apply(ev)
    res = state.result()
    for d in res["deals"]:
        deals.take(d)
    stats = GameStats(n, count.decisions, count.turns, dict(count.actions), dict(count.chances),
                      deals.finished, tuple(res["totals"]), tuple(res["winners"]),
                      dict(deals.flags), None, {k: tuple(v) for k, v in deals.sums.items()},
                      tuple(res.get("team_totals") or ()), tuple(res.get("team_winners") or ()))
    return stats, events


class _DealSums:
    """Each finished deal's entry summed: its numeric result fields, its flags, the count."""

    def __init__(self, fields: set[str]) -> None:
        self.fields = fields
        self.flags: Counter[str] = Counter()
        self.sums: dict[str, list[int]] = {}
        self.finished = 0

    def take(self, d: Mapping[str, object]) -> None:
        self.finished += 1
        for k, v in d.items():
            if k in self.fields:
                _add_result(self.sums, k, v)
            elif k != "scores" and v is True:
                self.flags[k] += 1


class _Counts:
    """The events of one match by kind: chance events, decisions by action, turns (a run of
    decisions by one seat)."""

    def __init__(self) -> None:
        self.actions: Counter[str] = Counter()
        self.chances: Counter[str] = Counter()
        self.decisions = self.turns = 0
        self.last_seat: object = None

    def decided(self, seat: object, action: str) -> None:
        self.decisions += 1
        self.actions[action] += 1
        if seat != self.last_seat:
            self.turns += 1
            self.last_seat = seat


def _within(n: int, max_events: int) -> None:
    """SimulationLimitError once a match has had ``max_events`` events."""
    if n >= max_events:
        raise SimulationLimitError(
            f"the match did not end within {max_events} events (the simulation's limit; "
            f"--max-events sets it)")


def _next_event(state: State, rng: random.Random, bots: Sequence[Bot] | None) -> Event:
    """The next event: a chance outcome drawn from ``rng``; a decision drawn uniformly, or the
    seat's bot's."""
    seat = state.to_move
    if bots is None or type(seat) is not int:
        return sample_event(state.legal_actions(), rng, state.chance_weights)
    return state.legal_actions()[bots[seat].act(state, seat)]


def _add_result(sums: dict[str, list[int]], name: str, value: object) -> None:
    """Add a deal's value of a numeric result field (a number, or one number per seat) to
    ``sums``; a field that holds anything else is not summed."""
    vals = value if isinstance(value, list) else [value]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in vals):
        return
    acc = sums.setdefault(name, [0] * len(vals))
    if len(acc) == len(vals):
        for i, x in enumerate(vals):
            acc[i] += x


@attrs.frozen
class SimulationSummary:
    """Aggregates of a run, ready for a table or JSON."""

    game: str
    players: int
    options: Mapping[str, object]
    games: int
    seed: int
    mean_events: float
    mean_decisions: float
    mean_turns: float
    mean_deals: float
    mean_actions: Mapping[str, float]
    mean_chances: Mapping[str, float]
    win_rate: tuple[float, ...]
    mean_total: tuple[float, ...]
    flags: Mapping[str, int]
    winner: str
    #: a per-player numeric result field: each seat's sum over a match, the mean over games
    mean_result_totals: Mapping[str, tuple[float, ...]] = attrs.field(factory=dict)
    #: a shared numeric result field: its mean over every deal played
    mean_result_per_deal: Mapping[str, float] = attrs.field(factory=dict)
    #: in a game of teams, each team's share of the wins (a shared win split) and mean total
    team_win_rate: tuple[float, ...] = ()
    team_mean_total: tuple[float, ...] = ()
    #: with ``simulate(..., per_game=True)``, each game's numbers (rulespec.report reads them)
    per_game: GameColumns | None = attrs.field(default=None, eq=False, repr=False)

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--json`` (the result fields' keys only for a spec that has
        numeric result fields, the teams' only for a game of teams)."""
        out = attrs.asdict(self, filter=lambda a, _: a.name != "per_game")
        for k in ("mean_result_totals", "mean_result_per_deal", "team_win_rate",
                  "team_mean_total"):
            if not out[k]:
                del out[k]
        return cast("dict[str, object]", _finite(out))


def _finite(x: object) -> object:
    """``x`` with every mean too large for a float (an infinity, :func:`_mean`) written as
    None: JSON has no infinity."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_finite(v) for v in x]
    return x


def _mean(total: int | float, n: int) -> float:
    """``total / n`` as a float; an infinity of ``total``'s sign when the mean is too large
    for one (a score may have up to builtins.MAX_INT_BITS bits, a float only 1,024)."""
    try:
        return total / n
    except OverflowError:
        return math.inf if total > 0 else -math.inf


#: a chunk of games for one worker: game, players, options, dealer, seed, the games
#: ``start <= i < stop``, the records folder (None: keep no records), the most events a
#: match, the bots (None: random play), and whether to note each game's first seat and
#: clauses (``per_game``), and the engine that plays (loading.ENGINES)
_Chunk = tuple[str, int, dict[str, object], int, int, int, int, str | None, int,
               tuple[str, ...] | None, bool, str]


def _typed(g: Game, engine: str, random_only: bool) -> TypedGame | None:
    """The typed lowering's game for ``--engine typed``, where it covers the table and the
    games are random with nothing kept but their numbers (records and bots are the Python
    engine's); else None."""
    return typed_game_for(g)[0] if engine == "typed" and random_only else None


def _run_chunk(args: _Chunk) -> list[GameStats]:
    (game, players, options, dealer, seed, start, stop, records, max_events, bots,
     per_game, engine) = args
    found = resolve(game)
    path, spec = found.path, found.spec
    # a covering table marks clauses from its Python code: it is the Python engine's
    g = _covering(spec).game(players, options, dealer) if per_game else \
        game_for(spec, players, options, dealer, engine)
    typed = _typed(g, engine, records is None and bots is None and not per_game)
    out = []
    copied: dict[str, str] = {}
    def write(i: int, events: list[dict[str, object]]) -> Path:
        # a shipped game by its shipped name; a user's spec copied once into the records
        # folder, so that the records travel with it (H10)
        assert records is not None
        out_path = Path(records, f"game-{i:06d}.json")
        try:
            named = shipped_name(path) or copied.get("game") or copied.setdefault(
                "game", copy_spec(path, Path(records) / "spec"))
            rec = {"format": FORMAT, "game": named, "players": players, "options": options,
                   "dealer": dealer, "events": events}
            write_atomic(out_path, json.dumps(rec) + "\n")
        except OSError as e:  # a full disk, a spec's name too long for a copy beside them
            raise RulespecError(f"cannot write the records to {escape_line(str(records))}: "
                                f"{e.strerror or e}") from None
        return out_path

    for i in range(start, stop):
        events: list[dict[str, object]] = []
        try:
            # a typed state has the index path's methods, all play_random_game calls on it
            # where it keeps no events and no bot decides
            st = g.new_initial_state() if typed is None else \
                cast(State, typed.new_initial_state())
            players_now = None if bots is None else _make_bots(bots, g, seed, i)
            rng = game_rng(seed, i)
            first = None
            if per_game and g.cover is not None:
                first = _first_to_decide(st, rng)
                static = _static_marks(g)
                g.cover.clear()
                g.cover.update(static)
            stats, _ = play_random_game(st, rng, keep_events=records is not None,
                                        max_events=max_events, events=events,
                                        bots=players_now)
            if per_game:
                stats = attrs.evolve(stats, first=first, clauses=frozenset(g.cover or ()))
        except RuleRuntimeError as e:
            # which match met it, and how to have it again (the record, up to the event that
            # met it, replays to the same error)
            where = f"in game {i} of this run (--seed {seed})"
            if records is not None:
                where += f"; the match up to it is the record {write(i, events)}"
            else:
                where += "; --records DIR keeps it as a record that replays to this error"
            raise e.noted(where) from None
        if records is not None:
            write(i, events)
        out.append(stats)
    return out


def _make_bots(names: tuple[str, ...], g: Any, seed: int, index: int) -> list[Bot]:
    """Game ``index``'s bots, one a seat, each with its own generator (:func:`bot_rng`)."""
    return [make_bot(name, q, bot_rng(seed, index, q), g) for q, name in enumerate(names)]


def bot_names(bots: Sequence[str] | None, players: int) -> tuple[str, ...] | None:
    """The bot of each seat: one name for every seat, or one a seat; each name checked
    (:func:`rulespec.bots.registry.bot_class`). None, the random play of a run without bots,
    when none is given or every seat's is plain ``random``."""
    if bots is None:
        return None
    if isinstance(bots, str):
        bots = [bots]
    names = tuple(bots)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ConfigurationError(f"{len(names)} bots for {players} players: name one bot for "
                                 f"every seat, or one a seat")
    for name in dict.fromkeys(names):
        bot_class(name)
    if all(isinstance(n, str) and n.strip() == "random" for n in names):
        return None
    return names


def _chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    for start in range(0, games, size):
        yield start, min(games, start + size)


#: chunks a worker process or Ray task may hold queued beyond the one it plays: enough to
#: keep every worker busy, few enough that a run of a billion games holds a few in memory
_QUEUED_PER_WORKER = 2


def simulate(game: str, players: int | None, games: int, seed: int = 0,
             options: Mapping[str, object] | None = None, dealer: int = 0,
             records: str | Path | None = None, workers: int = 1, backend: str = "local",
             progress: Callable[[int], None] | None = None,
             max_events: int = MAX_MATCH_EVENTS,
             bots: Sequence[str] | None = None, per_game: bool = False,
             engine: str = "python") -> SimulationSummary:
    """Play ``games`` games, random or played by ``bots``, and summarise them; the same by
    any ``engine`` (``"python"``, ``"native"`` or ``"typed"``: loading.ENGINES).

    ``bots`` names one bot for every seat or one a seat (:mod:`rulespec.bots`:
    ``"ismcts:iterations=200"``, ``"random"``, ``"MODULE:ATTR"``); each game's bots are made
    where it is played, from their names, each with a generator of its own drawn from the
    run's seed, the game's index and the seat. Without bots, or with ``random`` in every seat,
    the games are the random games of a run without bots.

    ``backend="local"`` runs in this process (``workers=1``) or a process pool; ``"ray"``
    sends chunks to a Ray cluster (``pip install rulespec[ray]``). The numbers do not depend on
    the backend or the number of workers. Memory does not grow with ``games``: the chunks are
    made as they are sent, at most a few per worker wait, and each game's numbers are added
    to the summary and let go. No more workers start than there are chunks to play.
    ``players`` may be None for a game played by one number of players only.
    With ``per_game``, the summary's ``per_game`` holds each game's numbers
    (:class:`rulespec.columns.GameColumns`, for :mod:`rulespec.report`): the games are played
    by a table that marks the clauses play enters, which costs some time (10 to 30% more,
    measured on two shipped games), and changes no number of the summary.
    """
    opts = dict(options or {})
    spec = resolve(game).spec
    if players is None:
        if spec.min_players != spec.max_players:
            raise ConfigurationError(f"{spec.name} is played by {spec.player_counts(' to ')} "
                                     "players: say how many with --players")
        players = spec.min_players
    game_for(spec, players, opts, dealer, engine)  # validated (built) before any worker starts
    names = bot_names(bots, players)
    opts = spec.canonical_options(opts)  # a parametric value as records carry it: free(1,5)
    rec_dir = None if records is None else str(records)
    if rec_dir is not None:
        Path(rec_dir).mkdir(parents=True, exist_ok=True)
    size = 1 if workers <= 1 and backend == "local" else \
        max(1, min(50, games // (max(1, workers) * 4) or 1))
    workers = max(1, min(workers, -(-games // size)))
    jobs = ((game, players, opts, dealer, seed, a, b, rec_dir, max_events, names, per_game,
             engine) for a, b in _chunks(games, size))
    parts = _run_ray(jobs, workers) if backend == "ray" else \
        map(_run_chunk, jobs) if workers <= 1 else _run_pool(jobs, workers)
    tally = _Tally(players)
    # the clauses the games can enter: the covering table's (it compiles every definition)
    columns = GameColumns(players, compiled=frozenset(
        _covering(spec).game(players, opts, dealer).compiled_clauses)) if per_game else None
    for part in parts:
        for r in part:
            tally.add(r)
            if columns is not None:
                columns.add(r)
        if progress:
            progress(len(part))
    per = {r.name: r.per_player for r in spec.results}
    return attrs.evolve(tally.summary(spec.name, spec.winner, opts, seed, per), per_game=columns)


#: covering tables (their games mark the clauses play enters), by spec, kept per process as
#: tables_of keeps the plain ones; the entry holds its spec, so its id names no other
_COVERING: collections.OrderedDict[int, tuple[CheckedSpec, Tables]] = collections.OrderedDict()


def _covering(spec: CheckedSpec) -> Tables:
    """The process's covering tables of ``spec``."""
    got = _COVERING.get(id(spec))
    if got is None:
        if len(_COVERING) >= 4:
            _COVERING.popitem(last=False)
        got = _COVERING[id(spec)] = (spec, Tables(spec, coverage=True))
    return got[1]


#: by covering game, the clauses its compiler marked (an arm an option settles for the whole
#: match counts as entered in every game): each game starts from them
_STATIC: dict[int, tuple[Game, frozenset[str]]] = {}


def _static_marks(g: Game) -> frozenset[str]:
    """The clauses ``g`` marked when it was compiled, before any game (noted on first sight:
    only this module plays covering games, and it clears their marks after noting them)."""
    got = _STATIC.get(id(g))
    if got is None:
        if len(_STATIC) >= 64:
            _STATIC.clear()
        got = _STATIC[id(g)] = (g, frozenset(g.cover or ()))
    return got[1]


def _first_to_decide(state: State, rng: random.Random) -> int | None:
    """The seat that takes the first decision of the match ``state`` starts, played with
    ``rng``: a copy of both runs through the chance events to it, drawing what the match
    will draw, and leaves the match and its generator as they were."""
    st, r = state.clone(), random.Random()
    r.setstate(rng.getstate())
    while not st.is_terminal():
        ev = sample_event(st.legal_actions(), r, st.chance_weights)
        if st.current_player() != CHANCE:
            seat = ev.get("seat")
            return seat if isinstance(seat, int) else None
        st.apply(ev)
    return None


def _run_pool(jobs: Iterator[_Chunk], workers: int) -> Iterator[list[GameStats]]:
    """Each chunk's games, in the chunks' order, played in ``workers`` local processes with a
    few chunks queued ahead. A pool that cannot start its processes (a limit on processes, say)
    is a RulespecError, and every process started is let go."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    try:
        pool = ProcessPoolExecutor(max_workers=workers)
    except (OSError, ValueError) as e:
        raise RulespecError(f"cannot start {workers} worker processes: {e}") from None
    queued: collections.deque[Future[list[GameStats]]] = collections.deque()
    done = False
    try:
        for job in jobs:
            queued.append(pool.submit(_run_chunk, job))
            if len(queued) > workers * _QUEUED_PER_WORKER:
                yield queued.popleft().result()
        while queued:
            yield queued.popleft().result()
        done = True
    except (OSError, BrokenProcessPool) as e:
        raise RulespecError(f"the worker processes stopped ({type(e).__name__}: {e}); try "
                            f"fewer --workers") from None
    finally:
        # an error, Ctrl-C or a usage error in one game: nothing more is started or waited on
        pool.shutdown(wait=done, cancel_futures=True)


def _run_ray(jobs: Iterator[_Chunk], workers: int) -> Iterator[list[GameStats]]:
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the extra
        raise RulespecError("the ray backend needs Ray: pip install \"rulespec[ray]\" (or "
                            "pip install \".[ray]\" in a checkout)") from e
    if not ray.is_initialized():
        ray.init(ignore_reinit_error=True, log_to_driver=False)
    remote = ray.remote(_run_chunk)
    # in the chunks' order, a few in flight per worker (a cluster's CPUs, or --workers)
    ahead = max(workers, int(ray.cluster_resources().get("CPU", 1))) * _QUEUED_PER_WORKER
    queued: collections.deque[Any] = collections.deque()
    for job in jobs:
        queued.append(remote.remote(job))
        if len(queued) > ahead:
            yield ray.get(queued.popleft())
    while queued:
        yield ray.get(queued.popleft())


class _Tally:
    """The sums a summary is made of, one game's numbers added at a time (the games are
    not kept: a run of a billion games takes the memory of one)."""

    def __init__(self, players: int) -> None:
        self.n = 0
        self.events = self.decisions = self.turns = self.deals = 0
        self.acts: Counter[str] = Counter()
        self.chs: Counter[str] = Counter()
        self.flags: Counter[str] = Counter()
        self.wins = [0.0] * players
        self.totals = [0] * players  # exact: a score may be too large for a float
        self.sums: dict[str, list[int]] = {}
        self.team_wins: list[float] = []
        self.team_totals: list[int] = []

    def add(self, r: GameStats) -> None:
        """Count one game."""
        self.n += 1
        self.events += r.events
        self.decisions += r.decisions
        self.turns += r.turns
        self.deals += r.deals
        self.acts.update(r.actions)
        self.chs.update(r.chances)
        self.flags.update(r.flags)
        for w in r.winners:
            self.wins[w] += 1.0 / len(r.winners)
        for q, t in enumerate(r.totals):
            self.totals[q] += t
        if r.team_totals:
            if not self.team_totals:
                self.team_wins = [0.0] * len(r.team_totals)
                self.team_totals = [0] * len(r.team_totals)
            for i, t in enumerate(r.team_totals):
                self.team_totals[i] += t
            for w in r.team_winners:
                self.team_wins[w] += 1.0 / len(r.team_winners)
        for k, v in r.results.items():
            acc = self.sums.setdefault(k, [0] * len(v))
            for i, x in enumerate(v):
                acc[i] += x

    def summary(self, name: str, winner: str, options: Mapping[str, object], seed: int,
                per_player: Mapping[str, bool] | None = None) -> SimulationSummary:
        """The means of what was counted."""
        n = max(1, self.n)
        per = per_player or {}
        return SimulationSummary(
            game=name, players=len(self.totals), options=dict(options), games=self.n,
            seed=seed, mean_events=self.events / n, mean_decisions=self.decisions / n,
            mean_turns=self.turns / n, mean_deals=self.deals / n,
            mean_actions={k: v / n for k, v in sorted(self.acts.items())},
            mean_chances={k: v / n for k, v in sorted(self.chs.items())},
            win_rate=tuple(w / n for w in self.wins),
            mean_total=tuple(_mean(t, n) for t in self.totals),
            flags=dict(self.flags), winner=winner,
            mean_result_totals={k: tuple(_mean(x, n) for x in v) for k, v in self.sums.items()
                                if per.get(k)},
            mean_result_per_deal={k: _mean(v[0], max(1, self.deals))
                                  for k, v in self.sums.items() if not per.get(k)},
            team_win_rate=tuple(w / n for w in self.team_wins),
            team_mean_total=tuple(_mean(t, n) for t in self.team_totals),
        )
