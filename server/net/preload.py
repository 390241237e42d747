"""The ``<link rel="modulepreload">`` lines of the page, worked out from the client's imports.

A page of ES modules learns a module's imports only once that module has arrived, so without
help the browser fetches the graph a level at a time, a round trip each. A modulepreload line
for every module the page will run lets it ask for them all at once, in the order given. The
lines are made when the server starts, from each module's static imports (``import ... from
'./x.js'``), so they cannot go stale as modules are added, split or renamed: first the entry's
own graph (main.js and what it imports: it runs, and opens the WebSocket, once those are in),
then the graph of the one screen the address shows (main.js imports a screen's module when it
is routed to, so a game's page does not wait for the home page's modules, nor home for a
replay's).
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
#: the page's entry module, as index.html names it
ENTRY = re.compile(r'<script type="module" src="(/[^"]+\.js)"></script>')

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
    """``html`` with a modulepreload line, after its entry's script tag, for each module the
    entry needs and then each one ``screen`` needs (``needs``: each module's imports, from
    :func:`imports`); unchanged when it names no entry."""
    entry = ENTRY.search(html)
    if entry is None:
        return html
    first = graph(entry.group(1), needs)
    listed = first[1:]  # the script tag fetches the entry itself
    if screen is not None:
        listed += graph(screen, needs, set(first))
    lines = "".join(f'\n<link rel="modulepreload" href="{path}">' for path in listed)
    return html[: entry.end()] + lines + html[entry.end() :]
