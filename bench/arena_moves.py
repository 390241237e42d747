"""Instructions per move of the whole server, solo against arena, counted by callgrind.

The load of a shared machine moves every wall-clock figure and most CPU
times; callgrind's instruction counts it does not. Each phase starts
``patience-club serve`` under callgrind (SQLite in a temporary directory, its
pool of won Osmosis deals filled first, stuck searches in its own process),
connects ``--clients`` players over loopback who play as bench/arena.py's do
(a random legal move of the last view; each deal resigned after 0 to
``--moves-per-deal`` - 1 moves, so that deals end all the time), and after
``--warm`` moves each zeroes the counters (``callgrind_control -z``), lets each
play ``--moves`` more and dumps them (``-d``). Phases:

- solo: each player's own keyed Osmosis games (``start_game``, ``resign``);
- arena: the same players in one arena (``arena_play``), nobody following
  its standings (each left it after joining): what an arena adds to a move;
- following: the same, every player following the standings, and
  ``--followers`` more players following who do not play. A push's cost
  depends on its followers, a move's share of it on how many moves a push
  covers, and callgrind's slowness makes that count meaningless: so a push's
  instructions are worked out (this phase's less the arena's, over the pushes
  a follower received meanwhile; callgrind cannot name Python functions) and
  put back at the pace of bench/arena.py (``--players`` x ``--rate`` moves a
  second, one push per ``--push-ms``).

Instructions are the server process's user space (its Python, SQLite and
websockets); the kernel's socket writes are not counted.

    python -m bench arena_moves                       # 10 clients x 60 moves, 2000 followers
    python -m bench arena_moves --phases solo,arena --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from bench.arena import fill_pool

PHASES = ("solo", "arena", "following")


class Player:
    def __init__(self, ws: ClientConnection, number: int, moves_per_deal: int) -> None:
        self.ws = ws
        self.rng = random.Random(number)
        self.moves_per_deal = moves_per_deal
        self.ids = 0
        self.game: dict[str, Any] = {}
        self.left = 0

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        self.ids += 1
        message["id"] = self.ids
        await self.ws.send(msgpack.packb(message))
        while True:
            reply: dict[str, Any] = msgpack.unpackb(await self.ws.recv())
            if reply.get("re") == self.ids:
                return reply

    async def next_game(self, arena: str | None) -> None:
        self.left = self.rng.randint(0, self.moves_per_deal - 1)
        if arena is None:
            reply = await self.request({"type": "start_game", "variant": "osmosis"})
        else:
            reply = await self.request({"type": "arena_play", "code": arena})
        self.game = reply["game"]

    async def play(self, moves: int, arena: str | None) -> None:
        """``moves`` moves, the deals' ends and new deals between them as they come."""
        done = 0
        while done < moves:
            game = self.game
            if game.get("state") != "playing":
                await self.next_game(arena)
            elif not game.get("legal") or self.left <= 0:
                resign = {"type": "resign", "game": game["id"], "ply": game["ply"]}
                reply = await self.request(resign)
                self.game = reply.get("game", {})
            else:
                move = self.rng.choice(game["legal"])
                reply = await self.request(
                    {"type": "move", "game": game["id"], "ply": game["ply"], "move": move}
                )
                self.game = reply.get("game", game)
                self.left -= 1
                done += 1


async def _welcomed(port: int, name: str) -> ClientConnection:
    ws = await connect(f"ws://127.0.0.1:{port}/ws", compression=None, max_size=None,
                       open_timeout=600, close_timeout=1)  # fmt: skip
    await ws.send(msgpack.packb({"type": "hello", "id": 0, "protocol": 2, "client": "bench/1",
                                 "name": name}))  # fmt: skip
    while msgpack.unpackb(await ws.recv()).get("type") != "welcome":
        pass
    return ws


class Follower:
    """Followers who do not play: they read their pushes; the standings they got are counted."""

    def __init__(self) -> None:
        self.standings = 0
        self.tasks: list[asyncio.Task[None]] = []

    def add(self, ws: ClientConnection, counted: bool) -> None:
        self.tasks.append(asyncio.create_task(self._read(ws, counted)))

    async def _read(self, ws: ClientConnection, counted: bool) -> None:
        async for data in ws:
            if counted and msgpack.unpackb(data).get("type") == "arena_standings":
                self.standings += 1


async def _run(port: int, pid: int, args: argparse.Namespace, phase: str) -> int:
    """Play the phase; the standings pushes a follower received while counted."""
    players = [
        Player(await _welcomed(port, f"am{n}"), n, args.moves_per_deal) for n in range(args.clients)
    ]
    code = None
    followers = Follower()
    if phase != "solo":
        made = await players[0].request(
            {"type": "arena_create", "variant": "osmosis", "minutes": 360, "name": "bench"}
        )
        code = made["arena"]["code"]
        for player in players[1:]:
            await player.request({"type": "arena_join", "code": code})
        if phase == "arena":
            for player in players:
                await player.request({"type": "arena_leave", "code": code})
        else:
            for n in range(args.followers):
                ws = await _welcomed(port, f"fo{n}")
                await ws.send(msgpack.packb({"type": "arena_join", "id": 1, "code": code}))
                followers.add(ws, counted=n == 0)
    for player in players:
        await player.next_game(code)
    await asyncio.gather(*(p.play(args.warm, code) for p in players))
    _control("-z", pid)
    before = followers.standings
    await asyncio.gather(*(p.play(args.moves, code) for p in players))
    _control("-d", pid)
    pushes = followers.standings - before
    await players[0].request({"type": "ping"})  # the dump is taken when the server next runs
    for task in followers.tasks:
        task.cancel()
    for player in players:
        await player.ws.close()
    return pushes


def _control(flag: str, pid: int) -> None:
    subprocess.run(["callgrind_control", flag, str(pid)], check=True, capture_output=True)


def count(phase: str, args: argparse.Namespace) -> tuple[int, int]:
    """(instructions, standings pushes) of one phase, in a server of its own."""
    script = os.path.join(os.path.dirname(sys.executable), "patience-club")
    with tempfile.TemporaryDirectory(prefix="arena-moves-") as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/arena.db"
        asyncio.run(fill_pool(url, args.deals))
        out = os.path.join(tmp, "callgrind.out")
        command = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            "--compress-strings=no", "--compress-pos=no",
            sys.executable, script, "serve", "--port", "0", "--db", url,
            "--stuck-workers", "0", "--log-level", "WARNING",
            "--rate-limit", "1000000", "--rate-burst", "1000000",
            "--max-connections", "20000", "--max-connections-per-ip", "20000",
            "--registration-limit", "0",
        ]  # fmt: skip
        env = os.environ | {
            "PYTHONHASHSEED": "0",
            "PATIENCE_DAILY_AHEAD": "0",
            "PATIENCE_DEAL_POOL_WORKERS": "0",
            "PATIENCE_METRICS_HOST": "",
            "PATIENCE_ARENA_PUSH_MS": str(args.push_ms),
            "PATIENCE_REVIEW_MIN_ACTIONS": "1000000",
        }
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                  env=env)  # fmt: skip
        try:
            assert server.stdout is not None
            found = re.search(r":(\d+)/ws", server.stdout.readline().decode())
            if found is None:
                raise RuntimeError("the server did not start")
            pushes = asyncio.run(_run(int(found.group(1)), server.pid, args, phase))
            dumps: list[str] = []
            for _ in range(600):
                dumps = [d for d in glob.glob(out + ".*") if os.path.getsize(d) > 0]
                if dumps:
                    break
                time.sleep(0.1)
            time.sleep(1)
            dump = max(dumps, key=os.path.getmtime)
            if args.keep:
                shutil.copy(dump, f"{args.keep}.{phase}")
            with open(dump) as f:
                total = re.search(r"^(?:summary|totals): (\d+)", f.read(), re.MULTILINE)
            if total is None:
                raise RuntimeError("no total in callgrind's dump")
        finally:
            server.terminate()
            server.wait(60)
    return int(total.group(1)), pushes


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench arena_moves",
                                     description=__doc__.split("\n")[0])  # fmt: skip
    parser.add_argument("--phases", default=",".join(PHASES))
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--warm", type=int, default=20, help="moves each before counting")
    parser.add_argument("--moves", type=int, default=60, help="moves each, counted")
    parser.add_argument("--moves-per-deal", type=int, default=40)
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--push-ms", type=int, default=500)
    parser.add_argument("--players", type=int, default=2000, help="players of that pace")
    parser.add_argument("--rate", type=float, default=0.4, help="moves a second per player")
    parser.add_argument("--deals", type=int, default=60, help="won deals put in the pool")
    parser.add_argument("--keep", help="keep each phase's dump as KEEP.PHASE")
    args = parser.parse_args(argv)
    moves = args.clients * args.moves
    print(f"load average {os.getloadavg()[0]:.1f}; {args.clients} clients x {args.moves} moves")
    per_move: dict[str, float] = {}
    for phase in args.phases.split(","):
        total, pushes = count(phase, args)
        per_move[phase] = total / moves
        line = f"{phase:<9} {total / moves:12,.0f} instructions per move"
        if phase == "following" and pushes and "arena" in per_move:
            per_push = (total - per_move["arena"] * moves) / pushes
            paced = per_push * (1000 / args.push_ms) / (args.players * args.rate)
            line += (
                f" ({pushes} pushes to {args.followers + args.clients} followers, "
                f"{per_push:,.0f} each; at {args.players} x {args.rate} moves/s, "
                f"one push per {args.push_ms} ms: {per_move['arena'] + paced:,.0f} per move)"
            )
        print(line, flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")
