"""Generated Python names cannot collide with a spec's names.

Calls of definitions are expanded in place, and the compiler names the temporaries it makes
(a parameter bound once, a renamed bound variable). A spec is free to name its own variables
like those temporaries (``x_1``, ``t1_x``, ``v_x``); whatever it picks, the inlined code must
compute what the definitions compute when each is compiled as a function of its own
(``inline=False``), and what the arithmetic says.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec import check_text
from rulespec.engine.codegen.exprs import ExprCompiler

#: names a spec may write that imitate the compiler's (old and new) temporaries
NAMES = ["x", "x_1", "x_2", "x_3", "v_x", "v_x_1", "t1_x", "t2_x", "t1_a", "a", "a_1", "y"]

SPEC = """
game names title "Names"
players 2 to 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def twice_plus({A}: int, {B}: int) = {A} + {A} + {B}
def probe({P}: int) = twice_plus({P} + 1, {P}) * 10
  + sum(twice_plus({G} + 2, {P}) for {G} in range(1, 3))
deal {{
  fill stock with pack(1)
  choose 0 {{
    show() "Show." {{
      end deal scoring zero
    }}
  }}
}}
def zero(p: int) = 0
match {{
  run deal
  end match winners [q for q in seats if totals[q] == min(totals[r] for r in seats)]
}}
"""


def expected(p: int) -> int:
    return (3 * p + 2) * 10 + sum(2 * (g + 2) + p for g in range(1, 4))


@given(st.lists(st.sampled_from(NAMES), min_size=4, max_size=4, unique=True),
       st.integers(-5, 5))
def test_inlined_names_do_not_capture(names: list[str], p: int) -> None:
    a, b, q, g = names
    spec = check_text(SPEC.format(A=a, B=b, P=q, G=g), "names.rules")
    state = SimpleNamespace(v={}, z={}, work=10**9, left=10**9)  # budgets, as a State has
    got = {}
    for inline in (True, False):
        ec = ExprCompiler(spec, 2, spec.defaults(), inline=inline)
        got[inline] = ec.def_fns["probe"](state, p)
    assert got[True] == got[False] == expected(p), (names, got)


def _playout(game: str, players: int, seed: int) -> tuple[list[str], object]:
    import json
    import random

    from rulespec import Game
    from rulespec.loading import resolve
    from rulespec.simulate import sample_event

    state = Game(resolve(game).spec, players).new_initial_state()
    rng = random.Random(seed)
    events = []
    while not state.is_terminal() and len(events) < 3000:
        ev = sample_event(state.legal_actions(), rng)
        state.apply(ev)
        events.append(json.dumps(ev, sort_keys=True))
    return events, state.result()


def test_shipped_games_play_the_same_without_inlining(monkeypatch: object) -> None:
    """RULESPEC_NO_INLINE=1 changes how the code is laid out, never what it computes."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    for game, players in (("vandatta", 3), ("abracadabra", 4), ("abracadabra", 3)):
        for seed in range(2):
            inlined = _playout(game, players, seed)
            monkeypatch.setenv("RULESPEC_NO_INLINE", "1")
            plain = _playout(game, players, seed)
            monkeypatch.delenv("RULESPEC_NO_INLINE")
            assert plain == inlined, (game, players, seed)


# ---- text from a spec reaches generated code only as values -------------------------------
#: characters that mean something to Python or to the spec's own strings
_HOSTILE = st.lists(st.sampled_from(list("\"'\\{}#;:()[]\n\t=+-*/%<>!@$^&|~`?,. ") +
                                    list("abcXYZé€") + ["\u202e", "'''", '"""', "}}", "{0}",
                                                        "\nimport os\n"]),
                    max_size=12).map("".join)


def _spec_string(text: str) -> str:
    """``text`` as a string literal of the language (its four escapes)."""
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") \
        .replace("\t", "\\t")
    return f'"{body}"'


@given(_HOSTILE, _HOSTILE, _HOSTILE)
def test_spec_text_reaches_generated_code_only_as_literals(value: str, word: str,
                                                           doc: str) -> None:
    """An option value, a string field and a doc string full of quotes, backslashes, braces
    and comment signs: the generated Python parses, every name in it is one the compiler
    made, the texts appear in it only as string constants, and the game hands them back
    exactly as the spec wrote them."""
    import ast as pyast
    import io
    import tokenize

    from rulespec import Game

    spec = check_text(f"""
game lit title "Lit"
players 2 to 2
winner lowest total
zone hand: per player visible to owner
option style: {{{_spec_string(value + "!")}, plain}} = plain
def score(q: int) = if style == {_spec_string(value + "!")} then 1 else 0
deal {{
  choose 0 {{
    pick(word = {_spec_string(word)}) {_spec_string(doc or "x")} {{
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners [0]
}}
""", "lit.rules")
    texts = [t for t in (value + "!", word, doc) if len(t.strip()) >= 3]
    for options in ({}, {"style": value + "!"}):
        game = Game(spec, 2, options, keep_sources=True)
        for _, src in game.sources:
            pyast.parse(src)  # it is Python
            # the code with its string literals and comments taken out: no spec text there
            tokens = list(tokenize.generate_tokens(io.StringIO(src).readline))
            code = " ".join(t.string for t in tokens
                            if t.type not in (tokenize.STRING, tokenize.COMMENT))
            for t in texts:
                assert t not in code, (t, src)
        st_ = game.new_initial_state()
        (ev,) = st_.legal_actions()
        assert ev["word"] == word
        st_.apply(ev)
        assert st_.result()["deals"][0]["scores"] == ([1, 1] if options else [0, 0])


def test_generated_source_too_deep_for_python_is_the_spec_s_error() -> None:
    """Python refuses source nested past 200 parentheses; should generated code ever reach
    that, it is a runtime error at the clause, not an internal error."""
    from rulespec.engine.codegen.pyexec import exec_source
    from rulespec.errors import RuleRuntimeError
    from rulespec.lang.ast import Span

    deep = "(" * 250 + "1" + ")" * 250
    with pytest.raises(RuleRuntimeError, match="nest too deeply for Python to compile"):
        exec_source(f"def _f():\n    return {deep}\n", "_f", {}, Span("t.rules", 3, 1, 3, 2),
                    "expression")
