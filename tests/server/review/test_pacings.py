"""Scripted pacings of a solver's line are held; the kept games of people's pace are not.

The scripts play the line our own solver finds for a Freecell deal, every
card face up, as the attacks on the ranked daily did: at machine speed, the
median trick (205 ms before just over half of the actions, nothing before the
rest), a steady 205 ms, and a human-like jitter around the line. The games
kept in ``timings/`` are not held, whichever rule's limits they meet.
"""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from server.review.line import line_of, solver_line
from server.review.rule import Line, Played, Rule, Why
from server.review.timings import SYNTHETIC, Timings
from tests.server.review import human_model
from tests.server.review.human_model import every

RULE = Rule()
DEAL = {"variant": "freecell", "options": {}, "key": bytes(range(32)).hex()}


@functools.cache
def the_line() -> tuple[str, ...]:
    line = solver_line(DEAL, positions=200_000, seconds=60.0)
    assert line is not None
    return line


@functools.cache
def found() -> Line:
    """What review finds replaying the line (the same whatever its pace)."""
    return line_of({**DEAL, "actions": list(the_line())}, the_line())


def scripted(gaps: list[int]) -> tuple[Played, Line]:
    """The solver's line played with ``gaps`` before its actions, and what review finds."""
    line = the_line()
    times, now = [], 0
    for gap in gaps:
        now += gap
        times.append(now)
    played = Played(line, tuple(times), 0, fresh=True, won=True)
    return played, found()


def test_the_solver_line_is_a_win_review_recognises_move_for_move() -> None:
    _, line = scripted([0] * len(the_line()))
    assert line == Line(solver_moves=len(the_line()), revisits=0, followed=len(the_line()))


def test_machine_speed_is_held_for_everything_a_hand_cannot_do() -> None:
    review = RULE.judge(*scripted([0] * len(the_line())))
    assert review.why == set(Why)


def test_the_median_trick_is_held_though_its_median_is_a_persons() -> None:
    gaps = [205 if n % 2 == 0 else 0 for n in range(len(the_line()))]
    review = RULE.judge(*scripted(gaps))
    assert review.figures.median_ms == 205 and Why.MEDIAN not in review.why
    assert {Why.P25, Why.P10, Why.FIRST, Why.FLOOR, Why.EFFICIENT} <= review.why


def test_a_steady_205_ms_pace_is_held() -> None:
    review = RULE.judge(*scripted([205] * len(the_line())))
    assert review.why == {Why.FIRST, Why.EFFICIENT}


def test_a_steady_pace_after_a_long_look_is_held_for_its_straight_line_alone() -> None:
    review = RULE.judge(*scripted([20_000] + [205] * (len(the_line()) - 1)))
    assert review.why == {Why.EFFICIENT}


@settings(max_examples=200, deadline=None)
@given(
    look=st.integers(1_000, 60_000),
    jitter=st.lists(st.integers(250, 1_999), min_size=200, max_size=200),
    pause=st.integers(2_000, 30_000),
    where=st.integers(1, 48),
)
def test_a_human_like_jitter_around_the_solvers_line_is_held(
    look: int, jitter: list[int], pause: int, where: int
) -> None:
    """A look at the deal, then a person's gaps, even one long pause: still a solver's line
    with no undo, nothing revisited and no hesitation."""
    gaps = [look, *jitter[: len(the_line()) - 1]]
    gaps[where % len(gaps) or 1] = pause
    review = RULE.judge(*scripted(gaps))
    assert review.why == {Why.EFFICIENT}, review.text()


def test_the_kept_games_are_the_formats_and_none_is_held() -> None:
    kept = every()
    assert {t.client for t in kept} == {"terminal", "web"}
    for timings in kept:
        record = timings.record()
        line = line_of(record, solver_line(record, positions=200_000, seconds=60.0))
        review = RULE.judge(timings.played(), line)
        assert not review.held, f"{timings.variant} ({timings.client}): {review.text()}"


def test_the_synthetic_games_say_what_they_are_and_are_exactly_what_the_model_makes() -> None:
    synthetic = every(SYNTHETIC)
    assert synthetic, "the kept synthetic games"
    for timings in synthetic:
        assert timings.note.startswith("NOT a person")
    made: dict[str, Timings] = human_model.made()
    assert sorted(made.values(), key=lambda t: (t.variant, t.client)) == sorted(
        synthetic, key=lambda t: (t.variant, t.client)
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), client=st.sampled_from(("terminal", "web")))
def test_the_human_model_is_never_held_whatever_its_draws(seed: int, client: str) -> None:
    """Any game of the synthetic human-model pace on the solver's line: a look, thinks,
    explorations undone. (A model, not people: see timings.py.)"""
    timings = human_model.play("freecell", {"key": DEAL["key"]}, the_line(), client, seed)
    record = timings.record()
    line = line_of(record, the_line()) if RULE.wants_line(timings.played()) else None
    review = RULE.judge(timings.played(), line)
    assert not review.held, review.text()
