"""The zones only a second pack's cards reach (rulespec.book.packs), and the example writing
those cards apart from the playing cards."""

from __future__ import annotations

import re
from pathlib import Path

from rulespec.book.document import Bullets, Heading
from rulespec.book.i18n import words_for
from rulespec.book.packs import second_pack_zones
from rulespec.book.player import player_book
from rulespec.loading import resolve


def test_the_bid_packs_zones_are_told_apart_from_the_playing_packs() -> None:
    spec = resolve("abracadabra").spec
    zones = second_pack_zones(spec, ["bid_piles"])
    assert {"bid_piles", "bid_hand", "left_down", "left_up", "right_up", "right_down", "pile",
            "pile_up", "centre"} == zones
    # the hands, the trick and the cards won hold playing cards
    assert not zones & {"hand", "trick", "won", "stock", "indicator"}
    assert second_pack_zones(spec, []) == frozenset()
    assert second_pack_zones(resolve("vandatta").spec, []) == frozenset()


def _example_texts(game: str, lang: str = "en") -> list[str]:
    found = resolve(game)
    book = player_book(found.spec, words_for(lang, [found.path, *map(Path, found.spec.sources)]))
    at = next(i for i, b in enumerate(book.blocks)
              if isinstance(b, Heading) and b.anchor == "example")
    return ["".join(r.text for r in item[0]) for b in book.blocks[at:]
            if isinstance(b, Bullets) for item in b.items]


def test_the_example_writes_a_bid_card_in_angle_quotes_and_a_playing_card_bare() -> None:
    texts = _example_texts("abracadabra")
    bid = [m for t in texts for m in re.findall(r"‹[^›]+›", t)]
    assert bid  # the right row, the left row turned up, the failed cards
    # a trick's cards are playing cards: never quoted
    for t in texts:
        for m in re.finditer(r"\(trick \d+:([^,]*),", t):
            assert "‹" not in m.group(1), t
    # a game of one pack quotes nothing
    assert not any("‹" in t for t in _example_texts("abracadabra-newton"))


def test_the_figure_writes_a_bid_card_in_angle_quotes_and_a_playing_card_bare() -> None:
    """Round 22: the text wrote ‹2♠› and the figure 2♠ for the same bid card."""
    from rulespec.book.document import Figure

    found = resolve("abracadabra")
    book = player_book(found.spec, words_for("en", [found.path, *map(Path, found.spec.sources)]))
    fig = next(b for b in book.blocks if isinstance(b, Figure))
    lines = dict(re.findall(r'<tspan class="rst-zone">([^<]*):</tspan>((?:<tspan[^>]*>[^<]*'
                            r'</tspan>)+)', fig.svg))
    shown = {label: re.findall(r"> ([^<]+)</tspan>", spans) for label, spans in lines.items()}
    rows = [cards for label, cards in shown.items() if "row" in label or "pile" in label]
    hands = [cards for label, cards in shown.items() if label.startswith("hand")]
    assert rows and all(c.startswith("‹") and c.endswith("›") for r in rows for c in r)
    assert hands and not any("‹" in c for h in hands for c in h)
    # a quoted heart keeps its colour
    assert re.search(r'<tspan class="rst-red"> ‹[^›]*♥›</tspan>', fig.svg)
