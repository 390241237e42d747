"""The envelope: field checks, the registries, frames, and no crash on any input."""

from __future__ import annotations

import importlib
import inspect
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared import protocol as p
from shared.errors import ProtocolError
from shared.protocol import envelope as e
from tests.shared.protocol.checks import pack, refused, refused_frame

AREAS = (
    "session",
    "games",
    "hindsight",
    "replays",
    "invitations",
    "rooms",
    "daily",
    "stats",
    "ratings",
    "arenas.requests",
    "arenas.replies",
    "challenges",
    "challenge_requests",
    "challenge_replies",
    "seasons",
    "profiles",
)


# -- field checks ----------------------------------------------------------------------


def test_a_string_field_has_one_to_max_characters() -> None:
    assert e.req_str({"s": "abc"}, "s", 3) == "abc"
    assert (
        "1 to 3 characters, not 4" in refused(lambda m: e.req_str(m, "s", 3), {"s": "abcd"}).message
    )
    assert "not 0" in refused(lambda m: e.req_str(m, "s", 3), {"s": ""}, "s").message
    assert "not nothing" in refused(lambda m: e.req_str(m, "s", 3), {}, "s").message
    assert "not an integer" in refused(lambda m: e.req_str(m, "s", 3), {"s": 3}, "s").message


def test_an_optional_field_may_be_absent_but_not_null() -> None:
    assert e.opt_str({}, "s", 3) is None
    assert e.opt_int({}, "n", 0, 9) is None
    refused(lambda m: e.opt_str(m, "s", 3), {"s": None}, "s")
    refused(lambda m: e.opt_int(m, "n", 0, 9), {"n": None}, "n")


def test_an_integer_field_is_in_its_range_and_never_a_boolean() -> None:
    read = lambda m: e.req_int(m, "n", 0, 9)  # noqa: E731
    assert read({"n": 9}) == 9
    assert "from 0 to 9, not 10" in refused(read, {"n": 10}, "n").message
    refused(read, {"n": -1}, "n")
    assert "not a boolean" in refused(read, {"n": True}, "n").message
    assert "not a number" in refused(read, {"n": 1.0}, "n").message
    assert e.req_count({"n": 0}, "n") == 0
    refused(lambda m: e.req_count(m, "n"), {"n": -1}, "n")


def test_a_nullable_field_must_be_there_and_may_be_null() -> None:
    read = lambda m: e.nullable(m, "n", e.req_count)  # noqa: E731
    assert read({"n": None}) is None
    assert read({"n": 4}) == 4
    assert "is missing" in refused(read, {}, "n").message
    refused(read, {"n": "4"}, "n")


def test_choices_lists_and_booleans() -> None:
    assert e.req_choice({"c": "b"}, "c", ("a", "b")) == "b"
    assert "one of a, b" in refused(lambda m: e.req_choice(m, "c", ("a", "b")), {"c": "z"}).message
    assert e.req_strs({"l": ["ab"]}, "l", 2) == ("ab",)
    refused(lambda m: e.req_strs(m, "l", 2), {"l": ["abc"]}, "l")
    refused(lambda m: e.req_strs(m, "l", 2), {"l": [1]}, "l")
    refused(lambda m: e.req_list(m, "l", 2), {"l": [1, 2, 3]}, "l")
    assert e.req_bool({"b": False}, "b") is False
    refused(lambda m: e.req_bool(m, "b"), {"b": 0}, "b")


def test_options_are_a_small_map_of_short_names_to_booleans_or_integers() -> None:
    assert e.option_map({}) == {}
    assert e.option_map({"options": {"a": True, "b": -3}}) == {"a": True, "b": -3}
    for bad in (
        [],
        {"a": 1.5},
        {"a": None},
        {"": 1},
        {"x" * 33: 1},
        {"a": 2**63},
        {f"o{i}": 1 for i in range(17)},
    ):
        refused(e.option_map, {"options": bad}, "options")


def test_a_refusal_inside_a_nested_map_says_where_it_was() -> None:
    message = refused(
        lambda m: e.nested_list(m, "players", p.PlayerInfo.from_map),
        {"players": [{"id": 1, "name": "a", "bot": False}, {"id": 0, "name": "b", "bot": True}]},
    ).message
    assert message.startswith("in field 'players' item 1: field 'id'")
    refused(lambda m: e.nested_list(m, "players", p.PlayerInfo.from_map), {"players": [3]})
    message = refused(
        lambda m: e.nested(m, "player", p.PlayerInfo.from_map), {"player": {}}
    ).message
    assert message.startswith("in field 'player': field 'id'")


# -- the registries --------------------------------------------------------------------------


def _message_classes() -> list[type[p.Message]]:
    found = []
    for area in AREAS:
        module = importlib.import_module(f"shared.protocol.{area}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            mine = issubclass(cls, p.Message) and cls.__module__ == module.__name__
            if mine and "type" in vars(cls):
                found.append(cls)
    return found


def test_every_message_class_is_in_the_registry_of_its_direction() -> None:
    classes = _message_classes()
    assert len(classes) == len(p.REQUESTS) + len(p.REPLIES) == 72
    for cls in classes:
        registry: p.Registry[Any] = p.REQUESTS if issubclass(cls, p.Request) else p.REPLIES
        assert registry[cls.type] is cls


def test_the_registries_are_fixed_once_built() -> None:
    with pytest.raises(TypeError):
        p.REQUESTS["ping"] = p.Ok  # type: ignore[index]
    assert not hasattr(p.REQUESTS, "register")
    with pytest.raises(TypeError):
        p.REQUESTS._classes["ping"] = p.Ok  # type: ignore[index]
    assert "ping" not in p.REQUESTS


def test_a_registry_refuses_two_classes_for_one_type() -> None:
    class Again(p.Ok):
        type: ClassVar[str] = "ok"

    with pytest.raises(ValueError, match="'ok'"):
        p.Registry((p.Ok, Again))


def test_a_registry_decodes_only_its_own_direction() -> None:
    ok = p.encode(p.Ok(re=1))
    assert p.decode_reply(ok) == p.Ok(re=1)
    with pytest.raises(ProtocolError) as caught:
        p.decode(ok)
    assert caught.value.code == p.UNKNOWN_TYPE
    assert caught.value.message == "unknown message type 'ok'"


# -- the envelope and frames -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "bad_message"),
        (b"\xc1", "bad_message"),
        (pack([1]), "bad_message"),
        (pack("hello"), "bad_message"),
        (pack({1: 2}), "bad_message"),
        (pack({"id": 1}), "invalid_field"),
        (pack({"type": 5, "id": 1}), "invalid_field"),
        (pack({"type": "fly", "id": 1}), "unknown_type"),
        (pack({"type": "hint", "id": "1", "game": "g"}), "invalid_field"),
        (pack({"type": "hint", "id": 2**63, "game": "g"}), "invalid_field"),
        (pack({"type": "hint", "id": True, "game": "g"}), "invalid_field"),
    ],
)
def test_envelope_errors_have_the_protocols_codes(data: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.decode(data)
    assert caught.value.code == code


def test_text_frames_are_not_messages() -> None:
    for registry in (p.REQUESTS, p.REPLIES):
        with pytest.raises(ProtocolError) as caught:
            registry.decode('{"type": "hello"}')
        assert caught.value.code == p.BAD_MESSAGE


def test_the_envelope_is_checked_before_the_type_and_the_type_before_the_fields() -> None:
    assert "'id'" in refused_frame(p.REQUESTS, {"type": "fly", "id": "x"})
    assert refused_frame(p.REQUESTS, {"type": "fly"}, p.UNKNOWN_TYPE)
    assert "'type'" in refused_frame(p.REPLIES, {"re": 1})


def test_an_absent_id_means_no_id_and_no_re() -> None:
    assert "id" not in p.Resign(game="g", ply=0).to_map()
    assert "re" not in p.Error(code="bad_message", message="m").to_map()
    assert p.envelope_id({"id": "7"}) is None
    assert p.envelope_id({"id": 7}) == 7


def test_the_reply_to_is_checked_like_an_id() -> None:
    assert "'re'" in refused_frame(p.REPLIES, {"type": "ok", "re": "1"})
    assert "'re'" in refused_frame(p.REPLIES, {"type": "ok", "re": 2**63})


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
FIELDS = [
    *("type", "id", "re", "game", "ply", "move", "seed", "variant", "options", "name", "token"),
    *("client", "protocol", "code", "player", "date", "limit", "max_players", "time_limit_s"),
]


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.dictionaries(st.sampled_from(FIELDS), values, max_size=8),
    st.sampled_from([*p.REQUESTS, *p.REPLIES, "nope"]),
)
def test_any_map_decodes_or_is_refused_with_a_client_fault(
    fields: dict[str, Any], kind: str
) -> None:
    fields.setdefault("type", kind)
    for registry in (p.REQUESTS, p.REPLIES):
        try:
            message = registry.decode(pack(fields))
        except ProtocolError as exc:
            assert exc.code in p.CLIENT_FAULTS
        else:
            assert registry.decode(p.encode(message)) == message


@settings(deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_decode_or_are_refused_with_a_client_fault(data: bytes) -> None:
    for registry in (p.REQUESTS, p.REPLIES):
        try:
            registry.decode(data)
        except ProtocolError as exc:
            assert exc.code in p.CLIENT_FAULTS


def test_an_id_out_of_64_bits_is_refused_for_its_range_not_its_type() -> None:
    message = refused_frame(p.REQUESTS, {"type": "ping", "id": 2**64 - 1})
    assert "must be from -2**63 to 2**63-1" in message
    assert "not an integer" not in message
    wrong_type = refused_frame(p.REQUESTS, {"type": "ping", "id": "7"})
    assert "must be an integer, not a string" in wrong_type
