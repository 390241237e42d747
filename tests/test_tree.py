"""The shape of the tree: modules small enough to read whole, and text that says what the code does.

A module grows past what one reader holds in mind one helper at a time, so the
limit is checked rather than remembered; and a comment that says which round of
work added something tells a reader nothing about what it does, so none may.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shared", "server", "client")

#: "about 400 lines": a little room above it, none for a module that doubles it
MAX_LINES = 450

HISTORY = re.compile(r"\b(issue|session|round) ?#?\d+\b", re.IGNORECASE)


def _modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def _scripts() -> list[Path]:
    """The browser client's own JavaScript (a vendored file is someone else's to split)."""
    found = sorted((ROOT / "client" / "web").rglob("*.js"))
    return [p for p in found if "vendor" not in p.parts]


def _texts() -> list[Path]:
    found = _modules() + sorted((ROOT / "docs").glob("*.md"))
    return found + _scripts()


def test_the_packages_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _modules() + _scripts()}
    assert {"shared/game.py", "server/app.py", "client/app.py", "client/web/js/board.js"} <= names


@pytest.mark.parametrize(
    "path", _modules() + _scripts(), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_module_is_over_the_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(ROOT)} has {lines} lines: split it by its jobs"


def test_no_text_tells_the_history_of_the_code() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in _texts()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert not found, "say what the code does, not which work added it:\n" + "\n".join(found)
