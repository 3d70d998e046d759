"""Tables (engine/table.py, and the cache in engine/game.py): a table is validated once and
compiled once, whichever door asks for it and however its options are spelled."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from rulespec.engine import game as game_module
from rulespec.engine.game import Game, Tables, tables_of
from rulespec.engine.table import Table
from rulespec.errors import ConfigurationError
from rulespec.loading import game_for, resolve
from rulespec.verify.runner import Verifier
from tests.oracles.vandatta import VandattaOracle

VAN = resolve("vandatta").spec


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[collections.Counter[tuple[object, ...]],
                                                          collections.Counter[tuple[object, ...]]]:
    """Count the games built, by table and coverage, and the tables validated."""
    built: collections.Counter[tuple[object, ...]] = collections.Counter()
    validated: collections.Counter[tuple[object, ...]] = collections.Counter()
    init, of = Game.__init__, Table.of.__func__  # type: ignore[attr-defined]

    def counted(self: Game, *args: Any, **kw: Any) -> None:
        init(self, *args, **kw)
        built[(self.table.key, self.cover is not None)] += 1

    def counted_of(cls: type[Table], *args: Any, **kw: Any) -> Table:
        t: Table = of(cls, *args, **kw)
        validated[t.key] += 1
        return t

    monkeypatch.setattr(game_module.Game, "__init__", counted)
    monkeypatch.setattr(Table, "of", classmethod(counted_of))
    return built, validated


def test_one_table_however_its_options_are_spelled() -> None:
    a = Table.of(VAN, 3, {})
    b = Table.of(VAN, 3, {"hand_size": 7, "multi_aces": False})
    assert a == b and a.key == b.key and a.hands == 3
    assert Table.of(VAN, 4, {}).key != a.key


def test_a_refused_table_is_refused_the_same_way_each_time() -> None:
    t = Tables(VAN)
    with pytest.raises(ConfigurationError) as first:
        t.game(99, {})
    with pytest.raises(ConfigurationError) as again:
        t.game(99, {})
    assert str(first.value) == str(again.value)
    assert not t.accepts(99, {}) and t.accepts(3, {}) and t.compiles == 0


def test_the_cache_compiles_each_table_once_and_stays_bounded() -> None:
    t = Tables(VAN, max_games=2)
    g = t.game(3, {})
    assert t.game(3, {"hand_size": 7}) is g and t.compiles == 1
    t.game(4, {})
    t.game(5, {})  # the least recently used (3 players) is forgotten
    assert len(t.games()) == 2 and t.compiles == 3
    assert game_for(VAN, 3, {}, 0) is tables_of(VAN).game(3, {}, 0)


def test_a_verify_run_builds_each_settings_game_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built, validated = _counting(monkeypatch)
    report = Verifier(VAN, "vandatta", VandattaOracle, timeout=10.0,
                      shrink_seconds=5.0).run(players=[2], games=6, seed_=3)
    assert report.conforms
    assert built and max(built.values()) == 1, built
    # each table validated once (or never, where an earlier test of this process did it)
    assert not validated or max(validated.values()) == 1, validated
