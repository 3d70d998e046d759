"""The house's rules, read from the source: every ``import`` in ``rulespec/`` goes one way down the
layers of docs/architecture.md, no module imports itself back through others, and the few things
with one home stay there (``lark`` in the parser, ``hypothesis`` in verify and testing, ``print``
in the command line). A new edge that breaks a rule fails here, with the line that made it, as
``assert_never`` makes mypy name every ``match`` a new node is missing from.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rulespec"

#: the layers, bottom first: a module may import its own layer (without a cycle) or a lower one
LAYERS: list[tuple[str, ...]] = [
    ("rulespec.spans", "rulespec.shown", "rulespec.files", "rulespec.errors"),
    ("rulespec.lang",),
    ("rulespec.engine",),
    ("rulespec.loading", "rulespec.records", "rulespec.protocol", "rulespec.bots",
     "rulespec.bridge", "rulespec.simulate", "rulespec.columns"),
    ("rulespec.verify", "rulespec.book", "rulespec.sidebyside", "rulespec.testing",
     "rulespec.adapters", "rulespec.report", "rulespec.openspiel", "rulespec.pettingzoo"),
    ("rulespec.cli", "rulespec.cli_options", "rulespec.cli_progress", "rulespec.cli_simulate",
     "rulespec.__main__", "rulespec"),
]

#: the only modules that may import a third-party package that has one home
HOMES = {
    "lark": ("rulespec.lang.parser", "rulespec.lang.syntax_errors", "rulespec.lang.lalr_cache"),
    "hypothesis": ("rulespec.verify", "rulespec.testing"),
    # the adapter drives OpenSpiel's games for verify; the bridge makes a spec one of them
    "pyspiel": ("rulespec.adapters.openspiel", "rulespec.openspiel"),
    "rlcard": ("rulespec.adapters.rlcard", "rulespec.adapters.rlcard_gin_rummy"),
    "matplotlib": ("rulespec.report.plots",),
}

#: private names of the standard library's own API, which are public despite the underscore
STDLIB_PRIVATE = frozenset({"_replace", "_asdict", "_fields", "_make", "_exit", "_getframe"})


@attrs.frozen
class Import:
    """One ``import`` of a rulespec module or of a package with one home."""

    module: str  # the importing module
    target: str  # what it imports (a module, or a module's attribute spelled as a module)
    line: int
    in_function: bool

    def where(self) -> str:
        return f"{self.module.replace('.', '/')}.py:{self.line}"


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def modules() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text(encoding="utf-8"), str(p))
            for p in sorted(PACKAGE.rglob("*.py"))}


MODULES = modules()
PATHS = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str:
    """``name`` as the module it names: ``rulespec.lang.ast.Span`` is ``rulespec.lang.ast``."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def imports_of(module: str, tree: ast.Module) -> Iterator[Import]:
    """Every import in ``module``, with whether it sits inside a function."""
    def visit(node: ast.AST, in_function: bool) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(module, alias.name, child.lineno, inside)
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    target = full if _resolve(full) != child.module else child.module
                    yield Import(module, target, child.lineno, inside)
            yield from visit(child, inside)
    yield from visit(tree, False)


IMPORTS = [imp for mod, tree in MODULES.items() for imp in imports_of(mod, tree)]
EDGES = [(imp, _resolve(imp.target)) for imp in IMPORTS if imp.target.startswith("rulespec")]


def layer_of(module: str) -> int:
    best = (-1, -1)  # (length of the matching prefix, layer)
    for i, layer in enumerate(LAYERS):
        for prefix in layer:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), i))
    assert best[1] >= 0, f"{module} is in no layer of LAYERS: add it where it belongs"
    return best[1]


def test_every_module_has_a_layer() -> None:
    for mod in MODULES:
        layer_of(mod)


def test_imports_go_one_way_down() -> None:
    back = [f"{imp.where()}: {imp.module} (layer {layer_of(imp.module)}) imports {target} "
            f"(layer {layer_of(target)})"
            for imp, target in EDGES if layer_of(target) > layer_of(imp.module)]
    assert not back, "back edges:\n" + "\n".join(back)


def test_no_import_cycle() -> None:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp, target in EDGES:
        if target != imp.module and not target == "rulespec":
            graph[imp.module].add(target)
    # a package's __init__ re-exports its modules: an edge into the package is an edge into
    # the module that defines the name, so the package itself takes part in no cycle
    for pkg in [m for m in MODULES if (PACKAGE.parent / m.replace(".", "/")).is_dir()]:
        graph[pkg] = {t for t in graph[pkg] if not t.startswith(pkg + ".")}
    cycles = _strongly_connected(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(sorted(c)) for c in cycles)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm, iteratively: the components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = set()
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        comp.add(x)
                        if x == node:
                            break
                    if len(comp) > 1:
                        out.append(comp)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return out


@pytest.mark.parametrize("package", sorted(HOMES))
def test_packages_with_one_home(package: str) -> None:
    homes = HOMES[package]
    strays = [f"{imp.where()}: imports {imp.target}" for imp in IMPORTS
              if (imp.target == package or imp.target.startswith(package + "."))
              and not any(imp.module == h or imp.module.startswith(h + ".") for h in homes)]
    assert not strays, f"{package} outside {', '.join(homes)}:\n" + "\n".join(strays)


def test_only_the_command_line_prints() -> None:
    prints = [f"{mod.replace('.', '/')}.py:{node.lineno}" for mod, tree in MODULES.items()
              if mod != "rulespec.cli" for node in ast.walk(tree)
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "print"]
    assert not prints, "print( outside cli.py:\n" + "\n".join(prints)


def test_no_hidden_edges() -> None:
    """An import of rulespec inside a function hides a dependency from the module's head (the
    command line may: it keeps start-up fast by importing a command's stage when it runs)."""
    hidden = sorted({f"{imp.where()}: {imp.target}" for imp, _ in EDGES
                     if imp.in_function and imp.module != "rulespec.cli"})
    assert not hidden, "imports inside functions:\n" + "\n".join(hidden)


def _defined_names(tree: ast.Module) -> set[str]:
    """Every name a module defines anywhere: functions, classes, assignments, attributes it
    stores (``self._x = ...``), parameters and attrs fields."""
    names: set[str] = set()
    for node in ast.walk(tree):
        match node:
            case ast.FunctionDef(name=n) | ast.AsyncFunctionDef(name=n) | ast.ClassDef(name=n):
                names.add(n)
            case ast.Name(id=n, ctx=ast.Store()) | ast.arg(arg=n):
                names.add(n)
            case ast.Attribute(attr=n, ctx=ast.Store()):
                names.add(n)
            case ast.AnnAssign(target=ast.Name(id=n)):
                names.add(n)
            case _:
                pass
    return names


def _private_uses(tree: ast.Module) -> list[int]:
    """The lines where ``x._name`` reaches a private name this module does not define, on an
    object that is not ``self``/``cls``."""
    own = _defined_names(tree)
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__") and node.attr not in STDLIB_PRIVATE
            and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


def test_no_private_attribute_of_another_module() -> None:
    """``x._name`` on an object that is not ``self``/``cls`` names something this module defines
    (a private name of its own, reached through another instance of its own class); a private
    attribute of another module's object is that module's business."""
    found = [f"{mod.replace('.', '/')}.py:{line}" for mod, tree in MODULES.items()
             for line in _private_uses(tree)]
    assert not found, "private attributes of other modules' objects:\n" + "\n".join(found)


#: the house's sizes (docs/architecture.md): a module, a class, a function; State is the API
MAX_MODULE, MAX_CLASS, MAX_STATE, MAX_FUNCTION = 800, 600, 700, 60


def _is_dispatcher(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """One ``match`` with a case per node class (after a docstring, before a last ``return``):
    long for a good reason, as mypy's visitors are."""
    body = [s for s in fn.body
            if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if body and isinstance(body[-1], ast.Return):
        body = body[:-1]
    return len(body) == 1 and isinstance(body[0], ast.Match)


def test_rooms_stay_small() -> None:
    """No module over 800 lines, no class over 600 (``State`` 700), no function over 60 but a
    dispatcher: a room past these does several jobs, which its ``# ----`` comments will name."""
    big = []
    for mod, tree in MODULES.items():
        path = PATHS[mod].relative_to(PACKAGE.parent).as_posix()
        lines = len(PATHS[mod].read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE:
            big.append(f"{path}: {lines} lines")
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            if isinstance(node, ast.ClassDef):
                most = MAX_STATE if node.name == "State" else MAX_CLASS
            else:
                most = 10**9 if _is_dispatcher(node) else MAX_FUNCTION
            if size > most:
                big.append(f"{path}:{node.lineno}: {node.name} {size} lines")
    assert not big, "rooms too big:\n" + "\n".join(big)
