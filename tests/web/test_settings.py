"""Settings kept in the browser survive a reload (card size, four-colour deck, card back,
animation speed, sounds, autoplay, left-handed) and apply; Redo plays
again what Undo took back; the move list follows the line in the board's names, and Restart
deals the same deal again."""

from __future__ import annotations

from typing import Any

import msgpack

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import (
    BOARD,
    assert_board,
    click_move,
    client_faults,
    pile,
    register,
    top_card,
    wait_ply,
)
from tests.web.test_end import NOTATION


def card_width(page: Any) -> float:
    return float(page.locator(f"{BOARD} [data-card]").first.bounding_box()["width"])


def test_settings_survive_a_reload(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    large = card_width(page)
    page.get_by_role("button", name="Settings").click()
    page.get_by_label("Card size").select_option("small")
    page.get_by_label("Four-colour deck").check()
    page.get_by_role("button", name="Close").click()
    page.wait_for_function(
        "() => document.querySelector('.board [data-card]').getBoundingClientRect().width <= 64"
    )
    assert card_width(page) < large
    page.reload()
    wait_ply(page, 0)
    assert card_width(page) <= 64
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    red = page.locator(f"{BOARD} .card.suit-D").first.evaluate("c => getComputedStyle(c).color")
    assert red == "rgb(31, 95, 191)"  # diamonds blue
    page.get_by_role("button", name="Settings").click()
    assert page.get_by_label("Card size").input_value() == "small"


def test_every_setting_survives_a_reload_and_applies(page: Any, live: LiveServer) -> None:
    """Card back, animation speed, sounds (off until chosen), autoplay in every game that
    offers it, the left-handed layout: chosen, kept after a reload, and applied."""
    faults = client_faults(page)
    options: list[dict[str, Any]] = []

    def frame(data: bytes | str) -> None:
        message = msgpack.unpackb(data) if isinstance(data, bytes) else {}
        if message.get("type") == "game":
            options.append(message["game"]["options"])

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    register(page, f"{live.url}/", "alice")
    page.get_by_role("button", name="Settings").click()
    assert not page.get_by_label("Sounds", exact=False).is_checked()  # off by default
    assert page.locator("#set-autoplay").is_checked()  # the server's default
    page.get_by_label("Card back").select_option("red")
    page.get_by_label("Moves animate").select_option("fast")
    page.get_by_label("Sounds", exact=False).check()
    page.locator("#set-autoplay").uncheck()
    page.get_by_label("Left-handed", exact=False).check()
    page.get_by_role("button", name="Close").click()
    page.reload()
    page.locator("#who", has_text="alice").wait_for()
    classes = page.evaluate("[...document.documentElement.classList]")
    assert {"back-red", "left-handed"} <= set(classes) and "back-blue" not in classes
    back = "getComputedStyle(document.documentElement).getPropertyValue('--back-a').trim()"
    assert page.evaluate(back) == "#9c2a22"
    page.get_by_role("button", name="Settings").click()
    assert page.get_by_label("Card back").input_value() == "red"
    assert page.get_by_label("Moves animate").input_value() == "fast"
    assert page.get_by_label("Sounds", exact=False).is_checked()
    assert not page.locator("#set-autoplay").is_checked()
    assert page.get_by_label("Left-handed", exact=False).is_checked()
    page.get_by_role("button", name="Close").click()

    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    assert options[-1] == {"autoplay": False}  # the setting, sent with the new game
    page.evaluate(
        "window.heard = []; document.addEventListener('pc-sound', (e) => heard.push(e.detail.name))"
    )
    click_move(page, "t7", "t1")
    wait_ply(page, 1)
    top_card(page, "t4").click(position={"x": 8, "y": 6})
    pile(page, "t0").click(position={"x": 8, "y": 6})  # refused by the server
    page.locator(".message", has_text="Refused").wait_for()
    assert page.evaluate("window.heard") == ["move", "refusal"]
    # left-handed: the foundations are on the left of the free cells
    x = {p: pile(page, p).bounding_box()["x"] for p in ("r0", "f0")}
    assert x["f0"] < x["r0"], x
    assert faults == []


def test_redo_plays_again_what_undo_took_back(page: Any, live: LiveServer) -> None:
    faults = client_faults(page)
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    redo = page.get_by_role("button", name="Redo", exact=True)
    assert redo.is_disabled()
    game = new_game("freecell", seed=617)
    click_move(page, "t7", "t1")
    game.play("t7>t1")
    assert_board(page, game)
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_ply(page, 2)
    assert redo.is_enabled()
    redo.click()
    wait_ply(page, 3)
    game.play("undo")
    game.play("t7>t1")
    assert_board(page, game)
    assert redo.is_disabled()
    assert faults == []


def test_the_move_list_follows_the_line_and_restart_deals_the_deal_again(
    page: Any, live: LiveServer
) -> None:
    faults = client_faults(page)
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    first = page.url
    game = new_game("freecell", seed=617)
    for src, dst in (("t7", "t1"), ("t3", "r0")):
        click_move(page, src, dst)
        game.play(f"{src}>{dst}")
        assert_board(page, game)
    summary = page.locator(".move-list summary")
    assert summary.inner_text() == "Moves"
    summary.click()
    items = page.locator(".move-list li").all_inner_texts()
    assert len(items) == 2 and all(" from tableau " in item for item in items), items
    assert not any(NOTATION.search(item) for item in items), items
    assert any(s in items[0] for s in "\u2660\u2665\u2666\u2663"), items  # cards as faces show them
    page.get_by_role("button", name="Undo", exact=True).click()
    wait_ply(page, 3)
    assert page.locator(".move-list li").count() == 1  # the undone move is off the line

    page.get_by_role("button", name="Restart", exact=True).click()
    page.get_by_role("button", name="Yes, restart").click()
    page.wait_for_url(lambda url: url != first and "/game/" in url)
    wait_ply(page, 0)
    assert_board(page, new_game("freecell", seed=617))  # the same deal, from the start
    assert page.locator(".move-list li").count() == 0
    # a resumed solo game knows it is one: it can be restarted too
    page.reload()
    wait_ply(page, 0)
    assert page.get_by_role("button", name="Restart", exact=True).count() == 1
    assert faults == []
