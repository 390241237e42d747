"""The daily leaderboard query with 100,000 entries for the day (target: under 5 ms).

    .venv/bin/python -m bench.leaderboard [--entries 100000] [--queries 300] [--limit 50]
        [--db sqlite|postgresql|URL] [--boards [--revision 0016]]

With ``--boards``: the season boards and the rating board instead (docs/seasons.md), each
with ``entries`` players: a month's board of one variant and of every variant, and the
variant's rating board, each request with the asker's own place and true rank, as the
``season`` and ``ratings`` handlers answer them.

Builds a real database (migrated like the server's: an SQLite file in WAL
mode with synchronous=FULL, or a PostgreSQL database made for the run, see
bench/databases.py) with one day of ``entries`` ended attempts, plus the day
before as noise,
then times what a ``leaderboard`` request runs (DailyService.leaderboard):
the top ``limit`` entries (an index range scan) and the asking player's entry
(a primary key read), in one call of the reader thread, and the true rank (a
bisection of the day's sorted rank keys, read from the index once). For
comparison it also times the rank found by counting over the index, which
reads every entry ahead of the player, and the bare SQL on the database's
synchronous driver (sqlite3, psycopg). Players asking are drawn at random, so
ranks near the bottom are measured too.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import math
import random
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import insert, text
from sqlalchemy.engine import make_url

from bench import databases
from server.app import App
from server.config import Config
from server.races.standings import rank_key
from server.storage.engine import create_engine, sessionmaker
from server.storage.migrate import downgrade, upgrade
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


async def run(entries: int, queries: int, limit: int, url: str) -> None:
    engine = create_engine(url)
    sessions = sessionmaker(engine)
    postgresql = engine.dialect.name == "postgresql"
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
                    "updated_ms": 0,
                }
                for i in range(1, entries + 1)
            ],
        )
        for date in (NOISE_DAY, DAY):
            await db.execute(insert(DailyAttempt), attempts(rng, entries, date))
    async with engine.connect() as conn:
        # (VACUUM: PostgreSQL's visibility map, which index-only scans read)
        statement = "VACUUM ANALYZE" if postgresql else "ANALYZE"
        await (await conn.execution_options(isolation_level="AUTOCOMMIT")).execute(text(statement))
    print(f"{entries} entries for {DAY} (and {NOISE_DAY}) in {time.perf_counter() - started:.1f} s")
    await print_plans(engine, limit)

    # What the server runs for a ``leaderboard`` request, with its clock on that day.
    day_ms = int(datetime.datetime.fromisoformat(DAY).replace(tzinfo=datetime.UTC).timestamp())
    app = App(Config(db=url, metrics_port=0), clock=lambda: day_ms * 1000 + 3_600_000)
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
    driver = "psycopg" if postgresql else "sqlite3"
    raw = raw_sql(url, limit, queries)
    print(f"  the SQL alone ({driver}, no async stack): {summary(raw)}")
    print(f"  the rank alone by counting over the index instead: {summary(counted)}")


async def print_plans(engine: Any, limit: int) -> None:
    """How the database runs a page, a player's entry and a rank count (its own EXPLAIN)."""
    day = {"variant": VARIANT, "date": DAY, "limit": limit, "player": 7}
    from server.storage.queries import leaderboard

    statements = {
        "page": leaderboard.top_query(VARIANT, DAY, limit),
        "me": leaderboard.entry_query(VARIANT, DAY, 7),
        "rank keys": leaderboard.keys_query(VARIANT, DAY),
    }
    async with engine.connect() as conn:
        postgresql = conn.dialect.name == "postgresql"
        for what, statement in statements.items():
            sql = str(statement.compile(conn, compile_kwargs={"literal_binds": True}))
            explain = "EXPLAIN (ANALYZE, COSTS OFF)" if postgresql else "EXPLAIN QUERY PLAN"
            plan = await conn.execute(text(f"{explain} {sql}"), day)
            lines = [str(row[-1]).strip() for row in plan]
            print(f"plan of {what}: " + " | ".join(line for line in lines if line))


def raw_sql(url: str, limit: int, queries: int) -> list[float]:
    """The two statements of a request on the plain synchronous driver: the database's share."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        import psycopg

        dsn = parsed.set(drivername="postgresql").render_as_string(hide_password=False)
        con: Any = psycopg.connect(dsn, autocommit=True)
        mark, true = "%s", "true"
    else:
        con = sqlite3.connect(parsed.database or "")
        mark, true = "?", "1"
    rng = random.Random(7)
    top = (
        "SELECT a.player_id, p.name, a.state, a.elapsed_ms, a.moves, a.score "
        "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
        f"WHERE a.variant = {mark} AND a.date = {mark} AND a.finished = {true} "
        f"ORDER BY a.rank_group, a.rank_a, a.rank_b LIMIT {mark}"
    )
    mine = (
        "SELECT a.player_id, p.name, a.state, a.elapsed_ms, a.moves, a.score, "
        "a.rank_group, a.rank_a, a.rank_b FROM daily_attempts a JOIN players p "
        f"ON p.id = a.player_id WHERE a.variant = {mark} AND a.date = {mark} "
        f"AND a.player_id = {mark} AND a.finished = {true}"
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


async def run_boards(
    entries: int, queries: int, limit: int, url: str, revision: str | None = None
) -> None:
    """``season`` and ``ratings`` requests on boards of ``entries`` players (``revision``: the
    database taken down to it once filled, to measure the indexes an older one had)."""
    from collections import Counter

    from server.seasons.points import EVERY_VARIANT, attempt_points, period_of
    from server.storage.models import PlayerRating, RatingCount, SeasonCount, SeasonPoints
    from shared import protocol as p

    engine = create_engine(url)
    sessions = sessionmaker(engine)
    postgresql = engine.dialect.name == "postgresql"
    await upgrade(engine)
    rng = random.Random(11)
    month = period_of("month", DAY)
    started = time.perf_counter()
    rows, ratings = [], []
    counts: Counter[tuple[str, int]] = Counter()
    for pid in range(1, entries + 1):
        days = rng.randint(1, 28)
        wins = sum(1 for _ in range(days) if rng.random() < 0.6)
        points = sum(
            attempt_points(d < wins, rng.randint(1, 200) if rng.random() < 0.05 else None)
            for d in range(days)
        )
        for scope in (VARIANT, EVERY_VARIANT):
            rows.append(
                {
                    "scope": scope,
                    "period": month,
                    "player_id": pid,
                    "points": points,
                    "dailies": days,
                    "wins": wins,
                }
            )
            if pid % 5000:  # (the counts hold the players a board lists: not the banned)
                counts[(scope, points)] += 1
        ratings.append(
            {
                "player_id": pid,
                "variant": VARIANT,
                "rating": rng.gauss(1500, 200),
                "deviation": rng.uniform(45, 350),
                "volatility": 0.06,
                "games": rng.randint(1, 100),
                "updated_ms": 0,
            }
        )
    async with sessions() as db, db.begin():
        await db.execute(
            insert(Player),
            [
                {
                    "id": i,
                    "name": f"p{i}",
                    "name_key": f"p{i}",
                    "token_hash": f"{i:064x}",
                    "banned": i % 5000 == 0,  # a few banned players, left out of ranks
                    "created_ms": 0,
                    "updated_ms": 0,
                }
                for i in range(1, entries + 1)
            ],
        )
        for chunk in range(0, len(rows), 20_000):
            await db.execute(insert(SeasonPoints), rows[chunk : chunk + 20_000])
        await db.execute(
            insert(SeasonCount),
            [
                {"scope": scope, "period": month, "points": points, "players": n}
                for (scope, points), n in counts.items()
            ],
        )
        for chunk in range(0, len(ratings), 20_000):
            await db.execute(insert(PlayerRating), ratings[chunk : chunk + 20_000])
        # (the counts hold the players the board lists: not the banned)
        floors = Counter(
            math.floor(float(str(r["rating"]))) for r in ratings if int(str(r["player_id"])) % 5000
        )
        await db.execute(
            insert(RatingCount),
            [{"variant": VARIANT, "floor": f, "players": n} for f, n in floors.items()],
        )
    if revision is not None:
        await downgrade(engine, revision)
        print(f"database taken down to revision {revision} (its indexes)")
    async with engine.connect() as conn:
        statement = "VACUUM ANALYZE" if postgresql else "ANALYZE"
        await (await conn.execution_options(isolation_level="AUTOCOMMIT")).execute(text(statement))
    print(
        f"{entries} players on a month's board of {VARIANT} and of every variant "
        f"({len(counts)} point values), and {entries} {VARIANT} ratings, in "
        f"{time.perf_counter() - started:.1f} s"
    )
    await board_plans(engine, month, limit)
    day_ms = int(datetime.datetime.fromisoformat(DAY).replace(tzinfo=datetime.UTC).timestamp())
    app = App(Config(db=url, metrics_port=0), clock=lambda: day_ms * 1000 + 3_600_000)
    app.seasons._closed_through = app.daily.today()  # no days to close: none were played
    Board = p.SeasonReply | p.RatingsReply
    boards: dict[str, Callable[[int], Awaitable[Board]]] = {
        f"season month {VARIANT}": lambda pid: app.seasons.board(
            pid, p.SeasonRequest(period="month", variant=VARIANT, date=DAY, limit=limit)
        ),
        "season month, every variant": lambda pid: app.seasons.board(
            pid, p.SeasonRequest(period="month", date=DAY, limit=limit)
        ),
        f"ratings {VARIANT}": lambda pid: app.ratings.board(
            pid, p.RatingsRequest(variant=VARIANT, limit=limit)
        ),
    }
    # warm: connections opened, statements prepared, the index pages read once (a server
    # that has run for a while has them in memory)
    for ask in boards.values():
        for _ in range(100):
            await ask(rng.randint(1, entries))
    # Then the boards in turn, a request of each per round, so that each meets the same
    # moments of a loaded machine (measured one after the other, the first board measured,
    # a variant's month, had two to four times the others' median in every run).
    served: dict[str, list[float]] = {what: [] for what in boards}
    cpu: dict[str, list[float]] = {what: [] for what in boards}
    ranks: dict[str, list[int]] = {what: [] for what in boards}
    for _ in range(queries):
        for what, ask in boards.items():
            player = rng.randint(1, entries)
            t0, c0 = time.perf_counter(), time.process_time()
            reply = await ask(player)
            served[what].append((time.perf_counter() - t0) * 1000)
            cpu[what].append((time.process_time() - c0) * 1000)
            assert len(reply.entries) == limit
            if reply.me is not None:
                ranks[what].append(reply.me.rank)
    for what in boards:
        print(
            f"{what}: {queries} requests (top {limit} + me with its true rank), ranks "
            f"{min(ranks[what])} .. {max(ranks[what])}:\n  wall time: {summary(served[what])}\n"
            f"  CPU of the server process (all threads): {summary(cpu[what])}"
        )
    app.board_reader.close()
    app.daily.reader.close()
    await app.engine.dispose()
    await engine.dispose()


async def board_plans(engine: Any, month: str, limit: int) -> None:
    """How the database runs a season board's statements (PostgreSQL: with their times)."""
    from server.storage.queries import seasons

    values = {"scope": VARIANT, "period": month, "limit": limit, "player": 7, "points": 100}
    async with engine.connect() as conn:
        if conn.dialect.name != "postgresql":
            return
        for what, statement in (
            ("top", seasons._TOP),
            ("me", seasons._MINE),
            ("rank", seasons._RANK),
            ("request, in one statement", seasons._ONE),
        ):
            bound = statement.params(values)
            sql = str(bound.compile(conn, compile_kwargs={"literal_binds": True}))
            plan = await conn.execute(text(f"EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) {sql}"))
            lines = [str(row[0]).strip() for row in plan]
            print(f"plan of the season board's {what}: " + " | ".join(lines))
            # pages read, whatever the load: the first Buffers line is the whole statement's
            pages = next((line for line in lines if line.startswith("Buffers:")), "?")
            fetches = sum(int(x.split()[-1]) for x in lines if x.startswith("Heap Fetches:"))
            print(f"  {what}: {pages}; heap fetches of index scans: {fetches}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench/leaderboard.py", description=__doc__)
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument(
        "--db", default="sqlite", help="sqlite (default), postgresql, or an SQLAlchemy URL"
    )
    parser.add_argument(
        "--boards", action="store_true", help="the season and rating boards instead"
    )
    parser.add_argument(
        "--revision",
        help="with --boards: take the filled database down to this revision first (its indexes)",
    )
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as tmp,
        databases.temporary(args.db, tmp, "board") as url,
    ):
        print(f"database: {databases.label(args.db)}")
        if args.boards:
            asyncio.run(run_boards(args.entries, args.queries, args.limit, url, args.revision))
        else:
            asyncio.run(run(args.entries, args.queries, args.limit, url))


if __name__ == "__main__":
    main()
