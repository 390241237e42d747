"""Checks on the solver's won lines that several solver test modules share."""

from __future__ import annotations

from collections.abc import Iterable

from shared.game import Game
from shared.position import Position
from shared.solver import WON, Budget, solve_rules
from shared.variants.base import Rules


def replays_to_a_win(rules: Rules, position: Position, line: tuple[str, ...]) -> bool:
    """Played through the engine from ``position``, ``line`` wins the game."""
    game = Game(rules, 1, position=position.copy())
    for action in line:
        game.play(action)
    return game.state == "won"


def won_deals(rules: Rules, seeds: Iterable[int], positions: int) -> int:
    """Solve each seed's deal within ``positions``; every line said won must replay to
    a win through the engine. How many deals were won."""
    won = 0
    for seed in seeds:
        deal = rules.deal(seed)
        result = solve_rules(rules, deal, Budget(positions=positions))
        if result.verdict == WON:
            assert replays_to_a_win(rules, deal, result.line), (rules.id, seed)
            won += 1
    return won
