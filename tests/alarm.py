"""One alarm for the tests that must not hang: a block that runs past its seconds is
interrupted by an exception of the caller's (an interval timer, so that a blocked read, of a
FIFO with no writer say, is interrupted too). Main thread only, as signals are."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def alarm(seconds: float, raise_: Callable[[], BaseException]) -> Iterator[None]:
    """Raise ``raise_()`` in the block if it runs past ``seconds``."""
    def ring(signum: int, frame: object) -> None:
        raise raise_()

    before = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
