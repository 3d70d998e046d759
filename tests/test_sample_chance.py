"""``sample_chance``: a chance event drawn and applied in one call (issue 29: a sampled deal was
a fifth of a hearts playout, its event made, copied and checked as one from outside). It draws
exactly the event ``sample_event(legal_actions(), rng, chance_weights)`` draws with the same
``rng``, on the engine and on the kernel alike, and leaves the state where ``apply`` of that
event leaves it: the same games, event for event, with shuffles, reshuffles, picks and buries.
And ``snapshot_sum``, a list of plain values joined and kept in one call, as the two calls it
replaces keep it."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as hs

from rulespec.engine.chance import sample_event
from rulespec.engine.kernel import KernelGame
from rulespec.engine.machine import snapshot, snapshot_sum
from rulespec.engine.state import CHANCE
from rulespec.errors import IllegalActionError
from rulespec.lang.builtins import LimitError, add
from rulespec.loading import game_for, resolve

#: a shuffle and a pick (hearts' pass direction), a reshuffle (Vändåtta's, uno's stock made
#: again), a bury (Vändåtta's eight turned up), the seed games' second pack
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("hearts", 4, {"pass_rotation": "random"}),
    ("vandatta", 4, {}),
    ("vandatta", 9, {}),
    ("uno", 4, {}),
    ("crazy_eights", 5, {}),
    ("abracadabra", 3, {}),
]


def _play(new: Any, seed: int, sampled: bool, weighted: bool) -> list[object]:
    """Every event of one random game, chance drawn by ``sample_chance`` or as before."""
    rng = random.Random(seed)
    st = new()
    seen: list[object] = []
    while st.to_move is not None:
        if st.to_move == CHANCE:
            if sampled:
                ev = st.sample_chance(rng, weighted)
            else:
                ev = sample_event(st.legal_actions(), rng,
                                  st.chance_weights if weighted else None)
                st.apply(ev)
            seen.append(ev)
        else:
            k = rng.randrange(st.legal_count())
            seen.append(k)
            st.apply_index(k)
    seen.append((st.winners, st.deals, st.z))
    return seen


@pytest.mark.parametrize(("spec", "players", "options"), TABLES)
def test_a_sampled_chance_event_is_the_one_sample_event_draws(
        spec: str, players: int, options: dict[str, Any]) -> None:
    _three_ways(game_for(resolve(spec).spec, players, options, 0), range(4))


def _three_ways(game: Any, seeds: range) -> None:
    """Each seed's game, chance drawn as before, by ``sample_chance``, and on the kernel by
    ``sample_chance``, weighted and not: the same events, zones and results."""
    kernel = KernelGame(game)
    for seed in seeds:
        for weighted in (True, False):
            before = _play(game.new_initial_state, seed, False, weighted)
            assert _play(game.new_initial_state, seed, True, weighted) == before
            assert _play(kernel.new_initial_state, seed, True, weighted) == before


def test_the_kernel_replays_a_sampled_game() -> None:
    """The kernel's log keeps a sampled event as its own copy: a clone and the engine's state
    it gives are where the game is, whatever the caller does with the event returned."""
    kernel = KernelGame(game_for(resolve("vandatta").spec, 4, {}, 0))
    rng = random.Random(7)
    st = kernel.new_initial_state()
    ev = st.sample_chance(rng)
    ev["cards"].reverse()  # type: ignore[union-attr]
    for _ in range(30):
        if st.to_move is None:
            break
        if st.to_move == CHANCE:
            st.sample_chance(rng)
        else:
            st.apply_index(rng.randrange(st.legal_count()))
    assert st.clone().z == st.z == st.engine_state().z


def test_sample_chance_needs_a_chance_event() -> None:
    game = game_for(resolve("hearts").spec, 4, {}, 0)
    for st in (game.new_initial_state(), KernelGame(game).new_initial_state()):
        rng = random.Random(1)
        while st.to_move == CHANCE:
            st.sample_chance(rng)
        with pytest.raises(IllegalActionError, match="no chance event"):
            st.sample_chance(rng)


@given(hs.lists(hs.integers(0, 5), max_size=6), hs.lists(hs.integers(0, 5), max_size=6),
       hs.integers(-2, 14), hs.booleans(), hs.booleans())
def test_a_kept_sum_is_the_snapshot_of_the_sum(xs: list[int], ys: list[int], left: int,
                                               tuple_x: bool, tuple_y: bool) -> None:
    """``set trick_from = trick_from + [h]`` is joined and kept in one call
    (machine.snapshot_sum): the value ``snapshot(st, add(x, y))`` keeps, the same budget left,
    the same error where the budget runs out."""
    def run(f: Any) -> tuple[object, int]:
        s = _Budget(left)
        x: Any = tuple(xs) if tuple_x else list(xs)
        y: Any = tuple(ys) if tuple_y else list(ys)
        try:
            return f(s, x, y), s.left
        except LimitError as e:
            return str(e), s.left
    assert run(snapshot_sum) == run(lambda s, x, y: snapshot(s, add(x, y)))


class _Budget:
    def __init__(self, left: int) -> None:
        self.left = left


@pytest.mark.parametrize(("spec", "players"), [
    ("vandatta", 4), ("uno", 4), ("hearts", 4), ("abracadabra", 3), ("abracadabra_newton", 4),
    ("euchre", 4)])
def test_simulate_draws_the_same_games_with_records_or_without(
        spec: str, players: int, tmp_path: Any) -> None:
    """simulate draws chance with ``sample_chance`` and decisions by index (``legal_count``,
    ``apply_index``) where it keeps no events, and with ``sample_event`` then ``apply`` where
    it writes records (each event listed before it is applied): the same games, so the same
    summary (actions and turns counted alike). Hearts' pass is a simultaneous decision,
    Abracadabra's bid a hand's subsets listed lazily."""
    from rulespec.simulate import simulate

    assert simulate(spec, players, 12, seed=3) == \
        simulate(spec, players, 12, seed=3, records=tmp_path / "r.jsonl")
    # and each game's own numbers, with the clauses it entered (a report's columns), which
    # the summary's equality leaves out
    fast = simulate(spec, players, 6, seed=4, per_game=True).per_game
    slow = simulate(spec, players, 6, seed=4, per_game=True, records=tmp_path / "p.jsonl")
    assert fast is not None and slow.per_game is not None and fast.clause_games
    assert _columns(fast) == _columns(slow.per_game)


def _columns(c: Any) -> dict[str, object]:
    """A run's per-game columns (``GameColumns``) as plain lists, to compare."""
    def plain(x: object) -> object:
        if hasattr(x, "tolist"):
            return x.tolist()
        if isinstance(x, list):
            return [plain(y) for y in x]
        if isinstance(x, dict):
            return {k: plain(y) for k, y in x.items()}
        return x
    return {a.name: plain(getattr(c, a.name)) for a in attrs.fields(type(c))}


@pytest.mark.parametrize(("spec", "players", "options"), [
    *TABLES, ("euchre", 4, {}), ("abracadabra_newton", 4, {}), ("hearts", 4, {})])
def test_apply_index_names_the_action_of_the_event_it_applies(
        spec: str, players: int, options: dict[str, Any]) -> None:
    """``State.apply_index`` returns the action of the ``k``-th legal event (what simulate
    counts without the event written), None at chance: at every decision of random games,
    lazy maps (a hand's subsets), simultaneous decisions and engine-listed ones alike."""
    game = game_for(resolve(spec).spec, players, options, 0)
    for seed in range(3):
        rng = random.Random(seed)
        st = game.new_initial_state()
        twin = game.new_initial_state()
        while not st.is_terminal():
            if st.to_move == CHANCE:
                ev = st.sample_chance(rng, False)
                twin.apply(ev)
                continue
            k = rng.randrange(st.legal_count())
            want = twin.legal_actions()[k]
            assert st.apply_index(k) == want["action"]
            twin.apply(want)
        assert st.result() == twin.result()


@given(hs.integers(0, 2**64), hs.integers(0, 120))
def test_shuffle_orders_as_random_does(seed: int, n: int) -> None:
    """``chance.shuffle`` (a pack's shuffle written out) leaves the list, and the generator,
    exactly as ``random.Random.shuffle`` does: the games drawn stay the games they were."""
    from rulespec.engine.chance import shuffle

    a, b = list(range(n)), list(range(n))
    r1, r2 = random.Random(seed), random.Random(seed)
    r1.shuffle(a)
    shuffle(r2, b)
    assert a == b
    assert r1.random() == r2.random()


def test_shuffle_asks_a_generator_of_its_own_kind() -> None:
    """A subclass of Random may shuffle its own way: it is asked to."""
    from rulespec.engine.chance import shuffle

    class Backwards(random.Random):
        def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
            x.reverse()

    xs = [1, 2, 3]
    shuffle(Backwards(0), xs)
    assert xs == [3, 2, 1]


def test_a_bury_is_drawn_among_its_positions_in_their_canonical_order() -> None:
    """At a bury (crazy eights' starting eight put back in the stock), ``sample_chance``
    draws the position ``sample_event`` draws from ``legal_actions``, whose canonical order
    puts position 10 before 2, and lays the card there: checked at the first bury met, for
    many generators, on the engine and on the kernel."""
    game = game_for(resolve("crazy_eights").spec, 5, {}, 0)
    kernel = KernelGame(game)
    rng = random.Random(0)
    for _ in range(200):
        st = game.new_initial_state()
        choices: list[object] = []
        while st.to_move == CHANCE and st.pending.kind != "bury":  # type: ignore[union-attr]
            choices.append(st.sample_chance(rng))
        if st.to_move == CHANCE:
            break
    else:
        pytest.fail("no bury met in 200 deals")
    assert len(st.legal_actions()) > 11  # positions 10 and up: the order matters
    positions = set()
    for seed in range(40):
        want, got, low = st.clone(), st.clone(), kernel.new_initial_state()
        for ev in choices:
            low.apply(ev)  # type: ignore[arg-type]
        ev = sample_event(want.legal_actions(), random.Random(seed))
        want.apply(ev)
        assert got.sample_chance(random.Random(seed), False) == ev
        assert low.sample_chance(random.Random(seed), False) == ev
        assert got.z == want.z and low.z == want.z
        positions.add(ev["position"])
    assert len(positions) > 10


SELF_BURY = """game selfbury title "Self bury"
players 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def score(q: int) = size(hand[q])
deal {
  for q in seats {
    fill hand[q] with []
  }
  fill stock with pack(1)
  shuffle stock
  deal 12 from stock to hand of seats_from(left_of(dealer))
  bury hand[0] into hand[0]
  choose 0 {
    show() "Show." {
      end deal scoring score
    }
  }
}
match {
  run deal
  end match winners [q for q in seats if totals[q] == min(totals[r] for r in seats)]
}
"""


def test_a_zone_buried_into_itself_is_laid_as_apply_lays_it() -> None:
    """The bury's card is taken before its place is counted, as ``apply`` takes it: a hand
    buried into itself (a second reader's find) ends the same on every path."""
    from rulespec.lang.checker import check_text

    _three_ways(game_for(check_text(SELF_BURY, "selfbury.rules"), 2, {}, 0), range(12))
