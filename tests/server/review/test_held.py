"""Ranked results played faster than a person plays are held, listed for operators, and
cleared or confirmed from the command line while the server runs."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from server.storage.models import GameAction
from tests.server.conftest import Client, Connect, FakeClock, ServeWith, open_client
from tests.server.pushes import admin, fix_daily, push, until


async def fast(client: Client, game: dict[str, Any], actions: int) -> dict[str, Any]:
    """``actions`` actions at machine speed (the test clock does not move): a move and its undo
    again and again."""
    for n in range(actions):
        if n % 2 == 0:
            reply = await client.move(game, game["legal"][0])
        else:
            reply = await client.request("undo", game=game["id"], ply=game["ply"])
        assert reply["type"] == "game", reply
        game = reply["game"]
    return game


async def test_a_daily_attempt_played_at_machine_speed_is_held_until_an_operator_decides(
    capsys: pytest.CaptureFixture[str],
    config: Config,
    clock: FakeClock,
    server: App,
    connect: Connect,
) -> None:
    today = utc_date(clock.now)
    await fix_daily(server, "gypsy", today)
    fast_one, slow_one, short_one = [await connect() for _ in range(3)]
    f = (await fast_one.hello("fasty"))["player"]["id"]
    s = (await slow_one.hello("slowly"))["player"]["id"]
    sh = (await short_one.hello("short"))["player"]["id"]

    game = (await fast_one.request("daily", start=True, variant="gypsy"))["game"]
    clock.advance(30_000)  # a long look first: the median still catches what follows
    game = await fast(fast_one, game, 24)
    await fast_one.request("resign", game=game["id"], ply=game["ply"])
    slow = (await slow_one.request("daily", start=True, variant="gypsy"))["game"]
    slow_start = clock.now
    clock.advance(3000)  # a look at a deal never seen before
    for _ in range(24):
        slow = await fast(slow_one, slow, 1)
        clock.advance(450)
    await slow_one.request("resign", game=slow["id"], ply=slow["ply"])
    short = (await short_one.request("daily", start=True, variant="gypsy"))["game"]
    short = await fast(short_one, short, 19)  # fast, but too short to judge
    await short_one.request("resign", game=short["id"], ply=short["ply"])

    # The server stamped each action when it arrived; review read those times. One action
    # every 450 ms after a look at the deal: a person's pace. (Two actions at once every
    # 450 ms, a median of 225 ms with half the gaps 0, is held: tests/server/review/
    # test_pacings.py.)
    async with server.db_sessions() as db:
        query = select(GameAction.played_ms).where(GameAction.game_id == slow["id"])
        stamps = (await db.execute(query.order_by(GameAction.ply))).scalars().all()
    assert stamps == [slow_start + 3000 + 450 * n for n in range(24)]

    board = await fast_one.request("leaderboard", variant="gypsy")
    assert {e["player"] for e in board["entries"]} == {s, sh}
    assert (board["me"]["rank"], board["me"]["review"]) == (None, "pending")
    assert board["me"]["moves"] == 24

    code, out = await admin(capsys, config, "held")
    assert code == 0
    [line] = out.splitlines()
    review_id = line.split()[0]
    assert review_id.isdigit()
    assert line == f"{review_id}  fasty  daily gypsy {today}  {game['id']}  0 ms"

    # Cleared: listed again, with its true rank, within two seconds; decided: only with --all.
    assert (await admin(capsys, config, "clear", review_id))[0] == 0

    async def listed() -> bool:
        board = await fast_one.request("leaderboard", variant="gypsy")
        return f in {e["player"] for e in board["entries"]} and board["me"]["rank"] is not None

    await until(listed)
    assert (await admin(capsys, config, "held"))[1].strip() == "no results held for review"
    assert (await admin(capsys, config, "held", "--all"))[1].split()[-1] == "cleared"
    code, out = await admin(capsys, config, "clear", "999")
    assert code == 1 and "no held result 999" in out


async def test_a_confirmed_result_stays_out_and_its_player_sees_why(
    capsys: pytest.CaptureFixture[str],
    config: Config,
    clock: FakeClock,
    server: App,
    connect: Connect,
) -> None:
    await fix_daily(server, "freecell", utc_date(clock.now))
    client = await connect()
    await client.hello("mallory")
    attempt = await client.request("daily", start=True, variant="freecell")
    game = await fast(client, attempt["game"], 20)
    await client.request("resign", game=game["id"], ply=game["ply"])
    review_id = (await admin(capsys, config, "held"))[1].split()[0]
    assert (await admin(capsys, config, "confirm", review_id))[0] == 0

    async def confirmed() -> bool:
        me = (await client.request("leaderboard", variant="freecell"))["me"]
        return bool(me and me["review"] == "confirmed")

    await until(confirmed)
    board = await client.request("leaderboard", variant="freecell")
    assert board["entries"] == [] and board["me"]["rank"] is None
    line = (await admin(capsys, config, "held", "--all"))[1].splitlines()[0]
    assert line.startswith(f"{review_id}  mallory  daily freecell") and line.endswith("confirmed")


async def test_a_bots_results_are_never_ranked_nor_held(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    await fix_daily(server, "freecell", utc_date(clock.now))
    bot = await connect()
    await bot.request("hello", protocol=2, client="bot/1", name="robot", bot=True)
    person = await connect()
    await person.hello("person")
    game = await fast(bot, (await bot.request("daily", start=True, variant="freecell"))["game"], 30)
    await bot.request("resign", game=game["id"], ply=game["ply"])
    mine = (await person.request("daily", start=True, variant="freecell"))["game"]
    clock.advance(5_000)
    await person.request("resign", game=mine["id"], ply=0)
    board = await bot.request("leaderboard", variant="freecell")
    assert board["me"] is None
    assert [e["name"] for e in board["entries"]] == ["person"]
    assert (await person.request("leaderboard", variant="freecell"))["me"]["rank"] == 1
    async with server.db_sessions() as db:
        from server.storage.models import Review

        assert (await db.execute(select(Review))).scalars().all() == []


async def test_a_race_game_played_at_machine_speed_keeps_its_place_marked_pending(
    clock: FakeClock, serve_with: ServeWith
) -> None:
    app = await serve_with(race_countdown_ms=50)
    alice, bob = await open_client(app), await open_client(app)
    a = (await alice.hello("alice"))["player"]["id"]
    b = (await bob.hello("bob"))["player"]["id"]
    code = (await alice.request("create_room", variant="westhaven"))["room"]["code"]
    await bob.request("join_room", code=code)
    await alice.request("start_race", code=code)
    game = (await push(alice, "race_started", timeout=10))["game"]
    bobs = (await push(bob, "race_started", timeout=10))["game"]
    clock.advance(20_000)
    game = await fast(alice, game, 22)  # the first gap is 20 s, the median 0
    await alice.request("resign", game=game["id"], ply=game["ply"])
    for _ in range(21):
        clock.advance(300)
        bobs = await fast(bob, bobs, 1)
    await bob.request("resign", game=bobs["id"], ply=bobs["ply"])
    over = await push(bob, "race_over", code=code)
    marks = {row["player"]: row.get("review") for row in over["standings"]}
    assert marks == {a: "pending", b: None}
    assert {row["player"]: row["undos"] for row in over["standings"]} == {a: 11, b: 0}
