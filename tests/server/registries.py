"""Run in a fresh interpreter by test_app.py: which module-level containers of ``server`` change.

It imports every module of the ``server`` package, noting what every mutable
container held at module level (or as a class attribute) holds when its own
module has just been executed; once all are imported, a container that holds
something else was filled by another module's import: a registration by
import side effect. Then
it builds two apps, starts them, plays a little on both over real
WebSockets (hello, a game and a move, a room, stats, a leaderboard, an
unknown message, ``/metrics`` and ``/healthz``), stops them, and looks again.
It prints one JSON object: ``{"imports": [...], "apps": [...]}``, the
containers that changed at each step (both empty when none did).
"""

from __future__ import annotations

import asyncio
import collections
import functools
import importlib
import importlib.abc
import importlib.machinery
import json
import pkgutil
import sys
import tempfile
import urllib.request
import weakref
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

MUTABLE = (
    list,
    dict,
    set,
    bytearray,
    collections.deque,
    weakref.WeakKeyDictionary,
    weakref.WeakValueDictionary,
    weakref.WeakSet,
)


#: functions with a memo (functools.lru_cache, functools.cache)
MEMOS = (functools._lru_cache_wrapper,)


def containers(module: ModuleType) -> dict[str, Any]:
    """Every mutable container of ``module``'s own namespace and its classes, by dotted name."""
    found: dict[str, Any] = {}
    for name, value in vars(module).items():
        if isinstance(value, MUTABLE + MEMOS):
            found[f"{module.__name__}.{name}"] = value
        elif isinstance(value, type) and value.__module__ == module.__name__:
            for attr, member in vars(value).items():
                if isinstance(member, MUTABLE):
                    found[f"{module.__name__}.{name}.{attr}"] = member
    return found


def snapshot(modules: list[ModuleType]) -> dict[str, str]:
    """What each container holds now, as text that changes when its content does."""
    shot: dict[str, str] = {}
    for module in modules:
        for name, value in containers(module).items():
            if isinstance(value, MEMOS):
                shot[name] = repr(value.cache_info().currsize)
            elif isinstance(value, weakref.WeakKeyDictionary | weakref.WeakValueDictionary):
                shot[name] = repr(sorted(map(id, value.keys())))
            elif isinstance(value, dict):
                shot[name] = repr([(k, id(v)) for k, v in value.items()])
            elif isinstance(value, set | weakref.WeakSet):
                shot[name] = repr(sorted(map(id, value)))
            else:
                shot[name] = repr([id(item) for item in value])
    return shot


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(name for name in before.keys() & after.keys() if before[name] != after[name])


class _AtImport(importlib.abc.MetaPathFinder):
    """Notes the containers of each ``server`` module as they are when it has just run."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}

    def find_spec(
        self, name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name != "server" and not name.startswith("server."):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            self.seen.update(snapshot([module]))

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def import_all() -> tuple[list[ModuleType], list[str]]:
    watch = _AtImport()
    sys.meta_path.insert(0, watch)
    try:
        server = importlib.import_module("server")
        for info in pkgutil.walk_packages(server.__path__, "server."):
            importlib.import_module(info.name)
    finally:
        sys.meta_path.remove(watch)
    modules = [m for name, m in sorted(sys.modules.items()) if name.split(".")[0] == "server"]
    filled = changed(watch.seen, snapshot(modules))
    return modules, [f"{name} was changed by a later import" for name in filled]


async def exercise(directory: Path) -> None:
    from server.app import App
    from server.config import Config
    from tests.server.conftest import FakeClock, open_client

    apps = [
        App(
            Config(
                port=0,
                metrics_port=0,
                db=f"sqlite+aiosqlite:///{directory / f'{n}.db'}",
                daily_ahead=False,
                stuck_workers=0,
                hint_budget=0.01,
            ),
            clock=FakeClock(),
        )
        for n in range(2)
    ]
    for app in apps:
        await app.start()
    try:
        for n, app in enumerate(apps):
            client = await open_client(app)
            await client.hello(f"probe{n}")
            game = await client.start("freecell", seed=617)
            await client.move(game, game["legal"][0])
            await client.request("hint", game=game["id"])
            await client.request("create_room", variant="gypsy")
            await client.request("stats")
            await client.request("leaderboard", variant="gypsy")
            await client.request("nonsense")
            for port, path in ((app.metrics_port, "/metrics"), (app.port, "/healthz")):
                url = f"http://127.0.0.1:{port}{path}"
                await asyncio.to_thread(lambda u=url: urllib.request.urlopen(u).read())
            await client.ws.close()
    finally:
        for app in apps:
            await app.stop()


def main() -> None:
    modules, on_import = import_all()
    before = snapshot(modules)
    with tempfile.TemporaryDirectory() as directory:
        asyncio.run(exercise(Path(directory)))
    print(json.dumps({"imports": on_import, "apps": changed(before, snapshot(modules))}))


if __name__ == "__main__":
    main()
