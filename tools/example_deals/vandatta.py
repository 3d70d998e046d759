"""The example deal of Vändåtta, played by a plain, explainable policy: play when you can,
the biggest group first, then an Ace (an extra turn, and everyone else draws), then an
ordinary card; draw when nothing but an eight would do; an eight only when you may draw no
more (naming the suit you hold most of); pass when you may not draw.

    python tools/example_deals/vandatta.py 5 rulespec/games/vandatta.example.json

wrote the shipped example (the deal of seed 5) with the notes below. Game-specific on
purpose: this is an author's tool, outside the package; the engine and the book read only
the record it writes.
"""
import collections

from common import play, save, table

NOTES = {
    "1": "A group: both sixes at once, the first matching the 2♦ by suit.",
    "47": "Seat 1's last card is an Ace, and nobody may go out by playing an Ace, so seat 1 "
          "must draw first.",
    "49": "An Ace on an Ace: another extra turn, and the 10♥ takes seat 1 out.",
}


def choose(st, legal):
    hand = [str(c) for c in st.z["hand"][st.to_move]]
    plays = [e for e in legal if e["action"] == "play"]
    out = [e for e in plays if len(e["cards"]) == len(hand)]
    ordinary = [e for e in plays if e["cards"][0][0] not in "8A"]
    aces = [e for e in plays if e["cards"][0][0] == "A"]
    eights = [e for e in plays if e["cards"][0][0] == "8"]
    draws = [e for e in legal if e["action"] == "draw"]
    if out:
        return out[0]
    if ordinary:
        most = max(len(e["cards"]) for e in ordinary)
        return next(e for e in ordinary if len(e["cards"]) == most)
    if aces:
        return aces[0]
    if draws:
        return draws[0]
    if eights:
        suits = collections.Counter(c[1] for c in hand if c[0] != "8")
        want = suits.most_common(1)[0][0] if suits else "C"
        return next((e for e in eights if e.get("suit") == want), eights[0])
    return next(e for e in legal if e["action"] == "pass")


st, rng, out = table("vandatta")
events = []
play(st, rng, choose, events)
print(len(events), st.deals[-1])
save("vandatta", events, out, NOTES)
