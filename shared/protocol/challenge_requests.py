"""The requests of challenges (docs/protocol.md, "Challenges"): send a finished game, look
at a challenge, answer it, ask for the ghost, a rematch, the list, a live match in a race
room. Each checks its fields here; who may ask what is the server's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.challenges import BEST_OF, DEFAULT_CHALLENGES, MAX_CHALLENGES, challenge_id
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    Request,
    invalid,
    opt_int,
    req_int,
    req_str,
    request_id,
)


@dataclass(frozen=True, slots=True)
class ChallengeCreate(Request):
    """Send one of the asker's finished games as a challenge: the first round of a match of
    ``best_of`` rounds (1, 3 or 5)."""

    type: ClassVar[str] = "challenge_create"
    game: str
    best_of: int = 1

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game, "best_of": self.best_of}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        best_of = req_int(m, "best_of", 1, 5) if "best_of" in m else 1
        if best_of not in BEST_OF:
            raise invalid("best_of", f"must be 1, 3 or 5, not {best_of}")
        return cls(game=req_str(m, "game", MAX_ID_LENGTH), best_of=best_of, id=request_id(m))


@dataclass(frozen=True, slots=True)
class ChallengeRequest(Request):
    """A request about one challenge, by its id."""

    challenge: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"challenge": self.challenge}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(challenge=challenge_id(m), id=request_id(m))


@dataclass(frozen=True, slots=True)
class ChallengeGet(ChallengeRequest):
    """The challenge as the asker may see it (anyone with its id)."""

    type: ClassVar[str] = "challenge_get"


@dataclass(frozen=True, slots=True)
class ChallengeAccept(ChallengeRequest):
    """Play the challenge: a new game on its deal (or the asker's game in it, again)."""

    type: ClassVar[str] = "challenge_accept"


@dataclass(frozen=True, slots=True)
class ChallengeGhost(ChallengeRequest):
    """Where the challenger was at the elapsed time of the asker's game in the challenge."""

    type: ClassVar[str] = "challenge_ghost"


@dataclass(frozen=True, slots=True)
class ChallengeRematch(ChallengeRequest):
    """Answer a challenge that is done: the next round of its match (or a new match of the
    same length, once it is over), on a new deal the server draws, which the asker plays
    first and which goes to the other player once it has ended."""

    type: ClassVar[str] = "challenge_rematch"


@dataclass(frozen=True, slots=True)
class ChallengesRequest(Request):
    """The asker's latest challenges, sent and received, newest first."""

    type: ClassVar[str] = "challenges"
    limit: int = DEFAULT_CHALLENGES

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"limit": self.limit}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        return cls(
            limit=DEFAULT_CHALLENGES if limit is None else min(limit, MAX_CHALLENGES),
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class MatchStart(Request):
    """A live match in a race room of two racers: each race between them, from now on, is a
    round of a match of ``best_of`` (3 or 5)."""

    type: ClassVar[str] = "match_start"
    room: str
    best_of: int = 3

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"room": self.room, "best_of": self.best_of}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        best_of = req_int(m, "best_of", 1, 5) if "best_of" in m else 3
        if best_of not in (3, 5):
            raise invalid("best_of", f"must be 3 or 5, not {best_of}")
        return cls(room=req_str(m, "room", MAX_ID_LENGTH), best_of=best_of, id=request_id(m))


# fmt: off
__all__ = [
    "ChallengeAccept", "ChallengeCreate", "ChallengeGet", "ChallengeGhost", "ChallengeRematch",
    "ChallengeRequest", "ChallengesRequest", "MatchStart",
]
# fmt: on
