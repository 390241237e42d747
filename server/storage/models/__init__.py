"""The tables: players, games and their actions; rooms and members; daily deals and attempts;
results held for review and what review found of each ranked result; operators' requests;
ratings and their history; matches and challenges; arenas; seasons.

One module per feature; this package imports them all, so that importing it (as
migrations/env.py does) fills the one metadata (:data:`server.storage.engine.metadata`)
with every table, and ``from server.storage.models import X`` finds any of them.
Times are integer milliseconds since the Unix epoch (UTC): portable across databases, and
exactly what ``elapsed_ms`` is computed from. A game's position is never stored: it is
replayed from variant, options, deal (a seed, or a key) and actions, the record of
docs/notation.md.
"""

from __future__ import annotations

from server.storage.models.accounts import Player, TransferCode
from server.storage.models.arenas import Arena, ArenaDeal, ArenaGame, ArenaPlayer
from server.storage.models.base import Base
from server.storage.models.challenges import Challenge, Match
from server.storage.models.dailies import Daily, DailyAttempt
from server.storage.models.games import Game, GameAction, PooledDeal
from server.storage.models.operations import OperatorRequest, Setting
from server.storage.models.ratings import PlayerRating, RatingChange, RatingCount
from server.storage.models.review import Assessment, Review
from server.storage.models.rooms import Room, RoomMember
from server.storage.models.seasons import SeasonClosed, SeasonCount, SeasonDay, SeasonPoints

__all__ = [
    "Arena",
    "ArenaDeal",
    "ArenaGame",
    "ArenaPlayer",
    "Assessment",
    "Base",
    "Challenge",
    "Daily",
    "DailyAttempt",
    "Game",
    "GameAction",
    "Match",
    "OperatorRequest",
    "Player",
    "PlayerRating",
    "PooledDeal",
    "RatingChange",
    "RatingCount",
    "Review",
    "Room",
    "RoomMember",
    "SeasonClosed",
    "SeasonCount",
    "SeasonDay",
    "SeasonPoints",
    "Setting",
    "TransferCode",
]
