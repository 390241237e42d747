"""Ratings: a player's rating as it is shown beside their name, and the rating board.

A rating travels rounded to whole points: the deviation only says whether it
is provisional (shown with "?", deviation 110 and above), and ``change`` is
set only where a race just moved it (``race_over`` standings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

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
    req_bool,
    req_count,
    req_int,
    req_str,
    request_id,
)

#: ratings live well inside these bounds (Glicko-2 from 1500 moves by hundreds)
MAX_RATING = 10_000
MAX_RATING_CHANGE = 10_000
#: entries of a rating board, by default and at most
DEFAULT_RATINGS = 20
MAX_RATINGS = 100


@dataclass(frozen=True, slots=True)
class PlayerRating(Part):
    """A rating shown beside a name: ``rating`` rounded, ``provisional`` ("?"), and in race
    standings the ``change`` the race made (None elsewhere, and for a racer not rated)."""

    rating: int
    provisional: bool
    change: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = {"rating": self.rating, "provisional": self.provisional}
        return present(m, change=self.change)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            rating=req_int(m, "rating", -MAX_RATING, MAX_RATING),
            provisional=req_bool(m, "provisional"),
            change=opt_int(m, "change", -MAX_RATING_CHANGE, MAX_RATING_CHANGE),
        )

    def label(self) -> str:
        """ "1523", "1500?", "1523 +14": what the clients show beside a name."""
        text = f"{self.rating}{'?' if self.provisional else ''}"
        if self.change is None:
            return text
        return f"{text} {self.change:+d}"


def opt_rating(m: Mapping[str, Any], name: str = "rating") -> PlayerRating | None:
    """An optional ``rating`` field: absent means no rating to show."""
    return nested(m, name, PlayerRating.from_map) if name in m else None


@dataclass(frozen=True, slots=True)
class RatingEntry(Part):
    """One place of a rating board: its true rank, the player, their rating and rated races."""

    rank: int
    player: int
    name: str
    rating: PlayerRating
    games: int

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            rank=req_int(m, "rank", 1, INT64_MAX),
            player=req_int(m, "player", 1, INT64_MAX),
            name=req_str(m, "name", MAX_TEXT),
            rating=nested(m, "rating", PlayerRating.from_map),
            games=req_count(m, "games"),
        )

    def to_map(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "rating": self.rating.to_map(),
            "games": self.games,
        }


@dataclass(frozen=True, slots=True)
class RatingsRequest(Request):
    """The rating board of a variant: its best ``limit`` ratings and the asker's own place."""

    type: ClassVar[str] = "ratings"
    variant: str
    limit: int = DEFAULT_RATINGS

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"variant": self.variant, "limit": self.limit}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            limit=DEFAULT_RATINGS if limit is None else min(limit, MAX_RATINGS),
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class RatingsReply(Reply):
    """The board (best first; equal ratings share a rank) and ``me``: the asker's entry with
    its true rank, None when the asker has no rating on this variant."""

    type: ClassVar[str] = "ratings"
    variant: str
    entries: tuple[RatingEntry, ...]
    me: RatingEntry | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "variant": self.variant,
            "entries": [entry.to_map() for entry in self.entries],
            "me": None if self.me is None else self.me.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            entries=nested_list(m, "entries", RatingEntry.from_map),
            me=nullable(m, "me", lambda m, name: nested(m, name, RatingEntry.from_map)),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "DEFAULT_RATINGS", "MAX_RATINGS", "PlayerRating", "RatingEntry", "RatingsReply",
    "RatingsRequest", "opt_rating",
]
# fmt: on
