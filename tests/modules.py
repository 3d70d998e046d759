"""Python files that are not in a package (the benches, the findings' reproductions) loaded as
modules for a test."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load(path: Path, name: str | None = None) -> ModuleType:
    """The module of the file ``path``, executed afresh, under ``name`` (its stem by
    default)."""
    spec = importlib.util.spec_from_file_location(name or path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench(name: str) -> ModuleType:
    """``bench/NAME.py`` as a module."""
    return load(ROOT / "bench" / f"{name}.py", f"bench_{name}")
