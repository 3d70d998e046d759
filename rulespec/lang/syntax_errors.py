"""Lark's errors as :class:`SpecSyntaxError`: the one place they are converted (Preql's
``parse_stmts``), with the catalogue of common mistakes that labels them (Lark's
``match_examples``, examples/advanced/error_reporting_lalr.py).

Everything a syntax error says about tokens comes from the grammar: a keyword or punctuation is
shown as the grammar writes it (``'{'``, ``'then'``), an alternation of literals as its
literals, and only the lexemes of ``_LEXEMES``, which the grammar defines by a regular
expression, need words. The parser is handed in (``lalr``), not imported, so that imports run
one way: :mod:`rulespec.lang.parser` builds it and calls here.
"""

from __future__ import annotations

import difflib
import functools
import re

import attrs
import lark
from lark import Token

from rulespec.errors import Diagnostic, SpecSyntaxError
from rulespec.lang import ast

__all__ = ["BadToken", "syntax_error", "token_error"]


class BadToken(Exception):
    """A token the grammar takes but the language refuses (raised while lexing or transforming,
    at its token)."""

    def __init__(self, token: Token, message: str, hint: str, at: int = 0) -> None:
        super().__init__(message)
        self.token, self.message, self.hint, self.at = token, message, hint, at


#: the grammar's terminals defined by a regular expression, in words
_LEXEMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string",
    "REF": "an ID such as [VAN-13]", "AT_BOTTOM": "'at bottom'",
}
_REGEX_META = frozenset(".^$*+?{}[]()|")


def _literals(pattern: str) -> list[str] | None:
    """The literals of a terminal written ``"a" | "b"`` (Lark compiles it to ``(?:a|b)``)."""
    m = re.fullmatch(r"\(\?:(.*)\)", pattern)
    if m is None:
        return None
    out = []
    for part in m.group(1).split("|"):
        if any(ch in _REGEX_META for ch in re.sub(r"\\.", "", part)):
            return None
        out.append(re.sub(r"\\(.)", r"\1", part))
    return out


@functools.cache
def _token_names(lalr: lark.Lark) -> dict[str, str]:
    """Terminal name -> how an error message shows it, for every terminal of the grammar."""
    names = {"$END": "end of file"}
    for t in lalr.terminals:
        if isinstance(t.pattern, lark.lexer.PatternStr):
            names[t.name] = f"'{t.pattern.value}'"
        elif t.name in _LEXEMES:
            names[t.name] = _LEXEMES[t.name]
        else:
            lits = _literals(t.pattern.value)
            names[t.name] = " or ".join(f"'{x}'" for x in lits) if lits else t.name.lower()
    return names


def _accepted_after(lalr: lark.Lark, prefix: str) -> frozenset[str]:
    ip = lalr.parse_interactive(prefix)
    ip.exhaust_lexer()
    return frozenset(ip.accepts())


@functools.cache
def _keywords(lalr: lark.Lark) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The grammar's words: all keywords, those that start a declaration, and a statement."""
    words = {t.name: str(t.pattern.value) for t in lalr.terminals
             if isinstance(t.pattern, lark.lexer.PatternStr)
             and re.fullmatch(r"[A-Za-z_]\w*", str(t.pattern.value))}
    top, stmt = _accepted_after(lalr, ""), _accepted_after(lalr, "deal {")
    return (frozenset(words.values()), frozenset(w for n, w in words.items() if n in top),
            frozenset(w for n, w in words.items() if n in stmt))


def _describe(lalr: lark.Lark, expected: set[str]) -> str:
    table = _token_names(lalr)
    names = sorted({table.get(e, e) for e in expected})
    if len(names) > 8:
        return ""
    return " or ".join(names)


@attrs.frozen
class _Mistake:
    """A common mistake: what the message adds after ``unexpected X:``, and the hint."""

    what: str
    hint: str


_OPEN_BLOCK = _Mistake("a declaration starts inside a block",
                       "{word!r} starts a declaration here; a block opened earlier may be missing "
                       "its '}}'{brace}")
_OUTSIDE = _Mistake("a statement outside any block",
                    "statements go inside a block: deal {{ ... }}, match {{ ... }} or "
                    "procedure NAME() {{ ... }}")
_NO_THEN = _Mistake("an if-expression needs 'then'",
                    "write: if CONDITION then VALUE else VALUE")
_ASSIGN = _Mistake("'=' gives a value; a condition compares with '=='",
                   "write '==' to compare (and '!=' for 'not equal')")
_NO_QUOTE = _Mistake("the text after a declaration must be a \"doc string\"",
                     "start the text with '\"' and end it with '\"' on the same line")
_NO_COLON = _Mistake("a ':' is missing before the type",
                     "write the name, ':' then the type: var NAME: TYPE = VALUE, "
                     "option NAME: TYPE = VALUE, zone NAME: shared, f(NAME: TYPE)")
_PLAYERS = _Mistake("the players line is 'players N' or 'players MIN to MAX'",
                    "write players 4 for exactly four players, or players 2 to 4 for two to "
                    "four")
_NO_WEIGHT = _Mistake("a weighted pick gives every outcome its weight",
                      "write VALUE: WEIGHT for each outcome, or leave every weight out: "
                      "pick NAME from [A, B, C]")

# Examples for Lark's match_examples: each fails in the parser state (and with the accepted
# tokens) of the mistake it illustrates. LALR states include the depth of the stack, so the
# statement examples are repeated at the usual depths (first or later statement, nested block).
_TOP_CONTEXTS = ("", 'game g title "G"\n')
_STMT_CONTEXTS = ("deal {\n", "deal {\n  shuffle s\n", "deal {\n  loop {\n",
                  "deal {\n  loop {\n    shuffle s\n", "deal {\n  for q in s {\n",
                  "deal {\n  if c {\n    shuffle s\n")


def _at_top(*snippets: str) -> list[str]:
    return [ctx + s for s in snippets for ctx in _TOP_CONTEXTS]


def _in_block(*snippets: str) -> list[str]:
    return [top + ctx + s for s in snippets for ctx in _STMT_CONTEXTS for top in _TOP_CONTEXTS]


_EXAMPLES: list[tuple[_Mistake, list[str]]] = [
    (_OPEN_BLOCK, _in_block("match {", "procedure p() {", "var v: int = 0", "zone z: shared",
                            "deal {", "option o: int = 1", "def f() = 1", "players 2 to 4")),
    (_OUTSIDE, _at_top("shuffle s", "let x = 1", "set x = 1", "move c from a to b",
                       "fill z with []", "end deal scoring s", "run deal", "choose p {",
                       "loop {", "while c {", "repeat 3 {", "break", "return")),
    (_NO_THEN, _at_top("def f() = if c 1 else 2", "def f() = if c x else y",
                       "def f() = if g(c) 1 else 2", "def f() = if a == b 1 else 2")
     + _in_block("let x = if c 1 else 2", "set x = if c y else z")),
    (_ASSIGN, _in_block("if x = 1 {", "while x = 1 {", "if f(x) = 1 {", "if x[0] = 1 {",
                        "if 1 = x {", "let y = if x = 1 then 1 else 2")
     + _at_top('require x = 1 "r"', "def f() = if x = 1 then 1 else 2")),
    (_NO_QUOTE, _at_top('zone z: shared visible to all The pack."', 'zone z: shared Text."',
                        'option o: int = 1 Text."', 'game g title "G" Text."',
                        'var v: int = 0 Text."', 'hands 5 Text."', 'def f() = 1 Text."')),
    (_NO_WEIGHT, _in_block("pick x from [1: 2, 3]", "pick x from [a: 1, b]",
                           "pick x from [1, 2: 3]", "pick x from [a, b: 1, c]")),
    (_NO_COLON, _at_top("zone z shared", "zone z per player", "var v int = 0",
                        "var v list of card = []", "option o int = 1", "def f(x int) = 1",
                        "procedure p(x int) {")),
]


def _open_brace(e: lark.UnexpectedInput) -> Token | None:
    """The innermost '{' not yet closed where the parser stopped (blocks are reduced on '}')."""
    stack = getattr(e.state, "value_stack", None) or []
    braces = [v for v in stack if isinstance(v, Token) and v.type == "LBRACE"]
    return braces[-1] if braces else None


@functools.cache
def _example_error(lalr: lark.Lark, example: str) -> lark.UnexpectedInput | None:
    try:
        lalr.parse(example)
    except lark.UnexpectedInput as e:
        return e
    return None  # pragma: no cover - test_parser checks that every example fails


def _at_line_start(tok: Token | None, text: str) -> bool:
    return tok is not None and text[:tok.start_pos or 0].rsplit("\n", 1)[-1].strip() == ""


def _declaration_word(lalr: lark.Lark, e: lark.UnexpectedToken, text: str) -> str | None:
    """The word that starts a declaration at the start of its line, where the parser stopped:
    the unexpected token itself, or the one before it (read as a name where no keyword fits)."""
    _, top, stmts = _keywords(lalr)
    prev = (e.token_history or [None])[-1]
    for tok in (e.token, prev):
        # 'deal' also starts a statement: only unindented is it surely a declaration
        if (tok is not None and str(tok) in top and _at_line_start(tok, text)
                and (str(tok) not in stmts or tok.column == 1)):
            return str(tok)
    return None


def _in_players(e: lark.UnexpectedInput) -> bool:
    """Whether the parser stopped inside a ``players`` line (its keyword is on the stack)."""
    stack = getattr(e.state, "value_stack", None) or []
    return any(isinstance(v, Token) and v.type == "PLAYERS" for v in stack)


def _players_diagnostic(e: lark.UnexpectedToken, source_name: str) -> Diagnostic:
    """The error of a ``players`` line the grammar refuses (``players 2-4``, ``players 2 to``),
    at its unexpected token, or at the end of the line where the next line's word came next (a
    line cut short is not about the declaration after it)."""
    tok, prev = e.token, (e.token_history or [None])[-1]
    if tok.type == "$END":
        line, col, shown, width = tok.line or 1, tok.column or 1, "end of file", 1
    elif prev is not None and tok.line != prev.line:
        line, col, shown, width = prev.end_line or 1, prev.end_column or 1, "end of line", 1
    else:
        line, col, shown = tok.line or 1, tok.column or 1, repr(str(tok))
        width = max(1, len(str(tok)))
    return Diagnostic(ast.Span(source_name, line, col, line, col + width),
                      f"unexpected {shown}: {_PLAYERS.what}", _PLAYERS.hint)


def _fits(lalr: lark.Lark, m: _Mistake, e: lark.UnexpectedToken, text: str) -> bool:
    """Whether the mistake explains the error: the condition its examples share. It also
    labels the errors in states that no example reaches (other depths, other declarations)."""
    tok, accepts = e.token, set(e.accepts or e.expected)
    if m is _OPEN_BLOCK:
        return _open_brace(e) is not None and _declaration_word(lalr, e, text) is not None
    if m is _OUTSIDE:
        return (_open_brace(e) is None and str(tok) in _keywords(lalr)[2]
                and str(tok) not in _keywords(lalr)[1] and _at_line_start(tok, text))
    if m is _NO_THEN:
        return "THEN" in accepts
    if m is _ASSIGN:
        return tok.type == "EQUAL" and "COMP_OP" in accepts
    if m is _NO_QUOTE:
        rest = text[tok.start_pos or 0:].split("\n", 1)[0].rstrip()
        return (tok.type == "NAME" and "STRING" in accepts and rest.endswith('"')
                and rest.count('"') == 1)
    if m is _NO_WEIGHT:
        line = text[:tok.start_pos or 0].rsplit("\n", 1)[-1]
        return line.lstrip().startswith("pick ") and (
            "COLON" in e.expected or tok.type == "COLON")
    assert m is _NO_COLON
    return "COLON" in e.expected


def _classify(lalr: lark.Lark, e: lark.UnexpectedToken, text: str) -> _Mistake | None:
    """Which common mistake the error looks like: the example whose error it matches (Lark's
    match_examples), kept only where the mistake's condition holds (one parser state can be
    reached by several mistakes: 'procedure p' and a misspelt 'shufle s' both read NAME NAME),
    else the first mistake whose condition holds."""
    if e.token.type == "$END":
        return None
    label = None
    if e.state is not None:
        # use_accepts=True would compare the accepted tokens too, but Lark 1.3 then formats a
        # debug message with %d on the ParserState and raises TypeError; the filter below does
        # the same comparison: an example failing with other accepted tokens counts as parsed.
        # Each example is parsed once per process; match_examples gets its cached error back.
        def parse_fn(example: str) -> lark.Tree[Token]:
            ut = _example_error(lalr, example)
            if ut is None or (isinstance(ut, lark.UnexpectedToken) and ut.accepts != e.accepts):
                return lark.Tree("start", [])
            raise ut.with_traceback(None)

        label = e.match_examples(parse_fn, _EXAMPLES, use_accepts=False)
    if label is not None and _fits(lalr, label, e, text):
        return label
    return next((m for m, _ in _EXAMPLES if _fits(lalr, m, e, text)), None)


def _misspelt_keyword(lalr: lark.Lark, e: lark.UnexpectedToken, text: str) -> str | None:
    """"did you mean 'choose'?" when the word the error's line starts with, or the unexpected
    word itself, is no keyword but nearly one (``chose p {``, ``shufle stock``)."""
    tok = e.token
    line = text.split("\n")[(tok.line or 1) - 1] if tok.line else ""
    first = re.match(r"\s*([A-Za-z_]\w*)", line)
    candidates = [first.group(1)] if first else []
    if tok.type == "NAME":
        candidates.append(str(tok))
    keywords = _keywords(lalr)[0]
    for word in candidates:
        if word in keywords or len(word) < 3:
            continue
        close = difflib.get_close_matches(word, sorted(keywords), n=1, cutoff=0.8)
        if close:
            return f"did you mean {close[0]!r} (not {word!r})?"
    return None


def syntax_error(e: lark.UnexpectedInput, text: str, source_name: str,
                 lalr: lark.Lark) -> SpecSyntaxError:
    """The one place a Lark error becomes a SpecSyntaxError (Preql parse_stmts); ``lalr`` is
    the parser that raised it, whose grammar names the tokens and keywords."""
    line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
    span = ast.Span(source_name, line, col, line, col + 1)
    hint = None
    if isinstance(e, lark.UnexpectedCharacters):
        pos = e.pos_in_stream or 0
        ch = text[pos] if pos < len(text) else "end of input"
        msg = f"unexpected character {ch!r}"
        if ch == '"':
            msg += ": a string is not closed on its line"
            hint = "strings end on the same line; use triple quotes for long text"
    elif isinstance(e, lark.UnexpectedEOF):  # pragma: no cover - LALR reports a $END token
        msg = "unexpected end of file"
        hint = "a block opened with '{' may be missing its '}'"
    else:
        assert isinstance(e, lark.UnexpectedToken)
        if _in_players(e):
            return SpecSyntaxError(_players_diagnostic(e, source_name), text)
        tok = e.token
        shown = "end of file" if tok.type == "$END" else repr(str(tok))
        msg = f"unexpected {shown}"
        want = _describe(lalr, set(e.expected))
        if want:
            hint = f"expected {want}"
        brace = _open_brace(e)
        mistake = _classify(lalr, e, text)
        called = _called_statement(text, tok)
        if called is not None:
            msg = (f"unexpected '(': {called!r} starts a statement, so nothing named {called} "
                   "can be called")
            hint = (f"'{called}' became a statement of the language: rename the procedure "
                    f"called {called} and its calls")
        elif mistake is not None:
            msg = f"{msg}: {mistake.what}"
            where = f" (the '{{' at line {brace.line})" if brace is not None else ""
            hint = mistake.hint.format(word=_declaration_word(lalr, e, text), brace=where)
        elif tok.type == "$END" and brace is not None:
            hint = (f"expected {want}; " if want else "") + \
                f"the block opened with '{{' at line {brace.line} is missing its '}}'"
        elif tok.type != "$END" and str(tok) in _keywords(lalr)[0]:
            hint = (hint + "; " if hint else "") + \
                f"{str(tok)!r} is a keyword and cannot be a name here"
        typo = _misspelt_keyword(lalr, e, text)
        if typo is not None:
            hint = (hint + "; " if hint else "") + typo
        span = ast.Span(source_name, line, col, line, col + max(1, len(str(tok))))
    return SpecSyntaxError(Diagnostic(span, msg, hint), text)




#: words that start a statement now but were names a spec could give a procedure before
_NEW_STATEMENTS = frozenset({"pick", "sit", "reveal"})


def _called_statement(text: str, tok: lark.Token) -> str | None:
    """The statement word ``tok`` follows when ``tok`` is a call's '(' (``pick(1)``, from a
    spec that named a procedure so before the word began a statement), else None."""
    pos = tok.start_pos
    if str(tok) != "(" or pos is None:
        return None
    before = text[:pos].rstrip(" \t")
    word = before[len(before.rstrip("abcdefghijklmnopqrstuvwxyz_")):]
    return word if word in _NEW_STATEMENTS else None


def token_error(e: BadToken, text: str, source_name: str) -> SpecSyntaxError:
    """The SpecSyntaxError of a token the language refuses, at the character it refuses."""
    tok = e.token
    line, col = tok.line or 1, (tok.column or 1) + e.at
    width = 1 if e.at else len(str(tok))
    return SpecSyntaxError(Diagnostic(ast.Span(source_name, line, col, line, col + width),
                                      e.message, e.hint), text)
