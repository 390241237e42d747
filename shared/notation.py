"""The text notation of docs/notation.md: cards, pile ids and actions.

Plays the role SAN/UCI play for chess: ``Move.parse("t3:4>t7")`` and
``str(move)`` round-trip, and every string the engine emits is canonical.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from shared.cards import card_name, parse_card
from shared.errors import InvalidNotation

__all__ = [
    "AUTO",
    "DEAL",
    "UNDO",
    "Action",
    "Move",
    "card_name",
    "move_text",
    "parse_action",
    "parse_card",
    "parse_pile",
]

DEAL: Final = "deal"
AUTO: Final = "auto"
UNDO: Final = "undo"

_PILE = r"(?:s|w|f[0-7]|t[0-9]|r[0-3])"
_PILE_RE = re.compile(_PILE)
_MOVE_RE = re.compile(rf"({_PILE})(?::([0-9]+))?>({_PILE}|f)")

#: the longest action string the engine could ever accept ("t9:104>t9" and a little room)
MAX_ACTION_LENGTH: Final = 16


def parse_pile(text: str) -> str:
    """Check a pile id such as ``t3`` or ``f0`` and return it."""
    if not isinstance(text, str) or not _PILE_RE.fullmatch(text):
        raise InvalidNotation(f"{text!r} is not a pile id (s, w, f0-f7, t0-t9, r0-r3)")
    return text


@dataclass(frozen=True, slots=True)
class Move:
    """Cards moved from one pile onto another: ``src``, how many, ``dst``.

    ``dst == "f"`` is the double-click shorthand (whichever foundation takes
    the card); the engine records the foundation it chose instead.
    """

    src: str
    count: int
    dst: str

    @classmethod
    def parse(cls, text: str) -> Move:
        if not isinstance(text, str) or len(text) > MAX_ACTION_LENGTH:
            raise InvalidNotation(f"{text!r} is not a move")
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise InvalidNotation(
                f"{text!r} is not a move: expected SRC>DST or SRC:N>DST, "
                "such as 't3>f0' or 't3:4>t7'"
            )
        src, count_text, dst = match.groups()
        count = 1
        if count_text is not None:
            count = int(count_text)
            if count < 2 or count_text.startswith("0"):
                raise InvalidNotation(
                    f"{text!r} is not a move: a group count is written only for 2 or more cards"
                )
        return cls(src, count, dst)

    def __str__(self) -> str:
        return move_text(self.src, self.count, self.dst)


def move_text(src: str, count: int, dst: str) -> str:
    """The canonical text of a move: ``t3>f0``, ``t3:4>t7`` (a count only for 2 or more)."""
    if count == 1:
        return f"{src}>{dst}"
    return f"{src}:{count}>{dst}"


Action = Move | str


def parse_action(text: str) -> Action:
    """A move, or one of the words ``deal``, ``auto`` and ``undo``."""
    if text in (DEAL, AUTO, UNDO):
        return text
    return Move.parse(text)
