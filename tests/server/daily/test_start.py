"""The daily's start step: nothing of the deal but its commitment before the player starts,
and the ranked clock counting from the start, not from the first look."""

from __future__ import annotations

import msgpack
import pytest
from sqlalchemy import func, select

from server.app import App
from server.config import Config
from server.daily.deals import utc_date
from server.storage.models import DailyAttempt, Game
from shared.cards import parse_card
from shared.deals import commitment
from shared.errors import InvalidNotation
from shared.games import new_game
from tests.server.conftest import Connect, FakeClock
from tests.server.pushes import fix_daily

KEY = bytes(range(32))


@pytest.fixture
def config(db_url: str) -> Config:
    return Config(host="127.0.0.1", port=0, metrics_port=0, db=db_url, daily_ahead=False)


def cards_in(frame: dict[str, object]) -> list[str]:
    """Every string of a frame that names a card (``QH``, ``TS``...)."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            try:
                parse_card(value)
            except InvalidNotation:
                return
            found.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                walk(item)

    walk(frame)
    return found


async def counts(server: App, player: int) -> tuple[int, int]:
    async with server.db_sessions() as db:
        games = await db.scalar(select(func.count()).where(Game.player_id == player))
        attempts = await db.scalar(select(func.count()).where(DailyAttempt.player_id == player))
    return int(games or 0), int(attempts or 0)


async def test_the_daily_opens_on_a_start_step_and_its_clock_starts_with_the_player(
    server: App, connect: Connect, clock: FakeClock
) -> None:
    today = utc_date(clock.now)
    await fix_daily(server, "freecell", today, KEY)
    alice = await connect()
    me = (await alice.hello("alice"))["player"]["id"]

    intro = await alice.request("daily", variant="freecell")
    assert intro == {
        "type": "daily_intro",
        "re": intro["re"],
        "variant": "freecell",
        "date": today,
        "daily_streak": 0,
        "commitment": commitment("freecell", KEY),
    }
    clock.advance(60_000)  # reading the rules
    assert (await alice.request("daily", variant="freecell"))["type"] == "daily_intro"
    assert await counts(server, me) == (0, 0)  # nothing dealt, no attempt, no clock
    assert [cards_in(frame) for frame in alice.received] == [[]] * len(alice.received)
    assert b"piles" not in b"".join(msgpack.packb(f) for f in alice.received)

    started = await alice.request("daily", variant="freecell", start=True)
    assert started["type"] == "game" and started["daily"] == {"date": today}
    game = started["game"]
    assert game["elapsed_ms"] == 0
    assert game["piles"] == new_game("freecell", key=KEY).view()["piles"]
    assert await counts(server, me) == (1, 1)
    clock.advance(5000)
    moved = await alice.move(game, game["legal"][0])
    assert moved["game"]["elapsed_ms"] == 5000

    # Once started, `daily` resumes the attempt, with or without `start`; never a second one.
    again = await alice.request("daily", variant="freecell")
    assert again["type"] == "game" and again["game"]["id"] == game["id"]
    restart = await alice.request("daily", variant="freecell", start=True)
    assert restart["game"]["id"] == game["id"]
    assert await counts(server, me) == (1, 1)


async def test_start_is_checked(server: App, connect: Connect, clock: FakeClock) -> None:
    await fix_daily(server, "freecell", utc_date(clock.now), KEY)
    alice = await connect()
    await alice.hello("alice")
    bad = await alice.request("daily", variant="freecell", start="yes")
    assert (bad["code"], "'start'" in bad["message"]) == ("invalid_field", True)
    unknown = await alice.request("daily", variant="spider")
    assert unknown["code"] == "invalid_field"
