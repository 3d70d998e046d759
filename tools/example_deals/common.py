"""What the example-deal authors share: a table of four from a seed, the record written, and
a player's likely tricks in a trick-taking hand (Aces, guarded Kings and Queens, long
trumps). Not part of the package: the engine and the book read only the records."""
import json
import random
import sys

from rulespec.engine.chance import sample_event
from rulespec.engine.state import CHANCE
from rulespec.loading import game_for, resolve
from rulespec.records import FORMAT


def table(game):
    """The first state of ``game`` at a table of four (seat 0 deals), the seed and the file
    to write from the command line (``SEED [OUT]``), and the seed's generator."""
    seed = int(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    st = game_for(resolve(game).spec, 4, {}, 0).new_initial_state()
    return st, random.Random(seed), out


def play(st, rng, choose, events):
    """The deal played to its end: chance by ``rng``, each decision by ``choose(st, legal)``;
    every event kept in ``events``."""
    while not st.is_terminal() and not st.deals and len(events) < 2000:
        if st.to_move == CHANCE:
            ev = sample_event(st.legal_actions(), rng, st.chance_weights)
        else:
            ev = choose(st, st.legal_actions())
        events.append(ev)
        st.apply(ev)


def save(game, events, out, notes=None):
    """The record of the deal, with the author's notes, where ``out`` names a file."""
    if out:
        record = {"format": FORMAT, "game": game, "players": 4, "options": {}, "dealer": 0,
                  "events": events}
        if notes:
            record["notes"] = notes
        with open(out, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, ensure_ascii=False)
            f.write("\n")


def likely_tricks(hand, trump, suit, face, joker_is_a_trick):
    """A hand's likely tricks: an Ace each (and the Joker, where it is the top trump), 0.6 a
    King with another card of its suit, 0.3 a Queen with two, 0.7 for each trump past three
    (the Joker counted among them where it is the top trump); ``suit`` and ``face`` read a
    card as it plays."""
    n = 0.0
    by = {s: [c for c in hand if suit(c) == s] for s in "CDHS"}
    for c in hand:
        if c == "JK" and joker_is_a_trick:
            n += 1
        elif face(c) == "A":
            n += 1
        elif face(c) == "K" and len(by[suit(c)]) >= 2:
            n += 0.6
        elif face(c) == "Q" and len(by[suit(c)]) >= 3:
            n += 0.3
    if trump:
        t = len(by[trump]) + (1 if joker_is_a_trick and "JK" in hand else 0)
        n += max(0, t - 3) * 0.7
    return int(round(n))
