"""The connection layer against the real server: registration, tokens, errors, drops, restarts."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgpack
import pytest
from websockets.asyncio.server import ServerConnection, serve

from client.config import TokenStore
from client.connection import CONNECTED, Connection, describe
from client.played_game import PlayedGame
from shared.errors import ProtocolError
from shared.notation import Move, parse_action
from shared.protocol import (
    GameReply,
    GameView,
    GetGame,
    JoinRoom,
    MoveRequest,
    Ok,
    PlayerInfo,
    RoomReply,
    ServerInfo,
    Welcome,
    encode,
)
from tests.client.conftest import OpenConnection, ServerControl


async def wait_until(condition: object, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def test_first_use_registers_and_keeps_the_token_for_that_server(
    server: ServerControl, store: TokenStore
) -> None:
    conn = Connection(server.url, store=store, name="alice")
    welcome = await conn.open()
    await conn.close()
    account = store.get(server.url)
    assert account is not None and account.name == "alice"
    assert account.token == welcome.token
    assert welcome.server.name == "Test Club"

    # Next time the token identifies us: same player, no name needed, no new token.
    again = Connection(server.url, store=store)
    assert not again.needs_name
    welcome_again = await again.open()
    await again.close()
    assert welcome_again.player == welcome.player
    assert welcome_again.token is None


async def test_without_a_token_or_a_name_the_client_asks_for_a_name(
    server: ServerControl, store: TokenStore
) -> None:
    conn = Connection(server.url, store=store)
    assert conn.needs_name
    with pytest.raises(ProtocolError) as caught:
        await conn.open()
    assert "choose a name" in describe(caught.value)


async def test_a_taken_name_is_a_readable_error(
    server: ServerControl, store: TokenStore, open_connection: OpenConnection
) -> None:
    await open_connection("bob")
    conn = Connection(server.url, store=store, name="BOB")
    with pytest.raises(ProtocolError) as caught:
        await conn.open()
    assert caught.value.code == "name_taken"
    assert describe(caught.value).startswith("that name is taken on this server")
    assert store.get(server.url) is None


async def test_a_look_alike_name_is_a_readable_error(
    server: ServerControl, store: TokenStore, open_connection: OpenConnection
) -> None:
    await open_connection("Alice")
    conn = Connection(server.url, store=store, name="AIice")  # a capital i for the l
    with pytest.raises(ProtocolError) as caught:
        await conn.open()
    assert caught.value.code == "name_looks_taken"
    assert describe(caught.value).startswith("that name looks too much like a player's here")
    assert store.get(server.url) is None


async def test_a_server_refusal_raises_with_the_servers_reason(
    open_connection: OpenConnection,
) -> None:
    played = PlayedGame(await open_connection("carol"))
    view = await played.start("freecell", 617)
    with pytest.raises(ProtocolError) as caught:
        await played.move(Move.parse("t0>t0"))
    assert caught.value.code == "illegal_move"
    assert "t0>t0" in describe(caught.value)
    assert played.view == view


async def test_an_unreachable_server_is_a_readable_error(store: TokenStore) -> None:
    from tests.client.conftest import free_port

    conn = Connection(f"ws://127.0.0.1:{free_port()}/ws", store=store, name="dave")
    with pytest.raises(OSError) as caught:
        await conn.open()
    assert describe(caught.value).startswith("cannot reach the server")


async def test_a_stale_ply_adopts_the_servers_view(open_connection: OpenConnection) -> None:
    conn = await open_connection("erin")
    played = PlayedGame(conn)
    await played.start("freecell", 617)
    first = played.view
    assert first is not None
    await played.move(parse_action(first.legal[0]))
    # Another device (or a lost reply) left this game at the old ply.
    played.view = first
    with pytest.raises(ProtocolError) as caught:
        await played.move(parse_action(first.legal[-1]))
    assert caught.value.code == "stale_ply"
    assert played.ply == 1


async def test_a_retried_move_after_a_lost_reply_is_applied_once(
    open_connection: OpenConnection,
) -> None:
    conn = await open_connection("frank")
    played = PlayedGame(conn)
    view = await played.start("freecell", 617)
    move = MoveRequest(game=view.id, ply=view.ply, move=parse_action(view.legal[0]))
    first = await conn.request(move, GameReply)
    # The same request again, as a client resends when the reply was lost.
    retry = await conn.request(move, GameReply)
    assert first.game.ply == retry.game.ply == view.ply + 1
    assert first.game.piles == retry.game.piles


async def test_a_dropped_link_reconnects_and_the_game_resumes(
    open_connection: OpenConnection,
) -> None:
    resumed: list[GameView] = []
    conn = await open_connection("grace")
    played = PlayedGame(conn)

    async def resume() -> None:
        view = await played.resume()
        assert view is not None
        resumed.append(view)

    conn.on_resume = resume
    view = await played.start("freecell", 617)
    moved = await played.move(parse_action(view.legal[0]))
    await conn.drop()
    # Sent while the link is down: it waits for the reconnect, then goes once.
    after = await played.move(parse_action(moved.legal[0]))
    assert after.ply == 2
    await wait_until(lambda: resumed)
    assert conn.reconnects == 1 and conn.state == CONNECTED
    assert resumed[0].id == view.id
    again = await played.resume()
    assert again is not None and again.ply == 2


async def test_a_server_restart_is_survived_with_backoff_and_the_game_resumes(
    server: ServerControl, open_connection: OpenConnection
) -> None:
    states: list[str] = []
    conn = await open_connection("heidi", on_state=lambda s, d: states.append(s))
    played = PlayedGame(conn)
    conn.on_resume = lambda: played.resume()  # type: ignore[assignment,return-value]
    view = await played.start("freecell", 617)
    await played.move(parse_action(view.legal[0]))
    await server.stop()
    await wait_until(lambda: "reconnecting" in states)
    await asyncio.sleep(0.3)  # a few attempts fail while the server is down
    await server.start()
    await wait_until(lambda: conn.state == CONNECTED)
    resumed = await played.resume()
    assert resumed is not None
    assert resumed.id == view.id and resumed.ply == 1
    after = await played.move(parse_action(resumed.legal[0]))
    assert after.ply == 2
    assert states.count("reconnecting") >= 2


async def test_a_request_with_a_bad_field_is_refused_before_it_leaves(
    server: ServerControl, open_connection: OpenConnection
) -> None:
    conn = await open_connection("ivan")
    with pytest.raises(ProtocolError) as caught:
        await conn.request(JoinRoom(code="0O1I00"), RoomReply)
    assert caught.value.code == "invalid_field" and "'code'" in caught.value.message
    assert server.app is not None
    assert [s.faults for s in server.app.connections] == [0], "the server saw no bad message"


Answer = Callable[[dict[str, Any]], bytes | None]


@contextlib.asynccontextmanager
async def odd_server(answer: Answer) -> AsyncIterator[str]:
    """A server that answers hello properly and every other request with ``answer``."""

    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            m = msgpack.unpackb(frame)
            if m["type"] == "hello":
                info = ServerInfo(name="odd", version="1", variants=())
                await ws.send(encode(Welcome(1, info, PlayerInfo(1, "judy"), re=m["id"])))
            elif (data := answer(m)) is not None:
                await ws.send(data)

    async with serve(handler, "127.0.0.1", 0) as odd:
        yield f"ws://127.0.0.1:{next(iter(odd.sockets)).getsockname()[1]}/ws"


async def ask_odd(store: TokenStore, answer: Answer) -> BaseException:
    """What ``get_game`` to an odd server raises."""
    async with odd_server(answer) as url:
        conn = Connection(url, store=store, name="judy", reply_timeout=1)
        await conn.open()
        loop = asyncio.get_running_loop()
        asked = loop.time()
        try:
            with pytest.raises(Exception) as caught:
                async with asyncio.timeout(10):  # a hang fails the test, not the whole suite
                    await conn.request(GetGame(game="g"), GameReply)
        finally:
            await conn.close()
    assert loop.time() - asked < 5, "no answer should take far longer than reply_timeout"
    return caught.value


async def test_a_reply_that_does_not_decode_fails_its_request_at_once(store: TokenStore) -> None:
    def bad_view(m: dict[str, Any]) -> bytes:
        return msgpack.packb({"type": "game", "re": m["id"], "game": {"id": 5}})  # type: ignore[no-any-return]

    error = await ask_odd(store, bad_view)
    assert isinstance(error, ProtocolError), error
    assert error.code == "invalid_field" and "'game'" in error.message


async def test_a_reply_of_another_type_is_refused(store: TokenStore) -> None:
    error = await ask_odd(store, lambda m: encode(Ok(re=m["id"])))
    assert isinstance(error, ProtocolError), error
    assert error.code == "bad_message" and "'ok', not 'game'" in error.message


async def test_a_reply_that_never_comes_is_a_timeout(store: TokenStore) -> None:
    error = await ask_odd(store, lambda m: None)
    assert isinstance(error, TimeoutError)
    assert describe(error) == "the server did not answer in time; try again"


@pytest.mark.parametrize(
    ("code", "words"),
    [("busy", "the server is busy"), ("hints_off", "hints are off in this game"),
     ("no_racers", "nobody in the room is connected"), ("race_locked", "you are racing on")],
)  # fmt: skip
def test_refusals_a_player_meets_are_told_in_words(code: str, words: str) -> None:
    assert words in describe(ProtocolError(code, f"the server's own {code} message"))
