"""Text to AST. The only module that imports lark.

The grammar is built once per process (``_parser()``), LALR with positions; a Transformer maps
each grammar rule to one frozen AST node, and every Lark error becomes a :class:`SpecSyntaxError`.
"""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import NoReturn, TypeGuard, cast

import attrs
import lark
from lark import Token, Transformer, v_args
from lark.tree import Meta

from rulespec import ast
from rulespec.errors import Diagnostic, SpecSyntaxError

__all__ = ["grammar_text", "parse", "parse_file"]


def grammar_text() -> str:
    """The grammar: from the wheel's package data, else from the repository's ``grammar/``."""
    try:
        res = importlib.resources.files("rulespec") / "_grammar" / "rulespec.lark"
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # pragma: no cover
        pass
    here = Path(__file__).resolve().parent.parent / "grammar" / "rulespec.lark"
    return here.read_text(encoding="utf-8")


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(grammar_text(), parser="lalr", propagate_positions=True,
                     maybe_placeholders=True)


def _unquote(tok: str) -> str:
    if tok.startswith('"""'):
        body = tok[3:-3]
        # Docstrings are indented with the spec; normalise runs of whitespace to one space.
        return " ".join(body.split())
    body = tok[1:-1]
    if "\\" not in body:
        return body
    # the escapes of JSON strings that matter in prose; anything else stays as written
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@attrs.frozen
class _Bounds:
    """``in LO..HI`` of an integer option, on its way into the OptionDecl."""

    lo: int
    hi: int


# The shapes of the children the transformer methods receive. Token is a str, so ``str`` in a
# union below also covers NAME/STRING tokens; _Ref (an ID) and doc strings are plain str values.
_Params = tuple[ast.Param, ...]
_Args = tuple[ast.Expr, ...]
_Fields = tuple[ast.Field, ...]


class _ToAst(Transformer[Token, ast.Spec]):
    """One method per grammar rule; ``__default__`` refuses anything unmapped (Preql TreeToAst)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def _span(self, meta: Meta) -> ast.Span:
        if getattr(meta, "empty", True):
            return ast.NOSPAN
        return ast.Span(self.source, meta.line, meta.column, meta.end_line, meta.end_column,
                        meta.start_pos, meta.end_pos)

    def __default__(self, data: str, children: list[object],
                    meta: Meta) -> NoReturn:  # pragma: no cover
        raise AssertionError(f"no AST mapping for grammar rule {data!r}")

    # ---- items --------------------------------------------------------------------------
    @v_args(meta=True)
    def start(self, meta: Meta, items: list[ast.Item]) -> ast.Spec:
        return ast.Spec(tuple(items), source_name=self.source)

    def doc(self, c: list[Token]) -> str:
        return _unquote(str(c[0]))

    def ref(self, c: list[Token]) -> _Ref:
        return _Ref(str(c[0])[1:-1])

    @v_args(meta=True)
    def game_decl(self, meta: Meta, c: list[Token | str]) -> ast.GameDecl:
        return ast.GameDecl(str(c[0]), _unquote(str(c[1])), c[2] if len(c) > 2 else None,
                            span=self._span(meta))

    @v_args(meta=True)
    def players_decl(self, meta: Meta, c: list[Token]) -> ast.PlayersDecl:
        return ast.PlayersDecl(int(c[0]), int(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def hands_decl(self, meta: Meta, c: list[ast.Expr | str]) -> ast.HandsDecl:
        return ast.HandsDecl(cast(ast.Expr, c[0]), cast(str, c[1]) if len(c) > 1 else None,
                             span=self._span(meta))

    @v_args(meta=True)
    def score_range_decl(self, meta: Meta, c: list[ast.Expr | str]) -> ast.ScoreRangeDecl:
        return ast.ScoreRangeDecl(cast(ast.Expr, c[0]), cast(ast.Expr, c[1]),
                                  cast(str, c[2]) if len(c) > 2 else None, span=self._span(meta))

    @v_args(meta=True)
    def max_events_decl(self, meta: Meta, c: list[ast.Expr | str]) -> ast.MaxEventsDecl:
        return ast.MaxEventsDecl(cast(ast.Expr, c[0]), cast(str, c[1]) if len(c) > 1 else None,
                                 span=self._span(meta))

    @v_args(meta=True)
    def game_end_decl(self, meta: Meta, c: list[Token | str]) -> ast.GameEndDecl:
        forms = tuple(str(x) for x in c if isinstance(x, Token))
        doc = next((x for x in c if not isinstance(x, Token)), None)
        return ast.GameEndDecl(forms, doc, span=self._span(meta))

    @v_args(meta=True)
    def winner_decl(self, meta: Meta, c: list[Token]) -> ast.WinnerDecl:
        return ast.WinnerDecl(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def import_decl(self, meta: Meta, c: list[Token]) -> ast.ImportDecl:
        return ast.ImportDecl(_unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def option_decl(
        self, meta: Meta, c: list[Token | ast.TypeExpr | _Bounds | int | str]
    ) -> ast.OptionDecl:
        bounds = None
        if len(c) > 2 and isinstance(c[2], _Bounds):
            bounds = (c[2].lo, c[2].hi)
            c = c[:2] + c[3:]
        name, typ, default = str(c[0]), cast(ast.TypeExpr, c[1]), cast("int | str", c[2])
        # after the bounds are taken out, c[3:] is an optional _Ref then an optional doc string
        tail = cast("list[str]", c[3:])
        ref = next((str(x) for x in tail if _is_ref(x)), None)
        doc = next((x for x in tail if not _is_ref(x)), None)
        return ast.OptionDecl(name, typ, default, ref, doc, bounds, span=self._span(meta))

    def int_range(self, c: list[Token]) -> _Bounds:
        return _Bounds(int(c[0]), int(c[1]))

    @v_args(meta=True)
    def require_decl(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.RequireDecl:
        return ast.RequireDecl(cast(ast.Expr, c[0]), _unquote(str(c[1])), span=self._span(meta))

    def zone_shared(self, c: list[object]) -> bool:
        return False

    def zone_per_player(self, c: list[object]) -> bool:
        return True

    def visibility(self, c: list[Token]) -> str:
        return str(c[0])

    @v_args(meta=True)
    def zone_decl(self, meta: Meta, c: list[Token | bool | str]) -> ast.ZoneDecl:
        name, per = str(c[0]), cast(bool, c[1])
        # c[2:] is an optional visibility then an optional doc string
        opts = cast("list[str]", c[2:])
        vis = next((x for x in opts if x in ("all", "owner", "nobody")), None)
        rest = [x for x in opts if x not in ("all", "owner", "nobody")]
        doc = rest[0] if rest else None
        return ast.ZoneDecl(name, per, vis, doc, span=self._span(meta))

    def per_player(self, c: list[object]) -> bool:
        return True

    @v_args(meta=True)
    def var_decl(
        self, meta: Meta, c: list[Token | ast.TypeExpr | bool | ast.Expr | str]
    ) -> ast.VarDecl:
        name, typ = str(c[0]), cast(ast.TypeExpr, c[1])
        rest = c[2:]
        per = bool(rest and rest[0] is True)
        if per:
            rest = rest[1:]
        init = cast(ast.Expr, rest[0])
        doc = cast(str, rest[1]) if len(rest) > 1 else None
        return ast.VarDecl(name, typ, per, init, doc, span=self._span(meta))

    def params(self, c: list[ast.Param]) -> _Params:
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta: Meta, c: list[Token | ast.TypeExpr]) -> ast.Param:
        return ast.Param(str(c[0]), cast(ast.TypeExpr, c[1]) if len(c) > 1 else None,
                         span=self._span(meta))

    @v_args(meta=True)
    def def_decl(
        self, meta: Meta, c: list[Token | _Params | None | ast.Expr | str]
    ) -> ast.DefDecl:
        params = cast("_Params | None", c[1])
        return ast.DefDecl(str(c[0]), params or (), cast(ast.Expr, c[2]),
                           cast(str, c[3]) if len(c) > 3 else None, span=self._span(meta))

    @v_args(meta=True)
    def proc_decl(
        self, meta: Meta, c: list[Token | _Params | None | str | ast.Block]
    ) -> ast.ProcDecl:
        name, params, *rest = c
        body = cast(ast.Block, rest[-1])
        ref = next((str(x) for x in rest[:-1] if _is_ref(x)), None)
        doc = next((x for x in rest[:-1] if isinstance(x, str) and not _is_ref(x)), None)
        return ast.ProcDecl(str(name), cast("_Params | None", params) or (), ref, doc, body,
                            span=self._span(meta))

    def _ref_doc_block(
        self, rest: list[str | ast.Block]
    ) -> tuple[str | None, str | None, ast.Block]:
        body = cast(ast.Block, rest[-1])
        ref = next((str(x) for x in rest[:-1] if _is_ref(x)), None)
        doc = next((x for x in rest[:-1] if isinstance(x, str) and not _is_ref(x)), None)
        return ref, doc, body

    @v_args(meta=True)
    def match_decl(self, meta: Meta, c: list[str | ast.Block]) -> ast.MatchDecl:
        return ast.MatchDecl(*self._ref_doc_block(c), span=self._span(meta))

    @v_args(meta=True)
    def deal_decl(self, meta: Meta, c: list[str | ast.Block]) -> ast.DealDecl:
        return ast.DealDecl(*self._ref_doc_block(c), span=self._span(meta))

    # ---- types ----------------------------------------------------------------------------
    @v_args(meta=True)
    def type_name(self, meta: Meta, c: list[Token]) -> ast.TypeName:
        return ast.TypeName(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def type_optional(self, meta: Meta, c: list[ast.TypeExpr]) -> ast.TypeOptional:
        return ast.TypeOptional(c[0], span=self._span(meta))

    @v_args(meta=True)
    def type_list(self, meta: Meta, c: list[Token]) -> ast.TypeList:
        return ast.TypeList(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def type_enum(self, meta: Meta, c: list[int | str]) -> ast.TypeEnum:
        return ast.TypeEnum(tuple(c), span=self._span(meta))

    def lit_int(self, c: list[Token]) -> int:
        return int(c[0])

    def lit_name(self, c: list[Token]) -> str:
        return str(c[0])

    def lit_string(self, c: list[Token]) -> str:
        return _unquote(str(c[0]))

    # ---- statements -----------------------------------------------------------------------
    @v_args(meta=True)
    def block(self, meta: Meta, c: list[ast.Stmt]) -> ast.Block:
        return ast.Block(tuple(c), span=self._span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Let:
        return ast.Let(str(c[0]), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def set_stmt(self, meta: Meta, c: list[Token | ast.Expr | None]) -> ast.Set:
        return ast.Set(str(c[0]), cast("ast.Expr | None", c[1]), cast(ast.Expr, c[2]),
                       span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block | ast.If]) -> ast.If:
        return ast.If(cast(ast.Expr, c[0]), cast(ast.Block, c[1]),
                      cast("ast.Block | ast.If", c[2]) if len(c) > 2 else None,
                      span=self._span(meta))

    def else_if(self, c: list[ast.If]) -> ast.If:
        return c[0]

    def else_block(self, c: list[ast.Block]) -> ast.Block:
        return c[0]

    @v_args(meta=True)
    def while_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block]) -> ast.While:
        return ast.While(cast(ast.Expr, c[0]), cast(ast.Block, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def loop_stmt(self, meta: Meta, c: list[str | ast.Block]) -> ast.Loop:
        return ast.Loop(str(c[0]) if len(c) > 1 else None, cast(ast.Block, c[-1]),
                        span=self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta: Meta, c: list[Token | ast.Expr | None | ast.Block]) -> ast.For:
        return ast.For(str(c[0]), cast(ast.Expr, c[1]), cast("ast.Expr | None", c[2]),
                       cast(ast.Block, c[3]), span=self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block]) -> ast.Repeat:
        return ast.Repeat(cast(ast.Expr, c[0]), cast(ast.Block, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def move_stmt(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.Move:
        return ast.Move(cast(ast.Expr, c[0]), cast(ast.Expr, c[1]), cast(ast.Expr, c[2]),
                        len(c) > 3, span=self._span(meta))

    @v_args(meta=True)
    def fill_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Fill:
        return ast.Fill(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def deal_stmt(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.DealCards:
        return ast.DealCards(cast(ast.Expr, c[0]), cast(ast.Expr, c[1]), str(c[2]),
                             cast(ast.Expr, c[3]), span=self._span(meta))

    @v_args(meta=True)
    def shuffle_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Shuffle:
        return ast.Shuffle(c[0], span=self._span(meta))

    @v_args(meta=True)
    def reshuffle_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Reshuffle:
        return ast.Reshuffle(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def bury_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Bury:
        return ast.Bury(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta: Meta, c: list[Token | _Args | None | str]) -> ast.CallStmt:
        args = cast("_Args | None", c[1])
        return ast.CallStmt(str(c[0]), tuple(args or ()), str(c[2]) if len(c) > 2 else None,
                            span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta: Meta, c: list[ast.Expr | ast.Alternative]) -> ast.Choose:
        return ast.Choose(cast(ast.Expr, c[0]), tuple(cast("list[ast.Alternative]", c[1:])),
                          span=self._span(meta))

    @v_args(meta=True)
    def alternative(
        self, meta: Meta,
        c: list[Token | _Fields | ast.Generator | ast.Expr | str | ast.Block | None],
    ) -> ast.Alternative:
        name, fields, *rest = c
        body = cast(ast.Block, rest[-1])
        rest = rest[:-1]
        gens = tuple(x for x in rest if isinstance(x, ast.Generator))
        rest = [x for x in rest if not isinstance(x, ast.Generator)]
        # rest is now [guard-or-None] + optional doc (maybe_placeholders keeps the guard slot)
        guard = cast("ast.Expr | None", rest[0]) if rest else None
        doc = cast(str, rest[1]) if len(rest) > 1 else None
        return ast.Alternative(str(name), tuple(cast("_Fields | None", fields) or ()), gens,
                               guard, doc, body, span=self._span(meta))

    def fields(self, c: list[ast.Field]) -> _Fields:
        return tuple(c)

    @v_args(meta=True)
    def field(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Field:
        return ast.Field(str(c[0]), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def generator(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Generator:
        return ast.Generator(str(c[0]), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta: Meta, c: list[object]) -> ast.Break:
        return ast.Break(span=self._span(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta: Meta, c: list[object]) -> ast.Continue:
        return ast.Continue(span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta: Meta, c: list[object]) -> ast.Return:
        return ast.Return(span=self._span(meta))

    @v_args(meta=True)
    def end_deal_stmt(self, meta: Meta, c: list[Token | str | None]) -> ast.EndDeal:
        flag = str(c[0]) if c[0] is not None else None
        return ast.EndDeal(flag, str(c[1]), str(c[2]) if len(c) > 2 else None,
                           span=self._span(meta))

    @v_args(meta=True)
    def end_match_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.EndMatch:
        return ast.EndMatch(c[0], span=self._span(meta))

    @v_args(meta=True)
    def run_deal_stmt(self, meta: Meta, c: list[str]) -> ast.RunDeal:
        return ast.RunDeal(str(c[0]) if c else None, span=self._span(meta))

    # ---- expressions ----------------------------------------------------------------------
    @v_args(meta=True)
    def if_expr(self, meta: Meta, c: list[ast.Expr]) -> ast.IfExpr:
        return ast.IfExpr(c[0], c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def cited(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.Cited:
        # several IDs on one clause nest: (expr [A]) [B]
        out = cast(ast.Expr, c[0])
        for ref in c[1:]:
            out = ast.Cited(out, str(ref)[1:-1], span=self._span(meta))
        return cast(ast.Cited, out)  # REF+ in the grammar: at least one Cited was built

    @v_args(meta=True)
    def or_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Or:
        return ast.Or(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta: Meta, c: list[ast.Expr]) -> ast.And:
        return ast.And(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Not:
        return ast.Not(c[0], span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.Compare:
        return ast.Compare(str(c[1]), cast(ast.Expr, c[0]), cast(ast.Expr, c[2]),
                           span=self._span(meta))

    @v_args(meta=True)
    def in_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Compare:
        return ast.Compare("in", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_in_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Compare:
        return ast.Compare("not in", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def binop(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.BinOp:
        return ast.BinOp(str(c[1]), cast(ast.Expr, c[0]), cast(ast.Expr, c[2]),
                         span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta: Meta, c: list[ast.Expr]) -> ast.Neg:
        return ast.Neg(c[0], span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta: Meta, c: list[ast.Expr]) -> ast.Index:
        return ast.Index(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta: Meta, c: list[Token | _Args | None]) -> ast.Call:
        return ast.Call(str(c[0]), tuple(cast("_Args | None", c[1]) or ()),
                        span=self._span(meta))

    @v_args(meta=True)
    def gen_call(self, meta: Meta, c: list[Token | ast.Expr | None]) -> ast.GenCall:
        return ast.GenCall(str(c[0]), cast(ast.Expr, c[1]), str(c[2]), cast(ast.Expr, c[3]),
                           cast("ast.Expr | None", c[4]), span=self._span(meta))

    @v_args(meta=True)
    def int_lit(self, meta: Meta, c: list[Token]) -> ast.IntLit:
        return ast.IntLit(int(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta: Meta, c: list[Token]) -> ast.StrLit:
        return ast.StrLit(_unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta: Meta, c: list[Token]) -> ast.Name:
        return ast.Name(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta: Meta, c: list[_Args | None]) -> ast.ListLit:
        return ast.ListLit(tuple(c[0] or ()), span=self._span(meta))

    @v_args(meta=True)
    def comprehension(self, meta: Meta, c: list[ast.Expr | Token | None]) -> ast.Comprehension:
        return ast.Comprehension(cast(ast.Expr, c[0]), str(c[1]), cast(ast.Expr, c[2]),
                                 cast("ast.Expr | None", c[3]), span=self._span(meta))

    def args(self, c: list[ast.Expr]) -> _Args:
        return tuple(c)


class _Ref(str):
    """An ambiguity ID such as VAN-13, kept apart from doc strings while transforming."""


def _is_ref(x: object) -> TypeGuard[_Ref]:
    return isinstance(x, _Ref)


_EXPECT_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LBRACE": "'{'", "RBRACE": "'}'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "EQUAL": "'='", "COLON": "':'",
    "COMMA": "','", "REF": "an ID such as [VAN-13]", "QMARK": "'?'",
}


def _describe(expected: set[str]) -> str:
    names = sorted(_EXPECT_NAMES.get(e, repr(e.lower())) for e in expected)
    if len(names) > 8:
        return ""
    return " or ".join(names)


def parse(text: str, source_name: str = "<spec>") -> ast.Spec:
    """Parse the text of a .rules file into an :class:`ast.Spec`, or raise SpecSyntaxError."""
    try:
        tree = _parser().parse(text)
    except lark.UnexpectedInput as e:
        line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
        span = ast.Span(source_name, line, col, line, col + 1)
        hint = None
        if isinstance(e, lark.UnexpectedCharacters):
            pos = e.pos_in_stream or 0
            ch = text[pos] if pos < len(text) else "end of input"
            msg = f"unexpected character {ch!r}"
            if ch == '"':
                hint = "strings end on the same line; use triple quotes for long text"
        elif isinstance(e, lark.UnexpectedEOF):
            msg = "unexpected end of file"
            hint = "a block opened with '{' may be missing its '}'"
        else:
            assert isinstance(e, lark.UnexpectedToken)
            tok = e.token
            shown = "end of file" if tok.type == "$END" else repr(str(tok))
            msg = f"unexpected {shown}"
            want = _describe(set(e.expected))
            if want:
                hint = f"expected {want}"
            prev = getattr(e, "token_history", None) or []
            if prev and str(prev[-1]) in _TOP_LEVEL:
                hint = (f"{str(prev[-1])!r} starts a declaration here; a block opened earlier "
                        "may be missing its '}'")
                span = ast.Span(source_name, prev[-1].line or line, prev[-1].column or col,
                                prev[-1].line or line,
                                (prev[-1].column or col) + len(str(prev[-1])))
            elif tok.type != "$END" and str(tok) in _KEYWORDS:
                hint = (hint + "; " if hint else "") + \
                    f"{str(tok)!r} is a keyword and cannot be a name here"
            span = ast.Span(source_name, line, col, line, col + max(1, len(str(tok))))
        raise SpecSyntaxError(Diagnostic(span, msg, hint), text) from None
    return _ToAst(source_name).transform(tree)


_KEYWORDS = frozenset(
    "game title players hands score_range max_events game_end to winner total import option "
    "require zone shared per player visible var def procedure match deal list of let set if "
    "else while loop for in repeat move from fill with shuffle reshuffle bury into choose "
    "break continue return end as scoring winners run then or and not".split()
)


_TOP_LEVEL = frozenset("game players hands score_range max_events game_end winner import option "
                       "require zone var def procedure match deal".split())


def parse_file(path: str | Path) -> ast.Spec:
    """Read and parse a .rules file; the span's source is the path as given."""
    p = Path(path)
    return parse(p.read_text(encoding="utf-8"), str(path))
