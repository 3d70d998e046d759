"""A run's measures for a designer: win rates and mean totals per seat with their intervals,
the first mover's advantage, game lengths, decisions and option-guarded clauses; and, for
two or more settings of one game, each measure's difference from the first setting."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import attrs

from rulespec.columns import GameColumns
from rulespec.errors import ConfigurationError
from rulespec.lang import ast, walk
from rulespec.lang.clauses import clause_id
from rulespec.lang.model import CheckedSpec
from rulespec.lang.pretty import pretty_expr
from rulespec.report.stats import (
    Interval,
    mean_difference,
    mean_interval,
    proportion_difference,
    wilson,
)
from rulespec.simulate import SimulationSummary

__all__ = ["Comparison", "Difference", "GuardedClause", "RunReport", "option_clauses"]

#: the lengths a report shows, each with its name in the text
LENGTHS = (("events", "events"), ("turns", "turns"), ("deals", "deals"))


@attrs.frozen
class GuardedClause:
    """An arm of an ``if`` whose condition reads an option (directly or through a definition):
    a rule that plays differently by a house rule."""

    id: str
    arm: str  # then | else
    condition: str
    where: str

    @property
    def label(self) -> str:
        """``if CONDITION: then`` (the condition cut to 60 characters)."""
        cond = self.condition if len(self.condition) <= 60 else self.condition[:57] + "..."
        return f"if {cond}: {self.arm} ({self.where})"

    @property
    def short(self) -> str:
        """A plot's label: ``line 107, then: CONDITION`` (the condition cut to 32
        characters)."""
        cond = self.condition if len(self.condition) <= 32 else self.condition[:29] + "..."
        return f"line {self.where.rsplit(':', 1)[-1]}, {self.arm}: {cond}"


def option_clauses(spec: CheckedSpec) -> list[GuardedClause]:
    """Every arm of an ``if`` statement or expression of ``spec`` whose condition reads one of
    its options, in source order."""
    options = set(spec.option_names)
    out: dict[str, GuardedClause] = {}
    for node in walk.descendants(spec.items):
        if not isinstance(node, (ast.If, ast.IfExpr)):
            continue
        if not any(n.id in options for n in walk.names_read(node.cond, spec.def_named)):
            continue
        span = node.span
        where = f"{span.source.rsplit('/', 1)[-1]}:{span.line}"
        cond = pretty_expr(walk.uncite(node.cond))  # without its [CITATION]s
        kinds = ("expr-then", "expr-else") if isinstance(node, ast.IfExpr) else \
            ("then",) if isinstance(node.else_, ast.If) else ("then", "else")
        for kind in kinds:
            cid = clause_id(kind, span)
            out.setdefault(cid, GuardedClause(cid, kind.removeprefix("expr-"), cond, where))
    return list(out.values())


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


@attrs.frozen
class RunReport:
    """The measures of one setting (one run of ``simulate(..., per_game=True)``)."""

    game: str
    #: the spec's title (free text: escaped wherever it is shown)
    title: str
    label: str
    players: int
    games: int
    seed: int
    options: Mapping[str, object]
    #: a seat's share of the games it is among the winners of, its fair share (the mean
    #: number of winners a game has, over the seats: 1/players without ties or teams)
    win: tuple[Interval, ...]
    fair: float
    total: tuple[Interval, ...]
    #: the first mover's share of wins, over the games with a decision
    first: Interval
    first_games: int
    lengths: Mapping[str, Interval]
    #: each decision's mean count a game
    decisions: Mapping[str, Interval]
    #: each option-guarded clause with the share of games that entered it (None: the table's
    #: options fold it away)
    clauses: tuple[tuple[GuardedClause, Interval | None], ...]
    #: the columns the plots draw from (not part of the JSON)
    columns: GameColumns = attrs.field(eq=False, repr=False)

    @classmethod
    def of(cls, summary: SimulationSummary, spec: CheckedSpec, label: str = "") -> RunReport:
        """The measures of a run made with ``per_game=True``."""
        cols = summary.per_game
        if cols is None:
            raise ConfigurationError("a report needs simulate(..., per_game=True)")
        n = len(cols)
        fair = cols.winners_per_game() / cols.players if n else 1 / cols.players
        wins = cols.winner_counts()
        firsts = [(cols.first[i], i) for i in range(n) if cols.first[i] >= 0]
        first_wins = sum(cols.won(i, q) for q, i in firsts)
        clauses = tuple((c, wilson(cols.clause_games[c.id], n) if c.id in cols.compiled else None)
                        for c in option_clauses(spec))
        return cls(
            game=summary.game, title=spec.title, label=label or _setting(summary.options),
            players=cols.players, games=n, seed=summary.seed, options=dict(summary.options),
            win=tuple(wilson(k, n) for k in wins), fair=fair,
            total=tuple(mean_interval(t.tolist()) for t in cols.totals),
            first=wilson(first_wins, len(firsts)), first_games=len(firsts),
            lengths={k: mean_interval(cols.column(k)) for k, _ in LENGTHS},
            decisions={k: mean_interval(cols.actions[k].tolist()) for k in sorted(cols.actions)},
            clauses=clauses, columns=cols)

    def sentences(self) -> list[str]:
        """The plain-English summary: each seat's wins against its fair share, the first
        mover's advantage, a game's length, the option clauses never entered."""
        out = []
        for q, w in enumerate(self.win):
            out.append(f"Seat {q} wins {_pct(w.estimate)} ({_pct(w.low)}-{_pct(w.high)}), "
                       f"{_against(w, self.fair)} its fair {_pct(self.fair)}.")
        f = self.first
        if self.first_games:
            out.append(f"The first to decide wins {_pct(f.estimate)} ({_pct(f.low)}-"
                       f"{_pct(f.high)}) of the games: "
                       + ("a first-player advantage." if f.low > self.fair else
                          "a first-player disadvantage." if f.high < self.fair else
                          f"no clear advantage over the fair {_pct(self.fair)}."))
        ev, tu, de = (self.lengths[k] for k, _ in LENGTHS)
        within = f" ({ev.low:.1f}-{ev.high:.1f})" if math.isfinite(ev.low - ev.high) else ""
        out.append(f"A game lasts {ev.estimate:.1f} events{within} on average: "
                   f"{tu.estimate:.1f} turns, {de.estimate:.2f} deals.")
        never = [c for c, s in self.clauses if s is not None and s.estimate == 0]
        if never:
            out.append(f"{len(never)} option-guarded clause{'s' if len(never) != 1 else ''} "
                       "never came into play.")
        return out

    def to_json(self) -> dict[str, object]:
        """The measures as plain data (``--json``)."""
        return {
            "game": self.game, "title": self.title, "setting": self.label, "players": self.players,
            "games": self.games, "seed": self.seed, "options": dict(self.options),
            "fair_win_rate": self.fair,
            "seats": [{"seat": q, "win_rate": w.to_json(), "mean_total": t.to_json()}
                      for q, (w, t) in enumerate(zip(self.win, self.total, strict=True))],
            "first_mover": {"games": self.first_games, "win_rate": self.first.to_json(),
                            "significant": self.first_games > 0
                            and self.first.excludes(self.fair)},
            "lengths": {k: v.to_json() for k, v in self.lengths.items()},
            "decisions": {k: v.to_json() for k, v in self.decisions.items()},
            "option_clauses": [{"id": c.id, "condition": c.condition, "arm": c.arm,
                                "where": c.where,
                                "share_of_games": s.to_json() if s is not None else None}
                               for c, s in self.clauses],
            "summary": self.sentences(),
        }


def _against(i: Interval, fair: float) -> str:
    return "more than" if i.low > fair else "less than" if i.high < fair else "about"


def _setting(options: Mapping[str, object]) -> str:
    return ", ".join(f"{k}={_text(v)}" for k, v in options.items()) or "defaults"


def _text(v: object) -> str:
    return ("true" if v else "false") if isinstance(v, bool) else str(v)


@attrs.frozen
class Difference:
    """One measure of a later setting less the first setting's, with its 95% interval."""

    measure: str
    setting: str
    first: float
    other: float
    diff: Interval
    percent: bool  # a proportion (shown as points of percentage) rather than a mean
    #: an option-guarded clause's share of games (a terminal table leaves out the unchanged)
    clause: bool = False

    @property
    def significant(self) -> bool:
        """Whether the interval excludes no difference (5% level)."""
        return self.diff.excludes(0.0)

    def to_json(self) -> dict[str, object]:
        """The difference as plain data."""
        return {"measure": self.measure, "setting": self.setting,
                "first": _finite(self.first), "other": _finite(self.other),
                "difference": self.diff.to_json(), "significant": self.significant}


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


@attrs.frozen
class Comparison:
    """Two or more settings of one game and how each differs from the first."""

    runs: tuple[RunReport, ...]

    def differences(self) -> list[Difference]:
        """Every measure of every later setting against the first: win rate and mean total
        per seat, the first mover's win rate, the lengths, each decision's mean count and each
        option clause's share of games (differences of proportions by Newcombe's interval,
        of means by Welch's)."""
        return [d for run in self.runs[1:] for d in _differences(self.runs[0], run)]

    def sentences(self) -> list[str]:
        """The plain-English summary: each significant difference, or that there is none."""
        out = []
        base = self.runs[0].label
        for d in self.differences():
            if not d.significant:
                continue
            e = d.diff
            if d.percent:
                size = (f"{abs(100 * e.estimate):.1f} points {_dir(e)} ({100 * e.low:+.1f} to "
                        f"{100 * e.high:+.1f})")
            else:
                size = f"{abs(e.estimate):.2f} {_dir(e)} ({e.low:+.2f} to {e.high:+.2f})"
            out.append(f"{d.measure[0].upper()}{d.measure[1:]} is {size} with {d.setting} "
                       f"than with {base}.")
        return out or ["No measure differs significantly (95%) between the settings."]

    def to_json(self) -> dict[str, object]:
        """Each setting's measures and the differences (``--compare --json``)."""
        return {"settings": [r.to_json() for r in self.runs],
                "differences": [d.to_json() for d in self.differences()],
                "summary": self.sentences()}


def _differences(base: RunReport, run: RunReport) -> list[Difference]:
    """Each measure of ``run`` less ``base``'s."""
    bc, c, out = base.columns, run.columns, []

    def prop(name: str, a: Interval, na: int, b: Interval, nb: int, clause: bool = False
             ) -> None:
        d = proportion_difference(a.estimate * na, na, b.estimate * nb, nb)
        out.append(Difference(name, run.label, a.estimate, b.estimate, d, True, clause))

    def mean(name: str, a: Sequence[int], b: Sequence[int]) -> None:
        d = mean_difference(a, b)
        out.append(Difference(name, run.label, mean_interval(a).estimate,
                              mean_interval(b).estimate, d, False))

    for q in range(min(base.players, run.players)):
        prop(f"seat {q} win rate", base.win[q], base.games, run.win[q], run.games)
    for q in range(min(base.players, run.players)):
        mean(f"seat {q} mean total", bc.totals[q].tolist(), c.totals[q].tolist())
    prop("first mover's win rate", base.first, base.first_games, run.first, run.first_games)
    for k, name in LENGTHS:
        mean(f"mean {name} a game", bc.column(k), c.column(k))
    for k in sorted(set(base.decisions) | set(run.decisions)):
        mean(f"mean '{k}' decisions a game", _or_zeros(bc, k), _or_zeros(c, k))
    theirs = {cl.id: s for cl, s in run.clauses}
    for cl, s in base.clauses:
        t = theirs.get(cl.id)
        if s is not None or t is not None:
            prop(f"share of games entering {cl.label}", s or Interval(0, 0, 0), base.games,
                 t or Interval(0, 0, 0), run.games, clause=True)
    return out


def _dir(e: Interval) -> str:
    return "higher" if e.estimate > 0 else "lower"


def _or_zeros(c: GameColumns, action: str) -> list[int]:
    col = c.actions.get(action)
    return col.tolist() if col is not None else [0] * len(c)
