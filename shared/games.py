"""The public face of the engine: ``new_game``, ``replay`` and ``rules_for`` over a registry.

::

    from shared.games import new_game, replay
    game = new_game("freecell", seed=617, options={"autoplay": True})
    game.play("t3>f0")
    same = replay(game.record())

Each takes the registry of variants to look the id up in (``variants``,
:data:`shared.variants.STANDARD` unless told) and the
:class:`~shared.stuck.StuckProver` the game's stuck searches run in
(``prover``: a server shares one among its games; without one each game
makes a small one of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.deals import check_seed
from shared.game import Game
from shared.record import check_record, play_actions
from shared.stuck import StuckProver
from shared.variants import STANDARD, Variants
from shared.variants.base import Rules


def rules_for(
    variant: str, options: Mapping[str, object] | None = None, variants: Variants = STANDARD
) -> Rules:
    """The rules of ``variant`` with ``options`` checked and merged over the defaults."""
    return variants.rules(variant, options)


def new_game(
    variant: str,
    *,
    seed: int,
    options: Mapping[str, object] | None = None,
    variants: Variants = STANDARD,
    prover: StuckProver | None = None,
) -> Game:
    """A new game of ``variant`` dealt from ``seed`` (1 .. 2**31 - 1)."""
    return Game(variants.rules(variant, options), check_seed(seed), prover=prover)


def replay(
    record: Mapping[str, Any], *, variants: Variants = STANDARD, prover: StuckProver | None = None
) -> Game:
    """Rebuild the exact game a record describes (see :mod:`shared.record`)."""
    checked = check_record(record)
    game = new_game(
        checked["variant"],
        seed=checked["seed"],
        options=checked["options"],
        variants=variants,
        prover=prover,
    )
    play_actions(game, checked["actions"])
    if checked["resigned"]:
        game.resign()
    return game
