"""What a race's link is, asked before hello."""

from __future__ import annotations

from shared import protocol as p
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, pack, round_trips

TOLD = {
    "type": "invitation",
    "re": 1,
    "code": "K7QF2M",
    "host": "alice",
    "variant": "freecell",
    "variant_name": "Freecell",
    "state": "waiting",
}


def test_every_field_of_invitation_is_checked() -> None:
    asked = {"type": "invitation", "id": 1, "code": "k7qf2m"}
    assert p.decode(pack(asked)) == p.InvitationRequest(code="K7QF2M", id=1)
    every_field_is_checked(p.InvitationRequest.from_map, asked)
    out_of_range(p.InvitationRequest.from_map, asked, "code", ["K7QF2", "K7QF2MM", "OOOOOO"])
    reply = p.InvitationReply.from_map(TOLD)
    assert reply.to_map() == TOLD
    round_trips(reply)
    every_field_is_checked(p.InvitationReply.from_map, TOLD)
    out_of_range(p.InvitationReply.from_map, TOLD, "state", ["lost"])
