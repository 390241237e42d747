"""The client's modules without circles, screens that know no app, no table keyed by variant.

Read from the source (tests/import_graph.py): nothing is run. A screen that
imported the app could only be tested inside it; a circle means no module of
it can be read or replaced without the others; a terminal client file that
names one of the five variants would play a sixth one differently (the
browser client's files, client/web/, are checked by tests/web/).
"""

from __future__ import annotations

import re

from shared.variants import STANDARD
from tests.import_graph import ROOT, cycles, import_graph

#: the terminal client's files: its Python and its stylesheet
CLIENT_FILES = ("*.py", "*.tcss")


def test_there_is_no_import_circle_among_the_clients_modules() -> None:
    graph = import_graph("client")
    assert "client.app" in graph and "client.screens.home" in graph
    assert cycles(graph) == []


def test_the_import_graph_finds_a_circle_where_there_is_one() -> None:
    # The check above can fail: a screen importing the app back is a circle it reports.
    graph = import_graph("client")
    graph["client.screens.home"] = graph["client.screens.home"] | {"client.app"}
    assert any("client.app" in c and "client.screens.home" in c for c in cycles(graph))


def test_no_screen_imports_the_app() -> None:
    graph = import_graph("client")
    screens = {name: uses for name, uses in graph.items() if name.startswith("client.screens")}
    assert len(screens) >= 6
    assert {name for name, uses in screens.items() if "client.app" in uses} == set()
    # nor does the app's base that drives the race screens
    assert "client.app" not in graph["client.race_room"]


def test_no_terminal_client_file_switches_on_a_variants_id() -> None:
    # What differs between variants comes in VariantInfo (layout, pile_names, race_default).
    ids = [re.escape(cls.id) for cls in STANDARD] + ["thumb"]
    pattern = re.compile("|".join(ids), re.IGNORECASE)
    found = []
    for glob in CLIENT_FILES:
        for path in sorted((ROOT / "client").rglob(glob)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
