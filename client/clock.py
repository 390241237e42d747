"""Time as the client shows it: the server's ``elapsed_ms`` plus what passed since it arrived.

The server times every game; the client only keeps the displayed clock moving
between replies, from a clock it is given (tests give a fixed one).
"""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]


def format_ms(ms: int) -> str:
    """``83000`` -> ``"01:23"``; hours appear only when needed."""
    seconds = max(ms, 0) // 1000
    minutes, sec = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02}:{sec:02}"
    return f"{minutes:02}:{sec:02}"


class GameClock:
    """The shown elapsed time of one game: the server's ``elapsed_ms`` advanced locally.

    The time shown never goes back while the game runs: a view that arrives
    older than what is shown (the view kept after a refused move, a reply that
    crossed the clock's last tick) only stops the clock from getting ahead of
    the server; it never rewinds it. A new game starts from its own time, and
    a game that has ended shows the server's final time, the one that ranks.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.base_ms = 0
        self.received = clock()
        self.running = False
        self.game: str | None = None

    def set(self, elapsed_ms: int, running: bool, game: str | None = None) -> None:
        """Take in a view's time; ``game`` names the game (a new one resets the clock)."""
        shown = self.now_ms()
        same = game is None or game == self.game
        self.game = game if game is not None else self.game
        self.received = self.clock()
        self.running = running
        self.base_ms = max(elapsed_ms, shown) if same and running else elapsed_ms

    def now_ms(self) -> int:
        if not self.running:
            return self.base_ms
        return self.base_ms + int((self.clock() - self.received) * 1000)


class GameClocks:
    """The clock of each game this client shows, by game id, shared by its screens.

    A board opened again on a game (back from the race room, from watching a
    racer) continues the clock it showed rather than starting one of its own
    from the last view's ``elapsed_ms``, older by the time spent elsewhere: the
    clock went back when switching screens. Only the latest few are kept.
    """

    KEPT = 16

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._by_game: dict[str, GameClock] = {}

    def of(self, game: str) -> GameClock:
        found = self._by_game.pop(game, None)
        if found is None:
            found = GameClock(self.clock)
        self._by_game[game] = found  # the latest last
        while len(self._by_game) > self.KEPT:
            del self._by_game[next(iter(self._by_game))]
        return found
