"""Every refusal the server's parts raise, typed, each saying whose fault it is and its code.

::

    Refused                      a request the server does not carry out
     ├── ClientError             the client's side: what it asked for cannot be done
     │    ├── InvalidField, HelloFirst, UnknownRoom,  mistakes: they count towards the
     │    │   BadTransferCode                         close with 1008
     │    ├── StalePly           carries the game as it is (the client's view is old)
     │    └── NotFound, Forbidden, IllegalMove, GameOver, ... (one class per code)
     └── ServerError             the server's side: it could not, now (nothing was stored)
          └── Internal, Busy

The split is h11's (``LocalProtocolError`` and ``RemoteProtocolError``): an
error says who has to change something for the request to succeed. The
services raise these; they never build a wire message. Each class knows its
wire code, and :class:`server.net.routing.Router` alone turns any of them
into an ``error`` message (``stale_ply`` with its game), counts it, and
closes a connection after too many mistakes. A message the protocol itself
cannot decode is :class:`shared.errors.ProtocolError`, raised by
:mod:`shared.protocol`; the Router answers it the same way.
"""

from __future__ import annotations

from typing import ClassVar

from shared import protocol as p


class Refused(Exception):
    """A request the server refuses; ``message`` is shown to the player as it is."""

    #: the protocol's error code (docs/protocol.md, "Errors")
    code: ClassVar[str]
    #: a mistake no honest client makes: counted towards the close with 1008
    mistake: ClassVar[bool] = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @staticmethod
    def named(name: str, message: str) -> Refused:
        """The refusal of class ``name`` (one another node raised and sent here by name);
        :class:`Internal` for a name this node does not know."""
        kind = _by_name().get(name)
        if kind is None or kind is StalePly:
            return Internal(message)
        return kind(message)


class ClientError(Refused):
    """The client's side: what it asked for cannot be done (asking again will not help
    until the client, or the player, changes something)."""


class ServerError(Refused):
    """The server's side: it could not do what was asked, now; nothing was stored."""


# -- the client's side ---------------------------------------------------------------------


class InvalidField(ClientError):
    code = p.INVALID_FIELD
    mistake = True


class HelloFirst(ClientError):
    code = p.HELLO_FIRST
    mistake = True


class RateLimited(ClientError):
    code = p.RATE_LIMITED


class AlreadyWelcomed(ClientError):
    code = p.ALREADY_WELCOMED


class ProtocolMismatch(ClientError):
    code = p.PROTOCOL_MISMATCH


class BadToken(ClientError):
    code = p.BAD_TOKEN


class BadTransferCode(BadToken):
    """``bad_token`` for a transfer code that opens nothing (server/players/transfers.py):
    a guess, counted as a mistake."""

    mistake = True


class Banned(ClientError):
    code = p.BANNED


class InvalidName(ClientError):
    code = p.INVALID_NAME


class NameTaken(ClientError):
    code = p.NAME_TAKEN


class NameLooksTaken(ClientError):
    """The name looks like a player's: the same confusable skeleton (shared.names)."""

    code = p.NAME_LOOKS_TAKEN


class TooManyAccounts(ClientError):
    code = p.TOO_MANY_ACCOUNTS


class NotFound(ClientError):
    code = p.NOT_FOUND


class UnknownRoom(NotFound):
    """``not_found`` for a room code nobody holds, asked to join: a guess, counted."""

    mistake = True


class Forbidden(ClientError):
    code = p.FORBIDDEN


class IllegalMove(ClientError):
    """The engine refused the action (:class:`shared.errors.IllegalMove`): its reason."""

    code = p.ILLEGAL_MOVE


class GameOver(ClientError):
    code = p.GAME_OVER


class TooManyActions(ClientError):
    code = p.TOO_MANY_ACTIONS


class StalePly(ClientError):
    """The request named another ply than the game's: ``game`` is the game as it is, for
    the client to take up (the Router sends it in the ``error``)."""

    code = p.STALE_PLY

    def __init__(self, message: str, game: p.GameView) -> None:
        super().__init__(message)
        self.game = game


class HintsOff(ClientError):
    code = p.HINTS_OFF


class DailyOpen(ClientError):
    code = p.DAILY_OPEN


class RaceLocked(ClientError):
    code = p.RACE_LOCKED


class RoomFull(ClientError):
    code = p.ROOM_FULL


class NotHost(ClientError):
    code = p.NOT_HOST


class RaceInProgress(ClientError):
    code = p.RACE_IN_PROGRESS


class NotInRoom(ClientError):
    code = p.NOT_IN_ROOM


class NoRacers(ClientError):
    code = p.NO_RACERS


class TooManyRooms(ClientError):
    code = p.TOO_MANY_ROOMS


class NotRatable(ClientError):
    """A rated room refused what would leave its race unratable: a bot racer, a numbered
    deal."""

    code = p.NOT_RATABLE


class NotChallengeable(ClientError):
    """A game that cannot be sent as a challenge (not the asker's, not ended, not a keyed
    solo or practice game), or a challenge the asker cannot answer (their own, another's)."""

    code = p.NOT_CHALLENGEABLE


class ArenaNotRunning(ClientError):
    """A deal or a berserk asked of an arena that is not running (not started, over)."""

    code = p.ARENA_NOT_RUNNING


class NotInArena(ClientError):
    """A deal, a berserk or a leave asked of an arena the player has not joined."""

    code = p.NOT_IN_ARENA


# -- the server's side ---------------------------------------------------------------------


class Internal(ServerError):
    """The server failed (a write, a replay, a bug); nothing was stored."""

    code = p.INTERNAL


class Busy(ServerError):
    """The server cannot take this now (hints being computed, rooms out of reach)."""

    code = p.BUSY


def every_refusal() -> list[type[Refused]]:
    """Every class of refusal that can be raised (those with a code), for the tests and
    :meth:`Refused.named`."""
    found: list[type[Refused]] = []
    todo: list[type[Refused]] = [Refused]
    while todo:
        kind = todo.pop()
        todo.extend(kind.__subclasses__())
        if hasattr(kind, "code"):  # (the bases declare it, the classes raised set it)
            found.append(kind)
    return sorted(found, key=lambda kind: kind.__name__)


def _by_name() -> dict[str, type[Refused]]:
    return {kind.__name__: kind for kind in every_refusal()}
