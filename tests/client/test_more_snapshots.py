"""Snapshots of the screens that move an account, replay a game, and follow a challenge, at
80x24 (the smallest terminal the client fits), from fixed protocol messages; each also read
as text for anything cut (tests/client/test_board_snapshots.py has the pattern)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen

from client.app import PatienceApp
from client.screens.account import AccountScreen
from client.screens.replay import ReplayScreen
from shared.games import new_game
from shared.protocol import Board, DealView, PileView, ReplayReply, TransferCodeReply
from tests.client.screens_app import ScreensApp
from tests.client.test_board_snapshots import SEED, uncut

SIZE = (80, 24)
#: the moment the snapshots are drawn at (ms since the epoch), and a code's end 4:05 later
NOW_MS = 1_800_000_000_000


def test_the_account_screen_with_a_transfer_code(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        return AccountScreen(app.conn, clock=lambda: NOW_MS / 1000)

    async def run_before(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, AccountScreen)
        screen.reply = TransferCodeReply(code="K7QF-2MXP", expires_ms=NOW_MS + 245_000)
        screen._tick()
        await uncut("K7QF-2MXP", "04:05 more", "You play as alice", "L Log out")(pilot)

    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=SIZE, run_before=run_before)


def replay_reply() -> ReplayReply:
    """Freecell deal 617 with three moves and an undo, as ``replay`` answers it."""
    game = new_game("freecell", seed=SEED)
    shown = [game.view()]
    actions = []
    for _ in range(3):
        action = game.view()["legal"][0]
        game.play(action)
        actions.append(action)
        shown.append(game.view())
    game.undo()
    actions.append("undo")
    shown.append(game.view())

    def piles(view: dict[str, Any]) -> tuple[PileView, ...]:
        return tuple(PileView(p["id"], p["down"], tuple(p["up"])) for p in view["piles"])

    return ReplayReply(
        game="g7Qx2bPa", player="alice", variant="freecell", options={},
        deal=DealView(seed=SEED), kind="solo", state="resigned", score=0, elapsed_ms=61_000,
        actions=tuple(actions), boards=tuple(Board(piles=piles(v)) for v in shown),
    )  # fmt: skip


def test_a_replay_at_its_second_move(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        return ReplayScreen(app.conn, "g7Qx2bPa")

    async def run_before(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, ReplayScreen)
        await screen.show_reply(replay_reply())
        await pilot.press("right", "right")
        await uncut("Move 2 of 4:", "replay of alice's game g7Qx2bPa", "space Play/pause")(pilot)

    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=SIZE, run_before=run_before)
