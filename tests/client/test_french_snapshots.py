"""The main screens in French at 80x24 (the smallest terminal the client fits), beside the
English ones of tests/client/test_board_snapshots.py, from the same fixed protocol messages:
each also read as text, so that a French word too long for its place (a footer short of its
last key, a label cut) fails here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Static

from client.app import PatienceApp
from client.screens.leaderboard import LeaderboardScreen
from shared.protocol import LeaderboardReply
from tests.client.board_app import engine_view
from tests.client.screens_app import ScreensApp
from tests.client.test_app import text_of
from tests.client.test_board_snapshots import (
    SEED,
    STANDINGS,
    Make,
    board,
    home_screen,
    in_race,
    uncut,
)

SIZE = (80, 24)


def snap_fr(tmp_path: Path, snap_compare: Any, make: Make, **kwargs: Any) -> None:
    assert snap_compare(ScreensApp(make, tmp_path, lang="fr"), terminal_size=SIZE, **kwargs)


def test_home_in_french(snap_compare: Any, tmp_path: Path) -> None:
    def listed(app: PatienceApp) -> bool:
        return len(app.screen.query("#variants > ListItem")) == len(app.variant_ids) + 3

    shown = ["Reprendre une partie", "Freecell #617", "course donne 3fa2c1d0", "Entrer", "Voir",
             "Classement", "jour #3 gagnée 01:23 95 coups", "1 en cours", "o Option",
             "c Course", "Freecell : 2/4 gagnées", "^q Quitter"]  # fmt: skip
    snap_fr(tmp_path, snap_compare, home_screen, run_before=uncut(*shown, ready=listed))


def test_a_freecell_board_in_french(snap_compare: Any, tmp_path: Path) -> None:
    view = engine_view("freecell", SEED, ())
    shown = ["score 0/52", "coups 0", "u Annuler", "h Indice", "a Auto", "R Abandon",
             "esc Retour", "^q Quitter"]  # fmt: skip
    # a face card as the French face shows it: valet, dame, roi
    snap_fr(tmp_path, snap_compare, board(view), run_before=uncut(*shown, "R♠", absent=("K♠",)))


def test_the_race_room_in_french(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        in_race(app, over=False)
        return app.race_screen()

    shown = ["salon K7QF2M", "robot_the_great (robot)", "regardent : dan", "posées", "état",
             "en course", "b Ma table", "l Quitter le salon", "^q Quitter"]  # fmt: skip
    snap_fr(tmp_path, snap_compare, make, run_before=uncut(*shown))


def test_a_race_board_with_its_standings_in_french(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        in_race(app, over=True)
        return app.race_board()

    shown = ["Classement", "robot_the_great", "abandonnée", "résultat", "sans indices"]
    snap_fr(tmp_path, snap_compare, make, run_before=uncut(*shown, absent=("h Indice",)))


def test_a_leaderboard_in_french(snap_compare: Any, tmp_path: Path) -> None:
    def make(app: PatienceApp) -> Screen[None]:
        return app.leaderboard_screen("freecell", "2026-01-02")

    check = uncut("autre jour :", "AAAA-MM-JJ", "Jeu précédent", "Jeu suivant", "vous : #2")

    async def run_before(pilot: Pilot[int]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, LeaderboardScreen)
        for _ in range(250):
            if "impossible de joindre" in text_of(screen.query_one("#me", Static)):
                break  # the link is down here: the reply below is what a server answers
            await pilot.pause(0.02)
        screen.show(
            LeaderboardReply(
                variant="freecell", date="2026-01-02", entries=STANDINGS, me=STANDINGS[1]
            )
        )
        await check(pilot)

    snap_fr(tmp_path, snap_compare, make, run_before=run_before)
