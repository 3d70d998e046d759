"""rulespec in a user's own test suite: Hypothesis strategies and one assertion.

>>> from rulespec.testing import assert_conforms, matches
>>> def test_my_engine_follows_the_rules():
...     assert_conforms("my_game.rules", MyEngine, players=[3, 4])

``assert_conforms`` runs the same search as ``rulespec verify`` and fails with the same report.
It may also be called from inside the user's own ``@given`` test, where Hypothesis refuses a
nested ``@given``: there the search runs on a worker thread of its own (a Python implementation
then has no per-call timeout; a process implementation keeps its own).
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs
from hypothesis import currently_in_test_context
from hypothesis import strategies as st

from rulespec.engine.chance import pick_at
from rulespec.engine.game import Game, tables_of
from rulespec.errors import ConfigurationError, RecordError
from rulespec.lang.model import CheckedSpec
from rulespec.loading import normalise_options, resolve
from rulespec.protocol import Implementation, ProcessImplementation
from rulespec.records import FORMAT
from rulespec.verify.report import Report, format_report
from rulespec.verify.runner import Verifier
from rulespec.verify.schedule import MAX_EVENTS

__all__ = ["Match", "assert_conforms", "events", "matches"]


def _load(spec: CheckedSpec | str | Path) -> tuple[CheckedSpec, str]:
    if isinstance(spec, CheckedSpec):
        return spec, spec.name
    # a Path is a file; a str is what the command line takes (loading.resolve)
    checked = resolve(spec).spec
    return checked, checked.name  # a shipped spec's is its shipped name


@attrs.frozen
class Match:
    """A match drawn from the spec: the table, the dealer and every event in order."""

    game: str
    players: int
    options: Mapping[str, object]
    dealer: int
    events: tuple[Mapping[str, object], ...]

    def record(self) -> dict[str, object]:
        """The match as a ``rulespec-record/1`` record."""
        return {"format": FORMAT, "game": self.game, "players": self.players,
                "options": dict(self.options), "dealer": self.dealer,
                "events": [dict(e) for e in self.events]}


def matches(spec: CheckedSpec | str | Path, *, players: Sequence[int] | int | None = None,
            options: Mapping[str, object] | None = None, dealer: int | None = None,
            max_events: int = MAX_EVENTS) -> st.SearchStrategy[Match]:
    """Matches of ``spec`` played with legal events only: a table among ``players`` (default
    every size the spec accepts with these options), a dealer, each decision an index into the
    canonical legal list and each shuffle a seed, so Hypothesis shrinks toward small tables,
    dealer 0, first legal events, unshuffled packs and each pick's first outcome. A match
    stops at its end or after ``max_events`` events."""
    checked, name = _load(spec)
    opts = normalise_options(checked, dict(options or {}))
    if isinstance(players, int):
        players = [players]
    sizes = list(players or range(checked.min_players, checked.max_players + 1))
    games: dict[int, Game] = {}
    for p in sizes:
        try:
            games[p] = tables_of(checked).game(p, opts)  # the process's one cache of games
        except ConfigurationError:
            continue
    if not games:
        raise ConfigurationError(f"{checked.name} accepts none of the tables {sizes} with "
                                 "these options")
    tables = sorted(games)

    @st.composite
    def draw(data: st.DrawFn) -> Match:
        p = data(st.sampled_from(tables))
        d = dealer if dealer is not None else data(st.integers(0, p - 1))
        state = games[p].new_initial_state(d)
        evs: list[dict[str, object]] = []
        while not state.is_terminal() and len(evs) < max_events:
            legal = state.legal_actions()
            if len(legal) == 1 and legal[0].get("chance") in ("shuffle", "reshuffle"):
                seed_ = data(st.integers(0, 2**32 - 1))
                cards = list(legal[0]["cards"])
                if seed_:
                    random.Random(seed_).shuffle(cards)
                ev = {**legal[0], "cards": cards}
            elif legal[0].get("chance") == "pick":
                # by the weights, shrinking toward the first outcome the spec lists
                outcomes = state.chance_weights()
                ev = pick_at(outcomes, data(st.integers(0, sum(w for _, w in outcomes) - 1)))
            else:
                ev = legal[data(st.integers(0, len(legal) - 1))]
            state.apply(ev)
            evs.append(ev)
        return Match(name, p, opts, d, tuple(evs))

    return draw()


def events(spec: CheckedSpec | str | Path, players: int,
           options: Mapping[str, object] | None = None, dealer: int = 0,
           max_events: int = MAX_EVENTS) -> st.SearchStrategy[list[dict[str, object]]]:
    """The events of a match at one table (see :func:`matches`)."""
    return matches(spec, players=[players], options=options, dealer=dealer,
                   max_events=max_events).map(lambda m: [dict(e) for e in m.events])


def assert_conforms(spec: CheckedSpec | str | Path,
                    impl: Callable[[], Implementation] | Sequence[str], *,
                    players: Sequence[int] = (), options: Mapping[str, object] | None = None,
                    games: int | None = None, budget: float | None = None, seed: int = 0,
                    timeout: float = 10.0, strict: bool = False) -> Report:
    """Verify ``impl`` against ``spec`` as ``rulespec verify`` does; raise AssertionError with
    the full report if it diverges (or offers no setting). ``impl`` is a class or factory of
    Python implementations, or the argv of a program speaking the JSON-lines protocol."""
    checked, name = _load(spec)
    if isinstance(impl, (list, tuple)):
        argv = [str(x) for x in impl]

        def factory() -> Implementation:
            return ProcessImplementation(argv, timeout)
        who = " ".join(argv)
    elif callable(impl):
        factory = impl
        who = getattr(impl, "__qualname__", repr(impl))
    else:
        raise RecordError("impl is a class, a factory or an argv list")

    def run() -> Report:
        v = Verifier(checked, name, factory, timeout=timeout)
        return v.run(players=players, options=options, games=games, budget=budget,
                     seed_=seed, strict=strict)

    if currently_in_test_context():
        box: list[Report | BaseException] = []

        def work() -> None:
            try:
                box.append(run())
            except BaseException as e:  # noqa: BLE001 - handed back to the caller's thread
                box.append(e)
        t = threading.Thread(target=work, name="rulespec-verify")
        t.start()
        t.join()
        if isinstance(box[0], BaseException):
            raise box[0]
        report = box[0]
    else:
        report = run()
    if not report.conforms:
        raise AssertionError(format_report(report, f"{name}: {who} does not conform"))
    return report
