"""Each player's latest deal in each arena, as this node last wrote or read it.

A deal's end and the player's next ``arena_play`` used to read the deal's
``arena_games`` row first (which deal, its allowance, whether it was scored):
two reads per deal that the node had itself written a moment before. A seat is
that row kept in memory: set when this node deals, scores or reads a deal,
forgotten with the arena.

A seat is a hint, never the arbiter. With several nodes a player may have
played on elsewhere meanwhile, and every use of a seat stays right when it is
behind the database: the game it names is taken as stored
(:meth:`~server.games.store.GameStore.current` reloads it), a result is
scored under the lock of the player's rows as stored (a deal scored
elsewhere is left as it is), and the next deal dealt from a stale seat loses
to the one stored (``arena_games`` is unique by arena, player and deal: the
player gets the stored one).
"""

from __future__ import annotations

from dataclasses import dataclass

from server.storage.models import ArenaGame


@dataclass(slots=True)
class Seat:
    """A deal dealt to a player in an arena: the facts of its ``arena_games`` row."""

    game_id: str
    arena: str
    player_id: int
    seq: int
    berserk: bool
    allowance_ms: int
    deadline_ms: int
    #: how it ended once scored (None: being played, or ended and not yet scored)
    state: str | None

    @classmethod
    def of(cls, row: ArenaGame) -> Seat:
        return cls(
            row.game_id,
            row.arena,
            row.player_id,
            row.seq,
            row.berserk,
            row.allowance_ms,
            row.deadline_ms,
            row.state,
        )


class ArenaSeats:
    """The latest seat of each player in each arena on this node, by player and by game."""

    def __init__(self) -> None:
        self._latest: dict[tuple[str, int], Seat] = {}
        self._games: dict[str, Seat] = {}

    def latest(self, code: str, player: int) -> Seat | None:
        return self._latest.get((code, player))

    def of_game(self, game_id: str) -> Seat | None:
        return self._games.get(game_id)

    def note(self, seat: Seat) -> None:
        """The player's latest deal is this one (an earlier one is forgotten)."""
        key = (seat.arena, seat.player_id)
        old = self._latest.get(key)
        if old is not None:
            if old.seq > seat.seq:
                return  # a later deal is known already
            self._games.pop(old.game_id, None)
        self._latest[key] = seat
        self._games[seat.game_id] = seat

    def forget(self, code: str) -> None:
        for key in [k for k in self._latest if k[0] == code]:
            seat = self._latest.pop(key)
            self._games.pop(seat.game_id, None)
