"""The repo stands alone: nothing in it cites a file outside it, and every page it cites exists.

A fresh clone is all a reader has. A docstring that says "see rules.md" must
mean docs/rules.md, and that page must be there; a path into a folder beside
the repo (the reference texts the project was written from) points at
nothing on anyone else's machine. The CI's own folder (.ci/) is the
machinery's, not the project's, and is left out.
"""

from __future__ import annotations

import re
from pathlib import Path

from shared import protocol
from shared.protocol import codes

ROOT = Path(__file__).resolve().parent.parent

#: folders that are not the project's text: tools' caches, installs, data, the CI's machinery
SKIPPED = {"data", "build", "dist", "node_modules", "__pycache__"}

#: what a citation of a place outside the repo looks like
OUTSIDE = re.compile(
    r"\.\./shared"
    r"|shared/(?:spec|reference)\b"
    r"|\bspec/(?:rules|notation|protocol|style)\.md"
    r"|aisleriot-help"
    r"|/work/"
)

#: a page of docs/ named with its folder: docs/rules.md
DOCS_PAGE = re.compile(r"(?<![\w./-])docs/([\w-]+\.md)\b")
#: a page named alone: rules.md (in a docstring, or a link from one page of docs/ to another)
BARE_PAGE = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")
#: names the reference texts had; named alone in the repo, they must mean a page of docs/
REFERENCE_NAMES = {"rules.md", "notation.md", "protocol.md", "style.md"}

#: pages of docs/ that a benchmark writes when it runs, named by the code that writes them
GENERATED = {"winnability.md": "bench/winnability.py"}


def _texts() -> list[Path]:
    """Every text file of the project (binary files, caches and installs left out)."""
    found: list[Path] = []
    for top in sorted(ROOT.iterdir()):
        if top.name.startswith(".") or top.name in SKIPPED or top.name.endswith(".egg-info"):
            continue
        candidates = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in candidates:
            if not path.is_file() or SKIPPED & set(path.relative_to(ROOT).parts):
                continue
            try:
                path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            found.append(path)
    return found


def _lines() -> list[tuple[str, int, str]]:
    """(file, line number, line) of every text but this one, whose examples must fail."""
    me = Path(__file__).resolve()
    return [
        (path.relative_to(ROOT).as_posix(), n, line)
        for path in _texts()
        if path != me
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
    ]


def cites_outside(lines: list[tuple[str, int, str]]) -> list[str]:
    """``file:line: text`` of each line that cites a path outside the repo."""
    return [f"{f}:{n}: {line.strip()}" for f, n, line in lines if OUTSIDE.search(line)]


def missing_pages(lines: list[tuple[str, int, str]], docs: set[str]) -> list[str]:
    """``file:line: page`` of each page of docs/ that a line names and ``docs`` lacks."""
    found = []
    for f, n, line in lines:
        named = set(DOCS_PAGE.findall(line))
        named |= {page for page in BARE_PAGE.findall(line) if page in REFERENCE_NAMES}
        for page in sorted(named - docs):
            if page not in GENERATED:
                found.append(f"{f}:{n}: docs/{page}")
    return found


def _docs() -> set[str]:
    return {p.name for p in (ROOT / "docs").glob("*.md")}


def test_the_texts_are_found() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _texts()}
    assert {"README.md", "docs/rules.md", "shared/deals.py", "client/web/js/dialect.js"} <= names
    assert not any(name.startswith(".ci/") for name in names)


def test_no_file_cites_a_path_outside_the_repo() -> None:
    found = cites_outside(_lines())
    assert not found, "the repo must stand alone; cite docs/ instead:\n" + "\n".join(found)


def test_every_page_of_docs_that_a_file_names_exists() -> None:
    found = missing_pages(_lines(), _docs())
    assert not found, "these pages are named but not in docs/:\n" + "\n".join(found)


def test_a_generated_page_is_written_by_the_code_that_says_so() -> None:
    for page, writer in GENERATED.items():
        assert f"docs/{page}" in (ROOT / writer).read_text(encoding="utf-8")


def test_the_protocol_page_shows_every_message_and_every_error_code() -> None:
    # docs/protocol.md is the whole contract: a client written from it alone meets nothing
    # the page does not show.
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    types = set(protocol.REQUESTS) | set(protocol.REPLIES)
    assert not {kind for kind in types if f'"type": "{kind}"' not in text}
    table = text[text.index("Every error code") :].split("\n\n", 2)[1]
    shown = set(re.findall(r"^\| `([a-z_]+)` \|", table, re.MULTILINE))
    assert shown == {getattr(codes, name) for name in codes.__all__ if name != "CLIENT_FAULTS"}


def test_the_checks_catch_what_they_are_for() -> None:
    # Each check, on lines made to fail it: a guard that cannot fail guards nothing.
    lines = [
        # (the path is written in two pieces so that no file of the repo holds it whole)
        ("a.py", 1, '"""The deal (../shared/' + 'spec/rules.md, "Keyed deals")."""'),
        ("b.md", 2, "See /work/shared/reference/aisleriot-help-fr."),
        ("c.js", 3, "// as spec/protocol.md writes it"),
        ("d.py", 4, "# the notation of notation.md"),
        ("e.md", 5, "docs/rules.md and docs/nowhere.md and style.md"),
    ]
    assert [line.split(":")[0] for line in cites_outside(lines)] == ["a.py", "b.md", "c.js"]
    assert missing_pages(lines, {"rules.md"}) == [
        "d.py:4: docs/notation.md",
        "e.md:5: docs/nowhere.md",
        "e.md:5: docs/style.md",
    ]
    assert missing_pages(lines, {"rules.md", "notation.md", "nowhere.md", "style.md"}) == []
