"""Race rooms: the requests with their room codes, the RoomView, and the race pushes."""

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
    refused,
    refused_frame,
    round_trips,
)
from tests.shared.protocol.test_games import STANDING, VIEW

PLAYER = {
    "id": 1,
    "name": "alice",
    "connected": True,
    "game": None,
    "role": "racer",
    "bot": False,
}
ROOM = {
    "code": "K7QF2M",
    "variant": "gypsy",
    "options": {},
    "host": 1,
    "players": [PLAYER, PLAYER | {"id": 2, "name": "bob", "game": "g7Qx"}],
    "state": "waiting",
    "max_players": 8,
    "time_limit_s": 1800,
    "race": 0,
    "hints": False,
    "seed": 617,
    "rated": False,
    "boards": "live",
}
PROGRESS = {
    "type": "progress",
    "code": "K7QF2M",
    "player": 1,
    "ply": 3,
    "foundation": 2,
    "score": 2,
    "state": "playing",
}


@given(st.one_of(s.ROOMS_MESSAGES))
def test_every_room_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_room_codes_are_read_aloud_without_0_o_1_i() -> None:
    assert not set("01OI") & set(p.CODE_ALPHABET)
    assert p.JoinRoom.from_map({"code": "k7qf2m"}).code == "K7QF2M"
    for bad in ("K7QF2O", "K7QF21", "K7QF2", "K7QF2MM", "", 7):
        refused(p.JoinRoom.from_map, {"code": bad}, "code")


def test_every_field_of_the_room_requests_is_checked() -> None:
    create = {
        "type": "create_room",
        "variant": "gypsy",
        "options": {"a": 1},
        "seed": 5,
        "max_players": 3,
        "time_limit_s": 600,
        "hints": True,
        "rated": True,
        "boards": "delayed",
    }
    every_field_is_checked(
        p.CreateRoom.from_map,
        create,
        optional={"options", "seed", "max_players", "time_limit_s", "hints", "rated", "boards"},
    )
    assert not p.CreateRoom.from_map({"variant": "gypsy"}).rated
    out_of_range(p.CreateRoom.from_map, create, "rated", [1, None, "yes"])
    out_of_range(p.CreateRoom.from_map, create, "boards", ["after", "LIVE"])
    assert p.CreateRoom.from_map({"variant": "gypsy"}).boards == "live"
    join = {"type": "join_room", "code": "K7QF2M", "role": "spectator"}
    every_field_is_checked(p.JoinRoom.from_map, join, optional={"role"})
    assert p.JoinRoom.from_map({"code": "K7QF2M"}).role == "racer"
    out_of_range(p.JoinRoom.from_map, join, "role", ["host", ""])
    every_field_is_checked(p.LeaveRoom.from_map, {"type": "leave_room", "code": "K7QF2M"})
    start = {"type": "start_race", "code": "K7QF2M", "seed": 9}
    every_field_is_checked(p.StartRace.from_map, start, optional={"seed"})
    every_field_is_checked(p.Watch.from_map, {"type": "watch", "code": "K7QF2M", "player": 12})


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"type": "create_room", "variant": "gypsy", "max_players": 9}, "max_players"),
        ({"type": "create_room", "variant": "gypsy", "max_players": 0}, "max_players"),
        ({"type": "create_room", "variant": "gypsy", "time_limit_s": 59}, "time_limit_s"),
        ({"type": "create_room", "variant": "gypsy", "time_limit_s": 86_401}, "time_limit_s"),
        ({"type": "create_room", "variant": "gypsy", "seed": 0}, "seed"),
        ({"type": "create_room"}, "variant"),
        ({"type": "start_race", "code": "K7QF2M", "seed": 2**31}, "seed"),
        ({"type": "watch", "code": "K7QF2M", "player": "x"}, "player"),
        ({"type": "watch", "code": "K7QF2M", "player": 0}, "player"),
    ],
)
def test_bad_fields_are_named(fields: dict[str, Any], name: str) -> None:
    assert f"'{name}'" in refused_frame(p.REQUESTS, fields)


def test_a_room_without_max_players_is_for_eight() -> None:
    room = p.CreateRoom.from_map({"variant": "gypsy"})
    assert (room.max_players, room.time_limit_s, room.seed, room.options) == (8, None, None, {})
    assert not room.hints


def test_every_field_of_a_room_view_is_checked() -> None:
    every_field_is_checked(p.RoomView.from_map, ROOM)
    every_field_is_checked(p.RoomView.from_map, ROOM | {"seed": None})
    every_field_is_checked(p.RoomPlayer.from_map, PLAYER)
    out_of_range(p.RoomPlayer.from_map, PLAYER, "role", ["host"])
    out_of_range(p.RoomView.from_map, ROOM, "seed", [0, 2**31])
    every_field_is_checked(p.RoomPlayer.from_map, PLAYER | {"game": "g7Qx"})
    rated = PLAYER | {"rating": {"rating": 1523, "provisional": False}}
    every_field_is_checked(p.RoomPlayer.from_map, rated, optional={"rating"})
    assert p.RoomPlayer.from_map(rated).to_map() == rated
    out_of_range(p.RoomView.from_map, ROOM, "rated", [0, None])
    out_of_range(p.RoomView.from_map, ROOM, "state", ["racing!", "playing"])
    out_of_range(p.RoomView.from_map, ROOM, "max_players", [0, 9])
    out_of_range(p.RoomView.from_map, ROOM, "host", [0])
    out_of_range(p.RoomView.from_map, ROOM, "boards", ["shown", "after"])
    room = p.RoomView.from_map(ROOM)
    assert room.names() == {1: "alice", 2: "bob"}
    assert room.players[1].game == "g7Qx"
    assert room.to_map() == ROOM


def test_every_field_of_the_race_pushes_is_checked() -> None:
    every_field_is_checked(p.RoomReply.from_map, {"type": "room", "re": 1, "room": ROOM})
    countdown = {"type": "race_countdown", "code": "K7QF2M", "start_in_ms": 3000}
    every_field_is_checked(p.RaceCountdown.from_map, countdown)
    every_field_is_checked(
        p.RaceStarted.from_map,
        {"type": "race_started", "code": "K7QF2M", "game": VIEW},
        optional={"game"},
    )
    watching = p.RaceStarted.from_map({"type": "race_started", "code": "K7QF2M"})
    assert watching.game is None and watching.to_map() == {
        "type": "race_started",
        "code": "K7QF2M",
    }
    every_field_is_checked(p.Progress.from_map, PROGRESS)
    over = {"type": "race_over", "code": "K7QF2M", "standings": [STANDING]}
    every_field_is_checked(p.RaceOver.from_map, over)
    out_of_range(p.Progress.from_map, PROGRESS, "foundation", [-1])
    out_of_range(p.Progress.from_map, PROGRESS, "state", ["winning"])
    out_of_range(p.RaceOver.from_map, over, "standings", [[STANDING | {"rank": 0}]])


def test_pushes_decode_to_their_classes_and_give_their_map_back() -> None:
    from tests.shared.protocol.checks import pack

    decoded = p.decode_reply(pack(PROGRESS))
    assert isinstance(decoded, p.Progress) and decoded.to_map() == PROGRESS
    assert refused_frame(p.REPLIES, {"type": "race_over", "code": "K7QF2M"})
