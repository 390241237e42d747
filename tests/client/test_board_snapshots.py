"""Every screen at the two sizes a player uses, 80x24 and 160x50, against stored screenshots.

Each snapshot also reads the screen as text: nothing on it is cut (no ``…``
where a column or a label was too narrow, every label whole, the footer
down to its last key). Regenerate after an intended change of the look with
``pytest tests/client --snapshot-update`` and review the SVGs in
``__snapshots__``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from client.app import PatienceApp
from client.screens.leaderboard import LeaderboardScreen
from client.screens.verify import VerifyScreen
from shared.deals import commitment
from shared.games import new_game
from shared.protocol import (
    DealView,
    GameEntry,
    GameView,
    LeaderboardReply,
    PlayerInfo,
    Progress,
    RaceOver,
    RaceStarted,
    RoomPlayer,
    RoomReply,
    RoomView,
    Standing,
    StatsReply,
    VariantStats,
)
from shared.variants import STANDARD
from tests.client.board_app import engine_view
from tests.client.screens_app import ScreensApp, screen_text
from tests.client.test_app import text_of

SIZES = [(80, 24), (160, 50)]
SEED = 617
KEY = bytes(range(32))

Make = Callable[[PatienceApp], Screen[None]]


def uncut(
    *shown: str,
    ready: Callable[[PatienceApp], bool] = lambda app: True,
    absent: tuple[str, ...] = (),
) -> Callable[[Pilot[int]], Awaitable[None]]:
    """A ``run_before`` that waits for ``ready``, then checks the screen's text: no ellipsis,
    each of ``shown`` whole, and the footer's last key; none of ``absent``."""

    async def check(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, PatienceApp)
        expected = (*shown, "^q Quit")
        text = ""
        for _ in range(250):  # until the screen is drawn in full (its footer comes last)
            await pilot.pause(0.02)
            text = screen_text(app)
            if ready(app) and all(part in text for part in expected):
                break
        assert "…" not in text, text
        for part in expected:
            assert part in text, f"{part!r} is not whole on screen:\n{text}"
        for part in absent:
            assert part not in text, f"{part!r} is on screen:\n{text}"

    return check


def board(view: GameView, *, hints: bool = True) -> Make:
    def make(app: PatienceApp) -> Screen[None]:
        app.played.adopt(view)
        return app.played_board(hints=hints)

    return make


def snap(
    tmp_path: Path, snap_compare: Any, make: Make, size: tuple[int, int], **kwargs: Any
) -> None:
    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=size, **kwargs)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
@pytest.mark.parametrize("variant", sorted(STANDARD.ids))
def test_the_board_of_each_variant_as_dealt(
    variant: str, size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    view = engine_view(variant, SEED)
    keys = [f"{i}" for i in range(1, 8)]
    shown = [f"#{SEED}", "esc Back", *keys]
    absent = () if variant != "freecell" else ("space Deal",)  # Freecell has no stock
    if variant == "osmosis":
        shown.append("░  3░")  # face-down reserve cards: one cell with their count
    snap(tmp_path, snap_compare, board(view), size, run_before=uncut(*shown, absent=absent))


def test_a_picked_source_lights_its_legal_destinations(snap_compare: Any, tmp_path: Path) -> None:
    # Microsoft deal 617: t1's top card is picked; its legal destinations light up.
    view = engine_view("freecell", SEED)
    snap(tmp_path, snap_compare, board(view), (80, 24), press=["2"], run_before=uncut("2"))


def test_thumb_and_pouch_after_some_deals(snap_compare: Any, tmp_path: Path) -> None:
    view = engine_view("thumb_and_pouch", SEED, ("deal", "deal", "deal"))
    snap(tmp_path, snap_compare, board(view), (80, 24), run_before=uncut("space Deal", "h Hint"))


def keyed_view(variant: str, *, revealed: bool) -> GameView:
    """A game on a keyed deal as the server shows it: the commitment, and the key once out."""
    game = new_game(variant, key=KEY)
    if revealed:
        game.resign()
    deal = {"commitment": commitment(variant, KEY)} | ({"key": KEY.hex()} if revealed else {})
    wire = game.view() | {"id": "snap", "elapsed_ms": 83_000, "hints": 0, "deal": deal}
    return GameView.from_map(wire)


def test_a_daily_on_a_keyed_deal_shows_its_commitment_and_no_hint_key(
    snap_compare: Any, tmp_path: Path
) -> None:
    view = keyed_view("westhaven", revealed=False)
    start = f"deal {commitment('westhaven', KEY)[:8]}"
    check = uncut(start, absent=("h Hint", "seed"))
    snap(tmp_path, snap_compare, board(view, hints=False), (80, 24), run_before=check)


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_a_revealed_deal_offers_its_key_and_the_verify_command(
    size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    view = keyed_view("freecell", revealed=True)

    def make(app: PatienceApp) -> Screen[None]:
        return VerifyScreen(view)

    command = f"patience-club verify freecell {commitment('freecell', KEY)} {KEY.hex()}"
    # The command is longer than the screen is wide: it wraps, each of its words whole.
    shown = command.split()
    snap(tmp_path, snap_compare, make, size, run_before=uncut(*shown, "c Copy command"))


def room(state: str) -> RoomReply:
    players = (
        RoomPlayer(1, "alice", connected=True, game="g1"),
        RoomPlayer(2, "robot_the_great", connected=True, game="g2", bot=True),
        RoomPlayer(3, "carol", connected=False, game=None),
        RoomPlayer(4, "dan", connected=True, game=None, role="spectator"),
    )
    view = RoomView(
        code="K7QF2M", variant="westhaven", options={}, host=1, players=players,
        state=state, max_players=8, time_limit_s=1800, race=1,
    )  # fmt: skip
    return RoomReply(room=view)


STANDINGS = (
    Standing(rank=1, player=2, name="robot_the_great", state="won", elapsed_ms=83_000,
             moves=95, score=52, undos=0, foundation=52),
    Standing(rank=2, player=1, name="alice", state="resigned", elapsed_ms=183_000,
             moves=125, score=12, undos=3, foundation=12),
)  # fmt: skip


def in_race(app: PatienceApp, *, over: bool) -> GameView:
    view = engine_view("westhaven", SEED, ("deal",))
    app.race.apply(room("racing"))
    app.race.apply(RaceStarted(code="K7QF2M", game=view))
    app.played.adopt(view)
    app.race.apply(Progress(code="K7QF2M", player=2, ply=9, foundation=3, score=3, state="playing"))
    if over:
        app.race.apply(RaceOver(code="K7QF2M", standings=STANDINGS))
    return view


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_a_race_board_with_the_standings_beside_or_below_it(
    size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        in_race(app, over=True)
        return app.race_board()

    shown = ["Standings", "robot_the_great", "resigned", "moves", "result", "no hints"]
    # The room has hints off: the board's footer does not offer h.
    snap(tmp_path, snap_compare, make, size, run_before=uncut(*shown, absent=("h Hint",)))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_the_race_room_while_racing(
    size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        in_race(app, over=False)
        return app.race_screen()

    shown = ["K7QF2M", "robot_the_great (bot)", "watching: dan", "home", "score", "state",
             "b My board", "w Watch a racer", "l Leave room"]  # fmt: skip
    snap(tmp_path, snap_compare, make, size, run_before=uncut(*shown))


def home_screen(app: PatienceApp) -> Screen[None]:
    home = app.home_screen()
    home.dailies = {
        "freecell": Standing(rank=3, player=1, name="alice", state="won", elapsed_ms=83_000,
                             moves=95, score=52, undos=0, foundation=52),
        "osmosis": None,
    }  # fmt: skip
    home.stats = StatsReply(
        player=PlayerInfo(1, "alice"),
        variants=(
            VariantStats("freecell", 5, 2, 83_000, 95),
            VariantStats("westhaven", 1, 0, None, None),
        ),
        dailies_won=1,
        daily_streak=1,
    )
    home.unfinished = (
        GameEntry("g1", "freecell", {}, DealView(seed=SEED), "solo", "playing", 12, 3, 71_000,
                  "2026-12-01T10:00:00Z"),
        GameEntry("g2", "westhaven", {}, DealView(commitment="3fa2c1d0" + "0" * 56), "race",
                  "playing", 3, 0, 12_000, "2026-12-01T10:00:00Z"),
    )  # fmt: skip
    return home


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_home_with_dailies_games_to_continue_and_statistics(
    size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    def listed(app: PatienceApp) -> bool:
        return len(app.screen.query("#variants > ListItem")) == len(app.variant_ids) + 3

    shown = ["Continue a game", "Freecell #617", "deal 3fa2c1d0", "Join", "Watch",
             "Create race", "Leaderboard", "daily: #3 won 01:23 95 moves", "1 unfinished",
             "o Option", "c Race"]  # fmt: skip
    snap(tmp_path, snap_compare, home_screen, size, run_before=uncut(*shown, ready=listed))


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "160x50"])
def test_a_leaderboard_and_the_date_field(
    size: tuple[int, int], snap_compare: Any, tmp_path: Path
) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        return app.leaderboard_screen("freecell", "2026-01-02")

    check = uncut("another day:", "YYYY-MM-DD", "← Prev game", "→ Next game", "you: #2")

    async def run_before(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, LeaderboardScreen)
        for _ in range(250):
            if "cannot reach" in text_of(screen.query_one("#me", Static)):
                break  # the link is down here: the reply below is what a server answers
            await pilot.pause(0.02)
        mine = STANDINGS[1]
        screen.show(
            LeaderboardReply(variant="freecell", date="2026-01-02", entries=STANDINGS, me=mine)
        )
        await check(pilot)

    snap(tmp_path, snap_compare, make, size, run_before=run_before)
