"""What a rated room refuses, and the ratings shown beside its members' names.

A rated race is rated by the pairwise rule (server/ratings/): only when its
deal is keyed and drawn by the server and every racer is a human player. A
rated room therefore refuses, with ``not_ratable``, whatever would break that:
a bot creating it or joining it to race (a bot may watch), a numbered
deal, at creation or at a race's start, and hints (``hints: true`` at
creation: a ranked result is played by a person unaided, and a hint is the
server's move). The checks run before anything
changes, so a refused request leaves the room as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.errors import NotRatable
from server.net.connection import PlayerInfo
from server.races.state import Member, RoomState
from server.ratings.service import RatingService
from shared import protocol as p


def check_create(player: PlayerInfo, message: p.CreateRoom) -> None:
    if message.rated and message.seed is not None:
        raise NotRatable("a rated race's deal is drawn by the server: create it without seed")
    if message.rated and player.bot:
        raise NotRatable("bots never race in rated rooms")
    if message.rated and message.hints:
        # Every ranked result is played by a person unaided: a hint is the server's move.
        raise NotRatable("a rated race is played without hints: create it without hints")


def check_join(room: RoomState, player: PlayerInfo, role: str) -> None:
    if room.rated and player.bot and role == p.RACER:
        raise NotRatable(f"room {room.code!r} is rated: bots may only watch its races")


def check_start(room: RoomState, racers: Sequence[Member], seed: int | None) -> None:
    if not room.rated:
        return
    if seed is not None:
        raise NotRatable(f"room {room.code!r} is rated: its deals are drawn by the server")
    if any(m.bot for m in racers):  # (joins refuse bots: a room rated since, or a bug)
        raise NotRatable(f"room {room.code!r} is rated: a bot cannot race in it")


async def read_ratings(ratings: RatingService, room: RoomState, members: list[Member]) -> None:
    """The members' ratings on the room's variant, shown beside their names (bots: none)."""
    humans = [m for m in members if not m.bot]
    if not humans:
        return
    found = await ratings.of(room.variant, [m.id for m in humans])
    for member in humans:
        member.rating = found.get(member.id)
