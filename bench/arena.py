"""An arena of many simulated players on one node, beside the same players in solo games.

One real server process (SQLite in a temporary directory, its pool of won
Osmosis deals filled before it starts), ``--players`` WebSocket clients in
this process, each moving at a person's pace (``--rate`` moves per second,
a random legal move of its last view; a deal with no legal move, or after
``--moves-per-deal`` moves, is resigned). Two phases, alternated
``--rounds`` times in one sitting:

- solo: every player plays keyed Osmosis games of their own (``start_game``);
- arena: every player joined one arena and plays its deals (``arena_play``),
  following its standings (at most one push per ``arena_push_ms``, 1000 by
  default: ``arena_standings`` when its top or count changed, ``arena_place``
  to each player whose own entry changed);
- quiet: the same arena, every player having left it (``arena_leave``): the
  same deals and scoring, no standings pushed; what a move costs in an arena
  apart from the pushes.

After each phase, outside its count, each player's game still going is
resigned (:func:`end_games`: a game left would cost a stored write in a later
phase).

A receipt is the time a message arrived at the client's socket, as the
kernel stamped it (bench/arena_client.py says why: the 2,000 clients share
one process, whose own queue is not the server's delivery); the time this
process read it is reported beside it.

Figures, per phase: moves per second and their round trips (p50/p99, from
the send to the reply's receipt; its read's p99 in brackets); the
server's CPU per move (its process and worker processes, from /proc), the
same as bench/load.py counts it; and for the arena, the standings pushes:
the *delivery* of each (from the server's push of a changed table, the
``at_ms`` it carries, to each follower's receipt of it, on the same
machine's clock), each push's *fan-out* (from the first follower's receipt
of a version of the standings to each other follower's receipt of it: how
long one push takes to reach everyone), the *server's flush* (from the
start of one push to its last write, from /metrics, and its CPU), and the
*age* of a score when its player sees it (from the receipt of the scoring
player's acknowledgement to their receipt of the ``arena_place`` that holds
it; it includes the up to ``arena_push_ms`` of coalescing that keeps
pushes to a few per second, by design).

    python -m bench arena                                  # 2000 players x 0.4 moves/s, 20 s
    python -m bench arena --players 500 --duration 10 --rounds 1
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import os
import random
import re
import statistics
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import msgpack

from bench.arena_client import LeanConnection
from bench.load import Target, start_server


def won_osmosis_keys(count: int) -> list[tuple[bytes, int]]:
    """Osmosis keys the solver wins, with the moves of its line (milliseconds each)."""
    from shared.games import new_game
    from shared.solver import Budget, solve_position
    from shared.variants.osmosis import OsmosisRules

    found: list[tuple[bytes, int]] = []
    rng = random.Random(2026)
    while len(found) < count:
        key = rng.randbytes(32)
        result = solve_position(
            new_game("osmosis", key=key), Budget(positions=OsmosisRules.daily_positions)
        )
        if result.won:
            found.append((key, len(result.line)))
    return found


async def fill_pool(url: str, count: int) -> None:
    """Put won deals in the pool of medium Osmosis deals (the schema made by a first start)."""
    import json

    from sqlalchemy import text

    from server.storage.engine import create_engine
    from server.storage.migrate import upgrade
    from shared.variants.osmosis import OsmosisRules

    engine = create_engine(url)
    try:
        await upgrade(engine)
        options = json.dumps(
            dict(OsmosisRules.option_defaults), sort_keys=True, separators=(",", ":")
        )
        async with engine.begin() as db:
            for key, line in won_osmosis_keys(count):
                await db.execute(
                    text(
                        "INSERT INTO pooled_deals (variant, options, difficulty, deal_key, "
                        "positions, line, created_ms) VALUES ('osmosis', :o, 'medium', :k, 1, "
                        ":l, 0)"
                    ),
                    {"o": options, "k": key.hex(), "l": line},
                )
    finally:
        await engine.dispose()


@dataclass
class Pushes:
    """Standings pushes as the followers received them: (version -> first receipt) and every
    receipt's delay after the first; and each score's age when seen."""

    first: dict[int, float] = field(default_factory=dict)
    received: list[tuple[int, float]] = field(default_factory=list)
    #: each receipt's delay after the server pushed that version (its ``at_ms``, the same
    #: machine's clock): the change as pushed to its arrival at the follower's socket
    delivered: list[float] = field(default_factory=list)
    #: the same to the moment this process read it (its own queue of 2,000 players included)
    delivered_read: list[float] = field(default_factory=list)
    #: ``arena_place`` pushes received (a player's own place, when it changed)
    places: int = 0
    #: each player's receipts of ``arena_place``, in order
    place_at: dict[int, list[float]] = field(default_factory=dict)
    #: (time acknowledged, the player) of each deal that ended, to match with the pushes
    scored: list[tuple[float, int]] = field(default_factory=list)


@dataclass
class Stats:
    #: a move's send to its reply's arrival at the socket, and to this process's read of it
    rtts: list[float] = field(default_factory=list)
    rtts_read: list[float] = field(default_factory=list)
    errors: int = 0
    failed: int = 0


class Player:
    """One simulated player: its connection's reads route replies by ``re`` and note pushes,
    each with the time it arrived at the socket (see bench/arena_client.py) and was read."""

    def __init__(self, port: int, number: int, pushes: Pushes, moves_per_deal: int) -> None:
        self.port = port
        self.number = number
        self.rng = random.Random(number)
        self.pushes = pushes
        self.moves_per_deal = moves_per_deal
        self.ws: LeanConnection | None = None
        self.ids = 0
        self.waiting: dict[int, asyncio.Future[tuple[dict[str, Any], float, float]]] = {}
        self.game: dict[str, Any] = {}
        self.player_id = 0
        self.moves_here = 0

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        return (await self.timed(message))[0]

    async def timed(self, message: dict[str, Any]) -> tuple[dict[str, Any], float, float]:
        """The reply, when it arrived at the socket and when it was read (``time.time()``)."""
        assert self.ws is not None
        self.ids += 1
        message["id"] = self.ids
        future: asyncio.Future[tuple[dict[str, Any], float, float]]
        future = asyncio.get_running_loop().create_future()
        self.waiting[self.ids] = future
        self.ws.send(msgpack.packb(message))
        return await future

    def _message(self, data: bytes, arrived: float, read: float) -> None:
        m = msgpack.unpackb(data)
        re_ = m.get("re")
        if re_ is not None:
            future = self.waiting.pop(re_, None)
            if future is not None and not future.done():
                future.set_result((m, arrived, read))
        elif m.get("type") == "arena_standings":
            version = m["version"]
            first = self.pushes.first.setdefault(version, arrived)
            self.pushes.received.append((version, arrived - first))
            if "at_ms" in m:  # (a server before the pushes were shared has none)
                self.pushes.delivered.append(arrived - m["at_ms"] / 1000)
                self.pushes.delivered_read.append(read - m["at_ms"] / 1000)
        elif m.get("type") == "arena_place":
            self.pushes.places += 1
            self.pushes.place_at.setdefault(self.player_id, []).append(arrived)

    async def open(self, run: str) -> None:
        self.ws = await asyncio.wait_for(LeanConnection.open(self.port, self._message), 120)
        reply = await self.request(
            {"type": "hello", "protocol": 2, "client": "bench/1", "name": f"{run}{self.number}"}
        )
        if reply.get("type") != "welcome":
            raise RuntimeError(f"hello refused: {reply}")
        self.player_id = reply["player"]["id"]

    async def next_game(self, arena: str | None) -> None:
        # deals of different lengths, so that results come all the time, not in waves
        self.moves_here = self.rng.randint(0, self.moves_per_deal - 1)
        if arena is None:
            reply = await self.request({"type": "start_game", "variant": "osmosis"})
        else:
            reply = await self.request({"type": "arena_play", "code": arena})
        if "game" not in reply:
            raise RuntimeError(f"no game: {reply}")
        self.game = reply["game"]

    async def move(self, stats: Stats, arena: str | None) -> None:
        game = self.game
        if game.get("state") != "playing":
            await self.next_game(arena)
            return
        if not game.get("legal") or self.moves_here >= self.moves_per_deal:
            resign = {"type": "resign", "game": game["id"], "ply": game["ply"]}
            reply, acked, _ = await self.timed(resign)
            if arena is not None:
                self.pushes.scored.append((acked, self.player_id))
            self.game = reply.get("game", {})
            return
        started = time.time()
        reply, arrived, read = await self.timed(
            {"type": "move", "game": game["id"], "ply": game["ply"],
             "move": self.rng.choice(game["legal"])}
        )  # fmt: skip
        stats.rtts.append(arrived - started)
        stats.rtts_read.append(read - started)
        self.moves_here += 1
        if reply["type"] == "game":
            self.game = reply["game"]
        else:
            stats.errors += 1
            self.game = reply.get("game", self.game)

    async def end_game(self) -> None:
        """Resign the game still going, if any (between phases: see :func:`end_games`)."""
        game = self.game
        if game.get("state") == "playing":
            reply = await self.request({"type": "resign", "game": game["id"], "ply": game["ply"]})
            self.game = reply.get("game", {})

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def drive(players: list[Player], rate: float, duration: float, arena: str | None) -> Stats:
    stats = Stats()
    deadline = time.perf_counter() + duration
    interval = 1 / rate

    async def loop(player: Player) -> None:
        await asyncio.sleep(player.rng.random() * interval)
        next_at = time.perf_counter()
        try:
            while time.perf_counter() < deadline:
                await player.move(stats, arena)
                next_at += interval
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
        except Exception:
            stats.failed += 1

    await asyncio.gather(*(loop(p) for p in players))
    return stats


async def end_games(players: list[Player]) -> None:
    """After a phase, outside its count, each player's game still going is resigned: a solo
    game left would stop its clock ``idle_pause_s`` (30 s) later, one stored write each, and
    an arena deal left would run out of its time, both in a later phase's count (2,000
    writes the first arena phase used to carry, which are not a move's)."""
    for first in range(0, len(players), 100):
        await asyncio.gather(*(p.end_game() for p in players[first : first + 100]))


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else 0.0
        return v, v, v
    q = statistics.quantiles(sorted(values), n=100, method="inclusive")
    return q[49] * 1000, q[98] * 1000, max(values) * 1000


def scraped(target: Target, metrics_port: int) -> dict[str, float]:
    """The arena's counters from /metrics."""
    del target
    body = urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10).read()
    found: dict[str, float] = {}
    for line in body.decode().splitlines():
        match = re.match(r"(patience_arena_[a-z_]+) ([0-9.e+-]+)$", line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


async def phase(
    target: Target, players: list[Player], args: argparse.Namespace, arena: str | None
) -> dict[str, float]:
    for p in players:
        await p.next_game(arena)
    before = target.cpu_seconds()
    started = time.perf_counter()
    stats = await drive(players, args.rate, args.duration, arena)
    elapsed = time.perf_counter() - started
    after = target.cpu_seconds()
    await end_games(players)
    cpu = (after[0] - before[0]) + (after[2] - before[2])
    moves = max(1, len(stats.rtts))
    p50, p99, _ = quantiles(stats.rtts)
    _, read_p99, _ = quantiles(stats.rtts_read)
    return {
        "rtt_read_p99_ms": read_p99,
        "moves_per_s": len(stats.rtts) / elapsed,
        "rtt_p50_ms": p50,
        "rtt_p99_ms": p99,
        "cpu_percent": 100 * cpu / elapsed,
        "cpu_ms_per_move": 1000 * cpu / moves,
        "moves": len(stats.rtts),
        "errors": stats.errors,
        "failed": stats.failed,
    }


async def run(args: argparse.Namespace) -> None:
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/load.db"
        await fill_pool(url, args.deals)
        os.environ["PATIENCE_ARENA_PUSH_MS"] = str(args.push_ms)
        os.environ["PATIENCE_ARENA_PUSH_CHUNK"] = str(args.push_chunk)
        os.environ["PATIENCE_REVIEW_MIN_ACTIONS"] = "1000000"
        target = await start_server(tmp)
        metrics_port = await _metrics_port(target)
        pushes = Pushes()
        players = [Player(target.port, n, pushes, args.moves_per_deal) for n in range(args.players)]
        try:
            opened = time.perf_counter()
            for first in range(0, len(players), 50):
                await asyncio.gather(*(p.open("ar") for p in players[first : first + 50]))
            print(f"{len(players)} players connected in {time.perf_counter() - opened:.1f} s")
            made = await players[0].request(
                {"type": "arena_create", "variant": "osmosis", "minutes": 360, "name": "bench"}
            )
            code = made["arena"]["code"]
            for first in range(1, len(players), 100):
                await asyncio.gather(
                    *(
                        p.request({"type": "arena_join", "code": code})
                        for p in players[first : first + 100]
                    )
                )
            print(f"all joined arena {code}; load average {os.getloadavg()[0]:.1f}")
            cpu_per_move: dict[str, float] = {}
            for round_ in range(args.rounds):
                for name, arena in (("solo", None), ("arena", code), ("quiet", code)):
                    if name == "quiet":  # the same arena, nobody following: no pushes
                        for p in players:
                            await p.request({"type": "arena_leave", "code": code})
                    elif name == "arena":
                        for p in players:
                            await p.request({"type": "arena_join", "code": code})
                    pushes.first.clear()
                    pushes.received.clear()
                    pushes.scored.clear()
                    pushes.delivered.clear()
                    pushes.delivered_read.clear()
                    pushes.places = 0
                    pushes.place_at.clear()
                    counters = scraped(target, metrics_port)
                    load = os.getloadavg()[0]
                    r = await phase(target, players, args, arena)
                    cpu_per_move[name] = r["cpu_ms_per_move"]
                    line = (
                        f"round {round_ + 1} {name:<5}  load {load:4.1f}  "
                        f"{r['moves_per_s']:6.0f} moves/s  rtt p50 {r['rtt_p50_ms']:6.2f} ms "
                        f"p99 {r['rtt_p99_ms']:7.2f} ms (read {r['rtt_read_p99_ms']:.0f} ms)  "
                        f"CPU {r['cpu_percent']:4.0f}% "
                        f"{r['cpu_ms_per_move']:.3f} ms/move  errors {r['errors']:.0f} "
                        f"failed {r['failed']:.0f}"
                    )
                    print(line, flush=True)
                    if name == "arena":
                        after = scraped(target, metrics_port)
                        report_pushes(pushes, counters, after)
                        moves = r["moves"]
                        spent = after.get(PUSH_CPU, 0) - counters.get(PUSH_CPU, 0)
                        print(
                            f"  the pushes' CPU per move: {1000 * spent / max(moves, 1):.3f} ms "
                            f"(the solo phase's CPU per move: {cpu_per_move['solo']:.3f} ms)"
                        )
        finally:
            await asyncio.gather(*(p.close() for p in players), return_exceptions=True)
            await target.stop()
    print(f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")


FLUSH_MAX = "patience_arena_standings_flush_max_seconds"
PUSH_CPU = "patience_arena_standings_flush_cpu_seconds_total"


def report_pushes(pushes: Pushes, before: dict[str, float], after: dict[str, float]) -> None:
    delays = [d for _, d in pushes.received]
    p50, p99, worst = quantiles(delays)
    flushes = after.get("patience_arena_standings_flushes_total", 0) - before.get(
        "patience_arena_standings_flushes_total", 0
    )
    spent = after.get("patience_arena_standings_flush_seconds_total", 0) - before.get(
        "patience_arena_standings_flush_seconds_total", 0
    )
    cpu = after.get("patience_arena_standings_flush_cpu_seconds_total", 0) - before.get(
        "patience_arena_standings_flush_cpu_seconds_total", 0
    )
    sent = after.get("patience_arena_standings_pushes_total", 0) - before.get(
        "patience_arena_standings_pushes_total", 0
    )
    print(
        f"  standings: {flushes:.0f} pushes, {len(pushes.first)} versions of the standings "
        f"in them, {len(delays)} received ({sent:.0f} frames sent, places included); "
        f"fan-out p50 {p50:.1f} ms p99 {p99:.1f} ms max {worst:.1f} ms; "
        f"server flush {1000 * spent / max(flushes, 1):.1f} ms mean, "
        f"{1000 * cpu / max(flushes, 1):.1f} ms of CPU "
        f"(max since start {1000 * after.get(FLUSH_MAX, 0):.1f} ms)"
    )
    if pushes.delivered:
        d50, d99, dmax = quantiles(pushes.delivered)
        r50, r99, _ = quantiles(pushes.delivered_read)
        print(
            f"  from the server's push of a change to its arrival at each follower's socket: "
            f"p50 {d50:.1f} ms p99 {d99:.1f} ms max {dmax:.1f} ms "
            f"({len(pushes.delivered)} receipts); arena_place received: {pushes.places}\n"
            f"  the same to this process's read of it (its own queue included): "
            f"p50 {r50:.1f} ms p99 {r99:.1f} ms"
        )
    # a score's age when its player sees it: their first place received after its ack (the
    # standings show it only if it reaches the top)
    ages = []
    for acked, player in pushes.scored:
        times = pushes.place_at.get(player, [])
        i = bisect.bisect_left(times, acked)
        if i < len(times):
            ages.append(times[i] - acked)
    a50, a99, _ = quantiles(ages)
    print(
        f"  a score's age when its player sees it (with the coalescing): p50 {a50:.0f} ms "
        f"p99 {a99:.0f} ms ({len(ages)} of {len(pushes.scored)} scores)"
    )


async def _metrics_port(target: Target) -> int:
    """The server printed its metrics address after its WebSocket one."""
    assert target.process.stdout is not None
    for _ in range(5):
        line = await asyncio.wait_for(target.process.stdout.readline(), 30)
        match = re.search(rb"metrics at http://[0-9.]+:(\d+)/metrics", line)
        if match:
            return int(match.group(1))
    raise RuntimeError("the server did not say where /metrics is")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench arena", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=0.4, help="moves per second per player")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--rounds", type=int, default=2, help="solo then arena, this many times")
    parser.add_argument("--moves-per-deal", type=int, default=40)
    parser.add_argument("--push-ms", type=int, default=1000)
    parser.add_argument("--push-chunk", type=int, default=500, help="followers per loop turn")
    parser.add_argument("--deals", type=int, default=60, help="won deals put in the pool")
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
