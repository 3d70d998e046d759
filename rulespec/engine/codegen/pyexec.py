"""The one door through which generated code runs, and what every generated function shares.

:func:`exec_source` execs a generated definition, registering its text with :mod:`linecache`
so that a traceback through it shows the generated line; :func:`pyname` gives a spec name its
Python name in a namespace no compiler temporary can reach (style.md habit 14);
:func:`runtime_error` maps a Python exception in generated code to the rule's
:class:`~rulespec.errors.RuleRuntimeError`; ``overwork``, ``overproc`` and ``overcall`` raise the
work budget's errors (:data:`~rulespec.engine.machine.MAX_WORK`).
"""

from __future__ import annotations

import itertools
import linecache
import re
import types
from collections.abc import Callable
from typing import Any, NoReturn

from rulespec.engine.machine import MAX_WORK
from rulespec.errors import RuleRuntimeError
from rulespec.lang import ast
from rulespec.lang.builtins import LimitError

__all__ = ["CATCH", "READS_STATE", "RUNNERS", "exec_source", "overcall", "overproc", "overwork",
           "pyname", "runtime_error"]


def pyname(n: str) -> str:
    """The Python name of a spec name or a compiler temporary. A spec's names (letters, digits
    and ``_``) become ``v_NAME``; a temporary ``NAME#K`` (a parameter bound once, a renamed
    bound variable) becomes ``tK_NAME``: the two namespaces cannot meet, whatever a spec names
    its variables (``x_1`` and the temporary ``x#1`` once both became ``v_x_1``)."""
    base, sep, k = n.partition("#")
    return f"t{k}_{base}" if sep else "v_" + n


#: generated sources registered with linecache, so that tracebacks show them; one counter
#: makes each file name unique
_SOURCE_IDS = itertools.count()
#: the names registered, oldest first, and how many are kept
_REGISTERED: list[str] = []
_REGISTERED_MAX = 20_000


def _commentable(text: str) -> str:
    """``text`` as it may stand in a comment of generated source: itself when it is printable
    ASCII, else as :func:`ascii` spells it.

    A spec's file name is user text. Written raw, a line break in it (LF, CR, a form feed, or
    U+2028, at which ``splitlines`` and so linecache break) would end the comment and put the
    rest of the name into the program (style.md habit 14)."""
    return text if text.isascii() and text.isprintable() else ascii(text)


#: what runs a generated text in Python's place (rulespec.engine.native, while it builds a
#: game): ``runner(full_text, name, globals)`` gives the function, or None to leave it to exec
RUNNERS: list[Callable[[str, str, dict[str, object]], Any]] = []

#: code compiled from each generated text, by the text: the tables of one spec mostly generate
#: the same functions (a book compiles a table for each player count), and Python's compiler
#: is a tenth of the time a table takes to compile
_CODE: dict[str, types.CodeType] = {}
_CODE_MAX = 4_096


def _compiled(full: str, filename: str) -> types.CodeType:
    """``compile(full, filename, "exec")``, reusing the code of the same text compiled before
    under another file name (each registration's own, for its tracebacks)."""
    code = _CODE.get(full)
    if code is None:
        code = compile(full, filename, "exec")
        if len(_CODE) >= _CODE_MAX:
            _CODE.clear()
        _CODE[full] = code
        return code
    return _renamed(code, filename)


def _renamed(code: types.CodeType, filename: str) -> types.CodeType:
    """``code`` and the code objects nested in it (a lambda, a comprehension) with the file
    name ``filename``."""
    consts = tuple(_renamed(c, filename) if isinstance(c, types.CodeType) else c
                   for c in code.co_consts)
    return code.replace(co_filename=filename, co_consts=consts)


def exec_source(text: str, name: str, glb: dict[str, object], span: ast.Span,
                what: str, sources: list[tuple[str, str]] | None = None) -> Any:
    """``exec`` the generated definition ``text`` and return the function ``name`` it defines.

    The one place generated code is run: the text gets a first line naming the spec clause it
    comes from, is registered with :mod:`linecache` under a unique ``<rules:...>`` name (so a
    traceback through it shows the generated line), and is appended to ``sources`` when given
    (``rulespec compile --emit``)."""
    head = f"# {_commentable(span.source)}:{span.line}:{span.column}: {_commentable(what)}\n"
    full = head + text
    filename = f"<rules:{_commentable(span.source)}:{span.line}#{next(_SOURCE_IDS)}>"
    linecache.cache[filename] = (len(full), None, full.splitlines(keepends=True), filename)
    _REGISTERED.append(filename)
    if len(_REGISTERED) > _REGISTERED_MAX:
        # a long-running process compiles table after table: the oldest sources go (a
        # traceback through their code then shows no source line, nothing worse)
        for old in _REGISTERED[:_REGISTERED_MAX // 2]:
            linecache.cache.pop(old, None)
        del _REGISTERED[:_REGISTERED_MAX // 2]
    if RUNNERS:
        fn = RUNNERS[-1](full, name, glb)
        if fn is not None:
            if sources is not None:
                sources.append((filename, full))
            return fn
    ns: dict[str, object] = {}
    try:
        code = _compiled(full, filename)
    except (SyntaxError, RecursionError) as e:
        # Python's own bounds on nesting (200 parentheses, 20 blocks, its parser's stack):
        # a spec within the checker's limits should not reach them, but one that does is
        # a spec too deep, said at its clause, not our internal error
        msg = e.msg if isinstance(e, SyntaxError) else "maximum recursion depth exceeded"
        if isinstance(e, SyntaxError) and "nested" not in msg:
            raise  # a syntax error of ours
        raise RuleRuntimeError(f"the rules here nest too deeply for Python to compile them "
                               f"({msg})", span,
                               "split the expression into definitions of its own") from None
    exec(code, glb, ns)
    if sources is not None:
        sources.append((filename, full))
    return ns[name]


def runtime_error(e: Exception, span: ast.Span) -> RuleRuntimeError:
    if isinstance(e, RuleRuntimeError):
        return e
    if isinstance(e, ZeroDivisionError):
        return RuleRuntimeError("division by zero", span)
    if isinstance(e, (KeyError, TypeError)):
        return RuleRuntimeError(f"a value of the wrong kind reached this rule ({e})", span,
                                "a card, suit or number was expected; is it none here?")
    if isinstance(e, IndexError):
        return RuleRuntimeError("this rule took a card or an element from an empty zone or "
                                "list, or a position past its end", span,
                                "guard the rule with size(...) > 0")
    return RuleRuntimeError(str(e), span)


def overwork(span: ast.Span) -> NoReturn:
    """Raise the runtime error of a loop past the work budget."""
    raise RuleRuntimeError(
        f"the loops here go round more than {MAX_WORK} times between two events", span,
        "a loop that runs this long between two decisions is almost certainly endless: "
        "check how it ends (RULESPEC_MAX_WORK sets the limit)")


def overproc() -> NoReturn:
    """Raise the error of procedure calls past the work budget (a LimitError: the generated
    code gives it the call's place)."""
    raise LimitError(f"procedures are called here more than {MAX_WORK} times between two "
                     "events: procedures that call others several times multiply their "
                     "work (RULESPEC_MAX_WORK sets the limit)")


def overcall(span: ast.Span) -> NoReturn:
    """Raise the runtime error of calls of a definition past the work budget."""
    raise RuleRuntimeError(
        f"this definition is called more than {MAX_WORK} times between two events", span,
        "definitions that call others several times multiply their work: compute a value "
        "once, with let (RULESPEC_MAX_WORK sets the limit)")


#: a name the generated code reads the state through (V, Z, L, st), or a temporary computed
#: from it before an enumerator's loops (``_hK``); not the state handed over for its budget
#: alone (``_spend(st, xs)``, ``st=st``), which reads no value of the rules
READS_STATE = re.compile(r"\b(?:V|Z|L|_h\d+)\b|(?<!_spend\()(?<!st=)\bst\b(?!=)")

#: the exceptions generated code turns into RuleRuntimeError (see runtime_error)
CATCH = "(IndexError, KeyError, TypeError, ZeroDivisionError, _Empty)"
