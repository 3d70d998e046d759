"""A correct implementation of title_markup.rules: its own spec's engine."""

from pathlib import Path

from rulespec.loading import resolve
from rulespec.protocol import SpecImplementation


class Impl(SpecImplementation):
    def __init__(self) -> None:
        super().__init__(spec=resolve(Path(__file__).parent / "title_markup.rules").spec)
