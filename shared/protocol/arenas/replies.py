"""The arena replies and pushes the server sends: the list, an arena, its game, its standings
and its end, a table page."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.arenas.parts import (
    ArenaDeal,
    ArenaEntry,
    ArenaInfo,
    arena_code,
    entry_field,
    ms_field,
)
from shared.protocol.envelope import (
    MAX_ID_LENGTH,
    Reply,
    nested,
    nested_list,
    nullable,
    reply_to,
    req_bool,
    req_count,
    req_str,
)
from shared.protocol.views import GameView


@dataclass(frozen=True, slots=True)
class ArenasReply(Reply):
    type: ClassVar[str] = "arenas"
    arenas: tuple[ArenaInfo, ...]

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"arenas": [a.to_map() for a in self.arenas]}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(arenas=nested_list(m, "arenas", ArenaInfo.from_map), re=reply_to(m))


@dataclass(frozen=True, slots=True)
class ArenaReply(Reply):
    """An arena: what it is, its deals so far, its best ``top``, the asker's own entry (None
    before their first finished deal) and ``game``, the deal they are playing (if any).
    The reply to ``arena_create`` and ``arena_join``; pushed as ``arena_over`` (below)."""

    type: ClassVar[str] = "arena"
    arena: ArenaInfo
    deals: tuple[ArenaDeal, ...]
    top: tuple[ArenaEntry, ...]
    me: ArenaEntry | None
    game: str | None = None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "arena": self.arena.to_map(),
            "deals": [d.to_map() for d in self.deals],
            "top": [e.to_map() for e in self.top],
            "me": None if self.me is None else self.me.to_map(),
            "game": self.game,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            arena=nested(m, "arena", ArenaInfo.from_map),
            deals=nested_list(m, "deals", ArenaDeal.from_map),
            top=nested_list(m, "top", ArenaEntry.from_map),
            me=entry_field(m, "me"),
            game=nullable(m, "game", lambda m, n: req_str(m, n, MAX_ID_LENGTH)),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ArenaOver(ArenaReply):
    """Pushed to every participant following the arena when it ends (or is cancelled):
    the final standings, and every deal with its key."""

    type: ClassVar[str] = "arena_over"


@dataclass(frozen=True, slots=True)
class ArenaGame(Reply):
    """The asker's deal in an arena: its ``seq`` in the sequence, its game, its par time,
    its time allowance (halved by berserk) and whether it is played berserk."""

    type: ClassVar[str] = "arena_game"
    code: str
    seq: int
    game: GameView
    par_ms: int
    allowance_ms: int
    berserk: bool

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "seq": self.seq,
            "game": self.game.to_map(),
            "par_ms": self.par_ms,
            "allowance_ms": self.allowance_ms,
            "berserk": self.berserk,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=arena_code(m),
            seq=req_count(m, "seq"),
            game=nested(m, "game", GameView.from_map),
            par_ms=ms_field(m, "par_ms"),
            allowance_ms=ms_field(m, "allowance_ms"),
            berserk=req_bool(m, "berserk"),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ArenaStandings(Reply):
    """Pushed to the players following a running arena when what it shows changed (its
    top or count), at most a few times a second however many play: the best ``top`` and how
    many players in all, the same bytes for every follower (each one's own place comes
    apart, as :class:`ArenaPlace`, and only when it changed). ``version``: the table's, which
    grows with each change (those no standings show are not pushed); ``at_ms`` is the
    server's time when this version was pushed."""

    type: ClassVar[str] = "arena_standings"
    code: str
    version: int
    players: int
    top: tuple[ArenaEntry, ...]
    at_ms: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "version": self.version,
            "players": self.players,
            "top": [e.to_map() for e in self.top],
            "at_ms": self.at_ms,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=arena_code(m),
            version=req_count(m, "version"),
            players=req_count(m, "players"),
            top=nested_list(m, "top", ArenaEntry.from_map),
            at_ms=ms_field(m, "at_ms"),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ArenaPlace(Reply):
    """Pushed to a player following a running arena when their own entry changed (their
    points, or their rank as others passed them or fell behind), with the standings push of
    that ``version``; ``me`` is None once they are no longer in the table (a ban)."""

    type: ClassVar[str] = "arena_place"
    code: str
    version: int
    me: ArenaEntry | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "version": self.version,
            "me": None if self.me is None else self.me.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=arena_code(m),
            version=req_count(m, "version"),
            me=entry_field(m, "me"),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ArenaTableReply(Reply):
    """A page of the table (best first, from ``offset``), ``total`` players in all, and the
    deals (with their keys once the arena is over)."""

    type: ClassVar[str] = "arena_table"
    arena: ArenaInfo
    deals: tuple[ArenaDeal, ...]
    entries: tuple[ArenaEntry, ...]
    offset: int
    total: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "arena": self.arena.to_map(),
            "deals": [d.to_map() for d in self.deals],
            "entries": [e.to_map() for e in self.entries],
            "offset": self.offset,
            "total": self.total,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            arena=nested(m, "arena", ArenaInfo.from_map),
            deals=nested_list(m, "deals", ArenaDeal.from_map),
            entries=nested_list(m, "entries", ArenaEntry.from_map),
            offset=req_count(m, "offset"),
            total=req_count(m, "total"),
            re=reply_to(m),
        )
