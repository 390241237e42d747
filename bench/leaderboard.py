"""The daily leaderboard query with 100,000 entries for the day (target: under 5 ms).

    .venv/bin/python -m bench.leaderboard [--entries 100000] [--queries 300] [--limit 50]

Builds a real SQLite file (migrated like the server's, WAL, synchronous=FULL)
with one day of ``entries`` ended attempts, plus the day before as noise,
then times what a ``leaderboard`` request runs (DailyService.leaderboard):
the top ``limit`` entries (an index range scan) and the asking player's entry
(a primary key read), in one call of the reader thread, and the true rank (a
bisection of the day's sorted rank keys, read from the index once). For
comparison it also times the rank found by counting over the index, which
reads every entry ahead of the player, and the bare SQL on sqlite3. Players
asking are drawn at random, so ranks near the bottom are measured too.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import insert, text

from server.app import App
from server.config import Config
from server.races.standings import rank_key
from server.storage.engine import create_engine, sessionmaker
from server.storage.migrate import upgrade
from server.storage.models import DailyAttempt, Player
from server.storage.queries import daily as store

VARIANT = "gypsy"
DAY, NOISE_DAY = "2026-11-29", "2026-11-28"


def attempts(rng: random.Random, players: int, date: str) -> list[dict[str, object]]:
    rows = []
    for pid in range(1, players + 1):
        if rng.random() < 0.6:
            state, score = "won", 104
            elapsed, moves = rng.randint(60_000, 3_600_000), rng.randint(150, 600)
        else:
            state, score = rng.choice(("resigned", "timeout", "stuck")), rng.randint(0, 103)
            elapsed, moves = rng.randint(10_000, 3_600_000), rng.randint(1, 600)
        group, a, b = rank_key(state, elapsed, moves, score)
        rows.append(
            {
                "variant": VARIANT,
                "date": date,
                "player_id": pid,
                "game_id": f"g{date}{pid}",
                "finished": True,
                "state": state,
                "elapsed_ms": elapsed,
                "moves": moves,
                "score": score,
                "rank_group": group,
                "rank_a": a,
                "rank_b": b,
            }
        )
    return rows


async def run(entries: int, queries: int, limit: int, path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{path}")
    sessions = sessionmaker(engine)
    await upgrade(engine)
    rng = random.Random(5)
    started = time.perf_counter()
    async with sessions() as db, db.begin():
        await db.execute(
            insert(Player),
            [
                {
                    "id": i,
                    "name": f"p{i}",
                    "name_key": f"p{i}",
                    "token_hash": f"{i:064x}",
                    "banned": False,
                    "created_ms": 0,
                }
                for i in range(1, entries + 1)
            ],
        )
        for date in (NOISE_DAY, DAY):
            await db.execute(insert(DailyAttempt), attempts(rng, entries, date))
    async with engine.connect() as conn:
        await conn.execute(text("ANALYZE"))
    print(f"{entries} entries for {DAY} (and {NOISE_DAY}) in {time.perf_counter() - started:.1f} s")

    async with engine.connect() as conn:
        plan = await conn.execute(
            text(
                "EXPLAIN QUERY PLAN SELECT count(*) FROM daily_attempts WHERE variant = :v "
                "AND date = :d AND finished = 1 AND rank_group = 1 AND rank_a < :a"
            ),
            {"v": VARIANT, "d": DAY, "a": -50},
        )
        print("plan of a rank count:", "; ".join(str(row[-1]) for row in plan))

    # What the server runs for a ``leaderboard`` request, with its clock on that day.
    day_ms = int(datetime.datetime.fromisoformat(DAY).replace(tzinfo=datetime.UTC).timestamp())
    app = App(Config(db=f"sqlite+aiosqlite:///{path}"), clock=lambda: day_ms * 1000 + 3_600_000)
    service = app.daily
    t0 = time.perf_counter()
    await service.leaderboard(1, VARIANT, DAY, limit)
    print(
        f"first request of the day (reads the day's {entries} rank keys once): "
        f"{(time.perf_counter() - t0) * 1000:.1f} ms"
    )

    served: list[float] = []
    cpu: list[float] = []
    counted: list[float] = []
    ranks: list[int] = []
    for _ in range(queries):
        player = rng.randint(1, entries)
        t0, c0 = time.perf_counter(), time.process_time()
        _, top, me = await service.leaderboard(player, VARIANT, DAY, limit)
        served.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        assert len(top) == limit and me is not None and me.rank is not None
        ranks.append(me.rank)
        # The same rank by counting over the index, for comparison (and as a check).
        t0 = time.perf_counter()
        async with sessions() as db:
            mine = await store.entry_of(db, variant=VARIANT, date=DAY, player_id=player)
            assert mine is not None
            better = await store.better_than(db, variant=VARIANT, date=DAY, key=mine[1])
        counted.append((time.perf_counter() - t0) * 1000)
        assert better + 1 == me.rank
    service.reader.close()
    await app.engine.dispose()
    await engine.dispose()
    print(
        f"{queries} leaderboard requests (top {limit} + me with its true rank), players at "
        f"ranks {min(ranks)} .. {max(ranks)}:"
    )
    print(f"  served (reader thread + bisection), wall time: {summary(served)}")
    print(f"  the same, CPU time of the process (all threads): {summary(cpu)}")
    print(f"  the SQL alone (sqlite3, no async stack): {summary(raw_sql(path, limit, queries))}")
    print(f"  the rank alone by counting over the index instead: {summary(counted)}")


def raw_sql(path: Path, limit: int, queries: int) -> list[float]:
    """The two statements of a request on a plain sqlite3 connection: the database's share."""
    con = sqlite3.connect(path)
    rng = random.Random(7)
    top = (
        "SELECT a.player_id, p.name, a.state, a.elapsed_ms, a.moves, a.score "
        "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
        "WHERE a.variant = ? AND a.date = ? AND a.finished = 1 "
        "ORDER BY a.rank_group, a.rank_a, a.rank_b LIMIT ?"
    )
    mine = (
        "SELECT a.player_id, p.name, a.state, a.elapsed_ms, a.moves, a.score, "
        "a.rank_group, a.rank_a, a.rank_b FROM daily_attempts a JOIN players p "
        "ON p.id = a.player_id WHERE a.variant = ? AND a.date = ? AND a.player_id = ? "
        "AND a.finished = 1"
    )
    times = []
    count = con.execute("SELECT count(*) FROM players").fetchone()[0]
    for _ in range(queries):
        t0 = time.perf_counter()
        con.execute(top, (VARIANT, DAY, limit)).fetchall()
        con.execute(mine, (VARIANT, DAY, rng.randint(1, count))).fetchall()
        times.append((time.perf_counter() - t0) * 1000)
    con.close()
    return times


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[max(0, int(len(times) * 0.95) - 1)]
    return f"median {statistics.median(times):.2f} ms, p95 {p95:.2f} ms, max {times[-1]:.2f} ms"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/leaderboard.py", description=__doc__)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--limit", type=int, default=50)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(args.entries, args.queries, args.limit, Path(tmp) / "board.db"))


if __name__ == "__main__":
    main()
