"""Run coverage: which clauses (:mod:`rulespec.lang.clauses`) the tested settings compiled, and
which the matches played reached."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import attrs

from rulespec.lang.clauses import Clause

__all__ = ["Coverage"]


@attrs.define
class Coverage:
    """What a verification run reached: clauses compiled under some tested setting, and hit."""

    universe: list[Clause]
    compiled: set[str] = attrs.field(factory=set)
    hit: set[str] = attrs.field(factory=set)
    #: by clause, the options off their defaults in every tested setting that compiles it,
    #: each with the values (as texts) those settings give it: what it runs only under (empty
    #: for a clause the defaults compile)
    only_under: dict[str, dict[str, set[str]]] = attrs.field(factory=dict)

    def add(self, compiled: Iterable[str], hit: Iterable[str],
            under: Mapping[str, str] | None = None) -> None:
        """Fold in one setting's compiled and hit clauses (``under``: the setting's options
        that differ from their defaults, each value as text)."""
        compiled = set(compiled)
        self.compiled.update(compiled)
        self.hit.update(hit)
        under = under or {}
        only = self.only_under
        for cid in compiled:
            was = only.get(cid)
            only[cid] = ({n: {v} for n, v in under.items()} if was is None else
                         {n: vs | {under[n]} for n, vs in was.items() if n in under})

    @property
    def reachable(self) -> list[Clause]:
        """Clauses some tested setting compiles."""
        return [c for c in self.universe if c.id in self.compiled]

    @property
    def missed(self) -> list[Clause]:
        """Reachable clauses no match exercised."""
        return [c for c in self.reachable if c.id not in self.hit]

    @property
    def not_compiled(self) -> list[Clause]:
        """Clauses that cannot run under any tested setting (options folded them away)."""
        return [c for c in self.universe if c.id not in self.compiled]

    def summary(self) -> str:
        """One line, e.g. ``412 of 430 clauses exercised``."""
        reach = self.reachable
        if not reach:
            return "no clause exercised yet"  # before the first setting is compiled
        n_hit = sum(1 for c in reach if c.id in self.hit)
        text = f"{n_hit} of {len(reach)} clauses exercised"
        if self.not_compiled:
            text += f" ({len(self.not_compiled)} more cannot run under the tested options)"
        return text
