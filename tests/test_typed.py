"""The typed lowering (rulespec.engine.typed) plays exactly as the Python engine: the same seat
to move, the same number of legal events, the same chance events drawn from the same
generator, the same results, game after game on every table it lowers; an event given by its
text is the engine's to check; a runtime error is the engine's, word for word."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulespec import Game, RuleRuntimeError, check_text
from rulespec.adapters import ENGINES, engine_adapter
from rulespec.engine.state import CHANCE
from rulespec.engine.typed import TypedGame, Unsupported
from rulespec.errors import IllegalActionError
from rulespec.loading import game_for, resolve, typed_game_for
from rulespec.simulate import simulate
from tests.test_def_tables import END, same_trails
from tests.test_kernel import FAILING, HEAD


def _engine_table(name: str) -> tuple[str, int, dict[str, Any]]:
    adapter: Any = engine_adapter(name)
    return adapter.spec, getattr(adapter, "players", (4,))[0], {**adapter.fixed, **adapter.usual}


#: every table the typed lowering covers so far, with options that take each path
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    _engine_table("openspiel:hearts"),
    _engine_table("openspiel:spades"),
    _engine_table("openspiel:oh_hell"),
    _engine_table("openspiel:skat"),
    _engine_table("openspiel:crazy_eights"),
    _engine_table("openspiel:euchre"),
    ("euchre", 4, {"deals": 3}),
    ("crazy_eights", 2, {"reshuffle": True}),
    ("crazy_eights", 4, {"special_cards": True, "first_eight": "dealer_names"}),
    ("spades", 4, {"deals": 3, "mercy_rule": True, "bid_cap": True}),
    ("oh_hell", 5, {"deals": 4}),
    ("hearts", 4, {}),
    ("hearts", 4, {"pass_rotation": "no_pass", "no_points_on_first_trick": False,
                   "must_break_hearts": False, "jd_bonus": True,
                   "avoid_all_tricks_bonus": True}),
    ("hearts", 4, {"moon": "subtract_from_own", "lead_hearts_over_queen": True,
                   "can_lead_any_club": True, "qs_breaks_hearts": True, "deals": 3}),
    # the meld built-ins, the knocker's melds laid down and the defender's lay-offs (listed
    # by their keys): OpenSpiel's table, and RLCard's (each hand laid down in its best melds)
    _engine_table("openspiel:gin_rummy"),
    _engine_table("rlcard:gin_rummy"),
    # skat's own table: its bids of several values (an alternative of two generators)
    ("skat", 3, {"deals": 2}),
]


def lockstep(game: Game, typed: TypedGame, games: int, seed: int) -> int:
    """Play ``games`` random games on both with the same choices and the same draws of
    chance; assert they agree at every event. Returns the events played."""
    events = 0
    for i in range(games):
        es, ts = game.new_initial_state(), typed.new_initial_state()
        draws, draws2 = random.Random(seed * 1000 + i), random.Random(seed * 1000 + i)
        pick = random.Random(seed * 7919 + i)
        while es.to_move is not None:
            assert ts.to_move == es.to_move, (i, events)
            if es.to_move == CHANCE:
                assert ts.legal_count() == es.legal_count()
                # by the weights in every other game, uniformly among the events in the rest
                weighted = i % 2 == 0
                assert ts.sample_chance(draws2, weighted) == es.sample_chance(draws, weighted)
            else:
                assert ts.legal_count() == es.legal_count(), (i, events)
                k = pick.randrange(es.legal_count())
                action = es.apply_index(k)
                # the action applied, where the typed code was lowered to say it
                assert ts.apply_index(k) == (action if typed.actions else None), (i, events)
            events += 1
            if events % 97 == 0:  # now and then, the answer of an unfinished match
                assert ts.result() == es.result()
        assert ts.is_terminal()
        assert (ts.winners, ts.deals, ts.v["totals"]) == (es.winners, es.deals, es.v["totals"])
        assert ts.result() == es.result()
    return events


@pytest.mark.parametrize(("name", "players", "options"), TABLES,
                         ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(TABLES)])
def test_the_typed_code_plays_as_the_engine(name: str, players: int,
                                            options: dict[str, Any]) -> None:
    game = game_for(resolve(name).spec, players, options, 0)
    assert lockstep(game, TypedGame(game), 12, 1) > 12 * 20
    # lowered with its actions, as simulate plays it: each apply_index says its action
    assert lockstep(game, TypedGame(game, actions=True), 4, 5) > 4 * 20


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players", "options"), TABLES,
                         ids=[f"{n}-{p}-{i}" for i, (n, p, _) in enumerate(TABLES)])
def test_hundreds_of_games_in_lockstep(name: str, players: int,
                                       options: dict[str, Any]) -> None:
    for dealer in range(players):
        game = game_for(resolve(name).spec, players, options, dealer)
        lockstep(game, TypedGame(game), 100, 2 + dealer)


def test_the_tables_it_does_not_cover_say_so() -> None:
    """A construct not lowered yet makes the table Unsupported, never a wrong game."""
    for name in sorted(ENGINES):
        spec, players, options = _engine_table(name)
        game = game_for(resolve(spec).spec, players, options, 0)
        try:
            typed = TypedGame(game)
        except Unsupported:
            continue
        lockstep(game, typed, 2, 3)


def test_events_given_by_their_text() -> None:
    """``apply`` takes a chance event or a decision's event as ``legal_actions`` writes it
    (the engine's, replayed), and refuses one that is not legal."""
    game = game_for(resolve("hearts").spec, 4, {}, 0)
    es, ts = game.new_initial_state(), TypedGame(game).new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        legal = es.legal_actions()
        assert ts.legal_actions() == legal
        if es.to_move == CHANCE:
            ev = es.sample_chance(rng)
        else:
            ev = rng.choice(legal)
            es.apply(ev)
        ts.apply(ev)
        assert ts.to_move == es.to_move
    with pytest.raises(IllegalActionError):
        ts.apply({"action": "play", "card": "ZZ", "seat": 0})


@pytest.mark.parametrize(("text", "says"), FAILING, ids=[s for _, s in FAILING])
def test_a_runtime_error_is_the_engines(text: str, says: str) -> None:
    """The kernel's failing rules (tests/test_kernel.py), on the typed code where it lowers
    them."""
    spec = check_text(HEAD + text, "t.rules")
    game = Game(spec, 2)
    try:
        typed_game = TypedGame(game)
    except Unsupported:
        return

    def play(st: Any) -> None:
        rng = random.Random(1)
        for _ in range(100):
            if st.to_move is None:
                return
            st.sample_chance(rng) if st.to_move == CHANCE else st.apply_index(0)

    with pytest.raises(RuleRuntimeError, match=says.split(" in ")[0]) as engine:
        play(game.new_initial_state())
    with pytest.raises(RuleRuntimeError, match=says.split(" in ")[0]) as typed:
        play(typed_game.new_initial_state())
    assert str(typed.value) == str(engine.value)
    assert typed.value.span == engine.value.span


#: rules a second reader found the typed code played otherwise than the engine (each failed
#: before its fix): a card moved out of an ordered hand, a procedure's argument read after
#: the procedure set its variable, a per-player variable kept by ``let``, a loop over a hand
#: its body empties, ``set_of`` of a hand in pack order, a pick into a local, the dealer
#: picked, a condition folded through a variable no rule sets, ``seats_from`` at a table of
#: fewer hands, a pick of nothing
FOUND = [
    ("""
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  repeat 2 {
    for p in seats {
      choose p {
        play(card = c) for c in hand[p] "Play." { move c from hand[p] to pile }
      }
    }
  }
  end deal scoring zero
}
match { run deal
  end match winners [rank(top(hand[0])) % 2] }
""", HEAD),
    ("""
var n: int = 1
var m: int = 0
procedure bump(x: int) {
  set n = n + 10
  set m = x
}
def sc(p: int) = m
deal {
  fill stock with pack(1)
  bump(n)
""" + END, HEAD),
    ("""
var m: int = 0
var w: int per player = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  let t = w
  set w[0] = 7
  set m = t[0]
""" + END, HEAD),
    ("""
zone pile: shared visible to all
deal {
  fill stock with pack(1)
  shuffle stock
  deal 4 from stock to hand of seats
  for c in hand[0] { move c from hand[0] to pile }
  choose 0 { take(card = c) for c in pile if c == top(pile) "T." { } }
  end deal scoring zero
}
match { run deal
  end match winners [size(pile) - 3] }
""", HEAD),
    ("""
var m: int = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  shuffle stock
  deal 5 from stock to hand of seats
  set m = rank(first(set_of(hand[0])))
""" + END, HEAD),
    ("""
var m: int = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  let x = 0
  if size(stock) > 0 {
    pick x from [1, 2]
  }
  set m = x
""" + END, HEAD),
    ("""
deal {
  fill stock with pack(1)
  pick dealer from [0, 1, 2, 3, 4, 5]
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", HEAD),
    ("""
zone pile: shared visible to all
var flag: bool = false
var m: int = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  shuffle stock
  set m = size([c for c in [top(pile)] if flag])
""" + END, HEAD),
    ("""
var m: int = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  shuffle stock
  set m = size(seats_from(1))
""" + END, HEAD.replace("players 2 to 3\n", "players 2 to 3\nhands 3\n")),
    ("""
deal {
  fill stock with pack(1)
  shuffle stock
  pick x from [n for n in [1, 2] if n > size(stock)]
  end deal scoring zero
}
match { run deal
  end match winners [0] }
""", HEAD),
]


#: procedures that return from inside loops of their own, one inside another's loop: a return
#: leaves its procedure's one-round loop through each loop it is in, by a flag
FOUND.append(("""
var n: int = 0
var m: int = 0
procedure inner(k: int) {
  for q in seats {
    repeat 3 {
      set n = n + 1
      if n > k {
        return
      }
    }
  }
  set m = m + 100
}
procedure outer(k: int) {
  loop {
    inner(k)
    set m = m + 1
    if m > 3 {
      return
    }
  }
}
def sc(p: int) = n * 1000 + m
deal {
  fill stock with pack(1)
  shuffle stock
  outer(2)
  inner(50)
  if n > 0 {
    outer(0)
  }
""" + END, HEAD))


#: a loop over the seats setting one element each is one assignment of every seat's value
#: only where no value reads another seat's element: here the second seat's value reads the
#: first's, set just before it (and a value reads its own element, which is allowed); then a
#: seat's value raises after the seats before it were set
FOUND.append(("""
var w: int per player = 0
var v: int per player = 1
var d: int = 0
def sc(p: int) = w[p] * 100 + v[p]
deal {
  fill stock with pack(1)
  shuffle stock
  deal 1 from stock to hand of seats
  for q in seats {
    set w[q] = w[(q + 1) % 2] + q + 1
  }
  for q in seats {
    set v[q] = v[q] * 3 + w[q] + rank(first(hand[q]))
  }
  for q in seats {
    set v[q] = 10 // (w[q] - 3)
  }
""" + END, HEAD))


#: a decision listed by its events' keys (listed_by_keys): an alternative of two generators,
#: a field of cards worked out from the value, and an event two alternatives write (the
#: first keeps it: its body runs)
FOUND.append(("""
var tot: int = 0
def sc(p: int) = tot
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  repeat 3 {
    for p in seats {
      choose p {
        bid(level = n, suit = s) for n in range(1, 2) for s in [hearts, spades, clubs]
            if n * 10 + size(hand[p]) > 11 and s != suit(first(hand[p])) "Bid." {
          set tot = tot + n * 3 + (if s == hearts then 1 else 0)
        }
        show(cards = set_of(hand[p] + [c]), card = c) for c in hand[(p + 1) % 2] "Show." {
          set tot = tot + rank(c)
        }
        bid(level = 1, suit = hearts) "Bid hearts." { set tot = tot + 100 }
        pass() "Pass." { set tot = tot - 1 }
      }
    }
  }
""" + END, HEAD))


#: what a second reader of the next change found, each played otherwise than the engine
#: (or, the first, the engine itself wrong) before its fix
FOUND.extend([
    # a comprehension inside another that binds the same name: codegen/cse.py's temporary
    # of the inner one overwrote the outer's (the engine scored the pile's last rank)
    ("""
zone pile: shared visible to all
var m: int = 0
def sc(p: int) = m
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  move top(stock) from stock to pile
  move top(stock) from stock to pile
  set m = sum(if rank(c) > max(rank(c) for c in pile) then rank(c) else 0 for c in hand[0])
""" + END, HEAD),
    # a loop over a seat named twice: the second value reads what the first set
    ("""
var w: int per player = 0
def sc(p: int) = w[p]
deal {
  fill stock with pack(1)
  for q in [0, 0] {
    set w[q] = w[q] + 5
  }
""" + END, HEAD),
    # a conjunct tested in the loop of the generator it reads, before the next generator's
    # list (n > 0 before 6 // n), as the engine's enumerators test it
    ("""
var tot: int = 0
def sc(p: int) = tot
deal {
  fill stock with pack(1)
  choose 0 {
    bid(level = n, m = m) for n in range(0, 2) for m in range(0, 2) if 6 // n > m and n > 0
      "Bid." { set tot = n + m }
    pass() "Pass." { }
  }
  choose 1 {
    bid(level = n, m = m) for n in range(0, 2) for m in range(0, 6 // n) if n > 0 "Bid." {
      set tot = tot + n + m
    }
  }
""" + END, HEAD),
    # an event's card that may be none
    ("""
var tot: int = 0
def sc(p: int) = tot
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  choose 0 {
    show(e = (if k == 0 then none else c)) for c in hand[0] for k in range(0, 2) "Show." {
      set tot = k
    }
  }
""" + END, HEAD),
])


@pytest.mark.parametrize(("text", "head"), FOUND, ids=[str(i) for i in range(len(FOUND))])
def test_what_a_second_reader_found(text: str, head: str) -> None:
    """The same events, results and errors (raised at the same step) as the engine."""
    game = Game(check_text(head + text, "t.rules"), 2)
    same_trails(game, TypedGame(game), 8)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hearts", "spades", "oh_hell", "crazy_eights", "euchre"])
def test_random_tables_of_each_lowered_game(name: str) -> None:
    """Every option drawn at random (a short match), at a random table size: where the typed
    code lowers the table it plays as the engine."""
    spec = resolve(name).spec
    rng = random.Random(name)
    lowered = 0
    for trial in range(8):
        options: dict[str, Any] = {}
        for od in spec.options:
            if isinstance(od.default, bool):
                options[od.name] = rng.random() < 0.5
            elif od.values:
                value = rng.choice(list(od.values))
                if not od.value_params(value):
                    options[od.name] = value
        if any(od.name == "deals" for od in spec.options):
            options["deals"] = rng.randint(1, 3)
        players = rng.randint(spec.min_players, min(spec.max_players, 7))
        game = game_for(spec, players, options, rng.randrange(players))
        try:
            typed = TypedGame(game)
        except Unsupported:
            continue  # two packs: copies of a card
        lockstep(game, typed, 3, trial)
        lowered += 1
    assert lowered >= 4


#: tables simulate plays on the typed code (covered), and one it plays in Python (uno's
#: copies of a card are not lowered yet)
SIMULATED = [("hearts", 4, {}), ("crazy_eights", 5, {}), ("spades", 4, {"deals": 2}),
             ("euchre", 4, {}), ("oh_hell", 3, {"deals": 2}), ("gin_rummy", 2, {}),
             ("uno", 2, {})]


@pytest.mark.parametrize(("name", "players", "options"), SIMULATED,
                         ids=[n for n, _, _ in SIMULATED])
def test_simulate_on_the_typed_code_is_the_engines(name: str, players: int,
                                                   options: dict[str, Any]) -> None:
    """The same games, so the same summary, on either engine (the typed code where it
    covers the table, the Python engine where not)."""
    game = game_for(resolve(name).spec, players, options, 0)
    typed, why = typed_game_for(game)
    assert (typed is None) == (name == "uno") and (why != "") == (typed is None)
    got = [simulate(name, players, 20 if name != "gin_rummy" else 4, seed=5, options=options,
                    engine=e) for e in ("python", "typed")]
    assert got[0] == got[1]
    if typed is not None:
        # a match's finished deals go to the sink as the engine's do: one kept at the end
        st = typed.new_initial_state()
        taken: list[dict[str, object]] = []
        st.deal_sink = taken.append
        rng = random.Random(3)
        while st.to_move is not None:
            if st.to_move == CHANCE:
                st.sample_chance(rng)
            else:
                st.apply_index(rng.randrange(st.legal_count()))
        assert len(st.result()["deals"]) == 1 and len(taken) == st.v["deals_played"] - 1


def test_simulate_engine_typed_through_the_command_line(tmp_path: Path) -> None:
    """``rulespec simulate --engine typed`` from another folder, in a child process: the
    Python engine's output, and one line on stderr where it plays in Python, and why."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "rulespec", "simulate", *args],
                              cwd=tmp_path, capture_output=True, text=True, timeout=300)

    hearts = ["hearts", "-p", "4", "-n", "20", "--seed", "3", "--json"]
    py, ty = run(*hearts), run(*hearts, "--engine", "typed")
    assert py.returncode == ty.returncode == 0, ty.stderr
    assert ty.stdout == py.stdout and "playing in Python" not in ty.stderr
    uno = run("uno", "-p", "2", "-n", "2", "--json", "--engine", "typed")
    assert uno.returncode == 0 and json.loads(uno.stdout)["games"] == 2
    assert "--engine typed: the typed lowering does not cover this table (the zone stock " \
           "may hold copies of a card); playing in Python" in uno.stderr
    kept = run(*hearts, "--engine", "typed", "--records", str(tmp_path / "recs"))
    assert kept.returncode == 0 and kept.stdout == py.stdout
    assert "records, bots and reports are the Python engine's" in kept.stderr
