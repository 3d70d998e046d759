"""The OpenSpiel bridge (rulespec.openspiel): every shipped spec passes OpenSpiel's own random
simulation test (clone, serialisation, observations, chance), the ids take exactly the
engine's events, a shuffle dealt a card at a time is the one shuffle event, and the games are
registered under names of their own."""

from __future__ import annotations

import random
from pathlib import Path

import pyspiel
import pytest

from rulespec.bridge.actions import ActionScheme, BridgeError
from rulespec.engine.chance import sample_event
from rulespec.engine.game import tables_of
from rulespec.loading import resolve, shipped_games
from rulespec.openspiel import load_game


def _short(game: str) -> dict[str, object]:
    """Options that make a match one deal, where the spec has them."""
    names = {o.name for o in resolve(game).spec.options}
    return {"deals": 1} if "deals" in names else {}


@pytest.mark.parametrize("game", sorted(shipped_games()))
def test_openspiel_random_simulation_test_passes(game: str) -> None:
    spec = resolve(game).spec
    g = load_game(game, players=spec.min_players, options=_short(game))
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)



def test_score_returns_are_general_sum_with_no_declared_sum() -> None:
    """``returns="score"``: each seat's total, which may sum to anything, so the game is
    general-sum and declares no utility sum (OpenSpiel's own test checks the two agree)."""
    g = load_game("hearts", players=4, options=_short("hearts"), returns="score")
    assert g.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert g.utility_sum() is None
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)

def _play(g: pyspiel.Game, seed: int) -> pyspiel.State:
    rng = random.Random(seed)
    st = g.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            outs = st.chance_outcomes()
            assert abs(sum(p for _, p in outs) - 1) < 1e-9
            st.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


@pytest.mark.parametrize("game,players", [("hearts", 4), ("vandatta", 3),
                                          ("abracadabra-newton", 3), ("spades", 4)])
def test_the_ids_take_exactly_the_engines_events(game: str, players: int) -> None:
    """A match played through the bridge is a match of the engine: the engine's events,
    replayed on a fresh engine state, give the same result; each decision's ids are the
    encoding of one legal event."""
    g = load_game(game, players=players, options=_short(game))
    st = _play(g, 7)
    engine = st.steps.state
    again = g.engine.new_initial_state()
    events = []
    probe = g.new_initial_state()
    rng = random.Random(7)
    while not probe.is_terminal():
        before = len(probe.steps.history)
        if probe.is_chance_node():
            outs = probe.chance_outcomes()
            probe.apply_action(rng.choices([a for a, _ in outs], [p for _, p in outs])[0])
        else:
            legal = probe.legal_actions()
            ids = {ev_ids[0] for ev_ids, _ in probe.steps.encoded()}
            if not probe.steps.prefix:
                assert set(legal) == ids
            probe.apply_action(rng.choice(legal))
        assert len(probe.steps.history) == before + 1
    for ev in probe.steps.events:
        events.append(ev)
        again.apply(ev)
    assert again.result() == engine.result() == probe.steps.state.result()
    assert len(events) < len(probe.steps.history)  # a shuffle is one event of many ids


def test_a_shuffle_is_dealt_a_card_at_a_time_into_one_event() -> None:
    g = load_game("whist", players=4)
    st = g.new_initial_state()
    assert st.is_chance_node()
    pack = st.steps.state.legal_actions()[0]["cards"]
    outs = st.chance_outcomes()
    assert len(outs) == 52 and all(abs(p - 1 / 52) < 1e-12 for _, p in outs)
    drawn = []
    for k in range(52):
        assert st.is_chance_node()
        a = st.chance_outcomes()[(k * 7) % len(st.chance_outcomes())][0]
        drawn.append(st.action_to_string(pyspiel.PlayerId.CHANCE, a).split()[-1])
        st.apply_action(a)
    assert not st.is_chance_node()
    assert sorted(drawn) == sorted(pack)
    # the dealt hands are the drawn order as the spec deals it: every card is somewhere
    engine = st.steps.state
    assert sum(len(h) for h in engine.z["hand"]) == 52


def test_registered_under_a_name_of_its_own() -> None:
    load_game("hearts", players=4)
    mine = pyspiel.load_game("rulespec_hearts", {"players": 4})
    theirs = pyspiel.load_game("hearts")
    assert mine.get_type().short_name == "rulespec_hearts"
    assert theirs.get_type().short_name == "hearts"
    assert mine.num_distinct_actions() != theirs.num_distinct_actions() or \
        type(mine) is not type(theirs)


def test_two_specs_of_one_name_each_keep_their_own(tmp_path: Path) -> None:
    # an edited copy of a spec: the same name, another title
    kuhn = Path(__file__).parent.parent / "examples" / "kuhn.rules"
    edited = tmp_path / "kuhn.rules"
    edited.write_text(kuhn.read_text().replace('title "Kuhn poker"', 'title "Kuhn, mine"'))
    a = load_game(kuhn).get_type().short_name
    b = load_game(edited).get_type().short_name
    assert a == "rulespec_kuhn" and b.startswith("rulespec_kuhn_") and len(b) == len(a) + 9
    # each name loads its own spec through pyspiel, and the first keeps its plain name
    assert pyspiel.load_game(b).get_type().long_name == "Kuhn, mine (rulespec)"
    assert pyspiel.load_game(a).get_type().long_name == "Kuhn poker (rulespec)"
    assert load_game(kuhn).get_type().short_name == a


def test_action_strings_say_what_the_id_means() -> None:
    g = load_game("whist", players=4)
    st = g.new_initial_state()
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
    texts = [st.action_to_string(st.current_player(), a) for a in st.legal_actions()]
    assert texts and all(t.startswith("play card=") for t in texts)


def test_a_set_choice_is_told_a_card_at_a_time() -> None:
    """Hearts' pass of three cards: a head id, three card ids and the end id; every prefix's
    next ids are the ones some legal pass continues with."""
    g = load_game("hearts", players=4, options=_short("hearts"))
    st = g.new_initial_state()
    rng = random.Random(1)
    while st.is_chance_node():
        outs = st.chance_outcomes()
        st.apply_action(rng.choice(outs)[0])
    scheme: ActionScheme = g.scheme
    head = st.legal_actions()
    assert len(head) == 1 and scheme.text(head[0]).startswith("pass")
    st.apply_action(head[0])
    chosen = []
    for _ in range(3):
        legal = st.legal_actions()
        assert scheme.END not in legal
        a = rng.choice(legal)
        chosen.append(a)
        st.apply_action(a)
    assert st.legal_actions() == [scheme.END]
    seat = st.current_player()
    st.apply_action(scheme.END)
    assert st.current_player() != seat or st.steps.prefix == ()


def test_information_and_observation() -> None:
    g = load_game("whist", players=4)
    a, b = g.new_initial_state(), g.new_initial_state()
    rng = random.Random(3)
    while a.is_chance_node():
        x = rng.choice(a.chance_outcomes())[0]
        a.apply_action(x)
    seat = a.current_player()
    # a world the seat cannot tell from this one: the same information, the same observation
    world = a.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(seat) == a.information_state_string(seat)
    assert world.observation_string(seat) == a.observation_string(seat)
    assert world.observation_tensor(seat) == a.observation_tensor(seat)
    other = (seat + 1) % 4
    assert world.steps.state.z["hand"][other] != a.steps.state.z["hand"][other] or \
        world.steps.state.z["hand"] == a.steps.state.z["hand"]
    # what seat 0 sees is not what seat 1 sees
    assert a.observation_string(0) != a.observation_string(1)
    assert b.information_state_string(0) != a.information_state_string(0)
    assert len(a.observation_tensor(0)) == g.observation_tensor_size()
    info = a.information_state_tensor(seat)
    assert len(info) == g.information_state_tensor_size() == g.observation_tensor_size() + 53
    hand = a.steps.state.z["hand"][seat]
    cards = list(g.spec.deck.order)
    assert {cards[i] for i, x in enumerate(info[-53:]) if x} == set(hand)


def test_a_number_outside_the_block_is_a_usage_error() -> None:
    g = load_game("oh-hell", players=3, options=_short("oh-hell"), numbers=range(0, 1))
    st = g.new_initial_state()
    rng = random.Random(2)
    with pytest.raises(BridgeError, match="numbers="):
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(rng.choice(st.chance_outcomes())[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))


def test_a_match_of_a_spec_file_unpickles_in_another_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game loaded from a spec file by a relative path: its states, serialised, are made
    again from the same file wherever the current folder is then."""
    root = Path(__file__).resolve().parent.parent
    monkeypatch.chdir(root)
    g = load_game("examples/kuhn.rules")
    st = _play(g, 3)
    text = pyspiel.serialize_game_and_state(g, st)
    monkeypatch.chdir(tmp_path)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == st.history() and again.returns() == st.returns()


def _trick_pairs(game: str, seed: int, wanted: int) -> list[tuple[str, str, str, str]]:
    """At decisions of a random match, pairs of plays that leave a third seat the same
    observation: that seat's observation and information strings after each."""
    g = load_game(game, players=4)
    rng = random.Random(seed)
    st = g.new_initial_state()
    out: list[tuple[str, str, str, str]] = []
    while not st.is_terminal() and len(out) < wanted:
        if st.is_chance_node():
            o = st.chance_outcomes()
            st.apply_action(o[rng.randrange(len(o))][0])
            continue
        acts = st.legal_actions()
        q = (st.current_player() + 2) % 4
        after = []
        for a in acts:
            c = st.clone()
            c.apply_action(a)
            after.append((c.observation_string(q), c.information_state_string(q)))
        seen: dict[str, str] = {}
        for obs, info in after:
            if obs in seen:
                out.append((obs, obs, seen[obs], info))
                break
            seen[obs] = info
        st.apply_action(acts[rng.randrange(len(acts))])
    return out


def test_the_last_card_of_a_trick_is_in_every_seats_information() -> None:
    # two last cards of a trick that leave a seat the same view (the trick gathered face
    # down, the same winner): the seat saw the card played, so its information tells them
    # apart (the engine's table compiled to watch its moves)
    pairs = _trick_pairs("whist", 3, 3)
    assert len(pairs) == 3
    for obs_a, obs_b, info_a, info_b in pairs:
        assert obs_a == obs_b and info_a != info_b


def test_a_plain_table_notes_no_glimpse() -> None:
    spec = resolve("whist").spec
    plain = tables_of(spec).game(4, {}, 0).new_initial_state()
    watched = tables_of(spec, watch=True).game(4, {}, 0).new_initial_state()
    rng = random.Random(1)
    for st in (plain, watched):
        st.glimpsed = []
        ev = sample_event(st.legal_actions(), rng, st.chance_weights)
        st.apply(ev)  # the shuffle, then the deal
    assert plain.glimpsed == []
    # the deal was seen: each seat its own thirteen cards and the turned-up trump
    assert watched.glimpsed and all(len(m) >= 13 for m in watched.glimpsed[-1])
