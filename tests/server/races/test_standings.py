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
        "foundation": st.integers(0, 3),
    }
)


def better(x: dict[str, Any], y: dict[str, Any]) -> bool:
    """docs/protocol.md, read literally: is ``x`` strictly ahead of ``y``?"""
    if (x["state"] == "won") != (y["state"] == "won"):
        return bool(x["state"] == "won")
    if x["state"] == "won":
        return bool((x["elapsed_ms"], x["moves"]) < (y["elapsed_ms"], y["moves"]))
    return bool(x["foundation"] > y["foundation"])


@given(st.lists(results, max_size=12))
def test_a_rank_is_one_plus_the_results_strictly_ahead(entries: list[dict[str, Any]]) -> None:
    for entry in ranked(entries):
        ahead = sum(better(other, entry) for other in entries)
        assert entry["rank"] == ahead + 1


def test_winners_by_time_then_moves_others_by_cards_home_ties_share() -> None:
    fields = ("player", "state", "elapsed_ms", "moves", "score", "foundation")
    rows = [
        (1, "resigned", 5, 9, 30, 6),
        (2, "won", 9, 90, 52, 52),
        (3, "won", 9, 80, 52, 52),
        (4, "timeout", 4, 9, 30, 6),
        (5, "timeout", 4, 7, 40, 7),
        (6, "won", 1, 200, 52, 52),
    ]
    entries = [dict(zip(fields, row, strict=True)) for row in rows]
    assert [(e["rank"], e["player"]) for e in ranked(entries)] == [
        (1, 6),
        (2, 3),
        (3, 2),
        (4, 5),
        (5, 1),
        (5, 4),
    ]


def test_the_earlier_resigner_with_equal_cards_home_shares_the_place() -> None:
    """The race that showed the flaw: equal results, one resigned at 1:47, one at 2:04."""
    early = {"player": 1, "state": "resigned", "elapsed_ms": 107_000, "moves": 40, "score": 9}
    late = {"player": 2, "state": "resigned", "elapsed_ms": 124_000, "moves": 52, "score": 9}
    standings = ranked([early | {"foundation": 9}, late | {"foundation": 9}])
    assert [e["rank"] for e in standings] == [1, 1]


stopping = st.sampled_from(["resigned", "timeout", "stuck"])


@given(
    st.lists(results, max_size=8),
    stopping,
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_resigning_earlier_never_ranks_you_higher(
    others: list[dict[str, Any]], state: str, home: int, more: int, when: int, later: int
) -> None:
    """A player who stops at ``when`` with ``home`` cards home, against the same player going
    on to stop ``later`` ms after with at least as many cards home: the earlier stop is never
    ranked above the later one, whatever the others did."""
    sooner = {"player": 0, "state": state, "elapsed_ms": when, "moves": 1, "score": home}
    on = sooner | {"elapsed_ms": when + later, "moves": 1 + later, "score": home + more}

    def rank_of(me: dict[str, Any]) -> int:
        return next(e["rank"] for e in ranked([*others, me]) if e["player"] == 0)

    others = [e | {"player": e["player"] + 1} for e in others]
    assert rank_of(sooner | {"foundation": home}) >= rank_of(on | {"foundation": home + more})


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
        mine = rank_key(
            asking["state"], asking["elapsed_ms"], asking["moves"], asking["foundation"]
        )
        expected = 1 + sum(better(other, asking) for other in everyone)
        assert await index.rank("gypsy", "2026-11-29", mine) == expected

    asyncio.run(check())
