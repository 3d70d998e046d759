"""Same deal, two specs (rulespec.sidebyside, ``rulespec same-deal``): one shuffle of the
53-card pack played under pagat's Abracadabra and Paul Newton's, reported side by side."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rulespec.errors import ConfigurationError, RecordError
from rulespec.lang.cards import pack
from rulespec.protocol import SpecImplementation
from rulespec.records import replay
from rulespec.sidebyside import SideBySide, deal_hands, same_deal

ROOT = Path(__file__).resolve().parent.parent
A, B = "abracadabra", "abracadabra-newton"
FULL_PACK = pack(1) + ["JK"]


@pytest.fixture(scope="module")
def report() -> SideBySide:
    return same_deal(A, B, 4, seed=7)


def _played_by_seat(r: SideBySide, side: str) -> list[list[str]]:
    d = r.a if side == "a" else r.b
    seats: list[list[str]] = [[] for _ in range(d.hands)]
    for t in d.tricks:
        for seat, card in t.plays:
            seats[seat].append(card)
    return [sorted(h) for h in seats]


def test_the_same_shuffle_reaches_both_games(report: SideBySide) -> None:
    r = report
    shuffle = {"chance": "shuffle", "cards": list(r.shuffle)}
    assert r.a.events[0] == shuffle and r.b.events[0] == shuffle
    assert sorted(r.shuffle) == sorted(FULL_PACK)
    # one card at a time from the dealer's left (seat 1), clockwise; the 53rd is left over
    assert r.shuffle[0] in r.hands[1] and r.shuffle[1] in r.hands[2]
    assert r.shuffle[3] in r.hands[0] and r.shuffle[4] in r.hands[1]
    assert r.left_over == (r.shuffle[52],)
    assert [len(h) for h in r.hands] == [13] * 4
    # each engine dealt those hands, and each seat played exactly its hand
    assert r.a.dealt == r.hands and r.b.dealt == r.hands
    expected = [sorted(h) for h in r.hands]
    assert _played_by_seat(r, "a") == expected
    assert _played_by_seat(r, "b") == expected
    text = r.text()
    for q, h in enumerate(r.hands):
        assert f"seat {q}: {' '.join(h)}" in text
    assert f"left over: {r.shuffle[52]} (the trump indicator)" in text


def test_deal_hands_follows_the_dealer() -> None:
    cards = FULL_PACK
    hands, left = deal_hands(cards, 4, dealer=2)
    assert cards[0] in hands[3] and cards[1] in hands[0] and cards[2] in hands[1]
    assert left == ("JK",)
    assert Counter(c for h in hands for c in h) == Counter(cards[:52])


@pytest.mark.parametrize("seed", [0, 1, 7, 12])
def test_thirteen_tricks_of_four_in_each_game(seed: int) -> None:
    r = same_deal(A, B, 4, seed=seed)
    for d in (r.a, r.b):
        assert "abandoned" not in d.result
        assert len(d.tricks) == 13
        assert [t.number for t in d.tricks] == list(range(1, 14))
        for t in d.tricks:
            assert sorted(s for s, _ in t.plays) == [0, 1, 2, 3]
            assert t.winner is not None
        # the seat credited with a trick leads the next one
        for t, nxt in zip(d.tricks, d.tricks[1:], strict=False):
            assert nxt.plays[0][0] == t.winner
        # every trick is credited: the counts add up to the tricks played
        assert sum(Counter(t.winner for t in d.tricks).values()) == 13


def _replayed(game: str, events: tuple[dict[str, object], ...]) -> dict[str, object]:
    impl = SpecImplementation()
    impl.new(game, 4, {}, 0)
    for ev in events:
        impl.apply(ev)
    assert impl.to_move() is None
    res = impl.result()
    deals = res["deals"]
    assert isinstance(deals, list)
    return dict(deals[0])


def _score_rows(text: str) -> dict[int, list[str]]:
    lines = text.splitlines()
    at = lines.index("Result of the deal:")
    head = lines[at + 1].split()
    assert head[:1] == ["seat"]
    rows = {}
    for line in lines[at + 2: at + 6]:
        cells = line.split()
        rows[int(cells[0])] = cells[1:]
    return rows


def test_scores_are_what_replaying_each_game_gives(report: SideBySide) -> None:
    r = report
    res_a = _replayed(A, r.a.events)
    res_b = _replayed(B, r.b.events)
    assert r.a.result == res_a and r.b.result == res_b
    assert set(res_b) >= {"scores", "money", "pot_carry"}
    # the report's table: seat, A scores, B scores, B money
    rows = _score_rows(r.text())
    for q in range(4):
        assert rows[q] == [str(res_a["scores"][q]),  # type: ignore[index]
                           str(res_b["scores"][q]),  # type: ignore[index]
                           str(res_b["money"][q])]  # type: ignore[index]
    # the records in the JSON replay on their own, to the same answer
    data = r.to_json()
    for side, res in (("a", res_a), ("b", res_b)):
        rec = data[side]["record"]  # type: ignore[index]
        code, answer = replay(rec)
        assert code == 0 and answer["complete"] is True
        assert answer["deals"][0] == res  # type: ignore[index]


def test_a_given_shuffle_is_used_as_given() -> None:
    order = list(reversed(FULL_PACK))
    lenient = [c.lower() if c[0] != "T" else "10" + c[1].lower() for c in order]
    r = same_deal(A, B, 4, shuffle=lenient, seed=3, dealer=1)
    assert r.shuffle == tuple(order)
    assert r.a.events[0]["cards"] == order and r.b.events[0]["cards"] == order
    assert r.left_over == (order[52],)
    assert order[0] in r.hands[2]  # dealer 1 deals to seat 2 first


@pytest.mark.parametrize("bad", [
    FULL_PACK[:-1],                      # the Joker missing: 52 cards
    FULL_PACK[:-1] + ["AS"],             # a card twice, none missing in count
    FULL_PACK + ["2C"],                  # 54 cards
    FULL_PACK[:-1] + ["ZZ"],             # not a card
])
def test_a_shuffle_that_is_not_the_pack_is_refused(bad: list[str]) -> None:
    with pytest.raises(RecordError, match="shuffle"):
        same_deal(A, B, 4, shuffle=bad)


def test_games_that_shuffle_different_packs_are_refused() -> None:
    # two players without dummy: pagat's 24 cards, Newton's 24 and the Joker by option
    with pytest.raises(ConfigurationError, match="same cards"):
        same_deal(A, B, 2, options_b={"two_player_joker": True})


def test_a_match_length_option_is_refused_unless_it_is_one_deal() -> None:
    with pytest.raises(ConfigurationError, match="one deal"):
        same_deal(A, B, 4, options_a={"deals": 2})
    with pytest.raises(ConfigurationError, match="drop the option game_end"):
        same_deal(A, B, 4, options_b={"game_end": "target(50)"})
    # the default, written out, is the one deal played
    plain = same_deal(A, B, 4, seed=7)
    said = same_deal(A, B, 4, seed=7, options_a={"game_end": "deals(1)"},
                     options_b={"deals": 1})
    assert said.a.result == plain.a.result and said.b.result == plain.b.result


def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rulespec.cli", "same-deal", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_command_runs_from_another_folder(tmp_path: Path, report: SideBySide) -> None:
    res = _cli(tmp_path, A, B, "--players", "4", "--seed", "7")
    assert res.returncode == 0, res.stderr
    assert res.stdout == report.text()
    assert "Tricks" in res.stdout and "B money" in res.stdout
    res = _cli(tmp_path, A, B, "--seed", "7", "--json")
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["shuffle"] == list(report.shuffle)
    assert data["a"]["result"] == report.a.result and data["b"]["result"] == report.b.result
    assert len(data["a"]["tricks"]) == 13 and len(data["b"]["tricks"]) == 13


def test_the_command_reports_errors_cleanly(tmp_path: Path) -> None:
    res = _cli(tmp_path, A, B, "-p", "2", "-b", "two_player_joker=true")
    assert res.returncode == 2
    assert res.stderr.startswith("error: ") and "Traceback" not in res.stderr
    res = _cli(tmp_path, A, B, "-a", "no_such_option=1")
    assert res.returncode == 2 and "no_such_option" in res.stderr


def test_text_from_outside_is_shown_as_text(tmp_path: Path) -> None:
    """A spec's file name is the user's, its title and option values anyone's: the report
    shows a control character in them escaped (ESC, CR: they would recolour or overwrite the
    terminal) and rich markup as itself; the JSON report stays JSON."""
    name = "g\x1b[31m\rx.rules"
    src = Path(__file__).parent / "hostile" / "lib" / "title_markup.rules"
    (tmp_path / name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    res = _cli(tmp_path, name, name, "-p", "2", "-a", "mode=[/]")
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stdout and "\r" not in res.stdout
    assert "A = g\\x1b[31m\\rx.rules" in res.stdout
    assert "(T [bold red]red[/] [/] [link=https://x]y[/link]); options: mode=[/]" in res.stdout
    res = _cli(tmp_path, name, name, "-p", "2", "--json")
    assert res.returncode == 0 and "\x1b" not in res.stdout, res.stderr
    assert json.loads(res.stdout)["a"]["game"] == name


def test_a_pick_is_drawn_by_its_weights() -> None:
    # all_together picks the day from [sunny: 3, rainy: 1]: three deals in four are sunny, as
    # simulate draws them (uniform draws gave about half)
    from rulespec.sidebyside import same_deal

    spec = str(Path(__file__).parent / "specs" / "ok" / "all_together.rules")
    days = []
    for seed in range(60):
        report = same_deal(spec, spec, 4, None, seed, {}, {}, 0)
        events = report.to_json()["a"]["record"]["events"]
        days += [e["value"] for e in events if e.get("value") in ("sunny", "rainy")]
    assert 0.65 <= days.count("sunny") / len(days) <= 0.85, days.count("sunny")
