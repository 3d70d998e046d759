"""A definition of a card and of values with few possible values, made a table by the typed
lowering (rulespec/engine/typed/tables.py): what it may make a table of, and rules where a
lookup could raise where the body does not (or not where it does), each played on the typed
code and on the engine with the same choices."""

from __future__ import annotations

import ast as pyast
import random
from typing import Any

import pytest

from rulespec import Game, RuleRuntimeError, check_text
from rulespec.engine.state import CHANCE
from rulespec.engine.typed import TypedGame
from rulespec.engine.typed.tables import always_reads, domain, tabulate
from rulespec.lang import ast
from tests.test_kernel import HEAD


def _reads(src: str, name: str) -> bool:
    return always_reads(pyast.parse(src, mode="eval"), name)


def test_what_a_body_reads_on_every_path() -> None:
    assert _reads("c", "c")
    assert _reads("_TS[c] if t else _TR[c]", "c")
    assert not _reads("_TS[c] if t else 0", "c")
    assert _reads("t == c or x", "c")
    assert not _reads("x or c", "c")
    assert _reads("max([y for y in c])", "c")
    assert not _reads("[c for y in xs]", "c")


def test_the_values_of_a_small_type() -> None:
    suits = ["C", "D"]
    enums = {"kind": ("a", "b")}
    assert domain(ast.TypeName("bool"), suits, enums) == [False, True, None]
    assert domain(ast.TypeName("suit"), suits, enums) == ["C", "D", None]
    assert domain(ast.TypeOptional(ast.TypeName("kind")), suits, enums) == ["a", "b", None]
    assert domain(ast.TypeName("int"), suits, enums) is None
    assert domain(None, suits, enums) is None


def _table(src: str, params: list[tuple[str, list[object] | None]],
           variables: dict[str, list[object]] | None = None) -> Any:
    return tabulate(src, params, variables or {}, {"_R": (5, 6, 7, 8)}, 4, "_TB")


def test_a_table_of_a_card_and_a_variable() -> None:
    made = _table("_R[c] + (10 if g_t else 0)", [("c", None)], {"g_t": [False, True]})
    assert made is not None
    t, tables = made
    assert t.dims == (("var", "g_t"),) and t.read
    assert tables["_TB"] == {False: (5, 6, 7, 8), True: (15, 16, 17, 18)}
    assert tables["_TBM"][True] == {15: 1, 16: 2, 17: 4, 18: 8}
    assert t.lookup(t.name, ["x"]) == "_TB[g_t][x]"
    assert t.lookup(t.masks, ["x"]) == "_TBM[g_t]"


def test_what_is_not_a_table() -> None:
    # a card whose value raises and one whose does not, in the same row
    assert _table("10 // (_R[c] - 6)", [("c", None)]) is None
    # the state beyond a few values, and a body no dearer than a lookup
    assert _table("_R[c] + n", [("c", None)]) is None
    assert _table("_R[c]", [("c", None)]) is None
    # a value that is not kept as it is
    assert _table("[_R[c], 1] if c > 0 else []", [("c", None)]) is None


def test_a_row_of_a_body_that_need_not_read_the_card() -> None:
    made = _table("g_t and _R[c] > 6", [("c", None)], {"g_t": [False, True]})
    assert made is not None
    t, tables = made
    # where g_t is false the card is not read: a card that is none has a value there, and
    # the card's argument may not be evaluated before the body
    assert tables["_TB"][False] == {0: False, 1: False, 2: False, 3: False, None: False}
    assert tables["_TB"][True] == (False, False, True, True)
    assert not t.read


def test_a_combination_whose_every_card_raises_is_left_out() -> None:
    made = _table("_R[c] // g_n", [("c", None)], {"g_n": [0, 1]})
    assert made is not None
    assert 0 not in made[1]["_TB"] and made[1]["_TB"][1] == (5, 6, 7, 8)


HEAD_TABLES = HEAD + """
zone pile: shared visible to all
var m: int = 0
var on: bool = false
var trump: suit? = none
var held: card? = none
def sc(p: int) = m
"""

#: the end of most specs here: the deal scored, one deal a match
END = """  end deal scoring sc
}
match { run deal
  end match winners [0] }
"""


def ask_on(seat: int) -> str:
    """A decision of ``seat``'s: whether ``on`` is set."""
    return f"""  choose {seat} {{
    yes() "Yes." {{ set on = true }}
    no() "No." {{ }}
  }}"""


#: rules that make tables, each where a lookup could part from the body
CASES = [
    # the body does not read its card while ``on`` is false: ``first(pile)`` of an empty
    # pile is not evaluated there (the engine does not raise), and is where ``on`` is true
    # (so that call is no lookup; the count's, of a card that cannot raise, is)
    ("""
def high(c: card) = on and rank(c) > 7
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
""" + ask_on(0) + """
  set m = if high(first(pile)) then 1 else 2
  set m = m + 10 * count(high(c) for c in hand[0])
""" + END, True),
    # a card that is none, which the body takes (a row with none's value)
    ("""
def worth(c: card) = if c == none then 1 else if on then rank(c) else 0
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
  choose 0 {
    keep(card = c) for c in hand[0] "Keep." { set held = c }
    none() "None." { }
  }
""" + ask_on(1) + """
  set m = worth(held)
""" + END, True),
    # a suit that may be none, a listing's mask looked up, and a trick's winner
    ("""
def as_suit(c: card) = if trump != none and rank(c) == jack then trump else suit(c)
def power(c: card) = if as_suit(c) == trump then 100 + rank(c) else rank(c)
deal {
  fill stock with pack(1)
  shuffle stock
  deal 5 from stock to hand of seats
  choose 0 {
    name(suit = s) for s in [clubs, hearts] "Name." { set trump = s }
    pass() "Pass." { }
  }
  repeat 3 {
    for p in seats {
      choose p {
        play(card = c) for c in hand[p]
          if size(pile) == 0 or as_suit(c) == as_suit(first(pile))
             or not any(as_suit(d) == as_suit(first(pile)) for d in hand[p]) "Play." {
          move c from hand[p] to pile
        }
      }
    }
    set m = m + max(power(c) for c in pile)
    for c in pile { move c from pile to stock }
  }
""" + END, True),
    # a value that raises for some cards: no table, and the error is the engine's
    ("""
def odd(c: card) = 100 // (rank(c) - 7)
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  set m = sum(odd(c) for c in hand[0])
""" + END, False),
]


@pytest.mark.parametrize(("text", "tabled"), CASES, ids=[str(i) for i in range(len(CASES))])
def test_a_table_plays_as_the_body(text: str, tabled: bool) -> None:
    """The same events, results and errors as the engine, at every step."""
    game = Game(check_text(HEAD_TABLES + text, "t.rules"), 2)
    typed = TypedGame(game)
    assert ("_TB" in typed.match.text) == tabled  # type: ignore[attr-defined]
    same_trails(game, typed)


def same_trails(game: Game, typed: TypedGame, games: int = 30) -> None:
    """The same events, results and errors, at every step of ``games`` random games."""
    for i in range(games):
        sides: list[Any] = []
        for make in (game.new_initial_state, typed.new_initial_state):
            draws, pick = random.Random(i), random.Random(100 + i)
            trail: list[object] = []
            try:
                st = make()
                while st.to_move is not None:
                    trail.append((st.to_move, st.legal_count()))
                    if st.to_move == CHANCE:
                        trail.append(st.sample_chance(draws, False))
                    else:
                        st.apply_index(pick.randrange(st.legal_count()))
                trail.append((st.winners, st.deals, st.v["totals"]))
            except RuleRuntimeError as e:
                trail.append(str(e))
            sides.append(trail)
        assert sides[1] == sides[0], i


#: the typed lowering's other shortcuts of this change, each played against the engine: a
#: card in zones joined tested on their bits, a built-in over the teams written out, a part
#: of a comprehension that reads zones worked out once
SHORTCUTS = [
    ("""
var who: int = 0
zone kitty: shared visible to all
def tops(cs: list of card) = count(c in cs for c in pack(1) if (c in cs) != ('AS' in cs))
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  move top(stock) from stock to kitty
  choose 0 {
    pick(q = q) for q in [-1, 0, 1] "Pick." { set who = q }
  }
""" + ask_on(1) + """
  set m = tops(hand[who] + kitty + (if on then hand[1] else []))
  set m = m + (if top(stock) in hand[0] + hand[1] then 100 else 0)
""" + END, "in_bits"),
    ("""
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
""" + ask_on(0) + """
  set m = (if any(rank(first(hand[q])) > 9 or on for q in seats) then 1 else 0)
    + (if all(rank(first(hand[q])) > 3 for q in seats) then 10 else 0)
    + max(rank(first(hand[q])) for q in seats) * 100
    + sum(rank(first(hand[q])) // (if on then 1 else 0) for q in seats) * 1000
  end deal scoring sc
}
match { run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)] }
""", "unrolled"),
]


@pytest.mark.parametrize(("text", "mark"), SHORTCUTS, ids=[m for _, m in SHORTCUTS])
def test_a_shortcut_plays_as_the_engine(text: str, mark: str) -> None:
    game = Game(check_text(HEAD_TABLES + text, "t.rules"), 2)
    typed = TypedGame(game)
    source = typed.match.text  # type: ignore[attr-defined]
    # the shortcut is taken: the bits of zones joined, no generator over the seats
    assert "(z_hand[g_who] | z_kitty | (z_hand[1] if g_on else 0))" in source and \
        "(z_hand[0] | z_hand[1]) >>" in source if mark == "in_bits" else \
        "for _q" not in source.split("g_m = ")[1].split("\n")[0]
    same_trails(game, typed)


#: the end of a deal, written for the table: a score out of the range (the engine's error,
#: word for word), scores per team and a partnership's summed, an end inside the deal and
#: one as its last statement, a match of several deals
ENDS = [
    ("""
score_range 0..3
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
  choose 0 {
    yes() "Yes." { set m = 5 }
    no() "No." { set m = 2 }
  }
  step "End" "The end." { end deal scoring sc }
}
match { repeat 3 { run deal }
  end match winners [0] }
""", 2),
    ("""
teams 2 by side
def side(q: int) = q % 2
def team_sc(t: int) = if t == 0 then m else 1
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
  choose 0 {
    early() "Early." {
      set m = 7
      end deal scoring team_sc per team
    }
    late() "Late." { set m = 3 }
  }
  end deal scoring sc
}
match { repeat 3 { run deal }
  end match winning teams
    [t for t in [0, 1] if team_totals[t] == max(team_totals[u] for u in [0, 1])] }
""", 4),
]


@pytest.mark.parametrize(("text", "players"), ENDS, ids=["range", "teams"])
def test_the_end_of_a_deal_is_the_engines(text: str, players: int) -> None:
    spec = check_text((HEAD_TABLES + text).replace("players 2 to 3", "players 2 to 4"), "t.rules")
    game = Game(spec, players)
    typed = TypedGame(game)
    same_trails(game, typed)


#: what a second reader of this change found played otherwise than the engine (each failed
#: before its fix): a card that is none where every card raises; none in zones joined (the
#: zones still read: a seat past the table raises); a sum of one value that is none; all()
#: of values that are none; a flag that holds none, as a parameter and as a variable
FOUND = [
    """
def f(c: card) = if c == none then 0 else 100 // (if on then 1 else 0) + rank(c)
deal {
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats
""" + ask_on(0) + """
  set m = f(held)
""" + END,
    """
var who: int = 0
zone kitty: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  set who = 5
  choose 1 {
    keep(card = c) for c in hand[1] "Keep." { set held = c }
    none() "None." { }
  }
  set m = if held in hand[who] + kitty then 1 else 2
""" + END,
    """
var who: int = 0
def f(q: int) = if q == who then none else 1
def g(q: int) = if q == who then none else true
deal {
  fill stock with pack(1)
  choose 0 {
    pick(q = q) for q in [0, 1, 5] "Pick." { set who = q }
  }
  set on = all(g(q) for q in [1, 0])
  set m = if on == false then 1 else 2
  set m = m + sum(f(q) for q in [0])
""" + END,
    """
var flag: bool? = none
def f(c: card, b: bool) = if b then rank(c) else 0
def h(c: card) = if on then rank(c) else 0
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  choose 0 {
    yes() "Yes." { set flag = true }
    no() "No." { }
  }
  choose 1 {
    keep(card = c) for c in hand[1] "Keep." { set held = c }
  }
  set m = f(held, flag)
  set on = flag
  set m = m + h(held)
""" + END,
]


@pytest.mark.parametrize("text", FOUND, ids=[str(i) for i in range(len(FOUND))])
def test_what_a_second_reader_found(text: str) -> None:
    game = Game(check_text(HEAD_TABLES + text, "t.rules"), 2)
    same_trails(game, TypedGame(game))
