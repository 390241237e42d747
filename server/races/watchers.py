"""Which connections of this node follow which racer's board, room by room.

Watching is per node: a watcher connected to node B is recorded on B, and
the board of a racer (pushed after each of their actions by the room's
owner, wherever the racer plays) reaches B's watchers through B. A
connection follows one board at a time in a room.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.net.connection import Connection


class Watchers:
    def __init__(self) -> None:
        #: (room code, watched player) -> the connections following that board
        self._boards: dict[tuple[str, int], set[Connection]] = {}

    def of(self, code: str, target: int) -> set[Connection]:
        return self._boards.get((code, target), set())

    def watch(self, connection: Connection, code: str, target: int) -> None:
        for (room, _), following in self._boards.items():
            if room == code:
                following.discard(connection)
        self._boards.setdefault((code, target), set()).add(connection)
        self._tidy()

    def drop(
        self, code: str, players: Iterable[int] | None = None, targets: Iterable[int] | None = None
    ) -> None:
        """In room ``code``: ``players``' connections watch nothing; nobody watches ``targets``."""
        watching = set(players or ())
        for target in targets or ():
            self._boards.pop((code, target), None)
        if watching:
            for (room, _), following in self._boards.items():
                if room == code:
                    following.difference_update(
                        [c for c in following if c.player is not None and c.player.id in watching]
                    )
        self._tidy()

    def drop_connection(self, connection: Connection) -> None:
        for following in self._boards.values():
            following.discard(connection)
        self._tidy()

    def drop_room(self, code: str) -> None:
        for key in [k for k in self._boards if k[0] == code]:
            del self._boards[key]

    def _tidy(self) -> None:
        for key in [k for k, v in self._boards.items() if not v]:
            del self._boards[key]
