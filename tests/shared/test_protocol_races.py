"""Races, daily and stats messages without a network: round trips and field checks."""

from __future__ import annotations

from typing import Any

import pytest

import shared.protocol_races as r
from shared import protocol as p
from shared.errors import ProtocolError


@pytest.mark.parametrize(
    "message",
    [
        r.CreateRoom(
            variant="gypsy", options={"a": 1}, seed=5, max_players=3, time_limit_s=600, id=1
        ),
        r.CreateRoom(variant="osmosis", id=2),
        r.JoinRoom(code="K7QF2M", id=3),
        r.LeaveRoom(code="K7QF2M"),
        r.StartRace(code="K7QF2M", seed=9, id=4),
        r.Watch(code="K7QF2M", player=12, id=5),
        r.DailyRequest(variant="freecell", id=6),
        r.LeaderboardRequest(variant="freecell", date="2026-11-29", limit=10, id=7),
        r.StatsRequest(id=8),
        r.StatsRequest(player=3, id=9),
    ],
)
def test_requests_round_trip(message: p.Request) -> None:
    assert p.decode(p.encode(message)) == message


def test_room_codes_are_read_aloud_without_0_o_1_i() -> None:
    assert not set("01OI") & set(r.CODE_ALPHABET)
    assert p.decode(p.encode({"type": "join_room", "code": "k7qf2m"})).code == "K7QF2M"
    for bad in ("K7QF2O", "K7QF21", "K7QF2", "K7QF2MM", 7):
        with pytest.raises(ProtocolError) as caught:
            p.decode(p.encode({"type": "join_room", "code": bad}))
        assert (caught.value.code, "'code'" in caught.value.message) == ("invalid_field", True)


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"type": "create_room", "variant": "gypsy", "max_players": 9}, "max_players"),
        ({"type": "create_room", "variant": "gypsy", "time_limit_s": 59}, "time_limit_s"),
        ({"type": "create_room", "variant": "gypsy", "seed": 0}, "seed"),
        ({"type": "create_room"}, "variant"),
        ({"type": "watch", "code": "K7QF2M", "player": "x"}, "player"),
        ({"type": "leaderboard", "variant": "gypsy", "date": "2026-02-30"}, "date"),
        ({"type": "leaderboard", "variant": "gypsy", "date": "26-11-29"}, "date"),
        ({"type": "leaderboard", "variant": "gypsy", "limit": 0}, "limit"),
        ({"type": "stats", "player": True}, "player"),
    ],
)
def test_bad_fields_are_named(fields: dict[str, Any], name: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.decode(p.encode(fields))
    assert caught.value.code == "invalid_field"
    assert f"'{name}'" in caught.value.message


def test_a_leaderboard_limit_above_100_is_taken_as_100() -> None:
    message = p.decode(p.encode({"type": "leaderboard", "variant": "gypsy", "limit": 10**9}))
    assert isinstance(message, r.LeaderboardRequest) and message.limit == 100


def test_pushes_decode_and_need_their_fields() -> None:
    push = {
        "type": "progress",
        "code": "K7QF2M",
        "player": 1,
        "ply": 3,
        "foundation": 2,
        "score": 2,
        "state": "playing",
    }
    decoded = p.decode_reply(p.encode(push))
    assert isinstance(decoded, r.Progress) and decoded.to_map() == push
    with pytest.raises(ProtocolError):
        p.decode_reply(p.encode({"type": "race_over", "code": "K7QF2M"}))
