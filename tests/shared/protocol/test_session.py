"""``hello`` and ``welcome``, and the parts a welcome carries."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from shared.variants import STANDARD
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import (
    every_field_is_checked,
    out_of_range,
    pack,
    refused,
    refused_frame,
    round_trips,
)

HELLO = {"type": "hello", "id": 1, "protocol": 2, "client": "tui/1.0", "name": "alice"}
SERVER = {
    "name": "Test Club",
    "version": "0.1.0",
    "variants": STANDARD.info(),
    "motd": "hi",
}
WELCOME = {
    "type": "welcome",
    "re": 1,
    "protocol": 2,
    "server": SERVER,
    "player": {"id": 1, "name": "alice", "bot": False},
    "token": "t" * 32,
}
LAYOUT = {"rows": [["s", "w", "", "f0"], ["t0", "t1"]], "fan": {"t0": "down", "s": "stack"}}


@given(st.one_of(s.SESSION))
def test_every_session_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_a_new_player_says_a_name_and_a_returning_one_a_token() -> None:
    assert p.decode(pack(HELLO)) == p.Hello(protocol=2, client="tui/1.0", name="alice", id=1)
    back = HELLO | {"token": "x" * 32}
    del back["name"]
    assert p.decode(pack(back)) == p.Hello(protocol=2, client="tui/1.0", token="x" * 32, id=1)
    assert "exclude each other" in refused_frame(p.REQUESTS, HELLO | {"token": "x"})


def test_a_new_player_may_say_it_is_a_bot() -> None:
    bot = p.decode(pack(HELLO | {"bot": True}))
    assert isinstance(bot, p.Hello) and bot.bot
    assert not p.Hello.from_map(HELLO).bot  # absent: a person
    assert bot.to_map()["bot"] is True and "bot" not in p.Hello.from_map(HELLO).to_map()
    refused(p.Hello.from_map, HELLO | {"bot": 1}, "bot")


def test_every_field_of_hello_is_checked() -> None:
    every_field_is_checked(p.Hello.from_map, HELLO | {"bot": False}, optional={"bot"})
    returning = {k: v for k, v in HELLO.items() if k != "name"} | {"token": "x"}
    every_field_is_checked(p.Hello.from_map, returning)
    out_of_range(p.Hello.from_map, HELLO, "client", ["", "c" * 65])
    out_of_range(p.Hello.from_map, returning, "token", ["", "t" * 257])
    out_of_range(p.Hello.from_map, HELLO, "protocol", [2**63, 1.0])


def test_another_device_says_hello_with_a_transfer_code() -> None:
    moving = {k: v for k, v in HELLO.items() if k != "name"} | {"transfer": "K7QF-2MXP"}
    hello = p.decode(pack(moving))
    assert isinstance(hello, p.Hello) and hello.transfer == "K7QF-2MXP" and hello.token is None
    assert hello.to_map() == moving
    every_field_is_checked(p.Hello.from_map, moving)
    out_of_range(p.Hello.from_map, moving, "transfer", ["", "k" * 33, 7])
    assert "exclude each other" in refused_frame(p.REQUESTS, moving | {"token": "x"})
    asked = {"type": "transfer_code", "id": 3, "token": "x" * 32}
    assert p.decode(pack(asked)) == p.TransferCodeRequest(token="x" * 32, id=3)
    every_field_is_checked(p.TransferCodeRequest.from_map, asked)
    told = {"type": "transfer_code", "re": 3, "code": "K7QF-2MXP", "expires_ms": 1_800_000}
    reply = p.TransferCodeReply.from_map(told)
    assert reply.to_map() == told
    round_trips(reply)
    every_field_is_checked(p.TransferCodeReply.from_map, told)


def test_an_invalid_name_string_is_left_to_the_server_to_call_invalid_name() -> None:
    hello = p.Hello.from_map(HELLO | {"name": "no spaces"})
    assert hello.name == "no spaces"
    assert not p.NAME_RE.fullmatch("no spaces")
    assert p.NAME_RE.fullmatch("Al_ice-9")


def test_every_field_of_welcome_and_its_parts_is_checked() -> None:
    every_field_is_checked(p.Welcome.from_map, WELCOME, optional={"token"})
    every_field_is_checked(p.ServerInfo.from_map, SERVER, optional={"motd"})
    every_field_is_checked(p.PlayerInfo.from_map, WELCOME["player"])
    every_field_is_checked(
        p.VariantInfo.from_map, SERVER["variants"][0], optional={"layout", "pile_names"}
    )
    freecell = SERVER["variants"][3]
    every_field_is_checked(
        p.VariantInfo.from_map, freecell, optional={"layout", "pile_names", "race_default"}
    )
    every_field_is_checked(p.VariantLayout.from_map, LAYOUT)
    out_of_range(p.PlayerInfo.from_map, WELCOME["player"], "id", [0, -1])
    out_of_range(p.PlayerInfo.from_map, WELCOME["player"], "name", ["", "n" * 25])
    out_of_range(p.VariantInfo.from_map, SERVER["variants"][0], "max_score", [-1])
    message = refused(p.Welcome.from_map, WELCOME | {"server": SERVER | {"variants": [{}]}})
    assert message.message.startswith("in field 'server': in field 'variants' item 0:")


def test_a_layout_names_rows_of_piles_and_how_each_is_fanned() -> None:
    layout = p.VariantLayout.from_map(LAYOUT)
    assert layout.rows == (("s", "w", "", "f0"), ("t0", "t1"))
    assert layout.to_map() == LAYOUT
    out_of_range(p.VariantLayout.from_map, LAYOUT, "rows", [[5], [[5]]])
    refused(p.VariantLayout.from_map, LAYOUT | {"fan": {"t0": "sideways"}}, "t0")
    info = p.VariantInfo.from_map(SERVER["variants"][0] | {"layout": LAYOUT})
    assert info.layout == layout


def test_a_variant_names_each_pile_and_may_be_offered_first_for_races() -> None:
    freecell = p.VariantInfo.from_map(SERVER["variants"][3])
    assert freecell.id == "freecell" and freecell.race_default
    assert freecell.pile_names is not None and freecell.pile_names["r0"] == "free cell 1"
    assert freecell.to_map()["race_default"] is True
    gypsy = p.VariantInfo.from_map(SERVER["variants"][2])
    assert not gypsy.race_default and "race_default" not in gypsy.to_map()
    # an older server sends neither: the fields are additions
    first = ("id", "name", "options", "max_score")
    bare = {k: v for k, v in SERVER["variants"][3].items() if k in first}
    old = p.VariantInfo.from_map(bare)
    assert old.pile_names is None and not old.race_default and old.to_map() == bare
    names = SERVER["variants"][3]
    refused(p.VariantInfo.from_map, names | {"pile_names": {"t10": "tableau 11"}}, "pile_names")
    refused(p.VariantInfo.from_map, names | {"pile_names": {"t0": ""}}, "pile_names")
    refused(p.VariantInfo.from_map, names | {"pile_names": {"t0": "x" * 41}}, "pile_names")
    refused(p.VariantInfo.from_map, names | {"pile_names": {"t0": 3}}, "pile_names")
    refused(p.VariantInfo.from_map, names | {"race_default": 1}, "race_default")


def test_the_welcome_of_this_server_lists_the_five_variants_in_order() -> None:
    welcome = p.Welcome.from_map(WELCOME)
    assert [v.id for v in welcome.server.variants] == list(STANDARD.ids)
    assert welcome.server.variant("freecell") is not None
    assert welcome.server.variant("chess") is None
    assert welcome.server.to_map() == SERVER


@pytest.mark.parametrize("name", ["alice", "A" * 24, "a-b_c"])
def test_player_names_of_the_server_are_names_here(name: str) -> None:
    assert p.PlayerInfo.from_map({"id": 1, "name": name, "bot": False}).name == name
