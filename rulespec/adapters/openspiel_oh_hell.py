"""OpenSpiel's ``oh_hell`` as a protocol implementation of the shipped oh-hell spec.

One deal of three to seven players (the spec's ``deals=1``): the number of tricks drawn by
chance (or fixed by ``num_tricks_fixed``), then the dealer, then the cards dealt one at a time,
the k-th to player k % players, and the trump card last; the bids, then the play. Its pack is
the first ``num_suits`` suits of clubs, diamonds, spades, hearts and the lowest
``num_cards_per_suit`` ranks of each (oh_hell.h, ``DeckProperties``), the spec's
``pack_suits`` and ``pack_ranks``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.adapters.base import FRENCH_PACK, NotOffered, dealt_hands, permutation_of, winners_of
from rulespec.adapters.openspiel import RANKS, OpenSpielAdapter, one_card

__all__ = ["OhHell"]

#: oh_hell keeps its first num_suits suits in this order, and numbers a card rank by rank, the
#: suits within a rank: with four suits 2C is 0, 2D 1, 2S 2, 2H 3, 3C 4
_OH_HELL_SUITS = "CDSH"
#: the table of the spec's largest hand: 10 cards for three to five players, 8 for six, 7 for seven
_OH_HELL_TABLE = {3: 10, 4: 10, 5: 10, 6: 8, 7: 7}


class OhHell(OpenSpielAdapter):
    """OpenSpiel's ``oh_hell``: one deal of three to seven players. Its chance nodes draw the
    number of tricks (one outcome when ``num_tricks_fixed`` sets it), then the dealer, then
    deal the cards one at a time, the k-th to player k % players, and the trump card last; a
    bid n is the action num_cards + n (oh_hell.cc). Its pack is the first ``num_suits`` suits
    of C, D, S, H and the lowest ``num_cards_per_suit`` ranks, the spec's ``pack_suits`` and
    ``pack_ranks``."""

    spec = "oh-hell"
    engine = "oh_hell"
    players = (3, 4, 5, 6, 7)
    fixed = {"deals": 1, "hook": True, "exact_bonus": 10, "largest_no_trump": False,
             "tie": "shared"}
    usual = {"sequence": "random", "largest": "turn_up", "first_dealer": "random",
             "scoring": "tricks_and_bonus", "points_per_trick": 1, "pack_suits": 4,
             "pack_ranks": 13}

    def params(self, options: Mapping[str, Any], players: int) -> dict[str, Any]:
        suits, ranks = int(options.get("pack_suits", 4)), int(options.get("pack_ranks", 13))
        scoring = options.get("scoring", "penalty")
        if scoring == "exact_only":
            raise NotOffered("oh_hell scores every trick, or the penalty for a missed bid")
        cards = suits * ranks
        turn_up = (cards - 1) // players  # oh_hell's MaxNumTricks: a card is left for trumps
        most = self.largest_hand(options, players, cards)
        params: dict[str, Any] = {"players": players, "num_suits": suits,
                                  "num_cards_per_suit": ranks,
                                  "off_bid_penalty": scoring == "penalty",
                                  "points_per_trick": int(options.get("points_per_trick", 1))}
        if options.get("sequence", "down_up") == "random":
            if most != turn_up:
                raise NotOffered(f"oh_hell draws the number of tricks from 1 to {turn_up}, "
                                 f"not to {most}")
            params["num_tricks_fixed"] = -1
            return params
        first = 1 if options.get("sequence", "down_up") in ("up", "up_down") else most
        if not 1 <= first <= turn_up:
            raise NotOffered("oh_hell always leaves a card to turn up for trumps")
        params["num_tricks_fixed"] = first
        return params

    @staticmethod
    def largest_hand(options: Mapping[str, Any], players: int, cards: int) -> int:
        """The spec's largest hand (its ``most()``) for these options."""
        largest = str(options.get("largest", "table"))
        if largest == "turn_up":
            return (cards - 1) // players
        if largest == "whole_pack":
            return cards // players
        if largest.startswith("given(") and largest.endswith(")"):
            return min(int(largest[6:-1]), cards // players)
        return min(_OH_HELL_TABLE[players], (cards - 1) // players)

    def started(self) -> None:
        suits = int(self.options.get("pack_suits", 4))
        ranks = int(self.options.get("pack_ranks", 13))
        self.suits = _OH_HELL_SUITS[:suits]
        self.pack = [c for c in FRENCH_PACK
                     if c[1] in self.suits and RANKS.index(c[0]) < ranks]
        self.random_size = self.options.get("sequence") == "random"
        # oh_hell's MaxNumTricks, which sizes its information state tensor
        fixed = self.state.get_game().get_parameters()["num_tricks_fixed"]
        self.most_tricks = fixed if fixed > 0 else (len(self.pack) - 1) // self.table
        self.given_dealer = self.options.get("first_dealer") == "given"
        if not self.random_size:
            # the number of tricks is an oh_hell chance node of one outcome, num_tricks_fixed:
            # the spec has no event for it, so the adapter takes it
            self.state.apply_action(self.outcomes()[0])
        self.take_given_dealer()

    def take_given_dealer(self) -> None:
        """With the first dealer given, oh_hell's draw of the dealer is taken by the adapter:
        the spec has no event for it."""
        if self.given_dealer and len(self.state.history()) == 1:
            self.state.apply_action(self.dealer)

    def taken(self, event: Mapping[str, object]) -> None:
        self.take_given_dealer()

    def card(self, action: int) -> str:
        """The card code of an oh_hell card action."""
        n = len(self.suits)
        return RANKS[action // n] + self.suits[action % n]

    def card_action(self, code: str) -> int:
        """The oh_hell action of a card code; NotOffered for a card outside the pack."""
        if code not in self.pack:
            raise NotOffered(f"{code} is not a card of this pack")
        return RANKS.index(code[0]) * len(self.suits) + self.suits.index(code[1])

    def events(self) -> list[dict[str, object]]:
        st = self.state
        if st.is_chance_node():
            if len(st.history()) < 2:  # the number of tricks, then the dealer
                return [{"chance": "pick", "value": a} for a in self.outcomes()]
            return [{"chance": "shuffle", "cards": list(self.pack)}]
        out: list[dict[str, object]] = []
        for a in self.outcomes():
            if a >= len(self.pack):
                out.append(self.seat_event("bid", tricks=a - len(self.pack)))
            else:
                out.append(self.seat_event("play", card=self.card(a)))
        return out

    def actions(self, event: Mapping[str, object]) -> list[int]:
        st = self.state
        chance = event.get("chance")
        history = st.history() if st.is_chance_node() else []
        if chance == "pick" and st.is_chance_node() and len(history) < 2:
            value = event.get("value")
            if type(value) is not int:
                raise NotOffered("a pick's value is a number")
            return [value]
        if chance == "shuffle" and st.is_chance_node() and len(history) == 2:
            order = permutation_of(event, self.pack)
            tricks, dealer = history[0], history[1]
            players = self.table
            # the spec deals one card at a time from the dealer's left and turns up the next;
            # oh_hell gives its k-th dealt card to player k % players, then the trump card
            hands = dealt_hands(order, players, (dealer + 1) % players, tricks)
            dealt = [hands[k % players][k // players] for k in range(players * tricks)]
            return [self.card_action(c) for c in [*dealt, order[players * tricks]]]
        if chance is not None:
            raise NotOffered(f"no {chance!r} chance event is due")
        action = event.get("action")
        if action == "bid":
            n = event.get("tricks")
            if type(n) is not int or n < 0:
                raise NotOffered("a bid is a number of tricks")
            return [len(self.pack) + n]
        if action == "play":
            return [self.card_action(one_card(event))]
        raise NotOffered(f"oh_hell has no {action!r}")

    def observe(self, seat: int) -> dict[str, object]:
        """What ``seat`` sees, read off oh_hell's information state tensor (oh_hell.cc,
        ``InformationStateTensor``): its hand and the other hands' sizes, the trump card turned
        up, the trick on the table, the tricks each player has taken, the stock's size.
        Nothing before the bidding or once the deal is over (the tensor is empty then)."""
        st = self.state
        players, cards = self.table, len(self.pack)
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise NotOffered(f"no seat {seat!r}")
        if st.is_chance_node() or st.is_terminal():
            return {"seat": seat, "zones": {}}
        t = st.information_state_tensor(seat)
        most = self.most_tricks
        # the number of tricks, the dealer, the trump card, the initial and the current hand
        at = most + players
        turned = [self.card(c) for c in range(cards) if t[at + c]]
        at += 2 * cards
        hand = [self.card(c) for c in range(cards) if t[at + c]]
        at += cards + players * (most + 2)  # past the bids
        won = [sum(1 for i in range(most) if t[at + p * most + i]) for p in range(players)]
        # the tricks: a row of 2 * players - 1 card slots each, a trick from its leader's slot;
        # a slot's player is its index modulo the number of players
        rows = t[at + players * most:]
        slots = 2 * players - 1
        played = [0] * players
        trick: list[str] = []
        for i in range(most):
            row = [(j % players, c) for j in range(slots) for c in range(cards)
                   if rows[(i * slots + j) * cards + c]]
            for p, _ in row:
                played[p] += 1
            if row and len(row) < players:
                trick = [self.card(c) for _, c in row]
        tricks = st.history()[0]
        sizes: list[object] = [tricks - n for n in played]
        sizes[seat] = hand
        return {"seat": seat, "zones": {
            "hand": sizes, "trick": trick, "turned": turned,
            "taken": [n * players for n in won], "stock": cards - players * tricks - 1}}

    def answer(self) -> dict[str, object]:
        st = self.state
        players = self.table
        if not st.is_terminal():
            return {"complete": False, "deals": [], "totals": [0] * players, "winners": []}
        scores = [round(r) for r in st.returns()]
        return {"complete": True, "deals": [{"scores": scores}], "totals": scores,
                "winners": winners_of(scores, lowest=False)}
