"""The daily challenge and its leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import (
    every_field_is_checked,
    out_of_range,
    refused_frame,
    round_trips,
)
from tests.shared.protocol.test_games import STANDING

BOARD = {
    "type": "leaderboard",
    "re": 7,
    "variant": "gypsy",
    "date": "2026-11-29",
    "entries": [STANDING, STANDING | {"rank": 2, "player": 3, "name": "carol"}],
    "me": STANDING,
}


@given(st.one_of(s.DAILY))
def test_every_daily_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_every_field_of_the_daily_requests_is_checked() -> None:
    every_field_is_checked(p.DailyRequest.from_map, {"type": "daily", "variant": "gypsy"})
    practice = {"type": "daily", "variant": "gypsy", "practice": True}
    every_field_is_checked(p.DailyRequest.from_map, practice, optional={"practice"})
    assert p.DailyRequest.from_map(practice).practice
    assert not p.DailyRequest.from_map({"variant": "gypsy"}).practice
    board = {"type": "leaderboard", "variant": "gypsy", "date": "2026-11-29", "limit": 10}
    every_field_is_checked(p.LeaderboardRequest.from_map, board, optional={"date", "limit"})


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"type": "daily", "variant": ""}, "variant"),
        ({"type": "leaderboard", "variant": "gypsy", "date": "2026-02-30"}, "date"),
        ({"type": "leaderboard", "variant": "gypsy", "date": "26-11-29"}, "date"),
        ({"type": "leaderboard", "variant": "gypsy", "date": "29/11/2026"}, "date"),
        ({"type": "leaderboard", "variant": "gypsy", "limit": 0}, "limit"),
    ],
)
def test_bad_fields_are_named(fields: dict[str, Any], name: str) -> None:
    assert f"'{name}'" in refused_frame(p.REQUESTS, fields)


def test_a_leaderboard_limit_above_100_is_taken_as_100_and_none_as_50() -> None:
    assert p.LeaderboardRequest.from_map({"variant": "gypsy", "limit": 10**9}).limit == 100
    assert p.LeaderboardRequest.from_map({"variant": "gypsy"}).limit == 50


def test_every_field_of_a_leaderboard_is_checked() -> None:
    every_field_is_checked(p.LeaderboardReply.from_map, BOARD)
    every_field_is_checked(p.LeaderboardReply.from_map, BOARD | {"me": None})
    held = STANDING | {"rank": None, "review": "confirmed"}
    assert p.LeaderboardReply.from_map(BOARD | {"me": held}).me == p.Standing.from_map(held)
    out_of_range(p.LeaderboardReply.from_map, BOARD, "date", ["tomorrow"])
    out_of_range(p.LeaderboardReply.from_map, BOARD, "entries", [[STANDING | {"score": -1}]])
    board = p.LeaderboardReply.from_map(BOARD)
    assert board.me == p.Standing.from_map(STANDING)
    assert [e.name for e in board.entries] == ["bob", "carol"]
    assert board.to_map() == BOARD
