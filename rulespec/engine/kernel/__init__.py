"""The kernel: a table's rules lowered to one Python generator per match, played by index.

An experiment of issue 29 toward a typed backend: the Python engine (``codegen/``, ``state.py``)
runs each procedure as a dispatch on a program counter over frames the machine keeps, so that
a state can be cloned by copying a few objects, and lists the legal events of every decision
as a map of canonical keys to entries. A playout that only picks by index pays for both. The
kernel runs the same statements and the same expressions (the values are the engine's) as
Python generators, a decision of the common shape (one card or number of a list, the guard
tested on each) as a sorted list of values, and makes events only when asked for; a state
is copied by replaying its choices, and the Python engine's state at the same point (its
observations and records) is had the same way. A zone of distinct, order-free cards that such a
list reads is kept as a bit set beside its list, the guard one mask (``bits.py``).
``tests/test_kernel.py`` plays both in lockstep.
"""

from rulespec.engine.kernel.lower import Unsupported
from rulespec.engine.kernel.play import KernelGame, KernelState

__all__ = ["KernelGame", "KernelState", "Unsupported"]
