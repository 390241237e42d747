"""``hello`` and ``welcome``: who the player is and what the server offers."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.errors import InvalidNotation, ProtocolError
from shared.notation import parse_pile
from shared.protocol.codes import INVALID_FIELD
from shared.protocol.envelope import (
    INT64_MAX,
    INT64_MIN,
    MAX_ID_LENGTH,
    MAX_TEXT,
    Part,
    Reply,
    Request,
    invalid,
    kind_of,
    nested,
    nested_list,
    opt_nested,
    opt_str,
    option_map,
    present,
    reply_to,
    req_bool,
    req_choice,
    req_int,
    req_list,
    req_map,
    req_str,
    request_id,
)

#: player names: the server answers ``invalid_name`` for any other string
NAME_RE = re.compile(r"[A-Za-z0-9_-]{1,24}")
MAX_NAME_LENGTH = 24
MAX_TOKEN_LENGTH = 256
#: a transfer code as a person types it (eight signs, a dash, spaces)
MAX_TRANSFER_LENGTH = 32
MAX_CLIENT_LENGTH = 64
#: how a variant's layout spreads a pile: down (tableau), right (Osmosis rows), stack
FANS = ("down", "right", "stack")
#: the piles the notation can name (s, w, f0-f7, t0-t9, r0-r3), and a pile's longest name
MAX_PILES = 24
MAX_PILE_NAME = 40


@dataclass(frozen=True, slots=True)
class Hello(Request):
    """Exactly one of ``name`` (a new player registers), ``token`` (a returning one) and
    ``transfer`` (a returning one on another device, with a code from ``transfer_code``)."""

    type: ClassVar[str] = "hello"
    protocol: int
    client: str
    token: str | None = None
    name: str | None = None
    #: a new player registers as a bot account (ignored for a returning player)
    bot: bool = False
    transfer: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {"protocol": self.protocol, "client": self.client}
        return present(
            m, token=self.token, name=self.name, bot=self.bot or None, transfer=self.transfer
        )

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        protocol = req_int(m, "protocol", INT64_MIN, INT64_MAX)
        client = req_str(m, "client", MAX_CLIENT_LENGTH)
        given = [name for name in ("token", "name", "transfer") if name in m]
        if len(given) > 1:
            raise ProtocolError(
                INVALID_FIELD,
                f"fields {' and '.join(repr(n) for n in given)} exclude each other: send one",
            )
        if not given:
            raise ProtocolError(
                INVALID_FIELD,
                "field 'name' (new player), 'token' (returning) or 'transfer' (a code from "
                "another device) is missing",
            )
        token = opt_str(m, "token", MAX_TOKEN_LENGTH)
        transfer = opt_str(m, "transfer", MAX_TRANSFER_LENGTH)
        # Any string: whether it is a valid name is the server's ``invalid_name`` to say.
        name = m.get("name")
        if "name" in m and not isinstance(name, str):
            raise invalid("name", f"must be a string, not {kind_of(name)}")
        bot = req_bool(m, "bot") if "bot" in m else False
        return cls(
            protocol=protocol,
            client=client,
            token=token,
            name=name,
            bot=bot,
            transfer=transfer,
            id=request_id(m),
        )


@dataclass(frozen=True, slots=True)
class TransferCodeRequest(Request):
    """A code that moves the account to another device: sent with the token this device
    holds (the one the connection signed in with)."""

    type: ClassVar[str] = "transfer_code"
    token: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"token": self.token}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(token=req_str(m, "token", MAX_TOKEN_LENGTH), id=request_id(m))


@dataclass(frozen=True, slots=True)
class TransferCodeReply(Reply):
    """The code to enter on the other device (``K7QF-2MXP``), and when it expires."""

    type: ClassVar[str] = "transfer_code"
    code: str
    expires_ms: int

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code, "expires_ms": self.expires_ms}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=req_str(m, "code", MAX_TRANSFER_LENGTH),
            expires_ms=req_int(m, "expires_ms", 0, INT64_MAX),
            re=reply_to(m),
        )


@dataclass(frozen=True, slots=True)
class PlayerInfo(Part):
    """A player as others see them: id, name, and whether the account is a bot."""

    id: int
    name: str
    bot: bool = False

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_int(m, "id", 1, INT64_MAX),
            name=req_str(m, "name", MAX_NAME_LENGTH),
            bot=req_bool(m, "bot"),
        )


@dataclass(frozen=True, slots=True)
class VariantLayout(Part):
    """How a client lays out a variant's piles: rows top to bottom ("" a gap), and each fan."""

    rows: tuple[tuple[str, ...], ...]
    fan: Mapping[str, str]

    def to_map(self) -> dict[str, Any]:
        return {"rows": [list(row) for row in self.rows], "fan": dict(self.fan)}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        rows = []
        for row in req_list(m, "rows"):
            if not isinstance(row, list) or not all(isinstance(p, str) for p in row):
                raise invalid("rows", "must be lists of pile ids")
            rows.append(tuple(row))
        fans = req_map(m, "fan")
        for pile in fans:
            req_choice(fans, pile, FANS)
        return cls(rows=tuple(rows), fan=dict(fans))


@dataclass(frozen=True, slots=True)
class VariantInfo(Part):
    """A variant the server deals: its id, name, options with their defaults, best score;
    how to draw it, each pile's display name, and whether a race form offers it first.

    Everything a client would otherwise know about a variant by its id comes here,
    so that a client plays a variant it has never heard of. ``layout`` and
    ``pile_names`` are absent from an older server; ``race_default`` is sent only
    when true.
    """

    id: str
    name: str
    options: Mapping[str, bool | int]
    max_score: int
    layout: VariantLayout | None = None
    #: pile id -> the words a player reads for it ("tableau 4", "free cell 1", "stock")
    pile_names: Mapping[str, str] | None = None
    #: the variant a client preselects when a player makes a race room
    race_default: bool = False

    def to_map(self) -> dict[str, Any]:
        m = {
            "id": self.id,
            "name": self.name,
            "options": dict(self.options),
            "max_score": self.max_score,
        }
        names = None if self.pile_names is None else dict(self.pile_names)
        return present(
            m, layout=self.layout, pile_names=names, race_default=self.race_default or None
        )

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            id=req_str(m, "id", MAX_ID_LENGTH),
            name=req_str(m, "name", MAX_TEXT),
            options=option_map(m, required=True),
            max_score=req_int(m, "max_score", 0, INT64_MAX),
            layout=opt_nested(m, "layout", VariantLayout.from_map),
            pile_names=opt_pile_names(m, "pile_names"),
            race_default=req_bool(m, "race_default") if "race_default" in m else False,
        )


def opt_pile_names(m: Mapping[str, Any], name: str) -> dict[str, str] | None:
    """A map of pile ids (docs/notation.md) to short texts, or None when absent."""
    if name not in m:
        return None
    names = req_map(m, name)
    if len(names) > MAX_PILES:
        raise invalid(name, f"has {len(names)} entries; at most {MAX_PILES}")
    for pile, text in names.items():
        try:
            parse_pile(pile)
        except InvalidNotation:
            raise invalid(name, f"names {pile!r}, which is not a pile id") from None
        if not isinstance(text, str) or not 0 < len(text) <= MAX_PILE_NAME:
            raise invalid(name, f"gives pile {pile!r} the name {text!r}: a short text, please")
    return dict(names)


@dataclass(frozen=True, slots=True)
class ServerInfo(Part):
    """The server's name, version, variants, and the operator's message of the day if any."""

    name: str
    version: str
    variants: tuple[VariantInfo, ...]
    motd: str | None = None

    def to_map(self) -> dict[str, Any]:
        m: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "variants": [v.to_map() for v in self.variants],
        }
        return present(m, motd=self.motd)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            name=req_str(m, "name", MAX_TEXT),
            version=req_str(m, "version", MAX_TEXT),
            variants=nested_list(m, "variants", VariantInfo.from_map),
            motd=opt_str(m, "motd", MAX_TEXT),
        )

    def variant(self, variant_id: str) -> VariantInfo | None:
        return next((v for v in self.variants if v.id == variant_id), None)


@dataclass(frozen=True, slots=True)
class Welcome(Reply):
    """The answer to a ``hello``; ``token`` only when the player was just registered."""

    type: ClassVar[str] = "welcome"
    protocol: int
    server: ServerInfo
    player: PlayerInfo
    token: str | None = None

    def to_map(self) -> dict[str, Any]:
        m = self._envelope() | {
            "protocol": self.protocol,
            "server": self.server.to_map(),
            "player": self.player.to_map(),
        }
        return present(m, token=self.token)

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            protocol=req_int(m, "protocol", 0, INT64_MAX),
            server=nested(m, "server", ServerInfo.from_map),
            player=nested(m, "player", PlayerInfo.from_map),
            token=opt_str(m, "token", MAX_TOKEN_LENGTH),
            re=reply_to(m),
        )


# fmt: off
__all__ = [
    "FANS",
    "MAX_NAME_LENGTH",
    "MAX_TRANSFER_LENGTH",
    "NAME_RE",
    "Hello",
    "PlayerInfo",
    "ServerInfo",
    "TransferCodeReply",
    "TransferCodeRequest",
    "VariantInfo",
    "VariantLayout",
    "Welcome",
]
# fmt: on
