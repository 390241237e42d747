"""Who a push writes to: after every push each follower's view (the last standings' top and
count, and their last place) is the table's, and nothing is sent that a follower already has,
but for those who followed since the last push."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.arenas.pushes import Places, plan
from server.arenas.table import Line, Standings
from shared import protocol as p

#: more players than the top shows, so that some changes are out of every follower's view
PLAYERS = p.TOP + 4

#: ("line", player, points, played): the player's totals set (a join, a deal scored);
#: ("follow", player, 0, 0): they follow (a join's reply shows the table as it is);
#: ("push", 0, 0, 0): a push goes out
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("line"),
            st.integers(0, PLAYERS - 1),
            st.integers(0, 9),
            st.integers(0, 3),
        ),
        st.tuples(st.just("follow"), st.integers(0, PLAYERS - 1), st.just(0), st.just(0)),
        st.tuples(st.just("push"), st.just(0), st.just(0), st.just(0)),
    ),
    max_size=60,
)

View = tuple[tuple[int, tuple[p.ArenaEntry, ...]], p.ArenaEntry | None]


def seen(table: Standings, player: int) -> View:
    return (len(table.lines), table.top(p.TOP)), table.me(player)


@settings(max_examples=300, deadline=None)
@given(steps)
def test_each_follower_ends_every_push_seeing_the_table_and_is_sent_only_what_changed(
    plan_steps: list[tuple[str, int, int, int]],
) -> None:
    table = Standings()
    places = Places()
    views: dict[int, View] = {}  # each follower's view, from the messages they got
    fresh: set[int] = set()  # followed since the last push
    last_shown = None
    for kind, player, points, played in plan_steps:
        if kind == "line":
            table.set(Line(player, f"p{player:02d}", points, played, points // 3, False))
        elif kind == "follow":
            views[player] = seen(table, player)
            fresh.add(player)
            places.forget(player)
        else:
            shown, targets = plan(table, places, list(views))
            assert len({pid for pid, *_ in targets}) == len(targets)
            for pid, whole, moved, place in targets:
                standings, me = views[pid]
                if pid not in fresh:  # nothing they already had
                    assert not moved or place != me, (pid, place)
                    assert not whole or shown != last_shown
                views[pid] = (shown if whole else standings, place if moved else me)
            for pid in views:
                assert views[pid] == seen(table, pid), pid
            if shown == last_shown:  # the standings to those who followed since, if any
                assert {pid for pid, whole, *_ in targets if whole} <= fresh
            last_shown = shown
            fresh.clear()


def test_a_change_below_the_top_is_sent_only_to_the_player_whose_place_changed() -> None:
    table = Standings()
    for n in range(PLAYERS):
        table.set(Line(n, f"p{n:02d}", 0, 0, 0, False))
    places = Places()
    everyone = list(range(PLAYERS))
    _, first = plan(table, places, everyone)
    assert [(pid, whole, moved) for pid, whole, moved, _ in first] == [
        (pid, True, True) for pid in everyone
    ]
    last = PLAYERS - 1  # p15 at 0 points, one deal played: the top is as it was
    table.set(Line(last, f"p{last:02d}", 0, 1, 0, False))
    _, targets = plan(table, places, everyone)
    assert targets == [(last, False, True, table.me(last))]
    _, targets = plan(table, places, everyone)  # nothing changed: nothing sent
    assert targets == []
