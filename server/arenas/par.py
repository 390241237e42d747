"""A deal's par time and time allowance in an arena: what a win within par earns more for.

The par of a deal is measured from the solver's winning line for it (the pool
keeps the number of its moves): ``PAR_BASE_MS`` to read the deal, then
``PAR_MOVE_MS`` per move of the line, rounded up to the second and kept
between ``MIN_PAR_MS`` and ``MAX_PAR_MS``. A person rarely plays the
solver's line, so par is generous for a deal whose line is short and asks a
brisk pace of one whose line is long; it is the same for every player of an
arena, which is what the scoring needs. A deal whose line is not known (the
pool was empty and the deal was solved on request) counts ``DEFAULT_LINE``
moves.

A deal's time allowance is ``ALLOWANCE_PARS`` times its par; berserk halves
it. A deal not finished within its allowance (or by the arena's end) is out
of time: it scores nothing. docs/operating.md, "Arenas", states these numbers.
"""

from __future__ import annotations

PAR_BASE_MS = 30_000
PAR_MOVE_MS = 3_000
MIN_PAR_MS = 60_000
MAX_PAR_MS = 900_000
DEFAULT_LINE = 100
ALLOWANCE_PARS = 3


def par_ms(line: int | None) -> int:
    """The par time of a deal whose solver's line has ``line`` moves (None: not known)."""
    moves = DEFAULT_LINE if line is None else max(0, line)
    raw = PAR_BASE_MS + PAR_MOVE_MS * moves
    seconds = -(-raw // 1000)
    return max(MIN_PAR_MS, min(MAX_PAR_MS, seconds * 1000))


def allowance_ms(par: int, *, berserk: bool) -> int:
    """The time a player has for a deal of par ``par``: halved by berserk."""
    full = ALLOWANCE_PARS * par
    return full // 2 if berserk else full


def deadline_ms(started_ms: int, allowance: int, arena_ends_ms: int) -> int:
    """When a deal dealt at ``started_ms`` is out of time: its allowance, or the arena's end
    if that comes first."""
    return min(started_ms + allowance, arena_ends_ms)
