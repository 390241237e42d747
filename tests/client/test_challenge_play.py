"""Challenges played in the terminal against the real server: a finished secret deal sent as
a challenge, the challenger's ghost beside the answerer's board, both results side by side
with a rematch on a new deal, and a live best-of-three match in a race room."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from client.app import PatienceApp
from client.challenges import web_link
from client.config import TokenStore
from client.screens.board import BoardScreen
from client.screens.challenge import GhostPanel, ResultScreen, SendScreen
from client.screens.home import HomeScreen
from client.screens.race import RaceScreen
from shared.protocol import (
    ChallengeCreate,
    ChallengeGet,
    ChallengeReply,
    CreateRoom,
    GameReply,
    MoveRequest,
    Resign,
    RoomReply,
    StartGame,
)
from tests.client.conftest import OpenConnection, ServerControl
from tests.client.test_app import SIZE, text_of, until


def test_a_challenges_link_is_on_the_servers_web_side() -> None:
    assert web_link("ws://127.0.0.1:8765/ws", "Ab3") == "http://127.0.0.1:8765/challenge/Ab3"
    assert web_link("wss://club.example/ws", "Ab3") == "https://club.example/challenge/Ab3"


async def test_a_finished_secret_deal_is_sent_as_a_challenge_of_three_rounds(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    app = PatienceApp(server.url, name="alice", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await pilot.press("n")  # a secret deal of the first game listed
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert not board.check_action("challenge", ())  # not while it is played
        await pilot.press("R", "R")
        await until(pilot, lambda: board.view.state == "resigned")
        assert board.check_action("challenge", ()) and board.check_action("replay", ())
        await pilot.press("C")
        await until(pilot, lambda: isinstance(app.screen, SendScreen))
        send = app.screen
        assert isinstance(send, SendScreen)
        await pilot.press("3")
        await until(pilot, lambda: send.sent is not None)
        assert send.sent is not None
        shown = text_of(send.query_one("#send-text", Static))
        assert send.sent.id in shown and f"/challenge/{send.sent.id}" in shown
        assert "best of 3" in shown
    bob = await open_connection("bob")
    seen = await bob.request(ChallengeGet(challenge=send.sent.id), ChallengeReply)
    assert seen.challenge.challenger_name == "alice" and seen.challenge.match.best_of == 3


async def test_the_ghost_the_result_side_by_side_and_a_rematch_on_a_new_deal(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    alice = await open_connection("alice")
    game = (await alice.request(StartGame(variant="freecell"), GameReply)).game
    moved = await alice.request(MoveRequest(game=game.id, ply=0, move=game.legal[0]), GameReply)
    await alice.request(Resign(game=game.id, ply=moved.game.ply), GameReply)
    sent = (await alice.request(ChallengeCreate(game=game.id, best_of=3), ChallengeReply)).challenge
    app = PatienceApp(server.url, name="bob", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        assert isinstance(home, HomeScreen)
        await app.accept_challenge(sent.id, home)
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen.is_mounted)
        board = app.screen
        assert isinstance(board, BoardScreen) and isinstance(board.side, GhostPanel)
        ghost = board.side
        # alice made her move within a second of dealing: her ghost shows it soon
        await until(pilot, lambda: ghost.ghost is not None and ghost.ghost.moves == 1, 15)
        shown = text_of(ghost)
        assert "alice's ghost" in shown and "1 moves" in shown and "you: 0 moves" in shown
        assert not board.check_action("restart", ())  # a challenge's game is played once
        await pilot.press("R", "R")
        await until(pilot, lambda: isinstance(app.screen, ResultScreen) and app.screen.is_mounted)
        result = app.screen
        assert isinstance(result, ResultScreen)
        await until(pilot, lambda: len(result.query(".result-side")) == 2)
        sides = [text_of(s) for s in result.query(".result-side").results(Static)]
        assert len(sides) == 2 and sides[0].startswith("alice resigned")
        assert sides[1].startswith("bob resigned")
        assert "best of 3: alice" in text_of(result.query_one("#result-match", Static))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, BoardScreen) and app.screen is not board)
        second = app.screen
        assert isinstance(second, BoardScreen)
        assert "round 2, you play first" in second.info_text().plain
        assert second.view.deal.commitment != board.view.deal.commitment  # a new deal


async def test_a_live_best_of_three_match_with_the_rooms_other_racer(
    server: ServerControl, tmp_path: Path, open_connection: OpenConnection
) -> None:
    host = await open_connection("hana")
    room = (await host.request(CreateRoom(variant="freecell"), RoomReply)).room
    app = PatienceApp(server.url, name="ivan", store=TokenStore(tmp_path / "cfg"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        home = app.screen
        assert isinstance(home, HomeScreen)
        await app.join_race(room.code, home)
        await until(pilot, lambda: isinstance(app.screen, RaceScreen) and app.screen.is_mounted)
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        helped = screen.query_one("#room-help", Static)
        await until(pilot, lambda: "3 or 5: a best-of-three" in text_of(helped))
        await pilot.press("3")
        await until(pilot, lambda: "match best of 3: ivan 0 - 0 hana" in text_of(helped))
        assert not screen.check_action("match", (3,))  # one match at a time
