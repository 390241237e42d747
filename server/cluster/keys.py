"""The names of every Redis key and channel, all under one prefix (``redis_prefix``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Keys:
    prefix: str

    def node(self, node_id: str) -> str:
        """A live node's key: set while it runs, its TTL refreshed by its heartbeat."""
        return f"{self.prefix}node:{node_id}"

    def lease(self, code: str) -> str:
        """A room's lease: the id of the node that owns its clock."""
        return f"{self.prefix}room:{code}"

    def registering(self, ip: str) -> str:
        """Held while one node registers a player from ``ip`` (the per-address limit)."""
        return f"{self.prefix}register:{ip}"

    def inbox(self, node_id: str) -> str:
        """The channel of one node: requests forwarded to it and the answers to its own."""
        return f"{self.prefix}inbox:{node_id}"

    @property
    def pushes(self) -> str:
        """The channel of room pushes: every node delivers them to its own connections."""
        return f"{self.prefix}pushes"

    @property
    def events(self) -> str:
        """The channel of news between nodes: presence, race actions, released rooms."""
        return f"{self.prefix}events"
