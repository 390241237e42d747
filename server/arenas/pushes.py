"""One push of an arena's standings: the table's frame once for everyone, each place apart.

Every follower of an arena gets the same ``arena_standings`` bytes (the top and
the count, encoded once per push whatever the number of followers), and an
``arena_place`` of their own only when their entry changed since the last one
they were sent: a push costs one encoding, one socket write per follower and a
small frame per player who moved, never a frame built per follower.

Both go to a connection as a *latest* message (:meth:`Connection.send_latest`):
a follower whose socket is full keeps at most one of each waiting, replaced by
the next push, so a slow reader neither delays the others nor fills its queue
with superseded tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from server.arenas.table import Standings
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection

#: what a follower was last sent as their place: not yet anything
_UNSENT = object()


class Places:
    """The place each follower of one arena on this node was last sent."""

    __slots__ = ("sent",)

    def __init__(self) -> None:
        self.sent: dict[int, object] = {}

    def forget(self, player: int) -> None:
        """The player follows anew (a join: their reply showed their place) or stopped."""
        self.sent.pop(player, None)

    def changed(
        self, table: Standings, followers: Iterable[int], moved: set[int] | None
    ) -> list[tuple[int, p.ArenaEntry | None]]:
        """The followers whose place differs from the one they were last sent, with it (among
        ``moved``, and those never sent one; None: every follower is looked at)."""
        sent = self.sent
        out: list[tuple[int, p.ArenaEntry | None]] = []
        for pid in followers:
            last = sent.get(pid, _UNSENT)
            if moved is not None and last is not _UNSENT and pid not in moved:
                continue
            place = table.me(pid)
            if place != last:
                sent[pid] = place
                out.append((pid, place))
        return out


def push(
    code: str,
    table: Standings,
    at_ms: int,
    places: Places,
    followers: Iterable[int],
    players: Mapping[int, set[Connection]],
) -> int:
    """Send one push of the standings to the followers connected here; how many frames."""
    here = []
    for pid in followers:
        if players.get(pid):
            here.append(pid)
        else:
            places.forget(pid)  # looked at again once connected (and joined) again
    standings = p.encode(
        p.ArenaStandings(
            code=code,
            version=table.version,
            players=len(table.lines),
            top=table.top(p.TOP),
            at_ms=at_ms,
        )
    )
    slot = ("arena_standings", code)
    sent = 0
    for pid in here:
        for connection in list(players[pid]):
            connection.send_latest(slot, standings)
            sent += 1
    moved = table.moved()
    place_slot = ("arena_place", code)
    for pid, place in places.changed(table, here, moved):
        data = p.encode(p.ArenaPlace(code=code, version=table.version, me=place))
        for connection in list(players[pid]):
            connection.send_latest(place_slot, data)
            sent += 1
    return sent
