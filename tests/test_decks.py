"""Declared decks (``deck { ... }``) and card literals (``'QS'``).

The worked examples under tests/specs/ok (``deck_*.rules``) check; the UNO and Skat ones are
played at random and their records replayed; a random declared deck (Hypothesis) is dealt and
played, its cards appear in the record by their declared codes in the declared order, and the
record replays to the same result. The French deck stays what it was.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.engine.game import tables_of
from rulespec.engine.state import CHANCE
from rulespec.errors import SpecCheckError
from rulespec.lang.cards import CARD_ORDER, RANK_OF, SUIT_OF, pack
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.decks import FRENCH
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.protocol import SpecImplementation
from rulespec.records import replay
from rulespec.simulate import play_random_game
from rulespec.verify.runner import Verifier

OK = Path(__file__).parent / "specs" / "ok"

#: each worked example, with the number of cards its pack(1) holds
EXAMPLES = {"deck_uno": 108, "deck_skat": 32, "deck_spanish": 40, "deck_doppelkopf": 48,
            "deck_tarot": 78}


def test_french_deck_is_cards_tables() -> None:
    """The default deck's tables are cards.py's own objects: code that read them reads the
    same dicts, and pack(n) is what it was."""
    assert FRENCH.order is CARD_ORDER and FRENCH.rank_of is RANK_OF
    assert FRENCH.suit_of is SUIT_OF
    assert FRENCH.pack(2) == tuple(pack(2))
    assert FRENCH.name_of("QS") == "queen of spades" and FRENCH.name_of("JK") == "joker"


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_worked_examples_check_and_deal_their_pack(name: str) -> None:
    text = (OK / f"{name}.rules").read_text()
    assert parse(pretty(parse(text))) == parse(text)
    spec = check_file(OK / f"{name}.rules")
    assert len(spec.deck.one_pack) == EXAMPLES[name]
    game = tables_of(spec).game(spec.min_players)
    state = game.new_initial_state()
    shuffle = state.legal_actions()[0]
    assert state.current_player() == CHANCE
    assert shuffle["cards"] == list(spec.deck.one_pack)


def test_named_pack() -> None:
    deck = check_file(OK / "deck_doppelkopf.rules").deck
    short = deck.packs["without_nines"]
    assert len(short) == 40 and "9C" not in short
    assert short == tuple(c for c in deck.one_pack if not c.startswith("9"))


def _record(path: Path, players: int, seed: int) -> dict[str, object]:
    spec = check_file(path)
    state = tables_of(spec).game(players).new_initial_state()
    _, events = play_random_game(state, random.Random(seed), keep_events=True)
    return {"format": "rulespec-record/1", "game": str(path), "players": players,
            "options": {}, "dealer": 0, "events": events, "_result": state.result()}


@pytest.mark.parametrize(("name", "players"), [("deck_uno", 3), ("deck_skat", 3),
                                               ("deck_tarot", 4)])
def test_played_and_replayed(name: str, players: int) -> None:
    path = OK / f"{name}.rules"
    deck = check_file(path).deck
    for seed in range(3):
        rec = _record(path, players, seed)
        want = rec.pop("_result")
        events = rec["events"]
        assert isinstance(events, list)
        shuffled = events[0]["cards"]
        assert sorted(shuffled, key=deck.order.__getitem__) == list(deck.one_pack)
        played = [e for e in events if "card" in e]
        assert played and all(e["card"] in deck.order for e in played)
        code, got = replay(json.loads(json.dumps(rec)), spec=path)
        assert code == 0 and got == want
        # read leniently: codes in lower case mean the same cards
        low = dict(rec, events=[{k: (v.lower() if k == "card" else v) for k, v in e.items()}
                                for e in events])
        assert replay(low, spec=path) == (0, want)


def test_card_literal_in_french_deck() -> None:
    text = (OK / "minimal.rules").read_text().replace(
        "def score(p: int) = rank(first(hand[p]))",
        "def score(p: int) = if first(hand[p]) == 'QS' then 100 else rank(first(hand[p]))")
    spec = check_text(text)
    state = tables_of(spec).game(2).new_initial_state()
    state.apply({"chance": "shuffle", "cards": ["QS", "2C"] + [c for c in pack(1)
                                                              if c not in ("QS", "2C")]})
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert 100 in state.result()["totals"]


def test_card_literal_unknown_has_a_hint() -> None:
    text = (OK / "deck_uno.rules").read_text().replace("c == 'W4'", "c == 'W5'")
    with pytest.raises(SpecCheckError) as info:
        check_text(text)
    d = info.value.diagnostics[0]
    assert d.message == "'W5' is not a card of this spec's deck"
    assert d.hint == "did you mean 'W4'?"
    assert d.span is not None and d.span.line > 1


# ---- a random declared deck ----------------------------------------------------------------

_GAME = """game rand_deck title "A random deck"
players 2 to 2
winner highest total

{deck}

zone stock: shared visible to nobody
zone hand: per player visible to owner
zone table: shared visible to all

def score(p: int) = sum(rank(c) for c in hand[p]) + size(groups(hand[p]))
  + count(c == {first} for c in hand[p]) + size(pk)

deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill table with []
  fill stock with pack(1)
  shuffle stock
  deal {k} from stock to hand of seats_from(left_of(dealer))
  repeat {k} {{
    for q in seats_from(left_of(dealer)) {{
      choose q {{
        lay(cards = set_of(cs)) for cs in subsets(hand[q], 1, 2) "Lay one or two cards." {{
          for c in cs {{
            move c from hand[q] to table
          }}
        }}
        pass() "Keep them." {{
        }}
      }}
    }}
  }}
  end deal scoring score
}}

match {{
  run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)]
}}
"""

_RANK_CODES = list("0123456789ABCDEFGHIJKLMNOPQRSTUVWXY") + ["10", "1A", "QQ"]


@st.composite
def declared_decks(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    """A deck declaration (suits of one letter, ranks of one or two characters, extra cards
    coded Z and a digit or two, each with copies, a named pack) and its pack, in the declared
    order, with the named pack's cards."""
    suits = draw(st.lists(st.sampled_from("ABCDEFGHJKLMNPRSTUVWXY"), min_size=0, max_size=4,
                          unique=True))
    ranks = draw(st.lists(st.sampled_from(_RANK_CODES), min_size=1 if suits else 0,
                          max_size=6, unique=True)) if suits else []
    numbers = draw(st.lists(st.integers(0, 40), min_size=len(ranks), max_size=len(ranks),
                            unique=True))
    rank_copies = draw(st.lists(st.sampled_from([None, 0, 1, 2]), min_size=len(ranks),
                                max_size=len(ranks)))
    extras = draw(st.lists(st.integers(0, 99), min_size=0 if suits else 1, max_size=3,
                           unique=True))
    extra_copies = draw(st.lists(st.sampled_from([None, 0, 1, 3]), min_size=len(extras),
                                 max_size=len(extras)))
    copies = draw(st.sampled_from([None, 1, 2]))
    lines = [f'  suit su_{i} "{s}"' for i, s in enumerate(suits)]
    for i, (r, n, c) in enumerate(zip(ranks, numbers, rank_copies, strict=True)):
        lines.append(f'  rank rk_{i} "{r}" = {n}' + (f" copies {c}" if c is not None else ""))
    for i, (x, c) in enumerate(zip(extras, extra_copies, strict=True)):
        lines.append(f'  card ex_{i} "Z{x}" = {i}' + (f" copies {c}" if c is not None else ""))
    names = [f"su_{i}" for i in range(len(suits))] + [f"rk_{i}" for i in range(len(ranks))] + \
        [f"ex_{i}" for i in range(len(extras))]
    members = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
    lines.append(f"  pack pk = {', '.join(members)}")
    order = draw(st.permutations(lines))  # suits, ranks and cards in any order of lines
    head = "deck" + (f" copies {copies}" if copies is not None else "")
    text = head + " {\n" + "\n".join(order) + "\n}"
    dflt = copies if copies is not None else 1
    suit_order = [s for ln in order for s in suits if ln.endswith(f'"{s}"') and "suit" in ln]
    rank_order = [i for ln in order for i, r in enumerate(ranks)
                  if ln.startswith(f"  rank rk_{i} ")]
    extra_order = [i for ln in order for i, _ in enumerate(extras)
                   if ln.startswith(f"  card ex_{i} ")]
    cards: list[str] = []
    for s in suit_order:
        for i in rank_order:
            n = dflt if rank_copies[i] is None else rank_copies[i]
            cards += [ranks[i] + s] * n
    for i in extra_order:
        n = dflt if extra_copies[i] is None else extra_copies[i]
        cards += [f"Z{extras[i]}"] * n
    # the named pack: the cards of the ranks and suits named (all of either when none is),
    # and the cards of no suit named, as often as the deck holds them
    pk_suits = [s for i, s in enumerate(suits) if f"su_{i}" in members]
    pk_ranks = [r for i, r in enumerate(ranks) if f"rk_{i}" in members]
    pk_extras = {f"Z{x}" for i, x in enumerate(extras) if f"ex_{i}" in members}
    chosen = {r + s for s in pk_suits or suits for r in pk_ranks or ranks} \
        if pk_suits or pk_ranks else set()
    pk = [c for c in cards if c in chosen or c in pk_extras]
    return text, cards, pk


@settings(max_examples=25, deadline=None)
@given(declared_decks(), st.integers(0, 2**16))
def test_random_deck_round_trips_through_records(deck: tuple[str, list[str], list[str]],
                                                 seed: int) -> None:
    text, cards, pk = deck
    k = min(3, len(cards) // 2)
    literal = f"'{cards[0]}'" if cards else "none"
    source = _GAME.format(deck=text, k=k, first=literal)
    ast_ = parse(source)
    assert parse(pretty(ast_)) == ast_
    if k == 0:
        return
    spec = check_text(source)
    assert list(spec.deck.one_pack) == cards
    assert list(spec.deck.packs["pk"]) == pk
    state = tables_of(spec).game(2).new_initial_state()
    assert state.legal_actions()[0]["cards"] == cards  # the shuffle lists them in order
    _, events = play_random_game(state, random.Random(seed), keep_events=True)
    want = state.result()
    codes = set(cards)
    for ev in events:
        if "chance" in ev:
            assert sorted(ev["cards"]) == sorted(cards)
        elif ev["action"] == "lay":
            laid = ev["cards"]
            assert set(laid) <= codes
            # a set is written in the declared order
            assert laid == sorted(laid, key=spec.deck.order.__getitem__)
    rec = {"format": "rulespec-record/1", "game": "-", "players": 2, "options": {},
           "dealer": 0, "events": json.loads(json.dumps(events))}
    replayed = tables_of(spec).game(2).new_initial_state()
    for ev in rec["events"]:
        replayed.apply(ev)
    assert replayed.is_terminal() and replayed.result() == want
    assert replayed.z == state.z  # every card where it was, by its declared code


# ---- verify reads a declared deck's codes --------------------------------------------------

class _LowerCase(SpecImplementation):
    """The spec itself, answering every card code in lower case (records.md: read
    leniently)."""

    def legal(self) -> list[dict[str, object]]:
        return [{k: _lower(v) if k != "action" and k != "chance" else v for k, v in e.items()}
                for e in super().legal()]


class _Peeking(SpecImplementation):
    """The spec itself, but each observation shows every hand (a leak of declared codes)."""

    def observe(self, seat: int) -> dict[str, object]:
        obs = super().observe(seat)
        assert self.state is not None
        hands = self.state.z["hand"]
        obs["vars"] = {**obs.get("vars", {}), "peek": [c for h in hands for c in h]}
        return obs


def _lower(v: object) -> object:
    if isinstance(v, str):
        return v.lower()
    if isinstance(v, list):
        return [_lower(x) for x in v]
    return v


def test_verify_reads_declared_codes() -> None:
    spec = check_file(OK / "deck_uno.rules")
    ok = Verifier(spec, "deck_uno", lambda: _LowerCase(spec=spec), shrink_seconds=5.0).run(
        players=[3], games=3, seed_=1)
    assert ok.conforms and ok.verified
    leak = Verifier(spec, "deck_uno", lambda: _Peeking(spec=spec), shrink_seconds=5.0).run(
        players=[3], games=30, seed_=1)
    assert leak.divergences and leak.divergences[0].kind == "leak"


def test_language_md_shows_the_uno_spec() -> None:
    """docs/language.md's UNO example is tests/specs/ok/deck_uno.rules (less its expect line),
    so the spec the book and the tests use is the one the reader sees."""
    doc = (Path(__file__).parent.parent / "docs" / "language.md").read_text(encoding="utf-8")
    spec = (OK / "deck_uno.rules").read_text(encoding="utf-8").split("\n", 1)[1]
    assert "```rules\n" + spec + "```" in doc
