"""Who is connected on the other nodes, from what they announce.

Each node announces its players' first connection and last close
(``online``, ``offline``), and its whole list when asked (``roll_call``,
answered by ``roster``: after a node starts or gets Redis back). A node
whose key expired (killed, cut off) is dropped with all its players. Only
the changes that make a player connected or gone *anywhere* matter to the
rooms; the methods answer exactly those players.
"""

from __future__ import annotations

from collections.abc import Container, Iterable


class Roster:
    def __init__(self) -> None:
        #: node id -> the players connected there
        self.by_node: dict[str, set[int]] = {}
        #: player id -> the other nodes they are connected to
        self._nodes_of: dict[int, set[str]] = {}

    def __contains__(self, player: object) -> bool:
        return player in self._nodes_of

    def nodes(self) -> list[str]:
        return list(self.by_node)

    def online(self, node: str, player: int) -> bool:
        """``player`` connected on ``node``; True when they were connected on no other node."""
        self.by_node.setdefault(node, set()).add(player)
        nodes = self._nodes_of.setdefault(player, set())
        first = not nodes
        nodes.add(node)
        return first

    def offline(self, node: str, player: int) -> bool:
        """``player`` gone from ``node``; True when they are now on no other node."""
        self.by_node.get(node, set()).discard(player)
        nodes = self._nodes_of.get(player)
        if nodes is None:
            return False
        nodes.discard(node)
        if nodes:
            return False
        del self._nodes_of[player]
        return True

    def replace(self, node: str, players: Iterable[int]) -> tuple[set[int], set[int]]:
        """``node``'s whole list: the players that came (on no other node before) and went."""
        now = set(players)
        before = self.by_node.get(node, set())
        came = {pid for pid in now - before if self.online(node, pid)}
        went = {pid for pid in before - now if self.offline(node, pid)}
        if not now:
            self.by_node.pop(node, None)
        return came, went

    def drop(self, node: str) -> set[int]:
        """``node`` is dead: the players now on no other node."""
        went = {pid for pid in list(self.by_node.get(node, ())) if self.offline(node, pid)}
        self.by_node.pop(node, None)
        return went


class Online(Container[int]):
    """Players connected anywhere: on this node (``local``) or another (``roster``)."""

    def __init__(self, local: Container[int], roster: Roster) -> None:
        self.local = local
        self.roster = roster

    def __contains__(self, player: object) -> bool:
        return player in self.local or player in self.roster
