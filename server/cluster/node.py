"""This node among the others: what the app asks of the cluster, and its periodic work.

One :class:`Cluster` per app. Without a ``redis`` setting it is one node
alone (``enabled`` is False): everyone online is connected here, pushes go
to local connections only, and nothing runs in the background. With Redis:

- at start the node checks Redis, takes its node key (a duplicate id is
  refused) and subscribes to the pushes, the news between nodes and its inbox;
- every second (:meth:`_beat`) it refreshes its node key, renews its room
  leases (letting go the rooms another node holds now), drops the players of
  nodes whose key expired, and takes over the rooms nobody owns;
- each time Redis is back it sets its leases again, exchanges who is
  connected with the others, and asks every owner to send its rooms again
  (``resync``): each member gets the current ``room``, and ``race_over`` for
  a race that ended meanwhile;
- at stop it releases its leases and says so, so another node takes its
  rooms at once.

The cluster knows nothing of rooms, races or dailies: what the other nodes
tell, and what happens to this node's view of them (a lease lost, rooms to
claim, Redis back), it delivers as typed events (:mod:`server.cluster.news`)
to the parts that subscribed to them in :func:`server.app.wire`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable, Container, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from redis.exceptions import RedisError

from server.cluster import news
from server.cluster.calls import Calls, Serve
from server.cluster.keys import Keys
from server.cluster.leases import RENEW_S, Leases
from server.cluster.link import RedisLink
from server.cluster.nodes import NodeRegistry, NodeTaken
from server.cluster.roster import Online, Roster
from server.config import Config

if TYPE_CHECKING:
    from server.net.connection import Connection

E = TypeVar("E")

log = logging.getLogger(__name__)

#: a registration lock's lifetime, and how long a node waits for another's
REGISTER_LOCK_MS = 5_000
REGISTER_WAIT_S = 5.0
_RELEASE_LOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""
#: how often the rooms nobody owns are looked for in the database
CLAIM_EVERY_S = 2.0
#: after Redis comes back, rooms are not claimed for this long: their owners set their
#: leases again first (a restarted Redis has none)
CLAIM_GRACE_S = 3.0


class ClusterError(RuntimeError):
    """This node cannot join the others (Redis unreachable, its id in use)."""


def default_node_id(port: int) -> str:
    """The machine's host name and the port; with port 0, a random suffix instead."""
    return f"{socket.gethostname()}:{port or secrets.token_hex(3)}"


class Cluster:
    """This node among the others; the parts that care hear of the others' news by
    subscribing to its types (:meth:`subscribe`), and tell theirs with :meth:`tell`."""

    def __init__(
        self, config: Config, players: Mapping[int, set[Connection]], clock: Callable[[], int]
    ) -> None:
        self.config = config
        #: this node's welcomed connections by player id (the app's)
        self.players = players
        self.clock = clock
        self.enabled = bool(config.redis)
        self.node_id = config.node_id or default_node_id(config.port)
        self.keys = Keys(config.redis_prefix)
        self.roster = Roster()
        #: players connected anywhere (here, or on another node as announced)
        self.online: Container[int] = Online(players, self.roster) if self.enabled else players
        self.link: RedisLink | None = RedisLink(config.redis) if self.enabled else None
        #: who acts on each kind of news and on the cluster's own events
        self.subscribers = news.Subscribers()
        #: the codes of the rooms this node runs (its leases to renew and release)
        self.rooms_held: Callable[[], list[str]] = list
        #: runs a request on a room of this node that another node forwarded
        self.serve: Serve | None = None
        self._beating: asyncio.Task[None] | None = None
        #: when the subscription last came up (event loop time)
        self._up_at = 0.0
        #: when Redis was lost (wall clock ms), None while it is up
        self.lost_ms: int | None = None
        if self.link is not None:
            self.nodes = NodeRegistry(self.link, self.keys, self.node_id)
            self.leases = Leases(self.link, self.keys, self.node_id)
            self.calls = Calls(self.link, self.keys, self.node_id)

    def subscribe(self, kind: type[E], hook: Callable[[E], Awaitable[None] | None]) -> None:
        """Call ``hook`` with every event of type ``kind`` (from :mod:`server.cluster.news`)."""
        self.subscribers.subscribe(kind, hook)

    @property
    def redis_up(self) -> bool:
        return self.link is not None and self.link.up

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        if self.link is None:
            return
        try:
            await self.link.check()
        except (RedisError, OSError) as exc:
            raise ClusterError(f"cannot reach Redis at {self.config.redis!r}: {exc}") from exc
        try:
            await self.nodes.claim()
        except NodeTaken as exc:
            raise ClusterError(str(exc)) from None
        if self.serve is not None:
            self.calls.serve = self.serve
        self.link.on_up.append(self._up)
        self.link.on_lost.append(self._lost)
        try:
            await self.link.start(
                {
                    self.keys.pushes: self._pushed,
                    self.keys.events: self._news,
                    self.keys.inbox(self.node_id): self.calls.received,
                }
            )
        except TimeoutError:
            await self.link.stop()
            raise ClusterError(f"cannot subscribe at {self.config.redis!r}") from None
        self._beating = asyncio.create_task(self._beat_forever(), name="cluster")
        log.info("node %r joined the cluster at %s", self.node_id, self.config.redis)

    async def stop(self) -> None:
        """Release the leases (and say so), the node key, the link."""
        if self.link is None:
            return
        if self._beating is not None:
            self._beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beating
        codes = self.rooms_held()
        await self.leases.release(codes)
        if codes:
            self.tell(news.Released(tuple(codes)))
        self.tell(news.Roster(()))
        await self.link.flush()
        await self.nodes.release()
        await self.link.stop()
        log.info("node %r left the cluster; %d room leases released", self.node_id, len(codes))

    # -- what the app's parts ask -------------------------------------------------------------

    def fan_out(
        self,
        data: bytes,
        *,
        to: Iterable[int] | None = None,
        board: tuple[str, int] | None = None,
        skip: int | None = None,
    ) -> None:
        """Send an encoded push to the other nodes: for players ``to`` or a board's watchers."""
        if self.link is None:
            return
        message: dict[str, Any] = {"from": self.node_id, "data": data}
        if board is not None:
            message["board"] = list(board)
        else:
            message["to"] = list(to or ())
            message["skip"] = skip
        self.link.publish(self.keys.pushes, message)

    def tell(self, told: news.News) -> None:
        """News for the other nodes (presence, race actions, watches dropped, ...)."""
        if self.link is not None:
            message = {"kind": told.kind, "node": self.node_id, **told.to_map()}
            self.link.publish(self.keys.events, message)

    def first_here(self, player: int) -> None:
        """A player's first connection to this node."""
        self.tell(news.Online(player))

    def last_here(self, player: int) -> None:
        """A player's last connection to this node closed."""
        self.tell(news.Offline(player))

    @contextlib.asynccontextmanager
    async def registering(self, ip: str) -> AsyncIterator[None]:
        """Held while this node registers a player from ``ip``: the other nodes wait, so that
        the per-address limit counted in the database holds across nodes. Without Redis (or
        while it is lost) only this node's own lock holds."""
        if self.link is None or not self.link.up:
            yield
            return
        key, token = self.keys.registering(ip), secrets.token_hex(8)
        deadline = asyncio.get_running_loop().time() + REGISTER_WAIT_S
        held = False
        try:
            while not held:
                held = bool(await self.link.client.set(key, token, nx=True, px=REGISTER_LOCK_MS))
                if not held:
                    if asyncio.get_running_loop().time() >= deadline:
                        break  # the holder died with it: it expires; go on
                    await asyncio.sleep(0.02)
        except (RedisError, OSError):
            held = False
        try:
            yield
        finally:
            if held:
                with contextlib.suppress(RedisError, OSError):
                    await self.link.client.eval(_RELEASE_LOCK, 1, key, token)

    # -- what comes from the other nodes ------------------------------------------------------

    def _pushed(self, message: dict[str, Any]) -> Awaitable[None] | None:
        if message.get("from") == self.node_id:
            return None  # delivered here already, before it was published
        data: bytes = message["data"]
        if "board" in message:
            code, player = message["board"]
            return self.subscribers.deliver(news.BoardPushed(code, player, data))
        skip = message.get("skip")
        for pid in message.get("to", ()):
            if pid == skip:
                continue
            for connection in list(self.players.get(pid, ())):
                connection.send_encoded(data)
        return None

    def _news(self, message: dict[str, Any]) -> Awaitable[None] | None:
        node = str(message.get("node"))
        if node == self.node_id:
            return None
        told = news.decode(message)
        if isinstance(told, news.Online | news.Offline):
            online = isinstance(told, news.Online)
            changed = (self.roster.online if online else self.roster.offline)(node, told.player)
            if changed and told.player not in self.players:
                return self.subscribers.deliver(news.PresenceChanged(told.player, online))
            return None
        if isinstance(told, news.Roster):
            return self._replace(node, told.players)
        if isinstance(told, news.RollCall):
            self.tell(news.Roster(tuple(self.players)))
            return None
        if isinstance(told, news.Released):
            return self.subscribers.deliver(news.ClaimDue(told.codes))
        return None if told is None else self.subscribers.deliver(told)

    def _replace(self, node: str, players: Iterable[int]) -> Awaitable[None] | None:
        came, went = self.roster.replace(node, players)
        changes = [(pid, True) for pid in came - set(self.players)]
        changes += [(pid, False) for pid in went - set(self.players)]
        return self._presence(changes)

    def _presence(self, changes: list[tuple[int, bool]]) -> Awaitable[None] | None:
        waiting = [
            self.subscribers.deliver(news.PresenceChanged(pid, online)) for pid, online in changes
        ]
        pending = [w for w in waiting if w is not None]
        return news.in_order(pending) if pending else None

    # -- periodic work ---------------------------------------------------------------------------

    def _lost(self) -> None:
        if self.lost_ms is None:
            self.lost_ms = self.clock()

    async def _up(self) -> None:
        """Redis reached (at start or again): leases, presence, resynchronisation."""
        lost_ms, self.lost_ms = self.lost_ms, None
        self._up_at = asyncio.get_running_loop().time()
        await self.nodes.heartbeat()
        await self._renew()
        self.tell(news.Roster(tuple(self.players)))
        self.tell(news.RollCall())
        if lost_ms is not None:
            since = lost_ms - 1000
            self.tell(news.Resync(since))
            await _done(self.subscribers.deliver(news.RedisBack(since)))

    async def _beat_forever(self) -> None:
        claimed = 0.0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(RENEW_S)
            assert self.link is not None
            if not self.link.up:
                continue
            try:
                await self.nodes.heartbeat()
                await self._renew()
                await self._drop_dead()
                settled = not self.link.losses or loop.time() - self._up_at >= CLAIM_GRACE_S
                if loop.time() - claimed >= CLAIM_EVERY_S and settled:
                    claimed = loop.time()
                    await _done(self.subscribers.deliver(news.ClaimDue()))
            except (RedisError, OSError) as exc:
                log.warning("cluster: %s", exc)
            except Exception:
                log.exception("cluster: the periodic work failed")

    async def _renew(self) -> None:
        lost = await self.leases.renew(self.rooms_held())
        for code in lost:
            await self.lease_lost(code)

    async def lease_lost(self, code: str) -> None:
        """This node no longer owns the room: its lease is another's (the renewal found it),
        or the database refused a save for a later fencing token."""
        await _done(self.subscribers.deliver(news.LeaseLost(code)))

    async def _drop_dead(self) -> None:
        nodes = self.roster.nodes()
        alive = await self.nodes.alive(nodes)
        for node in nodes:
            if node not in alive:
                log.warning("node %r is gone: its players count as disconnected", node)
                gone = [(pid, False) for pid in self.roster.drop(node) if pid not in self.players]
                await _done(self._presence(gone))


async def _done(waiting: Awaitable[None] | None) -> None:
    if waiting is not None:
        await waiting
