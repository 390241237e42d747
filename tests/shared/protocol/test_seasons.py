"""Season boards and profiles on the wire: round trips and every field checked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, round_trips

ENTRY = {"rank": 1, "player": 7, "name": "carol", "points": 19, "dailies": 1, "wins": 1}
REPLY = {
    "type": "season",
    "re": 3,
    "period": "week",
    "variant": "gypsy",
    "date": "2026-12-03",
    "first": "2026-11-30",
    "last": "2026-12-06",
    "entries": [ENTRY],
    "me": ENTRY,
}


@given(st.one_of(s.SEASONS_MESSAGES + s.PROFILES_MESSAGES))
def test_every_season_and_profile_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_every_field_of_a_season_board_is_checked() -> None:
    request = {"type": "season", "period": "month", "variant": "gypsy", "date": "2026-12-03"}
    every_field_is_checked(p.SeasonRequest.from_map, request, optional={"variant", "date"})
    out_of_range(p.SeasonRequest.from_map, request, "period", ["year", 1])
    out_of_range(p.SeasonRequest.from_map, request, "date", ["2026-13-01", "yesterday"])
    out_of_range(p.SeasonRequest.from_map, request | {"limit": 5}, "limit", [0, "x"])
    assert p.SeasonRequest.from_map({"period": "all", "limit": 10**6}).limit == p.MAX_SEASON
    every_field_is_checked(p.SeasonEntry.from_map, ENTRY)
    out_of_range(p.SeasonEntry.from_map, ENTRY, "points", [-1])
    every_field_is_checked(p.SeasonReply.from_map, REPLY)
    assert p.SeasonReply.from_map(REPLY).to_map() == REPLY


def test_every_field_of_a_profile_request_is_checked() -> None:
    every_field_is_checked(p.ProfileRequest.from_map, {"type": "profile", "name": "alice"})
    out_of_range(p.ProfileRequest.from_map, {"name": "a"}, "name", ["x" * 25, 7])
    every_field_is_checked(p.ProfileSettings.from_map, {"hidden": True})
    out_of_range(p.ProfileSettings.from_map, {"hidden": True}, "hidden", ["yes", 1, None])
    # the archive: a past day of the daily
    daily = p.DailyRequest.from_map({"variant": "gypsy", "date": "2026-11-20"})
    assert daily.date == "2026-11-20" and daily.to_map()["date"] == "2026-11-20"
    out_of_range(p.DailyRequest.from_map, {"variant": "gypsy"}, "date", ["2026-02-30"])
