"""Which build of the engine this process runs: compiled (mypyc, C) or pure Python.

The install compiles the engine where a C compiler is at hand (setup.py): each
module listed in ``COMPILED`` gets a C extension module beside its source, all
of them sharing one library (``shared/_engine__mypyc``), Freecell's stuck
search gets ``_children`` and the position key ``_keys``. Python imports an
extension module before a source of the same name, so without this module the
compiled build would always win.

``shared/__init__.py`` imports this module before any other of the package, so
the choice is made once, for every module, before any is loaded:

- ``pure`` when ``PATIENCE_PURE`` is set (to anything but ``0``), when the
  compiled build is absent, or when it is stale: a source newer than the library
  (edited since the last install), whose compiled copy would silently run the old
  code. A stale build is named in a warning; ``make`` (or ``pip install -e .``)
  rebuilds it. In the pure build no compiled module of ``shared`` is loaded at all,
  the C ``_children`` and ``_keys`` included: a finder first on ``sys.meta_path`` answers every
  ``shared.*`` import with its source.
- ``compiled`` otherwise: every module in ``COMPILED`` is its extension module.

The two are never mixed: compiled modules call each other directly and share
their classes, so a pure copy of one beside compiled others would be a second,
different class. This is the one module of ``shared`` that reads the environment
and the disk (a few file times, once, at import); the engine itself still does no
I/O (tests/shared/test_purity.py).
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Mapping, Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from types import ModuleType
from typing import Any, NamedTuple

try:
    # mypyc reads this mark on a class at compile time (Rules: variants may be written in
    # Python, as tests/test_toy_variant.py's is, over the compiled base)
    from mypy_extensions import mypyc_attr as mypyc_attr
except ImportError:  # not installed (mypy comes with the test tools): the mark is mypyc's only

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


#: the modules the install compiles (setup.py's COMPILED, as module names)
COMPILED = (
    "shared.board_view",
    "shared.cards",
    "shared.errors",
    "shared.game",
    "shared.game_state",
    "shared.notation",
    "shared.player_view",
    "shared.position",
    "shared.record",
    "shared.refusals",
    "shared.rng",
    "shared.states",
    "shared.solver.api",
    "shared.solver.best_first",
    "shared.solver.engine_search",
    "shared.solver.freecell_fast",
    "shared.solver.freecell_moves",
    "shared.solver.freecell_portfolio",
    "shared.solver.freecell_search",
    "shared.solver.gypsy_dead",
    "shared.solver.gypsy_search",
    "shared.solver.osmosis_search",
    "shared.solver.waste_search",
    "shared.stuck.generic",
    "shared.stuck.unseen",
    "shared.variants.base",
    "shared.variants.freecell.boards",
    "shared.variants.freecell.rules",
    "shared.variants.freecell.search",
    "shared.variants.freecell.tables",
    "shared.variants.freecell.witness",
    "shared.variants.gypsy",
    "shared.variants.keys",
    "shared.variants.layout",
    "shared.variants.osmosis",
    "shared.variants.piles",
    "shared.variants.reasons",
    "shared.variants.safe",
    "shared.variants.thumb_and_pouch",
    "shared.variants.westhaven",
)
#: the extension modules written in C (setup.py), loaded in the compiled build only
C_EXTENSIONS = ("shared.variants.freecell._children", "shared.variants._keys")
#: the environment variable that forces the pure build
PURE_SWITCH = "PATIENCE_PURE"
#: mypyc's library of the compiled modules, inside the package
LIBRARY = "_engine__mypyc"

_ROOT = os.path.dirname(os.path.abspath(__file__))


def _source_of(root: str, module: str) -> str:
    path = os.path.join(root, *module.split(".")[1:])
    return os.path.join(path, "__init__.py") if os.path.isdir(path) else path + ".py"


def _extension_of(source: str) -> str | None:
    """The extension module built from ``source`` (a ``.py`` path), if there is one."""
    stem = source[: -len(".py")]
    for suffix in EXTENSION_SUFFIXES:
        if os.path.exists(stem + suffix):
            return stem + suffix
    return None


class Choice(NamedTuple):
    """The build a process loads, why, and whether a compiled build was there but stale."""

    build: str  # "compiled" or "pure"
    why: str
    stale: bool = False


def compiled_state(environ: Mapping[str, str], root: str = _ROOT) -> Choice:
    """The build a process with ``environ`` loads from the package at ``root``, judged
    from the files alone."""
    if environ.get(PURE_SWITCH, "") not in ("", "0"):
        return Choice("pure", f"{PURE_SWITCH} is set")
    library = _extension_of(os.path.join(root, LIBRARY + ".py"))
    if library is None:
        return Choice("pure", "the compiled build is not installed (no C compiler at install?)")
    built = os.stat(library).st_mtime
    for module in COMPILED:
        source = _source_of(root, module)
        if _extension_of(source) is None:
            return Choice("pure", f"the compiled build lacks {module}: make rebuilds it", True)
        if os.stat(source).st_mtime > built:
            return Choice(
                "pure", f"{module} changed since the compiled build: make rebuilds it", True
            )
    return Choice("compiled", "every compiled module is newer than its source")


class SourcesOnly:  # (a MetaPathFinder: importlib.abc would load tempfile and random)
    """Finds each ``shared.*`` module from its source unless it is in ``compiled``, the
    extension modules this build loads (none in the pure build). An extension left over
    from an older install of a module no longer compiled is never loaded."""

    def __init__(self, compiled: frozenset[str]) -> None:
        self.compiled = compiled

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("shared.") or path is None or fullname in self.compiled:
            return None
        for entry in path:
            spec = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(fullname)
            if spec is not None:
                return spec
        # an extension without a source (the C _children, mypyc's library): not in this build
        raise ModuleNotFoundError(f"{fullname} is compiled only: not in this build", name=fullname)


def choose() -> Choice:
    """Make the choice for this process (once, from shared/__init__.py) and say it."""
    choice = compiled_state(os.environ)
    compiled = frozenset((*COMPILED, f"shared.{LIBRARY}", *C_EXTENSIONS))
    if not any(isinstance(f, SourcesOnly) for f in sys.meta_path):
        sys.meta_path.insert(
            0, SourcesOnly(compiled if choice.build == "compiled" else frozenset())
        )
    if choice.build == "pure" and choice.stale:
        warnings.warn(f"running the pure-Python engine: {choice.why}", RuntimeWarning, 3)
    return choice


#: this process's build ("compiled" or "pure") and why
BUILD, WHY, _ = choose()
