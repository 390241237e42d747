"""The arena requests a client sends: list, create, join, leave, play, berserk, a table page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.arenas.parts import (
    DEFAULT_TABLE,
    MAX_ARENA_MINUTES,
    MAX_ARENA_NAME,
    MAX_ARENA_START_S,
    MAX_TABLE,
    MIN_ARENA_MINUTES,
    arena_code,
)
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    Request,
    invalid,
    opt_int,
    opt_str,
    present,
    req_int,
    req_str,
    request_id,
)


@dataclass(frozen=True, slots=True)
class ArenasRequest(Request):
    """The arenas the asker may see: every public one upcoming, running or over in the last
    day, and the private ones they created or joined."""

    type: ClassVar[str] = "arenas"

    def to_map(self) -> dict[str, Any]:
        return self._envelope()

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(id=request_id(m))


@dataclass(frozen=True, slots=True)
class ArenaCreate(Request):
    """A private arena, created by a player: ``minutes`` long, starting ``starts_in_s`` from
    now; its code is the link to share."""

    type: ClassVar[str] = "arena_create"
    variant: str
    minutes: int
    name: str | None = None
    starts_in_s: int = 0

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {
            "variant": self.variant,
            "minutes": self.minutes,
            "starts_in_s": self.starts_in_s,
        }
        return present(m, name=self.name)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        name = opt_str(m, "name", MAX_ARENA_NAME)
        if name is not None and not name.strip():
            raise invalid("name", "cannot be blank")
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            minutes=req_int(m, "minutes", MIN_ARENA_MINUTES, MAX_ARENA_MINUTES),
            name=None if name is None else name.strip(),
            starts_in_s=opt_int(m, "starts_in_s", 0, MAX_ARENA_START_S) or 0,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class _CodeRequest(Request):
    code: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(code=arena_code(m), id=request_id(m))


@dataclass(frozen=True, slots=True)
class ArenaJoin(_CodeRequest):
    """Join an arena (again: joining twice changes nothing) and follow its standings."""

    type: ClassVar[str] = "arena_join"


@dataclass(frozen=True, slots=True)
class ArenaLeave(_CodeRequest):
    """Stop following an arena's standings; points scored stay."""

    type: ClassVar[str] = "arena_leave"


@dataclass(frozen=True, slots=True)
class ArenaPlay(_CodeRequest):
    """The asker's deal in a running arena: the one being played, else the next."""

    type: ClassVar[str] = "arena_play"


@dataclass(frozen=True, slots=True)
class ArenaBerserk(_CodeRequest):
    """Berserk on the deal being played, before its first action: half its time allowance,
    one more point if it is won."""

    type: ClassVar[str] = "arena_berserk"


@dataclass(frozen=True, slots=True)
class ArenaTableRequest(Request):
    """A page of an arena's table, with each player's results."""

    type: ClassVar[str] = "arena_table"
    code: str
    offset: int = 0
    limit: int = DEFAULT_TABLE

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "offset": self.offset, "limit": self.limit}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        return cls(
            code=arena_code(m),
            offset=opt_int(m, "offset", 0, INT64_MAX) or 0,
            limit=DEFAULT_TABLE if limit is None else min(limit, MAX_TABLE),
            id=request_id(m),
        )
