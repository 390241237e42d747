"""A room code as a player types it: what is wrong with it, in words.

The protocol checks a code before it leaves (client/wire.py), but its
message names the field and the alphabet; a player who misread a letter
needs to hear which characters a code has instead.
"""

from __future__ import annotations

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
        return (
            f"a room code has {CODE_LENGTH} characters, like K7QF2M; "
            f"{code!r} has {len(code)}"
        )
    bad = sorted({c for c in code if c not in CODE_ALPHABET})
    shown = " ".join(repr(c) for c in bad)
    if bad and all(c in LOOK_ALIKES for c in bad):
        return (
            f"room codes have no {shown}: 0, 1, I and O are left out because they read like "
            "other characters; check the code your friend gave you"
        )
    return f"room codes are letters and digits only, like K7QF2M; {shown} cannot be in one"
