"""Author the Abracadabra example deal by a plain, explainable policy: take your longest
suit as bid suit; bid your expected tricks if that beats the bid before, else pass; the
declarer names the first B tricks, another player the last ones (the declarer fights for the
early ones); nothing exposed; in play, win a trick you named, else win cheaply while short of
your bid, else play to lose.

    python tools/example_deals/abracadabra.py 10 rulespec/games/abracadabra.example.json 1

wrote the shipped example (the deal of seed 10; the declarer, who leads the first trick with
the Ace of trumps, turns the card naming trick 1 into the right row). Game-specific on
purpose: this is an author's tool, outside the package; the engine and the book read only the
record it writes.
"""
import json, random, sys
from rulespec.loading import resolve, game_for
from rulespec.engine.state import CHANCE
from rulespec.engine.chance import sample_event
from rulespec.records import FORMAT

RANKS = "23456789TJQKA"
VALUE = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
seed = int(sys.argv[1]); out = sys.argv[2] if len(sys.argv) > 2 else None
right = int(sys.argv[3]) if len(sys.argv) > 3 else 0
spec = resolve("abracadabra").spec
g = game_for(spec, 4, {}, 0)
st = g.new_initial_state()
rng = random.Random(seed)
events = []

def val(c): return VALUE.get(c[0]) or int(c[0])
def as_(c):
    return str(st.z["indicator"][0]) if c == "JK" and st.z["indicator"] else c
def suit(c): return as_(c)[1]
def rank(c): return RANKS.index(as_(c)[0])
def power(c, led, trump):
    if trump is not None and suit(c) == trump: return 100 + rank(c)
    if suit(c) == led: return rank(c)
    return 0
def estimate(hand, trump):
    n = 0.0
    by = {s: [c for c in hand if suit(c) == s] for s in "CDHS"}
    for c in hand:
        r = as_(c)[0]
        if r == "A": n += 1
        elif r == "K" and len(by[suit(c)]) >= 2: n += 0.6
        elif r == "Q" and len(by[suit(c)]) >= 3: n += 0.3
    if trump: n += max(0, len(by[trump]) - 3) * 0.7
    return int(round(n))
def bid_of(q):
    return st.v["contract"] if q == st.v["declarer"] else st.v["placed"][q]

while not st.is_terminal() and not st.deals:
    if st.to_move == CHANCE:
        ev = sample_event(st.legal_actions(), rng, st.chance_weights)
        events.append(ev); st.apply(ev); continue
    q = st.to_move
    legal = st.legal_actions()
    a = legal[0]["action"]
    hand = [str(c) for c in st.z["hand"][q]]
    trump = st.v["trump"]
    if a == "choose_suit":
        ev = max(legal, key=lambda e: sum(1 for c in hand if c != "JK" and c[1] == e["suit"]))
    elif a in ("bid", "pass"):
        e = estimate(hand, trump)
        bids = [x for x in legal if x["action"] == "bid" and x["tricks"] == e]
        ev = bids[0] if bids and e >= 2 else next(x for x in legal if x["action"] == "pass")
    elif a == "place":
        B = st.v["contract"]
        if q == st.v["declarer"]:
            want = list(range(1, B + 1))
        else:
            k = min(estimate(hand, trump), B - 1)
            want = list(range(14 - k, 14))
        ev = next(x for x in legal if sorted(x["tricks"]) == want)
    elif a == "declare":
        ev = next(x for x in legal if not x.get("expose") and x["pile"] is False
                  ) if not (right and q == st.v["declarer"]) else next(
                  x for x in legal if sorted(x.get("expose") or []) == list(range(1, right + 1)) and x["pile"] is False)
    elif a == "play":
        t = st.v["trick_number"]
        named = {val(str(c)) for c in st.z["left_down"][q]} | {val(str(c)) for c in st.z["right_up"][q]}
        trick = [str(c) for c in st.z["trick"]]
        led = suit(trick[0]) if trick else None
        best = max((power(c, led, trump) for c in trick), default=-1)
        def p(e): c = e["card"]; return power(c, led if trick else suit(c), trump)
        left = 13 - t + 1
        need = t in named or (st.v["taken"][q] < bid_of(q) and bid_of(q) - st.v["taken"][q] >= 1)
        if st.v["taken"][q] >= bid_of(q) and t not in named: need = False
        if not trick:
            ev = max(legal, key=lambda e: (p(e), rank(e["card"]))) if need else min(legal, key=lambda e: (p(e), rank(e["card"])))
        else:
            win = [e for e in legal if p(e) > best]; lose = [e for e in legal if p(e) <= best]
            if need and win: ev = min(win, key=lambda e: (p(e), rank(e["card"])))
            elif lose: ev = max(lose, key=lambda e: (p(e), rank(e["card"]))) if not need else min(lose, key=lambda e: (p(e), rank(e["card"])))
            else: ev = min(legal, key=lambda e: (p(e), rank(e["card"])))
    else:
        ev = legal[0]
    events.append(ev); st.apply(ev)
    if a not in ("play",): print(ev)
print(st.deals[-1] if st.deals else None)
if out:
    json.dump({"format": FORMAT, "game": "abracadabra", "players": 4, "options": {}, "dealer": 0, "events": events}, open(out, "w"), indent=1)
d = st.v["declarer"]
print("DECL", d, "B", st.v["contract"], "taken", list(st.v["taken"]), "bids", [bid_of(q) for q in range(4)], "named_won", list(st.v["named_won"]))
print("left_up", {q: sorted(val(str(c)) for c in st.z["left_up"][q]) for q in range(4)}, "right_up", sorted(val(str(c)) for c in st.z["right_up"][d]), "right_down", sorted(val(str(c)) for c in st.z["right_down"][d]))
