"""The typed lowering (issue 29): a table's rules as one Python generator over typed values
(cards as small ints, zones of distinct cards whose order no rule reads as int bit sets, the
rules' variables as the generator's locals), the index path of the engine's state, with
events, records and errors made at the edge by the Python engine (see ``lower.py``)."""

from rulespec.engine.kernel.lower import Unsupported
from rulespec.engine.typed.play import TypedGame, TypedState

__all__ = ["TypedGame", "TypedState", "Unsupported"]
