"""The kernel's bit sets (rulespec.engine.kernel.bits): a zone of distinct cards that a listing
reads kept as an int beside its list, the listing's guard one mask. Each construct a mask
covers, played against the Python engine; a guard of another form leaves the zone a list
only; a mask whose evaluation raises where the engine's card-by-card test would not falls
back to that test."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulespec import Game, RuleRuntimeError, check_text
from rulespec.adapters import engine_adapter
from rulespec.engine.kernel import KernelGame
from rulespec.engine.kernel.bits import BitDeck, kept
from rulespec.engine.kernel.listing import sort_text
from rulespec.engine.state import CHANCE, State
from rulespec.lang.decks import FRENCH
from rulespec.loading import game_for, resolve
from tests.test_kernel import HEAD as KERNEL_HEAD

# the kernel's tests' table, with a pile to play to and the suit led
HEAD = KERNEL_HEAD + """zone pile: shared visible to all
var n: int = 0
var led: suit? = none
"""


def _spec(guard: str, fill: str = "pack(1)", deal: int = 12,
          move: str = "move c from hand[q] to pile", cards: str = "hand[q]") -> Game:
    """A table whose players play a card of their hand that passes ``guard`` (on ``c``, the
    card, and ``q``, the player) to a pile (by the statement ``move``), the first card played
    setting ``led``."""
    lay = "procedure lay(q: int, m) {\n  for x in m {\n    move x from hand[q] to pile\n  }\n}"
    return Game(check_text(HEAD + lay * ("lay(" in move) + f"""
def ok(q: int, c: card) = {guard}
deal {{
  fill stock with {fill}
  shuffle stock
  deal {deal} from stock to hand of seats
  repeat {deal} {{
    for q in seats {{
      choose q {{
        play(card = c) for c in {cards} if ok(q, c) "Play." {{
          {move}
          if led == none {{ set led = suit(c) }}
          set n = n + 1
        }}
        pass() if not any(ok(q, c) for c in hand[q]) "Pass." {{ set n = n + 1 }}
      }}
    }}
  }}
  end deal scoring zero
}}
match {{ run deal
  end match winners [0] }}
""", "t.rules"), 2)


def _lockstep(game: Game, games: int = 12, seed: int = 1) -> int:
    """Random games on both, the same choices: the same zones and legal events at every
    step, and the same runtime error where one is raised. Returns how many games ended in
    one."""
    errors = 0
    kernel = KernelGame(game)
    for i in range(games):
        rng = random.Random(seed * 1000 + i)
        es: State = game.new_initial_state()
        ks = kernel.new_initial_state()
        while es.to_move is not None:
            assert ks.to_move == es.to_move
            # the lists are the engine's, order and all: the bits are kept beside them
            assert ks.z == es.z
            legal = es.legal_actions()
            assert ks.legal_actions() == legal
            if es.to_move != CHANCE:
                assert ks.legal_count() == es.legal_count()
            k = rng.randrange(len(legal))
            chance = es.to_move == CHANCE
            err: list[str] = []
            for st in (es, ks):
                try:
                    st.apply(legal[k]) if chance else st.apply_index(k)
                except RuleRuntimeError as e:
                    err.append(str(e))
            assert len(err) in (0, 2) and len(set(err)) <= 1, err
            if err:
                errors += 1
                break
        assert ks.v["n"] == es.v["n"]
    return errors


#: guards a mask covers: the suit, the rank and the card itself against values and constants,
#: the connectives, ``if`` on the card and on a value, and any/all/count over the hand
MASKED = [
    "suit(c) == hearts or rank(c) >= 12",
    "suit(c) != spades and not (c == 'QS' or c in ['2C', '3C'])",
    "if n % 2 == 0 then rank(c) < 7 else rank(c) > 9 or c == '8D'",
    "led == none or suit(c) == led or not any(suit(d) == led for d in hand[q])",
    "(if rank(c) == 11 then led else suit(c)) == led or led == none or "
    "all(suit(d) != led for d in hand[q])",
    "count(rank(d) > 10 for d in hand[q]) > 2 or rank(c) <= n % 13",
    "c not in [d for d in pack(1) if rank(d) == 14] and rank(c) != n",
    "size(pile) == 0 or rank(c) > rank(top(pile))",
]


@pytest.mark.parametrize("guard", MASKED)
def test_a_guard_as_a_mask_plays_as_the_engine(guard: str) -> None:
    game = _spec(guard)
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


#: guards a mask does not cover: arithmetic on the rank, two cards compared
LISTS = [
    "rank(c) + n % 3 > 8",
    "any(suit(d) == suit(c) and d != c for d in hand[q])",
]


@pytest.mark.parametrize("guard", LISTS)
def test_another_guard_leaves_the_zone_a_list(guard: str) -> None:
    game = _spec(guard)
    assert KernelGame(game).bit_zones == frozenset()
    _lockstep(game)


def test_a_hand_with_copies_stays_a_list() -> None:
    """Two packs: a hand may hold a card twice, which one bit cannot say."""
    game = _spec("suit(c) == hearts or rank(c) >= 12", "pack(2)")
    assert KernelGame(game).bit_zones == frozenset()
    _lockstep(game)


def test_an_ordered_hand_is_mirrored_too() -> None:
    """A rule reads the hand's top card (its order): the list keeps the order, the bits
    beside it the cards, and the listing is the mask's (its events sort the same way)."""
    game = _spec("c != top(hand[q]) or size(hand[q]) == 1")
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


def test_a_mask_that_raises_falls_back_to_the_engines_order() -> None:
    """``first(pile)`` of an empty pile raises; the engine reads it only for a card of rank 5
    or less. A hand without one: the mask's eager read raises, the kernel falls back, and no
    error is raised, as none is on the engine; a hand with one: both raise the same error."""
    guard = "rank(c) > 5 or suit(c) == suit(first(pile))"
    high = _spec(guard, "[d for d in pack(1) if rank(d) > 5]", 8)
    assert KernelGame(high).bit_zones == {"hand"}
    assert _lockstep(high) == 0
    assert _lockstep(_spec(guard)) > 0


def _engine_table(name: str) -> tuple[str, int, dict[str, Any]]:
    adapter: Any = engine_adapter(name)
    return adapter.spec, getattr(adapter, "players", (4,))[0], {**adapter.fixed, **adapter.usual}


@pytest.mark.parametrize("name", ["hearts", "spades", "oh_hell", "euchre"])
def test_the_trick_tables_list_a_hand_by_mask(name: str) -> None:
    spec, players, options = _engine_table(f"openspiel:{name}")
    game = game_for(resolve(spec).spec, players, options, 0)
    assert KernelGame(game).bit_zones == {"hand"}


def test_uno_keeps_its_lists() -> None:
    """Uno's hands hold copies and are read in order: no zone is a candidate."""
    spec, players, options = _engine_table("rlcard:uno")
    game = game_for(resolve(spec).spec, players, options, 0)
    assert KernelGame(game).bit_zones == frozenset()


def test_the_decks_bits_are_the_events_order() -> None:
    deck = BitDeck(FRENCH)
    assert list(deck.codes) == sorted(deck.codes, key=lambda c: sort_text(c, "}"))
    rng = random.Random(3)
    for _ in range(200):
        xs = rng.sample(deck.codes, rng.randint(0, 20))
        m = deck.bits(xs)
        assert list(deck.cards(m)) == sorted(xs, key=lambda c: sort_text(c, ","))
        assert eval(deck.cards_src("m"), {**deck.runtime(), "m": m}) == deck.cards(m)
    with pytest.raises(AssertionError):
        deck.bits(["AS", "AS"])
    assert deck.cards(deck.rank_cmp(">=", 13)) == ("AC", "AD", "AH", "AS", "KC", "KD", "KH",
                                                   "KS")
    assert deck.cards(deck.suit[None]) == ("JK",)


def test_a_line_keeping_an_unread_mirror_is_dropped() -> None:
    hand, won = frozenset({"hand"}), frozenset({"won"})
    assert kept("    B[id(_zs)] &= ~_m", hand, hand) == "    B[id(_zs)] &= ~_m"
    assert kept("    B[id(_zs)] &= ~_m", won, hand) == "    pass"
    assert kept("    _m = _BIT[_w]", won | hand, hand) == "    _m = _BIT[_w]"
    assert kept("    if (_k := id(_zs)) in B: B[_k] &= ~_m", None, hand).endswith("~_m")


def test_a_string_of_the_rules_is_no_mark() -> None:
    """The lines that keep bits are noted beside the text: a string of the rules that looks
    like a note changes nothing."""
    game = _spec('suit(c) != hearts or n > 6 or (if n > 3 then "#bits:won" else "y") == "x"')
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


def test_a_card_the_checker_does_not_type_is_moved_as_a_card() -> None:
    """A procedure's untyped parameter holding cards: each one moved from a mirrored hand is
    one card (its code is not a list of letters), and the mirror follows it."""
    game = _spec("suit(c) != hearts or n > 6", move="lay(q, [c])")
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


@pytest.mark.parametrize("bottom", ["", " at bottom"])
def test_a_whole_zone_moved_into_a_mirrored_hand(bottom: str) -> None:
    """``move pile from pile to hand[...]``: every card, in the pile's order (reversed to the
    bottom), the pile emptied, the hand's mirror given the cards."""
    game = _spec("suit(c) != hearts or n % 5 == 0", move="move c from hand[q] to pile\n"
                 f"if size(pile) == 3 {{ move pile from pile to hand[1 - q]{bottom} }}")
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


def test_a_hands_set_is_listed_by_its_bits() -> None:
    """``for c in set_of(hand[q])``: the hand's cards each once in canonical order, which is
    what its bits say."""
    game = _spec("rank(c) == n % 13 + 2 or suit(c) != led", cards="set_of(hand[q])")
    assert KernelGame(game).bit_zones == {"hand"}
    _lockstep(game)


def test_a_temporary_the_masks_leave_out_is_worked_out_only_where_it_may_raise() -> None:
    """kernel/bits.py's ``_live``: a value no mask reads is dropped where it only reads the
    rules' variables (a trump's suit where no rule obliges a trump), and kept where it may
    raise (the engine may evaluate it, and its error sends the listing card by card)."""
    from rulespec.engine.kernel.bits import _live

    hoisted = [("_v0", "(_SUIT[Z['trick'][0]])"), ("_v1", "(V['trump'])"),
               ("_v2", "((V['trump'] != None))"), ("_v3", "((_xb & _SM.get(_v0, 0)) != 0)"),
               ("_v4", "(not _v3)"), ("_v5", "(V['x'] < 3)"), ("_v10", "(V['y'])")]
    assert [n for n, _ in _live(hoisted, "(_SM.get(_v0, 0) | (_ALLC if _v4 else 0))")] == \
        ["_v0", "_v3", "_v4", "_v5"]
    assert [n for n, _ in _live(hoisted, "_v10")] == ["_v0", "_v3", "_v5", "_v10"]
