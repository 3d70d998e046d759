"""Which settings a verification run plays: the values tried for each option, the schedule
every run covers, the combinations of many options at once, the order of a run's work (the
agenda), the combinations steered toward clauses not yet exercised, and the settings one step
simpler than a divergence's."""

from __future__ import annotations

import collections
import itertools
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Protocol

import attrs

from rulespec.engine.events import JSONValue
from rulespec.engine.game import Game
from rulespec.errors import ConfigurationError
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec, OptionInfo, value_text
from rulespec.verify.coverage import Coverage

__all__ = ["COMBINATION", "DEFAULT_MATCHES", "MAX_DEALS", "MAX_EVENTS", "WORK_PER_SETTING",
           "Agenda", "OptionValue", "Plan", "Setting", "Tables", "combinations",
           "compared_values", "option_text", "option_values", "schedule", "spread"]

#: by default each scheduled setting plays up to DEFAULT_MATCHES matches, stopping once their
#: work (one unit per event, one per 50 legal events listed) reaches WORK_PER_SETTING: a
#: deterministic bound, chosen so that a correct in-process implementation of a shipped game is
#: verified in about a minute on two cores
DEFAULT_MATCHES = 30
WORK_PER_SETTING = 2500
#: bounds of one match (an example holds at most about 8,000 Hypothesis choices, one per event;
#: a random deal of the shipped shedding game at 13 or 14 players runs to a few thousand events)
MAX_EVENTS = 6000
MAX_DEALS = 2


#: the value of an option, as the spec declares them (:class:`rulespec.lang.model.OptionInfo`)
OptionValue = int | str | bool


@attrs.frozen
class Setting:
    """A table and the options that differ from their defaults."""

    players: int
    options: tuple[tuple[str, OptionValue], ...] = ()
    why: str = ""

    @property
    def opts(self) -> dict[str, OptionValue]:
        """The non-default options as a dict."""
        return dict(self.options)

    def label(self) -> str:
        """``4 players, scoring=swedish`` as reports print it."""
        opts = ", ".join(f"{k}={option_text(v)}" for k, v in self.options)
        return f"{self.players} players" + (f", {opts}" if opts else "")

    def to_json(self) -> dict[str, JSONValue]:
        """As the JSON report writes it."""
        return {"players": self.players, "options": self.opts}


def option_text(v: OptionValue) -> str:
    """An option value as reports write it (a boolean in JSON's spelling)."""
    return json.dumps(v) if isinstance(v, bool) else str(v)


def option_values(spec: CheckedSpec) -> dict[str, list[OptionValue]]:
    """The values tried for each option: every value of an enum or a boolean; an integer at its
    default and default +- 1, the ends of its declared range, and the values on both sides of
    each constant the spec compares it with (:func:`compared_values`)."""
    out: dict[str, list[OptionValue]] = {}
    edges = compared_values(spec)
    for o in spec.options:
        if o.params:
            out[o.name] = _parametric_values(o)
        elif o.kind in ("bool", "enum"):
            out[o.name] = list(o.values)
        else:
            # the default, its neighbours, the ends of a declared range and the edges of the
            # spec's own comparisons (within the range)
            d = int(o.default)
            cands = [d, d - 1, d + 1] + (list(o.bounds) if o.bounds is not None else []) \
                + edges.get(o.name, [])
            out[o.name] = [v for v in dict.fromkeys(cands)
                           if o.bounds is None or o.bounds[0] <= v <= o.bounds[1]]
    return out


#: for ``option OP constant``, the offsets from the constant of a value on each side: the
#: last value that makes the comparison false and the first that makes it true, or both
#: neighbours and the constant itself for an equality
_SIDES: dict[str, tuple[int, ...]] = {"<": (-1, 0), ">=": (-1, 0), "<=": (0, 1), ">": (0, 1),
                                      "==": (-1, 0, 1), "!=": (-1, 0, 1)}
#: ``constant OP option`` read as ``option FLIPPED constant``
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def compared_values(spec: CheckedSpec) -> dict[str, list[int]]:
    """For each integer option the spec compares with a constant (``if mercy_threshold < 0``,
    ``deals > 0``, ``0 == target``), the values on both sides of each constant, in the order
    of the spec's text: where a rule starts or stops to apply, which the default and its
    neighbours may never meet."""
    ints = {o.name for o in spec.options if o.kind == "int" and not o.params}
    out: dict[str, list[int]] = {}
    for n in walk.descendants(spec.items):
        if not isinstance(n, ast.Compare) or n.op not in _SIDES:
            continue
        for opt, const, op in ((n.left, n.right, n.op), (n.right, n.left, _FLIPPED[n.op])):
            c = _constant(const)
            if isinstance(opt, ast.Name) and opt.id in ints and c is not None:
                out.setdefault(opt.id, []).extend(c + d for d in _SIDES[op])
    return out


def _constant(e: object) -> int | None:
    """The value of an integer literal (``3``, ``-350``), else None."""
    if isinstance(e, ast.IntLit):
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.IntLit):
        return -e.operand.value
    return None


def _parametric_values(o: OptionInfo) -> list[OptionValue]:
    """The values tried for an option whose values take parameters: the default first, then
    each value at its base arguments (the default's, else the low end of a range, 1, false)
    and with one argument varied at a time (an int at base + 1, or at its range's ends; a
    bool flipped)."""
    dname, dargs = o.split(o.default)
    out: list[OptionValue] = [o.default]
    for v in o.values:
        ps = o.value_params(v)
        if not ps:
            out.append(v)
            continue
        base: list[int | bool] = []
        for p in ps:
            if v == dname and p.name in dargs:
                base.append(dargs[p.name])
            elif p.kind == "bool":
                base.append(False)
            else:
                base.append(p.bounds[0] if p.bounds is not None else 1)
        variants = [tuple(base)]
        for i, p in enumerate(ps):
            b = base[i]
            if p.kind == "bool":
                alts: list[int | bool] = [not b]
            elif p.bounds is not None:
                alts = [x for x in p.bounds if x != b]
            else:
                alts = [int(b) + 1]
            variants += [tuple(base[:i] + [a] + base[i + 1:]) for a in alts]
        out += [value_text(str(v), args) for args in variants]
    return list(dict.fromkeys(out))


class Tables(Protocol):
    """Which settings the spec accepts, each compiled once (``runner._Tables``)."""

    def game(self, players: int, options: Mapping[str, OptionValue]) -> Game:
        """The compiled game; ConfigurationError when the spec refuses the setting."""

    def accepts(self, players: int, options: Mapping[str, OptionValue]) -> bool:
        """True when the spec offers this setting."""

def schedule(spec: CheckedSpec, tables: Tables, players: Sequence[int] = (),
             fixed: Mapping[str, OptionValue] | None = None) -> list[Setting]:
    """The settings every run covers, in order: the three smallest tables at the defaults;
    then a few combinations that between them give every option a non-default value at once
    (so a bug under any one value shows in the first seconds: :func:`combinations`); then
    each non-default value of each option alone at a table that accepts it (rotating over
    the three smallest tables), with the larger tables at the defaults interleaved."""
    fixed = dict(fixed or {})
    sizes = list(players) or list(range(spec.min_players, spec.max_players + 1))
    out: list[Setting] = []
    base = tuple(fixed.items())
    tables_first = [Setting(p, base, "table") for p in sizes if tables.accepts(p, fixed)]
    defaults = spec.defaults()
    turn = 0
    # option values rotate over the three smallest tables: every table size has its own
    # setting already, and small tables play short matches, so more of them
    small = sizes[:3]
    for name, values in option_values(spec).items():
        if name in fixed:
            continue
        for v in values:
            if v == defaults[name]:
                continue
            opts = {**fixed, name: v}
            order = (small[turn % len(small):] + small[: turn % len(small)]
                     + [p for p in sizes if p not in small])
            for p in order:
                if tables.accepts(p, opts):
                    out.append(Setting(p, tuple(opts.items()), f"{name}={option_text(v)}"))
                    turn += 1
                    break
    # the larger tables at the defaults are interleaved with the option settings: their
    # matches are the longest, and neither kind of bug should wait for all of the other
    big = tables_first[3:]
    step = max(1, -(-len(out) // max(1, len(big))))
    merged = list(tables_first[:3]) + combinations(spec, tables, small, fixed)
    for j in range(0, max(len(out), 1), step):
        merged += out[j:j + step]
        if big:
            merged.append(big.pop(0))
    return merged + big


COMBINATION = "combination"


def combinations(spec: CheckedSpec, tables: Tables, sizes: Sequence[int],
                 fixed: Mapping[str, OptionValue]) -> list[Setting]:
    """Settings in which most options not fixed take a non-default value at once, so that a
    bug under any one value shows at the first combination that holds it (and values of
    different options meet: a blocked deal under a scoring rule). Built greedily, round by
    round at the small tables in turn: each option gets its first value not yet in a
    combination (or its next value, cycling, once all are), kept where the spec still
    accepts the setting; rounds go on until every value is in one or a round adds none.
    :meth:`Verifier._simplify` takes the options that do not matter back to their defaults."""
    defaults = spec.defaults()
    others = {name: [v for v in values if v != defaults[name]]
              for name, values in option_values(spec).items() if name not in fixed}
    others = {k: v for k, v in others.items() if v}
    if len(others) < 2 or not sizes:
        return []  # one option at most: its values alone are the schedule already
    todo = {(k, json.dumps(v)) for k, vals in others.items() for v in vals}
    out: list[Setting] = []
    for r in range(2 * max(len(v) for v in others.values()) + 2):
        if not todo:
            break
        p = sizes[r % len(sizes)]
        opts = dict(fixed)
        if not tables.accepts(p, opts):
            continue
        added = False
        for name, vals in others.items():
            fresh = [v for v in vals if (name, json.dumps(v)) in todo]
            for v in fresh + [vals[r % len(vals)]]:
                if tables.accepts(p, {**opts, name: v}):
                    opts[name] = v
                    added = added or (name, json.dumps(v)) in todo
                    todo.discard((name, json.dumps(v)))
                    break
        if added:
            out.append(Setting(p, tuple(opts.items()), COMBINATION))
    return out


def _random_setting(spec: CheckedSpec, tables: Tables, rng: random.Random,
                    sizes: Sequence[int], fixed: Mapping[str, OptionValue]) -> Setting | None:
    values = option_values(spec)
    defaults = spec.defaults()
    for _ in range(20):
        p = rng.choice(list(sizes))
        opts = dict(fixed)
        for name, vals in values.items():
            if name not in fixed and rng.random() < 0.3:
                v = rng.choice(vals)
                if v != defaults[name]:
                    opts[name] = v
        if tables.accepts(p, opts):
            return Setting(p, tuple(opts.items()), "random combination")
    return None


class Agenda:
    """The settings of a run in the order they are played, as ``(setting, pass)``: pass 0
    plays one match, pass 1 the rest of the setting's share; ``(None, 1)`` is a steered
    combination, chosen when its turn comes (``steered`` of them, None: without end)."""

    def __init__(self, plan: Sequence[Setting], steered: int | None) -> None:
        # Breadth first: the first pass plays one match at every scheduled setting, the second
        # the rest of each setting's share, then come the steered combinations. Most bugs show
        # in most matches of the setting that has them, so they are found in the first pass.
        more = (itertools.repeat((None, 1), steered) if steered is not None
                else itertools.repeat((None, 1)))
        # The smallest tables and the combinations, which between them hold every option
        # value, are played to their full share before the settings of one value each.
        head = max((j + 1 for j, s in enumerate(plan) if s.why == COMBINATION), default=0)
        self._first_stage = set(plan[:head])
        self._stages: list[tuple[collections.deque[Setting], list[Setting]]] = [
            (collections.deque(plan[:head]), []), (collections.deque(plan[head:]), [])]
        #: the queue of the stage being played, where :meth:`insert` puts a setting
        self._pending = self._stages[0][0]
        self._items: Iterator[tuple[Setting | None, int]] = itertools.chain(
            self._passes(), more)

    def __iter__(self) -> Iterator[tuple[Setting | None, int]]:
        return self._items

    def _passes(self) -> Iterator[tuple[Setting, int]]:
        for queue, played in self._stages:
            self._pending = queue
            while queue:
                yield queue.popleft(), 0
            yield from ((s, 1) for s in played)

    def insert(self, s: Setting) -> None:
        """Play ``s`` next, in the first pass of the stage being played."""
        self._pending.appendleft(s)

    def played(self, s: Setting) -> None:
        """``s`` had its first match: the rest of its share comes in its stage's second pass."""
        (self._stages[0][1] if s in self._first_stage or s.why == COMBINATION
         else self._stages[1][1]).append(s)


def spread(games: int, slots: int) -> list[int]:
    """``games`` matches spread over ``slots`` settings in order: as even as they go, the
    first ones one more (so ``spread(2, 60)`` plays the first two settings once each)."""
    base, rest = divmod(games, max(1, slots))
    return [base + (1 if j < rest else 0) for j in range(slots)]


class Plan:
    """A run's settings: its table sizes and fixed options (checked), the schedule they give,
    the steered combinations that follow it, and the settings simpler than a divergence's.

    ``plain`` is the same tables as ``tables`` compiled without coverage marks, for estimates
    that play the spec alone (:meth:`default_matches`)."""

    def __init__(self, spec: CheckedSpec, tables: Tables, plain: Tables, sizes: Sequence[int],
                 fixed: Mapping[str, OptionValue]) -> None:
        self.spec = spec
        self.tables = tables
        self._plain = plain
        self.sizes = list(sizes)
        self.fixed = dict(fixed)
        self.schedule = schedule(spec, tables, self.sizes, self.fixed)
        #: for each clause, the option values that make it reachable (:meth:`_enablers`),
        #: worked out when the first steered combination is asked for
        self._enabling: dict[str, list[tuple[str, OptionValue]]] | None = None

    def default_matches(self, setting: Setting, seed_: int) -> int:
        """Matches for a setting when ``--games`` is not given: WORK_PER_SETTING divided by
        the work of two seeded random matches of the spec alone (deterministic)."""
        game = self._plain.game(setting.players, setting.opts)
        rng = random.Random(seed_)
        work = 0.0
        for _ in range(2):
            st_ = game.new_initial_state(rng.randrange(setting.players))
            steps = 0
            while not st_.is_terminal() and steps < MAX_EVENTS and len(st_.deals) < MAX_DEALS:
                legal = st_.legal_actions()
                work += 1 + len(legal) / 50
                ev = legal[rng.randrange(len(legal))]
                if ev.get("chance") in ("shuffle", "reshuffle"):
                    ev = {**ev, "cards": rng.sample(ev["cards"], len(ev["cards"]))}
                st_.apply(ev)
                steps += 1
        per_match = max(1.0, work / 2)
        return max(2, min(DEFAULT_MATCHES, round(WORK_PER_SETTING / per_match)))

    def offered_part(self, s: Setting, offered: Callable[[Setting], bool]) -> Setting | None:
        """The options of combination ``s`` added one at a time, each kept where the spec
        and the implementation (``offered``: a ``new`` call each, no match played) still offer
        the setting; None when fewer than two are kept."""
        kept = [(k, v) for k, v in s.options if k in self.fixed]
        n = 0
        for k, v in s.options:
            if k in self.fixed:
                continue
            c = Setting(s.players, (*kept, (k, v)), COMBINATION)
            if not self.tables.accepts(c.players, c.opts):
                continue
            if not offered(c):
                continue
            kept.append((k, v))
            n += 1
        return Setting(s.players, tuple(kept), COMBINATION) if n >= 2 else None

    def simpler(self, setting: Setting) -> Iterator[Setting]:
        """Settings one step simpler than ``setting``, the biggest steps first: a smaller
        table; the options not fixed all back at their defaults, or half of them, or one of
        them (delta debugging, so a combination of twenty options comes down in a few tries)."""
        for p in self.sizes:
            if p < setting.players and self.tables.accepts(p, setting.opts):
                yield Setting(p, setting.options, "smaller table")
        fixed = tuple((k, v) for k, v in setting.options if k in self.fixed)
        free = [(k, v) for k, v in setting.options if k not in self.fixed]
        parts: list[list[tuple[str, OptionValue]]] = []
        if len(free) > 1:
            half = len(free) // 2
            parts += [[], free[:half], free[half:]]
        parts += [[x for x in free if x != one] for one in free]
        for kept in parts:
            c = Setting(setting.players, fixed + tuple(kept),
                        "options at their defaults" if not kept else "fewer options")
            if self.tables.accepts(c.players, c.opts):
                yield c

    def steered(self, rng: random.Random, coverage: Coverage) -> Setting | None:
        """A combination aimed at a clause not yet exercised (``coverage``, folded in by the
        caller): the option value that makes it reachable, with random other options (so it
        meets the interactions that make it happen, such as a blocked deal under a scoring
        option), the best of a few candidates by how many clauses not yet exercised it
        compiles. Coverage steers between runs only, never within one."""
        missed = {c.id for c in coverage.universe if c.id not in coverage.hit}
        if self._enabling is None:
            self._enabling = self._enablers()
        targets = sorted(c for c in missed if self._enabling.get(c))
        best: Setting | None = None
        score = -1
        for _ in range(8):
            s = _random_setting(self.spec, self.tables, rng, self.sizes, self.fixed)
            if targets and s is not None:
                name, v = rng.choice(self._enabling[rng.choice(targets)])
                opts = {**s.opts, name: v}
                if self.tables.accepts(s.players, opts):
                    s = Setting(s.players, tuple(opts.items()), "steered combination")
            if s is None:
                continue
            g = self.tables.game(s.players, s.opts)
            k = len(g.compiled_clauses & missed)
            if k > score:
                best, score = s, k
        return best

    def _enablers(self) -> dict[str, list[tuple[str, OptionValue]]]:
        """For each clause, the option values whose setting compiles it where the defaults
        at the same table do not (an option folds the clause in): what a combination needs
        to be able to reach it."""
        out: dict[str, list[tuple[str, OptionValue]]] = {}
        fixed = self.fixed
        for p in self.sizes:
            try:
                base = self.tables.game(p, fixed).compiled_clauses
            except ConfigurationError:
                continue
            for name, values in option_values(self.spec).items():
                if name in fixed:
                    continue
                for v in values:
                    try:
                        g = self.tables.game(p, {**fixed, name: v})
                    except ConfigurationError:
                        continue
                    for cid in g.compiled_clauses - base:
                        pairs = out.setdefault(cid, [])
                        if (name, v) not in pairs:
                            pairs.append((name, v))
            break  # the smallest table that accepts the fixed options is enough to tell
        return out
