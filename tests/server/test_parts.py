"""The parts of the server name what they use: only the app assembles them, and no import
goes round in a circle.

A part that reaches for the whole ``App`` depends on everything, and a circle
of imports means none of its modules can be read or tested alone; both are
read here from the source (:mod:`tests.import_graph`), so a shortcut taken
under ``TYPE_CHECKING`` or inside a function counts too.
"""

from __future__ import annotations

from pathlib import Path

from server.app import App
from server.cluster import news
from server.config import Config
from tests.import_graph import cycles, import_graph, importers_of


def test_no_module_of_the_server_but_the_app_imports_the_app() -> None:
    assert importers_of("server", "server.app", "App") == []


def test_the_server_s_modules_import_each_other_in_no_circle() -> None:
    graph = import_graph("server")
    assert {"server.app", "server.races.service", "server.cluster.node"} <= graph.keys()
    assert "server.races.service" in graph["server.app"]
    assert cycles(graph) == []


def test_the_import_graph_finds_a_circle_and_who_imports_a_name(tmp_path: Path) -> None:
    """The checks above can fail: a package whose modules import each other is caught,
    under ``TYPE_CHECKING`` and through a relative import included."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..c import C\n"
    )
    (package / "c.py").write_text("def f():\n    from pkg import a\nclass C: ...\n")
    (package / "d.py").write_text("import pkg.c\n")
    graph = import_graph("pkg", tmp_path)
    assert graph["pkg.sub.b"] == {"pkg.c"}
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert importers_of("pkg", "pkg.c", "C", tmp_path) == ["pkg.sub.b"]


def test_every_kind_of_news_the_cluster_delivers_has_a_part_that_hears_it(config: Config) -> None:
    """A new kind of news that no part subscribes to would be told and lost: the presence
    news stays in the cluster's roster, ``released`` arrives as ``ClaimDue``, and every other
    kind (and each of the cluster's own events) is heard by some part of the app."""
    app = App(config)
    kept = {news.Online, news.Offline, news.Roster, news.RollCall, news.Released}
    own = {news.PresenceChanged, news.BoardPushed, news.LeaseLost, news.ClaimDue, news.RedisBack}
    heard = {kind for kind in (set(news.KINDS.values()) - kept) | own}
    assert {kind for kind in heard if not app.cluster.subscribers.heard(kind)} == set()
