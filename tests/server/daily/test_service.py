"""Daily challenges over the wire: one deal for all, one attempt each, the lock, the board, days."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path
from typing import Any

import pytest

from server.app import App
from server.config import Config
from server.daily.deals import DAY_MS, utc_date
from shared.solver import Budget, solve
from shared.variants import STANDARD, Variants
from tests.server.conftest import Client, Connect, FakeClock, open_client
from tests.server.pushes import play_line, rejoin, winning_line


@pytest.fixture
def config(tmp_path: Path) -> Config:
    return Config(
        host="127.0.0.1",
        port=0,
        db=f"sqlite+aiosqlite:///{tmp_path / 'test.db'}",
        daily_ahead=False,
        daily_budget_s=20.0,
    )


async def hello(connect: Connect, name: str) -> tuple[Client, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["player"]["id"]


async def daily(client: Client, variant: str = "freecell") -> dict[str, Any]:
    reply = await client.request("daily", variant=variant)
    assert reply["type"] == "game", reply
    return reply


async def test_one_winnable_deal_for_everyone_one_attempt_each_and_the_leaderboard(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, a = await hello(connect, "alice")
    bob, b = await hello(connect, "bob")
    carol, c = await hello(connect, "carol")
    today = utc_date(clock.now)

    first = await daily(alice)
    assert first["daily"] == {"date": today}
    game = first["game"]
    seed = game["deal"]["seed"]
    assert solve("freecell", seed, {}, Budget(positions=500_000)).won  # proven winnable
    assert (await daily(alice))["game"]["id"] == game["id"]  # the same attempt again
    bobs = (await daily(bob))["game"]
    carols = (await daily(carol))["game"]
    assert bobs["deal"]["seed"] == carols["deal"]["seed"] == seed
    assert len({game["id"], bobs["id"], carols["id"]}) == 3

    locked = await alice.request("start_game", variant="freecell", seed=seed)
    assert locked["code"] == "daily_locked"
    other_seed = await alice.request("start_game", variant="freecell", seed=seed % 1000 + 1)
    assert other_seed["type"] == "game"

    # Nothing listed until an attempt ends.
    board = await alice.request("leaderboard", variant="freecell")
    assert (board["date"], board["entries"], board["me"]) == (today, [], None)

    line = winning_line("freecell", seed)
    clock.advance(90_000)
    won = await play_line(bob, bobs, line)
    assert won["state"] == "won"
    part = await play_line(carol, carols, line[: len(line) // 2])
    clock.advance(10_000)
    assert (await carol.request("resign", game=carols["id"], ply=part["ply"]))["type"] == "game"
    clock.advance(10_000)
    resigned = await alice.request("resign", game=game["id"], ply=0)
    assert resigned["game"]["state"] == "resigned"

    board = await alice.request("leaderboard", variant="freecell", limit=500)
    entries = board["entries"]
    assert [(e["rank"], e["player"], e["state"]) for e in entries] == [
        (1, b, "won"),
        (2, c, "resigned"),
        (3, a, "resigned"),
    ]
    assert entries[0]["elapsed_ms"] == 90_000 and entries[0]["moves"] == len(line)
    assert entries[1]["score"] > entries[2]["score"] == 0
    assert board["me"] == entries[2]
    top = await carol.request("leaderboard", variant="freecell", date=today, limit=1)
    assert [e["player"] for e in top["entries"]] == [b]
    assert top["me"]["rank"] == 2  # the true rank, below the limit

    # After the attempt: the same game from daily, and unranked replays of the deal.
    assert (await daily(alice))["game"]["state"] == "resigned"
    replay = await alice.request("start_game", variant="freecell", seed=seed)
    assert replay["type"] == "game" and replay["game"]["id"] != game["id"]
    board = await bob.request("leaderboard", variant="freecell")
    assert len(board["entries"]) == 3

    stats = await bob.request("stats")
    assert stats["player"] == {"id": b, "name": "bob"}
    assert stats["variants"] == [
        {"variant": "freecell", "played": 1, "won": 1, "best_ms": 90_000, "fewest_moves": len(line)}
    ]
    assert (stats["daily_streak"], stats["dailies_won"]) == (1, 1)
    alices = await bob.request("stats", player=a)
    assert alices["variants"][0]["played"] == 3 and alices["variants"][0]["won"] == 0
    assert alices["daily_streak"] == 0


async def test_the_day_boundary_brings_a_new_deal_and_closes_open_attempts(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, a = await hello(connect, "alice")
    bob, _ = await hello(connect, "bob")
    day1 = utc_date(clock.now)
    started = clock.now
    old = await daily(alice)
    await daily(bob)
    clock.advance(60_000)
    moved = await alice.move(old["game"], old["game"]["legal"][0])
    assert moved["type"] == "game"
    assert (await alice.request("leaderboard", variant="freecell"))["entries"] == []

    midnight = (clock.now // DAY_MS + 1) * DAY_MS
    clock.now = midnight + 1_000
    day2 = utc_date(clock.now)
    assert day2 == (datetime.date.fromisoformat(day1) + datetime.timedelta(days=1)).isoformat()
    # Play on in yesterday's attempt after midnight: it no longer counts.
    after = await alice.move(moved["game"], moved["game"]["legal"][0])
    assert after["game"]["ply"] == 2
    resigned = await alice.request("resign", game=old["game"]["id"], ply=2)
    assert resigned["game"]["state"] == "resigned"
    new = await daily(alice)
    assert new["daily"]["date"] == day2
    assert new["game"]["id"] != old["game"]["id"]
    old_seed, new_seed = old["game"]["deal"]["seed"], new["game"]["deal"]["seed"]
    assert new_seed != old_seed
    # Yesterday's deal is open to everyone now; today's is locked.
    assert (await alice.request("start_game", variant="freecell", seed=old_seed))[
        "type"
    ] == "game"
    locked = await bob.request("start_game", variant="freecell", seed=new_seed)
    assert locked["code"] == "daily_locked"

    # Attempts left open when their day ended count as they stood.
    board = await bob.request("leaderboard", variant="freecell", date=day1)
    listed = {e["player"]: e for e in board["entries"]}
    assert (listed[a]["state"], listed[a]["moves"]) == ("playing", 1)
    assert listed[a]["elapsed_ms"] == midnight - started  # it ended with its day
    assert len(listed) == 2
    assert (await bob.request("leaderboard", variant="freecell"))["entries"] == []


async def test_daily_and_leaderboard_check_their_fields(player: Client) -> None:
    assert (await player.request("daily", variant="spider"))["code"] == "invalid_field"
    bad = await player.request("leaderboard", variant="freecell", date="29/11/2026")
    assert (bad["code"], "'date'" in bad["message"]) == ("invalid_field", True)
    bad = await player.request("leaderboard", variant="freecell", limit=0)
    assert bad["code"] == "invalid_field"
    assert (await player.request("stats", player=999))["code"] == "not_found"


async def test_after_a_restart_the_attempt_and_the_lock_hold(
    config: Config, clock: FakeClock, server: App, connect: Connect
) -> None:
    alice = await connect()
    token = (await alice.hello("alice"))["token"]
    first = await daily(alice)
    await alice.ws.close()
    await server.stop()
    restarted = App(config, clock=clock)
    await restarted.start()
    try:
        alice = await rejoin(restarted, token)
        seed = first["game"]["deal"]["seed"]
        locked = await alice.request("start_game", variant="freecell", seed=seed)
        assert locked["code"] == "daily_locked"
        again = await daily(alice)
        assert again["game"]["id"] == first["game"]["id"]
    finally:
        await restarted.stop()


async def test_today_and_tomorrow_are_computed_ahead_in_the_background(
    monkeypatch: pytest.MonkeyPatch, config: Config, clock: FakeClock
) -> None:
    import server.daily.service

    monkeypatch.setattr(server.daily.service, "AHEAD_DELAY_S", 0.0)
    app = App(config.replace(daily_ahead=True), clock=clock)
    monkeypatch.setattr(app.games, "variants", Variants((STANDARD.get("freecell"),)))
    await app.start()
    try:
        service = app.daily
        days = (utc_date(clock.now), utc_date(clock.now + DAY_MS))
        # The solver runs in another process: give a loaded CI machine a generous deadline.
        deadline = asyncio.get_running_loop().time() + 90
        while asyncio.get_running_loop().time() < deadline:
            if all(("freecell", day) in service.seeds for day in days):
                break
            await asyncio.sleep(0.05)
        assert all(("freecell", day) in service.seeds for day in days)
        client = await open_client(app)
        reply = await client.request("hello", protocol=2, client="tests/1", name="early")
        game = await daily(client)
        assert game["game"]["deal"]["seed"] == service.seeds[("freecell", days[0])]
        assert reply["type"] == "welcome"
    finally:
        await app.stop()
