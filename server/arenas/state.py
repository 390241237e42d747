"""An arena as a node knows it, a deal of its sequence, and how both are shown.

These are the values every part of the arenas shares (the catalogue holds the
arenas, the deals part the deals); nothing here reads the database or a clock.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from server.storage.models import Arena
from shared import protocol as p

#: arenas stay listed (and in memory) this long after their end
KEEP_MS = 86_400_000


@dataclass(slots=True)
class ArenaState:
    """An arena as this node knows it (its row)."""

    code: str
    name: str
    variant: str
    options: dict[str, bool | int]
    starts_ms: int
    ends_ms: int
    host_id: int | None
    private: bool
    cancelled_ms: int | None

    @classmethod
    def of(cls, row: Arena) -> ArenaState:
        return cls(
            row.code,
            row.name,
            row.variant,
            json.loads(row.options),
            row.starts_ms,
            row.ends_ms,
            row.host_id,
            row.private,
            row.cancelled_ms,
        )

    def state(self, now_ms: int) -> str:
        if self.cancelled_ms is not None:
            return p.CANCELLED
        if now_ms < self.starts_ms:
            return p.UPCOMING
        if now_ms < self.ends_ms:
            return p.RUNNING
        return p.FINISHED

    def over(self, now_ms: int) -> bool:
        return self.state(now_ms) in (p.FINISHED, p.CANCELLED)

    def info(self, now_ms: int, count: int, joined: bool, host: str | None) -> p.ArenaInfo:
        """The arena as a message shows it, with ``count`` players."""
        return p.ArenaInfo(
            code=self.code,
            name=self.name,
            variant=self.variant,
            starts_ms=self.starts_ms,
            ends_ms=self.ends_ms,
            state=self.state(now_ms),
            private=self.private,
            players=count,
            joined=joined,
            host=host,
        )


@dataclass(frozen=True, slots=True)
class DealRow:
    seq: int
    key: bytes
    commitment: str
    par_ms: int


def new_code() -> str:
    return "".join(secrets.choice(p.CODE_ALPHABET) for _ in range(p.CODE_LENGTH))
