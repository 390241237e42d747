"""The review rule: whether a ranked result was played faster or straighter than a person plays.

A pure function of what the result's actions were and when the server
received them (:class:`Played`), and, for a won result, of what replaying it
and solving its deal found (:class:`Line`, computed off the event loop by
:mod:`server.review.line`). No I/O, no clock. Times are the server's own,
stamped when each action arrived, before it waited for anything: a client
cannot set them, and a slow server cannot make a person look fast.

A result with at least ``min_actions`` actions (moves, deals, undos: every
stored action; a resign is none) is held for each of these, whose limits
are settings (0 turns one off); gaps are between receiving consecutive
actions, the first measured from the game's start (a race's:
``race_started``):

=============  =====================================================================
reason         held when
=============  =====================================================================
``median``     the median gap is under ``median_ms``
``p25``        the 25th percentile of the gaps is under ``p25_ms``
``p10``        the 10th percentile of the gaps is under ``p10_ms``
``first``      on a deal the player had never seen, the first action came sooner than
               ``first_ms`` after the game started
``floor``      the whole game took less than the sum of its actions' physical floors
               (:mod:`server.review.floor`, with ``key_ms`` a key press)
``efficient``  a win on a solver's line: no undo, no position revisited, at most
               ``slack`` times the moves of the solver's line for the deal, and fewer
               than ``pauses`` pauses of ``pause_ms`` or more after the first action
=============  =====================================================================

The first five see what a hand cannot do; the last what a mind does not:
a person who has never seen a deal explores, hesitates and wastes a move.
Why each is set where it is: docs/fair-play.md, "Review, for operators".
"""

from __future__ import annotations

import enum
import statistics
from dataclasses import dataclass

from server.review.floor import KEY_MS, floor_ms
from shared.notation import UNDO


@dataclass(frozen=True, slots=True)
class Played:
    """What review reads of a ranked result."""

    #: every stored action as the engine recorded it (``t4>r0``, ``deal``, ``undo``)
    actions: tuple[str, ...]
    #: when the server received each of them, milliseconds
    received_ms: tuple[int, ...]
    #: when the game (or its race) started, milliseconds
    start_ms: int
    #: a deal the player had never seen (keyed, its key not theirs): a daily, a keyed race
    fresh: bool = True
    won: bool = False

    @property
    def gaps(self) -> list[int]:
        times = self.received_ms
        return [b - a for a, b in zip((self.start_ms, *times), times, strict=False)]

    @property
    def undos(self) -> int:
        return sum(1 for action in self.actions if action == UNDO)

    @property
    def moves(self) -> int:
        """The actions that are not undos."""
        return len(self.actions) - self.undos


@dataclass(frozen=True, slots=True)
class Line:
    """What replaying a won result and solving its deal found."""

    #: the length of the line the solver found for the deal; None when it found none in budget
    solver_moves: int | None
    #: actions (not undos) after which the game stood where it had stood before
    revisits: int
    #: how many of the result's first actions are the solver's line, in order
    followed: int


@dataclass(frozen=True, slots=True)
class Figures:
    """The numbers the reasons are judged on (an operator reads them too)."""

    actions: int
    median_ms: int
    p25_ms: int
    p10_ms: int
    first_ms: int
    elapsed_ms: int
    floor_ms: int
    #: gaps of ``pause_ms`` or more after the first action
    pauses: int
    undos: int


class Why(enum.Enum):
    MEDIAN = "median"
    P25 = "p25"
    P10 = "p10"
    FIRST = "first"
    FLOOR = "floor"
    EFFICIENT = "efficient"


@dataclass(frozen=True, slots=True)
class Reason:
    why: Why
    #: for an operator: the figure and the limit it is under
    text: str


@dataclass(frozen=True, slots=True)
class Review:
    """The verdict: the figures, and a reason per limit crossed (none: not held)."""

    figures: Figures
    reasons: tuple[Reason, ...]
    #: a won result on a solver's line, however slowly played (kept across results)
    efficient: bool = False

    @property
    def held(self) -> bool:
        return bool(self.reasons)

    @property
    def why(self) -> frozenset[Why]:
        return frozenset(reason.why for reason in self.reasons)

    def text(self) -> str:
        return "; ".join(reason.text for reason in self.reasons)


def quantile(values: list[int], q: float) -> int:
    """The lower nearest-rank ``q`` quantile of ``values`` (not empty)."""
    ordered = sorted(values)
    return ordered[int(q * (len(ordered) - 1))]


@dataclass(frozen=True, slots=True)
class Rule:
    min_actions: int = 20
    median_ms: int = 200
    p25_ms: int = 120
    p10_ms: int = 60
    first_ms: int = 1000
    key_ms: int = KEY_MS
    pause_ms: int = 2000
    pauses: int = 2
    slack: float = 1.25

    def figures(self, played: Played) -> Figures:
        gaps = played.gaps or [0]
        return Figures(
            actions=len(played.actions),
            median_ms=int(statistics.median(gaps)),
            p25_ms=quantile(gaps, 0.25),
            p10_ms=quantile(gaps, 0.10),
            first_ms=gaps[0],
            elapsed_ms=(played.received_ms or (played.start_ms,))[-1] - played.start_ms,
            floor_ms=sum(floor_ms(action, self.key_ms) for action in played.actions),
            pauses=sum(1 for gap in gaps[1:] if gap >= self.pause_ms),
            undos=played.undos,
        )

    def judged(self, played: Played) -> bool:
        """Whether the result has enough actions to be judged at all."""
        return len(played.actions) >= max(1, self.min_actions)

    def wants_line(self, played: Played) -> bool:
        """Whether :meth:`judge` needs a :class:`Line`: a win without an undo, long enough
        to judge (anything else is no solver's line)."""
        return self.judged(played) and played.won and played.undos == 0

    def efficient(self, played: Played, line: Line | None) -> bool:
        """A win on a solver's line: no undo, nothing revisited, within the slack of the
        solver's moves."""
        if line is None or line.solver_moves is None or not self.wants_line(played):
            return False
        return line.revisits == 0 and played.moves <= line.solver_moves * self.slack

    def judge(self, played: Played, line: Line | None = None) -> Review:
        figures = self.figures(played)
        if not self.judged(played):
            return Review(figures, ())
        reasons = []
        f = figures
        for why, value, limit, what in (
            (Why.MEDIAN, f.median_ms, self.median_ms, "median gap"),
            (Why.P25, f.p25_ms, self.p25_ms, "25th percentile gap"),
            (Why.P10, f.p10_ms, self.p10_ms, "10th percentile gap"),
        ):
            if value < limit:
                reasons.append(Reason(why, f"{what} {value} ms, under {limit} ms"))
        if played.fresh and f.first_ms < self.first_ms:
            reasons.append(
                Reason(
                    Why.FIRST,
                    f"first action {f.first_ms} ms into a deal never seen, "
                    f"under {self.first_ms} ms",
                )
            )
        if f.elapsed_ms < f.floor_ms:
            reasons.append(
                Reason(
                    Why.FLOOR,
                    f"{f.actions} actions in {f.elapsed_ms} ms, under their physical floor "
                    f"of {f.floor_ms} ms",
                )
            )
        efficient = self.efficient(played, line)
        if efficient and f.pauses < self.pauses:
            assert line is not None and line.solver_moves is not None
            reasons.append(
                Reason(
                    Why.EFFICIENT,
                    f"a win on a solver's line: {played.moves} moves against the solver's "
                    f"{line.solver_moves} ({line.followed} of them its very line), no undo, "
                    f"no position revisited, {f.pauses} pauses of {self.pause_ms} ms or more",
                )
            )
        return Review(figures, tuple(reasons), efficient)
