"""Playing a game in the browser: register, Freecell #617 by drag, clicks and keys, undo, hint,
send home by double-click, refusals, resuming, every variant, and going offline mid-game."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server.config import Config
from shared.game import Game
from shared.games import new_game
from shared.variants import STANDARD
from tests.web.conftest import LiveServer
from tests.web.pages import (
    BOARD,
    assert_board,
    click_move,
    client_faults,
    drag,
    drawn,
    first_pile_move,
    key_move,
    page_errors,
    pile,
    register,
    top_card,
    wait_ply,
)


def start(page: Any, live: LiveServer, path: str, name: str = "alice") -> None:
    register(page, f"{live.url}/", name)
    page.goto(f"{live.url}{path}")
    wait_ply(page, 0)


def test_register_then_play_freecell_617_by_drag_clicks_and_keys(
    page: Any, live: LiveServer
) -> None:
    faults = client_faults(page)
    errors = page_errors(page)
    register(page, f"{live.url}/", "alice")
    page.get_by_text("Welcome, alice").wait_for()
    assert page.evaluate("() => localStorage.getItem('patience-club.token')")
    page.goto(f"{live.url}/play/freecell?seed=617")
    game = new_game("freecell", seed=617)
    assert_board(page, game)
    assert re.search(r"/game/[\w-]+$", page.url), "a new game's address resumes it"
    assert page.get_by_text("deal #617").is_visible()

    drag(page, top_card(page, "t4"), pile(page, "r0"))  # JC to a free cell
    game.play("t4>r0")
    assert_board(page, game)

    click_move(page, "t7", "t1")  # QH onto KS: the card, then the destination
    game.play("t7>t1")
    assert_board(page, game)

    move = (
        first_pile_move(game, to="t")
        if any(">t" in m and ":" not in m for m in game.legal_moves())
        else first_pile_move(game)
    )
    key_move(page, move)
    game.play(move)
    assert_board(page, game)

    page.get_by_role("button", name="Undo").click()
    game.play("undo")
    assert_board(page, game)
    assert "Moves 4" in page.locator(".status").inner_text()
    assert page.locator("#live").inner_text().strip(), "moves are announced"
    assert faults == []
    assert errors == []


def test_hint_lights_a_move_and_enter_plays_it(page: Any, live: LiveServer) -> None:
    start(page, live, "/play/freecell?seed=617")
    page.get_by_role("button", name="Hint").click()
    page.locator(".message", has_text="Hint:").wait_for()
    assert page.locator(f"{BOARD} .hinted").count() >= 1
    page.keyboard.press("Enter")
    wait_ply(page, 1)


def test_a_hint_asked_too_soon_is_busy_in_words(page: Any, web_config: Config) -> None:
    # One hint per player in a short while: the second is refused ``busy`` however fast the
    # first was answered (a hint of Freecell #617 now takes the solver a few milliseconds,
    # so "asked while the first is worked out" no longer happens on cue).
    live = LiveServer(web_config.replace(hint_burst=1)).start()
    try:
        start(page, live, "/play/freecell?seed=617")
        page.locator(BOARD).focus()
        page.keyboard.press("h")
        page.locator(".message", has_text="Hint:").wait_for()
        page.keyboard.press("h")
        page.locator("#live", has_text="The server is busy working out a hint").wait_for()
    finally:
        live.stop()


def test_held_card_lights_its_legal_targets_and_a_refusal_is_shown(
    page: Any, live: LiveServer
) -> None:
    start(page, live, "/play/freecell?seed=617")
    game = new_game("freecell", seed=617)
    top_card(page, "t4").click(position={"x": 8, "y": 6})
    lit = set(page.eval_on_selector_all("[data-target]", "els => els.map(e => e.dataset.pile)"))
    assert lit == {m.split(">")[1] for m in game.legal_moves() if m.startswith("t4>")}
    pile(page, "t0").click(position={"x": 8, "y": 6})  # JC onto JD: refused by the server
    page.locator(".message", has_text="Refused").wait_for()
    assert_board(page, game)  # put back as the server has it


def double_click_position() -> tuple[Game, list[str], str]:
    """Freecell #617 without autoplay, with t6's four top cards in the cells: AS on top."""
    line = ["t6>r0", "t6>r1", "t6>r2", "t6>r3"]
    probe = new_game("freecell", seed=617, options={"autoplay": False})
    for move in line:
        probe.play(move)
    assert "t6>f0" in probe.legal_moves()
    return new_game("freecell", seed=617, options={"autoplay": False}), line, "t6"


def test_double_click_sends_a_card_home(page: Any, live: LiveServer) -> None:
    game, line, src = double_click_position()
    start(page, live, "/play/freecell?seed=617&autoplay=0")
    for move in line:
        key_move(page, move)
        game.play(move)
        assert_board(page, game)
    top_card(page, src).dblclick(position={"x": 8, "y": 6})
    game.play(f"{src}>f")
    assert_board(page, game)
    assert "Score 1/52" in page.locator(".status").inner_text()


def test_controls_keys_help_and_names_in_words(page: Any, live: LiveServer) -> None:
    start(page, live, "/play/gypsy?seed=5")  # a game with a stock has a Deal button
    for name in ("Deal", "Undo", "Hint", "Auto", "Resign"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    for name in ("Undo", "Hint", "Auto", "Resign"):
        assert page.get_by_role("button", name=name, exact=True).count() == 1
    assert page.get_by_role("button", name="Deal", exact=True).count() == 0  # no stock
    top = page.locator(BOARD).bounding_box()["y"]
    page.get_by_text("Keys", exact=True).click()
    assert page.locator(BOARD).bounding_box()["y"] == top  # the help opens over the page
    help_text = page.locator("details.keys").inner_text()
    for words in ("tableau", "free cells", "undo", "resign", "F1"):
        assert words in help_text
    for absent in ("waste", "deal (the stock)", "F5"):  # only Freecell's own piles
        assert absent not in help_text
    assert page.get_by_role("button", name="queen of hearts").count() == 1
    assert page.get_by_role("group", name="free cell 1: empty").count() == 1
    page.get_by_role("button", name="Resign", exact=True).click()
    page.get_by_role("button", name="Yes, resign").click()
    page.locator(f"{BOARD}[data-state='resigned']").wait_for()
    page.get_by_text("Resigned with 0 of 52.").wait_for()


def test_a_game_resumes_at_its_address_after_a_reload(page: Any, live: LiveServer) -> None:
    start(page, live, "/play/freecell?seed=617")
    game = new_game("freecell", seed=617)
    click_move(page, "t7", "t1")
    game.play("t7>t1")
    assert_board(page, game)
    page.reload()
    assert_board(page, game)


@pytest.mark.parametrize(
    "variant", ["osmosis", "thumb_and_pouch", "gypsy", "freecell", "westhaven"]
)
def test_each_game_opens_and_plays_a_move(page: Any, live: LiveServer, variant: str) -> None:
    """Each game's board is laid out as the server's VariantInfo says (its rows, gaps and
    fans: the client has no table of its own), shows the engine's position, and plays."""
    start(page, live, f"/play/{variant}?seed=617")
    game = new_game(variant, seed=617)
    assert_board(page, game)
    layout = STANDARD.rules(variant).layout
    rows = page.eval_on_selector_all(
        f"{BOARD} .row",
        "rows => rows.map(r => [...r.children].map(c => c.dataset.pile ?? ''))",
    )
    assert rows == [list(row) for row in layout.rows]
    fans = {pid: fan for pid, (fan, _down, _cards) in drawn(page).items()}
    assert fans == dict(layout.fan)
    moves = [m for m in game.legal_moves() if ">" in m and ":" not in m]
    if moves:
        src, dst = moves[0].split(">")
        click_move(page, src, dst)
        game.play(moves[0])
    else:
        pile(page, "s").click()
        game.play("deal")
    assert_board(page, game)


def test_a_move_made_offline_is_sent_once_back(new_context: Any, live: LiveServer) -> None:
    context = new_context()
    page = context.new_page()
    start(page, live, "/play/freecell?seed=617")
    game = new_game("freecell", seed=617)
    context.set_offline(True)
    live.drop_connections()
    page.locator("#link-status", has_text="offline").wait_for()
    click_move(page, "t7", "t1")
    page.locator(".message", has_text="Offline").wait_for()
    assert page.locator(BOARD).get_attribute("data-ply") == "0"  # drawn, not yet the server's
    assert (
        page.locator(f"{BOARD} [data-pile='t1'] [data-card]").last.get_attribute("data-card")
        == "QH"
    )
    context.set_offline(False)
    game.play("t7>t1")
    assert_board(page, game)
    page.reload()
    assert_board(page, game)  # played once: the server's ply is 1


def test_a_move_whose_reply_is_lost_is_sent_again_and_played_once(
    page: Any, web_config: Config
) -> None:
    """The server holds each reply until its commit (here 800 ms later); the link is cut while
    the move waits for it. The client sends the move again with the same ply once back, and the
    server answers the retry with its view instead of playing the move a second time."""
    live = LiveServer(web_config.replace(commit_delay_ms=800)).start()
    try:
        sent: list[bytes | str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(frame)))
        start(page, live, "/play/freecell?seed=617")
        game = new_game("freecell", seed=617)
        click_move(page, "t7", "t1")
        assert page.locator(BOARD).get_attribute("data-ply") == "0"
        assert live.drop_connections() == 1
        game.play("t7>t1")
        assert_board(page, game)
        assert sum(1 for frame in sent if b"t7>t1" in frame) == 2, "sent, then sent again"
        page.reload()
        assert_board(page, game)  # ply 1: played once
    finally:
        live.stop()
