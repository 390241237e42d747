"""One push of an arena's standings: the table's frame once for everyone, each place apart.

Every follower of an arena gets the same ``arena_standings`` bytes (the top and
the count, encoded once per push whatever the number of followers), and an
``arena_place`` of their own only when their entry changed since the last one
they were sent: a push costs one encoding, one socket write per follower and a
small frame per player who moved, never a frame built per follower.

The WebSocket frame of the standings is built once too (:func:`server_frame`:
a server's frames are the same bytes on every connection), and written to each
follower's socket as it is. The writes go out ``arena_push_chunk`` followers
at a time, one turn of the event loop each (:meth:`FanOut.step`): a move that
arrives while 2,000 followers are written to waits for one chunk's writes, not
for all of them.

Both go to a connection as a *latest* message (:meth:`Connection.send_latest`):
a follower whose socket is full keeps at most one of each waiting, replaced by
the next push, so a slow reader neither delays the others nor fills its queue
with superseded tables.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from server.arenas.table import Standings
from server.net.connection import server_frame
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


class FanOut:
    """One push's writes, follower after follower, a chunk per call of :meth:`step`.

    Everything a push says is worked out when it starts (the standings' bytes
    and frame, each changed place), so that the chunks written later all say
    the same version; a follower who stopped following or left meanwhile is
    skipped. Each follower gets the standings, then their place if it changed (both
    frames in one socket write).
    """

    __slots__ = (
        "_following",
        "_here",
        "_next",
        "_places",
        "_players",
        "code",
        "standings",
        "version",
    )

    def __init__(
        self,
        code: str,
        table: Standings,
        at_ms: int,
        places: Places,
        following: Collection[int],
        players: Mapping[int, set[Connection]],
    ) -> None:
        here = []
        for pid in following:
            if players.get(pid):
                here.append(pid)
            else:
                places.forget(pid)  # looked at again once connected (and joined) again
        self.code = code
        self.version = table.version
        self._here = here
        self._following = following
        self._players = players
        data = p.encode(
            p.ArenaStandings(
                code=code,
                version=table.version,
                players=len(table.lines),
                top=table.top(p.TOP),
                at_ms=at_ms,
            )
        )
        self.standings = (data, server_frame(data))
        self._places = dict(places.changed(table, here, table.moved()))
        self._next = 0

    @property
    def done(self) -> bool:
        return self._next >= len(self._here)

    def step(self, chunk: int) -> int:
        """Write to the next ``chunk`` followers; how many frames were sent."""
        code, version = self.code, self.version
        data, frame = self.standings
        slot = ("arena_standings", code)
        place_slot = ("arena_place", code)
        following, players, places = self._following, self._players, self._places
        sent = 0
        end = min(len(self._here), self._next + chunk)
        for pid in self._here[self._next : end]:
            connections = players.get(pid)
            if not connections or pid not in following:
                continue
            if pid not in places:
                for connection in list(connections):
                    connection.send_latest(slot, data, frame)
                    sent += 1
                continue
            own = p.encode(p.ArenaPlace(code=code, version=version, me=places[pid]))
            both = ((slot, data, frame), (place_slot, own, server_frame(own)))
            for connection in list(connections):
                connection.send_latest_together(both)  # one socket write for the two
                sent += 2
        self._next = end
        return sent
