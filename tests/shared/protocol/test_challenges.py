"""Challenges on the wire: every message round trips, every field is checked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, round_trips

SIDE = {
    "player": 3,
    "name": "bob",
    "game": "g2",
    "state": "won",
    "elapsed_ms": 61_000,
    "moves": 90,
    "home": 52,
    "hints": 0,
    "undos": 2,
}
MATCH = {
    "id": "m1",
    "best_of": 3,
    "first": 2,
    "first_name": "alice",
    "second": 3,
    "second_name": "bob",
    "first_wins": 1,
    "second_wins": 0,
    "draws": 0,
    "rounds": 1,
    "state": "playing",
}
VIEW = {
    "id": "c1",
    "kind": "solo",
    "variant": "freecell",
    "options": {},
    "commitment": "ab" * 32,
    "round": 1,
    "state": "done",
    "challenger": 2,
    "challenger_name": "alice",
    "match": MATCH,
    "opponent": 3,
    "opponent_name": "bob",
    "game": "g2",
    "result": "opponent",
    "ranked": True,
    "challenger_result": SIDE | {"player": 2, "name": "alice", "game": "g1"},
    "opponent_result": SIDE,
}


@given(st.one_of(s.CHALLENGES_MESSAGES))
def test_every_challenges_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_every_field_of_a_challenge_is_checked() -> None:
    every_field_is_checked(p.ChallengeSide.from_map, SIDE)
    out_of_range(p.ChallengeSide.from_map, SIDE, "state", ["lost"])
    every_field_is_checked(p.MatchView.from_map, MATCH, optional={"second", "second_name"})
    out_of_range(p.MatchView.from_map, MATCH, "best_of", [0, 6])
    optional = {
        "opponent",
        "opponent_name",
        "game",
        "result",
        "ranked",
        "challenger_result",
        "opponent_result",
    }
    every_field_is_checked(p.ChallengeView.from_map, VIEW, optional=optional)
    out_of_range(p.ChallengeView.from_map, VIEW, "commitment", ["ab"])
    out_of_range(p.ChallengeView.from_map, VIEW, "unranked", ["bored"])
    out_of_range(p.ChallengeView.from_map, VIEW, "state", ["lost"])
    out_of_range(p.ChallengeView.from_map, VIEW, "kind", ["arena?"])
    assert p.ChallengeView.from_map(VIEW).to_map() == VIEW


def test_a_challenge_is_sent_for_a_match_of_one_three_or_five() -> None:
    request = {"type": "challenge_create", "game": "g1", "best_of": 3}
    every_field_is_checked(p.ChallengeCreate.from_map, request, optional={"best_of"})
    assert p.ChallengeCreate.from_map({"game": "g1"}).best_of == 1
    out_of_range(p.ChallengeCreate.from_map, request, "best_of", [0, 2, 4, 6, True])
    every_field_is_checked(p.ChallengeAccept.from_map, {"challenge": "c1"})
    out_of_range(p.ChallengeGet.from_map, {"challenge": "c1"}, "challenge", ["x" * 17, ""])
    assert p.ChallengesRequest.from_map({"limit": 10**6}).limit == p.MAX_CHALLENGES


def test_a_live_match_is_of_three_or_five() -> None:
    request = {"type": "match_start", "room": "K7QF2M", "best_of": 5}
    every_field_is_checked(p.MatchStart.from_map, request, optional={"best_of"})
    assert p.MatchStart.from_map({"room": "K7QF2M"}).best_of == 3
    out_of_range(p.MatchStart.from_map, request, "best_of", [1, 2, 4, 6])
