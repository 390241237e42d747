"""Who imports whom inside one package, read from the source with :mod:`ast` (nothing is run).

A circle of imports means no module of it can be read, tested or replaced
without all the others; the tests of the tree ask for none. Every import
counts, those under ``if TYPE_CHECKING:`` and inside functions included:
a reader follows them all the same.

:func:`import_graph` maps each module of a package to the modules of the same
package it imports; :func:`cycles` finds the circles in such a graph (its
strongly connected components of more than one module, or a module that
imports itself); :func:`importers_of` says which modules import a name from a
module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def module_name(path: Path, root: Path = ROOT) -> str:
    """``server/net/routing.py`` -> ``server.net.routing``; a package's __init__ is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(package: str, root: Path = ROOT) -> dict[str, Path]:
    """Every module of ``package`` by its dotted name."""
    return {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}


def _imports(tree: ast.Module, name: str, is_package: bool) -> Iterator[tuple[str, list[str]]]:
    """(module imported, names imported from it) for every import statement of a module."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            yield target, [alias.name for alias in node.names]


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``package`` it imports (``from a import b`` counts as
    importing ``a.b`` when ``b`` is a module, else ``a``)."""
    found = modules(package, root)
    graph: dict[str, set[str]] = {}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets: set[str] = set()
        for target, names in _imports(tree, name, path.name == "__init__.py"):
            if target not in found:
                continue
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in found]
            targets.update(submodules or [target])
            if len(submodules) < len(names):
                targets.add(target)
        targets.discard(name)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph``: each strongly connected component of two modules or more,
    sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        work.append((start, iter(sorted(graph.get(start, ())))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def importers_of(package: str, module: str, name: str, root: Path = ROOT) -> list[str]:
    """The modules of ``package`` that import ``name`` from ``module`` (anywhere in them)."""
    found = modules(package, root)
    importers = []
    for importer, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for target, names in _imports(tree, importer, path.name == "__init__.py"):
            if target == module and name in names:
                importers.append(importer)
                break
    return importers
