"""A name that looks like a player's is refused: at registration (``name_looks_taken``), at an
operator's rename, and by the database; the migration fills the skeletons of existing players
and keeps look-alikes registered before it working."""

from __future__ import annotations

import argparse

from sqlalchemy import select

from server.app import App
from server.commands.admin.common import AdminError
from server.commands.admin.players import rename
from server.config import Config
from server.storage.engine import create_engine
from server.storage.migrate import downgrade, upgrade
from server.storage.models import Player
from server.storage.queries.players import hash_token
from tests.server.conftest import Connect, FakeClock, open_client
from tests.server.databases import run_sql


async def refused(connect: Connect, name: str) -> dict[str, object]:
    return await (await connect()).request("hello", protocol=2, client="t/1", name=name)


async def test_a_name_that_looks_like_a_players_is_refused(connect: Connect) -> None:
    await (await connect()).hello("Alice")
    await (await connect()).hello("Bob")
    for name in ["AIice", "A1ice", "B0b", "b0B"]:
        reply = await refused(connect, name)
        assert reply["type"] == "error" and reply["code"] == "name_looks_taken", name
        assert "Alice" in str(reply["message"]) or "Bob" in str(reply["message"])
    # the same name in another case is still name_taken, and unlike names register
    assert (await refused(connect, "aLICE"))["code"] == "name_taken"
    assert (await (await connect()).hello("Alina"))["player"]["name"] == "Alina"
    assert (await (await connect()).hello("Bobby"))["player"]["name"] == "Bobby"


async def test_the_refusal_leaves_the_connection_free_to_try_again(connect: Connect) -> None:
    await (await connect()).hello("Sam")
    client = await connect()
    reply = await client.request("hello", protocol=2, client="t/1", name="Sarn")  # rn looks like m
    assert reply["code"] == "name_looks_taken"
    assert (await client.hello("Samuel"))["player"]["name"] == "Samuel"


async def test_the_skeleton_is_stored_and_the_database_refuses_a_second(
    server: App, connect: Connect
) -> None:
    await (await connect()).hello("B0b")
    async with server.db_sessions() as db:
        stored = (await db.execute(select(Player.name, Player.name_skeleton))).all()
    assert [tuple(row) for row in stored] == [("B0b", "bob")]
    # a row written past the server's check (two nodes at once) is refused by the index
    async with server.db_sessions() as db:
        db.add(
            Player(name="Bob", name_key="bob", name_skeleton="bob", token_hash="x" * 64,
                   created_ms=1, updated_ms=1)
        )  # fmt: skip
        try:
            await db.commit()
        except Exception as exc:  # IntegrityError, whichever driver raised it
            assert "name_skeleton" in str(exc) or "UNIQUE" in str(exc).upper()
        else:
            raise AssertionError("the unique index took a second skeleton")


async def test_an_operator_cannot_rename_to_a_look_alike(server: App, connect: Connect) -> None:
    await (await connect()).hello("Alice")
    await (await connect()).hello("carol")
    async with server.db_sessions() as db:
        try:
            await rename(db, argparse.Namespace(player="carol", new_name="AIice"))
        except AdminError as exc:
            assert "looks too much like 'Alice'" in str(exc)
        else:
            raise AssertionError("renamed to a look-alike")
    async with server.db_sessions() as db:
        lines = await rename(db, argparse.Namespace(player="carol", new_name="Car0line"))
        assert lines == ["player 2 renamed from 'carol' to 'Car0line'"]
    async with server.db_sessions() as db:
        row = (await db.execute(select(Player).where(Player.id == 2))).scalar_one()
        assert (row.name, row.name_skeleton) == ("Car0line", "caroline")
    assert (await refused(connect, "Caroline"))["code"] == "name_looks_taken"


async def test_the_migration_fills_skeletons_and_keeps_old_look_alikes(
    empty_db_url: str,
) -> None:
    url = empty_db_url
    engine = create_engine(url)
    try:
        await upgrade(engine, "0005")
        for pid, name in ((1, "Alice"), (2, "AIice"), (3, "B0b"), (4, "zed")):
            run_sql(
                url,
                "INSERT INTO players (id, name, name_key, token_hash, banned, bot, created_ms, "
                "updated_ms) VALUES (:id, :name, :key, :token, false, false, 1, 1)",
                {"id": pid, "name": name, "key": name.lower(), "token": hash_token(name)},
            )
        await upgrade(engine)
    finally:
        await engine.dispose()
    rows = run_sql(url, "SELECT id, name_skeleton FROM players ORDER BY id")
    # the older Alice holds the skeleton; the later look-alike keeps its name, skeleton NULL
    assert [tuple(row) for row in rows] == [(1, "alice"), (2, None), (3, "bob"), (4, "zed")]

    app = App(
        Config(port=0, metrics_port=0, db=url, daily_ahead=False, stuck_workers=0),
        clock=FakeClock(),
    )
    await app.start()
    try:
        # the look-alike registered before the migration signs in as before (its token was
        # stored as the hash of "AIice" above)
        old = await open_client(app)
        welcome = await old.request("hello", protocol=2, client="t/1", token="AIice")
        assert welcome["player"]["name"] == "AIice"
        client = await open_client(app)
        reply = await client.request("hello", protocol=2, client="t/1", name="Bob")
        assert reply["code"] == "name_looks_taken"
        reply = await client.request("hello", protocol=2, client="t/1", name="A1ice")
        assert reply["code"] == "name_looks_taken"
        await old.ws.close()
        await client.ws.close()
    finally:
        await app.stop()

    engine = create_engine(url)
    try:
        await downgrade(engine, "0005")
    finally:
        await engine.dispose()
    assert run_sql(url, "SELECT count(*) FROM players") == [(4,)]
    engine = create_engine(url)
    try:
        await upgrade(engine)  # and up again, from rows without skeletons
    finally:
        await engine.dispose()
    rows = run_sql(url, "SELECT id, name_skeleton FROM players ORDER BY id")
    assert [tuple(row) for row in rows] == [(1, "alice"), (2, None), (3, "bob"), (4, "zed")]
