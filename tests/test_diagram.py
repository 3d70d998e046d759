"""The phase diagram (rulespec.book.diagram): valid, self-contained, deterministic SVG with alt
text, for every shipped game and for small specs written here."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

from rulespec.book.diagram import Diagram, phase_diagram
from rulespec.book.facts import book_facts
from rulespec.book.labels import if_clause, truth
from rulespec.book.layout import table_picture
from rulespec.book.svg import bidi_safe, fill, same, text_px
from rulespec.lang import ast, walk
from rulespec.lang.checker import check_file
from rulespec.lang.model import CheckedSpec
from rulespec.loading import resolve, shipped_games

SVG_NS = "http://www.w3.org/2000/svg"
NS = {"s": SVG_NS}
GAMES = shipped_games()
#: set to a folder (build/diagrams is git-ignored) to keep the shipped games' pictures to look at
OUT = os.environ.get("RULESPEC_DIAGRAMS_DIR")


def reached_actions(spec: CheckedSpec) -> set[str]:
    """The decision names the match and the deal reach, through the procedures they call."""
    procs = {p.name: p for p in spec.procs}
    seen: set[str] = set()
    names: set[str] = set()
    todo: list[object] = [spec.match.body, spec.deal.body]
    while todo:
        for n in walk.descendants(todo.pop()):
            if isinstance(n, ast.Choose):
                names.update(a.action for a in n.alternatives)
            elif isinstance(n, ast.CallStmt) and n.name in procs and n.name not in seen:
                seen.add(n.name)
                todo.append(procs[n.name].body)
    return names


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    return root


def drawn_actions(root: ET.Element) -> set[str]:
    """The action names written in a decision box (or a folded box) of the picture."""
    out: set[str] = set()
    for g in root.iter(f"{{{SVG_NS}}}g"):
        classes = g.get("class", "").split()
        if "rsd-decision" in classes or "rsd-folded" in classes:
            for t in g.iter(f"{{{SVG_NS}}}tspan"):
                if "rsd-act" in t.get("class", "").split():
                    out.add(t.text or "")
    return out


def check_self_contained(svg: str) -> None:
    assert "href" not in svg
    assert "<script" not in svg.lower()
    assert "http" not in svg.replace(SVG_NS, "")
    assert "@import" not in svg and "url(http" not in svg


def check_accessible(root: ET.Element) -> None:
    assert root.get("role") == "img"
    title = root.find("s:title", NS)
    desc = root.find("s:desc", NS)
    assert title is not None and (title.text or "").strip()
    assert desc is not None and (desc.text or "").strip()
    ids = (root.get("aria-labelledby") or "").split()
    assert ids == [title.get("id"), desc.get("id")]


def check_in_bounds(root: ET.Element) -> None:
    """Every box and frame lies inside the viewBox (the layout added up its sizes)."""
    _, _, w, h = (int(v) for v in (root.get("viewBox") or "").split())
    for r in root.iter(f"{{{SVG_NS}}}rect"):
        x, y = int(r.get("x", "0")), int(r.get("y", "0"))
        assert 0 <= x and x + int(r.get("width", "0")) <= w
        assert 0 <= y and y + int(r.get("height", "0")) <= h
    for p in root.iter(f"{{{SVG_NS}}}polygon"):
        for pt in (p.get("points") or "").split():
            px, py = (int(v) for v in pt.split(","))
            assert 0 <= px <= w and 0 <= py <= h


@pytest.mark.parametrize("game", GAMES)
def test_shipped_game_diagram(game: str) -> None:
    spec = resolve(game).spec
    d = phase_diagram(spec)
    assert isinstance(d, Diagram)
    root = parse(d.svg)
    check_accessible(root)
    check_self_contained(d.svg)
    check_in_bounds(root)
    actions = reached_actions(spec)
    assert actions <= set(spec.action_names())
    assert actions, "every shipped game has decisions"
    # a decision is drawn by its name in words ("choose suit"), as the book names it
    said = {a.replace("_", " ") for a in actions}
    missing = said - drawn_actions(root)
    assert not missing, f"no decision box for {sorted(missing)}"
    for name in said:
        assert re.search(rf"\b{re.escape(name)}\b", d.alt), f"alt text does not name {name}"
    desc = root.find("s:desc", NS)
    assert desc is not None and desc.text == d.alt
    # readable: at most about 40 boxes
    assert len(root.findall(".//s:g[@class]", NS)) <= 60
    if OUT:
        Path(OUT).mkdir(parents=True, exist_ok=True)
        (Path(OUT) / f"{game}.svg").write_text(d.svg, encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_shipped_game_diagram_is_deterministic(game: str) -> None:
    path = resolve(game).path
    first = phase_diagram(resolve(path).spec)
    assert phase_diagram(resolve(path).spec) == first
    # a spec checked anew twice (other objects, same text) draws the same bytes
    assert phase_diagram(check_file(path)).svg == phase_diagram(check_file(path)).svg


def test_diagram_is_frozen() -> None:
    d = phase_diagram(resolve(GAMES[0]).spec)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        d.svg = ""  # type: ignore[misc]


HOSTILE = r'''
game hostile title "Cards <&> \"quoted\" 'single'"
  "A doc with <tags>, & ampersands, \"quotes\" and ]]> too."
players 2 to 4
winner lowest total
option style: {"a<b&c", plain} = plain "Pick <one> & only one."
zone stock: shared visible to nobody "The <stock> & more."
zone hand: per player visible to owner
zone discard: shared visible to all
def held(q: int) = size(hand[q])

procedure turn(p: int) "Take a turn: <play> & \"draw\"." {
  choose p {
    play(card = c) for c in hand[p] "Play a card <face up> & say \"done\"." {
      move c from hand[p] to discard
    }
    draw() if size(stock) > 0 "Draw: 1 < 2 && 3 > 2." {
      move top(stock) from stock to hand[p]
    }
  }
}

deal "Each deal <begins> & ends." {
  fill stock with pack(1)
  shuffle stock
  deal 3 from stock to hand of seats_from(left_of(dealer))
  if style == "a<b&c" {
    choose dealer {
      fold() "Give up <now> & here." {
        end deal scoring held
      }
      stay() "Stay ]]> put." {
      }
    }
  }
  for q in seats_from(left_of(dealer)) {
    turn(q)
  }
  end deal scoring held
}

match {
  run deal
  end match winners seats
}
'''


def write_spec(tmp_path: Path, text: str, name: str = "spec.rules") -> CheckedSpec:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return check_file(p)


def test_text_from_the_spec_is_escaped(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, HOSTILE)
    d = phase_diagram(spec)
    root = parse(d.svg)  # would fail on a raw < or &
    check_accessible(root)
    check_self_contained(d.svg)
    check_in_bounds(root)
    assert drawn_actions(root) == {"play", "draw", "fold", "stay"}
    title = root.find("s:title", NS)
    assert title is not None and "<&>" in (title.text or "")
    texts = " ".join(t for t in root.itertext())
    assert "the style rule is “a<b&c”" in texts  # the frame's condition, in words
    assert "<face up> &" in texts
    assert "]]>" not in d.svg and "Stay ]]> put" in texts


NO_DECISION_LOOP = '''
game quiet title "Quiet"
players 2 to 3
winner lowest total
zone stock: shared visible to nobody
zone discard: shared visible to all
zone hand: per player visible to owner
def held(q: int) = size(hand[q])
deal {
  fill stock with pack(1)
  shuffle stock
  repeat 3 {
    move top(stock) from stock to discard
  }
  loop {
    if size(stock) == 0 {
      end deal scoring held
    }
    move top(stock) from stock to discard
  }
}
match {
  run deal
  end match winners seats
}
'''


def test_a_deal_without_decisions_still_draws(tmp_path: Path) -> None:
    d = phase_diagram(write_spec(tmp_path, NO_DECISION_LOOP))
    root = parse(d.svg)
    check_accessible(root)
    check_in_bounds(root)
    assert drawn_actions(root) == set()
    texts = " ".join(root.itertext())
    assert "repeat 3 times" in texts and "turn up the top card of the stock" in texts
    assert "the deal ends" in texts and "the match ends" in texts
    assert "Each deal:" in d.alt


def deep_spec(levels: int) -> str:
    """A deal whose decisions sit inside ``levels`` nested loops and ifs."""
    body = "choose dealer {\n  innermost() {\n  }\n}\n"
    for i in range(levels, 0, -1):
        body = (f"choose dealer {{\n  step{i}() {{\n  }}\n}}\n"
                + (f"if size(stock) > {i} {{\n{body}}}\n" if i % 2 else
                   f"repeat 2 {{\n{body}}}\n"))
    return f'''
game deep title "Deep"
players 2 to 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def held(q: int) = size(hand[q])
deal {{
  fill stock with pack(1)
{body}
  end deal scoring held
}}
match {{
  loop {{
    run deal
    if deals_played >= 3 {{
      end match winners seats
    }}
  }}
}}
'''


def test_deep_detail_is_folded_but_every_decision_is_named(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, deep_spec(30))
    d = phase_diagram(spec)
    root = parse(d.svg)
    check_in_bounds(root)
    names = reached_actions(spec)
    assert len(names) == 31
    # folded boxes still list their decisions
    assert drawn_actions(root) == {n.replace("_", " ") for n in names}
    assert "(folded)" in " ".join(root.itertext())
    assert len(root.findall(".//s:g[@class]", NS)) <= 60
    for n in names:
        assert re.search(rf"\b{n}\b", d.alt)


TWICE = '''
game loopy title "Loopy"
players 2 to 2
winner lowest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def held(q: int) = size(hand[q])
procedure turn(p: int) "Go round." {
  choose p {
    more() {
    }
    stop() {
      end deal scoring held
    }
  }
}
deal {
  fill stock with pack(1)
  loop {
    turn(dealer)
    turn(left_of(dealer))
  }
}
match {
  run deal
  end match winners seats
}
'''


def test_a_procedure_called_twice_is_drawn_once(tmp_path: Path) -> None:
    # (a procedure cannot call itself: the checker refuses recursion)
    d = phase_diagram(write_spec(tmp_path, TWICE))
    root = parse(d.svg)
    assert drawn_actions(root) == {"more", "stop"}
    texts = " ".join(root.itertext())
    assert "Go round (again, as drawn earlier)" in texts


# ---- the words of the picture ----------------------------------------------------------------

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")
LATIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def translated(letters: str) -> Callable[[str], str]:
    """A stand-in for a catalog lookup: every Latin letter of a text, outside its template's
    placeholders, written as the letter at the same place in ``letters``."""
    table = str.maketrans(LATIN, letters)

    def words(text: str) -> str:
        parts, holes = PLACEHOLDER.split(text), [*PLACEHOLDER.findall(text), ""]
        return "".join(p.translate(table) + h for p, h in zip(parts, holes, strict=True))
    return words


CROSSED = translated("x" * len(LATIN))
CYRILLIC = translated("абцдефгхийклмнопярстужвхыз" * 2)
PERSIAN = translated("ابپتثجچحخدذرزژسشصضطظعغفقکگ" * 2)


def words_drawn(root: ET.Element) -> str:
    """The text a reader is given: every line of the picture, its title and its description."""
    kinds = {f"{{{SVG_NS}}}{k}" for k in ("text", "title", "desc")}
    return "\n".join("".join(e.itertext()) for e in root.iter() if e.tag in kinds)


@pytest.mark.parametrize("game", GAMES)
def test_every_word_goes_through_words(game: str) -> None:
    """A translated book passes its catalog lookup: no English word is drawn without it, not
    even a decision's name (drawn in words, as the book names it)."""
    spec = resolve(game).spec
    root = parse(phase_diagram(spec, CROSSED).svg)
    left = set(re.findall(r"[A-Za-z_]+", words_drawn(root))) - set(spec.action_names())
    assert {w for w in left if set(w) != {"x"}} == set()
    # the picture is still whole
    assert {CROSSED(a.replace("_", " ")) for a in reached_actions(spec)} <= drawn_actions(root)


#: what a label read word by word off an expression looks like: a one-letter local, a size,
#: an identifier with its underscores, a call
PSEUDO_CODE = re.compile(r"\b(?:player|seat|each) [a-z]\b|\bsize of\b|number of cards in|"
                         r"\w_\w|\w\(|\bnot \w+ and\b")


@pytest.mark.parametrize("game", GAMES)
def test_labels_read_as_a_players_words(game: str) -> None:
    spec = resolve(game).spec
    root = parse(phase_diagram(spec).svg)
    text = "\n".join("".join(t.itertext()) for t in root.iter(f"{{{SVG_NS}}}text"))
    for name in sorted(spec.action_names(), key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}\b", "ACTION", text)
    assert PSEUDO_CODE.findall(text) == []


def test_vandatta_is_drawn_in_its_own_words() -> None:
    root = parse(phase_diagram(resolve("vandatta").spec).svg)
    text = " ".join(" ".join(t.itertext()) for t in root.iter(f"{{{SVG_NS}}}text"))
    for said in ("Shuffle and deal", "Play, draw or pass",
                 "Play a card or a group that the top card allows",
                 "if the player's hand is empty:", "the deal ends (blocked)",
                 "only if the player's hand is in lappen state", "A deal"):
        assert said in text
    for code in ("quiet", "drew", "players in", "size"):
        assert code not in text


def test_right_to_left_text_starts_at_the_right_of_its_box() -> None:
    spec = resolve("vandatta").spec
    ltr, rtl = phase_diagram(spec), phase_diagram(spec, PERSIAN, "rtl")
    assert "direction" not in ltr.svg
    root = parse(rtl.svg)
    check_in_bounds(root)
    assert drawn_actions(root) == {PERSIAN(a) for a in drawn_actions(parse(ltr.svg))}
    for g in root.iter(f"{{{SVG_NS}}}g"):
        box = g.find("s:rect", NS)
        if box is None:
            continue
        left, right = int(box.get("x", "0")), int(box.get("x", "0")) + int(box.get("width", "0"))
        for t in g.findall("s:text", NS):
            assert t.get("direction") == "rtl"
            assert (left + right) // 2 < int(t.get("x", "0")) < right


def test_wider_scripts_are_measured_wider() -> None:
    assert text_px("abc") == 21 and text_px("абв") == 24 and text_px("ابپ") == 27
    assert text_px("\u2066T♥\u2069") == text_px("T♥")  # the marks take no room
    # a line of Cyrillic holds fewer letters, so that its box is no wider than in English
    spec = resolve("hearts").spec
    en, ru = (parse(phase_diagram(spec, w).svg) for w in (same, CYRILLIC))
    assert max(len("".join(t.itertext())) for t in ru.iter(f"{{{SVG_NS}}}text")) < \
        max(len("".join(t.itertext())) for t in en.iter(f"{{{SVG_NS}}}text"))


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
#: each line of text of a box or frame that Chromium sets wider than the box
OVERFLOW_JS = """() => {
  const out = [];
  for (const g of document.querySelectorAll('g.rsd-node, g.rsd-frame')) {
    const box = g.querySelector(':scope > rect, :scope > polygon');
    const b = box.getBBox();
    for (const t of g.querySelectorAll(':scope > text')) {
      const r = t.getBBox();
      if (r.x < b.x || r.x + r.width > b.x + b.width) out.push(t.textContent);
    }
  }
  return out;
}"""


def test_labels_stay_in_their_boxes_in_chromium(tmp_path: Path) -> None:
    """Set by a browser, in English, in Russian-like and (right to left) Persian-like text,
    every line of Vändåtta's diagram lies inside its box: the widths are estimated wide
    enough for each script."""
    from playwright.sync_api import sync_playwright

    spec = resolve("vandatta").spec
    pictures = {"en": phase_diagram(spec).svg, "ru": phase_diagram(spec, CYRILLIC).svg,
                "fa": phase_diagram(spec, PERSIAN, "rtl").svg}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for lang, svg in pictures.items():
                page.set_content(f"<!doctype html><html lang={lang}><body>{svg}</body></html>")
                assert page.evaluate(OVERFLOW_JS) == [], lang
                if OUT:
                    page.locator("svg").screenshot(path=str(Path(OUT) / f"vandatta-{lang}.png"))
        finally:
            browser.close()


def test_card_codes_keep_left_to_right_in_a_right_to_left_line() -> None:
    assert bidi_safe("play T♥ on 10♠, not T") == "play \u2066T♥\u2069 on \u206610♠\u2069, not T"
    spec = resolve("hearts").spec
    example = book_facts(spec).example
    assert example is not None and example.picture is not None
    _, zones, hands, dealer = example.picture  # the table before the first play: 52 cards
    rtl = table_picture(spec, dict(zones), hands, dealer, "ت", "ن", PERSIAN, "rtl").svg
    ltr = table_picture(spec, dict(zones), hands, dealer, "t", "now").svg
    assert "\u2066" not in ltr and rtl.count("\u2066") == rtl.count("\u2069") == 52
    root = parse(rtl)
    assert all(t.get("direction") == "rtl" for t in root.iter(f"{{{SVG_NS}}}text"))
    left = set(re.findall(r"[A-Za-z_]+", words_drawn(root))) - set("TJQKA")
    assert left == set()  # every word through the lookup; only the cards' ranks stay


def test_a_translation_is_untrusted_text() -> None:
    """A catalog's entry that misspells a placeholder, or holds braces, ``{0}`` or an attribute
    lookup, is drawn as written (escaped), never formatted: no error, nothing read."""
    def hostile(text: str) -> str:
        return text + " {0} {who.__class__} {unknown} { <&> }" if "{" in text else text

    spec = resolve("vandatta").spec
    for words in (hostile, translated("x" * len(LATIN))):
        root = parse(phase_diagram(spec, words, "rtl").svg)
        check_in_bounds(root)
    assert fill("{who.__class__} {0} {who}", who="the dealer") == "{who.__class__} {0} the dealer"
    texts = words_drawn(parse(phase_diagram(spec, hostile).svg))
    assert "{who.__class__}" in texts and "<class" not in texts and "{ <&> }" in texts


def test_a_condition_the_spec_leaves_unsaid_is_said_by_its_decisions_text() -> None:
    """Vändåtta's blocked deal: the pass decision's own text says when (its only "If ..."
    sentence), and a house rule's number is said as a player would ("a target is set")."""
    alt = phase_diagram(resolve("vandatta").spec).alt
    assert "if every player passes in turn with no card played or drawn by anyone" in alt
    assert "a target is set" in alt and "the agreed number of deals has been played" in alt
    assert if_clause("Pass. If all pass, the deal ends. Then go on.") == "all pass"
    assert if_clause("If a, b. If c, d.") == ""  # which one, the text does not say
    assert truth("Связан ли игрок объявлением") == "игрок связан объявлением"
    assert truth("Есть ли у игрока число") == "у игрока есть число"
