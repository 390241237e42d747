"""The replies and pushes of challenges (docs/protocol.md, "Challenges"): a challenge's view
(a reply, or a push when its result is in or a rematch waits), with the asker's game in it,
the ghost, a live match of a race room, the list. What each view may show is the rule of
challenges.py (docs/fair-play.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from shared.protocol.challenges import ChallengeView, MatchView, challenge_id
from shared.protocol.envelope import (
    MAX_ID_LENGTH,
    MAX_PLY,
    Reply,
    nested,
    nested_list,
    reply_to,
    req_choice,
    req_count,
    req_int,
    req_str,
)
from shared.protocol.views import GAME_STATES, GameView


@dataclass(frozen=True, slots=True)
class ChallengeReply(Reply):
    """``challenge``: a ChallengeView, as a reply or a push (its result is in; a rematch is
    waiting for you)."""

    type: ClassVar[str] = "challenge"
    challenge: ChallengeView

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"challenge": self.challenge.to_map()}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(challenge=nested(m, "challenge", ChallengeView.from_map), re=reply_to(m))


@dataclass(frozen=True, slots=True)
class ChallengeGameReply(Reply):
    """``challenge_game``: the challenge and the asker's game in it (accept, rematch)."""

    type: ClassVar[str] = "challenge_game"
    challenge: ChallengeView
    game: GameView

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "challenge": self.challenge.to_map(),
            "game": self.game.to_map(),
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            challenge=nested(m, "challenge", ChallengeView.from_map),
            game=nested(m, "game", GameView.from_map),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class GhostReply(Reply):
    """``ghost``: the challenger at ``elapsed_ms`` of the asker's game: their moves so far,
    cards home, and their game's state then (``playing`` until the moment it ended)."""

    type: ClassVar[str] = "ghost"
    challenge: str
    elapsed_ms: int
    moves: int
    home: int
    state: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "challenge": self.challenge,
            "elapsed_ms": self.elapsed_ms,
            "moves": self.moves,
            "home": self.home,
            "state": self.state,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            challenge=challenge_id(m),
            elapsed_ms=req_count(m, "elapsed_ms"),
            moves=req_int(m, "moves", 0, MAX_PLY),
            home=req_int(m, "home", 0, 1000),
            state=req_choice(m, "state", GAME_STATES),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class MatchReply(Reply):
    """``match``: a live match of a race room, as a reply to ``match_start`` and a push to its
    two players when it starts; its ``room``."""

    type: ClassVar[str] = "match"
    room: str
    match: MatchView

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"room": self.room, "match": self.match.to_map()}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            room=req_str(m, "room", MAX_ID_LENGTH),
            match=nested(m, "match", MatchView.from_map),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class ChallengesReply(Reply):
    """``challenges``: the asker's latest challenges, newest first."""

    type: ClassVar[str] = "challenges"
    challenges: tuple[ChallengeView, ...] = field(default=())

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"challenges": [c.to_map() for c in self.challenges]}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(challenges=nested_list(m, "challenges", ChallengeView.from_map), re=reply_to(m))


# fmt: off
__all__ = [
    "ChallengeGameReply", "ChallengeReply", "ChallengesReply", "GhostReply", "MatchReply",
]
# fmt: on
