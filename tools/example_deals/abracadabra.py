"""The example deal of Abracadabra, played by a plain, explainable policy: take your longest
suit as bid suit; bid your likely tricks if that beats the bid before, else pass; the
declarer names the first B tricks, another player the last ones (the declarer fights for the
early ones); no pile exposed; in play, win a trick you named, else win cheaply while short of
your bid, else play to lose.

    python tools/example_deals/abracadabra.py 10 rulespec/games/abracadabra.example.json 1

wrote the shipped example (the deal of seed 10; the declarer, who leads the first trick with
the Ace of trumps, turns the card naming trick 1 into the right row: the last argument) with
the notes below. Game-specific on purpose: this is an author's tool, outside the package; the
engine and the book read only the record it writes.
"""
import sys

from common import likely_tricks, play, save, table

RANKS = "23456789TJQKA"
VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
NOTES = {
    "1": "Seat 2 takes spades, its longest suit, for the suit bonus.",
    "5": "Seat 2 bids 5 on three Aces, the Joker and the K♠.",
    "9": "Seat 2 leads the first trick with its top cards, so it names the first five tricks.",
    "12": "Seat 1 has no sure trick: it lays no bid card, a bid of 0.",
    "13": "Seat 2 will lead the A♥, the Ace of trumps, to trick 1: a sure trick, so its card "
          "goes to the right row, for double.",
    "21": "The Joker plays as the Q♥, a trump, and seat 4's K♥ beats it: seat 2 loses trick "
          "2, which it named.",
    "45": "With its 5 tricks, seat 2 now plays to lose: it leads its lowest card.",
}
right = int(sys.argv[3]) if len(sys.argv) > 3 else 0
st, rng, out = table("abracadabra")


def val(c):
    return VALUE.get(c[0]) or int(c[0])


def as_(c):  # the Joker plays as the trump indicator
    return str(st.z["indicator"][0]) if c == "JK" and st.z["indicator"] else c


def suit(c):
    return as_(c)[1]


def rank(c):
    return RANKS.index(as_(c)[0])


def power(c, led, trump):
    if trump is not None and suit(c) == trump:
        return 100 + rank(c)
    return rank(c) if suit(c) == led else 0


def bid_of(q):
    return st.v["contract"] if q == st.v["declarer"] else st.v["placed"][q]


def choose(st, legal):
    q, a, trump = st.to_move, legal[0]["action"], st.v["trump"]
    hand = [str(c) for c in st.z["hand"][q]]
    likely = likely_tricks(hand, trump, suit, lambda c: as_(c)[0], False)
    if a == "choose_suit":
        return max(legal, key=lambda e: sum(1 for c in hand if c != "JK" and c[1] == e["suit"]))
    if a in ("bid", "pass"):
        bids = [x for x in legal if x["action"] == "bid" and x["tricks"] == likely]
        return bids[0] if bids and likely >= 2 else next(x for x in legal
                                                           if x["action"] == "pass")
    if a == "place":
        b = st.v["contract"]
        k = min(likely, b - 1)
        want = list(range(1, b + 1)) if q == st.v["declarer"] else list(range(14 - k, 14))
        return next(x for x in legal if sorted(x["tricks"]) == want)
    if a == "declare":
        expose = list(range(1, right + 1)) if q == st.v["declarer"] else []
        return next(x for x in legal
                    if sorted(x.get("expose") or []) == expose and x["pile"] is False)
    if a != "play":
        return legal[0]
    t = st.v["trick_number"]
    named = {val(str(c)) for z in ("left_down", "right_up") for c in st.z[z][q]}
    trick = [str(c) for c in st.z["trick"]]
    led = suit(trick[0]) if trick else None
    best = max((power(c, led, trump) for c in trick), default=-1)

    def low(e):
        return (power(e["card"], led if trick else suit(e["card"]), trump), rank(e["card"]))

    need = t in named or st.v["taken"][q] < bid_of(q)
    if not trick:
        return max(legal, key=low) if need else min(legal, key=low)
    win = [e for e in legal if low(e)[0] > best]
    lose = [e for e in legal if low(e)[0] <= best]
    if need and win:
        return min(win, key=low)
    if lose:
        return min(lose, key=low) if need else max(lose, key=low)
    return min(legal, key=low)


events = []
play(st, rng, choose, events)
print(st.deals[-1])
save("abracadabra", events, out, NOTES)
