"""Games: start, move, undo, resign, get, hint; the ``game`` view and the generic replies.

A ``move`` carries the notation's typed :data:`~shared.notation.Action`,
parsed once here, where the text arrives: the server hands that value on and
never parses it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, cast

from shared.cards import parse_card
from shared.errors import InvalidNotation
from shared.notation import MAX_ACTION_LENGTH, Action, parse_action, parse_pile
from shared.protocol.envelope import (
    INT64_MAX,
    MAX_ID_LENGTH,
    MAX_PLY,
    MAX_SEED,
    MAX_TEXT,
    Part,
    Reply,
    Request,
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
    req_choice,
    req_count,
    req_int,
    req_str,
    req_strs,
    request_id,
)

PLAYING, WON, STUCK, RESIGNED, TIMEOUT = "playing", "won", "stuck", "resigned", "timeout"
GAME_STATES = (PLAYING, WON, STUCK, RESIGNED, TIMEOUT)
#: cards in one pile at most: two decks
MAX_PILE = 104


def action_field(m: Mapping[str, Any], name: str) -> Action:
    """A string of notation.md parsed into its Action: a Move, or deal, auto or undo."""
    text = req_str(m, name, MAX_ACTION_LENGTH)
    try:
        return parse_action(text)
    except InvalidNotation as exc:
        raise invalid(name, f"is not an action of notation.md: {exc}") from None


# -- views --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PileView(Part):
    """One pile: how many cards lie face down, and the face-up cards bottom to top."""

    id: str
    down: int
    up: tuple[str, ...]

    def to_map(self) -> dict[str, Any]:
        return {"id": self.id, "down": self.down, "up": list(self.up)}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        pile = req_str(m, "id", 3)
        try:
            parse_pile(pile)
        except InvalidNotation as exc:
            raise invalid("id", str(exc)) from None
        up = req_strs(m, "up", 2)
        for card in up:
            try:
                parse_card(card)
            except InvalidNotation as exc:
                raise invalid("up", str(exc)) from None
        return cls(id=pile, down=req_int(m, "down", 0, MAX_PILE), up=up)

    @property
    def count(self) -> int:
        return self.down + len(self.up)


_HEX = frozenset("0123456789abcdef")


def _opt_hex64(m: Mapping[str, Any], name: str) -> str | None:
    """A key or commitment as views show it: 64 lower-case hex digits, or absent."""
    value = opt_str(m, name, 64)
    if value is not None and (len(value) != 64 or not _HEX.issuperset(value)):
        raise invalid(name, "must be 64 lower-case hex digits")
    return value


@dataclass(frozen=True, slots=True)
class DealView(Part):
    """GameView's ``deal``: a numbered deal's ``seed``, or a keyed deal's ``commitment``
    with its ``key`` once the deal is revealed."""

    seed: int | None = None
    commitment: str | None = None
    key: str | None = None

    def to_map(self) -> dict[str, Any]:
        return present({}, seed=self.seed, commitment=self.commitment, key=self.key)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        seed = opt_int(m, "seed", 1, MAX_SEED)
        commitment = _opt_hex64(m, "commitment")
        key = _opt_hex64(m, "key")
        if (seed is None) == (commitment is None):
            raise invalid("seed", "or 'commitment': a deal has exactly one of them")
        if key is not None and commitment is None:
            raise invalid("key", "comes only with a keyed deal's commitment")
        return cls(seed=seed, commitment=commitment, key=key)


@dataclass(frozen=True, slots=True)
class GameView(Part):
    """A game as its player sees it: face-down cards are counts, never cards.

    The view keeps the map the wire carries and reads its typed fields from
    it. The server wraps the engine's view map as it is (:meth:`of`: no copy,
    no check), because building typed piles for every move costs it a
    measurable share of its time per move (docs/protocol.md, "Message
    classes"); a client's view comes from :meth:`from_map`, every field
    checked.
    """

    wire: Mapping[str, Any]

    def to_map(self) -> dict[str, Any]:
        return dict(self.wire)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        req_str(m, "id", MAX_ID_LENGTH)
        req_str(m, "variant", MAX_ID_LENGTH)
        nested(m, "deal", DealView.from_map)
        option_map(m, required=True)
        for name in ("ply", "moves", "undos"):
            req_int(m, name, 0, MAX_PLY)
        for name in ("score", "max_score", "elapsed_ms"):
            req_count(m, name)
        req_choice(m, "state", GAME_STATES)
        nullable(m, "redeals_left", req_count)
        nested_list(m, "piles", PileView.from_map)
        req_strs(m, "legal", MAX_ACTION_LENGTH)
        return cls(m)

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Self:
        """The view over a map the server built itself (the engine's view): not checked."""
        return cls(view)

    @property
    def id(self) -> str:
        return cast(str, self.wire["id"])

    @property
    def variant(self) -> str:
        return cast(str, self.wire["variant"])

    @property
    def deal(self) -> DealView:
        deal = self.wire["deal"]
        return DealView(deal.get("seed"), deal.get("commitment"), deal.get("key"))

    @property
    def seed(self) -> int | None:
        """The numbered deal's seed; None for a keyed deal (it has none)."""
        return cast(int | None, self.wire["deal"].get("seed"))

    @property
    def undos(self) -> int:
        return cast(int, self.wire["undos"])

    @property
    def options(self) -> Mapping[str, bool | int]:
        return cast(Mapping[str, bool | int], self.wire["options"])

    @property
    def ply(self) -> int:
        """Actions played so far: moves, deals, undos."""
        return cast(int, self.wire["ply"])

    @property
    def moves(self) -> int:
        return cast(int, self.wire["moves"])

    @property
    def score(self) -> int:
        return cast(int, self.wire["score"])

    @property
    def max_score(self) -> int:
        return cast(int, self.wire["max_score"])

    @property
    def state(self) -> str:
        return cast(str, self.wire["state"])

    @property
    def redeals_left(self) -> int | None:
        """None only when unlimited."""
        return cast(int | None, self.wire["redeals_left"])

    @property
    def piles(self) -> tuple[PileView, ...]:
        """The piles the game has, in layout order."""
        return tuple(PileView(p["id"], p["down"], tuple(p["up"])) for p in self.wire["piles"])

    @property
    def legal(self) -> tuple[str, ...]:
        """Every legal action now, canonical notation."""
        return tuple(self.wire["legal"])

    @property
    def elapsed_ms(self) -> int:
        return cast(int, self.wire["elapsed_ms"])

    def pile(self, pile_id: str) -> PileView | None:
        return next((p for p in self.piles if p.id == pile_id), None)

    @property
    def foundation_cards(self) -> int:
        return sum(len(p.up) for p in self.piles if p.id.startswith("f"))


@dataclass(frozen=True, slots=True)
class DailyInfo(Part):
    """Which day's challenge a ``game`` reply to ``daily`` is (UTC, ``YYYY-MM-DD``)."""

    date: str

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(date=req_str(m, "date", 10))


# -- requests -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StartGame(Request):
    """A new game: the numbered deal ``seed``, or one the server draws."""

    type: ClassVar[str] = "start_game"
    variant: str
    seed: int | None = None
    options: Mapping[str, bool | int] = field(default_factory=dict)

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"variant": self.variant, "options": dict(self.options)}
        return present(m, seed=self.seed)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            seed=opt_int(m, "seed", 1, MAX_SEED),
            options=option_map(m),
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
class HintRequest(GameRequest):
    type: ClassVar[str] = "hint"


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

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            game=nested(m, "game", GameView.from_map),
            daily=opt_nested(m, "daily", DailyInfo.from_map),
            code=opt_str(m, "code", MAX_ID_LENGTH),
            player=opt_int(m, "player", 1, INT64_MAX),
            re=reply_to(m),
        )


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
    "GAME_STATES", "PLAYING", "RESIGNED", "STUCK", "TIMEOUT", "WON", "DailyInfo", "DealView",
    "Error", "GameReply", "GameRequest", "GameView", "GetGame", "HintReply", "HintRequest",
    "MoveRequest", "Ok", "PileView", "PlyRequest", "Resign", "StartGame", "Undo",
    "action_field",
]
# fmt: on
