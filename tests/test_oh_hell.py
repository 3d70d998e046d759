"""Oh Hell! (rulespec/games/oh_hell.rules): random matches checked at every step against a
referee written again from the rules (the sequence of hands, the first dealer, the deal from
the dealer's left and the card turned up for trumps, the bids and the dealer's hook, follow
suit, the trick's winner, each deal's scores recomputed, the match's length and winners),
cards conserved and every deal's score within the declared range; a simulated match's record
replayed; and dealt situations that show one rule each: the hook, the trump turned up or none,
the penalty scoring, OpenSpiel's shortened pack."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.state import CHANCE, State
from rulespec.errors import ConfigurationError, IllegalActionError
from rulespec.lang.cards import RANK_OF, SUIT_OF, pack
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT, replay
from rulespec.simulate import sample_event

SPEC = resolve("oh_hell").spec
SUIT_ORDER = "CDSH"  # the order in which a shortened pack keeps its suits (OpenSpiel's)


def pack_of(opts: dict[str, Any]) -> list[str]:
    """The cards of the pack the options ask for: the first suits of C, D, S, H and the lowest
    ranks of each."""
    suits = SUIT_ORDER[:opts.get("pack_suits", 4)]
    top = 1 + opts.get("pack_ranks", 13)
    return [c for c in pack(1) if SUIT_OF[c] in suits and RANK_OF[c] <= top]


def largest(opts: dict[str, Any], players: int) -> int:
    """The largest hand of the match, from the rules (pagat's table unless agreed)."""
    n = len(pack_of(opts))
    kind = str(opts.get("largest", "table"))
    if kind == "turn_up":
        return (n - 1) // players
    if kind == "whole_pack":
        return n // players
    if kind.startswith("given("):
        return min(int(kind[6:-1]), n // players)
    return min({3: 10, 4: 10, 5: 10, 6: 8, 7: 7}[players], (n - 1) // players)


def sequence(opts: dict[str, Any], players: int) -> list[int]:
    """The hands of the sequence, in order (empty for a number drawn at random each deal)."""
    m = largest(opts, players)
    kind = opts.get("sequence", "down_up")
    return {"down_up": list(range(m, 0, -1)) + list(range(2, m + 1)),
            "up_down": list(range(1, m + 1)) + list(range(m - 1, 0, -1)),
            "down": list(range(m, 0, -1)), "up": list(range(1, m + 1)),
            "fixed": [m] * players, "random": [0] * players}[kind]


def deal_score(opts: dict[str, Any], bid: int, took: int) -> int:
    bonus, each = opts.get("exact_bonus", 10), opts.get("points_per_trick", 1)
    scoring = opts.get("scoring", "penalty")
    if bid == took:
        return bonus + each * took
    if scoring == "penalty":
        return -each * abs(bid - took)
    return each * took if scoring == "tricks_and_bonus" else 0


class Referee:
    """The rules of Oh Hell! written again from the sources, independently of the spec: it
    follows a match event by event, says what may happen next, and scores each deal."""

    def __init__(self, opts: dict[str, Any], players: int, dealer: int) -> None:
        self.opts, self.players, self.dealer = opts, players, dealer
        self.most = largest(opts, players)
        self.plan = sequence(opts, players)
        self.length = opts.get("deals", 0) or len(self.plan)
        self.deal_index = 0
        self.totals = [0] * players
        self.start_deal()

    def start_deal(self) -> None:
        d = self.deal_index
        random_size = self.opts.get("sequence") == "random" and d < self.length
        self.n = 0 if random_size else (self.plan[d % len(self.plan)] if d < self.length
                                         else self.most)
        self.phase = "size" if random_size else self.after_size()

    def after_size(self) -> str:
        first_random = self.deal_index == 0 and self.opts.get("first_dealer", "random") == "random"
        return "dealer" if first_random else "shuffle"

    def picks(self) -> list[int]:
        return list(range(1, self.most + 1)) if self.phase == "size" else \
            list(range(self.players))

    def pick(self, value: int) -> None:
        if self.phase == "size":
            self.n, self.phase = value, self.after_size()
        else:
            self.dealer, self.phase = value, "shuffle"

    def shuffle(self, order: list[str]) -> None:
        p, n = self.players, self.n
        self.hands: list[list[str]] = [[] for _ in range(p)]
        for i, card in enumerate(order[:p * n]):
            self.hands[(self.dealer + 1 + i) % p].append(card)
        left = order[p * n:]
        self.turned = left[0] if left else None
        no_trump = self.opts.get("largest_no_trump") and n == self.most
        if no_trump:
            self.turned = None
        self.trump = SUIT_OF[self.turned] if self.turned else None
        self.bids: list[int | None] = [None] * p
        self.taken = [0] * p
        self.trick: list[tuple[int, str]] = []
        self.leader = (self.dealer + 1) % p
        self.to_move = self.leader
        self.tricks_played = 0
        self.phase = "bid"

    def allowed_bids(self, seat: int) -> set[int]:
        bids = set(range(self.n + 1))
        if seat == self.dealer and self.opts.get("hook", True):
            bids.discard(self.n - sum(b for b in self.bids if b is not None))
        return bids

    def bid(self, seat: int, n: int) -> None:
        self.bids[seat] = n
        self.to_move = (seat + 1) % self.players
        if all(b is not None for b in self.bids):
            self.phase, self.to_move = "play", self.leader

    def allowed(self, seat: int) -> set[str]:
        hand = self.hands[seat]
        if self.trick:
            led = SUIT_OF[self.trick[0][1]]
            follow = {c for c in hand if SUIT_OF[c] == led}
            if follow:
                return follow
        return set(hand)

    def play(self, seat: int, card: str) -> bool:
        """Play a card; True when it ends the deal."""
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.to_move = (seat + 1) % self.players
        if len(self.trick) < self.players:
            return False
        led = SUIT_OF[self.trick[0][1]]
        trumps = [(RANK_OF[c], s) for s, c in self.trick if SUIT_OF[c] == self.trump]
        winner = max(trumps or [(RANK_OF[c], s) for s, c in self.trick if SUIT_OF[c] == led])[1]
        self.taken[winner] += 1
        self.trick, self.to_move = [], winner
        self.tricks_played += 1
        return self.tricks_played == self.n

    def scores(self) -> list[int]:
        return [deal_score(self.opts, b or 0, t)
                for b, t in zip(self.bids, self.taken, strict=True)]

    def finish_deal(self) -> list[int]:
        scores = self.scores()
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self.deal_index += 1
        self.dealer = (self.dealer + 1) % self.players
        return scores

    def over(self) -> bool:
        if self.deal_index < self.length:
            return False
        return self.opts.get("tie", "shared") == "shared" or \
            self.totals.count(max(self.totals)) == 1

    def winners(self) -> list[int]:
        return [q for q, t in enumerate(self.totals) if t == max(self.totals)]


def check_cards(state: State, cards: list[str]) -> None:
    z = state.z
    held = [c for h in z["hand"] for c in h] + [c for t in z["taken"] for c in t] + \
        list(z["trick"]) + list(z["turned"]) + list(z["stock"])
    assert sorted(held) == sorted(cards)


def check_event(state: State, ref: Referee, legal: list[dict[str, Any]]) -> None:
    """What the spec offers is what the referee allows."""
    seat = state.current_player()
    if ref.phase in ("size", "dealer"):
        assert seat == CHANCE and {e["chance"] for e in legal} == {"pick"}
        assert sorted(e["value"] for e in legal) == ref.picks()
    elif ref.phase == "shuffle":
        assert seat == CHANCE and len(legal) == 1 and legal[0]["chance"] == "shuffle"
        assert sorted(legal[0]["cards"]) == sorted(pack_of(ref.opts))
    elif ref.phase == "bid":
        assert seat == ref.to_move and {e["action"] for e in legal} == {"bid"}
        assert {e["tricks"] for e in legal} == ref.allowed_bids(seat)
    else:
        assert seat == ref.to_move and {e["action"] for e in legal} == {"play"}
        assert {e["card"] for e in legal} == ref.allowed(seat)


def follow(state: State, ref: Referee, ev: dict[str, Any], seat: Any) -> None:
    """Tell the referee what happened, and check the state against it after the event."""
    if ref.phase in ("size", "dealer"):
        ref.pick(ev["value"])
    elif ref.phase == "shuffle":
        ref.shuffle(list(ev["cards"]))
        assert [sorted(h) for h in state.z["hand"]] == [sorted(h) for h in ref.hands]
        assert list(state.z["turned"]) == ([ref.turned] if ref.turned else [])
        assert state.v["trump"] == ref.trump and state.v["cards_now"] == ref.n
        assert state.v["dealer"] == ref.dealer
    elif ref.phase == "bid":
        ref.bid(seat, ev["tricks"])
    else:
        deals_before = ref.deal_index
        if ref.play(seat, ev["card"]):
            expected = ref.finish_deal()
            assert len(state.deals) == deals_before + 1
            assert list(state.deals[-1]["scores"]) == expected
            low, high = score_bounds(ref.opts, ref.most)
            assert all(low <= s <= high for s in expected)
            if not ref.over():
                ref.start_deal()
        else:
            assert [len(t) // ref.players for t in state.z["taken"]] == ref.taken


def score_bounds(opts: dict[str, Any], most: int) -> tuple[int, int]:
    each = opts.get("points_per_trick", 1)
    low = -each * most if opts.get("scoring", "penalty") == "penalty" else 0
    return low, opts.get("exact_bonus", 10) + each * most


def play_match(opts: dict[str, Any], players: int, seed: int, dealer: int = 0
               ) -> tuple[State, list[dict[str, Any]], Referee]:
    """One random match, played and checked against the referee at every step."""
    state = game_for(SPEC, players, opts, dealer).new_initial_state()
    rng = random.Random(seed)
    ref = Referee(opts, players, dealer)
    cards = pack_of(opts)
    events: list[dict[str, Any]] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        check_event(state, ref, legal)
        seat = state.current_player()
        ev = sample_event(legal, rng, state.chance_weights)
        state.apply(ev)
        events.append(ev)
        follow(state, ref, ev, seat)
        if ref.phase in ("bid", "play"):  # a deal is on (or the last one just ended)
            check_cards(state, cards)
        assert len(events) < 5000
    res = state.result()
    assert ref.over() and res["complete"]
    assert list(res["totals"]) == ref.totals and sorted(res["winners"]) == ref.winners()
    return state, events, ref


OPENSPIEL = {"sequence": "random", "largest": "turn_up", "deals": 1,
             "scoring": "tricks_and_bonus"}
OPTION_SETS = [
    {},
    OPENSPIEL,
    {**OPENSPIEL, "scoring": "penalty", "points_per_trick": 2},
    {"scoring": "tricks_and_bonus", "deals": 5},
    {"sequence": "fixed", "largest": "given(4)", "deals": 1, "first_dealer": "given"},
    {"sequence": "up_down", "largest": "whole_pack", "scoring": "exact_only", "tie": "play_on"},
    {"sequence": "down", "largest_no_trump": True, "hook": False, "exact_bonus": 5},
    {"sequence": "up", "pack_suits": 3, "pack_ranks": 6},
]


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(sorted(o)) or "defaults")
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_random_matches_keep_the_rules(opts: dict[str, Any], players: int) -> None:
    for seed in range(2):
        state, _, ref = play_match(opts, players, seed)
        if not opts:  # pagat's sequence: down from the largest hand to one and back up
            sizes = [10, 10, 10, 8, 7][players - 3]
            assert len(state.deals) == 2 * sizes - 1
        if opts.get("tie") == "play_on":
            assert len(state.result()["winners"]) == 1


OH_OPTIONS = st.fixed_dictionaries({}, optional={
    "sequence": st.sampled_from(["down_up", "up_down", "down", "up", "fixed", "random"]),
    "largest": st.sampled_from(["table", "turn_up", "whole_pack", "given(1)", "given(3)",
                                "given(51)"]),
    "largest_no_trump": st.booleans(),
    "hook": st.booleans(),
    "scoring": st.sampled_from(["tricks_and_bonus", "exact_only", "penalty"]),
    "exact_bonus": st.integers(0, 20),
    "points_per_trick": st.integers(0, 5),
    "tie": st.sampled_from(["shared", "play_on"]),
    "first_dealer": st.sampled_from(["random", "given"]),
    "pack_suits": st.integers(1, 4),
    "pack_ranks": st.integers(2, 13),
})


@settings(deadline=None, max_examples=40)
@given(opts=OH_OPTIONS, players=st.integers(3, 7), deals=st.integers(1, 3),
       seed=st.integers(0, 2**20), dealer=st.integers(0, 6))
def test_any_options_keep_the_rules(opts: dict[str, Any], players: int, deals: int, seed: int,
                                    dealer: int) -> None:
    """Every combination of the options, a few deals checked against the referee; a table
    whose pack cannot give each player a card and turn one up is refused, and so is playing
    on to break a tie when no deal can score."""
    opts = {**opts, "deals": deals}
    scoreless = opts.get("exact_bonus", 10) == 0 and opts.get("points_per_trick", 1) == 0
    if len(pack_of(opts)) < players + 1 or (scoreless and opts.get("tie") == "play_on"):
        with pytest.raises(ConfigurationError):
            game_for(SPEC, players, opts, 0)
        return
    state, _, _ = play_match(opts, players, seed, dealer % players)
    assert len(state.deals) >= deals


def test_the_random_number_of_cards_is_drawn_uniformly_then_the_dealer() -> None:
    state = game_for(SPEC, 4, OPENSPIEL, 0).new_initial_state()
    outcomes = state.chance_outcomes()
    assert sorted(e["value"] for e, _ in outcomes) == list(range(1, 13))  # (52 - 1) // 4
    assert all(p == pytest.approx(1 / 12) for _, p in outcomes)
    state.apply({"chance": "pick", "value": 5})
    assert sorted(e["value"] for e, _ in state.chance_outcomes()) == [0, 1, 2, 3]
    state.apply({"chance": "pick", "value": 2})
    assert state.v["dealer"] == 2 and state.legal_actions()[0]["chance"] == "shuffle"


def test_a_simulated_match_replays_from_its_record() -> None:
    opts = {"deals": 4}
    state, events, _ = play_match(opts, 5, 7)
    record = {"format": FORMAT, "game": "oh-hell", "players": 5, "options": opts, "dealer": 0,
              "events": events}
    code, answer = replay(record)
    assert code == 0, answer
    assert answer["complete"] and answer == state.result()
    assert len(answer["deals"]) == 4
    # a bid the hook forbids is refused where it stands in the record
    i = next(k for k, e in enumerate(events) if e.get("action") == "bid")
    bad = events[:i] + [{**events[i], "tricks": 99}] + events[i + 1:]
    code, answer = replay({**record, "events": bad})
    assert code == 1 and answer["event"] == i


# --- dealt situations -----------------------------------------------------------------------

def dealt(hands: list[list[str]], rest: list[str], opts: dict[str, Any], dealer: int = 0
          ) -> State:
    """A first deal of the given hands (one per seat, all the same size), ``rest`` the cards
    left in the pack, the first of them turned up; the state waits at the first bid."""
    players = len(hands)
    opts = {"first_dealer": "given", "sequence": "fixed",
            "largest": f"given({len(hands[0])})", **opts}
    state = game_for(SPEC, players, opts, dealer).new_initial_state()
    order = [(dealer + 1 + i) % players for i in range(players)]
    n = len(hands[0])
    cards = [hands[order[k % players]][k // players] for k in range(players * n)] + rest
    state.apply({"chance": "shuffle", "cards": cards})
    assert [sorted(h) for h in state.z["hand"]] == [sorted(h) for h in hands]
    return state


def others(used: list[str]) -> list[str]:
    return [c for c in pack(1) if c not in used]


def bid(state: State, seat: int, n: int) -> None:
    assert state.current_player() == seat
    state.apply({"seat": seat, "action": "bid", "tricks": n})


def play(state: State, seat: int, card: str) -> None:
    assert state.current_player() == seat
    state.apply({"seat": seat, "action": "play", "card": card})


HANDS = [["AS", "2C"], ["KS", "3C"], ["QS", "4C"]]


def test_the_hook_bars_the_dealers_bid_that_makes_the_tricks() -> None:
    rest = ["5H"] + others([c for h in HANDS for c in h] + ["5H"])
    state = dealt(HANDS, rest, {})
    assert state.v["trump"] == "H" and list(state.z["turned"]) == ["5H"]
    bid(state, 1, 1)  # seat 1 on the dealer's left bids first
    bid(state, 2, 0)
    # the dealer may not bid 1: the bids would add up to the two tricks
    assert sorted(e["tricks"] for e in state.legal_actions()) == [0, 2]
    with pytest.raises(IllegalActionError):
        bid(state, 0, 1)
    free = dealt(HANDS, rest, {"hook": False})
    bid(free, 1, 1)
    bid(free, 2, 0)
    assert sorted(e["tricks"] for e in free.legal_actions()) == [0, 1, 2]
    # a total already over the tricks leaves the dealer free
    over = dealt(HANDS, rest, {})
    bid(over, 1, 2)
    bid(over, 2, 2)
    assert sorted(e["tricks"] for e in over.legal_actions()) == [0, 1, 2]


def _play_out(state: State) -> None:
    """Bids 0, 1, 0 from seat 1 (the dealer, seat 0, bids last); seat 1 leads the KS."""
    bid(state, 1, 0)
    bid(state, 2, 1)
    bid(state, 0, 0)
    play(state, 1, "KS")
    assert {e["card"] for e in state.legal_actions()} == {"QS"}  # follow suit
    play(state, 2, "QS")
    play(state, 0, "AS")  # seat 0 wins and leads
    play(state, 0, "2C")
    play(state, 1, "3C")
    play(state, 2, "4C")  # seat 2 wins the clubs


def test_scores_of_a_deal_under_each_scoring() -> None:
    rest = ["5H"] + others([c for h in HANDS for c in h] + ["5H"])
    # seat 0 bid 0 and took 1; seat 1 bid 0 and took 0; seat 2 bid 1 and took 1
    for opts, scores in (({}, [-1, 10, 11]),
                         ({"scoring": "tricks_and_bonus"}, [1, 10, 11]),
                         ({"scoring": "exact_only"}, [0, 10, 11]),
                         ({"scoring": "penalty", "points_per_trick": 3, "exact_bonus": 5},
                          [-3, 5, 8])):
        state = dealt(HANDS, rest, {**opts, "deals": 1})
        _play_out(state)
        assert state.is_terminal() and state.deals[-1]["scores"] == scores


def test_trumps_win_and_a_whole_pack_deal_has_none() -> None:
    hands = [["2H", "AC"], ["KC", "3D"], ["QC", "4D"]]
    rest = ["5H"] + others([c for h in hands for c in h] + ["5H"])
    state = dealt(hands, rest, {"deals": 1})
    for seat, n in ((1, 0), (2, 0), (0, 0)):
        bid(state, seat, n)
    play(state, 1, "KC")
    play(state, 2, "QC")
    play(state, 0, "AC")  # seat 0 must follow with the Ace of clubs and wins
    play(state, 0, "2H")  # the two of trumps
    play(state, 1, "3D")
    play(state, 2, "4D")
    assert [len(t) // 3 for t in state.z["taken"]] == [2, 0, 0]
    # three players, largest=whole_pack: 17 cards each leave one card to turn up
    spades = [c for c in pack(1) if SUIT_OF[c] == "S"]
    whole = [[c for c in pack(1) if SUIT_OF[c] == s] + spades[4 * i:4 * i + 4]
             for i, s in enumerate("CDH")]
    state = dealt(whole, ["AS"], {"largest": "whole_pack"})
    assert state.v["trump"] == "S"
    # four players: the whole pack is dealt, no card is turned up and there is no trump
    no_trump = game_for(SPEC, 4, {"sequence": "fixed", "largest": "whole_pack", "deals": 1,
                                  "first_dealer": "given"}, 0).new_initial_state()
    no_trump.apply({"chance": "shuffle", "cards": list(pack(1))})
    assert no_trump.v["trump"] is None and list(no_trump.z["turned"]) == []
    assert [len(h) for h in no_trump.z["hand"]] == [13] * 4


def test_openspiels_shortened_pack() -> None:
    opts = {**OPENSPIEL, "pack_suits": 3, "pack_ranks": 5}
    cards = pack_of(opts)
    assert sorted(cards) == sorted(r + s for s in "CDS" for r in "23456")
    state = game_for(SPEC, 3, opts, 0).new_initial_state()
    assert sorted(e["value"] for e in state.legal_actions()) == [1, 2, 3, 4]  # (15 - 1) // 3
    with pytest.raises(ConfigurationError):
        game_for(SPEC, 4, {"pack_suits": 1, "pack_ranks": 4}, 0)
