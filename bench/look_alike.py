"""The look-alike attack: does what a game shows depend on cards its player has not seen?

A client sees its game's view (:class:`shared.player_view.PlayerView`). It can
deal the unseen cards into the face-down places in other arrangements, build
those boards with the engine, and compare what the engine would show for each
(the state and the legal moves) with what its game shows. Wherever they differ,
what is shown depends on the face-down cards, and the arrangements that agree
with it tell the client something about them.

This plays seeded random games of every variant and, at every position, builds
``--arrangements`` look-alikes (the same view, the unseen cards shuffled) and
counts the positions where one of them shows another state or legal list than
the game itself. Run ``python -m bench.look_alike`` (``--help`` for the knobs);
docs/fair-play.md gives the figures.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import Any

from shared.game import Game
from shared.games import new_game, rules_for
from shared.player_view import PlayerView

#: (variant, options): every variant whose cards may lie face down
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("osmosis", {"deal_three": False}),
    ("osmosis", {"deal_three": True}),
    ("thumb_and_pouch", {}),
    ("gypsy", {}),
    ("westhaven", {}),
)


def look_alikes(game: Game, count: int, rng: random.Random) -> list[Game]:
    """``count`` fresh games at boards that look like ``game``'s to its player."""
    view = PlayerView.of(game)
    games = []
    for _ in range(count):
        cards = list(view.unseen)
        rng.shuffle(cards)
        games.append(Game(game.rules, game.deal, position=view.fill(cards)))
    return games


def shown(game: Game) -> tuple[str, list[str]]:
    """What a client is shown that the stuck verdict decides: the state and the legal list."""
    return game.state, game.legal_moves()


def attack(
    variant: str, options: dict[str, Any], games: int, steps: int, arrangements: int, seed: int
) -> tuple[int, int]:
    """(positions where a look-alike shows something else, positions looked at)."""
    rules_for(variant, options)  # (an unknown option fails here, before any game)
    rng = random.Random(seed)
    differ = total = 0
    for deal in range(1, games + 1):
        game = new_game(variant, seed=deal, options=options)
        for _ in range(steps):
            if game.state != "playing":
                break
            if PlayerView.of(game).unseen:
                total += 1
                mine = shown(game)
                if any(shown(other) != mine for other in look_alikes(game, arrangements, rng)):
                    differ += 1
            legal = game.legal_moves()
            if not legal:
                break
            game.play(rng.choice(legal))
    return differ, total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per variant (default 20)")
    parser.add_argument("--steps", type=int, default=120, help="steps per game (default 120)")
    parser.add_argument(
        "--arrangements", type=int, default=4, help="look-alikes per position (default 4)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="seed of the play (default 2026)")
    parser.add_argument("--variant", action="append", help="only this variant (repeatable)")
    args = parser.parse_args(argv)
    for variant, options in CONFIGS:
        if args.variant and variant not in args.variant:
            continue
        differ, total = attack(
            variant, options, args.games, args.steps, args.arrangements, args.seed
        )
        label = variant + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label}: {differ} of {total} positions show something that depends on hidden cards")
    return 0


if __name__ == "__main__":
    sys.exit(main())
