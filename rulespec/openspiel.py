"""Every spec an OpenSpiel game: ``load_game("hearts", players=4)`` is a ``pyspiel.Game``.

The game is registered with pyspiel through its Python-game interface under a name of its
own, ``rulespec_`` and the spec's name (``rulespec_hearts``: never OpenSpiel's C++
``hearts``), so that ``pyspiel.load_game("rulespec_hearts", {"players": 4})`` works too once
:func:`load_game` or :func:`register` has run. Nothing of a game is written here: the state
is rulespec's engine driven a step at a time (:mod:`rulespec.bridge.steps`), the actions are
the ids of :mod:`rulespec.bridge.actions`, the tensors :mod:`rulespec.bridge.tensor`'s.

- **Chance.** A shuffle is dealt one card at a time (each distinct card left, with its share
  of the pack left); another chance event is one outcome among those the spec lists.
- **Actions.** A decision is one id, or a few where it holds a set of cards; each id's string
  says what it means (``play card=QS``).
- **Information.** The information-state string is a digest of everything the seat observed
  (perfect recall); its tensor is the observation's with the cards the seat has seen face up
  in this deal (:mod:`rulespec.bridge.tensor`); the observation string and tensor are what it
  sees now.
- **Returns.** By default each winner's share of the win (1 split among the winners, so the
  game is constant-sum); with ``returns="score"``, each seat's total, negated where the
  lowest total wins, so that more is always better.
- **Length.** ``max_game_length`` is the spec's ``max_events`` (per deal) times the steps an
  event may take, where the spec declares one, else :data:`LENGTH_CAP`; a match that runs past
  it raises.
- **Resampling.** ``state.resample_from_infostate(player, sampler)`` draws a world the seat
  cannot tell from this one (:func:`rulespec.bots.determinize.resample`): OpenSpiel's
  information-set MCTS plays on it.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - the extra is in the test dependencies
    raise ImportError(
        "rulespec.openspiel needs OpenSpiel: pip install 'rulespec[engines]'") from e

from rulespec.bots.determinize import resample
from rulespec.bridge.actions import ActionScheme, BridgeError
from rulespec.bridge.steps import TERMINAL, Steps, match_returns
from rulespec.bridge.tensor import Layout
from rulespec.engine.game import Game as EngineGame
from rulespec.engine.game import tables_of
from rulespec.lang.model import CheckedSpec
from rulespec.loading import normalise_options, resolve

__all__ = ["LENGTH_CAP", "RulespecGame", "RulespecState", "load_game", "register"]

#: the longest match, in steps, where the spec declares no ``max_events``
LENGTH_CAP = 100_000


def load_game(game: str | Path, players: int | None = None,
              options: Mapping[str, object] | None = None, *, returns: str = "win",
              numbers: range | None = None, dealer: int = 0) -> RulespecGame:
    """The spec ``game`` (a shipped game's name or a ``.rules`` file) as a pyspiel game at a
    table of ``players`` (the spec's fewest by default) with ``options``; registered with
    pyspiel as ``rulespec_NAME`` on the way."""
    found = resolve(str(game))
    register(found.spec)
    # a spec file by its absolute path (a shipped game by its name): a match unpickled in
    # another folder makes its game again from the same file
    here = found.path.resolve()
    spec_file = str(here) if Path(str(game)).resolve() == here else str(game)
    return RulespecGame(found.spec, players, options, returns=returns, numbers=numbers,
                        dealer=dealer, spec_file=spec_file)


def register(spec: CheckedSpec) -> str:
    """Register ``spec`` with pyspiel under ``rulespec_NAME`` (once) and give that name.

    A second spec of the same name (an edited copy of a shipped game, say) is registered
    under ``rulespec_NAME_`` and the first 8 hex digits of a digest of the spec, so that
    neither shadows the other in one process."""
    name = short_name(spec)
    if name not in pyspiel.registered_names():
        def __init__(self: RulespecGame, params: Mapping[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.pop("players", spec.min_players))
            returns = str(params.pop("returns", "win"))
            dealer = int(params.pop("dealer", 0))
            RulespecGame.__init__(self, spec, players, _chosen(spec, params), returns=returns,
                                  dealer=dealer)
        # a class, not a function: pyspiel keeps what it is given to its exit, and a
        # function kept so makes the interpreter abort as it finalises (a class does not)
        made = type(f"Rulespec_{name}", (RulespecGame,),
                    {"__init__": __init__, "__module__": __name__})
        _registered[name] = made
        pyspiel.register_game(_game_type(spec, {}, "win"), made)
    return name


#: the classes registered with pyspiel, by name
_registered: dict[str, type] = {}


def _chosen(spec: CheckedSpec, params: Mapping[str, Any]) -> dict[str, object]:
    """The options of ``params`` that differ from their defaults: pyspiel hands a factory
    every parameter, and some options may not be given together (``deals`` and ``target``)."""
    values = {k: _from_param(v) for k, v in params.items()}
    return {k: v for k, v in values.items() if spec.option(k).default != v}


def _param(v: object) -> object:
    """An option's value as a pyspiel parameter: a value with brackets in it
    (``add_per_card(1)``) is written with square ones, since pyspiel reads ``name(...)`` in a
    game's string as a game."""
    return v.replace("(", "[").replace(")", "]") if isinstance(v, str) else v


def _from_param(v: object) -> object:
    return v.replace("[", "(").replace("]", ")") if isinstance(v, str) else v


def short_name(spec: CheckedSpec) -> str:
    """The name the spec is registered under: ``rulespec_`` and its name, in the letters,
    digits and underscores pyspiel's names are made of; with a digest of the spec after it
    where another spec of the same name came first (see :func:`register`)."""
    known = _names.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    name = "rulespec_" + "".join(c if c.isalnum() else "_" for c in spec.name.lower())
    first = _holders.setdefault(name, spec)
    if first is not spec and first != spec:
        digest = hashlib.sha256(repr(spec).encode()).hexdigest()[:8]
        name = f"{name}_{digest}"
    _names[id(spec)] = (spec, name)
    return name


#: the name each spec met so far goes by, by its id (the spec kept, so the id stays its own)
_names: dict[int, tuple[CheckedSpec, str]] = {}
#: the first spec met under each plain name
_holders: dict[str, CheckedSpec] = {}


def _cards_in_play(state: Any) -> int:
    """How many cards a state's zones hold in all (a shuffle's most steps)."""
    return sum(sum(len(h) for h in z) if z and isinstance(z[0], list) else len(z)
               for z in state.z.values())


def _game_type(spec: CheckedSpec, chosen: Mapping[str, object], returns: str = "win") -> Any:
    params: dict[str, object] = {"players": spec.min_players, "returns": returns,
                                 "dealer": 0}
    for o in spec.options:
        params[o.name] = _param(chosen.get(o.name, o.default))
    return pyspiel.GameType(
        short_name=short_name(spec),
        long_name=f"{spec.title} (rulespec)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if returns == "win"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


def _first_steps(spec_file: str, params: Mapping[str, Any]) -> Steps:
    """A game's first steps made again from where its spec is and its parameters (a match
    unpickled: OpenSpiel's deserialisation)."""
    key = (spec_file, json.dumps(dict(params), sort_keys=True))
    game = _made.get(key)
    if game is None:
        rest = dict(params)
        players = int(rest.pop("players"))
        returns = str(rest.pop("returns"))
        dealer = int(rest.pop("dealer"))
        spec = resolve(spec_file).spec
        register(spec)
        game = _made[key] = RulespecGame(spec, players, _chosen(spec, rest), returns=returns,
                                         dealer=dealer, spec_file=spec_file)
    return game.first_steps()


#: the games made again to unpickle matches, by spec and parameters
_made: dict[tuple[str, str], RulespecGame] = {}


class RulespecGame(pyspiel.Game):  # type: ignore[misc]
    """A spec at one table as a pyspiel game (see the module's docstring)."""

    def __init__(self, spec: CheckedSpec, players: int | None = None,
                 options: Mapping[str, object] | None = None, *, returns: str = "win",
                 numbers: range | None = None, dealer: int = 0,
                 spec_file: str | None = None) -> None:
        if returns not in ("win", "score"):
            raise BridgeError(f"returns is 'win' or 'score', not {returns!r}")
        n = players if players is not None else spec.min_players
        opts = dict(normalise_options(spec, options or {}))
        self.spec = spec
        #: where the spec is read from again (a shipped game's name, or its file)
        self.spec_file = spec_file if spec_file is not None else spec.name
        self.engine: EngineGame = tables_of(spec, watch=True).game(n, opts, dealer)
        self.scheme = ActionScheme(spec, numbers)
        self.returns_kind = returns
        first = self.engine.new_initial_state()
        self.layout = Layout.of(first)
        cards = len(spec.deck.order)
        # a deal: at most max_events events, each a shuffle (the pack, a card a step) or a
        # decision (a head, and each list field's cards and its end)
        pack = _cards_in_play(first)
        per_event = max(pack, 2 + 2 * cards)
        length = (self.engine.max_events * per_event if self.engine.max_events is not None
                  else LENGTH_CAP)
        self.max_length = length
        lo, hi = self._utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=self.scheme.size,
            max_chance_outcomes=max(cards, pack + 1),
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            # a spec's totals may sum to anything: a general-sum game declares no sum
            utility_sum=1.0 if returns == "win" else None,
            max_game_length=length)
        # every parameter, the options' defaults included: the game's string is the same
        # whether it was made here or by pyspiel.load_game from that string
        params: dict[str, object] = {"players": n, "returns": returns, "dealer": dealer,
                                     **{o.name: _param(opts.get(o.name, o.default))
                                        for o in spec.options}}
        super().__init__(_game_type(spec, opts, returns), info, params)

    def _utility_bounds(self) -> tuple[float, float]:
        # a match's totals have no bound the spec declares (score_range bounds a deal, and a
        # match has as many deals as it takes): wide bounds, which no algorithm run here reads
        return (0.0, 1.0) if self.returns_kind == "win" else (-1e9, 1e9)

    def new_initial_state(self) -> RulespecState:
        return RulespecState(self)

    def first_steps(self) -> Steps:
        """The match's first state, to be taken a step at a time."""
        steps = Steps(self.engine.new_initial_state(), self.scheme)
        steps.bridge = self
        steps.origin = (_first_steps, (self.spec_file, dict(self.get_parameters())))
        return steps

    def __deepcopy__(self, memo: Any) -> RulespecGame:
        return self  # nothing in a game changes once it is made

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        perfect = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self, perfect)


class RulespecState(pyspiel.State):  # type: ignore[misc]
    """A match of a :class:`RulespecGame`, taken an id at a time."""

    def __init__(self, game: RulespecGame, steps: Steps | None = None) -> None:
        super().__init__(game)
        # the one attribute: OpenSpiel serialises a Python state by pickling its __dict__
        self.steps = steps if steps is not None else game.first_steps()

    @property
    def rgame(self) -> RulespecGame:
        game = self.steps.bridge
        assert isinstance(game, RulespecGame)
        return game

    def current_player(self) -> int:
        who = self.steps.current()
        if who == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if who == -1:
            return int(pyspiel.PlayerId.CHANCE)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        return self.steps.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.steps.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if len(self.steps.history) >= self.rgame.max_length:
            raise BridgeError(f"the match ran past {self.rgame.max_length} steps, the "
                              f"game's max_game_length")
        self.steps.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            legal = self.steps.state.legal_actions() if not self.steps.state.is_terminal() \
                else []
            if legal and legal[0].get("chance") in ("shuffle", "reshuffle"):
                return f"deal {self.steps.cards[action]}"
            return f"chance outcome {action}"
        return self.rgame.scheme.text(action)

    def is_terminal(self) -> bool:
        return self.steps.current() == TERMINAL

    def returns(self) -> list[float]:
        return match_returns(self.steps.state, self.rgame.returns_kind)

    def resample_from_infostate(self, player: int, sampler: Any) -> RulespecState:
        """A state ``player`` cannot tell from this one: the cards it does not see dealt
        again (the sampler's first draw seeds the deal)."""
        seed = int(sampler() * 2**31) if callable(sampler) else random.getrandbits(31)
        c = self.clone()
        if not c.steps.drawn and not c.is_chance_node():
            c.steps.state = resample(c.steps.state, player, random.Random(seed))
            c.steps._encoded = None
        return c

    def __str__(self) -> str:
        st = self.steps.state
        return str({"to_move": st.to_move, "zones": st.z, "vars": st.v})

    def clone(self) -> RulespecState:
        return RulespecState(self.rgame, self.steps.clone())

    def __deepcopy__(self, memo: Any) -> RulespecState:
        return self.clone()


class Observer:
    """OpenSpiel's observer of a :class:`RulespecGame`: the information-state string (with
    ``perfect_recall``), or the observation string and tensor (see the module)."""

    def __init__(self, game: RulespecGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.layout = game.layout
        size = game.layout.information_size if perfect_recall else game.layout.size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"information" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: RulespecState, player: int) -> None:
        steps = state.steps
        if self.perfect_recall:
            self.tensor[:] = self.layout.write_information(steps.state, player,
                                                           steps.met[player])
        else:
            self.tensor[:] = self.layout.write(steps.state, player)

    def string_from(self, state: RulespecState, player: int) -> str:
        if self.perfect_recall:
            return state.steps.information(player)
        return state.steps.observation(player)
