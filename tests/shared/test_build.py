"""Which build of the engine runs: compiled (mypyc and C) or pure Python (shared/build.py).

``make test`` runs the suite in the compiled build and the engine's and the
solver's tests again in the pure one (``PATIENCE_PURE=1``), each time telling
this module which build it expects (``PATIENCE_EXPECT_BUILD``), so a compiled
build that silently failed to load fails here instead of passing as pure.
Each check of a build imports the engine in a fresh interpreter, where no
earlier import can decide what is loaded.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import shared
from shared.build import COMPILED, LIBRARY, PURE_SWITCH, SourcesOnly, compiled_state

ROOT = Path(__file__).resolve().parents[2]

#: imports the whole engine and solver, then says which build each shared module came from
_PROBE = """
import json, sys
import shared.games, shared.solver, shared.stuck, shared.player_view
from shared.solver import hints
from shared.variants.freecell.boards import COMPILED_CHILDREN
from shared.variants.keys import COMPILED_KEY
files = {n: getattr(m, "__file__", None) for n, m in sys.modules.items() if n.startswith("shared")}
print(json.dumps({"build": shared.build.BUILD, "files": files,
                  "children": COMPILED_CHILDREN is not None, "key": COMPILED_KEY is not None}))
"""


def _probe(**env: str) -> dict[str, object]:
    environ = {k: v for k, v in os.environ.items() if k != PURE_SWITCH} | env
    done = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-c", _PROBE],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _is_extension(file: object) -> bool:
    return isinstance(file, str) and file.endswith(tuple(EXTENSION_SUFFIXES))


def _built_here() -> bool:
    return compiled_state({}, str(ROOT / "shared")).build == "compiled"


def test_this_run_has_the_build_it_expects() -> None:
    # make test sets the expectation: compiled where a C compiler works, pure in the second pass
    expected = os.environ.get("PATIENCE_EXPECT_BUILD")
    if expected is None:
        pytest.skip("PATIENCE_EXPECT_BUILD not set (make test sets it)")
    assert expected == shared.build.BUILD, shared.build.WHY
    assert (sys.modules["shared.game"].__file__ or "").endswith(".py") == (expected == "pure")


def test_the_pure_switch_loads_no_compiled_module() -> None:
    result = _probe(**{PURE_SWITCH: "1"})
    assert result["build"] == "pure"
    files = result["files"]
    assert isinstance(files, dict) and "shared.solver.hints" in files
    compiled = sorted(name for name, file in files.items() if not str(file).endswith(".py"))
    assert compiled == [], f"loaded compiled in the pure build: {compiled}"
    assert result["children"] is False  # nor Freecell's C children
    assert result["key"] is False  # nor the C position key


@pytest.mark.skipif(not _built_here(), reason="the compiled build is not installed here")
def test_the_default_loads_every_compiled_module_and_no_source_of_one() -> None:
    result = _probe()
    assert result["build"] == "compiled"
    files = result["files"]
    assert isinstance(files, dict)
    loaded = [name for name in COMPILED if name in files]
    assert "shared.game" in loaded and "shared.solver.freecell_portfolio" in loaded
    sources = [name for name in loaded if not _is_extension(files[name])]
    assert sources == [], f"compiled build, but these came from their sources: {sources}"
    assert result["children"] is True
    assert result["key"] is True


def test_the_pure_switch_is_off_when_empty_or_zero() -> None:
    assert compiled_state({PURE_SWITCH: "1"}).build == "pure"
    for off in ("", "0"):
        assert compiled_state({PURE_SWITCH: off}) == compiled_state({})


def _fake_package(root: Path, *, library: bool = True) -> Path:
    """A package laid out as the install leaves it: each compiled module's source and its
    extension, and the library, all newer than the sources."""
    package = root / "shared"
    suffix = EXTENSION_SUFFIXES[0]
    for module in COMPILED:
        path = package.joinpath(*module.split(".")[1:])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".py").write_text("", encoding="utf-8")
        path.with_name(path.name + suffix).write_bytes(b"")
        os.utime(path.with_suffix(".py"), (1_000, 1_000))
    if library:
        (package / (LIBRARY + suffix)).write_bytes(b"")
    return package


def test_a_fresh_build_is_loaded(tmp_path: Path) -> None:
    assert compiled_state({}, str(_fake_package(tmp_path))).build == "compiled"


def test_no_library_means_pure(tmp_path: Path) -> None:
    choice = compiled_state({}, str(_fake_package(tmp_path, library=False)))
    assert (choice.build, choice.stale) == ("pure", False)


def test_a_source_edited_after_the_build_means_pure_and_says_which(tmp_path: Path) -> None:
    package = _fake_package(tmp_path)
    (package / "game.py").write_text("# edited\n", encoding="utf-8")
    os.utime(package / "game.py", (4_000_000_000, 4_000_000_000))
    choice = compiled_state({}, str(package))
    assert (choice.build, choice.stale) == ("pure", True)
    assert "shared.game changed" in choice.why


def test_a_module_left_out_of_the_build_means_pure(tmp_path: Path) -> None:
    package = _fake_package(tmp_path)
    (package / ("cards" + EXTENSION_SUFFIXES[0])).unlink()
    choice = compiled_state({}, str(package))
    assert (choice.build, choice.stale) == ("pure", True)
    assert "lacks shared.cards" in choice.why


def test_setup_compiles_the_modules_the_loader_checks() -> None:
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    listed = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    )
    paths = ast.literal_eval(listed)
    names = tuple(path[: -len(".py")].removesuffix("/__init__").replace("/", ".") for path in paths)
    assert names == COMPILED


def test_an_extension_not_in_the_build_is_never_loaded(tmp_path: Path) -> None:
    # left over from an older install that compiled it, or any module in the pure build
    suffix = EXTENSION_SUFFIXES[0]
    (tmp_path / "leftover.py").write_text("", encoding="utf-8")
    (tmp_path / ("leftover" + suffix)).write_bytes(b"")
    (tmp_path / ("only_c" + suffix)).write_bytes(b"")
    pure = SourcesOnly(frozenset())
    spec = pure.find_spec("shared.leftover", [str(tmp_path)])
    assert spec is not None and spec.origin == str(tmp_path / "leftover.py")
    with pytest.raises(ModuleNotFoundError):
        pure.find_spec("shared.only_c", [str(tmp_path)])
    # a module the build compiles is left to the usual finders, which prefer its extension
    assert (
        SourcesOnly(frozenset({"shared.leftover"})).find_spec("shared.leftover", [str(tmp_path)])
        is None
    )
    assert pure.find_spec("server.app", [str(tmp_path)]) is None  # only shared is its business
