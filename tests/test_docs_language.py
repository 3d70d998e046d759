"""Every ``rules`` code block of docs/language.md checks, or fails exactly as the text says.

Conventions for code blocks in docs/language.md (its section "How to read the examples" says
the same for readers):

``rules``
    A complete spec. ``check_text(text, "doc.rules")`` must accept it.

``rules-fragment``
    Part of a spec: declarations, statements, or one expression. The test wraps it into a small
    host game (below), and the result must check.

``rules-error``
    A complete spec (it has a ``game`` declaration) or a fragment, wrapped the same way. Its first
    line is a comment ``# error: MESSAGE-PREFIX``; more such lines may follow. Checking must raise
    a RulespecError with, for each such line, a diagnostic whose message starts with the prefix.

Wrapping a fragment. The fragment is cut, at a line boundary, into a head of top-level
declarations (option, zone, var, def, procedure, deal, match, ...) and a tail that is either a
list of statements or a single expression. The first cut (from the top) where the head parses as
declarations and the tail parses as statements or as an expression wins; statements are tried
first, so a lone call such as ``left_of(dealer)`` is read as a procedure call (write
``let x = left_of(dealer)`` to show an expression). The host then supplies every part the
fragment lacks::

    game fragment_host title "Fragment host"    each unless the fragment declares its own
    players 2 to 4
    winner lowest total
    zone stock: shared visible to nobody        each unless the fragment declares that name
    zone discard: shared visible to all
    zone hand: per player visible to owner
    def fragment_score(q: int) = 0
    <the fragment's declarations>
    deal {                                      unless the fragment has its own deal block
      let p = left_of(dealer)                   a seat (unless the fragment declares p)
      let c = first(pack(1))                    a card (unless the fragment declares c)
      <the statements; or: let fragment_value = <the expression>>
      end deal scoring fragment_score
    }
    match {                                     unless the fragment has its own match block
      run deal
      end match winners seats
    }

So statements land inside the deal block of a tiny game. An error fragment that parses in no
way (it shows a syntax error) is placed whole among the declarations when its first code line
starts a declaration, and inside the deal otherwise.

The tests run in docs/, so an ``import`` in an example finds the modules kept there. Finally, the
last ``rules`` block of the tutorial (Part 1) must be examples/crazy_eights.rules, byte for byte.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.errors import RulespecError, SpecSyntaxError
from rulespec.lang import ast
from rulespec.lang.checker import check_text
from rulespec.lang.parser import parse

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGUAGE = DOCS / "language.md"
EXAMPLE = ROOT / "examples" / "crazy_eights.rules"
REFERENCE_HEADING = "## Part 2"

_FENCE = re.compile(r"^```(\S*)\s*$")
_ERROR_LINE = re.compile(r"^#\s*error:\s*(.+?)\s*$")
_DECL_START = re.compile(
    r"^(game|players|hands|game_end|winner|import|option|enum|require|zone|var|def|procedure|match)"
    r"\b"
    r"|^deal\s*(\{|\[|\")"
)


class Block:
    """One fenced code block of the document."""

    def __init__(self, tag: str, text: str, line: int) -> None:
        self.tag = tag
        self.text = text
        self.line = line

    def __repr__(self) -> str:
        return f"{self.tag}@{self.line}"


def blocks(markdown: str) -> list[Block]:
    """Every fenced block, with its tag and the line of its opening fence (1-based)."""
    out: list[Block] = []
    tag: str | None = None
    start = 0
    body: list[str] = []
    for n, line in enumerate(markdown.splitlines(), start=1):
        m = _FENCE.match(line)
        if tag is None:
            if m:
                tag, start, body = m.group(1), n, []
        elif line.strip() == "```":
            out.append(Block(tag, "".join(x + "\n" for x in body), start))
            tag = None
        else:
            body.append(line)
    assert tag is None, f"unclosed code block at line {start}"
    return out


def _parses(text: str) -> ast.Spec | None:
    try:
        return parse(text, "doc.rules")
    except SpecSyntaxError:
        return None


def _as_statements(text: str) -> tuple[ast.Stmt, ...] | None:
    spec = _parses("deal {\n" + text + "\n}\n")
    if spec is None:
        return None
    (deal,) = spec.items
    assert isinstance(deal, ast.DealDecl)
    return deal.body.stmts


def _is_expression(text: str) -> bool:
    return _parses("deal {\n  let fragment_value =\n" + text + "\n}\n") is not None


def _blank(text: str) -> bool:
    return all(not ln.strip() or ln.strip().startswith("#") for ln in text.splitlines())


def split_fragment(text: str) -> tuple[str, str, str] | None:
    """(declarations, kind, tail) with kind "statements" or "expression", or None."""
    lines = text.splitlines()
    for k in range(len(lines) + 1):
        head = "".join(x + "\n" for x in lines[:k])
        tail = "".join(x + "\n" for x in lines[k:])
        decls = _parses(head)
        if decls is None:
            continue
        if _blank(tail):
            return head, "statements", ""
        if _as_statements(tail) is not None:
            return head, "statements", tail
        if _is_expression(tail):
            return head, "expression", tail
    return None


def wrap(text: str) -> str:
    """The fragment inside the host game (see the module docstring)."""
    split = split_fragment(text)
    if split is None:  # a syntax error on purpose: place it whole
        first = next((ln.strip() for ln in text.splitlines()
                      if ln.strip() and not ln.strip().startswith("#")), "")
        split = (text, "statements", "") if _DECL_START.match(first) else \
            ("", "statements", text)
    head, kind, tail = split
    items = parsed.items if (parsed := _parses(head)) is not None else ()
    kinds = {type(it) for it in items}
    names = {getattr(it, "name", None) for it in items}
    out: list[str] = []
    if ast.GameDecl not in kinds:
        out.append('game fragment_host title "Fragment host"')
    if ast.PlayersDecl not in kinds:
        out.append("players 2 to 4")
    if ast.WinnerDecl not in kinds:
        out.append("winner lowest total")
    for name, decl in (("stock", "shared visible to nobody"), ("discard", "shared visible to all"),
                       ("hand", "per player visible to owner")):
        if name not in names:
            out.append(f"zone {name}: {decl}")
    out.append("def fragment_score(q: int) = 0")
    out.append(head)
    if ast.DealDecl in kinds:
        assert _blank(tail), "a fragment with its own deal block cannot add statements"
    else:
        out.append("deal {")
        if "p" not in names:
            out.append("  let p = left_of(dealer)")
        if "c" not in names:
            out.append("  let c = first(pack(1))")
        out.append(tail if kind == "statements" else f"  let fragment_value =\n{tail}")
        out.append("  end deal scoring fragment_score")
        out.append("}")
    if ast.MatchDecl not in kinds:
        out += ["match {", "  run deal", "  end match winners seats", "}"]
    return "\n".join(out) + "\n"


def _is_complete(text: str) -> bool:
    return any(re.match(r"^game\s", ln) for ln in text.splitlines())


def _render(e: RulespecError) -> str:
    render = getattr(e, "render", None)
    return render() if callable(render) else str(e)


DOC_TEXT = LANGUAGE.read_text(encoding="utf-8")
BLOCKS = blocks(DOC_TEXT)
RULES_TAGS = {"rules", "rules-fragment", "rules-error"}


def _select(tag: str) -> list[Block]:
    return [b for b in BLOCKS if b.tag == tag]


@pytest.fixture(autouse=True)
def _in_docs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(DOCS)


def test_document_has_examples_of_each_kind() -> None:
    assert len(_select("rules")) >= 5
    assert len(_select("rules-fragment")) >= 20
    assert len(_select("rules-error")) >= 20
    unknown = [b for b in BLOCKS if b.tag.startswith("rule") and b.tag not in RULES_TAGS]
    assert not unknown, f"blocks with an unknown tag: {unknown}"


@pytest.mark.parametrize("block", _select("rules"), ids=repr)
def test_complete_spec_checks(block: Block) -> None:
    try:
        check_text(block.text, "doc.rules")
    except RulespecError as e:
        pytest.fail(f"docs/language.md:{block.line}: the spec does not check:\n{_render(e)}")


@pytest.mark.parametrize("block", _select("rules-fragment"), ids=repr)
def test_fragment_checks(block: Block) -> None:
    assert split_fragment(block.text) is not None, \
        f"docs/language.md:{block.line}: the fragment is neither declarations, statements " \
        "nor an expression"
    text = wrap(block.text)
    try:
        check_text(text, "doc.rules")
    except RulespecError as e:
        pytest.fail(f"docs/language.md:{block.line}: the wrapped fragment does not check:\n"
                    f"{_render(e)}\n--- wrapped text ---\n{text}")


@pytest.mark.parametrize("block", _select("rules-error"), ids=repr)
def test_error_example_fails_as_documented(block: Block) -> None:
    lines = block.text.splitlines()
    wanted = []
    for ln in lines:
        m = _ERROR_LINE.match(ln)
        if not m:
            break
        wanted.append(m.group(1))
    assert wanted, f"docs/language.md:{block.line}: a rules-error block starts with '# error: ...'"
    text = block.text if _is_complete(block.text) else wrap(block.text)
    with pytest.raises(RulespecError) as info:
        check_text(text, "doc.rules")
    messages = [d.message for d in getattr(info.value, "diagnostics", ())]
    for prefix in wanted:
        assert any(m.startswith(prefix) for m in messages), \
            f"docs/language.md:{block.line}: no diagnostic starts with {prefix!r}; got " \
            f"{messages}\n--- checked text ---\n{text}"


def test_tutorial_ends_with_the_example_spec() -> None:
    cut = DOC_TEXT.find("\n" + REFERENCE_HEADING)
    assert cut > 0, f"docs/language.md has no heading starting {REFERENCE_HEADING!r}"
    tutorial_end = DOC_TEXT[:cut].count("\n") + 1
    specs = [b for b in _select("rules") if b.line < tutorial_end]
    assert specs, "the tutorial has no complete spec"
    assert specs[-1].text == EXAMPLE.read_text(encoding="utf-8")


def test_wrapping_places_statements_in_the_deal() -> None:
    wrapped = wrap("set named = hearts\n")
    assert "deal {\n  let p = left_of(dealer)" in wrapped
    assert wrapped.index("set named = hearts") > wrapped.index("deal {")
    head, kind, tail = split_fragment("var k: int = 0\nset k = k + 1\n") or ("", "", "")
    assert (head, kind, tail) == ("var k: int = 0\n", "statements", "set k = k + 1\n")
    assert split_fragment("rank(c) + 1\n") == ("", "expression", "rank(c) + 1\n")
    assert split_fragment("draw_one(p)\n") == ("", "statements", "draw_one(p)\n")


def test_every_builtin_function_is_documented() -> None:
    """A built-in added to rulespec/builtins.py is not finished until the language reference
    shows it called."""
    from rulespec.lang.builtins import BUILTINS

    text = LANGUAGE.read_text(encoding="utf-8")
    missing = [n for n in BUILTINS if f"{n}(" not in text]
    assert not missing, f"docs/language.md does not describe {missing}"


def test_the_tricks_modules_hooks_are_quoted_as_the_module_writes_them() -> None:
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    module = (ROOT / "rulespec" / "games" / "tricks.rules").read_text(encoding="utf-8")
    block = doc[doc.index("```text\nhook card_as(c: card): card\n") + 8:]
    block = block[:block.index("```")]
    quoted = [h.strip() for h in block.split("\n\n") if h.strip()]
    assert len(quoted) >= 2
    for h in quoted:
        assert h in module, f"docs/language.md quotes a hook unlike tricks.rules:\n{h}"
