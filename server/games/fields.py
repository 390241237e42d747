"""The engine's refusal of a variant or its options, as the ``invalid_field`` of protocol.md."""

from __future__ import annotations

from collections.abc import Mapping

from shared import protocol as p
from shared.errors import InvalidOptions, ProtocolError
from shared.game import Game
from shared.games import new_game, rules_for


def deal(variant: str, seed: int, options: Mapping[str, bool | int]) -> Game:
    """The engine's deal; ``invalid_field`` naming ``variant`` or ``options`` when it refuses."""
    try:
        return new_game(variant, seed=seed, options=options)
    except InvalidOptions as exc:
        field_name = "variant" if "variant" in str(exc) else "options"
        raise ProtocolError(p.INVALID_FIELD, f"field {field_name!r}: {exc}") from None


def check_variant(variant: str) -> None:
    """``invalid_field`` naming ``variant`` unless the engine knows it."""
    try:
        rules_for(variant)
    except InvalidOptions as exc:
        raise ProtocolError(p.INVALID_FIELD, f"field 'variant': {exc}") from None
