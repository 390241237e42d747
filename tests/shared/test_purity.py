"""``shared/`` stays pure: standard library only, no I/O, no clock, no global random.

The server, the clients, the solver and other people's tools all import the
engine; anything it drags in (an event loop, a database driver, a socket, the
process-wide ``random`` state) would make replays machine-dependent or pull a
server stack into a thin client. Each module is imported in a fresh
interpreter, so that what another test imported cannot hide or fake a leak.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "shared"

#: packages that must never be loaded by importing a shared module
FORBIDDEN_LOADED = frozenset(
    {"asyncio", "websockets", "sqlalchemy", "aiosqlite", "alembic", "textual", "socket", "random"}
)
#: the wire format is the protocol envelope's whole purpose; no other module may need it
MSGPACK_OWNER = "shared.protocol.envelope"
#: the one module that chooses the build (compiled or pure) before the engine loads: it reads
#: the environment and a few file times (os), and holds mypyc's class marks (mypy_extensions,
#: optional: a no-op where it is not installed); nothing else of shared may
BUILD_CHOOSER = "shared.build"
BUILD_CHOOSER_IMPORTS = frozenset({"os", "mypy_extensions"})
#: standard-library modules that mean a clock, I/O or global randomness, refused even though
#: the interpreter may have loaded some of them (os, time) before any test runs; datetime is
#: allowed for dates as data, but not its clock (see CLOCK_READS)
FORBIDDEN_IMPORTED = frozenset(
    {
        "asyncio",
        "io",
        "os",
        "pathlib",
        "random",
        "secrets",
        "shutil",
        "socket",
        "subprocess",
        "tempfile",
        "threading",
        "time",
        "uuid",
    }
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


#: methods of datetime's classes that read the clock
CLOCK_READS = frozenset({"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"})


SOURCES = sorted(SHARED.rglob("*.py"))
MODULES = [_module_name(p) for p in SOURCES]

# Imports every module in turn and reports, per module, what its import added.
_PROBE = """
import importlib, json, sys
added = {}
for name in sys.argv[1:]:
    before = set(sys.modules)
    importlib.import_module(name)
    added[name] = sorted(set(sys.modules) - before)
print(json.dumps({"added": added, "loaded": sorted(sys.modules)}))
"""


def _probe(modules: list[str]) -> dict[str, Any]:
    """Import ``modules`` in one fresh interpreter: what each import added, and all loaded."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *modules],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"importing the shared modules failed:\n{done.stderr}"
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _tops(names: list[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement, however deeply nested."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def _clock_reads(path: Path) -> list[str]:
    """``datetime.now()``-like reads of the clock, as ``line: text``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in CLOCK_READS
        and ast.unparse(node.value).split(".")[0] in ("datetime", "date")
    ]


def test_every_shared_module_is_found() -> None:
    # Guards the parametrised tests below against silently testing nothing.
    assert "shared.game" in MODULES
    assert "shared.games" in MODULES
    assert "shared.variants.freecell" in MODULES


def test_a_fresh_interpreter_loads_none_of_the_forbidden_packages() -> None:
    # If the bare interpreter already held one of them, the per-module check
    # below could not tell a leak from the background.
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys; print(json.dumps(sorted(sys.modules)))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    baseline = {name.split(".")[0] for name in json.loads(done.stdout)}
    assert not baseline & (FORBIDDEN_LOADED | {"msgpack"})


def test_importing_the_shared_modules_loads_no_forbidden_package() -> None:
    # One interpreter for all: a leak is charged to the first module whose import loaded it.
    result = _probe(MODULES)
    leaks = {
        module: sorted(_tops(added) & FORBIDDEN_LOADED)
        for module, added in result["added"].items()
        if _tops(added) & FORBIDDEN_LOADED
    }
    assert not leaks, f"forbidden packages loaded by importing: {leaks}"
    assert not _tops(result["loaded"]) & FORBIDDEN_LOADED


def test_msgpack_is_loaded_only_through_the_protocol_module() -> None:
    others = [m for m in MODULES if m != MSGPACK_OWNER and not m.startswith(MSGPACK_OWNER + ".")]
    result = _probe(others)
    loaded = set(result["loaded"])
    if "msgpack" in _tops(result["loaded"]):
        importers = [m for m, added in result["added"].items() if "msgpack" in _tops(added)]
        assert MSGPACK_OWNER in loaded, f"{importers} load msgpack without {MSGPACK_OWNER}"


@pytest.mark.parametrize("path", SOURCES, ids=MODULES)
def test_shared_modules_import_only_the_standard_library_and_shared(path: Path) -> None:
    module = _module_name(path)
    bad = []
    for line, name in _imports(path):
        top = name.split(".")[0]
        if top in ("shared", "__future__"):
            continue
        if top == "msgpack" and module == MSGPACK_OWNER:
            continue
        if top in BUILD_CHOOSER_IMPORTS and module == BUILD_CHOOSER:
            continue
        if top not in sys.stdlib_module_names or top in FORBIDDEN_IMPORTED:
            bad.append(f"line {line}: {name}")
    assert not bad, f"{module} imports {bad}"
    assert not _clock_reads(path), f"{module} reads the clock: {_clock_reads(path)}"


# -- the direction of imports inside shared/ ----------------------------------------------

#: the solver: it may import the engine; nothing of the engine may import it
SOLVER = "shared.solver"
#: being rebuilt as one package by other work: its imports are that work's business
PROTOCOL = ("shared.protocol", "shared.protocol_races")


def _is_type_checking(node: ast.If) -> bool:
    return ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _runtime_imports(path: Path) -> tuple[list[str], list[str]]:
    """The shared modules ``path`` imports when it runs (what an ``if TYPE_CHECKING:`` block
    names left out; ``from package import module`` counted as the module), and the
    imports it makes inside a function or class body, as ``line: module``."""
    module = _module_name(path)
    # (the optional compiled module is a module too, though it has no .py file)
    known = set(MODULES) | {_module_name(c) for c in SHARED.rglob("*.c")}
    found: list[str] = []
    late: list[str] = []

    def visit(nodes: list[ast.stmt], nested: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node):
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [
                    f"{node.module}.{alias.name}"
                    if f"{node.module}.{alias.name}" in known
                    else node.module
                    for alias in node.names
                ]
            names = [n for n in names if n.split(".")[0] == "shared" and n != module]
            found.extend(names)
            if nested and names:
                late.extend(f"line {node.lineno}: {n}" for n in names)
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.AST):
                    deeper = nested or isinstance(
                        node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                    )
                    visit([n for n in inner if isinstance(n, ast.stmt)] or [], deeper)
                    for handler in inner:
                        if isinstance(handler, ast.ExceptHandler):
                            visit(handler.body, deeper)

    visit(ast.parse(path.read_text(encoding="utf-8")).body, False)
    return found, late


def _graph() -> dict[str, set[str]]:
    graph = {}
    for path, module in zip(SOURCES, MODULES, strict=True):
        if not module.startswith(PROTOCOL):
            graph[module] = {n for n in _runtime_imports(path)[0] if n in MODULES}
    return graph


def _reach(graph: dict[str, set[str]], start: str) -> list[list[str]]:
    """Paths from ``start`` to every module it reaches, one each (breadth-first)."""
    paths = {start: [start]}
    queue = [start]
    for current in queue:
        for nxt in sorted(graph.get(current, ())):
            if nxt not in paths:
                paths[nxt] = [*paths[current], nxt]
                queue.append(nxt)
    return list(paths.values())


def test_the_engine_imports_nothing_of_the_solver() -> None:
    graph = _graph()
    assert "shared.stuck" in graph and "shared.game" in graph  # it sees the engine
    leaks = [
        " -> ".join(path)
        for module in graph
        if not module.startswith(SOLVER)
        for path in _reach(graph, module)
        if path[-1].startswith(SOLVER)
    ]
    assert not leaks, f"engine modules that reach the solver: {leaks}"


def test_shared_imports_neither_the_server_nor_the_clients() -> None:
    bad = [
        f"{_module_name(path)} line {line}: {name}"
        for path in SOURCES
        for line, name in _imports(path)
        if name.split(".")[0] in ("server", "client", "bench", "tests")
    ]
    assert not bad, bad


def test_no_import_loop_and_no_import_inside_a_function() -> None:
    # A late import is how a loop hides; with none, the runtime graph must be a tree.
    late = {
        _module_name(path): _runtime_imports(path)[1]
        for path in SOURCES
        if not _module_name(path).startswith(PROTOCOL) and _runtime_imports(path)[1]
    }
    assert not late, f"imports inside functions or classes: {late}"
    graph = _graph()
    loops = [
        " -> ".join([*path, module])
        for module in graph
        for path in _reach(graph, module)
        if module in graph.get(path[-1], ()) and len(path) > 1
    ]
    assert not loops, f"import loops: {loops[:5]}"
