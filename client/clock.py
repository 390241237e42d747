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
    """The shown elapsed time of one game view."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.base_ms = 0
        self.received = clock()
        self.running = False

    def set(self, elapsed_ms: int, running: bool) -> None:
        self.base_ms = elapsed_ms
        self.received = self.clock()
        self.running = running

    def now_ms(self) -> int:
        if not self.running:
            return self.base_ms
        return self.base_ms + int((self.clock() - self.received) * 1000)
