"""``patience-club serve`` as a process: kill -9 loses no acknowledged move; SIGTERM closes well."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed

from tests.server.conftest import Client

SCRIPT = Path(sys.executable).parent / "patience-club"


@asynccontextmanager
async def serve(db: Path) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    process = await asyncio.create_subprocess_exec(
        str(SCRIPT),
        "serve",
        "--port",
        "0",
        "--metrics-port",
        "0",
        "--db",
        f"sqlite+aiosqlite:///{db}",
        "--log-level",
        "WARNING",
        # the clients play back to back: faster than the default 50 messages/s
        "--rate-limit",
        "100000",
        "--rate-burst",
        "100000",
        stdout=asyncio.subprocess.PIPE,
        env=os.environ | {"PATIENCE_DAILY_AHEAD": "0"},
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        match = re.search(rb":(\d+)/ws", line)
        assert match, line
        # and where a person opens the game: the browser client on the same port
        page = await asyncio.wait_for(process.stdout.readline(), 30)
        assert page.strip() == b"the game is at http://127.0.0.1:%s/" % match.group(1), page
        yield process, int(match.group(1))
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def client(port: int) -> Client:
    from websockets.asyncio.client import connect

    return Client(await connect(f"ws://127.0.0.1:{port}/ws", max_size=None))


def stored_actions(db: Path, game_id: str) -> list[str]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT action FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        ).fetchall()
    return [r[0] for r in rows]


async def test_kill_9_loses_no_acknowledged_move_and_sigterm_closes_with_1001(
    tmp_path: Path,
) -> None:
    """One test for both, to start the server process twice rather than three times."""
    db = tmp_path / "crash.db"
    players: list[dict[str, Any]] = []
    async with serve(db) as (process, port):
        for n in range(6):
            c = await client(port)
            welcome = await c.hello(f"racer{n}")
            game = await c.start("freecell", seed=1000 + n)
            players.append({"client": c, "token": welcome["token"], "game": game, "acked": []})

        async def play(entry: dict[str, Any], rng: random.Random) -> None:
            c, game = entry["client"], entry["game"]
            sent: list[str] = []
            try:
                while True:
                    if game["ply"] and (rng.random() < 0.15 or not game["legal"]):
                        action = "undo"  # also the way out of a stuck game
                        reply = await c.request("undo", game=game["id"], ply=game["ply"])
                    else:
                        action = rng.choice(game["legal"])
                        reply = await c.move(game, action)
                    assert reply["type"] == "game", reply
                    sent.append(action)
                    game = reply["game"]
                    entry["acked"] = list(sent)
            except ConnectionClosed:
                return

        tasks = [asyncio.create_task(play(e, random.Random(n))) for n, e in enumerate(players)]
        await asyncio.sleep(1.0)
        os.kill(process.pid, signal.SIGKILL)
        await process.wait()
        await asyncio.wait_for(asyncio.gather(*tasks), 10)

    assert all(len(e["acked"]) >= 5 for e in players), [len(e["acked"]) for e in players]
    for e in players:
        acked = e["acked"]
        assert stored_actions(db, e["game"]["id"])[: len(acked)] == acked

    async with serve(db) as (process, port):
        resumed = []
        for e in players:
            c = await client(port)
            await c.request("hello", protocol=2, client="t/1", token=e["token"])
            view = (await c.request("get_game", game=e["game"]["id"]))["game"]
            assert view["ply"] >= len(e["acked"])
            if view["legal"]:
                moved = await c.move(view, view["legal"][0])
            else:
                moved = await c.request("undo", game=view["id"], ply=view["ply"])
            assert moved["type"] == "game", moved
            resumed.append((e["game"]["id"], moved["game"]["ply"]))
            await c.ws.close()

        # SIGTERM: connections closed with 1001, the process exits 0, every move is kept.
        c = await client(port)
        await c.hello("last")
        game = await c.start()
        for _ in range(3):
            game = (await c.move(game, game["legal"][0]))["game"]
        process.send_signal(signal.SIGTERM)
        try:
            while True:
                await asyncio.wait_for(c.recv(), 10)
        except ConnectionClosed:
            pass
        assert c.ws.close_code == 1001
        assert await asyncio.wait_for(process.wait(), 20) == 0
    assert len(stored_actions(db, game["id"])) == 3
    for game_id, ply in resumed:
        assert len(stored_actions(db, game_id)) == ply


async def test_a_port_that_cannot_be_bound_exits_with_one_line(tmp_path: Path) -> None:
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        game_port_taken = ["--port", str(port), "--metrics-port", "0"]
        metrics_port_taken = ["--port", "0", "--metrics-port", str(port)]
        for flags in (game_port_taken, metrics_port_taken):
            process = await asyncio.create_subprocess_exec(
                str(SCRIPT),
                "serve",
                *flags,
                "--db",
                f"sqlite+aiosqlite:///{tmp_path / 'taken.db'}",
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
            out, _ = await asyncio.wait_for(process.communicate(), 60)
            assert process.returncode == 2, out
            text = out.decode()
            assert "Traceback" not in text, text
            assert text.strip().splitlines()[-1] == (
                f"patience-club serve: cannot listen on 127.0.0.1:{port}: Address already in use"
            )
    finally:
        taken.close()


async def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(
    tmp_path: Path,
) -> None:
    """A Ctrl-C reaches the whole process group: stuck searches, the daily's prover and
    the winnable-deal pool ignore it (the server stops them), so nothing prints a
    KeyboardInterrupt traceback. The signal comes once the daily's worker has proven a
    deal and waits for the next (a worker that took it idle printed one)."""
    process = await asyncio.create_subprocess_exec(
        str(SCRIPT),
        "serve",
        "--port",
        "0",
        "--metrics-port",
        "0",
        "--db",
        f"sqlite+aiosqlite:///{tmp_path / 'ctrl-c.db'}",
        "--log-level",
        "INFO",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        # as a terminal starts it: a test run in the background inherits SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env=os.environ | {"PATIENCE_DAILY_AHEAD": "1", "PATIENCE_DAILY_BUDGET_S": "1"},
    )
    seen: list[bytes] = []
    try:
        assert process.stdout is not None
        read = process.stdout.readline
        while b"proven winnable" not in (line := await asyncio.wait_for(read(), 60)):
            assert line, b"".join(seen)
            seen.append(line)
        seen.append(line)
        await asyncio.sleep(1.0)
        os.killpg(process.pid, signal.SIGINT)
        output, _ = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    text = (b"".join(seen) + output).decode(errors="replace")
    assert "Traceback" not in text, text
    assert "KeyboardInterrupt" not in text, text
