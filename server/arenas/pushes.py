"""``arena_standings`` frames for many players: the common part encoded once per push.

Every follower of an arena gets the same ``top`` and counts, and their own
entry. Encoding the whole message per player would encode the top entries
thousands of times per push; instead the frame is a MessagePack map whose
first five entries (type, code, version, players, top) are packed once and
each player's ``me`` is packed and appended (a map is its header and its
key/value pairs in sequence, so the concatenation is the map). The frame is
the same bytes as ``encode(ArenaStandings(...))`` (tests/server/arenas
checks it, and the protocol's decoder reads it).
"""

from __future__ import annotations

import msgpack

from shared import protocol as p

#: a fixmap of six entries: type, code, version, players, top, me
_HEADER = b"\x86"
_ME = msgpack.packb("me")


class StandingsFrame:
    """The frames of one push of an arena's standings."""

    __slots__ = ("_common",)

    def __init__(
        self, code: str, version: int, players: int, top: tuple[p.ArenaEntry, ...]
    ) -> None:
        fields = {
            "type": p.ArenaStandings.type,
            "code": code,
            "version": version,
            "players": players,
            "top": [entry.to_map() for entry in top],
        }
        packed = b"".join(
            msgpack.packb(key) + msgpack.packb(value, use_bin_type=True)
            for key, value in fields.items()
        )
        self._common = _HEADER + packed + _ME

    def for_player(self, me: p.ArenaEntry | None) -> bytes:
        """The frame for a follower whose own entry is ``me`` (None: not in the table)."""
        packed: bytes = msgpack.packb(None if me is None else me.to_map())
        common: bytes = self._common
        return common + packed
