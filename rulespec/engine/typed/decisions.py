"""The typed lowering's decisions (``lower.py``'s other half): a decision's legal events
listed and counted, the seat asked, what was chosen bound, and each alternative's body.

A decision over one zone's cards is listed by a mask (``masks.py``) and the card chosen is
the ``k``-th set bit; a decision over a hand's subsets is counted by binomials and the subset
chosen worked out from its number; any other decision of alternatives that bind at most one
value each is listed block by block in the canonical order of its events' keys
(``kernel.listing.blocks``), the event chosen found by its number.
"""

from __future__ import annotations

import ast as pyast
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulespec.engine.codegen.pyexec import pyname
from rulespec.engine.kernel.listing import SortTexts, Template, blocks, key_template, split
from rulespec.engine.kernel.lower import Unsupported
from rulespec.engine.typed.cards import TypedDeck
from rulespec.engine.typed.exprs import Env, TypedExprs
from rulespec.engine.typed.masks import Masks
from rulespec.lang import ast, walk

__all__ = ["Decisions"]


class Decisions:
    """The decisions of :class:`~rulespec.engine.typed.lower._Lowering` (its base)."""

    x: TypedExprs
    masks: Masks
    deck: TypedDeck
    #: see _Lowering
    listed: tuple[str, str] | None
    seats: set[str]
    actions: bool

    if TYPE_CHECKING:
        def emit(self, line: str, d: int) -> None: ...

        def shared(self, src: str) -> str: ...

        def obj(self, x: object) -> str: ...

        def src(self, e: ast.Expr, env: Env) -> str: ...

        def block(self, b: ast.Block, env: Env, d: int) -> None: ...

        def looped(self, run: Callable[[], None], bodies: list[ast.Block], d: int) -> None: ...

    def choose(self, s: ast.Choose, env: Env, d: int) -> None:
        alts = list(s.alternatives)
        if s.together is not None:
            q = self.x.fresh(pyname(s.together))
            self.emit("_held = []", d)
            self.emit(f"for {q} in _tseats({self.x.value(s.seat, env)}, _H, {self.obj(s.span)}):",
                      d)
            inner = {**env, s.together: (q, "int")}
            got, out = self.listing(alts, inner, q, d + 1)
            self.acted(alts, out, d + 1)
            self.emit(f"_held.append(({q}, {out}))", d + 1)
            self.emit(f"for {q}, {out} in _held:", d)
            self.looped(lambda: self.bodies(alts, got, inner, d + 1, out),
                        [a.body for a in alts], d)
            return
        q = self.src(s.seat, env)
        if q not in self.seats:
            q = self.x.fresh("q")
            self.emit(f"{q} = {self.src(s.seat, env)}", d)
            self.emit(f"if type({q}) is not int or not 0 <= {q} < _H: raise _BadSeat", d)
        got, out = self.listing(alts, env, q, d)
        self.acted(alts, out, d)
        self.bodies(alts, got, env, d, out)

    def acted(self, alts: list[ast.Alternative], chosen: str, d: int) -> None:
        """Where the table was lowered with its actions: the action chosen left in
        ``st.act`` (what ``apply_index`` returns), once the choice is known."""
        if not self.actions:
            return
        if chosen == "(_a, _v)":
            self.emit(f"st.act = {tuple(a.action for a in alts)!r}[_a]", d)
        else:
            self.emit(f"st.act = {alts[0].action!r}", d)

    def listing(self, alts: list[ast.Alternative], env: Env, q: str, d: int
                ) -> tuple[list[Chosen], str]:
        """The legal events of the decision counted, the seat asked, and what was chosen
        left in a Python name (returned): the value the one alternative binds, or the number
        of the alternative chosen (``_a``, its value ``_v``). For each alternative, the
        variable its value binds (its Python name and kind), or None."""
        if len(alts) == 1 and len(alts[0].generators) == 1:
            a = alts[0]
            g = a.generators[0]
            src = walk.uncited(g.source)
            if isinstance(src, ast.Call) and src.func == "subsets":
                got = self.subsets(a, env, q, d)
                return [got], got[0]
            if self.x.kind(g.source) in ("zone", "cards") and self.card_var(a, env):
                cv = self.x.fresh(pyname(g.var))
                self.mask(a, env, cv, d)
                self.emit("_n = _m.bit_count()", d)
                self.emit("if not _n: raise _NoneLegal", d)
                # the k-th card of the mask: k times its lowest bit dropped (a while, not a
                # range: the first card, the commonest, costs one test)
                self.emit(f"_k = yield ({q}, _n)", d)
                self.emit("while _k: _m &= _m - 1; _k -= 1", d)
                self.emit("_t = 0", d)
                self.emit(f"{cv} = (_m & -_m).bit_length() - 1", d)
                self.listed = (cv, self.x.src(g.source, env))
                return [(cv, "card")], cv
        if not self.in_blocks(alts, env):
            return self.listed_by_keys(alts, env, q, d)
        return self.listed_all(alts, env, q, d)

    def in_blocks(self, alts: list[ast.Alternative], env: Env) -> bool:
        """Whether the decision's events can be listed block by block (listed_all): each
        alternative of one generator at most, over a zone's cards or numbers, suits, texts
        or truths, its fields that value or constants, the order of the blocks known from
        their keys."""
        if any(len(a.generators) > 1 for a in alts):
            return False
        for a in alts:
            if a.generators and self.x.element_kind(a.generators[0].source) not in (
                    "card", "int", "bool", "suit", "str"):
                return False
        templates = [key_template(a, a.generators[0].var if a.generators else None,
                                  lambda e: self.x.folded(e, env)) for a in alts]
        return blocks(templates) is not None

    def listed_by_keys(self, alts: list[ast.Alternative], env: Env, q: str, d: int
                       ) -> tuple[list[Chosen], str]:
        """Any decision, the general way: every combination of each alternative's
        generators, in the order written, that passes its guard (each conjunct tested in
        the loop of the innermost generator it reads, as the engine's enumerators test it)
        makes an event
        with the engine's values, and its key as the engine writes it (the first
        alternative to write a key keeps it); the events in the order of their keys, the
        chosen one's alternative and values (``_a``, ``_v``). Slower than the blocks (a text
        for each event): for the rarer decisions (laying melds down, a bid of several
        values)."""
        self.emit("_ev = {}", d)
        got: list[Chosen] = []
        for i, a in enumerate(alts):
            names: list[tuple[str, str, str]] = []
            inner = dict(env)
            # each conjunct tested in the loop of the innermost generator it reads (before
            # the loops where it reads none), in the order written: where the engine's
            # enumerators test it (enumerators._levels), before the next generator's list
            levels: list[list[ast.Expr]] = [[] for _ in range(len(a.generators) + 1)]
            for c in _conjuncts(a.guard):
                levels[max((j + 1 for j, g in enumerate(a.generators)
                            if _reads_any(c, {g.var})), default=0)].append(c)
            dd = d
            for j in range(len(a.generators) + 1):
                if j:
                    g = a.generators[j - 1]
                    it, ek = self.x.iterable(g.source, inner)
                    py = self.x.fresh(pyname(g.var))
                    self.emit(f"for {py} in {it}:", dd)
                    dd += 1
                    inner[g.var] = (py, ek)
                    names.append((g.var, py, ek))
                if levels[j]:
                    self.emit(f"if {' and '.join(self.src(c, inner) for c in levels[j])}:",
                              dd)
                    dd += 1
            fields = "".join(f"{f.name!r}: {self.engine_value(f.value, inner)}, "
                             for f in a.fields)
            vals = "(" + "".join(py + ", " for _, py, _ in names) + ")"
            self.emit(f"_ek = _ckey({{'action': {a.action!r}, 'seat': {q}, {fields}}})", dd)
            self.emit(f"if _ek not in _ev: _ev[_ek] = ({i}, {vals})", dd)
            got.append(names or None)
        self.emit("_es = sorted(_ev)", d)
        self.emit("_n = len(_es)", d)
        self.emit("if not _n: raise _NoneLegal", d)
        self.emit(f"_a, _v = _ev[_es[(yield ({q}, _n))]]", d)
        self.emit("_t = 0", d)
        return got, "(_a, _v)"

    def engine_value(self, e: ast.Expr, env: Env) -> str:
        """``e`` as the engine's event holds it (a card its code, cards a list of codes)."""
        s, k = self.x.expr(e, env)
        # _CN: each card's code by its number, and none as none (a card that may be none)
        match k:
            case "card":
                return f"_CN[{s}]"
            case "zb":
                return f"[_CODE[c] for c in _cardsof({s})]"
            case "cards" | "zl":
                return f"[_CN[c] for c in {s}]"
            case "melds":
                return f"[[_CN[c] for c in m] for m in {s}]"
            case "int" | "bool" | "str" | "suit" | "none":
                return s
        raise Unsupported(f"an event's field of kind {k}")

    def listed_all(self, alts: list[ast.Alternative], env: Env, q: str, d: int
                   ) -> tuple[list[Chosen], str]:
        """A decision of several alternatives (or of one over numbers, suits ...): each
        alternative's values that pass its guard (or whether its guard holds), tested in the
        order written, as the engine's enumerators test them, then the events in canonical
        order, block by block (``kernel.listing.blocks``: the order known from the events'
        keys; of two alternatives writing one event, the first that holds), each an
        (alternative, value) pair."""
        templates: list[Template | None] = [self.template(a, env) for a in alts]
        order = blocks(templates)
        if order is None:
            raise Unsupported("alternatives whose order the values decide")
        got: list[Chosen] = []
        #: the alternatives of no generator whose guard always holds (no test written)
        always: set[int] = set()
        for i, a in enumerate(alts):
            if not a.generators:
                test = self.src(a.guard, env) if a.guard else "True"
                if test == "True":
                    always.add(i)
                else:
                    self.emit(f"_b{i} = {test}", d)
                got.append(None)
                continue
            g = a.generators[0]
            tp = templates[i]
            assert tp is not None and tp.listing is not None
            t = tp.listing
            ek = self.x.element_kind(g.source)
            cv = self.x.fresh(pyname(g.var))
            got.append((cv, ek))
            if ek == "card" and self.x.kind(g.source) in ("zone", "cards"):
                self.mask(a, env, cv, d)
                self.emit(f"_b{i} = {self.deck.cards_expr('_m')}", d)
                continue
            if ek not in ("int", "bool", "suit", "str"):
                raise Unsupported(f"a decision over values of kind {ek}")
            inner = {**env, g.var: (cv, ek)}
            it, _ = self.x.iterable(g.source, env)
            free, each = split(a.guard, g.var)
            pre = " and ".join(self.src(c, inner) for c in free) or "True"
            cond = " and ".join(self.src(c, inner) for c in each)
            fixed = None if cond else _sorted_now(it, SortTexts(t[1]))
            if fixed is not None:
                # values the table fixes, unguarded: their order worked out now
                self.emit(f"_b{i} = {self.obj(fixed)} if {pre} else ()", d)
                continue
            values = f"[{cv} for {cv} in {it}{' if ' + cond if cond else ''}]"
            table = self.obj(SortTexts(t[1]))
            self.emit(f"_b{i} = sorted(dict.fromkeys({values}), key={table}.__getitem__) "
                      f"if {pre} else []", d)
        self.chosen(order, got, q, d, always)
        return got, "(_a, _v)"

    def chosen(self, order: list[list[int]], got: list[Chosen], q: str,
               d: int, always: set[int]) -> None:
        """The events counted block by block, the seat asked, and the one chosen found by its
        number (``_a, _v``: the alternative and its value), with no list of them made: a
        block without a generator is the first of its alternatives that holds (``_fK``, -1
        for none; ``always`` those that hold whatever the state), one with a generator its
        values."""
        if all(got[b[0]] is None and b[0] in always for b in order):
            # events the table fixes (pass, or order up): the k-th is the k-th block's
            self.emit(f"_k = yield ({q}, {len(order)})", d)
            self.emit("_t = 0", d)
            self.emit(f"_a, _v = {tuple(b[0] for b in order)!r}[_k], None", d)
            return
        counts = []
        for k, block in enumerate(order):
            if got[block[0]] is not None:
                counts.append(f"len(_b{block[0]})")
                continue
            first = " else ".join(f"{i} if {'True' if i in always else f'_b{i}'}"
                                  for i in block)
            self.emit(f"_f{k} = {first} else -1", d)
            counts.append(f"(_f{k} >= 0)")
        self.emit(f"_n = {' + '.join(counts)}", d)
        self.emit("if not _n: raise _NoneLegal", d)
        self.emit(f"_k = yield ({q}, _n)", d)
        self.emit("_t = 0", d)
        self.emit("while True:", d)
        for k, block in enumerate(order):
            i = block[0]
            if got[i] is not None:
                self.emit(f"if _k < len(_b{i}):", d + 1)
                self.emit(f"_a, _v = {i}, _b{i}[_k]", d + 2)
                self.emit("break", d + 2)
                self.emit(f"_k -= len(_b{i})", d + 1)
            else:
                self.emit(f"if _f{k} >= 0:", d + 1)
                self.emit("if not _k:", d + 2)
                self.emit(f"_a, _v = _f{k}, None", d + 3)
                self.emit("break", d + 3)
                self.emit("_k -= 1", d + 2)
        self.emit("raise _NoneLegal  # past the events counted: not reached", d + 1)

    def template(self, a: ast.Alternative, env: Env) -> Template:
        """What an alternative's events' keys hold before the one value that varies (the
        whole key for an alternative without a generator; the seat a mark, the same for
        every alternative of the decision), as the kernel's lowering reads it."""
        var = a.generators[0].var if a.generators else None
        t = key_template(a, var, lambda e: self.x.folded(e, env))
        if t is None:
            raise Unsupported("a field that is neither the value nor a constant")
        return t

    def card_var(self, a: ast.Alternative, env: Env) -> bool:
        """Whether every field of the alternative is its card or a constant."""
        var = a.generators[0].var
        return self.deck.ordered and all(
            isinstance(e := walk.uncited(f.value), ast.Name) and e.id == var or
            self.x.folded(f.value, env)[0] for f in a.fields)

    def mask(self, a: ast.Alternative, env: Env, cv: str, d: int) -> None:
        """``_m =`` the mask of the cards of the alternative's one generator that pass its
        guard: the tests that read no card first, as the engine's enumerators test them,
        then the rest as masks (``masks.py``), or card by card where a mask raises or the
        guard has no mask's shape."""
        g = a.generators[0]
        src = walk.uncited(g.source)
        if isinstance(src, ast.Call) and src.func == "set_of" and \
                self.x.kind(src.args[0]) == "zone":
            src = src.args[0]  # a zone's distinct cards: the same set, as the same bits
        zs, zk = self.x.expr(src, env)
        inner = {**env, g.var: (cv, "card")}
        free, carded = split(a.guard, g.var)
        self.emit(f"_xb = {zs}" if zk == "zb" else f"_xb = _bitsof({self.x.keep(zs, zk)})", d)
        tests = " and ".join(self.src(c, inner) for c in free) or "True"
        dd = d if tests == "True" else d + 1
        if tests != "True":
            self.emit(f"if {tests}:", d)
        test = " and ".join(self.src(c, inner) for c in carded) or "True"
        # what the cards' tests share (the hand's bits, a value of the state) worked out
        # once, by the first card that needs it
        by_card = f"_m = _bitsof({self.shared(f'[{cv} for {cv} in _cardsof(_xb) if {test}]')})"
        mask = self.masks.of(carded, g.var, inner)
        if mask is None:
            self.emit(by_card, dd)
        else:
            # the masks read their values eagerly: where one raises, the engine's order
            self.emit("try:", dd)
            if zk == "zb" and zs.replace("_", "a").replace("[", "").replace("]", "").isalnum():
                mask = mask.replace(f"({zs})", "_xb").replace(zs, "_xb")
            self.emit(f"_m = _xb & ({self.shared(mask)})", dd + 1)
            self.emit("except Exception:", dd)
            self.emit(by_card, dd + 1)
        if tests != "True":
            self.emit("else:", d)
            self.emit("_m = 0", d + 1)

    def subsets(self, a: ast.Alternative, env: Env, q: str, d: int) -> tuple[str, str]:
        """A decision of one alternative over a hand's subsets (``pass(cards = set_of(cs))
        for cs in subsets(hand[q], 3, 3)``), listed by a SubsetAxis over the hand's codes."""
        g = a.generators[0]
        src = walk.uncited(g.source)
        assert isinstance(src, ast.Call)
        for f in a.fields:
            e = walk.uncited(f.value)
            if not (isinstance(e, ast.Call) and e.func == "set_of") and \
                    not self.x.folded(f.value, env)[0]:
                raise Unsupported("a subset's field")
        xs, lo, hi = (self.x.expr(x, env) for x in src.args)
        if xs[1] != "zb":
            raise Unsupported("the subsets of a zone not kept as a set")
        guard = self.src(a.guard, env) if a.guard is not None else "True"
        self.emit(f"_xm = {xs[0]}; _lo = {lo[0]}; _hi = {hi[0]}", d)
        self.emit(f"_n = _sizes(_xm.bit_count(), _lo, _hi) if {guard} else 0", d)
        self.emit("if not _n: raise _NoneLegal", d)
        cv = self.x.fresh(pyname(g.var))
        self.emit(f"{cv} = _kth(_xm, _lo, _hi, (yield ({q}, _n)))", d)
        self.emit("_t = 0", d)
        return cv, "zb"

    def bodies(self, alts: list[ast.Alternative], got: list[Chosen], env: Env,
               d: int, chosen: str) -> None:
        """Each alternative's body, where it was chosen (``chosen``: what the listing left,
        ``(_a, _v)`` where it numbered the alternatives)."""
        for i, a in enumerate(alts):
            var = got[i]
            if len(alts) > 1:
                self.emit(f"{'el' if i else ''}if _a == {i}:", d)
            dd = d + (len(alts) > 1)
            inner = dict(env)
            if isinstance(var, list):  # listed by keys: each generator's value
                self.emit("(" + "".join(py + ", " for _, py, _ in var) + ") = _v", dd)
                inner.update({g: (py, k) for g, py, k in var})
            elif var is not None:
                if chosen == "(_a, _v)":
                    self.emit(f"{var[0]} = _v", dd)
                inner[a.generators[0].var] = var
            self.block(a.body, inner, dd)



def _sorted_now(it: str, order: SortTexts) -> tuple[object, ...] | None:
    """The values of the literal ``it`` (a tuple the lowering wrote) in their events' order,
    each once; None where ``it`` is not a literal, or a value has no place in the order."""
    try:
        values = pyast.literal_eval(it)
        return tuple(sorted(dict.fromkeys(values), key=order.__getitem__))
    except (ValueError, TypeError, SyntaxError, KeyError, MemoryError, RecursionError):
        return None


#: what a decision's listing leaves for each alternative: the Python name and kind of the
#: value its one generator binds, each generator's (name, Python name, kind) where it was
#: listed by keys, or None for an alternative without a generator
Chosen = tuple[str, str] | list[tuple[str, str, str]] | None


def _conjuncts(guard: ast.Expr | None) -> list[ast.Expr]:
    """The guard's conjuncts, in the order written."""
    if guard is None:
        return []
    e = walk.uncited(guard)
    if isinstance(e, ast.And):
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [guard]


def _reads_any(e: ast.Expr, names: set[str]) -> bool:
    """Whether ``e`` reads one of ``names`` (a generator's variable)."""
    return any(isinstance(x, ast.Name) and x.id in names for x in (e, *walk.descendants(e)))
