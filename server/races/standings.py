"""The ranking of docs/protocol.md, shared by race standings and daily leaderboards.

Winners rank first, by less time, then fewer moves; the others by more cards
home (on the foundations), and by nothing else: two games that did not win
with as many cards home share a place, however long each lasted, so no order
rewards resigning sooner (time would: the game ended first would rank first,
and a player who stopped early would beat one who played on for a card). A
game that is not won is never ranked by its time, nor by a score that counts
more than the cards home (Gypsy's counts built pairs in its columns). Exact
ties share a rank (1, 1, 3). A result maps to one sort key, ``(group, a,
b)``, which is also what the leaderboard index stores, so the database and
this module always agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shared.game import WON

RankKey = tuple[int, int, int]


def rank_key(state: str, elapsed_ms: int, moves: int, foundation: int) -> RankKey:
    """The sort key of a result; ``foundation``: its cards home."""
    if state == WON:
        return (0, elapsed_ms, moves)
    return (1, -foundation, 0)


def key_of(entry: dict[str, Any]) -> RankKey:
    return rank_key(entry["state"], entry["elapsed_ms"], entry["moves"], entry["foundation"])


def ranked(entries: Iterable[dict[str, Any]], first_rank: int = 1) -> list[dict[str, Any]]:
    """``entries`` sorted with a ``rank`` each; the first gets ``first_rank`` (1 for a full list).

    A page of a longer list passes the true rank of its first entry; later
    entries count from there.
    """
    ordered = sorted(entries, key=key_of)
    result: list[dict[str, Any]] = []
    previous: RankKey | None = None
    rank = first_rank
    for position, entry in enumerate(ordered):
        key = key_of(entry)
        if previous is not None and key != previous:
            rank = first_rank + position
        previous = key
        result.append({"rank": rank} | entry)
    return result
