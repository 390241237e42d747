"""What one node tells the others, and what the cluster tells this node's parts: typed events.

Each kind of news is a frozen dataclass with its ``kind`` (the tag on the
wire between nodes) and its fields; :func:`decode` reads one from the map a
node published, :meth:`News.to_map` writes it. The cluster does not know who
acts on a piece of news: the parts that care subscribe to its type
(:meth:`Subscribers.subscribe`, in :func:`server.app.wire`), and
:meth:`Subscribers.deliver` calls them in the order they subscribed.

Besides the news from other nodes, the cluster delivers a few events of its
own in the same way (:class:`PresenceChanged`, :class:`BoardPushed`,
:class:`LeaseLost`, :class:`ClaimDue`, :class:`RedisBack`): what happened to
this node's view of the others.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from shared import protocol as p

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class News:
    """News published for the other nodes (the channel ``events``)."""

    kind: ClassVar[str] = ""

    def to_map(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, p.GameView):
        return value.to_map()
    return value


@dataclass(frozen=True, slots=True)
class Online(News):
    """A player's first connection to the telling node."""

    kind: ClassVar[str] = "online"
    player: int


@dataclass(frozen=True, slots=True)
class Offline(News):
    """A player's last connection to the telling node closed."""

    kind: ClassVar[str] = "offline"
    player: int


@dataclass(frozen=True, slots=True)
class Roster(News):
    """Everyone connected to the telling node (after Redis came back, and at its stop)."""

    kind: ClassVar[str] = "roster"
    players: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RollCall(News):
    """Every node sends its roster again."""

    kind: ClassVar[str] = "roll_call"


@dataclass(frozen=True, slots=True)
class RaceActed(News):
    """A stored action of a race game, as the room's owner needs it (from any node)."""

    kind: ClassVar[str] = "race_action"
    game: str
    player: int
    ply: int
    foundation: int
    score: int
    state: str
    #: the board for watchers; None on a node alone with nobody watching (never told then)
    view: p.GameView | None


@dataclass(frozen=True, slots=True)
class Unwatched(News):
    """Watches ended in a room (see :meth:`server.races.watchers.Watchers.drop`)."""

    kind: ClassVar[str] = "unwatch"
    code: str
    players: tuple[int, ...] | None
    targets: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Ranked(News):
    """A daily attempt finished with this rank key: every node's ranks count it."""

    kind: ClassVar[str] = "ranked"
    variant: str
    date: str
    key: tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class RaceGames(News):
    """A race started with these games; whether its room allows hints."""

    kind: ClassVar[str] = "race_games"
    games: tuple[str, ...]
    hints: bool


@dataclass(frozen=True, slots=True)
class BotsRemoved(News):
    """Bot accounts removed: their connections close, their games are forgotten."""

    kind: ClassVar[str] = "bots_removed"
    players: tuple[int, ...]
    games: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class GamesForgotten(News):
    """These games changed where this node cannot see (timeouts, keys shown): reload them."""

    kind: ClassVar[str] = "forget_games"
    games: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Released(News):
    """The telling node let go of these rooms (it stops): take them."""

    kind: ClassVar[str] = "released"
    codes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Resync(News):
    """Redis was lost: every owner sends its rooms again, and the races ended since."""

    kind: ClassVar[str] = "resync"
    since_ms: int


@dataclass(frozen=True, slots=True)
class ArenaLine(News):
    """A player's totals in an arena changed on the telling node (a deal scored, a join)."""

    kind: ClassVar[str] = "arena_line"
    arena: str
    player: int
    name: str
    points: int
    played: int
    wins: int
    fire: bool


#: the tag on the wire -> its type
KINDS = MappingProxyType(
    {
        kind.kind: kind
        for kind in (
            Online,
            Offline,
            Roster,
            RollCall,
            RaceActed,
            Unwatched,
            Ranked,
            RaceGames,
            BotsRemoved,
            GamesForgotten,
            Released,
            Resync,
            ArenaLine,
        )
    }
)


def decode(message: dict[str, Any]) -> News | None:
    """The news a node published (None for a kind this node does not know)."""
    kind = KINDS.get(str(message.get("kind")))
    if kind is None:
        return None
    values: dict[str, Any] = {}
    for f in fields(kind):
        value = message.get(f.name)
        if f.name == "view" and value is not None:
            value = p.GameView.from_map(value)
        elif isinstance(value, list):
            value = tuple(value)
        values[f.name] = value
    return kind(**values)


# -- what the cluster tells this node's parts --------------------------------------------------


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A player came to their first node or left their last one (told by another node)."""

    player: int
    online: bool


@dataclass(frozen=True, slots=True)
class BoardPushed:
    """A racer's board, encoded by the room's owner, for this node's watchers of it."""

    code: str
    player: int
    data: bytes


@dataclass(frozen=True, slots=True)
class LeaseLost:
    """Another node holds this room's lease now: this node stops running it."""

    code: str


@dataclass(frozen=True, slots=True)
class ClaimDue:
    """Time to take over the rooms nobody owns (``codes``: those, or None for every room)."""

    codes: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class RedisBack:
    """Redis is reachable again after a loss that began at ``lost_ms`` (a little before)."""

    since_ms: int


E = TypeVar("E")
Hook = Callable[[Any], Awaitable[None] | None]


class Subscribers:
    """Event type -> the hooks that act on it, in the order they subscribed."""

    def __init__(self) -> None:
        self._hooks: dict[type, list[Hook]] = {}

    def subscribe(self, kind: type[E], hook: Callable[[E], Awaitable[None] | None]) -> None:
        self._hooks.setdefault(kind, []).append(hook)

    def heard(self, kind: type) -> bool:
        """Whether some hook acts on events of type ``kind``."""
        return bool(self._hooks.get(kind))

    def hooks(self) -> list[Hook]:
        """Every hook subscribed (to list what an app's parts call on each other)."""
        return [hook for hooks in self._hooks.values() for hook in hooks]

    def deliver(self, event: object) -> Awaitable[None] | None:
        """Call the hooks of ``event``'s type; what they must still do, to await in order."""
        waiting = []
        for hook in self._hooks.get(type(event), ()):
            result = hook(event)
            if inspect.isawaitable(result):
                waiting.append(result)
        if not waiting:
            return None
        return in_order(waiting)


async def in_order(waiting: list[Awaitable[None]]) -> None:
    for awaitable in waiting:
        await awaitable
