"""The part of the build pyproject.toml cannot say: the optional compiled builds.

Two speed-ups, both optional (docs/architecture.md, "The compiled build"):

- the engine compiled by mypyc: the modules in ``COMPILED`` become C extension
  modules beside their sources, sharing one library, ``shared/_engine__mypyc``;
- Freecell's stuck-search children in C (``_children.c``);
- the position key of the generic stuck search and the solver's engine search in C
  (``shared/variants/_keys.c``);
- the server's writes of one push to many sockets in C (``server/net/_sendeach.c``).

Every extension is ``optional``: where one does not compile (no C compiler, no
Python headers, ``CC=/bin/false``), the install goes on and the same code runs
in Python. ``PATIENCE_PURE=1`` at install time compiles nothing. The engine's
modules are built all or none: when its shared library fails, its per-module
stubs are not built either (a stub without its library could not be imported).
At run time ``shared.build`` loads the compiled modules only when all of them
are newer than their sources, and never under ``PATIENCE_PURE=1``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: the modules mypyc compiles: the engine (cards to variants, the game, the stuck proof) and
#: the solver's modules that compile. Kept in step with shared.build.COMPILED (a test checks).
COMPILED = (
    "shared/board_view.py",
    "shared/cards.py",
    "shared/errors.py",
    "shared/game.py",
    "shared/game_state.py",
    "shared/notation.py",
    "shared/player_view.py",
    "shared/position.py",
    "shared/record.py",
    "shared/refusals.py",
    "shared/rng.py",
    "shared/states.py",
    "shared/solver/api.py",
    "shared/solver/best_first.py",
    "shared/solver/engine_search.py",
    "shared/solver/freecell_fast.py",
    "shared/solver/freecell_moves.py",
    "shared/solver/freecell_portfolio.py",
    "shared/solver/freecell_search.py",
    "shared/solver/gypsy_dead.py",
    "shared/solver/gypsy_search.py",
    "shared/solver/osmosis_search.py",
    "shared/solver/waste_search.py",
    "shared/stuck/generic.py",
    "shared/stuck/unseen.py",
    "shared/variants/base.py",
    "shared/variants/freecell/boards.py",
    "shared/variants/freecell/rules.py",
    "shared/variants/freecell/search.py",
    "shared/variants/freecell/tables.py",
    "shared/variants/freecell/witness.py",
    "shared/variants/gypsy.py",
    "shared/variants/keys.py",
    "shared/variants/layout.py",
    "shared/variants/osmosis.py",
    "shared/variants/piles.py",
    "shared/variants/reasons.py",
    "shared/variants/safe.py",
    "shared/variants/thumb_and_pouch.py",
    "shared/variants/westhaven.py",
)
#: the library every compiled module of the engine needs (mypyc's group)
GROUP = "shared._engine"


def engine_extensions() -> list[Extension]:
    """The engine's extensions, or none where mypyc cannot make their C (or is told not to)."""
    if os.environ.get("PATIENCE_PURE", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("setup.py: mypyc is not installed: the engine stays pure Python", file=sys.stderr)
        return []
    try:
        extensions: list[Extension] = mypycify(
            ["--no-warn-unused-configs", *COMPILED], opt_level="3", group_name=GROUP
        )
    except (Exception, SystemExit) as exc:  # mypyc refused a module: no compiled engine
        print(f"setup.py: mypyc failed ({exc!r}): the engine stays pure Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
        extension.patience_engine = True  # type: ignore[attr-defined]
    # the library first: the stubs are built only if it was
    extensions.sort(key=lambda e: not e.name.endswith("__mypyc"))
    return extensions


class BuildExt(build_ext):
    """build_ext that skips the engine's stubs once its library has failed."""

    engine_failed = False

    def build_extension(self, ext: Any) -> None:
        engine = getattr(ext, "patience_engine", False)
        if engine and self.engine_failed:
            from setuptools.errors import CompileError

            raise CompileError(f"{ext.name}: not built, the engine's library did not build")
        try:
            super().build_extension(ext)
        except Exception:
            if engine:
                self.engine_failed = True
            raise


setup(
    ext_modules=[
        *engine_extensions(),
        Extension(
            "shared.variants.freecell._children",
            sources=["shared/variants/freecell/_children.c"],
            optional=True,
        ),
        Extension("shared.variants._keys", sources=["shared/variants/_keys.c"], optional=True),
        Extension("server.net._sendeach", sources=["server/net/_sendeach.c"], optional=True),
    ],
    cmdclass={"build_ext": BuildExt},
)
