"""A player's statistics."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from shared import protocol as p
from tests.shared.protocol import strategies as s
from tests.shared.protocol.checks import every_field_is_checked, out_of_range, round_trips

ROW = {"variant": "freecell", "played": 3, "won": 1, "best_ms": 61_000, "fewest_moves": 90}
STATS = {
    "type": "stats",
    "re": 9,
    "player": {"id": 3, "name": "carol", "bot": False},
    "variants": [ROW, ROW | {"variant": "gypsy", "won": 0, "best_ms": None, "fewest_moves": None}],
    "dailies_won": 1,
    "daily_streak": 1,
}


@given(st.one_of(s.STATS))
def test_every_stats_message_round_trips(message: p.Message) -> None:
    round_trips(message)


def test_every_field_of_stats_is_checked() -> None:
    every_field_is_checked(p.StatsRequest.from_map, {"type": "stats", "player": 3}, {"player"})
    out_of_range(p.StatsRequest.from_map, {}, "player", [0, True, None])
    every_field_is_checked(p.StatsReply.from_map, STATS)
    every_field_is_checked(p.VariantStats.from_map, ROW)
    every_field_is_checked(p.VariantStats.from_map, STATS["variants"][1])
    out_of_range(p.VariantStats.from_map, ROW, "played", [-1])
    out_of_range(p.StatsReply.from_map, STATS, "daily_streak", [-1])


def test_a_stats_reply_reads_as_typed_rows() -> None:
    stats = p.StatsReply.from_map(STATS)
    assert stats.player == p.PlayerInfo(3, "carol")
    assert [row.variant for row in stats.variants] == ["freecell", "gypsy"]
    assert stats.variants[1].best_ms is None
    assert stats.to_map() == STATS
