"""The terminal client shows each player's rating beside their name: in the race room, in
the standings (with the race's change) and on the daily leaderboard."""

from __future__ import annotations

from rich.console import Console

from client.race import RaceState
from client.screens.leaderboard import entry_row
from client.screens.race import race_text, room_heading, standings_table
from shared.protocol import PlayerRating, RaceOver, RoomPlayer, RoomReply, RoomView, Standing


def text_of(renderable: object) -> str:
    console = Console(width=100, record=True)
    console.print(renderable)
    return console.export_text()


def rated_room() -> RaceState:
    race = RaceState(lambda: 0.0)
    players = (
        RoomPlayer(1, "alice", True, None, rating=PlayerRating(1523, False)),
        RoomPlayer(2, "bob", True, None, rating=PlayerRating(1500, True)),
        RoomPlayer(3, "carol", True, None),
    )
    view = RoomView("K7QF2M", "freecell", {}, 1, players, "waiting", 8, 1800, 0, rated=True)
    race.apply(RoomReply(room=view))
    return race


def test_the_race_room_shows_ratings_beside_names() -> None:
    race = rated_room()
    shown = text_of(race_text(race, me=3))
    assert "alice 1523" in shown and "bob 1500?" in shown
    assert "carol ◂" in shown  # no rating yet: the name alone
    assert "rated" in text_of(room_heading(race))


def test_standings_show_each_racers_rating_and_its_change() -> None:
    standings = (
        Standing(1, 1, "alice", "won", 61_000, 90, 52, 0, 52, rating=PlayerRating(1537, False, 14)),
        Standing(2, 2, "bob", "resigned", 5_000, 3, 1, 0, 1, rating=PlayerRating(1486, True, -14)),
    )
    race = rated_room()
    race.apply(RaceOver(code="K7QF2M", standings=standings))
    for compact in (False, True):
        shown = text_of(standings_table(standings, compact=compact))
        assert "alice 1537 +14" in shown and "bob 1486? -14" in shown
    assert entry_row(standings[1])[1] == "bob 1486? -14"
    daily = Standing(3, 3, "carol", "won", 1_000, 9, 52, 0, 52, rating=PlayerRating(1610, False))
    assert entry_row(daily)[1] == "carol 1610"
