"""Season boards over the wire: points as dailies end and days close, the week's, month's
and all-time boards per variant and for every variant, the asker's true rank, bots and
banned players never listed, ratings beside names; and the daily archive."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from server.app import App
from server.daily.deals import DAY_MS, utc_date
from server.storage.models import Player, PlayerRating, SeasonCount, SeasonPoints
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import fix_daily, keyed_line, play_line

VARIANT = "freecell"
KEY = bytes(range(32))


async def hello(connect: Connect, name: str, **fields: Any) -> tuple[Client, int]:
    client = await connect()
    reply = await client.request("hello", protocol=2, client="tests/1", name=name, **fields)
    assert reply["type"] == "welcome", reply
    return client, reply["player"]["id"]


async def resign_daily(client: Client, variant: str = VARIANT) -> None:
    game = (await client.request("daily", start=True, variant=variant))["game"]
    reply = await client.request("resign", game=game["id"], ply=game["ply"])
    assert reply["game"]["state"] == "resigned", reply


async def win_daily(client: Client, clock: FakeClock, variant: str = VARIANT) -> None:
    """Won at a person's pace: a second a move and pauses to think (the solver's line played
    without a pause is held for review)."""
    game = (await client.request("daily", start=True, variant=variant))["game"]
    line = keyed_line(variant, KEY)
    third = len(line) // 3
    for part in (line[:third], line[third : 2 * third], line[2 * third :]):
        clock.advance(3_000)
        game = await play_line(client, game, part, clock, gap_ms=1_000)
    assert game["state"] == "won", game


async def board(client: Client, period: str, **fields: Any) -> dict[str, Any]:
    reply = await client.request("season", period=period, **fields)
    assert reply["type"] == "season", reply
    return reply


def points(reply: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {e["name"]: (e["rank"], e["points"]) for e in reply["entries"]}


async def consistent(server: App) -> None:
    """Every board's counts of players per points are what its rows of players not banned
    say."""
    async with server.db_sessions() as db:
        rows = (
            await db.execute(
                select(SeasonPoints.scope, SeasonPoints.period, SeasonPoints.points, func.count())
                .join(Player, Player.id == SeasonPoints.player_id)
                .where(Player.banned.is_(False))
                .group_by(SeasonPoints.scope, SeasonPoints.period, SeasonPoints.points)
            )
        ).all()
        counts = (
            await db.execute(
                select(
                    SeasonCount.scope, SeasonCount.period, SeasonCount.points, SeasonCount.players
                ).where(SeasonCount.players != 0)
            )
        ).all()
    assert {tuple(r[:3]): r[3] for r in rows} == {tuple(c[:3]): c[3] for c in counts}


async def test_points_as_dailies_end_and_places_when_the_day_closes(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    today = utc_date(clock.now)
    tomorrow = utc_date(clock.now + DAY_MS)
    for date in (today, tomorrow):
        await fix_daily(server, VARIANT, date, KEY)
        await fix_daily(server, "gypsy", date, KEY)
    alice, _ = await hello(connect, "alice")
    bob, _ = await hello(connect, "bob")
    carol, _ = await hello(connect, "carol")
    robot, _ = await hello(connect, "robot", bot=True)
    await win_daily(bob, clock)
    clock.advance(1_000)
    await resign_daily(alice)
    clock.advance(60_000)
    await resign_daily(carol)
    await resign_daily(robot)  # a bot's result is never ranked: no points
    await resign_daily(alice, "gypsy")

    # At once: 10 for playing it out, 4 more for a win; the places wait for the day's end.
    week = await board(alice, "week", variant=VARIANT)
    assert points(week) == {"bob": (1, 14), "alice": (2, 10), "carol": (2, 10)}
    assert week["me"]["rank"] == 2 and week["me"]["name"] == "alice"
    assert week["first"] <= today <= week["last"]
    every = await board(alice, "week")
    assert points(every)["alice"] == (1, 20)  # two dailies, two variants
    assert every["variant"] is None
    assert (await board(robot, "week", variant=VARIANT))["me"] is None
    await consistent(server)

    # The day ends: places 1, 2, 3 earn 5, 3, 2 more; alice and carol resigned with no card
    # home, a tie: they share the second place and its 3 points.
    clock.advance(DAY_MS)
    day = await alice.request("leaderboard", variant=VARIANT, date=today)
    assert {e["name"]: e["rank"] for e in day["entries"]} == {"bob": 1, "alice": 2, "carol": 2}
    month = await board(alice, "month", variant=VARIANT, date=today)
    expected = {"bob": 19, "alice": 13, "carol": 13}
    assert {name: pts for name, (_, pts) in points(month).items()} == expected
    assert server.seasons.days_closed == 2
    everything = await board(carol, "all")
    assert everything["me"]["points"] == expected["carol"]
    await consistent(server)

    # A second close changes nothing (every node may try; the first one counts).
    server.seasons._closed_through = ""
    await server.seasons.close_days()
    assert server.seasons.days_closed == 2
    assert points(await board(alice, "month", variant=VARIANT, date=today)) == points(month)

    # Playing every day beats one lucky day: carol plays the second day too.
    await resign_daily(carol)
    top = await board(bob, "all", variant=VARIANT)
    assert top["entries"][0]["name"] == "carol" and top["entries"][0]["points"] == 23
    assert top["me"]["rank"] == 2


async def test_the_true_rank_leaves_banned_players_out_and_ratings_show_beside_names(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    await fix_daily(server, VARIANT, utc_date(clock.now), KEY)
    alice, a = await hello(connect, "alice")
    bob, b = await hello(connect, "bob")
    carol, _ = await hello(connect, "carol")
    await win_daily(bob, clock)
    await win_daily(alice, clock)
    await resign_daily(carol)
    async with server.db_sessions() as db, db.begin():
        db.add(
            PlayerRating(
                player_id=a,
                variant=VARIANT,
                rating=1612.4,
                deviation=80.0,
                volatility=0.06,
                games=12,
                updated_ms=0,
            )
        )
    reply = await board(carol, "week", variant=VARIANT)
    assert reply["me"]["rank"] == 3
    rated = {e["name"]: e.get("rating") for e in reply["entries"]}
    assert rated["alice"] == {"rating": 1612, "provisional": False}
    assert rated["bob"] is None
    assert "rating" not in (await board(carol, "week"))["entries"][0]  # every variant: none
    async with server.db_sessions() as db, db.begin():
        await db.execute(update(Player).where(Player.id == b).values(banned=True))
    reply = await board(carol, "week", variant=VARIANT)
    assert "bob" not in points(reply)
    assert reply["me"]["rank"] == 2  # bob is banned: not counted above carol


async def test_bad_season_requests_are_refused_and_change_nothing(connect: Connect) -> None:
    alice, _ = await hello(connect, "alice")
    for fields, code in (
        ({"period": "year"}, "invalid_field"),
        ({"period": "week", "variant": "chess"}, "not_found"),
        ({"period": "week", "date": "2026-13-01"}, "invalid_field"),
        ({"period": "week", "limit": 0}, "invalid_field"),
    ):
        reply = await alice.request("season", **fields)
        assert reply["code"] == code, (fields, reply)
    empty = await board(alice, "all")
    assert empty["entries"] == [] and empty["me"] is None and empty["first"] is None


async def test_any_past_daily_can_be_played_unranked_from_the_archive(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    today = utc_date(clock.now)
    await fix_daily(server, VARIANT, today, KEY)
    alice, _ = await hello(connect, "alice")
    bob, _ = await hello(connect, "bob")
    await win_daily(alice, clock)
    early = await bob.request("daily", variant=VARIANT, date=today)
    assert early["code"] == "not_found"  # today's daily is played ranked, not from the archive
    clock.advance(DAY_MS)
    reply = await bob.request("daily", variant=VARIANT, date=today)
    assert reply["type"] == "game" and reply["daily"] == {"date": today}
    game = reply["game"]
    assert game["deal"]["key"] == KEY.hex()  # the day is over: its key is public
    assert (await server.game_store.get(game["id"])).kind == "practice"
    won = await play_line(bob, game, keyed_line(VARIANT, KEY), clock, gap_ms=100)
    assert won["state"] == "won"
    day = await bob.request("leaderboard", variant=VARIANT, date=today)
    assert [e["name"] for e in day["entries"]] == ["alice"]  # unranked: bob is not on it
    assert day["me"] is None
    assert (await bob.request("daily", variant=VARIANT, date="2020-01-01"))["code"] == "not_found"
