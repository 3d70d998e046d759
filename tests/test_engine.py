"""Semantics of the interpreter that no shipped game exercises on its own: lexical scope of
definitions, runtime errors with the rule's position, decisions that must have a choice,
observations, and a reshuffle's record event."""

from __future__ import annotations

import pytest

from rulespec import Game, RuleRuntimeError, check_text

HEAD = """
game t title "T"
players 2 to 3
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def zero(p: int) = 0
"""


def run_to_end(text: str, players: int = 2) -> list[int]:
    state = Game(check_text(HEAD + text, "t.rules"), players).new_initial_state()
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[0])
        steps += 1
        assert steps < 1000
    return state.result()["winners"]


def test_definitions_see_their_own_names_not_the_callers() -> None:
    winners = run_to_end("""
var named: int = 5
def f() = named
def g(x: int) = x + named
deal {
  for named in [7] {
    if f() != 5 or g(named) != 12 {
      end match winners [1]
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")
    assert winners == [0]


def test_runtime_error_names_the_rule() -> None:
    with pytest.raises(RuleRuntimeError) as info:
        run_to_end("""
deal {
  move top(stock) from stock to hand[0]
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")
    assert info.value.span is not None and info.value.span.source == "t.rules"
    assert info.value.span.line == HEAD.count("\n") + 3


def test_a_decision_without_a_legal_choice_is_a_runtime_error() -> None:
    with pytest.raises(RuleRuntimeError, match="no alternative is legal"):
        run_to_end("""
deal {
  choose 0 {
    take() for c in stock "Take a card." {
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")


def test_division_by_zero_is_a_runtime_error() -> None:
    with pytest.raises(RuleRuntimeError, match="division by zero"):
        run_to_end("""
var n: int = 0
deal {
  set n = 4 // n
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")


def test_reshuffle_event_and_observation() -> None:
    spec = check_text(HEAD + """
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
  move stock from stock to pile
  reshuffle pile into stock
  choose 0 {
    done() "Finish." {
      end deal scoring zero
    }
  }
}
match {
  run deal
  end match winners [0]
}
""", "t.rules")
    state = Game(spec, 2).new_initial_state()
    (shuffle,) = state.legal_actions()
    assert shuffle["chance"] == "shuffle" and len(shuffle["cards"]) == 52
    state.apply(shuffle)
    (template,) = state.legal_actions()
    # the pile but its top card, in pile order (R2)
    assert template["chance"] == "reshuffle" and len(template["cards"]) == 47
    state.apply(dict(template, cards=list(reversed(template["cards"]))))
    obs = state.observation(0)
    assert obs["zones"]["hand"][0] == list(state.z["hand"][0])
    assert obs["zones"]["hand"][1] == 2
    assert obs["zones"]["stock"] == 47 and len(obs["zones"]["pile"]) == 1
    # a reshuffle that names other cards is illegal and changes nothing
    assert state.current_player() == 0


def test_remembered_legal_events_follow_their_inputs() -> None:
    """An enumerator whose events depend only on its sources remembers them by the sources'
    values (rulespec.interpreter.engine._memoised): the same decision met again gives the same
    list, and a changed source gives the new list, never the remembered one."""
    spec = check_text(HEAD + """
var n: int = 1
deal {
  repeat 4 {
    choose 0 {
      pick(k = k) for k in range(1, n) "Pick a number up to n." {
        set n = n + k
      }
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""", "t.rules")
    game = Game(spec, 2, keep_sources=True)
    assert any("_MEMO.get" in text for _, text in game.sources)
    state = game.new_initial_state()
    n = 1
    for _ in range(4):
        legal = state.legal_actions()
        assert [e["k"] for e in legal] == list(range(1, n + 1))
        assert state.clone().legal_actions() == legal
        state.apply({"seat": 0, "action": "pick", "k": n})
        n += n
    again = Game(spec, 2).new_initial_state()
    assert [e["k"] for e in again.legal_actions()] == [1]
