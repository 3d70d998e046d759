"""The PettingZoo environment (rulespec.pettingzoo): PettingZoo's own api_test passes, a seed
fixes a match, the mask is the legal ids, the rewards are the match's result, and the
Gymnasium single-seat wrapper plays against fixed opponents."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from rulespec.pettingzoo import SingleAgentEnv, env


# PettingZoo advises plain Box observations; a dict of the view and the action mask is what
# its own card games (leduc_holdem, texas_holdem) give, and api_test exempts them by name.
@pytest.mark.parametrize("game,players,options", [
    ("uno", 2, {}), ("hearts", 4, {"deals": 1}), ("vandatta", 3, {"deals": 1}),
    ("abracadabra", 3, {"deals": 1})])
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_pettingzoo_api_test_passes(game: str, players: int, options: dict[str, object]) -> None:
    api_test(env(game, players=players, options=options), num_cycles=400)


def _play(e: object, seed: int) -> list[tuple[str, int]]:
    """A match played by the lowest legal id each time; the agents and ids taken."""
    e.reset(seed=seed)  # type: ignore[attr-defined]
    taken = []
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, done, trunc, _ = e.last()  # type: ignore[attr-defined]
        if done or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        a = int(legal[len(legal) // 2])
        taken.append((agent, a))
        e.step(a)  # type: ignore[attr-defined]
    return taken


def test_a_seed_fixes_the_match_and_the_mask_is_the_legal_ids() -> None:
    e = env("hearts", players=4, options={"deals": 1})
    assert _play(e, 3) == _play(e, 3)
    assert _play(e, 3) != _play(e, 4)
    e.reset(seed=5)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    assert e.steps is not None
    assert list(np.flatnonzero(mask)) == e.steps.legal()
    others = [a for a in e.agents if a != agent]
    assert all(not e.observe(a)["action_mask"].any() for a in others)


def test_rewards_are_the_match_result() -> None:
    e = env("whist", players=4)
    _play(e, 2)
    st = e.steps
    assert st is not None and st.state.is_terminal()
    winners = st.state.result()["winners"]
    assert set(e._cumulative_rewards) <= set(e.possible_agents)
    total = {a: 0.0 for a in e.possible_agents}
    e.reset(seed=2)
    for agent in e.agent_iter():
        obs, reward, done, trunc, _ = e.last()
        total[agent] += reward
        if done or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[len(legal) // 2]))
    assert {a for a, r in total.items() if r > 0} == {f"player_{q}" for q in winners}
    assert sum(total.values()) == pytest.approx(1.0)


def test_single_seat_against_fixed_opponents() -> None:
    calls = []

    def lowest(observation: dict[str, object], rng: np.random.Generator) -> int:
        calls.append(1)
        return int(np.flatnonzero(observation["action_mask"])[0])  # type: ignore[call-overload]

    single = SingleAgentEnv(env("whist", players=4), seat=1, opponents=lowest)
    obs, _ = single.reset(seed=7)
    assert single.observation_space.contains(obs)
    done, reward, moves = False, 0.0, 0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0, "the seat is asked only when it is to move"
        obs, r, done, trunc, _ = single.step(int(legal[-1]))
        reward += r
        moves += 1
        assert not trunc
    assert moves >= 13 and calls and reward in (0.0, 0.5, 1.0)
