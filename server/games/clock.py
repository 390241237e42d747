"""A game's clock: the time it counts, stopped while stuck, paused while nobody has it open.

Ranked clocks (a daily attempt, a race game, an arena's deal) count the time since the deal,
whatever the player does meanwhile: they never pause. Unranked clocks (solo
and practice games) count active time: once no connection of the player has
had the game open for ``idle_grace_s`` (server/games/opened.py), the clock
stops, and it goes on from there when the game is opened again; what the
player's best times compare is this active time. Every clock stops at the
moment its game became stuck (nothing can be played; only an undo or a resign
is left): an undo out of stuck starts it again, a ranked clock counting the
time it was stuck (the player was looking at the board, and could have been
thinking), an unranked one not.

The state of a clock is three numbers kept on the game and its row:
``started_ms``, ``paused_ms`` (time not counted) and ``stopped_ms`` (the
moment it stops or stopped, which may lie ahead: the end of the grace after
the last connection left; None while it runs). Its reading is
:func:`elapsed`.
"""

from __future__ import annotations

from shared import protocol as p

#: kinds of game whose clock never pauses (what they measure is ranked)
RANKED_KINDS = frozenset({p.DAILY, p.RACE, p.ARENA})


def elapsed(
    now_ms: int,
    *,
    started_ms: int,
    paused_ms: int = 0,
    stopped_ms: int | None = None,
    ended_ms: int | None = None,
) -> int:
    """The time a clock counts at ``now_ms``: from its start to now, its stop or its end,
    whichever comes first, less what it did not count."""
    end = now_ms
    if stopped_ms is not None:
        end = min(end, stopped_ms)
    if ended_ms is not None:
        end = min(end, ended_ms)
    return max(0, end - started_ms - paused_ms)


def resumed(paused_ms: int, stopped_ms: int, now_ms: int) -> int:
    """The time not counted once a clock stopped at ``stopped_ms`` goes on at ``now_ms`` (a
    stop still ahead, a grace not yet over, adds nothing)."""
    return paused_ms + max(0, now_ms - stopped_ms)
