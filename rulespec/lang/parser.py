"""Text to AST. With :mod:`rulespec.lang.syntax_errors`, the only module that imports lark.

The grammar is built once per process (``_parser()``), LALR with positions; a Transformer maps
each grammar rule to one frozen AST node, and every Lark error becomes a :class:`SpecSyntaxError`
(in :mod:`~rulespec.lang.syntax_errors`, which is handed this parser).
"""

from __future__ import annotations

import functools
import re
from typing import NoReturn, cast

import attrs
import lark
from lark import Token, Transformer, v_args
from lark.tree import Meta

from rulespec.errors import Diagnostic, SpecSyntaxError
from rulespec.lang import ast
from rulespec.lang.lalr_cache import cached_lark
from rulespec.lang.syntax_errors import BadToken, syntax_error, token_error
from rulespec.lang.text import grammar_text, normalise_newlines, paused_gc, unquote

__all__ = ["MAX_NESTING", "parse", "texts"]


@functools.cache
def _parser() -> lark.Lark:
    # its tables kept in the user's cache folder: building them is most of a short command
    return cached_lark(grammar_text(), {"STRING": _plain_string}, parser="lalr",
                       propagate_positions=True, maybe_placeholders=True)


#: characters no string of a spec may hold as written: the control characters but tab and
#: (in triple-quoted text) line feed. An escape sequence such as ESC in a title would reach a
#: terminal through every report that quotes it, and a NUL or a form feed a rulebook's page.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: line breaks besides line feed (CR is normalised to LF before parsing): a one-line string
#: holding one would start a new line in a Markdown book, and its text would leave the code span
#: or table cell it belongs in (CommonMark ends a line at CR; U+2028 breaks a line elsewhere)
_OTHER_BREAKS = re.compile("[\u2028\u2029\x85\x0b\x0c]")


def _plain_string(tok: Token) -> Token:
    """A STRING token as the lexer reads it, refused when it holds a control character or, on one
    line, a line break other than the LF its escapes may write (``\\n``)."""
    text = str(tok)
    bad = _CONTROL.search(text)
    if bad is None and not text.startswith('"""'):
        bad = _OTHER_BREAKS.search(text)
    if bad is not None:
        ch = bad.group()
        kind = "a line break" if _OTHER_BREAKS.match(ch) or ch in "\r\n" else \
            "a control character"
        raise BadToken(tok, f"this string holds {kind}, U+{ord(ch):04X}",
                       "write text and the escapes \\n and \\t only; a string may not hold "
                       "control characters or line breaks", bad.start())
    return tok


@attrs.frozen
class _Bounds:
    """``in LO..HI`` of an integer option, on its way into the OptionDecl."""

    lo: int
    hi: int


# The shapes of the children the transformer methods receive. Token is a str, so ``str`` in a
# union below also covers NAME/STRING tokens; IDs and doc strings are plain str values. Every
# optional part is written ``[x]`` in the grammar, so with ``maybe_placeholders`` it always has
# its slot in the children list, holding None when the text leaves it out.
_Params = tuple[ast.Param, ...]
_Args = tuple[ast.Expr, ...]
_Fields = tuple[ast.Field, ...]


#: the most digits a number of a spec may have: the numbers a rule computes stop at
#: builtins.MAX_INT_BITS (3,400 bits, 1,023 digits), and a number written in the rules is no
#: larger (Python's own limit on reading or writing one is 4,300 digits)
MAX_DIGITS = 1000


def _int(tok: Token) -> int:
    text = str(tok)
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadToken(tok, f"this number has more than {MAX_DIGITS} digits",
                       "no rule needs a number this large")
    return int(text)


def _token_span(source: str, t: Token) -> ast.Span:
    """A token's own place (a told text's string: an error inside it points into it)."""
    return ast.Span(source, t.line or 0, t.column or 0, t.end_line or 0, t.end_column or 0,
                    t.start_pos or 0, t.end_pos or 0)


class _ToAst(Transformer[Token, ast.Spec]):
    """One method per grammar rule; ``__default__`` refuses anything unmapped (Preql TreeToAst)."""

    def __init__(self, source: str) -> None:
        # no method of ours takes a token, so the transformer need not visit them
        super().__init__(visit_tokens=False)
        self.source = source
        # each rule's method bound once: a v_args method rebinds itself (functools'
        # update_wrapper) at every attribute lookup, that is once for every node of the tree
        for name in _RULE_METHODS:
            self.__dict__[name] = getattr(self, name)

    def _transform_tree(self, tree: lark.Tree[Token]) -> object:
        # Lark's own, less what a node's subtree holds once the node is built: the parse tree
        # is let go as the AST grows, so a big spec does not hold both whole at once
        children = list(self._transform_children(tree.children))
        out = self._call_userfunc(tree, children)
        tree.children = []
        return out

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
        return unquote(str(c[0]))

    rare = doc  # a rare case's text reads as a doc's

    def told(self, c: list[Token]) -> ast.Told:
        return ast.Told(unquote(str(c[0])), span=_token_span(self.source, c[0]))

    def ref(self, c: list[Token]) -> str:
        return str(c[0])[1:-1]

    @v_args(meta=True)
    def game_decl(self, meta: Meta, c: list[Token | str | None]) -> ast.GameDecl:
        name, title, doc = c
        return ast.GameDecl(str(name), unquote(str(title)), doc, span=self._span(meta))

    @v_args(meta=True)
    def players_decl(self, meta: Meta, c: list[Token | None]) -> ast.PlayersDecl:
        # "players 4" is "players 4 to 4"
        low = _int(cast(Token, c[0]))
        return ast.PlayersDecl(low, low if c[1] is None else _int(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def hands_decl(self, meta: Meta, c: list[ast.Expr | str | None]) -> ast.HandsDecl:
        return ast.HandsDecl(cast(ast.Expr, c[0]), cast("str | None", c[1]),
                             span=self._span(meta))

    @v_args(meta=True)
    def teams_decl(self, meta: Meta, c: list[ast.Expr | Token | str | None]) -> ast.TeamsDecl:
        count, by, in_play, doc = c
        return ast.TeamsDecl(cast(ast.Expr, count), str(by), cast("str | None", doc),
                             in_play=in_play is True, span=self._span(meta))

    def in_play(self, c: list[object]) -> bool:
        return True

    @v_args(meta=True)
    def score_range_decl(self, meta: Meta,
                         c: list[ast.Expr | str | None]) -> ast.ScoreRangeDecl:
        return ast.ScoreRangeDecl(cast(ast.Expr, c[0]), cast(ast.Expr, c[1]),
                                  cast("str | None", c[2]), span=self._span(meta))

    @v_args(meta=True)
    def deck_decl(self, meta: Meta, c: list[object]) -> ast.DeckDecl:
        copies, doc, *entries = c
        return ast.DeckDecl(cast("int | None", copies), cast("str | None", doc),
                            tuple(cast("list[ast.DeckEntry]", entries)), span=self._span(meta))

    def deck_copies(self, c: list[Token]) -> int:
        return _int(c[0])

    @v_args(meta=True)
    def deck_suit(self, meta: Meta, c: list[Token | str | None]) -> ast.DeckSuit:
        return ast.DeckSuit(str(c[0]), unquote(str(c[1])), cast("str | None", c[2]),
                            span=self._span(meta))

    @v_args(meta=True)
    def deck_rank(self, meta: Meta, c: list[Token | int | str | None]) -> ast.DeckRank:
        return ast.DeckRank(str(c[0]), unquote(str(c[1])), _int(cast(Token, c[2])),
                            cast("int | None", c[3]), cast("str | None", c[4]),
                            span=self._span(meta))

    @v_args(meta=True)
    def deck_card(self, meta: Meta, c: list[Token | int | str | None]) -> ast.DeckCard:
        return ast.DeckCard(str(c[0]), unquote(str(c[1])),
                            _int(cast(Token, c[2])) if c[2] is not None else None,
                            cast("int | None", c[3]), cast("str | None", c[4]),
                            span=self._span(meta))

    @v_args(meta=True)
    def deck_run(self, meta: Meta, c: list[Token | int | str | None]) -> ast.DeckRun:
        return ast.DeckRun(str(c[0]), unquote(str(c[1])), _int(cast(Token, c[2])),
                           _int(cast(Token, c[3])), cast("int | None", c[4]),
                           cast("str | None", c[5]), span=self._span(meta))

    @v_args(meta=True)
    def deck_pack(self, meta: Meta, c: list[Token | int | str | None]) -> ast.DeckPack:
        name, copies, *members, doc = c
        return ast.DeckPack(str(name), cast("int | None", copies),
                            tuple(str(m) for m in members), cast("str | None", doc),
                            span=self._span(meta))

    @v_args(meta=True)
    def term_decl(self, meta: Meta, c: list[Token]) -> ast.TermDecl:
        return ast.TermDecl(unquote(str(c[0])), unquote(str(c[1])), span=self._span(meta))

    @v_args(meta=True)
    def hint_decl(self, meta: Meta, c: list[Token]) -> ast.HintDecl:
        return ast.HintDecl(unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def section_decl(self, meta: Meta, c: list[Token | str | None]) -> ast.SectionDecl:
        return ast.SectionDecl(unquote(str(c[0])), cast("str | None", c[1]),
                               span=self._span(meta))

    @v_args(meta=True)
    def table_decl(self, meta: Meta, c: list[Token | ast.Expr | ast.TableCol | str | None]
                   ) -> ast.TableDecl:
        name, title, var, source, *cols, doc = c
        return ast.TableDecl(str(name), unquote(str(title)), str(var), cast(ast.Expr, source),
                             tuple(cast("list[ast.TableCol]", cols)), cast("str | None", doc),
                             span=self._span(meta))

    @v_args(meta=True)
    def table_col(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.TableCol:
        return ast.TableCol(unquote(str(c[0])), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def max_events_decl(self, meta: Meta, c: list[ast.Expr | str | None]) -> ast.MaxEventsDecl:
        return ast.MaxEventsDecl(cast(ast.Expr, c[0]), cast("str | None", c[1]),
                                 span=self._span(meta))

    @v_args(meta=True)
    def game_end_decl(self, meta: Meta, c: list[Token | str | None]) -> ast.GameEndDecl:
        *forms, doc = c
        return ast.GameEndDecl(tuple(str(x) for x in forms), doc, span=self._span(meta))

    @v_args(meta=True)
    def winner_decl(self, meta: Meta, c: list[Token]) -> ast.WinnerDecl:
        return ast.WinnerDecl(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def import_decl(self, meta: Meta, c: list[Token]) -> ast.ImportDecl:
        return ast.ImportDecl(unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def option_decl(
        self, meta: Meta, c: list[Token | ast.TypeExpr | _Bounds | int | str | None]
    ) -> ast.OptionDecl:
        name, typ, rng, default, ref, *texts = c  # "Title" "doc", or "doc" alone
        title, doc = cast("list[str | None]", texts if texts[1] is not None else [None, texts[0]])
        bounds = (rng.lo, rng.hi) if isinstance(rng, _Bounds) else None
        return ast.OptionDecl(str(name), cast(ast.TypeExpr, typ),
                              cast("int | str | ast.ValueCall", default), cast("str | None", ref),
                              doc, bounds, title=title, span=self._span(meta))

    def int_range(self, c: list[int]) -> _Bounds:
        return _Bounds(c[0], c[1])

    @v_args(meta=True)
    def value_call(self, meta: Meta, c: list[Token | int | str]) -> ast.ValueCall:
        name, *args = c
        return ast.ValueCall(str(name), tuple(args), span=self._span(meta))

    def lit_neg_int(self, c: list[Token]) -> int:
        return -_int(c[0])

    @v_args(meta=True)
    def param_value(self, meta: Meta, c: list[Token | ast.ValueParam]) -> ast.ParamValue:
        name, *params = c
        return ast.ParamValue(str(name), tuple(cast("list[ast.ValueParam]", params)),
                              span=self._span(meta))

    @v_args(meta=True)
    def value_param(self, meta: Meta, c: list[Token | _Bounds | None]) -> ast.ValueParam:
        name, typ, rng = c
        bounds = (rng.lo, rng.hi) if isinstance(rng, _Bounds) else None
        return ast.ValueParam(str(name), str(typ), bounds, span=self._span(meta))

    @v_args(meta=True)
    def enum_decl(self, meta: Meta, c: list[Token | ast.TypeEnum | str | None]) -> ast.EnumDecl:
        name, values, doc = c
        return ast.EnumDecl(str(name), cast(ast.TypeEnum, values), cast("str | None", doc),
                            span=self._span(meta))

    @v_args(meta=True)
    def enum_values(self, meta: Meta,
                    c: list[tuple[int | str | ast.ParamValue, str | None]]) -> ast.TypeEnum:
        values = tuple(v for v, _ in c)
        docs = tuple(d for _, d in c)
        return ast.TypeEnum(values, docs if any(d is not None for d in docs) else (),
                            span=self._span(meta))

    @v_args(meta=True)
    def require_decl(self, meta: Meta, c: list[ast.Expr | Token]) -> ast.RequireDecl:
        return ast.RequireDecl(cast(ast.Expr, c[0]), unquote(str(c[1])), span=self._span(meta))

    def zone_shared(self, c: list[object]) -> bool:
        return False

    def zone_per_player(self, c: list[object]) -> bool:
        return True

    def zone_per_team(self, c: list[object]) -> str:
        return "team"

    def visibility(self, c: list[Token]) -> str:
        return str(c[0])

    size_visibility = visibility  # the word, as a visibility's

    @v_args(meta=True)
    def zone_decl(self, meta: Meta, c: list[Token | bool | str | None]) -> ast.ZoneDecl:
        name, per, vis, size_vis, doc = c
        # zone_per_team gives "team": a zone indexed by team
        return ast.ZoneDecl(str(name), per is not False, cast("str | None", vis),
                            cast("str | None", doc), cast("str | None", size_vis),
                            per_team=per == "team",
                            span=self._span(meta))

    per_player = in_play  # present: true

    @v_args(meta=True)
    def var_decl(
        self, meta: Meta, c: list[Token | ast.TypeExpr | bool | ast.Expr | str | None]
    ) -> ast.VarDecl:
        name, typ, per, init, doc = c
        return ast.VarDecl(str(name), cast(ast.TypeExpr, typ), per is True,
                           cast(ast.Expr, init), cast("str | None", doc), span=self._span(meta))

    @v_args(meta=True)
    def result_decl(
        self, meta: Meta, c: list[Token | ast.TypeExpr | bool | ast.Expr | str | None]
    ) -> ast.ResultDecl:
        name, typ, per, init, doc = c
        return ast.ResultDecl(str(name), cast(ast.TypeExpr, typ), per is True,
                              cast(ast.Expr, init), cast("str | None", doc),
                              span=self._span(meta))

    def params(self, c: list[ast.Param]) -> _Params:
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta: Meta, c: list[Token | ast.TypeExpr | None]) -> ast.Param:
        return ast.Param(str(c[0]), cast("ast.TypeExpr | None", c[1]), span=self._span(meta))

    @v_args(meta=True)
    def def_decl(
        self, meta: Meta, c: list[Token | _Params | None | ast.Expr | str]
    ) -> ast.DefDecl:
        name, params, body, doc = c
        return ast.DefDecl(str(name), cast("_Params | None", params) or (), cast(ast.Expr, body),
                           cast("str | None", doc), span=self._span(meta))

    @v_args(meta=True)
    def hook_decl(
        self, meta: Meta, c: list[Token | _Params | None | ast.TypeExpr | ast.Expr | str]
    ) -> ast.HookDecl:
        name, params, typ, default, doc = c
        return ast.HookDecl(str(name), cast("_Params | None", params) or (),
                            cast(ast.TypeExpr, typ), cast("ast.Expr | None", default),
                            cast("str | None", doc), span=self._span(meta))

    @v_args(meta=True)
    def proc_decl(
        self, meta: Meta, c: list[Token | _Params | None | str | ast.Block]
    ) -> ast.ProcDecl:
        name, params, ref, doc, body = c
        return ast.ProcDecl(str(name), cast("_Params | None", params) or (),
                            cast("str | None", ref), cast("str | None", doc),
                            cast(ast.Block, body), span=self._span(meta))

    @staticmethod
    def _ref_doc_block(
        c: list[str | ast.Block | None],
    ) -> tuple[str | None, str | None, ast.Block]:
        ref, doc, body = c
        return cast("str | None", ref), cast("str | None", doc), cast(ast.Block, body)

    @v_args(meta=True)
    def match_decl(self, meta: Meta, c: list[str | ast.Block | None]) -> ast.MatchDecl:
        return ast.MatchDecl(*self._ref_doc_block(c), span=self._span(meta))

    @v_args(meta=True)
    def deal_decl(self, meta: Meta, c: list[str | ast.Block | None]) -> ast.DealDecl:
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
    def type_enum(self, meta: Meta,
                  c: list[tuple[int | str | ast.ParamValue, str | None]]) -> ast.TypeEnum:
        values = tuple(v for v, _ in c)
        docs = tuple(d for _, d in c)
        return ast.TypeEnum(values, docs if any(d is not None for d in docs) else (),
                            span=self._span(meta))

    def enum_entry(self, c: list[int | str | ast.ParamValue | None]
                   ) -> tuple[int | str | ast.ParamValue, str | None]:
        value, doc = c
        assert value is not None
        return value, cast("str | None", doc)

    def lit_int(self, c: list[Token]) -> int:
        return _int(c[0])

    def lit_name(self, c: list[Token]) -> str:
        return str(c[0])

    def lit_string(self, c: list[Token]) -> str:
        return unquote(str(c[0]))

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
    def if_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block | ast.If | None]) -> ast.If:
        return ast.If(cast(ast.Expr, c[0]), cast(ast.Block, c[1]),
                      cast("ast.Block | ast.If | None", c[2]), span=self._span(meta))

    def else_if(self, c: list[ast.If]) -> ast.If:
        return c[0]

    def else_block(self, c: list[ast.Block]) -> ast.Block:
        return c[0]

    @v_args(meta=True)
    def while_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block]) -> ast.While:
        return ast.While(cast(ast.Expr, c[0]), cast(ast.Block, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def loop_stmt(self, meta: Meta, c: list[str | ast.Block | None]) -> ast.Loop:
        return ast.Loop(cast("str | None", c[0]), cast(ast.Block, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta: Meta, c: list[Token | ast.Expr | None | ast.Block]) -> ast.For:
        return ast.For(str(c[0]), cast(ast.Expr, c[1]), cast("ast.Expr | None", c[2]),
                       cast(ast.Block, c[3]), span=self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta: Meta, c: list[ast.Expr | ast.Block]) -> ast.Repeat:
        return ast.Repeat(cast(ast.Expr, c[0]), cast(ast.Block, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def move_stmt(self, meta: Meta, c: list[ast.Expr | Token | None]) -> ast.Move:
        return ast.Move(cast(ast.Expr, c[0]), cast(ast.Expr, c[1]), cast(ast.Expr, c[2]),
                        c[3] is not None, span=self._span(meta))

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
    def pick_stmt(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Pick:
        return ast.Pick(str(c[0]), cast(ast.Expr, c[1]), (), span=self._span(meta))

    @v_args(meta=True)
    def pick_weighted(self, meta: Meta, c: list[Token | ast.Outcome]) -> ast.Pick:
        return ast.Pick(str(c[0]), None, tuple(cast("list[ast.Outcome]", c[1:])),
                        span=self._span(meta))

    @v_args(meta=True)
    def weighted_outcome(self, meta: Meta, c: list[ast.Expr]) -> ast.Outcome:
        return ast.Outcome(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta: Meta, c: list[Token | _Args | None | str]) -> ast.CallStmt:
        name, args, ref = c
        return ast.CallStmt(str(name), tuple(cast("_Args | None", args) or ()),
                            cast("str | None", ref), span=self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta: Meta, c: list[ast.Expr | ast.Alternative]) -> ast.Choose:
        return ast.Choose(cast(ast.Expr, c[0]), tuple(cast("list[ast.Alternative]", c[1:])),
                          span=self._span(meta))

    @v_args(meta=True)
    def choose_together(self, meta: Meta,
                        c: list[Token | ast.Expr | ast.Alternative]) -> ast.Choose:
        return ast.Choose(cast(ast.Expr, c[1]), tuple(cast("list[ast.Alternative]", c[2:])),
                          span=self._span(meta), together=str(c[0]))

    @v_args(meta=True)
    def alternative(
        self, meta: Meta,
        c: list[Token | _Fields | ast.Generator | ast.Expr | str | ast.Told | ast.Block | None],
    ) -> ast.Alternative:
        # NAME, [fields], generator*, [guard], [doc], [rare], [told], block: the generators vary
        name, fields, *gens, guard, doc, rare, told, body = c
        return ast.Alternative(str(name), tuple(cast("_Fields | None", fields) or ()),
                               tuple(cast("list[ast.Generator]", gens)),
                               cast("ast.Expr | None", guard), cast("str | None", doc),
                               cast(ast.Block, body), span=self._span(meta),
                               told=cast("ast.Told | None", told), rare=cast("str | None", rare))

    def fields(self, c: list[ast.Field]) -> _Fields:
        return tuple(c)

    @v_args(meta=True)
    def field(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Field:
        return ast.Field(str(c[0]), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def generator(self, meta: Meta, c: list[Token | ast.Expr]) -> ast.Generator:
        return ast.Generator(str(c[0]), cast(ast.Expr, c[1]), span=self._span(meta))

    @v_args(meta=True)
    def step_stmt(self, meta: Meta, c: list[Token | str | ast.Block | None]) -> ast.Step:
        title, doc, rare, body = cast("tuple[Token, str | None, str | None, ast.Block]", c)
        return ast.Step(unquote(str(title)), doc, body, span=self._span(meta), rare=rare)

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
        flag, scoring, per_team, ref = c
        return ast.EndDeal(str(flag) if flag is not None else None, str(scoring),
                           cast("str | None", ref), per_team=per_team is True,
                           span=self._span(meta))

    def per_team(self, c: list[object]) -> bool:
        return True

    @v_args(meta=True)
    def end_match_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.EndMatch:
        return ast.EndMatch(c[0], span=self._span(meta))

    @v_args(meta=True)
    def end_match_teams(self, meta: Meta, c: list[ast.Expr]) -> ast.EndMatch:
        return ast.EndMatch(c[0], teams=True, span=self._span(meta))

    @v_args(meta=True)
    def sit_out_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.SitOut:
        return ast.SitOut(c[0], span=self._span(meta))

    @v_args(meta=True)
    def reveal_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Reveal:
        return ast.Reveal(c[0], span=self._span(meta))

    @v_args(meta=True)
    def run_deal_stmt(self, meta: Meta, c: list[str | None]) -> ast.RunDeal:
        return ast.RunDeal(c[0], span=self._span(meta))

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
    def option_arg(self, meta: Meta, c: list[Token]) -> ast.OptionArg:
        return ast.OptionArg(str(c[0]), str(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def gen_call(self, meta: Meta, c: list[Token | ast.Expr | None]) -> ast.GenCall:
        return ast.GenCall(str(c[0]), cast(ast.Expr, c[1]), str(c[2]), cast(ast.Expr, c[3]),
                           cast("ast.Expr | None", c[4]), span=self._span(meta))

    @v_args(meta=True)
    def int_lit(self, meta: Meta, c: list[Token]) -> ast.IntLit:
        return ast.IntLit(_int(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta: Meta, c: list[Token]) -> ast.StrLit:
        return ast.StrLit(unquote(str(c[0])), span=self._span(meta))

    @v_args(meta=True)
    def card_lit(self, meta: Meta, c: list[Token]) -> ast.CardLit:
        return ast.CardLit(str(c[0])[1:-1], span=self._span(meta))

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


#: the methods of _ToAst that build a rule's node (bound once per transformer)
_RULE_METHODS = tuple(name for name, v in vars(_ToAst).items()
                      if not name.startswith("_") and callable(v))


#: the deepest nesting of a spec's rules (parentheses, operators, blocks, else-if chains):
#: every stage after the parser walks the rules recursively, so a deeper spec is refused here,
#: at the place it goes too deep, rather than failing on a limit of Python's
MAX_NESTING = 100


#: the rules of a chain of operators written one after another (``a + b + c``, ``p and q and
#: r``): each operator nests the chain before it one level deeper
_CHAINS = frozenset({"binop", "and_op", "or_op"})


def _too_deep(tree: lark.Tree, text: str, source_name: str) -> SpecSyntaxError | None:
    """The error for the first place ``tree`` nests deeper than MAX_NESTING, if any (walked
    with a stack of its own: the tree may be deeper than Python's recursion limit)."""
    # each entry: a node, its depth, and how many of the levels above it are links of a chain
    stack: list[tuple[lark.Tree, int, int]] = [(tree, 0, 0)]
    while stack:
        node, depth, links = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line, col = getattr(meta, "line", 1), getattr(meta, "column", 1)
            span = ast.Span(source_name, line, col, line, col + 1)
            if 2 * links >= depth:
                # a long chain, not a deep one: what the limit counts, and the flat ways
                return SpecSyntaxError(Diagnostic(
                    span, f"the rules are nested more than {MAX_NESTING} levels deep here: "
                    f"each operator of a chain such as a + b + c nests the part before it "
                    f"one level deeper",
                    "write a long sum as sum([a, b, c, ...]), a long 'and' as "
                    "all(x for x in [a, b, c, ...]), a long 'or' with any(...), or split the "
                    "chain into definitions"), text)
            return SpecSyntaxError(Diagnostic(
                span, f"the rules are nested more than {MAX_NESTING} levels deep here",
                "split the expression or the block into definitions or procedures"), text)
        for i, c in enumerate(node.children):
            if isinstance(c, lark.Tree):
                link = i == 0 and node.data in _CHAINS and c.data == node.data
                stack.append((c, depth + 1, links + link))
    return None


def parse(text: str, source_name: str = "<spec>") -> ast.Spec:
    """Parse the text of a .rules file into an :class:`ast.Spec`, or raise SpecSyntaxError.

    CRLF and CR are read as LF (:func:`normalise_newlines`); spans count lines by LF."""
    with paused_gc():
        return _parse(normalise_newlines(text), source_name)


def _parse(text: str, source_name: str) -> ast.Spec:
    try:
        tree = _parser().parse(text)
    except lark.UnexpectedInput as e:
        raise syntax_error(e, text, source_name, _parser()) from None
    except BadToken as e:
        raise token_error(e, text, source_name) from None
    deep = _too_deep(tree, text, source_name)
    if deep is not None:
        raise deep
    try:
        return _ToAst(source_name).transform(tree)
    except lark.exceptions.VisitError as e:
        if not isinstance(e.orig_exc, BadToken):
            raise
        raise token_error(e.orig_exc, text, source_name) from None


#: the rules whose strings are not prose: a module's path (a string in an expression is prose)
_NOT_PROSE = frozenset({"import_decl"})


def texts(text: str, source_name: str = "<spec>") -> list[tuple[str, int]]:
    """Every piece of prose of a spec (titles, docstrings, terms, table cells...) with its line,
    in the file's order: what a catalog translates (book.i18n). Errors as :func:`parse`'s."""
    parse(text, source_name)  # a spec that does not parse: the diagnostic parse gives
    tree = _parser().parse(normalise_newlines(text))
    skip = {id(tok) for sub in tree.iter_subtrees() if sub.data in _NOT_PROSE
            for tok in sub.children if isinstance(tok, Token)}
    found = sorted((t for t in tree.scan_values(lambda v: isinstance(v, Token) and
                                                v.type == "STRING") if id(t) not in skip),
                   key=lambda tok: tok.start_pos or 0)
    return [(unquote(str(tok)), tok.line or 0) for tok in found]
