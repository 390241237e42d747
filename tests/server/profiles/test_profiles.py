"""Profiles over the wire: ratings and their history, games per variant with the median
winning time, streaks per variant and overall, daily places, recent games whose deals are
public (never today's daily), and a profile its player hides."""

from __future__ import annotations

from typing import Any

from server.app import App
from server.daily.deals import DAY_MS, utc_date
from server.storage.models import PlayerRating, RatingChange
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.pushes import fix_daily

KEY = bytes(range(32))


async def hello(connect: Connect, name: str) -> tuple[Client, int]:
    client = await connect()
    reply = await client.hello(name)
    return client, reply["player"]["id"]


async def profile(client: Client, name: str) -> dict[str, Any]:
    reply = await client.request("profile", name=name)
    assert reply["type"] == "profile", reply
    return reply


async def test_a_profile_shows_ratings_games_streaks_places_and_public_games(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    today = utc_date(clock.now)
    await fix_daily(server, "freecell", today, KEY)
    alice, a = await hello(connect, "alice")
    bob, _ = await hello(connect, "bob")
    # Two solo games on numbered deals: one won quickly (the line of Freecell 1 played out).
    solo = await alice.start("freecell", seed=617)
    await alice.request("resign", game=solo["id"], ply=0)
    daily = (await alice.request("daily", start=True, variant="freecell"))["game"]
    await alice.request("resign", game=daily["id"], ply=0)
    async with server.db_sessions() as db, db.begin():
        db.add(
            PlayerRating(
                player_id=a,
                variant="gypsy",
                rating=1540.2,
                deviation=120.0,
                volatility=0.06,
                games=2,
                updated_ms=0,
            )
        )
        for n, (rating, deviation) in enumerate(((1500.0, 350.0), (1540.2, 120.0))):
            db.add(
                RatingChange(
                    game_id=solo["id"] if n == 0 else daily["id"],
                    player_id=a,
                    variant="gypsy",
                    race=f"ABC/{n}",
                    rating_before=1500.0,
                    deviation_before=350.0,
                    rating_after=rating,
                    deviation_after=deviation,
                    volatility_after=0.06,
                    at_ms=clock.now + n,
                )
            )

    seen = await profile(bob, "ALICE")  # any case
    assert seen["player"]["name"] == "alice" and not seen["mine"] and not seen["hidden"]
    assert seen["ratings"] == [
        {
            "variant": "gypsy",
            "rating": {"rating": 1540, "provisional": True},
            "games": 2,
            "history": [
                {"at_ms": clock.now, "rating": 1500, "deviation": 350},
                {"at_ms": clock.now + 1, "rating": 1540, "deviation": 120},
            ],
        }
    ]
    (freecell,) = seen["variants"]
    assert (freecell["played"], freecell["won"], freecell["median_ms"]) == (2, 0, None)
    assert seen["dailies"] == [
        {"variant": "freecell", "date": today, "state": "resigned", "place": None, "points": 10}
    ]
    # Today's daily is not listed while its day runs: its replay would tell the deal.
    assert [g["id"] for g in seen["recent"]] == [solo["id"]]
    assert seen["arenas"] == []

    clock.advance(DAY_MS)
    later = await profile(bob, "alice")
    assert {g["id"] for g in later["recent"]} == {solo["id"], daily["id"]}
    assert later["dailies"][0]["place"] == 1 and later["dailies"][0]["points"] == 15


async def test_streaks_per_variant_and_overall(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    from server.storage.models import DailyAttempt

    alice, a = await hello(connect, "alice")
    today = utc_date(clock.now)
    days = [utc_date(clock.now - n * DAY_MS) for n in range(6)]  # today, yesterday, ...
    won = {("freecell", days[1]), ("freecell", days[2]), ("gypsy", days[0]), ("gypsy", days[3])}
    won |= {("freecell", days[4]), ("freecell", days[5])}
    async with server.db_sessions() as db, db.begin():
        for variant, date in sorted(won):
            db.add(
                DailyAttempt(
                    variant=variant,
                    date=date,
                    player_id=a,
                    game_id=f"g{variant}{date}",
                    finished=True,
                    state="won",
                    elapsed_ms=1,
                    moves=1,
                    score=1,
                    rank_group=0,
                    rank_a=0,
                    rank_b=0,
                )
            )
    mine = await profile(alice, "alice")
    assert mine["mine"] and today == days[0]
    # every variant: won today, and each of the five days before: six in a row
    assert (mine["streak"], mine["best_streak"]) == (6, 6)
    assert mine["variants"] == []  # no games played: the attempts were made up


async def test_a_hidden_profile_shows_only_the_name_to_others(connect: Connect) -> None:
    alice, _ = await hello(connect, "alice")
    bob, _ = await hello(connect, "bob")
    await alice.start("freecell", seed=1)
    assert (await alice.request("profile_settings", hidden=True))["type"] == "ok"
    hidden = await profile(bob, "alice")
    assert hidden["hidden"] and hidden["player"]["name"] == "alice"
    assert hidden["variants"] == hidden["recent"] == hidden["dailies"] == []
    own = await profile(alice, "alice")
    assert own["hidden"] and own["mine"] and own["variants"]
    assert (await alice.request("profile_settings", hidden=False))["type"] == "ok"
    assert (await profile(bob, "alice"))["variants"]
    assert (await bob.request("profile", name="nobody"))["code"] == "not_found"
    assert (await bob.request("profile_settings", hidden="yes"))["code"] == "invalid_field"


async def test_a_profile_lists_the_arenas_played_once_they_are_over(
    clock: FakeClock, server: App, connect: Connect
) -> None:
    from server.storage.models import Arena, ArenaPlayer

    alice, a = await hello(connect, "alice")
    _, b = await hello(connect, "bob")
    _, c = await hello(connect, "carol")
    now = clock.now
    async with server.db_sessions() as db, db.begin():
        for code, ends in (("OVER1", now - 1_000), ("LIVE1", now + 60_000)):
            db.add(
                Arena(
                    code=code,
                    name=f"Sunday {code}",
                    variant="freecell",
                    options="{}",
                    starts_ms=now - 3_600_000,
                    ends_ms=ends,
                    private=False,
                    created_ms=now - 3_600_000,
                    updated_ms=now - 3_600_000,
                )
            )
            for pid, points in ((a, 7), (b, 9), (c, 7)):
                db.add(
                    ArenaPlayer(
                        arena=code,
                        player_id=pid,
                        joined_ms=now - 3_600_000,
                        points=points,
                        played=3,
                        wins=2,
                        fire=False,
                    )
                )
    shown = await profile(alice, "alice")
    assert shown["arenas"] == [
        {
            "arena": "OVER1",
            "name": "Sunday OVER1",
            "variant": "freecell",
            "place": 2,  # bob has more points; carol's equal share the place
            "points": 7,
            "ended_ms": now - 1_000,
        }
    ]
