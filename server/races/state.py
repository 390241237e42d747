"""A race room's state: its members, host, race and watchers, and the row it is saved as."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection
    from server.storage.models import Room

WAITING, COUNTDOWN, RACING, OVER = "waiting", "countdown", "racing", "over"


def new_code() -> str:
    return "".join(secrets.choice(p.CODE_ALPHABET) for _ in range(p.CODE_LENGTH))


@dataclass(eq=False)
class Member:
    id: int
    name: str
    joined_ms: int
    seq: int


@dataclass(eq=False)
class RoomState:
    code: str
    variant: str
    options: dict[str, bool | int]
    host: int
    max_players: int
    time_limit_s: int
    seed: int | None
    created_ms: int
    state: str = WAITING
    members: list[Member] = field(default_factory=list)
    race: int = 0
    race_seed: int | None = None
    race_start_ms: int | None = None
    #: the current (or last) race's racers: player id -> game id
    racers: dict[int, str] = field(default_factory=dict)
    #: watched player -> connections following their board
    watchers: dict[int, set[Connection]] = field(default_factory=dict)
    countdown: asyncio.Task[None] | None = None
    standings: tuple[p.Standing, ...] | None = None
    #: the last change saved
    touched_ms: int = 0
    #: one save at a time, in order
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def from_row(cls, row: Room, members: Sequence[tuple[int, str, int, int]]) -> RoomState:
        """The room as saved: its row and its members ``(player, name, joined_ms, seq)``."""
        return cls(
            code=row.code,
            variant=row.variant,
            options=dict(row.options),
            host=row.host_id,
            max_players=row.max_players,
            time_limit_s=row.time_limit_s,
            seed=row.seed,
            created_ms=row.created_ms,
            state=row.state,
            members=[Member(pid, name, joined, seq) for pid, name, joined, seq in members],
            race=row.race,
            race_seed=row.race_seed,
            race_start_ms=row.race_start_ms,
            racers={int(k): str(v) for k, v in row.racers.items()},
            touched_ms=row.updated_ms,
        )

    def view(self, online: Container[int]) -> p.RoomView:
        """RoomView of protocol.md; each player also carries their game in the current race."""
        return p.RoomView(
            code=self.code,
            variant=self.variant,
            options=dict(self.options),  # merged over the defaults when the room was made
            host=self.host,
            players=tuple(
                p.RoomPlayer(m.id, m.name, m.id in online, self.racers.get(m.id))
                for m in self.members
            ),
            state=self.state,
            max_players=self.max_players,
            time_limit_s=self.time_limit_s,
            race=self.race,
        )

    def member(self, player_id: int) -> Member | None:
        return next((m for m in self.members if m.id == player_id), None)

    def row(self, now_ms: int) -> dict[str, Any]:
        return {
            "code": self.code,
            "variant": self.variant,
            "options": self.options,
            "host_id": self.host,
            "state": self.state,
            "max_players": self.max_players,
            "time_limit_s": self.time_limit_s,
            "seed": self.seed,
            "race": self.race,
            "race_seed": self.race_seed,
            "race_start_ms": self.race_start_ms,
            "racers": {str(k): v for k, v in self.racers.items()},
            "created_ms": self.created_ms,
            "updated_ms": now_ms,
        }
