"""The house rules of a player's book (its Variations): each option some rule reads, told in
the players' words, its title in bold, its default first and each other way marked as a
variation; the setting a table makes and a number's bounds are the implementer's
reference's (issue 27)."""

from __future__ import annotations

from rulespec.book.document import Block, Bullets, Inline, Paragraph, Run, code, inline, strong
from rulespec.book.english import show
from rulespec.book.i18n import Words
from rulespec.book.reading import clause, prose
from rulespec.lang import ast, walk
from rulespec.lang.model import CheckedSpec, OptionInfo

__all__ = ["house_rules"]


def house_rules(spec: CheckedSpec, w: Words) -> list[Block]:
    """The blocks of a player's book's Variations: each option some rule reads, in the
    players' words (its title in bold, the default first), in the spec's order."""
    read = _reads(spec)
    out: list[Block] = []
    for o in [o for o in spec.options if o.name in read and o.doc]:
        # the rule in the players' words; the option's name and value only where a table sets
        # it, never as a heading nor as the name of a choice
        text = inline(prose(w.text(o.doc or "")))
        ways = _both_ways(o, w)
        if o.title and ways is not None:
            # a yes/no rule that says both ways: as an enumeration's, the default first
            # (round 8: "In the rules above; a house rule leaves it out. With this rule,
            # ..." read the wrong way round)
            lead, default, other = ways
            title = strong(w.text(o.title) + ".")
            out.append(Paragraph((title, *inline(" " + lead)) if lead else (title,),
                              clause(o.span)))
            # both ways, the default first: the other alone read backwards (round 43: "No
            # card is left over" under "Joker with three players" read as adding the Joker)
            items = [w.say("By default: {rule}.", rule=_after_colon(default.rstrip("."))),
                     _variation(other.rstrip("."), w)]
        elif o.title:
            out.append(Paragraph(_house_rule(o, text, w), clause(o.span)))
            items = _values(o, w) if o.kind == "enum" else []
        else:
            out.append(Paragraph(text, clause(o.span)))
            items = _values(o, w)
        if items:
            out.append(Bullets(tuple((i, None) for i in items)))
    return out


def _reads(spec: CheckedSpec) -> set[str]:
    """The options some rule reads (an option no rule reads changes nothing in play)."""
    names = set(spec.option_names)
    read: set[str] = set()
    for it in spec.items:
        if isinstance(it, ast.OptionDecl):
            continue
        read.update(x.id for x in walk.descendants(it)
                    if isinstance(x, ast.Name) and x.id in names)
    return read


def _both_ways(o: OptionInfo, w: Words) -> tuple[str, str, str] | None:
    """A yes/no option's text split where it says "With this rule, ..." and "Without this
    rule, ..." (the book's language's words for them, from its catalog): what comes before,
    then the default's way and the other, each from a capital letter; None for another
    text."""
    if o.kind != "bool":
        return None
    text = prose(w.text(o.doc or ""))
    on, off = w.word("With this rule, "), w.word("Without this rule, ")
    i, j = text.find(on), text.find(off)
    if i < 0 or j < 0:
        return None
    with_it = text[i + len(on):j if j > i else len(text)].strip()
    without = text[j + len(off):i if i > j else len(text)].strip()
    default, other = (with_it, without) if o.default is True else (without, with_it)
    return text[:min(i, j)].strip(), _cap(default), _cap(other)


def _cap(text: str) -> str:
    """``text`` from a capital letter (a script without capitals as it is)."""
    return text[:1].upper() + text[1:]


def _house_rule(o: OptionInfo, text: Inline, w: Words) -> Inline:
    """A titled option as a house rule: its name in bold, then for a yes/no rule whether it is
    played by default before what it does (a reader should not work out which way is the
    default from "With this rule, ... Without this rule, ..."), for a number what it does and
    then its default; an enumeration's values follow as a list."""
    head = strong(w.text(o.title or "") + ".")
    if o.kind == "bool":
        return (head, *inline(" "), *_values(o, w)[0], *inline(" "), *text)
    if o.kind == "int":
        return (head, *inline(" "), *text, *inline(" "), *_values(o, w)[0])
    return (head, *inline(" "), *text)


def _setting(o: OptionInfo, value: str) -> Run:
    """What a table sets to play a value of an option: ``turnup_eight = bottom``."""
    return code(f"{o.name} = {value}")


def _variation(rule: str, w: Words) -> Inline:
    """A way a house rule plays, other than the default, marked as such (rounds 41 to 43: a
    rule under a title read as the rule of the game; "Default: ... / Variation: ..." asked)."""
    return w.say("Variation: {rule}.", rule=_after_colon(rule))


def _values(o: OptionInfo, w: Words) -> list[Inline]:
    """An option's values for players: the default first, then each other value by its own words,
    marked as a variation. The setting that plays a value in software (``turnup_eight =
    bottom``) is the reference's; it is named here only for a value the spec gives no words. A
    number's range is the reference's too: a table agrees on a number, it does not look up a
    setting's bounds ("from 0 to 100000" reads like a program's, issue 27)."""
    if o.kind == "int" and o.default == 0:
        # a number whose default is 0 is one the rules above do without (an elimination
        # score; round 10: "The default is 0" read as everyone out at 0)
        return [w.say("By default there is none; the players may agree on a number.")]
    if o.kind == "int":
        return [w.say("The default is {default}; the players may agree on another number.",
                      default=w.digits(show(o.default)))]
    if o.kind == "bool":
        # where the default stands, in the book's own terms: a rule of the book's that a
        # table may leave out, or one it may add (round 7: "Played by default" read as an
        # optional extra among the house rules)
        return [w.say("In the rules above; a house rule leaves it out.") if o.default is True
                else w.say("Not in the rules above; a house rule adds it.")]
    default = str(o.default).split("(")[0]
    ordered = sorted(o.values, key=lambda v: str(v) != default)
    items: list[Inline] = []
    for v in ordered:
        text = o.value_doc(v)
        params = o.value_params(v) if o.kind == "enum" else ()
        value = f"{v}({', '.join(q.name for q in params)})" if params else show(v)
        said: Inline = inline(prose(w.text(text)).rstrip(".")) if text else (code(value),)
        if str(v) == default:
            # a default that takes numbers says them: ante(1) is "agreed: 1" after "an agreed
            # number of chips"; several by their names in words ("low 1, high 3")
            given = o.split(o.default)[1]
            args = (w.digits(show(next(iter(given.values())))) if len(given) == 1 else
                    w.marks(", ").join(f"{w.any(k.replace('_', ' '))} {w.digits(show(a))}"
                                       for k, a in given.items()))
            said = inline(_after_colon("".join(r.text for r in said))) \
                if all(r.kind == "text" for r in said) else said
            items.append(w.say("By default: {rule}; agreed: {args}.", rule=said, args=args)
                         if args else w.say("By default: {rule}.", rule=said))
        elif text:
            items.append(_variation("".join(r.text for r in said), w)
                         if all(r.kind == "text" for r in said) else (*said, *inline(".")))
        else:
            items.append(w.say("{rule} (a table sets {setting}).", rule=said,
                               setting=_setting(o, value)))
    return items


#: words that keep their capital after a colon: the cards' names, which the books capitalise
_CAPITALISED = frozenset({"Ace", "Aces", "King", "Kings", "Queen", "Queens", "Jack", "Jacks",
                          "Joker", "Jokers"})


def _after_colon(text: str) -> str:
    """A rule's text as it reads after "By default:", its first word in lower case unless a
    name or a single Latin letter ("one pack", not "One pack"; round 16's Russian reader; a
    Russian preposition of one letter is a word, round 30: «иначе: В игровой колоде»)."""
    first = text.split(" ", 1)[0]
    if first != "A" and (len(first) < 2 and first.isascii() or first in _CAPITALISED
                         or len(first) > 1 and not first[1:].islower()):
        return text  # "A" the article is a word; "D" the number is a name
    return text[:1].lower() + text[1:]
