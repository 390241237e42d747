"""Operators' requests to the running server: stored by ``patience-club admin``, taken once
(by the server, or by the command when no server took it in time), answered with an outcome."""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.ext.asyncio import AsyncSession

from server.storage.models import OperatorRequest

END_RACE, CLOSE_ROOM, REMOVE_BOTS = "end_race", "close_room", "remove_bots"
#: who takes a request
SERVER, COMMAND = "server", "command"


async def add(session: AsyncSession, *, action: str, target: str | None, now_ms: int) -> int:
    """A new request, waiting to be taken; its id."""
    row = OperatorRequest(action=action, target=target, requested_ms=now_ms)
    session.add(row)
    await session.flush()
    return row.id


async def waiting(session: AsyncSession) -> list[OperatorRequest]:
    """The requests nobody has taken yet, oldest first."""
    query = select(OperatorRequest).where(OperatorRequest.taken_ms.is_(None))
    return list((await session.execute(query.order_by(OperatorRequest.id))).scalars())


async def take(session: AsyncSession, *, request_id: int, by: str, now_ms: int) -> bool:
    """Take the request if nobody has: True for the one who got it (an atomic update)."""
    result = await session.execute(
        update(OperatorRequest)
        .where(OperatorRequest.id == request_id, OperatorRequest.taken_ms.is_(None))
        .values(taken_by=by, taken_ms=now_ms)
    )
    assert isinstance(result, CursorResult)
    return result.rowcount == 1


async def finish(
    session: AsyncSession, *, request_id: int, ok: bool, outcome: str, now_ms: int
) -> None:
    await session.execute(
        update(OperatorRequest)
        .where(OperatorRequest.id == request_id)
        .values(ok=ok, outcome=outcome[:1000], done_ms=now_ms)
    )


async def get(session: AsyncSession, *, request_id: int) -> OperatorRequest | None:
    return await session.get(OperatorRequest, request_id, populate_existing=True)
