"""The race bookkeeping the screens draw, fed with the typed messages the server sends."""

from __future__ import annotations

from client.race import RaceState
from shared.protocol import (
    GameView,
    Progress,
    RaceCountdown,
    RaceOver,
    RaceStarted,
    RoomPlayer,
    RoomReply,
    RoomView,
    Standing,
)
from tests.client.board_app import engine_view


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def room(state: str = "waiting", code: str = "K7QF2M") -> RoomReply:
    players = (
        RoomPlayer(1, "alice", connected=True, game=None),
        RoomPlayer(2, "bob", connected=False, game=None),
    )
    return RoomReply(
        room=RoomView(
            code=code,
            variant="freecell",
            options={},
            host=1,
            players=players,
            state=state,
            max_players=8,
            time_limit_s=1800,
            race=0,
        )
    )


def progress(player: int, ply: int, home: int, state: str, code: str = "K7QF2M") -> Progress:
    return Progress(code=code, player=player, ply=ply, foundation=home, score=home, state=state)


def test_a_race_goes_from_countdown_to_progress_to_standings() -> None:
    clock = Clock()
    race = RaceState(clock)
    assert race.apply(room())
    assert race.code == "K7QF2M" and race.names() == {1: "alice", 2: "bob"}
    assert race.apply(RaceCountdown(code="K7QF2M", start_in_ms=3000))
    assert race.room is not None and race.room.state == "countdown"
    clock.now += 1.0
    assert race.countdown_left() == 2.0
    game: GameView = engine_view("freecell", 617)
    assert race.apply(RaceStarted(code="K7QF2M", game=game))
    assert race.game == game and race.countdown_left() is None
    assert race.apply(progress(2, 4, 3, "playing"))
    assert race.progress[2].foundation == 3
    standings = (
        Standing(1, 2, "bob", "won", elapsed_ms=1, moves=90, score=52, undos=0, foundation=52),
    )
    assert race.apply(RaceOver(code="K7QF2M", standings=standings))
    assert race.standings == standings and race.room.state == "over"


def test_news_of_another_room_is_ignored() -> None:
    race = RaceState(Clock())
    race.apply(room())
    assert not race.apply(progress(2, 1, 1, "playing", code="ZZZZZZ"))
    assert race.progress == {}


def test_a_rematch_countdown_clears_the_last_standings_and_progress() -> None:
    race = RaceState(Clock())
    race.apply(room("over"))
    race.apply(progress(2, 1, 1, "won"))
    race.apply(RaceOver(code="K7QF2M", standings=()))
    race.apply(RaceCountdown(code="K7QF2M", start_in_ms=3000))
    assert race.standings is None and race.progress == {}
