"""The clock a board shows: the server's elapsed_ms, advanced locally, never going back."""

from __future__ import annotations

from client.clock import GameClock, GameClocks, format_ms


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


def test_a_board_opened_again_on_a_game_continues_its_clock() -> None:
    # Back from the race room, the board is built again from the game's last view, whose
    # elapsed_ms is older than the time shown before: the clock of that game goes on.
    wall = Clock()
    clocks = GameClocks(wall)
    clocks.of("g1").set(12_000, True, "g1")
    wall.now += 3
    assert clocks.of("g1").now_ms() == 15_000
    clocks.of("g1").set(12_000, True, "g1")  # the new board's first view
    assert clocks.of("g1").now_ms() == 15_000
    # another game has its own clock, and only the latest games are kept
    clocks.of("g2").set(1_000, True, "g2")
    assert clocks.of("g2").now_ms() == 1_000 and clocks.of("g1").now_ms() == 15_000
    for n in range(GameClocks.KEPT):
        clocks.of(f"other{n}")
    assert clocks.of("g1").now_ms() == 0  # forgotten: a new clock
