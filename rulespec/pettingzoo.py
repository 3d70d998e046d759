"""Every spec a PettingZoo environment: ``env("uno", players=2)`` is an AEC environment.

The agents are ``player_0`` to ``player_N-1``, taking turns as the spec's decisions give them
(a simultaneous decision asks its seats one after another, each choice unseen by the others
until all are in). Chance is not an agent: the environment draws each chance outcome itself
with its seeded generator, a shuffle a card at a time as the OpenSpiel bridge does, so that a
reset's seed fixes the deal.

- **Actions** are the bridge's ids (:mod:`rulespec.bridge.actions`): ``Discrete(n)`` for every
  agent, one id per decision where the event is small, a few where it holds a set of cards.
- **Observations** are a dict of ``observation``, the seat's view as a vector
  (:mod:`rulespec.bridge.tensor`), and ``action_mask``, 1 for each legal id of the agent to
  move (all 0 for the others).
- **Rewards** come at the match's end: each winner's share of the win (1 split among the
  winners), 0 for the others; with ``returns="score"``, each seat's total, negated where the
  lowest total wins.

:class:`SingleAgentEnv` is a Gymnasium environment of one seat against fixed opponents
(uniform random play by default, or any policy of observation and mask).

No game logic is written here: the state is rulespec's engine taken a step at a time
(:class:`rulespec.bridge.steps.Steps`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - in the test dependencies
    raise ImportError(
        "rulespec.pettingzoo needs PettingZoo: pip install 'rulespec[pettingzoo]'") from e

from rulespec.bridge.actions import ActionScheme, BridgeError
from rulespec.bridge.steps import TERMINAL, Steps, match_returns
from rulespec.bridge.tensor import Layout
from rulespec.engine.game import tables_of
from rulespec.lang.model import CheckedSpec
from rulespec.loading import normalise_options, resolve

__all__ = ["RulespecEnv", "SingleAgentEnv", "env"]

#: the most steps a match may take before the environment truncates it
MAX_STEPS = 100_000

Policy = Callable[[dict[str, Any], np.random.Generator], int]


def env(game: str | Path, players: int | None = None,
        options: Mapping[str, object] | None = None, *, returns: str = "win",
        render_mode: str | None = None) -> RulespecEnv:
    """The spec ``game`` (a shipped game's name or a ``.rules`` file) as an AEC environment
    at a table of ``players`` (the spec's fewest by default) with ``options``."""
    return RulespecEnv(resolve(str(game)).spec, players, options, returns=returns,
                       render_mode=render_mode)


class RulespecEnv(AECEnv):  # type: ignore[misc]
    """A spec at one table as a PettingZoo AEC environment (see the module's docstring)."""

    def __init__(self, spec: CheckedSpec, players: int | None = None,
                 options: Mapping[str, object] | None = None, *, returns: str = "win",
                 render_mode: str | None = None, max_steps: int = MAX_STEPS) -> None:
        super().__init__()
        if returns not in ("win", "score"):
            raise BridgeError(f"returns is 'win' or 'score', not {returns!r}")
        n = players if players is not None else spec.min_players
        self.spec = spec
        self.engine = tables_of(spec, watch=True).game(
            n, dict(normalise_options(spec, options or {})), 0)
        self.scheme = ActionScheme(spec)
        self.layout = Layout.of(self.engine.new_initial_state())
        self.returns_kind = returns
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.metadata = {"render_modes": ["ansi"], "name": f"rulespec_{spec.name}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{q}" for q in range(n)]
        self._seat = {a: q for q, a in enumerate(self.possible_agents)}
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.scheme.size,), np.int8)})
        self._act_space = spaces.Discrete(self.scheme.size)
        self._rng = random.Random()
        self.steps: Steps | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ---- the match ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; ``seed`` fixes every chance outcome of it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.steps = Steps(self.engine.new_initial_state(), self.scheme)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.taken = 0
        self._chance()
        self._select()

    def _chance(self) -> None:
        """Draw chance outcomes until a seat is to decide or the match is over."""
        steps = self.steps
        assert steps is not None
        while steps.current() == -1:
            outs = steps.chance_outcomes()
            steps.apply(self._rng.choices([a for a, _ in outs], [p for _, p in outs])[0])

    def _select(self) -> None:
        steps = self.steps
        assert steps is not None
        who = steps.current()
        if who == TERMINAL:
            returns = match_returns(steps.state, self.returns_kind)
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]
            return
        self.agent_selection = self.possible_agents[who]

    def step(self, action: int | None) -> None:
        """The agent to move takes the id ``action`` (None, or anything, once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        steps = self.steps
        assert steps is not None and action is not None
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        steps.apply(int(action))
        self.taken += 1
        self._chance()
        if self.taken >= self.max_steps and steps.current() != TERMINAL:
            for a in self.agents:
                self.truncations[a] = True
            return
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s view and, if it is to move, its legal ids."""
        steps = self.steps
        assert steps is not None
        seat = self._seat[agent]
        mask = np.zeros(self.scheme.size, np.int8)
        if steps.current() == seat:
            mask[steps.legal()] = 1
        vec = np.asarray(self.layout.write(steps.state, seat), np.float32)
        return {"observation": vec, "action_mask": mask}

    def render(self) -> str | None:
        steps = self.steps
        if self.render_mode != "ansi" or steps is None:
            return None
        seat = steps.current()
        return f"to move: {seat}; what the seat sees: {steps.observation(max(seat, 0))}"

    def close(self) -> None:
        pass


class SingleAgentEnv(gymnasium.Env[dict[str, Any], int]):  # type: ignore[misc]
    """One seat of a :class:`RulespecEnv` against fixed opponents, as a Gymnasium
    environment: ``step`` takes the seat's id, plays the opponents until the seat is to move
    again or the match is over, and gives the seat's reward."""

    def __init__(self, aec: RulespecEnv, seat: int = 0,
                 opponents: Policy | Mapping[int, Policy] | None = None) -> None:
        self.aec = aec
        self.seat = seat
        self.agent = aec.possible_agents[seat]
        self.observation_space = aec.observation_space(self.agent)
        self.action_space = aec.action_space(self.agent)
        self.opponents = opponents if opponents is not None else random_policy
        self._np = np.random.default_rng()

    def _policy(self, seat: int) -> Policy:
        if isinstance(self.opponents, Mapping):
            return self.opponents.get(seat, random_policy)
        return self.opponents

    def _advance(self) -> None:
        aec = self.aec
        while not aec.terminations[self.agent] and not aec.truncations[self.agent] and \
                aec.agent_selection != self.agent:
            other = aec.agent_selection
            obs = aec.observe(other)
            aec.step(self._policy(aec._seat[other])(obs, self._np))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._np = np.random.default_rng(seed)
        self.aec.reset(seed=seed)
        self._advance()
        return self.aec.observe(self.agent), {}

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        aec = self.aec
        aec.step(action)
        self._advance()
        done = aec.terminations[self.agent]
        return (aec.observe(self.agent), float(aec._cumulative_rewards[self.agent]), done,
                aec.truncations[self.agent], {})


def random_policy(observation: dict[str, Any], rng: np.random.Generator) -> int:
    """A legal id drawn uniformly from the mask."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(rng.choice(legal))
