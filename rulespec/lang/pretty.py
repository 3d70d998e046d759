"""AST back to .rules text. ``parse(pretty(spec)) == spec`` (positions aside), which the tests
check on every shipped spec and on generated ones; the book uses it to quote rules."""

from __future__ import annotations

import json
from typing import assert_never

from rulespec.lang import ast

__all__ = ["hook_signature", "pretty", "pretty_expr", "pretty_stmt"]

_PREC = {ast.IfExpr: 0, ast.Cited: 1, ast.Or: 1, ast.And: 2, ast.Not: 3, ast.Compare: 4}


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _prec(e: ast.Expr) -> int:
    if isinstance(e, ast.BinOp):
        return 5 if e.op in ("+", "-") else 6
    if isinstance(e, ast.Neg):
        return 7
    return _PREC.get(type(e), 8)


def pretty_expr(e: ast.Expr, ctx: int = 0) -> str:  # noqa: C901
    """One expression; parenthesised where the grammar needs it."""
    p = _prec(e)
    match e:
        case ast.IntLit(value=v):
            s = str(v)
        case ast.StrLit(value=v):
            s = _q(v)
        case ast.CardLit(code=c):
            s = f"'{c}'"
        case ast.Name(id=n):
            s = n
        case ast.Cited(expr=x, ref=r):
            # several IDs on one clause chain: expr [A] [B]
            s = f"{pretty_expr(x, 0 if isinstance(x, ast.Cited) else 1)} [{r}]"
            p = 0  # a citation closes its expression; parenthesise it inside anything else
        case ast.Call(func=f, args=args):
            s = f"{f}({', '.join(pretty_expr(a) for a in args)})"
        case ast.GenCall(func=f, elem=el, var=v, source=src, cond=c):
            tail = f" if {pretty_expr(c)}" if c is not None else ""
            s = f"{f}({pretty_expr(el)} for {v} in {pretty_expr(src, 5)}{tail})"
        case ast.Comprehension(elem=el, var=v, source=src, cond=c):
            tail = f" if {pretty_expr(c)}" if c is not None else ""
            s = f"[{pretty_expr(el)} for {v} in {pretty_expr(src, 5)}{tail}]"
        case ast.Index(target=t, index=i):
            s = f"{pretty_expr(t, 8)}[{pretty_expr(i)}]"
        case ast.ListLit(items=items):
            s = f"[{', '.join(pretty_expr(i) for i in items)}]"
        case ast.BinOp(op=op, left=a, right=b):
            s = f"{pretty_expr(a, p)} {op} {pretty_expr(b, p + 1)}"
        case ast.Compare(op=op, left=a, right=b):
            s = f"{pretty_expr(a, 5)} {op} {pretty_expr(b, 5)}"
        case ast.And(left=a, right=b):
            s = f"{pretty_expr(a, 2)} and {pretty_expr(b, 3)}"
        case ast.Or(left=a, right=b):
            s = f"{pretty_expr(a, 1)} or {pretty_expr(b, 2)}"
        case ast.Not(operand=o):
            s = f"not {pretty_expr(o, 3)}"
        case ast.Neg(operand=o):
            s = f"-{pretty_expr(o, 7)}"
        case ast.IfExpr(cond=c, then=t, else_=el):
            s = f"if {pretty_expr(c)} then {pretty_expr(t)} else {pretty_expr(el)}"
        case ast.OptionArg(option=o, param=prm):
            s = f"{o}.{prm}"
        case _:
            assert_never(e)
    return f"({s})" if p < ctx else s


def _type(t: ast.TypeExpr) -> str:
    match t:
        case ast.TypeName(name=n):
            return n
        case ast.TypeOptional(inner=i):
            return _type(i) + "?"
        case ast.TypeList(elem=el):
            return f"list of {el}"
        case ast.TypeEnum(values=vs, docs=ds):
            items = [_enum_item(v) + (_doc(ds[i]) if i < len(ds) else "")
                     for i, v in enumerate(vs)]
            return "{" + ", ".join(items) + "}"
        case _:
            assert_never(t)


def _enum_item(v: int | str | ast.ParamValue) -> str:
    if isinstance(v, ast.ParamValue):
        ps = ", ".join(f"{p.name}: {p.type}"
                       + (f" in {p.bounds[0]}..{p.bounds[1]}" if p.bounds is not None else "")
                       for p in v.params)
        return f"{v.name}({ps})"
    return _lit(v)


def _lit(v: object) -> str:
    if isinstance(v, ast.ValueCall):
        return f"{v.name}(" + ", ".join(str(a) for a in v.args) + ")"
    if isinstance(v, str) and not v.isidentifier():
        return _q(v)
    return str(v)


def _block(b: ast.Block, ind: str) -> str:
    if not b.stmts:
        return "{\n" + ind + "}"
    inner = "\n".join(pretty_stmt(s, ind + "  ") for s in b.stmts)
    return "{\n" + inner + "\n" + ind + "}"


def _ref(r: str | None) -> str:
    return f" [{r}]" if r else ""


def _doc(d: str | None) -> str:
    return f" {_q(d)}" if d else ""


#: the expressions of a statement, as pretty_expr writes them
_e = pretty_expr


def pretty_stmt(s: ast.Stmt, ind: str = "") -> str:  # noqa: C901
    """One statement at indentation ``ind``."""
    match s:
        case ast.Let(name=n, value=v):
            body = f"let {n} = {_e(v)}"
        case ast.Set(name=n, index=i, value=v):
            idx = f"[{_e(i)}]" if i is not None else ""
            body = f"set {n}{idx} = {_e(v)}"
        case ast.If():
            body = _if(s, ind)
        case ast.While(cond=c, body=b):
            body = f"while {_e(c)} {_block(b, ind)}"
        case ast.Loop(ref=r, body=b):
            body = f"loop{_ref(r)} {_block(b, ind)}"
        case ast.For(var=v, source=src, cond=c, body=b):
            tail = f" if {_e(c)}" if c is not None else ""
            body = f"for {v} in {_e(src)}{tail} {_block(b, ind)}"
        case ast.Repeat(count=c, body=b):
            body = f"repeat {_e(c)} {_block(b, ind)}"
        case ast.Move(what=w, src=a, dst=z, bottom=bot):
            body = f"move {_e(w)} from {_e(a)} to {_e(z)}" + (" at bottom" if bot else "")
        case ast.Fill(zone=z, cards=c):
            body = f"fill {_e(z)} with {_e(c)}"
        case ast.DealCards(count=c, src=a, zone=zn, seats=ss):
            body = f"deal {_e(c)} from {_e(a)} to {zn} of {_e(ss)}"
        case ast.Shuffle(zone=z):
            body = f"shuffle {_e(z)}"
        case ast.Reshuffle(src=a, dst=z):
            body = f"reshuffle {_e(a)} into {_e(z)}"
        case ast.Bury(src=a, dst=z):
            body = f"bury {_e(a)} into {_e(z)}"
        case ast.Pick(name=n, source=src, weighted=ws):
            body = f"pick {n} from " + (_e(src) if src is not None else
                                        "[" + ", ".join(f"{_e(o.value)}: {_e(o.weight)}"
                                                        for o in ws) + "]")
        case ast.CallStmt(name=n, args=args, ref=r):
            body = f"{n}({', '.join(_e(a) for a in args)}){_ref(r)}"
        case ast.Choose(seat=seat, alternatives=alts, together=tg):
            inner = "\n".join(_alt(a, ind + "  ") for a in alts)
            head = f"together {tg} in " if tg is not None else ""
            body = f"choose {head}{_e(seat)} {{\n{inner}\n{ind}}}"
        case ast.Break():
            body = "break"
        case ast.Continue():
            body = "continue"
        case ast.Return():
            body = "return"
        case ast.EndDeal(flag=f, scoring=sc, ref=r, per_team=pt):
            body = ("end deal" + (f" as {f}" if f else "") + f" scoring {sc}"
                    + (" per team" if pt else "") + _ref(r))
        case ast.EndMatch(winners=w, teams=t):
            body = f"end match {'winning teams' if t else 'winners'} {_e(w)}"
        case ast.RunDeal(ref=r):
            body = f"run deal{_ref(r)}"
        case ast.SitOut(seat=q):
            body = f"sit out {_e(q)}"
        case ast.Reveal(zone=z):
            body = f"reveal {_e(z)}"
        case ast.Step(title=t, doc=d, body=b, rare=r):
            body = f"step {_q(t)}{_doc(d)}{_rare(r)} {_block(b, ind)}"
        case _:
            assert_never(s)
    return ind + body


def _if(s: ast.If, ind: str) -> str:
    out = f"if {pretty_expr(s.cond)} {_block(s.then, ind)}"
    if isinstance(s.else_, ast.If):
        out += " else " + _if(s.else_, ind)
    elif isinstance(s.else_, ast.Block):
        out += f" else {_block(s.else_, ind)}"
    return out


def _deck_entry(x: ast.DeckEntry) -> str:
    """One line of a deck declaration."""
    cp = f" copies {x.copies}" if not isinstance(x, ast.DeckSuit) and x.copies is not None \
        else ""
    match x:
        case ast.DeckSuit(name=n, code=c, doc=d):
            return f"suit {n} {_q(c)}{_doc(d)}"
        case ast.DeckRank(name=n, code=c, number=k, doc=d):
            return f"rank {n} {_q(c)} = {k}{cp}{_doc(d)}"
        case ast.DeckCard(name=n, code=c, number=k, doc=d):
            num = f" = {k}" if k is not None else ""
            return f"card {n} {_q(c)}{num}{cp}{_doc(d)}"
        case ast.DeckRun(name=n, code=c, low=lo, high=hi, doc=d):
            return f"cards {n} {_q(c)} {lo}..{hi}{cp}{_doc(d)}"
        case ast.DeckPack(name=n, members=ms, doc=d):
            return f"pack {n}{cp} = {', '.join(ms)}{_doc(d)}"
        case _:
            assert_never(x)


def _alt(a: ast.Alternative, ind: str) -> str:
    fields = ", ".join(f"{f.name} = {pretty_expr(f.value)}" for f in a.fields)
    gens = "".join(f" for {g.var} in {pretty_expr(g.source)}" for g in a.generators)
    guard = f" if {pretty_expr(a.guard)}" if a.guard is not None else ""
    told = f" told {_q(a.told.text)}" if a.told is not None else ""
    return (f"{ind}{a.action}({fields}){gens}{guard}{_doc(a.doc)}{_rare(a.rare)}{told} "
            f"{_block(a.body, ind)}")


def _rare(text: str | None) -> str:
    return f" rare {_q(text)}" if text is not None else ""


def pretty_item(it: ast.Item) -> str:
    """One top-level declaration."""
    match it:
        case ast.GameDecl(name=n, title=t, doc=d):
            return f"game {n} title {_q(t)}{_doc(d)}"
        case ast.PlayersDecl(min=a, max=b):
            return f"players {a}" if a == b else f"players {a} to {b}"
        case ast.GameEndDecl(forms=fs, doc=d):
            return f"game_end {', '.join(fs)}{_doc(d)}"
        case ast.HandsDecl(count=c, doc=d):
            return f"hands {pretty_expr(c)}{_doc(d)}"
        case ast.TeamsDecl(count=c, by=b, doc=d):
            return f"teams {pretty_expr(c)} by {b}{' in play' if it.in_play else ''}{_doc(d)}"
        case ast.ScoreRangeDecl(low=lo, high=hi, doc=d):
            return f"score_range {pretty_expr(lo)}..{pretty_expr(hi)}{_doc(d)}"
        case ast.MaxEventsDecl(count=c, doc=d):
            return f"max_events {pretty_expr(c)}{_doc(d)}"
        case ast.TermDecl(word=word, meaning=m):
            return f"term {_q(word)} {_q(m)}"
        case ast.HintDecl(text=t):
            return f"hint {_q(t)}"
        case ast.DeckDecl(copies=n, doc=d, entries=es):
            head = "deck" + (f" copies {n}" if n is not None else "") + _doc(d)
            return head + " {\n" + "".join(f"  {_deck_entry(x)}\n" for x in es) + "}"
        case ast.TableDecl(name=n, title=title, var=v, source=src, columns=cols, doc=d):
            cells = ",\n  ".join(f"{_q(c.heading)} = {pretty_expr(c.value)}" for c in cols)
            return f"table {n} {_q(title)} for {v} in {pretty_expr(src)}:\n  {cells}{_doc(d)}"
        case ast.WinnerDecl(direction=d):
            return f"winner {d} total"
        case ast.ImportDecl(path=p):
            return f"import {_q(p)}"
        case ast.OptionDecl(name=n, type=t, default=dv, ref=r, doc=d, bounds=b, title=ti):
            rng = f" in {b[0]}..{b[1]}" if b is not None else ""
            # a title is the first of two strings: it never stands without the doc
            texts = f" {_q(ti)} {_q(d or '')}" if ti is not None else _doc(d)
            return f"option {n}: {_type(t)}{rng} = {_lit(dv)}{_ref(r)}{texts}"
        case ast.EnumDecl(name=n, values=vs, doc=d):
            return f"enum {n}: {_type(vs)}{_doc(d)}"
        case ast.RequireDecl(cond=c, message=m):
            return f"require {pretty_expr(c)} {_q(m)}"
        case ast.ZoneDecl(name=n, per_player=per, visibility=v, doc=d, size_visibility=sv,
                          per_team=pt):
            own = "per team" if pt else "per player" if per else "shared"
            vis = f" visible to {v}" if v else ""
            size = f", size visible to {sv}" if sv else ""
            return f"zone {n}: {own}{vis}{size}{_doc(d)}"
        case ast.VarDecl(name=n, type=t, per_player=per, init=i, doc=d):
            pp = " per player" if per else ""
            return f"var {n}: {_type(t)}{pp} = {pretty_expr(i)}{_doc(d)}"
        case ast.ResultDecl(name=n, type=t, per_player=per, init=i, doc=d):
            pp = " per player" if per else ""
            return f"result {n}: {_type(t)}{pp} = {pretty_expr(i)}{_doc(d)}"
        case ast.DefDecl(name=n, params=ps, body=b, doc=d):
            return f"def {n}({_params(ps)}) = {pretty_expr(b)}{_doc(d)}"
        case ast.HookDecl(name=n, params=ps, type=t, default=dv, doc=d):
            default = f" = {pretty_expr(dv)}" if dv is not None else ""
            return f"hook {n}({_params(ps)}): {_type(t)}{default}{_doc(d)}"
        case ast.ProcDecl(name=n, params=ps, ref=r, doc=d, body=b):
            return f"procedure {n}({_params(ps)}){_ref(r)}{_doc(d)} {_block(b, '')}"
        case ast.MatchDecl(ref=r, doc=d, body=b):
            return f"match{_ref(r)}{_doc(d)} {_block(b, '')}"
        case ast.DealDecl(ref=r, doc=d, body=b):
            return f"deal{_ref(r)}{_doc(d)} {_block(b, '')}"
        case ast.SectionDecl(title=t, doc=d):
            return f"section {_q(t)}{_doc(d)}"
        case _:
            assert_never(it)


def hook_signature(h: ast.HookDecl) -> str:
    """A hook as the importing spec must define it: ``card_as(c: card): card``."""
    return f"{h.name}({_params(h.params)}): {_type(h.type)}"


def _params(ps: tuple[ast.Param, ...]) -> str:
    return ", ".join(p.name + (f": {_type(p.type)}" if p.type is not None else "") for p in ps)


def pretty(spec: ast.Spec) -> str:
    """A whole spec."""
    return "\n\n".join(pretty_item(i) for i in spec.items) + "\n"
