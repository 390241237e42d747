"""Season boards, profiles and the daily archive in the browser: the week's board after two
players' dailies, the rating board, a profile with its rating chart (an SVG with a table of
the same figures behind it), a hidden profile, and a past daily played unranked with its
board shown after. Screenshots on a desktop and a phone, light and dark, are made on the way
(``PATIENCE_SCREENSHOTS=folder`` keeps them)."""

from __future__ import annotations

import datetime
import os
from pathlib import Path
from typing import Any

from sqlalchemy import select

from server.app import App
from server.daily.deals import DAY_MS, utc_date
from server.storage.models import Game, Player, PlayerRating, RatingChange
from tests.server.pushes import fix_daily
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, client_faults, page_errors, register

KEY = bytes(range(32))


def resign_daily(page: Any, url: str) -> None:
    page.goto(f"{url}/daily/freecell")
    page.get_by_role("button", name="Start", exact=True).click()
    page.locator(f"{BOARD}[data-ply='0']").wait_for()
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()


def shots(new_context: Any, url: str, token_page: Any, paths: list[str], name: str) -> None:
    """Screenshots of ``paths`` as the player of ``token_page``: desktop and phone, light
    and dark; kept in $PATIENCE_SCREENSHOTS when it names a folder."""
    folder = os.environ.get("PATIENCE_SCREENSHOTS")
    storage = token_page.context.storage_state()
    for device, size in (("desktop", (1280, 800)), ("phone", (390, 844))):
        for scheme in ("light", "dark"):
            context = new_context(
                viewport={"width": size[0], "height": size[1]},
                color_scheme=scheme,
                storage_state=storage,
            )
            page = context.new_page()
            for path in paths:
                page.goto(f"{url}{path}")
                page.locator("#who", has_text=name).wait_for()
                page.locator("main h1").first.wait_for()
                page.wait_for_timeout(300)
                if folder:
                    label = path.strip("/").replace("/", "-").split("?")[0] or "home"
                    Path(folder).mkdir(parents=True, exist_ok=True)
                    shot = Path(folder) / f"{label}-{device}-{scheme}.png"
                    page.screenshot(path=str(shot), full_page=True)
                # nothing wider than the screen: the tables scroll inside their box
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size[0] + 1, (path, device, width)


def test_boards_and_a_profile_with_its_rating_chart(new_context: Any, live: LiveServer) -> None:
    today = utc_date(live.clock())
    live.call(lambda app: fix_daily(app, "freecell", today, KEY))
    alice, bob = new_context().new_page(), new_context().new_page()
    faults = [client_faults(page) for page in (alice, bob)]
    errors = [page_errors(page) for page in (alice, bob)]
    register(alice, f"{live.url}/", "alice")
    register(bob, f"{live.url}/", "bob")
    for page in (alice, bob):
        resign_daily(page, live.url)

    async def rate(app: App) -> None:
        async with app.db_sessions() as db, db.begin():
            pid = (await db.execute(select(Player.id).where(Player.name == "alice"))).scalar_one()
            games = (await db.execute(select(Game.id).where(Game.player_id == pid))).scalars()
            game = next(iter(games))
            db.add(
                PlayerRating(
                    player_id=pid,
                    variant="freecell",
                    rating=1563.0,
                    deviation=95.0,
                    volatility=0.06,
                    games=2,
                    updated_ms=0,
                )
            )
            # two rated races' history (keyed by game: the one game there is, and a second)
            second = Game(
                id="g-second",
                player_id=pid,
                variant="freecell",
                options={},
                seed=1,
                state="won",
                started_ms=0,
                ended_ms=1,
                updated_ms=1,
            )
            db.add(second)
            await db.flush()
            now = app.clock()
            for n, (game_id, rating) in enumerate(((game, 1540.0), ("g-second", 1563.0))):
                db.add(
                    RatingChange(
                        game_id=game_id,
                        player_id=pid,
                        variant="freecell",
                        race=f"AB/{n}",
                        rating_before=1500.0,
                        deviation_before=350.0,
                        rating_after=rating,
                        deviation_after=95.0,
                        volatility_after=0.06,
                        at_ms=now - (2 - n) * DAY_MS,
                    )
                )

    live.call(rate)

    # The week's board of every game: both played out a daily, 10 points each.
    alice.goto(f"{live.url}/")
    alice.get_by_role("link", name="Boards").click()
    table = alice.locator("table.season")
    table.wait_for()
    rows = table.locator("tbody tr").all_inner_texts()
    assert len(rows) == 2 and all("\t10\t1\t0" in row for row in rows), rows
    assert "Your place: 1, with 10 points" in alice.locator(".my-place").inner_text()
    alice.get_by_role("link", name="Freecell").click()
    alice.locator("table.season .rating", has_text="1563").wait_for()  # beside the name
    alice.get_by_role("link", name="Ratings").click()
    alice.locator("table.season tbody tr", has_text="alice").wait_for()
    assert "Your place: 1" in alice.locator(".my-place").inner_text()

    # bob opens alice's profile from the board: her chart and the figures behind it
    bob.goto(f"{live.url}/boards?period=rating&variant=freecell")
    bob.get_by_role("link", name="alice").click()
    bob.wait_for_url(f"{live.url}/player/alice")
    chart = bob.get_by_role("img", name="Freecell rating over time")
    chart.wait_for()
    assert chart.evaluate("(svg) => svg.querySelectorAll('circle').length") == 2
    bob.get_by_text("Show the figures").click()
    figures = bob.locator(".chart-table tbody tr").all_inner_texts()
    assert [row.split("\t")[1] for row in figures] == ["1540 (\u00b195)", "1563 (\u00b195)"]
    games = bob.locator("#p-games + p + .scroll table").inner_text()
    assert "Freecell" in games
    assert bob.locator("#p-dailies").is_visible()
    assert "null" not in bob.locator("main").inner_text() and bob.locator("#p-arenas").count() == 0
    # today's daily is not offered as a replay: its deal is secret until the day ends
    assert bob.locator(".recent a").count() == 1  # the numbered game only
    assert bob.locator(".recent a").get_attribute("href") == "/replay/g-second"

    # alice hides her profile: bob sees her name and no more
    alice.goto(f"{live.url}/player/alice")
    alice.get_by_label("Hide my profile from other players").check()
    alice.get_by_text("Hidden: others see only your name.").wait_for()
    bob.reload()
    bob.get_by_text("alice keeps their profile private.").wait_for()
    assert bob.locator("svg.chart").count() == 0
    alice.get_by_label("Hide my profile from other players").uncheck()
    alice.get_by_text("Shown to everyone.").wait_for()

    shots(
        new_context,
        live.url,
        alice,
        ["/boards?period=week&variant=freecell", "/player/alice"],
        "alice",
    )
    assert all(not f for f in faults) and all(not e for e in errors)


def test_a_past_daily_is_played_unranked_then_its_board_shows(
    new_context: Any, live: LiveServer
) -> None:
    yesterday = (
        datetime.date.fromisoformat(utc_date(live.clock())) - datetime.timedelta(days=1)
    ).isoformat()
    live.call(lambda app: fix_daily(app, "freecell", yesterday, KEY))
    page = new_context().new_page()
    faults, errors = client_faults(page), page_errors(page)
    register(page, f"{live.url}/leaderboard/freecell?date={yesterday}", "carol")
    page.get_by_text("No attempt ended on that day.").wait_for()
    page.get_by_role("link", name=f"Play the deal of {yesterday} (unranked)").click()
    page.wait_for_url(f"{live.url}/daily/freecell?date={yesterday}")
    page.get_by_text("from the archive: unranked").wait_for()
    assert page.locator(".leaderboard").is_hidden()
    page.locator(f"{BOARD}[data-ply='0']").wait_for()
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    board = page.locator(".leaderboard")
    board.get_by_text("No attempt ended on that day.").wait_for()  # unranked: carol is not on it
    assert f"Freecell \u00b7 {yesterday}" in board.inner_text()
    assert not faults and not errors
