"""The error codes of docs/protocol.md, and which of them are the client's own mistakes.

``internal``, ``too_many_rooms`` and ``no_racers`` are this server's
additions (docs/protocol.md).
"""

from __future__ import annotations

BAD_MESSAGE = "bad_message"
UNKNOWN_TYPE = "unknown_type"
INVALID_FIELD = "invalid_field"
HELLO_FIRST = "hello_first"
PROTOCOL_MISMATCH = "protocol_mismatch"
BAD_TOKEN = "bad_token"
BANNED = "banned"
NAME_TAKEN = "name_taken"
#: ``hello`` registering a name that looks like a player's (the same confusable skeleton)
NAME_LOOKS_TAKEN = "name_looks_taken"
INVALID_NAME = "invalid_name"
ALREADY_WELCOMED = "already_welcomed"
STALE_PLY = "stale_ply"
ILLEGAL_MOVE = "illegal_move"
FORBIDDEN = "forbidden"
NOT_FOUND = "not_found"
GAME_OVER = "game_over"
DAILY_OPEN = "daily_open"
RACE_LOCKED = "race_locked"
TOO_MANY_ACCOUNTS = "too_many_accounts"
TOO_MANY_ACTIONS = "too_many_actions"
HINTS_OFF = "hints_off"
BUSY = "busy"
RATE_LIMITED = "rate_limited"
ROOM_FULL = "room_full"
NOT_HOST = "not_host"
RACE_IN_PROGRESS = "race_in_progress"
NOT_IN_ROOM = "not_in_room"
#: ``start_race`` when no racer of the room is connected to race
NO_RACERS = "no_racers"
#: a player is in too many rooms to create or join another
TOO_MANY_ROOMS = "too_many_rooms"
#: a rated room refused what would make its races unratable: a bot racer, a numbered deal
NOT_RATABLE = "not_ratable"
#: a game that cannot be sent as a challenge, or a challenge this player cannot answer
NOT_CHALLENGEABLE = "not_challengeable"
#: an arena that is not running (not started yet, over, cancelled) refused a deal or berserk
ARENA_NOT_RUNNING = "arena_not_running"
#: a request on an arena the asker has not joined
NOT_IN_ARENA = "not_in_arena"
#: the server failed; nothing was stored
INTERNAL = "internal"

#: codes that are the client's own mistake: they count towards the close with 1008
CLIENT_FAULTS = frozenset({BAD_MESSAGE, UNKNOWN_TYPE, INVALID_FIELD, HELLO_FIRST})


# fmt: off
__all__ = [
    "ALREADY_WELCOMED",
    "ARENA_NOT_RUNNING",
    "BAD_MESSAGE",
    "BAD_TOKEN",
    "BANNED",
    "BUSY",
    "CLIENT_FAULTS",
    "DAILY_OPEN",
    "FORBIDDEN",
    "GAME_OVER",
    "HELLO_FIRST",
    "HINTS_OFF",
    "ILLEGAL_MOVE",
    "INTERNAL",
    "INVALID_FIELD",
    "INVALID_NAME",
    "NAME_LOOKS_TAKEN",
    "NAME_TAKEN",
    "NOT_CHALLENGEABLE",
    "NOT_FOUND",
    "NOT_HOST",
    "NOT_IN_ARENA",
    "NOT_IN_ROOM",
    "NOT_RATABLE",
    "NO_RACERS",
    "PROTOCOL_MISMATCH",
    "RACE_IN_PROGRESS",
    "RACE_LOCKED",
    "RATE_LIMITED",
    "ROOM_FULL",
    "STALE_PLY",
    "TOO_MANY_ACCOUNTS",
    "TOO_MANY_ACTIONS",
    "TOO_MANY_ROOMS",
    "UNKNOWN_TYPE",
]
# fmt: on
