"""Engines people use, as implementations rulespec verifies: ``--engine openspiel:hearts``.

Each adapter lives in the module of its engine's package (``openspiel`` needs ``pyspiel``,
``rlcard`` needs ``rlcard``: ``pip install "rulespec[engines]"``) and is found here by name, so
that naming an engine whose package is missing says how to install it.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable

from rulespec.adapters.base import Adapter, NotOffered
from rulespec.errors import ImplementationStartError

__all__ = ["ENGINES", "Adapter", "NotOffered", "engine_adapter"]

#: every engine game an adapter answers for: its name, the module and class of the adapter
ENGINES: dict[str, tuple[str, str]] = {
    "openspiel:hearts": ("rulespec.adapters.openspiel", "Hearts"),
    "openspiel:spades": ("rulespec.adapters.openspiel", "Spades"),
    "openspiel:euchre": ("rulespec.adapters.openspiel_euchre", "Euchre"),
    "openspiel:crazy_eights": ("rulespec.adapters.openspiel", "CrazyEights"),
    "openspiel:oh_hell": ("rulespec.adapters.openspiel_oh_hell", "OhHell"),
    "openspiel:skat": ("rulespec.adapters.openspiel_skat", "Skat"),
    "openspiel:gin_rummy": ("rulespec.adapters.openspiel_gin_rummy", "GinRummy"),
    "rlcard:uno": ("rulespec.adapters.rlcard", "Uno"),
    "rlcard:gin_rummy": ("rulespec.adapters.rlcard_gin_rummy", "GinRummy"),
}

_PACKAGES = {"openspiel": "open_spiel", "rlcard": "rlcard"}


def engine_adapter(name: str) -> Callable[[], Adapter]:
    """The class of the adapter named ``name`` (``ENGINE:GAME``); ImplementationStartError for
    a name no adapter has, or an engine whose package is not installed."""
    if name not in ENGINES:
        near = difflib.get_close_matches(name, ENGINES, n=1)
        hint = f"did you mean {near[0]!r}? " if near else ""
        raise ImplementationStartError(
            f"--engine: no adapter for {name!r}; {hint}the adapters are: "
            f"{', '.join(sorted(ENGINES))}")
    module, cls = ENGINES[name]
    try:
        home = importlib.import_module(module)
    except ImportError as e:
        package = _PACKAGES.get(name.split(":", 1)[0], name)
        raise ImplementationStartError(
            f"--engine {name}: the engine's package is not installed ({e}); install it with "
            f"pip install \"rulespec[engines]\" (or pip install {package})") from None
    made: Callable[[], Adapter] = getattr(home, cls)
    return made
