"""The clock a board shows: the server's elapsed_ms, advanced locally, never going back."""

from __future__ import annotations

from client.clock import GameClock, format_ms


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_the_clock_runs_on_from_the_servers_time() -> None:
    wall = Clock()
    clock = GameClock(wall)
    clock.set(12_000, True, "g1")
    wall.now += 2.5
    assert clock.now_ms() == 14_500


def test_an_older_view_of_the_same_game_never_takes_the_clock_back() -> None:
    # After a refused move the board shows again the view of the last good move, whose
    # elapsed_ms is older than the time on screen.
    wall = Clock()
    clock = GameClock(wall)
    clock.set(12_000, True, "g1")
    wall.now += 10
    assert clock.now_ms() == 22_000
    clock.set(12_000, True, "g1")
    assert clock.now_ms() == 22_000
    wall.now += 1
    assert clock.now_ms() == 23_000
    # A newer time than shown is taken as it is.
    clock.set(30_000, True, "g1")
    assert clock.now_ms() == 30_000


def test_a_new_game_starts_from_its_own_time_and_an_ended_game_shows_the_servers() -> None:
    wall = Clock()
    clock = GameClock(wall)
    clock.set(50_000, True, "g1")
    clock.set(0, True, "g2")
    assert clock.now_ms() == 0
    wall.now += 3
    clock.set(2_900, False, "g2")  # won: the time that ranks is the server's
    wall.now += 60
    assert clock.now_ms() == 2_900
    assert format_ms(clock.now_ms()) == "00:02"
