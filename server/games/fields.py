"""The engine's deal of a game, and its refusal of a variant or its options as ``invalid_field``."""

from __future__ import annotations

from collections.abc import Mapping

from server.errors import InvalidField
from shared.errors import InvalidOptions
from shared.game import Game
from shared.games import new_game
from shared.stuck import StuckProver
from shared.variants import Variants


def deal(
    variants: Variants,
    variant: str,
    options: Mapping[str, bool | int],
    prover: StuckProver | None = None,
    *,
    seed: int | None = None,
    key: bytes | None = None,
) -> Game:
    """The engine's deal of ``seed`` or ``key``; ``invalid_field`` naming ``variant`` or
    ``options`` when it refuses."""
    try:
        if key is not None:
            return new_game(variant, key=key, options=options, variants=variants, prover=prover)
        assert seed is not None, "a deal is numbered or keyed"
        return new_game(variant, seed=seed, options=options, variants=variants, prover=prover)
    except InvalidOptions as exc:
        raise _invalid(exc) from None


def checked_options(
    variants: Variants, variant: str, options: Mapping[str, bool | int]
) -> dict[str, bool | int]:
    """The variant's options, ``options`` merged over the defaults; ``invalid_field`` as
    :func:`deal` says."""
    try:
        return variants.rules(variant, options).options
    except InvalidOptions as exc:
        raise _invalid(exc) from None


def check_variant(variants: Variants, variant: str) -> None:
    """``invalid_field`` naming ``variant`` unless the server plays it."""
    try:
        variants.get(variant)
    except InvalidOptions as exc:
        raise InvalidField(f"field 'variant': {exc}") from None


def _invalid(exc: InvalidOptions) -> InvalidField:
    field_name = "variant" if "variant" in str(exc) else "options"
    return InvalidField(f"field {field_name!r}: {exc}")
