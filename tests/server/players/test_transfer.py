"""Moving an account to another device with a short code: made on one device with its token,
entered on the other in ``hello``, used once, replaced by the next, gone after its minutes; on
both databases, with the migrations."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from server.app import App
from server.storage.models import TransferCode
from tests.server.conftest import Client, Connect, FakeClock


async def hello_with(connect: Connect, code: str) -> dict[str, Any]:
    client = await connect()
    return await client.request("hello", protocol=2, client="tests/1", transfer=code)


async def signed_up(connect: Connect, name: str) -> tuple[Client, str]:
    client = await connect()
    welcome = await client.hello(name)
    return client, str(welcome["token"])


async def test_a_code_moves_the_account_to_another_device_once(
    connect: Connect, clock: FakeClock, server: App
) -> None:
    alice, token = await signed_up(connect, "alice")
    reply = await alice.request("transfer_code", token=token)
    assert reply["type"] == "transfer_code", reply
    code = reply["code"]
    assert len(code) == 9 and code[4] == "-", code
    assert reply["expires_ms"] == clock.now + 300_000
    async with server.db_sessions() as db:
        stored = (await db.execute(select(TransferCode))).scalars().all()
    assert len(stored) == 1 and token not in stored[0].sealed and code not in repr(vars(stored[0]))

    # typed on the other device: any case, with or without its dash
    welcome = await hello_with(connect, f" {code.lower().replace('-', '')} ")
    assert welcome["type"] == "welcome", welcome
    assert welcome["player"]["name"] == "alice" and welcome["token"] == token
    again = await hello_with(connect, code)
    assert again["code"] == "bad_token" and "expired" in again["message"], again
    # the first device is still signed in
    assert (await alice.request("stats"))["type"] == "stats"


async def test_a_code_expires_and_the_next_one_replaces_it(
    connect: Connect, clock: FakeClock
) -> None:
    alice, token = await signed_up(connect, "alice")
    first = (await alice.request("transfer_code", token=token))["code"]
    second = (await alice.request("transfer_code", token=token))["code"]
    assert (await hello_with(connect, first))["code"] == "bad_token"  # replaced
    clock.advance(300_001)
    late = await hello_with(connect, second)
    assert late["code"] == "bad_token", late  # expired
    third = (await alice.request("transfer_code", token=token))["code"]
    clock.advance(299_000)
    assert (await hello_with(connect, third))["player"]["name"] == "alice"


async def test_only_the_connection_s_own_token_makes_a_code(connect: Connect) -> None:
    alice, token = await signed_up(connect, "alice")
    mallory, _ = await signed_up(connect, "mallory")
    refused = await mallory.request("transfer_code", token=token)
    assert refused["code"] == "forbidden", refused
    guessed = await hello_with(connect, "K7QF-2MXP")
    assert guessed["code"] == "bad_token", guessed
    malformed = await hello_with(connect, "0000-OOOO")
    assert malformed["code"] == "bad_token" and "letters and digits" in malformed["message"]
    both = await (await connect()).request(
        "hello", protocol=2, client="tests/1", token=token, transfer="K7QF-2MXP"
    )
    assert both["code"] == "invalid_field", both
    assert (await alice.request("transfer_code", token=token))["type"] == "transfer_code"
