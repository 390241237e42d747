"""The ply rule and its retries, as pure functions: no server, no database, no event loop."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.errors import GameOver
from server.games.ply import (
    RESIGN,
    GameAt,
    Stale,
    Verdict,
    is_retry,
    judge,
    same_action,
)
from shared.notation import AUTO, DEAL, UNDO, Action, parse_action
from shared.states import ENDED, PLAYING, RESIGNED, STUCK, TIMEOUT, WON


def move(text: str) -> Action:
    """A request's action as the protocol hands it over: parsed once."""
    return parse_action(text)


def at(ply: int, last: str | Action | None, state: str = PLAYING) -> GameAt:
    """A game whose last action was recorded as ``last`` (typed, as the engine returns it)."""
    typed = isinstance(last, str) and last not in (DEAL, AUTO, UNDO, RESIGN)
    return GameAt("g1", ply, state, move(last) if typed else last)


def refused(verdict: Verdict | Stale | GameOver) -> tuple[str, str]:
    if isinstance(verdict, Stale):
        return "stale_ply", verdict.message
    assert isinstance(verdict, GameOver), verdict
    return verdict.code, verdict.message


def test_an_action_at_the_current_ply_is_played() -> None:
    game = at(3, "t0>t1")
    for action in (move("t2>t3"), DEAL, AUTO, UNDO, RESIGN):
        assert not is_retry(action, 3, game)
        assert judge(action, 3, game) is Verdict.PLAY


def test_the_last_move_again_at_the_ply_before_is_a_retry() -> None:
    assert is_retry(move("t0>t1"), 2, at(3, "t0>t1"))
    assert is_retry(DEAL, 6, at(7, DEAL))


def test_a_shorthand_retries_the_foundation_move_it_was_recorded_as() -> None:
    assert is_retry(move("w>f"), 0, at(1, "w>f2"))
    assert is_retry(move("t4>f"), 9, at(10, "t4>f0"))
    assert not is_retry(move("t3>f"), 9, at(10, "t4>f0")), "another source"
    assert not is_retry(move("w>f"), 0, at(1, "w>t2")), "not to a foundation"
    assert not is_retry(move("t4:2>f"), 9, at(10, "t4>f0")), "more than one card"


def test_same_action_matches_only_the_recorded_action() -> None:
    assert same_action(move("w>f"), move("w>f2")) and same_action("undo", "undo")
    assert not same_action(move("w>f2"), move("w>f")) and not same_action(move("w>f"), "undo")
    assert not same_action(UNDO, move("t0>t1")) and not same_action(DEAL, AUTO)


def test_an_undo_again_after_an_undo_is_a_retry_and_only_then() -> None:
    assert is_retry(UNDO, 4, at(5, UNDO))
    assert not is_retry(UNDO, 4, at(5, "t0>t1"))
    assert not is_retry(move("t0>t1"), 4, at(5, UNDO))


def test_nothing_is_a_retry_before_the_first_action_or_at_another_ply() -> None:
    assert not is_retry(move("t0>t1"), 0, at(0, None))
    assert not is_retry(move("t0>t1"), 3, at(3, "t0>t1")), "at the current ply it is a new move"
    assert not is_retry(move("t0>t1"), 1, at(3, "t0>t1")), "two plies back"


@pytest.mark.parametrize("ply", [0, 2, 4, 5, 100])
def test_any_other_ply_is_stale_and_the_message_names_both(ply: int) -> None:
    code, message = refused(judge(move("t0>t1"), ply, at(3, "t5>t6")))
    assert code == "stale_ply"
    assert f"ply {ply} " in message and "current ply 3" in message and "'game'" in message


def test_another_move_at_the_ply_before_is_stale_not_a_retry() -> None:
    game = at(3, "t0>t1")
    assert not is_retry(move("t2>t3"), 2, game)
    assert refused(judge(move("t2>t3"), 2, game))[0] == "stale_ply"


def test_a_resign_again_at_the_current_ply_of_a_resigned_game_is_a_retry() -> None:
    game = at(3, "t0>t1", RESIGNED)
    assert not is_retry(RESIGN, 3, game), "a resign does not move the ply: judged at its turn"
    assert judge(RESIGN, 3, game) is Verdict.RETRY
    assert refused(judge(RESIGN, 2, game))[0] == "stale_ply"


@pytest.mark.parametrize("state", [WON, RESIGNED, TIMEOUT])
def test_an_ended_game_takes_nothing(state: str) -> None:
    game = at(3, "t0>t1", state)
    for action in (move("t2>t3"), DEAL, UNDO) + (() if state == RESIGNED else (RESIGN,)):
        assert refused(judge(action, 3, game)) == ("game_over", f"game 'g1' is over ({state})")


def test_a_stuck_game_takes_only_undo_and_resign() -> None:
    game = at(3, "t0>t1", STUCK)
    for action in (move("t2>t3"), DEAL, AUTO):
        code, message = refused(judge(action, 3, game))
        assert code == "game_over" and "stuck" in message and "undo and resign" in message
    assert judge(UNDO, 3, game) is Verdict.PLAY
    assert judge(RESIGN, 3, game) is Verdict.PLAY


actions = st.sampled_from([move("t0>t1"), move("w>f"), move("w>f2"), DEAL, AUTO, UNDO, RESIGN])
states = st.sampled_from([PLAYING, STUCK, WON, RESIGNED, TIMEOUT])


@given(actions, st.integers(0, 6), st.integers(0, 6), st.none() | actions, states)
def test_play_only_at_the_current_ply_of_a_game_that_takes_the_action(
    action: Action, ply: int, current: int, last: Action | None, state: str
) -> None:
    game = at(current, last, state)
    verdict = judge(action, ply, game)
    if verdict is Verdict.PLAY:
        assert ply == current and state not in ENDED
        assert state != STUCK or action in (UNDO, RESIGN)
    if is_retry(action, ply, game):
        assert ply == current - 1 and last is not None and action != RESIGN
        assert refused(verdict)[0] == "stale_ply", "a retry's ply is never the current one"
