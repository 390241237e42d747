"""Look-alike positions are shown alike: the state, the legal list and the hint depend on the
player's view alone, never on the face-down cards behind it.

The attack this guards against (bench/look_alike.py measures it): a client deals
the cards it has not seen into the face-down places in other arrangements,
asks the engine what each would show, and compares with what its game shows.
When the stuck verdict was decided on the real face-down cards, the state
(and with it the legal list and the hint) differed for some arrangements, and
the ones that agreed told the client about its hidden cards.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView
from shared.solver.hints import HintBudget, hint
from tests.shared.positions import CONFIG_PARAMS

#: small, so that the hints of many positions stay cheap; the same for every look-alike
HINT_BUDGET = HintBudget(samples=2, positions=150)


def shown(game: Game, with_hint: bool) -> tuple[str, list[str], str | None]:
    """What the game's player is shown that the stuck verdict decides."""
    view = PlayerView.of(game)
    told = hint(view, game.rules, sampling_seed=7, budget=HINT_BUDGET) if with_hint else None
    return game.state, game.legal_moves(), told


@pytest.mark.parametrize(("variant", "options"), CONFIG_PARAMS)
def test_positions_that_look_alike_are_shown_alike(variant: str, options: dict[str, Any]) -> None:
    rng = random.Random(20261204)
    looked = 0
    for deal in range(1, 9):
        game = new_game(variant, seed=deal, options=options)
        for step in range(160):
            view = PlayerView.of(game)
            if view.unseen:
                with_hint = step % 16 == 5
                mine = shown(game, with_hint)
                for _ in range(3):
                    cards = list(view.unseen)
                    rng.shuffle(cards)
                    other = Game(game.rules, game.deal, position=view.fill(cards))
                    # the same board as the player sees it (the state aside: that is the test)
                    assert PlayerView.seen(other.rules, other.position) == dataclasses.replace(
                        view, state="playing"
                    )
                    assert shown(other, with_hint) == mine, (deal, game.actions)
                looked += 1
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
    if variant == "freecell":
        assert looked == 0  # every card face up: nothing to arrange
    else:
        assert looked >= 200
