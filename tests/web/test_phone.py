"""A phone: 390 px wide, portrait, touch. Freecell fits the width; taps and a touch drag move
cards; moves by taps fill the free cells; a double tap sends a card home."""

from __future__ import annotations

from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, assert_board, pile, register, top_card, wait_ply

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def touch_drag(page: Any, src: Any, dst: Any) -> None:
    """A finger on ``src``, moved to ``dst`` and lifted: real touch events, through the DevTools
    protocol (Playwright's touchscreen only taps)."""
    cdp = page.context.new_cdp_session(page)
    a, b = src.bounding_box(), dst.bounding_box()
    x0, y0 = a["x"] + 8, a["y"] + 6
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + 12
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, 7):
        x, y = x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * i / 6
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_freecell_on_a_phone_fits_and_plays_by_touch(new_context: Any, live: LiveServer) -> None:
    page = new_context(**PHONE).new_page()
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    widths = page.evaluate("""() => {
      const b = document.querySelector('.game .board');
      return [b.scrollWidth, b.clientWidth, document.documentElement.scrollWidth, innerWidth];
    }""")
    assert widths[0] <= widths[1], f"the board scrolls sideways: {widths}"
    assert widths[2] <= widths[3], f"the page scrolls sideways: {widths}"
    right = page.locator(f"{BOARD} [data-pile='t7']").bounding_box()
    assert right["x"] + right["width"] <= 390

    game = new_game("freecell", seed=617)
    top_card(page, "t7").tap(position={"x": 8, "y": 6})  # tap, tap
    pile(page, "t1").tap(position={"x": 8, "y": 6})
    game.play("t7>t1")
    assert_board(page, game)

    touch_drag(page, top_card(page, "t4"), pile(page, "r0"))
    game.play("t4>r0")
    assert_board(page, game)


def settled(page: Any) -> None:
    """Wait until no card is sliding to its new place: a tap while the last move's card
    still slides across the next card's corner lands on the sliding card, as it would
    under a finger (the board draws a move, then animates the cards that moved)."""
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")


def tap_move(page: Any, move: str) -> None:
    """A move by taps, once the board is still: the source's top card, then the
    destination pile."""
    settled(page)
    src, dst = move.split(">")
    top_card(page, src).tap(position={"x": 8, "y": 6})
    pile(page, dst).tap(position={"x": 8, "y": 6})


def test_freecell_by_taps_and_a_double_tap_sends_a_card_home(
    new_context: Any, live: LiveServer
) -> None:
    page = new_context(**PHONE).new_page()
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617&autoplay=0")
    wait_ply(page, 0)
    game = new_game("freecell", seed=617, options={"autoplay": False})
    for move in ["t6>r0", "t6>r1", "t6>r2", "t6>r3"]:  # each onto an empty free cell
        tap_move(page, move)
        game.play(move)
        assert_board(page, game)
    settled(page)
    card = top_card(page, "t6")
    card.tap(position={"x": 8, "y": 6})
    card.tap(position={"x": 8, "y": 6})
    game.play("t6>f")
    assert_board(page, game)


#: where the board, the toolbar and the message lie, and the layout shifts seen so far (without
#: recent input: what CLS counts)
WHERE = """() => {
  const box = (sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [r.top, r.bottom];
  };
  return { board: box('.game .board'), toolbar: box('.game .toolbar'),
           message: box('.game .message'), shifts: window.shifts, inner: innerHeight };
}"""


def test_the_message_has_its_line_below_the_board_and_moves_nothing(
    new_context: Any, live: LiveServer
) -> None:
    """On a phone held upright the board starts right under the controls (no empty line above
    it for the message), and a refusal and a hint are said below the board, inside the window,
    where a line is kept for them: the board does not move when they come or go."""
    context = new_context(**PHONE)
    context.add_init_script(
        "window.shifts = 0; new PerformanceObserver((l) => { for (const e of l.getEntries()) "
        "window.shifts += e.value; }).observe({type: 'layout-shift', buffered: true});"
    )
    page = context.new_page()
    register(page, f"{live.url}/", "alice")
    page.goto(f"{live.url}/play/freecell?seed=617")
    wait_ply(page, 0)
    page.wait_for_timeout(300)
    before = page.evaluate(WHERE)
    assert 0 <= before["board"][0] - before["toolbar"][1] <= 12, before  # no line between them
    top_card(page, "t4").tap(position={"x": 8, "y": 6})
    pile(page, "t0").tap(position={"x": 8, "y": 6})  # refused by the server
    message = page.locator(".game .message", has_text="Refused")
    message.wait_for()
    refused = page.evaluate(WHERE)
    page.get_by_role("button", name="Hint", exact=True).tap()
    page.locator(".game .message[data-kind='hint']").wait_for()
    hinted = page.evaluate(WHERE)
    for now in (refused, hinted):
        assert now["board"] == before["board"], (before, now)
        assert now["board"][1] <= now["message"][0] <= now["board"][1] + 12, now
        assert now["message"][1] <= now["inner"], now
    # every layout shift since the board was drawn, with input or without
    assert hinted["shifts"] == before["shifts"], (before, hinted)
