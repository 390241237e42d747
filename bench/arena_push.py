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
below it (a place to its player alone), and the first again with every write
through its transport instead of the chunk's writes in one go
(server/net/batch.py: the GIL released once per chunk where ``_sendeach.c`` was
built). It takes the event loop thread's CPU of each (``time.thread_time``,
which a loaded machine inflates far less than wall time) and, for the whole
pushes, their wall time. Nothing else runs in the server process (no moves)
unless ``--writer``: then a thread beside the loop does what the group-commit
writer does to it, Python work and SQLite statements that release the GIL
(rows of a few hundred bytes, 20 to a transaction, in a temporary database),
as fast as it can: the wall time of a push then shows how long the loop waits
to take the GIL back from it.

    python -m bench arena_push [--followers 2000] [--rounds 30] [--writer]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time

from websockets.asyncio.server import ServerConnection, serve

from server.arenas.pushes import FanOut, Places
from server.arenas.table import Line, Standings
from server.config import Config
from server.net.batch import SEND_EACH
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
            ways = ["push, top changed", "push, below the top", "push, top, one by one"]
            pushed: dict[str, list[float]] = {way: [] for way in ways}
            walls: dict[str, list[float]] = {way: [] for way in ways}
            arena = Arena(followers)
            stop = threading.Event()
            writer = threading.Thread(target=busy_writer, args=(stop,), daemon=True)
            if args.writer:
                writer.start()
            for round_ in range(args.rounds):
                for way in spent if round_ % 2 else reversed(spent):
                    await asyncio.sleep(0.2)  # the followers read the last one
                    started = time.thread_time()
                    frame = server_frame(data) if way == "frame built once" else None
                    for connection in followers:
                        connection.send_latest(("arena_standings", "ABCDEF"), data, frame)
                    spent[way].append(time.thread_time() - started)
                for way in ways if round_ % 2 else reversed(ways):
                    await asyncio.sleep(0.2)
                    below, one_by_one = way == "push, below the top", "one by one" in way
                    took = arena.push(top=not below, one_by_one=one_by_one)
                    pushed[way].append(took[0])
                    walls[way].append(took[1])
            stop.set()
            spent |= pushed
            for way, cpu in spent.items():
                median = statistics.median(cpu)
                walled = (
                    f", wall median {1000 * statistics.median(walls[way]):.2f} ms "
                    f"max {1000 * max(walls[way]):.2f} ms"
                    if way in walls
                    else ""
                )
                print(
                    f"{way:<22} {len(data)} B to {args.followers} followers: CPU per push "
                    f"median {1000 * median:.2f} ms, {1e6 * median / args.followers:.1f} µs per "
                    f"follower{walled} ({args.rounds} pushes)"
                )
            print(
                f"chunk's writes in one go: {'C (_sendeach)' if SEND_EACH else 'not built'}; "
                f"a writer thread beside the loop: {'yes' if args.writer else 'no'}"
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

    def push(self, *, top: bool, one_by_one: bool = False) -> tuple[float, float]:
        """One deal scored (its player's played + 1), in the top or below it, then the
        push's CPU and wall time: its plan, frames and writes (``one_by_one``: each
        through its transport, not the chunk's in one go)."""
        player = 0 if top else len(self.players) - 1
        line = self.table.lines[player]
        self.table.set(Line(player, line.name, 0, line.played + 1, 0, False))
        started, began = time.thread_time(), time.perf_counter()
        now = time.time_ns() // 10**6
        fan = FanOut(
            "ABCDEF",
            self.table,
            now,
            self.places,
            self.following,
            self.players,
            None if one_by_one else SEND_EACH,
        )
        fan.step(len(self.players))
        return time.thread_time() - started, time.perf_counter() - began


def busy_writer(stop: threading.Event) -> None:
    """What the group-commit writer's thread does to the event loop's: Python work and
    SQLite statements (each releases the GIL and takes it back), until ``stop``."""
    with tempfile.TemporaryDirectory() as folder:
        db = sqlite3.connect(os.path.join(folder, "w.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE moves (game INTEGER, ply INTEGER, action TEXT, state TEXT)")
        n = 0
        while not stop.is_set():
            rows = []
            for _ in range(20):
                n += 1
                state = {"ply": n, "piles": [[c, c + 1, c + 2] for c in range(13)], "at": n}
                rows.append((n % 500, n, f"t{n % 7}>f{n % 4}", repr(state)))
            db.execute("BEGIN")
            for row in rows:
                db.execute("INSERT INTO moves VALUES (?, ?, ?, ?)", row)
            db.execute("COMMIT")
        db.close()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench arena_push", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument(
        "--writer", action="store_true", help="a thread beside the loop doing a writer's work"
    )
    parser.add_argument("--read", type=int, help=argparse.SUPPRESS)  # the followers' process
    args = parser.parse_args(argv)
    if args.read:
        asyncio.run(read_all(args.read, args.followers))
    else:
        asyncio.run(run(args))


if __name__ == "__main__":
    main(sys.argv[1:])
