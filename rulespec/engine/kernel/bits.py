"""Zones of distinct cards mirrored as int bit sets, and a decision's guard over one as a mask.

The kernel keeps every zone as the engine's list (what its expressions, the engine's enumerators
and chance functions read and write), and, for a zone that the analysis (``zones.py``) calls
distinct and that some listing reads, an int beside it: bit ``i`` set where the ``i``-th card
of the deck (numbered in the canonical order of the events that name them,
:func:`~rulespec.engine.kernel.listing.sort_text`) is in the zone. The mirror is kept by list
identity (``st.zb[id(list)]``), so a move, fill or deal through any expression keeps it, and a
deal or a chance event that moves cards (the engine's functions) is followed by a resync.
Since every list stays as it is, in its order, a reader the kernel does not write as a bit
operation reads the list: the fallback is the engine's own code, never a wrong answer; and a
zone need not be order-free to be mirrored (a listing's events are in canonical order
whatever the hand's).

What reads the mirror: a decision's listing (``play(card = c) for c in hand[h] if legal(h,
c)``) whose guard's tests on ``c`` are on its suit, its rank or itself, combined by ``and``,
``or``, ``not`` and ``if``, and on other values (the suit led, whether a suit may be led yet,
``any``/``all``/``count`` over a mirrored zone of a test of that shape): the guard becomes
one mask (``hand & SUIT[led]``), each value it reads evaluated once, and the legal cards
are the mask's set bits, already in canonical order. Where the mask's evaluation raises, the
listing's ``except`` tests each card as the engine does (lower.py), so an error is the
engine's, where it is.
"""

from __future__ import annotations

import ast as pyast
import operator
import re
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar, cast

from rulespec.engine.kernel.listing import reads, sort_text
from rulespec.lang import ast
from rulespec.lang.decks import Deck
from rulespec.lang.model import BoundBuiltin, BoundZone, pos
from rulespec.lang.types import Card

__all__ = ["COMPARE", "BitDeck", "Bits", "chunk_subsets"]

_T = TypeVar("_T")

#: the comparisons a rank is tested by, and each with its sides swapped
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge}
_SWAP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


class BitDeck:
    """The deck's cards as bits: bit ``i`` the ``i``-th card in the order of its events' texts,
    with a mask per suit and per rank (what the generated code reads as ``_BIT``, ``_SM`` ...)."""

    def __init__(self, deck: Deck) -> None:
        codes = sorted(deck.order, key=lambda c: sort_text(c, ","))
        #: whether the order is the same whatever follows the value in the key (``,`` or
        #: ``}``): only then is the k-th set bit the k-th event of every listing
        self.ordered = codes == sorted(codes, key=lambda c: sort_text(c, "}"))
        self.codes = tuple(codes)
        self.bit = {c: 1 << i for i, c in enumerate(codes)}
        self.all = (1 << len(codes)) - 1
        self.suit: dict[object, int] = {}
        self.rank: dict[object, int] = {}
        for c, b in self.bit.items():
            s, r = deck.suit_of[c], deck.rank_of[c]
            self.suit[s] = self.suit.get(s, 0) | b
            self.rank[r] = self.rank.get(r, 0) | b
        self._rank_cmp: dict[tuple[str, object], int] = {}
        #: the cards of each 13 bits of a mask, by those bits: a mask's cards are a few
        #: lookups, without a loop (8,192 tuples a table, made once for the deck)
        self.chunks = [chunk_subsets(self.codes[i:i + _CHUNK])
                       for i in range(0, len(self.codes), _CHUNK)]

    def cards(self, m: int) -> tuple[str, ...]:
        """The cards of the mask ``m``, in canonical order."""
        out: tuple[str, ...] = ()
        for i, t in enumerate(self.chunks):
            out += t[m >> (_CHUNK * i) & _LOW]
        return out

    def cards_src(self, m: str) -> str:
        """Python source of :meth:`cards` of the mask whose source is ``m`` (read once)."""
        parts = [f"_C0[(_mm := {m}) & {_LOW}]"]
        parts += [f"_C{i}[_mm >> {_CHUNK * i} & {_LOW}]" for i in range(1, len(self.chunks))]
        return " + ".join(parts)

    def bits(self, xs: Iterable[str]) -> int:
        """The mask of the cards ``xs`` (distinct: a zone the mirror keeps has no copies)."""
        bit = self.bit
        n = 0
        m = 0
        for c in xs:
            m |= bit[c]
            n += 1
        if m.bit_count() != n:
            raise AssertionError("a zone kept as a bit set holds two copies of a card")
        return m

    def rank_cmp(self, op: str, x: object) -> int:
        """The cards whose rank ``op`` ``x`` holds (compared as the engine compares them, so
        a value of another type raises what the engine's test raises)."""
        key = (op, x)
        got = self._rank_cmp.get(key)
        if got is None:
            f = COMPARE[op]
            got = 0
            for r, m in self.rank.items():
                if r is not None and f(r, x):
                    got |= m
            self._rank_cmp[key] = got
        return got

    def runtime(self) -> dict[str, object]:
        """The names the generated code reads."""
        out: dict[str, object] = {
            "_BIT": self.bit, "_ALLC": self.all, "_SM": self.suit, "_RM": self.rank,
            "_rcmp": self.rank_cmp, "_cards": self.cards, "_bits": self.bits, "_sel": _sel}
        out.update((f"_C{i}", t) for i, t in enumerate(self.chunks))
        return out


#: the bits a table of :attr:`BitDeck.chunks` is indexed by
_CHUNK = 13
_LOW = (1 << _CHUNK) - 1


def chunk_subsets(items: tuple[_T, ...]) -> list[tuple[_T, ...]]:
    """Every subset of ``items`` (at most ``_CHUNK``), in order, at the index of its bits."""
    out: list[tuple[_T, ...]] = [()]
    for i, c in enumerate(items):
        out += [t + (c,) for t in out[:1 << i]]
    return out


_DECKS: dict[Deck, BitDeck] = {}


def bit_deck(deck: Deck) -> BitDeck:
    """The deck's bits, made once a process (the chunks' tables are 40,000 tuples for a pack
    of 52)."""
    got = _DECKS.get(deck)
    if got is None:
        got = _DECKS[deck] = BitDeck(deck)
    return got


def _sel(c: int, t: int, f: int) -> int:
    """``if c then t else f`` card by card: ``t``'s cards where ``c`` holds, ``f``'s elsewhere."""
    return (c & t) | (f & ~c)


def _join(a: str, b: str, every: bool) -> str:
    """``a & b`` (``every``) or ``a | b``, a constant side folded."""
    unit, zero = ("_ALLC", "0") if every else ("0", "_ALLC")
    if zero in (a, b):
        return zero
    if a == unit:
        return b
    if b == unit:
        return a
    return f"({a} {'&' if every else '|'} {b})"


def _fixed(deck: BitDeck, what: str, op: str, x: object) -> int:
    """The mask of a test of the card (``what``: the card, its suit or its rank) against the
    constant ``x``."""
    if what == "rank":
        return deck.rank_cmp(op, x)
    if op in ("in", "not in"):
        m = deck.bits(c for c in set(x) if c in deck.bit)  # type: ignore[call-overload]
    else:
        table = deck.bit if what == "card" else deck.suit
        m = table.get(x, 0)  # type: ignore[call-overload]
    return deck.all ^ m if op in ("!=", "not in") else m


class _Lowering(Protocol):
    """What the bit sets read of the kernel's lowering (lower.py)."""

    ec: Any

    def src(self, e: ast.Expr, local: frozenset[str], py: frozenset[str] = ...) -> str: ...

    def unfold(self, e: ast.Expr) -> ast.Expr: ...

    def emit(self, line: str, d: int, span: ast.Span | None = None) -> None: ...

    def obj(self, x: object) -> str: ...

    @property
    def lines(self) -> list[str]: ...


class Bits:
    """The bit sets of one table's lowering: which zones may be mirrored (``candidates``),
    which are (``mirrored``: those a listing reads), the masks and the mirror's upkeep."""

    def __init__(self, low: _Lowering, candidates: frozenset[str]) -> None:
        self.low = low
        self.ec = low.ec
        self.deck = bit_deck(low.ec.spec.deck)
        #: the listing's zone's source, and the name its bits are read into (see listing)
        self.listing_src: tuple[str, str, str] | None = None
        #: the zones of distinct cards, where the deck's order is every listing's
        self.candidates = candidates if self.deck.ordered else frozenset()
        self.mirrored: set[str] = set()
        #: the zones the listing being written reads (mirrored if it is written as masks)
        self._wants: set[str] = set()
        #: while a listing's masks are written: each value's source and its temporary
        self._hoist: dict[str, str] | None = None
        #: the lines that keep bits, by their numbers, and the zones whose bits (see kept)
        self.keeps: dict[int, frozenset[str]] = {}

    # ---- which zone ------------------------------------------------------------------------
    def zone(self, e: ast.Expr) -> str | None:
        """The zone ``e`` is (``hand[h]``, ``cards_of(h)`` unfolded, ``trick``), else None."""
        e = self.low.unfold(e)
        if isinstance(e, ast.Index):
            e = self.low.unfold(e.target)
        if not hasattr(e, "id") or not hasattr(e, "span"):
            return None
        b = self.ec.resolution.bindings.get(pos(e.span))
        return b.name if isinstance(b, BoundZone) else None

    def listed_zone(self, e: ast.Expr) -> ast.Expr:
        """What a listing's values come from as a zone: ``set_of(hand[p])`` is ``hand[p]``'s
        cards, in canonical order, each once (for a zone of distinct cards, its bits)."""
        u = self.low.unfold(e)
        if isinstance(u, ast.Call) and u.func == "set_of" and len(u.args) == 1 and \
                self.ec.resolution.bindings.get(pos(u.span)) == BoundBuiltin("set_of"):
            return u.args[0]
        return e

    def candidate(self, e: ast.Expr) -> str | None:
        """The zone ``e`` is, where it may be mirrored."""
        z = self.zone(e)
        return z if z in self.candidates else None

    def touches(self, e: ast.Expr) -> bool:
        """Whether a statement writing ``e`` may write a mirrored zone: ``e`` is a candidate,
        or a zone the lowering cannot name."""
        return bool(self.candidates) and (self.zone(e) is None or
                                          self.zone(e) in self.candidates)

    # ---- masks -----------------------------------------------------------------------------
    def listing(self, conds: list[ast.Expr], var: str, local: frozenset[str], zone: str,
                out: str, d: int, span: ast.Span) -> bool:
        """``out = `` the cards of the zone in ``_xs`` for which every one of ``conds`` holds,
        as masks over its bits; False, and nothing written, where one is not of a form a
        mask covers. A test that reads no card, alone or among the ``or``s of a conjunct
        (the trick is empty, the first trick), is a Python ``if`` around the masks, so that
        what it guards is read only where it holds; in each branch the values the masks read
        (the suit led) are computed once before them, as the engine's enumerators hoist
        them (should one raise, the listing's ``except`` tests card by card)."""
        self._wants = {zone}
        cnf = [self._parts(x, ast.Or) for c in conds for x in self._parts(c, ast.And)]
        tree = self._compiled(self._plan(cnf, var, 0), var, local)
        if tree is None:
            return False
        self.mirrored |= self._wants
        assert self.listing_src is not None
        self.low.emit(f"_xb = B[id({self.listing_src[2]})]", d, span)
        self._emit(tree, out, d, span)
        return True

    def _parts(self, e: ast.Expr, op: type[ast.And] | type[ast.Or]) -> list[ast.Expr]:
        """``a or b or c`` (``op`` Or) as ``[a, b, c]``, in the order written, definitions
        unfolded; any other test as itself."""
        e = self.low.unfold(e)
        if isinstance(e, op):
            return self._parts(e.left, op) + self._parts(e.right, op)
        return [e]

    def _plan(self, cnf: list[list[ast.Expr]], var: str, depth: int) -> tuple[Any, ...]:
        """The conjuncts (each a list of disjuncts) as a tree: ``("if", test, then, else)``
        on the first test that reads no card, ``("leaf", cnf)`` where none is left (or past
        three levels: eight masks at most)."""
        if depth < 3:
            for i, ors in enumerate(cnf):
                j = next((k for k, x in enumerate(ors) if not reads(x, var)), None)
                if j is None:
                    continue
                rest = cnf[:i] + cnf[i + 1:]
                if len(ors) == 1:
                    return ("if", ors[0], self._plan(rest, var, depth + 1), ("none",))
                others = [x for k, x in enumerate(ors) if k != j]
                return ("if", ors[j], self._plan(rest, var, depth + 1),
                        self._plan(rest[:i] + [others] + rest[i:], var, depth + 1))
        return ("leaf", cnf)

    def _compiled(self, tree: tuple[Any, ...], var: str, local: frozenset[str]
                  ) -> tuple[Any, ...] | None:
        """The tree's tests and masks as sources; None where one has no mask."""
        if tree[0] == "none":
            return tree
        if tree[0] == "if":
            test = self.value(tree[1], local, frozenset())
            if test in ("True", "False"):
                # an option: the branch the table takes, alone
                return self._compiled(tree[2] if test == "True" else tree[3], var, local)
            then, else_ = self._compiled(tree[2], var, local), self._compiled(tree[3], var,
                                                                              local)
            if test is None or then is None or else_ is None:
                return None
            return ("if", test, then, else_)
        self._hoist = {}
        try:
            parts = []
            for ors in tree[1]:
                ms = [self.mask(x, var, local, frozenset()) for x in ors]
                if any(m is None for m in ms):
                    return None
                m = "0"
                for x in ms:
                    m = _join(m, cast(str, x), False)
                parts.append(m)
            m = "_ALLC"
            for x in parts:
                m = _join(m, x, True)
            return ("leaf", [(n, v) for v, n in self._hoist.items()], m)
        finally:
            self._hoist = None

    def _emit(self, tree: tuple[Any, ...], out: str, d: int, span: ast.Span) -> None:
        low = self.low
        match tree:
            case ("none",):
                low.emit(f"{out} = ()", d, span)
            case ("if", test, then, else_):
                low.emit(f"if {test}:", d, span)
                self._emit(then, out, d + 1, span)
                low.emit("else:", d)
                self._emit(else_, out, d + 1, span)
            case ("leaf", hoisted, m):
                for n, v in _live(hoisted, m):
                    low.emit(f"{n} = {v}", d, span)
                low.emit(f"{out} = {self.deck.cards_src('_xb' if m == '_ALLC' else '_xb & ' + m)}",
                         d, span)

    def mask(self, e: ast.Expr, var: str, local: frozenset[str],  # noqa: C901
             bound: frozenset[str]) -> str | None:
        """The mask of the cards ``var`` for which ``e`` holds (see the module docstring);
        ``bound`` names the variables of enclosing generators, which the values it reads
        must not (they would change the mask card by card)."""
        e = self.low.unfold(e)
        if not reads(e, var):
            v = self.value(e, local, bound)
            if v is None:
                return None
            return {"True": "_ALLC", "False": "0"}.get(v, f"(_ALLC if {v} else 0)")
        match e:
            case ast.And(left=a, right=b) | ast.Or(left=a, right=b):
                every = isinstance(e, ast.And)
                mb = self.mask(b, var, local, bound)
                if mb is None:
                    return None
                if not reads(a, var):
                    # tested once, and the other side only where the engine's test reads it
                    va = self.value(a, local, bound)
                    if va is None:
                        return None
                    if va in ("True", "False"):
                        return mb if (va == "True") == every else ("0" if every else "_ALLC")
                    return f"({mb} if {va} else 0)" if every else f"(_ALLC if {va} else {mb})"
                ma = self.mask(a, var, local, bound)
                if ma is None:
                    return None
                return _join(ma, mb, every)
            case ast.Not(operand=a):
                ma = self.mask(a, var, local, bound)
                return None if ma is None else f"(_ALLC ^ {ma})"
            case ast.IfExpr(cond=c, then=t, else_=f):
                mt, mf = self.mask(t, var, local, bound), self.mask(f, var, local, bound)
                if mt is None or mf is None:
                    return None
                if not reads(c, var):
                    vc = self.value(c, local, bound)
                    return None if vc is None else f"({mt} if {vc} else {mf})"
                mc = self.mask(c, var, local, bound)
                return None if mc is None else f"_sel({mc}, {mt}, {mf})"
            case ast.Compare(op=op, left=a, right=b):
                return self.compare(op, a, b, var, local, bound)
        return None

    def compare(self, op: str, a: ast.Expr, b: ast.Expr, var: str, local: frozenset[str],
                bound: frozenset[str]) -> str | None:
        """The mask of ``a op b`` where one side reads ``var``: the card itself, its suit or
        its rank against a value; a side ``if c then x else y`` tested branch by branch."""
        a, b = self.low.unfold(a), self.low.unfold(b)
        if reads(b, var):
            if reads(a, var) or op not in _SWAP:
                return None
            a, b, op = b, a, _SWAP[op]
        if isinstance(a, ast.IfExpr):
            # (if c then x else y) == v: x == v where c holds, y == v elsewhere
            mt = self.compare(op, a.then, b, var, local, bound)
            mf = self.compare(op, a.else_, b, var, local, bound)
            if mt is None or mf is None:
                return None
            if not reads(a.cond, var):
                vc = self.value(a.cond, local, bound)
                return None if vc is None else f"({mt} if {vc} else {mf})"
            mc = self.mask(a.cond, var, local, bound)
            return None if mc is None else f"_sel({mc}, {mt}, {mf})"
        if not reads(a, var):
            # a branch pushed down that reads no card: the engine's comparison, once
            va, vb = self.value(a, local, bound), self.value(b, local, bound)
            if va is None or vb is None:
                return None
            return f"(_ALLC if ({va} {op} {vb}) else 0)"
        what = self.card_part(a, var)
        if any(reads(b, x) for x in bound):
            return None
        ok, kb = self.ec.const(b, frozenset(), local)
        if ok and what is not None:
            # a constant (a suit, a card, a rank): the mask worked out now; one the test
            # cannot compare with (a rank below none) is left to the card-by-card test,
            # which raises where the engine's does
            try:
                return str(_fixed(self.deck, what, op, kb))
            except TypeError:
                return None
        vb = self.value(b, local, bound)
        if vb is None:
            return None
        if what == "card" and op in ("==", "!="):
            m = f"_BIT.get({vb}, 0)"
        elif what == "card" and op in ("in", "not in"):
            m = f"_bits(set({vb}) & _BIT.keys())"
        elif what == "suit" and op in ("==", "!="):
            m = f"_SM.get({vb}, 0)"
        elif what == "rank" and op in ("==", "!="):
            m = f"_RM.get({vb}, 0)"
        elif what == "rank" and op in COMPARE:
            m = f"_rcmp({op!r}, {vb})"
        else:
            return None
        return f"(_ALLC ^ {m})" if op in ("!=", "not in") and "_rcmp" not in m else m

    def card_part(self, e: ast.Expr, var: str) -> str | None:
        """``card`` where ``e`` is the card ``var`` itself, ``suit`` or ``rank`` where it is
        the built-in of it; else None."""
        e = self.low.unfold(e)
        if isinstance(e, ast.Name) and e.id == var:
            return "card"
        if isinstance(e, ast.Call) and len(e.args) == 1 and e.func in ("suit", "rank") and \
                self.ec.resolution.bindings.get(pos(e.span)) == BoundBuiltin(e.func) and \
                self.card_part(e.args[0], var) == "card":
            return e.func
        return None

    def value(self, e: ast.Expr, local: frozenset[str], bound: frozenset[str]) -> str | None:
        """The source of ``e``, which reads no card of the mask: ``any``/``all``/``count``
        over a mirrored zone as a mask of its cards, anything else the engine's expression;
        None where it reads a generator's variable of ``bound``. While a listing's masks are
        written, a value that is not a name or a constant is a temporary computed before
        them (``_vK``), once however often they read it."""
        v = self._value(e, local, bound)
        if v is None or self._hoist is None or v in ("True", "False") or \
                re.fullmatch(r"\(?[\w.]+\)?", v):
            return v
        name = self._hoist.get(v)
        if name is None:
            name = self._hoist[v] = f"_v{len(self._hoist)}"
        return name

    def _value(self, e: ast.Expr, local: frozenset[str], bound: frozenset[str]) -> str | None:
        if any(reads(e, b) for b in bound):
            return None
        ok, v = self.low.ec.const(e, frozenset(), local)
        if ok and type(v) is bool:
            return repr(v)
        u = self.low.unfold(e)
        match u:
            case ast.Not(operand=a):
                va = self.value(a, local, bound)
                return None if va is None else f"(not {va})"
            case ast.And(left=a, right=b) | ast.Or(left=a, right=b):
                va, vb = self.value(a, local, bound), self.value(b, local, bound)
                if va is None or vb is None:
                    return None
                return f"({va} {'and' if isinstance(u, ast.And) else 'or'} {vb})"
        if isinstance(u, ast.GenCall) and u.func in ("any", "all", "count") and \
                self.ec.resolution.bindings.get(pos(u.span)) == BoundBuiltin(u.func) and \
                (z := self.candidate(u.source)) is not None:
            m = self.mask(u.elem, u.var, local, bound | {u.var})
            if u.cond is not None and m is not None:
                mc = self.mask(u.cond, u.var, local, bound | {u.var})
                m = None if mc is None else f"({m} & {mc})" if u.func != "all" else \
                    f"(({m}) | (_ALLC ^ {mc}))"
            if m is not None:
                # one operation on the zone's bits: nothing read card by card, so nothing
                # spent of the comprehensions' budget (which bounds elements visited)
                self._wants.add(z)
                xs = self.low.src(u.source, local)
                xb = self.listing_src[1] if self.listing_src is not None and \
                    self.listing_src[0] == xs else f"B[id({xs})]"
                if u.func == "count":
                    return f"({xb} & {m}).bit_count()"
                if u.func == "any":
                    return f"(({xb} & {m}) != 0)"
                return f"(({xb} & {m}) == {xb})" if xb.startswith("_") else \
                    f"(((_xa := {xb}) & {m}) == _xa)"
        return f"({self.low.src(e, local)})"

    # ---- the mirror's upkeep ---------------------------------------------------------------
    def move(self, s: ast.Move, what: str, src: str, dst: str, distinct: frozenset[str],
             d: int) -> bool:
        """``move``: the engine's move (one card from a zone of distinct cards moved in place:
        it is there once or not at all), then the mirrors of both lists changed by the cards
        moved: each line marked with the zones it keeps (see :func:`kept`), by the list's
        identity where the zone cannot be named. False where the kernel's usual move is it."""
        one = isinstance(self.ec.type_of(s.what), Card)
        zs, zd = self.zone(s.src), self.zone(s.dst)
        keep = [z for z in (zs, zd) if z in self.candidates]
        unknown = bool(self.candidates) and (zs is None or zd is None)
        inline = one and zs in distinct
        whole = what == src  # move trick from trick to ...: every card, in order
        if not (keep or unknown or inline or whole):
            return False
        low = self.low
        put = "_zd.insert(0, _w)" if s.bottom else "_zd.append(_w)"
        if what == f"{src}[-1]":
            # the top card (a draw, a card dealt one by one): taken off the end
            low.emit(f"_zs = {src}; _w = _zs[-1]; _zd = {dst}; del _zs[-1]; {put}", d, s.span)
        elif whole:
            # what move_cards does card by card, at once: each card is in the zone, taken
            # out (the zone ends empty) and put on the other in the zone's order
            put = "_zd[:0] = _w[::-1]" if s.bottom else "_zd.extend(_w)"
            low.emit(f"_zs = {src}; _w = tuple(_zs); _zd = {dst}; _zs.clear(); {put}", d,
                     s.span)
        elif inline:
            low.emit(f"_w = {what}; _zs = {src}; _zd = {dst}", d, s.span)
            low.emit(f"if _w in _zs: _zs.remove(_w); {put}", d, s.span)
            low.emit(f"else: _move(_w, _zs, _zd, {s.bottom}, {low.obj(s.span)})", d, s.span)
        else:
            low.emit(f"_w = {what}; _zs = {src}; _zd = {dst}", d, s.span)
            if not one:
                # the cards, before a move of a zone empties it (a value the checker does not
                # type as a card may still be one)
                low.emit("_w = _w if type(_w) is str else tuple(_w)", d)
            low.emit(f"_move(_w, _zs, _zd, {s.bottom}, {low.obj(s.span)})", d, s.span)
        if keep or unknown:
            m = "_BIT[_w]" if one else "_BIT[_w] if type(_w) is str else _bits(_w)"
            self._keep(f"_m = {m}", d, None if unknown else keep)
        for z, side, op in ((zs, "_zs", "&= ~_m"), (zd, "_zd", "|= _m")):
            if z is None and self.candidates:
                low.emit(f"if (_k := id({side})) in B: B[_k] {op}", d)
            elif z in self.candidates:
                self._keep(f"B[id({side})] {op}", d, [z])
        return True

    def fill(self, s: ast.Fill, zone: str, cards: str, d: int) -> bool:
        """``fill``: the engine's, then the zone's mirror made again from its list."""
        z = self.zone(s.zone)
        if not self.candidates or (z is not None and z not in self.candidates):
            return False
        # emptied (a new deal's hands, a trick as it starts): nothing to spend or count
        empty = isinstance(s.cards, ast.ListLit) and not s.cards.items
        self.low.emit(f"_z = {zone}; st.in_play -= len(_z); _z.clear()" if empty else
                      f"_z = {zone}; _fill(st, _z, {cards})", d, s.span)
        bits = "0" if empty or self.ec.const(s.cards)[:2] == (True, ()) else "_bits(_z)"
        if z is None:
            self.low.emit(f"if (_k := id(_z)) in B: B[_k] = {bits}", d, s.span)
        else:
            self._keep(f"B[id(_z)] = {bits}", d, [z])
        return True

    def dealt(self, src: ast.Expr, src_text: str, zone: str, d: int) -> None:
        """After a deal (the engine's, card by card into the lists): the mirrors of the hands
        dealt to and of the zone dealt from made again from their lists."""
        if zone in self.candidates:
            self._keep(f"for _z in Z[{zone!r}]: B[id(_z)] = _bits(_z)", d, [zone])
        z = self.zone(src)
        if z in self.candidates:
            self._keep(f"_z = {src_text}; B[id(_z)] = _bits(_z)", d, [cast(str, z)])
        elif z is None and self.candidates:
            self.low.emit(f"_z = {src_text}", d)
            self.low.emit("if (_k := id(_z)) in B: B[_k] = _bits(_z)", d)

    def _keep(self, line: str, d: int, zones: Iterable[str] | None) -> None:
        """Emit ``line``, which keeps the bits of ``zones`` (None: of lists it names by their
        identity, always kept): noted by its number, so that the lowering drops it where no
        listing reads those zones (a note beside the text, which no spec's string can
        forge)."""
        self.low.emit(line, d)
        if zones is not None:
            self.keeps[len(self.low.lines) - 1] = frozenset(zones)

    def resync(self, d: int) -> None:
        """After a deal or a chance event (the engine's functions, which move cards in lists
        the kernel does not see): every mirror made again from its list."""
        if self.candidates:
            self._keep("for _z in st.zl: B[id(_z)] = _bits(_z)", d, sorted(self.candidates))


def _live(hoisted: list[tuple[str, str]], m: str) -> list[tuple[str, str]]:
    """The temporaries to work out before the mask ``m``: those it reads, directly or
    through another, and any that may raise. One the masks came to leave out (a trump's
    suit, where the table's rules never oblige a trump) and that cannot raise is not worked
    out; one that can raise stays, since the engine may evaluate it before a test that makes
    it unneeded (``x or true``), and its error sends the listing to the engine's order."""
    need = set(re.findall(r"\b_v\d+\b", m))
    out = []
    for n, v in reversed(hoisted):
        if n in need or not cannot_raise(v):
            need.update(re.findall(r"\b_v\d+\b", v))
            out.append((n, v))
    return out[::-1]


def cannot_raise(src: str) -> bool:
    """Whether the source only reads the rules' variables (``V['x']``), names and constants,
    compared for equality and joined by ``and``/``or``/``not``."""
    safe = (pyast.Expression, pyast.Name, pyast.Constant, pyast.Load, pyast.BoolOp,
            pyast.And, pyast.Or, pyast.UnaryOp, pyast.Not, pyast.Compare, pyast.Eq,
            pyast.NotEq, pyast.Is, pyast.IsNot)
    for n in pyast.walk(pyast.parse(src, mode="eval")):
        if isinstance(n, pyast.Subscript):
            if not (isinstance(n.value, pyast.Name) and n.value.id == "V" and
                    isinstance(n.slice, pyast.Constant) and type(n.slice.value) is str):
                return False
        elif not isinstance(n, safe):
            return False
    return True


def kept(line: str, zones: frozenset[str] | None, mirrored: frozenset[str]) -> str:
    """``line`` as the kernel runs it: a line that keeps the bits of ``zones`` only (see
    :meth:`Bits._keep`), none of which a listing reads, made ``pass`` (in place, so that the
    lines' numbers stay the same)."""
    if zones is None or zones & mirrored:
        return line
    return line[:len(line) - len(line.lstrip())] + "pass"
