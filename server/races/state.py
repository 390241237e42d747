"""A race room's state: its members (racers and spectators), host, race, its row."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Container, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shared import protocol as p
from shared.protocol import COUNTDOWN, OVER, RACING, WAITING

if TYPE_CHECKING:
    from server.storage.models import Room

__all__ = ["COUNTDOWN", "OVER", "RACING", "WAITING", "Member", "RoomState", "new_code"]


def new_code() -> str:
    return "".join(secrets.choice(p.CODE_ALPHABET) for _ in range(p.CODE_LENGTH))


@dataclass(eq=False)
class Member:
    id: int
    name: str
    joined_ms: int
    seq: int
    #: racer or spectator, fixed until the member leaves
    role: str = p.RACER
    bot: bool = False
    #: their rating on the room's variant as last read (None: none yet, or not read yet)
    rating: p.PlayerRating | None = None

    @property
    def racer(self) -> bool:
        return self.role == p.RACER


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
    #: hints allowed in its races
    hints: bool = False
    #: its races are rated: keyed deals the server draws, human racers only
    rated: bool = False
    #: what watchers see of the racers' boards while it races (a rated room: hidden)
    boards: str = p.LIVE
    #: its races deal winnable deals of this difficulty (the deal pool's); None: any deal
    difficulty: str | None = None
    state: str = WAITING
    members: list[Member] = field(default_factory=list)
    race: int = 0
    #: the deal of the current (or last) race: a seed, or a key (hex)
    race_seed: int | None = None
    race_key: str | None = None
    race_start_ms: int | None = None
    #: the racers dealt a game in the current (or last) race: player id -> game id
    racers: dict[int, str] = field(default_factory=dict)
    countdown: asyncio.Task[None] | None = None
    standings: tuple[p.Standing, ...] | None = None
    #: the last change saved
    touched_ms: int = 0
    #: when its last race ended here (by the server's clock; resynchronisation resends
    #: ``race_over`` of races that ended while Redis was lost)
    over_ms: int | None = None
    #: the fencing token this node took with the room's lease (the row's ``fence`` then):
    #: its saves change the row only while no node has taken the room since
    fence: int = 0
    #: its row exists (a new room's first save inserts it)
    stored: bool = False
    #: one save at a time, in order
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @classmethod
    def from_row(cls, row: Room, members: Sequence[Member]) -> RoomState:
        """The room as saved: its row and its members in joining order."""
        return cls(
            code=row.code,
            variant=row.variant,
            options=dict(row.options),
            host=row.host_id,
            max_players=row.max_players,
            time_limit_s=row.time_limit_s,
            seed=row.seed,
            created_ms=row.created_ms,
            hints=row.hints,
            rated=row.rated,
            boards=row.boards,
            difficulty=row.difficulty,
            state=row.state,
            members=list(members),
            race=row.race,
            race_seed=row.race_seed,
            race_key=row.race_key,
            race_start_ms=row.race_start_ms,
            racers={int(k): str(v) for k, v in row.racers.items()},
            touched_ms=row.updated_ms,
            fence=row.fence,
            stored=True,
        )

    def view(self, online: Container[int]) -> p.RoomView:
        """RoomView of docs/protocol.md; each racer also carries their game in the current race."""
        return p.RoomView(
            code=self.code,
            variant=self.variant,
            options=dict(self.options),  # merged over the defaults when the room was made
            host=self.host,
            players=tuple(
                p.RoomPlayer(
                    m.id,
                    m.name,
                    m.id in online,
                    self.racers.get(m.id),
                    role=m.role,
                    bot=m.bot,
                    rating=m.rating,
                )
                for m in self.members
            ),
            state=self.state,
            max_players=self.max_players,
            time_limit_s=self.time_limit_s,
            race=self.race,
            hints=self.hints,
            seed=self.shown_seed,
            rated=self.rated,
            boards=p.HIDDEN if self.rated else self.boards,
            difficulty=self.difficulty,
        )

    @property
    def shown_seed(self) -> int | None:
        """The numbered deal of the current or last race, or of the first before it starts;
        None when that race is keyed (RoomView's ``seed``)."""
        return self.seed if self.race == 0 else self.race_seed

    def member(self, player_id: int) -> Member | None:
        return next((m for m in self.members if m.id == player_id), None)

    def count(self, role: str) -> int:
        return sum(1 for m in self.members if m.role == role)

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
            "hints": self.hints,
            "rated": self.rated,
            "boards": self.boards,
            "difficulty": self.difficulty,
            "race": self.race,
            "race_seed": self.race_seed,
            "race_key": self.race_key,
            "race_start_ms": self.race_start_ms,
            "racers": {str(k): v for k, v in self.racers.items()},
            "created_ms": self.created_ms,
            "updated_ms": now_ms,
            "fence": self.fence,
        }
