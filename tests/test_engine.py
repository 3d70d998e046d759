"""Semantics of the interpreter that no shipped game exercises on its own: lexical scope of
definitions, runtime errors with the rule's position, decisions that must have a choice,
observations, and a reshuffle's record event."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec import Game, RuleRuntimeError, check_text
from rulespec.engine.state import State, canonical_key
from rulespec.errors import IllegalActionError, RecordError
from rulespec.lang.builtins import groups
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack

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
    values (rulespec.engine.state._memoised): the same decision met again gives the same
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


def test_apply_index_plays_the_same_game_as_apply() -> None:
    """The fast path (legal_count, apply_index) is the k-th event of legal_actions."""
    import random

    from rulespec.loading import game_for, resolve
    from rulespec.simulate import sample_event

    game = game_for(resolve("vandatta").spec, 3, {}, 0)
    by_event, by_index = game.new_initial_state(), game.new_initial_state()
    rng_e, rng_i = random.Random(5), random.Random(5)
    steps = 0
    while not by_event.is_terminal():
        legal = by_event.legal_actions()
        assert by_index.legal_count() == len(legal)
        if by_event.is_chance_node():
            ev = sample_event(legal, rng_e)
            by_event.apply(ev)
            by_index.apply(sample_event(by_index.legal_actions(), rng_i))
        else:
            k = rng_e.randrange(len(legal))
            assert rng_i.randrange(len(legal)) == k
            by_event.apply(legal[k])
            by_index.apply_index(k)
        steps += 1
    assert by_index.result() == by_event.result() and steps > 50
    with pytest.raises(ValueError, match="the match is over"):
        by_index.apply_index(0)


def test_legal_event_is_the_kth_event_without_writing_the_others() -> None:
    """legal_event(k) is legal_actions()[k] at every decision of a deal, the lazily kept
    decisions included (a hand's subsets, where the engine writes the drawn event alone);
    an index off the list is refused."""
    import random

    from rulespec.loading import game_for, resolve
    from rulespec.simulate import sample_event

    # Newton's show of trumps lists a hand's subsets, kept unwritten
    game = game_for(resolve("abracadabra-newton").spec, 4, {}, 0)
    st, rng = game.new_initial_state(), random.Random(3)
    lazy = 0
    while not st.is_terminal() and not st.deals:
        if st.is_chance_node():
            st.apply(sample_event(st.legal_actions(), rng, st.chance_weights))
            continue
        n = st.legal_count()
        ks = sorted({0, n - 1, rng.randrange(n)})
        m = st._legal_now()
        lazy += getattr(m, "lazy", None) is not None
        told = [st.legal_event(k) for k in ks]
        assert told == [st.legal_actions()[k] for k in ks]
        with pytest.raises(ValueError, match=f"there are {n} legal events"):
            st.legal_event(n)
        st.apply_index(ks[-1])
    assert lazy > 0, "no decision was kept lazily: the test no longer tests that path"


def test_apply_index_out_of_range_changes_nothing() -> None:
    state = Game(check_text(HEAD + """
deal {
  choose 0 {
    a() "A." {
    }
    b() "B." {
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""", "t.rules"), 2).new_initial_state()
    for k in (2, -1):
        with pytest.raises(ValueError, match="2 legal events"):
            state.apply_index(k)
    assert state.legal_count() == 2
    state.apply_index(1)
    assert state.is_terminal()


GUARDED = """
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  move top(stock) from stock to hand[0]
  move top(stock) from stock to hand[0]
  choose 0 {
    take(card = c) for c in hand[0] if GUARD "Take a card." {
    }
    none() "Nothing." {
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""


def test_a_hoisted_part_that_raises_is_not_an_error_the_rule_avoids() -> None:
    """What an enumerator's loop reads but does not vary (the top of the pile) is computed
    once before the loop; on an empty pile that raises, and the rule's own short-circuit
    ("size(pile) > 0 and ...") must still decide, as if nothing had been hoisted."""
    guard = "size(pile) > 0 and rank(top(pile)) == rank(c)"
    spec = check_text(HEAD + GUARDED.replace("GUARD", guard), "t.rules")
    game = Game(spec, 2, keep_sources=True)
    assert any("_plain(" in text for _, text in game.sources), "nothing was hoisted"
    state = game.new_initial_state()
    state.apply(state.legal_actions()[0])  # the shuffle
    assert [e["action"] for e in state.legal_actions()] == ["none"]


def test_a_rule_that_reads_an_empty_pile_is_reported_at_its_guard() -> None:
    spec = check_text(HEAD + GUARDED.replace("GUARD", "rank(top(pile)) == rank(c)"), "t.rules")
    state = Game(spec, 2).new_initial_state()
    with pytest.raises(RuleRuntimeError, match="empty zone or list") as info:
        state.apply(state.legal_actions()[0])
    assert info.value.span is not None
    assert info.value.span.line == (HEAD + GUARDED).splitlines().index(
        "    take(card = c) for c in hand[0] if GUARD \"Take a card.\" {") + 1


def test_a_runtime_error_in_a_called_procedure_names_its_statement() -> None:
    text = HEAD + """
var n: int = 0
procedure risky(k: int) {
  if k > 0 {
    set n = n + 1
    set n = k // n
    set n = k // (n - 3)
  }
}
deal {
  risky(3)
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""
    with pytest.raises(RuleRuntimeError, match="division by zero") as info:
        Game(check_text(text, "t.rules"), 2).new_initial_state()
    assert info.value.span is not None
    assert info.value.span.line == text.splitlines().index("    set n = k // (n - 3)") + 1


BOUNDED = """
def five(p: int) = 5
DECL
deal {
  repeat 3 {
    choose 0 {
      go() "Go on." {
      }
    }
  }
  end deal scoring five
}
match {
  run deal
  end match winners [0]
}
"""


def test_a_deal_scoring_outside_its_declared_range_is_a_runtime_error() -> None:
    text = HEAD + BOUNDED.replace("DECL", "score_range 0..player_count + 1")
    game = Game(check_text(text, "t.rules"), 3)
    assert game.score_range == (0, 4) and game.max_events is None
    state = game.new_initial_state()
    state.apply_index(0)
    state.apply_index(0)
    with pytest.raises(RuleRuntimeError, match="seat 0 scored 5 in this deal, outside the "
                       "declared score_range 0..4") as info:
        state.apply_index(0)
    assert info.value.span is not None and info.value.span.line == HEAD.count("\n") + 3
    assert Game(check_text(text, "t.rules"), 2).score_range == (0, 3)


def test_a_deal_longer_than_its_declared_events_is_a_runtime_error() -> None:
    game = Game(check_text(HEAD + BOUNDED.replace("DECL", "max_events 2"), "t.rules"), 2)
    state = game.new_initial_state()
    state.apply_index(0)
    state.apply_index(0)
    assert state.deal_events == 2
    with pytest.raises(RuleRuntimeError, match="this deal has had 3 events, more than the "
                       "declared max_events 2"):
        state.apply_index(0)
    ok = Game(check_text(HEAD + BOUNDED.replace("DECL", "max_events 3"), "t.rules"), 2)
    state = ok.new_initial_state()
    for _ in range(3):
        state.apply_index(0)
    assert state.is_terminal() and state.deal_events == 0


def test_a_bound_the_options_make_empty_refuses_the_table() -> None:
    from rulespec.errors import ConfigurationError

    text = HEAD + BOUNDED.replace("DECL", "score_range 3..player_count")
    assert Game(check_text(text, "t.rules"), 3).score_range == (3, 3)
    with pytest.raises(ConfigurationError, match=r"'score_range' must be two numbers.*got 3\.\.2"):
        Game(check_text(text, "t.rules"), 2)


def test_lists_of_truth_values_and_of_numbers_keep_their_own_text() -> None:
    """``(True, False) == (1, 0)`` as a Python key: the remembered JSON texts of one field
    must never be given to another field's values (each field has a cache of its own)."""
    state = Game(check_text(HEAD + """
deal {
  repeat 2 {
    choose 0 {
      flags(xs = [true, false]) "Flags." {
      }
      numbers(xs = [1, 0]) "Numbers." {
      }
      set_flags(xs = set_of([false, true])) "A set of flags." {
      }
      set_numbers(xs = set_of([0, 1])) "A set of numbers." {
      }
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""", "t.rules"), 2).new_initial_state()
    for _ in range(2):
        by_action = {e["action"]: e["xs"] for e in state.legal_actions()}
        assert by_action == {"flags": [True, False], "numbers": [1, 0],
                             "set_flags": [False, True], "set_numbers": [0, 1]}
        keys = sorted(state.legal_map())
        assert '{"action":"flags","seat":0,"xs":[true,false]}' in keys
        assert '{"action":"numbers","seat":0,"xs":[1,0]}' in keys
        state.apply_index(0)


# ---- found by a second reader of the compiled statements (each failed before its fix) -------

def _play_spec(body: str, players: int = 2, **kw: bool) -> Game:
    return Game(check_text(HEAD + body + """
match {
  run deal
  end match winners [0]
}
""", "t.rules"), players, **kw)


def test_count_over_an_inlined_definition_compiles() -> None:
    """count(...)'s argument once sat in a comprehension's iterable, where Python refuses the
    ``:=`` of an inlined parameter."""
    g = _play_spec("""
def mid(r: int) = r > 3 and r < 10
var n: int = 0
deal {
  fill stock with pack(1)
  set n = count(mid(rank(c)) for c in stock)
  end deal scoring zero
}""")
    assert g.new_initial_state().v["n"] == 24


def test_a_later_loop_source_is_not_computed_before_its_loop() -> None:
    """Remembering an alternative's events computed every loop's source first; an inner
    source the loops never reach (an empty hand) must not raise."""
    g = _play_spec("""
deal {
  choose 0 {
    pick(c = c, k = k) for c in hand[0] for k in range(1, rank(top(stock))) "Pick." { }
    pass() "Pass." { }
  }
  end deal scoring zero
}""")
    assert [e["action"] for e in g.new_initial_state().legal_actions()] == ["pass"]


def test_fields_holding_a_zone_or_zones() -> None:
    g = _play_spec("""
deal {
  fill stock with pack(1)
  deal 2 from stock to hand of seats
  choose 0 {
    take(cs = set_of(stock)) "Take them all." { }
    show(hs = [hand[0], hand[1]]) "Show." { }
  }
  end deal scoring zero
}""")
    st = g.new_initial_state()
    by = {e["action"]: e for e in st.legal_actions()}
    assert len(by["take"]["cs"]) == 48
    hs = by["show"]["hs"]
    assert hs == [list(st.z["hand"][0]), list(st.z["hand"][1])]
    assert hs[0] is not st.z["hand"][0], "an event must not hold a live zone"


def test_a_let_of_zones_is_a_snapshot_and_clones_keep_their_own() -> None:
    g = _play_spec("""
var seen: int = 0
deal {
  fill stock with pack(1)
  deal 2 from stock to hand of seats
  let hs = [hand[0]]
  choose 0 {
    drop() "Drop." { move top(hand[0]) from hand[0] to stock }
    keep() "Keep." { }
  }
  set seen = size(hs[0])
  choose 0 { done() "Done." { } }
  end deal scoring zero
}""")
    st = g.new_initial_state()
    c = st.clone()
    st.apply({"seat": 0, "action": "drop"})
    c.apply({"seat": 0, "action": "keep"})
    assert st.v["seen"] == 2 and c.v["seen"] == 2 and len(c.z["hand"][0]) == 2


def test_a_generator_over_zones_is_not_shared_between_states() -> None:
    """A generator variable that holds a zone itself: its events are not remembered across
    states (each state's own zone), and a clone points it at its own copy."""
    g = _play_spec("""
var seen: int = 0
deal {
  fill stock with pack(1)
  deal 1 from stock to hand of seats
  choose 0 {
    pick(k = size(h)) for h in [hand[0], hand[1]] "Pick a hand." {
      choose 0 {
        drop() "Drop." { move top(hand[0]) from hand[0] to stock }
        keep() "Keep." { }
      }
      set seen = size(h)
    }
  }
  choose 0 { done() "Done." { } }
  end deal scoring zero
}""", keep_sources=True)
    assert not any("_MEMO.get" in t for _, t in g.sources)
    a, b = g.new_initial_state(), g.new_initial_state()
    a.apply({"seat": 0, "action": "pick", "k": 1})
    twin = a.clone()
    a.apply({"seat": 0, "action": "drop"})
    twin.apply({"seat": 0, "action": "keep"})
    b.apply({"seat": 0, "action": "pick", "k": 1})
    b.apply({"seat": 0, "action": "keep"})
    assert (a.v["seen"], b.v["seen"], twin.v["seen"]) == (0, 1, 1)


def test_max_events_counts_the_deal_only() -> None:
    g = Game(check_text(HEAD + """
max_events 2
deal {
  choose 0 { go() "Go." { } }
  end deal scoring zero
}
match {
  repeat 3 {
    choose 0 { ready() "Ready." { } }
  }
  run deal
  end match winners [0]
}
""", "t.rules"), 2)
    st = g.new_initial_state()
    while not st.is_terminal():
        st.apply_index(0)
    assert st.result()["deals"] == [{"scores": [0, 0]}]


# ---- the compiler's shortcuts keep every event, list and error as they were ------------------
def _deal_then_use(decls: str, body: str) -> str:
    """A spec whose one deal runs ``body`` and then ends the match for seat 1 where ``USE``
    holds (each test puts its own condition, or ``false``, in its place)."""
    return decls + "deal {\n" + body + """  if USE {
    end match winners [1]
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""


TABULATED = _deal_then_use("""
var missing: card? = none
def plain(c: card) = not (rank(c) == 8 or rank(c) == 14)
def worth(c: card) = if plain(c) then rank(c) else 0
""", """  fill stock with pack(1)
  if sum(worth(c) for c in stock) != 4 * (2 + 3 + 4 + 5 + 6 + 7 + 9 + 10 + 11 + 12 + 13) {
    end match winners [1]
  }
""")


def test_a_definition_of_one_card_is_tabulated_and_errs_as_its_body() -> None:
    """A definition of one card that reads no state is computed once per card (a table); a
    value outside the table (none) is computed by the body, which raises where the expanded
    body would: the same message and the same rule."""
    text = HEAD + TABULATED.replace("USE", "false")
    game = Game(check_text(text, "t.rules"), 2, keep_sources=True)
    assert any("def plain, tabulated" in what for _, what in game.sources)
    assert game.new_initial_state().is_terminal()
    assert run_to_end(TABULATED.replace("USE", "false")) == [0]
    bad = HEAD + TABULATED.replace("USE", "worth(missing) > 0")
    with pytest.raises(RuleRuntimeError, match=r"wrong kind reached this rule \(None\)") as info:
        Game(check_text(bad, "t.rules"), 2).new_initial_state()
    assert info.value.span is not None
    assert info.value.span.line == bad.splitlines().index("  if worth(missing) > 0 {") + 1


def test_share_common_reads_a_repeat_only_where_its_first_evaluation_happened() -> None:
    from rulespec.engine.codegen.cse import share_common

    shared = share_common("(v[0] == 1) or (v[0] == 2)")
    assert shared.count("v[0]") == 1 and eval(shared, {"v": (2,)}) is True
    # a repeat after a branch that may not run is evaluated again, never read unbound
    branchy = share_common("(v[0] if c else 0) + v[0]")
    assert eval(branchy, {"v": (3,), "c": False}) == 3
    assert eval(branchy, {"v": (3,), "c": True}) == 6
    # an error is raised by the first evaluation, as before
    assert eval(share_common("len(v) > 0 and v[0] == v[0]"), {"v": ()}) is False
    with pytest.raises(IndexError):
        eval(share_common("v[0] == v[0]"), {"v": ()})
    # an inlined parameter (c := first(g)) is read as what it holds
    aliased = share_common("(_R[g[0]] == 8) or (((c := g[0]) or True) and _R[c] == 14)")
    assert aliased.count("_R[") == 1
    assert eval(aliased, {"_R": {"AS": 14}, "g": ("AS",)}) is True
    # comprehensions are left alone: their elements are evaluated apart
    comp = "all(v[0] == x for x in v) and v[0] > 0"
    assert eval(share_common(comp), {"v": (1, 1)}) is True


def test_groups_keep_their_order_and_duplicates() -> None:
    import random

    from rulespec.lang.builtins import groups, multi_groups
    from rulespec.lang.cards import RANK_OF

    def reference(cards: list[str]) -> tuple[tuple[str, ...], ...]:
        ranks: dict[int, list[str]] = {}
        for c in cards:
            ranks.setdefault(RANK_OF[c], []).append(c)
        out: list[tuple[str, ...]] = []
        for same in ranks.values():
            for k in range(1, len(same) + 1):
                for perm in itertools.permutations(same, k):
                    if perm not in out:
                        out.append(perm)
        return tuple(out)

    rng = random.Random(3)
    cards = pack(2)
    for _ in range(2000):
        hand = rng.sample(cards, rng.randint(0, 10))
        assert groups(hand) == reference(hand)
        assert groups(tuple(hand)) == reference(hand)
        many = list(multi_groups(hand))
        assert sorted(many) == sorted(g for g in reference(hand) if len(g) > 1)
        assert len(set(many)) == len(many)
    assert groups(["AS", "AS"]) == (("AS",), ("AS", "AS"))
    assert list(multi_groups(["AS", "AS"])) == [("AS", "AS")]


#: guards over a group of cards, in the language and in Python (the group, the hand)
GROUP_GUARDS = [
    ("size(g) >= 2 or rank(first(g)) > 9", lambda g, h: len(g) >= 2 or RANK_OF[g[0]] > 9),
    ("suit(first(g)) == suit(last(g))", lambda g, h: SUIT_OF[g[0]] == SUIT_OF[g[-1]]),
    ("size(g) < size(hand[0]) and rank(first(g)) % 2 == 0",
     lambda g, h: len(g) < len(h) and RANK_OF[g[0]] % 2 == 0),
    ("all(rank(c) > 5 for c in g)", lambda g, h: all(RANK_OF[c] > 5 for c in g)),
    ("high_or_alone(g)", lambda g, h: len(g) == 1 or RANK_OF[g[0]] >= 10),
    ("not (size(g) == 2 and suit(top(g)) == suit(bottom(g)))",
     lambda g, h: not (len(g) == 2 and SUIT_OF[g[-1]] == SUIT_OF[g[0]])),
    # the g of the comprehension is another variable than the play's: it is not replaced
    ("size(g) == 1 and any(size(g) > 1 for g in groups(hand[0]))",
     lambda g, h: len(g) == 1 and any(len(x) > 1 for x in groups(h))),
    ("size([c for c in g if suit(c) != suit(first(g))]) == size(g) - 1",
     lambda g, h: sum(SUIT_OF[c] != SUIT_OF[g[0]] for c in g) == len(g) - 1),
]


@given(order=st.permutations(pack(2)), size=st.integers(1, 12),
       guard=st.sampled_from(GROUP_GUARDS))
def test_plays_of_groups_are_those_the_guard_allows(
        order: list[str], size: int,
        guard: tuple[str, Callable[[tuple[str, ...], list[str]], bool]]) -> None:
    # The compiler lists ``for g in groups(hand)`` as the hand's single cards and then the
    # groups of two or more, the guard folded for one card (size(g) is 1, first(g) the card):
    # the events must be those of every group the guard allows, two packs' twins included.
    text, allows = guard
    spec = check_text(HEAD + f"""
def high_or_alone(h: list of card) = size(h) == 1 or rank(first(h)) >= 10
deal {{
  fill stock with pack(2)
  shuffle stock
  deal {size} from stock to hand of [0]
  choose 0 {{
    play(cards = g) for g in groups(hand[0]) if {text} {{
      move g from hand[0] to stock
      end deal scoring zero
    }}
    pass() {{ end deal scoring zero }}
  }}
}}
match {{
  run deal
  end match winners [q for q in seats if totals[q] == min(totals[r] for r in seats)]
}}
""", "t.rules")
    state = Game(spec, 2).new_initial_state()
    state.apply({"chance": "shuffle", "cards": order})
    hand = list(state.z["hand"][0])
    got = sorted(e["cards"] for e in state.legal_actions() if e["action"] == "play")
    want = sorted({g for g in groups(hand) if allows(g, hand)})
    assert got == [list(g) for g in want]
    # and the play applied binds g to the group itself, a single card's too
    for cards in got:
        after = state.clone()
        after.apply({"seat": 0, "action": "play", "cards": cards})
        left = list(hand)
        for c in cards:
            left.remove(c)
        assert sorted(after.z["hand"][0]) == sorted(left)


def test_moving_the_top_card_to_the_bottom() -> None:
    spec = check_text(HEAD + """
deal {
  fill stock with pack(1)
  move top(stock) from stock to hand[0]
  move top(stock) from stock to hand[0] at bottom
  move top(stock) from stock to hand[0]
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
    assert state.z["hand"][0] == ["KS", "AS", "QS"] and len(state.z["stock"]) == 49


def test_kept_events_are_the_same_and_follow_the_state() -> None:
    """Events made from the seat and the generators' values alone are kept and handed out
    again (the same objects, as legal_actions allows); events whose fields read the state
    are made anew."""
    spec = check_text(HEAD + """
deal {
  fill stock with without_ranks(pack(1), [6, 7, 8, 9, 10, 11, 12, 13, 14])
  repeat 3 {
    choose 0 {
      take(card = c) for c in stock if suit(c) == clubs and rank(c) > 2 "Take a card." {
        move c from stock to hand[0]
      }
      count(n = size(stock)) "Count the stock." {
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
    state = Game(spec, 2).new_initial_state()
    first = state.legal_actions()
    assert [e.get("card", e.get("n")) for e in first] == [16, "3C", "4C", "5C"]
    state.apply({"seat": 0, "action": "count", "n": 16})
    second = state.legal_actions()
    assert second == first and second[1] is first[1]
    state.apply(second[2])  # take 4C
    third = state.legal_actions()
    assert [e.get("card", e.get("n")) for e in third] == [15, "3C", "5C"]


def test_a_chain_of_ifs_compiles_to_code_of_its_own_size() -> None:
    """Blocks written again at the jumps to them stay within a few times the code."""
    ifs = "\n".join(f"  if size(stock) > {k} {{\n    fill stock with []\n  }}"
                    for k in range(40))
    spec = check_text(HEAD + f"""
deal {{
{ifs}
  end deal scoring zero
}}
match {{
  run deal
  end match winners [0]
}}
""", "t.rules")
    game = Game(spec, 2, keep_sources=True)
    deal = next(text for _, text in game.sources if text.splitlines()[0].endswith(": deal"))
    assert len(deal.splitlines()) < 40 * 30
    assert game.new_initial_state().is_terminal()


def test_first_of_an_empty_comprehension_is_the_same_error() -> None:
    with pytest.raises(RuleRuntimeError, match="empty zone or list"):
        run_to_end("""
var n: int = 0
deal {
  set n = first([q for q in seats if q > 5])
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")


def test_a_shuffle_takes_lenient_codes_and_refuses_other_cards() -> None:
    from rulespec import IllegalActionError

    spec = check_text(HEAD + """
deal {
  fill stock with pack(1)
  shuffle stock
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
    (template,) = state.legal_actions()
    wrong = list(template["cards"])
    wrong[0] = wrong[1]
    with pytest.raises(IllegalActionError, match="must order exactly the cards"):
        state.apply(dict(template, cards=wrong))
    lenient = [c.lower() if c[0] != "T" else "10" + c[1] for c in template["cards"]]
    state.apply(dict(template, cards=lenient[::-1]))
    assert state.z["stock"] == list(template["cards"])


def test_a_decision_for_a_seat_the_table_lacks_is_a_runtime_error_at_the_choose() -> None:
    with pytest.raises(RuleRuntimeError, match="seat 7 must decide here") as err:
        run_to_end("""
deal {
  choose player_count + 5 {
    go() {
    }
  }
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""")
    assert err.value.span is not None and err.value.span.line == 10


def test_a_set_field_over_subsets_keeps_each_subset_in_its_hands_order() -> None:
    """``show(cards = set_of(cs)) for cs in subsets(hand, ...)`` lists each subset once, its
    field the set in canonical order, while ``cs`` itself stays in the hand's order: the cards
    moved land in that order (rulespec.engine.events.subset_sets builds both at once).
    Under the same choose, an alternative with the same events written plainly agrees."""
    g = _play_spec("""
zone shown: shared visible to all
deal {
  fill stock with pack(1)
  deal 9 from stock to hand of seats
  choose 0 {
    show(cards = set_of(cs)) for cs in subsets(hand[0], 1, 3) "Show." {
      move cs from hand[0] to shown
    }
  }
  choose 1 {
    plain(cards = set_of([c for c in cs])) for cs in subsets(hand[1], 1, 3) "Plain." { }
  }
  end deal scoring zero
}""", keep_sources=True)
    assert any("_subset_sets(" in text for _, text in g.sources)
    st = g.new_initial_state()
    hand = list(st.z["hand"][0])
    order = {c: i for i, c in enumerate(pack(1))}
    assert hand != sorted(hand, key=order.__getitem__), "the test wants a hand out of order"
    legal = st.legal_actions()
    assert len(legal) == 9 + 36 + 84
    assert len({tuple(e["cards"]) for e in legal}) == len(legal)
    for e in legal:
        assert e["cards"] == sorted(e["cards"], key=order.__getitem__)
    pick = max(legal, key=lambda e: len(e["cards"]) * 100 + sum(map(hand.index, e["cards"])))
    st.apply(pick)
    assert list(st.z["shown"]) == [c for c in hand if c in pick["cards"]]
    other = list(st.z["hand"][1])
    plain = st.legal_actions()
    want = sorted({tuple(sorted(set(s), key=order.__getitem__))
                   for k in (1, 2, 3) for s in itertools.combinations(other, k)})
    assert sorted(tuple(e["cards"]) for e in plain) == want


def test_a_set_field_over_subsets_binds_the_first_subset_that_gives_the_set() -> None:
    """Where the source repeats a card (two packs), two subsets give one set and one event:
    the event binds the subset the generator gives first (one king, not both), whether the
    variable is read only when the event is applied or in the guard as well."""
    g = _play_spec("""
var got: int = 0
def kings() = [c for c in pack(2) if suit(c) == spades and rank(c) == 13]
deal {
  choose 0 {
    pick(cs = set_of(xs)) for xs in subsets(kings() + [first(pack(1))], 1, 2) "Pick." {
      set got = 10 * size(xs)
    }
  }
  choose 0 {
    take(cs = set_of(xs)) for xs in subsets(kings(), 1, 2) if size(xs) > 0 "Take." {
      set got = got * 100 + 10 * size(xs)
    }
  }
  end deal scoring zero
}""", keep_sources=True)
    assert sum(", False)" in text for _, text in g.sources) == 1  # pick keeps the set alone
    st = g.new_initial_state()
    legal = st.legal_actions()
    assert len(legal) == 3  # {KS}, {the other card}, {KS, the other card}
    one = [e for e in legal if len(e["cs"]) == 1]
    assert any(e["cs"] == ["KS"] for e in one), legal
    st.apply({"seat": 0, "action": "pick", "cs": ["KS"]})
    assert st.v["got"] == 10
    assert [e["cs"] for e in st.legal_actions()] == [["KS"]]
    st.apply({"seat": 0, "action": "take", "cs": ["KS"]})
    assert st.v["got"] == 1010


_MANY_SETS = """
var shown_n: int = 0
deal {
  fill stock with pack(1)
  deal 11 from stock to hand of seats
  choose 0 {
    show(cards = set_of(cs)) for cs in subsets(hand[0], 0, size(hand[0])) "Show." {
      set shown_n = size(cs) * 100 + size(hand[0])
      move cs from hand[0] to stock
    }
  }
  choose 1 {
    done() "Done." { }
  }
  end deal scoring zero
}"""


def test_thousands_of_sets_agree_through_every_door() -> None:
    """A decision over every subset of 11 cards (2,048 events) keeps its map unwritten until
    a reader needs it (LegalMap.lazy): the events, their order, the count, the keys, and the
    state after an event applied by identity, by an equal copy, in another card order, by
    index, or after the whole map was read, are all the same; an illegal one changes
    nothing."""
    g = _play_spec(_MANY_SETS, keep_sources=True)
    assert any("hit.lazy = " in text for _, text in g.sources)

    def at_show() -> State:
        st = g.new_initial_state()
        assert st.legal_count() == 2 ** 11
        return st

    events = at_show().legal_actions()
    keys = [canonical_key(e) for e in events]
    assert keys == sorted(keys) and len(set(keys)) == len(keys) == 2 ** 11
    written = at_show()
    assert list(written.legal_map()) == keys  # written before the events were listed
    assert written.legal_actions() == events
    k = next(i for i, e in enumerate(events) if len(e["cards"]) == 4)
    pick = events[k]
    doors = []
    st = at_show()
    st.apply(st.legal_actions()[k])  # the very event handed out
    doors.append(st)
    st = at_show()
    st.apply({**pick, "cards": list(pick["cards"])})  # a copy, nothing listed first
    doors.append(st)
    st = at_show()
    st.apply({**pick, "cards": pick["cards"][::-1]})  # another order of the same set
    doors.append(st)
    st = at_show()
    st.apply_index(k)
    doors.append(st)
    st = at_show()
    st.legal_map()
    st.apply(dict(pick))  # through the written map
    doors.append(st)
    for st in doors:
        assert st.v["shown_n"] == 411 and st.to_move == 1 and len(st.z["hand"][0]) == 7
        assert st.z == doors[0].z
    st = at_show()
    with pytest.raises(IllegalActionError):
        st.apply({**pick, "cards": [*pick["cards"], "XX"]})
    with pytest.raises(IllegalActionError):
        st.apply_index(2 ** 11)
    assert st.legal_actions() == events and st.to_move == 0
    st.apply(events[k])
    assert st.z == doors[0].z


@pytest.mark.parametrize("expr,what", [
    ("size(range(0, 2000000000))", "range(0, 2000000000) would hold 2000000001 elements"),
    ("size(subsets(pack(1), 0, 52))", "the list of subsets would hold 4503599627370496"),
    ("size(pack(100000))", "pack(100000) would hold 5200000 elements"),
    ("size(groups([c for c in pack(12) if rank(c) == 14 and suit(c) == spades]))",
     "the groups of 12 cards of one rank would hold"),
    ("size(range(1, 700000) + range(1, 700000))", "the joined list would hold 1400000"),
])
def test_a_list_past_the_size_limit_is_a_runtime_error_at_its_clause(expr: str,
                                                                     what: str) -> None:
    """No rule can build a list longer than MAX_COLLECTION: the rule stops, before the list
    is built, with an error at its clause (whether the call is folded while compiling or
    run in play)."""
    for body in (expr, f"if p >= 0 then {expr} else 0"):
        game = _play_spec(f"""
def huge(p: int) = {body}
deal {{
  end deal scoring huge
}}""")
        with pytest.raises(RuleRuntimeError, match=re.escape(what)) as info:
            game.new_initial_state()
        assert info.value.span is not None and info.value.span.line >= 1


def test_a_constant_error_in_code_never_run_is_no_error() -> None:
    """Folding constants while compiling must not raise what only running the code would:
    an arm the game never reaches may divide by zero or build a huge list."""
    assert run_to_end("""
def odd(p: int) = if p > 5 then 1 // 0 + size(range(0, 2000000000)) else 0
deal {
  end deal scoring odd
}
match {
  run deal
  end match winners [0]
}
""") == [0]


@pytest.mark.parametrize("loop", [
    "repeat 1000000000 {\n    set n = n + 1\n  }",
    "repeat 1000000000000000000000000000000 {\n    set n = n + 1\n  }",  # past len()
    "while n < 2000000000 {\n    set n = n + 1\n  }",
    "for a in range(1, 2000) {\n    for b in range(1, 2000) {\n      set n = n + 1\n    }\n  }",
    "loop {\n    set n = n + 1\n    if n > 2000000000 {\n      break\n    }\n  }",
])
def test_loops_past_the_work_budget_are_a_runtime_error_at_the_loop(loop: str) -> None:
    """Between two events the rules may run at most MAX_WORK rounds of loops: past that,
    a runtime error names the loop, soon (a billion rounds would take minutes)."""
    import time

    from rulespec.engine.machine import MAX_WORK

    game = _play_spec(f"""
var n: int = 0
def score(p: int) = n
deal {{
  {loop}
  end deal scoring score
}}""")
    start = time.perf_counter()
    with pytest.raises(RuleRuntimeError, match=f"more than {MAX_WORK} times") as info:
        game.new_initial_state()
    assert info.value.span is not None and info.value.span.line >= 10
    assert time.perf_counter() - start < 60


def test_the_work_budget_starts_again_at_each_event() -> None:
    """Rounds are counted between two events only: a loop of many short stretches, each
    ended by a decision, never reaches the budget."""
    from rulespec.engine.machine import MAX_WORK

    game = _play_spec(f"""
var n: int = 0
def score(p: int) = n
deal {{
  repeat 3 {{
    repeat {MAX_WORK // 2} {{
      set n = n + 1
    }}
    choose 0 {{
      go() "Go on." {{ }}
    }}
  }}
  end deal scoring score
}}""")
    st = game.new_initial_state()
    for _ in range(3):
        st.apply({"seat": 0, "action": "go"})
    assert st.is_terminal() and st.v["n"] == 3 * (MAX_WORK // 2)


def test_a_chain_of_definitions_that_doubles_is_stopped_by_the_work_budget() -> None:
    """Each definition calls the one before twice: expanding them all in place would take
    2**30 copies, so the large ones are compiled once and called, and each call spends the
    work budget by the size of its body: a runtime error at a definition, in about a second,
    not a compile or a run of hours."""
    import time

    chain = "\n".join(f"def f{k}(x: int) = f{k - 1}(x) + f{k - 1}(x)" for k in range(1, 31))
    start = time.perf_counter()
    game = _play_spec(f"""
def f0(x: int) = x + 1
{chain}
def score(p: int) = f30(p)
deal {{
  end deal scoring score
}}""")
    with pytest.raises(RuleRuntimeError, match="is called more than") as info:
        game.new_initial_state()
    assert info.value.span is not None and info.value.span.line > 8  # one of the f's
    assert time.perf_counter() - start < 30
    # a small chain is still expanded in place and computes what it says
    small = _play_spec("""
def g0(x: int) = x + 1
def g1(x: int) = g0(x) + g0(x)
def g2(x: int) = g1(x) + g1(x)
def score(p: int) = g2(p)
deal {
  end deal scoring score
}""", keep_sources=True)
    st = small.new_initial_state()
    assert st.result()["deals"][0]["scores"] == [4, 8]
    assert not any("_def_g" in text for _, text in small.sources)


@pytest.mark.parametrize("step,what", [("set n = n * n", "a product of"),
                                       ("set n = n + n", "a sum of more than")])
def test_numbers_past_about_a_thousand_digits_are_a_runtime_error(step: str, what: str) -> None:
    """Squaring (or doubling) in a loop would make numbers of millions of digits, each step
    slower than the last; past MAX_INT_BITS the rule stops at its clause."""
    game = _play_spec(f"""
var n: int = 2
def score(p: int) = 0
deal {{
  repeat 100000 {{
    {step}
  }}
  end deal scoring score
}}""")
    with pytest.raises(RuleRuntimeError, match=what):
        game.new_initial_state()


def test_a_comprehension_whose_every_element_runs_another_is_stopped() -> None:
    """Each comprehension spends its source's length from a budget of ten times MAX_WORK
    elements between two events: a million elements, each running a comprehension of a
    million more (10**12 steps), stops in about a second; one of a million is fine."""
    import time

    inner = _play_spec("""
def inner(i: int) = size([j for j in range(1, 999999) if j == i])
def score(p: int) = sum([inner(i) for i in range(1, 999999)])
deal {
  end deal scoring score
}""")
    start = time.perf_counter()
    with pytest.raises(RuleRuntimeError, match="go through or build more list elements"):
        inner.new_initial_state()
    assert time.perf_counter() - start < 30
    one = _play_spec("""
def score(p: int) = size([j for j in range(1, 999999) if j > p])
deal {
  end deal scoring score
}""")
    assert one.new_initial_state().result()["deals"][0]["scores"] == [999999, 999998]


def test_each_state_spends_its_own_comprehension_budget() -> None:
    """The comprehensions' budget is each state's (``State.left``), not the process's: a state
    played between two events of another spends nothing of the other's."""
    from rulespec.engine.machine import MAX_WORK

    game = _play_spec("""
def score(p: int) = size([j for j in range(1, 1000) if j > p])
deal {
  end deal scoring score
}""")
    a = game.new_initial_state()
    assert a.left <= 10 * MAX_WORK - 2 * 999  # each seat's score went through 999 numbers
    left = a.left
    b = game.new_initial_state()
    assert a.left == left and b.left == left and a.clone().left == left


def test_a_step_runs_as_its_body_does() -> None:
    """``step`` is for the rulebook: a spec with steps plays event for event as the same spec
    with each step's body written in its place, under every seed tried."""
    import random

    from rulespec.lang.checker import check_file
    from rulespec.simulate import sample_event

    here = __import__("pathlib").Path(__file__).parent / "specs" / "ok" / "steps.rules"
    stepped = here.read_text()
    flat = re.sub(r'step "[^"]*"( "[^"]*")? \{', "if true {", stepped)
    assert flat.count("if true {") == 4
    games = [Game(check_file(here), 3), Game(check_text(flat, "flat.rules"), 3)]
    for seed in range(20):
        logs = []
        for g in games:
            st, rng, log = g.new_initial_state(), random.Random(seed), []
            while not st.is_terminal():
                ev = sample_event(st.legal_actions(), rng)
                log.append(ev)
                st.apply(ev)
            logs.append((log, st.result()))
        assert logs[0] == logs[1]


def test_a_long_match_keeps_one_deal_entry_when_streamed() -> None:
    """simulate hands each final deal entry to a sink instead of keeping it: the state holds
    one entry however long the match, and the summaries are those of the whole list."""
    import random

    from rulespec.loading import game_for, resolve
    from rulespec.simulate import play_random_game

    spec = resolve("abracadabra-newton").spec
    game = game_for(spec, 3, {"deals": 40}, 0)
    kept, _ = play_random_game(game.new_initial_state(), random.Random(5), keep_events=True)
    st = game.new_initial_state()
    longest = [0]
    st.on_deal_end = lambda s: longest.__setitem__(0, max(longest[0], len(s.deals)))
    streamed, _ = play_random_game(st, random.Random(5))
    assert longest[0] == 1 and len(st.deals) == 1
    assert streamed == kept and kept.deals == 40
    # the result fields were summed over every deal, not only the last
    assert "money" in kept.results and sum(kept.results["money"]) == 0


FIRST_OF = _deal_then_use("""
var seen: list of int = []
def ok(x: int) = 12 // x > 2
""", """  let picked = first([x for x in [5, 3, 0, 1] if ok(x)])
  if picked != 3 {
    end match winners [1]
  }
  set seen = [x for x in [4, 6] if x > 5]
""")


def test_first_of_a_comprehension_stops_at_its_first_element() -> None:
    """``first([...])`` of a comprehension is a loop that returns the first element that
    passes: the elements after it are not looked at (12 // 0 is never worked out), as
    ``any`` stops at the element that decides. Of an empty list it is the runtime error a
    list's first element always was, at the rule that reads it."""
    text = HEAD + FIRST_OF.replace("USE", "false")
    game = Game(check_text(text, "t.rules"), 2, keep_sources=True)
    assert any("first([...]), as a loop" in what for _, what in game.sources)
    assert run_to_end(FIRST_OF.replace("USE", "false")) == [0]
    bad = FIRST_OF.replace("USE", "first([x for x in seen if x > 6]) > 0")
    with pytest.raises(RuleRuntimeError, match="from an empty zone or list") as info:
        run_to_end(bad)
    assert info.value.span is not None
    assert info.value.span.line == (HEAD + bad).splitlines().index(
        "  if first([x for x in seen if x > 6]) > 0 {") + 1


def test_a_shuffle_of_anything_but_its_cards_is_refused_and_its_own_cards_are_taken() -> None:
    """A shuffle's usual event (its own codes reordered) is taken, codes in another case too;
    numbers, objects and lists nested as deep as can be are refused with a short text of the
    value, and a card missing or one too many names the cards it must order."""
    state = Game(check_text(HEAD + """
deal {
  fill stock with pack(1)
  shuffle stock
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
""", "t.rules"), 2).new_initial_state()
    template = state.legal_actions()[0]
    deep: list[object] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]  # type: ignore[assignment]
    with pytest.raises(RecordError, match="nests lists or objects more than 32 levels deep"):
        state.apply({"chance": "shuffle", "cards": [deep, deep]})
    for cards in ([1, "2C"], [{"a": 1}], [[["2C"]], [["3C"]]]):
        with pytest.raises(RecordError, match="is not a card code"):
            state.apply({"chance": "shuffle", "cards": cards})
    for cards in (template["cards"][:-1], [*template["cards"], "2C"]):
        with pytest.raises(IllegalActionError, match="must order exactly the cards"):
            state.apply({"chance": "shuffle", "cards": cards})
    state.apply({"chance": "shuffle", "cards": [c.lower() for c in template["cards"]][::-1]})
    assert state.is_terminal()
