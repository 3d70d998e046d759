"""Author the Vändåtta example deal by a plain, explainable policy: play when you can, the
biggest group first, then an Ace (an extra turn, and everyone else draws), then an ordinary
card, an eight only when nothing else will do (naming the suit you hold most of); draw only
when you cannot play; pass when you may not draw.

    python tools/example_deals/vandatta.py 5 rulespec/games/vandatta.example.json

wrote the shipped example (the deal of seed 5). Game-specific on purpose: this is an author's
tool, outside the package; the engine and the book read only the record it writes.
"""
import json, random, sys, collections
from rulespec.loading import resolve, game_for
from rulespec.engine.state import CHANCE
from rulespec.engine.chance import sample_event
from rulespec.records import FORMAT

seed = int(sys.argv[1]); out = sys.argv[2] if len(sys.argv) > 2 else None
spec = resolve("vandatta").spec
g = game_for(spec, 4, {}, 0)
st = g.new_initial_state()
rng = random.Random(seed)
events = []
feat = collections.Counter()
def pts(c): return 10 if c[0] == "8" else 5 if c[0] == "A" else 1
while not st.is_terminal() and not st.deals and len(events) < 400:
    if st.to_move == CHANCE:
        ev = sample_event(st.legal_actions(), rng, st.chance_weights)
        events.append(ev); st.apply(ev); continue
    q = st.to_move
    legal = st.legal_actions()
    hand = [str(c) for c in st.z["hand"][q]]
    plays = [e for e in legal if e["action"] == "play"]
    ordinary = [e for e in plays if e["cards"][0][0] not in "8A"]
    aces = [e for e in plays if e["cards"][0][0] == "A"]
    eights = [e for e in plays if e["cards"][0][0] == "8"]
    def empties(e): return len(e["cards"]) == len(hand)
    if any(empties(e) for e in plays):
        ev = next(e for e in plays if empties(e)); feat["out"] += 1
    elif ordinary:
        best = max(len(e["cards"]) for e in ordinary)
        groups = [e for e in ordinary if len(e["cards"]) == best]
        ev = groups[0]
        if best > 1: feat["group"] += 1
    elif aces:
        ev = aces[0]; feat["ace"] += 1
    elif any(e["action"] == "draw" for e in legal):
        ev = next(e for e in legal if e["action"] == "draw")
    elif eights:
        suits = collections.Counter(c[1] for c in hand if c[0] != "8")
        want = suits.most_common(1)[0][0] if suits else "C"
        ev = next((e for e in eights if e.get("suit") == want), eights[0]); feat["eight"] += 1
    else:
        ev = next(e for e in legal if e["action"] == "pass"); feat["pass"] += 1
    events.append(ev); st.apply(ev)
print(len(events), dict(feat), st.deals[-1] if st.deals else None)
if out:
    json.dump({"format": FORMAT, "game": "vandatta", "players": 4, "options": {}, "dealer": 0, "events": events}, open(out, "w"), indent=1)
