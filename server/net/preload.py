"""The ``<link rel="modulepreload">`` lines of the page, worked out from the client's imports.

A page of ES modules learns a module's imports only once that module has arrived, so without
help the browser fetches the graph a level at a time, a round trip each. A modulepreload line
for every module the page will run lets it ask for them all at once, in the order given. The
lines are made when the server starts, from each module's static imports (``import ... from
'./x.js'``), so they cannot go stale as modules are added, split or renamed. Each of the page's
module scripts gets the lines of its own graph just after its tag, in the page's order: boot.js
(it runs on its own, ``async``, and opens the WebSocket once its few imports are in), then
main.js's graph (less what boot.js's listed), then the graph of the one screen the address shows
(main.js imports a screen's module when it is routed to, so a game's page does not wait for the
home page's modules, nor home for a replay's).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

#: a static import or re-export of a relative module (one line or several); side-effect imports
IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b[^'"`;]*?\bfrom\s*['"](\.{1,2}/[^'"]+\.js)['"]"""
    r"""|^[ \t]*import\s*['"](\.{1,2}/[^'"]+\.js)['"]""",
    re.MULTILINE,
)
#: a module script of the page (an entry), as index.html names it: boot.js (``async``), main.js
ENTRY = re.compile(r'<script type="module"(?: [a-z]+(?:="[a-z]+")?)* src="(/[^"]+\.js)"></script>')

#: the module of the screen each address shows (main.js's routes), by its first path segment
SCREENS = {
    "": "/js/home.js",
    "play": "/js/game.js",
    "game": "/js/game.js",
    "daily": "/js/daily.js",
    "leaderboard": "/js/daily.js",
    "race": "/js/race.js",
    "arenas": "/js/arena.js",
    "arena": "/js/arena.js",
    "challenge": "/js/challenge.js",
    "replay": "/js/replay.js",
    "boards": "/js/boards.js",
    "player": "/js/profile.js",
}


def imports(path: str, source: str) -> list[str]:
    """The modules ``source`` (the module at ``path``) imports statically, as site paths."""
    folder = posixpath.dirname(path)
    found = []
    for match in IMPORT.finditer(source):
        spec = match.group(1) or match.group(2)
        found.append(posixpath.normpath(posixpath.join(folder, spec)))
    return found


def graph(start: str, needs: Mapping[str, list[str]], skip: set[str] | None = None) -> list[str]:
    """``start`` and every module it needs (``needs``: each module's imports), breadth first
    (nearest first: the order the browser will want them in), leaving out ``skip`` and modules
    not in ``needs``."""
    seen = set(skip or ())
    order: list[str] = []
    queue = [start]
    while queue:
        path = queue.pop(0)
        if path in seen or path not in needs:
            continue
        seen.add(path)
        order.append(path)
        queue.extend(needs[path])
    return order


def with_preloads(html: str, needs: Mapping[str, list[str]], screen: str | None) -> str:
    """``html`` with modulepreload lines (``needs``: each module's imports, from
    :func:`imports`): after each entry's script tag, each module that entry needs and no earlier
    line or tag has named; after the last, each one ``screen`` needs. Unchanged when it names
    no entry."""
    entries = list(ENTRY.finditer(html))
    if not entries:
        return html
    seen = {entry.group(1) for entry in entries}  # the script tags fetch the entries themselves
    out, at = [], 0
    for number, entry in enumerate(entries):
        listed = graph(entry.group(1), needs, seen - {entry.group(1)})[1:]
        seen.update(listed)
        if number == len(entries) - 1 and screen is not None:
            listed += graph(screen, needs, seen)
        lines = "".join(f'\n<link rel="modulepreload" href="{path}">' for path in listed)
        out += [html[at : entry.end()], lines]
        at = entry.end()
    return "".join([*out, html[at:]])
