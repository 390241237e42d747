"""Rated races against a real server: the pairwise rule rates every racer once, in one
transaction; bots never race in a rated room; a restart in the middle of a race's end does not
rate it twice; the rating board ranks by rating with the asker's own place."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select, update

from server.app import App
from server.daily.deals import utc_date
from server.ratings.glicko2 import Rating
from server.ratings.races import Finish, rate_race
from server.storage.engine import create_engine, sessionmaker
from server.storage.models import PlayerRating, RatingChange, Room
from shared import protocol as p
from tests.server.conftest import Client, Connect, FakeClock, ServeWith
from tests.server.observe.test_metrics import scrape
from tests.server.pushes import fix_daily, keyed_line, push, until


async def welcomed(connect: Connect, name: str, *, bot: bool = False) -> tuple[Client, int]:
    client = await connect()
    fields: dict[str, Any] = {"bot": True} if bot else {}
    reply = await client.request("hello", protocol=2, client="tests/1", name=name, **fields)
    assert reply["type"] == "welcome", reply
    return client, reply["player"]["id"]


async def stored_ratings(app: App) -> dict[int, tuple[float, float, int]]:
    async with app.db_sessions() as db:
        rows = (await db.execute(select(PlayerRating))).scalars()
        return {r.player_id: (r.rating, r.deviation, r.games) for r in rows}


async def history_rows(app: App) -> int:
    async with app.db_sessions() as db:
        return int(await db.scalar(select(func.count()).select_from(RatingChange)) or 0)


async def rated_race(
    server: App, connect: Connect
) -> tuple[list[Client], list[int], str, dict[str, Any]]:
    """Alice wins, bob gets a card home and resigns, carol resigns at once."""
    (alice, a), (bob, b), (carol, c) = [
        await welcomed(connect, n) for n in ("alice", "bob", "carol")
    ]
    created = await alice.request("create_room", variant="freecell", rated=True)
    assert created["room"]["rated"] is True
    code = created["room"]["code"]
    for client in (bob, carol):
        assert (await client.request("join_room", code=code))["type"] == "room"
    assert (await alice.request("start_race", code=code))["type"] == "ok"
    games = [(await push(x, "race_started", code=code))["game"] for x in (alice, bob, carol)]
    key = server.rooms.rooms[code].race_key
    assert key is not None  # a rated race's deal is keyed and drawn by the server
    line = keyed_line("freecell", bytes.fromhex(key))
    game = games[1]
    for action in line:  # bob: until a card is home, then he gives up
        game = (await bob.move(game, action))["game"]
        if game["score"] > 0:
            break
    assert (await bob.request("resign", game=game["id"], ply=game["ply"]))["type"] == "game"
    g = games[2]
    assert (await carol.request("resign", game=g["id"], ply=g["ply"]))["type"] == "game"
    g = games[0]
    for action in line:
        g = (await alice.move(g, action))["game"]
    over = await push(alice, "race_over", code=code)
    return [alice, bob, carol], [a, b, c], code, over


async def test_a_rated_race_rates_every_racer_by_the_pairwise_rule(
    server: App, connect: Connect
) -> None:
    clients, (a, b, c), code, over = await rated_race(server, connect)
    standings = {s["player"]: s for s in over["standings"]}
    assert [s["player"] for s in over["standings"]] == [a, b, c]
    finishes = {
        str(pid): Finish(s["state"] == "won", s["elapsed_ms"], s["foundation"])
        for pid, s in standings.items()
    }
    assert finishes[str(b)].cards_home > 0 == finishes[str(c)].cards_home
    expected = rate_race({str(pid): Rating() for pid in (a, b, c)}, finishes)
    stored = await stored_ratings(server)
    for pid in (a, b, c):
        want = expected[str(pid)]
        assert stored[pid][0] == want.rating and stored[pid][1] == want.deviation
        assert stored[pid][2] == 1
        shown = standings[pid]["rating"]
        assert shown == {
            "rating": round(want.rating),
            "provisional": True,  # one race: the deviation is still far above 110
            "change": round(want.rating) - 1500,
        }
    assert expected[str(a)].rating > expected[str(b)].rating > expected[str(c)].rating
    assert await history_rows(server) == 3
    assert server.race.ratings.rated_races == 1 and server.race.ratings.updates == 3

    # the room shows each member's rating on its variant now
    room = (await clients[2].request("join_room", code=code))["room"]
    assert {p["id"]: p["rating"]["rating"] for p in room["players"]} == {
        pid: round(expected[str(pid)].rating) for pid in (a, b, c)
    }
    assert all("change" not in p["rating"] for p in room["players"])

    # the board: best first, and the asker's own place with its true rank
    board = await clients[2].request("ratings", variant="freecell", limit=2)
    assert [e["player"] for e in board["entries"]] == [a, b]
    assert board["me"]["player"] == c and board["me"]["rank"] == 3
    assert board["me"]["games"] == 1
    none = await clients[0].request("ratings", variant="gypsy")
    assert none["entries"] == [] and none["me"] is None
    unknown = await clients[0].request("ratings", variant="nope")
    assert unknown["code"] == "not_found"

    # counted on /metrics
    samples = await scrape(server)
    assert samples["patience_rated_races_total"] == 1
    assert samples["patience_rating_updates_total"] == 3


async def test_an_unrated_room_rates_nobody(server: App, connect: Connect) -> None:
    (alice, _), (bob, _) = [await welcomed(connect, n) for n in ("alice", "bob")]
    room = (await alice.request("create_room", variant="freecell"))["room"]
    assert room["rated"] is False
    await bob.request("join_room", code=room["code"])
    await alice.request("start_race", code=room["code"])
    for client in (alice, bob):
        g = (await push(client, "race_started", code=room["code"]))["game"]
        await client.request("resign", game=g["id"], ply=g["ply"])
    over = await push(alice, "race_over", code=room["code"])
    assert all("rating" not in s for s in over["standings"])
    assert await stored_ratings(server) == {} and await history_rows(server) == 0


async def test_a_bot_never_races_in_a_rated_room(server: App, connect: Connect) -> None:
    alice, _ = await welcomed(connect, "alice")
    robot, _ = await welcomed(connect, "robot", bot=True)
    refused = await robot.request("create_room", variant="freecell", rated=True)
    assert refused["code"] == "not_ratable" and "bots never race" in refused["message"]
    refused = await alice.request("create_room", variant="freecell", rated=True, seed=617)
    assert refused["code"] == "not_ratable" and "drawn by the server" in refused["message"]

    code = (await alice.request("create_room", variant="freecell", rated=True))["room"]["code"]
    refused = await robot.request("join_room", code=code)
    assert refused["code"] == "not_ratable" and "bots may only watch" in refused["message"]
    watching = await robot.request("join_room", code=code, role="spectator")
    assert watching["type"] == "room"
    refused = await alice.request("start_race", code=code, seed=617)
    assert refused["code"] == "not_ratable" and "drawn by the server" in refused["message"]


async def test_a_rated_room_allows_no_hints(server: App, connect: Connect) -> None:
    """Every ranked result is played by a person unaided: a rated room with hints is refused
    and nothing is made; without them, its racers' hints are ``hints_off``."""
    alice, _ = await welcomed(connect, "alice")
    refused = await alice.request("create_room", variant="freecell", rated=True, hints=True)
    assert refused["type"] == "error", refused
    assert refused["code"] == "not_ratable" and "without hints" in refused["message"]
    assert server.rooms.rooms == {}

    room = (await alice.request("create_room", variant="freecell", rated=True))["room"]
    assert room["rated"] is True and room["hints"] is False
    assert (await alice.request("start_race", code=room["code"]))["type"] == "ok"
    game = (await push(alice, "race_started", code=room["code"]))["game"]
    asked = await alice.request("hint", game=game["id"])
    assert asked["type"] == "error" and asked["code"] == "hints_off", asked


async def test_a_race_whose_end_is_run_again_after_a_restart_is_rated_once(
    server: App, connect: Connect, serve_with: ServeWith
) -> None:
    clients, _, code, over = await rated_race(server, connect)
    rated = await stored_ratings(server)
    for client in clients:
        await client.ws.close()
    await server.stop()
    # As if the server died after the rating's commit and before the room's save: the room
    # is stored as racing, and the restarted server ends its race again.
    engine = create_engine(server.config.db)
    try:
        async with sessionmaker(engine)() as db, db.begin():
            await db.execute(update(Room).where(Room.code == code).values(state="racing"))
    finally:
        await engine.dispose()
    again = await serve_with()

    async def over_again() -> bool:
        room = again.rooms.rooms.get(code)
        return room is not None and room.standings is not None  # (set last, once rated)

    await until(over_again)
    assert await stored_ratings(again) == rated
    assert await history_rows(again) == 3
    assert again.race.ratings.rated_races == 0  # read back, not rated again
    standings = again.rooms.rooms[code].standings
    assert standings is not None
    assert {s.player: s.rating for s in standings} == {
        s["player"]: p.PlayerRating.from_map(s["rating"]) for s in over["standings"]
    }


async def test_the_daily_leaderboard_shows_each_players_rating(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    clients, (a, b, _), _, over = await rated_race(server, connect)
    await fix_daily(server, "freecell", utc_date(clock.now))
    alice, bob = clients[0], clients[1]
    for client in (alice, bob):
        game = (await client.request("daily", start=True, variant="freecell"))["game"]
        await client.request("resign", game=game["id"], ply=game["ply"])
    board = await alice.request("leaderboard", variant="freecell")
    after = {s["player"]: s["rating"] for s in over["standings"]}
    shown = {e["player"]: e["rating"] for e in board["entries"]}
    for pid in (a, b):  # as it stands now: no change beside it
        assert shown[pid] == {k: v for k, v in after[pid].items() if k != "change"}
    assert board["me"]["rating"] == shown[a]
    other = await alice.request("leaderboard", variant="gypsy")
    assert other["entries"] == [] and other["me"] is None
