"""A win held for review in an arena: worth nothing while held; cleared by an operator, it is
scored in the arena's table then (with the streak it starts), even once the arena is over; a
confirmed one stays out."""

from __future__ import annotations

from typing import Any

import pytest

from server.app import App
from server.arenas.scoring import DealPlayed, score_deals
from server.config import Config
from tests.server.arenas.conftest import fill_pool, key_of, win
from tests.server.conftest import Client, Connect, FakeClock
from tests.server.databases import run_sql
from tests.server.pushes import admin, keyed_line, play_line, until


@pytest.fixture
def config(config: Config, db_url: str) -> Config:
    # (db_url named so that the test runs on both databases, as in conftest.py)
    return config.replace(review_min_actions=5)


async def fast_win(app: App, client: Client, code: str) -> None:
    """The solver's line at machine speed (the test clock does not move): held."""
    dealt = await client.request("arena_play", code=code)
    line = keyed_line("osmosis", await key_of(app, dealt["game"]["id"]))
    game = await play_line(client, dealt["game"], line)
    assert game["state"] == "won", game


async def entry(client: Client, code: str, name: str) -> dict[str, Any]:
    table = await client.request("arena_table", code=code)
    return next(e for e in table["entries"] if e["name"] == name)  # type: ignore[no-any-return]


async def test_a_cleared_win_is_scored_then_and_a_confirmed_one_stays_out(
    capsys: pytest.CaptureFixture[str],
    config: Config,
    clock: FakeClock,
    server: App,
    connect: Connect,
) -> None:
    await fill_pool(server)
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    made = await alice.request("arena_create", variant="osmosis", minutes=30)
    code = made["arena"]["code"]
    await bob.request("arena_join", code=code)
    await fast_win(server, alice, code)  # held
    for _ in range(2):  # then two wins at a person's pace
        await win(server, alice, await alice.request("arena_play", code=code), clock)
    await fast_win(server, bob, code)  # held

    mine = await entry(alice, code, "alice")
    assert mine["results"][0]["points"] == 0 and mine["wins"] == 2
    assert (await entry(alice, code, "bob"))["points"] == 0
    held = (await admin(capsys, config, "held"))[1].splitlines()
    ids = {line.split()[1]: line.split()[0] for line in held}
    assert set(ids) == {"alice", "bob"}, held

    # The arena ends; then the operator decides, and the final table takes it.
    clock.advance(31 * 60_000)
    await server.arenas.tick()
    assert (await alice.request("arena_table", code=code))["arena"]["state"] == "over"
    assert (await admin(capsys, config, "clear", ids["alice"]))[0] == 0
    assert (await admin(capsys, config, "confirm", ids["bob"]))[0] == 0

    pars = {d["seq"]: d["par_ms"] for d in (await alice.request("arena_table", code=code))["deals"]}
    played = [
        DealPlayed(won=True, time_ms=r["time_ms"], par_ms=pars[r["seq"]], berserk=r["berserk"])
        for r in mine["results"]
    ]
    expected = [s.points for s in score_deals(played)]
    assert expected[2] > expected[1]  # the cleared win puts the third on a streak

    async def scored() -> bool:
        return (await entry(alice, code, "alice"))["points"] == sum(expected)

    await until(scored)
    now = await entry(alice, code, "alice")
    assert [r["points"] for r in now["results"]] == expected
    assert (now["wins"], now["played"], now["fire"]) == (3, 3, True)
    assert (await entry(alice, code, "bob"))["points"] == 0  # confirmed: out for good
    stored = run_sql(
        config.db,
        "SELECT p.points, SUM(g.points) FROM arena_players p JOIN arena_games g ON "
        "g.arena = p.arena AND g.player_id = p.player_id WHERE p.arena = :c "
        "GROUP BY p.player_id, p.points ORDER BY p.points",
        {"c": code},
    )
    assert stored == [(0, 0), (sum(expected), sum(expected))]
