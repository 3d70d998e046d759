"""Gin Rummy (rulespec/games/gin_rummy.rules): random matches checked at every step against the
rules written again here, independently of the spec and of the meld built-ins (a referee with
its own melds and deadwood: every meld of the hand listed, then the best packing of disjoint
melds searched): the cards conserved, the discards and knocks offered, the melds a knocker may
lay down, the layoffs, each hand's score within the declared range and recomputed from the
hands as laid down; under the engines' variants too. A simulated match's record replays."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache
from typing import Any

from rulespec.engine.state import CHANCE, State
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT, replay
from rulespec.simulate import sample_event

SPEC = resolve("gin_rummy").spec
ZONES = ("stock", "discard", "meld1", "meld2", "meld3", "defender_melds")


# --- the referee's own melds and deadwood -------------------------------------------------

def low(c: str) -> int:
    """A card's rank with the ace low (1)."""
    return 1 if RANK_OF[c] == 14 else RANK_OF[c]


def value(c: str) -> int:
    return min(low(c), 10)


def ref_is_meld(cards: tuple[str, ...] | list[str]) -> bool:
    if len(cards) < 3:
        return False
    if len({RANK_OF[c] for c in cards}) == 1:
        return len({SUIT_OF[c] for c in cards}) == len(cards)
    ranks = sorted(low(c) for c in cards)
    return len({SUIT_OF[c] for c in cards}) == 1 and \
        ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def ref_melds(hand: tuple[str, ...]) -> list[frozenset[str]]:
    """Every meld in the hand: the sets of 3 and 4 of a rank, and every stretch of 3 or more
    of each suit's sequences."""
    out: list[frozenset[str]] = []
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, dict[int, str]] = {}
    for c in hand:
        by_rank.setdefault(low(c), []).append(c)
        by_suit.setdefault(SUIT_OF[c] or "", {})[low(c)] = c
    for cs in by_rank.values():
        for k in (3, 4):
            out += [frozenset(s) for s in itertools.combinations(cs, k)]
    for ranks in by_suit.values():
        for a in range(1, 12):
            for b in range(a + 2, 14):
                if all(r in ranks for r in range(a, b + 1)):
                    out.append(frozenset(ranks[r] for r in range(a, b + 1)))
    return out


@cache
def ref_deadwood(hand: frozenset[str]) -> int:
    """The least deadwood: the total value less the most value disjoint melds can cover."""
    ms = ref_melds(tuple(sorted(hand)))

    def best(i: int, used: frozenset[str]) -> int:
        if i == len(ms):
            return 0
        skip = best(i + 1, used)
        if ms[i] & used:
            return skip
        return max(skip, sum(map(value, ms[i])) + best(i + 1, used | ms[i]))
    return sum(map(value, hand)) - best(0, frozenset())


def points(cards: Any) -> int:
    return sum(map(value, cards))


# --- a policy that knocks: random play alone almost never does --------------------------------

def choose_event(legal: list[dict[str, Any]], rng: random.Random,
                 state: State) -> dict[str, Any]:
    """Mostly random, but knocks when it can, prefers discards that keep the deadwood low and
    lays melds down: so the hands knock, go gin, lay off and undercut."""
    if state.current_player() == CHANCE:
        return sample_event(legal, rng, state.chance_weights)
    acts = {e["action"] for e in legal}
    if rng.random() < 0.15:
        return rng.choice(legal)
    if "knock" in acts and "discard" in acts:
        hand = state.z["hand"][state.current_player()]
        knocks = [e for e in legal if e["action"] == "knock"]
        best = min(knocks, key=lambda e: ref_deadwood(frozenset(hand) - {e["card"]}))
        # knock at once half the time, or wait for a lower count (undercuts), and go gin
        if rng.random() < 0.5 or ref_deadwood(frozenset(hand) - {best["card"]}) == 0:
            return best
    for want in ("take_and_knock", "knock", "lay_off", "meld"):
        if want in acts and (want != "knock" or "discard" not in acts):
            return rng.choice([e for e in legal if e["action"] == want])
    if "discard" in acts:
        hand = state.z["hand"][state.current_player()]
        return min((e for e in legal if e["action"] == "discard"),
                   key=lambda e: (ref_deadwood(frozenset(hand) - {e["card"]}), rng.random()))
    return rng.choice(legal)


# --- the referee ----------------------------------------------------------------------------

class Referee:
    """Follows a match event by event and checks each decision and each hand's score."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.o = {"knock_limit": 10, "oklahoma": False, "gin_bonus": 25,
                  "undercut_bonus": 25, "discard_taken": False, "stock_end": "void",
                  "layoffs": True, "lay_down": "chosen", "deal_score": "winner",
                  "must_gin": False, **opts}
        self.new_hand()
        self.hands_scored = 0
        self.knocks = self.gins = self.undercuts = self.layoffs = self.voids = 0
        self.wall_knocks = 0

    def new_hand(self) -> None:
        self.taken: str | None = None
        self.knocker: int | None = None
        self.limit = self.o["knock_limit"]
        self.layoffs_done = False
        self.wall_take = False
        self.hand_layoffs = 0
        self.k_hand: set[str] = set()
        self.d_hand: set[str] = set()

    def start(self, state: State) -> None:
        z = state.z
        assert [len(h) for h in z["hand"]] == [10, 10] and len(z["discard"]) == 1
        up = z["discard"][-1]
        if self.o["oklahoma"]:
            self.limit = 0 if low(up) == 1 else value(up)

    def check_decision(self, state: State, legal: list[dict[str, Any]]) -> None:
        z, p = state.z, state.current_player()
        hand = list(z["hand"][p])
        by: dict[str, list[dict[str, Any]]] = {}
        for e in legal:
            by.setdefault(e["action"], []).append(e)
        if "discard" in by or ("knock" in by and self.knocker is None):
            assert len(hand) == 11
            if self.wall_take:  # the knock after take_and_knock: any card within the limit
                allowed = set(hand)
                knocks = {c for c in hand if ref_deadwood(frozenset(hand) - {c}) <= self.limit}
            else:
                allowed = {c for c in hand if self.o["discard_taken"] or c != self.taken}
                gins = {c for c in allowed if ref_deadwood(frozenset(hand) - {c}) == 0}
                forced = self.o["must_gin"] and bool(gins)  # RLCard's gin action alone
                assert {e["card"] for e in by.get("discard", [])} == \
                    (set() if forced else allowed)
                knocks = gins if forced else \
                    {c for c in allowed if ref_deadwood(frozenset(hand) - {c}) <= self.limit}
            assert {e["card"] for e in by.get("knock", [])} == knocks
        if "draw" in by and "take" in by:
            assert len(z["stock"]) > 2
        if ("take_and_knock" in by or "dead_hand" in by) or \
                ("pass" in by and self.knocker is None and len(z["stock"]) <= 2):
            assert len(z["stock"]) <= 2 and self.o["stock_end"] != "void"
            if self.o["stock_end"] == "upcard_to_knock":
                eleven = frozenset(hand) | {z["discard"][-1]}
                can = any(ref_deadwood(eleven - {c}) <= self.limit for c in eleven)
                assert ("take_and_knock" in by) == can
                self.wall_knocks += can
            else:
                assert set(by) == {"take", "dead_hand"}
        if self.knocker is None or p == self.knocker:
            if "meld" in by:
                want = {frozenset(m) for m in ref_melds(tuple(hand))
                        if ref_deadwood(frozenset(hand) - m) <= self.limit}
                assert {frozenset(e["cards"]) for e in by["meld"]} == want
                assert ("done" in by) == (points(hand) <= self.limit)
            return
        k_hand = z["hand"][self.knocker]
        if self.o["layoffs"] and points(k_hand) > 0 and not self.layoffs_done:
            melds = [list(z["meld1"]), list(z["meld2"]), list(z["meld3"])]
            want_l = {(c, i + 1) for c in hand for i, m in enumerate(melds)
                      if m and ref_is_meld(m + [c])}
            assert {(e["card"], e["meld"]) for e in by.get("lay_off", [])} == want_l
            assert "meld" not in by
        else:
            assert "lay_off" not in by
            if "meld" in by:
                want = {frozenset(m) for m in ref_melds(tuple(hand))}
                assert {frozenset(e["cards"]) for e in by["meld"]} == want

    def after(self, state: State, seat: int, ev: dict[str, Any],
              before: list[list[str]]) -> None:
        """Note what an event did; ``before``: the hands before it (a knock that ends the
        deal at once, each hand laid down by its best melds, leaves nothing to read after)."""
        a = ev.get("action")
        self.wall_take = a == "take_and_knock"
        if a == "take":
            self.taken = state.z["hand"][seat][-1]
        elif a == "discard":
            self.taken = None
        elif a == "knock":
            self.taken = None
            self.knocker = seat
            self.knocks += 1
            self.layoffs_done = False
            self.hand_layoffs = 0
            self.k_hand = set(before[seat]) - {ev["card"]}
            self.d_hand = set(before[1 - seat])
            assert ev["card"] in before[seat]
            assert ref_deadwood(frozenset(self.k_hand)) <= self.limit
        elif a == "lay_off":
            self.layoffs += 1
            self.hand_layoffs += 1
            self.d_hand.remove(ev["card"])
        elif a == "meld":
            assert ref_is_meld(ev["cards"])
            mine = self.k_hand if seat == self.knocker else self.d_hand
            assert set(ev["cards"]) <= mine
            mine -= set(ev["cards"])
        elif a == "done" and seat != self.knocker:
            self.layoffs_done = True

    def score(self, deal: Any) -> None:
        o = self.o
        scores = list(deal["scores"])
        if self.knocker is None:
            self.voids += 1
            assert scores == [0, 0]
            return
        k, d = self.knocker, 1 - self.knocker
        if o["lay_down"] == "best":
            kd, dd = ref_deadwood(frozenset(self.k_hand)), ref_deadwood(frozenset(self.d_hand))
        else:
            kd, dd = points(self.k_hand), points(self.d_hand)
        assert kd <= self.limit
        if kd == 0:
            self.gins += 1
            win, pts = k, dd + o["gin_bonus"]
            assert self.hand_layoffs == 0  # never on gin
        elif dd <= kd:
            self.undercuts += 1
            win, pts = d, kd - dd + o["undercut_bonus"]
        else:
            win, pts = k, dd - kd
        want = [0, 0]
        want[win] = pts
        if o["deal_score"] == "zero_sum":
            want[1 - win] = -pts
        assert scores == want, (scores, want, kd, dd)
        bound = 100 + o["gin_bonus"] + o["undercut_bonus"]
        assert all(-bound <= x <= bound for x in scores)


def play_match(opts: dict[str, Any], seed: int, most_events: int = 4000
               ) -> tuple[State, list[dict[str, Any]], Referee]:
    """One match (or its first ``most_events`` events) played with the knocking policy and
    checked at every step."""
    state = game_for(SPEC, 2, opts, 0).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(opts)
    events: list[dict[str, Any]] = []
    starting = False
    while not state.is_terminal() and len(events) < most_events:
        legal = state.legal_actions()
        seat = state.current_player()
        if seat != CHANCE:
            if starting:  # the hand is dealt (after the shuffle and any pick of the dealer)
                ref.start(state)
                starting = False
            ref.check_decision(state, legal)
        ev = choose_event(legal, rng, state)
        deals_before = len(state.deals)
        before = [list(h) for h in state.z["hand"]]
        state.apply(ev)
        events.append(ev)
        if seat == CHANCE and ev["chance"] == "shuffle":
            ref.new_hand()
            starting = True
        elif seat != CHANCE:
            ref.after(state, seat, ev, before)
        if len(state.deals) > deals_before:
            ref.score(state.deals[-1])
            ref.hands_scored += 1
        else:
            cards = [c for h in state.z["hand"] for c in h] + \
                [c for zn in ZONES for c in state.z[zn]]
            if seat != CHANCE or ev.get("chance") == "shuffle":
                assert Counter(cards) == Counter(pack(1))  # cards conserved
    return state, events, ref


#: each with the seed of its match (one that meets a knock at the wall, for upcard_to_knock)
OPTION_SETS: list[tuple[dict[str, Any], int]] = [
    ({"target": 100}, 0),
    ({"deals": 6, "stock_end": "upcard_to_knock", "discard_taken": True,
      "deal_score": "zero_sum", "first_dealer": "given", "knock_limit": 2}, 3),
    ({"deals": 6, "stock_end": "upcard", "layoffs": False, "lay_down": "best",
      "first_upcard": "plain", "must_gin": True}, 0),
    ({"deals": 6, "oklahoma": True, "gin_bonus": 20, "undercut_bonus": 10,
      "next_dealer": "winner"}, 0),
    ({"deals": 6, "knock_limit": 3, "next_dealer": "alternate", "lay_down": "best"}, 0),
]


def test_random_matches_follow_the_rules() -> None:
    """A match under each set of options, checked throughout; together they meet every way a
    hand ends (a knock, gin, an undercut, a void hand), layoffs, and a knock at the wall."""
    seen = Counter[str]()
    for opts, seed in OPTION_SETS:
        state, _, ref = play_match(opts, seed, 1500)
        seen.update({"hands": ref.hands_scored, "knocks": ref.knocks, "gins": ref.gins,
                     "undercuts": ref.undercuts, "voids": ref.voids, "layoffs": ref.layoffs,
                     "wall_knocks": ref.wall_knocks})
        assert ref.knocks > 0, opts
        if state.is_terminal():
            assert state.result()["complete"]
    assert all(seen[k] > 0 for k in seen), seen


def test_the_default_match_reaches_its_target() -> None:
    state, _, ref = play_match({}, 5, most_events=20_000)
    assert state.is_terminal()
    assert max(state.totals()) >= 100
    assert ref.knocks >= 1


def test_a_simulated_match_replays_from_its_record() -> None:
    opts = {"deals": 3}
    state, events, _ = play_match(opts, 7)
    record = {"format": FORMAT, "game": "gin_rummy", "players": 2, "options": opts,
              "dealer": 0, "events": events}
    code, answer = replay(record)
    assert code == 0, answer
    assert answer["complete"] and answer == state.result()
    assert len(answer["deals"]) == 3


# --- dealt situations -----------------------------------------------------------------------

KNOCKER = ["3H", "4H", "5H", "7C", "7D", "7S", "KC", "KD", "KS", "2C"]  # seat 1, deadwood 2
DEFENDER = ["2H", "6H", "7H", "AC", "AD", "AS", "8C", "9C", "TC", "2D"]  # seat 0, the dealer


def dealt(seat1: list[str], seat0: list[str], upcard: str, draws: list[str],
          opts: dict[str, Any] | None = None) -> State:
    """A single hand, seat 0 dealing: the hands given, the upcard, then the stock's top cards
    (the shuffle's first card is dealt first, to the non-dealer)."""
    state = game_for(SPEC, 2, {"first_dealer": "given", "deals": 1, **(opts or {})},
                     0).new_initial_state()
    order = [c for pair in zip(seat1, seat0, strict=True) for c in pair] + [upcard] + draws
    rest = [c for c in pack(1) if c not in order]
    state.apply({"chance": "shuffle", "cards": order + rest})
    assert sorted(state.z["hand"][1]) == sorted(seat1) and list(state.z["discard"]) == [upcard]
    return state


def act(state: State, action: str, **fields: Any) -> None:
    """Apply the legal event of ``action`` whose fields are ``fields`` (cards as a set)."""
    for e in state.legal_actions():
        if e.get("action") == action and all(
                (set(e[k]) == set(v)) if isinstance(v, (set, frozenset)) else e[k] == v
                for k, v in fields.items()):
            state.apply(e)
            return
    raise AssertionError(f"no {action} {fields} in {state.legal_actions()}")


def knock_with_three_melds(state: State) -> None:
    act(state, "pass")
    act(state, "pass")
    act(state, "draw")
    act(state, "knock", card="9D")
    for m in ({"3H", "4H", "5H"}, {"7C", "7D", "7S"}, {"KC", "KD", "KS"}):
        act(state, "meld", cards=m)


def test_a_tie_after_layoffs_is_an_undercut() -> None:
    for opts, want in (({}, [25, 0]), ({"deal_score": "zero_sum"}, [25, -25])):
        state = dealt(KNOCKER, DEFENDER, "QH", ["9D"], opts)
        knock_with_three_melds(state)
        act(state, "done")
        offered = {(e["card"], e["meld"]) for e in state.legal_actions()
                   if e["action"] == "lay_off"}
        # the run 3H-5H takes the 2 and the 6 of hearts; the 7 of hearts joins the sevens
        assert offered == {("2H", 1), ("6H", 1), ("7H", 2)}
        act(state, "lay_off", card="6H", meld=1)
        assert ("7H", 1) in {(e["card"], e["meld"]) for e in state.legal_actions()
                             if e["action"] == "lay_off"}  # now the run reaches the 7
        act(state, "lay_off", card="7H", meld=1)
        act(state, "lay_off", card="2H", meld=1)
        act(state, "done")
        act(state, "meld", cards={"AC", "AD", "AS"})
        act(state, "meld", cards={"8C", "9C", "TC"})
        act(state, "done")
        assert state.is_terminal() and state.deals[-1]["scores"] == want  # 2 against 2


def test_gin_allows_no_layoff() -> None:
    gin_hand = KNOCKER[:-1] + ["6H"]
    state = dealt(gin_hand, ["6D" if c == "6H" else c for c in DEFENDER], "QH", ["9D"])
    act(state, "pass")
    act(state, "pass")
    act(state, "draw")
    act(state, "knock", card="9D")
    for m in ({"3H", "4H", "5H", "6H"}, {"7C", "7D", "7S"}, {"KC", "KD", "KS"}):
        act(state, "meld", cards=m)
    act(state, "done")
    assert state.current_player() == 0
    assert not any(e["action"] == "lay_off" for e in state.legal_actions())
    act(state, "meld", cards={"AC", "AD", "AS"})
    act(state, "done")  # 2H 6D 7H 8C 9C TC 2D left: 44
    assert state.deals[-1]["scores"] == [0, 44 + 25]


def test_oklahoma_an_ace_upcard_calls_for_gin() -> None:
    for up, knocks in (("AH", False), ("QH", True), ("4C", False)):
        state = dealt(KNOCKER, DEFENDER, up, ["9D"], {"oklahoma": True})
        act(state, "pass")
        act(state, "pass")
        act(state, "draw")
        # deadwood 2 after discarding the 9: within a queen's 10, not an ace's 0 (gin only),
        # and within a 4's 4
        assert any(e["action"] == "knock" for e in state.legal_actions()) == (knocks or up == "4C")


def test_the_card_taken_may_not_be_discarded_at_once() -> None:
    for opts, back in (({}, False), ({"discard_taken": True}, True)):
        state = dealt(KNOCKER, DEFENDER, "QH", ["9D"], opts)
        act(state, "take")
        cards = {e["card"] for e in state.legal_actions() if e["action"] == "discard"}
        assert ("QH" in cards) == back and len(cards) == 10 + back


def test_must_gin_leaves_only_the_gin_discard() -> None:
    gin_hand = KNOCKER[:-1] + ["6H"]
    defender = ["6D" if c == "6H" else c for c in DEFENDER]
    for opts, choices in (({}, 11 + 3), ({"must_gin": True}, 1)):
        state = dealt(gin_hand, defender, "QH", ["9D"], opts)
        act(state, "pass")
        act(state, "pass")
        act(state, "draw")
        legal = state.legal_actions()
        # 11 discards and 3 knocks (the 9 for gin, the 3 or 6 of hearts for 9), or gin alone
        assert len(legal) == choices
        assert {"seat": 1, "action": "knock", "card": "9D"} in legal
