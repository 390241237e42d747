"""The kept aggregates against the truth: after random changes of attempts' points (and a
few bans), every board and every true rank read from them equals what a count over every
row says; and the rating board's true rank from its counts per point likewise."""

from __future__ import annotations

import math
import random
from collections import Counter

from sqlalchemy import insert, update

from server.seasons.points import EVERY_VARIANT, attempt_points, boards_of
from server.storage.engine import create_engine, create_sync_engine, sessionmaker
from server.storage.models import Player, PlayerRating
from server.storage.queries import ratings as ratings_store
from server.storage.queries import seasons as store

PLAYERS = 40
DATES = ["2026-11-27", "2026-11-30", "2026-12-01", "2026-12-02"]  # two weeks, two months
VARIANTS = ["freecell", "gypsy"]


def players(n: int) -> list[dict[str, object]]:
    return [
        {
            "id": i,
            "name": f"p{i}",
            "name_key": f"p{i}",
            "token_hash": f"{i:064x}",
            "created_ms": 0,
            "updated_ms": 0,
        }
        for i in range(1, n + 1)
    ]


async def test_boards_and_true_ranks_follow_every_change(db_url: str) -> None:
    rng = random.Random(2026)
    engine = create_engine(db_url)
    sessions = sessionmaker(engine)
    async with sessions() as db, db.begin():
        await db.execute(insert(Player), players(PLAYERS))
    truth: dict[tuple[str, str, int], tuple[int, bool]] = {}  # attempt -> points, won
    for _ in range(150):
        variant, date = rng.choice(VARIANTS), rng.choice(DATES)
        pid = rng.randint(1, PLAYERS)
        roll = rng.random()
        if roll < 0.15:
            points, won = None, False  # held for review: earns nothing
        else:
            won = rng.random() < 0.5
            points = attempt_points(won, rng.choice([None, None, 1, 2, 3, 7, 40]))
        async with sessions() as db, db.begin():
            await store.set_points(
                db,
                variant=variant,
                date=date,
                player_id=pid,
                points=points,
                won=won,
                place=None,
                boards=boards_of(variant, date),
            )
        if points is None:
            truth.pop((variant, date, pid), None)
        else:
            truth[(variant, date, pid)] = (points, won)
    banned = set(rng.sample(range(1, PLAYERS + 1), 4))
    async with sessions() as db, db.begin():
        await db.execute(update(Player).where(Player.id.in_(banned)).values(banned=True))
    await engine.dispose()

    expected: dict[tuple[str, str], Counter[int]] = {}
    for (variant, date, pid), (points, _) in truth.items():
        for board in boards_of(variant, date):
            expected.setdefault(board, Counter())[pid] += points
    sync = create_sync_engine(db_url)
    try:
        checked = 0
        for (scope, period), totals in expected.items():
            for pid in range(1, PLAYERS + 1):
                with sync.connect() as conn:
                    top, mine = store.read_board(
                        conn, scope=scope, period=period, limit=PLAYERS, player_id=pid
                    )
                shown = {p: t for p, t in totals.items() if p not in banned}
                assert sorted((place[2] for place in top), reverse=True) == [
                    place[2] for place in top
                ]
                assert {place[0]: place[2] for place in top} == shown
                if pid in banned or pid not in totals:
                    assert mine is None
                    continue
                assert mine is not None
                rank, place = mine
                assert place[2] == totals[pid]
                assert rank == 1 + sum(1 for t in shown.values() if t > totals[pid])
                checked += 1
        assert checked > 100 and (EVERY_VARIANT, "all") in expected
    finally:
        sync.dispose()


async def test_the_rating_boards_true_rank_from_its_counts(db_url: str) -> None:
    rng = random.Random(7)
    engine = create_engine(db_url)
    sessions = sessionmaker(engine)
    ratings = {pid: round(rng.gauss(1500, 30), rng.choice([0, 1, 3])) for pid in range(1, 61)}
    async with sessions() as db, db.begin():
        await db.execute(insert(Player), players(60))
        for pid, rating in ratings.items():
            db.add(
                PlayerRating(
                    player_id=pid,
                    variant="gypsy",
                    rating=rating,
                    deviation=60.0,
                    volatility=0.06,
                    games=1,
                    updated_ms=0,
                )
            )
        await ratings_store.count(
            db, variant="gypsy", moves=Counter(math.floor(r) for r in ratings.values())
        )
        banned = set(rng.sample(sorted(ratings), 5))
        await db.execute(update(Player).where(Player.id.in_(banned)).values(banned=True))
    await engine.dispose()
    sync = create_sync_engine(db_url)
    try:
        for pid, rating in ratings.items():
            with sync.connect() as conn:
                _, mine = ratings_store.read_board(conn, variant="gypsy", limit=5, me=pid)
            if pid in banned:
                assert mine is None
                continue
            assert mine is not None
            above = sum(1 for p, r in ratings.items() if r > rating and p not in banned)
            assert mine[0] == above + 1, (pid, rating)
    finally:
        sync.dispose()
