"""``could_win``: after a game, whether its deal was winnable, and where it stopped being so.

Asked by the game's player once the game has ended and its deal is shown
(docs/protocol.md, "Could I have won?"). The answer names the last of the
player's positions from which the solver won, and its winning line from
there, with the board after each step so that a client plays it back without
an engine of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.notation import MAX_ACTION_LENGTH
from shared.protocol.envelope import (
    MAX_PLY,
    Part,
    Reply,
    nested_list,
    nullable,
    reply_to,
    req_choice,
    req_int,
    req_strs,
)
from shared.protocol.games import GameRequest
from shared.protocol.views import PileView, pile_from_map, pile_to_map

#: the solver's verdict on the deal from its start
WINNABLE, UNWINNABLE, UNKNOWN = "won", "unwinnable", "unknown"
VERDICTS = (WINNABLE, UNWINNABLE, UNKNOWN)


@dataclass(frozen=True, slots=True)
class CouldWinRequest(GameRequest):
    type: ClassVar[str] = "could_win"


@dataclass(frozen=True, slots=True)
class Board(Part):
    """The piles as the player would see them at one step of the line."""

    piles: tuple[PileView, ...]

    def to_map(self) -> dict[str, Any]:
        return {"piles": [pile_to_map(pile) for pile in self.piles]}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(piles=nested_list(m, "piles", pile_from_map))


@dataclass(frozen=True, slots=True)
class CouldWinReply(Reply):
    """``deal``: the solver's verdict from the start (won, unwinnable, unknown within the
    budget). ``ply``: the last ply of the game at a position still winnable (None: the
    game was won, or no position was proven winnable). ``line``: a winning line from
    there; ``boards``: the board at ``ply`` and after each action of ``line``."""

    type: ClassVar[str] = "could_win"
    deal: str
    ply: int | None
    line: tuple[str, ...]
    boards: tuple[Board, ...]

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "deal": self.deal,
            "ply": self.ply,
            "line": list(self.line),
            "boards": [board.to_map() for board in self.boards],
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            deal=req_choice(m, "deal", VERDICTS),
            ply=nullable(m, "ply", lambda m, name: req_int(m, name, 0, MAX_PLY)),
            line=req_strs(m, "line", MAX_ACTION_LENGTH),
            boards=nested_list(m, "boards", Board.from_map),
            re=reply_to(m),
        )


__all__ = [
    "UNKNOWN",
    "UNWINNABLE",
    "VERDICTS",
    "WINNABLE",
    "Board",
    "CouldWinReply",
    "CouldWinRequest",
]
