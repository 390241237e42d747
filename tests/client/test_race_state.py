"""The race bookkeeping the screens draw, fed with messages shaped as protocol.md writes them."""

from __future__ import annotations

from client.race import RaceState


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def room(state: str = "waiting", code: str = "K7QF2M") -> dict[str, object]:
    return {
        "type": "room",
        "room": {
            "code": code,
            "variant": "freecell",
            "options": {},
            "host": 1,
            "players": [
                {"id": 1, "name": "alice", "connected": True},
                {"id": 2, "name": "bob", "connected": False},
            ],
            "state": state,
            "max_players": 8,
            "time_limit_s": 1800,
        },
    }


def test_a_race_goes_from_countdown_to_progress_to_standings() -> None:
    clock = Clock()
    race = RaceState(clock)
    assert race.apply(room())
    assert race.code == "K7QF2M" and race.names() == {1: "alice", 2: "bob"}
    assert race.apply({"type": "race_countdown", "code": "K7QF2M", "start_in_ms": 3000})
    assert race.room is not None and race.room["state"] == "countdown"
    clock.now += 1.0
    assert race.countdown_left() == 2.0
    game = {"id": "g1", "ply": 0}
    assert race.apply({"type": "race_started", "code": "K7QF2M", "game": game})
    assert race.game == game and race.countdown_left() is None
    progress = {"type": "progress", "code": "K7QF2M", "player": 2, "ply": 4,
                "foundation": 3, "score": 3, "state": "playing"}
    assert race.apply(progress)
    assert race.progress[2]["foundation"] == 3
    standings = [{"rank": 1, "player": 2, "name": "bob", "state": "won",
                  "elapsed_ms": 1, "moves": 90, "score": 52}]
    assert race.apply({"type": "race_over", "code": "K7QF2M", "standings": standings})
    assert race.standings == standings and race.room["state"] == "over"


def test_news_of_another_room_is_ignored() -> None:
    race = RaceState(Clock())
    race.apply(room())
    other = {"type": "progress", "code": "ZZZZZZ", "player": 2, "ply": 1,
             "foundation": 1, "score": 1, "state": "playing"}
    assert not race.apply(other)
    assert race.progress == {}


def test_a_rematch_countdown_clears_the_last_standings_and_progress() -> None:
    race = RaceState(Clock())
    race.apply(room("over"))
    race.apply({"type": "progress", "code": "K7QF2M", "player": 2, "ply": 1,
                "foundation": 1, "score": 1, "state": "won"})
    race.apply({"type": "race_over", "code": "K7QF2M", "standings": []})
    race.apply({"type": "race_countdown", "code": "K7QF2M", "start_in_ms": 3000})
    assert race.standings is None and race.progress == {}
