"""Which nodes are alive: each holds a key of its own, refreshed by a heartbeat.

A node takes ``{prefix}node:{id}`` with SET NX and a TTL before it accepts
anyone, so a second live process with the same id is refused at start (its
leases and inbox would be the first one's); a key left by a node that died
is waited for until it expires. The heartbeat refreshes the TTL
every :data:`HEARTBEAT_S`; a node killed with ``kill -9`` lets its key
expire within :data:`NODE_TTL_MS`, which is how the others learn that its
players have gone. After a restart of Redis the key is set again.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from redis.exceptions import RedisError

from server.cluster.keys import Keys
from server.cluster.link import RedisLink

log = logging.getLogger(__name__)

#: a node key's lifetime, and how often it is refreshed
NODE_TTL_MS = 5_000
HEARTBEAT_S = 1.0
#: how long a starting node waits for a key of its id to expire before it gives up
CLAIM_WAIT_S = NODE_TTL_MS / 1000 + 1

#: refresh the key if it is ours, set it again if it has gone; 0 when another process holds it
_REFRESH = """
local held = redis.call('get', KEYS[1])
if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not held then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 2 end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class NodeTaken(RuntimeError):
    """Another live process runs under this node id."""


class NodeRegistry:
    def __init__(self, link: RedisLink, keys: Keys, node_id: str) -> None:
        self.link = link
        self.keys = keys
        self.node_id = node_id
        #: what this process writes in its key, to tell its own key from another's
        self.token = secrets.token_hex(8)

    async def claim(self, wait_s: float = CLAIM_WAIT_S) -> None:
        """Take this node's key, or raise :class:`NodeTaken`.

        A key still there may be the node's own from before a crash: it is waited for
        (``wait_s``, a little longer than it lives unrefreshed), so that a node restarted at
        once after a ``kill -9`` starts; a live node keeps refreshing its key and is refused.
        """
        deadline = asyncio.get_running_loop().time() + wait_s
        while True:
            taken = await self.link.client.set(
                self.keys.node(self.node_id), self.token, nx=True, px=NODE_TTL_MS
            )
            if taken or asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(0.25)
        if not taken:
            raise NodeTaken(
                f"node id {self.node_id!r} is in use by a live node: give each node its own "
                "--node-id"
            )

    async def heartbeat(self) -> None:
        try:
            result = await self.link.client.eval(
                _REFRESH, 1, self.keys.node(self.node_id), self.token, NODE_TTL_MS
            )
        except (RedisError, OSError):
            return  # the link reports the loss; the next beat tries again
        if result == 0:
            log.error("node id %r is held by another process: two nodes share it", self.node_id)

    async def alive(self, node_ids: list[str]) -> set[str]:
        """Which of ``node_ids`` hold their key now; raises RedisError when Redis is lost."""
        if not node_ids:
            return set()
        values = await self.link.client.mget([self.keys.node(n) for n in node_ids])
        return {n for n, v in zip(node_ids, values, strict=True) if v is not None}

    async def release(self) -> None:
        try:
            await self.link.client.eval(_RELEASE, 1, self.keys.node(self.node_id), self.token)
        except (RedisError, OSError) as exc:
            log.warning("node key not released (%s): it expires by itself", exc)
