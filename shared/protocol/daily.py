"""The daily challenge and its leaderboard.

The reply to ``daily`` is a ``game`` (:class:`~shared.protocol.games.GameReply`)
with its ``daily`` set.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    Reply,
    Request,
    invalid,
    nested,
    nested_list,
    nullable,
    opt_int,
    reply_to,
    req_str,
    request_id,
)
from shared.protocol.games import Standing

#: entries a leaderboard answers at most; a larger ``limit`` is taken as this
MAX_LEADERBOARD = 100
DEFAULT_LEADERBOARD = 50


def day(m: Mapping[str, Any], name: str = "date") -> str:
    """A UTC date as ``YYYY-MM-DD``."""
    raw = req_str(m, name, 10)
    try:
        if len(raw) == 10:
            return datetime.date.fromisoformat(raw).isoformat()
    except ValueError:
        pass
    raise invalid(name, f"must be a date like 2026-11-29, not {raw!r}")


@dataclass(frozen=True, slots=True)
class DailyRequest(Request):
    """Today's deal of a variant: the player's one ranked attempt, started or resumed."""

    type: ClassVar[str] = "daily"
    variant: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"variant": self.variant}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(variant=req_str(m, "variant", MAX_ID_LENGTH), id=request_id(m))


@dataclass(frozen=True, slots=True)
class LeaderboardRequest(Request):
    """A day's ranking of a variant; ``date`` None is the server's today."""

    type: ClassVar[str] = "leaderboard"
    variant: str
    date: str | None = None
    limit: int = DEFAULT_LEADERBOARD

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant, "limit": self.limit}
        if self.date is not None:
            m["date"] = self.date
        return m

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            date=day(m) if "date" in m else None,
            limit=DEFAULT_LEADERBOARD if limit is None else min(limit, MAX_LEADERBOARD),
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class LeaderboardReply(Reply):
    """The best ended attempts of the day, and the player's own (``me``) with its true rank."""

    type: ClassVar[str] = "leaderboard"
    variant: str
    date: str
    entries: tuple[Standing, ...]
    me: Standing | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "variant": self.variant,
            "date": self.date,
            "entries": [entry.to_map() for entry in self.entries],
            "me": None if self.me is None else self.me.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            date=day(m),
            entries=nested_list(m, "entries", Standing.from_map),
            me=nullable(m, "me", lambda m, name: nested(m, name, Standing.from_map)),
            re=reply_to(m),
        )


__all__ = [
    "MAX_LEADERBOARD",
    "DailyRequest",
    "LeaderboardReply",
    "LeaderboardRequest",
    "day",
]
