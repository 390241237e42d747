"""Ratings on the wire: the rating beside a name, and the rating board."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, round_trips

RATING = {"rating": 1523, "provisional": False, "change": 14}
ENTRY = {
    "rank": 2,
    "player": 7,
    "name": "carol",
    "rating": {"rating": 1610, "provisional": True},
    "games": 3,
}
BOARD = {"type": "ratings", "re": 4, "variant": "freecell", "entries": [ENTRY], "me": ENTRY}


@given(st.one_of(s.RATINGS_MESSAGES))
def test_every_ratings_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_every_field_of_a_rating_is_checked() -> None:
    every_field_is_checked(p.PlayerRating.from_map, RATING, optional={"change"})
    out_of_range(p.PlayerRating.from_map, RATING, "rating", [10_001, -10_001, 1.5, None])
    out_of_range(p.PlayerRating.from_map, RATING, "provisional", [0, None])
    out_of_range(p.PlayerRating.from_map, RATING, "change", [None, 10_001])


def test_a_rating_shows_as_players_read_it() -> None:
    assert p.PlayerRating(1523, False, 14).label() == "1523 +14"
    assert p.PlayerRating(1480, True, -20).label() == "1480? -20"
    assert p.PlayerRating(1500, True).label() == "1500?"
    assert p.PlayerRating(1500, False, 0).label() == "1500 +0"


def test_every_field_of_the_board_is_checked() -> None:
    request = {"type": "ratings", "variant": "freecell", "limit": 10}
    every_field_is_checked(p.RatingsRequest.from_map, request, optional={"limit"})
    assert p.RatingsRequest.from_map({"variant": "gypsy"}).limit == p.DEFAULT_RATINGS
    assert p.RatingsRequest.from_map({"variant": "gypsy", "limit": 10**6}).limit == p.MAX_RATINGS
    out_of_range(p.RatingsRequest.from_map, request, "limit", [0, "x"])
    every_field_is_checked(p.RatingEntry.from_map, ENTRY)
    out_of_range(p.RatingEntry.from_map, ENTRY, "rank", [0])
    out_of_range(p.RatingEntry.from_map, ENTRY, "games", [-1])
    every_field_is_checked(p.RatingsReply.from_map, BOARD)
    every_field_is_checked(p.RatingsReply.from_map, BOARD | {"me": None})
    reply = p.RatingsReply.from_map(BOARD)
    assert reply.me is not None and reply.me.rating.provisional
    assert reply.to_map() == BOARD


def test_a_standing_carries_a_rating_only_when_there_is_one() -> None:
    standing = p.Standing(1, 7, "carol", "won", 1000, 90, 52, 0, 52)
    assert "rating" not in standing.to_map()
    rated = p.Standing(
        1, 7, "carol", "won", 1000, 90, 52, 0, 52, rating=p.PlayerRating(1523, False, 14)
    )
    assert p.Standing.from_map(rated.to_map()) == rated
