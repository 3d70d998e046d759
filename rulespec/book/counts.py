"""The table of Players and cards in a player's book: a row for each run of table sizes alike,
the pack in players' words, and what every size shares said once in a sentence beside it
rather than repeated down a column. Used by :mod:`rulespec.book.player`.
"""

from __future__ import annotations

import re

from rulespec.book.document import RANK_LETTERS, Paragraph, Table, inline
from rulespec.book.facts import RANK_ORDER, RANKS_KEY, BookFacts, TableFacts
from rulespec.book.i18n import Words
from rulespec.book.player_example import zone_said, zone_word
from rulespec.book.reading import clause
from rulespec.lang.model import CheckedSpec

__all__ = ["players_table"]

#: the fewest rows of Players and cards whose shared counts are said once in a sentence
#: (rounds 22: thirteen rows repeating "7" and "1" read as clutter)
SHARED_ROWS = 4


def players_table(spec: CheckedSpec, facts: BookFacts, w: Words
                  ) -> tuple[Table | None, Paragraph | None]:
    """The table of Players and cards, and the sentence saying the counts every size shares
    (None where there are none, or too few rows for them to be worth lifting out)."""
    columns: list[str] = []
    for t in facts.tables:
        columns.extend(k for k in t.counts if k not in columns)
    # the piles as play starts say where the cards not dealt to a hand are (round 10: 24 left
    # over, a stock of 23): the sum of them is not said again
    if any(k.endswith(" at play") and not k.endswith(" pack at play") for k in columns):
        columns = [k for k in columns if k != "left over"]
    # "hands dealt" says nothing the players column does not, where every player is dealt one
    if all(t.counts.get("hands dealt") == str(t.players) for t in facts.tables if not t.options):
        columns = [k for k in columns if k != "hands dealt"]
    groups = _alike(facts, columns)
    several = sum(k.endswith(" each") for k in columns) > 1
    shared = [k for k in columns if len(groups) >= SHARED_ROWS and _shared(k, groups)]
    # a pile that holds the rest of the cards, once the hands and the other piles are
    # counted, is said so with one size's count, and the sizes alike but for it share a row
    # (rounds 22 and 23: thirteen rows for what "one pack up to five, two from six" says)
    rest = [k for k in columns if len(groups) >= SHARED_ROWS and k not in shared
            and _the_rest(k, columns, [t for g in groups for t in g])]
    columns = [k for k in columns if k not in shared and k not in rest]
    groups = _alike(facts, columns) if rest else groups
    rows = []
    for g in groups:
        t = g[0]
        run = (str(t.players) if len(g) == 1 else
               w.word("{lo} to {hi}", lo=str(t.players), hi=str(g[-1].players)))
        rows.append((inline(w.digits(run)), inline(w.digits(str(t.cards))),
                     *(inline(_count_said(k, [x.counts.get(k, "–") for x in g], w))
                       for k in columns)))
    head = (inline(w.word("players")), inline(w.word("cards")),
            *(inline(_count_heading(spec, k, w, several)) for k in columns))
    table = Table(head, tuple(rows), source=clause(spec.deal.span)) if rows else None
    if not shared and not rest:
        return table, None
    said = [_shared_said(spec, k, groups[0][0].counts[k], w, several) for k in shared]
    usual = next((t for g in groups for t in g if facts.example is not None
                  and t.players == facts.example.players), groups[0][0])
    said += [w.word("the {zone} holds the rest ({n} at a table of {players})",
                    zone=zone_said(spec, k.removesuffix(" at play"), w).removeprefix("the "),
                    n=usual.counts[k], players=str(usual.players)) for k in rest]
    return table, Paragraph(w.say("At every table: {counts}.",
                                  counts=w.marks("; ".join(said))), clause(spec.deal.span))


def _the_rest(key: str, columns: list[str], sizes: list[TableFacts]) -> bool:
    """Whether a pile as play starts holds, at every size, the cards the hands and the other
    piles leave (a stock), by counts that are all plain numbers."""
    if not key.endswith(" at play") or key.endswith(" pack at play"):
        return False
    others = [k for k in columns if k != key and (k.endswith(" each") or (
        k.endswith(" at play") and not k.endswith(" pack at play")))]
    for t in sizes:
        counts = [t.counts.get(k, "") for k in (key, *others)]
        if not all(c.isdigit() for c in counts):
            return False
        pile, *rest = map(int, counts)
        held = sum(n * (t.players if k.endswith(" each") else 1)
                   for k, n in zip(others, rest, strict=True))
        if pile != t.cards - held:
            return False
    return True


def _shared(key: str, groups: list[list[TableFacts]]) -> bool:
    """Whether a count of a zone each player or the table holds is the same at every size."""
    if not key.endswith((" each", " at play")) or key.endswith(" pack at play"):
        return False
    return len({t.counts.get(key) for g in groups for t in g}) == 1


def _shared_said(spec: CheckedSpec, key: str, value: str, w: Words, several: bool) -> str:
    if key.endswith(" each") and not several:
        return w.word("each player is dealt {n} cards", n=value)
    if key.endswith(" each"):
        return w.word("each player has {n} cards in {zone}", zone=zone_word(spec, key[:-5], w),
                      n=value)
    zone = zone_said(spec, key.removesuffix(" at play"), w).removeprefix("the ")
    return w.word("the {zone} holds {n} when play starts", zone=zone, n=value)


def _alike(facts: BookFacts, columns: list[str]) -> list[list[TableFacts]]:
    """The tables of Players and cards in runs of sizes alike in every column: one row each
    ("2 to 5"). Sizes whose cards left over differ keep a row each (round 7: "38, 31, 24,
    17" in one cell left readers guessing which went with which size). A table an option
    opens is a variation's, left out."""
    groups: list[list[TableFacts]] = []
    same = columns
    for t in facts.tables:
        if t.options:
            continue
        last = groups[-1][-1] if groups else None
        if last is not None and last.players + 1 == t.players and last.cards == t.cards \
                and all(last.counts.get(k) == t.counts.get(k) for k in same):
            groups[-1].append(t)
        else:
            groups.append([t])
    return groups


def _count_said(key: str, values: list[str], w: Words) -> str:
    """A cell of Players and cards for tables alike (the cards left over listed), the pack
    in players' words (:func:`_pack_said`)."""
    if key == RANKS_KEY:
        return _pack_said(values[0], w)
    if key.endswith(" pack at play"):
        # a second pack as its four suits (rounds 52, 53: "48" for two players, each of
        # whom takes one suit of twelve, read as the bid cards in use)
        n, _, k = values[0].partition("/")
        return w.digits(w.word("4 suits of {k}", k=k) if k not in ("", "0") else n)
    return w.digits(w.marks(", ".join(dict.fromkeys(values))))


def _pack_said(text: str, w: Words) -> str:
    """The pack of :func:`~rulespec.book.facts.pack_text` as players say it: "one pack", "two
    packs", "A K Q J 10 9 of each suit", the Joker by name (round 6: "A–9" read as Ace, 2,
    3 ... 9; "A–2 ×2" as a sign, not two packs)."""
    m = re.fullmatch(r"A–(\w)(?: ×(\d+))?(?: \+ JK(?: ×(\d+))?)?", text)
    if m is None:
        return text
    low, copies, jokers = m.group(1), int(m.group(2) or 1), m.group(3)
    order = RANK_ORDER
    ranks = ""
    if low == "2":
        said = w.word("one pack") if copies == 1 else w.word("{n} packs", n=str(copies))
    else:
        letters = RANK_LETTERS.get(w.lang, {})
        ranks = " ".join("10" if r == "T" else letters.get(r, r)
                         for r in order[:order.index(low) + 1])
        # the ranks as cards are written, "10" in every language, put in last (round 15: a
        # Persian "۱۰" here and "10♣" in the example)
        said = w.word("{ranks} of each suit", ranks="\x00")
        if copies > 1:
            said = w.word("{pack}, {n} of each card", pack=said, n=str(copies))
    if "JK" in text:
        said = (w.word("{pack} and the Joker", pack=said) if jokers is None else
                w.word("{pack} and {n} Jokers", pack=said, n=jokers))
    return said.replace("\x00", ranks)


def _count_heading(spec: CheckedSpec, key: str, w: Words, several: bool) -> str:
    if key == "hands dealt":
        return w.word("hands dealt")
    if key == "left over":
        return w.word("not dealt to a hand")
    if key == RANKS_KEY:
        return w.word("the pack")
    if key.endswith(" at play"):
        zone = key.removesuffix(" pack at play").removesuffix(" at play")
        # the zone as its text names it ("the bid pack" for bid_piles), without an article
        said = zone_said(spec, zone, w).removeprefix("the ")
        if key.endswith(" pack at play"):
            # a second pack is counted as laid out, before anyone takes from it (round 15:
            # "48 when play starts" for two players, who take two of its suits)
            return said
        return w.word("{zone} when play starts", zone=said)
    if key.endswith(" each") and not several:
        return w.word("cards each")
    if key.endswith(" each"):
        return w.word("cards each ({zone})", zone=zone_word(spec, key[:-5], w))
    return key
