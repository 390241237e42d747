"""Each rule of an arena, played against a real server by real clients."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest
from sqlalchemy import select

from server.app import App
from server.config import Config
from server.storage.models import Arena
from shared.deals import commitment
from tests.server.arenas.conftest import fill_pool, key_of, lose, standings, win
from tests.server.conftest import Client, Connect, FakeClock, ServeWith
from tests.server.pushes import admin, push


def ms_of(text: str) -> int:
    moment = datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC)
    return int(moment.timestamp() * 1000)


async def arena_of(server: App, client: Client, minutes: int = 30) -> str:
    await fill_pool(server)
    reply = await client.request("arena_create", variant="osmosis", minutes=minutes)
    assert reply["type"] == "arena", reply
    assert reply["arena"]["state"] == "running" and reply["arena"]["joined"]
    return str(reply["arena"]["code"])


async def deal(client: Client, code: str) -> dict[str, Any]:
    reply = await client.request("arena_play", code=code)
    assert reply["type"] == "arena_game", reply
    return reply


async def me(client: Client, code: str) -> dict[str, Any]:
    reply = await client.request("arena_join", code=code)
    assert reply["type"] == "arena", reply
    return reply["me"]  # type: ignore[no-any-return]


async def test_everyone_plays_the_same_deals_and_a_win_within_par_is_three_points(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    code = await arena_of(server, alice)
    assert (await bob.request("arena_join", code=code))["type"] == "arena"
    a0, b0 = await deal(alice, code), await deal(bob, code)
    assert a0["seq"] == b0["seq"] == 0
    assert a0["game"]["deal"] == b0["game"]["deal"]  # the same commitment, no key
    assert set(a0["game"]["deal"]) == {"commitment"}
    again = await deal(alice, code)
    assert again["game"]["id"] == a0["game"]["id"]  # the deal being played, not a new one
    await win(server, alice, a0, clock)
    assert (await me(alice, code))["points"] == 3
    pushed = await standings(bob, code, check=lambda m: m["top"] and m["top"][0]["points"] == 3)
    assert pushed["top"][0]["name"] == "alice" and pushed["players"] == 2
    await lose(bob, b0, clock)
    bob_me = await me(bob, code)
    assert (bob_me["points"], bob_me["played"], bob_me["wins"]) == (0, 1, 0)
    a1 = await deal(alice, code)
    assert a1["seq"] == 1 and a1["game"]["deal"] != a0["game"]["deal"]
    joined = await alice.request("arena_join", code=code)
    commitments = [d["commitment"] for d in joined["deals"]]
    assert commitments[:2] == [a0["game"]["deal"]["commitment"], a1["game"]["deal"]["commitment"]]
    assert all("key" not in d for d in joined["deals"])


async def test_a_slow_win_is_two_a_streak_doubles_and_berserk_adds_one(
    server: App, player: Client, clock: FakeClock
) -> None:
    code = await arena_of(server, player, minutes=120)
    first = await deal(player, code)
    clock.advance(first["par_ms"])  # past par, within the allowance
    await win(server, player, first, clock)
    assert (await me(player, code))["points"] == 2
    await win(server, player, await deal(player, code), clock)
    third = await deal(player, code)
    assert (await me(player, code))["fire"]
    berserk = await player.request("arena_berserk", code=code)
    assert berserk["type"] == "arena_game" and berserk["berserk"]
    assert berserk["allowance_ms"] == third["allowance_ms"] // 2
    await win(server, player, third, clock)
    table = await player.request("arena_table", code=code)
    results = table["entries"][0]["results"]
    assert [r["points"] for r in results] == [2, 3, 7]  # 3 doubled, then berserk's point
    assert [r["on_streak"] for r in results] == [False, False, True]
    assert table["entries"][0]["points"] == 12
    await lose(player, await deal(player, code), clock)
    fourth = await me(player, code)
    assert (fourth["points"], fourth["fire"]) == (12, False)


async def test_berserk_only_before_the_first_action(
    server: App, player: Client, clock: FakeClock
) -> None:
    code = await arena_of(server, player)
    dealt = await deal(player, code)
    game = dealt["game"]
    await player.move(game, game["legal"][0])
    refused = await player.request("arena_berserk", code=code)
    assert refused["type"] == "error" and refused["code"] == "forbidden", refused


async def test_a_deal_out_of_time_scores_nothing_and_the_next_is_dealt(
    server: App, player: Client, clock: FakeClock
) -> None:
    code = await arena_of(server, player)
    dealt = await deal(player, code)
    clock.advance(dealt["allowance_ms"] + 1)
    await server.arenas.tick()
    mine = await me(player, code)
    assert (mine["points"], mine["played"]) == (0, 1)
    table = await player.request("arena_table", code=code)
    assert table["entries"][0]["results"][0]["state"] == "timeout"
    assert (await deal(player, code))["seq"] == 1


async def test_hints_are_off_and_bots_never_play(
    server: App, player: Client, connect: Connect
) -> None:
    code = await arena_of(server, player)
    dealt = await deal(player, code)
    hint = await player.request("hint", game=dealt["game"]["id"])
    assert hint["type"] == "error" and hint["code"] == "hints_off", hint
    robot = await connect()
    welcome = await robot.request("hello", protocol=2, client="tests/1", name="robot", bot=True)
    assert welcome["type"] == "welcome", welcome
    refused = await robot.request("arena_join", code=code)
    assert refused["type"] == "error" and refused["code"] == "not_ratable", refused


async def test_join_late_leave_and_keep_the_points_then_the_end_reveals_every_deal(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    code = await arena_of(server, alice, minutes=30)
    won = await deal(alice, code)
    await win(server, alice, won, clock)
    assert (await alice.request("arena_leave", code=code))["type"] == "ok"
    clock.advance(10 * 60_000)
    assert (await bob.request("arena_join", code=code))["type"] == "arena"  # late
    bobs = await deal(bob, code)
    assert bobs["seq"] == 0 and bobs["game"]["deal"] == won["game"]["deal"]
    await alice.request("arena_join", code=code)  # back, to be told of the end
    clock.advance(20 * 60_000)
    await server.arenas.tick()
    over = await push(alice, "arena_over")
    assert over["arena"]["state"] == "over"
    assert [e["name"] for e in over["top"]] == ["alice", "bob"]
    assert over["top"][0]["points"] == 3 and over["top"][1]["played"] == 1  # bob's timed out
    keys = {d["seq"]: d["key"] for d in over["deals"]}
    assert keys[0] == (await key_of(server, won["game"]["id"])).hex()
    for d in over["deals"]:
        assert d["commitment"] == commitment("osmosis", bytes.fromhex(d["key"]))
    shown = await bob.request("get_game", game=bobs["game"]["id"])
    assert shown["game"]["deal"]["key"] == keys[0]  # the replay shows the deal
    refused = await alice.request("arena_play", code=code)
    assert refused["type"] == "error" and refused["code"] == "arena_not_running"
    table = await bob.request("arena_table", code=code)
    assert table["entries"][0]["results"][0]["game"] == won["game"]["id"]


async def test_bad_requests_are_refused_and_change_nothing(server: App, player: Client) -> None:
    missing = await player.request("arena_join", code="ZZZZZZ")
    assert missing["type"] == "error" and missing["code"] == "not_found"
    bad = await player.request("arena_create", variant="osmosis", minutes=1)
    assert bad["type"] == "error" and bad["code"] == "invalid_field"
    code = await arena_of(server, player)
    other = await player.request("arena_create", variant="nope", minutes=10)
    assert other["type"] == "error" and other["code"] == "invalid_field"
    listed = await player.request("arenas")
    assert [a["code"] for a in listed["arenas"]] == [code]


async def test_standings_are_pushed_at_most_once_per_push_period_and_end_up_whole(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    server.arena_standings.config = server.arena_standings.config.replace(arena_push_ms=400)
    watcher = await connect()
    await watcher.hello("watcher")
    code = await arena_of(server, watcher)
    players = []
    for n in range(6):
        c = await connect()
        await c.hello(f"racer{n}")
        await c.request("arena_join", code=code)
        players.append((c, await deal(c, code)))
    await asyncio.sleep(0.5)  # the joins' pushes are out
    flushes = server.arena_standings.standings_flushes
    started = asyncio.get_running_loop().time()
    for c, dealt in players:  # six results within a few milliseconds
        await lose(c, dealt, clock)
    last = await standings(watcher, code, check=lambda m: m["players"] == 7 and all(
        e["played"] == 1 for e in m["top"] if e["name"] != "watcher"))  # fmt: skip
    took = asyncio.get_running_loop().time() - started
    pushed = server.arena_standings.standings_flushes - flushes
    # one push at once, then at most one per 400 ms: never one per change
    assert 1 <= pushed <= 2 + int(took / 0.4) and pushed < 6, (pushed, took)
    pushes = [m for m in watcher.received if m.get("type") == "arena_standings"]
    assert last["version"] == max(m["version"] for m in pushes)


async def test_operators_create_list_and_cancel_arenas(
    server: App,
    player: Client,
    capsys: pytest.CaptureFixture[str],
    config: Config,
    clock: FakeClock,
) -> None:
    await fill_pool(server)
    clock.now = ms_of(datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:00"))
    starts = datetime.datetime.fromtimestamp(clock.now / 1000, datetime.UTC)
    code, out = await admin(
        capsys, config, "arenas", "create", "--variant", "osmosis", "--minutes", "45",
        "--name", "Sunday Osmosis", "--starts", starts.strftime("%Y-%m-%d %H:%M"),
    )  # fmt: skip
    assert code == 0 and "created: Sunday Osmosis" in out, out
    arena = out.split()[1]
    await server.arenas.tick()  # the running server reads it
    listed = await player.request("arenas")
    assert [(a["code"], a["host"], a["private"]) for a in listed["arenas"]] == [
        (arena, None, False)
    ]
    await player.request("arena_join", code=arena)
    code, out = await admin(capsys, config, "arenas", "list")
    assert code == 0 and arena in out and "running" in out and "operator" in out, out
    code, out = await admin(capsys, config, "arenas", "cancel", arena)
    assert code == 0 and "cancelled" in out, out
    await server.arenas.tick()
    over = await push(player, "arena_over")
    assert over["arena"]["state"] == "cancelled"
    code, out = await admin(capsys, config, "arenas", "cancel", arena)
    assert code == 1 and "cancelled already" in out
    code, out = await admin(capsys, config, "arenas", "create", "--variant", "osmosis",
                            "--minutes", "1")  # fmt: skip
    assert code == 1 and "--minutes" in out


async def test_the_schedule_makes_each_occurrence_once(
    serve_with: ServeWith, clock: FakeClock
) -> None:
    clock.now = ms_of("2026-12-05T19:00:00")  # a Saturday
    app = await serve_with(arena_schedule="sunday 18:00 osmosis 45 Sunday Osmosis")
    await app.arenas.tick()
    await app.arenas.tick()
    async with app.db_sessions() as db:
        rows = (await db.execute(select(Arena))).scalars().all()
    assert [(r.name, r.starts_ms, r.ends_ms - r.starts_ms) for r in rows] == [
        ("Sunday Osmosis", ms_of("2026-12-06T18:00:00"), 45 * 60_000)
    ]
