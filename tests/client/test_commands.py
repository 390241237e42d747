"""The ``bot`` subcommand as a player runs it: a separate process against the real server."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
from pathlib import Path

import msgpack
from sqlalchemy import func, select
from websockets.asyncio.client import connect

from client.bot import HUMAN_DELAY
from server.cli import build_parser
from server.storage.models import Player
from tests.client.conftest import ServerControl


async def run_cli(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_bot_command_plays_a_game_and_keeps_its_token(
    server: ServerControl, tmp_path: Path
) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    code, out, err = await run_cli(
        "bot",
        "--server",
        server.url,
        "--variant",
        "westhaven",
        "--seed",
        "617",
        "--name",
        "clibot",
        "--delay",
        "0",
        "--max-actions",
        "10",
        env=env,
    )
    assert code == 0, err
    assert "[clibot] started westhaven seed 617" in out
    assert "westhaven: resigned" in out or "westhaven: won" in out
    tokens = tmp_path / "xdg" / "patience-club" / "bots" / "clibot" / "tokens.json"
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    saved = json.loads(tokens.read_text())[server.url]
    assert saved["name"] == "clibot"
    # It registered as a bot account: the server shows it as one.
    async with connect(server.url) as ws:
        hello = {"type": "hello", "id": 1, "protocol": 2, "client": "t/1", "token": saved["token"]}
        await ws.send(msgpack.packb(hello))
        welcome = msgpack.unpackb(await ws.recv())
    assert welcome["player"]["bot"] is True

    # A second run is the same player: the saved token is used, no new registration.
    code, _, err = await run_cli(
        "bot",
        "--server",
        server.url,
        "--variant",
        "osmosis",
        "--name",
        "clibot",
        "--delay",
        "0",
        "--max-actions",
        "3",
        env=env,
    )
    assert code == 0, err


async def test_the_bot_command_reports_an_unreachable_server(tmp_path: Path) -> None:
    from tests.client.conftest import free_port

    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    code, _, err = await run_cli(
        "bot", "--server", f"ws://127.0.0.1:{free_port()}/ws", "--name", "nobody", env=env
    )
    assert code == 1
    assert "cannot reach the server" in err


async def test_the_bot_command_reports_a_variant_the_server_does_not_play(
    server: ServerControl, tmp_path: Path
) -> None:
    # The bot keeps no list of variants: the server refuses an id it does not know.
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    args = ["bot", f"--server={server.url}", "--variant=klondike", "--name=lost"]
    code, _, err = await run_cli(*args, env=env)
    assert code == 1
    assert "unknown variant 'klondike'" in err


async def test_the_bot_told_no_variant_plays_the_one_the_server_offers_for_races(
    server: ServerControl, tmp_path: Path
) -> None:
    # The bot keeps no default of its own: the server's VariantInfo marks it (race_default).
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    args = ["bot", f"--server={server.url}", "--name=plain", "--seed=617", "--delay=0",
            "--max-actions=2"]  # fmt: skip
    code, out, err = await run_cli(*args, env=env)
    assert code == 0, err
    assert "[plain] started freecell seed 617" in out


def test_the_bot_plays_at_a_persons_pace_unless_told_otherwise() -> None:
    parser = build_parser({"bot": "client.commands.bot"})
    assert parser.parse_args(["bot"]).delay == HUMAN_DELAY >= 1.0
    assert parser.parse_args(["bot", "--delay", "0.3"]).delay == 0.3


async def test_the_bot_without_a_name_reuses_the_account_it_registered(
    server: ServerControl, tmp_path: Path
) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    args = ["bot", "--server", server.url, "--variant", "osmosis", "--delay", "0",
            "--max-actions", "2"]  # fmt: skip
    code, first, err = await run_cli(*args, env=env)
    assert code == 0, err
    name = first.split("]", 1)[0].lstrip("[")
    assert name.startswith("bot-")
    saved = tmp_path / "xdg" / "patience-club" / "bots" / "default" / "tokens.json"
    assert json.loads(saved.read_text())[server.url]["name"] == name
    # Run again: the same player (a new registration of the name would be refused).
    code, second, err = await run_cli(*args, env=env)
    assert code == 0, err
    assert second.startswith(f"[{name}] ")
    assert server.app is not None
    async with server.app.db_sessions() as db:
        bots = await db.scalar(select(func.count()).select_from(Player).where(Player.bot))
    assert bots == 1
