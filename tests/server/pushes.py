"""Helpers for races and dailies: waiting for pushes, reconnecting, a solver line to win with,
a day's deal stored ahead, the admin command."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cache
from typing import Any

import pytest

from server.app import App
from server.cli import main as cli
from server.config import Config
from server.storage.models import Daily
from shared.games import new_game
from shared.solver import Budget, solve, solve_position
from tests.server.conftest import Client, FakeClock, open_client


async def push(
    client: Client,
    kind: str,
    timeout: float = 5.0,
    check: Callable[[dict[str, Any]], bool] = lambda _: True,
    **match: Any,
) -> dict[str, Any]:
    """The next push (no ``re``) of type ``kind`` whose fields equal ``match`` and that passes
    ``check``, not taken before.

    Pushes that arrived while a request waited for its reply are in ``received``
    already; each is handed out once.
    """
    taken: set[int] = client.__dict__.setdefault("taken", set())

    def fits(m: dict[str, Any]) -> bool:
        return (
            id(m) not in taken
            and m.get("type") == kind
            and "re" not in m
            and all(m.get(k) == v for k, v in match.items())
            and check(m)
        )

    async def wait() -> dict[str, Any]:
        for m in client.received:
            if fits(m):
                return m
        while True:
            m = await client.recv()
            if fits(m):
                return m

    found = await asyncio.wait_for(wait(), timeout)
    taken.add(id(found))
    return found


async def no_push(client: Client, kind: str, wait_s: float = 0.2) -> None:
    """No push of type ``kind`` arrives within ``wait_s``."""
    try:
        found = await push(client, kind, timeout=wait_s)
    except TimeoutError:
        return
    raise AssertionError(f"unexpected {kind} push: {found}")


async def rejoin(app: App, token: str) -> Client:
    client = await open_client(app)
    reply = await client.request("hello", protocol=2, client="tests/1", token=token)
    assert reply["type"] == "welcome", reply
    return client


@cache
def winning_line(variant: str, seed: int) -> tuple[str, ...]:
    """The solver's winning line for a deal (proven, so the test can win a race or a daily)."""
    result = solve(variant, seed, {}, Budget(positions=500_000))
    assert result.won, (variant, seed, result.verdict)
    return result.line


@cache
def keyed_line(variant: str, key: bytes) -> tuple[str, ...]:
    """The solver's winning line for a keyed deal (the tests read the key from the server)."""
    result = solve_position(new_game(variant, key=key), Budget(positions=500_000))
    assert result.won, (variant, result.verdict)
    return result.line


async def play_line(
    client: Client,
    game: dict[str, Any],
    line: tuple[str, ...],
    clock: FakeClock | None = None,
    gap_ms: int = 0,
) -> dict[str, Any]:
    """Play ``line``; with ``clock``, ``gap_ms`` pass before each action (a person's pace)."""
    for action in line:
        if clock is not None:
            clock.advance(gap_ms)
        reply = await client.move(game, action)
        assert reply["type"] == "game", reply
        game = reply["game"]
    return game


async def fix_daily(app: App, variant: str, date: str, key: bytes = bytes(range(32))) -> None:
    """Store the day's deal as the server stores the one it computes, without running the
    solver: for tests about something else than the choice of the deal."""
    async with app.db_sessions() as db, db.begin():
        db.add(Daily(variant=variant, date=date, deal_key=key.hex(), positions=0, computed_ms=0))


async def admin(capsys: pytest.CaptureFixture[str], config: Config, *args: str) -> tuple[int, str]:
    """``patience-club admin ARGS`` on the test's database, as an operator runs it beside the
    server (in a thread: the test's event loop goes on serving)."""
    capsys.readouterr()
    code = await asyncio.to_thread(cli, ["admin", *args, "--db", config.db])
    return code, capsys.readouterr().out


async def until(check: Callable[[], Awaitable[bool]], seconds: float = 3.0) -> None:
    """Ask ``check`` again and again until it holds; fail after ``seconds``."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not await check():
        assert asyncio.get_running_loop().time() < deadline, f"not within {seconds:g} s"
        await asyncio.sleep(0.05)
