"""A property: whatever the stored daily results (ties, several weeks and months, hidden
profiles, banned players and bots, results held for review and decided before or after their
day closed), every board the server reads equals a plain recomputation from those results; and
players banned and unbanned after it all move out of every rank and back; and the migration's
backfill rebuilds the same boards from the results alone."""

from __future__ import annotations

import asyncio
import importlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert, update

from server.app import App
from server.config import Config
from server.seasons import days
from server.seasons.points import EVERY_VARIANT, attempt_points, boards_of, places, shared_ranks
from server.storage.models import (
    DailyAttempt,
    Player,
    SeasonClosed,
    SeasonCount,
    SeasonDay,
    SeasonPoints,
)
from server.storage.queries import seasons as store
from tests.server.conftest import FakeClock
from tests.server.seasons.test_boards import consistent

#: a Sunday ending week 48 and November, then week 49 across the turn of the month
DATES = ("2026-11-29", "2026-11-30", "2026-12-01")
VARIANTS = ("freecell", "gypsy")
REVIEWS = ("", "", "pending", "cleared", "confirmed")


@dataclass(frozen=True)
class Attempt:
    variant: str
    date: str
    player: int
    won: bool
    key: tuple[int, int, int]
    #: its review in the end ('' never held) and when it was decided: step of the events
    review: str


players = st.lists(
    st.tuples(st.booleans(), st.booleans(), st.booleans()).map(
        lambda t: {"banned": t[0] and t[2], "hidden": t[1], "bot": t[2] and not t[0]}
    ),
    min_size=1,
    max_size=7,
)
keys = st.tuples(st.integers(0, 1), st.integers(0, 2), st.integers(0, 1))


Scenario = tuple[list[dict[str, bool]], list[Attempt], list[Any], list[int]]


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    who = draw(players)
    attempts = []
    for variant in VARIANTS:
        for date in DATES:
            for pid in range(1, len(who) + 1):
                if draw(st.booleans()):
                    won = draw(st.booleans())
                    key = (0, draw(st.integers(0, 2)), 0) if won else (1, *draw(keys)[1:])
                    attempts.append(
                        Attempt(variant, date, pid, won, key, draw(st.sampled_from(REVIEWS)))
                    )
    # after every attempt ended: days closed and held results decided, in any order
    events: list[Any] = [("close", v, d) for v in VARIANTS for d in DATES if draw(st.booleans())]
    events += [("decide", a) for a in attempts if a.review in ("cleared", "confirmed")]
    # then players banned and unbanned (each a toggle, by SQL as an operator might)
    toggles = draw(st.lists(st.integers(1, len(who)), max_size=4))
    return who, attempts, draw(st.permutations(events)), toggles


def recomputed(
    who: list[dict[str, bool]], attempts: list[Attempt], closed: set[tuple[str, str]]
) -> dict[tuple[str, str], dict[int, tuple[int, int, int]]]:
    """Every board from the results alone: (scope, period) -> player -> points, dailies, wins."""
    boards: dict[tuple[str, str], dict[int, tuple[int, int, int]]] = defaultdict(dict)
    by_day: dict[tuple[str, str], list[Attempt]] = defaultdict(list)
    for a in attempts:
        shown = not who[a.player - 1]["banned"] and not who[a.player - 1]["bot"]
        if shown and a.review not in ("pending", "confirmed"):
            by_day[(a.variant, a.date)].append(a)
    for (variant, date), listed in by_day.items():
        listed.sort(key=lambda a: a.key)
        placed = places([(a.player, a.key) for a in listed])
        for a in listed:
            place = placed[a.player] if (variant, date) in closed else None
            points = attempt_points(a.won, place)
            for board in boards_of(variant, date):
                p, n, w = boards[board].get(a.player, (0, 0, 0))
                boards[board][a.player] = (p + points, n + 1, w + int(a.won))
    return boards


async def scenario(
    url: str,
    who: list[dict[str, bool]],
    attempts: list[Attempt],
    events: list[Any],
    toggles: list[int],
) -> None:
    app = App(Config(db=url, metrics_port=0), clock=FakeClock())
    try:
        async with app.db_sessions() as db, db.begin():
            for table in (SeasonCount, SeasonPoints, SeasonDay, SeasonClosed, DailyAttempt):
                await db.execute(delete(table))
            await db.execute(delete(Player))
            await db.execute(insert(Player), [player_row(i + 1, p) for i, p in enumerate(who)])
            if attempts:
                await db.execute(insert(DailyAttempt), [attempt_row(a) for a in attempts])
        for a in attempts:  # each told as it ends (a held one earns nothing)
            await app.seasons.finished(a.variant, a.date, a.player)
        closed: set[tuple[str, str]] = set()
        for event in events:
            if event[0] == "close":
                await app.seasons._close(event[1], event[2])
                closed.add((event[1], event[2]))
            else:
                a = event[1]
                async with app.db_sessions() as db, db.begin():
                    await db.execute(
                        update(DailyAttempt)
                        .where(DailyAttempt.game_id == game_id(a))
                        .values(review=a.review)
                    )
                    await days.review_decided(db, game_id=game_id(a))
        expected = recomputed(who, attempts, closed)
        await same_boards(app, who, expected)

        # A ban hides a player's points and leaves them out of everyone's rank; an unban
        # brings both back (the counts follow ``players.banned`` however it is changed).
        now = [dict(flags) for flags in who]
        for pid in toggles:
            now[pid - 1]["banned"] = not now[pid - 1]["banned"]
            await set_banned(app, pid, now[pid - 1]["banned"])
            await same_boards(app, now, expected)
        for pid, flags in enumerate(who, start=1):
            if now[pid - 1]["banned"] != flags["banned"]:
                await set_banned(app, pid, flags["banned"])
        await same_boards(app, who, expected)

        # The migration's backfill, from the results alone, rebuilds the same boards (it
        # closes the past days whose attempts all ended: here every day, all of them past).
        backfill = importlib.import_module("migrations.versions.0019_season_boards").backfill
        async with app.engine.begin() as conn:
            await conn.run_sync(backfill, "2026-12-02")
        every_day = {(v, d) for v in VARIANTS for d in DATES}
        await same_boards(app, who, recomputed(who, attempts, every_day))
    finally:
        app.board_reader.close()
        app.daily.reader.close()
        await app.engine.dispose()


async def same_boards(
    app: App, who: list[dict[str, bool]], expected: dict[tuple[str, str], Any]
) -> None:
    """Each board's top and each player's own place and true rank, as the server reads them."""
    periods = {period for v in VARIANTS for d in DATES for _, period in boards_of(v, d)}
    for scope in (*VARIANTS, EVERY_VARIANT):
        for period in periods:
            board = expected.get((scope, period), {})
            shown = {
                pid: row
                for pid, row in board.items()
                if not who[pid - 1]["banned"] and not who[pid - 1]["bot"]
            }
            order = sorted(shown, key=lambda pid: (-shown[pid][0], -pid))
            for pid in range(1, len(who) + 1):
                top, mine = await app.board_reader.read(
                    lambda conn, s=scope, t=period, pid=pid: store.read_board(
                        conn, scope=s, period=t, limit=100, player_id=pid
                    )
                )
                assert [(p[0], *p[2:5]) for p in top] == [(q, *shown[q]) for q in order]
                assert shared_ranks([p[2] for p in top]) == [
                    1 + sum(1 for q in shown if shown[q][0] > shown[o][0]) for o in order
                ]
                if pid not in shown:
                    assert mine is None, (scope, period, pid)
                    continue
                assert mine is not None, (scope, period, pid)
                rank, place = mine
                assert (place[0], *place[2:5]) == (pid, *shown[pid])
                assert rank == 1 + sum(1 for q in shown if shown[q][0] > shown[pid][0])


async def set_banned(app: App, pid: int, banned: bool) -> None:
    async with app.db_sessions() as db, db.begin():
        await db.execute(update(Player).where(Player.id == pid).values(banned=banned))


def game_id(a: Attempt) -> str:
    return f"{a.variant[:2]}{a.date}{a.player}"


def player_row(pid: int, flags: dict[str, bool]) -> dict[str, Any]:
    return {
        "id": pid, "name": f"p{pid}", "name_key": f"p{pid}", "token_hash": f"{pid:064x}",
        "banned": flags["banned"], "bot": flags["bot"], "profile_hidden": flags["hidden"],
        "created_ms": 0, "updated_ms": 0,
    }  # fmt: skip


def attempt_row(a: Attempt) -> dict[str, Any]:
    held = "pending" if a.review in ("cleared", "confirmed") else a.review
    return {
        "variant": a.variant, "date": a.date, "player_id": a.player, "game_id": game_id(a),
        "finished": True, "state": "won" if a.won else "resigned", "elapsed_ms": 1000,
        "moves": 10, "score": 0, "rank_group": a.key[0], "rank_a": a.key[1],
        "rank_b": a.key[2], "review": held,
    }  # fmt: skip


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scenarios())
def test_every_board_is_a_plain_recomputation_of_the_results(db_url: str, drawn: Scenario) -> None:
    asyncio.run(scenario(db_url, *drawn))


async def test_a_banned_players_points_change_without_moving_the_counts(db_url: str) -> None:
    """Points that change while their player is banned (a day closing without them) stay out
    of the counts, and an unban brings back what they hold then."""
    app = App(Config(db=db_url, metrics_port=0), clock=FakeClock())
    try:
        flags = {"banned": False, "hidden": False, "bot": False}
        day = [Attempt("freecell", DATES[0], pid, pid == 1, (0, pid, 0), "") for pid in (1, 2)]
        day.append(Attempt("freecell", DATES[1], 1, True, (0, 0, 0), ""))
        async with app.db_sessions() as db, db.begin():
            await db.execute(insert(Player), [player_row(pid, flags) for pid in (1, 2)])
            await db.execute(insert(DailyAttempt), [attempt_row(a) for a in day])
        for a in day:
            await app.seasons.finished(a.variant, a.date, a.player)
        await app.seasons._close("freecell", DATES[1])  # player 1 first there: 19
        await set_banned(app, 1, True)
        await consistent(app)
        await app.seasons._close("freecell", DATES[0])  # without player 1: their 14 go
        await consistent(app)
        await set_banned(app, 1, False)
        await consistent(app)
        top, mine = await app.board_reader.read(
            lambda conn: store.read_board(
                conn, scope=EVERY_VARIANT, period="all", limit=10, player_id=2
            )
        )
        assert [(place[0], place[2]) for place in top] == [(1, 19), (2, 15)]
        assert mine is not None and mine[0] == 2
    finally:
        app.board_reader.close()
        app.daily.reader.close()
        await app.engine.dispose()


async def test_a_review_decided_while_its_day_closes_is_scored_with_the_closed_day(
    db_url: str,
) -> None:
    """The close of a day (its transaction under way, its places given without a held result)
    and an operator clearing that result at that moment: the decision waits for the close and
    then scores the closed day, the cleared result in first place."""
    from server.storage.models import Daily

    app = App(Config(db=db_url, metrics_port=0), clock=FakeClock())
    try:
        flags = {"banned": False, "hidden": False, "bot": False}
        held = Attempt("freecell", DATES[0], 1, True, (0, 0, 0), "cleared")
        other = Attempt("freecell", DATES[0], 2, False, (1, 0, 0), "")
        async with app.db_sessions() as db, db.begin():
            await db.execute(insert(Player), [player_row(pid, flags) for pid in (1, 2)])
            await db.execute(insert(DailyAttempt), [attempt_row(a) for a in (held, other)])
            db.add(Daily(variant="freecell", date=DATES[0], seed=1, positions=1, computed_ms=0))
        for a in (held, other):
            await app.seasons.finished(a.variant, a.date, a.player)

        async def decide() -> None:
            async with app.db_sessions() as db, db.begin():
                await db.execute(
                    update(DailyAttempt)
                    .where(DailyAttempt.game_id == game_id(held))
                    .values(review="cleared")
                )
                await days.review_decided(db, game_id=game_id(held))

        async with app.db_sessions() as db, db.begin():  # the close, as _close runs it
            await store.mark_closed(db, variant="freecell", date=DATES[0], now_ms=0)
            await store.lock_day(db, variant="freecell", date=DATES[0], exclusive=True)
            await days.score_day(db, variant="freecell", date=DATES[0])
            deciding = asyncio.ensure_future(decide())
            await asyncio.sleep(0.3)  # the decision under way, waiting for the close
        await deciding
        closed = {("freecell", DATES[0])}
        await same_boards(app, [flags, flags], recomputed([flags, flags], [held, other], closed))
    finally:
        app.board_reader.close()
        app.daily.reader.close()
        await app.engine.dispose()
