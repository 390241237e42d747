"""The pure rules of challenges: the ghost's timeline, who won, what is ranked, the score."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.challenges import ghost
from server.challenges.outcome import Score, Side, unranked, winner


def test_a_ghost_without_pauses_is_the_times_actions_were_received() -> None:
    points = ghost.timeline(
        started_ms=1_000,
        ended_ms=9_000,
        elapsed_ms=8_000,
        played_ms=[2_000, 4_000, 7_000],
        homes=[0, 1, 1],
    )
    assert points == [[0, 0, 0], [1_000, 1, 0], [3_000, 2, 1], [6_000, 3, 1], [8_000, 3, 1]]
    assert ghost.at(points, 2_999, final_state="won") == (1, 0, "playing")
    assert ghost.at(points, 8_000, final_state="won") == (3, 1, "won")


def test_an_hour_away_is_taken_out_of_the_gap_it_was_in() -> None:
    points = ghost.timeline(
        started_ms=0,
        ended_ms=3_604_000,
        elapsed_ms=4_000,
        played_ms=[1_000, 3_602_000, 3_603_000],
        homes=[0, 0, 1],
    )
    assert [p[0] for p in points] == [0, 1_000, 2_000, 3_000, 4_000]


@given(
    gaps=st.lists(st.integers(min_value=0, max_value=10**7), min_size=1, max_size=40),
    tail=st.integers(min_value=0, max_value=10**6),
    paused=st.floats(min_value=0, max_value=1),
)
def test_a_ghost_runs_forward_and_ends_on_the_games_own_time(
    gaps: list[int], tail: int, paused: float
) -> None:
    played = []
    at = 0
    for gap in gaps:
        at += gap
        played.append(at)
    wall = at + tail
    elapsed = round(wall * (1 - paused))
    points = ghost.timeline(
        started_ms=0, ended_ms=wall, elapsed_ms=elapsed, played_ms=played, homes=[0] * len(gaps)
    )
    times = [p[0] for p in points]
    assert times == sorted(times) and times[-1] == elapsed and times[0] == 0
    assert [p[1] for p in points] == [*range(len(gaps) + 1), len(gaps)]
    for moment in (0, elapsed // 2, elapsed):
        moves, _, _ = ghost.at(points, moment, final_state="resigned")
        assert moves == max(p[1] for p in points if p[0] <= moment)  # never ahead


def side(state: str = "resigned", ms: int = 1000, home: int = 0, **kw: object) -> Side:
    fields: dict[str, object] = {"hints": 0, "bot": False, "held": False} | kw
    return Side(state, ms, home, **fields)  # type: ignore[arg-type]


def test_a_win_beats_no_win_then_time_then_cards_home() -> None:
    assert winner(side("won", 90_000, 52), side("resigned", 10, 51)) == "challenger"
    assert winner(side("won", 90_000, 52), side("won", 80_000, 52)) == "opponent"
    assert winner(side("won", 80_000, 52), side("won", 80_000, 52)) == "draw"
    # time counts only between two wins: resigning sooner never helps
    assert winner(side(ms=5, home=3), side(ms=500_000, home=4)) == "opponent"
    assert winner(side(ms=5, home=3), side(ms=500_000, home=3)) == "draw"


def test_only_people_on_a_deal_neither_knew_without_hints_or_a_held_result_are_ranked() -> None:
    assert unranked(side(), side(), key_chosen=False) is None
    assert unranked(side(bot=True), side(), key_chosen=False) == "bot"
    assert unranked(side(), side(bot=True), key_chosen=True) == "bot"
    assert unranked(side(), side(), key_chosen=True) == "key_chosen"
    assert unranked(side(), side(hints=2), key_chosen=False) == "hints"
    assert unranked(side(held=True), side(), key_chosen=False) == "review"


@given(st.lists(st.sampled_from([True, False, None]), max_size=12), st.sampled_from([1, 3, 5]))
def test_a_match_is_won_by_the_first_to_win_more_than_half(
    rounds: list[bool | None], best_of: int
) -> None:
    score = Score(0, 0, 0, 0)
    decided = None
    for first_won in rounds:
        score = score.after(first_won=first_won, ranked=True)
        decided = decided or score.decided(best_of)
    assert score.first_wins + score.second_wins + score.draws == score.rounds == len(rounds)
    need = best_of // 2 + 1
    if decided is None:
        assert score.first_wins < need and score.second_wins < need
    assert Score(0, 0, 0, 0).after(first_won=True, ranked=False) == Score(0, 0, 0, 1)
