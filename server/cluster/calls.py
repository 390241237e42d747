"""Requests on a room forwarded to the node that owns it, and their answers, over Redis.

A member connected to node B who asks something of a room owned by node A
(join, leave, start, watch) has B send it to A's inbox; A runs it as if
asked locally and answers on B's inbox. What A refuses comes back as the
same ``error``; a room A no longer owns comes back as ``moved`` (B asks
again where it is now). A call not answered within :data:`CALL_TIMEOUT_S`
raises :class:`CallTimeout` (the owner died or Redis was lost): the caller
looks again for the owner, who may have changed by then.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from server.cluster.keys import Keys
from server.cluster.link import RedisLink
from server.errors import Refused

log = logging.getLogger(__name__)

CALL_TIMEOUT_S = 2.0

#: runs one forwarded request: (operation, arguments) -> the answer's fields
Serve = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


class CallTimeout(Exception):
    """The owner did not answer in time."""


class Moved(Exception):
    """The room is not (or no longer) this node's: ``owner`` holds it, if anyone."""

    def __init__(self, owner: str | None) -> None:
        super().__init__(owner)
        self.owner = owner


class Calls:
    def __init__(self, link: RedisLink, keys: Keys, node_id: str) -> None:
        self.link = link
        self.keys = keys
        self.node_id = node_id
        self.serve: Serve | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}

    async def call(self, node: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` on ``node``; its answer, its refusal raised, :class:`Moved` or timeout."""
        if not self.link.up:
            raise CallTimeout
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self.link.publish(
            self.keys.inbox(node),
            {"call": number, "from": self.node_id, "op": op, "args": args},
        )
        try:
            async with asyncio.timeout(CALL_TIMEOUT_S):
                answer = await future
        except TimeoutError:
            raise CallTimeout from None
        finally:
            self._waiting.pop(number, None)
        if "error" in answer:
            name, message = answer["error"]
            raise Refused.named(name, message)
        if "moved" in answer:
            raise Moved(answer["moved"])
        result: dict[str, Any] = answer["ok"]
        return result

    def received(self, message: dict[str, Any]) -> Awaitable[None] | None:
        """A message in this node's inbox: an answer to one of its calls, or a call to run."""
        if "re" in message:
            future = self._waiting.get(message["re"])
            if future is not None and not future.done():
                future.set_result(message)
            return None
        return self._run(message)

    async def _run(self, message: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"re": message["call"]}
        try:
            assert self.serve is not None
            answer["ok"] = await self.serve(message["op"], message["args"])
        except Refused as exc:
            answer["error"] = [type(exc).__name__, exc.message]
        except Moved as exc:
            answer["moved"] = exc.owner
        except Exception:
            log.exception("forwarded %s failed", message.get("op"))
            answer["error"] = ["Internal", "the room's server failed on this request"]
        self.link.publish(self.keys.inbox(message["from"]), answer)
