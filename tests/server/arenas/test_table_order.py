"""The table kept in order line by line: the same ranks and order as sorting it whole, and the
players whose place may have moved since the last push include everyone whose place did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.arenas.table import Line, Standings
from shared import protocol as p

NAMES = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")

#: (player, points, wins) set, or (player, None, 0): the player removed (a ban)
changes = st.lists(
    st.tuples(
        st.integers(0, len(NAMES) - 1),
        st.one_of(st.none(), st.integers(0, 12)),
        st.integers(0, 4),
    ),
    max_size=40,
)


def sorted_whole(lines: dict[int, Line]) -> list[tuple[int, int, str]]:
    """The ranking by its definition: sort everything; equal points share a rank."""
    order = sorted(lines.values(), key=lambda x: (-x.points, -x.wins, x.name))
    ranked: list[tuple[int, int, str]] = []
    for index, line in enumerate(order):
        tied = ranked and order[index - 1].points == line.points
        ranked.append((ranked[-1][0] if tied else index + 1, line.player, line.name))
    return ranked


def places(table: Standings) -> dict[int, p.ArenaEntry | None]:
    return {pid: table.me(pid) for pid in range(len(NAMES))}


@settings(max_examples=300, deadline=None)
@given(changes, st.lists(st.booleans(), max_size=40))
def test_the_table_kept_in_order_ranks_as_a_whole_sort_and_tells_who_moved(
    steps: list[tuple[int, int | None, int]], pushes: list[bool]
) -> None:
    table = Standings()
    assert table.moved() is None  # a table new to the node: anyone's place may be new
    shown = places(table)
    for n, (pid, points, wins) in enumerate(steps):
        if points is None:
            table.remove(pid)
        else:
            table.set(Line(pid, NAMES[pid], points, wins + 1, wins, wins % 2 == 0))
        expected = sorted_whole(table.lines)
        got = [(rank, line.player, line.name) for rank, line in table.ranked()]
        assert got == expected
        assert [(e.rank, e.player, e.name) for e in table.top(3)] == expected[:3]
        assert [(r, line.player) for r, line in table.ranked(2, 3)] == [
            (r, pid) for r, pid, _ in expected[2:5]
        ]
        if n < len(pushes) and pushes[n]:  # a push here: who moved since the last one
            now = places(table)
            moved = table.moved()
            assert moved is not None
            assert {pid for pid in now if now[pid] != shown[pid]} <= moved
            shown = now


def test_a_player_passed_by_another_is_told_their_new_rank_and_only_they_move() -> None:
    table = Standings()
    for pid, name, points in ((1, "ann", 6), (2, "bob", 4), (3, "cy", 2), (4, "dee", 0)):
        table.set(Line(pid, name, points))
    table.moved()
    table.set(Line(4, "dee", 5))  # dee passes bob and cy; ann stays first
    moved = table.moved()
    assert moved == {2, 3, 4}
    assert [table.rank(line.points) for _, line in table.ranked()] == [1, 2, 3, 4]
    assert table.moved() == set()  # nothing since
