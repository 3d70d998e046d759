"""The native backend (rulespec/engine/native.py, issue 29) plays exactly as the Python engine
does: the two engines, given the same random choices, give the same legal events, the same
observation to every seat after every event, and the same results, over many random games.

The builds go to one cache folder shared by the suite's workers (a build is 5 to 15 s; the
folder is the session's, never the user's). Cython and a C compiler are dev dependencies
(pyproject, .ci/system-deps): without them these tests fail with the reason, they do not skip.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec import RuleRuntimeError, check_text
from rulespec.cli import main
from rulespec.engine import native
from rulespec.engine.game import Game
from rulespec.engine.state import State
from rulespec.loading import game_for, resolve
from rulespec.simulate import sample_event


@pytest.fixture(scope="session")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The session's cache of native modules: one folder for all xdist workers (a build is
    renamed into place whole, so workers building the same module at once do no harm). They
    are built with -O0, in a third of the default's time: the code is the same."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "native-cache"
    setting = {native.CACHE_ENV: str(folder), native.OPT_ENV: "-O0"}
    old = {k: os.environ.get(k) for k in setting}
    os.environ.update(setting)
    yield folder
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def built(name: str, players: int, options: dict[str, Any]) -> native.NativeBuild:
    b = native.native_game(resolve(name).spec, players, options, 0)
    assert b.native, b.reason
    assert b.missed == 0, "every generated text is in the module"
    return b


def lockstep(py: Game, nat: Game, games: int, seed: int, observe: bool = True) -> int:
    """Play ``games`` random matches on both engines with the same choices; assert they agree
    at every step (the whole list of legal events at each decision of every other game); the
    number of events played."""
    events = 0
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        a, b = py.new_initial_state(), nat.new_initial_state()
        while not a.is_terminal():
            assert a.current_player() == b.current_player()
            if a.is_chance_node():
                legal = a.legal_actions()
                assert legal == b.legal_actions()
                ev = sample_event(legal, rng, a.chance_weights)
                a.apply(ev)
                b.apply(ev)
            else:
                if i % 2:  # every event, in odd games; even games keep the lazy lists lazy
                    assert a.legal_actions() == b.legal_actions()
                n = a.legal_count()
                assert n == b.legal_count()
                k = rng.randrange(n)
                assert a.legal_event(k) == b.legal_event(k)
                a.apply_index(k)
                b.apply_index(k)
            events += 1
            if observe:
                same_views(a, b, py.players)
        assert b.is_terminal()
        same_views(a, b, py.players)
        assert a.result() == b.result()
        assert a.deals == b.deals
    return events


def same_views(a: State, b: State, players: int) -> None:
    for seat in range(players):
        assert a.observation(seat) == b.observation(seat)


def test_hearts_plays_as_the_python_engine(cache: Path) -> None:
    """A few hundred deals of hearts (20 matches to 100 points), every seat's view compared
    after every event."""
    b = built("hearts", 4, {})
    assert b.module is not None and b.module.parent == cache
    py = game_for(resolve("hearts").spec, 4, {}, 0)
    assert b.game is not py
    assert lockstep(py, b.game, 20, 0) > 20 * 5 * 100


def test_crazy_eights_plays_as_the_python_engine(cache: Path) -> None:
    b = built("crazy-eights", 4, {})
    lockstep(game_for(resolve("crazy-eights").spec, 4, {}, 0), b.game, 40, 1)


def test_the_cli_chooses_the_engine(cache: Path) -> None:
    """``rulespec simulate --engine native`` prints what the Python engine prints."""
    args = ["simulate", "crazy-eights", "-p", "4", "-n", "30", "--seed", "7", "--json"]
    outs = [CliRunner().invoke(main, [*args, "--engine", e]) for e in ("python", "native")]
    assert all(r.exit_code == 0 for r in outs), [r.output for r in outs]
    assert outs[0].stdout == outs[1].stdout
    assert "playing in Python" not in outs[1].output


RISKY = """
game t title "T"
players 2
winner lowest total
zone stock: shared visible to nobody
def zero(p: int) = 0
var n: int = 0
procedure risky(k: int) {
  set n = k // (n - k + 3)
  set n = k // (n - 3)
}
deal {
  risky(3)
  end deal scoring zero
}
match {
  run deal
  end match winners [0]
}
"""


def test_a_runtime_error_names_the_procedure(cache: Path) -> None:
    """A rule's runtime error in native code is the rule's RuleRuntimeError, at the
    procedure it happens in (the Python engine names the statement)."""
    b = native.native_game(check_text(RISKY, "t.rules"), 2)
    assert b.native, b.reason
    with pytest.raises(RuleRuntimeError, match="division by zero") as info:
        b.game.new_initial_state()
    assert info.value.span is not None and info.value.span.source == "t.rules"
    assert info.value.span.line == RISKY.splitlines().index("procedure risky(k: int) {") + 1


def test_a_missing_compiler_falls_back_to_python(monkeypatch: pytest.MonkeyPatch,
                                                 tmp_path: Path) -> None:
    monkeypatch.setenv("CC", str(tmp_path / "no-such-cc"))
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path))
    spec = resolve("crazy-eights").spec
    b = native.native_game(spec, 3, {}, 1)
    assert not b.native
    assert b.reason is not None and "no C compiler" in b.reason
    assert b.game is game_for(spec, 3, {}, 1)
    args = ["simulate", "crazy-eights", "-p", "3", "--dealer", "1", "-n", "2", "--engine",
            "native"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "--engine native: no C compiler" in res.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_failed_build_falls_back_to_python(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """A compiler that fails (``false``): the reason says so, nothing is left in the cache,
    and the game is the Python engine's."""
    monkeypatch.setenv("CC", "false")
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path))
    spec = resolve("vandatta").spec
    b = native.native_game(spec, 3, {}, 2)
    assert b.reason is not None and "the C compiler failed" in b.reason, b.reason
    assert b.game is game_for(spec, 3, {}, 2)
    assert list(tmp_path.iterdir()) == []


def test_a_cache_folder_others_can_write_is_not_used(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    """A module found in the cache is loaded and run: a folder others may write to is
    refused, and nothing is built or loaded from it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv(native.CACHE_ENV, str(shared))
    b = native.native_game(resolve("vandatta").spec, 3, {}, 0)
    assert b.reason is not None and "not yours alone" in b.reason, b.reason
    assert list(shared.iterdir()) == []


def test_the_module_is_the_same_text_each_build(cache: Path) -> None:
    """Two builds of a table make the same module (the enumerators' cache names, numbered by
    the process, are renamed in each text): the second finds it on disk."""
    spec = resolve("hearts").spec
    texts = []
    for _ in range(2):
        g = Game(spec, 4, {"pass_rotation": "random"}, keep_sources=True)
        texts.append(native.module_source(
            [(native.canonical(full)[0], "f", []) for _, full in g.sources]))
    assert texts[0] == texts[1]


@pytest.mark.slow
@pytest.mark.parametrize("name, players, options", [
    ("hearts", 4, {"deals": 1, "pass_rotation": "random", "qs_breaks_hearts": True}),
    ("hearts", 4, {}), ("crazy-eights", 5, {}), ("spades", 4, {"deals": 2}), ("uno", 4, {})])
def test_thousands_of_games_in_lockstep(cache: Path, name: str, players: int,
                                        options: dict[str, Any]) -> None:
    b = built(name, players, options)
    py = game_for(resolve(name).spec, players, options, 0)
    lockstep(py, b.game, 3000 if options.get("deals") == 1 else 300, 2,
             observe=options.get("deals") == 1)
