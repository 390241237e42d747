"""An arena's points, read as the rule a player is told."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from server.arenas.scoring import DealPlayed, on_fire, score_deals, total

PAR = 120_000
WIN_SLOW = DealPlayed(won=True, time_ms=200_000, par_ms=PAR)
WIN_FAST = DealPlayed(won=True, time_ms=100_000, par_ms=PAR)
LOSS = DealPlayed(won=False, time_ms=50_000, par_ms=PAR)


def points(*deals: DealPlayed) -> list[int]:
    return [s.points for s in score_deals(deals)]


def test_a_win_is_two_points_and_three_within_par() -> None:
    assert points(WIN_SLOW) == [2]
    assert points(WIN_FAST) == [3]


def test_a_loss_or_resign_is_nothing() -> None:
    assert points(LOSS) == [0]


def test_two_wins_in_a_row_double_the_next_wins_points() -> None:
    assert points(WIN_SLOW, WIN_SLOW, WIN_FAST, WIN_SLOW) == [2, 2, 6, 4]


def test_a_loss_ends_the_streak() -> None:
    assert points(WIN_SLOW, WIN_SLOW, LOSS, WIN_SLOW) == [2, 2, 0, 2]


def test_berserk_adds_one_point_to_a_win_and_nothing_to_a_loss() -> None:
    berserk_win = DealPlayed(won=True, time_ms=50_000, par_ms=PAR, berserk=True)
    berserk_loss = DealPlayed(won=False, time_ms=50_000, par_ms=PAR, berserk=True)
    assert points(berserk_win) == [4]
    assert points(berserk_loss) == [0]
    assert points(WIN_SLOW, WIN_SLOW, berserk_win) == [2, 2, 7]  # 3 doubled, then the bonus


def test_a_player_is_on_fire_after_two_wins_in_a_row() -> None:
    assert not on_fire([WIN_SLOW])
    assert on_fire([LOSS, WIN_SLOW, WIN_FAST])
    assert not on_fire([WIN_SLOW, WIN_SLOW, LOSS])


deals = st.lists(
    st.builds(
        DealPlayed,
        st.booleans(),
        st.integers(1, 3_600_000),
        st.integers(1, 3_600_000),
        st.booleans(),
    ),
    max_size=40,
)


@given(deals)
def test_the_table_total_is_the_sum_of_its_games_points(played: list[DealPlayed]) -> None:
    assert total(played) == sum(s.points for s in score_deals(played))
    assert all(s.points >= 0 for s in score_deals(played))


@given(deals, deals)
def test_leaving_forfeits_nothing_already_scored(
    first: list[DealPlayed], more: list[DealPlayed]
) -> None:
    assert total(first + more) >= total(first)
