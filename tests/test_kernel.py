"""The kernel (rulespec.engine.kernel) plays exactly as the Python engine: the same seat to
move, the same legal events in the same order, the same chance events and the same results,
game after game on every shipped spec it lowers; its runtime errors are the engine's."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulespec import Game, RuleRuntimeError, check_text
from rulespec.adapters import ENGINES, engine_adapter
from rulespec.engine.chance import sample_event
from rulespec.engine.kernel import KernelGame, KernelState, Unsupported
from rulespec.engine.kernel.bits import bit_deck
from rulespec.engine.state import CHANCE, State
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve

SPECS = Path(__file__).parent / "specs"



def _engine_table(name: str) -> tuple[str, int, dict[str, Any]]:
    """The table an engine game's adapter plays (bench/engines.py's)."""
    adapter: Any = engine_adapter(name)
    return adapter.spec, getattr(adapter, "players", (4,))[0], {**adapter.fixed, **adapter.usual}


#: (spec, players, options): every engine game's table, and the seed games' and whist's
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    *(_engine_table(n) for n in sorted(ENGINES) if "gin_rummy" not in n),
    ("hearts", 4, {}),
    ("whist", 4, {}),
    ("vandatta", 4, {}),
    ("vandatta", 9, {}),
    ("abracadabra", 2, {}),
    ("abracadabra", 4, {}),
    ("abracadabra_newton", 3, {}),
]
#: gin rummy's meld search makes a game a tenth of a second: behind ``slow``
SLOW_TABLES = TABLES + [_engine_table("openspiel:gin_rummy")]


def lockstep(game: Game, kernel: KernelGame, games: int, seed: int) -> int:
    """Play ``games`` random games on both, the same choices on each; assert they agree at
    every event. Returns the events played."""
    events = 0
    bits = bit_deck(game.spec.deck).bits
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        dealer = i % game.players
        es, ks = game.new_initial_state(dealer), kernel.new_initial_state(dealer)
        while es.to_move is not None:
            assert ks.to_move == es.to_move, (i, events)
            # the zones are the engine's lists, and each bit set kept beside one its cards
            assert ks.z == es.z, (i, events)
            assert all(ks.zb[id(x)] == bits(x) for x in ks.zl), (i, events)
            legal = es.legal_actions()
            assert ks.legal_actions() == legal, (i, events)
            if es.to_move == CHANCE:
                assert ks.chance_weights() == es.chance_weights()
                ev = sample_event(legal, rng, es.chance_weights)
                es.apply(ev)
                ks.apply(ev)
            else:
                assert ks.legal_count() == es.legal_count() == len(legal)
                k = rng.randrange(len(legal))
                es.apply_index(k)
                ks.apply_index(k)
            events += 1
        assert ks.is_terminal()
        assert (ks.winners, ks.deals, ks.v["totals"]) == (es.winners, es.deals, es.v["totals"])
        assert ks.engine_state().result() == es.result()
    return events


@pytest.mark.parametrize(("name", "players", "options"), TABLES,
                         ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(TABLES)])
def test_the_kernel_plays_as_the_engine(name: str, players: int,
                                        options: dict[str, Any]) -> None:
    game = game_for(resolve(name).spec, players, options, 0)
    assert lockstep(game, KernelGame(game), 4, 1) > 4 * 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), SLOW_TABLES,
                         ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(SLOW_TABLES)])
def test_hundreds_of_games_in_lockstep(name: str, players: int,
                                       options: dict[str, Any]) -> None:
    game = game_for(resolve(name).spec, players, options, 0)
    lockstep(game, KernelGame(game), 200, 2)


def test_a_clone_goes_on_alone() -> None:
    game = game_for(resolve("hearts").spec, 4, {"deals": 1}, 0)
    ks = KernelGame(game).new_initial_state()
    rng = random.Random(5)
    for _ in range(30):
        if ks.to_move == CHANCE:
            ks.apply(sample_event(ks.legal_actions(), rng))
        else:
            ks.apply_index(rng.randrange(ks.legal_count()))
    copy = ks.clone()
    assert copy.legal_actions() == ks.legal_actions()
    copy.apply_index(0)
    assert copy.log != ks.log and len(ks.log) == 30
    es = ks.engine_state()
    assert isinstance(es, State) and es.legal_actions() == ks.legal_actions()
    assert es.observation(0) == ks.engine_state().observation(0)


def test_a_shuffle_kept_for_replay_is_the_kernels_own_copy() -> None:
    game = game_for(resolve("hearts").spec, 4, {"deals": 1, "pass_rotation": "no_pass"}, 0)
    ks = KernelGame(game).new_initial_state()
    ev = sample_event(ks.legal_actions(), random.Random(3))
    ks.apply(ev)
    hands = [list(h) for h in ks.z["hand"]]
    ev["cards"].reverse()  # the caller's event changed after it was applied
    assert [list(h) for h in ks.clone().z["hand"]] == hands
    assert [list(h) for h in ks.engine_state().z["hand"]] == hands


def test_wrong_events_are_refused_and_change_nothing() -> None:
    game = game_for(resolve("hearts").spec, 4, {"deals": 1, "pass_rotation": "no_pass"}, 0)
    ks = KernelGame(game).new_initial_state()
    ks.apply(sample_event(ks.legal_actions(), random.Random(1)))
    n = ks.legal_count()
    with pytest.raises(IllegalActionError, match=f"there are {n} legal events"):
        ks.apply_index(n)
    with pytest.raises(IllegalActionError, match="is not legal now"):
        ks.apply({"seat": ks.to_move, "action": "play", "card": "nonsense"})
    assert ks.legal_count() == n and len(ks.log) == 1


def test_teams_formed_in_play_are_left_to_the_python_engine() -> None:
    spec = check_text((SPECS / "ok" / "called_partner.rules").read_text(), "called_partner.rules")
    with pytest.raises(Unsupported, match="teams formed in play"):
        KernelGame(Game(spec, spec.min_players))


HEAD = """
game t title "T"
players 2 to 3
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def zero(p: int) = 0
"""

#: specs whose play raises a runtime error, and what it says
FAILING = [
    ("""
var n: int = 0
deal {
  fill stock with pack(1)
  set n = 5 // n
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "division by zero"),
    ("""
deal {
  fill stock with pack(1)
  choose 0 {
    take(card = c) for c in hand[0] "Take a card." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "no alternative is legal"),
    ("""
deal {
  fill stock with pack(1)
  move stock[0] from hand[1] to hand[0]
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "not in the zone it is moved from"),
    ("""
deal {
  fill stock with pack(1)
  choose 0 {
    go() "Go on." { }
  }
}
match { run deal
  end match winners [0] }
""", "the deal ran to its end without 'end deal'"),
    ("""
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
match { run deal
  end match winners [0] }
""", "division by zero in a procedure"),
    ("""
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  move top(stock) from stock to hand[0]
  choose 0 {
    take(card = c) for c in hand[0] if rank(top(pile)) == rank(c) "Take a card." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "empty zone or list"),
    ("""
deal {
  set dealer = 5
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "the dealer must be a seat"),
    ("""
deal {
  for q in seats if rank(top(hand[q])) == 5 { }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "empty zone or list in a loop's test"),
    ("""
var n: int = 0
deal {
  fill stock with pack(1)
  move top(stock) from stock to hand[0]
  choose 0 {
    take(card = c) for c in hand[0] if rank(c) == 99 and 5 // n > 0 "Take." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "division by zero in a guard's test of no card"),
    ("""
var n: int = 0
deal {
  loop {
    set n = n + 1
    if n > 2000000000 {
      break
    }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "loops here go round more than"),
    ("""
var n: int = 0
deal {
  fill stock with pack(1)
  move top(stock) from stock to hand[0]
  choose 0 {
    take(card = c) for c in hand[0] if rank(c) == 99 "Take." { }
    pass() if 5 // n > 0 "Pass." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "division by zero in the guard of a decision's second alternative"),
    ("""
var n: int = 0
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  move top(stock) from stock to hand[0]
  choose 0 {
    pass() if n == 0 "Pass." { }
    take(card = c) for c in hand[0] if rank(top(pile)) == rank(c) "Take." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "empty zone or list in a second alternative's values"),
    ("""
deal {
  fill stock with pack(1)
  deal 2 from stock to hand of seats
  choose 0 {
    give(cards = set_of(cs)) for cs in subsets(hand[0], 3, 3) "Give." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "no alternative is legal in a decision over a hand's subsets"),
    ("""
var n: int = 0
deal {
  fill stock with pack(1)
  deal 2 from stock to hand of seats
  choose together q in seats {
    give(cards = set_of(cs)) for cs in subsets(hand[q], 1, 1) if 5 // n > 0 "Give." { }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "division by zero in the guard of a decision over a hand's subsets"),
    ("""
max_events 3
deal {
  fill stock with pack(1)
  loop {
    choose 0 { pass() "Pass." { } }
  }
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", "this deal has had 4 events, more than the declared max_events 3"),
]


@pytest.mark.parametrize(("text", "says"), FAILING, ids=[s for _, s in FAILING])
def test_a_runtime_error_is_the_engines(text: str, says: str) -> None:
    spec = check_text(HEAD + text, "t.rules")
    game = Game(spec, 2)
    says = says.split(" in ")[0]
    with pytest.raises(RuleRuntimeError, match=says) as engine:
        _play_first(game.new_initial_state)
    with pytest.raises(RuleRuntimeError, match=says) as kernel:
        _play_first(KernelGame(game).new_initial_state)
    # the same words, at the same rule
    assert str(kernel.value) == str(engine.value)
    assert kernel.value.span == engine.value.span


def test_several_alternatives_listed_by_the_kernel() -> None:
    """A decision of several alternatives (a card of a hand, or one of two events): the
    kernel lists it itself, in the engine's order, and of two alternatives that write one
    and the same event the first that holds is the one played, as the engine keeps it."""
    spec = check_text(HEAD + """
var n: int = 0
def got(p: int) = n
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  choose 0 {
    wait() if n == 0 "First." { set n = 1 }
    take(card = c) for c in hand[0] if rank(c) != 99 "Take." { set n = 4 }
    wait() "Second." { set n = 2 }
    pass() if size(hand[0]) > 0 "Pass." { set n = 3 }
  }
  end deal scoring got
}
match { run deal
  end match winners [0] }
""", "t.rules")
    game = Game(spec, 2)
    for k in range(5):
        engine: State = game.new_initial_state()
        kernel = KernelGame(game).new_initial_state()
        engine.apply(engine.legal_actions()[0])
        kernel.apply(kernel.legal_actions()[0])
        assert kernel._stop is not None and kernel._stop[1] is not None  # listed by the kernel
        assert kernel.legal_count() == engine.legal_count() == 5
        engine.apply_index(k)
        kernel.apply_index(k)
        assert kernel.v["totals"] == engine.v["totals"]
        assert engine.v["totals"][0] == [3, 4, 4, 4, 1][k]  # pass, the cards, wait: first


@pytest.mark.parametrize("packs", [1, 2])
def test_a_hands_subsets_listed_by_the_kernel(packs: int) -> None:
    """A decision over a hand's subsets, alone and together: the kernel lists a hand of
    distinct cards itself (counted, the one chosen worked out from its number), a hand
    holding a card twice by the engine's enumerator; both play as the engine does."""
    spec = check_text(HEAD + f"""
zone pile: shared visible to all
deal {{
  fill stock with pack({packs})
  shuffle stock
  deal 12 from stock to hand of seats
  choose together q in seats {{
    give(cards = set_of(cs)) for cs in subsets(hand[q], 2, 2) "Give two." {{
      move cs from hand[q] to pile
    }}
  }}
  choose 0 {{
    show(cards = set_of(cs), open = true) for cs in subsets(hand[0], 0, 3) "Show." {{
      move cs from hand[0] to pile
    }}
  }}
  end deal scoring zero
}}
match {{ run deal
  end match winners [0] }}
""", "t.rules")
    game = Game(spec, 2)
    rng = random.Random(packs)
    for _ in range(20):
        engine: State = game.new_initial_state()
        kernel = KernelGame(game).new_initial_state()
        while engine.to_move is not None:
            assert kernel.to_move == engine.to_move
            if engine.to_move == CHANCE:
                e = engine.legal_actions()[0]
                engine.apply(e)
                kernel.apply(e)
                continue
            assert kernel.legal_count() == engine.legal_count()
            assert kernel.legal_actions() == engine.legal_actions()
            k = rng.randrange(engine.legal_count())
            engine.apply_index(k)
            kernel.apply_index(k)
            assert kernel.z["pile"] == engine.z["pile"]
        assert kernel.to_move is None


def _play_first(new: Any) -> None:
    st: State | KernelState = new()
    for _ in range(100):
        if st.to_move is None:
            return
        st.apply_index(0) if st.to_move != CHANCE else st.apply(st.legal_actions()[0])


def test_rules_nested_past_pythons_limit_are_left_to_the_engine() -> None:
    """Python allows 20 nested blocks in a function: the engine's dispatch keeps a loop's body
    flat, the kernel's generator cannot, so it declines the table rather than fail."""
    depth = 22
    loops = "".join(f"for x{i} in [1] {{\n" for i in range(depth))
    spec = check_text(HEAD + "var n: int = 0\ndeal {\n" + loops + "set n = n + 1\n" +
                      "}\n" * depth + "end deal scoring zero\n}\n"
                      "match { run deal\n  end match winners [0] }\n", "t.rules")
    game = Game(spec, 2)
    assert game.new_initial_state().v["n"] == 1
    with pytest.raises(Unsupported, match="nest too deeply"):
        KernelGame(game)


def test_procedures_written_in_place_play_as_called() -> None:
    """kernel/lower.py's ``_inlined``: a small procedure written where it is called, its
    arguments bound together (``note(n + 1, n)``), one whose names the caller holds left a
    call (``note(b, a)`` where the caller binds ``a`` and ``b``; ``let w`` beside the
    caller's ``w``), one passed its own names in scope (``bump(a)``), a loop in one."""
    spec = check_text(HEAD + """
var n: int = 0
var m: int = 0
procedure note(a: int, b: int) {
  let w = a * 10 + b
  set n = n + w
}
procedure bump(a: int) {
  for q in seats {
    set m = m * 3 + a + q
  }
}
def score(p: int) = n * 1000 + m % 1000 + p
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  note(n + 1, n)
  for a in [1, 2] {
    let b = a + 5
    note(b, a)
    bump(a)
    choose 0 {
      take(card = c) for c in hand[0] "Take." {
        let w = rank(c)
        note(w, a)
        set m = m + w
        move c from hand[0] to stock
      }
    }
  }
  end deal scoring score
}
match { run deal
  end match winners [0] }
""", "t.rules")
    game = Game(spec, 2)
    assert lockstep(game, KernelGame(game), 20, 3) == 20 * 3  # a shuffle, two takes
