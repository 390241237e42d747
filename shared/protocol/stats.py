"""A player's statistics: games played and won per variant, best results, daily streak."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    Part,
    Reply,
    Request,
    nested,
    nested_list,
    nullable,
    opt_int,
    present,
    reply_to,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.session import PlayerInfo


@dataclass(frozen=True, slots=True)
class StatsRequest(Request):
    """``stats``: a player's statistics; the asking player's own when ``player`` is None."""

    type: ClassVar[str] = "stats"
    player: int | None = None

    def to_map(self) -> dict[str, Any]:
        return present(self._envelope(), player=self.player)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(player=opt_int(m, "player", 1, INT64_MAX), id=request_id(m))


@dataclass(frozen=True, slots=True)
class VariantStats(Part):
    """One variant's games: played, won, and the best won game's time and moves."""

    variant: str
    played: int
    won: int
    best_ms: int | None
    fewest_moves: int | None

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            played=req_count(m, "played"),
            won=req_count(m, "won"),
            best_ms=nullable(m, "best_ms", req_count),
            fewest_moves=nullable(m, "fewest_moves", lambda m, n: req_int(m, n, 0, MAX_PLY)),
        )


@dataclass(frozen=True, slots=True)
class StatsReply(Reply):
    """Only the variants the player has played, in variant id order."""

    type: ClassVar[str] = "stats"
    player: PlayerInfo
    variants: tuple[VariantStats, ...]
    dailies_won: int
    daily_streak: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "player": self.player.to_map(),
            "variants": [row.to_map() for row in self.variants],
            "dailies_won": self.dailies_won,
            "daily_streak": self.daily_streak,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            player=nested(m, "player", PlayerInfo.from_map),
            variants=nested_list(m, "variants", VariantStats.from_map),
            dailies_won=req_count(m, "dailies_won"),
            daily_streak=req_count(m, "daily_streak"),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "StatsReply", "StatsRequest", "VariantStats",
]
# fmt: on
