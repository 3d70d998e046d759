"""The picture of the table (rulespec.book.layout): drawn from any spec's zones and a state, it
places every seat once, shows each zone as the state holds it, and is a self-contained,
accessible SVG whose boxes lie inside it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from rulespec import Game, check_text
from rulespec.book.layout import _places, table_picture
from rulespec.engine.state import CHANCE
from rulespec.loading import resolve
from rulespec.simulate import sample_event
from tests.test_diagram import check_accessible, check_in_bounds, check_self_contained

SVG_NS = "http://www.w3.org/2000/svg"


@pytest.mark.parametrize("n", range(1, 15))
def test_every_seat_has_one_place(n: int) -> None:
    bottom, left, top, right = _places(n)
    assert sorted(bottom + left + top + right) == list(range(n))
    assert 0 in bottom


@pytest.mark.parametrize("game,players", [("vandatta", 4), ("vandatta", 9),
                                          ("abracadabra", 3), ("abracadabra-newton", 2)])
def test_the_picture_shows_the_state(game: str, players: int) -> None:
    spec = resolve(game).spec
    st = Game(spec, players).new_initial_state()
    rng = random.Random(4)
    while st.to_move == CHANCE or len(st.legal_actions()) < 2:
        st.apply(sample_event(st.legal_actions(), rng))
    d = table_picture(spec, st.z, st.game.hands, 0, f"{spec.title} <&>", "now")
    root = ET.fromstring(d.svg)
    check_accessible(root)
    check_self_contained(d.svg)
    check_in_bounds(root)
    rects = root.findall(f"{{{SVG_NS}}}rect")
    assert len(rects) == 1 + st.game.hands + 1  # the background, each seat, the middle
    texts = [("".join(t.itertext())) for t in root.iter(f"{{{SVG_NS}}}text")]
    for z in spec.zones:
        if z.per_player:
            continue
        cards = st.z[z.name]
        if cards and z.visibility == "nobody":
            assert f"{z.name}: {len(cards)} card" in " ".join(texts)
    hand = " ".join(st.z["hand"][0])
    # each card by its rank as the book writes it (the ten as 10)
    assert hand and all(("10" if c[0] == "T" else c[0]) in " ".join(texts) for c in hand.split())
    assert "<&>" in (root.find(f"{{{SVG_NS}}}title").text or "")  # type: ignore[union-attr]
    assert d.alt.startswith("The table now.") and "seat 0" in d.alt


def test_an_empty_zone_is_left_out_and_a_face_down_one_is_counted() -> None:
    spec = check_text('''
game g title "G"
players 2 to 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
zone shown: per player visible to all
zone spare: shared visible to all
def zero(q: int) = 0
deal {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats
  move top(stock) from stock to shown[1]
  choose 0 {
    go() "Go." {
      end deal scoring zero
    }
  }
}
match {
  run deal
  end match winners [0]
}
''', "g.rules")
    st = Game(spec, 2).new_initial_state()
    st.apply(sample_event(st.legal_actions(), random.Random(1)))
    d = table_picture(spec, st.z, 2, 0, "G", "now")
    assert "stock: 45 cards face down" in d.alt
    assert "spare" not in d.svg  # empty: not drawn
    assert "shown" in d.alt.split("seat 1")[1] and "shown" not in d.alt.split("seat 1")[0]
    assert d.svg == table_picture(spec, st.z, 2, 0, "G", "now").svg  # the same bytes


def test_every_shipped_book_has_the_table_picture() -> None:
    from rulespec.book import build_book
    from rulespec.book.document import Figure

    for game in ("vandatta", "abracadabra", "abracadabra-newton"):
        book = build_book(resolve(game).spec)
        figs = [b for b in book.blocks if isinstance(b, Figure)]
        assert any("class=\"rst-table\"" in f.svg for f in figs), game
