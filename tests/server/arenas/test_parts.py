"""The pure parts of arenas: par and allowance, the schedule, the table's ranks, the frames."""

from __future__ import annotations

import datetime

import pytest

from server.arenas import par
from server.arenas.schedule import ScheduleError, due, parse
from server.arenas.table import Line, Standings
from server.config import ConfigError, load


def ms(text: str) -> int:
    moment = datetime.datetime.fromisoformat(text).replace(tzinfo=datetime.UTC)
    return int(moment.timestamp() * 1000)


def test_par_is_read_time_and_three_seconds_a_move_within_bounds() -> None:
    assert par.par_ms(100) == 330_000
    assert par.par_ms(None) == 330_000  # not known: 100 moves
    assert par.par_ms(0) == par.MIN_PAR_MS
    assert par.par_ms(10_000) == par.MAX_PAR_MS
    assert par.allowance_ms(330_000, berserk=False) == 990_000
    assert par.allowance_ms(330_000, berserk=True) == 495_000
    assert par.deadline_ms(1_000, 990_000, 50_000) == 50_000  # the arena's end comes first


def test_a_weekly_entry_is_every_sunday_at_its_time_utc() -> None:
    (entry,) = parse("sunday 18:00 freecell 45 Sunday Freecell")
    assert (entry.minutes, entry.variant, entry.name) == (45, "freecell", "Sunday Freecell")
    friday = ms("2026-12-04T12:00:00")  # a Friday
    assert entry.starts_after(friday) == ms("2026-12-06T18:00:00")
    assert due((entry,), friday, ahead_ms=3_600_000) == []  # two days ahead: not yet
    day_ahead = due((entry,), ms("2026-12-05T19:00:00"), ahead_ms=86_400_000)
    assert day_ahead == [(entry, ms("2026-12-06T18:00:00"))]
    running = due((entry,), ms("2026-12-06T18:30:00"), ahead_ms=0)
    assert running == [(entry, ms("2026-12-06T18:00:00"))]  # running now: still made
    assert entry.code(ms("2026-12-06T18:00:00")) == entry.code(ms("2026-12-06T18:00:00"))
    assert entry.code(ms("2026-12-06T18:00:00")) != entry.code(ms("2026-12-13T18:00:00"))


def test_daily_entries_and_several_in_one_setting() -> None:
    entries = parse("daily 12:30 osmosis 20; sat 09:05 gypsy 60")
    assert [e.day for e in entries] == [None, 5]
    assert entries[0].starts_after(ms("2026-12-04T13:00:00")) == ms("2026-12-05T12:30:00")
    assert entries[0].name == "Daily osmosis arena"


@pytest.mark.parametrize(
    "text",
    ["sunday 18:00 freecell", "someday 18:00 freecell 45", "sunday 25:00 freecell 45",
     "sunday 18:00 freecell 2", "sunday 18h freecell 45"],
)  # fmt: skip
def test_a_bad_entry_is_refused_at_start_naming_it(text: str) -> None:
    with pytest.raises(ScheduleError, match="arena_schedule entry"):
        parse(text)
    with pytest.raises(ConfigError, match="arena_schedule"):
        load(env={"PATIENCE_ARENA_SCHEDULE": text})


def test_equal_points_share_a_rank_and_more_wins_come_first() -> None:
    table = Standings()
    assert table.set(Line(1, "ann", 6, 3, 2)) and table.set(Line(2, "bob", 6, 2, 3))
    assert table.set(Line(3, "cy", 2, 1, 1))
    assert not table.set(Line(3, "cy", 2, 1, 1))  # no change, no new version
    assert [(e.rank, e.name) for e in table.top(10)] == [(1, "bob"), (1, "ann"), (3, "cy")]
    me = table.me(3)
    assert me is not None and me.rank == 3
    assert table.version == 3
