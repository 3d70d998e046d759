"""``pick``: a chance event that picks one of N listed outcomes, uniformly or by weights.

The listed probabilities sum to 1 and every listed outcome applies (Hypothesis, over weights
and values it draws); a value not listed is refused and changes nothing; simulate draws by the
weights; a record with picks replays; verify runs a spec with picks against itself and catches
an implementation that always picks the same outcome.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from rulespec.engine.game import Game
from rulespec.engine.state import State, canonical_key
from rulespec.errors import IllegalActionError, RecordError, RuleRuntimeError, SpecCheckError
from rulespec.lang.checker import check_file, check_text
from rulespec.lang.clauses import clauses
from rulespec.lang.model import CheckedSpec
from rulespec.lang.parser import parse
from rulespec.lang.pretty import pretty
from rulespec.protocol import SpecImplementation
from rulespec.records import FORMAT, replay
from rulespec.simulate import play_random_game
from rulespec.testing import matches
from rulespec.verify.runner import Verifier

ROOT = Path(__file__).resolve().parent.parent
PIG = ROOT / "tests" / "specs" / "ok" / "pig.rules"


def _spec(statements: str, decls: str = "") -> CheckedSpec:
    """A tiny game whose deal runs ``statements``, then waits at a decision of seat 0."""
    return check_text(f"""game picks title "Picks"
players 2 to 3
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
{decls}
def s(q: int) = 0
deal {{
  {statements}
  choose 0 {{
    done() {{
      end deal scoring s
    }}
  }}
}}
match {{
  run deal
  end match winners seats
}}
""", "picks.rules")


def _at_pick(spec: CheckedSpec, players: int = 2) -> State:
    st_ = Game(spec, players, {}).new_initial_state()
    assert st_.is_chance_node()
    return st_


# ---- the language ----------------------------------------------------------------------------
def test_both_forms_print_back_as_they_parse() -> None:
    spec = _spec('pick face from [1, 2, 3, 4, 5, 6]\n  pick side from ["heads": 2, "tails": 1]\n'
                 '  pick q from seats')
    assert spec  # it checks
    text = PIG.read_text(encoding="utf-8")
    tree = parse(text, "pig.rules")
    assert parse(pretty(tree), "again.rules") == tree
    w = parse(_text_of('pick side from ["heads": 2, "tails": 1 + 1]'), "w.rules")
    assert parse(pretty(w), "w2.rules") == w


def _text_of(stmt: str) -> str:
    return ('game g title "G"\nplayers 2 to 2\nwinner lowest total\ndef s(q: int) = 0\n'
            f'deal {{\n  {stmt}\n  end deal scoring s\n}}\nmatch {{\n  run deal\n'
            '  end match winners seats\n}\n')


@pytest.mark.parametrize(("stmt", "says"), [
    ("pick face from []", "'pick face' has no outcomes to pick from"),
    ("pick face from [6]", "'pick face' has one outcome, so nothing is left to chance"),
    ('pick side from ["heads": 1, "tails": 0]', "a weight must be 1 or more, not 0"),
    ('pick side from ["heads": 1, "tails": -1]', "a weight must be 1 or more, not -1"),
    ("pick x from [1: 1, hearts: 1]", "the outcomes mix a number and a suit"),
    ("pick x from [1: true, 2: 1]", "expected a number, found a condition"),
    ("pick x from 6", "pick needs a list of outcomes, not a number"),
    ("pick x from [[1], [2]]", "pick picks a number, a seat, a card, a suit, a name or a truth "
                               "value, not a list of numbers"),
    ("pick totals from seats", "'totals' is kept by the rules engine and cannot be set"),
    ("pick seats from seats", "'pick seats' hides the built-in 'seats'"),
])
def test_a_bad_pick_is_a_positioned_error_with_a_hint(stmt: str, says: str) -> None:
    with pytest.raises(SpecCheckError) as e:
        check_text(_text_of(stmt), "bad.rules")
    d = next(d for d in e.value.diagnostics if d.message.startswith(says))
    assert d.span is not None and d.span.line == 6


def test_a_pick_cannot_set_a_per_player_variable() -> None:
    with pytest.raises(SpecCheckError) as e:
        _spec("pick banked from seats", "var banked: int per player = 0")
    assert any("per-player variable 'banked'" in d.message and d.hint
               for d in e.value.diagnostics)


# ---- listed outcomes: the Hypothesis property --------------------------------------------------
_VALUES = {
    "int": st.integers(0, 99).map(str),
    "name": st.from_regex(r"[a-z]{1,6}", fullmatch=True).map(lambda s: f'"{s}"'),
}


@st.composite
def _weighted_picks(draw: st.DrawFn) -> tuple[list[str], list[int]]:
    kind = draw(st.sampled_from(sorted(_VALUES)))
    values = draw(st.lists(_VALUES[kind], min_size=2, max_size=8, unique=True))
    weights = draw(st.lists(st.integers(1, 1000), min_size=len(values), max_size=len(values)))
    return values, weights


@settings(max_examples=40)
@given(_weighted_picks(), st.booleans())
def test_listed_probabilities_sum_to_one_and_every_outcome_applies(
        pick: tuple[list[str], list[int]], uniform: bool) -> None:
    values, weights = pick
    if uniform:
        weights = [1] * len(values)
        stmt = f"pick got from [{', '.join(values)}]"
    else:
        stmt = "pick got from [" + ", ".join(f"{v}: {w}"
                                             for v, w in zip(values, weights, strict=True)) + "]"
    kind = "int" if values[0][0] != '"' else "str"
    state = _at_pick(_spec(stmt, f"var got: {kind} = {'0' if kind == 'int' else chr(34) * 2}"))
    listed = state.chance_weights()
    total = sum(weights)
    # in the order written, each with its weight: exact fractions summing to exactly 1
    assert [json.dumps(e["value"]) for e, _ in listed] == values
    assert [w for _, w in listed] == weights
    assert sum(Fraction(w, total) for _, w in listed) == 1
    floats = state.chance_outcomes()
    assert all(p > 0 for _, p in floats)
    assert math.isclose(math.fsum(p for _, p in floats), 1.0, rel_tol=1e-12)
    assert [p for _, p in floats] == [w / total for w in weights]
    # the legal list is the same outcomes, each once, sorted by canonical text
    legal = state.legal_actions()
    keys = [canonical_key(e) for e in legal]
    assert keys == sorted(keys) and sorted(keys) == sorted(canonical_key(e) for e, _ in listed)
    for ev, _ in listed:
        after = state.clone()
        after.apply(ev)
        assert not after.is_chance_node() and after.v["got"] == ev["value"]


def test_a_value_listed_twice_is_one_outcome_with_the_weights_added() -> None:
    state = _at_pick(_spec("pick got from [3, 1, 3, 2]", "var got: int = 0"))
    assert [(e["value"], w) for e, w in state.chance_weights()] == [(3, 2), (1, 1), (2, 1)]
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.25, 0.25]


def test_seats_cards_suits_names_and_truth_values_are_picked() -> None:
    spec = _spec("fill stock with pack(1)\n  pick q from seats\n  pick c from stock\n"
                 "  pick su from [hearts: 3, spades: 1]\n  pick b from [true, false]\n"
                 "  pick dealer from seats\n  set got = c",
                 "var got: card = joker_card")
    state = Game(spec, 3, {}).new_initial_state()
    assert [e["value"] for e in state.legal_actions()] == [0, 1, 2]
    state.apply({"chance": "pick", "value": 2})
    assert len(state.legal_actions()) == 52
    state.apply({"chance": "pick", "value": "th"})  # card codes read leniently
    assert [(e["value"], w) for e, w in state.chance_weights()] == [("H", 3), ("S", 1)]
    state.apply({"chance": "pick", "value": "S"})
    assert [e["value"] for e in state.legal_actions()] == [False, True]
    state.apply({"chance": "pick", "value": True})
    state.apply({"chance": "pick", "value": 1})
    assert state.v["got"] == "TH" and state.v["dealer"] == 1 and not state.is_chance_node()


def test_option_values_are_picked_with_weights_an_option_gives() -> None:
    spec = _spec("pick pass_to from [left: 1, right: 1, across: 2, hold: w]\n"
                 "  if pass_to == hold {\n    set went = 4\n  }",
                 'option passing: {left, right, across, hold} = left\n'
                 'option w: int in 1..9 = 4\nvar went: int = 0')
    state = _at_pick(spec)
    assert [(e["value"], p) for e, p in state.chance_outcomes()] == [
        ("left", 0.125), ("right", 0.125), ("across", 0.25), ("hold", 0.5)]
    state.apply({"chance": "pick", "value": "hold"})
    assert state.v["went"] == 4
    assert [w for _, w in _at_pick(spec).chance_weights()] == [1, 1, 2, 4]
    other = Game(spec, 2, {"w": 9}).new_initial_state()
    assert [w for _, w in other.chance_weights()] == [1, 1, 2, 9]


def test_each_outcome_a_pick_lists_in_its_text_is_a_clause() -> None:
    spec = check_file(PIG)
    outcomes = [c for c in clauses(spec) if c.kind == "outcome"]
    assert [c.label for c in outcomes] == [f"pick face: {k}" for k in range(1, 7)]


def test_a_value_not_listed_is_refused_and_changes_nothing() -> None:
    state = _at_pick(_spec("pick got from [1, 2, 3, 4, 5, 6]", "var got: int = 0"))
    before = state.clone()
    with pytest.raises(IllegalActionError, match=r"must be one of 1, 2, 3, 4, 5, 6, not 7"):
        state.apply({"chance": "pick", "value": 7})
    with pytest.raises(IllegalActionError):
        state.apply({"chance": "pick", "value": True})  # true is not 1
    with pytest.raises(RecordError, match="exactly the field 'value'"):
        state.apply({"chance": "pick", "value": 1, "extra": 0})
    with pytest.raises(IllegalActionError, match="a pick is due"):
        state.apply({"chance": "shuffle", "cards": []})
    assert state.legal_actions() == before.legal_actions() and state.is_chance_node()


def test_an_empty_list_or_a_weight_below_one_at_run_time_is_an_error_at_the_pick() -> None:
    with pytest.raises(RuleRuntimeError, match="pick from an empty list") as e:
        _at_pick(_spec("pick got from [q for q in seats if q > 5]", "var got: int = 0"))
    assert e.value.span is not None and e.value.span.line == 9
    with pytest.raises(RuleRuntimeError, match="weight must be 1 or more, not 0"):
        _at_pick(_spec("pick got from [1: w, 2: 1]", "var got: int = 0\noption w: int = 0"))


# ---- a game with a die: simulated, replayed, verified ---------------------------------------
def test_simulate_draws_a_pick_by_its_weights() -> None:
    spec = _spec('pick side from ["heads": 3, "tails": 1]')
    seen: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(400):
        _, events = play_random_game(Game(spec, 2, {}).new_initial_state(), rng,
                                     keep_events=True)
        seen[events[0]["value"]] += 1
    assert 250 < seen["heads"] < 350  # 300 expected; 3 in 4


def test_pig_is_simulated_and_its_record_replays() -> None:
    spec = check_file(PIG)
    for seed in range(5):
        state = Game(spec, 3, {"target": 30}, dealer=seed % 3).new_initial_state()
        stats, events = play_random_game(state, random.Random(seed), keep_events=True)
        picks = [e for e in events if e.get("chance") == "pick"]
        assert picks and all(set(e) == {"chance", "value"} for e in picks)
        assert all(e["value"] in range(1, 7) for e in picks[1:])  # the die; first the dealer
        record = {"format": FORMAT, "game": "pig.rules", "players": 3,
                  "options": {"target": 30}, "dealer": seed % 3, "events": events}
        code, answer = replay(json.loads(json.dumps(record)), base=PIG.parent)
        assert code == 0 and answer == state.result()
        assert max(answer["totals"]) >= 30  # type: ignore[type-var]


@settings(max_examples=15, suppress_health_check=[HealthCheck.large_base_example])
@given(matches(PIG, players=[2, 3], max_events=40))
def test_pig_matches_drawn_by_hypothesis_replay(m: object) -> None:
    record = m.record()  # type: ignore[attr-defined]
    code, _ = replay({**record, "game": "pig.rules"}, base=PIG.parent)
    assert code == 0


class _AlwaysTheFirst(SpecImplementation):
    """A faulty implementation of a spec: every pick takes the first value it lists, whatever
    the event says."""

    def apply(self, event: Mapping[str, object]) -> None:
        if event.get("chance") == "pick":
            event = self.legal()[0]
        super().apply(event)


def test_verify_runs_a_spec_with_picks_against_itself_and_it_conforms() -> None:
    spec = check_file(PIG)
    r = Verifier(spec, "pig", lambda: SpecImplementation(spec=spec), timeout=10.0,
                 shrink_seconds=5.0).run(players=[2, 3], games=12, seed_=1)
    assert r.conforms and r.verified


def test_verify_catches_an_implementation_that_always_picks_the_first_outcome() -> None:
    spec = check_file(PIG)
    r = Verifier(spec, "pig", lambda: _AlwaysTheFirst(spec=spec), timeout=10.0,
                 shrink_seconds=5.0).run(players=[2], games=30, seed_=1)
    assert not r.conforms


def test_the_pig_of_docs_language_is_the_corpus_spec() -> None:
    # the worked example of docs/language.md's section on pick is this file, less its
    # corpus expectation: the one is checked there, the other simulated, replayed and
    # verified here
    spec_text = PIG.read_text(encoding="utf-8").split("\n", 1)[1]
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    assert f"```rules\n{spec_text}```" in docs


def test_matches_shrink_a_pick_toward_the_first_outcome_the_spec_lists() -> None:
    # "tails" is listed first, though "heads" sorts first among the legal events
    spec = _spec('pick side from ["tails": 1, "heads": 3]\n  pick n from [3, 2, 1]')
    simplest = find(matches(spec, players=[2], dealer=0), lambda m: True)
    assert [e.get("value") for e in simplest.events[:2]] == ["tails", 3]
    seen = find(matches(spec, players=[2], dealer=0),
                lambda m: m.events[0]["value"] == "heads")
    assert seen.events[1]["value"] == 3
