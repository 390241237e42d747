"""An arena's standings as one node holds them: every ranked player's totals, sorted on need.

A node loads an arena's table from the database the first time it needs it and
keeps it up to date from the deals it scores itself and from the others'
``ArenaScored`` news; ``version`` grows with every change, so that the
standings are pushed only when they changed. Equal points share a rank; among
them the player with more wins comes first, then by name (the order of the
list, not the rank). Bots and banned players are never in a table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared import protocol as p


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


@dataclass(slots=True)
class Standings:
    lines: dict[int, Line] = field(default_factory=dict)
    version: int = 0
    _sorted: list[tuple[int, Line]] | None = None
    _ranks: dict[int, int] | None = None

    def set(self, line: Line) -> bool:
        """Put a player's totals in; whether the table changed."""
        old = self.lines.get(line.player)
        if old is not None and (old.points, old.played, old.wins, old.fire, old.name) == (
            line.points,
            line.played,
            line.wins,
            line.fire,
            line.name,
        ):
            return False
        self.lines[line.player] = line
        self.version += 1
        self._sorted = self._ranks = None
        return True

    def remove(self, player: int) -> None:
        if self.lines.pop(player, None) is not None:
            self.version += 1
            self._sorted = self._ranks = None

    def ranked(self) -> list[tuple[int, Line]]:
        """(rank, line), best first."""
        if self._sorted is None:
            order = sorted(self.lines.values(), key=lambda x: (-x.points, -x.wins, x.name))
            ranked: list[tuple[int, Line]] = []
            for index, line in enumerate(order):
                tied = ranked and ranked[-1][1].points == line.points
                ranked.append((ranked[-1][0] if tied else index + 1, line))
            self._sorted = ranked
            self._ranks = {line.player: rank for rank, line in ranked}
        return self._sorted

    def top(self, count: int) -> tuple[p.ArenaEntry, ...]:
        return tuple(line.entry(rank) for rank, line in self.ranked()[:count])

    def me(self, player: int) -> p.ArenaEntry | None:
        line = self.lines.get(player)
        if line is None:
            return None
        self.ranked()
        assert self._ranks is not None
        return line.entry(self._ranks[player])
