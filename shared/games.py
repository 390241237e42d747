"""The public face of the engine: ``new_game``, ``replay`` and ``rules_for`` over a registry.

::

    from shared.games import new_game, replay
    game = new_game("freecell", seed=617, options={"autoplay": True})
    game.play("t3>f0")
    same = replay(game.record())
    secret = new_game("gypsy", key=secrets.token_bytes(32))   # a keyed deal
    again = replay(secret.record(reveal_key=True))

Each takes the registry of variants to look the id up in (``variants``,
:data:`shared.variants.STANDARD` unless told) and the
:class:`~shared.stuck.StuckProver` the game's stuck searches run in
(``prover``: a server shares one among its games; without one each game
makes a small one of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.deals import deal_of, parse_key
from shared.errors import InvalidRecord
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
    seed: int | None = None,
    key: bytes | None = None,
    options: Mapping[str, object] | None = None,
    variants: Variants = STANDARD,
    prover: StuckProver | None = None,
) -> Game:
    """A new game of ``variant``: the numbered deal ``seed`` (1 .. 2**31 - 1) or the keyed
    deal of ``key`` (32 bytes), exactly one of them."""
    rules = variants.rules(variant, options)
    return Game(rules, deal_of(rules.id, seed=seed, key=key), prover=prover)


def replay(
    record: Mapping[str, Any], *, variants: Variants = STANDARD, prover: StuckProver | None = None
) -> Game:
    """Rebuild the exact game a record describes (see :mod:`shared.record`)."""
    checked = check_record(record)
    if "commitment" in checked:
        raise InvalidRecord(
            f"the record's keyed deal (commitment {checked['commitment'][:16]}...) is still "
            "secret: it replays once the record holds its key"
        )
    game = new_game(
        checked["variant"],
        seed=checked.get("seed"),
        key=parse_key(checked["key"]) if "key" in checked else None,
        options=checked["options"],
        variants=variants,
        prover=prover,
    )
    play_actions(game, checked["actions"])
    if checked["resigned"]:
        game.resign()
    return game
