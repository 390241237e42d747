"""``invitation`` before ``hello``: a race's link says who invites to what; an unknown code is
``not_found``, counted as a mistake; the connection goes on to say hello."""

from __future__ import annotations

from tests.server.conftest import Connect


async def test_a_link_says_who_invites_to_what_before_hello(connect: Connect) -> None:
    alice = await connect()
    await alice.hello("alice")
    room = (await alice.request("create_room", variant="gypsy"))["room"]
    visitor = await connect()
    told = await visitor.request("invitation", code=room["code"].lower())
    assert told == {
        "type": "invitation",
        "re": told["re"],
        "code": room["code"],
        "host": "alice",
        "variant": "gypsy",
        "variant_name": "Gypsy",
        "state": "waiting",
    }
    missing = await visitor.request("invitation", code="ZZZZZZ")
    assert missing["code"] == "not_found", missing
    # nothing else is answered before hello
    early = await visitor.request("join_room", code=room["code"])
    assert early["code"] == "hello_first", early
    assert (await visitor.hello("bob"))["player"]["name"] == "bob"
    joined = await visitor.request("join_room", code=room["code"])
    assert joined["type"] == "room", joined
