"""Hypothesis profiles: ``dev`` (fast, the default) and ``ci`` (thorough); pick one with
HYPOTHESIS_PROFILE. Slow exhaustive runs are marked ``slow`` and run with ``pytest -m slow``.

The suite runs in pytest-xdist workers (``addopts`` in pyproject.toml): each worker collects
and deselects the tests itself, so the count of deselected tests is sent to the controller,
which shows it in the summary line as a run in one process does."""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    print_blob=True)
settings.register_profile(
    "thorough", max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


#: the modules of the longest tests (half a minute to a minute each, most of the suite's time):
#: they start first, so that the workers share them out and no worker is left with one at the end
LONG_FIRST = ("test_verify.py", "test_abracadabra_newton_oracle.py", "test_abracadabra_oracle.py",
              "test_abracadabra_invariants.py", "test_abracadabra_newton_invariants.py",
              "test_vandatta_oracle.py", "test_vandatta_invariants.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long runs stay out of the default suite; ``pytest -m slow`` selects them. The modules
    of LONG_FIRST run first (a stable sort: each module's own order is kept)."""
    items.sort(key=lambda i: i.path.parent.name != "tests" or i.path.name not in LONG_FIRST)
    if config.option.markexpr:
        return
    keep = [i for i in items if i.get_closest_marker("slow") is None]
    dropped = [i for i in items if i.get_closest_marker("slow") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_deselected(items: Sequence[pytest.Item]) -> None:
    """In an xdist worker, note what was deselected (by the hook above, ``-m`` or ``-k``) for
    the controller, whose summary otherwise never hears of it."""
    if items and isinstance(items[0], pytest.Item) and hasattr(items[0].config, "workeroutput"):
        out = items[0].config.workeroutput  # type: ignore[attr-defined]
        out.setdefault("deselected", []).extend(i.nodeid for i in items)


_SHOWN = pytest.StashKey[bool]()


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object | None) -> None:
    """On the xdist controller: every worker deselects the same tests; count them once."""
    config: pytest.Config = node.config
    ids = getattr(node, "workeroutput", {}).get("deselected")
    if ids and not config.stash.get(_SHOWN, False):
        config.stash[_SHOWN] = True
        # the summary only counts them (and plugins read each entry's __dict__): stand-ins do
        config.hook.pytest_deselected(items=[SimpleNamespace(nodeid=i) for i in ids])
