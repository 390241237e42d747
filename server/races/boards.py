"""What the members of a room see of its racers' boards while a race runs: the board rule.

A spectator (or a racer whose game has ended) who watches a racer sees cards
that racer has turned; a second account of a racer, joined as a spectator,
would see the leader's. So a room says how boards are shown during a race
(RoomView's ``boards``): ``live`` (at once), ``delayed`` (each board as it
was ``board_delay_s`` ago, 60 s by default) or ``hidden`` (progress only). A
rated room's are hidden. Once the race is over every board may be watched.

The rule is applied on the room's owner for every path a board takes: the
answer to ``watch`` (:meth:`Boards.shown`), and the board pushed after each
action of a racer, played on this node or told by another
(:meth:`Boards.acted`). A delayed board is kept here with the time it was
played, by the server's clock, and pushed by the races' tick once its delay
has passed (:meth:`Boards.due`). A node that takes a room over mid-race (its
owner died or stopped), or a server that restarts, has none kept: it rebuilds
each racer's boards of the race from the stored moves, each with the time the
server received it (:func:`history`, :meth:`Boards.rebuilt`), so that its
watchers see the whole board as it was ``board_delay_s`` ago, not only the
moves played since.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from server.errors import RaceInProgress
from server.games.live import LiveGame
from server.races.rooms import RoomTable
from server.races.state import RACING, RoomState
from shared import protocol as p
from shared.game import Game
from shared.notation import UNDO

#: boards kept per racer for a delayed room: enough for the delay at a fast pace
KEPT = 2_000

#: a racer's boards of a race, oldest first, each with the time it was played (ms)
History = list[tuple[int, p.GameView]]


def history(live: LiveGame, played: list[tuple[str, int]]) -> History:
    """The boards a race game showed, from its deal through each of its stored actions
    (``played``: the action and when the server received it, in order), each as it was
    then (its clock at that time). Replays the game: may run stuck searches, so a thread's
    work, not the event loop's."""
    game = Game(live.game.rules, live.game.deal, prover=live.game.prover)
    shown = LiveGame(
        id=live.id, owner=live.owner, game=game, started_ms=live.started_ms, kind=live.kind
    )
    boards = [(live.started_ms, shown.view(live.started_ms))]
    for action, ms in played:
        if action == UNDO:
            game.undo()
        else:
            game.play(action)
        boards.append((ms, shown.view(ms)))
    return boards


class Boards:
    def __init__(self, table: RoomTable, clock: Callable[[], int], delay_s: int) -> None:
        self.table = table
        self.clock = clock
        self.delay_ms = delay_s * 1000
        #: (room, racer) -> the racer's boards of the current race not yet pushed, oldest
        #: first, each with the time it was played; and the last one pushed
        self._waiting: dict[tuple[str, int], deque[tuple[int, p.GameView]]] = {}
        self._pushed: dict[tuple[str, int], p.GameView] = {}

    @staticmethod
    def rule(room: RoomState) -> str:
        """How the room's boards are shown now: as the room says while it races, else live."""
        if room.state != RACING:
            return p.LIVE
        return p.HIDDEN if room.rated else room.boards

    def started(self, room: RoomState, views: dict[int, p.GameView]) -> None:
        """A race started with these first boards: what a delayed watch shows first."""
        self.over(room)
        if self.rule(room) != p.DELAYED:
            return
        now = self.clock()
        for player, view in views.items():
            self._waiting[(room.code, player)] = deque([(now, view)], maxlen=KEPT)

    def acted(self, room: RoomState, player: int, view: p.GameView) -> None:
        """A racer's new board: pushed to its watchers now, once its delay has passed
        (:meth:`due`), or not at all."""
        rule = self.rule(room)
        if rule == p.LIVE:
            board = p.GameReply(game=view, code=room.code, player=player)
            self.table.push_board(room.code, player, board)
        elif rule == p.DELAYED:
            waiting = self._waiting.setdefault((room.code, player), deque(maxlen=KEPT))
            waiting.append((self.clock(), view))

    def rebuilt(self, room: RoomState, histories: dict[int, History]) -> None:
        """The racers' boards of the race so far, rebuilt from the stored moves (a room
        taken over, or loaded at a restart): kept as if played here, before the boards
        kept since (played here during the rebuild); what is already due is pushed."""
        if self.rule(room) != p.DELAYED:
            return
        cutoff = self.clock() - self.delay_ms
        for player, boards in histories.items():
            key = (room.code, player)
            since = self._waiting.get(key)
            first = since[0][1].ply if since else None
            kept: deque[tuple[int, p.GameView]] = deque(maxlen=KEPT)
            for played in boards:
                if first is not None and played[1].ply >= first:
                    break
                # of the boards already due, only the latest is ever shown
                if kept and kept[-1][0] <= cutoff and played[0] <= cutoff:
                    kept.pop()
                kept.append(played)
            kept.extend(since or ())
            self._waiting[key] = kept
        self.due(room)

    def due(self, room: RoomState) -> None:
        """Push the boards of ``room`` whose delay has passed (the races' tick calls it)."""
        cutoff = self.clock() - self.delay_ms
        for (code, player), waiting in self._waiting.items():
            if code != room.code:
                continue
            latest = None
            while waiting and waiting[0][0] <= cutoff:
                latest = waiting.popleft()[1]
            if latest is not None:
                self._pushed[(code, player)] = latest
                board = p.GameReply(game=latest, code=code, player=player)
                self.table.push_board(code, player, board)

    def shown(self, room: RoomState, player: int, target: int) -> p.GameView | None:
        """What a watch of ``target`` by ``player`` answers now: None for the board as it
        stands, a board of a while ago for a delayed room; refused where boards are hidden."""
        rule = self.rule(room)
        if rule == p.LIVE or player == target:
            return None
        if rule == p.HIDDEN:
            why = "a rated race" if room.rated else "this room hides boards"
            raise RaceInProgress(f"{why}: the racers' boards are shown once the race is over")
        self.due(room)
        shown = self._pushed.get((room.code, target))
        if shown is None:
            raise RaceInProgress(
                f"boards are shown {self.delay_ms // 1000} s behind: none is that old yet"
            )
        return shown

    def over(self, room: RoomState) -> None:
        """The race ended (or the room is gone): no delayed board is pushed any more."""
        for key in [key for key in (*self._waiting, *self._pushed) if key[0] == room.code]:
            self._waiting.pop(key, None)
            self._pushed.pop(key, None)
