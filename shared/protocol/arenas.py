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

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    Part,
    Reply,
    Request,
    hex_digest,
    invalid,
    nested,
    nested_list,
    nullable,
    opt_int,
    opt_str,
    present,
    reply_to,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.rooms import CODE_ALPHABET, CODE_LENGTH, CODE_RE
from shared.protocol.session import MAX_NAME_LENGTH
from shared.protocol.views import GAME_STATES, GameView

UPCOMING, RUNNING, FINISHED, CANCELLED = "upcoming", "running", "over", "cancelled"
ARENA_STATES = (UPCOMING, RUNNING, FINISHED, CANCELLED)
#: an arena lasts from five minutes to six hours, and a player's starts within a day
MIN_ARENA_MINUTES = 5
MAX_ARENA_MINUTES = 360
MAX_ARENA_START_S = 86_400
MAX_ARENA_NAME = 64
#: standings entries a push carries (the best), and a table page at most
TOP = 10
DEFAULT_TABLE = 50
MAX_TABLE = 200
#: the state of a result whose deal is still being played
PLAYING_RESULT = "playing"
RESULT_STATES = (*GAME_STATES, PLAYING_RESULT)
MAX_POINTS = 1_000_000
MAX_MS = 10**13


def arena_code(m: Mapping[str, Any], name: str = "code") -> str:
    """An arena code (the alphabet of room codes), upper-cased: a person may type it."""
    raw = req_str(m, name, 16)
    code = raw.upper()
    if not CODE_RE.fullmatch(code):
        raise invalid(name, f"must be {CODE_LENGTH} of {CODE_ALPHABET!r}, not {raw[:16]!r}")
    return code


def _ms(m: Mapping[str, Any], name: str) -> int:
    return req_int(m, name, 0, MAX_MS)


@dataclass(frozen=True, slots=True)
class ArenaInfo(Part):
    """An arena as a list shows it: ``host`` is the name of the player who created a private
    arena (None: the server's operators); ``joined``: the asker has joined it."""

    code: str
    name: str
    variant: str
    starts_ms: int
    ends_ms: int
    state: str
    private: bool
    players: int
    joined: bool
    host: str | None = None

    def to_map(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "variant": self.variant,
            "starts_ms": self.starts_ms,
            "ends_ms": self.ends_ms,
            "state": self.state,
            "private": self.private,
            "players": self.players,
            "joined": self.joined,
            "host": self.host,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=arena_code(m),
            name=req_str(m, "name", MAX_ARENA_NAME),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            starts_ms=_ms(m, "starts_ms"),
            ends_ms=_ms(m, "ends_ms"),
            state=req_choice(m, "state", ARENA_STATES),
            private=req_bool(m, "private"),
            players=req_count(m, "players"),
            joined=req_bool(m, "joined"),
            host=nullable(m, "host", lambda m, n: req_str(m, n, MAX_NAME_LENGTH)),
        )


@dataclass(frozen=True, slots=True)
class ArenaDeal(Part):
    """One deal of the arena's sequence: its commitment from the moment it is drawn, its par
    time, and its key once the arena is over (None before)."""

    seq: int
    commitment: str
    par_ms: int
    key: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = {"seq": self.seq, "commitment": self.commitment, "par_ms": self.par_ms}
        return present(m, key=self.key)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            seq=req_count(m, "seq"),
            commitment=hex_digest(m, "commitment"),
            par_ms=_ms(m, "par_ms"),
            key=hex_digest(m, "key") if "key" in m else None,
        )


@dataclass(frozen=True, slots=True)
class ArenaResult(Part):
    """One deal a player played: its game (``/replay/<game>`` once the arena is over), how it
    ended (``playing`` while it is played), its points, and whether it was played berserk or on
    a streak (its points doubled)."""

    seq: int
    game: str
    state: str
    points: int
    berserk: bool
    on_streak: bool
    time_ms: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            seq=req_count(m, "seq"),
            game=req_str(m, "game", MAX_ID_LENGTH),
            state=req_choice(m, "state", RESULT_STATES),
            points=req_int(m, "points", 0, MAX_POINTS),
            berserk=req_bool(m, "berserk"),
            on_streak=req_bool(m, "on_streak"),
            time_ms=_ms(m, "time_ms"),
        )


@dataclass(frozen=True, slots=True)
class ArenaEntry(Part):
    """A place in the standings: ``rank`` (equal points share one), the player, their points,
    deals finished and won, ``fire``: their next win is doubled. ``results``: their deals, in
    the table only (empty in standings)."""

    rank: int
    player: int
    name: str
    points: int
    played: int
    wins: int
    fire: bool
    results: tuple[ArenaResult, ...] = ()

    def to_map(self) -> dict[str, Any]:
        m = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "points": self.points,
            "played": self.played,
            "wins": self.wins,
            "fire": self.fire,
        }
        if self.results:
            m["results"] = [r.to_map() for r in self.results]
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            rank=req_int(m, "rank", 1, INT64_MAX),
            player=req_int(m, "player", 1, INT64_MAX),
            name=req_str(m, "name", MAX_NAME_LENGTH),
            points=req_int(m, "points", 0, MAX_POINTS),
            played=req_count(m, "played"),
            wins=req_count(m, "wins"),
            fire=req_bool(m, "fire"),
            results=nested_list(m, "results", ArenaResult.from_map) if "results" in m else (),
        )


def _entry(m: Mapping[str, Any], name: str) -> ArenaEntry | None:
    return nullable(m, name, lambda m, n: nested(m, n, ArenaEntry.from_map))


# -- requests ------------------------------------------------------------------------------


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


# -- replies and pushes --------------------------------------------------------------------


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
            me=_entry(m, "me"),
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
            par_ms=_ms(m, "par_ms"),
            allowance_ms=_ms(m, "allowance_ms"),
            berserk=req_bool(m, "berserk"),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ArenaStandings(Reply):
    """Pushed to the players following a running arena when its standings changed, at most
    a few times a second however many play: the best ``top``, how many players in all,
    and the receiver's own entry. ``version`` grows with each change of the table."""

    type: ClassVar[str] = "arena_standings"
    code: str
    version: int
    players: int
    top: tuple[ArenaEntry, ...]
    me: ArenaEntry | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "version": self.version,
            "players": self.players,
            "top": [e.to_map() for e in self.top],
            "me": None if self.me is None else self.me.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=arena_code(m),
            version=req_count(m, "version"),
            players=req_count(m, "players"),
            top=nested_list(m, "top", ArenaEntry.from_map),
            me=_entry(m, "me"),
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
