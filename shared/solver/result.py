"""What a search may spend (:class:`Budget`) and what it found (:class:`Result`).

The solver reads no clock of its own: ``shared`` stays pure, and a budget in
positions alone gives the same answer on every machine. A caller that wants a
time limit hands in its clock.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

WON = "won"
UNWINNABLE = "unwinnable"
UNKNOWN = "unknown"

#: positions any one search may remember, whatever the budget says: the memory bound
#: (a remembered position costs a few hundred bytes)
MEMORY_POSITIONS = 1_500_000


@dataclass(frozen=True)
class Budget:
    """Stop after ``positions`` distinct positions, or ``seconds`` by ``clock``, first reached.

    ``positions=None`` leaves only the time limit and the memory bound.
    """

    positions: int | None = 100_000
    seconds: float | None = None
    clock: Callable[[], float] | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and self.clock is None:
            raise ValueError("a time budget needs a clock: Budget(seconds=..., clock=...)")
        if self.positions is not None and self.positions < 1:
            raise ValueError(f"a budget of {self.positions!r} positions searches nothing")

    def limits(self) -> Limits:
        cap = MEMORY_POSITIONS if self.positions is None else min(self.positions, MEMORY_POSITIONS)
        deadline = None
        start = None
        if self.clock is not None:
            start = self.clock()
            if self.seconds is not None:
                deadline = start + self.seconds
        return Limits(cap, self.clock, start, deadline)


@dataclass
class Limits:
    """A budget being spent: checked by the search loops."""

    positions: int
    clock: Callable[[], float] | None
    start: float | None
    deadline: float | None

    def out_of_time(self) -> bool:
        return self.deadline is not None and self.clock is not None and self.clock() > self.deadline

    def elapsed(self) -> float | None:
        if self.clock is None or self.start is None:
            return None
        return self.clock() - self.start


@dataclass(frozen=True)
class Result:
    """``won`` with a winning line, ``unwinnable`` (all reachable positions seen) or ``unknown``.

    ``line`` holds canonical actions that replay to a win through the engine from
    the position searched; ``seconds`` is None when no clock was given.
    """

    verdict: str
    line: tuple[str, ...] = field(default=())
    positions: int = 0
    seconds: float | None = None
    #: when ``unknown``: the line to the position the search scored best (where it was
    #: heading when the budget ran out), for hints; empty when none beat the start
    lead: tuple[str, ...] = field(default=())

    @property
    def won(self) -> bool:
        return self.verdict == WON


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a search (back on after it, if it was on).

    A search allocates a few containers per position (its states, keys and heap entries,
    none of them ever in a cycle: reference counting frees what it drops) and keeps
    hundreds of thousands, so the collector's runs, each walking what the search keeps,
    took about 30% of a Gypsy search's CPU (docs/solver.md, "Gypsy: the collector paused").
    Off, it frees nothing less: the search makes no cycles. The switch is the interpreter's,
    so while a search runs the collector is off for the process's other threads too (a hint
    thread in the server: their cycles wait until it ends); two overlapping searches may leave
    it on for the end of the later one, never off after both.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


__all__ = [
    "MEMORY_POSITIONS",
    "UNKNOWN",
    "UNWINNABLE",
    "WON",
    "Budget",
    "Limits",
    "Result",
    "collector_paused",
]
