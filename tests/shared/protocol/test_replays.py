"""A finished game's replay: its actions and boards."""

from __future__ import annotations

from shared import protocol as p
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, round_trips

PILE = {"id": "t0", "down": 2, "up": ["TH", "9C"]}
REPLAY = {
    "type": "replay",
    "re": 4,
    "game": "g7Qx2bPa",
    "player": "alice",
    "variant": "freecell",
    "options": {},
    "deal": {"seed": 617},
    "kind": "solo",
    "state": "won",
    "score": 52,
    "elapsed_ms": 61_000,
    "actions": ["t0>f0"],
    "boards": [{"piles": [PILE, {"id": "f0", "down": 0, "up": []}]}, {"piles": [PILE]}],
}


def test_every_field_of_replay_is_checked() -> None:
    every_field_is_checked(p.ReplayRequest.from_map, {"type": "replay", "game": "g7"})
    every_field_is_checked(p.ReplayReply.from_map, REPLAY)
    out_of_range(p.ReplayReply.from_map, REPLAY, "kind", ["rated"])
    out_of_range(p.ReplayReply.from_map, REPLAY, "actions", [[""], [3]])


def test_a_replay_has_one_board_more_than_actions() -> None:
    reply = p.ReplayReply.from_map(REPLAY)
    assert reply.to_map() == REPLAY
    round_trips(reply)
    out_of_range(p.ReplayReply.from_map, REPLAY, "boards", [REPLAY["boards"][:1], []])
    assert (
        len(
            p.ReplayReply.from_map(REPLAY | {"actions": [], "boards": [REPLAY["boards"][0]]}).boards
        )
        == 1
    )
