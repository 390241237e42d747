"""Arenas: timed tournaments on one variant, the same sequence of deals for everyone.

An arena runs from ``starts_ms`` to ``ends_ms`` (milliseconds since the Unix
epoch, UTC). Its deals are keyed: each deal's commitment is shown from the
moment it is drawn, before anyone plays it, and its key only once the arena
is over. Standings travel as :class:`ArenaEntry` (a player's points, their
deals played and won, whether their next win is doubled), the whole table
with each player's results (their games, openable as replays) as
:class:`ArenaTableReply`. docs/protocol.md, "Arenas", is the contract.
"""

from __future__ import annotations

from shared.protocol.arenas.parts import (
    ARENA_STATES,
    CANCELLED,
    DEFAULT_TABLE,
    FINISHED,
    MAX_ARENA_MINUTES,
    MAX_ARENA_NAME,
    MAX_ARENA_START_S,
    MAX_TABLE,
    MIN_ARENA_MINUTES,
    PLAYING_RESULT,
    RUNNING,
    TOP,
    UPCOMING,
    ArenaDeal,
    ArenaEntry,
    ArenaInfo,
    ArenaResult,
    arena_code,
)
from shared.protocol.arenas.replies import (
    ArenaGame,
    ArenaOver,
    ArenaPlace,
    ArenaReply,
    ArenasReply,
    ArenaStandings,
    ArenaTableReply,
)
from shared.protocol.arenas.requests import (
    ArenaBerserk,
    ArenaCreate,
    ArenaJoin,
    ArenaLeave,
    ArenaPlay,
    ArenasRequest,
    ArenaTableRequest,
)

# fmt: off
__all__ = [
    "ARENA_STATES",
    "CANCELLED",
    "DEFAULT_TABLE",
    "FINISHED",
    "MAX_ARENA_MINUTES",
    "MAX_ARENA_NAME",
    "MAX_ARENA_START_S",
    "MAX_TABLE",
    "MIN_ARENA_MINUTES",
    "PLAYING_RESULT",
    "RUNNING",
    "TOP",
    "UPCOMING",
    "ArenaBerserk",
    "ArenaCreate",
    "ArenaDeal",
    "ArenaEntry",
    "ArenaGame",
    "ArenaInfo",
    "ArenaJoin",
    "ArenaLeave",
    "ArenaOver",
    "ArenaPlace",
    "ArenaPlay",
    "ArenaReply",
    "ArenaResult",
    "ArenaStandings",
    "ArenaTableReply",
    "ArenaTableRequest",
    "ArenasReply",
    "ArenasRequest",
    "arena_code",
]
# fmt: on
