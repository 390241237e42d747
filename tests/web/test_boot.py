"""The first board's chain: a returning player's page asks for its game before main.js runs.

boot.js (index.html's first module, ``async``) opens the WebSocket with the kept token and
sends ``start_game`` beside hello (the page names each variant's options), while main.js and
the game's modules still arrive: the server stores the game meanwhile, and main.js takes the
connection and that reply over (one WebSocket, one ``start_game``, no round trip left for
after the modules have run, nor one for the welcome before it).
"""

from __future__ import annotations

import re
from typing import Any

import msgpack

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import assert_board, client_faults, page_errors, register


def frames_sent(
    page: Any, log: list[tuple[str, str]] | None = None
) -> tuple[list[Any], list[dict[str, Any]]]:
    """The page's WebSockets as they open, and every message sent on them, decoded; ``log``
    gets ("sent" or "received", type) of each frame, in order."""
    sockets: list[Any] = []
    sent: list[dict[str, Any]] = []
    order = log if log is not None else []

    def decoded(frame: bytes | str) -> dict[str, Any]:
        return msgpack.unpackb(frame) if isinstance(frame, bytes) else {"text": frame}

    def on_sent(frame: bytes | str) -> None:
        sent.append(decoded(frame))
        order.append(("sent", str(sent[-1].get("type"))))

    def opened(ws: Any) -> None:
        sockets.append(ws)
        ws.on("framesent", on_sent)
        ws.on("framereceived", lambda f: order.append(("received", str(decoded(f).get("type")))))

    page.on("websocket", opened)
    return sockets, sent


def test_start_game_is_sent_and_stored_before_main_js_arrives(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    faults, errors = client_faults(page), page_errors(page)
    log: list[tuple[str, str]] = []
    sockets, sent = frames_sent(page, log)
    held: list[Any] = []
    # main.js (and so the whole app) is held back until the game has been asked for
    page.route("**/js/main.js", lambda route: held.append(route))
    page.goto(f"{live.url}/play/freecell?seed=617", wait_until="commit")
    page.wait_for_timeout(0)
    for _ in range(200):
        if held and ("received", "game") in log:
            break
        page.wait_for_timeout(50)
    assert held, "main.js was asked for"
    kinds = [m.get("type") for m in sent]
    assert kinds == ["hello", "start_game"], f"before main.js ran the page sent {kinds}"
    assert sent[1]["variant"] == "freecell" and sent[1]["seed"] == 617
    # beside hello, in the same round trip: sent before the welcome came back (the page names
    # each variant's options, so no welcome is waited for)
    assert log.index(("sent", "start_game")) < log.index(("received", "welcome")), log
    assert log[-1] == ("received", "game"), "the game was stored and answered meanwhile"
    held[0].continue_()
    assert_board(page, new_game("freecell", seed=617))
    assert re.search(r"/game/[\w-]+$", page.url)
    page.wait_for_timeout(300)
    # main.js took that connection and that reply over: one socket, one game asked for
    assert len(sockets) == 1
    assert [m.get("type") for m in sent].count("start_game") == 1
    assert page.locator("#link-status[data-online='true']").count() == 1
    assert not faults and not errors


def test_a_page_without_a_token_opens_nothing_before_the_name(page: Any, live: LiveServer) -> None:
    sockets, _ = frames_sent(page)
    page.goto(f"{live.url}/play/freecell?seed=617")
    page.get_by_label("Name", exact=True).wait_for()
    page.wait_for_timeout(300)
    assert sockets == []


def test_a_token_the_server_forgot_brings_back_the_name_form(page: Any, live: LiveServer) -> None:
    page.goto(f"{live.url}/")
    page.evaluate("() => localStorage.setItem('patience-club.token', 'not-a-token-of-anyone')")
    page.goto(f"{live.url}/play/freecell?seed=617")
    page.get_by_label("Name", exact=True).wait_for()
    assert page.evaluate("() => localStorage.getItem('patience-club.token')") is None


def test_options_of_the_address_and_of_home_go_with_the_early_start_game(
    page: Any, live: LiveServer
) -> None:
    register(page, f"{live.url}/", "bob")
    page.evaluate(
        "() => { localStorage.setItem('patience-club.options.osmosis', "
        "JSON.stringify({deal_three: true}));"
        " localStorage.setItem('patience-club.settings', JSON.stringify({autoplay: false})); }"
    )
    _, sent = frames_sent(page)
    page.goto(f"{live.url}/play/osmosis?seed=5")
    page.locator(".game .board[data-ply='0']").wait_for()
    page.goto(f"{live.url}/play/freecell?seed=9&autoplay=1")
    page.locator(".game .board[data-ply='0']").wait_for()
    page.goto(f"{live.url}/play/freecell?seed=9")
    page.locator(".game .board[data-ply='0']").wait_for()
    starts = [m for m in sent if m.get("type") == "start_game"]
    assert [(m["variant"], m["options"]) for m in starts] == [
        ("osmosis", {"deal_three": True}),
        ("freecell", {}),
        ("freecell", {"autoplay": False}),
    ]
