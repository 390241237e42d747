"""How a room's state changes, as a pure table: no server, no database, no event loop."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.races.transitions import TRANSITIONS, Change, NoTransition, after, allows
from shared.protocol import COUNTDOWN, OVER, RACING, ROOM_STATES, WAITING


def test_a_waiting_room_counts_down_when_its_host_starts_a_race() -> None:
    assert after(WAITING, Change.START) == COUNTDOWN


def test_a_room_whose_race_is_over_may_start_the_next_one() -> None:
    assert after(OVER, Change.START) == COUNTDOWN


def test_a_race_is_started_once_and_not_again_while_it_counts_down_or_runs() -> None:
    assert not allows(COUNTDOWN, Change.START)
    assert not allows(RACING, Change.START)


def test_at_the_end_of_the_countdown_the_race_begins_or_is_called_off() -> None:
    assert after(COUNTDOWN, Change.BEGIN) == RACING
    assert after(COUNTDOWN, Change.CALL_OFF) == WAITING


def test_only_a_countdown_begins_or_is_called_off() -> None:
    for state in (WAITING, RACING, OVER):
        assert not allows(state, Change.BEGIN)
        assert not allows(state, Change.CALL_OFF)


def test_a_race_ends_once() -> None:
    assert after(RACING, Change.FINISH) == OVER
    for state in (WAITING, COUNTDOWN, OVER):
        assert not allows(state, Change.FINISH)


def test_a_change_that_cannot_happen_says_so() -> None:
    with pytest.raises(NoTransition, match="a room over cannot finish"):
        after(OVER, Change.FINISH)


def test_every_room_state_can_be_reached_and_left() -> None:
    reached = {state for state in TRANSITIONS.values()}
    left = {state for state, _ in TRANSITIONS}
    assert reached == left == set(ROOM_STATES)


@given(st.lists(st.sampled_from(list(Change)), max_size=30))
def test_any_run_of_changes_from_a_new_room_visits_only_room_states(
    changes: list[Change],
) -> None:
    """A new room waits; whatever happens to it, it is in one of the protocol's states, and a
    race runs only after a countdown."""
    state, before = WAITING, None
    for change in changes:
        if not allows(state, change):
            continue
        before, state = state, after(state, change)
        assert state in ROOM_STATES
        if state == RACING:
            assert before == COUNTDOWN


def test_nothing_in_the_server_sets_a_room_s_state_but_through_the_table() -> None:
    """Every ``<room>.state = ...`` in server/ takes the state from :func:`after`."""
    root = Path(__file__).resolve().parents[3] / "server"
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                if not (isinstance(target, ast.Attribute) and target.attr == "state"):
                    continue
                value = node.value
                through = isinstance(value, ast.Call) and getattr(value.func, "id", "") == "after"
                if isinstance(target.value, ast.Name) and target.value.id == "room" and not through:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    assert found == []
