"""rulespec: card games written once, precisely, in a small language.

From one ``.rules`` text the library plays the game (:class:`Game`, :class:`State`), checks other
implementations of it, and writes its rulebook.
"""

from rulespec.engine.game import Game
from rulespec.engine.state import CHANCE, State
from rulespec.errors import (
    ConfigurationError,
    Diagnostic,
    IllegalActionError,
    RecordError,
    RuleRuntimeError,
    RulespecError,
    SpecCheckError,
    SpecSyntaxError,
)
from rulespec.lang.checker import check, check_file, check_text
from rulespec.lang.model import CheckedSpec
from rulespec.lang.parser import parse
from rulespec.lang.sources import parse_file

__all__ = [
    "CHANCE",
    "CheckedSpec",
    "ConfigurationError",
    "Diagnostic",
    "Game",
    "IllegalActionError",
    "RecordError",
    "RuleRuntimeError",
    "RulespecError",
    "SpecCheckError",
    "SpecSyntaxError",
    "State",
    "check",
    "check_file",
    "check_text",
    "parse",
    "parse_file",
]

__version__ = "0.1.0"
