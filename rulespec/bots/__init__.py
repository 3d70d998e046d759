"""Players for rulespec's engine: random and greedy play, information-set Monte Carlo tree
search, and the resampler they draw worlds with.

A bot plays one seat. It is made as ``Cls(seat, rng, game, **params)`` (``rng`` a
``random.Random``, its only source of chance, so that a seeded run plays the same games
anywhere; ``game`` the compiled :class:`~rulespec.engine.game.Game`) and asked ``act(state,
seat)`` at each decision of its seat; it answers the index ``k`` of the event it chooses in
``state.legal_actions()`` (canonical order) and the caller applies it with
``state.apply_index(k)``. At a simultaneous decision (``state.seats_to_choose()``) it decides
for the seat it is asked about (``state.ask(seat)``; a bot asked for a seat that is not the
one asked works on a copy in which it is).

What a bot may know is what its seat may: it reads the state only through
``state.observation(seat)``, ``state.legal_actions()`` (the events legal at its own
decision are its knowledge: its hand, the rules, what is public) and worlds drawn by
:func:`rulespec.bots.base.world` (:func:`~rulespec.bots.determinize.resample`: every card the
seat cannot see dealt again at random, the other seats' unseen simultaneous choices
forgotten). So a bot chooses the same from two states that differ only in what its seat
cannot see, given the same ``rng``; the tests hold every bot here to that. Bots hold no
knowledge of any game: the reward they play for is read from the rules' result
(:mod:`rulespec.bots.base`).

Names (:func:`make_bot`): ``random``, ``greedy``, ``ismcts``, with parameters as
``ismcts:iterations=200,c=1.4``, or a user's class as ``MODULE:ATTR``.
"""

from rulespec.bots.base import Bot
from rulespec.bots.ismcts import IsmctsBot
from rulespec.bots.players import GreedyBot, RandomBot
from rulespec.bots.registry import BUILTIN, bot_class, make_bot

__all__ = ["BUILTIN", "Bot", "GreedyBot", "IsmctsBot", "RandomBot", "bot_class", "make_bot"]
