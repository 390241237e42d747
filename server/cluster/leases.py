"""Room leases: one node at a time owns a room's clock (countdown, time limit, race end).

A lease is ``{prefix}room:{code}`` holding the owner's node id, taken with
SET NX PX and renewed every :data:`RENEW_S` by a script that extends it only
while it is still the owner's. A node that dies stops renewing: its leases
expire within :data:`LEASE_MS` and another node takes the rooms over from
what is stored. A node that stops (SIGTERM) releases its leases at once.
After a restart of Redis every node sets its leases again (the renewal
script sets a lease that has gone); a node that finds one of its rooms held
by another lets the room go.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from redis.exceptions import RedisError

from server.cluster.keys import Keys
from server.cluster.link import RedisLink

log = logging.getLogger(__name__)

LEASE_MS = 5_000
RENEW_S = 1.0

#: 1 renewed, 2 set again (it had gone), 0 held by another node
_RENEW = """
local held = redis.call('get', KEYS[1])
if held == ARGV[1] then redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end
if not held then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Leases:
    def __init__(self, link: RedisLink, keys: Keys, node_id: str) -> None:
        self.link = link
        self.keys = keys
        self.node_id = node_id

    async def acquire(self, code: str) -> bool:
        """Take the room's lease if nobody holds it; raises RedisError when Redis is lost."""
        taken = await self.link.client.set(
            self.keys.lease(code), self.node_id, nx=True, px=LEASE_MS
        )
        return bool(taken)

    async def owner(self, code: str) -> str | None:
        value = await self.link.client.get(self.keys.lease(code))
        return None if value is None else _text(value)

    async def owners(self, codes: list[str]) -> list[str | None]:
        if not codes:
            return []
        values = await self.link.client.mget([self.keys.lease(c) for c in codes])
        return [None if v is None else _text(v) for v in values]

    async def renew(self, codes: Iterable[str]) -> list[str]:
        """Renew the leases of ``codes``; the codes now held by another node (lost)."""
        codes = list(codes)
        if not codes:
            return []
        async with self.link.client.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.eval(_RENEW, 1, self.keys.lease(code), self.node_id, LEASE_MS)
            results = await pipe.execute()
        return [code for code, result in zip(codes, results, strict=True) if result == 0]

    async def release(self, codes: Iterable[str]) -> None:
        codes = list(codes)
        if not codes:
            return
        try:
            async with self.link.client.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.eval(_RELEASE, 1, self.keys.lease(code), self.node_id)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("%d leases not released (%s): they expire by themselves", len(codes), exc)
