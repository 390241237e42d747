"""The one refusal path: services raise typed refusals, the Router alone makes ``error``.

Every refusal class names its wire code and whose fault it is; the Router's
mapping (:func:`server.net.routing.error_of`) carries code and message as
they are, the game only with ``stale_ply``; only mistakes count towards the
close with 1008; a refusal sent by another node comes back as the same class.
No module of server/ but the Router builds an ``Error`` message or raises a
bare ``ProtocolError`` (the protocol's decode raises those, in shared/).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from server import errors
from server.errors import ClientError, Refused, ServerError, StalePly
from server.net.routing import error_of, is_mistake
from shared import protocol as p
from shared.errors import ProtocolError
from shared.games import new_game

SERVER = Path(__file__).resolve().parents[3] / "server"
ROUTER = SERVER / "net" / "routing.py"
#: the codes only the protocol's decode gives (shared.protocol raises them, not a service)
DECODE_ONLY = {p.BAD_MESSAGE, p.UNKNOWN_TYPE}
CODES = {
    value
    for name, value in vars(p.codes).items()
    if name.isupper() and isinstance(value, str) and name != "CLIENT_FAULTS"
}


def _calls(path: Path) -> list[tuple[int, str]]:
    """Every call in ``path`` as ``(line, name)``: ``p.Error(...)`` is ``Error``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            found.append((node.lineno, name))
    return found


def test_no_module_but_the_router_builds_an_error_or_a_bare_protocol_error() -> None:
    builders = []
    for path in sorted(SERVER.rglob("*.py")):
        if path == ROUTER:
            continue
        for line, name in _calls(path):
            if name in ("Error", "ProtocolError"):
                builders.append(f"{path.relative_to(SERVER.parent)}:{line}: {name}")
    assert builders == []
    assert "Error" in {name for _, name in _calls(ROUTER)}, "the check looks for the right name"


def test_every_refusal_is_the_clients_or_the_servers_and_has_a_code_of_the_protocol() -> None:
    kinds = errors.every_refusal()
    assert len(kinds) > 20
    for kind in kinds:
        assert issubclass(kind, ClientError) != issubclass(kind, ServerError), kind
        assert kind.code in CODES, kind
    assert {kind.code for kind in kinds} == CODES - DECODE_ONLY, "a code no refusal gives"
    assert {kind.code for kind in kinds if issubclass(kind, ServerError)} == {p.INTERNAL, p.BUSY}
    assert len({kind.__name__ for kind in kinds}) == len(kinds)


def _one_of(kind: type[Refused]) -> Refused:
    if kind is StalePly:
        game = p.GameView.from_map(new_game("freecell", seed=5).view() | _server_fields())
        return StalePly("ply 3 is not the game's current ply 4", game)
    return kind(f"a refusal of kind {kind.__name__}")


def _server_fields() -> dict[str, object]:
    return {"id": "g1", "hints": 0, "elapsed_ms": 0}


@pytest.mark.parametrize("kind", errors.every_refusal(), ids=lambda kind: kind.__name__)
def test_the_router_sends_each_refusal_with_its_code_and_message(kind: type[Refused]) -> None:
    refusal = _one_of(kind)
    sent = error_of(refusal, 7)
    assert (sent.code, sent.message, sent.re) == (kind.code, refusal.message, 7)
    assert p.decode_reply(p.encode(sent)) == sent
    if kind is StalePly:
        assert isinstance(refusal, StalePly) and sent.game == refusal.game
        assert sent.game is not None and sent.game.id == "g1"
    else:
        assert sent.game is None


def test_only_mistakes_count_towards_the_close() -> None:
    counted = {kind.__name__ for kind in errors.every_refusal() if is_mistake(_one_of(kind))}
    assert counted == {"InvalidField", "HelloFirst", "UnknownRoom", "BadTransferCode"}
    assert is_mistake(ProtocolError(p.BAD_MESSAGE, "not msgpack"))
    assert is_mistake(ProtocolError(p.INVALID_FIELD, "field 'ply': ..."))
    assert not is_mistake(ProtocolError(p.NOT_FOUND, "no game"))
    assert error_of(ProtocolError(p.UNKNOWN_TYPE, "no type 'x'"), None).code == p.UNKNOWN_TYPE


@pytest.mark.parametrize("kind", errors.every_refusal(), ids=lambda kind: kind.__name__)
def test_a_refusal_from_another_node_is_the_same_class(kind: type[Refused]) -> None:
    """What :mod:`server.cluster.calls` sends (the class's name and the message) and reads."""
    refusal = _one_of(kind)
    again = Refused.named(type(refusal).__name__, refusal.message)
    if kind is StalePly:  # never forwarded: it carries a game; read as the server's failure
        assert type(again) is errors.Internal
    else:
        assert type(again) is kind and again.message == refusal.message
    assert type(Refused.named("NoSuchRefusal", "?")) is errors.Internal
