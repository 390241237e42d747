"""The boards of a replay: the deal, then each action's changed piles, made in a thread.

The game is dealt again from its record and played action by action, undos
included, exactly as it was played; each board is what the player saw then
(face-down cards as counts: :meth:`shared.game.Game.board`). After the first,
a board holds only the piles the action changed, so that a game of thousands
of actions stays a small reply.
"""

from __future__ import annotations

from collections.abc import Callable

from shared import protocol as p
from shared.game import Game
from shared.games import replay
from shared.protocol.views import PileView
from shared.stuck import StuckProver
from shared.variants import Variants


def replay_job(
    game: Game, variants: Variants, prover: StuckProver
) -> tuple[tuple[str, ...], Callable[[], tuple[p.Board, ...]]]:
    """The game's actions, taken now (on the loop, while the game cannot change), and the
    work that makes its boards from them (in a thread)."""
    record = game.record(reveal_key=True)
    actions = tuple(record["actions"])

    def job() -> tuple[p.Board, ...]:
        again = replay(
            {**record, "actions": [], "resigned": False}, variants=variants, prover=prover
        )
        shown: tuple[PileView, ...] = again.board().piles
        boards = [p.Board(piles=shown)]
        for action in actions:
            again.play(action)
            piles = again.board().piles
            boards.append(
                p.Board(piles=tuple(b for a, b in zip(shown, piles, strict=True) if a != b))
            )
            shown = piles
        return tuple(boards)

    return actions, job
