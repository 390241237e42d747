"""season boards: every past daily scored, and indexes that answer a board from themselves

Revision ID: 0019
Revises: 0016
Create Date: 2026-12-05 04:40:00

Backfill: the season tables are rebuilt from the stored daily results of all
time, as the rule of server/seasons/points.py gives them (copied here, as it
stood at this revision). Before this, only the attempts that ended after
revision 0015, and the days of the 35 before it, earned points. A past day
whose attempts have all ended is closed here (its final places scored); a
past day with an attempt still open is left to the server's close, which
first closes such attempts as they stood at midnight. The boards' counts of
players per points are rebuilt from the rebuilt points.

Indexes: ``ix_season_points_board`` also holds ``dailies`` and ``wins``, so
the top of a board is read from the index alone (an index-only scan on
PostgreSQL); ``ix_season_counts_rank`` holds the players per points, so a
true rank's sum is read from the index alone.

Downgrade drops the two indexes' extra columns; the scored rows stay (they
are what revision 0015's tables hold).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the rule of server/seasons/points.py at this revision
FINISHED, WON, PLACE = 10, 4, (5, 3, 2, 1, 1, 1, 1, 1, 1, 1)
EVERY_VARIANT = "*"
CHUNK = 5_000


def upgrade() -> None:
    with op.batch_alter_table("season_points", schema=None) as batch_op:
        batch_op.drop_index("ix_season_points_board")
        batch_op.create_index(
            "ix_season_points_board",
            ["scope", "period", "points", "player_id", "dailies", "wins"],
            unique=False,
        )
    with op.batch_alter_table("season_counts", schema=None) as batch_op:
        batch_op.create_index(
            "ix_season_counts_rank", ["scope", "period", "points", "players"], unique=False
        )
    backfill(op.get_bind(), datetime.datetime.now(datetime.UTC).date().isoformat())


def downgrade() -> None:
    with op.batch_alter_table("season_counts", schema=None) as batch_op:
        batch_op.drop_index("ix_season_counts_rank")
    with op.batch_alter_table("season_points", schema=None) as batch_op:
        batch_op.drop_index("ix_season_points_board")
        batch_op.create_index(
            "ix_season_points_board", ["scope", "period", "points", "player_id"], unique=False
        )


def backfill(conn: sa.Connection, today: str) -> None:
    """Rebuild ``season_days``, ``season_points`` and ``season_counts`` from the daily results,
    and close the past days whose attempts have all ended."""
    closed = {
        (str(v), str(d))
        for v, d in conn.execute(sa.text("SELECT variant, date FROM season_closed"))
    }
    still_open = {
        (str(v), str(d))
        for v, d in conn.execute(
            sa.text("SELECT DISTINCT variant, date FROM daily_attempts WHERE finished = :no"),
            {"no": False},
        )
    }
    listed = conn.execute(
        sa.text(
            "SELECT a.variant, a.date, a.player_id, a.state, a.rank_group, a.rank_a, a.rank_b "
            "FROM daily_attempts a JOIN players p ON p.id = a.player_id "
            "WHERE a.finished = :yes AND a.review NOT IN ('pending', 'confirmed') "
            "AND p.bot = :no AND p.banned = :no "
            "ORDER BY a.variant, a.date, a.rank_group, a.rank_a, a.rank_b, a.player_id"
        ),
        {"yes": True, "no": False},
    )
    days: list[dict[str, object]] = []
    boards: dict[tuple[str, str, int], list[int]] = {}
    newly_closed: set[tuple[str, str]] = set()
    for (variant, date), attempts in _by_day(listed):
        closing = (variant, date) in closed or (date < today and (variant, date) not in still_open)
        if closing and (variant, date) not in closed:
            newly_closed.add((variant, date))
        place, previous = 0, None
        for position, (pid, key, won) in enumerate(attempts, start=1):
            if key != previous:
                place, previous = position, key
            points = FINISHED + (WON if won else 0)
            if closing and place <= len(PLACE):
                points += PLACE[place - 1]
            days.append({
                "variant": variant, "date": date, "player_id": pid, "points": points,
                "won": won, "place": place if closing else None,
            })  # fmt: skip
            for scope in (variant, EVERY_VARIANT):
                for period in _periods(date):
                    total = boards.setdefault((scope, period, pid), [0, 0, 0])
                    total[0] += points
                    total[1] += 1
                    total[2] += int(won)
    # past days with no listed attempt close too (nothing to score; the server skips them)
    for variant, date in conn.execute(
        sa.text("SELECT DISTINCT variant, date FROM daily_attempts WHERE date < :today"),
        {"today": today},
    ):
        past = (str(variant), str(date))
        if past not in closed and past not in still_open:
            newly_closed.add(past)
    for table in ("season_counts", "season_points", "season_days"):
        conn.execute(sa.text(f"DELETE FROM {table}"))  # (the three names above)
    _insert(conn, "season_days", days)
    _insert(
        conn,
        "season_points",
        [
            {"scope": s, "period": p, "player_id": pid, "points": t[0], "dailies": t[1],
             "wins": t[2]}
            for (s, p, pid), t in boards.items()
        ],
    )  # fmt: skip
    counts: dict[tuple[str, str, int], int] = {}
    for (scope, period, _), total in boards.items():
        counts[(scope, period, total[0])] = counts.get((scope, period, total[0]), 0) + 1
    _insert(
        conn,
        "season_counts",
        [{"scope": s, "period": p, "points": n, "players": c} for (s, p, n), c in counts.items()],
    )
    now_ms = int(datetime.datetime.now(datetime.UTC).timestamp() * 1000)
    _insert(
        conn,
        "season_closed",
        [{"variant": v, "date": d, "closed_ms": now_ms} for v, d in sorted(newly_closed)],
    )


def _by_day(
    rows: sa.CursorResult[Any],
) -> Iterator[tuple[tuple[str, str], list[tuple[int, tuple[int, int, int], bool]]]]:
    """The listed attempts, a day at a time, each day's in board order."""
    day: tuple[str, str] | None = None
    attempts: list[tuple[int, tuple[int, int, int], bool]] = []
    for row in rows:
        variant, date, pid, state, group, a, b = tuple(row)
        this = (str(variant), str(date))
        if this != day:
            if day is not None:
                yield day, attempts
            day, attempts = this, []
        attempts.append((int(pid), (int(group), int(a), int(b)), state == "won"))
    if day is not None:
        yield day, attempts


def _periods(date: str) -> tuple[str, str, str]:
    day = datetime.date.fromisoformat(date)
    year, week, _ = day.isocalendar()
    return f"w{year}-{week:02d}", f"m{day.year}-{day.month:02d}", "all"


def _insert(conn: sa.Connection, name: str, rows: list[dict[str, object]]) -> None:
    if not rows:
        return
    table = sa.table(name, *(sa.column(c) for c in rows[0]))
    for start in range(0, len(rows), CHUNK):
        conn.execute(table.insert(), rows[start : start + CHUNK])
