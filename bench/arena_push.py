"""The CPU of one standings push to many followers: its writes, and the whole push.

One process holds the server side: websockets' server with this server's
settings (no compression, the same write limit), each connection wrapped in
:class:`server.net.connection.Connection`. ``--followers`` lean clients
(bench/arena_client.py) in a second process read everything they get. Each
round writes one ``arena_standings`` (the top 10, long names: about 780
bytes) to every follower twice, a pause between: once with websockets
framing the message for each connection (``send_latest(slot, data)``), once
with the frame built once for all (``send_latest(slot, data, frame)``); then
makes two whole pushes (:class:`server.arenas.pushes.FanOut`, a table of one
line per follower, everyone following): one after a deal scored in the top
(the standings to everyone, a place to its player), one after a deal scored
below it (a place to its player alone). It takes the event loop thread's
CPU of each (``time.thread_time``, which a loaded machine inflates far less
than wall time). Nothing else runs in the server process: no moves.

    python -m bench arena_push [--followers 2000] [--rounds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from websockets.asyncio.server import ServerConnection, serve

from server.arenas.pushes import FanOut, Places
from server.arenas.table import Line, Standings
from server.config import Config
from server.net.connection import WRITE_LIMIT, Connection, server_frame
from shared import protocol as p


async def read_all(port: int, count: int) -> None:
    """The followers' process: open ``count`` connections and read until killed."""
    from bench.arena_client import LeanConnection

    def ignore(data: bytes, arrived: float, read: float) -> None:
        del data, arrived, read

    for first in range(0, count, 100):
        opening = (LeanConnection.open(port, ignore) for _ in range(min(100, count - first)))
        await asyncio.gather(*opening)
    print("open", flush=True)
    await asyncio.Event().wait()


def standings() -> bytes:
    top = tuple(
        p.ArenaEntry(n + 1, 1000 + n, f"player {n:02d} long name", 60 - n, 20, 9, n < 3)
        for n in range(p.TOP)
    )
    now = time.time_ns() // 10**6
    return p.encode(p.ArenaStandings(code="ABCDEF", version=1, players=2000, top=top, at_ms=now))


async def run(args: argparse.Namespace) -> None:
    config = Config()
    followers: list[Connection] = []

    async def handler(ws: ServerConnection) -> None:
        connection = Connection(ws, len(followers), config)
        connection.start()
        followers.append(connection)
        await ws.wait_closed()

    async with serve(
        handler, "127.0.0.1", 0, compression=None, max_queue=4, write_limit=WRITE_LIMIT
    ) as server:
        port = server.sockets[0].getsockname()[1]
        command = [sys.executable, "-m", "bench.arena_push", "--read", str(port)]
        readers = await asyncio.create_subprocess_exec(
            *command, "--followers", str(args.followers), stdout=asyncio.subprocess.PIPE
        )
        try:
            assert readers.stdout is not None
            await asyncio.wait_for(readers.stdout.readline(), 600)
            while len(followers) < args.followers:
                await asyncio.sleep(0.1)
            data = standings()
            load = os.getloadavg()[0]
            spent: dict[str, list[float]] = {"framed per connection": [], "frame built once": []}
            pushed: dict[str, list[float]] = {"push, top changed": [], "push, below the top": []}
            arena = Arena(followers)
            for round_ in range(args.rounds):
                for way in spent if round_ % 2 else reversed(spent):
                    await asyncio.sleep(0.2)  # the followers read the last one
                    started = time.thread_time()
                    frame = server_frame(data) if way == "frame built once" else None
                    for connection in followers:
                        connection.send_latest(("arena_standings", "ABCDEF"), data, frame)
                    spent[way].append(time.thread_time() - started)
                for way in pushed if round_ % 2 else reversed(pushed):
                    await asyncio.sleep(0.2)
                    pushed[way].append(arena.push(top=way == "push, top changed"))
            spent |= pushed
            for way, cpu in spent.items():
                median = statistics.median(cpu)
                print(
                    f"{way:<22} {len(data)} B to {args.followers} followers: CPU per push "
                    f"median {1000 * median:.2f} ms, {1e6 * median / args.followers:.1f} µs per "
                    f"follower ({args.rounds} pushes)"
                )
            print(f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
        finally:
            readers.kill()
            await readers.wait()


class Arena:
    """A table of one line per follower (all at 0 points, the top the first 10 by name),
    every follower following it, and its pushes as the server makes them."""

    def __init__(self, followers: list[Connection]) -> None:
        self.table = Standings()
        for n in range(len(followers)):
            self.table.set(Line(n, f"player {n:04d} long name", 0, 0, 0, False))
        self.players = {n: {c} for n, c in enumerate(followers)}
        self.following = set(self.players)
        self.places = Places()
        self.push(top=True)  # the first push: everything to everyone

    def push(self, *, top: bool) -> float:
        """One deal scored (its player's played + 1), in the top or below it, then the
        push's CPU: its plan, frames and writes."""
        player = 0 if top else len(self.players) - 1
        line = self.table.lines[player]
        self.table.set(Line(player, line.name, 0, line.played + 1, 0, False))
        started = time.thread_time()
        now = time.time_ns() // 10**6
        fan = FanOut("ABCDEF", self.table, now, self.places, self.following, self.players)
        fan.step(len(self.players))
        return time.thread_time() - started


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench arena_push", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--read", type=int, help=argparse.SUPPRESS)  # the followers' process
    args = parser.parse_args(argv)
    if args.read:
        asyncio.run(read_all(args.read, args.followers))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main(sys.argv[1:])
