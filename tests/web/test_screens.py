"""Every screen on a phone: at 390x844, in English and in French (home, arenas and an arena,
leaderboard, profile, boards, replay, daily, games, a challenge), no page runs off the right
edge (nothing cut, no sideways scroll), no form's label lies over its field, and the panels
that open over the page (settings, rules) fit the window; a race, on a phone held upright and
held sideways, shows its whole board where the page opens (the room's facts beside or below)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.web.conftest import LiveServer
from tests.web.pages import fit_problems, page_errors
from tests.web.seats import Seat, signed_in
from tests.web.test_fit import VIEWPORTS

#: a panel open over the page lies inside the window
DIALOG = """() => {
  const r = document.querySelector('dialog[open]').getBoundingClientRect();
  return r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
}"""
CUT = (Path(__file__).parent / "cut_problems.js").read_text()


def cut(page: Any) -> list[str]:
    return page.evaluate(CUT)  # type: ignore[no-any-return]


def test_every_screen_fits_a_phone_in_both_languages(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    player = "Berenice_Dupont-Lafont"  # a long name in the header and the profile
    seat = Seat(live.url, player)
    ended = seat.play("freecell", 617, ["t0>r0", "t0>r1"])
    seat.request("resign", game=ended["id"], ply=ended["ply"])
    playing = seat.play("gypsy", 2, [])
    keyed = seat.request("start_game", variant="freecell")["game"]
    seat.request("resign", game=keyed["id"], ply=0)
    challenge = seat.request("challenge_create", game=keyed["id"], best_of=3)["challenge"]
    for lang in ("en", "fr"):
        phone = signed_in(live.url, seat.token, lang=lang, **VIEWPORTS["phone"])
        page = new_context(**phone).new_page()
        errors = page_errors(page)
        screens = {
            "/": "#race-variant",
            "/arenas": "#arena-variant",
            "/leaderboard/freecell": ".tabs",
            f"/player/{player}": "table",
            "/boards": ".tabs",
            f"/replay/{ended['id']}": ".replay .board",
            "/daily/freecell": "h1",
            f"/game/{playing['id']}": ".game .board",
            "/play/thumb_and_pouch": ".game .board",
            f"/challenge/{challenge['id']}": ".challenge-link",
        }
        for path, ready in screens.items():
            page.goto(live.url + path)
            page.locator(ready).first.wait_for()
            page.wait_for_timeout(150)
            assert cut(page) == [], (lang, path)
        # the panels over the page: settings, then a game's rules
        page.goto(f"{live.url}/")
        page.locator(".settings-button").click()
        page.locator("dialog[open]").wait_for()
        assert page.evaluate(DIALOG), (lang, "settings")
        assert cut(page) == [], (lang, "settings")
        page.keyboard.press("Escape")
        page.locator(".variant .linkish").first.click()
        page.locator("dialog[open]").wait_for()
        assert page.evaluate(DIALOG), (lang, "rules")
        assert cut(page) == [], (lang, "rules")
        page.keyboard.press("Escape")
        # a private arena made from its form, and its page
        page.goto(f"{live.url}/arenas")
        page.locator(".create-arena button[type=submit]").click()
        page.wait_for_url(re.compile(r"/arena/[A-Za-z0-9]+$"))
        page.locator(".arena-clock").wait_for()
        assert cut(page) == [], (lang, "arena", cut(page))
        assert errors == [], lang


def test_a_race_shows_its_whole_board_on_a_phone_upright_and_sideways(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    for name in ("phone", "phone held sideways"):
        host = Seat(live.url, f"host{len(name)}")
        rival = Seat(live.url, f"rival{len(name)}")
        code = host.request("create_room", variant="gypsy")["room"]["code"]
        rival.request("join_room", code=code)
        page = new_context(**signed_in(live.url, host.token, **VIEWPORTS[name])).new_page()
        errors = page_errors(page)
        page.goto(f"{live.url}/race/{code}")
        page.locator(".members li", has_text="rival").wait_for()
        assert cut(page) == [], name
        page.get_by_role("button", name="Start race").click()
        page.locator(".own .game .board").wait_for()
        page.locator(".strip .progress li", has_text="rival").wait_for()
        page.wait_for_timeout(200)
        problems = fit_problems(page)
        if name == "phone":  # the room's facts below the board, a scroll away
            problems = [p for p in problems if not p.startswith("the page scrolls")]
        assert problems == [], name
        assert cut(page) == [], name
        # the board plays there: a deal
        page.get_by_role("button", name="Deal", exact=True).click()
        page.locator(".own .game .board[data-ply='1']").wait_for()
        assert errors == [], name
        host.close()
        rival.close()
