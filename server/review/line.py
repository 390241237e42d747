"""What review learns by replaying a won result and solving its deal: work for a thread.

:func:`solver_line` solves a deal from its start within a budget (the
solver's own search; its line for a deal is the same every time, which is
what a script that plays the solver's line plays); :func:`line_of` replays
the result's actions, counts the moves that brought the game back where it
had stood, and compares the actions with that line. Both are plain
functions of the game's record: :class:`server.review.service.ReviewService`
runs them in a thread of its own, never on the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from server.review.rule import Line
from shared.games import new_game
from shared.notation import UNDO
from shared.solver import WON, Budget, solve_position
from shared.variants import STANDARD, Variants


def _fresh(record: Mapping[str, Any], variants: Variants) -> Any:
    key = record.get("key")
    return new_game(
        record["variant"],
        seed=record.get("seed"),
        key=bytes.fromhex(key) if key is not None else None,
        options=record.get("options") or {},
        variants=variants,
    )


def solver_line(
    record: Mapping[str, Any], positions: int, seconds: float, variants: Variants = STANDARD
) -> tuple[str, ...] | None:
    """The line the solver finds for the record's deal from its start, within ``positions``
    and ``seconds``; None when it finds none."""
    budget = Budget(positions=positions, seconds=seconds, clock=time.monotonic)
    result = solve_position(_fresh(record, variants), budget)
    return result.line if result.verdict == WON else None


def line_of(
    record: Mapping[str, Any], solver: Sequence[str] | None, variants: Variants = STANDARD
) -> Line:
    """Replay the record's actions: how many moves came back to a position seen before, and
    how many of the first actions are ``solver``'s line."""
    game = _fresh(record, variants)
    seen = {game.position.key()}
    revisits = 0
    actions: list[str] = list(record["actions"])
    for action in actions:
        if action == UNDO:
            game.undo()
            continue
        game.play(action)
        key = game.position.key()
        revisits += key in seen
        seen.add(key)
    followed = 0
    for mine, theirs in zip(actions, solver or (), strict=False):
        if mine != theirs:
            break
        followed += 1
    return Line(None if solver is None else len(solver), revisits, followed)
