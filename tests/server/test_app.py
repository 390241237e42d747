"""The app wires its parts itself: two apps share nothing, and no module-level registry moves."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from server.app import App
from server.config import Config
from tests.server.conftest import FakeClock, open_client

ROOT = Path(__file__).resolve().parents[2]


def hooks_of(app: App) -> list[Any]:
    """Every function the app's parts call on another part: listeners, guards, events."""
    events = app.events
    return [
        *app.games.listeners,
        *app.games.start_guards,
        *app.games.hints.guards,
        *app.writer.observers,
        *events.on_start,
        *events.on_stop,
        *events.on_welcome,
        *events.on_close,
        *events.on_message,
        *events.on_refusal,
        *app.cluster.subscribers.hooks(),
        *app.room_table.saved,
        *(route.handler for route in app.router.routes.values()),
    ]


def owners(app: App) -> set[int]:
    """The objects whose bound methods the app's hooks are."""
    return {id(hook.__self__) for hook in hooks_of(app) if hasattr(hook, "__self__")}


async def test_two_apps_in_one_process_have_their_own_routes_services_and_listeners(
    config: Config, clock: FakeClock, tmp_path: Path
) -> None:
    shutil.copy(tmp_path / "test.db", tmp_path / "other.db")
    first = App(config, clock=clock)
    second = App(config.replace(db=f"sqlite+aiosqlite:///{tmp_path / 'other.db'}"), clock=clock)
    parts = ("router", "events", "http", "games", "rooms", "daily", "metrics", "writer")
    for part in (*parts, "accounts", "review", "changes", "cluster", "deal_pool"):
        assert getattr(first, part) is not getattr(second, part), part
    assert first.router.routes.keys() == second.router.routes.keys()
    assert {"hello", "start_game", "move", "create_room", "daily", "stats"} <= set(
        first.router.routes
    )
    assert not any(hasattr(getattr(first, part), "app") for part in (*parts, "accounts", "review"))
    assert first.rooms.race is first.race and first.owners.service is first.rooms
    rooms = first.rooms
    mine = {id(first.daily), id(rooms), id(first.race), id(first.presence), id(first.metrics)}
    mine |= {id(first.changes), id(first.cluster), id(first.room_table), id(first.owners)}
    mine |= {id(first.bots), id(first.review), id(first.deal_pool), id(first.opened)}
    mine.add(id(first.challenges))
    mine |= {id(first.arenas)}
    mine |= {id(first.seasons)}
    mine |= {id(route.handler.__self__) for route in first.router.routes.values()}
    assert owners(first) == mine
    assert owners(second).isdisjoint(owners(first))

    await first.start()
    await second.start()
    try:
        alice, bob = await open_client(first), await open_client(second)
        await alice.hello("alice")
        await bob.hello("bob")
        code = (await alice.request("create_room", variant="gypsy"))["room"]["code"]
        assert (await bob.request("join_room", code=code))["code"] == "not_found"
        assert len(first.rooms.rooms) == 1 and len(second.rooms.rooms) == 0
        await alice.request("nonsense")
        assert first.metrics.messages == 3 and second.metrics.messages == 2
        await alice.ws.close()
        await bob.ws.close()
    finally:
        await first.stop()
        await second.stop()


def test_importing_the_server_and_running_apps_changes_no_module_level_container() -> None:
    """Routes, hooks and services are wired when an app is built, never by importing a module;
    a running app keeps its state in its own objects."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.server.registries"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found == {"imports": [], "apps": []}
