"""The board fits the window, in every game, on a desktop, a laptop and a phone: after a line of
moves that makes the long columns its variant comes to, every pile and card lies inside the
window without a scroll, and every tappable card offers at least 24x24 CSS px (WCAG 2.2), a phone
held sideways (844x390) too: there Gypsy's 16-card column takes the whole height, its stock and
foundations beside it.

With ``PATIENCE_SCREENSHOTS=DIR`` the test also saves each game's grown board there, desktop,
phone and phone held sideways, light and dark, English and French, every combination
(docs/screenshots is made so: tests/web/screenshots.py)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, client_faults, fit_problems, wait_ply
from tests.web.screenshots import SHOTS, save_shot
from tests.web.seats import Seat, growing_line, signed_in

#: (seed, moves) of a line that grows each game's columns (its foundations for Osmosis)
GROWN = {
    "osmosis": (5, 60),
    "thumb_and_pouch": (3, 80),
    "gypsy": (2, 15),
    "freecell": (3, 80),
    "westhaven": (3, 80),
}
VIEWPORTS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "laptop": {"viewport": {"width": 1366, "height": 768}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 1,
    },
    "phone held sideways": {
        "viewport": {"width": 844, "height": 390},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 1,
    },
}

#: the window of each device a screenshot is taken on (tests/web/screenshots.py)
SHOT_WINDOWS = {
    "desktop": VIEWPORTS["desktop"],
    "phone": VIEWPORTS["phone"],
    "sideways": VIEWPORTS["phone held sideways"],
}


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "fitter")
    yield player
    player.close()


def open_game(
    new_context: Callable[..., Any],
    live: LiveServer,
    token: str,
    game: dict[str, Any],
    **options: Any,
) -> Any:
    page = new_context(**signed_in(live.url, token, **options)).new_page()
    page.goto(f"{live.url}/game/{game['id']}")
    wait_ply(page, game["ply"])
    page.wait_for_timeout(50)  # the board is drawn again once it knows its room
    return page


@pytest.mark.parametrize("variant", sorted(GROWN))
def test_every_card_fits_and_offers_a_finger_24_px(
    variant: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    seed, plies = GROWN[variant]
    line = growing_line(variant, seed, plies)
    start = seat.play(variant, seed, [])
    grown = seat.play(variant, seed, line)
    engine = new_game(variant, seed=seed)
    for move in line:
        engine.play(move)
    for name, options in VIEWPORTS.items():
        for game in (start, grown):
            page = open_game(new_context, live, seat.token, game, **options)
            faults = client_faults(page)
            assert fit_problems(page) == [], (variant, name, game["ply"])
            if game is grown:
                assert_board(page, engine)  # the board drawn is the engine's, every card
            assert faults == []
            page.context.close()
    folder = os.environ.get("PATIENCE_SCREENSHOTS")
    if folder:
        for device, scheme, lang in SHOTS:
            page = open_game(
                new_context,
                live,
                seat.token,
                grown,
                lang=lang,
                color_scheme=scheme,
                **SHOT_WINDOWS[device],
            )
            page.locator(BOARD).wait_for()
            save_shot(page, Path(folder) / f"{variant}-{device}-{scheme}-{lang}.png")
            page.context.close()
