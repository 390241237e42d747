"""Profiles: a player's page (``profile``) and whether others may see it (``profile_settings``).

What a profile holds is the server's to read from the database: ratings and
their history (the client draws the chart), each variant's games, wins, best
and median winning time and daily streaks, the daily places, arena results,
and the recent games whose deals are public (each openable as a replay). A
player who hides their profile is shown to others by name only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.daily import day
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_TEXT,
    Part,
    Reply,
    Request,
    nested,
    nested_list,
    nullable,
    reply_to,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.ratings import MAX_RATING, PlayerRating
from shared.protocol.session import MAX_NAME_LENGTH, PlayerInfo
from shared.protocol.views import GAME_STATES

#: rating changes a profile carries per variant, the latest; daily places; recent games
MAX_HISTORY = 200
MAX_PLACES = 60
MAX_RECENT = 20
MAX_ARENAS = 20


@dataclass(frozen=True, slots=True)
class RatingPoint(Part):
    """The rating after one rated race: when, the rating and its deviation, rounded."""

    at_ms: int
    rating: int
    deviation: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            at_ms=req_count(m, "at_ms"),
            rating=req_int(m, "rating", -MAX_RATING, MAX_RATING),
            deviation=req_int(m, "deviation", 0, MAX_RATING),
        )


@dataclass(frozen=True, slots=True)
class ProfileRating(Part):
    """A variant's rating now, its rated races, and its history oldest first (the chart)."""

    variant: str
    rating: PlayerRating
    games: int
    history: tuple[RatingPoint, ...]

    def to_map(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "rating": self.rating.to_map(),
            "games": self.games,
            "history": [point.to_map() for point in self.history],
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            rating=nested(m, "rating", PlayerRating.from_map),
            games=req_count(m, "games"),
            history=nested_list(m, "history", RatingPoint.from_map),
        )


@dataclass(frozen=True, slots=True)
class ProfileVariant(Part):
    """A variant's games: played, won, the best and the median winning time, and the daily
    streak on it now and at its best (consecutive days with a won daily)."""

    variant: str
    played: int
    won: int
    best_ms: int | None
    median_ms: int | None
    streak: int
    best_streak: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            played=req_count(m, "played"),
            won=req_count(m, "won"),
            best_ms=nullable(m, "best_ms", req_count),
            median_ms=nullable(m, "median_ms", req_count),
            streak=req_count(m, "streak"),
            best_streak=req_count(m, "best_streak"),
        )


@dataclass(frozen=True, slots=True)
class DailyPlace(Part):
    """One daily the player played: how it ended, its final place (None while its day is
    open, or when it is not listed) and the season points it earned."""

    variant: str
    date: str
    state: str
    place: int | None
    points: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            date=day(m),
            state=req_choice(m, "state", GAME_STATES),
            place=nullable(m, "place", lambda m, n: req_int(m, n, 1, INT64_MAX)),
            points=req_count(m, "points"),
        )


@dataclass(frozen=True, slots=True)
class RecentGame(Part):
    """An ended game whose deal is public, openable as a replay at ``/replay/<id>``."""

    id: str
    variant: str
    kind: str
    state: str
    ended_ms: int
    elapsed_ms: int
    moves: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_str(m, "id", MAX_ID_LENGTH),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            kind=req_str(m, "kind", MAX_ID_LENGTH),
            state=req_choice(m, "state", GAME_STATES),
            ended_ms=req_count(m, "ended_ms"),
            elapsed_ms=req_count(m, "elapsed_ms"),
            moves=req_int(m, "moves", 0, MAX_PLY),
        )


@dataclass(frozen=True, slots=True)
class ProfileArena(Part):
    """An arena the player played, once it is over: its code and name, the variant, the final
    place (equal points share one) and points."""

    arena: str
    name: str
    variant: str
    place: int
    points: int
    ended_ms: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            arena=req_str(m, "arena", MAX_ID_LENGTH),
            name=req_str(m, "name", MAX_TEXT),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            place=req_int(m, "place", 1, INT64_MAX),
            points=req_count(m, "points"),
            ended_ms=req_count(m, "ended_ms"),
        )


@dataclass(frozen=True, slots=True)
class ProfileRequest(Request):
    """``profile``: the profile of the player called ``name`` (any case)."""

    type: ClassVar[str] = "profile"
    name: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"name": self.name}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(name=req_str(m, "name", MAX_NAME_LENGTH), id=request_id(m))


@dataclass(frozen=True, slots=True)
class ProfileReply(Reply):
    """A profile. ``hidden``: its player hides it; then only its owner gets the rest (others
    get empty lists and zero streaks). ``mine``: the asker is its player."""

    type: ClassVar[str] = "profile"
    player: PlayerInfo
    hidden: bool
    mine: bool
    ratings: tuple[ProfileRating, ...] = ()
    variants: tuple[ProfileVariant, ...] = ()
    streak: int = 0
    best_streak: int = 0
    dailies: tuple[DailyPlace, ...] = ()
    arenas: tuple[ProfileArena, ...] = ()
    recent: tuple[RecentGame, ...] = ()

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "player": self.player.to_map(),
            "hidden": self.hidden,
            "mine": self.mine,
            "ratings": [r.to_map() for r in self.ratings],
            "variants": [v.to_map() for v in self.variants],
            "streak": self.streak,
            "best_streak": self.best_streak,
            "dailies": [d.to_map() for d in self.dailies],
            "arenas": [a.to_map() for a in self.arenas],
            "recent": [g.to_map() for g in self.recent],
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            player=nested(m, "player", PlayerInfo.from_map),
            hidden=req_bool(m, "hidden"),
            mine=req_bool(m, "mine"),
            ratings=nested_list(m, "ratings", ProfileRating.from_map),
            variants=nested_list(m, "variants", ProfileVariant.from_map),
            streak=req_count(m, "streak"),
            best_streak=req_count(m, "best_streak"),
            dailies=nested_list(m, "dailies", DailyPlace.from_map),
            arenas=nested_list(m, "arenas", ProfileArena.from_map),
            recent=nested_list(m, "recent", RecentGame.from_map),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ProfileSettings(Request):
    """``profile_settings``: hide the asker's profile from everyone else, or show it again.
    Answered ``ok``."""

    type: ClassVar[str] = "profile_settings"
    hidden: bool

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"hidden": self.hidden}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(hidden=req_bool(m, "hidden"), id=request_id(m))


# fmt: off
__all__ = [
    "MAX_ARENAS", "MAX_HISTORY", "MAX_PLACES", "MAX_RECENT", "DailyPlace", "ProfileArena",
    "ProfileRating", "ProfileReply", "ProfileRequest", "ProfileSettings", "ProfileVariant",
    "RatingPoint", "RecentGame",
]
# fmt: on
