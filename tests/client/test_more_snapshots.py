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
from client.screens.challenge import GhostPanel, ResultScreen
from client.screens.replay import ReplayScreen
from shared.games import new_game
from shared.protocol import (
    Board,
    ChallengeSide,
    ChallengeView,
    DealView,
    GhostReply,
    MatchView,
    PileView,
    ReplayReply,
    TransferCodeReply,
)
from tests.client.board_app import engine_view
from tests.client.screens_app import ScreensApp
from tests.client.test_board_snapshots import SEED, board, keyed_view, uncut

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


def test_a_finished_game_offers_its_replay_and_a_challenge(
    snap_compare: Any, tmp_path: Path
) -> None:
    view = keyed_view("freecell", revealed=True)
    check = uncut("y Replay", "C Challenge", "RESIGNED", absent=("U Redo", "u Undo"))
    assert snap_compare(ScreensApp(board(view), tmp_path), terminal_size=SIZE, run_before=check)


def challenge_view() -> ChallengeView:
    match = MatchView(
        id="m1", best_of=3, first=1, first_name="alice", second=2, second_name="bob",
        first_wins=1, second_wins=0, draws=0, rounds=1, state="playing",
    )  # fmt: skip
    alice = ChallengeSide(
        player=1, name="alice", game="g1", state="won", elapsed_ms=191_000, moves=87, home=52,
        hints=0, undos=2,
    )  # fmt: skip
    bob = ChallengeSide(
        player=2, name="bob", game="g2", state="resigned", elapsed_ms=240_000, moves=64,
        home=31, hints=1, undos=0,
    )  # fmt: skip
    return ChallengeView(
        id="Ab3x9QzP", kind="solo", variant="freecell", options={}, commitment="ab" * 32,
        round=1, state="done", challenger=1, challenger_name="alice", match=match,
        opponent=2, opponent_name="bob", result="challenger", ranked=False, unranked="hints",
        challenger_result=alice, opponent_result=bob,
    )  # fmt: skip


def test_a_rounds_result_side_by_side_with_a_rematch(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        return ResultScreen(challenge_view())

    check = uncut("alice wins", "alice won", "bob resigned", "31 home", "r Rematch on a new deal",
                  "best of 3: alice 1 - 0 bob", "not ranked: hints")  # fmt: skip
    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=SIZE, run_before=check)


def test_the_challengers_ghost_beside_a_challenge_game(snap_compare: Any, tmp_path: Path) -> None:
    view = engine_view("freecell", SEED)
    ghost = GhostReply(challenge="Ab3x9QzP", elapsed_ms=83_000, moves=12, home=5, state="playing")

    def make(app: PatienceApp) -> Screen[None]:
        app.played.adopt(view)
        panel = GhostPanel(app.conn, "Ab3x9QzP", "alice")
        panel.ghost = ghost
        return app.played_board("Freecell: alice's challenge", panel, kind="challenge")

    check = uncut("alice's ghost", "at 01:23: 12 moves, 5 home", "you: 0 moves, 0 home")
    assert snap_compare(ScreensApp(make, tmp_path), terminal_size=SIZE, run_before=check)
