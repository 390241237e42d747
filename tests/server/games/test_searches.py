"""Stuck searches in worker processes: the same states as in-process, and the server outlives
its workers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
from typing import Any

import pytest

from server.games import searches
from shared.game import PLAYING, Game
from shared.games import new_game
from tests.server.conftest import Client, ServeWith, open_client

#: these tests play fast: the per-connection rate limit is not what they are about
FAST = {"rate_limit": 100_000.0, "rate_burst": 100_000}


def same_view(wire: dict[str, Any], local: Game) -> bool:
    """The wire's GameView is the engine's own, but for the server's fields."""
    mine = local.view()
    return {k: v for k, v in wire.items() if k not in ("id", "elapsed_ms", "hints")} == mine


async def play_and_compare(
    client: Client, rng: random.Random, seed: int, steps: int
) -> tuple[dict[str, Any], int]:
    """Random moves (and some undos) over the wire; after each, the view must be what this
    process's engine says with its own fresh searches. Returns the last view and the steps."""
    view = await client.start("freecell", seed=seed)
    local = new_game("freecell", seed=seed)  # (its own prover: the server's verdicts are not)
    done = 0
    while done < steps and (view["legal"] or view["state"] == "stuck"):
        action = "undo" if view["state"] == "stuck" or rng.random() < 0.1 else None
        if action is None or view["ply"] == 0:
            if not view["legal"]:
                break
            action = str(rng.choice(view["legal"]))
        reply = await client.move(view, action)
        if reply["type"] == "error":  # undo with nothing to take back
            assert reply["code"] == "illegal_move", reply
            break
        view = reply["game"]
        local.play(action)
        assert same_view(view, local), (seed, done, action)
        done += 1
    return view, done


async def test_searches_run_in_the_workers_and_give_the_engines_states(
    serve_with: ServeWith,
) -> None:
    app = await serve_with(stuck_workers=2, **FAST)
    client = await open_client(app)
    await client.hello("worker")
    rng = random.Random(2026)
    played = 0
    for seed in (617, 11982, 5, 424242):
        _, steps = await play_and_compare(client, rng, seed, 70)
        played += steps
    assert played > 100
    assert app.searches.in_workers > 0, "no move needed a search: choose longer games"
    assert app.searches.in_process == 0


@pytest.mark.sqlite_only  # the worker processes: the database plays no part
async def test_a_killed_worker_leaves_the_server_playing_and_is_replaced(
    serve_with: ServeWith, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = await serve_with(stuck_workers=1, **FAST)
    client = await open_client(app)
    await client.hello("killer")
    (pid,) = app.searches.pids
    os.kill(pid, signal.SIGKILL)
    rng = random.Random(7)
    with caplog.at_level(logging.ERROR, logger="server.games.searches"):
        for seed in (617, 5):
            await play_and_compare(client, rng, seed, 60)
    assert app.searches.in_process > 0, "the searches went on in the server's process"
    assert app.searches.pids == []
    assert any("lost" in r.getMessage() for r in caplog.records)

    monkeypatch.setattr(searches, "RETRY_AFTER_S", 0.0)
    before = app.searches.in_workers
    for seed in (11982, 424242, 77):
        await play_and_compare(client, rng, seed, 60)
    assert len(app.searches.pids) == 1 and app.searches.pids != [pid]
    assert app.searches.in_workers > before


@pytest.mark.sqlite_only  # the worker processes: the database plays no part
async def test_a_hung_worker_is_ended_and_the_server_answers_itself(
    serve_with: ServeWith, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(searches, "QUESTION_TIMEOUT_S", 0.5)
    app = await serve_with(stuck_workers=1, **FAST)
    client = await open_client(app)
    await client.hello("patient")
    (pid,) = app.searches.pids
    os.kill(pid, signal.SIGSTOP)  # alive, but answering nothing
    try:
        for seed in (617, 5):
            await play_and_compare(client, random.Random(11), seed, 60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
    assert app.searches.in_process > 0 and app.searches.pids == []
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # ended and reaped


@pytest.mark.sqlite_only  # the worker processes: the database plays no part
async def test_stopping_the_server_ends_its_workers(serve_with: ServeWith) -> None:
    app = await serve_with(stuck_workers=2, **FAST)
    pids = app.searches.pids
    assert len(pids) == 2
    await app.stop()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_without_workers_the_server_searches_itself(serve_with: ServeWith) -> None:
    app = await serve_with(stuck_workers=0, **FAST)
    client = await open_client(app)
    await client.hello("alone")
    assert app.searches.pids == []
    await play_and_compare(client, random.Random(3), 617, 60)
    await play_and_compare(client, random.Random(3), 11982, 60)
    assert app.searches.in_workers == 0 and app.searches.in_process > 0


async def test_one_game_takes_one_action_at_a_time(serve_with: ServeWith) -> None:
    """The same move from two connections at once: played once, acknowledged to both."""
    app = await serve_with(stuck_workers=1, **FAST)
    first, second = await open_client(app), await open_client(app)
    reply = await first.request("hello", protocol=2, client="tests/1", name="twice")
    await second.request("hello", protocol=2, client="tests/1", token=reply["token"])
    view = await first.start("freecell", seed=617)
    rng = random.Random(1)
    for _ in range(40):
        if view["state"] != PLAYING:
            break
        move = str(rng.choice(view["legal"]))
        a, b = await asyncio.gather(first.move(view, move), second.move(view, move))
        assert a["type"] == b["type"] == "game", (a, b)
        assert a["game"]["ply"] == b["game"]["ply"] == view["ply"] + 1
        view = a["game"]
    live = await app.game_store.get(view["id"])
    assert live.game.ply == view["ply"]
    async with app.db_sessions() as session:
        from server.storage.queries import games as store

        loaded = await store.load(session, game_id=view["id"])
    assert loaded is not None and len(loaded[1]) == view["ply"]
