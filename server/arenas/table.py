"""An arena's standings as one node holds them: every ranked player's totals, kept in order.

A node loads an arena's table from the database the first time it needs it and
keeps it up to date from the deals it scores itself and from the others'
``ArenaLine`` news; ``version`` grows with every change, so that the
standings are pushed only when they changed. Equal points share a rank; among
them the player with more wins comes first, then by name (the order of the
list, not the rank). Bots and banned players are never in a table.

The order is kept as each line changes (one removal and one insertion in a
sorted list: a scored deal never sorts the table again), and a rank is the
number of players with more points, from a count per points value: a push
reads the top and each follower's place without ranking 2,000 lines. The
table also notes whose place may have moved since :meth:`Standings.moved`
was last asked (the changed players, and everyone whose points lie between a
changed line's old and new points), so that a push sends ``arena_place``
only to those whose place did change.
"""

from __future__ import annotations

import bisect
import builtins
from dataclasses import dataclass, field

from shared import protocol as p

#: below every possible points value: a removed line moves everyone under it
_FLOOR = -(1 << 62)


@dataclass(slots=True)
class Line:
    player: int
    name: str
    points: int = 0
    played: int = 0
    wins: int = 0
    fire: bool = False

    def entry(self, rank: int) -> p.ArenaEntry:
        return p.ArenaEntry(
            rank, self.player, self.name, self.points, self.played, self.wins, self.fire
        )

    def key(self) -> tuple[int, int, str, int]:
        """Its place in the order: more points, then more wins, then the name."""
        return (-self.points, -self.wins, self.name, self.player)


@dataclass(slots=True)
class Standings:
    lines: dict[int, Line] = field(default_factory=dict)
    version: int = 0
    #: every line's key, best first
    _order: list[tuple[int, int, str, int]] = field(default_factory=list)
    #: the players at each points value
    _at: dict[int, set[int]] = field(default_factory=dict)
    #: points value -> players with more points (worked out once per version)
    _above: dict[int, int] | None = None
    #: players changed, and spans [low, high) of points whose rank moved, since moved()
    _touched: set[int] = field(default_factory=set)
    _spans: list[tuple[int, int]] = field(default_factory=list)
    _everyone_moved: bool = True

    def set(self, line: Line) -> bool:
        """Put a player's totals in; whether the table changed."""
        old = self.lines.get(line.player)
        if old is not None:
            if (old.points, old.played, old.wins, old.fire, old.name) == (
                line.points,
                line.played,
                line.wins,
                line.fire,
                line.name,
            ):
                return False
            self._take_out(old)
            if old.points != line.points:
                self._spans.append((min(old.points, line.points), max(old.points, line.points)))
        else:  # everyone with fewer points is one place further down
            self._spans.append((_FLOOR, line.points))
        bisect.insort(self._order, line.key())
        self._at.setdefault(line.points, set()).add(line.player)
        self.lines[line.player] = line
        self._touched.add(line.player)
        self.version += 1
        self._above = None
        return True

    def remove(self, player: int) -> None:
        old = self.lines.pop(player, None)
        if old is not None:
            self._take_out(old)
            self._touched.add(player)
            self._spans.append((_FLOOR, old.points))
            self.version += 1
            self._above = None

    def _take_out(self, line: Line) -> None:
        key = line.key()
        at = bisect.bisect_left(self._order, key)
        del self._order[at]
        players = self._at[line.points]
        players.discard(line.player)
        if not players:
            del self._at[line.points]

    def rank(self, points: int) -> int:
        """The rank of a line with these points (equal points share it)."""
        if self._above is None:
            above: dict[int, int] = {}
            count = 0
            for value in sorted(self._at, reverse=True):
                above[value] = count
                count += len(self._at[value])
            self._above = above
        return self._above[points] + 1

    def ranked(self, offset: int = 0, limit: int | None = None) -> list[tuple[int, Line]]:
        """(rank, line), best first, from ``offset``, at most ``limit`` of them."""
        end = len(self._order) if limit is None else offset + limit
        lines = [self.lines[key[3]] for key in self._order[offset:end]]
        return [(self.rank(line.points), line) for line in lines]

    def top(self, count: int) -> tuple[p.ArenaEntry, ...]:
        return tuple(line.entry(rank) for rank, line in self.ranked(0, count))

    def me(self, player: int) -> p.ArenaEntry | None:
        line = self.lines.get(player)
        if line is None:
            return None
        return line.entry(self.rank(line.points))

    def moved(self) -> builtins.set[int] | None:
        """The players whose place may have changed since the last call (None: anyone's,
        the table being new to this node); the next call starts from here."""
        if self._everyone_moved:
            self._everyone_moved = False
            self._touched.clear()
            self._spans.clear()
            return None
        moved = self._touched
        for low, high in self._spans:
            for value, players in self._at.items():
                if low <= value < high:
                    moved |= players
        self._touched = set()
        self._spans.clear()
        return moved
