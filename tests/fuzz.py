"""Fuzzing at scale (issues 10 and 23): generated and mutated inputs, each run in a guarded
worker.

Eleven kinds of input (:data:`KINDS`), each a Hypothesis strategy of :class:`Input`; the first
five:

- :func:`grammar_specs`: specs generated from the grammar with ``hypothesis.extra.lark``
  (whole files, and generated blocks put into a small spec that checks, so that more reach
  the checker and the interpreter);
- :func:`mutated_specs`: the shipped specs and ``tests/specs/ok`` with tokens deleted,
  duplicated, swapped or replaced, lines spliced in from another spec, numbers made huge,
  negative or zero, and bytes flipped (invalid UTF-8 included);
- :func:`mutated_records`: records written by ``simulate(..., records=DIR)``, their JSON
  mutated (fields dropped, values of the wrong type, events changed, huge numbers, deep
  nesting, broken text), replayed the way ``rulespec replay`` does;
- :func:`mutated_conversations`: protocol conversations made from those records, their lines
  mutated, fed to the ``serve`` loop;
- :func:`command_lines`: ``rulespec simulate`` and ``compile`` command lines with fuzzed table
  sizes and ``-o`` option values (huge, negative, malformed, text), run in process by click's
  ``CliRunner``: any exit but the documented ones, an internal error or a traceback fails.

and one for each class issue 23 found the first five missed (:data:`NEW_KINDS`, "The classes of
issue 23" below): :func:`filename_cases` (specs and modules under file names that hold line
breaks, quotes, code), :func:`linebreak_cases` (line breaks and markup in every string of a
spec, and its books), :func:`device_cases` (devices, FIFOs, folders and links as file
arguments), :func:`totals_cases` (large totals across many collections), :func:`number_cases`
(number growth through every operator; odd numbers in options, records, requests) and
:func:`chain_cases` (long chains of definitions and procedures, deep values in records and
answers).

Every input runs in a :class:`Worker`, a child process started with small limits
(``RULESPEC_MAX_WORK``, ``RULESPEC_MAX_COLLECTION``, a capped address space), exactly as the
command line would run it: a spec is checked and, when it checks, played (two short random
matches and a replay of the first). An exception that is not a ``RulespecError`` (where the
command line would print ``internal error``), a worker that dies, or one that runs past
:data:`TIMEOUT_S` is a failure; the failing input is written to :data:`FAILURES` so that it can
be kept as a case of ``tests/hostile/``.

``python -m tests.fuzz --kind spec --examples 2000`` runs a campaign outside pytest and prints
its rate (``--seed-range A:B`` runs a part of it: :func:`plan`); ``python -m tests.fuzz --reduce
FILE --kind spec`` cuts a failing input down line by line (:func:`reduce_lines`).
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import functools
import hashlib
import io
import json
import os
import pickle
import random
import re
import resource
import select
import shlex
import signal
import struct
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

from tests.alarm import alarm

ROOT = Path(__file__).resolve().parent.parent
#: the specs that mutations start from (they all check)
SEED_SPECS: tuple[Path, ...] = tuple(
    p for p in sorted((ROOT / "rulespec" / "games").glob("*.rules"))
    + sorted((ROOT / "tests" / "specs" / "ok").glob("*.rules")) + sorted(
        (ROOT / "examples").glob("*.rules")))
#: where a failing input is written (one file per input, named by its hash)
FAILURES = ROOT / "build" / "fuzz-failures"

#: the limits the worker runs under: small, so that an endless rule stops in well under a second
MAX_WORK = 50_000
MAX_COLLECTION = 100_000
#: the events one fuzzed match may take before the simulation gives up on it
MAX_EVENTS = 300
#: the largest table a fuzzed spec is played at (a spec may allow 1,000 players)
MAX_TABLE = 8
#: seconds one input may take before it counts as a hang
TIMEOUT_S = 10.0
#: the address space of a worker: an input that needs more has exhausted memory
MEMORY_BYTES = 3 * 1024**3
#: the peak resident memory a worker may reach over a whole campaign (issue 10's target)
PEAK_RSS_BYTES = 1024**3
#: the events of a record kept in a protocol conversation
CONVERSATION_EVENTS = 40

#: the kinds of input of issue 10's fuzzer
FIRST_KINDS = ("grammar", "spec", "record", "serve", "cli")
#: the classes issue 23 found it missed, one kind each (see "The classes of issue 23" below)
NEW_KINDS = ("filenames", "linebreaks", "devices", "totals", "numbers", "chains")
KINDS = FIRST_KINDS + NEW_KINDS


@attrs.frozen
class Input:
    """One fuzzed input: ``kind`` names the runner (:data:`RUNNERS`): ``spec`` (the bytes of a
    .rules file), ``record`` (the bytes of a record file), ``serve`` (the bytes sent to
    ``rulespec serve``), ``cli`` (a command line as a JSON list), or one of the runners of the
    classes of issue 23, whose inputs are JSON objects; ``base`` is the folder, under the seeds
    folder, a record or a conversation is read in; ``label`` is the kind of campaign
    (:data:`KINDS`) the input comes from, where that is not ``kind``."""

    kind: str
    data: bytes
    base: str = ""
    how: str = ""
    label: str = ""

    def __repr__(self) -> str:
        shown = self.data if len(self.data) <= 600 else self.data[:300] + b" ... " + \
            self.data[-200:]
        label = f"label={self.label!r}, " if self.label else ""
        return (f"Input(kind={self.kind!r}, {label}how={self.how!r}, {len(self.data)} bytes: "
                f"{shown!r})")

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # Hypothesis's printer shows an attrs class field by field (the bytes whole) unless
        # it has this
        p.text(repr(self))


@attrs.frozen
class Outcome:
    """What a worker made of an input: ``failure`` is None when rulespec behaved; ``stage`` says
    how far the input went (``syntax``, ``check``, ``played``, ``replayed``, ...)."""

    failure: str | None
    stage: str = ""
    seconds: float = 0.0
    #: the worker's peak resident memory so far, in bytes (the worker is reused, so this is the
    #: peak over every input it has run since it started)
    peak_rss: int = 0


# ---- tokens and mutations of text ---------------------------------------------------------
_TOKEN = re.compile(r'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\[[A-Z]+-?[0-9]+\]'
                    r"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|==|!=|<=|>=|//|\.\.|\S")
_NUMBER = re.compile(r"(?<![A-Za-z0-9_])[0-9]+")
#: numbers a mutation puts in place of one of the spec's
NUMBERS = ("0", "1", "-1", "2", "3", "-0", "52", "100", "999", "1001", "65536", "1000000",
           "2147483648", "9223372036854775808", "1" + "0" * 30, "-" + "9" * 30, "9" * 400,
           "1" + "0" * 3999, "1" + "0" * 4000)
#: byte strings a mutation inserts: invalid UTF-8, a BOM, a NUL, control characters, odd text
BYTES = (b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00", b"\r",
         b"\x0b", b"\t", b"\xe2\x80\xae", b"\xf0\x9f\x82\xa1", b'"', b'"""', b"{", b"}",
         b"(", b"[", b"\\", b"#", b"\n", b"\xc2\xa0")


def tokens(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each token of a spec's text, roughly as the grammar lexes it."""
    return [m.span() for m in _TOKEN.finditer(text)]


@functools.cache
def _seed_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def _seed_tokens(path: Path) -> tuple[str, ...]:
    text = _seed_text(path)
    return tuple(text[a:b] for a, b in tokens(text))


@functools.cache
def known_names() -> tuple[str, ...]:
    """Every name the seed specs use (zones, variables, built-ins, options), keywords apart."""
    names: set[str] = set()
    for p in SEED_SPECS:
        names.update(t for t in _seed_tokens(p) if re.fullmatch(r"[A-Za-z_]\w*", t))
    return tuple(sorted(names - set(keywords())))


@functools.cache
def keywords() -> tuple[str, ...]:
    """The grammar's keywords."""
    return tuple(sorted(v for v in _grammar_literals().values() if v.isalpha()))


@functools.cache
def _grammar_literals() -> dict[str, str]:
    return {t.name: t.pattern.value for t in _lark().terminals if t.pattern.type == "str"}


@functools.cache
def _lark() -> Any:
    import lark

    from rulespec.lang.text import grammar_text

    return lark.Lark(grammar_text(), parser="lalr")


#: a mutation: an operation number and three numbers the operation reads as it likes
Mutation = tuple[int, int, int, int]
TEXT_OPS = ("delete", "duplicate", "swap", "replace", "splice", "number", "keyword", "bytes",
            "flip", "truncate", "delete_line", "duplicate_line")


def mutate_spec(text: str, mutations: Sequence[Mutation], others: Sequence[str]) -> bytes:
    """``text`` after each mutation in turn (see :data:`TEXT_OPS`); ``others`` are the texts a
    splice takes lines from. Byte-level mutations make bytes that need not be UTF-8."""
    data = text.encode("utf-8")
    for op, a, b, c in mutations:
        name = TEXT_OPS[op % len(TEXT_OPS)]
        if name in ("bytes", "flip", "truncate"):
            data = _mutate_bytes(name, data, a, b, c)
            continue
        s = data.decode("utf-8", "surrogateescape")
        s = _mutate_text(name, s, a, b, c, others)
        data = s.encode("utf-8", "surrogateescape")
    return data


def _mutate_bytes(name: str, data: bytes, a: int, b: int, c: int) -> bytes:
    i = a % (len(data) + 1)
    if name == "bytes":
        return data[:i] + BYTES[b % len(BYTES)] + data[i:]
    if name == "flip" and data:
        i %= len(data)
        return data[:i] + bytes([data[i] ^ (1 << (b % 8))]) + data[i + 1:]
    return data[:i]


def _mutate_text(name: str, s: str, a: int, b: int, c: int, others: Sequence[str]) -> str:
    toks = tokens(s)
    if name in ("delete_line", "duplicate_line", "splice"):
        lines = s.split("\n")
        i = a % (len(lines) + 1)
        if name == "delete_line":
            return "\n".join(lines[:i] + lines[i + 1:])
        if name == "duplicate_line":
            return "\n".join(lines[:i + 1] + lines[i:])
        other = others[b % len(others)].split("\n") if others else lines
        j = c % len(other)
        k = 1 + (c // 7) % 8
        return "\n".join(lines[:i] + other[j:j + k] + lines[i:])
    if not toks:
        return s
    x0, x1 = toks[a % len(toks)]
    if name == "delete":
        return s[:x0] + s[x1:]
    if name == "duplicate":
        return s[:x1] + " " + s[x0:x1] + s[x1:]
    if name == "swap":
        y0, y1 = toks[b % len(toks)]
        if (y0, y1) == (x0, x1):
            return s
        (p0, p1), (q0, q1) = sorted([(x0, x1), (y0, y1)])
        return s[:p0] + s[q0:q1] + s[p1:q0] + s[p0:p1] + s[q1:]
    if name == "replace":
        # a token of the spec itself in place of another: names of the wrong kind, operators
        # in odd places, strings where numbers go
        y0, y1 = toks[b % len(toks)]
        return s[:x0] + s[y0:y1] + s[x1:]
    if name == "keyword":
        words = keywords() + known_names()
        return s[:x0] + words[b % len(words)] + s[x1:]
    assert name == "number"
    nums = list(_NUMBER.finditer(s))
    if not nums:
        return s
    m = nums[a % len(nums)]
    return s[:m.start()] + NUMBERS[b % len(NUMBERS)] + s[m.end():]


# ---- mutations of JSON --------------------------------------------------------------------
#: values a mutation puts in place of another: every JSON type, odd numbers, odd strings
ODD_VALUES: tuple[object, ...] = (
    None, True, False, 0, -1, 1, 2, 3, 1000, 2**31, 2**63, -(2**63), 10**30, -(10**30), 1.5,
    -0.0, 1e308, float("inf"), float("nan"), "", "x", "0", "chance", "shuffle", "vandatta",
    "\u2660", "\ud800", "\x00", "a" * 10_000, [], {}, [0], [None], {"": None},
    {"chance": "shuffle"}, {"action": "play"}, ["x"] * 1000)
JSON_OPS = ("drop", "retype", "huge", "nest", "duplicate", "swap", "rename", "extra",
            "splice", "truncate_list", "header", "text_bytes", "text_truncate", "text_flip")
#: keys of a record's header (records.md), for the ``header`` mutation
HEADER_KEYS = ("format", "game", "players", "options", "dealer", "events")
_NEST = "\x00NEST:"


def _paths(value: object, limit: int = 20_000) -> list[tuple[object, ...]]:
    """The paths of ``value``'s nodes in pre-order (at most ``limit``)."""
    out: list[tuple[object, ...]] = []
    stack: list[tuple[tuple[object, ...], object]] = [((), value)]
    while stack and len(out) < limit:
        path, v = stack.pop()
        out.append(path)
        if isinstance(v, dict):
            stack.extend((path + (k,), v[k]) for k in reversed(list(v)))
        elif isinstance(v, list):
            stack.extend((path + (i,), v[i]) for i in reversed(range(len(v))))
    return out


def _get(value: object, path: tuple[object, ...]) -> object:
    for k in path:
        value = value[k]  # type: ignore[index]
    return value


def _copy(value: object) -> Any:
    return json.loads(json.dumps(value))


def mutate_json(value: object, mutations: Sequence[Mutation],
                others: Sequence[object] = ()) -> bytes:
    """The JSON text of ``value`` after each mutation (see :data:`JSON_OPS`); ``others`` are
    values a splice takes a node from. Text mutations (the ``text_`` ones) work on the bytes
    of what the mutations before them made."""
    v = _copy(value)
    text_ops: list[Mutation] = []
    for m in mutations:
        name = JSON_OPS[m[0] % len(JSON_OPS)]
        if name.startswith("text_"):
            text_ops.append(m)
        else:
            v = _mutate_value(name, v, m[1], m[2], m[3], others)
    data = _dumps(v)
    for op, a, b, c in text_ops:
        name = JSON_OPS[op % len(JSON_OPS)]
        data = _mutate_bytes({"text_bytes": "bytes", "text_flip": "flip"}.get(
            name, "truncate"), data, a, b, c)
    return data


def _dumps(value: object) -> bytes:
    text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    # a deep nesting is written as text: json.dumps itself would recurse too deep
    text = re.sub(r'"\\u0000NEST:(\d+)"',
                  lambda m: "[" * int(m.group(1)) + "0" + "]" * int(m.group(1)), text)
    return text.encode("utf-8", "surrogatepass")


def _mutate_value(name: str, v: Any, a: int, b: int, c: int, others: Sequence[object]) -> Any:
    if name == "header":
        if not isinstance(v, dict):
            return v
        field = HEADER_KEYS[a % len(HEADER_KEYS)]
        if c % 3 == 0:
            v.pop(field, None)
        else:
            v[field] = _copy_odd(ODD_VALUES[b % len(ODD_VALUES)])
        return v
    paths = _paths(v)
    path = paths[a % len(paths)]
    if name == "splice" and others:
        src = others[b % len(others)]
        src_paths = _paths(src)
        new = _copy(_get(src, src_paths[c % len(src_paths)]))
        return _put(v, path, new)
    if name == "retype":
        return _put(v, path, _copy_odd(ODD_VALUES[b % len(ODD_VALUES)]))
    if name == "huge":
        sizes = (2**31, 2**63, 10**18, 10**30, 10**300, -(10**30), 10**4000, -1, 0)
        return _put(v, path, sizes[b % len(sizes)])
    if name == "nest":
        depths = (2, 10, 99, 101, 1000, 5000, 100_000)
        return _put(v, path, f"{_NEST}{depths[b % len(depths)]}")
    if not path:
        return v
    parent = _get(v, path[:-1])
    key = path[-1]
    if name == "drop":
        del parent[key]  # type: ignore[attr-defined]
    elif name == "duplicate" and isinstance(parent, list):
        parent.insert(int(key), _copy(parent[int(key)]))  # type: ignore[call-overload]
    elif name == "swap" and isinstance(parent, list) and parent:
        i, j = int(key), b % len(parent)  # type: ignore[call-overload]
        parent[i], parent[j] = parent[j], parent[i]
    elif name == "rename" and isinstance(parent, dict):
        keys = (*HEADER_KEYS, "seat", "action", "chance", "cards", "x", "", "op", "event")
        parent[keys[b % len(keys)]] = parent.pop(key)
    elif name == "extra" and isinstance(parent, dict):
        parent[("x", "seat", "cards", "position", "op")[b % 5]] = \
            _copy_odd(ODD_VALUES[c % len(ODD_VALUES)])
    elif name == "truncate_list" and isinstance(parent, list):
        del parent[int(key):]  # type: ignore[call-overload]
    return v


def _copy_odd(x: object) -> object:
    return list(x) if isinstance(x, list) else dict(x) if isinstance(x, dict) else x


def _put(v: Any, path: tuple[object, ...], new: object) -> Any:
    if not path:
        return new
    parent = _get(v, path[:-1])
    parent[path[-1]] = new  # type: ignore[index]
    return v


# ---- seeds: records written by simulate, conversations made from them --------------------
@attrs.frozen(eq=False, repr=False)  # hashed by identity: strategies are cached per Seeds
class Seeds:
    """Records written by ``simulate(..., records=DIR)`` for every seed spec, and the folder
    they are in (each spec's records in a subfolder of its own)."""

    folder: Path
    #: (subfolder, record) for every record
    records: tuple[tuple[str, dict[str, Any]], ...]

    def __repr__(self) -> str:
        # short: Hypothesis shows a failing test's arguments, a fixture's included, and warns
        # (an error, in the suite) at a repr of tens of kB
        return f"Seeds({str(self.folder)!r}, {len(self.records)} records)"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        # Hypothesis's printer shows an attrs class field by field, unless it has this
        p.text(repr(self))


def write_seeds(folder: Path, games: int = 2) -> Seeds:
    """Play ``games`` random matches of each seed spec at its smallest and largest table (up
    to :data:`MAX_TABLE`) with ``simulate``, keeping them as records under ``folder``."""
    from rulespec.errors import RulespecError
    from rulespec.lang.checker import check_file
    from rulespec.simulate import simulate

    recs: list[tuple[str, dict[str, Any]]] = []
    for path in SEED_SPECS:
        try:
            spec = check_file(path)
        except RulespecError:
            continue  # a module (tricks.rules) declares no game
        shipped = path.parent == ROOT / "rulespec" / "games"
        game = path.stem.replace("_", "-") if shipped else str(path)
        for players in sorted({spec.min_players, min(spec.max_players, MAX_TABLE)}):
            sub = f"{path.stem}-{players}"
            out = folder / sub
            try:
                simulate(game, players, games, seed=players, records=out,
                         max_events=20_000)
            except RulespecError:
                continue
            for rec in sorted(out.glob("game-*.json")):
                recs.append((sub, json.loads(rec.read_text(encoding="utf-8"))))
    return Seeds(folder, tuple(recs))


def conversation(record: dict[str, Any], events: int = CONVERSATION_EVENTS) -> list[str]:
    """The protocol lines that play a record's first ``events`` events, asking at every step
    what ``verify`` asks, then for the result and an observation."""
    lines = [json.dumps({"op": "new", "game": record["game"], "players": record["players"],
                         "options": record.get("options", {}),
                         "dealer": record.get("dealer", 0)})]
    for ev in record["events"][:events]:
        lines += ['{"op": "to_move"}', '{"op": "legal"}', json.dumps({"op": "apply",
                                                                      "event": ev})]
    lines += ['{"op": "result"}', '{"op": "observe", "seat": 0}', '{"op": "to_move"}']
    return lines


# ---- strategies ---------------------------------------------------------------------------
def _mutations(n: int) -> st.SearchStrategy[list[Mutation]]:
    num = st.integers(0, 2**20)
    return st.lists(st.tuples(st.integers(0, 63), num, num, num), min_size=1, max_size=n)


@functools.cache
def _terminals() -> dict[str, st.SearchStrategy[str]]:
    """A strategy for each terminal of the grammar, each token followed by white space (from_lark
    puts none between tokens, and ``letx`` is a name, not ``let x``)."""
    space = st.sampled_from([" ", " ", " ", "\n", "\n  ", "\t"])
    names = known_names()
    ok_name = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True).filter(
        lambda s: s not in keywords())
    strategies: dict[str, st.SearchStrategy[str]] = {
        "NAME": st.one_of(st.sampled_from(names), st.sampled_from(names), ok_name),
        "INT": st.one_of(st.integers(0, 13).map(str), st.sampled_from(NUMBERS[:-1]).filter(
            lambda s: not s.startswith("-"))),
        "STRING": st.sampled_from(['"s"', '""', '"A card."', '"""Long\ntext."""', '"\\n"',
                                   '"\u2660"']),
        "COMMENT": st.just("# c\n"),
        "WS": st.sampled_from([" ", "\n"]),
        "REF": st.sampled_from(["[VAN-1]", "[R2]"]),
        "AT_BOTTOM": st.just("at bottom"),
        "WINNER_DIR": st.sampled_from(["highest", "lowest"]),
        "VIS_WHO": st.sampled_from(["all", "owner", "nobody"]),
        "COMP_OP": st.sampled_from(["==", "!=", "<=", ">=", "<", ">"]),
        "ADD_OP": st.sampled_from(["+", "-"]),
        "MUL_OP": st.sampled_from(["*", "//", "%"]),
    }
    for name, value in _grammar_literals().items():
        strategies[name] = st.just(value)
    return {k: st.tuples(s, space).map("".join) for k, s in strategies.items()}


#: a small spec that checks, with places for an expression and a generated block
TEMPLATE = '''game fuzz title "Fuzz"
players 2 to 4
winner highest total
option bonus: int in 0..5 = 1
zone stock: shared visible to nobody
zone pile: shared visible to all
zone hand: per player visible to owner
var tally: int = 0
var marks: int per player = 0
def value(p: int) = {expr}
def score(p: int) = rank(first(hand[p])) + marks[p]
procedure extra(p: int) {block}
deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill pile with []
  fill stock with pack(1)
  shuffle stock
  deal 2 from stock to hand of seats_from(left_of(dealer))
  extra(dealer)
  set tally = value(dealer)
  choose left_of(dealer) {{
    play(card = c) for c in hand[left_of(dealer)] "Play a card." {{
      move c from hand[left_of(dealer)] to pile
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)]
}}
'''


@functools.cache
def grammar_specs() -> st.SearchStrategy[Input]:
    """Specs from the grammar: whole files, and generated blocks in :data:`TEMPLATE` (those
    reach the checker, and some the interpreter)."""
    from hypothesis.extra.lark import from_lark

    def gen(start: str) -> st.SearchStrategy[str]:
        # from_lark refuses a strategy for a terminal the start symbol cannot reach
        terminals, rules, ignored = _lark().grammar.compile([start], ())
        used = {s.name for r in rules for s in r.expansion if s.is_term} | set(ignored)
        explicit = {k: v for k, v in _terminals().items() if k in used}
        return from_lark(_lark(), start=start, explicit=explicit)

    whole = gen("start").map(lambda s: Input("spec", s.encode("utf-8"), how="from_lark"))
    # a generated block in the template (an expression alone is no start symbol to generate
    # from: from_lark takes seconds over each, most of its derivations growing too deep)
    filled = gen("block").map(lambda b: Input("spec", TEMPLATE.format(
        expr="p + bonus", block=b).encode("utf-8"), how="template"))
    # the template first: a whole generated file almost never checks (no game, no players)
    return st.one_of(filled, filled, whole)


def mutated_specs() -> st.SearchStrategy[Input]:
    """The seed specs, each with one to four mutations (:data:`TEXT_OPS`)."""
    texts = [_seed_text(p) for p in SEED_SPECS]

    def make(i: int, muts: list[Mutation]) -> Input:
        path = SEED_SPECS[i]
        return Input("spec", mutate_spec(texts[i], muts, texts),
                     how=f"{path.name} {muts}")

    return st.builds(make, st.integers(0, len(SEED_SPECS) - 1), _mutations(4))


def mutated_records(seeds: Seeds) -> st.SearchStrategy[Input]:
    """The seed records, each with one to four mutations (:data:`JSON_OPS`)."""
    others = [r for _, r in seeds.records]

    def make(i: int, muts: list[Mutation]) -> Input:
        sub, rec = seeds.records[i]
        return Input("record", mutate_json(rec, muts, others[:8]), sub, how=f"{sub} {muts}")

    return st.builds(make, st.integers(0, len(seeds.records) - 1), _mutations(4))


LINE_OPS = ("json", "json", "json", "drop", "duplicate", "swap", "bytes", "flip", "truncate",
            "blank", "op")
OPS = ("new", "to_move", "legal", "apply", "result", "observe", "quit", "", "NEW", None, 1)


def mutate_conversation(lines: Sequence[str], mutations: Sequence[Mutation],
                        others: Sequence[object] = ()) -> bytes:
    """A conversation's bytes after each mutation of one of its lines (:data:`LINE_OPS`)."""
    out: list[bytes] = [line.encode("utf-8") for line in lines]
    for op, a, b, c in mutations:
        name = LINE_OPS[op % len(LINE_OPS)]
        i = a % len(out) if out else 0
        if not out:
            out = [b"{}"]
        if name == "json":
            try:
                value = json.loads(out[i])
            except (ValueError, RecursionError):  # a line an earlier mutation broke
                continue
            out[i] = mutate_json(value, [(b, c, c // 3, c // 5)], others)
        elif name == "drop":
            del out[i]
        elif name == "duplicate":
            out.insert(i, out[i])
        elif name == "swap":
            j = b % len(out)
            out[i], out[j] = out[j], out[i]
        elif name == "blank":
            out.insert(i, (b"", b" ", b"\t", b"\r")[b % 4])
        elif name == "op":
            try:
                value = json.loads(out[i])
            except (ValueError, RecursionError):  # a line an earlier mutation broke
                continue
            if isinstance(value, dict):
                value["op"] = OPS[b % len(OPS)]
                out[i] = json.dumps(value).encode("utf-8")
        else:
            out[i] = _mutate_bytes(name, out[i], b, c, 0)
    return b"\n".join(out) + b"\n"


def mutated_conversations(seeds: Seeds) -> st.SearchStrategy[Input]:
    """Conversations of the seed records, each with one to four line mutations."""
    others = [r for _, r in seeds.records][:8]

    def make(i: int, muts: list[Mutation]) -> Input:
        sub, rec = seeds.records[i]
        return Input("serve", mutate_conversation(conversation(rec), muts, others), sub,
                     how=f"{sub} {muts}")

    return st.builds(make, st.integers(0, len(seeds.records) - 1), _mutations(4))


@functools.cache
def _game_options() -> dict[str, dict[str, tuple[str, ...]]]:
    """Each shipped game's options and the values its spec names for each (numbers for an
    integer option, ``name(args)`` for a parametric value)."""
    from rulespec.loading import resolve, shipped_games
    from rulespec.verify.schedule import option_values

    out: dict[str, dict[str, tuple[str, ...]]] = {}
    # every shipped game a seed record may name, the classic games' included (a record of
    # crazy-eights names its game, not a file beside it)
    for game in dict.fromkeys([*GAMES, *shipped_games()]):
        values = option_values(resolve(game).spec)
        out[game] = {name: tuple(str(v).lower() if isinstance(v, bool) else str(v)
                                 for v in vs) for name, vs in values.items()}
    return out


#: the events a fuzzed ``simulate`` line may play a match (``--max-events``)
CLI_MAX_EVENTS = 20_000
#: the games a fuzzed command line names (and names mangled, and a spec path)
GAMES = ("vandatta", "abracadabra", "abracadabra-newton")
#: what a fuzzed command line's numbers and option values are drawn from, besides the spec's
_ODD_VALUES = ("", "=", "-", "0", "-1", "1", "2", "3", "-5", "1.5", "1e3", "0x10", "true",
               "none", "auto", "10**30", "200000000", "1000000", "9" * 400, "1" + "0" * 4000,
               "a" * 10_000, "x(1)", "x(", "x(1,2,3)", "(1)", "add_per_card(99999999999)",
               "add_per_card(-3)", "free(0,0)", "free(5,1)", "multiply_per_card(10**9)",
               "é", "\u0000", "\x00", "$(ls)", "; rm -rf /", "{}", "[1]", "\"", "\n")


def _argv(game: str, sub: str, players: str, opts: list[tuple[str, str]], extra: list[str],
          mangle: int) -> list[str]:
    names = {0: game, 1: game.upper(), 2: game + "x", 3: "tests/specs/ok/minimal.rules",
             4: "../" + game, 5: ""}
    argv = [sub, names.get(mangle, game), "-p", players]
    for name, value in opts:
        argv += ["-o", f"{name}={value}" if name != "#bare" else value]
    if sub == "simulate":
        # a match as long as the line asks (``-o deals=200000000``) stops at the limit with
        # a usage error: the default limit (a million events) is 20 to 150 s of play, past
        # the worker's TIMEOUT_S, so the fuzzer sets a small one, as it does for the others
        argv += ["-n", extra[0] if extra else "1", "--seed", "1",
                 "--max-events", str(CLI_MAX_EVENTS)]
    return argv + extra[1:]


def command_lines() -> st.SearchStrategy[Input]:
    """``rulespec simulate|compile`` command lines with a shipped game (or a name mangled),
    a table size and ``-o`` options: real names with their values, values mutated (huge,
    negative, malformed parametric values, text), names mutated, an option given twice; run
    in process by click's CliRunner, as a user's shell would run them."""
    def make(game: str, sub: str, players: str, picks: list[tuple[int, int, str]],
             extra: list[str], mangle: int) -> Input:
        opts_of = _game_options()[game]
        names = sorted(opts_of)
        opts = []
        for which, how, odd in picks:
            name = names[which % len(names)] if names else "x"
            values = opts_of.get(name, ("",))
            # mostly the spec's own names and values, so that most lines run a table
            real = values[how % len(values)]
            value = {3: odd, 4: real + odd, 5: odd + real}.get(how % 6, real)
            name = {6: name.upper(), 7: name + "_", 8: "#bare"}.get(which % 9, name)
            opts.append((name, value))
        argv = _argv(game, sub, players, opts, extra, mangle)
        return Input("cli", json.dumps(argv).encode("utf-8"), how=" ".join(argv)[:200])

    odd = st.sampled_from(_ODD_VALUES)
    return st.builds(
        make, st.sampled_from(GAMES), st.sampled_from(["simulate", "simulate", "compile"]),
        st.one_of(st.sampled_from(["2", "3", "4", "5"] * 3), odd),
        st.lists(st.tuples(st.integers(0, 2**16), st.integers(0, 2**16), odd), max_size=4),
        st.one_of(st.just([]), st.lists(st.sampled_from(
            ["1", "2", "0", "-5", "x", "--json", "--workers", "0", "1", "-5", "--records",
             "/proc/x", "--out", "/dev/full"]), max_size=3)),
        st.integers(0, 12))


@functools.cache
def strategy(kind: str, seeds: Seeds) -> st.SearchStrategy[Input]:
    """The strategy of one kind of input (:data:`KINDS`)."""
    if kind == "grammar":
        return grammar_specs()
    if kind == "spec":
        return mutated_specs()
    if kind == "record":
        return mutated_records(seeds)
    if kind == "cli":
        return command_lines()
    if kind == "serve":
        return mutated_conversations(seeds)
    new: dict[str, Callable[[], st.SearchStrategy[Input]]] = {
        "filenames": filename_cases, "linebreaks": linebreak_cases, "devices": device_cases,
        "totals": totals_cases, "numbers": lambda: number_cases(seeds),
        "chains": lambda: chain_cases(seeds)}
    return new[kind]()


# ---- the worker: the child process that runs inputs ---------------------------------------
class _Failure(Exception):
    """rulespec did something the contract forbids (an exception of its own making)."""


def _unexpected(e: BaseException) -> str:
    return "".join(traceback.format_exception(e)).rstrip()


def _run_spec(data: bytes, folder: Path) -> str:
    """Check a spec the way ``rulespec check`` does and, when it checks, play it the way
    ``rulespec simulate`` does; the stage it reached."""
    from rulespec.errors import (
        IllegalActionError,
        RecordError,
        RuleRuntimeError,
        RulespecError,
        SpecCheckError,
        SpecSyntaxError,
    )
    from rulespec.lang.checker import check_file
    from rulespec.loading import game_for
    from rulespec.simulate import play_random_game

    path = folder / "fuzz.rules"
    path.write_bytes(data)
    try:
        spec = check_file(path)
    except (SpecSyntaxError, SpecCheckError) as e:
        e.render()  # what the command line prints
        return "syntax" if isinstance(e, SpecSyntaxError) else "check"
    # what `rulespec check` prints of a spec that checks
    ", ".join(spec.action_names())
    ", ".join(f"{o.name}={o.default}" for o in spec.options)
    text = data.decode("utf-8")
    stage = "checked"
    low, high = spec.min_players, min(spec.max_players, spec.min_players + MAX_TABLE)
    # one table, drawn from the input (the smallest or the largest, or one between), and two
    # short matches at it: compiling a table costs more than playing 300 events. A spec that
    # starts with the header of a hostile case (``# expect players: N``) is played at N, the
    # spec's range allowing
    asked = re.match(rb"# expect players: ([0-9]{1,6})\r?\n", data)
    table = min(max(int(asked.group(1)), spec.min_players), spec.max_players) if asked else \
        random.Random(data).choice([low, high, *range(low, max(low, high) + 1)])
    for k in range(2):
        try:
            g = game_for(spec, table, spec.canonical_options({}), 0)
            state = g.new_initial_state(k % table if table > 0 else None)
            _, played = play_random_game(state, random.Random(k), keep_events=k == 0,
                                         max_events=MAX_EVENTS)
            # the events played, sent through JSON and applied again to a fresh state, as
            # `rulespec replay` applies a record's: the engine takes back what it listed
            again = g.new_initial_state()
            for i, ev in enumerate(json.loads(json.dumps(played))):
                try:
                    again.apply(ev)
                except (IllegalActionError, RecordError) as e:
                    raise _Failure(f"event {i} of a random match, which the engine listed "
                                   f"and applied, is refused on replay: {e}; event {ev!r}"
                                   ) from None
            json.dumps(again.result(), ensure_ascii=False).encode("utf-8")
            stage = "played"
        except RuleRuntimeError as e:
            e.render(text)
            stage = "runtime error"
        except RulespecError as e:
            str(e)
            stage = "refused" if stage == "checked" else stage
    return stage


def _run_record(data: bytes, base: Path) -> str:
    """Replay a record file the way ``rulespec replay`` does; the stage it reached."""
    from rulespec.errors import RuleRuntimeError, RulespecError, SpecCheckError, SpecSyntaxError
    from rulespec.records import replay

    try:
        record = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return "not json"
    try:
        code, answer = replay(record, base)
    except (SpecSyntaxError, SpecCheckError) as e:
        e.render()
        return "spec error"
    except RuleRuntimeError as e:
        e.render()
        return "runtime error"
    except RulespecError as e:
        str(e)
        return "refused"
    json.dumps(answer, ensure_ascii=False).encode("utf-8")  # what replay prints
    return f"exit {code}"


def _run_serve(data: bytes, base: Path) -> str:
    """Feed bytes to the ``serve`` loop as ``rulespec serve`` reads its standard input; every
    answer must be one JSON object on a line of UTF-8."""
    from rulespec.protocol import serve

    inp = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    out = _AnswerChecker()
    with contextlib.redirect_stdout(io.StringIO()):
        serve(inp, out, base)  # type: ignore[arg-type]  # a text stream, as IO[str] is
    out.flush()
    if out.partial:
        raise _Failure(f"serve's last answer has no end of line: {out.partial[:300]!r}")
    return f"{out.answers} answers"


class _AnswerChecker(io.TextIOBase):
    """The ``serve`` loop's output stream: each answer line is checked (one JSON object, its
    text UTF-8) as it comes and then let go. A conversation that asks for 4,096 legal events
    forty times gets 40 MB of answers, which kept whole (and then parsed whole) took this
    process past 1 GiB and its 10 s, where ``rulespec serve`` itself needs 70 MB and 3 s."""

    def __init__(self, keep: bool = False) -> None:
        super().__init__()
        self.answers = 0
        self.partial = ""
        #: the answers, where ``keep`` asks for them (a short conversation's)
        self.kept: list[dict[str, Any]] | None = [] if keep else None

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        lines = (self.partial + text).split("\n")
        self.partial = lines.pop()
        for line in lines:
            line.encode("utf-8")  # a lone surrogate cannot go out on a UTF-8 stream
            answer = json.loads(line)
            if not isinstance(answer, dict):
                raise _Failure(f"serve answered a line that is not a JSON object: "
                               f"{line[:300]!r}")
            self.answers += 1
            if self.kept is not None:
                self.kept.append(answer)
        return len(text)


#: the exit statuses of the command line (docs/language.md, "The command line"): ok, a record
#: that does not replay, a usage error, a spec error, a rule runtime error
CLI_EXITS = frozenset({0, 1, 2, 65, 70})


def _run_cli(data: bytes, scratch: Path) -> str:
    """Run a command line in process, as ``rulespec`` would run it; an exception that
    escapes, an internal error or a traceback is a failure."""
    argv = json.loads(data.decode("utf-8"))
    return f"exit {cli(argv).exit_code}"


def cli(argv: Sequence[str], stdin: str | bytes | None = None) -> Any:
    """Run ``rulespec ARGV`` in process with click's CliRunner, as a user's shell would, and
    return click's Result (``exit_code``, ``output``: standard output and error together,
    ``stdout``). An exception that escapes, an internal error or a traceback in the output,
    an exit status the command line does not document, or a 70 that names no clause, is a
    :class:`_Failure` that shows the command line."""
    from click.testing import CliRunner

    from rulespec.cli import main

    res = CliRunner().invoke(main, list(argv), input=stdin, catch_exceptions=True)
    shown = _shown_argv(argv)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise _Failure(f"{shown}: an exception escaped the command line: "
                       f"{_unexpected(res.exception)}")
    out = res.output
    for bad in ("internal error", "Traceback (most recent call last)"):
        if bad in out:
            raise _Failure(f"{shown}: {bad!r} in the output:\n{out[-3000:]}")
    if res.exit_code not in CLI_EXITS:
        raise _Failure(f"{shown}: exit {res.exit_code}, not one of the documented statuses:\n"
                       f"{out[-3000:]}")
    if res.exit_code == 70 and ": error:" not in out:
        raise _Failure(f"{shown}: exit 70 without the clause of a rule runtime error:\n"
                       f"{out[-3000:]}")
    return res


def _shown_argv(argv: Sequence[str]) -> str:
    """A command line as a reader can retype it (each argument quoted only where needed),
    long arguments cut."""
    def one(a: str) -> str:
        a = a if len(a) <= 120 else f"{a[:60]}...({len(a)} characters)...{a[-20:]}"
        return a if re.fullmatch(r"[\w./:=@,+-]+", a) else ascii(a)
    return "rulespec " + " ".join(one(a) for a in argv)


def execute(kind: str, data: bytes, base: Path, scratch: Path) -> Outcome:
    """Run one input in this process; an Outcome with ``failure`` set for an exception that
    is not a RulespecError (or a usage error the command line turns into a message). The
    runners of the classes of issue 23 run in a fresh folder of their own (the current folder
    while they run) and under an alarm (:data:`HANG_S`)."""
    from rulespec.errors import RulespecError

    t0 = time.perf_counter()
    try:
        if kind == "spec":
            stage = _run_spec(data, scratch)
        elif kind == "record":
            stage = _run_record(data, base)
        elif kind == "cli":
            stage = _run_cli(data, scratch)
        elif kind == "serve":
            stage = _run_serve(data, base)
        else:
            with _fresh_folder(scratch) as folder, _alarm(HANG_S):
                stage = RUNNERS[kind](data, base, folder)
    except _Failure as e:
        return Outcome(str(e), "failed", time.perf_counter() - t0)
    except _Hang as e:
        return Outcome(f"{e}\n{_unexpected(e)}", "hang", time.perf_counter() - t0)
    except RulespecError as e:
        # every RulespecError is the command line's to report, but these paths catch the
        # ones they expect: one that escapes is a wrong error class for its place
        return Outcome(f"a {type(e).__name__} escaped where the command line does not catch "
                       f"it: {_unexpected(e)}", "failed", time.perf_counter() - t0)
    except (Exception, RecursionError, MemoryError) as e:  # noqa: BLE001 - the point of it
        return Outcome(_unexpected(e), "failed", time.perf_counter() - t0)
    return Outcome(None, stage, time.perf_counter() - t0)


def _read_message(f: BinaryIO) -> Any:
    head = f.read(4)
    if len(head) < 4:
        return None
    (n,) = struct.unpack(">I", head)
    return pickle.loads(f.read(n))


def _write_message(f: BinaryIO, obj: object) -> None:
    data = pickle.dumps(obj)
    f.write(struct.pack(">I", len(data)) + data)
    f.flush()


def worker_main() -> None:
    """The child's loop: read (kind, data, base) messages, answer each with an Outcome. The
    answers go out on a copy of standard output; standard output itself goes to standard
    error, so that nothing rulespec prints can garble them. The messages come in on a copy of
    standard input, and standard input itself is /dev/null (or what a ``devices`` input puts
    there), so that rulespec reading ``/dev/stdin`` cannot eat them.

    A worker whose peak resident memory passes :data:`PEAK_RSS_BYTES` fails the input that
    took it there and stops, as it does after a hang its alarm caught: the next input starts a
    fresh worker, measured from nothing."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    inp = os.fdopen(os.dup(0), "rb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    seeds = Path(os.environ["RULESPEC_FUZZ_SEEDS"])
    with tempfile.TemporaryDirectory(prefix="rulespec-fuzz-") as scratch:
        while (msg := _read_message(inp)) is not None:
            kind, data, base = msg
            # a hang shows where it hangs: the stacks go to standard error, which the parent
            # reads when it stops the worker
            faulthandler.dump_traceback_later(TIMEOUT_S * 0.8, exit=False)
            outcome = execute(kind, data, seeds / base, Path(scratch))
            faulthandler.cancel_dump_traceback_later()
            # ru_maxrss is in kilobytes on Linux
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
            if outcome.failure is None and peak > PEAK_RSS_BYTES:
                outcome = attrs.evolve(outcome, stage="failed", failure=(
                    f"the worker's peak resident memory reached {peak / 2**20:.0f} MiB with "
                    f"this input, past the {PEAK_RSS_BYTES / 2**20:.0f} MiB a worker may "
                    f"take (stage {outcome.stage})"))
            _write_message(out, attrs.evolve(outcome, peak_rss=peak))
            if peak > PEAK_RSS_BYTES or outcome.stage == "hang":
                break


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


class Worker:
    """A child process that runs inputs under the fuzzing limits, one at a time, restarted after
    a hang or a crash. Use as a context manager, or call :meth:`close`."""

    def __init__(self, seeds: Path, timeout: float = TIMEOUT_S) -> None:
        self.seeds = seeds
        self.timeout = timeout
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tempfile.TemporaryFile()
        self.runs = 0

    def _start(self) -> subprocess.Popen[bytes]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RULESPEC_")}
        env.update(RULESPEC_MAX_WORK=str(MAX_WORK), RULESPEC_MAX_COLLECTION=str(MAX_COLLECTION),
                   RULESPEC_FUZZ_SEEDS=str(self.seeds), PYTHONFAULTHANDLER="1")
        self.log.seek(0)
        self.log.truncate()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from tests.fuzz import worker_main; worker_main()"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, cwd=ROOT, env=env,
            preexec_fn=_limit_memory)
        return self.proc

    def _log_tail(self) -> str:
        self.log.seek(0)
        return self.log.read()[-6000:].decode("utf-8", "replace")

    def run(self, inp: Input) -> Outcome:
        """Run one input; a hang or a dead worker is a failure, and the worker starts again."""
        proc = self.proc if self.proc is not None and self.proc.poll() is None else \
            self._start()
        assert proc.stdin is not None and proc.stdout is not None
        self.runs += 1
        t0 = time.perf_counter()
        try:
            _write_message(proc.stdin, (inp.kind, inp.data, inp.base))  # type: ignore[arg-type]
        except (BrokenPipeError, OSError):
            return self._dead("the worker died before it read the input", t0)
        # the first input waits for the worker to start as well
        ready, _, _ = select.select([proc.stdout], [], [], self.timeout + (
            20 if self.runs == 1 else 0))
        if not ready:
            return self._dead(f"hang: no answer within {self.timeout:g} s", t0)
        outcome = _read_message(proc.stdout)  # type: ignore[arg-type]
        if outcome is None:
            return self._dead(f"the worker died (exit {proc.wait()}): a crash, or memory "
                              f"past {MEMORY_BYTES // 1024**3} GiB", t0)
        assert isinstance(outcome, Outcome)
        if outcome.peak_rss > PEAK_RSS_BYTES or outcome.stage == "hang":
            # the worker stops after such an input (worker_main): wait for it, so that the next
            # input starts a fresh one rather than finding this one on its way out
            self.close()
            self.runs = 0
        return outcome

    def _dead(self, why: str, t0: float) -> Outcome:
        self.close()
        self.runs = 0
        return Outcome(f"{why}\n--- the worker's standard error:\n{self._log_tail()}",
                       "failed", time.perf_counter() - t0)

    def close(self) -> None:
        """Stop the child."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
        self.log.close()


# ---- the classes of issue 23 --------------------------------------------------------------
# Six kinds of input for what a red team got through and the kinds above never made: file
# names, line breaks in strings, devices and FIFOs, totals across collections, number growth,
# and chains. Each kind is a Hypothesis strategy of Inputs (their ``label`` the kind) and runs
# in the worker through one of the runners of :data:`RUNNERS`, in a fresh folder that is the
# current folder while it runs, under an alarm of HANG_S (a hang shows where it hangs, and the
# worker lives on for the next input). What each asserts is in its strategy's docstring.

#: seconds an input of the classes of issue 23 may run before its alarm calls it a hang (under
#: the worker's own TIMEOUT_S, which stays the last word)
HANG_S = 6.0


class _Hang(BaseException):  # noqa: N818 - not an error of rulespec's: the alarm's
    """Raised by the alarm of :func:`_alarm`: a BaseException, so that no ``except Exception``
    of rulespec (or of click's CliRunner) takes it for a failure of its own."""


def _alarm(seconds: float) -> contextlib.AbstractContextManager[None]:
    """Raise :class:`_Hang` in this thread if the block runs past ``seconds`` (an interval
    timer: a read from a FIFO with no writer is interrupted too)."""
    return alarm(seconds, lambda: _Hang(f"hang: still running after {seconds:g} s"))


@contextlib.contextmanager
def _fresh_folder(scratch: Path) -> Iterator[Path]:
    """An empty folder under ``scratch``, the current folder for the time of the block, and
    rulespec's caches of checked specs emptied after it (each input names files of its own: a
    worker that kept them all would grow with the campaign)."""
    import shutil

    folder = scratch / "input"
    if os.path.lexists(folder):
        shutil.rmtree(folder)
    folder.mkdir()
    try:
        with contextlib.chdir(folder):
            yield folder
    finally:
        from rulespec import loading

        loading._load.cache_clear()
        loading._load_confined.cache_clear()


#: elements an input's text must never bring into a rendered book (the book's own Markdown
#: makes none of them): scripts, frames, forms, and the made-up ``fz-`` tags the inputs carry
_FORBIDDEN_TAGS = frozenset({"script", "iframe", "frame", "object", "embed", "form", "input",
                             "textarea", "button", "base", "meta", "link", "applet"})


class _Tags:
    """The elements of an HTML text, in order (start and end tags, comments; inside an
    ``<svg>``, whose drawing follows the length of its labels, only the ``svg`` itself), each
    with its offset in the text; and those no book may hold: a forbidden element, a made-up
    ``fz-`` element, an ``on...`` attribute, a ``javascript:`` address."""

    def __init__(self, text: str, allowed: frozenset[str] = frozenset()) -> None:
        import html.parser

        self.seq: list[str] = []
        #: the offset in ``text`` of each element of ``seq``
        self.at: list[int] = []
        self.bad: list[tuple[str, int]] = []
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        tags = self
        drawing = [0]

        class Parser(html.parser.HTMLParser):
            def _note(self, what: str) -> None:
                if not drawing[0] or what in ("svg", "/svg"):
                    line, col = self.getpos()
                    tags.seq.append(what)
                    tags.at.append(starts[line - 1] + col)

            def _bad(self, what: str) -> None:
                line, col = self.getpos()
                tags.bad.append((what, starts[line - 1] + col))

            def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
                self._note(tag)
                drawing[0] += tag == "svg"
                if (tag in _FORBIDDEN_TAGS and tag not in allowed) or tag.startswith("fz"):
                    self._bad(f"<{tag}>")
                for k, v in attrs:
                    if k.startswith("on") or (v or "").strip().lower().startswith(
                            "javascript:"):
                        self._bad(f"<{tag} {k}={v!r}>")

            def handle_startendtag(self, tag: str,
                                   attrs: list[tuple[str, str | None]]) -> None:
                self.handle_starttag(tag, attrs)
                drawing[0] -= tag == "svg"

            def handle_endtag(self, tag: str) -> None:
                drawing[0] -= tag == "svg"
                self._note("/" + tag)

            def handle_comment(self, data: str) -> None:
                self._note("!--")

        parser = Parser(convert_charrefs=True)
        parser.feed(text)
        parser.close()
        if "<script" in text.lower() and "script" not in allowed:
            self.bad.append(("an unescaped '<script' in the text",
                             text.lower().index("<script")))


def _markdown_html(md: str) -> str:
    """Markdown rendered as a reader's tool renders it: markdown-it (a dependency of rich),
    CommonMark with raw HTML let through, as GitHub's and most previewers' first pass does."""
    from markdown_it import MarkdownIt

    return str(MarkdownIt("commonmark").render(md))


def _excerpt(text: str, at: int, before: int = 300, after: int = 300) -> str:
    return f"... {text[max(0, at - before):at + after]!r} ..."


def _check_book_html(where: str, html_text: str, allowed: frozenset[str] = frozenset()) -> _Tags:
    tags = _Tags(html_text, allowed)
    if tags.bad:
        raise _Failure(f"{where}: the text of the spec made markup of its own: "
                       f"{', '.join(dict.fromkeys(b for b, _ in tags.bad))}\n"
                       f"{_excerpt(html_text, tags.bad[0][1])}")
    return tags


def _same_elements(where: str, tags: _Tags, text: str, twin: _Tags, twin_text: str) -> None:
    """Fail when the elements of a book differ from those of its neutral twin's, showing both
    texts where they part."""
    if tags.seq == twin.seq:
        return
    i = next((i for i, (a, b) in enumerate(zip(tags.seq, twin.seq, strict=False)) if a != b),
             min(len(tags.seq), len(twin.seq)))
    at = tags.at[i] if i < len(tags.at) else len(text)
    twin_at = twin.at[i] if i < len(twin.at) else len(twin_text)
    raise _Failure(
        f"{where}: its elements differ from those of the spec's neutral twin from the "
        f"{i + 1}th on ({' '.join(tags.seq[i:i + 6])!r}, where the twin has "
        f"{' '.join(twin.seq[i:i + 6])!r}): a string's text changed the book's structure.\n"
        f"The book: {_excerpt(text, at, 600, 200)}\n"
        f"The twin: {_excerpt(twin_text, twin_at, 600, 200)}")


# ---- file names ---------------------------------------------------------------------------
#: the file a file name that runs code creates, in the current folder (the input's own)
MARKER = "FUZZ-MARKER"
#: what a hostile file name is made of: every line break Python, Markdown, JSON or a terminal
#: reads as one, quotes and backslashes that end a literal, comment and markup characters,
#: terminal escapes, text outside ASCII, and bytes that are not UTF-8 (a name on Linux is bytes:
#: Python spells the byte 0xff as the lone surrogate U+DCFF)
NAME_PIECES = ("\n", "\r", "\r\n", "\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x1b[31m",
               "\x1b]8;;https:x\x07", "\x01", "\x08", "\x7f", "\t", '"', "'", '"""', "'''",
               "\\", "\\n", "\\x0a", "#", " ", "  ", "é", "e\u0301", "日本", "\U0001f0a1",
               "\u202e", "\ufeff", "\u200b", "[red]", "[bold", "[link=https:x]", "{", "}",
               "{0}", "%s", "$(id)", "`id`", ";", "|", "*", "?", "<script>", "<td>", "&amp;",
               "..", "-", "--help", "=", "\udcff", "\udce9", "\udcc3")
#: the code a hostile name tries to run, once it is out of a comment or a literal
PAYLOADS = ('\nopen("{m}","w")\n#', '\ropen("{m}","w")\r#', '\r\nopen("{m}","w")\r\n#',
            '\n__import__("builtins").open("{m}","w")\n',
            '\nimport os; os.close(os.open("{m}", os.O_CREAT))\n#',
            '");open("{m}","w");("', "');open('{m}','w');('", '""";open("{m}","w");"""',
            "\\nopen('{m}','w')\\n#", '\u2028open("{m}","w")\u2028#', '\x0copen("{m}","w")\n',
            '\n\topen("{m}","w")\n#', '\n#\nopen("{m}","w")\n', '\x85open("{m}","w")\x85#',
            '\n{{open("{m}","w")}}\n#')
NAME_PREFIXES = ("g", "", "spec", "my game", "-", ".", "ü" * 40, "x" * 230, "a.rules", "~")
NAME_SUFFIXES = (".rules", ".rules", ".rules", ".rules", "", ".RULES", ".rules ", ".rules\n",
                 ".txt", ".rules.rules")
#: the specs put under hostile names: small ones that check (a name is what is tested), and one
#: that imports a module (whose name is hostile too) with a procedure of its own
FILES_MODULE_SPEC = '''import {imp}
game fname title "File names"
players 2 to 3
winner highest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
def score(p: int) = rank(first(hand[p])) + bonus_of(p) + tally
deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill stock with pack(1)
  shuffle stock
  deal 1 from stock to hand of seats_from(left_of(dealer))
  note(dealer)
  choose left_of(dealer) {{
    show() "Turn your card." {{
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)]
}}
'''
FILES_MODULE = '''# a module with a hostile name
var tally: int = 0 "Counted by note."
def bonus_of(p: int) = p + 1
procedure note(q: int) "Count a seat." {
  set tally = tally + q
}
'''
#: what the ``filenames`` kind does with a spec under a hostile name (each input draws a few)
FILES_COMMANDS = ("check", "compile", "simulate", "replay", "doc", "doc-html", "doc-out",
                  "serve", "same-deal", "diff")


def _fit_name(name: str, room: int = 255) -> str:
    """``name`` cut (from the middle of its first part) to ``room`` bytes, as a file system
    takes it; never empty, ``.`` or ``..``."""
    while len(os.fsencode(name)) > room:
        cut = max(1, (len(os.fsencode(name)) - room) // 2)
        name = name[:max(0, len(name) // 2 - cut)] + name[len(name) // 2:]
    return name if name not in ("", ".", "..") else name + "g"


def _hostile_name(prefix: str, pieces: list[str], payload: str | None, at: int,
                  suffix: str) -> str:
    parts = list(pieces)
    if payload is not None:
        parts.insert(at % (len(parts) + 1), payload.format(m=MARKER))
    return _fit_name(prefix + "".join(parts), 255 - len(os.fsencode(suffix))) + suffix


def hostile_names(suffixes: Sequence[str] = NAME_SUFFIXES) -> st.SearchStrategy[str]:
    """File names (no ``/``, no NUL, at most 255 bytes) made of :data:`NAME_PIECES`, and
    mostly one of :data:`PAYLOADS` among them."""
    return st.builds(_hostile_name, st.sampled_from(NAME_PREFIXES),
                     st.lists(st.sampled_from(NAME_PIECES), max_size=5),
                     st.one_of(st.none(), st.sampled_from(PAYLOADS), st.sampled_from(PAYLOADS)),
                     st.integers(0, 5), st.sampled_from(suffixes))


def _spec_literal(text: str) -> str:
    """``text`` as a one-line string of the language (docs/language.md, "Strings"): quotes,
    backslashes, line feeds and tabs escaped; anything else as it is, a CR included."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace(
        "\t", "\\t") + '"'


def _json_bytes(value: object) -> bytes:
    """JSON text of a case; lone surrogates (bytes of a file name that are not UTF-8) kept."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _json_case(data: bytes) -> Any:
    return json.loads(data.decode("utf-8", "surrogatepass"))


def filename_cases() -> st.SearchStrategy[Input]:
    """``filenames``: a spec that checks (and, for one of them, a module it imports, in a
    subfolder of its own) copied under hostile file names (:func:`hostile_names`), then run
    through a few of :data:`FILES_COMMANDS`: check, compile --emit, simulate --records and a
    replay of what it wrote, a replay of a record naming the file, doc (Markdown, HTML, and
    --out under a hostile name, whose pictures are named after it), serve's ``new``,
    same-deal and diff.

    Fails if :data:`MARKER` appears (a file name ran code), on a crash, and when the spec that
    checks under its own name behaves otherwise under this one (exit 0 from every command, or
    65 from every one where its imports cannot be named); a Markdown book written under a
    hostile name must not let markup out of its picture links."""
    specs = ("minimal", "steps", "module", "module")

    def make(spec: str, name: str, module: str, sub: str | None, out: str,
             commands: list[str]) -> Input:
        case = {"spec": spec, "name": name, "module": module if spec == "module" else None,
                "subdir": sub if spec == "module" else None, "out": out,
                "commands": commands}
        return Input("files", _json_bytes(case), how=f"{spec} {ascii(name)[:120]} "
                     f"{' '.join(commands)}", label="filenames")

    return st.builds(make, st.sampled_from(specs), hostile_names(),
                     hostile_names((".rules", "", ".rules", ".RULES")),
                     st.one_of(st.none(), hostile_names(("", ".d"))),
                     hostile_names((".md",)),
                     st.lists(st.sampled_from(FILES_COMMANDS), min_size=2, max_size=5,
                              unique=True))


@functools.cache
def _ok_spec(name: str) -> str:
    return (ROOT / "tests" / "specs" / "ok" / f"{name}.rules").read_text(encoding="utf-8")


def _no_marker(folder: Path, what: str) -> None:
    for where in (folder, folder.parent, ROOT):
        if os.path.lexists(where / MARKER):
            os.unlink(where / MARKER)
            raise _Failure(f"{what}: a file name ran code: {where / MARKER} appeared")


def _run_files(data: bytes, base: Path, folder: Path) -> str:
    """A ``filenames`` case (:func:`filename_cases`)."""
    from rulespec.protocol import serve

    case = _json_case(data)
    name = case["name"]
    spec_path = folder / name
    if case["spec"] == "module":
        sub, module = case["subdir"], case["module"]
        # the spec, its module and the module's folder: three names, whatever was drawn
        sub = sub if sub != name else sub + ".d"
        # (another name of the same length, its ending kept: a name may be 255 bytes already)
        other = "n-" if module.startswith("m-") else "m-"
        module = module if (sub or module != name) else other + module[2:]
        where = folder / sub if sub else folder
        where.mkdir(exist_ok=True)
        (where / module).write_text(FILES_MODULE, encoding="utf-8", errors="surrogateescape")
        imp = (sub + "/" if sub else "") + module.removesuffix(".rules")
        text = FILES_MODULE_SPEC.format(imp=_spec_literal(imp))
    else:
        text = _ok_spec(case["spec"])
    # a name that is not UTF-8 cannot be spelled in a UTF-8 spec: its import is then bytes
    # that are not UTF-8, a syntax error
    spec_path.write_text(text, encoding="utf-8", errors="surrogateescape")
    arg = "./" + name
    stages: list[str] = []

    def run(what: str, argv: list[str], want: set[int]) -> Any:
        res = cli(argv)
        _no_marker(folder, what)
        if res.exit_code not in want:
            raise _Failure(f"{_shown_argv(argv)}: exit {res.exit_code}, where the same spec "
                           f"under a plain name gives {sorted(want)}:\n{res.output[-2000:]}")
        stages.append(f"{what} {res.exit_code}")
        return res

    first = run("check", ["check", arg], {0, 65})
    ok = first.exit_code == 0
    same = {0} if ok else {65}
    for command in case["commands"]:
        if command == "check":
            continue
        if command == "compile":
            run(command, ["compile", arg, "--emit"], same)
        elif command == "simulate":
            recs = folder / "recs"
            run(command, ["simulate", arg, "-p", "2", "-n", "1", "--seed", "3",
                          "--max-events", "2000", "--records", str(recs)], same)
            for rec in sorted(recs.glob("*.json")):
                run("replay-simulated", ["replay", str(rec)], same)
        elif command == "replay":
            rec = folder / "named.json"
            # a record is UTF-8 JSON: a name's bytes that are not UTF-8 (lone surrogates here)
            # are written as JSON writes them, \udcff, which reads back as the same name
            rec.write_text(json.dumps({"format": "rulespec-record/1", "game": name,
                                       "players": 2, "options": {}, "dealer": 0,
                                       "events": []}), encoding="ascii")
            # a record names a spec only as a relative path to a .rules file (H10)
            run(command, ["replay", str(rec)], same if name.endswith(".rules") else {1})
        elif command == "doc":
            run(command, ["doc", arg], same)
        elif command == "doc-html":
            res = run(command, ["doc", arg, "--format", "html"], same)
            if ok:
                _check_book_html("doc --format html", res.stdout, frozenset({"meta"}))
        elif command == "doc-out":
            out = folder / "book" / case["out"]
            out.parent.mkdir(exist_ok=True)
            # a picture's name is longer than the book's: past 255 bytes it cannot be written
            res = run(command, ["doc", arg, "--out", str(out)], same | {2})
            if res.exit_code == 0:
                md = out.read_text(encoding="utf-8")
                _check_book_html(f"doc --out {ascii(out.name)}", _markdown_html(md))
        elif command == "serve":
            lines = [json.dumps({"op": "new", "game": arg, "players": 2}),
                     '{"op": "to_move"}', '{"op": "legal"}', '{"op": "result"}']
            got = _AnswerChecker(keep=True)
            with contextlib.redirect_stdout(io.StringIO()):
                serve(io.StringIO("\n".join(lines) + "\n"), got, folder)  # type: ignore[arg-type]
            _no_marker(folder, "serve")
            kept = got.kept or []
            if kept and kept[0].get("ok") is not ok:
                raise _Failure(f"serve: 'new' of {ascii(arg)} answered {kept[0]}, where "
                               f"check exits {first.exit_code}")
            stages.append(f"serve {len(kept)}")
        elif command == "same-deal":
            run(command, ["same-deal", arg, arg, "-p", "2"], same)
        else:
            assert command == "diff", command
            run(command, ["diff", arg, arg, "-p", "2", "-n", "1", "--out",
                          str(folder / "diff.json")], same)
    return "; ".join(stages)


# ---- line breaks and markup in every string -----------------------------------------------
#: a spec that checks with a string in every place the grammar has one (``{sN}``), two option
#: values that are strings (``{v0}``, ``{v1}``), and citations beside and inside them
LINEBREAK_SPEC = '''game lb title {s0} {s1}
players 2 to 3
max_events 400 {s2}
winner highest total
option style: {{plain {s3}, fancy {s4}}} = plain {s5}
option named: {{{v0}, {v1} {s6}, other}} = {v0} [LB-1] {s7}
option bonus: int in 0..5 = 1 [LB-2] {s8}
require player_count <= 3 {s9}
zone stock: shared visible to nobody {s10}
zone hand: per player visible to owner {s11}
var tally: int = 0 {s12}
result extra: int per player = 0 {s13}
def score(p: int) = rank(first(hand[p])) + bonus + extra[p] {s14}
term {s15} {s16}
table worths {s17} for n in range(1, player_count): {s18} = n, {s19} = n * bonus {s20}
section {s21} {s22}
procedure mark(q: int) [LB-3] {s23} {{
  set extra[q] = 1
  set tally = tally + 1
}}
deal [LB-4] {s24} {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill stock with pack(1)
  shuffle stock
  step {s25} {s26} {{
    deal 1 from stock to hand of seats_from(left_of(dealer))
  }}
  if named == {v0} {{
    mark(dealer)
  }}
  choose left_of(dealer) {{
    show() {s27} {{
      end deal scoring score
    }}
    pass() if style == fancy or named != {v1} [LB-5] {s28} {{
      end deal scoring score
    }}
  }}
}}
match {s29} {{
  run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)]
}}
'''
LINEBREAK_SLOTS = 30
#: what a string is made of besides words: every line break and control character, escapes,
#: HTML, and the Markdown that CommonMark reads at the start of a line or inside a code span
#: (the potent ones put a line break before markup: a CR ends a Markdown line)
LINE_BREAKS = ("\r", "\r\n", "\n", "\u2028", "\u2029", "\x85", "\x0c", "\x0b", "\x00", "\x1b",
               "\x1b[2J", "\x1b]8;;javascript:alert(1)\x07", "\t", "\x7f", "\x08", "\u200b",
               "\ufeff", "\u202e", "\r\r", "\n\n", "\r \r")
MARKUP = ("<script>alert(1)</script>", "<script", "</script>", "<img src=x onerror=alert(1)>",
          "<fz-tag>", "</fz-tag>", "<fz-x title='a'>", "<svg onload=alert(1)>",
          "<iframe src=javascript:alert(1)>", "<!--", "-->", "<style>*{}</style>",
          "<a href='javascript:alert(1)'>x</a>", "&lt;script&gt;", "&#60;script&#62;",
          "<![CDATA[", "]]>", "</td></tr></table>", "</p>", "<p>", "<br>", "<", ">", "&", "`",
          "``", "```", "|", "# ", "## ", "#", "*", "**", "_", "[x](javascript:alert(1))",
          "[x]: javascript:alert(1)", "<http://x>", "---", "===", "> ", "1. ", "- ",
          "    fz", "[", "]", "(", ")", "!", "~~~", "$$", "\\", "\\`", "]]")
#: line breaks put right before markup: what broke the Markdown book
BROKEN_MARKUP = ("\r<script>alert(1)</script>", "\r# fz heading", "\r===", "\r---",
                 "`\r<script>alert(1)</script>`", "\r\r<fz-tag>", "\r|a|b|\r|-|-|",
                 "\u2028<script>", "\r    <fz-tag>", "\r<!--", "\r```", "\r\n<fz-tag>",
                 "\n<script>alert(1)</script>", "\n\n# fz", "\x85<fz-tag>", "\r> fz",
                 "\r1. fz", "\r<fz-tag a='\r'>")
#: words, and citations (kept in the neutral twin: the book lists what a text cites)
WORDS = ("word", "two words", "é", "日本", "Trumps", "[LB-7]", "a [LB-8] b", " [LB-9] ")
#: the escapes of one-line strings (docs/language.md, "Strings"), written into the literal as
#: they are; the pieces above are escaped where a one-line string needs it
ESCAPES = ("\\n", "\\t", '\\"', "\\\\", "\\r", "\\u2028", "\\x00")


@attrs.frozen
class _Piece:
    """A piece of a generated string: ``text``, written as it is (``raw``: an escape) or as a
    string of its kind needs it; ``neutral`` takes its place in the neutral twin of the spec."""

    text: str
    raw: bool = False
    hostile: bool = True


def _pieces() -> st.SearchStrategy[_Piece]:
    return st.one_of(
        st.sampled_from(WORDS).map(lambda w: _Piece(w, hostile=False)),
        st.sampled_from(LINE_BREAKS).map(_Piece),
        st.sampled_from(MARKUP).map(_Piece),
        st.sampled_from(BROKEN_MARKUP).map(_Piece),
        st.sampled_from(BROKEN_MARKUP).map(_Piece),
        st.sampled_from(ESCAPES).map(lambda e: _Piece(e, raw=True)))


#: what CommonMark (and markdown-it, which adds the vertical tab) counts as white space beside
#: emphasis (tab, form feed, the Zs spaces), and a line feed (which the book writes as a
#: space), which the neutral twin keeps where the spec has it: a bold title that starts with a
#: tab is not bold in either, and no markup came from the text. A CR is no such thing:
#: CommonMark ends a line at it
_MD_SPACE = frozenset(" \t\n\x0b\x0c\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
                      "\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000")
_ESCAPED = {"\\n": "\n", "\\t": "\t", '\\"': '"', "\\\\": "\\"}


def _decoded(p: _Piece, triple: bool) -> str:
    """The text a piece stands for in the string (an escape read as the parser reads it)."""
    return _ESCAPED.get(p.text, p.text) if p.raw and not triple else p.text


def _literal(pieces: Sequence[_Piece], triple: bool, neutral: Iterator[int] | None) -> str:
    """The string literal of ``pieces``: one-line (quotes and backslashes escaped; a raw line
    break as it is, save a line feed, which is escaped unless the piece says otherwise) or
    triple-quoted (everything as it is, quotes made harmless). With ``neutral``, the spec's
    neutral twin: each hostile piece becomes a word of its own (``n0``, ``n1``, ...), with the
    white space CommonMark sees at its ends; a string that is white space alone (which a book
    may leave out) stays as it is."""
    if neutral is not None and not "".join(_decoded(p, triple) for p in pieces).strip():
        neutral = None
    out = []
    for p in pieces:
        text, raw = p.text, p.raw
        if neutral is not None and p.hostile:
            d = _decoded(p, triple)
            if not all(ch in _MD_SPACE for ch in d):
                lead = d[:len(d) - len(d.lstrip("".join(_MD_SPACE)))]
                trail = d[len(d.rstrip("".join(_MD_SPACE))):]
                text, raw = f"{lead}n{next(neutral)}{trail}", False
        if triple:
            out.append(text.replace('"', "'"))
        elif raw:
            out.append(text)
        else:
            out.append(text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n"))
    body = "".join(out)
    return f'"""{body}"""' if triple else f'"{body}"'


def linebreak_cases() -> st.SearchStrategy[Input]:
    """``linebreaks``: :data:`LINEBREAK_SPEC` with line breaks of every kind (CR, CRLF, LF,
    U+2028, U+2029, U+0085, FF, VT, NUL, ESC), escapes, HTML and Markdown in its strings
    (title, descriptions, option values and their texts, citations' texts, the texts of
    alternatives, tables, terms, sections, steps; one-line and triple-quoted), and a neutral
    twin where each such piece is a plain word. The spec is checked (``rulespec check``),
    played, and its book rendered in Markdown and HTML (``rulespec doc --format md|html``).

    Fails on a crash; when the Markdown book, rendered by markdown-it, or the HTML book holds
    an element or attribute the spec's text put there (a ``<script``, a made-up ``fz-`` tag,
    an ``on...`` attribute, a ``javascript:`` address); and when the elements of either book
    differ from those of the twin's (a string's text changed the book's structure: a heading
    started by a CR, a code span left open, a table cell split)."""
    def make(slots: list[tuple[bool, bool, list[_Piece]]]) -> Input:
        lits, twins = {}, {}
        counter = iter(range(10**6))
        for i, (hostile, triple, pieces) in enumerate(slots):
            key = f"v{i - LINEBREAK_SLOTS}" if i >= LINEBREAK_SLOTS else f"s{i}"
            if not hostile:
                pieces = [_Piece(f"Plain {key}", hostile=False)]
            lits[key] = _literal(pieces, triple, None)
            twins[key] = _literal(pieces, triple, counter)
        case = {"spec": LINEBREAK_SPEC.format(**lits), "neutral": LINEBREAK_SPEC.format(**twins)}
        count = sum(h for h, _, _ in slots)
        return Input("book", _json_bytes(case), how=f"{count} hostile strings",
                     label="linebreaks")

    slot = st.tuples(st.booleans(), st.booleans(), st.lists(_pieces(), min_size=1, max_size=5))
    return st.builds(make, st.lists(slot, min_size=LINEBREAK_SLOTS + 2,
                                    max_size=LINEBREAK_SLOTS + 2))


def _book(path: Path, fmt: str) -> str:
    return str(cli(["doc", str(path), "--format", fmt]).stdout)


def _run_book(data: bytes, base: Path, folder: Path) -> str:
    """A ``linebreaks`` case (:func:`linebreak_cases`)."""
    from rulespec.errors import SpecCheckError, SpecSyntaxError
    from rulespec.lang.checker import check_file

    case = _json_case(data)
    path = folder / "lb.rules"
    path.write_text(case["spec"], encoding="utf-8", errors="surrogatepass")
    try:
        check_file(path)
    except (SpecSyntaxError, SpecCheckError) as e:
        e.render()
        res = cli(["check", str(path)])
        if res.exit_code != 65:
            raise _Failure(f"rulespec check exits {res.exit_code} on a spec check_file "
                           f"refuses") from None
        return "syntax" if isinstance(e, SpecSyntaxError) else "check"
    cli(["check", str(path)])
    played = _run_spec(path.read_bytes(), folder)
    md_html, html_book = _markdown_html(_book(path, "md")), _book(path, "html")
    md_tags = _check_book_html("the Markdown book, rendered", md_html)
    html_tags = _check_book_html("the HTML book", html_book, frozenset({"meta"}))
    twin = folder / "twin.rules"
    twin.write_text(case["neutral"], encoding="utf-8")
    try:
        check_file(twin)
    except (SpecSyntaxError, SpecCheckError):
        return f"books ({played}; the twin does not check)"
    md_twin = _markdown_html(_book(twin, "md"))
    _same_elements("the Markdown book, rendered", md_tags, md_html, _Tags(md_twin), md_twin)
    html_twin = _book(twin, "html")
    _same_elements("the HTML book", html_tags, html_book, _Tags(html_twin), html_twin)
    return f"books ({played})"


# ---- devices, FIFOs, folders and links where files go -------------------------------------
#: what a file argument that rulespec reads may be. The real devices are only ever read: as
#: root, an ``--out /dev/null`` that rulespec replaced would replace the system's, so every
#: path written to is a node of the input's own folder (a character device made with mknod
#: where the fuzzer may, a FIFO otherwise)
DEVICE_READS = ("/dev/zero", "/dev/null", "/dev/stdin", "/dev/urandom", "/dev/full",
                "/proc/self/status", "@fifo", "@dir", "@passwd", "@devlink", "@spec")
#: what a path rulespec writes (``--out``, ``--records``) may be
DEVICE_WRITES = ("@new", "@null", "@zero", "@fifo-read", "@dir", "@link", "@dangling",
                 "@regular", "@fifo-read", "@null")
#: what a record's ``game`` may name (the record is in ``inbox/``; the current folder holds
#: ``notes``, ``.env`` and ``passwd``, links to /etc/passwd, as the record's folder does)
RECORD_GAMES = ("notes", ".env", "passwd", "p.rules", "../p.rules", "/etc/passwd", "/dev/zero",
                "/dev/stdin", "f.rules", "d.rules", "z.rules", "s.rules", "minimal",
                "../s.rules", "inbox/../s.rules", "./notes", "vandatta")
#: what standard input is while the command runs (``/dev/stdin`` reads it)
DEVICE_STDINS = ("null", "zero", "spec", "record", "empty")
#: command lines: ``R`` is a path read, ``W`` one written, ``D`` a records folder, ``G`` a
#: record in ``inbox/`` whose ``game`` is drawn from RECORD_GAMES
DEVICE_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("check", "R"),
    ("check", "@spec", "R"),
    ("replay", "R"),
    ("replay", "G"),
    ("replay", "--spec", "R", "@record"),
    ("doc", "R"),
    ("doc", "@spec", "--out", "W"),
    ("doc", "@spec", "--format", "html", "--out", "W"),
    ("doc", "@spec", "--check", "--out", "W"),
    ("verify", "@spec", "--python", "tests.fuzz:divergent_implementation", "-p", "2", "-n",
     "1", "--out", "W"),
    ("diff", "@spec", "@other", "-p", "2", "-n", "1", "--out", "W"),
    ("simulate", "@spec", "-p", "2", "-n", "1", "--records", "D"),
    ("simulate", "R", "-p", "2", "-n", "1"),
    ("compile", "R"),
    ("same-deal", "R", "@spec", "-p", "2"),
    ("diff", "R", "@spec", "-p", "2", "-n", "1", "--out", "@new"),
)
#: what the files at the targets of the links the fuzzer plants hold: a leak of theirs shows
VICTIM = "root:x:0:0:a file no command may change:/root:/bin/sh\n"


def device_cases() -> st.SearchStrategy[Input]:
    """``devices``: command lines (:data:`DEVICE_COMMANDS`) whose file arguments are devices
    (``/dev/zero``, ``/dev/null``, ``/dev/stdin`` over /dev/zero, /dev/null or a pipe that
    holds a spec, a record or nothing), a FIFO with no writer, a folder, a symbolic link to
    /etc/passwd or to /dev/zero; whose ``--out`` and ``--records`` are character devices and
    FIFOs (of the input's folder), links, folders; with links planted at the temporary names
    rulespec writes through (``.NAME.PID.tmp``); and records whose ``game`` names such files.

    Fails on a hang (the alarm), a crash, a character device or a FIFO that is something else
    afterwards (its ``lstat`` mode before and after), a file a planted link leads to that
    changed, and ``root:`` in the output where no argument the user trusts names /etc/passwd
    (a record's ``game`` or an ``--out`` is no such argument)."""
    def make(command: tuple[str, ...], read: str, write: str, records: str, game: str,
             stdin: str, plant: bool) -> Input:
        argv = [{"R": read, "W": write, "D": records, "G": "@game"}.get(a, a) for a in command]
        case = {"argv": argv, "game": game, "stdin": stdin, "plant": plant}
        return Input("device", _json_bytes(case), how=f"{' '.join(argv)} game={game} "
                     f"stdin={stdin} plant={plant}", label="devices")

    return st.builds(make, st.sampled_from(DEVICE_COMMANDS), st.sampled_from(DEVICE_READS),
                     st.sampled_from(DEVICE_WRITES),
                     st.sampled_from(("@new", "@dir", "@null", "@fifo-read", "@regular",
                                      "@link", "@dangling", "@new")),
                     st.sampled_from(RECORD_GAMES), st.sampled_from(DEVICE_STDINS),
                     st.booleans())


def _spec_implementation(path: str = "s.rules") -> Any:
    from rulespec.loading import resolve
    from rulespec.protocol import SpecImplementation

    return SpecImplementation(spec=resolve(Path(path)).spec)


def divergent_implementation() -> Any:
    """A Python implementation for ``verify --python``: the engine of ``s.rules`` in the
    current folder, except that every result adds a point to seat 0's total: a divergence
    verify always finds, so that it writes its ``--out``."""
    impl = _spec_implementation()
    result = impl.result

    def wrong() -> dict[str, object]:
        r = dict(result())
        totals = r.get("totals")
        if isinstance(totals, list) and totals:
            r["totals"] = [totals[0] + 1, *totals[1:]]
        return r

    impl.result = wrong
    return impl


class _Drain:
    """A reader at a FIFO, for the time a command may write to it: what it writes is read and
    let go (a FIFO with no reader would hold up a writer for ever, which is no fault of the
    writer's)."""

    def __init__(self, path: Path) -> None:
        import threading

        self.fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            ready, _, _ = select.select([self.fd], [], [], 0.05)
            try:
                if not (ready and os.read(self.fd, 1 << 16)):
                    time.sleep(0.01)  # no writer: select says readable, at its end
            except BlockingIOError:
                pass

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        os.close(self.fd)


def _mode(path: str) -> int | None:
    try:
        return os.lstat(path).st_mode
    except OSError:
        return None


def _kind_of(mode: int | None) -> str:
    import stat

    if mode is None:
        return "nothing"
    return next((name for test, name in ((stat.S_ISCHR, "a character device"),
                                         (stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a folder"),
                                         (stat.S_ISLNK, "a symbolic link"),
                                         (stat.S_ISREG, "a regular file")) if test(mode)),
                "something else")


def _device_node(path: Path, minor: int) -> None:
    """A character device like /dev/null (minor 3) or /dev/zero (5) at ``path``, or a FIFO
    where the fuzzer may not make devices."""
    import stat

    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except (PermissionError, OSError):
        os.mkfifo(path)


def _device_stage(folder: Path, case: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Make what the case's arguments name in ``folder``; the argument list with each
    ``@name`` made a path, and the paths whose kind must not change."""
    minimal = _ok_spec("minimal")
    (folder / "s.rules").write_text(minimal, encoding="utf-8")
    (folder / "o.rules").write_text(minimal.replace(
        "rank(first(hand[p]))", "rank(first(hand[p])) + 1"), encoding="utf-8")
    record = {"format": "rulespec-record/1", "game": "s.rules", "players": 2, "options": {},
              "dealer": 0, "events": []}
    (folder / "r.json").write_text(json.dumps(record), encoding="utf-8")
    inbox = folder / "inbox"
    inbox.mkdir()
    (inbox / "s.rules").write_text(minimal, encoding="utf-8")
    (inbox / "g.json").write_text(json.dumps({**record, "game": case["game"]}),
                                  encoding="utf-8")
    for where in (folder, inbox):
        for link in ("notes", ".env", "passwd", "p.rules"):
            os.symlink("/etc/passwd", where / link)
        os.mkfifo(where / "f.rules")
        (where / "d.rules").mkdir()
        os.symlink("/dev/zero", where / "z.rules")
    out = folder / "out"
    out.mkdir()
    (folder / "victim").write_text(VICTIM, encoding="utf-8")
    (folder / "victim-tmp").write_text(VICTIM, encoding="utf-8")
    made = {"@spec": "s.rules", "@other": "o.rules", "@record": "r.json",
            "@game": "inbox/g.json", "@fifo": "f.rules", "@dir": "d.rules",
            "@passwd": "p.rules", "@devlink": "z.rules"}
    watched: list[str] = ["/dev/null", "/dev/zero", "f.rules", "inbox/f.rules"]
    argv = []
    for i, a in enumerate(case["argv"]):
        if a in made:
            argv.append(made[a])
            continue
        if not a.startswith("@"):
            argv.append(a)
            continue
        path = out / f"t{i}"
        if a in ("@null", "@zero"):
            _device_node(path, 3 if a == "@null" else 5)
        elif a == "@fifo-read":
            os.mkfifo(path)
        elif a == "@dir":
            path.mkdir()
        elif a == "@link":
            os.symlink(folder / "victim", path)
        elif a == "@dangling":
            os.symlink(folder / "nowhere", path)
        elif a == "@regular":
            path.write_text("an old book\n", encoding="utf-8")
        argv.append(str(path))
        watched.append(str(path))
        if case["plant"]:
            # where rulespec's write_atomic puts its temporary file, and simulate its records
            # and the copy of the spec
            pid = os.getpid()
            links: list[Path] = [path.with_name(f".{path.name}.{pid}.tmp")]
            if argv[-2:-1] == ["--records"] and a in ("@dir", "@new"):
                path.mkdir(exist_ok=True)
                (path / "spec").mkdir()
                links += [path / f".game-000000.json.{pid}.tmp",
                          path / "spec" / f".s.rules.{pid}.tmp"]
            for planted in links:
                os.symlink(folder / "victim-tmp", planted)
    return argv, watched


def _stdin_source(how: str) -> int:
    """A descriptor for standard input (``how``: :data:`DEVICE_STDINS`): a device, or a pipe
    that holds a spec, a record or nothing."""
    if how in ("null", "zero"):
        return os.open(f"/dev/{how}", os.O_RDONLY)
    text = "" if how == "empty" else _ok_spec("minimal") if how == "spec" else json.dumps({
        "format": "rulespec-record/1", "game": "vandatta", "players": 3, "options": {},
        "dealer": 0, "events": []})
    r, w = os.pipe()
    os.write(w, text.encode("utf-8"))  # well under a pipe's 64 kB
    os.close(w)
    return r


def _run_device(data: bytes, base: Path, folder: Path) -> str:
    """A ``devices`` case (:func:`device_cases`)."""
    case = _json_case(data)
    argv, watched = _device_stage(folder, case)
    before = {p: _mode(p) for p in watched}
    drains = [_Drain(Path(p)) for p in watched if p.startswith(str(folder))
              and os.path.basename(p).startswith("t") and _kind_of(before[p]) == "a FIFO"]
    # standard input is given back as it was (/dev/null in a worker; whatever it was in a
    # test that runs a case in its own process)
    saved = os.dup(0)
    source = _stdin_source(case["stdin"])
    try:
        os.dup2(source, 0)
        os.close(source)
        try:
            res = cli(argv)
        except _Hang as e:
            raise _Hang(f"{e}: {_shown_argv(argv)} (standard input: {case['stdin']})") from None
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        for d in drains:
            d.close()
    shown = f"{_shown_argv(argv)} (standard input: {case['stdin']}; game {case['game']!r})"
    for p, mode in before.items():
        now = _mode(p)
        if _kind_of(mode) in ("a character device", "a FIFO") and now != mode:
            raise _Failure(f"{shown}: {p} was {_kind_of(mode)} and is now {_kind_of(now)}")
    if (folder / "victim-tmp").read_text(encoding="utf-8") != VICTIM:
        raise _Failure(f"{shown}: wrote through a symbolic link planted at its temporary "
                       f"file's name (the file the link leads to changed)")
    trusted = any(a == "p.rules" and i > 0 for i, a in enumerate(argv))
    if "root:" in res.output and not trusted:
        at = res.output.find("root:")
        raise _Failure(f"{shown}: the output quotes /etc/passwd (or a file a planted link "
                       f"leads to): ...{res.output[max(0, at - 200):at + 200]!r}...")
    return f"{argv[0]} exit {res.exit_code}"


# ---- totals across collections ------------------------------------------------------------
TOTALS_SPEC = '''# expect players: {table}
game totals title "Totals"
players 2 to {most}
winner highest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
{zones}
var tally: int = 0
var held: list of card per player = []
def score(p: int) = size(hand[p]) + tally
deal {{
  for q in seats {{
    fill hand[q] with []
  }}
{body}
  choose left_of(dealer) {{
    take() "Take." {{
      end deal scoring score
    }}
  }}
}}
match {{
  run deal
  end match winners seats
}}
'''
#: statements that build: ``{z}`` a per-player zone, ``{s}`` a shared one, ``{k}`` packs,
#: ``{r}`` rounds, ``{t}`` a rank, ``{n}`` a fresh number for a name
TOTALS_STATEMENTS = (
    "for q in seats {{\n    fill {z}[q] with pack({k})\n  }}",
    "fill {s} with pack({k})",
    "repeat {r} {{\n    for q in seats {{\n      fill {z}[q] with pack({k})\n    }}\n  }}",
    "for q in seats {{\n    fill {z}[q] with [c for c in pack({k}) if rank(c) > {t}]\n  }}",
    "fill {s} with pack({k})\n  deal {r} from {s} to {z} of seats",
    "set tally = tally + size(pack({k}) + pack({k}))",
    "let xs{n} = [pack({k}) for q in seats]\n  set tally = tally + size(xs{n})",
    "for q in seats {{\n    set held[q] = pack({k})\n  }}",
    "repeat {r} {{\n    for q in seats {{\n      set held[q] = held[q] + pack(1)\n    }}\n  }}",
    "let big{n} = [[c for c in pack({k})] for q in seats]\n  set tally = size(big{n})",
    "for q in seats {{\n    for c in {z}[q] {{\n      move c from {z}[q] to {s}\n    }}\n  }}",
    "shuffle {s}",
    "repeat {r} {{\n    fill {s} with pack({k})\n    set tally = tally + size({s})\n  }}",
    "set tally = tally + size([size(pack({k})) for q in seats])",
)
#: packs and tables, the large ones more often: a total is large when both are
TOTALS_PACKS = (1, 2, 10, 100, 1000, 1900, 1923, 1923, 1924, 10_000)
TOTALS_TABLES = (2, 3, 8, 30, 100, 300, 1000, 1000)


def totals_cases() -> st.SearchStrategy[Input]:
    """``totals``: specs that build large totals across many collections: many per-player and
    shared zones filled with large packs, at tables of up to 1,000 players, refilled in
    loops, per-player lists, lists of packs, comprehensions over the seats
    (:data:`TOTALS_STATEMENTS`), checked and played at the table of their header under the
    worker's limits.

    Fails on a crash (a MemoryError included: the worker's address space is capped at
    :data:`MEMORY_BYTES`), a hang, and a worker whose peak resident memory passes
    :data:`PEAK_RSS_BYTES` (1 GiB) with the input."""
    def make(table: int, most: int, zones: int, shared: int,
             statements: list[tuple[int, int, int, int, int, int]]) -> Input:
        most = max(table, most)
        lines = [f"zone z{i}: per player visible to owner" for i in range(zones)]
        lines += [f"zone s{i}: shared visible to all" for i in range(shared)]
        body = []
        for n, (which, z, s, k, r, t) in enumerate(statements):
            body.append("  " + TOTALS_STATEMENTS[which].format(
                z=f"z{z % zones}", s=f"s{s % shared}", k=TOTALS_PACKS[k], n=n,
                r=(1, 2, 10, 100, 1000)[r], t=(0, 5, 13, 14)[t]))
        text = TOTALS_SPEC.format(table=table, most=most, zones="\n".join(lines),
                                  body="\n".join(body))
        return Input("table", text.encode("utf-8"), how=f"{table} players, {zones} zones",
                     label="totals")

    statement = st.tuples(st.integers(0, len(TOTALS_STATEMENTS) - 1), st.integers(0, 40),
                          st.integers(0, 5), st.integers(0, len(TOTALS_PACKS) - 1),
                          st.integers(0, 4), st.integers(0, 3))
    return st.builds(make, st.sampled_from(TOTALS_TABLES), st.sampled_from(TOTALS_TABLES),
                     st.integers(1, 40), st.integers(1, 5),
                     st.lists(statement, min_size=1, max_size=6))


# ---- the small specs the classes of issue 23 write -------------------------------------------
#: their deal's opening (an empty hand for each seat, a shuffled pack, a card each) and their
#: match (one deal, the highest total wins), as format templates
DEAL_OPENING = '''deal {{
  for q in seats {{
    fill hand[q] with []
  }}
  fill stock with pack(1)
  shuffle stock
  deal 1 from stock to hand of seats_from(left_of(dealer))
'''
MATCH_HIGHEST = '''match {{
  run deal
  end match winners [q for q in seats if totals[q] == max(totals[r] for r in seats)]
}}
'''


# ---- number growth through every operator -------------------------------------------------
NUMBERS_SPEC = '''# expect players: {table}
game numbers title "Numbers"
players 2 to 4
winner highest total
option k: int = {k}
option lim: int in 0..10 = 1
option kind: {{1, 2, 100}} = 1
zone stock: shared visible to nobody
zone hand: per player visible to owner
var x: int = {x0}
var y: int = {y0}
result big: int per player = 0
{defs}
def score(p: int) = {score}
''' + DEAL_OPENING + '''{body}
  choose left_of(dealer) {{
    show() "Turn your card." {{
      end deal scoring score
    }}
  }}
}}
''' + MATCH_HIGHEST
#: big constants of a spec (the parser takes numbers of up to 4,000 digits)
BIG = ("1", "7", "65536", "9" * 100, "1" + "0" * 999, "9" * 4000)
#: one step of growth of ``x`` through each operator; ``{c}`` is one of BIG, ``{g}`` the last
#: of a chain of definitions that square their argument
GROWTH = ("x + x", "x * x", "x * 2", "x - (0 - x)", "x + {c}", "{c} + x", "x - {c}",
          "0 - x - x", "-x - x", "-x * 3", "x * x * x", "(x + 1) * (x + 1)", "x // 1 + x",
          "x % {c} + x * 2", "sum([x, x, x])", "sum(x for q in seats)", "max([x, x + x])",
          "min([x, 0 - x - x])", "x + count(true for q in seats) * x", "{g}(x)", "x + y",
          "y - x - x", "x * k", "x + k * x", "x * size(stock)", "-(-x - x)", "x * y",
          "x - y * 2", "x + rank(top(stock)) * x", "sum(range(x, x + 3))",
          "max(range(x, x + 1)) * 2", "x * {c} // 3", "x // (y - y + 1) * x", "- - - x * x",
          "x * kind", "x - {c} * {c}")
#: how a step of growth runs: once, in a loop, in a loop that stops at a bound
LOOPS = ("set x = {op}", "repeat {n} {{\n    set x = {op}\n  }}",
         "for q in range(1, {n}) {{\n    set x = {op}\n  }}",
         "while x < {c} and x > 0 - {c} {{\n    set x = {op}\n  }}",
         "repeat {n} {{\n    set y = {op}\n    set x = y\n  }}")
#: where a grown number goes: a result, a seat, a count, a size, an index, a division
SINKS = ("set big[dealer] = x", "set dealer = x", "set dealer = x % player_count",
         "repeat x {\n    set y = y + 1\n  }", "let rr = range(0, x)", "fill stock with pack(x)",
         "let ss = seats[x]", "let zz = left_of(x)", "if x > 5 {\n    set y = 1\n  }",
         "set y = x // y", "set y = x % (y - y)", "deal x from stock to hand of seats",
         "let ff = [q for q in seats_from(x)]", "set y = size(subsets(seats, x, x))",
         "set big[left_of(dealer)] = 0 - x", "set y = size(hand[x])", "let mm = max([x, y])",
         "set y = x - x", "let tt = totals[x]", "set big[dealer] = x * x * x",
         "set big[dealer] = -x", "set y = x // 7 % 5")
SCORES = ("rank(first(hand[p])) + x", "x", "x * x", "x // (p + 1)", "0 - x", "big[p]",
          "x % 7", "rank(first(hand[p]))", "big[p] + x")
ROUNDS = (1, 2, 10, 64, 200, 1000, 5000, 20_000, 49_999)
#: numbers as a command line spells them: past 4,000 digits, floats, NaN, infinities, signs,
#: digits Python's int() reads and the documents do not
NUMBER_TEXTS = ("9" * 5000, "9" * 4001, "1" + "0" * 3999, "-" + "9" * 4000, "-1", "0", "-0",
                "+5", "1e308", "1.0", "nan", "inf", "-inf", "1_000", "0x10", "\u0663", "\uff11",
                "00000000001", "1e3", "10**30", "2147483648", "9223372036854775808", "1e-308",
                "NaN", "Infinity", "-nan", "3")
#: numbers as JSON spells them (records, requests): floats, NaN and the infinities Python's
#: json reads, past the 4,300 digits Python converts
NUMBER_JSON = ("1.0", "2.0", "100.0", "1e0", "2e0", "0.0", "-0.0", "1e308", "1E400", "-1e308",
               "NaN", "Infinity", "-Infinity", "1" + "0" * 4000, "9" * 4299, "9" * 4301,
               "9" * 5000, "1e-320", "123456789012345678901234567890", "true", "4.5", "-1",
               "2147483648", "-9223372036854775809", "0.1", "3.0000000000000001", "2")
_NUM = "\x00NUM:"


def _numbers_spec(table: int, k: int, x0: int, y0: int, depth: int, steps: list[tuple[int, int,
                  int, int]], sinks: list[int], score: int) -> str:
    starts = ("0", "1", "2", BIG[3], "k", "k * k", "-1", BIG[5])
    # a chain of definitions, each squaring the last one's value twice: growth by recursion,
    # as far as the language has it (a definition may not call itself)
    defs = [f"def g{i}(v: int) = " + (f"g{i - 1}(g{i - 1}(v))" if i else "v * v")
            for i in range(depth)]
    body = []
    for loop, op, c, n in steps:
        grow = GROWTH[op] if depth or "{g}" not in GROWTH[op] else "x * x"
        grow = grow.format(c=BIG[c], g=f"g{depth - 1}")
        body.append("  " + LOOPS[loop].format(op=grow, n=ROUNDS[n], c=BIG[c]))
    body += ["  " + SINKS[s] for s in sinks]
    return NUMBERS_SPEC.format(
        table=table, k=("1", "2", "9" * 400, "1" + "0" * 3999)[k], x0=starts[x0],
        y0=starts[y0], defs="\n".join(defs), score=SCORES[score], body="\n".join(body))


def _number_specs() -> st.SearchStrategy[str]:
    step = st.tuples(st.integers(0, len(LOOPS) - 1), st.integers(0, len(GROWTH) - 1),
                     st.integers(0, len(BIG) - 1), st.integers(0, len(ROUNDS) - 1))
    return st.builds(_numbers_spec, st.sampled_from((2, 3, 4)), st.integers(0, 3),
                     st.integers(0, 7), st.integers(0, 7), st.integers(0, 14),
                     st.lists(step, min_size=1, max_size=4),
                     st.lists(st.integers(0, len(SINKS) - 1), max_size=3),
                     st.integers(0, len(SCORES) - 1))


#: command lines with numbers where a number goes (``V``), over the numbers spec ``s.rules``
NUMBER_COMMANDS: tuple[tuple[str, ...], ...] = (
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "300", "-o", "k=V"),
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "300", "-o", "lim=V"),
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "300", "-o", "kind=V"),
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "300", "--seed", "V"),
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "300", "--dealer", "V"),
    ("simulate", "s.rules", "-p", "V", "-n", "1", "--max-events", "300"),
    ("simulate", "s.rules", "-p", "2", "-n", "1", "--max-events", "V"),
    ("compile", "s.rules", "-o", "k=V"),
    ("compile", "s.rules", "-p", "V"),
    ("doc", "s.rules", "-o", "k=V", "-p", "2"),
    ("doc", "s.rules", "-p", "V"),
    ("verify", "s.rules", "--python", "tests.fuzz:conforming_implementation", "-p", "2", "-n",
     "1", "--timeout", "V", "--out", "v.json"),
    ("verify", "s.rules", "--python", "tests.fuzz:conforming_implementation", "-p", "2", "-n",
     "1", "-o", "k=V", "--out", "v.json"),
    ("verify", "s.rules", "--python", "tests.fuzz:conforming_implementation", "-p", "2", "-n",
     "1", "--seed", "V", "--out", "v.json"),
    ("same-deal", "s.rules", "s.rules", "-p", "2", "--seed", "V"),
    ("same-deal", "s.rules", "s.rules", "-p", "2", "--dealer", "V"),
    ("same-deal", "s.rules", "s.rules", "-p", "2", "-a", "k=V"),
    ("diff", "s.rules", "s.rules", "-p", "2", "-n", "1", "--b-option", "k=V", "--out",
     "d.json"),
    ("serve", "--idle-timeout", "V"),
)
#: --budget is a time: a large one runs as long as it says, by design; these are the odd ones
BUDGETS = ("nan", "NaN", "-nan", "0", "-1", "1e-308", "0.5", "x", "")


def _number_command(command: tuple[str, ...], value: str, spec: str) -> Input:
    argv = [a.replace("V", value) if a in ("V", "k=V", "lim=V", "kind=V") else a
            for a in command]
    stdin = None
    if argv[0] == "serve":
        stdin = "\n".join([json.dumps({"op": "new", "game": "s.rules", "players": 2}),
                           '{"op": "to_move"}', '{"op": "result"}', '{"op": "quit"}']) + "\n"
    case = {"files": {"s.rules": spec}, "argv": argv, "stdin": stdin}
    return Input("command", _json_bytes(case), how=_shown_argv(argv)[:200], label="numbers")


def _number_budget(value: str, spec: str) -> Input:
    command = ("verify", "s.rules", "--python", "tests.fuzz:conforming_implementation", "-p",
               "2", "-n", "1", "--budget", "V", "--out", "v.json")
    return _number_command(command, value, spec)


def _put_numbers(value: Any, paths: Sequence[tuple[object, ...]], numbers: Sequence[str]
                 ) -> bytes:
    """The JSON text of ``value`` with the node at each path replaced by a number spelled as
    in ``numbers`` (a path that no longer leads anywhere is let go)."""
    v = _copy(value)
    for i, path in enumerate(paths):
        try:
            v = _put(v, path, f"{_NUM}{i}")
        except (KeyError, IndexError, TypeError):
            continue
    text = json.dumps(v, ensure_ascii=False)
    text = re.sub(r'"\\u0000NUM:(\d+)"', lambda m: numbers[int(m.group(1))], text)
    return text.encode("utf-8")


def _number_paths(record: dict[str, Any], options: Sequence[str], header: bool
                  ) -> list[tuple[object, ...]]:
    """The places of a record where a number goes, or could: in its ``header``, the table,
    the dealer and each option; else the fields of its events (seats, positions, cards)."""
    paths: list[tuple[object, ...]] = []
    if header:  # an option three times out of four: there are more ways to be wrong
        paths += [("players",), ("dealer",)]
        return paths + [("options", name) for name in options] * 6
    for i, ev in enumerate(record.get("events", [])[:30]):
        for key, value in ev.items():
            paths.append(("events", i, key))
            if isinstance(value, list) and value:
                paths.append(("events", i, key, 0))
                paths.append(("events", i, key, len(value) - 1))
    return paths


@functools.cache
def _spec_options(seeds: Seeds, sub: str) -> dict[str, tuple[str, ...]]:
    """The options of the spec a seed record plays, each with the values the spec names."""
    from rulespec.loading import resolve
    from rulespec.verify.schedule import option_values

    game = next(r["game"] for s, r in seeds.records if s == sub)
    if game in _game_options():
        return _game_options()[game]
    values = option_values(resolve(seeds.folder / sub / game).spec)
    return {name: tuple(str(v).lower() if isinstance(v, bool) else str(v) for v in vs)
            for name, vs in values.items()}


def _respelled(value: str, how: int) -> str:
    """A whole number as JSON may spell it otherwise: a float, an exponent, a boolean."""
    if not re.fullmatch(r"-?[0-9]+", value):
        return NUMBER_JSON[how % len(NUMBER_JSON)]
    return (f"{value}.0", f"{value}e0", f"{value}.00000000000000001", f"{value}.5",
            "true" if value == "1" else f"{value}E0")[how % 5]


def number_cases(seeds: Seeds) -> st.SearchStrategy[Input]:
    """``numbers``: number growth through every operator (``+``, ``-``, ``*``, ``//``, ``%``,
    unary minus, ``sum``, ``max``, ``min``, ``count``, ``range``; docs/language.md has no
    power) in loops and chains of definitions, and the grown numbers used as scores, results,
    seats, counts and sizes (:data:`GROWTH`, :data:`LOOPS`, :data:`SINKS`); numbers of
    thousands of digits, floats, NaN and infinities in command-line options and arguments
    (:data:`NUMBER_COMMANDS`), in records (the table, the dealer, options, event fields:
    :data:`NUMBER_JSON`) and in protocol requests.

    Fails on a crash (an OverflowError or the ValueError of Python's integer-string limit is an
    internal error), a hang, and a record of a shipped game, or one whose option is not a
    whole number, that ``replay`` answers with a rule's runtime error (exit 70): a bad value
    in a record is a bad record."""
    specs = _number_specs()
    in_spec = specs.map(lambda text: Input("spec-cli", text.encode("utf-8"),
                                           how="numbers spec", label="numbers"))
    commands = st.builds(_number_command, st.sampled_from(NUMBER_COMMANDS),
                         st.sampled_from(NUMBER_TEXTS), specs)
    budgets = st.builds(_number_budget, st.sampled_from(BUDGETS), specs)
    small = [i for i, (sub, rec) in enumerate(seeds.records) if len(rec["events"]) < 400]

    def record(i: int, picks: list[tuple[int, int]]) -> Input:
        sub, rec = seeds.records[i]
        options = _spec_options(seeds, sub)
        # half the numbers in the header (options above all), half in the events; half those
        # of options are one of the option's own values spelled otherwise (1.0 for 1)
        chosen = [(lambda paths: paths[a % len(paths)])(_number_paths(
            rec, list(options), a % 2 == 0 or not rec["events"])) for a, _ in picks]
        numbers = [_respelled(options[str(p[1])][b // 2 % len(options[str(p[1])])], b // 7)
                   if p[0] == "options" and b % 2 and options[str(p[1])] else
                   NUMBER_JSON[b % len(NUMBER_JSON)] for p, (_, b) in zip(chosen, picks,
                                                                         strict=True)]
        data = _put_numbers(rec, chosen, numbers)
        case = {"record": data.decode("utf-8"), "shipped": rec["game"] in _game_options(),
                "odd_options": any(p[0] == "options" and not re.fullmatch(r"-?[0-9]+", n)
                                   for p, n in zip(chosen, numbers, strict=True))}
        return Input("replay", _json_bytes(case), sub, how=f"{sub} {chosen} {numbers}"[:300],
                     label="numbers")

    def conversation_(i: int, picks: list[tuple[int, int]]) -> Input:
        sub, rec = seeds.records[i]
        lines = conversation(rec, 6)
        new = json.loads(lines[0])
        paths = [("players",), ("dealer",)] + [("options", o) for o in _spec_options(
            seeds, sub)]
        numbers = [NUMBER_JSON[b % len(NUMBER_JSON)] for _, b in picks]
        lines[0] = _put_numbers(new, [paths[a % len(paths)] for a, _ in picks],
                                numbers).decode("utf-8")
        lines.insert(-1, '{"op": "observe", "seat": ' + numbers[0] + "}")
        return Input("serve", "\n".join(lines).encode("utf-8") + b"\n", sub,
                     how=f"{sub} {picks}", label="numbers")

    def respelled(i: int, which: int, value: int, how: int) -> Input:
        # one option of a record, a number it takes spelled otherwise (1.0, 1e0, true for 1)
        sub, rec = seeds.records[i]
        numeric = {k: [v for v in vs if re.fullmatch(r"-?[0-9]+", v)]
                   for k, vs in _spec_options(seeds, sub).items()}
        names = sorted(k for k, vs in numeric.items() if vs) or ["x"]
        name = names[which % len(names)]
        values = numeric.get(name) or ["1"]
        number = _respelled(values[value % len(values)], how)
        data = _put_numbers(rec, [("options", name)], [number])
        case = {"record": data.decode("utf-8"), "shipped": rec["game"] in _game_options(),
                "odd_options": True}
        return Input("replay", _json_bytes(case), sub, how=f"{sub} {name}={number}",
                     label="numbers")

    pick = st.lists(st.tuples(st.integers(0, 2**16), st.integers(0, 2**16)), min_size=1,
                    max_size=3)
    # the records of shipped games half the time: their specs have no fault of their own, so
    # a rule's runtime error in their replay is the record's values reaching the rules
    shipped = [i for i in small if seeds.records[i][1]["game"] in _game_options()]
    records = st.builds(record, st.one_of(st.sampled_from(shipped), st.sampled_from(small)),
                        pick)
    conversations = st.builds(conversation_, st.sampled_from(small), pick)
    options = st.builds(respelled, st.sampled_from(small), st.integers(0, 99),
                        st.integers(0, 9), st.integers(0, 4))
    return st.one_of(in_spec, in_spec, commands, commands, budgets, records, options,
                     conversations)


def conforming_implementation() -> Any:
    """A Python implementation for ``verify --python``: the engine of ``s.rules`` in the
    current folder."""
    return _spec_implementation()


# ---- chains: definitions, procedures, flat sums, deep values ------------------------------
CHAIN_SPEC = '''# expect players: 2
game chains title "Chains"
players 2 to 3
winner highest total
zone stock: shared visible to nobody
zone hand: per player visible to owner
var tally: int = 0
{decls}
def score(p: int) = {score}
''' + DEAL_OPENING + '''{body}
{decision}
}}
''' + MATCH_HIGHEST
DECISION = '''  choose left_of(dealer) {
    show() "Turn your card." {
      end deal scoring score
    }
  }'''
CHAIN_LENGTHS = (2, 50, 99, 100, 101, 149, 150, 151, 300, 1000, 1200, 2000, 3000)
#: a link of a chain of definitions: ``{i}`` this one, ``{j}`` the one before
DEF_LINKS = (
    ("def d{i}() = d{j}() + 1", "def d0() = 1", "d{last}() + p"),
    ("def d{i}(v: int) = d{j}(v) + 1", "def d0(v: int) = v", "d{last}(p)"),
    ("def d{i}(v: int) = d{j}(v) + d{j}(v) - d{j}(v)", "def d0(v: int) = v", "d{last}(p)"),
    ("def d{i}(v: int) = if v > {i} then d{j}(v) else {i}", "def d0(v: int) = v",
     "d{last}(p)"),
    ("def d{i}(v: int) = [d{j}(v)]", "def d0(v: int) = v", "size(d{last}(p))"),
    ("def d{i}(v: int) = d{j}(v) and v >= 0", "def d0(v: int) = v >= 0",
     "if d{last}(p) then 1 else 0"),
    ("def d{i}(v: int) = d{j}(v + 1)", "def d0(v: int) = v", "d{last}(p)"),
    ("def d{i}(v: int) = sum(d{j}(w) for w in [v])", "def d0(v: int) = v", "d{last}(p)"),
    ("def d{i}(v: int) = d{j}(d{j}(v))", "def d0(v: int) = v + 1", "d{last}(p)"),
)
#: a link of a chain of procedures
PROC_LINKS = ("", "set tally = tally + 1", "if tally > 5 {{\n    set tally = 0\n  }}",
              "for r in seats {{\n    set tally = tally + r\n  }}", "let v{i} = q",
              "p{k}(q)")
#: flat chains of N terms: ``{t}`` a term; and nestings of N levels
FLAT = ("+", "-", "*", "and", "or", "list", "sum", "else-if", "parens", "not", "minus",
        "if-expr", "concat", "statements", "blocks", "nested-list", "comprehension")


def _chain_defs(n: int, link: int, order: int) -> str:
    pattern, first, use = DEF_LINKS[link]
    decls = [first] + [pattern.format(i=i, j=i - 1) for i in range(1, n)]
    if order == 1:
        decls.reverse()
    elif order == 2:
        random.Random(n * 31 + link).shuffle(decls)
    return CHAIN_SPEC.format(decls="\n".join(decls), score=use.format(last=n - 1), body="",
                             decision=DECISION)


def _chain_procs(n: int, link: int, decision_deep: bool) -> str:
    procs = []
    for i in range(n):
        # the last link calls the one before the one before too: calls that double
        stmt = "" if link == len(PROC_LINKS) - 1 and i < 2 else \
            PROC_LINKS[link].format(i=i, k=i - 2)
        if i == 0:
            call = DECISION if decision_deep else "  set tally = tally + q"
        else:
            call = f"  p{i - 1}(q)"
        procs.append(f"procedure p{i}(q: int) {{\n  {stmt}\n{call}\n}}")
    return CHAIN_SPEC.format(decls="\n".join(procs), score="rank(first(hand[p])) + tally",
                             body=f"  p{n - 1}(dealer)", decision="" if decision_deep
                             else DECISION)


def _chain_flat(n: int, form: str) -> str:
    score, body, decls = "rank(first(hand[p]))", "", ""
    if form in ("+", "-", "*"):
        score = f" {form} ".join(["1"] * n) + " + rank(first(hand[p]))"
    elif form in ("and", "or"):
        score = "if " + f" {form} ".join(["p >= 0"] * n) + " then 1 else 0"
    elif form == "list":
        score = "size([" + ", ".join(str(i) for i in range(n)) + "])"
    elif form == "sum":
        score = "sum([" + ", ".join(str(i) for i in range(n)) + "])"
    elif form == "else-if":
        arms = " else if ".join(f"p == {i} then {i}" for i in range(n))
        score = f"if {arms} else 0"
    elif form == "parens":
        score = "(" * n + "p" + ")" * n
    elif form == "not":
        score = "if " + "not " * n + "true then 1 else 0"
    elif form == "minus":
        score = "- " * n + "p"
    elif form == "if-expr":
        score = " ".join(f"if p > {i} then {i} else" for i in range(n)) + " 0"
    elif form == "concat":
        score = "size(" + " + ".join(f"[{i}]" for i in range(n)) + ")"
    elif form == "statements":
        body = "\n".join(["  set tally = tally + 1"] * n)
    elif form == "blocks":
        body = "  " + "if true { " * n + "set tally = 1" + " }" * n
    elif form == "nested-list":
        score = "size(" + "[" * n + "1" + "]" * n + ")"
    else:
        assert form == "comprehension"
        score = "size(" + "[" * n + "q0" + "".join(f" for q{i} in seats]" for i in range(n)) + ")"
    return CHAIN_SPEC.format(decls=decls, score=score, body=body, decision=DECISION)


DEPTHS = (10, 100, 500, 900, 990, 999, 1000, 1001, 2000, 5000, 100_000)
#: the answer an implementation nests deep, and how
DEEP_OPS = ("to_move", "legal", "result", "observe")
#: an implementation in a child process that answers one request with a value nested deep
#: (and everything else with a plausible answer): what verify reads from a pipe
DEEP_SCRIPT = r'''import json, sys
op, depth, shape = sys.argv[1], int(sys.argv[2]), sys.argv[3]
deep = "[" * depth + "0" + "]" * depth if shape == "list" else '{"a": ' * depth + "0" + "}" * depth
plain = json.dumps({"ok": True, "to_move": "chance", "legal": [], "complete": False,
                    "deals": [], "totals": [0, 0], "winners": [], "observation": {}})
for line in sys.stdin:
    o = json.loads(line).get("op")
    if o == "quit":
        break
    if o == op:
        key = {"to_move": "to_move", "legal": "legal", "observe": "observation"}.get(o, "totals")
        sys.stdout.write('{"ok": true, "complete": true, "%s": %s}\n' % (key, deep))
    else:
        sys.stdout.write(plain + "\n")
    sys.stdout.flush()
'''


def _nested(depth: int, shape: str) -> Any:
    v: Any = 0
    for i in range(depth):
        v = [v] if shape == "list" or (shape == "mixed" and i % 2) else {"a": v}
    return v


def deep_implementation() -> Any:
    """A Python implementation for ``verify --python``: the engine of ``s.rules`` in the
    current folder, except that one answer is nested deep (``RULESPEC_FUZZ_DEEP``:
    ``OP:DEPTH:SHAPE``, SHAPE ``list``, ``dict`` or ``mixed``)."""
    op, depth, shape = os.environ["RULESPEC_FUZZ_DEEP"].split(":")
    impl = _spec_implementation()
    deep = _nested(int(depth), shape)
    real = getattr(impl, op)

    def answer(*args: Any) -> Any:
        value = real(*args)
        if op == "result":
            return {**value, "totals": deep}
        if op == "legal":
            return [*value, {"action": deep}]
        return deep

    setattr(impl, op, answer)
    return impl


def chain_cases(seeds: Seeds) -> st.SearchStrategy[Input]:
    """``chains``: chains of definitions (each calling the one before, once, twice or
    nested, up to 3,000 long, in order, reversed or shuffled: :data:`DEF_LINKS`), chains of
    procedures (up to 3,000, the decision at the far end or not), flat sums, products,
    ``and``s, ``or``s, lists, ``else if``s and statements of up to 3,000 terms, and nestings
    (:data:`FLAT`), checked and played; values nested up to 100,000 deep (lists, objects,
    both) in record events, replayed; and in the answers of an implementation under
    ``verify``, in process (``--python``) and in a child process (``--impl``).

    Fails on a crash (a RecursionError is an internal error) and a hang. A chain refused as
    nested too deeply is a clean refusal (its stage says so)."""
    def spec(text: str, how: str) -> Input:
        return Input("table", text.encode("utf-8"), how=how, label="chains")

    lengths = st.sampled_from(CHAIN_LENGTHS)
    defs = st.builds(lambda n, link, order: spec(_chain_defs(n, link, order),
                                                 f"defs {n} link {link} order {order}"),
                     lengths, st.integers(0, len(DEF_LINKS) - 1), st.integers(0, 2))
    procs = st.builds(lambda n, link, deep: spec(_chain_procs(n, link, deep),
                                                 f"procedures {n} link {link} deep {deep}"),
                      lengths, st.integers(0, len(PROC_LINKS) - 1), st.booleans())
    flat = st.builds(lambda n, form: spec(_chain_flat(n, form), f"flat {form} {n}"),
                     lengths, st.sampled_from(FLAT))
    small = [i for i, (sub, rec) in enumerate(seeds.records) if len(rec["events"]) < 400]

    def record(i: int, where: int, depth: int, shape: str) -> Input:
        sub, rec = seeds.records[i]
        rec = _copy(rec)
        events = rec["events"]
        k = where % max(1, len(events))
        deep = f"{_NUM}0"
        if not events:
            rec["options"] = {"x": deep}
        elif where % 4 == 0:
            events[k] = deep
        else:
            key = sorted(events[k])[where % len(events[k])] if where % 4 == 1 else "extra"
            events[k][key] = deep
        text = ("[" * depth + "0" + "]" * depth if shape == "list" else
                '{"a": ' * depth + "0" + "}" * depth if shape == "dict" else
                '[{"a": ' * (depth // 2) + "0" + "}]" * (depth // 2))
        data = json.dumps(rec).replace(json.dumps(deep), text)
        case = {"record": data, "shipped": False, "odd_options": False}
        return Input("replay", _json_bytes(case), sub, how=f"{sub} event {k} {shape} {depth}",
                     label="chains")

    records = st.builds(record, st.sampled_from(small), st.integers(0, 2**16),
                        st.sampled_from(DEPTHS), st.sampled_from(("list", "dict", "mixed")))

    def answers(op: str, depth: int, shape: str, child: bool) -> Input:
        spec_text = _ok_spec("minimal")
        if child:
            impl = ["--impl", " ".join(shlex.quote(a) for a in (
                sys.executable, "-c", DEEP_SCRIPT, op, str(depth),
                "list" if shape == "list" else "dict"))]
        else:
            impl = ["--python", "tests.fuzz:deep_implementation"]
        argv = ["verify", "s.rules", *impl, "-p", "2", "-n", "1", "--timeout", "5", "--out",
                "v.json"]
        case = {"files": {"s.rules": spec_text}, "argv": argv, "stdin": None,
                "env": {"RULESPEC_FUZZ_DEEP": f"{op}:{depth}:{shape}"}}
        return Input("command", _json_bytes(case), how=f"verify, {op} nested {depth} deep "
                     f"({shape}, {'child' if child else 'in process'})", label="chains")

    deep_answers = st.builds(answers, st.sampled_from(DEEP_OPS), st.sampled_from(DEPTHS),
                             st.sampled_from(("list", "dict", "mixed")), st.booleans())
    return st.one_of(defs, procs, flat, records, deep_answers)


# ---- the runners of the classes of issue 23 -----------------------------------------------
def _run_spec_cli(data: bytes, base: Path, folder: Path) -> str:
    """A spec checked and played (:func:`_run_spec`), then played by ``rulespec simulate
    --records`` and its record replayed by ``rulespec replay``, at the table of its header."""
    stage = _run_spec(data, folder)
    if stage in ("syntax", "check"):
        return stage
    asked = re.match(rb"# expect players: ([0-9]+)", data)
    players = asked.group(1).decode() if asked else "2"
    recs = folder / "recs"
    res = cli(["simulate", "fuzz.rules", "-p", players, "-n", "1", "--seed", "1",
               "--max-events", str(MAX_EVENTS), "--records", str(recs)])
    stages = [stage, f"simulate {res.exit_code}"]
    for rec in sorted(recs.glob("*.json")):
        stages.append(f"replay {cli(['replay', str(rec)]).exit_code}")
    return "; ".join(stages)


def _run_command(data: bytes, base: Path, folder: Path) -> str:
    """A command line over files of its own: ``{"files": {NAME: TEXT}, "argv": [...],
    "stdin": TEXT or null, "env": {...}}``."""
    case = _json_case(data)
    for name, text in case["files"].items():
        (folder / name).write_text(text, encoding="utf-8")
    env = case.get("env") or {}
    os.environ.update(env)
    try:
        res = cli(case["argv"], case.get("stdin"))
    except _Hang as e:
        raise _Hang(f"{e}: {_shown_argv(case['argv'])}") from None
    finally:
        for name in env:
            os.environ.pop(name, None)
    return f"{case['argv'][0]} exit {res.exit_code}"


def _run_replay(data: bytes, base: Path, folder: Path) -> str:
    """A record replayed by ``rulespec replay``, from the seed folder ``base`` (where the spec
    it names is): ``{"record": TEXT, "shipped": BOOL, "odd_options": BOOL}``. A rule's runtime
    error (exit 70) from a record of a shipped game, or from one whose options are not whole
    numbers, is a failure: the record's values reached the rules."""
    case = _json_case(data)
    path = base / f".fuzz-{os.getpid()}.json"
    path.write_text(case["record"], encoding="utf-8")
    try:
        res = cli(["replay", str(path)])
    finally:
        path.unlink()
    if res.exit_code == 70 and (case["shipped"] or case["odd_options"]):
        why = "of a shipped game" if case["shipped"] else "with an option that is no integer"
        raise _Failure(f"rulespec replay of a record {why} exits 70 (a rule's runtime error): "
                       f"a bad value in a record is a bad record, exit 1:\n{res.output[-2000:]}")
    return f"replay exit {res.exit_code}"


#: the runners of the classes of issue 23, by the ``kind`` of their inputs: each takes the
#: input's data, its seed folder, and the fresh folder it runs in
RUNNERS: dict[str, Callable[[bytes, Path, Path], str]] = {
    "files": _run_files, "book": _run_book, "device": _run_device,
    "table": lambda data, base, folder: _run_spec(data, folder), "spec-cli": _run_spec_cli,
    "command": _run_command, "replay": _run_replay,
}


# ---- campaigns ----------------------------------------------------------------------------
def save_failure(inp: Input, outcome: Outcome) -> Path:
    """Write a failing input (and what went wrong, beside it) to :data:`FAILURES`."""
    FAILURES.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(inp.data).hexdigest()[:12]
    # a command line is kept as the JSON list of its arguments; the runners of issue 23's
    # classes take JSON objects
    ext = {"spec": ".rules", "table": ".rules", "spec-cli": ".rules", "record": ".json",
           "serve": ".serve", "cli": ".cli"}.get(inp.kind, ".case.json")
    path = FAILURES / f"{inp.label or inp.kind}-{digest}{ext}"
    path.write_bytes(inp.data)
    path.with_name(path.name.removesuffix(ext) + ".txt").write_text(
        f"kind: {inp.kind}\nlabel: {inp.label}\nbase: {inp.base}\nhow: {inp.how}\n\n"
        f"{outcome.failure}\n", encoding="utf-8", errors="backslashreplace")
    return path


@attrs.define
class Tally:
    """What a campaign ran: inputs, seconds, and how far each got."""

    inputs: int = 0
    seconds: float = 0.0
    stages: dict[str, int] = attrs.field(factory=dict)
    #: the highest peak resident memory a worker reported, in bytes
    peak_rss: int = 0

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        self.inputs += 1
        self.seconds += outcome.seconds
        self.peak_rss = max(self.peak_rss, outcome.peak_rss)
        stage = re.sub(r"\d+ answers", "answers", outcome.stage)
        self.stages[stage] = self.stages.get(stage, 0) + 1


#: failures found and kept as known failures in tests/hostile/ (their fix belongs to a module
#: someone else is editing): the case that shows each, and what its traceback matches. The
#: fuzzer counts them and goes on, so that they do not hide new ones; the strict xfail of the
#: case tells when one is fixed (then its line here goes too)
KNOWN_FAILURES: dict[str, re.Pattern[str]] = {}


def known_failure(failure: str) -> str | None:
    """The hostile case of a known failure this failure is, if any."""
    return next((case for case, pattern in KNOWN_FAILURES.items() if pattern.search(failure)),
                None)


def check_input(worker: Worker, inp: Input, tally: Tally | None = None) -> None:
    """Run ``inp``; on a failure, save it and fail with what went wrong (Hypothesis then
    shrinks the input and shows the smallest that fails). A known failure is counted in
    ``tally`` (stage ``known: CASE``) and passes."""
    outcome = worker.run(inp)
    if outcome.failure is not None and (case := known_failure(outcome.failure)):
        outcome = attrs.evolve(outcome, failure=None, stage=f"known: {case}")
    if tally is not None:
        tally.add(outcome)
    if outcome.failure is not None:
        path = save_failure(inp, outcome)
        shown = "\n".join(line if len(line) <= 300 else line[:300] + " ..."
                          for line in outcome.failure.splitlines()[-60:])
        raise AssertionError(f"{inp!r}\nsaved as {path}\n{shown}")


def campaign(kind: str, worker: Worker, seeds: Seeds, examples: int,
             tally: Tally | None = None, seed: int | None = None) -> None:
    """Throw ``examples`` inputs of ``kind`` at rulespec under Hypothesis (which shrinks the
    first failure); AssertionError on a failure. ``seed`` makes the run repeatable."""
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck), print_blob=True)
    @given(strategy(kind, seeds))
    def run(inp: Input) -> None:
        check_input(worker, inp, tally)

    if seed is not None:
        from hypothesis import seed as hyp_seed

        run = hyp_seed(seed)(run)
    # an input is up to some 40 kB of spec: Hypothesis warns as it shows the failing one, and
    # the suite's warnings-as-errors would put that warning in the failure's place
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)
        run()


#: the inputs of one slice of a long run: each slice runs under a Hypothesis seed of its own, so
#: that a run can be cut into parts that run apart (``--seed-range``)
SLICE = 500


@attrs.frozen
class Slice:
    """A part of a long run: ``examples`` inputs of ``kind`` under the Hypothesis seed
    ``seed``; ``index`` is its place in the run's :func:`plan`."""

    index: int
    kind: str
    examples: int
    seed: int


def plan(counts: Mapping[str, int], start: int, size: int = SLICE) -> list[Slice]:
    """A run of ``counts[kind]`` inputs of each kind, cut into slices of at most ``size``
    inputs, slice ``i`` under the seed ``start + i``. Each kind's slices are spread evenly over
    the list, so that a range of it (:func:`seed_range`) holds about the same share of every
    kind: the parts of a run split by ranges take about as long as each other, and together,
    with the same ``start``, they are the whole run."""
    parts = []
    for kind, n in counts.items():
        k = -(-n // size)
        parts += [((j + 0.5) / k, KINDS.index(kind), kind, min(size, n - j * size))
                  for j in range(k)]
    parts.sort()
    return [Slice(i, kind, n, start + i) for i, (_, _, kind, n) in enumerate(parts)]


def seed_range(text: str) -> range:
    """``A:B`` as the slices ``A`` to ``B - 1`` of a :func:`plan` (``A:`` to the end, ``:B``
    from the start)."""
    a, sep, b = text.partition(":")
    if not sep or not re.fullmatch(r"[0-9]*", a + b):
        raise ValueError(f"a seed range is A:B (slices A to B - 1), not {text!r}")
    return range(int(a or 0), int(b) if b else 10**9)


def run_slices(worker: Worker, seeds: Seeds, slices: Sequence[Slice],
               tally: Tally | None = None) -> None:
    """Run each slice (:func:`campaign` under its seed); AssertionError at the first failure,
    naming the slice."""
    for s in slices:
        try:
            campaign(s.kind, worker, seeds, s.examples, tally, s.seed)
        except AssertionError as e:
            raise AssertionError(f"slice {s.index} ({s.kind}, seed {s.seed}): {e}") from None


def reduce_lines(data: bytes, fails: Callable[[bytes], bool]) -> bytes:
    """The smallest set of ``data``'s lines (in order) that still ``fails``, found by deleting
    chunks of lines, halving the chunk when none can go (delta debugging, ddmin)."""
    lines = data.split(b"\n")
    chunk = max(1, len(lines) // 2)
    while chunk >= 1:
        i, removed = 0, False
        while i < len(lines):
            trial = lines[:i] + lines[i + chunk:]
            if trial and fails(b"\n".join(trial)):
                lines, removed = trial, True
            else:
                i += chunk
        if not removed:
            chunk //= 2
    return b"\n".join(lines)


@contextlib.contextmanager
def fuzzing(games: int = 2) -> Iterator[tuple[Worker, Seeds]]:
    """A worker and the seed records, in a temporary folder, for the time of the block."""
    with tempfile.TemporaryDirectory(prefix="rulespec-fuzz-seeds-") as folder:
        seeds = write_seeds(Path(folder), games)
        with Worker(Path(folder)) as worker:
            yield worker, seeds


def _main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split(
        "\n\n")[0])
    ap.add_argument("--kind", choices=KINDS, action="append",
                    help="the kinds of input (repeatable; default: all)")
    ap.add_argument("--examples", type=int, default=1000, help="inputs of each kind")
    ap.add_argument("--seed", type=int, default=None, help="a repeatable run of this seed "
                    "(with --seed-range: the seed of the first slice; 0 if not given)")
    ap.add_argument("--seed-range", metavar="A:B", type=seed_range, default=None,
                    help=f"cut each kind's inputs into slices of {SLICE}, slice i under the "
                         "seed SEED + i, and run only the slices A to B - 1: parts of one run "
                         "(the same --kind, --examples and --seed) that run apart")
    ap.add_argument("--skip", metavar="REGEX", action="append", default=[],
                    help="count a failure whose text matches as known and go on "
                         "(repeatable): to find the next class once one is understood")
    ap.add_argument("--reduce", metavar="FILE", help="cut a failing input down line by line "
                                                     "(a spec, a record or a conversation)")
    args = ap.parse_args(argv)
    kinds = args.kind or list(KINDS)
    for rx in args.skip:
        KNOWN_FAILURES[f"--skip {rx}"] = re.compile(rx)
    with fuzzing() as (worker, seeds):
        if args.reduce:
            data = Path(args.reduce).read_bytes()
            kind = {"grammar": "spec", "totals": "table", "chains": "table",
                    "numbers": "spec-cli"}.get(kinds[0], kinds[0])
            if kind not in ("spec", "table", "spec-cli", "record", "serve"):
                ap.error(f"--reduce cuts lines of a spec, a record or a conversation; a "
                         f"{kinds[0]} input is a JSON case: shorten it by hand")
            base = seeds.records[0][0]
            small = reduce_lines(data, lambda d: worker.run(
                Input(kind, d, base)).failure is not None)
            sys.stdout.buffer.write(small + b"\n")
            print(worker.run(Input(kind, small, base)).failure, file=sys.stderr)
            return 0
        status = 0
        slices = None
        if args.seed_range is not None:
            start = args.seed or 0
            whole = plan({k: args.examples for k in kinds}, start)
            slices = [s for s in whole if s.index in args.seed_range]
            print(f"{len(slices)} of the {len(whole)} slices of the run of seed {start} "
                  f"({args.seed_range.start} to {min(args.seed_range.stop, len(whole)) - 1})",
                  flush=True)
        for kind in kinds:
            tally = Tally()
            t0 = time.perf_counter()
            try:
                if slices is None:
                    campaign(kind, worker, seeds, args.examples, tally, args.seed)
                else:
                    run_slices(worker, seeds, [s for s in slices if s.kind == kind], tally)
            except AssertionError as e:
                shown = "".join(traceback.format_exception_only(e))
                print(f"{kind}: FAILED\n{shown[-8000:]}", file=sys.stderr)
                status = 1
            took = time.perf_counter() - t0
            print(f"{kind}: {tally.inputs} inputs in {took:.0f} s, "
                  f"{tally.inputs / max(took, 1e-9):.1f}/s, worker peak "
                  f"{tally.peak_rss / 2**20:.0f} MiB; stages {tally.stages}", flush=True)
    return status


if __name__ == "__main__":
    # run as tests.fuzz, not as __main__: the worker's answers are tests.fuzz.Outcome objects
    from tests.fuzz import _main as main

    sys.exit(main())
