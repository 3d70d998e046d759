"""The quizzes a fresh reader answers after reading only a game's player's book (issue 27).

Each game has four files in ``tests/books/``: the questions in English, Persian and Russian
(``GAME.quiz.LANG.md``, numbered, the same questions in each language) and the answers in English
(``GAME.answers.md``, numbered like the questions, each a short answer in bold and the rule it
comes from). The questions are kept apart from the answers so that a reader can be given the
questions alone.

Where an answer is a number or a fact the engine can confirm cheaply (cards per hand, the stock
after the deal, which cards may be played on which, the score of a given hand), the test works it
out by running the spec at its default options and checks that the answer's bold part says it, so
the answers cannot drift from the rules silently.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from rulespec.engine.game import tables_of
from rulespec.engine.state import State
from rulespec.lang.cards import pack
from rulespec.loading import resolve

BOOKS = Path(__file__).parent / "books"
#: the games whose player's book has a quiz, by their shipped names
GAMES = ("vandatta", "abracadabra", "abracadabra-newton", "hearts", "uno")
LANGS = ("en", "fa", "ru")
#: the fewest questions a quiz may have (issue 27, "Done when")
MIN_QUESTIONS = 12
ITEM = re.compile(r"^(\d+)\. (.+)$")
BOLD = re.compile(r"^\*\*(.+?)\*\*")


def numbered(path: Path) -> dict[int, str]:
    """The numbered items of a quiz or an answers file, by number; one item a line."""
    items: dict[int, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = ITEM.match(line)
        if m:
            n = int(m.group(1))
            assert n not in items, f"{path.name}: item {n} is numbered twice"
            items[n] = m.group(2).strip()
    return items


def quiz(game: str, lang: str) -> dict[int, str]:
    return numbered(BOOKS / f"{game}.quiz.{lang}.md")


def answers(game: str) -> dict[int, str]:
    return numbered(BOOKS / f"{game}.answers.md")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_four_files(game: str) -> None:
    names = [f"{game}.quiz.{lang}.md" for lang in LANGS] + [f"{game}.answers.md"]
    missing = [n for n in names if not (BOOKS / n).is_file()]
    assert not missing, f"{game}: missing {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_quizzes_have_enough_questions_the_same_in_each_language(game: str) -> None:
    counts = {lang: sorted(quiz(game, lang)) for lang in LANGS}
    en = counts["en"]
    assert len(en) >= MIN_QUESTIONS, f"{game}: {len(en)} questions, fewer than {MIN_QUESTIONS}"
    assert en == list(range(1, len(en) + 1)), f"{game}: questions not numbered 1..{len(en)}"
    for lang, nums in counts.items():
        assert nums == en, f"{game}: the {lang} quiz has questions {nums}, the English {en}"


CARD = re.compile(r"(?:10|[2-9AKQJТКДВ])[♠♥♦♣]")
#: the Russian books' rank letters (rulespec.book.document.RANK_LETTERS), read back as codes
LATIN = str.maketrans({"Т": "A", "К": "K", "Д": "Q", "В": "J"})


@pytest.mark.parametrize("game", GAMES)
def test_each_question_names_the_same_cards_in_each_language(game: str) -> None:
    """Card codes stay as they are in translation, so a question's cards are the same in the
    three languages: a translation that changed a card would ask another question."""
    en = {n: sorted(CARD.findall(q)) for n, q in quiz(game, "en").items()}
    for lang in LANGS[1:]:
        for n, q in quiz(game, lang).items():
            cards = sorted(c.translate(LATIN) for c in CARD.findall(q))
            assert cards == en.get(n), f"{game} ({lang}) question {n}"


@pytest.mark.parametrize("game", GAMES)
def test_every_question_has_an_answer_with_its_rule(game: str) -> None:
    qs, ans = quiz(game, "en"), answers(game)
    assert sorted(ans) == sorted(qs), (
        f"{game}: answers {sorted(set(qs) ^ set(ans))} missing or without a question")
    for n, text in ans.items():
        assert BOLD.match(text), f"{game} answer {n}: no short answer in bold first"
        assert " — " in text, f"{game} answer {n}: no justification naming the rule"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_no_question_is_repeated(game: str, lang: str) -> None:
    seen: dict[str, int] = {}
    for n, text in quiz(game, lang).items():
        key = " ".join(text.casefold().split())
        assert key not in seen, f"{game} ({lang}): question {n} repeats question {seen[key]}"
        seen[key] = n


# ---- answers the engine confirms ------------------------------------------------------------

def dealt(game: str, players: int, options: dict[str, object] | None = None,
          last: str | None = None,
          arrange: Callable[[list[str]], list[str]] | None = None) -> State:
    """A match of ``game`` at its default options (and ``options``), dealt from the pack in
    its listed order (with ``last`` moved to the bottom: the card left over, where one is; or
    in the order ``arrange`` makes of it), every other chance event its first outcome, stopped
    at the first decision."""
    g = tables_of(resolve(game).spec).game(players, options or {}, players - 1)
    st = g.new_initial_state()
    while st.is_chance_node():
        ev = st.legal_actions()[0]
        if ev.get("chance") == "shuffle" and (last is not None or arrange is not None):
            cards = list(ev["cards"])  # type: ignore[call-overload]
            cards = arrange(cards) if arrange else [c for c in cards if c != last] + [last]
            st.apply({"chance": "shuffle", "cards": cards})
        else:
            st.apply(ev)
    return st


def ev(st: State, name: str, **bindings: object) -> object:
    """The value of the spec's definition ``name`` in ``st``, its parameters bound."""
    d = next(d for d in st.game.spec.defs if d.name == name)
    return st.game.evaluate(d.body, st, bindings)


def cards_in_play(st: State) -> list[str]:
    return [c for h in st.z["hand"] for c in h] + list(st.z["indicator"])


def van_deal(players: int) -> str:
    st = dealt("vandatta", players)
    (up,) = st.z["discard"]
    assert up[0] not in "8A", "the listed order should turn up an ordinary card"
    sizes = {len(h) for h in st.z["hand"]}
    assert len(sizes) == 1
    packs = (len(st.z["stock"]) + 1 + players * sizes.pop()) // 52
    return f"{'One pack' if packs == 1 else 'Two packs'}; {len(st.z['hand'][0])} cards each; " \
           f"{len(st.z['stock'])} cards"


def van_plays(top: str, hand: list[str], named: str | None = None,
              options: dict[str, object] | None = None) -> list[str]:
    """The cards of ``hand`` a player may play alone on ``top`` (an eight naming ``named``)."""
    st = dealt("vandatta", 4, options)
    st.z["discard"] = [top]
    st.v["named"] = named
    st.z["hand"][1] = list(hand)
    return [c for c in hand if ev(st, "playable", p=1, g=[c])]


def van_playable(top: str, hand: list[str], group: list[str], named: str | None = None) -> bool:
    st = dealt("vandatta", 4)
    st.z["discard"] = [top]
    st.v["named"] = named
    st.z["hand"][1] = list(hand)
    return bool(ev(st, "playable", p=1, g=group))


def van_points(hand: list[str], options: dict[str, object] | None = None) -> int:
    st = dealt("vandatta", 4, options)
    st.z["hand"][1] = list(hand)
    points = ev(st, "hand_points", p=1)
    assert isinstance(points, int)
    return points


def shown(cards: list[str]) -> str:
    """Cards as the quizzes write them: 8♠, 10♦."""
    suits = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    return ", ".join(("10" if c[0] == "T" else c[0]) + suits[c[1]] for c in cards)


def van_q5() -> str:
    ok = van_plays("7H", ["8S", "AH", "7C", "QH", "AS", "9D"])
    return f"{shown(ok[:-1])} and {shown(ok[-1:])}; not A♠ and not 9♦"


def van_q6() -> str:
    hand = ["8H", "AH", "5H", "5S"]
    assert van_plays("8S", hand, named="H") == ["5H"]
    assert van_playable("8S", hand, ["5H", "5S"], named="H")
    assert not van_playable("8S", hand, ["5S", "5H"], named="H")
    return "Only 5♥, alone or as the group 5♥ then 5♠"


def van_q7() -> str:
    ok = van_plays("AC", ["AD", "8C", "4C", "KH"])
    return f"{shown(ok[:1])} and {shown(ok[1:])}; not 8♣ and not K♥"


def van_q8() -> str:
    hand = ["9H", "9C", "3D"]
    return "Yes" if van_playable("9S", hand, ["9H", "9C"]) else "No"


def van_q11() -> str:
    return "Yes" if van_playable("6D", ["8D"], ["8D"]) else "No"


def van_q14() -> str:
    hand = ["8S", "8D"]
    assert not van_playable("6D", hand, hand), "two eights may not go out together"
    return f"{van_points(hand)}; no"


def van_q17() -> str:
    ok = van_plays("AC", ["AD", "KH"], options={"ace_on_ace": False})
    return "Neither card may be played" if not ok else f"{shown(ok)}"


def abr_pack(players: int, options: dict[str, object] | None = None) -> tuple[int, int, int]:
    """(cards dealt and left over, cards in each hand, cards left over) for a table."""
    st = dealt("abracadabra", players, options)
    sizes = {len(h) for h in st.z["hand"][:players]}
    assert len(sizes) == 1
    return len(cards_in_play(st)), sizes.pop(), len(st.z["indicator"])


def abr_q1() -> str:
    total, each, left = abr_pack(4)
    assert (total, left) == (53, 1)
    return f"{each} cards each"


def abr_q2() -> str:
    st = dealt("abracadabra", 3)
    total, each, left = abr_pack(3)
    low = min(c for c in cards_in_play(st) if c != "JK" and c[0] in "23456789")
    bid_values = {c[0] for c in st.z["bid_piles"]}
    assert "K" not in bid_values and "Q" in bid_values and len(st.z["bid_piles"]) == 48
    return (f"The Ace down to the {low[0]} of each suit ({total - 1} cards) and the Joker; "
            f"{each} cards each, {'one' if left == 1 else left} card left over")


def abr_q3() -> str:
    total, each, left = abr_pack(2)
    assert left == 0
    return f"{total} cards (Ace down to 9), {each} each, none left over"


def trick_winner(game: str, trick: list[str], trumps: bool = True) -> str:
    """The player (P1 to P4, P1 leading) who wins ``trick``: with hearts trumps (the 7♥ the
    card left over), or, with ``trumps`` false, in a game without trumps."""
    st = dealt(game, 4, last="7H" if trumps else None)
    assert st.v["trump"] == ("H" if trumps else None)
    st.z["trick"] = list(trick)
    st.v["trick_from"] = [0, 1, 2, 3]
    return f"P{ev(st, 'trick_winner_hand') + 1}"  # type: ignore[operator]


def abr_example() -> list[object]:
    """The scores of the brief's Example ABR-1, computed by the spec's ``score``."""
    st = dealt("abracadabra", 4)
    st.v.update(declarer=2, contract=4, placed=[3, 2, 4, 1], taken=[6, 2, 4, 1],
                exposed=[False, True, False, False], bid_suit=["S", "H", "D", "C"])
    z = st.z
    z["left_up"] = [["AS", "6S"], ["3H", "8H"], ["2D"], []]
    z["right_up"] = [[], [], ["9D"], []]
    z["right_down"] = [[], [], ["KD"], []]
    z["won"] = [["2S", "3S", "4S", "5S", "7S"], ["4H", "5H", "6H"], ["3D", "4D", "5D", "6D"],
                ["2C", "3C"]]
    return [ev(st, "score", p=p) for p in range(4)]


def abr_q18() -> str:
    st = dealt("abracadabra", 4, {"success_rule": "at_least"})
    st.v.update(declarer=2, contract=4, placed=[3, 2, 4, 1], taken=[6, 2, 4, 1])
    return "Yes" if ev(st, "success", p=0) else "No"


def new_q1() -> str:
    st = dealt("abracadabra_newton", 4)
    assert len(cards_in_play(st)) == 53 and len(st.z["indicator"]) == 1
    return f"{len(st.z['hand'][0])} cards each"


def new_q2() -> str:
    st = dealt("abracadabra_newton", 2)
    assert not st.z["indicator"]
    return (f"{len(cards_in_play(st))} cards (Ace down to 9), {len(st.z['hand'][0])} each, "
            "none left over")


def new_q7() -> str:
    st = dealt("abracadabra_newton", 4, last="7H")
    st.z["trick"] = ["5H"]
    st.v["trick_from"] = [0]
    hand = ["JK", "2S", "9S"]
    assert not ev(st, "may_play", cs=hand, c="2S")
    return "Yes" if ev(st, "may_play", cs=hand, c="JK") else "No"


def new_scores(players: int, contract: int, taken: list[int], won: list[list[str]],
               options: dict[str, object] | None = None) -> list[object]:
    st = dealt("abracadabra_newton", players, options)
    st.v.update(contract=contract, taken=taken, bids=[contract] * players)
    st.z["won"] = won
    return [ev(st, "score", p=p) for p in range(players)]


def new_q9() -> str:
    scores = new_scores(4, 5, [5, 4, 1, 3], [["5C", "5D"], ["5H"], [], ["5S"]])
    return f"P1: {scores[0]}** (success bonus 40 + 5 tricks + 2 × 2 fives); **P3: {scores[2]}"


def new_q10() -> str:
    scores = new_scores(3, 1, [1, 3, 8], [["AC"], [], ["AD", "AH", "AS"]])
    return str(scores[2])


def new_q17() -> str:
    st = dealt("abracadabra_newton", 4, {"success_target": "own_bid"})
    st.v.update(contract=5, taken=[3, 5, 2, 3], bids=[3, 5, 4, 1])
    return "Yes" if ev(st, "success", p=0) else "No"


def minus(n: object) -> str:
    """A number as the answers write it, with a true minus sign."""
    return str(n).replace("-", "−")


def hearts_legal(hand: list[str], trick: list[str], trick_number: int,
                 broken: bool = False) -> list[str]:
    """The cards of ``hand`` that P2 may play to ``trick`` (led to trick ``trick_number``)."""
    st = dealt("hearts", 4)
    st.v.update(trick_number=trick_number, broken=broken)
    st.z["trick"] = list(trick)
    st.z["hand"][1] = list(hand)
    return [c for c in hand if ev(st, "legal", p=1, c=c)]


def hearts_scores(won: list[list[str]], options: dict[str, object] | None = None,
                  shooter: int = -1, off_own: bool = False) -> list[object]:
    st = dealt("hearts", 4, options)
    st.v.update(shooter=shooter, moon_off_own=off_own)
    st.z["won"] = won
    return [ev(st, "score", p=p) for p in range(4)]


def hearts_q3() -> str:
    st = dealt("hearts", 4)
    turns = []
    for n in (2, 3):
        st.v["deals_played"] = n
        turns.append(ev(st, "rotation"))
    assert turns[1] == "hold"
    return f"{str(turns[0]).capitalize()}; in the fourth deal nobody passes"


def hearts_q13() -> str:
    moon = [[c for c in pack(1) if c[1] == "H"] + ["QS"], [], [], []]
    others = hearts_scores(moon, shooter=0)
    own = hearts_scores(moon, shooter=0, off_own=True)
    assert others[1:] == [others[1]] * 3 and own[1:] == [own[1]] * 3
    return (f"You choose: every other player scores {others[1]} and you {others[0]}, or you "
            f"take 26 off your own score ({minus(own[0])}) and the others score {own[1]}")


def uno_turn(top: str, hand: list[str], options: dict[str, object] | None = None) -> set[str]:
    """What P2 may do in the first turn of a hand dealt so that they hold ``hand`` (made up to
    seven with cards that match nothing) and ``top`` is turned up: the cards they may play, and
    'draw' if they may draw, from the engine's legal events."""
    full = hand + [c for c in ("3G", "4Y", "6G", "8Y", "3Y", "4G", "6Y")
                   if c[0] != top[0]][:7 - len(hand)]

    def arrange(cards: list[str]) -> list[str]:
        rest = list(cards)
        for c in full + [top]:
            rest.remove(c)
        # dealt one at a time from the dealer's (seat 0's) left: seat 1 gets every fourth
        order = [full.pop(0) if i % 4 == 0 else rest.pop(0) for i in range(28)]
        return order + [top] + rest

    st = dealt("uno", 4, options, arrange=arrange)
    assert st.current_player() == 1 and st.z["discard"] == [top]
    return {str(e.get("card", e["action"])) for e in st.legal_actions()}


def uno_q1() -> str:
    st = dealt("uno", 4)
    assert st.z["discard"] == ["2Y"]
    return f"{len(st.z['hand'][0])} cards each; {len(st.z['stock'])} cards"


def uno_q3() -> str:
    moves = uno_turn("7R", ["7B", "2G", "9Y", "W", "W4"])
    assert moves == {"7B", "W", "W4", "draw"}, moves
    return "The blue 7, the Wild and the Wild Draw Four; not the green 2 or the yellow 9"


def uno_q4() -> str:
    moves = uno_turn("7R", ["2R", "SG", "W4"])
    assert moves == {"2R", "W4", "draw"}, moves
    st = dealt("uno", 4)
    st.v["colour"] = "R"
    st.z["hand"][1] = ["2R", "SG", "W4"]
    assert not ev(st, "may_draw_four", p=1), "holding a red card, the Wild Draw Four is a bluff"
    return "The red 2, or the Wild Draw Four against the rule"


def uno_q11() -> str:
    st = dealt("uno", 4)
    st.v["went_out"] = 0
    st.z["hand"] = [[], ["5R", "SB", "W"], ["9G", "W4"], ["0Y"]]
    scores = [ev(st, "score", p=p) for p in range(4)]
    assert scores[1:] == [0, 0, 0]
    return f"P1 scores {scores[0]}"


def uno_q12() -> str:
    st = dealt("uno", 4)
    reverse, zero, w4 = (ev(st, "points", c=c) for c in ("RR", "0Y", "W4"))
    return f"A Reverse {reverse}, a 0 nothing ({zero}), a Wild Draw Four {w4}"


def uno_q14() -> str:
    moves = uno_turn("7R", ["2R", "9G"], {"draw_instead": False})
    assert moves == {"2R"}, moves
    return "No: you must play the red 2"


def newton_match(bids: list[int], show: int, deals: int,
                 found: Callable[[list[dict[str, object]]], bool]) -> list[dict[str, object]]:
    """The deals' results of the first four-player Newton match (P4 dealing first, each player
    bidding ``bids[seat]`` and the declarer showing ``show`` cards in every deal, the cards
    played at random from seeds 0, 1, 2 and so on) whose results are ``found``: the engine's
    own money and pot, for the answers that tell them."""
    g = tables_of(resolve("abracadabra_newton").spec).game(4, {"deals": deals}, 3)
    for seed in range(300):
        rng = random.Random(seed)
        st = g.new_initial_state()
        while not st.is_terminal():
            acts = st.legal_actions()
            kind = acts[0].get("action")
            if st.is_chance_node():
                choice = acts[0]
            elif kind == "bid":
                choice = next(a for a in acts if a["tricks"] == bids[st.current_player()])  # type: ignore[index]
            elif kind == "show":
                choice = next(a for a in acts if len(a["cards"]) == show)  # type: ignore[arg-type]
            else:
                choice = rng.choice(acts)
            st.apply(choice)
        if found(st.deals):
            return st.deals
    raise AssertionError("no match of 300 played the situation the question asks about")


def money(deal: dict[str, object]) -> list[int]:
    m = deal["money"]
    assert isinstance(m, list)
    return m


def new_q13() -> str:
    (deal,) = newton_match([3, 5, 4, 5], 2, 1, lambda ds: [x > 0 for x in money(ds[0])]
                           == [True, False, False, False])
    m = money(deal)
    assert deal["pot_carry"] == 0
    return (f"P1 {m[0]:+d} (wins the pot of {m[0] + 1}, less a 1-chip stake); P2 {minus(m[1])} "
            f"(1 ante + 2 for the shown cards); P3 {minus(m[2])}; P4 {minus(m[3])}")


def new_q14() -> str:
    def found(ds: list[dict[str, object]]) -> bool:
        return money(ds[0]) == [-1] * 4 and sum(x > 0 for x in money(ds[1])) == 1
    first, second = newton_match([3] * 4, 0, 2, found)
    you = next(q for q in range(4) if money(second)[q] > 0)
    carry = first["pot_carry"]
    assert isinstance(carry, int)
    after = money(first)[you] + money(second)[you]
    return (f"{minus(money(first)[you])} after deal 1 (the pot of {carry} carries over); "
            f"{after:+d} after deal 2 (you take {carry} + 4 = {carry + 4} chips, less your "
            f"1-chip stake: {money(second)[you]:+d} for the deal)")


def new_q15() -> str:
    # every bid 3, so P1, the first to bid, is the declarer; showing 3 cards, the pot is 4
    # antes and 3 chips: 7. P1 fails (loses their 4 chips) and exactly two others succeed
    def found(ds: list[dict[str, object]]) -> bool:
        m = money(ds[0])
        return m[0] == -4 and sum(x > 0 for x in m[1:]) == 2
    first = newton_match([3] * 4, 3, 2, found)[0]
    (share,) = {x + 1 for x in money(first) if x > 0}
    return (f"{share} chips each; the {first['pot_carry']} odd chip stays in the pot for the "
            "next deal")


#: (game, question, what the engine says the answer is): the answer's bold part must say it
CONFIRMED: list[tuple[str, int, Callable[[], str]]] = [
    ("vandatta", 1, lambda: van_deal(4)),
    ("vandatta", 2,
     lambda: van_deal(6).replace("Two packs", "Two packs (104 cards) shuffled together")),
    ("vandatta", 5, van_q5),
    ("vandatta", 6, van_q6),
    ("vandatta", 7, van_q7),
    ("vandatta", 8, van_q8),
    ("vandatta", 11, van_q11),
    ("vandatta", 13, lambda: str(van_points(["8H", "AC", "KD"]))),
    ("vandatta", 14, van_q14),
    ("vandatta", 16, lambda: str(van_points(["8H", "AC", "KD"], {"scoring": "swedish"}))),
    ("vandatta", 17, van_q17),
    ("abracadabra", 1, abr_q1),
    ("abracadabra", 2, abr_q2),
    ("abracadabra", 3, abr_q3),
    ("abracadabra", 9, lambda: trick_winner("abracadabra", ["KS", "2H", "AS", "JK"])),
    ("abracadabra", 13, lambda: str(abr_example()[1])),
    ("abracadabra", 14, lambda: str(abr_example()[2])),
    ("abracadabra", 18, abr_q18),
    ("abracadabra-newton", 1, new_q1),
    ("abracadabra-newton", 2, new_q2),
    ("abracadabra-newton", 6, lambda: trick_winner("abracadabra_newton", ["KH", "AH", "JK", "2C"])),
    ("abracadabra-newton", 7, new_q7),
    ("abracadabra-newton", 9, new_q9),
    ("abracadabra-newton", 10, new_q10),
    ("abracadabra-newton", 13, new_q13),
    ("abracadabra-newton", 14, new_q14),
    ("abracadabra-newton", 15, new_q15),
    ("abracadabra-newton", 17, new_q17),
    ("hearts", 1, lambda: f"{len(dealt('hearts', 4).z['hand'][0])} cards each"),
    ("hearts", 3, hearts_q3),
    ("hearts", 5, lambda: "Only " + shown(hearts_legal(["QS", "5H", "9D"], ["2C"], 1))),
    ("hearts", 6, lambda: "Any of them: " + shown(hearts_legal(["QS", "5H", "KH"], ["2C"], 1))
     .replace(", K", " or K")),
    ("hearts", 7, lambda: shown(hearts_legal(["7H", "KS", "2D"], [], 3)).replace(", ", " or ")
     + "; not 7♥"),
    ("hearts", 8, lambda: "Yes" if hearts_legal(["7H", "KH"], [], 3) == ["7H", "KH"] else "No"),
    ("hearts", 10, lambda: trick_winner("hearts", ["5D", "KD", "AS", "2H"], trumps=False)),
    ("hearts", 11, lambda: "Either, " + shown(hearts_legal(["KS", "3H"], ["5D"], 5))
     .replace(", ", " or ")),
    ("hearts", 12, lambda: str(hearts_scores([["2H", "3H", "4H", "5H", "QS"], [], [], []])[0])),
    ("hearts", 13, hearts_q13),
    ("hearts", 15, lambda: minus(hearts_scores([["JD", "2H", "3H"], [], [], []],
                                                {"jd_bonus": True})[0])),
    ("uno", 1, uno_q1),
    ("uno", 3, uno_q3),
    ("uno", 4, uno_q4),
    ("uno", 11, uno_q11),
    ("uno", 12, uno_q12),
    ("uno", 14, uno_q14),
]


@pytest.mark.parametrize(("game", "number", "compute"), CONFIRMED,
                         ids=[f"{g}-{n}" for g, n, _ in CONFIRMED])
def test_answer_agrees_with_the_spec(game: str, number: int, compute: Callable[[], str]) -> None:
    answer = answers(game)[number]
    said = compute()
    assert answer.startswith(f"**{said}"), (
        f"{game} answer {number} says {answer[:120]!r}; running the spec gives {said!r}")


@pytest.mark.parametrize("game", GAMES)
def test_the_answers_marked_engine_are_those_the_spec_confirms(game: str) -> None:
    """An answer says *(engine)* exactly when this test runs the spec to confirm it."""
    marked = {n for n, text in answers(game).items() if "*(engine" in text}
    assert marked == {n for g, n, _ in CONFIRMED if g == game}


def test_example_abr_1_scores_in_full() -> None:
    """The whole table of the brief's Example ABR-1, behind answers 13 and 14 of the
    Abracadabra quiz: the spec's scoring gives every player's total."""
    assert abr_example() == [23, 45, 26, 25]
