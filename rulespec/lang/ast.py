"""Frozen AST nodes of a .rules spec. Every node carries a :class:`Span` that is ignored by
equality (``eq=False``), so two specs that differ only in layout compare equal."""

from __future__ import annotations

from attrs import field, frozen

from rulespec.lang.nodes import (
    DeckCard,
    DeckDecl,
    DeckEntry,
    DeckPack,
    DeckRank,
    DeckRun,
    DeckSuit,
    ParamValue,
    TypeEnum,
    TypeExpr,
    TypeList,
    TypeName,
    TypeOptional,
    ValueCall,
    ValueParam,
)
from rulespec.spans import NOSPAN, Span

__all__ = [
    "Alternative", "And", "BinOp", "Block", "Break", "Bury", "Call", "CallStmt", "CardLit",
    "Choose", "Cited", "Compare", "Comprehension", "Continue", "DealCards", "DealDecl",
    "DeckCard", "DeckDecl", "DeckEntry", "DeckPack", "DeckRank", "DeckRun", "DeckSuit",
    "DefDecl", "EndDeal", "EndMatch", "EnumDecl", "Expr", "Field", "Fill", "For", "GameDecl",
    "GameEndDecl",
    "GenCall", "Generator", "HandsDecl", "HookDecl", "If", "IfExpr", "ImportDecl", "Index",
    "IntLit", "Item", "Let", "ListLit", "Loop", "MatchDecl", "MaxEventsDecl", "Move", "Name",
    "Neg", "Not", "OptionArg", "OptionDecl", "Or", "Outcome", "Param", "ParamValue", "Pick",
    "PlayersDecl", "ProcDecl", "Repeat", "RequireDecl", "Reshuffle", "ResultDecl", "Return",
    "Reveal", "RunDeal", "ScoreRangeDecl", "Set", "Shuffle", "SitOut", "Span", "Spec", "Stmt",
    "StrLit", "TableCol", "TableDecl", "TeamsDecl", "TermDecl", "Told", "HintDecl", "TypeEnum",
    "TypeExpr",
    "TypeList", "TypeName", "TypeOptional", "ValueCall", "ValueParam", "VarDecl", "While",
    "WinnerDecl", "ZoneDecl",
]


def _span() -> Span:
    return field(default=NOSPAN, eq=False, repr=False, kw_only=True)


# ---- expressions ---------------------------------------------------------------------------

@frozen
class IntLit:
    value: int
    span: Span = _span()


@frozen
class StrLit:
    value: str
    span: Span = _span()


@frozen
class CardLit:
    """``'QS'``: a card written by its code in single quotes (the checker finds it in the
    spec's deck)."""

    code: str
    span: Span = _span()


@frozen
class Name:
    id: str
    span: Span = _span()


@frozen
class Call:
    func: str
    args: tuple[Expr, ...]
    span: Span = _span()


@frozen
class GenCall:
    """``f(elem for var in source if cond)``: any, all, sum, min, max, count over a sequence."""

    func: str
    elem: Expr
    var: str
    source: Expr
    cond: Expr | None
    span: Span = _span()


@frozen
class Comprehension:
    elem: Expr
    var: str
    source: Expr
    cond: Expr | None
    span: Span = _span()


@frozen
class Index:
    target: Expr
    index: Expr
    span: Span = _span()


@frozen
class ListLit:
    items: tuple[Expr, ...]
    span: Span = _span()


@frozen
class BinOp:
    op: str
    left: Expr
    right: Expr
    span: Span = _span()


@frozen
class Compare:
    op: str  # == != < <= > >= in, not in
    left: Expr
    right: Expr
    span: Span = _span()


@frozen
class And:
    left: Expr
    right: Expr
    span: Span = _span()


@frozen
class Or:
    left: Expr
    right: Expr
    span: Span = _span()


@frozen
class Not:
    operand: Expr
    span: Span = _span()


@frozen
class Neg:
    operand: Expr
    span: Span = _span()


@frozen
class IfExpr:
    cond: Expr
    then: Expr
    else_: Expr
    span: Span = _span()


@frozen
class Cited:
    """An expression carrying the ambiguity ID it settles, ``expr [VAN-13]``."""

    expr: Expr
    ref: str
    span: Span = _span()


@frozen
class OptionArg:
    """``OPTION.PARAM``: an argument of the value a parametric option takes at this table
    (``stake_mode.low`` when ``stake_mode`` is ``free(1,5)``)."""

    option: str
    param: str
    span: Span = _span()


Expr = (
    IntLit
    | StrLit
    | Name
    | Call
    | GenCall
    | Comprehension
    | Index
    | ListLit
    | BinOp
    | Compare
    | And
    | Or
    | Not
    | Neg
    | IfExpr
    | Cited
    | OptionArg
    | CardLit
)

# ---- statements ----------------------------------------------------------------------------

@frozen
class Block:
    stmts: tuple[Stmt, ...]
    span: Span = _span()


@frozen
class Let:
    name: str
    value: Expr
    span: Span = _span()


@frozen
class Set:
    name: str
    index: Expr | None
    value: Expr
    span: Span = _span()


@frozen
class If:
    cond: Expr
    then: Block
    else_: Block | If | None
    span: Span = _span()


@frozen
class While:
    cond: Expr
    body: Block
    span: Span = _span()


@frozen
class Loop:
    ref: str | None
    body: Block
    span: Span = _span()


@frozen
class For:
    var: str
    source: Expr
    cond: Expr | None
    body: Block
    span: Span = _span()


@frozen
class Repeat:
    count: Expr
    body: Block
    span: Span = _span()


@frozen
class Move:
    what: Expr
    src: Expr
    dst: Expr
    bottom: bool
    span: Span = _span()


@frozen
class Fill:
    zone: Expr
    cards: Expr
    span: Span = _span()


@frozen
class DealCards:
    """``deal N from Z to hand of SEATS``: one card at a time, round the seats, N rounds."""

    count: Expr
    src: Expr
    zone: str
    seats: Expr
    span: Span = _span()


@frozen
class Shuffle:
    zone: Expr
    span: Span = _span()


@frozen
class Reshuffle:
    src: Expr
    dst: Expr
    span: Span = _span()


@frozen
class Bury:
    src: Expr
    dst: Expr
    span: Span = _span()


@frozen
class Outcome:
    """One outcome of a weighted ``pick``: ``VALUE: WEIGHT``."""

    value: Expr
    weight: Expr
    span: Span = _span()


@frozen
class Pick:
    """``pick NAME from LIST`` (each element equally likely) or ``pick NAME from [V: W, ...]``
    (each value by its weight): a chance event that sets a variable, or binds a local, to
    the value picked."""

    name: str
    #: the list picked from, each element alike; None in the weighted form
    source: Expr | None
    #: the weighted form's outcomes, in the order written; () in the uniform form
    weighted: tuple[Outcome, ...]
    span: Span = _span()


@frozen
class CallStmt:
    name: str
    args: tuple[Expr, ...]
    ref: str | None
    span: Span = _span()


@frozen
class Field:
    name: str
    value: Expr
    span: Span = _span()


@frozen
class Generator:
    var: str
    source: Expr
    span: Span = _span()


@frozen
class Told:
    """``told "..."``: how a book's example says a move of the decision (rulespec.lang.told);
    its span is the string's, so that an error inside it points at its place."""

    text: str
    span: Span = _span()


@frozen
class Alternative:
    action: str
    fields: tuple[Field, ...]
    generators: tuple[Generator, ...]
    guard: Expr | None
    doc: str | None
    body: Block
    span: Span = _span()
    told: Told | None = None
    #: a rare case of the rule (``rare "TEXT"``), which a player's book tells apart
    rare: str | None = None


@frozen
class Choose:
    """``choose SEAT { ... }``, or, with ``together`` set, ``choose together NAME in SEATS
    { ... }``: a simultaneous decision, where ``seat`` is the list of seats that choose at
    once and ``together`` the name each seat is bound to in the alternatives."""

    seat: Expr
    alternatives: tuple[Alternative, ...]
    span: Span = _span()
    together: str | None = None


@frozen
class Break:
    span: Span = _span()


@frozen
class Continue:
    span: Span = _span()


@frozen
class Return:
    span: Span = _span()


@frozen
class EndDeal:
    flag: str | None
    scoring: str
    ref: str | None
    #: ``scoring DEF per team``: DEF takes a team, and each seat scores its team's score
    per_team: bool = False
    span: Span = _span()


@frozen
class EndMatch:
    winners: Expr
    #: ``end match winning teams EXPR``: EXPR lists teams, and their members win
    teams: bool = False
    span: Span = _span()


@frozen
class SitOut:
    """``sit out SEAT``: the seat takes no part in the rest of the deal (``sitting_out``)."""

    seat: Expr
    span: Span = _span()


@frozen
class Reveal:
    """``reveal ZONE`` or ``reveal ZONE[OWNER]``: the pile is seen by every player for the
    rest of the deal (a dummy's hand laid face up)."""

    zone: Expr
    span: Span = _span()


@frozen
class RunDeal:
    ref: str | None
    span: Span = _span()


@frozen
class Step:
    """``step "TITLE" ["TEXT"] [rare "TEXT"] { ... }``: a numbered step of a procedure, for the
    rulebook.

    It runs its body as a block runs (its own scope); the title and the player-facing text are
    what the book prints for the step, in place of the body said in plain English."""

    title: str
    doc: str | None
    body: Block
    span: Span = _span()
    #: a rare case of the step (``rare "TEXT"``), which a player's book tells apart
    rare: str | None = None


Stmt = (
    Let
    | Set
    | If
    | While
    | Loop
    | For
    | Repeat
    | Move
    | Fill
    | DealCards
    | Shuffle
    | Reshuffle
    | Bury
    | Pick
    | CallStmt
    | Choose
    | Break
    | Continue
    | Return
    | EndDeal
    | EndMatch
    | SitOut
    | Reveal
    | RunDeal
    | Step
)

# ---- declarations --------------------------------------------------------------------------

@frozen
class GameDecl:
    name: str
    title: str
    doc: str | None
    span: Span = _span()


@frozen
class PlayersDecl:
    min: int
    max: int
    span: Span = _span()


@frozen
class ScoreRangeDecl:
    """``score_range LOW..HIGH``: every seat's score in every deal lies in this range (the
    bounds of OpenSpiel's ``_GAME_INFO``), known once the options are."""

    low: Expr
    high: Expr
    doc: str | None
    span: Span = _span()


@frozen
class MaxEventsDecl:
    """``max_events N``: no deal has more than N events, chance events included (a game that
    is bounded says so; one that may reshuffle forever declares nothing)."""

    count: Expr
    doc: str | None
    span: Span = _span()


@frozen
class HandsDecl:
    """``hands EXPR``: how many hands are dealt when that differs from the players (a dummy)."""

    count: Expr
    doc: str | None
    span: Span = _span()


@frozen
class TeamsDecl:
    """``teams COUNT by DEF``: fixed partnerships; DEF, a definition of one seat, gives the
    seat's team, a number from 0 to COUNT - 1."""

    count: Expr
    by: str
    doc: str | None
    #: ``teams COUNT by DEF in play``: DEF reads the state, and a seat's team is DEF's value
    #: when asked (partnerships formed during play); without it, fixed for the table
    in_play: bool = False
    span: Span = _span()


@frozen
class GameEndDecl:
    """``game_end deals, target``: the spellings of a record's ``game_end`` this game accepts
    (R9): ``deals(k)`` sets option ``deals``; ``target(T)``, ``elimination(T)`` set ``target``."""

    forms: tuple[str, ...]
    doc: str | None
    span: Span = _span()


@frozen
class WinnerDecl:
    direction: str  # lowest | highest
    span: Span = _span()


@frozen
class ImportDecl:
    path: str
    span: Span = _span()


@frozen
class OptionDecl:
    """``option NAME: TYPE [in LO..HI] = DEFAULT [REF] ["TITLE"] ["DOC"]``: a house rule with its
    default; of two strings the first is the title (the rule's name), one string is the doc."""

    name: str
    type: TypeExpr
    #: a literal, or a value with its arguments (``ante(1)``)
    default: int | str | ValueCall
    ref: str | None
    doc: str | None
    #: ``int in LO..HI``: the values an integer option may take, both included
    bounds: tuple[int, int] | None = None
    #: the house rule's name in the players' words (``"Ace on Ace"``): the first of two strings
    title: str | None = None
    span: Span = _span()


@frozen
class EnumDecl:
    """``enum NAME: {VALUE [DOC], ...} [DOC]``: a named enumeration, a type whose values are
    the names listed (the checker refuses a number or a value with parameters)."""

    name: str
    values: TypeEnum
    doc: str | None
    span: Span = _span()


@frozen
class RequireDecl:
    cond: Expr
    message: str
    span: Span = _span()


@frozen
class ZoneDecl:
    name: str
    #: one pile per owner, used with an index: a seat, or a team with ``per_team``
    per_player: bool
    visibility: str | None  # all | owner | nobody
    doc: str | None
    #: who may count its cards (``, size visible to WHO``): all | owner | nobody; None when
    #: not said, which is all (every zone's size was public before it could be declared)
    size_visibility: str | None = None
    #: ``per team``: one pile per team (per_player is then True too: the zone is indexed)
    per_team: bool = False
    span: Span = _span()


@frozen
class VarDecl:
    name: str
    type: TypeExpr
    per_player: bool
    init: Expr
    doc: str | None
    span: Span = _span()


@frozen
class ResultDecl:
    """``result NAME: TYPE [per player] = INIT [DOC]``: a field of every deal's result, a
    variable that each ``run deal`` resets to ``INIT`` (per player: one value per real
    player)."""

    name: str
    type: TypeExpr
    per_player: bool
    init: Expr
    doc: str | None
    span: Span = _span()


@frozen
class Param:
    name: str
    type: TypeExpr | None
    span: Span = _span()


@frozen
class DefDecl:
    name: str
    params: tuple[Param, ...]
    body: Expr
    doc: str | None
    span: Span = _span()


@frozen
class HookDecl:
    """``hook NAME(PARAMS): TYPE [= DEFAULT] [DOC]``: in a module, a definition the importing
    spec supplies with a ``def`` of the same name; without it the default is used, and a hook
    without a default must be supplied."""

    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    default: Expr | None
    doc: str | None
    span: Span = _span()


@frozen
class ProcDecl:
    name: str
    params: tuple[Param, ...]
    ref: str | None
    doc: str | None
    body: Block
    span: Span = _span()


@frozen
class MatchDecl:
    ref: str | None
    doc: str | None
    body: Block
    span: Span = _span()


@frozen
class DealDecl:
    ref: str | None
    doc: str | None
    body: Block
    span: Span = _span()


@frozen
class TermDecl:
    """``term "WORD" "MEANING"``: a word of the game, for the rulebook's glossary."""

    word: str
    meaning: str
    span: Span = _span()


@frozen
class HintDecl:
    """``hint "TEXT"``: a word of advice for the player's book (it changes nothing in play)."""

    text: str
    span: Span = _span()


@frozen
class SectionDecl:
    """``section "TITLE" ["TEXT"]``: a heading of the spec. The declarations after it, up to
    the next section, are that section's in the rulebook's reference."""

    title: str
    doc: str | None
    span: Span = _span()


@frozen
class TableCol:
    """A column of a ``table``: its heading and the expression of each row's cell."""

    heading: str
    value: Expr
    span: Span = _span()


@frozen
class TableDecl:
    """``table NAME "TITLE" for VAR in LIST: "HEADING" = EXPR, ... [DOC]``: a table for the
    rulebook, one row for each value of VAR, its cells worked out from the rules at each table
    size (values known once the options are, as for ``max_events``)."""

    name: str
    title: str
    var: str
    source: Expr
    columns: tuple[TableCol, ...]
    doc: str | None
    span: Span = _span()


Item = (
    GameDecl
    | PlayersDecl
    | HandsDecl
    | TeamsDecl
    | ScoreRangeDecl
    | MaxEventsDecl
    | GameEndDecl
    | WinnerDecl
    | ImportDecl
    | OptionDecl
    | EnumDecl
    | RequireDecl
    | ZoneDecl
    | VarDecl
    | ResultDecl
    | DefDecl
    | HookDecl
    | ProcDecl
    | MatchDecl
    | DealDecl
    | TermDecl
    | HintDecl
    | TableDecl
    | SectionDecl
    | DeckDecl
)


@frozen
class Spec:
    """A parsed .rules file: its items in source order."""

    items: tuple[Item, ...]
    source_name: str = field(default="<spec>", eq=False)
