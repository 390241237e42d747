"""One push of an arena's standings: to each follower only what changed in what they see.

A follower sees the top of the table and the number of players (``arena_standings``,
the same bytes for everyone: encoded once per push whatever the number of
followers) and their own entry (``arena_place``). A push is worked out
(:func:`plan`) against what the followers were last sent (:class:`Places`):

- the standings go to every follower when their top or count changed, and
  otherwise only to those who have been sent nothing since they followed (a
  join or a reconnection: the table may have moved since their join's reply);
- each follower's place goes to them when it changed since the last one they
  were sent, and not when it did not.

So a deal scored below the top costs one small frame, to its player (and to
those it passed), not one write per follower: the table's version grows, and
what nobody would see differently is not sent (the writes are most of a push's
CPU: one socket write per follower, about 10 µs, where the frame is built once).

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
from server.net.batch import SEND_EACH, SendEach, WriteBatch
from server.net.connection import server_frame
from shared import protocol as p

if TYPE_CHECKING:
    from server.net.connection import Connection

#: what a follower was last sent as their place: not yet anything
_UNSENT = object()

#: what every follower sees of the table: its number of players and its top
Shown = tuple[int, tuple[p.ArenaEntry, ...]]
#: one follower's part of a push: the player, whether the standings go to them, whether
#: their place does, and that place (None: no longer in the table)
Target = tuple[int, bool, bool, p.ArenaEntry | None]


class Places:
    """What the followers of one arena on this node were last sent: the standings' top and
    count (the same for all), and each one's place."""

    __slots__ = ("sent", "shown")

    def __init__(self) -> None:
        self.sent: dict[int, object] = {}
        self.shown: Shown | None = None

    def forget(self, player: int) -> None:
        """The player follows anew (a join: their reply showed the table as it was then) or
        stopped: the next push sends them the standings and their place."""
        self.sent.pop(player, None)

    def changed(
        self, table: Standings, followers: Iterable[int], moved: set[int] | None
    ) -> list[tuple[int, p.ArenaEntry | None, bool]]:
        """The followers whose place differs from the one they were last sent, with it and
        whether they had been sent none since they followed (among ``moved``, and those
        never sent one; None: every follower is looked at)."""
        sent = self.sent
        out: list[tuple[int, p.ArenaEntry | None, bool]] = []
        for pid in followers:
            last = sent.get(pid, _UNSENT)
            if moved is not None and last is not _UNSENT and pid not in moved:
                continue
            place = table.me(pid)
            if place != last:
                sent[pid] = place
                out.append((pid, place, last is _UNSENT))
        return out


def plan(table: Standings, places: Places, here: list[int]) -> tuple[Shown, list[Target]]:
    """What the table as it stands says to the followers ``here`` (connected), and to whom:
    the standings to all of them if what they show changed, else only to those sent nothing
    since they followed; each place that changed. Notes it as sent (in ``places``)."""
    shown: Shown = (len(table.lines), table.top(p.TOP))
    changed = places.changed(table, here, table.moved())
    if shown != places.shown:
        places.shown = shown
        own = {pid: place for pid, place, _ in changed}
        return shown, [(pid, True, pid in own, own.get(pid)) for pid in here]
    return shown, [(pid, first, True, place) for pid, place, first in changed]


class FanOut:
    """One push's writes, follower after follower, a chunk per call of :meth:`step`.

    Everything a push says is worked out when it starts (:func:`plan`: the standings'
    bytes and frame, who gets them, each changed place), so that the chunks written later
    all say the same version; a follower who stopped following or left meanwhile is
    skipped. A follower who gets the standings and their place gets both frames in one
    socket write. A chunk's socket writes go out together at its end
    (:class:`server.net.batch.WriteBatch`: with the GIL released once for all of them where
    its C part was built, ``send_each``).
    """

    __slots__ = (
        "_following",
        "_next",
        "_players",
        "_send_each",
        "_targets",
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
        send_each: SendEach | None = SEND_EACH,
    ) -> None:
        here = []
        for pid in following:
            if players.get(pid):
                here.append(pid)
            else:
                places.forget(pid)  # looked at again once connected (and joined) again
        self.code = code
        self.version = table.version
        self._following = following
        self._players = players
        (count, top), self._targets = plan(table, places, here)
        data = p.encode(
            p.ArenaStandings(code=code, version=table.version, players=count, top=top, at_ms=at_ms)
        )
        self.standings = (data, server_frame(data))
        self._next = 0
        self._send_each = send_each  # a chunk's writes in one go (None: each through its transport)

    @property
    def done(self) -> bool:
        return self._next >= len(self._targets)

    def step(self, chunk: int) -> int:
        """Write to the next ``chunk`` followers; how many frames were sent."""
        code, version = self.code, self.version
        data, frame = self.standings
        slot = ("arena_standings", code)
        place_slot = ("arena_place", code)
        following, players = self._following, self._players
        sent = 0
        batch = WriteBatch(self._send_each)  # the chunk's socket writes, in one go at the end
        end = min(len(self._targets), self._next + chunk)
        for pid, whole, moved, place in self._targets[self._next : end]:
            connections = players.get(pid)
            if not connections or pid not in following:
                continue
            if not moved:
                for connection in list(connections):
                    connection.send_latest(slot, data, frame, batch)
                    sent += 1
                continue
            own = p.encode(p.ArenaPlace(code=code, version=version, me=place))
            if not whole:
                own_frame = server_frame(own)
                for connection in list(connections):
                    connection.send_latest(place_slot, own, own_frame, batch)
                    sent += 1
                continue
            both = ((slot, data, frame), (place_slot, own, server_frame(own)))
            for connection in list(connections):
                connection.send_latest_together(both, batch)  # one socket write for the two
                sent += 2
        batch.flush()
        self._next = end
        return sent
