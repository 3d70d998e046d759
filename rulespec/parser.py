"""Text to AST. The only module that imports lark.

The grammar is built once per process (``_parser()``), LALR with positions; a Transformer maps
each grammar rule to one frozen AST node, and every Lark error becomes a :class:`SpecSyntaxError`.
"""

from __future__ import annotations

import functools
import importlib.resources
from pathlib import Path
from typing import Any

import attrs
import lark
from lark import Token, Transformer, v_args

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


class _ToAst(Transformer[Token, Any]):
    """One method per grammar rule; ``__default__`` refuses anything unmapped (Preql TreeToAst)."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def _span(self, meta: Any) -> ast.Span:
        if getattr(meta, "empty", True):
            return ast.NOSPAN
        return ast.Span(self.source, meta.line, meta.column, meta.end_line, meta.end_column,
                        meta.start_pos, meta.end_pos)

    def __default__(self, data: Any, children: Any, meta: Any) -> Any:  # pragma: no cover
        raise AssertionError(f"no AST mapping for grammar rule {data!r}")

    # ---- items --------------------------------------------------------------------------
    @v_args(meta=True)
    def start(self, meta: Any, items: list[Any]) -> ast.Spec:
        return ast.Spec(tuple(items), source_name=self.source)

    def doc(self, c: list[Token]) -> str:
        return _unquote(str(c[0]))

    def ref(self, c: list[Token]) -> str:
        return _Ref(str(c[0])[1:-1])

    @v_args(meta=True)
    def game_decl(self, meta: Any, c: list[Any]) -> ast.GameDecl:
        return ast.GameDecl(str(c[0]), _unquote(str(c[1])), c[2] if len(c) > 2 else None,
                            span=self._span(meta))

    @v_args(meta=True)
    def players_decl(self, meta: Any, c: list[Any]) -> ast.PlayersDecl:
        return ast.PlayersDecl(int(c[0]), int(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def hands_decl(self, meta: Any, c: list[Any]) -> ast.HandsDecl:
        return ast.HandsDecl(c[0], c[1] if len(c) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def game_end_decl(self, meta: Any, c: list[Any]) -> ast.GameEndDecl:
        forms = tuple(str(x) for x in c if isinstance(x, Token))
        doc = next((x for x in c if not isinstance(x, Token)), None)
        return ast.GameEndDecl(forms, doc, span=self._span(meta))

    @v_args(meta=True)
    def winner_decl(self, meta: Any, c: list[Any]) -> ast.WinnerDecl:
        return ast.WinnerDecl(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def import_decl(self, meta: Any, c: list[Any]) -> ast.ImportDecl:
        return ast.ImportDecl(_unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def option_decl(self, meta: Any, c: list[Any]) -> ast.OptionDecl:
        bounds = None
        if len(c) > 2 and isinstance(c[2], _Bounds):
            bounds = (c[2].lo, c[2].hi)
            c = c[:2] + c[3:]
        name, typ, default = str(c[0]), c[1], c[2]
        ref = next((str(x) for x in c[3:] if _is_ref(x)), None)
        doc = next((x for x in c[3:] if not _is_ref(x)), None)
        return ast.OptionDecl(name, typ, default, ref, doc, bounds, span=self._span(meta))

    def int_range(self, c: list[Any]) -> _Bounds:
        return _Bounds(int(c[0]), int(c[1]))

    @v_args(meta=True)
    def require_decl(self, meta: Any, c: list[Any]) -> ast.RequireDecl:
        return ast.RequireDecl(c[0], _unquote(str(c[1])), span=self._span(meta))

    def zone_shared(self, c: list[Any]) -> bool:
        return False

    def zone_per_player(self, c: list[Any]) -> bool:
        return True

    def visibility(self, c: list[Token]) -> str:
        return str(c[0])

    @v_args(meta=True)
    def zone_decl(self, meta: Any, c: list[Any]) -> ast.ZoneDecl:
        name, per = str(c[0]), c[1]
        vis = next((x for x in c[2:] if x in ("all", "owner", "nobody")), None)
        rest = [x for x in c[2:] if x not in ("all", "owner", "nobody")]
        doc = rest[0] if rest else None
        return ast.ZoneDecl(name, per, vis, doc, span=self._span(meta))

    def per_player(self, c: list[Any]) -> bool:
        return True

    @v_args(meta=True)
    def var_decl(self, meta: Any, c: list[Any]) -> ast.VarDecl:
        name, typ = str(c[0]), c[1]
        rest = c[2:]
        per = bool(rest and rest[0] is True)
        if per:
            rest = rest[1:]
        init = rest[0]
        doc = rest[1] if len(rest) > 1 else None
        return ast.VarDecl(name, typ, per, init, doc, span=self._span(meta))

    def params(self, c: list[Any]) -> tuple[ast.Param, ...]:
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta: Any, c: list[Any]) -> ast.Param:
        return ast.Param(str(c[0]), c[1] if len(c) > 1 else None, span=self._span(meta))

    @v_args(meta=True)
    def def_decl(self, meta: Any, c: list[Any]) -> ast.DefDecl:
        return ast.DefDecl(str(c[0]), c[1] or (), c[2], c[3] if len(c) > 3 else None,
                           span=self._span(meta))

    @v_args(meta=True)
    def proc_decl(self, meta: Any, c: list[Any]) -> ast.ProcDecl:
        name, params, *rest = c
        body = rest[-1]
        ref = next((str(x) for x in rest[:-1] if _is_ref(x)), None)
        doc = next((x for x in rest[:-1] if isinstance(x, str) and not _is_ref(x)), None)
        return ast.ProcDecl(str(name), params or (), ref, doc, body, span=self._span(meta))

    def _ref_doc_block(self, rest: list[Any]) -> tuple[str | None, str | None, ast.Block]:
        body = rest[-1]
        ref = next((str(x) for x in rest[:-1] if _is_ref(x)), None)
        doc = next((x for x in rest[:-1] if isinstance(x, str) and not _is_ref(x)), None)
        return ref, doc, body

    @v_args(meta=True)
    def match_decl(self, meta: Any, c: list[Any]) -> ast.MatchDecl:
        return ast.MatchDecl(*self._ref_doc_block(c), span=self._span(meta))

    @v_args(meta=True)
    def deal_decl(self, meta: Any, c: list[Any]) -> ast.DealDecl:
        return ast.DealDecl(*self._ref_doc_block(c), span=self._span(meta))

    # ---- types ----------------------------------------------------------------------------
    @v_args(meta=True)
    def type_name(self, meta: Any, c: list[Any]) -> ast.TypeName:
        return ast.TypeName(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def type_optional(self, meta: Any, c: list[Any]) -> ast.TypeOptional:
        return ast.TypeOptional(c[0], span=self._span(meta))

    @v_args(meta=True)
    def type_list(self, meta: Any, c: list[Any]) -> ast.TypeList:
        return ast.TypeList(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def type_enum(self, meta: Any, c: list[Any]) -> ast.TypeEnum:
        return ast.TypeEnum(tuple(c), span=self._span(meta))

    def lit_int(self, c: list[Token]) -> int:
        return int(c[0])

    def lit_name(self, c: list[Token]) -> str:
        return str(c[0])

    def lit_string(self, c: list[Token]) -> str:
        return _unquote(str(c[0]))

    # ---- statements -----------------------------------------------------------------------
    @v_args(meta=True)
    def block(self, meta: Any, c: list[Any]) -> ast.Block:
        return ast.Block(tuple(c), span=self._span(meta))

    @v_args(meta=True)
    def let_stmt(self, meta: Any, c: list[Any]) -> ast.Let:
        return ast.Let(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def set_stmt(self, meta: Any, c: list[Any]) -> ast.Set:
        return ast.Set(str(c[0]), c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta: Any, c: list[Any]) -> ast.If:
        return ast.If(c[0], c[1], c[2] if len(c) > 2 else None, span=self._span(meta))

    def else_if(self, c: list[Any]) -> ast.If:
        return c[0]

    def else_block(self, c: list[Any]) -> ast.Block:
        return c[0]

    @v_args(meta=True)
    def while_stmt(self, meta: Any, c: list[Any]) -> ast.While:
        return ast.While(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def loop_stmt(self, meta: Any, c: list[Any]) -> ast.Loop:
        return ast.Loop(str(c[0]) if len(c) > 1 else None, c[-1], span=self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta: Any, c: list[Any]) -> ast.For:
        return ast.For(str(c[0]), c[1], c[2], c[3], span=self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta: Any, c: list[Any]) -> ast.Repeat:
        return ast.Repeat(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def move_stmt(self, meta: Any, c: list[Any]) -> ast.Move:
        return ast.Move(c[0], c[1], c[2], len(c) > 3, span=self._span(meta))

    @v_args(meta=True)
    def fill_stmt(self, meta: Any, c: list[Any]) -> ast.Fill:
        return ast.Fill(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def deal_stmt(self, meta: Any, c: list[Any]) -> ast.DealCards:
        return ast.DealCards(c[0], c[1], str(c[2]), c[3], span=self._span(meta))

    @v_args(meta=True)
    def shuffle_stmt(self, meta: Any, c: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(c[0], span=self._span(meta))

    @v_args(meta=True)
    def reshuffle_stmt(self, meta: Any, c: list[Any]) -> ast.Reshuffle:
        return ast.Reshuffle(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def bury_stmt(self, meta: Any, c: list[Any]) -> ast.Bury:
        return ast.Bury(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta: Any, c: list[Any]) -> ast.CallStmt:
        return ast.CallStmt(str(c[0]), tuple(c[1] or ()), str(c[2]) if len(c) > 2 else None,
                            span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta: Any, c: list[Any]) -> ast.Choose:
        return ast.Choose(c[0], tuple(c[1:]), span=self._span(meta))

    @v_args(meta=True)
    def alternative(self, meta: Any, c: list[Any]) -> ast.Alternative:
        name, fields, *rest = c
        body = rest[-1]
        rest = rest[:-1]
        gens = tuple(x for x in rest if isinstance(x, ast.Generator))
        rest = [x for x in rest if not isinstance(x, ast.Generator)]
        # rest is now [guard-or-None] + optional doc (maybe_placeholders keeps the guard slot)
        guard = rest[0] if rest else None
        doc = rest[1] if len(rest) > 1 else None
        return ast.Alternative(str(name), tuple(fields or ()), gens, guard, doc, body,
                               span=self._span(meta))

    def fields(self, c: list[Any]) -> tuple[ast.Field, ...]:
        return tuple(c)

    @v_args(meta=True)
    def field(self, meta: Any, c: list[Any]) -> ast.Field:
        return ast.Field(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def generator(self, meta: Any, c: list[Any]) -> ast.Generator:
        return ast.Generator(str(c[0]), c[1], span=self._span(meta))

    @v_args(meta=True)
    def break_stmt(self, meta: Any, c: list[Any]) -> ast.Break:
        return ast.Break(span=self._span(meta))

    @v_args(meta=True)
    def continue_stmt(self, meta: Any, c: list[Any]) -> ast.Continue:
        return ast.Continue(span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta: Any, c: list[Any]) -> ast.Return:
        return ast.Return(span=self._span(meta))

    @v_args(meta=True)
    def end_deal_stmt(self, meta: Any, c: list[Any]) -> ast.EndDeal:
        flag = str(c[0]) if c[0] is not None else None
        return ast.EndDeal(flag, str(c[1]), str(c[2]) if len(c) > 2 else None,
                           span=self._span(meta))

    @v_args(meta=True)
    def end_match_stmt(self, meta: Any, c: list[Any]) -> ast.EndMatch:
        return ast.EndMatch(c[0], span=self._span(meta))

    @v_args(meta=True)
    def run_deal_stmt(self, meta: Any, c: list[Any]) -> ast.RunDeal:
        return ast.RunDeal(str(c[0]) if c else None, span=self._span(meta))

    # ---- expressions ----------------------------------------------------------------------
    @v_args(meta=True)
    def if_expr(self, meta: Any, c: list[Any]) -> ast.IfExpr:
        return ast.IfExpr(c[0], c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def cited(self, meta: Any, c: list[Any]) -> ast.Cited:
        # several IDs on one clause nest: (expr [A]) [B]
        out = c[0]
        for ref in c[1:]:
            out = ast.Cited(out, str(ref)[1:-1], span=self._span(meta))
        return out  # type: ignore[no-any-return]

    @v_args(meta=True)
    def or_op(self, meta: Any, c: list[Any]) -> ast.Or:
        return ast.Or(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta: Any, c: list[Any]) -> ast.And:
        return ast.And(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta: Any, c: list[Any]) -> ast.Not:
        return ast.Not(c[0], span=self._span(meta))

    @v_args(meta=True)
    def compare(self, meta: Any, c: list[Any]) -> ast.Compare:
        return ast.Compare(str(c[1]), c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def in_op(self, meta: Any, c: list[Any]) -> ast.Compare:
        return ast.Compare("in", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_in_op(self, meta: Any, c: list[Any]) -> ast.Compare:
        return ast.Compare("not in", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def binop(self, meta: Any, c: list[Any]) -> ast.BinOp:
        return ast.BinOp(str(c[1]), c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta: Any, c: list[Any]) -> ast.Neg:
        return ast.Neg(c[0], span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta: Any, c: list[Any]) -> ast.Index:
        return ast.Index(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta: Any, c: list[Any]) -> ast.Call:
        return ast.Call(str(c[0]), tuple(c[1] or ()), span=self._span(meta))

    @v_args(meta=True)
    def gen_call(self, meta: Any, c: list[Any]) -> ast.GenCall:
        return ast.GenCall(str(c[0]), c[1], str(c[2]), c[3], c[4], span=self._span(meta))

    @v_args(meta=True)
    def int_lit(self, meta: Any, c: list[Any]) -> ast.IntLit:
        return ast.IntLit(int(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta: Any, c: list[Any]) -> ast.StrLit:
        return ast.StrLit(_unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta: Any, c: list[Any]) -> ast.Name:
        return ast.Name(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def list_lit(self, meta: Any, c: list[Any]) -> ast.ListLit:
        return ast.ListLit(tuple(c[0] or ()), span=self._span(meta))

    @v_args(meta=True)
    def comprehension(self, meta: Any, c: list[Any]) -> ast.Comprehension:
        return ast.Comprehension(c[0], str(c[1]), c[2], c[3], span=self._span(meta))

    def args(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(c)


class _Ref(str):
    """An ambiguity ID such as VAN-13, kept apart from doc strings while transforming."""


def _is_ref(x: object) -> bool:
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
    return _ToAst(source_name).transform(tree)  # type: ignore[no-any-return]


_KEYWORDS = frozenset(
    "game title players hands game_end to winner total import option require zone shared per "
    "player visible var def procedure match deal list of let set if else while loop for in "
    "repeat move from fill with shuffle reshuffle bury into choose break continue return end "
    "as scoring winners run then or and not".split()
)


_TOP_LEVEL = frozenset("game players hands game_end winner import option require zone var def "
                       "procedure match deal".split())


def parse_file(path: str | Path) -> ast.Spec:
    """Read and parse a .rules file; the span's source is the path as given."""
    p = Path(path)
    return parse(p.read_text(encoding="utf-8"), str(path))
