"""The router's table: built from routes given to it, one handler per type, read-only."""

from __future__ import annotations

from typing import Any

import pytest

from server.config import Config
from server.events import Events
from server.net.routing import Route, Router, handles
from shared import protocol as p


async def answer(_connection: Any, message: Any) -> p.Reply:
    return p.Ok(re=message.id)


def test_handles_makes_a_route_and_registers_nothing() -> None:
    route = handles(p.HintRequest)(answer)
    assert route == Route(p.HintRequest, answer, needs_hello=True)
    assert handles(p.Hello, needs_hello=False)(answer).needs_hello is False
    assert dict(Router((), config=Config(), events=Events()).routes) == {}


def test_a_router_takes_one_handler_per_message_type_and_its_table_is_read_only() -> None:
    router = Router((handles(p.HintRequest)(answer),), config=Config(), events=Events())
    assert list(router.routes) == ["hint"]
    with pytest.raises(TypeError):
        router.routes["move"] = handles(p.MoveRequest)(answer)  # type: ignore[index]
    with pytest.raises(ValueError, match="'hint'"):
        Router(
            (handles(p.HintRequest)(answer), handles(p.HintRequest)(answer)),
            config=Config(),
            events=Events(),
        )
