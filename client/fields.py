"""What a player types into a field (a room code, a deal number, a date): what is wrong with
it, in words.

The protocol checks every request before it leaves (client/wire.py), but its
message names the field and its rule (``field 'code' must be 6 of
'23456789AB…'``); a player who misread a letter needs to hear what a code,
a deal number or a date looks like instead. Nothing is sent until it can be.
"""

from __future__ import annotations

import datetime

from shared.deals import MAX_SEED
from shared.protocol.rooms import CODE_ALPHABET, CODE_LENGTH, CODE_RE

#: characters a code never holds, because they read like others aloud
LOOK_ALIKES = "01IO"


def code_problem(code: str) -> str | None:
    """Why ``code`` (as typed, upper-cased) cannot be a room code, or None when it can."""
    if CODE_RE.fullmatch(code):
        return None
    if not code:
        return "type the room code your friend gave you"
    if len(code) != CODE_LENGTH:
        return f"a room code has {CODE_LENGTH} characters, like K7QF2M; {code!r} has {len(code)}"
    bad = sorted({c for c in code if c not in CODE_ALPHABET})
    shown = " ".join(repr(c) for c in bad)
    if bad and all(c in LOOK_ALIKES for c in bad):
        return (
            f"room codes have no {shown}: 0, 1, I and O are left out because they read like "
            "other characters; check the code your friend gave you"
        )
    return f"room codes are letters and digits only, like K7QF2M; {shown} cannot be in one"


def seed_problem(seed: int) -> str | None:
    """Why ``seed`` cannot be a deal number, or None when it can."""
    if 1 <= seed <= MAX_SEED:
        return None
    return f"deal numbers go from 1 to {MAX_SEED:,}; {seed:,} is not one"


def date_problem(date: str) -> str | None:
    """Why ``date`` cannot be a leaderboard's day, or None when it can."""
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        return f"a day is written YYYY-MM-DD, like 2026-01-02; {date!r} is not one"
    if len(date) != len("2026-01-02"):
        return f"a day is written YYYY-MM-DD, like 2026-01-02; {date!r} is not one"
    return None
