"""The parts of the arena messages: an arena, its deals, a result and a standings entry,
with the limits every arena message checks."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    Part,
    hex_digest,
    invalid,
    nested,
    nested_list,
    nullable,
    present,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
)
from shared.protocol.rooms import CODE_ALPHABET, CODE_LENGTH, CODE_RE
from shared.protocol.session import MAX_NAME_LENGTH
from shared.protocol.views import GAME_STATES

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


def ms_field(m: Mapping[str, Any], name: str) -> int:
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
            starts_ms=ms_field(m, "starts_ms"),
            ends_ms=ms_field(m, "ends_ms"),
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
            par_ms=ms_field(m, "par_ms"),
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
            time_ms=ms_field(m, "time_ms"),
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


def entry_field(m: Mapping[str, Any], name: str) -> ArenaEntry | None:
    return nullable(m, name, lambda m, n: nested(m, n, ArenaEntry.from_map))
