"""The ranking of docs/protocol.md, and the in-memory rank index that must agree with it."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.daily.ranks import RankIndex
from server.races.standings import RankKey, key_of, rank_key, ranked

results = st.fixed_dictionaries(
    {
        "player": st.integers(1, 10**6),
        "state": st.sampled_from(["won", "resigned", "timeout", "stuck", "playing"]),
        "elapsed_ms": st.integers(0, 5),
        "moves": st.integers(0, 3),
        "score": st.integers(0, 3),
    }
)


def better(x: dict[str, Any], y: dict[str, Any]) -> bool:
    """docs/protocol.md, read literally: is ``x`` strictly ahead of ``y``?"""
    if (x["state"] == "won") != (y["state"] == "won"):
        return bool(x["state"] == "won")
    if x["state"] == "won":
        return bool((x["elapsed_ms"], x["moves"]) < (y["elapsed_ms"], y["moves"]))
    return bool((-x["score"], x["elapsed_ms"]) < (-y["score"], y["elapsed_ms"]))


@given(st.lists(results, max_size=12))
def test_a_rank_is_one_plus_the_results_strictly_ahead(entries: list[dict[str, Any]]) -> None:
    for entry in ranked(entries):
        ahead = sum(better(other, entry) for other in entries)
        assert entry["rank"] == ahead + 1


def test_winners_by_time_then_moves_others_by_score_then_time_ties_share() -> None:
    entries = [
        {"player": 1, "state": "resigned", "elapsed_ms": 5, "moves": 9, "score": 30},
        {"player": 2, "state": "won", "elapsed_ms": 9, "moves": 90, "score": 52},
        {"player": 3, "state": "won", "elapsed_ms": 9, "moves": 80, "score": 52},
        {"player": 4, "state": "timeout", "elapsed_ms": 4, "moves": 9, "score": 30},
        {"player": 5, "state": "timeout", "elapsed_ms": 4, "moves": 7, "score": 30},
        {"player": 6, "state": "won", "elapsed_ms": 1, "moves": 200, "score": 52},
    ]
    assert [(e["rank"], e["player"]) for e in ranked(entries)] == [
        (1, 6),
        (2, 3),
        (3, 2),
        (4, 4),
        (4, 5),
        (6, 1),
    ]


@given(st.lists(results, max_size=30), st.lists(results, max_size=10), results)
def test_the_rank_index_agrees_with_counting(
    stored: list[dict[str, Any]], later: list[dict[str, Any]], asking: dict[str, Any]
) -> None:
    keys = sorted(key_of(e) for e in stored)

    async def load(_variant: str, _date: str) -> list[RankKey]:
        return list(keys)

    async def check() -> None:
        index = RankIndex(load)
        everyone = list(stored)
        for entry in later:
            index.finished("gypsy", "2026-11-29", key_of(entry))  # before the first read: ignored
        await index.rank("gypsy", "2026-11-29", (0, 0, 0))
        for entry in later:
            index.finished("gypsy", "2026-11-29", key_of(entry))
            everyone.append(entry)
        mine = rank_key(asking["state"], asking["elapsed_ms"], asking["moves"], asking["score"])
        expected = 1 + sum(better(other, asking) for other in everyone)
        assert await index.rank("gypsy", "2026-11-29", mine) == expected

    asyncio.run(check())
