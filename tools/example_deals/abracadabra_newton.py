"""The example deal of Abracadabra (Paul Newton), played by a plain, explainable policy: bid
your likely tricks; the declarer shows nothing (showing only adds chips to its stake); in
play, a player still short of D leads a sure winner where they hold one and otherwise wins the
trick as cheaply as they can, and a player at D, or who can no longer reach it, plays to
lose.

    python tools/example_deals/abracadabra_newton.py 16 \\
        rulespec/games/abracadabra_newton.example.json

wrote the shipped example (the deal of seed 16) with the notes below. Game-specific on
purpose: this is an author's tool, outside the package; the engine and the book read only
the record it writes.
"""
from common import likely_tricks, play, save, table

RANKS = "23456789TJQKA"
NOTES = {
    "4": "Seat 1 bids 3 on the Joker, the A♥ and its trumps.",
    "5": "Showing would only add chips to seat 1's stake, so it shows nothing.",
    "6": "Seat 1 needs tricks: it leads the Joker, which wins any trick.",
    "30": "With exactly 3 tricks, seat 4 now plays to lose: it leads a low spade.",
    "54": "Every player has 3 tricks: whoever takes this last trick fails.",
    "57": "Seat 1's last card is a trump and takes the trick: it fails. The pot of 4 antes "
          "gives 1 chip each to seats 2, 3 and 4, and the odd chip goes to seat 4, the "
          "match's winner.",
}


def suit(c):
    return None if c == "JK" else c[1]


def rank(c):
    return 99 if c == "JK" else RANKS.index(c[0])


def power(c, led, trump):
    if c == "JK":
        return 1000
    if trump is not None and suit(c) == trump:
        return 100 + rank(c)
    return rank(c) if suit(c) == led else 0


def choose(st, legal):
    q, a, trump = st.to_move, legal[0]["action"], st.v["trump"]
    hand = [str(c) for c in st.z["hand"][q]]
    if a == "bid":
        want = likely_tricks(hand, trump, suit, lambda c: c[0], True)
        return next(e for e in legal if e["tricks"] == want)
    if a == "show":
        return next(e for e in legal if not e["cards"])
    if a != "play":
        return legal[0]
    d, taken = st.v["contract"], st.v["taken"][q]
    left = 13 - st.v["trick_number"] + 1
    trick = [str(c) for c in st.z["trick"]]
    led = (trump if trick[0] == "JK" else suit(trick[0])) if trick else None
    best = max((power(c, led, trump) for c in trick), default=-1)

    def p(e):
        return power(e["card"], led if trick else suit(e["card"]), trump)

    def low(e):
        return (p(e), rank(e["card"]))

    need = taken < d and d - taken <= left
    if not trick:  # leading: a sure winner while short of D, else the weakest card
        if not need:
            return min(legal, key=low)
        played = {str(c) for z in st.z["won"] for c in z}
        out = {r + s for r in RANKS for s in "CDHS"} | {"JK"}
        out -= played | set(hand)

        def sure(c):  # nothing left out that beats it in its suit (the Joker beats trumps)
            if c == "JK":
                return True
            higher = {r + c[1] for r in RANKS[rank(c) + 1:]}
            return not (higher & out) and not (c[1] == trump and "JK" in out)

        sures = [e for e in legal if sure(e["card"])]
        return max(sures or legal, key=low)
    winners = [e for e in legal if p(e) > best]
    losers = [e for e in legal if p(e) <= best]
    if need and winners:
        return min(winners, key=low)
    if losers:
        return min(losers, key=low) if need else max(losers, key=low)
    return min(legal, key=low)


st, rng, out = table("abracadabra-newton")
events = []
play(st, rng, choose, events)
print(st.deals[-1])
save("abracadabra-newton", events, out, NOTES)
