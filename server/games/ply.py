"""The ply rule of docs/protocol.md: whether a request's action may reach the engine, and retries.

Every ``move``, ``undo`` and ``resign`` names the ply the client last saw.
An action is taken only at the game's current ply. When the ply is one less
and the game's last action was this very action, the request is a retry of
one whose reply was lost: nothing is taken and the game is sent as it
stands (a shorthand such as ``w>f`` retries the move it was recorded as,
``w>f2``; both are typed :class:`~shared.notation.Move` values, compared as
such: nothing is printed or parsed). A ``resign`` at the current ply of a resigned game is a retry
too. Anything else at another ply is ``stale_ply``. An ended game takes no
action (``game_over``); a stuck one takes only ``undo`` and ``resign``.

Pure functions of what the game shows (:class:`GameAt`): no I/O, no clock,
no event loop. The game service asks :func:`is_retry` when a request
arrives (a retry waits only for its original's write, not for a turn of
its own) and :func:`judge` when the request's turn comes, the game's
earlier actions stored; it then does what they answer.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from server.errors import GameOver
from shared.notation import UNDO, Action, Move
from shared.states import ENDED, RESIGNED, STUCK

#: the action of a ``resign`` request (an undo is notation's ``undo``, moves are notation)
RESIGN = "resign"


class GameAt(NamedTuple):
    """What the rule reads of a game: its id (for messages), ply, state and last action.

    (A named tuple: made twice per action, it costs a tenth of a frozen dataclass.)"""

    id: str
    ply: int
    state: str
    #: the last action as the engine recorded it (``Move("w", 1, "f2")``, ``deal``, ``undo``),
    #: None before any
    last: Action | None


class Verdict(enum.Enum):
    #: hand the action to the engine
    PLAY = "play"
    #: take nothing; answer with the game as it stands, once what it shows is stored
    RETRY = "retry"


@dataclass(frozen=True, slots=True)
class Stale:
    """The request names another ply than the game's (refused, or the game reloaded first
    when this node's copy may be behind: the game service decides)."""

    message: str


def same_action(sent: Action, recorded: Action) -> bool:
    """Whether ``sent`` is the action the engine recorded as ``recorded`` (``w>f`` vs ``w>f2``)."""
    if sent == recorded:
        return True
    return (
        isinstance(sent, Move)
        and isinstance(recorded, Move)
        and sent.dst == "f"
        and sent.count == 1
        and sent.src == recorded.src
        and recorded.dst.startswith("f")
    )


def is_retry(action: Action, ply: int, at: GameAt) -> bool:
    """On arrival: is this ``move`` or ``undo`` (``action`` at ``ply``) the last action again?"""
    if action == RESIGN or at.last is None:
        return False
    return ply == at.ply - 1 and same_action(action, at.last)


def judge(action: Action, ply: int, at: GameAt) -> Verdict | Stale | GameOver:
    """At the request's turn: stale, over or stuck (the refusal, to raise), a retried resign,
    or play."""
    if ply != at.ply:
        return Stale(
            f"ply {ply} is not the game's current ply {at.ply}; "
            "field 'game' holds the game as it is"
        )
    if action == RESIGN and at.state == RESIGNED:
        return Verdict.RETRY
    if at.state in ENDED:
        return GameOver(f"game {at.id!r} is over ({at.state})")
    if at.state == STUCK and action not in (UNDO, RESIGN):
        return GameOver(f"game {at.id!r} is stuck: only undo and resign are accepted")
    return Verdict.PLAY
