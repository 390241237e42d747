"""A rated race with a racer whose result review holds: the race is rated between the others,
and the held racer's rating does not move (docs/ratings.md, "a held result does not count")."""

from __future__ import annotations

from sqlalchemy import select

from server.storage.models import PlayerRating, RatingChange
from tests.server.conftest import FakeClock, ServeWith, open_client
from tests.server.pushes import push
from tests.server.review.test_held import fast


async def test_a_held_racer_is_left_out_of_a_rated_race(
    clock: FakeClock, serve_with: ServeWith
) -> None:
    app = await serve_with(race_countdown_ms=50)
    alice, bob, carol = [await open_client(app) for _ in range(3)]
    a = (await alice.hello("alice"))["player"]["id"]
    b = (await bob.hello("bob"))["player"]["id"]
    c = (await carol.hello("carol"))["player"]["id"]
    code = (await alice.request("create_room", variant="westhaven", rated=True))["room"]["code"]
    for client in (bob, carol):
        await client.request("join_room", code=code)
    await alice.request("start_race", code=code)
    games = [(await push(x, "race_started", timeout=10))["game"] for x in (alice, bob, carol)]
    clock.advance(20_000)
    held = await fast(alice, games[0], 22)  # at machine speed: held for review
    await alice.request("resign", game=held["id"], ply=held["ply"])
    for client, game in ((bob, games[1]), (carol, games[2])):
        for _ in range(3):
            clock.advance(2_000)
            game = await fast(client, game, 1)
        await client.request("resign", game=game["id"], ply=game["ply"])
    over = await push(bob, "race_over", code=code)
    rows = {row["player"]: row for row in over["standings"]}
    assert rows[a]["review"] == "pending" and "rating" not in rows[a]
    for pid in (b, c):  # rated between themselves: a draw, each a new player's 1500
        assert rows[pid]["rating"] == {"rating": 1500, "provisional": True, "change": 0}
    async with app.db_sessions() as db:
        rated = {r.player_id: r.games for r in (await db.execute(select(PlayerRating))).scalars()}
        history = (await db.execute(select(RatingChange.player_id))).scalars().all()
    assert rated == {b: 1, c: 1} and sorted(history) == sorted([b, c])
