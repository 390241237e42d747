"""The engine's typed view of a board (Game.board) shows what the game's plain map shows.

``board()`` keeps each pile's view while the pile's list is the same object
(the position's copy on write): a pile changed in place, or a view kept past
a change, would show an old pile. Random play with undos, auto and deals on
every variant checks each board against one made from scratch.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from shared.board_view import BoardView, PileView
from shared.games import new_game
from shared.variants import STANDARD


def from_scratch(plain: dict[str, object]) -> BoardView:
    """The board of the engine's plain map (:meth:`Game.view`), built anew."""
    piles = plain["piles"]
    assert isinstance(piles, list)
    return BoardView(
        plain["variant"],  # type: ignore[arg-type]
        plain["options"],  # type: ignore[arg-type]
        plain["ply"],  # type: ignore[arg-type]
        plain["moves"],  # type: ignore[arg-type]
        plain["undos"],  # type: ignore[arg-type]
        plain["score"],  # type: ignore[arg-type]
        plain["max_score"],  # type: ignore[arg-type]
        plain["state"],  # type: ignore[arg-type]
        plain["redeals_left"],  # type: ignore[arg-type]
        tuple(PileView(q["id"], q["down"], tuple(q["up"])) for q in piles),
        tuple(plain["legal"]),  # type: ignore[arg-type]
    )


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(sorted(STANDARD.ids)), st.integers(1, 10_000), st.integers(0, 2**32))
def test_every_board_of_random_play_is_the_board_made_from_scratch(
    variant: str, seed: int, choices: int
) -> None:
    rng = random.Random(choices)
    game = new_game(variant, seed=seed)
    for _ in range(80):
        if rng.random() < 0.3:  # a look now and then: piles change several times between
            assert game.board() == from_scratch(game.view())
        legal = game.legal_moves()
        if game.state != "playing":
            break
        roll = rng.random()
        if roll < 0.2:  # an undo, or auto (either refused when it would change nothing)
            with contextlib.suppress(ValueError):
                game.play("undo" if roll < 0.15 else "auto")
        else:
            game.play(rng.choice(legal))
    assert game.board() == from_scratch(game.view())
