"""What the browser tests do to a page, through the client's contract for tests and tools.

The contract: piles carry ``data-pile`` and ``data-down``, face-up cards ``data-card`` bottom to
top, the board ``data-state`` and ``data-ply`` of the server's last view; controls are buttons
named Deal, Undo, Hint, Auto, Resign; the first visit asks for a "Name". The engine is the
oracle: each test plays the same moves on a local :class:`shared.game.Game` and compares.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgpack

from shared.game import Game
from shared.protocol import CLIENT_FAULTS

BOARD = ".game .board"

#: what a board draws, pile by pile: fan, face-down count, the face-up cards drawn
READ_BOARD = """(root) => {
  const board = document.querySelector(root);
  return Object.fromEntries([...board.querySelectorAll('[data-pile]')].map((p) => [
    p.dataset.pile,
    [p.className.match(/fan-(\\w+)/)[1], Number(p.dataset.down),
     [...p.querySelectorAll('[data-card]')].map((c) => c.dataset.card)],
  ]));
}"""

KEYS = {"s": " ", "w": "x"}


def client_faults(page: Any) -> list[dict[str, Any]]:
    """The errors the server answers that blame the client (unknown types, bad fields...),
    collected from the page's WebSocket frames from now on: the client should cause none."""
    faults: list[dict[str, Any]] = []

    def frames(ws: Any) -> None:
        def received(frame: bytes | str) -> None:
            message = msgpack.unpackb(frame) if isinstance(frame, bytes) else {"type": "text"}
            if message.get("type") == "error" and message.get("code") in CLIENT_FAULTS:
                faults.append(message)

        ws.on("framereceived", received)

    page.on("websocket", frames)
    return faults


def page_errors(page: Any) -> list[str]:
    """Uncaught exceptions and console errors of the page from now on (a policy violation
    is one): the client should have none."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"uncaught: {exc}"))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def register(page: Any, url: str, name: str) -> None:
    """First visit to ``url``: the name form, Enter, and the page the address names."""
    page.goto(url)
    field = page.get_by_label("Name", exact=True)
    field.fill(name)
    field.press("Enter")
    page.locator("#who", has_text=name).wait_for()


def wait_ply(page: Any, ply: int, root: str = BOARD) -> None:
    page.locator(f"{root}[data-ply='{ply}']").wait_for()


def drawn(page: Any, root: str = BOARD) -> dict[str, list[Any]]:
    return page.evaluate(READ_BOARD, root)  # type: ignore[no-any-return]


def assert_board(page: Any, game: Game, root: str = BOARD) -> None:
    """The page shows exactly the engine's position: every pile, its backs and its cards."""
    view = game.view()
    wait_ply(page, view["ply"], root)
    board = page.locator(root)
    assert board.get_attribute("data-state") == view["state"]
    shown = drawn(page, root)
    assert set(shown) == {p["id"] for p in view["piles"]}
    for pile in view["piles"]:
        fan, down, cards = shown[pile["id"]]
        assert down == pile["down"], pile["id"]
        expected = pile["up"][-1:] if fan == "stack" else pile["up"]
        assert cards == expected, (pile["id"], cards, pile["up"])


def top_card(page: Any, pile: str, root: str = BOARD) -> Any:
    return page.locator(f"{root} [data-pile='{pile}'] [data-card]").last


def pile(page: Any, pile_id: str, root: str = BOARD) -> Any:
    return page.locator(f"{root} [data-pile='{pile_id}']")


def click_move(page: Any, src: str, dst: str, root: str = BOARD) -> None:
    """A move by clicks: the source's top card, then the destination pile."""
    top_card(page, src, root).click(position={"x": 8, "y": 6})
    pile(page, dst, root).click(position={"x": 8, "y": 6})


def drag(page: Any, src: Any, dst: Any) -> None:
    """Drag with the mouse (pointer events): press on ``src``, move in steps, release on ``dst``."""
    a = src.bounding_box()
    b = dst.bounding_box()
    page.mouse.move(a["x"] + 8, a["y"] + 6)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + 12, steps=6)
    page.mouse.up()


def key_of(pile_id: str) -> str:
    """Playwright's name for the key that picks a pile (the terminal client's keys)."""
    kind, n = pile_id[0], pile_id[1:]
    if kind == "t":
        return "1234567890"[int(n)]
    if kind == "r":
        return "qwer"[int(n)]
    if kind == "f":
        return f"F{int(n) + 1}"
    return {"w": "x", "s": "Space"}[kind]


def key_move(page: Any, move: str) -> None:
    src, dst = move.split(">")
    page.keyboard.press(key_of(src.split(":")[0]))
    page.keyboard.press(key_of(dst))


def first_pile_move(game: Game, *, to: str = "") -> str:
    """A single-card legal move of the engine's position (to a pile of kind ``to`` if given)."""
    legal = game.legal_moves()
    for move in legal:
        if ">" not in move or ":" in move or not move.split(">")[1].startswith(to):
            continue
        src, dst = move.split(">")
        if not any(m.startswith(f"{src}:") and m.endswith(f">{dst}") for m in legal):
            return move
    raise AssertionError(f"no single-card move in {game.legal_moves()}")


#: what lies outside the window or offers less than 24x24 CSS px to a finger (the script's
#: comment says how it is measured)
FIT_PROBLEMS = "\n".join(
    line
    for line in (Path(__file__).parent / "fit_problems.js").read_text(encoding="utf-8").splitlines()
    if not line.startswith("//")
)


def fit_problems(page: Any) -> list[str]:
    """Every pile and card of the page's boards inside the window, each target >= 24x24, the
    page without a scroll; the list of what is not (empty when all is well)."""
    return page.evaluate(FIT_PROBLEMS)  # type: ignore[no-any-return]
