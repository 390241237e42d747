"""Season boards: points per daily, summed over this week, this month or all time.

A board is a variant's or every variant's (``variant`` None), for the week,
the month or all time that holds ``date`` (today by default). Points per daily
by place are the server's (docs/seasons.md); entries are best first, equal
points share a rank, and ``me`` is the asker's own place with its true rank.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.daily import day
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_TEXT,
    Part,
    Reply,
    Request,
    nested,
    nested_list,
    nullable,
    opt_int,
    present,
    reply_to,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.ratings import PlayerRating, opt_rating

WEEK, MONTH, ALL_TIME = "week", "month", "all"
PERIODS = (WEEK, MONTH, ALL_TIME)
DEFAULT_SEASON = 50
MAX_SEASON = 100


@dataclass(frozen=True, slots=True)
class SeasonEntry(Part):
    """One place of a season board: true rank, the player, points, dailies played and won,
    and on a variant's board the player's rating on it (absent without one)."""

    rank: int
    player: int
    name: str
    points: int
    dailies: int
    wins: int
    rating: PlayerRating | None = None

    def to_map(self) -> dict[str, Any]:
        m = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "points": self.points,
            "dailies": self.dailies,
            "wins": self.wins,
        }
        return present(m, rating=self.rating)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            rank=req_int(m, "rank", 1, INT64_MAX),
            player=req_int(m, "player", 1, INT64_MAX),
            name=req_str(m, "name", MAX_TEXT),
            points=req_count(m, "points"),
            dailies=req_count(m, "dailies"),
            wins=req_count(m, "wins"),
            rating=opt_rating(m),
        )


@dataclass(frozen=True, slots=True)
class SeasonRequest(Request):
    """``season``: a board of points; ``variant`` None is every variant's, ``date`` None
    today's week or month."""

    type: ClassVar[str] = "season"
    period: str
    variant: str | None = None
    date: str | None = None
    limit: int = DEFAULT_SEASON

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"period": self.period, "limit": self.limit}
        return present(m, variant=self.variant, date=self.date)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        variant = m.get("variant")
        return cls(
            period=req_choice(m, "period", PERIODS),
            variant=None if variant is None else req_str(m, "variant", MAX_ID_LENGTH),
            date=day(m) if m.get("date") is not None else None,
            limit=DEFAULT_SEASON if limit is None else min(limit, MAX_SEASON),
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class SeasonReply(Reply):
    """The board: its period's first and last day (None for all time), best first, and the
    asker's own entry (None: no points on this board)."""

    type: ClassVar[str] = "season"
    period: str
    variant: str | None
    date: str
    first: str | None
    last: str | None
    entries: tuple[SeasonEntry, ...]
    me: SeasonEntry | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "period": self.period,
            "variant": self.variant,
            "date": self.date,
            "first": self.first,
            "last": self.last,
            "entries": [entry.to_map() for entry in self.entries],
            "me": None if self.me is None else self.me.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            period=req_choice(m, "period", PERIODS),
            variant=nullable(m, "variant", lambda m, n: req_str(m, n, MAX_ID_LENGTH)),
            date=day(m),
            first=nullable(m, "first", day),
            last=nullable(m, "last", day),
            entries=nested_list(m, "entries", SeasonEntry.from_map),
            me=nullable(m, "me", lambda m, name: nested(m, name, SeasonEntry.from_map)),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "ALL_TIME",
    "MAX_SEASON",
    "MONTH",
    "PERIODS",
    "WEEK",
    "SeasonEntry",
    "SeasonReply",
    "SeasonRequest",
]
# fmt: on
