"""``patience-club admin`` against the database of a running server."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.app import App
from server.cli import main as cli
from server.config import Config
from tests.server.conftest import Connect, FakeClock, open_client
from tests.server.pushes import admin


async def hello_with(connect: Connect, token: str) -> dict[str, object]:
    client = await connect()
    return await client.request("hello", protocol=2, client="tests/1", token=token)


async def test_admin_commands_list_rename_ban_and_reset_tokens(
    capsys: pytest.CaptureFixture[str], config: Config, server: App, connect: Connect
) -> None:
    alice = await (await connect()).hello("alice")
    bob = await (await connect()).hello("bob")
    a = alice["player"]["id"]
    await (await connect()).hello("carol")

    code, out = await admin(capsys, config, "list-players")
    assert code == 0
    rows = [line.split() for line in out.splitlines()[1:]]
    assert [(int(r[0]), r[1]) for r in rows] == [(a, "alice"), (a + 1, "bob"), (a + 2, "carol")]

    assert (await admin(capsys, config, "ban", "Alice"))[0] == 0
    refused = await hello_with(connect, alice["token"])
    assert (refused["type"], refused["code"]) == ("error", "banned")
    assert "yes" in (await admin(capsys, config, "list-players"))[1].splitlines()[1]
    assert (await admin(capsys, config, "unban", str(a)))[0] == 0
    assert (await hello_with(connect, alice["token"]))["type"] == "welcome"

    assert (await admin(capsys, config, "rename", "bob", "robert"))[0] == 0
    back = await hello_with(connect, bob["token"])
    assert back["player"] == {"id": bob["player"]["id"], "name": "robert", "bot": False}
    code, out = await admin(capsys, config, "rename", "robert", "ALICE")
    assert code == 1 and "taken" in out
    assert (await admin(capsys, config, "rename", "robert", "no spaces"))[0] == 1

    code, out = await admin(capsys, config, "reset-token", "alice")
    assert code == 0
    token = out.split()[-1]
    assert (await hello_with(connect, alice["token"]))["code"] == "bad_token"
    renewed = await hello_with(connect, token)
    assert renewed["player"] == {"id": a, "name": "alice", "bot": False}

    assert (await admin(capsys, config, "ban", "nobody"))[0] == 1
    with pytest.raises(SystemExit) as usage:  # argparse: a PLAYER is required
        await admin(capsys, config, "ban")
    assert usage.value.code == 2


def test_admin_refuses_a_database_behind_the_code(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}"
    assert cli(["admin", "list-players", "--db", url]) == 1
    assert "db upgrade" in capsys.readouterr().out


async def test_the_server_name_and_message_of_the_day_are_in_welcome(
    config: Config, clock: FakeClock
) -> None:
    app = App(config.replace(name="Tuesday Club", motd="be kind"), clock=clock)
    await app.start()
    try:
        client = await open_client(app)
        server = (await client.hello("alice"))["server"]
        assert (server["name"], server["motd"]) == ("Tuesday Club", "be kind")
    finally:
        await app.stop()
