"""A property, against a real server: whatever players do in an arena, the points of its table
are the sum of its games' points, and each game's points are the scoring rule's."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from server.app import App
from server.arenas.scoring import DealPlayed, score_deals
from server.config import Config
from server.storage.models import ArenaGame, ArenaPlayer
from tests.server.arenas.conftest import fill_pool, lose, win
from tests.server.conftest import Client, FakeClock, open_client

OUTCOMES = ("win", "slow_win", "berserk_win", "resign", "timeout")
plans = st.lists(st.lists(st.sampled_from(OUTCOMES), max_size=3), min_size=1, max_size=2)


async def play(app: App, clock: FakeClock, client: Client, code: str, outcome: str) -> None:
    dealt = await client.request("arena_play", code=code)
    assert dealt["type"] == "arena_game", dealt
    if outcome == "berserk_win":
        assert (await client.request("arena_berserk", code=code))["berserk"]
    if outcome == "slow_win":
        clock.advance(dealt["par_ms"])
    if outcome.endswith("win"):
        await win(app, client, dealt, clock)
    elif outcome == "resign":
        await lose(client, dealt, clock)
    else:
        clock.advance(dealt["allowance_ms"] + 1)
        await app.arenas.tick()


async def scenario(config: Config, plan: list[list[str]]) -> None:
    clock = FakeClock()
    app = App(config, clock=clock)
    await app.start()
    try:
        await fill_pool(app)
        clients = []
        for n in range(len(plan)):
            c = await open_client(app)
            await c.hello(f"p{n}_{uuid.uuid4().hex[:8]}")
            clients.append(c)
        made = await clients[0].request("arena_create", variant="osmosis", minutes=360)
        code = made["arena"]["code"]
        for c in clients[1:]:
            await c.request("arena_join", code=code)
        for c, outcomes in zip(clients, plan, strict=True):
            for outcome in outcomes:
                await play(app, clock, c, code, outcome)
        table = await clients[0].request("arena_table", code=code)
        async with app.db_sessions() as db:
            players = (
                await db.execute(select(ArenaPlayer).where(ArenaPlayer.arena == code))
            ).scalars()
            totals = {row.player_id: row.points for row in players}
            games = (await db.execute(select(ArenaGame).where(ArenaGame.arena == code))).scalars()
            summed: dict[int, int] = {}
            for row in games:
                summed[row.player_id] = summed.get(row.player_id, 0) + row.points
        for player, points in totals.items():
            assert points == summed.get(player, 0)
        for entry in table["entries"]:
            results: list[dict[str, Any]] = entry.get("results", [])
            assert entry["points"] == sum(r["points"] for r in results) == totals[entry["player"]]
            pars = {d["seq"]: d["par_ms"] for d in table["deals"]}
            rule = score_deals(
                DealPlayed(r["state"] == "won", r["time_ms"], pars[r["seq"]], r["berserk"])
                for r in results
            )
            assert [s.points for s in rule] == [r["points"] for r in results]
        for c in clients:
            await c.ws.close()
    finally:
        await app.stop()


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plans)
def test_an_arena_tables_points_are_the_sum_of_its_games_points(
    config: Config, plan: list[list[str]]
) -> None:
    asyncio.run(scenario(config, plan))
