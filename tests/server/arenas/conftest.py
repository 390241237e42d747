"""Arenas against a real server: won Osmosis deals in the pool, a player's line to win them."""

from __future__ import annotations

import contextlib
from functools import cache
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from server.app import App
from server.config import Config
from server.deals.pool import options_text
from server.storage.models import PooledDeal
from shared.games import new_game
from shared.solver import Budget, solve_position
from shared.variants.osmosis import OsmosisRules
from tests.server.conftest import Client, FakeClock
from tests.server.pushes import keyed_line, play_line, push

#: the gap between a person's actions in these tests: every gap a pause, so that review
#: holds nothing
GAP_MS = 2_500


@pytest.fixture
def config(config: Config, db_url: str) -> Config:
    # (db_url named here too, so that these tests run on both databases: an overriding
    # fixture hides the one it overrides from the parametrization)
    # the tests call tick() themselves; standings pushed at once
    return config.replace(
        arena_push_ms=20, arena_tick_ms=3_600_000, rate_limit=10_000.0, rate_burst=10_000
    )


@cache
def won_keys(count: int = 24) -> tuple[tuple[bytes, int], ...]:
    """Osmosis keys the solver wins, with the moves of its line."""
    found = []
    for n in range(256):
        key = bytes([n, 7]) * 16
        result = solve_position(
            new_game("osmosis", key=key), Budget(positions=OsmosisRules.daily_positions)
        )
        if result.won:
            found.append((key, len(result.line)))
        if len(found) == count:
            break
    return tuple(found)


async def fill_pool(app: App, count: int = 24) -> None:
    """The pool of medium Osmosis deals holds these won deals (those it lacks are put in; one
    the server put back meanwhile, taken ahead and returned at a stop, is left as it is)."""
    options = options_text(dict(OsmosisRules.option_defaults))
    async with app.db_sessions() as db:
        there = set((await db.execute(select(PooledDeal.deal_key))).scalars())
    # and those the server took ahead out of the table (it puts them back at its stop)
    there |= {taken[0] for ready in app.deal_pool.ready.values() for taken in ready}
    for key, line in won_keys(count):
        if key.hex() in there:
            continue
        with contextlib.suppress(IntegrityError):
            async with app.db_sessions() as db, db.begin():
                db.add(
                    PooledDeal(
                        variant="osmosis",
                        options=options,
                        difficulty="medium",
                        deal_key=key.hex(),
                        positions=1,
                        line=line,
                        created_ms=0,
                    )
                )


async def key_of(app: App, game_id: str) -> bytes:
    live = await app.game_store.get(game_id)
    assert live.keyed is not None
    return live.keyed.key


async def win(app: App, client: Client, dealt: dict[str, Any], clock: FakeClock) -> dict[str, Any]:
    """Play the solver's line of the deal, at a person's pace."""
    game = dealt["game"]
    line = keyed_line("osmosis", await key_of(app, game["id"]))
    game = await play_line(client, game, line, clock, GAP_MS)
    assert game["state"] == "won", game
    return game


async def lose(client: Client, dealt: dict[str, Any], clock: FakeClock) -> dict[str, Any]:
    game = dealt["game"]
    clock.advance(GAP_MS)
    reply = await client.request("resign", game=game["id"], ply=game["ply"])
    assert reply["type"] == "game", reply
    return reply["game"]  # type: ignore[no-any-return]


async def standings(client: Client, code: str, **match: Any) -> dict[str, Any]:
    return await push(client, "arena_standings", code=code, **match)
