"""Daily challenges over the wire: one keyed deal for all, one attempt each, practice, the
board, the key shown once the day is over, days."""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

import pytest

from server.app import App
from server.config import Config
from server.daily.deals import DAY_MS, utc_date
from shared.deals import commitment
from shared.games import new_game
from shared.solver import Budget, solve_position
from shared.variants import STANDARD, Variants
from tests.server.conftest import Client, Connect, FakeClock, open_client
from tests.server.pushes import keyed_line, play_line, rejoin


@pytest.fixture
def config(db_url: str) -> Config:
    return Config(
        host="127.0.0.1",
        port=0,
        metrics_port=0,
        db=db_url,
        daily_ahead=False,
        daily_budget_s=20.0,
        hint_budget=0.05,
    )


async def hello(connect: Connect, name: str) -> tuple[Client, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["player"]["id"]


async def daily(client: Client, variant: str = "freecell", **fields: Any) -> dict[str, Any]:
    reply = await client.request("daily", start=True, variant=variant, **fields)
    assert reply["type"] == "game", reply
    return reply


def key_of(server: App, variant: str, date: str) -> bytes:
    """The day's key, as the server keeps it (the tests play the line it wins with)."""
    key = server.daily.deals[(variant, date)].key
    assert key is not None
    return key


async def test_one_winnable_keyed_deal_for_everyone_one_attempt_each_and_the_leaderboard(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    alice, a = await hello(connect, "alice")
    bob, b = await hello(connect, "bob")
    carol, c = await hello(connect, "carol")
    today = utc_date(clock.now)

    first = await daily(alice)
    assert first["daily"] == {"date": today}
    game = first["game"]
    assert set(game["deal"]) == {"commitment"}  # keyed; the key waits for the end of the day
    key = key_of(server, "freecell", today)
    assert game["deal"]["commitment"] == commitment("freecell", key)
    assert solve_position(new_game("freecell", key=key), Budget(positions=500_000)).won
    assert game["piles"] == new_game("freecell", key=key).view()["piles"]
    assert (await daily(alice))["game"]["id"] == game["id"]  # the same attempt again
    bobs = (await daily(bob))["game"]
    carols = (await daily(carol))["game"]
    assert bobs["deal"] == carols["deal"] == game["deal"]
    assert len({game["id"], bobs["id"], carols["id"]}) == 3

    # No hints in a ranked attempt; no practice before it has ended.
    assert (await alice.request("hint", game=game["id"]))["code"] == "hints_off"
    early = await alice.request("daily", start=True, variant="freecell", practice=True)
    assert (early["code"], "ended" in early["message"]) == ("daily_open", True)

    # Nothing listed until an attempt ends.
    board = await alice.request("leaderboard", variant="freecell")
    assert (board["date"], board["entries"], board["me"]) == (today, [], None)

    line = keyed_line("freecell", key)
    # A person's pace: a second a move and two pauses to think (the solver's line played
    # without a pause is held for review: tests/server/review/test_pacings.py).
    clock.advance(90_000 - 1_000 * len(line) - 6_000)
    third = len(line) // 3
    won = await play_line(bob, bobs, line[:third], clock, gap_ms=1_000)
    clock.advance(3_000)
    won = await play_line(bob, won, line[third : 2 * third], clock, gap_ms=1_000)
    clock.advance(3_000)
    won = await play_line(bob, won, line[2 * third :], clock, gap_ms=1_000)
    assert won["state"] == "won" and "key" not in won["deal"]
    part = await play_line(carol, carols, line[: len(line) // 2], clock, gap_ms=1_000)
    clock.advance(10_000)
    await carol.request("undo", game=carols["id"], ply=part["ply"])
    assert (await carol.request("resign", game=carols["id"], ply=part["ply"] + 1))["type"] == "game"
    clock.advance(10_000)
    resigned = await alice.request("resign", game=game["id"], ply=0)
    assert resigned["game"]["state"] == "resigned" and "key" not in resigned["game"]["deal"]

    board = await alice.request("leaderboard", variant="freecell", limit=500)
    entries = board["entries"]
    assert [(e["rank"], e["player"], e["state"]) for e in entries] == [
        (1, b, "won"),
        (2, c, "resigned"),
        (3, a, "resigned"),
    ]
    assert entries[0]["elapsed_ms"] == 90_000 and entries[0]["moves"] == len(line)
    assert [e["undos"] for e in entries] == [0, 1, 0]
    assert entries[1]["score"] > entries[2]["score"] == 0
    assert board["me"] == entries[2]
    top = await carol.request("leaderboard", variant="freecell", date=today, limit=1)
    assert [e["player"] for e in top["entries"]] == [b]
    assert top["me"]["rank"] == 2  # the true rank, below the limit

    # After the attempt: the same game from daily, and unranked practice on the deal, with
    # hints, a new game each time; the key still waits for the end of the day.
    assert (await daily(alice))["game"]["state"] == "resigned"
    practice = await daily(alice, practice=True)
    again = await daily(alice, practice=True)
    assert practice["daily"] == {"date": today}
    assert len({practice["game"]["id"], again["game"]["id"], game["id"]}) == 3
    assert practice["game"]["deal"] == game["deal"] and practice["game"]["ply"] == 0
    hint = await alice.request("hint", game=practice["game"]["id"])
    assert hint["type"] == "hint" and hint["move"] in practice["game"]["legal"]
    kinds = {g["id"]: g["kind"] for g in (await alice.request("games"))["games"]}
    assert kinds == {
        game["id"]: "daily",
        practice["game"]["id"]: "practice",
        again["game"]["id"]: "practice",
    }
    board = await bob.request("leaderboard", variant="freecell")
    assert len(board["entries"]) == 3  # practice games are not ranked

    # Once the day is over, every game on its deal shows the key.
    clock.now = (clock.now // DAY_MS + 1) * DAY_MS
    for client, gid in ((alice, game["id"]), (alice, practice["game"]["id"]), (bob, bobs["id"])):
        deal = (await client.request("get_game", game=gid))["game"]["deal"]
        assert deal == {"commitment": game["deal"]["commitment"], "key": key.hex()}

    stats = await bob.request("stats")
    assert stats["player"] == {"id": b, "name": "bob", "bot": False}
    assert stats["variants"] == [
        {"variant": "freecell", "played": 1, "won": 1, "best_ms": 90_000, "fewest_moves": len(line)}
    ]
    assert (stats["dailies_won"], stats["daily_streak"]) == (1, 1)


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
    assert new["game"]["deal"]["commitment"] != old["game"]["deal"]["commitment"]
    # Yesterday's key is out: anyone may play that deal by its key, and check it.
    shown = resigned["game"]["deal"]
    assert commitment("freecell", bytes.fromhex(shown["key"])) == shown["commitment"]
    replay = (await bob.request("start_game", variant="freecell", key=shown["key"].upper()))["game"]
    assert replay["deal"] == shown and replay["piles"] == old["game"]["piles"]
    assert "key" not in new["game"]["deal"]

    # Attempts left open when their day ended count as they stood.
    board = await bob.request("leaderboard", variant="freecell", date=day1)
    listed = {e["player"]: e for e in board["entries"]}
    assert (listed[a]["state"], listed[a]["moves"]) == ("playing", 1)
    assert listed[a]["elapsed_ms"] == midnight - started  # it ended with its day
    assert len(listed) == 2
    assert (await bob.request("leaderboard", variant="freecell"))["entries"] == []


async def test_daily_and_leaderboard_check_their_fields(player: Client) -> None:
    assert (await player.request("daily", start=True, variant="spider"))["code"] == "invalid_field"
    bad = await player.request("daily", start=True, variant="freecell", practice="yes")
    assert (bad["code"], "'practice'" in bad["message"]) == ("invalid_field", True)
    bad = await player.request("leaderboard", variant="freecell", date="29/11/2026")
    assert (bad["code"], "'date'" in bad["message"]) == ("invalid_field", True)
    bad = await player.request("leaderboard", variant="freecell", limit=0)
    assert bad["code"] == "invalid_field"
    assert (await player.request("stats", player=999))["code"] == "not_found"


async def test_after_a_restart_the_attempt_holds(
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
        again = await daily(alice)
        assert again["game"]["id"] == first["game"]["id"]
        assert again["game"]["deal"] == first["game"]["deal"]
        assert (await alice.request("hint", game=first["game"]["id"]))["code"] == "hints_off"
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
            if all(("freecell", day) in service.deals for day in days):
                break
            await asyncio.sleep(0.05)
        assert all(("freecell", day) in service.deals for day in days)
        client = await open_client(app)
        reply = await client.request("hello", protocol=2, client="tests/1", name="early")
        game = await daily(client)
        key = key_of(app, "freecell", days[0])
        assert game["game"]["deal"]["commitment"] == commitment("freecell", key)
        assert reply["type"] == "welcome"
    finally:
        await app.stop()


async def test_two_servers_asked_at_once_give_the_player_one_attempt(
    config: Config, clock: FakeClock, server: App, connect: Connect
) -> None:
    # two servers on one database (several nodes, or a restart overlapping the old process)
    other = App(config, clock=clock)
    await other.start()
    try:
        alice = await connect()
        token = (await alice.hello("alice"))["token"]
        there = await rejoin(other, token)
        await daily(alice)  # today's deal chosen, so that both ask for the attempt at once
        await alice.request("resign", game=(await daily(alice))["game"]["id"], ply=0)
        clock.advance(DAY_MS)
        here, elsewhere = await asyncio.gather(daily(alice), daily(there))
        assert here["game"]["id"] == elsewhere["game"]["id"]
        mine = [g for g in (await alice.request("games"))["games"] if g["kind"] == "daily"]
        assert [g["id"] for g in mine][:1] == [here["game"]["id"]] and len(mine) == 2
    finally:
        await other.stop()
