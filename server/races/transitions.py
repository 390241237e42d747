"""How a room's state changes: one table of transitions, and nothing else sets a room's state.

A room waits for its host to start a race; the start counts down; at the end
of the countdown the race begins with the racers connected then, or is
called off when none is (the room waits again); a race is over when every
game of it has ended or its time limit passed (or an operator ended it), and
a room whose race is over may start the next one. Pure: no I/O, no clock;
the room service and the race runner ask :func:`allows` before they act and
take the next state from :func:`after`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType

from shared.protocol import COUNTDOWN, OVER, RACING, WAITING


class Change(enum.Enum):
    """What happens to a room's race."""

    #: the host starts a race (``start_race``)
    START = "start"
    #: the countdown ended with racers connected: their games are dealt
    BEGIN = "begin"
    #: the countdown ended with no racer connected (or the start failed)
    CALL_OFF = "call_off"
    #: every game of the race ended, or its time limit passed, or an operator ended it
    FINISH = "finish"


#: (state, change) -> the state after it; a pair that is not here cannot happen
TRANSITIONS: Mapping[tuple[str, Change], str] = MappingProxyType(
    {
        (WAITING, Change.START): COUNTDOWN,
        (OVER, Change.START): COUNTDOWN,
        (COUNTDOWN, Change.BEGIN): RACING,
        (COUNTDOWN, Change.CALL_OFF): WAITING,
        (RACING, Change.FINISH): OVER,
    }
)


class NoTransition(ValueError):
    """A change that cannot happen to a room in this state (a bug of the caller)."""


def allows(state: str, change: Change) -> bool:
    """Whether ``change`` can happen to a room in ``state``."""
    return (state, change) in TRANSITIONS


def after(state: str, change: Change) -> str:
    """The state of a room in ``state`` after ``change``; :class:`NoTransition` if it cannot."""
    try:
        return TRANSITIONS[(state, change)]
    except KeyError:
        raise NoTransition(f"a room {state} cannot {change.value}") from None
