# ruff: noqa: RUF001
"""The terminal client played in French against the real server: the name screen, home and the
board speak French, the engine's refusal of a move reads in French with the board's names
(client/i18n/reasons.py), and resigning ends in French."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from client.app import PatienceApp
from client.config import TokenStore
from client.layout import key_of
from client.screens.connecting import NameScreen
from client.screens.home import HomeScreen
from tests.client.conftest import ServerControl
from tests.client.screens_app import screen_text
from tests.client.test_app import SIZE, register_and_open_freecell, text_of, until


async def test_a_game_played_in_french_is_refused_and_resigned_in_french(
    server: ServerControl, tmp_path: Path
) -> None:
    app = PatienceApp(server.url, store=TokenStore(tmp_path / "cfg"), lang="fr")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NameScreen) and app.screen.is_mounted)
        await until(pilot, lambda: "^q Quitter" in screen_text(app))
        assert "Bienvenue ! Choisissez un nom de joueur" in screen_text(app)
        board = await register_and_open_freecell(pilot, "zoe", 617)
        assert "coups 0" in board.info_text().plain
        await until(pilot, lambda: "R Abandon" in screen_text(app))

        # A move the engine refuses: its reason, in French, names piles and cards as the board.
        before = board.view
        illegal = next(
            f"t{a}>t{b}"
            for a in range(8)
            for b in range(8)
            if a != b and f"t{a}>t{b}" not in before.legal
        )
        src, dst = illegal.split(">")
        await pilot.press(key_of(src), key_of(dst))
        message = board.query_one("#message", Static)
        await until(pilot, lambda: "n’est pas jouable maintenant : " in text_of(message))
        said = text_of(message)
        assert said.startswith(f"{key_of(src)}→{key_of(dst)}"), said
        assert "ne peut pas" in said or "cartes ne peuvent pas" in said, said
        assert "not legal" not in said and "cannot" not in said, said
        assert board.view.ply == 0

        # Resigning asks twice, then the end reads in French.
        await pilot.press("R")
        assert "appuyez encore sur R pour abandonner" in text_of(message)
        await pilot.press("R")
        await until(pilot, lambda: board.view.state == "resigned")
        await until(pilot, lambda: "partie abandonnée" in text_of(message))
        assert "ABANDONNÉE" in board.info_text().plain

        # Back home, the game is counted in French.
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HomeScreen) and app.screen.is_mounted)
        await until(pilot, lambda: "Freecell : 0/1 gagnées" in screen_text(app))
        await pilot.press("ctrl+q")
