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
    MAX_PLY,
    MAX_TEXT,
    Part,
    Reply,
    Request,
    invalid,
    nested,
    nested_list,
    nullable,
    opt_int,
    present,
    reply_to,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.ratings import PlayerRating, opt_rating
from shared.protocol.views import GAME_STATES

#: entries a leaderboard answers at most; a larger ``limit`` is taken as this
MAX_LEADERBOARD = 100
DEFAULT_LEADERBOARD = 50


#: a result held for review, and one an operator confirmed (it stays out of the rankings)
PENDING, CONFIRMED = "pending", "confirmed"
REVIEWS = (PENDING, CONFIRMED)


@dataclass(frozen=True, slots=True)
class Standing(Part):
    """One player's ranked result: a race's standing, or an entry of a daily leaderboard.

    ``review`` is set on a result held for review; ``rank`` is None only on a
    held daily attempt, shown to its own player as the leaderboard's ``me``.
    ``foundation`` is the cards home, what ranks a game that was not won.
    """

    rank: int | None
    player: int
    name: str
    state: str
    elapsed_ms: int
    moves: int
    score: int
    undos: int
    foundation: int
    review: str | None = None
    #: the player's rating on the variant (race standings: with the race's change)
    rating: PlayerRating | None = None

    def to_map(self) -> dict[str, Any]:
        m = {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "state": self.state,
            "elapsed_ms": self.elapsed_ms,
            "moves": self.moves,
            "score": self.score,
            "undos": self.undos,
            "foundation": self.foundation,
        }
        return present(m, review=self.review, rating=self.rating)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            rank=nullable(m, "rank", lambda m, name: req_int(m, name, 1, INT64_MAX)),
            player=req_int(m, "player", 1, INT64_MAX),
            name=req_str(m, "name", MAX_TEXT),
            state=req_choice(m, "state", GAME_STATES),
            elapsed_ms=req_count(m, "elapsed_ms"),
            moves=req_int(m, "moves", 0, MAX_PLY),
            score=req_count(m, "score"),
            undos=req_int(m, "undos", 0, MAX_PLY),
            foundation=req_count(m, "foundation"),
            review=req_choice(m, "review", REVIEWS) if "review" in m else None,
            rating=opt_rating(m),
        )


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
    """Today's deal of a variant: the player's one ranked attempt, resumed, or started with
    ``start`` (without it, a player who has no attempt yet gets :class:`DailyIntro`: nothing
    is dealt and no clock runs before the player starts); with ``practice``, a new unranked
    game on the same deal once the attempt has ended. With ``date``, a day before today:
    a new unranked game on that day's deal (the archive; its key is public by then)."""

    type: ClassVar[str] = "daily"
    variant: str
    practice: bool = False
    start: bool = False
    date: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant}
        return present(m, practice=self.practice or None, start=self.start or None, date=self.date)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            practice=req_bool(m, "practice") if "practice" in m else False,
            start=req_bool(m, "start") if "start" in m else False,
            date=day(m) if m.get("date") is not None else None,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class DailyIntro(Reply):
    """The start step of today's daily for a player who has not started it: the game, the
    day, the player's streak and the deal's commitment (None for a numbered deal); no card."""

    type: ClassVar[str] = "daily_intro"
    variant: str
    date: str
    daily_streak: int
    commitment: str | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "variant": self.variant,
            "date": self.date,
            "daily_streak": self.daily_streak,
            "commitment": self.commitment,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            date=day(m),
            daily_streak=req_count(m, "daily_streak"),
            commitment=nullable(m, "commitment", lambda m, name: req_str(m, name, 64)),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class LeaderboardRequest(Request):
    """A day's ranking of a variant; ``date`` None is the server's today."""

    type: ClassVar[str] = "leaderboard"
    variant: str
    date: str | None = None
    limit: int = DEFAULT_LEADERBOARD

    def to_map(self) -> dict[str, Any]:
        return present(
            self._envelope() | {"variant": self.variant, "limit": self.limit}, date=self.date
        )

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


# fmt: off
__all__ = [
    "CONFIRMED", "MAX_LEADERBOARD", "PENDING", "REVIEWS", "DailyIntro", "DailyRequest",
    "LeaderboardReply",
    "LeaderboardRequest", "Standing", "day",
]
# fmt: on
