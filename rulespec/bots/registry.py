"""Bots by name: ``random``, ``greedy``, ``ismcts``, each with parameters after a colon
(``ismcts:iterations=200,c=1.4``), or a class of the user's as ``MODULE:ATTR`` (imported; its
parameters after a second colon: ``mybots:Cautious:depth=2``)."""

from __future__ import annotations

import importlib
import inspect
import random
from collections.abc import Callable, Mapping
from typing import cast

from rulespec.bots.base import Bot
from rulespec.bots.ismcts import IsmctsBot
from rulespec.bots.players import GreedyBot, RandomBot
from rulespec.engine.game import Game
from rulespec.errors import ConfigurationError

__all__ = ["BUILTIN", "bot_class", "make_bot"]

#: the bots rulespec ships, by name
BUILTIN: Mapping[str, type] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": IsmctsBot}

_HINT = ("a bot is one of " + ", ".join(BUILTIN) + " (parameters after a colon: "
         "ismcts:iterations=200,c=1.4), or MODULE:ATTR naming a class with an act(state, seat) "
         "method, made as ATTR(seat, rng, game, **params)")


def _value(text: str) -> object:
    """A parameter's value: a whole number, a number, true/false, else the text."""
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def _params(name: str, text: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, eq, val = part.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ConfigurationError(f"bot {name!r}: a parameter is NAME=VALUE, not {part!r}")
        out[key.strip()] = _value(val)
    return out


def bot_class(name: str) -> tuple[Callable[..., object], dict[str, object]]:
    """The class a bot name names and the parameters it gives; a name that names none, a
    module that does not import, a class without ``act`` or a parameter the class does not
    take is a ConfigurationError."""
    if not isinstance(name, str) or not name.strip():
        raise ConfigurationError(f"a bot is named by a string, not {name!r}; {_HINT}")
    head, _, rest = name.strip().partition(":")
    if head in BUILTIN:
        cls: object = BUILTIN[head]
        params = _params(name, rest)
    elif not rest:
        raise ConfigurationError(f"there is no bot {name!r}; {_HINT}")
    else:
        attr, _, ptext = rest.partition(":")
        try:
            module = importlib.import_module(head)
        except Exception as e:  # any error raised while the user's module is imported
            raise ConfigurationError(
                f"bot {name!r}: the module {head!r} could not be imported "
                f"({type(e).__name__}: {e}); is it on PYTHONPATH? {_HINT}") from None
        cls = module
        for part in attr.split("."):
            if not part or not hasattr(cls, part):
                raise ConfigurationError(f"bot {name!r}: the module {head!r} has no "
                                         f"{attr!r}; {_HINT}")
            cls = getattr(cls, part)
        if not callable(cls) or not callable(getattr(cls, "act", None)):
            raise ConfigurationError(f"bot {name!r}: {attr!r} has no act(state, seat) "
                                     f"method; {_HINT}")
        params = _params(name, ptext)
    assert callable(cls)
    _check_params(name, cls, params)
    return cls, params


def _check_params(name: str, cls: Callable[..., object], params: Mapping[str, object]) -> None:
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):  # a class whose signature cannot be read: let it be
        return
    if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
        return
    known = [p for p in sig.parameters if p not in ("seat", "rng", "game")]
    for key in params:
        if key not in known:
            took = ", ".join(known) or "no parameters"
            raise ConfigurationError(f"bot {name!r} has no parameter {key!r} (it takes "
                                     f"{took})")


def make_bot(name: str, seat: int, rng: random.Random, game: Game) -> Bot:
    """The bot ``name`` names, made for ``seat`` with ``rng`` and ``game``."""
    cls, params = bot_class(name)
    try:
        return cast("Bot", cls(seat, rng, game, **params))
    except TypeError as e:
        raise ConfigurationError(f"bot {name!r} could not be made: {e}; {_HINT}") from None
