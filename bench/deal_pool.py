"""``python -m bench deal_pool``: the answer time of ``start_game`` with ``winnable`` from the pool.

Fills the pools of one variant (Freecell by default: its deals solve in tens
of milliseconds) with ``--deals`` won deals per difficulty, solved by the
pool's own worker function in ``--workers`` processes, into a fresh SQLite
database (``--db postgresql``: a fresh PostgreSQL one, bench/databases.py); then
starts a server on it with no pool workers (so no request solves, and none competes for the
CPU), opens ``--clients`` connections and sends winnable ``start_game``
requests at ``--rate`` a second in all, difficulties in turn, for
``--seconds``. Prints the answer time's percentiles and how many requests
fell back to solving (0 when the pools held enough). ``--plain``: the same
requests without ``winnable``, the baseline of a secret deal drawn at once.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from bench import databases
from server.app import App
from server.config import Config
from server.deals.difficulty import find
from server.deals.pool import options_text
from server.storage.models import PooledDeal
from shared.protocol.games import DIFFICULTIES
from shared.variants import STANDARD


async def fill(app: App, variant: str, per_difficulty: int, workers: int) -> None:
    rules = STANDARD.get(variant)
    text = options_text(STANDARD.rules(variant, {}).options)
    counts = dict.fromkeys(DIFFICULTIES, 0)
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(workers) as pool:
        while min(counts.values()) < per_difficulty:
            batch = [
                loop.run_in_executor(pool, find, rules, json.loads(text), 8, 10.0)
                for _ in range(workers)
            ]
            for found in [f for done in await asyncio.gather(*batch) for f in done]:
                if counts[found.difficulty] >= per_difficulty:
                    continue
                counts[found.difficulty] += 1
                async with app.db_sessions() as db, db.begin():
                    db.add(
                        PooledDeal(
                            variant=variant,
                            options=text,
                            difficulty=found.difficulty,
                            deal_key=found.key.hex(),
                            positions=found.positions,
                            line=found.line,
                            created_ms=0,
                        )
                    )


async def client(url: str, name: str) -> ClientConnection:
    ws = await connect(url, max_size=None)
    await ws.send(
        msgpack.packb({"type": "hello", "id": 0, "protocol": 2, "client": "bench/1", "name": name})
    )
    await ws.recv()
    return ws


async def run(args: argparse.Namespace) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        databases.temporary(args.db, tmp, "deal_pool") as db,
    ):
        config = Config(
            port=0,
            db=db,
            deal_pool_workers=0,
            stuck_workers=0,
            daily_ahead=False,
            metrics_host="",
            rate_limit=1000.0,
            log_level="WARNING",
        )
        app = App(config)
        await app.start()
        try:
            started = time.perf_counter()
            if not args.plain:
                await fill(app, args.variant, args.deals, args.workers)
            print(
                f"filled {args.deals} {args.variant} deals per difficulty in "
                f"{time.perf_counter() - started:.1f} s ({args.workers} processes)",
                flush=True,
            )
            url = f"ws://127.0.0.1:{app.port}/ws"
            conns = [await client(url, f"pool{n}") for n in range(args.clients)]
            times: list[float] = []
            errors = 0
            ids = itertools.count(1)
            difficulties = itertools.cycle(DIFFICULTIES)

            async def one(ws: ClientConnection) -> None:
                nonlocal errors
                rid = next(ids)
                request = {
                    "type": "start_game",
                    "id": rid,
                    "variant": args.variant,
                    "options": {},
                    "winnable": True,
                    "difficulty": next(difficulties),
                }
                if args.plain:  # the same request for any secret deal: the baseline
                    del request["winnable"], request["difficulty"]
                sent = time.perf_counter()
                await ws.send(msgpack.packb(request))
                reply = msgpack.unpackb(await ws.recv())
                times.append(time.perf_counter() - sent)
                errors += reply.get("type") != "game"

            tasks = []
            total = int(args.rate * args.seconds)
            begin = time.perf_counter()
            for n in range(total):
                await asyncio.sleep(max(0.0, begin + n / args.rate - time.perf_counter()))
                ws = conns[n % len(conns)]
                tasks.append(asyncio.create_task(one(ws)))
                if len(tasks) >= len(conns):  # one request in flight per connection
                    await tasks.pop(0)
            await asyncio.gather(*tasks)
            for ws in conns:
                await ws.close()
            ms = sorted(t * 1000 for t in times)
            q = statistics.quantiles(ms, n=100)
            kind = "plain" if args.plain else "winnable"
            print(
                f"{len(ms)} {kind} start_game at {args.rate}/s over {args.clients} connections: "
                f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms; "
                f"errors {errors}; solved on request {app.deal_pool.solved_on_request}",
                flush=True,
            )
        finally:
            await app.stop()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench deal_pool")
    parser.add_argument("--variant", default="freecell")
    parser.add_argument("--deals", type=int, default=250, help="won deals per difficulty")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--rate", type=float, default=20.0, help="requests a second in all")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--plain", action="store_true", help="any secret deal (baseline)")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgresql or a URL")
    asyncio.run(run(parser.parse_args(argv)))
