"""The node's connection to Redis: commands, one subscription, an ordered publisher, reconnects.

Redis may go away at any moment (a restart, a network cut). Nothing that
matters waits on it: :meth:`RedisLink.publish` never blocks (messages go to
one publisher task, in order; while Redis is down they are dropped, since
what they carried is in the database and is sent again on resynchronisation),
and every command fails fast (no retries inside the client: the callers'
loops try again). A listener task holds the subscription to the node's
channels and, when Redis is lost, tries again every :data:`RETRY_S`; each
time it is subscribed again it runs the ``on_up`` hooks (leases asserted
again, presence exchanged, rooms resynchronised).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import msgpack
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: seconds between attempts to reach a lost Redis
RETRY_S = 0.5
#: seconds a command may take before Redis counts as lost for it
COMMAND_TIMEOUT_S = 2.0
#: messages waiting for the publisher; past it the oldest are dropped (Redis is too slow)
PUBLISH_QUEUE = 10_000

#: what a channel's messages are handed to (a map decoded from msgpack)
Handler = Callable[[dict[str, Any]], Awaitable[None] | None]
UpHook = Callable[[], Awaitable[None]]


def pack(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message, use_bin_type=True)  # type: ignore[no-any-return]


class RedisLink:
    def __init__(self, url: str) -> None:
        self.url = url
        self.client: Redis = Redis.from_url(
            url,
            socket_timeout=COMMAND_TIMEOUT_S,
            socket_connect_timeout=COMMAND_TIMEOUT_S,
            retry=Retry(NoBackoff(), 0),
        )
        #: channel -> handler, set before :meth:`start`
        self.handlers: dict[str, Handler] = {}
        #: run, in order, each time the subscription is (re)established
        self.on_up: list[UpHook] = []
        #: called the moment the subscription is lost
        self.on_lost: list[Callable[[], None]] = []
        #: whether the subscription is live (what /healthz reports)
        self.up = False
        #: times the subscription was lost, for logs and tests
        self.losses = 0
        self._queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(PUBLISH_QUEUE)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._tasks_running: set[asyncio.Task[Any]] = set()

    async def check(self) -> None:
        """Raise when Redis does not answer (at start: a node needs Redis to join the others)."""
        await self.client.ping()

    async def start(self, handlers: Mapping[str, Handler]) -> None:
        """Subscribe to ``handlers``' channels and wait until the subscription is live."""
        self.handlers.update(handlers)
        self._tasks = [
            asyncio.create_task(self._listen(), name="redis-listen"),
            asyncio.create_task(self._publish_forever(), name="redis-publish"),
        ]
        await asyncio.wait_for(self._subscribed.wait(), 10)

    async def stop(self) -> None:
        await self.flush()
        for task in [*self._tasks, *self._tasks_running]:
            task.cancel()
        for task in [*self._tasks, *self._tasks_running]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self.up = False
        await self.client.aclose()

    async def flush(self, timeout_s: float = 2.0) -> None:
        """Wait (a little) for what is queued to be published."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                while not self._queue.empty() and self.up:
                    await asyncio.sleep(0.01)

    # -- publishing ------------------------------------------------------------------------

    def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for ``channel``; dropped while Redis is lost."""
        if not self.up:
            return
        data = pack(message)
        if self._queue.full():
            self._queue.get_nowait()
            log.warning("redis publisher behind: a message dropped")
        self._queue.put_nowait((channel, data))

    async def _publish_forever(self) -> None:
        while True:
            channel, data = await self._queue.get()
            batch = [(channel, data)]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            try:
                async with self.client.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("redis: %d messages not published: %s", len(batch), exc)

    # -- the subscription ----------------------------------------------------------------------

    async def _listen(self) -> None:
        while True:
            pubsub = self.client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*self.handlers)
                was_lost = self.losses > 0
                self.up = True
                self._subscribed.set()
                if was_lost:
                    log.warning("redis is back: resynchronising")
                for hook in self.on_up:
                    try:
                        await hook()
                    except (RedisError, OSError):
                        raise
                    except Exception:
                        log.exception("redis: a reconnection hook failed")
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        await pubsub.ping()  # a dead connection shows here when all is quiet
                        continue
                    if message.get("type") != "message":
                        continue
                    self._dispatch(message["channel"], message["data"])
            except (RedisError, OSError) as exc:
                if self.up:
                    self.losses += 1
                    log.warning("redis lost (%s); trying again every %g s", exc, RETRY_S)
                    for lost in self.on_lost:
                        lost()
                self.up = False
                self._drain()
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]
            await asyncio.sleep(RETRY_S)

    def _drain(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()

    def _dispatch(self, channel: bytes | str, data: bytes) -> None:
        name = channel.decode() if isinstance(channel, bytes) else channel
        handler = self.handlers.get(name)
        if handler is None:
            return
        try:
            message = msgpack.unpackb(data, raw=False)
        except Exception:
            log.warning("redis: a message on %s that is not msgpack, ignored", name)
            return
        if not isinstance(message, dict):
            return
        try:
            result = handler(message)
        except Exception:
            log.exception("redis: the handler of %s failed", name)
            return
        if result is not None:
            task = asyncio.ensure_future(result)
            self._tasks_running.add(task)
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Future[Any]) -> None:
        self._tasks_running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("redis: a handler failed", exc_info=task.exception())
