"""Author the Newton example deal: hands dealt by a seed, bids and play by a plain,
explainable policy (a thoughtful player's): bid your expected tricks; the declarer shows
nothing; in play, a player still short of D wins the trick as cheaply as they can, a player
at D plays to lose, a player who cannot reach D any more plays to lose too.

    python tools/example_deals/abracadabra_newton.py 2 rulespec/games/abracadabra_newton.example.json

wrote the shipped example (the deal of seed 2). Game-specific on purpose: this is an author's
tool, outside the package; the engine and the book read only the record it writes.
"""
import json, random, sys
from rulespec.loading import resolve, game_for
from rulespec.engine.state import CHANCE
from rulespec.engine.chance import sample_event
from rulespec.records import FORMAT

RANKS = "23456789TJQKA"
seed = int(sys.argv[1]); out = sys.argv[2] if len(sys.argv) > 2 else None
spec = resolve("abracadabra-newton").spec
g = game_for(spec, 4, {}, 0)
st = g.new_initial_state()
rng = random.Random(seed)
events = []

def suit(c): return None if c == "JK" else c[1]
def rank(c): return 99 if c == "JK" else RANKS.index(c[0])

def power(c, led, trump):
    if c == "JK": return 1000
    if trump is not None and suit(c) == trump: return 100 + rank(c)
    if suit(c) == led: return rank(c)
    return 0

def estimate(hand, trump):
    # a player's likely tricks: Aces, the Joker, guarded Kings, long trumps
    n = 0.0
    by = {s: [c for c in hand if suit(c) == s] for s in "CDHS"}
    for c in hand:
        if c == "JK": n += 1
        elif c[0] == "A": n += 1
        elif c[0] == "K" and len(by[c[1]]) >= 2: n += 0.6
        elif c[0] == "Q" and len(by[c[1]]) >= 3: n += 0.3
    if trump:
        t = len(by[trump]) + (1 if "JK" in hand else 0)
        n += max(0, t - 3) * 0.7
    return int(round(n))

while not st.is_terminal() and not st.deals:
    if st.to_move == CHANCE:
        ev = sample_event(st.legal_actions(), rng, st.chance_weights)
        events.append(ev); st.apply(ev); continue
    q = st.to_move
    legal = st.legal_actions()
    a = legal[0]["action"]
    hand = list(st.z["hand"][q])
    trump = st.v["trump"]
    if a == "bid":
        want = estimate(hand, trump)
        ev = next(e for e in legal if e["tricks"] == want)
    elif a == "show":
        ev = next(e for e in legal if not e["cards"])
    elif a == "name_trump":
        ev = legal[0]
    elif a == "play":
        d = st.v["contract"]; taken = st.v["taken"][q]
        left = 13 - st.v["trick_number"] + 1
        trick = [str(c) for c in st.z["trick"]]
        led = suit(trick[0]) if trick else None
        if trick and trick[0] == "JK": led = trump
        best = max((power(c, led, trump) for c in trick), default=-1)
        cards = [e for e in legal]
        def p(e):
            c = e["card"]; return power(c, led if trick else suit(c), trump)
        need = taken < d and d - taken <= left
        if not trick:
            # leading: short of D, lead the strongest card; else the weakest
            ev = max(cards, key=lambda e: (p(e), rank(e["card"]))) if need else min(cards, key=lambda e: (power(e["card"], suit(e["card"]), trump), rank(e["card"])))
        else:
            winners = [e for e in cards if p(e) > best]
            losers = [e for e in cards if p(e) <= best]
            if need and winners:
                ev = min(winners, key=lambda e: (p(e), rank(e["card"])))
            elif losers:
                ev = max(losers, key=lambda e: (p(e), rank(e["card"]))) if not need else min(losers, key=lambda e: (p(e), rank(e["card"])))
            else:
                ev = min(cards, key=lambda e: (p(e), rank(e["card"])))
    else:
        ev = legal[0]
    events.append(ev); st.apply(ev)
    if a != "play": print(ev)
print(st.deals[-1] if st.deals else None)
print("taken", st.v["taken"] if not st.deals else "")
if out:
    json.dump({"format": FORMAT, "game": "abracadabra-newton", "players": 4, "options": {}, "dealer": 0, "events": events}, open(out, "w"), indent=1)
