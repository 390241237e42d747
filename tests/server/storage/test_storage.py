"""Storage: migrations agree with the models, moves are stored in order, restarts rebuild games."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import select, text
from sqlalchemy.engine import Connection

from server.app import App
from server.cli import main as cli
from server.config import Config
from server.storage.engine import create_engine
from server.storage.migrate import alembic_config, current, downgrade, upgrade
from server.storage.models import Base, Game, GameAction
from tests.server.conftest import FakeClock, open_client
from tests.server.databases import run_sql


def _differences(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


async def test_migrations_build_exactly_the_models(empty_db_url: str) -> None:
    engine = create_engine(empty_db_url)
    try:
        assert await current(engine) is None
        await upgrade(engine)
        assert await current(engine) is not None
        async with engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
        await downgrade(engine, "base")
        assert await current(engine) is None
        await upgrade(engine)
        async with engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()


async def test_nodes_starting_together_migrate_one_at_a_time(empty_postgres_url: str) -> None:
    """Three processes migrate one new PostgreSQL database at once (``patience-club db
    upgrade``, as three nodes starting together would): each waits for the lock of the one
    before it, finds the revision it committed, and has nothing left to do."""
    url = empty_postgres_url
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    command = [sys.executable, "-m", "server.cli", "db", "upgrade", "--db", url]
    processes = [
        await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        for _ in range(3)
    ]
    outputs = await asyncio.wait_for(
        asyncio.gather(*(process.communicate() for process in processes)), timeout=120
    )
    for process, (out, _) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, out.decode()
        assert f"at revision {head}" in out.decode()
    engine = create_engine(url)
    try:
        assert await current(engine) == head
        async with engine.connect() as conn:
            assert await conn.run_sync(_differences) == []
    finally:
        await engine.dispose()


def test_db_upgrade_command_works_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    url = f"sqlite+aiosqlite:///{tmp_path / 'sub' / 'c.db'}"
    assert cli(["db", "upgrade", "--db", url]) == 0
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    assert f"at revision {head}" in capsys.readouterr().out
    assert (tmp_path / "sub" / "c.db").exists()


async def test_every_action_is_stored_in_order(server: App, connect: Any) -> None:
    client = await connect()
    await client.hello("alice")
    game = await client.start()
    played = []
    for _ in range(5):
        reply = await client.move(game, game["legal"][-1])
        played.append(game["legal"][-1])
        game = reply["game"]
    await client.request("undo", game=game["id"], ply=game["ply"])
    async with server.db_sessions() as db:
        query = select(GameAction).where(GameAction.game_id == game["id"])
        rows = (await db.execute(query)).scalars()
        stored = sorted((m.ply, m.action) for m in rows)
        row = await db.get(Game, game["id"])
    assert stored == list(enumerate([*played, "undo"]))
    assert row is not None and (row.ply, row.state, row.variant, row.seed) == (
        6,
        "playing",
        "freecell",
        617,
    )


async def test_a_restarted_server_rebuilds_games_from_seed_and_moves(
    config: Config, clock: FakeClock
) -> None:
    app = App(config, clock=clock)
    await app.start()
    client = await open_client(app)
    token = (await client.hello("alice"))["token"]
    game = await client.start("westhaven", seed=99)
    for _ in range(6):
        game = (await client.move(game, game["legal"][0]))["game"]
    clock.advance(700)
    await client.ws.close()
    await app.stop()

    app = App(config.replace(port=0), clock=clock)
    await app.start()
    try:
        client = await open_client(app)
        await client.request("hello", protocol=2, client="t/1", token=token)
        again = await client.request("get_game", game=game["id"])
        assert {k: v for k, v in again["game"].items() if k != "elapsed_ms"} == {
            k: v for k, v in game.items() if k != "elapsed_ms"
        }
        assert again["game"]["elapsed_ms"] == game["elapsed_ms"] + 700
        moved = await client.move(again["game"], again["game"]["legal"][0])
        assert moved["game"]["ply"] == 7
        await client.ws.close()
    finally:
        await app.stop()


async def test_moves_of_many_games_share_commits(server: App, connect: Any) -> None:
    clients = [await connect() for _ in range(20)]
    for n, client in enumerate(clients):
        await client.hello(f"p{n}")
    games = [await c.start("freecell", seed=100 + n) for n, c in enumerate(clients)]
    before = (server.writer.commits, server.writer.writes)

    async def play(client: Any, game: dict[str, Any]) -> None:
        for _ in range(5):
            game = (await client.move(game, game["legal"][0]))["game"]

    await asyncio.gather(*(play(c, g) for c, g in zip(clients, games, strict=True)))
    commits = server.writer.commits - before[0]
    writes = server.writer.writes - before[1]
    assert writes == 100
    assert commits < writes
    # Each game's row and moves, as written by the grouped statements, are its own.
    for game in games:
        live = await server.game_store.get(game["id"])
        (row,) = run_sql(
            server.config.db,
            "SELECT state, score, ply, ended_ms FROM games WHERE id = :id",
            {"id": game["id"]},
        )
        assert row == (live.state, live.game.score, 5, None)
        actions = run_sql(
            server.config.db,
            "SELECT action FROM moves WHERE game_id = :id ORDER BY ply",
            {"id": game["id"]},
        )
        assert [a for (a,) in actions] == live.game.actions


async def test_a_write_that_fails_is_refused_alone_and_nothing_else_is_lost(
    server: App, connect: Any, config: Config
) -> None:
    alice, bob = await connect(), await connect()
    await alice.hello("alice")
    await bob.hello("bob")
    doomed = await alice.start("freecell", seed=7)
    kept = await bob.start("freecell", seed=8)
    # An operator deletes Alice's game behind the server's back: her next move cannot be stored.
    run_sql(config.db, "DELETE FROM games WHERE id = :id", {"id": doomed["id"]})
    failed, fine = await asyncio.gather(
        alice.move(doomed, doomed["legal"][0]), bob.move(kept, kept["legal"][0])
    )
    assert (failed["type"], failed["code"]) == ("error", "internal")
    assert fine["type"] == "game" and fine["game"]["ply"] == 1
    assert (await alice.request("get_game", game=doomed["id"]))["code"] == "not_found"
    again = await bob.request("get_game", game=kept["id"])
    assert again["game"]["ply"] == 1


@pytest.mark.sqlite_only
async def test_the_log_is_checkpointed_beside_the_writer_not_by_its_commits(
    server: App, connect: Any
) -> None:
    """The writer's connection never checkpoints (a commit would wait for it); a thread does."""
    from server.storage.engine import create_sync_engine

    writer_like = create_sync_engine(server.config.db, autocheckpoint=False)
    try:
        with writer_like.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    finally:
        writer_like.dispose()

    server.checkpointer.interval_s = 0.05
    client = await connect()
    await client.hello("logger")
    game = await client.start("freecell", seed=617)
    for _ in range(10):
        if not game["legal"]:
            break
        game = (await client.move(game, game["legal"][0]))["game"]
    before = server.checkpointer.checkpoints
    for _ in range(100):
        await asyncio.sleep(0.05)
        if server.checkpointer.checkpoints > before:
            break
    assert server.checkpointer.checkpoints > before
    stored = run_sql(
        server.config.db, "SELECT count(*) FROM moves WHERE game_id = :id", {"id": game["id"]}
    )
    assert stored == [(game["ply"],)]


def test_a_large_group_is_written_in_several_statements_and_read_back_exactly(
    config: Config,
) -> None:
    """More moves and games than one multi-row statement takes (200 moves, 60 games)."""
    from server.storage.engine import create_sync_engine
    from server.storage.queries.game_writes import MOVE_ROWS, UPDATE_ROWS, apply_writes
    from server.storage.queries.games import GameWrite

    games = max(UPDATE_ROWS * 2, MOVE_ROWS) + 5
    engine = create_sync_engine(config.db, autocheckpoint=False)
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, "
                    "updated_ms) VALUES (1, 'p', 'p', 'h', false, 0, 0)"
                )
            )
            apply_writes(
                conn,
                [
                    GameWrite(
                        new_game={
                            "id": f"g{n}", "player_id": 1, "variant": "freecell",
                            "options": {"autoplay": True}, "seed": n + 1, "state": "playing",
                            "score": 0, "ply": 0, "started_ms": 0, "ended_ms": None,
                            "updated_ms": 0,
                        }
                    )
                    for n in range(games)
                ],
            )  # fmt: skip
        writes = [
            GameWrite(
                moves=[
                    {"game_id": f"g{n}", "ply": p, "action": f"t{p % 8}>r{n % 4}", "played_ms": p}
                    for p in range(3)
                ],
                update={
                    "id": f"g{n}",
                    "state": "won" if n % 3 == 0 else "playing",
                    "score": n,
                    "ply": 3,
                    "undos": n % 2,
                    "key_open": n % 3 == 0,
                    "ended_ms": 99 if n % 3 == 0 else None,
                    "updated_ms": 7,
                    "paused_ms": n,
                    "stopped_ms": 50 if n % 3 == 1 else None,
                },
                after_ply=0,
            )
            for n in range(games)
        ]
        assert games * 3 > 2 * MOVE_ROWS
        with engine.begin() as conn:
            apply_writes(conn, writes)
    finally:
        engine.dispose()
    rows = run_sql(
        config.db, "SELECT id, state, score, ply, undos, key_open, ended_ms, updated_ms FROM games"
    )
    won = [n % 3 == 0 for n in range(games)]
    assert sorted(rows) == sorted(
        (f"g{n}", "won" if won[n] else "playing", n, 3, n % 2, won[n], 99 if won[n] else None, 7)
        for n in range(games)
    )
    moves = run_sql(config.db, "SELECT game_id, ply, action, played_ms FROM moves")
    assert sorted(moves) == sorted(
        (f"g{n}", p, f"t{p % 8}>r{n % 4}", p) for n in range(games) for p in range(3)
    )
    clocks = run_sql(config.db, "SELECT id, paused_ms, stopped_ms FROM games")
    assert sorted(clocks) == sorted((f"g{n}", n, 50 if n % 3 == 1 else None) for n in range(games))
