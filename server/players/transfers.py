"""Moving an account to another device with a short code, for minutes (``transfer_code``).

A player signed in on one device asks for a code (``transfer_code``, with the token that
device holds, checked against the connection's); the other device says ``hello`` with
``transfer`` and that code, and is welcomed as the same player, its ``welcome`` carrying the
token. Both devices then hold the account. Nothing is typed but eight letters and digits, and
the token never shows on a screen.

The code is made of 29 signs that do not look alike (no 0/O, 1/I/L, U/V), eight of them:
about 5e11 codes, each living ``transfer_code_s`` seconds (300) and used once. A code that
finds nothing is ``bad_token`` and counts as a mistake (a connection closes after 20), so
guessing one in its minutes is hopeless. The server keeps no code and no token in the clear:
the row holds the code's SHA-256 and the token sealed with a key made from the code.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.config import Config
from server.errors import BadTransferCode, Forbidden
from server.games.live import Clock
from server.net.connection import Connection
from server.net.routing import Route
from server.storage.models import TransferCode
from server.storage.queries import players
from server.storage.queries import transfers as store
from shared import protocol as p

#: the signs of a code: no two that look alike
ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789"
CODE_LENGTH = 8
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def normal(code: str) -> str:
    """A code as typed (any case, with the dash it is shown with, or spaces) as stored."""
    return re.sub(r"[\s-]", "", code).upper()


def shown(code: str) -> str:
    """``K7QF2MXP`` -> ``K7QF-2MXP``: two groups of four, easier to read out and type."""
    return f"{code[:4]}-{code[4:]}"


def code_hash(code: str) -> str:
    return hashlib.sha256(normal(code).encode()).hexdigest()


def _key(code: str, salt: str, size: int) -> bytes:
    return hashlib.shake_256(bytes.fromhex(salt) + normal(code).encode()).digest(size)


def seal(token: str, code: str, salt: str) -> str:
    data = token.encode()
    return bytes(a ^ b for a, b in zip(data, _key(code, salt, len(data)), strict=True)).hex()


def unseal(sealed: str, code: str, salt: str) -> str:
    data = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(data, _key(code, salt, len(data)), strict=True)).decode()


class Transfers:
    """Codes made and taken: one per player, the last one made."""

    def __init__(
        self, db_sessions: async_sessionmaker[AsyncSession], clock: Clock, config: Config
    ) -> None:
        self.db_sessions = db_sessions
        self.clock = clock
        self.ttl_ms = config.transfer_code_s * 1000

    async def make(self, player_id: int, token: str) -> tuple[str, int]:
        """A new code for the player whose ``token`` it is (an earlier code of theirs goes),
        and when it expires (ms since the epoch)."""
        code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
        salt = secrets.token_hex(16)
        now = self.clock()
        expires = now + self.ttl_ms
        row = TransferCode(
            code_hash=code_hash(code),
            player_id=player_id,
            salt=salt,
            sealed=seal(token, code, salt),
            expires_ms=expires,
        )
        async with self.db_sessions() as db:
            await store.replace(db, row, now_ms=now)
            await db.commit()
        return code, expires

    async def redeem(self, code: str) -> str:
        """The token a live ``code`` was made for (the code is used up); ``bad_token`` else."""
        if not _CODE.fullmatch(normal(code)):
            raise BadTransferCode(
                f"a transfer code is {CODE_LENGTH} letters and digits, such as K7QF-2MXP"
            )
        async with self.db_sessions() as db:
            row = await store.take(db, code_hash=code_hash(code), now_ms=self.clock())
            await db.commit()
        if row is None:
            raise BadTransferCode("no account waits for this code here, or it has expired")
        return unseal(row.sealed, code, row.salt)


class TransferHandler:
    """``transfer_code``: a code that moves the account to another device."""

    def __init__(self, transfers: Transfers) -> None:
        self.transfers = transfers

    def routes(self) -> tuple[Route, ...]:
        return (Route(p.TransferCodeRequest, self.transfer_code),)

    async def transfer_code(
        self, connection: Connection, message: p.TransferCodeRequest
    ) -> p.Reply:
        """The token sent must be the one this connection said hello with (or was given): a
        code moves the account of whoever holds its token, nobody else's."""
        if players.hash_token(message.token) != connection.token_hash:
            raise Forbidden("that token is not the one this connection signed in with")
        code, expires = await self.transfers.make(connection.welcomed_player.id, message.token)
        return p.TransferCodeReply(code=shown(code), expires_ms=expires, re=message.id)
