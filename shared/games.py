"""The public face of the engine: the five variants, ``new_game`` and ``replay``.

::

    from shared.games import new_game, replay, VARIANTS
    game = new_game("freecell", seed=617, options={"autoplay": True})
    game.play("t3>f0")
    same = replay(game.record())
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shared.deals import check_seed
from shared.errors import InvalidOptions
from shared.game import Game
from shared.record import check_record
from shared.variants.base import Rules
from shared.variants.freecell import FreecellRules
from shared.variants.gypsy import GypsyRules
from shared.variants.osmosis import OsmosisRules
from shared.variants.thumb_and_pouch import ThumbAndPouchRules
from shared.variants.westhaven import WesthavenRules

RULES: dict[str, type[Rules]] = {
    cls.id: cls
    for cls in (OsmosisRules, ThumbAndPouchRules, GypsyRules, FreecellRules, WesthavenRules)
}

#: VariantInfo of protocol.md for each variant, in the order players see them
VARIANTS: list[dict[str, Any]] = [
    {
        "id": cls.id,
        "name": cls.name,
        "options": dict(cls.option_defaults),
        "max_score": cls.max_score,
    }
    for cls in RULES.values()
]


def rules_for(variant: str, options: Mapping[str, object] | None = None) -> Rules:
    """The rules of ``variant`` with ``options`` checked and merged over the defaults."""
    cls = RULES.get(variant) if isinstance(variant, str) else None
    if cls is None:
        raise InvalidOptions(f"unknown variant {variant!r} (variants: {', '.join(RULES)})")
    return cls(options)


def new_game(variant: str, *, seed: int, options: Mapping[str, object] | None = None) -> Game:
    """A new game of ``variant`` dealt from ``seed`` (1 .. 2**31 - 1)."""
    return Game(rules_for(variant, options), check_seed(seed))


def replay(record: Mapping[str, Any]) -> Game:
    """Rebuild the exact game a record describes (see :mod:`shared.record`)."""
    checked = check_record(record)
    game = new_game(checked["variant"], seed=checked["seed"], options=checked["options"])
    from shared.record import play_actions

    play_actions(game, checked["actions"])
    if checked["resigned"]:
        game.resign()
    return game
