"""Every exception the shared code raises, in one place.

::

    PatienceError
     ├── InvalidNotation   (ValueError)  a card, pile or move string that does not parse
     ├── InvalidOptions    (ValueError)  an unknown variant, option or option value
     ├── InvalidRecord     (ValueError)  a game record that cannot be read or replayed
     ├── IllegalMove       (ValueError)  a well-formed action the rules refuse now
 ├── InvalidVariant    (ValueError)  a variant's declarations that cannot work (a pile id
 │                                   the notation cannot name, a layout that misses a pile)
     └── ProtocolError                   a wire message the server must refuse; carries
                                         the error ``code`` sent back to the client

Messages are lowercase, quote the input with ``!r`` and say why, so that they
can be shown to a player as they are.
"""

from __future__ import annotations


class PatienceError(Exception):
    """Base of every error raised on purpose by Patience Club code."""


class InvalidNotation(PatienceError, ValueError):
    """A card, pile, move or record string is not in the notation of docs/notation.md."""


class InvalidOptions(PatienceError, ValueError):
    """A variant id, option name or option value is not one the engine knows."""


class InvalidRecord(PatienceError, ValueError):
    """A game record is malformed or does not replay."""


class IllegalMove(PatienceError, ValueError):
    """The action is well-formed but the rules refuse it; the game is unchanged."""


class InvalidVariant(PatienceError, ValueError):
    """A Rules subclass declares what cannot work: raised as its class is made, so that a
    variant no notation, record or client could follow never reaches a game."""


class ProtocolError(PatienceError):
    """A message the server refuses; ``code`` is the protocol's error code.

    ``fault`` marks a refusal that counts as the client's own mistake although
    its code does not always (``not_found`` for a room code nobody holds).
    """

    def __init__(self, code: str, message: str, *, fault: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.fault = fault
