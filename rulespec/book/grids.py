"""The tables a spec declares for its book (``table``), as a player's book sets them: a
column of one suit's cards written as ranks, rows alike but for their first cell merged into a
range, a number that differs by table size in a column for each size, cells as players write
them. Used by :mod:`rulespec.book.player`.
"""

from __future__ import annotations

from rulespec.book.document import Inline, Run, Table, card_in, card_text, inline
from rulespec.book.english import show
from rulespec.book.facts import TableFacts
from rulespec.book.i18n import Words
from rulespec.book.reading import clause
from rulespec.lang import ast

__all__ = ["BY_RANK", "by_rank", "by_size", "cell", "merged", "scores_table"]


def scores_table(tb: ast.TableDecl) -> bool:
    """Whether a declared table is about scoring (it goes with Scoring, else with Play)."""
    said = " ".join([tb.title, tb.doc or "", *(c.heading for c in tb.columns)]).lower()
    return any(word in said for word in ("point", "score", "bonus"))


def by_size(tb: ast.TableDecl, sizes: list[TableFacts], w: Words) -> Table:
    """A table of two columns whose rows differ by table size, as one row for each value of
    its first column and a column of the second for each size ("–" where a size has none)."""
    keys: list[object] = []
    for t in sizes:
        keys += [r[0] for r in t.rows[tb.name] if r[0] not in keys]
    rows = []
    for k in keys:
        cells = [cell(k, w)]
        for t in sizes:
            found = [r[1] for r in t.rows[tb.name] if r[0] == k]
            cells.append(cell(found[0], w) if found else inline("–"))
        rows.append(tuple(cells))
    head = (inline(w.text(tb.columns[0].heading)),
            *(inline(w.word("{n} players at the table", n=str(t.players))) for t in sizes))
    return Table(head, tuple(rows), caption=inline(w.text(tb.title)), source=clause(tb.span))


#: the fewest rows of one suit's cards that make a table's first column a list of ranks
BY_RANK = 6


def by_rank(rows: tuple[tuple[object, ...], ...], lang: str) -> list[str]:
    """A table's first column written as ranks ("2", "10", "K") where it lists one suit's
    cards, a suit standing for every suit (round 10: "2♠–7♠" under "card (any suit)" read
    as if only spades scored); else nothing."""
    firsts = [r[0] if r else None for r in rows]
    suits = {c[-1] for c in firsts if isinstance(c, str) and len(c) == 2 and c[1] in "CDHS"}
    if len(rows) < BY_RANK or len(suits) != 1 or not all(
            isinstance(c, str) and len(c) == 2 and c[-1] in suits for c in firsts):
        return []
    return [card_text(card_in(str(c), lang))[:-1] for c in firsts]


def merged(rows: list[tuple[Inline, ...]], other: Inline | None = None
           ) -> list[tuple[Inline, ...]]:
    """A table's rows with each run of rows that differ only in their first cell made one:
    its first cells joined, as a range from the first to the last where the run is long
    (``2♥–A♥ | 1`` for thirteen rows of 1 point). With ``other`` (a first cell such as "any
    other card"), the runs that share their cells but lie apart are one last row under it
    (rounds 22: "2–7 | 1" and "9–K | 1" on either side of "8 | 10" read as if they differed)."""
    out = _runs(rows)
    if other is None:
        return out
    tails = [r[1:] for r in out]
    common = max(tails, key=tails.count, default=())
    if tails.count(common) < 2:
        return out
    return [*(r for r in out if r[1:] != common), (other, *common)]


def _runs(rows: list[tuple[Inline, ...]]) -> list[tuple[Inline, ...]]:
    out: list[tuple[Inline, ...]] = []
    run: list[tuple[Inline, ...]] = []
    for row in [*rows, ()]:
        if run and row and row[1:] == run[0][1:]:
            run.append(row)
            continue
        if len(run) > 2:
            out.append(((*run[0][0], *inline("–"), *run[-1][0]), *run[0][1:]))
        elif run:
            firsts: list[Run] = []
            for i, r in enumerate(run):
                firsts += [*inline(", " if i else ""), *r[0]]
            out.append((tuple(firsts), *run[0][1:]))
        run = [row] if row else []
    return out


def cell(v: object, w: Words) -> Inline:
    if isinstance(v, (list, tuple)):
        runs: list[Run] = []
        for i, x in enumerate(v):
            runs.extend(inline(" ") if i else ())
            runs.extend(cell(x, w))
        return tuple(runs)
    if isinstance(v, str) and (v == "JK" or len(v) == 2 and v[1] in "CDHS"):
        return (Run("card", v),)
    if isinstance(v, str) and v in ("C", "D", "H", "S"):
        return (Run("suit", v),)
    if isinstance(v, str):
        return inline(w.text(v))
    return inline("–" if v is None else w.digits(show(v)))
