"""The meld built-ins (rulespec.lang.melds): sets and runs as the rules of rummy games define
them, and the least deadwood, checked against a brute force written here from the definitions
alone: every way of laying a hand out in melds, for random hands of up to eleven cards."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec import check_text
from rulespec.engine.state import State
from rulespec.errors import RuleRuntimeError, SpecCheckError
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack
from rulespec.lang.melds import NumberedDeadwood, best_melds, deadwood, is_meld, melds
from rulespec.loading import game_for

CARDS = pack(1)
ACE = 14
#: the three run orders of the docs: ace low, ace high, ace at either end
ORDERS = {"low": [ACE, *range(2, 14)], "high": list(range(2, 15)),
          "both": [ACE, *range(2, 15)]}
#: a corner of the pack where melds are common: three suits, ranks A to 6
DENSE = [c for c in CARDS if SUIT_OF[c] != "S" and (RANK_OF[c] <= 6 or RANK_OF[c] == ACE)]


def value(c: str) -> int:
    """Gin Rummy's count: ace 1, pictures 10, the rest their rank."""
    r = RANK_OF[c]
    return 1 if r == ACE else min(r, 10)


def brute_is_meld(cards: Sequence[str], ace: str) -> bool:
    """A set or a run, from the definitions, with the ace's place given in words."""
    if len(cards) < 3:
        return False
    ranks = [RANK_OF[c] for c in cards]
    suits = [SUIT_OF[c] for c in cards]
    if len(set(ranks)) == 1:
        return len(set(suits)) == len(suits)
    if len(set(suits)) != 1 or len(set(ranks)) != len(ranks):
        return False
    readings = {"low": [[1 if r == ACE else r for r in ranks]], "high": [ranks],
                "both": [[1 if r == ACE else r for r in ranks], ranks]}[ace]
    return any(max(rs) - min(rs) == len(rs) - 1 for rs in readings)


def brute_deadwood(cards: Sequence[str], values: Sequence[int], ace: str) -> int:
    """The least deadwood over every partition of the hand into melds and cards left out."""
    @functools.cache
    def least(left: tuple[int, ...]) -> int:
        if not left:
            return 0
        first, rest = left[0], left[1:]
        best = values[first] + least(rest)
        for k in range(2, len(rest) + 1):
            for others in itertools.combinations(rest, k):
                if brute_is_meld([cards[i] for i in (first, *others)], ace):
                    best = min(best, least(tuple(i for i in rest if i not in others)))
        return best
    return least(tuple(range(len(cards))))


HANDS = st.one_of(st.lists(st.sampled_from(CARDS), unique=True, max_size=11),
                  st.lists(st.sampled_from(DENSE), unique=True, max_size=11))


@settings(max_examples=150, deadline=None)
@given(HANDS, st.sampled_from(sorted(ORDERS)), st.data())
def test_deadwood_is_the_least_over_every_layout(hand: list[str], ace: str,
                                                 data: st.DataObject) -> None:
    values = [value(c) for c in hand]
    if data.draw(st.booleans(), "other values"):
        values = data.draw(st.lists(st.integers(0, 20), min_size=len(hand),
                                    max_size=len(hand)), "values")
    got = deadwood(hand, values, ORDERS[ace])
    assert got == brute_deadwood(hand, values, ace)
    laid = best_melds(hand, values, ORDERS[ace])
    used = [c for m in laid for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(hand)
    assert all(brute_is_meld(m, ace) for m in laid)
    assert sum(v for c, v in zip(hand, values, strict=True) if c not in used) == got


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(DENSE), unique=True, min_size=1, max_size=11),
                min_size=1, max_size=4), st.sampled_from(sorted(ORDERS)), st.data())
def test_deadwood_of_a_hand_less_each_card_in_turn(hands: list[list[str]], ace: str,
                                                   data: st.DataObject) -> None:
    """What a rummy game asks at every turn, the deadwood of the hand less each of its cards,
    hand after hand: the answers the deck's remembered search gives (rulespec.lang.melds'
    _DeckMelds) are the brute force's, with a card valued otherwise between two hands (the
    memory starts afresh) and with hands it does not answer (a card twice, over 16 cards)."""
    for hand in hands:
        values = [value(c) for c in hand]
        if data.draw(st.booleans(), "revalued"):
            values[0] += 1
        for k in range(len(hand)):
            less = hand[:k] + hand[k + 1:]
            vs = values[:k] + values[k + 1:]
            assert deadwood(less, vs, ORDERS[ace]) == brute_deadwood(less, vs, ace)
    twice = [*hands[0], hands[0][0]]
    assert deadwood(twice, [value(c) for c in twice], ORDERS[ace]) == \
        brute_deadwood(twice, [value(c) for c in twice], ace)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(DENSE), min_size=1, max_size=18), min_size=1,
                max_size=5), st.sampled_from(sorted(ORDERS)), st.booleans())
def test_deadwood_of_numbered_cards(hands: list[list[str]], ace: str, other: bool) -> None:
    """The typed lowering's deadwood (NumberedDeadwood: cards by their numbers, each valued
    as the rules value it alone) answers as deadwood does, hand after hand: from the deck's
    table, and by asking deadwood itself where the table cannot answer (a card twice, a hand
    past 16 cards, a card the table last heard valued otherwise)."""
    codes = sorted(CARDS)
    values = [value(c) + (1 if other and c.startswith("K") else 0) for c in codes]
    asked: list[int] = []

    def fallback(cs: list[str], vs: list[int], order: Sequence[int]) -> int:
        asked.append(len(cs))
        return deadwood(cs, vs, order)

    numbered = NumberedDeadwood(codes, values, ORDERS[ace], RANK_OF, SUIT_OF, fallback)
    for hand in hands:
        nums = [codes.index(c) for c in hand]
        vs = [values[n] for n in nums]
        assert numbered(nums) == brute_deadwood(hand, vs, ace) if len(hand) <= 12 else \
            numbered(nums) == deadwood(hand, vs, ORDERS[ace])
    # a hand of distinct cards met again, every value heard: from the table alone
    hand = sorted(set(hands[0]))[:10]
    numbered([codes.index(c) for c in hand])
    before = len(asked)
    numbered([codes.index(c) for c in hand])
    assert len(asked) == before


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(DENSE), min_size=1, max_size=12, unique=True),
                min_size=1, max_size=5), st.sampled_from(sorted(ORDERS)), st.booleans())
def test_deadwood_of_a_mask_of_numbers(hands: list[list[str]], ace: str, other: bool) -> None:
    """A hand given by the bits of its cards' numbers (the typed lowering's hand less a
    card) answers as the hand does; two objects valuing a card otherwise take turns with the
    table (each forgets the other's work), and answer each their own deadwood."""
    codes = sorted(CARDS)
    values = [value(c) for c in codes]
    twos = [v + (1 if c.startswith("2") else 0) for c, v in zip(codes, values, strict=True)]
    mine = NumberedDeadwood(codes, values, ORDERS[ace], RANK_OF, SUIT_OF, deadwood)
    theirs = NumberedDeadwood(codes, twos, ORDERS[ace], RANK_OF, SUIT_OF, deadwood)
    for hand in hands:
        mask = sum(1 << codes.index(c) for c in hand)
        for nd, vs in ((mine, values), (theirs, twos)) if other else ((mine, values),):
            want = brute_deadwood(hand, [vs[codes.index(c)] for c in hand], ace)
            assert nd.of_mask(mask) == want
            assert nd([codes.index(c) for c in hand]) == want


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.lists(st.sampled_from(DENSE), min_size=2, max_size=12,
                                   unique=True), st.randoms(use_true_random=False),
                          st.booleans()), min_size=1, max_size=4),
       st.sampled_from(sorted(ORDERS)))
def test_a_hand_less_each_card(rounds: list[tuple[list[str], Any, bool]], ace: str) -> None:
    """The rules ask the deadwood of a hand less each of its cards in turn (a knock's
    discards): the second question works every one out at once (melds.py's deadwood_of);
    each answer is the hand's own, in any order, with other hands asked between, the same
    hand asked twice, and a card valued otherwise (the table forgets)."""
    for hand, rng, other in rounds:
        values = {c: value(c) + (1 if other and c.startswith("3") else 0) for c in hand}
        order = list(hand)
        rng.shuffle(order)
        for c in order + order[:2]:
            less = [x for x in hand if x != c]
            vs = [values[x] for x in less]
            assert deadwood(less, vs, ORDERS[ace]) == brute_deadwood(less, vs, ace)


def test_a_long_hand_is_searched_as_before() -> None:
    """Past 16 cards the hand is searched on its own (its bound on the search's steps)."""
    hand = [c for c in CARDS if SUIT_OF[c] in ("C", "D")][:20]
    values = [value(c) for c in hand]
    clubs = sum(1 for c in hand if SUIT_OF[c] == "C")
    assert clubs == 13
    # the 13 clubs are a run; the 7 diamonds 2 to 8 are one too
    assert deadwood(hand, values, ORDERS["low"]) == 0


@settings(max_examples=150, deadline=None)
@given(HANDS, st.sampled_from(sorted(ORDERS)))
def test_melds_are_every_meld_of_the_hand(hand: list[str], ace: str) -> None:
    want = {tuple(sorted(s)) for k in range(3, len(hand) + 1)
            for s in itertools.combinations(hand, k) if brute_is_meld(s, ace)}
    got = melds(hand, ORDERS[ace])
    assert len(got) == len(set(got))
    assert {tuple(sorted(m)) for m in got} == want
    for m in got:
        assert is_meld(m, ORDERS[ace])
        assert [c for c in hand if c in m] == list(m)  # in the hand's order


@pytest.mark.parametrize(("cards", "ace", "meld"), [
    (["AH", "2H", "3H"], "low", True),
    (["QH", "KH", "AH"], "low", False),
    (["QH", "KH", "AH"], "high", True),
    (["AH", "2H", "3H"], "high", False),
    (["KH", "AH", "2H"], "both", False),  # never round the corner
    (["QH", "KH", "AH"], "both", True),
    (["7C", "7D", "7H", "7S"], "low", True),
    (["7C", "7D"], "low", False),
    (["7C", "8C", "TC"], "low", False),
    (["7C", "8D", "9C"], "low", False),
    (["9C", "7C", "8C"], "low", True),  # order in the list does not matter
])
def test_is_meld(cards: list[str], ace: str, meld: bool) -> None:
    assert is_meld(cards, ORDERS[ace]) is meld
    assert brute_is_meld(cards, ace) is meld


def test_two_packs_use_either_copy() -> None:
    # the set 7H 7C 7D and the run 7H 8H 9H both need a seven of hearts: two packs have two
    hand = ["7H", "7H", "7C", "7D", "8H", "9H"]
    assert deadwood(hand, [value(c) for c in hand], ORDERS["low"]) == 0
    assert melds(["7C", "7C", "7D"], ORDERS["low"]) == ()  # a set has no two of one suit


def test_values_that_do_not_match_are_refused() -> None:
    from rulespec.lang.melds import MeldError
    with pytest.raises(MeldError, match="2 value"):
        deadwood(["AH", "2H", "3H"], [1, 2], ORDERS["low"])


HOST = """game host title "Host"
players 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def score(q: int) = {score}
deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill stock with pack(1)
  shuffle stock
  deal 10 from stock to hand of seats_from(left_of(dealer))
  choose 0 {{
    show() "Show." {{
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners [q for q in seats if totals[q] == min(totals[r] for r in seats)]
}}
"""


@pytest.mark.parametrize(("score", "message"), [
    ("deadwood(hand[q], [rank(x) for x in hand[q] if rank(x) < 10], range(2, ace))",
     "'deadwood' takes one value for each card: this 'if'"),
    ("deadwood(hand[q], [rank(x) for x in stock], range(2, ace))",
     "'deadwood' takes one value for each card of hand[q], and these values come from stock"),
    ("size(best_melds(['AH', '2H', '3H'], [1, 2], range(2, ace)))",
     "'best_melds' takes one value for each card: 2 value(s) for 3 card(s)"),
    ("deadwood(hand[q], range(2, ace))", "'deadwood' takes 3 argument(s), not 2"),
    ("size(melds(hand[q], [hearts]))", "'melds' expects a list of numbers, not a list of suits"),
])
def test_checker_errors(score: str, message: str) -> None:
    with pytest.raises(SpecCheckError) as info:
        check_text(HOST.format(score=score), "host.rules")
    assert any(d.message.startswith(message) for d in info.value.diagnostics), \
        [d.message for d in info.value.diagnostics]


def _play(state: State) -> State:
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def test_a_spec_plays_with_melds() -> None:
    """The built-ins compiled, and a runtime mismatch the rule's error."""
    spec = check_text(HOST.format(
        score="deadwood(hand[q], [if rank(x) > 10 then 10 else rank(x) for x in hand[q]], "
              "[ace] + range(2, king))"), "host.rules")
    state = _play(game_for(spec, 2, {}, 0).new_initial_state())
    assert len(state.deals) == 1
    bad = check_text(HOST.format(score="deadwood(hand[q], values(q), range(2, ace))").replace(
        "def score", "def values(q: int) = [1, 2]\ndef score"), "host.rules")
    with pytest.raises(RuleRuntimeError, match="one value for each card"):
        _play(game_for(bad, 2, {}, 0).new_initial_state())


DECKED = """game decked title "Decked"
players 2
winner lowest total
deck copies 1 "Two suits of five ranks." {{
  suit red "R"
  suit blue "B"
  rank one "1" = 1 "One"
  rank two "2" = 2 "Two"
  rank three "3" = 3 "Three"
  rank four "4" = 4 "Four"
  rank five "5" = 5 "Five"
}}
zone stock: shared visible to nobody
zone hand: per player visible to owner
def score(q: int) = {score}
deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill stock with pack(1)
  shuffle stock
  deal 5 from stock to hand of seats_from(left_of(dealer))
  choose 0 {{
    show() "Show." {{
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners [q for q in seats if totals[q] == min(totals[r] for r in seats)]
}}
"""


def test_a_declared_deck_melds_by_its_own_ranks_and_suits() -> None:
    spec = check_text(DECKED.format(
        score="deadwood(hand[q], [rank(x) for x in hand[q]], range(1, 5))"), "decked.rules")
    f = spec.deck.meld_functions()
    assert f["is_meld"](["1R", "2R", "3R"], [1, 2, 3, 4, 5])
    assert f["is_meld"](["4R", "4B", "4R"], [1, 2, 3, 4, 5]) is False  # two of one suit
    assert f["deadwood"](["1R", "2R", "3R", "5B"], [1, 2, 3, 5], [1, 2, 3, 4, 5]) == 5
    state = game_for(spec, 2, {}, 0).new_initial_state()
    state.apply({"chance": "shuffle", "cards": ["1R", "5B", "2R", "4B", "3R", "3B", "4R", "2B",
                                                "5R", "1B"]})
    # seat 1 holds 1R 2R 3R 4R 5R, a run; seat 0 5B 4B 3B 2B 1B, another
    state = _play(state)
    assert list(state.deals[-1]["scores"]) == [0, 0]
    folded = check_text(DECKED.format(score="deadwood(['1R', '2R', '3R', '5B'], [1, 2, 3, 5], "
                                            "range(1, 5))"), "decked.rules")
    assert list(_play(game_for(folded, 2, {}, 0).new_initial_state()).deals[-1]["scores"]) \
        == [5, 5]


def test_a_deck_of_many_melds_is_searched_hand_by_hand() -> None:
    """A deck whose melds are too many to list (17 suits: every three cards of a rank are a
    set) is not given a table of them: its hands are searched alone, and right."""
    from rulespec.lang import melds as m

    suits = [chr(ord("a") + i) for i in range(17)]
    rank_of = {f"{r}{s}": r for s in suits for r in range(2, 8)}
    suit_of = {f"{r}{s}": s for s in suits for r in range(2, 8)}
    order = tuple(range(2, 8))
    assert m._deck_melds(order, rank_of, suit_of) is None
    hand = ["2a", "2b", "2c", "3a", "4a", "5q", "7k"]
    # the three 2s a set, or 2a-3a-4a a run (then 2b and 2c out): the set leaves 3a, 4a, 5q,
    # 7k (3 + 4 + 5 + 7); the run leaves 2b, 2c, 5q, 7k (2 + 2 + 5 + 7)
    assert deadwood(hand, [rank_of[c] for c in hand], order, rank_of, suit_of) == 16
    assert m._deck_melds(tuple(ORDERS["low"]), RANK_OF, SUIT_OF) is not None


def test_the_numbered_decks_kept_are_few() -> None:
    """Each deck's ranks in its numbers' order are kept for the deck's table to be found
    again, a few decks at a time (a process that checks many specs keeps no more)."""
    from rulespec.lang import melds as M

    codes = sorted(CARDS)
    for _ in range(30):
        NumberedDeadwood(codes, [value(c) for c in codes], ORDERS["low"], dict(RANK_OF),
                         SUIT_OF, deadwood)
    assert len(M._NUMBERED) <= 8
