"""What a player types into a field (a room code, a deal number, a date): what is wrong with
it, in words.

The protocol checks every request before it leaves (client/wire.py), but its
message names the field and its rule (``field 'code' must be 6 of
'23456789AB…'``); a player who misread a letter needs to hear what a code,
a deal number or a date looks like instead. Nothing is sent until it can be.
"""

from __future__ import annotations

import datetime

from client.i18n import t
from shared.deals import MAX_SEED
from shared.protocol.rooms import CODE_ALPHABET, CODE_LENGTH, CODE_RE

#: characters a code never holds, because they read like others aloud
LOOK_ALIKES = "01IO"


def code_problem(code: str) -> str | None:
    """Why ``code`` (as typed, upper-cased) cannot be a room code, or None when it can."""
    if CODE_RE.fullmatch(code):
        return None
    if not code:
        return t("field.code_empty")
    if len(code) != CODE_LENGTH:
        return t("field.code_length", length=CODE_LENGTH, code=repr(code), typed=len(code))
    bad = sorted({c for c in code if c not in CODE_ALPHABET})
    shown = " ".join(repr(c) for c in bad)
    if bad and all(c in LOOK_ALIKES for c in bad):
        return t("field.code_look_alike", shown=shown)
    return t("field.code_letters", shown=shown)


def seed_problem(seed: int) -> str | None:
    """Why ``seed`` cannot be a deal number, or None when it can."""
    if 1 <= seed <= MAX_SEED:
        return None
    return t("field.seed", max=f"{MAX_SEED:,}", seed=f"{seed:,}")


def date_problem(date: str) -> str | None:
    """Why ``date`` cannot be a leaderboard's day, or None when it can."""
    try:
        datetime.date.fromisoformat(date)
    except ValueError:
        return t("field.date", date=repr(date))
    if len(date) != len("2026-01-02"):
        return t("field.date", date=repr(date))
    return None
