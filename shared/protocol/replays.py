"""``replay``: a finished game, move by move, for a client to step through.

Asked by the game's player once it has ended, or by anyone once it has ended
and its deal is shown (docs/protocol.md, "Replays"). The answer carries the
actions as recorded and the board before the first and after each one, as the
player saw it (face-down cards as counts), so that a client steps back and
forth without an engine of its own. The boards after the first carry only the
piles the action changed: a long game stays small on the wire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.errors import ProtocolError
from shared.notation import MAX_ACTION_LENGTH
from shared.protocol.envelope import (
    MAX_ID_LENGTH,
    MAX_PLY,
    Reply,
    invalid,
    kind_of,
    nested,
    option_map,
    reply_to,
    req_choice,
    req_count,
    req_list,
    req_str,
)
from shared.protocol.games import GAME_KINDS, GameRequest
from shared.protocol.hindsight import Board
from shared.protocol.views import GAME_STATES, DealView

#: the longest replay a client reads (a game holds at most 100,000 actions: docs/protocol.md)
MAX_REPLAY_ACTIONS = 100_000


@dataclass(frozen=True, slots=True)
class ReplayRequest(GameRequest):
    type: ClassVar[str] = "replay"


def _boards(m: Mapping[str, Any], name: str, most: int) -> tuple[Board, ...]:
    read = []
    for index, item in enumerate(req_list(m, name, most)):
        if not isinstance(item, dict):
            raise invalid(name, f"item {index} must be a map, not {kind_of(item)}")
        try:
            read.append(Board.from_map(item))
        except ProtocolError as exc:
            raise ProtocolError(
                exc.code, f"in field {name!r} item {index}: {exc.message}"
            ) from None
    return tuple(read)


@dataclass(frozen=True, slots=True)
class ReplayReply(Reply):
    """One finished game: whose (``player``, a name), what (``variant``, ``options``,
    ``deal`` as its views show it now), how it ended (``state``, ``score``,
    ``elapsed_ms``), ``actions`` as recorded, and ``boards``: the whole board as dealt,
    then after each action the piles it changed (``len(boards) == len(actions) + 1``)."""

    type: ClassVar[str] = "replay"
    game: str
    player: str
    variant: str
    options: Mapping[str, bool | int]
    deal: DealView
    kind: str
    state: str
    score: int
    elapsed_ms: int
    actions: tuple[str, ...]
    boards: tuple[Board, ...]

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "game": self.game,
            "player": self.player,
            "variant": self.variant,
            "options": dict(self.options),
            "deal": self.deal.to_map(),
            "kind": self.kind,
            "state": self.state,
            "score": self.score,
            "elapsed_ms": self.elapsed_ms,
            "actions": list(self.actions),
            "boards": [board.to_map() for board in self.boards],
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        actions = req_list(m, "actions", MAX_REPLAY_ACTIONS)
        for item in actions:
            if not isinstance(item, str) or not 1 <= len(item) <= MAX_ACTION_LENGTH:
                raise invalid("actions", f"must hold actions of docs/notation.md, not {item!r:.40}")
        boards = _boards(m, "boards", MAX_REPLAY_ACTIONS + 1)
        if len(boards) != len(actions) + 1:
            raise invalid("boards", f"has {len(boards)} boards for {len(actions)} actions")
        return cls(
            game=req_str(m, "game", MAX_ID_LENGTH),
            player=req_str(m, "player", MAX_ID_LENGTH),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            options=option_map(m, required=True),
            deal=nested(m, "deal", DealView.from_map),
            kind=req_choice(m, "kind", GAME_KINDS),
            state=req_choice(m, "state", GAME_STATES),
            score=req_count(m, "score"),
            elapsed_ms=req_count(m, "elapsed_ms"),
            actions=tuple(actions),
            boards=boards,
            re=reply_to(m),
        )


assert MAX_REPLAY_ACTIONS <= MAX_PLY

__all__ = ["MAX_REPLAY_ACTIONS", "ReplayReply", "ReplayRequest"]
