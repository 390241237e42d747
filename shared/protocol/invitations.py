"""``invitation``: what a race's link is, asked before ``hello``.

A first visit to a race's link says who invites to what ("alice invites you to race
Freecell") before it asks the visitor for a name: the only request a connection may send
before ``hello``, and it tells only what the room's code already opens (docs/protocol.md,
"Invitations").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from shared.protocol.envelope import (
    MAX_ID_LENGTH,
    Reply,
    Request,
    reply_to,
    req_choice,
    req_str,
    request_id,
)
from shared.protocol.rooms import ROOM_STATES, room_code
from shared.protocol.session import MAX_NAME_LENGTH

#: a variant's name as VariantInfo gives it
MAX_VARIANT_NAME = 64


@dataclass(frozen=True, slots=True)
class InvitationRequest(Request):
    type: ClassVar[str] = "invitation"
    code: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {"code": self.code}

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(code=room_code(m), id=request_id(m))


@dataclass(frozen=True, slots=True)
class InvitationReply(Reply):
    """The room: its code, its host's name, its game (id and name) and its state."""

    type: ClassVar[str] = "invitation"
    code: str
    host: str
    variant: str
    variant_name: str
    state: str

    def to_map(self) -> dict[str, Any]:
        return self._envelope() | {
            "code": self.code,
            "host": self.host,
            "variant": self.variant,
            "variant_name": self.variant_name,
            "state": self.state,
        }

    @classmethod
    def from_map(cls, m: Mapping[str, Any]) -> Self:
        return cls(
            code=room_code(m),
            host=req_str(m, "host", MAX_NAME_LENGTH),
            variant=req_str(m, "variant", MAX_ID_LENGTH),
            variant_name=req_str(m, "variant_name", MAX_VARIANT_NAME),
            state=req_choice(m, "state", ROOM_STATES),
            re=reply_to(m),
        )


__all__ = ["InvitationReply", "InvitationRequest"]
