"""Games: start, move, undo, resign, get, hint, the list of a player's games; the replies.

A ``move`` carries the notation's typed :data:`~shared.notation.Action`,
parsed once here, where the text arrives: the server hands that value on and
never parses it again. The views the replies carry are in
:mod:`shared.protocol.views`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from shared.errors import InvalidNotation, ProtocolError
from shared.notation import MAX_ACTION_LENGTH, Action, parse_action
from shared.protocol.codes import INVALID_FIELD
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_SEED,
    MAX_TEXT,
    Part,
    Reply,
    Request,
    hex_digest,
    invalid,
    nested,
    nested_list,
    nullable,
    opt_int,
    opt_nested,
    opt_str,
    option_map,
    present,
    reply_to,
    req_bool,
    req_choice,
    req_count,
    req_int,
    req_str,
    request_id,
)
from shared.protocol.frames import game_reply_frame
from shared.protocol.views import GAME_STATES, DailyInfo, DealView, GameView

#: what a game is for: the ``kind`` of an entry of the ``games`` list
SOLO, DAILY, PRACTICE, RACE, ARENA = "solo", "daily", "practice", "race", "arena"
GAME_KINDS = (SOLO, DAILY, PRACTICE, RACE, ARENA)
#: entries of the ``games`` list: by default, and at most (a larger ``limit`` is taken as this)
DEFAULT_GAMES = 20
MAX_GAMES = 100
#: how hard a winnable deal is (``start_game``'s ``difficulty``; docs/solver.md, "Difficulty")
EASY, MEDIUM, HARD = "easy", "medium", "hard"
DIFFICULTIES = (EASY, MEDIUM, HARD)


def action_field(m: Mapping[str, Any], name: str) -> Action:
    """A string of docs/notation.md parsed into its Action: a Move, or deal, auto or undo."""
    text = req_str(m, name, MAX_ACTION_LENGTH)
    try:
        return parse_action(text)
    except InvalidNotation as exc:
        raise invalid(name, f"is not an action of notation.md: {exc}") from None


# -- requests -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartGame(Request):
    """A new game: the numbered deal ``seed``, the keyed deal of ``key`` (64 hex digits, kept
    in lower case), or, neither given, a fresh secret deal the server draws; with
    ``winnable`` a secret deal its solver has won, of ``difficulty`` (medium unless said)."""

    type: ClassVar[str] = "start_game"
    variant: str
    seed: int | None = None
    options: Mapping[str, bool | int] = field(default_factory=dict)
    key: str | None = None
    winnable: bool = False
    difficulty: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant, "options": dict(self.options)}
        if self.winnable:
            m["winnable"] = True
        return present(m, seed=self.seed, key=self.key, difficulty=self.difficulty)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        if "seed" in m and "key" in m:
            raise ProtocolError(
                INVALID_FIELD, "field 'seed' and field 'key' exclude each other: send one"
            )
        winnable = req_bool(m, "winnable") if "winnable" in m else False
        if winnable and ("seed" in m or "key" in m):
            raise ProtocolError(
                INVALID_FIELD, "field 'winnable' asks the server for its deal: send no seed or key"
            )
        if "difficulty" in m and not winnable:
            raise invalid("difficulty", "is for a winnable deal: send winnable true with it")
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            seed=opt_int(m, "seed", 1, MAX_SEED),
            options=option_map(m),
            key=hex_digest(m, "key", either_case=True) if "key" in m else None,
            winnable=winnable,
            difficulty=req_choice(m, "difficulty", DIFFICULTIES) if "difficulty" in m else None,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class GameRequest(Request):
    """A request about one game, by its id."""

    game: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(game=req_str(m, "game", MAX_ID_LENGTH), id=request_id(m))


@dataclass(frozen=True, slots=True)
class PlyRequest(Request):
    """An action on a game, valid only at the ply the client saw (the ply rule)."""

    game: str
    ply: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game, "ply": self.ply}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            game=req_str(m, "game", MAX_ID_LENGTH),
            ply=req_int(m, "ply", 0, MAX_PLY),
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class MoveRequest(Request):
    """``move``: an action at a ply; ``undo`` here is the same as the ``undo`` message."""

    type: ClassVar[str] = "move"
    game: str
    ply: int
    move: Action

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"game": self.game, "ply": self.ply, "move": str(self.move)}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        move = action_field(m, "move")
        return cls(
            game=req_str(m, "game", MAX_ID_LENGTH),
            ply=req_int(m, "ply", 0, MAX_PLY),
            move=move,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class Undo(PlyRequest):
    type: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Resign(PlyRequest):
    type: ClassVar[str] = "resign"


@dataclass(frozen=True, slots=True)
class GetGame(GameRequest):
    type: ClassVar[str] = "get_game"


@dataclass(frozen=True, slots=True)
class LeaveGame(GameRequest):
    """``leave_game``: the client no longer shows the game (its home screen, say); answered
    ``ok``. An unranked game nobody has open pauses its clock (protocol.md, "Clocks")."""

    type: ClassVar[str] = "leave_game"


@dataclass(frozen=True, slots=True)
class HintRequest(GameRequest):
    type: ClassVar[str] = "hint"


@dataclass(frozen=True, slots=True)
class GamesRequest(Request):
    """``games``: the player's own games, newest first; only those in ``state`` when given."""

    type: ClassVar[str] = "games"
    state: str | None = None
    limit: int = DEFAULT_GAMES

    def to_map(self) -> dict[str, Any]:
        return present(self._envelope() | {"limit": self.limit}, state=self.state)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        limit = opt_int(m, "limit", 1, INT64_MAX)
        return cls(
            state=req_choice(m, "state", GAME_STATES) if "state" in m else None,
            limit=DEFAULT_GAMES if limit is None else min(limit, MAX_GAMES),
            id=request_id(m),
        )


# -- replies and pushes -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameReply(Reply):
    """``game``: a GameView, as a reply or a push.

    ``daily`` is set in the reply to ``daily``; ``code`` and ``player`` on a
    watched board (the reply to ``watch`` and the pushes after it).
    """

    type: ClassVar[str] = "game"
    game: GameView
    daily: DailyInfo | None = None
    code: str | None = None
    player: int | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"game": self.game.to_map()}
        return present(m, daily=self.daily, code=self.code, player=self.player)

    def frame(self) -> bytes:
        """The bytes of :meth:`to_map` packed, written without the maps (every move's
        reply: shared/protocol/frames.py)."""
        return game_reply_frame(self)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            game=nested(m, "game", GameView.from_map),
            daily=opt_nested(m, "daily", DailyInfo.from_map),
            code=opt_str(m, "code", MAX_ID_LENGTH),
            player=opt_int(m, "player", 1, INT64_MAX),
            re=reply_to(m),
        )


def utc_time(m: Mapping[str, Any], name: str) -> str:
    """A moment in ISO 8601 with its offset (the server writes UTC: ``...Z``)."""
    raw = req_str(m, name, 40)
    try:
        moment = datetime.datetime.fromisoformat(raw)
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise invalid(name, f"must be a time like 2026-11-29T13:57:31Z, not {raw!r}")
    return raw


@dataclass(frozen=True, slots=True)
class GameEntry(Part):
    """One of the player's games in the ``games`` list: enough to choose it and go back."""

    id: str
    variant: str
    options: Mapping[str, bool | int]
    deal: DealView
    kind: str
    state: str
    ply: int
    score: int
    elapsed_ms: int
    started_at: str
    #: a race game in a room the player is still in: the room's code (open the race there)
    room: str | None = None

    def to_map(self) -> dict[str, Any]:
        return present(
            {
                "id": self.id,
                "variant": self.variant,
                "options": dict(self.options),
                "deal": self.deal.to_map(),
                "kind": self.kind,
                "state": self.state,
                "ply": self.ply,
                "score": self.score,
                "elapsed_ms": self.elapsed_ms,
                "started_at": self.started_at,
            },
            room=self.room,
        )

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_str(m, "id", MAX_ID_LENGTH),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            options=option_map(m, required=True),
            deal=nested(m, "deal", DealView.from_map),
            kind=req_choice(m, "kind", GAME_KINDS),
            state=req_choice(m, "state", GAME_STATES),
            ply=req_int(m, "ply", 0, MAX_PLY),
            score=req_count(m, "score"),
            elapsed_ms=req_count(m, "elapsed_ms"),
            started_at=utc_time(m, "started_at"),
            room=opt_str(m, "room", MAX_ID_LENGTH),
        )


@dataclass(frozen=True, slots=True)
class GamesReply(Reply):
    type: ClassVar[str] = "games"
    games: tuple[GameEntry, ...]

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"games": [game.to_map() for game in self.games]}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(games=nested_list(m, "games", GameEntry.from_map), re=reply_to(m))


@dataclass(frozen=True, slots=True)
class HintReply(Reply):
    """A move worth playing, or None once the game has ended."""

    type: ClassVar[str] = "hint"
    move: Action | None

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"move": None if self.move is None else str(self.move)}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(move=nullable(m, "move", action_field), re=reply_to(m))


@dataclass(frozen=True, slots=True)
class Ok(Reply):
    """The answer to a request that needs no data back."""

    type: ClassVar[str] = "ok"

    def to_map(self) -> dict[str, Any]:
        return self._envelope()

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(re=reply_to(m))


@dataclass(frozen=True, slots=True)
class Error(Reply):
    """A refusal. ``game`` carries the current GameView with ``stale_ply``."""

    type: ClassVar[str] = "error"
    code: str
    message: str
    game: GameView | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"code": self.code, "message": self.message}
        return present(m, game=self.game)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=req_str(m, "code", 64),
            message=req_str(m, "message", MAX_TEXT),
            game=opt_nested(m, "game", GameView.from_map),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "ARENA",
    "DAILY",
    "DEFAULT_GAMES",
    "DIFFICULTIES",
    "EASY",
    "GAME_KINDS",
    "HARD",
    "MAX_GAMES",
    "MEDIUM",
    "PRACTICE",
    "RACE",
    "SOLO",
    "Error",
    "GameEntry",
    "GameReply",
    "GameRequest",
    "GamesReply",
    "GamesRequest",
    "GetGame",
    "HintReply",
    "HintRequest",
    "LeaveGame",
    "MoveRequest",
    "Ok",
    "PlyRequest",
    "Resign",
    "StartGame",
    "Undo",
    "action_field",
    "utc_time",
]
# fmt: on
