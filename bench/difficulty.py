"""``python -m bench difficulty``: the difficulty measure's thresholds, and its check by play.

Part one solves ``--deals`` keyed deals per variant, as the deal pool's
workers do (server/deals/difficulty.py: the variant's search within its
``daily_positions``), and prints the won deals' positions searched: their
thirds are the thresholds of ``THRESHOLDS``. The keys are SHA-256 of
``bench/difficulty|VARIANT|n``, so a run is repeatable.

Part two (``--play N``) follows the first N won deals of each difficulty
with the view-only hint player of bench/hint.py (``--avoid`` as there: told
where it has been) to their end, and prints its wins by difficulty: the
measure is worth having when easy deals are won more often than hard ones.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Sequence

from bench.hint import MAX_ACTIONS, VARIANTS, adviser
from server.deals.difficulty import THRESHOLDS, difficulty_of
from shared.games import new_game
from shared.protocol.games import DIFFICULTIES
from shared.solver import DEFAULT_HINT_BUDGET, WON, Budget, solve_position
from shared.variants import STANDARD


def key_of(variant: str, n: int) -> bytes:
    return hashlib.sha256(f"bench/difficulty|{variant}|{n}".encode()).digest()


def measured(variant: str, deals: int) -> list[tuple[bytes, int]]:
    """The won deals among ``deals`` keys of ``variant``, with the positions each took."""
    rules = STANDARD.get(variant)
    won = []
    for n in range(deals):
        key = key_of(variant, n)
        game = new_game(variant, key=key)
        budget = Budget(positions=rules.daily_positions, seconds=10.0, clock=time.monotonic)
        result = solve_position(game, budget)
        if result.verdict == WON:
            won.append((key, result.positions))
    return won


def followed(variant: str, key: bytes, avoid: bool) -> bool:
    """Whether the view-only hint player wins the deal of ``key``."""
    game = new_game(variant, key=key)
    advise = adviser("view", DEFAULT_HINT_BUDGET, avoid)
    seen: set[object] = set()
    while game.ply < MAX_ACTIONS and game.state == "playing":
        position = game.position.key()
        if position in seen:
            return False
        seen.add(position)
        move = advise(game)
        if move is None:
            return False
        game.play(move)
    return game.state == "won"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench difficulty")
    parser.add_argument("--deals", type=int, default=40, help="keyed deals solved per variant")
    parser.add_argument("--play", type=int, default=0, help="won deals played per difficulty")
    parser.add_argument("--avoid", action="store_true", help="the hint avoids past positions")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    args = parser.parse_args(argv)
    print(f"{args.deals} keyed deals per variant, daily budget; play {args.play} per difficulty")
    for variant in args.variants.split(","):
        started = time.perf_counter()
        won = measured(variant, args.deals)
        positions = sorted(p for _, p in won)
        thirds = statistics.quantiles(positions, n=3) if len(positions) >= 3 else [float("nan")] * 2
        limits = THRESHOLDS.get(variant)
        median = statistics.median(positions) if positions else 0
        print(
            f"{variant}: won {len(won)}/{args.deals}; positions median {median:.0f},"
            f" thirds at {thirds[0]:.0f} / {thirds[1]:.0f}; thresholds {limits}"
            f" ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        if not args.play:
            continue
        for difficulty in DIFFICULTIES:
            keys = [k for k, p in won if difficulty_of(variant, p) == difficulty][: args.play]
            wins = sum(followed(variant, key, args.avoid) for key in keys)
            print(
                f"  {difficulty}: the view-only hint player won {wins} of {len(keys)}", flush=True
            )
