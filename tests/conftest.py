"""Hypothesis profiles: ``dev`` (fast, the default) and ``ci`` (thorough); pick one with
HYPOTHESIS_PROFILE. Slow exhaustive runs are marked ``slow`` and run with ``pytest -m slow``."""

from __future__ import annotations

import os

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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long runs stay out of the default suite; ``pytest -m slow`` selects them."""
    if config.option.markexpr:
        return
    keep = [i for i in items if i.get_closest_marker("slow") is None]
    dropped = [i for i in items if i.get_closest_marker("slow") is not None]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
