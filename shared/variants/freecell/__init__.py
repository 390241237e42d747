"""Freecell: its rules (:mod:`.rules`), their tables (:mod:`.tables`), and its own stuck
proof on canonical boards (:mod:`.boards`, :mod:`.witness`, :mod:`.search`, with the
optional compiled ``children()`` in ``_children.c``)."""

from shared.variants.freecell.rules import FreecellRules
from shared.variants.freecell.search import FreecellProgress
from shared.variants.freecell.tables import (
    ACCEPTS,
    BUILD,
    ONTO_FIRST,
    ONTO_SECOND,
    build_length,
    is_safe,
    move_limit,
)

__all__ = [
    "ACCEPTS",
    "BUILD",
    "ONTO_FIRST",
    "ONTO_SECOND",
    "FreecellProgress",
    "FreecellRules",
    "build_length",
    "is_safe",
    "move_limit",
]
