"""The move list names every move of the game since its deal, in the board's names, also when
the page opened the game midway (a reload, a game resumed from elsewhere): the moves played
before come from the server's record of the game (``replay``, which its player may ask while it
is played), an undo among them taken off as on the board; the moves played on the page follow,
and an undo there takes off a move played before the page opened."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from client.names import card_name
from shared.games import new_game
from shared.notation import Move
from tests.web.conftest import LiveServer
from tests.web.pages import click_move, client_faults, page_errors, wait_ply
from tests.web.seats import Seat, growing_line, signed_in
from tests.web.test_end import NOTATION

KINDS = {"t": "tableau", "r": "free cell", "f": "foundation"}


def words(move: str, piles: list[dict[str, Any]]) -> str:
    """A move as the list says it in English, read on the board it was played on."""
    m = Move.parse(move)
    pile = next(p for p in piles if p["id"] == m.src)
    card = card_name(pile["up"][len(pile["up"]) - m.count])
    what = card if m.count == 1 else f"{card} and {m.count - 1} more"
    where = [f"{KINDS[i[0]]} {int(i[1:]) + 1}" for i in (m.src, m.dst)]
    return f"{what} from {where[0]} to {where[1]}"


def expected(line: list[str]) -> list[str]:
    engine = new_game("freecell", seed=3)
    out = []
    for move in line:
        out.append(words(move, engine.view()["piles"]))
        engine.play(move)
    return out


def moves_shown(page: Any) -> list[str]:
    page.locator(".move-list li").first.wait_for()
    return page.locator(".move-list li").all_inner_texts()  # type: ignore[no-any-return]


def test_a_game_opened_midway_lists_every_move_since_its_deal(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    line = growing_line("freecell", 3, 7)
    seat = Seat(live.url, "midway")
    # played elsewhere (another device): an undo on the way, the move taken again
    game = seat.play("freecell", 3, [*line[:3], "undo", line[2], *line[3:6]])
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    faults, errors = client_faults(page), page_errors(page)
    page.goto(f"{live.url}/game/{game['id']}")
    wait_ply(page, game["ply"])
    page.locator(".move-list summary").click()
    page.locator(".move-list li", has_text=" from ").first.wait_for()
    assert moves_shown(page) == expected(line[:6])
    assert not any(NOTATION.search(item) for item in moves_shown(page))

    # a move on the page follows them; an undo takes it off, a second one a move of before
    seat.close()
    move = Move.parse(line[6])
    assert move.count == 1, line[6]
    click_move(page, move.src, move.dst)
    wait_ply(page, game["ply"] + 1)
    assert moves_shown(page) == expected(line[:7])
    undo = page.get_by_role("button", name="Undo", exact=True)
    for ply in (game["ply"] + 2, game["ply"] + 3):
        undo.click()
        wait_ply(page, ply)
    assert moves_shown(page) == expected(line[:5])

    # a reload: the whole line again, from the server
    page.reload()
    wait_ply(page, game["ply"] + 3)
    page.locator(".move-list summary").click()
    page.locator(".move-list li", has_text=" from ").first.wait_for()
    assert moves_shown(page) == expected(line[:5])
    assert faults == [] and errors == []


def test_a_new_game_lists_its_moves_without_asking(
    live: LiveServer, new_context: Callable[..., Any]
) -> None:
    seat = Seat(live.url, "fresh")
    page = new_context(**signed_in(live.url, seat.token)).new_page()
    asked: list[bytes] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: asked.append(f)))
    page.goto(f"{live.url}/play/freecell?seed=3")
    wait_ply(page, 0)
    page.locator(".move-list summary").click()
    assert page.locator(".move-list li").count() == 0
    assert not any(b"replay" in f for f in asked if isinstance(f, bytes))
