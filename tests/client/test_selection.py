"""Turning two picks into a move, from the engine's own legal lists."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from client import selection
from shared.games import new_game
from shared.notation import Move


def freecell_617_after(*moves: str) -> list[str]:
    game = new_game("freecell", seed=617)
    for move in moves:
        game.play(move)
    return game.legal_moves()


def test_destinations_are_exactly_the_legal_moves_from_the_source() -> None:
    legal = freecell_617_after()
    for src in {Move.parse(m).src for m in legal}:
        expected = {Move.parse(m).dst for m in legal if Move.parse(m).src == src}
        assert selection.destinations(legal, src) == expected


def test_without_a_count_the_largest_legal_group_is_sent() -> None:
    legal = ["t1>t3", "t1:2>t3", "t1:3>t3", "t1>r0", "deal"]
    assert str(selection.choose_move(legal, "t1", "t3")) == "t1:3>t3"
    assert str(selection.choose_move(legal, "t1", "t3", 2)) == "t1:2>t3"
    assert str(selection.choose_move(legal, "t1", "r0")) == "t1>r0"


def test_a_move_the_list_does_not_hold_is_still_sent_for_the_server_to_explain() -> None:
    assert str(selection.choose_move(["t1>r0"], "t1", "t5")) == "t1>t5"
    assert str(selection.choose_move(["t1>r0"], "t1", "t5", 4)) == "t1:4>t5"


def test_counts_step_through_legal_group_sizes() -> None:
    legal = ["t1>t3", "t1:3>t3", "t1>r0"]
    assert selection.counts_from(legal, "t1") == [1, 3]
    assert selection.step_count(legal, "t1", 3, -1, 5) == 1
    assert selection.step_count(legal, "t1", 1, +1, 5) == 3
    assert selection.step_count(legal, "t1", 3, +1, 5) == 3
    # A pile with no legal move still lets the player choose up to its face-up cards.
    assert selection.step_count([], "t2", 1, +1, 2) == 2


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=12))
def test_choosing_any_legal_pair_gives_a_legal_move(picks: list[int]) -> None:
    game = new_game("freecell", seed=617)
    for pick in picks:
        legal = game.legal_moves()
        if not legal:
            break
        move = Move.parse(legal[pick % len(legal)])
        chosen = selection.choose_move(legal, move.src, move.dst)
        assert str(chosen) in legal
        assert chosen.count >= move.count
        game.play(str(chosen))
