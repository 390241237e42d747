"""The terminal profile's ratings: a compact table of each game's rating now ("?" while
provisional) and its latest rated races, latest first (day, rating, change). Against the real
server, after two rated races won and lost; and an 80x24 snapshot from a fixed reply."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from client.app import PatienceApp
from client.connection import Connection
from client.screens.profile import ProfileScreen, day, profile_text
from shared.protocol import (
    CreateRoom,
    GameReply,
    GameView,
    JoinRoom,
    MoveRequest,
    Ok,
    PlayerInfo,
    PlayerRating,
    ProfileRating,
    ProfileReply,
    ProfileRequest,
    ProfileVariant,
    RaceOver,
    RaceStarted,
    RatingPoint,
    Reply,
    Resign,
    RoomReply,
    StartRace,
)
from tests.client.conftest import OpenConnection, ServerControl
from tests.client.screens_app import ScreensApp
from tests.client.test_app import SIZE, text_of, until
from tests.client.test_board_snapshots import uncut
from tests.client.test_screens_alone import Host, is_up


@pytest.fixture
async def server(server: ServerControl) -> ServerControl:
    """The client tests' server with no result held for review: the winner's moves come at
    machine speed, which review would hold (a held result does not count: docs/ratings.md)."""
    await server.stop()
    server.config = server.config.replace(review_min_actions=1_000_000)
    await server.start()
    return server


def ace_digger(game: GameView, seed: int) -> str:
    """The next move towards a card home in a Freecell deal (every card face up): a move home
    if there is one, else the top card of the column whose ace lies nearest its top, moved to a
    free cell or another column. Four free cells dig out any ace under four cards or fewer, and
    some ace lies that shallow in all but 0.2% of deals; random moves from there on."""
    legal = [str(m) for m in game.legal]
    home = [m for m in legal if ">f" in m]
    if home:
        return home[0]
    aces = [
        (len(pile.up) - 1 - at, pile.id)
        for pile in game.board.piles
        if pile.id.startswith("t")
        for at, card in enumerate(pile.up)
        if card.startswith("A")
    ]
    if aces:
        _, column = min(aces)
        away = [m for m in legal if m.startswith(f"{column}>") and not m.endswith(f">{column}")]
        if away:
            return away[0]
    return random.Random(seed + game.ply).choice([m for m in legal if ">" in m] or legal)


async def rated_race(winner: Connection, loser: Connection, seed: int) -> None:
    """A rated Freecell race: ``loser`` resigns at once; ``winner`` plays until a card is home,
    then resigns: a card home beats none (docs/ratings.md's pairwise rule)."""
    dealt: dict[Connection, asyncio.Queue[GameView]] = {
        winner: asyncio.Queue(),
        loser: asyncio.Queue(),
    }
    over = asyncio.Event()

    room = (await winner.request(CreateRoom(variant="freecell", rated=True), RoomReply)).room

    def pushes(conn: Connection) -> Any:
        def on_push(message: Reply) -> None:  # this room's, not a push left from another
            if isinstance(message, RaceStarted) and message.code == room.code and message.game:
                dealt[conn].put_nowait(message.game)
            elif isinstance(message, RaceOver) and message.code == room.code and conn is winner:
                over.set()

        return on_push

    for conn in (winner, loser):
        conn.on_push = pushes(conn)
    await loser.request(JoinRoom(code=room.code), RoomReply)
    await winner.request(StartRace(code=room.code), Ok)
    lost = await asyncio.wait_for(dealt[loser].get(), 30)
    await loser.request(Resign(game=lost.id, ply=lost.ply), GameReply)
    game = await asyncio.wait_for(dealt[winner].get(), 30)
    for _ in range(200):  # dig out the ace nearest a column's top; autoplay sends it home
        if game.score > 0:
            break
        request = MoveRequest(game=game.id, ply=game.ply, move=ace_digger(game, seed))
        game = (await winner.request(request, GameReply)).game
        await asyncio.sleep(0.03)  # under the server's 50 messages a second
    assert game.score > 0, game.state
    await winner.request(Resign(game=game.id, ply=game.ply), GameReply)
    await asyncio.wait_for(over.wait(), 30)


async def test_the_profile_lists_each_rated_race_with_its_change(
    open_connection: OpenConnection,
) -> None:
    nia = await open_connection("nia")
    omar = await open_connection("omar")
    await rated_race(nia, omar, seed=1)  # nia wins
    await rated_race(omar, nia, seed=2)  # then loses
    for _ in range(100):  # the race's end is rated as race_over goes out: wait for it
        reply = await nia.request(ProfileRequest(name="nia"), ProfileReply)
        if reply.ratings and len(reply.ratings[0].history) == 2:
            break
        await asyncio.sleep(0.1)
    (rating,) = reply.ratings
    first, second = rating.history
    assert first.rating > 1500 > second.rating - first.rating + 1500  # up, then down
    host = Host(lambda: ProfileScreen(nia, "nia"))
    async with host.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(host.screen, ProfileScreen) and is_up(host))
        body = host.screen.query_one("#profile", Static)
        await until(pilot, lambda: "Ratings (latest" in text_of(body))
        shown = text_of(body)
    label = rating.rating.label()
    assert label.endswith("?")  # two races: still provisional
    change = f"{second.rating - first.rating:+d}"
    latest = f"Freecell{label:>14}{2:>8}  {day(second.at_ms):<10}{second.rating:>8}{change:>8}"
    assert latest in shown, shown
    assert f"{day(first.at_ms):<10}{first.rating:>8}{'-':>8}" in shown, shown
    assert shown.index(str(second.rating)) < shown.index(f"{first.rating:>8}{'-':>8}")


#: the moment the snapshot's days are counted from (ms since the epoch: 2027-01-15)
NOW_MS = 1_800_000_000_000
DAY_MS = 86_400_000


def profile_reply() -> ProfileReply:
    """A player with a provisional Freecell rating after seven races, an established Gypsy one
    after a single race shown, and no rated race yet on Westhaven."""
    freecell = [1500 + d for d in (162, 120, 151, 98, 133, 170, 158)]
    return ProfileReply(
        player=PlayerInfo(id=7, name="nia"),
        hidden=False,
        mine=True,
        ratings=(
            ProfileRating(
                "freecell",
                PlayerRating(freecell[-1], True),
                7,
                tuple(
                    RatingPoint(NOW_MS - (7 - n) * DAY_MS, r, 140 - 5 * n)
                    for n, r in enumerate(freecell)
                ),
            ),
            ProfileRating(
                "gypsy", PlayerRating(1612, False), 31, (RatingPoint(NOW_MS - DAY_MS, 1612, 80),)
            ),
        ),
        variants=(ProfileVariant("freecell", 9, 4, 250_000, 301_000, 1, 2),),
        streak=1,
        best_streak=2,
        dailies=(),
        arenas=(),
        recent=(),
    )


def test_the_profile_ratings_at_80x24(snap_compare: Any, tmp_path: Path) -> None:
    class Fixed(ProfileScreen):
        def load(self) -> None:
            self.reply = profile_reply()
            self.query_one("#profile", Static).update(profile_text(self.reply, self.catalog))

    def make(app: PatienceApp) -> Screen[None]:
        return Fixed(app.conn, "nia")

    async def run_before(pilot: Pilot[int]) -> None:
        await uncut("game", "now", "races", "change", "1658?", "-12", "+37", "1612")(pilot)

    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=(80, 24), run_before=run_before)
