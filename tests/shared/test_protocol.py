"""The wire messages without a network: round trips, validation, and no crash on any input."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared import protocol as p
from shared.errors import ProtocolError

REQUESTS = [
    p.Hello(protocol=1, client="tui/1.0", name="alice", id=1),
    p.Hello(protocol=1, client="tui/1.0", token="x" * 32),
    p.StartGame(variant="freecell", seed=617, options={"autoplay": False}, id=2),
    p.StartGame(variant="gypsy", id=3),
    p.MoveRequest(game="g7Qx", ply=0, move="t3>f0", id=4),
    p.MoveRequest(game="g7Qx", ply=12, move="t3:4>t7", id=5),
    p.MoveRequest(game="g7Qx", ply=3, move="deal", id=-6),
    p.Undo(game="g7Qx", ply=9, id=7),
    p.Resign(game="g7Qx", ply=9),
    p.GetGame(game="g7Qx", id=8),
    p.Hint(game="g7Qx", id=2**63 - 1),
]

REPLIES = [
    p.Welcome(protocol=1, server={"name": "s"}, player={"id": 1, "name": "a"}, token="t", re=1),
    p.Welcome(protocol=1, server={"name": "s"}, player={"id": 1, "name": "a"}, re=1),
    p.GameMessage(game={"id": "g", "ply": 3}, re=2),
    p.GameMessage(game={"id": "g", "ply": 3}, extra={"daily": {"date": "2026-11-29"}}),
    p.HintReply(move="t0>f1", re=3),
    p.HintReply(move=None, re=3),
    p.Ok(re=4),
    p.Error(code="stale_ply", message="ply 2 is not 3", game={"id": "g", "ply": 3}, re=5),
    p.Error(code="bad_message", message="not a map"),
]


@pytest.mark.parametrize("message", REQUESTS, ids=lambda m: m.type)
def test_requests_round_trip(message: p.Request) -> None:
    assert p.decode(p.encode(message)) == message


@pytest.mark.parametrize("message", REPLIES, ids=lambda m: m.type)
def test_replies_round_trip(message: p.Reply) -> None:
    assert p.decode_reply(p.encode(message)) == message


def test_an_absent_id_means_no_id_and_no_re() -> None:
    assert "id" not in p.Resign(game="g", ply=0).to_map()
    assert "re" not in p.Error(code="bad_message", message="m").to_map()


def refusal(data: bytes) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        p.decode(data)
    return info.value


def pack(m: Any) -> bytes:
    data: bytes = msgpack.packb(m)
    return data


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "bad_message"),
        (b"\xc1", "bad_message"),
        (pack([1]), "bad_message"),
        (pack({1: 2}), "bad_message"),
        (pack({"id": 1}), "invalid_field"),
        (pack({"type": "fly", "id": 1}), "unknown_type"),
        (pack({"type": "hint", "id": "1", "game": "g"}), "invalid_field"),
    ],
)
def test_envelope_errors_have_the_protocols_codes(data: bytes, code: str) -> None:
    assert refusal(data).code == code


def test_text_is_not_a_message() -> None:
    with pytest.raises(ProtocolError) as info:
        p.unpack('{"type": "hello"}')
    assert info.value.code == "bad_message"


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"type": "hello", "protocol": 1, "client": "c"}, "name"),
        ({"type": "hello", "protocol": 1, "client": "c", "name": "a", "token": "t"}, "token"),
        ({"type": "hello", "protocol": "1", "client": "c", "name": "a"}, "protocol"),
        ({"type": "hello", "protocol": 1, "name": "a"}, "client"),
        ({"type": "hello", "protocol": 1, "client": "c", "name": 5}, "name"),
        ({"type": "start_game", "variant": "freecell", "seed": 2**31}, "seed"),
        ({"type": "start_game", "variant": "freecell", "options": {"a": 1.5}}, "options"),
        ({"type": "start_game", "variant": "freecell", "options": {"a": None}}, "options"),
        ({"type": "move", "game": "g", "ply": 0, "move": "t3>>f0"}, "move"),
        ({"type": "move", "game": "g", "ply": 0, "move": "t3:1>t4"}, "move"),
        ({"type": "move", "game": "g", "ply": True, "move": "deal"}, "ply"),
        ({"type": "undo", "game": "", "ply": 0}, "game"),
    ],
)
def test_field_errors_name_the_field(fields: dict[str, Any], named: str) -> None:
    error = refusal(pack(fields))
    assert error.code == "invalid_field"
    assert f"'{named}'" in error.message


def test_an_invalid_name_string_is_left_to_the_server_to_call_invalid_name() -> None:
    hello = p.decode(pack({"type": "hello", "protocol": 1, "client": "c", "name": "no spaces"}))
    assert isinstance(hello, p.Hello) and hello.name == "no spaces"
    assert not p.NAME_RE.fullmatch("no spaces")


def test_other_modules_can_register_messages() -> None:
    @p.request
    @dataclass(frozen=True, slots=True)
    class Ping(p.Request):
        type: ClassVar[str] = "test_ping"
        n: int

        def to_map(self) -> dict[str, Any]:
            return self._envelope() | {"n": self.n}

        @classmethod
        def from_map(cls, m: Any) -> Ping:
            return cls(n=p.req_int(m, "n", 0, 9), id=m.get("id"))

    try:
        assert p.decode(p.encode(Ping(n=3, id=1))) == Ping(n=3, id=1)
        assert refusal(pack({"type": "test_ping", "n": 10})).code == "invalid_field"
    finally:
        del p.REQUESTS["test_ping"]


scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.floats()
    | st.text(max_size=30)
    | st.binary(max_size=10)
)
values = (
    scalars
    | st.lists(scalars, max_size=3)
    | st.dictionaries(st.text(max_size=6), scalars, max_size=3)
)
FIELDS = ["type", "id", "game", "ply", "move", "seed", "variant", "options", "name", "token"]
field_names = st.sampled_from([*FIELDS, "client", "protocol"])
kinds = st.sampled_from([*p.REQUESTS, "nope"])


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.dictionaries(field_names, values, max_size=6), kinds)
def test_any_map_decodes_or_is_refused_with_a_protocol_error(
    fields: dict[str, Any], kind: str
) -> None:
    fields.setdefault("type", kind)
    try:
        message = p.decode(pack(fields))
    except ProtocolError as exc:
        assert exc.code in p.CLIENT_FAULTS
    else:
        assert p.decode(p.encode(message)) == message


@settings(deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_are_refused_with_a_protocol_error(data: bytes) -> None:
    try:
        p.decode(data)
    except ProtocolError as exc:
        assert exc.code in p.CLIENT_FAULTS
