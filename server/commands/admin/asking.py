"""Asking the running server to do something only it can (end a race, close a room, remove
bots): the command stores a request, the server takes it within about a second (its poll of
the operators' changes) and stores what it did, which the command prints.

A request is taken once (an atomic update). When no server takes it within
``--wait`` seconds the command takes it itself, so that no server acts on it
later, and either does it on the database alone (``--offline``, for what
makes sense with the server stopped) or says that nothing changed.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncSession

from server.commands.admin.common import AdminError
from server.storage.queries import players, requests

#: how often the command looks for the server's answer
LOOK_S = 0.1
#: how long a server that took a request may take to carry it out
WORKING_S = 30.0

#: what the command does itself, on the database alone: (ok, outcome)
Offline = Callable[[AsyncSession], Awaitable[tuple[bool, str]]]


def waiting_arguments(parser: argparse.ArgumentParser, *, offline: bool) -> None:
    parser.add_argument(
        "--wait",
        type=float,
        default=5.0,
        metavar="S",
        help="seconds to wait for the running server to take the request (default 5)",
    )
    if offline:
        parser.add_argument(
            "--offline",
            action="store_true",
            help="the server is stopped: do it on the database alone (never while it runs)",
        )


async def ask(
    db: AsyncSession,
    args: argparse.Namespace,
    action: str,
    target: str | None,
    offline: Offline | None = None,
) -> list[str]:
    """Store the request, wait for the server's outcome, print it; refused (exit 1) when it
    was not done."""
    if getattr(args, "offline", False) and offline is not None:
        ok, outcome = await offline(db)
        await db.commit()
        return _answer(ok, outcome)
    request_id = await requests.add(db, action=action, target=target, now_ms=players.now_ms())
    await db.commit()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.wait
    while True:
        await asyncio.sleep(LOOK_S)
        row = await requests.get(db, request_id=request_id)
        await db.commit()  # a fresh snapshot at the next look
        assert row is not None
        if row.done_ms is not None:
            return _answer(bool(row.ok), row.outcome or "")
        if row.taken_ms is not None:
            if loop.time() > deadline + WORKING_S:
                return [
                    f"the server took the request ({time.ctime(row.taken_ms / 1000)}) "
                    "and is still working on it; see its log"
                ]
            continue
        if loop.time() < deadline:
            continue
        if await requests.take(
            db, request_id=request_id, by=requests.COMMAND, now_ms=players.now_ms()
        ):
            outcome = (
                f"no running server took the request within {args.wait:g} s: nothing changed"
                + (" (with the server stopped, use --offline)" if offline is not None else "")
            )
            await requests.finish(
                db, request_id=request_id, ok=False, outcome=outcome, now_ms=players.now_ms()
            )
            await db.commit()
            raise AdminError(outcome)
        await db.commit()  # the server took it at the last moment: wait for its outcome


def _answer(ok: bool, outcome: str) -> list[str]:
    if not ok:
        raise AdminError(outcome)
    return outcome.splitlines()
