"""Legal-event enumerators: one generated function per alternative of a decision.

Generators become nested Python loops, each conjunct of the guard tested as soon as the
variables it reads are bound, and the event and its canonical key written innermost. The
enumerator is first built as a small tree (:class:`_Body`: the test before the loops, the
temporaries hoisted out of them, the nests of :class:`_Loop` and the :class:`_Write`
innermost), then rendered in one of its forms: *plain*; *merged* with the decision's other
alternatives into one function (:func:`choose_enumerator`); *memoised* (the events remembered
by the seat and the sources' values); *all at once* (a hand's subsets, every key and entry
made by one comprehension each); and *lazy* (a :class:`~rulespec.engine.machine.LazySets`
that builds only what a reader asks for). A form is chosen from the tree's parts (the loops'
sources, the write's key and entry), not by cutting and patching the plain form's text; what
reads the state is still told by the names in those parts' Python text (READS_STATE).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from typing import cast

import attrs

from rulespec.engine.codegen.cse import share_common
from rulespec.engine.codegen.exprs import SCALAR, ExprCompiler
from rulespec.engine.codegen.pyexec import CATCH, READS_STATE, pyname, runtime_error
from rulespec.engine.events import (
    FIELD_CACHE_MAX,
    encode,
    field_json,
    json_value,
    set_and_json,
    subset_in_order,
    subset_sets,
)
from rulespec.engine.machine import (
    MEMO_MAX,
    LazySets,
    LegalMap,
    Resolver,
    Running,
)
from rulespec.lang import ast, walk
from rulespec.lang.builtins import EmptyError
from rulespec.lang.model import BoundBuiltin
from rulespec.lang.types import (
    Bool,
    Card,
    Int,
    ListOf,
    Per,
    PZone,
    Suit,
    Type,
    Zone,
)
from rulespec.lang.types import element as element_of

__all__ = ["MEMO_KEY_MAX", "Later", "binds_zone", "choose_enumerator", "enumerator",
           "holds_zone", "keys_distinct", "resolver"]


# ---- the enumerator as a small tree, rendered in its forms ----------------------------------
@attrs.frozen
class _Loop:
    """One generator's loop, ``for TARGET in SOURCE:``, and the test of the guard's conjuncts
    that its variable completes (``if not (TEST): continue``; "" for none)."""

    target: str
    source: str
    test: str = ""


@attrs.frozen
class _Kept:
    """How an event kept by the seat and the generators' values is found again (see
    :func:`_kept_write`): the lines that read the seat's cache first, its name, and the key of
    the values."""

    head: tuple[str, ...]
    cache: str
    values: str
    distinct: bool


@attrs.frozen
class _Write:
    """What the innermost loop does: compute the fields, then write the event under its key,
    plainly or through the events kept by the generators' values (``kept``)."""

    fields: tuple[str, ...]
    key: str
    entry: str
    kept: _Kept | None = None

    def lines(self, into: str) -> list[str]:
        """The lines, unindented, that write the event into the map called ``into``."""
        if self.kept is None:
            return [*self.fields, f"k = {self.key}", f"if k not in {into}:",
                    f"    {into}[k] = {self.entry}"]
        cs, ek = self.kept.cache, self.kept.values
        return [*self.kept.head, f"_e = {cs}.get({ek})", "if _e is None:",
                *("    " + ln for ln in self.fields),
                f"    _e = ({self.key}, {self.entry})",
                f"    if len({cs}) < _EMAXS:",
                f"        {cs}[{ek}] = _e",
                *([f"{into}[_e[0]] = _e[1]"] if self.kept.distinct else
                  ["k, _v = _e", f"if k not in {into}:", f"    {into}[k] = _v"])]


@attrs.frozen
class _Nest:
    """The loops of one alternative's generators, nested, and the write innermost."""

    loops: tuple[_Loop, ...]
    write: _Write

    def lines(self, ind: str, into: str = "out", sources: Sequence[str] = ()) -> list[str]:
        """The nest indented by ``ind``, writing into ``into``; ``sources`` replace the
        loops' own (names computed before them)."""
        out = []
        for j, lp in enumerate(self.loops):
            out.append(f"{ind}for {lp.target} in {sources[j] if sources else lp.source}:")
            ind += "    "
            if lp.test:
                out.append(f"{ind}if not ({lp.test}): continue")
        return out + [ind + ln for ln in self.write.lines(into)]


@attrs.frozen
class _Body:
    """One alternative's enumerator between its header and its except clause: the test of
    the conjuncts that read no generator's variable, the temporaries computed once before
    the loops (``hoisted``: name and source), and the nests (two where ``groups`` is split)."""

    test: str
    nests: tuple[_Nest, ...]
    hoisted: tuple[tuple[str, str], ...] = ()

    def head(self, ind: str) -> list[str]:
        """The lines before the loops of an alternative listed alone: a failed test ends the
        function; the temporaries are computed, and should that raise, the events are
        listed by the version without them (``_plain``), which raises where the rule says."""
        out = [f"{ind}if not ({self.test}): return"] if self.test else []
        if self.hoisted:
            out += ([f"{ind}try:"] + [f"{ind}    {n} = {src}" for n, src in self.hoisted] +
                    [f"{ind}except Exception:",
                     f"{ind}    return _plain(st, L, out, seat, _alt)"])
        return out

    def lines(self, ind: str, merged: bool) -> list[str]:
        """The body indented by ``ind``; ``merged`` with the other alternatives of the
        decision (which computes the temporaries for all), a failed test skips to the next
        alternative."""
        if not merged:
            out = self.head(ind)
        elif self.test:
            out = [f"{ind}if {self.test}:"]
            ind += "    "
        else:
            out = []
        for n in self.nests:
            out += n.lines(ind)
        return out


#: the lines before an alternative's body and after it
_HEADER = ["def _enum(st, L, out, seat, _alt):", "    V = st.v; Z = st.z", "    try:",
           # the seat's text, made once: an f-string copies a str, but formats an int at
           # each event it writes
           "        _seat = str(seat)"]
_FOOTER = [f"    except {CATCH} as e:", "        raise _rt(e, _span)"]


def enumerator(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
                distinct: bool = False) -> Callable[..., LegalMap | None]:
    """One generated function that lists an alternative's legal events.

    Generators become nested Python loops, and each conjunct of the guard is tested as soon
    as the variables it reads are bound ("for c in hand for s in suits if eight(c)" tests
    eight(c) once per card, not once per card and suit). What the loops compute that does not
    depend on their variables is computed once, before them (ExprCompiler.hoisting); should
    that raise, the events are listed by a second version without it, which raises (or not)
    exactly where the rule says.
    """
    extra: dict[str, object] = {"_enc": encode, "_jv": json_value,
                                "_setjv": ec.deck_runtime.get("_setjv", set_and_json),
                                "_fjv": field_json, "_NESTED": (list, tuple),
                                "_Empty": EmptyError, "_rt": runtime_error}
    what = f"legal events of the alternative {a.action}"
    body, hoisted = _enum_lines(ec, a, local, hoist=bool(a.generators), distinct=distinct)
    if hoisted:
        base = dict(extra)

        def plain() -> Callable[..., LegalMap | None]:
            lines, _ = _enum_lines(ec, a, local, hoist=False, distinct=distinct)
            return _build_enum(ec, a, lines, base, what + " (not hoisted)")

        # the version without temporaries is called only where one raises, which most
        # tables never meet: compiled then (a third of a table's enumerators), unless the
        # sources are kept, which list every function a table may run
        extra["_plain"] = plain() if ec.sources is not None else Later(plain)
        body = attrs.evolve(body, hoisted=tuple(hoisted))
    return _build_enum(ec, a, body, extra, what)


class Later:
    """A generated function compiled the first time it is called, or when :meth:`compiled`
    is asked for: an enumerator's version without temporaries (see :func:`enumerator`), an
    alternative's own enumerator where its decision lists its events in one function (see
    :func:`choose_enumerator`, which calls them only where its temporaries raise)."""

    __slots__ = ("fn", "make")

    def __init__(self, make: Callable[[], Callable[..., LegalMap | None]]) -> None:
        self.make = make
        self.fn: Callable[..., LegalMap | None] | None = None

    def compiled(self) -> Callable[..., LegalMap | None]:
        if self.fn is None:
            self.fn = self.make()
        return self.fn

    def __call__(self, *args: object) -> LegalMap | None:
        return self.compiled()(*args)


def holds_zone(t: Type) -> bool:
    """Whether a value of type ``t`` is, or holds, a zone itself rather than a snapshot."""
    if isinstance(t, (Zone, PZone)):
        return True
    if isinstance(t, (ListOf, Per)):
        return holds_zone(t.elem)
    return False


def binds_zone(ec: ExprCompiler, g: ast.Generator) -> bool:
    """Whether a generator's variable holds a zone itself (its events then depend on which
    state's zone it is: they are not remembered, and a clone remaps it)."""
    return holds_zone(element_of(ec.type_of(g.source)) or Int())


def _memo_for(ec: ExprCompiler, a: ast.Alternative, body: _Body) -> list[str] | None:
    if any(binds_zone(ec, g) for g in a.generators):
        return None
    return _memoised(body, [pyname(g.var) for g in a.generators])


def _build_enum(ec: ExprCompiler, a: ast.Alternative, body: _Body, extra: dict[str, object],
                what: str) -> Callable[..., LegalMap | None]:
    memo = _memo_for(ec, a, body)
    lines = _HEADER + body.lines("        ", merged=False) + _FOOTER
    if memo is not None:
        lines = memo
        extra.update(_MEMO={}, _MEMO_N=[0], _fz=_freeze, _LegalMap=LegalMap,
                     _LazySets=LazySets,
                     _MEMO_MAX=MEMO_MAX)
    return ec.build("_enum", "\n".join(lines) + "\n", a.span, extra,  # type: ignore[no-any-return]
                    what=what)


def _enum_lines(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
                hoist: bool, distinct: bool = False) -> tuple[_Body, list[tuple[str, str]]]:
    """The enumerator's body, and the temporaries its loops read (with ``hoist``)."""
    ec.hoisting(False, fresh=True)
    body = _enum_body(ec, a, local, hoist, distinct=distinct)
    return body, ec.hoisted()


def choose_enumerator(ec: ExprCompiler, alts: list[ast.Alternative], local: frozenset[str],
                       siblings: Sequence[ast.Alternative] = ()) -> Callable[..., None] | None:
    """One function that lists the events of all of a decision's alternatives: one call, the
    seat's text written once, and what the alternatives' loops share (the top card) computed
    once for all of them. None where an alternative remembers its events by its inputs (its
    own enumerator does that best)."""
    for a in alts:
        body, _ = _enum_lines(ec, a, local, hoist=False)
        if _memo_for(ec, a, body) is not None:
            return None
    ec.hoisting(False, fresh=True)
    bodies = []
    for i, a in enumerate(alts):
        bodies.append(f"        _ai = {i}; _alt = alts[{i}]")
        bodies += _enum_body(ec, a, local, bool(a.generators),
                             distinct=keys_distinct(a, siblings)).lines("        ", merged=True)
    hoisted = ec.hoisted()
    lines = ["def _legal(st, L, out, seat, alts):", "    V = st.v; Z = st.z", "    _ai = 0",
             "    try:", "        _seat = str(seat)"]
    if hoisted:
        lines += (["        try:"] + [f"            {n} = {src}" for n, src in hoisted] +
                  ["        except Exception:",
                   "            for a in alts:",
                   "                a.enum(st, L, out, seat, a)",
                   "            return"])
    lines += bodies
    lines += [f"    except {CATCH} as e:", "        raise _rt(e, _SPANS[_ai])"]
    extra: dict[str, object] = {"_enc": encode, "_jv": json_value,
                                "_setjv": ec.deck_runtime.get("_setjv", set_and_json),
                                "_fjv": field_json, "_NESTED": (list, tuple),
                                "_Empty": EmptyError, "_rt": runtime_error,
                                "_SPANS": tuple(a.span for a in alts)}
    return ec.build("_legal", "\n".join(lines) + "\n", alts[0].span, extra,  # type: ignore[no-any-return]
                    what="legal events of the decision, all its alternatives")


def _enum_body(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str], hoist: bool,
               distinct: bool = False) -> _Body:
    """The loops and tests of one alternative: its guard's conjuncts tested as soon as their
    variables are bound."""
    try:
        # the tests before the loops: they read no generator's variable
        ec.hoisting(False)
        levels = _levels(a)
        test = _level_test(ec, levels[0], local, frozenset())
        split = _groups_split(ec, a)
        if split is None:
            return _Body(test, (_enum_loops(ec, a, levels, local, hoist, distinct),))
        # each conjunct is tested where the original tests it: one that reads a variable of
        # its own named like the generator's is not moved out of the loop
        single, one, binds = split
        inside = [[cast(ast.Expr, walk.replace_name(c, a.generators[0].var, one))
                   for c in level] for level in levels]
        return _Body(test, (_enum_loops(ec, single, inside, local, hoist, distinct, binds),
                            _enum_loops(ec, a, levels, local, hoist, distinct, multi=True)))
    finally:
        ec.hoisting(False)


def _levels(a: ast.Alternative) -> list[list[ast.Expr]]:
    """The conjuncts of ``a``'s guard by the loop they are tested in: 0 before the loops, ``i``
    inside the ``i``-th (the innermost of the generators whose variables they read)."""
    gen_vars = [g.var for g in a.generators]
    levels: list[list[ast.Expr]] = [[] for _ in range(len(gen_vars) + 1)]
    for conj in _conjuncts(a.guard) if a.guard is not None else []:
        used = _names_in(conj)
        level = max((i + 1 for i, v in enumerate(gen_vars) if v in used), default=0)
        levels[level].append(conj)
    return levels


def _level_test(ec: ExprCompiler, conjuncts: list[ast.Expr], local: frozenset[str],
                py: frozenset[str]) -> str:
    """One test of all ``conjuncts`` (those constant true for this table left out), or ""."""
    tests = []
    for c in conjuncts:
        ok, val, src = ec.folded(c, local, py)
        if ok and val:
            continue
        tests.append("False" if ok else src)
    # what the tests read more than once (rank(first(g))) is read once
    return share_common(" and ".join(tests)) if tests else ""


def _enum_loops(ec: ExprCompiler, a: ast.Alternative, levels: list[list[ast.Expr]],
                local: frozenset[str], hoist: bool, distinct: bool,
                binds: str | None = None, multi: bool = False) -> _Nest:
    """The generators' loops of ``a``, each with the conjuncts ``levels`` gives it, and the
    event written innermost; ``binds`` and ``multi`` as :func:`_enum_event` and
    :func:`_loop_head` take them."""
    gen_vars = [g.var for g in a.generators]
    loops = []
    for i in range(len(gen_vars)):
        py = frozenset(gen_vars[:i])
        # a loop's head is read once: nothing of it is hoisted
        ec.hoisting(hoist and i > 0)
        target, source = _loop_head(ec, a, i, local, py, multi)
        # only inside the loops: a test before them runs once anyway, and hoisting it would
        # give up the short-circuit of "a and b"
        ec.hoisting(hoist)
        loops.append(_Loop(target, source, _level_test(ec, levels[i + 1], local,
                                                       py | {gen_vars[i]})))
    ec.hoisting(hoist and bool(gen_vars))
    return _Nest(tuple(loops), _enum_event(ec, a, local, distinct, binds))


def _groups_split(ec: ExprCompiler, a: ast.Alternative
                  ) -> tuple[ast.Alternative, ast.ListLit, str] | None:
    """For ``... for g in groups(hand) if P(g)``: the same alternative over the hand's single
    cards (``for c in hand if P([c])``, so that ``size(g)`` and ``first(g)`` fold to ``1`` and
    ``c``), the ``[c]`` that replaces ``g``, and what binds ``g`` to it for the event's
    body. Its loop is followed by the original's over
    :func:`~rulespec.lang.builtins.multi_groups`, the groups of two cards or more: together they
    list the events ``groups(hand)`` lists (in another order, which the canonical sort makes
    no matter). None for any other alternative, and with coverage on (folding would mark arms
    of the guard as taken that no event took). Split in two, the loops are not remembered by
    their inputs (_memoised): a hand's groups seldom come back."""
    if ec.cover is not None or len(a.generators) != 1:
        return None
    g = a.generators[0]
    src = walk.uncited(g.source)
    if not (isinstance(src, ast.Call) and src.func == "groups" and len(src.args) == 1 and
            isinstance(ec.resolution.binding(src.span, "call"), BoundBuiltin)):
        return None
    card = ec.fresh(g.var)
    # the literal has the type of the hand (a list of cards), which the checker gave the
    # hand's span: the fields' types are read off it
    one = ast.ListLit((ast.Name(card, span=g.span),), span=src.args[0].span)
    single = attrs.evolve(
        a, generators=(ast.Generator(card, src.args[0], span=g.span),),
        guard=cast("ast.Expr | None", walk.replace_name(a.guard, g.var, one)),
        fields=cast("tuple[ast.Field, ...]", walk.replace_name(a.fields, g.var, one)))
    return single, one, f"({pyname(card)},)"


def _set_subsets(ec: ExprCompiler, a: ast.Alternative) -> dict[str, int]:
    """The generators of ``a`` that run over ``subsets(...)`` and whose variable is a field's
    ``set_of`` (``show(cards = set_of(cs)) for cs in subsets(hand, 0, size(hand))``), by
    variable: each subset comes with its set and the set's text (:func:`subset_sets`). Only
    over cards or suits, which are distinct in one pack and have no faster way: numbers repeat
    (the values of bid cards), and their events are best kept by value (_entries_kept)."""
    fields = [walk.uncited(f.value) for f in a.fields]
    out = {}
    for i, g in enumerate(a.generators):
        src = walk.uncited(g.source)
        if isinstance(src, ast.Call) and src.func == "subsets" and len(src.args) == 3 and \
                isinstance(element_of(ec.type_of(src.args[0])), (Card, Suit)) and any(
                isinstance(f, ast.Call) and f.func == "set_of" and len(f.args) == 1 and
                isinstance(f.args[0], ast.Name) and f.args[0].id == g.var for f in fields):
            out[g.var] = i
    return out


def _lazy_subsets(ec: ExprCompiler, a: ast.Alternative) -> bool:
    """Whether ``a``'s one generator runs over subsets whose variable nothing reads but its
    ``set_of`` field: then each event keeps its set alone, and the subset itself, in its
    source's order, is found for the one event applied (Alternative.resolve), not made for
    the thousands listed."""
    if len(a.generators) != 1 or a.generators[0].var not in _set_subsets(ec, a):
        return False
    var = a.generators[0].var
    if a.guard is not None and var in _names_in(a.guard):
        return False
    for f in a.fields:
        bare = walk.uncited(f.value)
        if var in _names_in(bare) and not (
                isinstance(bare, ast.Call) and bare.func == "set_of" and
                isinstance(bare.args[0], ast.Name)):
            return False
    return True


def resolver(ec: ExprCompiler, a: ast.Alternative,
              local: frozenset[str]) -> Resolver | None:
    """Alternative.resolve for an alternative of :func:`_lazy_subsets`: the subset of the
    source, evaluated again in the same state, whose set the event applied holds."""
    if not _lazy_subsets(ec, a):
        return None
    src = walk.uncited(a.generators[0].source)
    assert isinstance(src, ast.Call)
    xs, lo, hi = (ec.expr(x, local) for x in src.args)

    in_order = cast("Callable[..., object]",
                    ec.deck_runtime.get("_subset_in_order", subset_in_order))

    def resolve(st: Running, L: dict[str, object], chosen: object) -> object:
        return in_order(xs(st, L), lo(st, L), hi(st, L), cast("Sequence[object]", chosen))
    return resolve


def _loop_head(ec: ExprCompiler, a: ast.Alternative, i: int, local: frozenset[str],
               py: frozenset[str], multi: bool = False) -> tuple[str, str]:
    """``(v, SOURCE)``: the target and the source of the ``i``-th generator's loop; over a set
    field's subsets, ``(v, _sfI, _sjI, _subset_sets(...))``, the set and its text coming with
    each subset; ``multi``, over ``groups(hand)``: ``_multi_groups(hand)`` (see
    _groups_split)."""
    g = a.generators[i]
    src = walk.uncited(g.source)
    if multi:
        assert isinstance(src, ast.Call) and src.func == "groups"
        return pyname(g.var), f"_multi_groups({ec.source(src.args[0], local, py)})"
    if g.var not in _set_subsets(ec, a):
        return pyname(g.var), ec.source(g.source, local, py)
    assert isinstance(src, ast.Call)
    ec.globals["_subset_sets"] = ec.deck_runtime.get("_subset_sets", subset_sets)
    args = ", ".join(ec.source(x, local, py) for x in src.args)
    if _lazy_subsets(ec, a):
        return f"_sf{i}, _sj{i}", f"_subset_sets({args}, {_field_cache(ec)}, False)"
    return f"{pyname(g.var)}, _sf{i}, _sj{i}", f"_subset_sets({args}, {_field_cache(ec)})"


def _enum_event(ec: ExprCompiler, a: ast.Alternative, local: frozenset[str],
                distinct: bool = False, binds: str | None = None) -> _Write:
    """What the loops do innermost: write one legal event and its key; ``binds``,
    the Python source of what the event binds its generators to, where it is not their
    values (see _groups_split)."""
    gen_vars = [g.var for g in a.generators]
    py = frozenset(gen_vars)
    lines = []
    parts = ['"seat": seat', f'"action": {a.action!r}']
    values: dict[str, str | None] = {"seat": "seat", "action": None}
    jsons: dict[str, str] = {}
    kinds: dict[str, str] = {}
    presorted = _set_subsets(ec, a)
    for i, f in enumerate(a.fields):
        bare = f.value
        while isinstance(bare, ast.Cited):
            bare = bare.expr
        if isinstance(bare, ast.Call) and bare.func == "set_of":
            g = bare.args[0].id if isinstance(bare.args[0], ast.Name) else None
            if g in presorted:
                # the loop gave the set, a fresh list (the event's own), and its text
                parts.append(f"{f.name!r}: _sf{presorted[g]}")
                jsons[f.name] = f"_sj{presorted[g]}"
                values[f.name] = f"_sf{presorted[g]}"
                continue
            # a set field: its canonical tuple and JSON text come from one cache lookup
            arg = ec.source(bare.args[0], local, py)
            cache = _field_cache(ec)
            if isinstance(bare.args[0], ast.Name):
                # the cache is read inline: no Python call for the usual hit (a tuple; a zone's
                # list cannot be a key)
                lines.append(f"f{i}, j{i} = (type({arg}) is tuple and {cache}.get({arg}))"
                             f" or _setjv({arg}, {cache})")
            else:
                lines.append(f"f{i}, j{i} = _setjv({arg}, {cache})")
            parts.append(f"{f.name!r}: list(f{i})")
            jsons[f.name] = f"j{i}"
        else:
            lines.append(f"f{i} = {ec.source(f.value, local, py)}")
            kinds[f.name] = _field_kind(ec.type_of(f.value))
            if kinds[f.name] == "text":
                parts.append(f"{f.name!r}: f{i}")  # a card or a suit is its own JSON value
            elif kinds[f.name] == "flat":
                parts.append(f"{f.name!r}: list(f{i})")  # what _enc makes of a flat list
            else:
                # tuples become JSON lists; a flat one without a call (the common case);
                # nested ones (lists of zones too) are copied all the way down by _enc
                parts.append(f"{f.name!r}: (list(f{i}) if type(f{i}) is tuple and "
                             f"(not f{i} or type(f{i}[0]) not in _NESTED) else _enc(f{i}))")
        values[f.name] = f"f{i}"
    key = _key_text(ec, a, values, jsons, kinds)
    # one generator's value as it is; several as a tuple (see State._take)
    if binds is None:
        binds = "_sf0" if _lazy_subsets(ec, a) else pyname(gen_vars[0]) \
            if len(gen_vars) == 1 else "(" + "".join(f"{pyname(v)}, " for v in gen_vars) + ")"
    entry = f"({{{', '.join(parts)}}}, _alt, {binds})"
    if not _entries_kept(ec, a, lines):
        return _Write(tuple(lines), key, entry)
    return _kept_write(ec, gen_vars, lines, key, entry, distinct)


def _key_text(ec: ExprCompiler, a: ast.Alternative, values: dict[str, str | None],
              jsons: dict[str, str], kinds: dict[str, str]) -> str:
    """The canonical key (H5) of an alternative's event as one f-string, its keys put in
    sorted order once, here."""
    pieces = []
    caches = {name: _field_cache(ec) for name in values if name not in ("seat", "action")}
    for name in sorted(values):
        val = values[name]
        if val is None:
            pieces.append(f'"{name}":"{a.action}"')
        elif val == "seat":
            pieces.append(f'"{name}":{{_seat}}')
        elif name in jsons:
            pieces.append(f'"{name}":{{{jsons[name]}}}')
        else:
            # the text of a tuple (a group of cards) is remembered in the field's cache and
            # read inline: no call for the usual hit; a card's or a suit's text too (the
            # type says what the value is, so the tests of what it is are left out)
            c = caches[name]
            if kinds.get(name) == "text":
                pieces.append(f'"{name}":{{{c}.get({val}) or _fjv({val}, {c})}}')
            elif kinds.get(name) == "flat":
                pieces.append(f'"{name}":{{(type({val}) is tuple and {c}.get({val})) or '
                              f'_fjv({val}, {c})}}')
            else:
                pieces.append(f'"{name}":{{(type({val}) is tuple and (not {val} or '
                              f'type({val}[0]) not in _NESTED) and {c}.get({val})) or '
                              f'_fjv({val}, {c})}}')
    return "f'{{" + ",".join(pieces).replace("'", "\\'") + "}}'"


def _kept_write(ec: ExprCompiler, gen_vars: list[str], lines: list[str], key: str,
                entry: str, distinct: bool = False) -> _Write:
    """The write of an event kept by the seat and the generators' values."""
    # the event is a function of the seat and the generators' values: its key and entry are
    # made once and kept (an event may be shared, as legal_actions says), so a decision met
    # again with the same group of cards costs a lookup, not a dictionary and a key
    cache = _field_cache(ec)
    # one cache for each seat, keyed by the values alone: no (seat, values) tuple to make and
    # hash at every event listed (the machine has checked the seat is one of the table's)
    ec.globals[cache] = tuple({} for _ in range(ec.hands))
    ec.globals["_EMAXS"] = max(1000, FIELD_CACHE_MAX // max(1, ec.hands))
    ek = pyname(gen_vars[0]) if len(gen_vars) == 1 else \
        "(" + "".join(f"{pyname(v)}, " for v in gen_vars) + ")"
    # the seat's cache is read once for all the events the loops list
    cs = ec.invariant(f"{cache}[seat]")
    head = [] if cs != f"{cache}[seat]" else [f"_cs = {cache}[seat]"]
    cs = "_cs" if head else cs
    if len(gen_vars) != 1:
        head.append(f"_ek = {ek}")
        ek = "_ek"
    return _Write(tuple(lines), key, entry, _Kept(tuple(head), cs, ek, distinct))


def keys_distinct(a: ast.Alternative, siblings: Sequence[ast.Alternative]) -> bool:
    """Whether no two events ``a`` lists can have one key, so that each is written without
    asking whether the key is there already: each generator's variable is a field itself
    (``play(cards = g) for g in groups(hand)``, or ``[c]``), so the key tells the values
    apart, and no other alternative of the decision has the same action and fields. (A loop
    over a list that holds a card twice, from two packs, meets the same key with the same
    values, and the entry kept for them is the same.)"""
    fields = {f.name: walk.uncited(f.value) for f in a.fields}
    for g in a.generators:
        if not any((isinstance(v, ast.Name) and v.id == g.var) or (
                isinstance(v, ast.ListLit) and len(v.items) == 1 and
                isinstance(one := walk.uncited(v.items[0]), ast.Name) and one.id == g.var)
                for v in fields.values()):
            return False
    names = set(fields)
    return not any(b is not a and b.action == a.action and {f.name for f in b.fields} == names
                   for b in siblings)


def _entries_kept(ec: ExprCompiler, a: ast.Alternative, field_lines: list[str]) -> bool:
    """Whether an alternative's events may be kept by the seat and the generators' values:
    its fields read no state, and each value is a number, a card, a suit, a name or a flat
    list of them (hashable, and never a zone, which a later move would change)."""
    if any(READS_STATE.search(ln) for ln in field_lines):
        return False
    if _set_subsets(ec, a):
        # a hand's subsets hardly come back (8,192 of them for 13 cards, a new hand each
        # deal): keeping them costs a key and a lookup each, and the cache fills with them
        return False
    for g in a.generators:
        t = element_of(ec.type_of(g.source))
        if isinstance(t, ListOf):
            t = t.elem
        if not isinstance(t, SCALAR):
            return False
    return True


_CACHE_IDS = itertools.count()


def _field_kind(t: Type) -> str:
    """What a field's checked type says of its values: ``text`` (a card or a suit: a string,
    or none), ``flat`` (a list of such values or numbers: never nested, whatever list it is),
    or ``any``."""
    if isinstance(t, (Card, Suit)):
        return "text"
    if isinstance(t, ListOf) and isinstance(t.elem, (Card, Suit, Int, Bool)):
        return "flat"
    return "any"


def _field_cache(ec: ExprCompiler) -> str:
    """A new cache for one field's JSON texts, as a global of the generated code."""
    name = f"_C{next(_CACHE_IDS)}"
    ec.globals[name] = {}
    return name




def _freeze(x: object) -> object:
    """``x`` as a dictionary key: lists (zones) become tuples, nested ones too."""
    if isinstance(x, (list, tuple)):
        if type(x) is tuple and (not x or type(x[0]) not in (list, tuple)):
            return x
        return tuple(_freeze(y) for y in x)
    return x


#: the most values a generator's source may hold for its enumerator to remember events by it
MEMO_KEY_MAX = 512
#: the fewest subsets a decision lists lazily though its source is short enough to remember
#: its events by (3 cards of 13 to pass: 286): each hand comes once in a playout, so
#: remembering its hundreds of events costs what listing them does, and a playout applies one
LAZY_MIN = 64


def _memoised(body: _Body, gen_vars: list[str]) -> list[str] | None:
    """The enumerator of ``body`` written to remember its events by its inputs, or None.

    An alternative qualifies when each generator's source reads no earlier generator's
    variable (so all sources can be computed first) and nothing inside the loops reads the
    state: then the events are a function of the seat and the sources' values, and a decision
    met again (4,096 ways to lay the same trick numbers, deal after deal, in a bidding game)
    costs one dictionary lookup instead of one pass over every event."""
    if not gen_vars or len(body.nests) != 1:
        return None
    nest = body.nests[0]
    sources = [lp.source for lp in nest.loops]
    for j, src in enumerate(sources):
        if any(re.search(rf"\b{re.escape(v)}\b", src) for v in gen_vars[:j]):
            return None
        if j > 0 and READS_STATE.search(src):
            # computed before the first loop here, where the plain loops might never reach
            # it (an empty outer source, a failed guard): only a constant may move there
            return None
    inside = [lp.test for lp in nest.loops] + nest.write.lines("out")
    if any(READS_STATE.search(ln) for ln in inside):
        return None
    ind = "        "
    out = _HEADER + body.head(ind)
    for j, src in enumerate(sources):
        out.append(f"{ind}_s{j} = {src}")
    key = ", ".join(["seat"] + [f"_fz(_s{j})" for j in range(len(sources))])
    # a source of thousands of values (every subset of a hand) is not worth a key: freezing
    # and hashing it costs what the loops do, and the same hand hardly comes back
    small = " and ".join(f"len(_s{j}) <= {MEMO_KEY_MAX}" for j in range(len(sources)))
    out += [f"{ind}_ck = ({key}) if {small} else None",
            f"{ind}hit = _MEMO.get(_ck) if _ck is not None else None", f"{ind}if hit is None:"]
    at_once = _all_at_once(nest)
    if at_once is not None:
        out += [f"{ind}    {ln}" for ln in _lazy_lines(nest.write)]
    out += [f"{ind}    hit = _LegalMap()"]
    if at_once is None:
        out += nest.lines(ind + "    ", "hit", [f"_s{j}" for j in range(len(sources))])
    else:
        out += [f"{ind}    {ln}" for ln in at_once]
    out += [f"{ind}    if _ck is not None:",
            f"{ind}        _MEMO_N[0] += len(hit)",
            f"{ind}        if _MEMO_N[0] > _MEMO_MAX:",
            f"{ind}            _MEMO.clear()",
            f"{ind}            _MEMO_N[0] = len(hit)",
            f"{ind}        _MEMO[_ck] = hit",
            f"{ind}if not out:", f"{ind}    return hit",
            # a remembered lazy map (_lazy_lines) written before its entries are read
            f"{ind}if hit.lazy is not None:", f"{ind}    hit.lazy.write(st, hit)",
            f"{ind}for k, e in hit.items():", f"{ind}    if k not in out:",
            f"{ind}        out[k] = e"]
    return out + _FOOTER


def _all_at_once(nest: _Nest) -> list[str] | None:
    """For an enumerator of one loop over a hand's subsets that writes every event it meets
    (``show(cards = set_of(cs)) for cs in subsets(hand, 0, size(hand))``, 8,192 of them):
    the lines that make all the keys and all the entries at once, each with one list
    comprehension, and the map from both, instead of a round of the loop per event. The
    subsets come in the order of their texts, and distinct, so the map is in canonical
    order and has one entry per subset; where it had fewer (a key written twice), the loop
    is run instead, so that the first event written for a key stands, as the loop has it."""
    w = nest.write
    if len(nest.loops) != 1 or nest.loops[0].test or nest.loops[0].target != "_sf0, _sj0" \
            or w.fields or w.kept is not None:
        return None
    key, entry = w.key, w.entry
    if "_sf0" in key or "_sj0" in entry or re.search(r"\bk\b", entry):
        return None
    return ["_ks = [" + key + " for _sj0 in _s0.texts]",
            "hit.update(zip(_ks, [" + entry + " for _sf0 in _s0.sets]))",
            "if len(hit) == len(_ks):",
            "    hit.presorted = _s0.ordered",
            "else:",
            "    hit.clear()",
            "    for _sf0, _sj0 in _s0:",
            "        k = " + key,
            "        if k not in hit:",
            "            hit[k] = " + entry]


def _lazy_lines(w: _Write) -> list[str]:
    """For the enumerator :func:`_all_at_once` writes, where its source is too long to be
    remembered (thousands of a hand's subsets, in canonical order) or longer than LAZY_MIN
    (a hand's 286 passes, seldom met twice): the lines that return a
    lazy :class:`LegalMap` instead, which builds what is asked of it (the events for
    ``legal_actions``, one entry for ``apply_index``, one key for ``apply``) and its keys and
    entries only when a reader needs the whole map. A playout reads one event of 4,096; the
    keys and entries it never reads were most of the decision's time and garbage."""
    tail = ", _alt, _sf0)"
    if not (w.entry.startswith("(") and w.entry.endswith(tail)):
        return []
    event = w.entry[1:-len(tail)]
    return [f"if (_ck is None or len(_s0) > {LAZY_MIN}) and _s0.ordered and not out "
            "and len(_s0):",
            "    hit = _LegalMap()",
            f"    hit.lazy = _LazySets(lambda _sj0: {w.key},",
            f"                         lambda: [{event} for _sf0 in _s0.sets],",
            "                         _s0.sets, _s0.texts, _alt,",
            f"                         lambda _sf0: {event})",
            # remembered as an eager map is (a simultaneous decision lists a seat's hand at
            # every seat's turn): one map, its events made once, written once if ever
            "    if _ck is not None:",
            "        _MEMO_N[0] += len(_s0)",
            "        if _MEMO_N[0] > _MEMO_MAX:",
            "            _MEMO.clear()",
            "            _MEMO_N[0] = len(_s0)",
            "        _MEMO[_ck] = hit",
            "    return hit"]


def _conjuncts(e: ast.Expr) -> list[ast.Expr]:
    e = walk.uncited(e)
    if isinstance(e, ast.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _names_in(e: object) -> set[str]:
    return {x.id for x in walk.descendants(e) if isinstance(x, ast.Name)}
