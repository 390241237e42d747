"""The left-handed layout on a phone, upright (390x844) and held sideways (844x390), in every
game: after the line of moves that grows the game's columns, every pile and card inside the
window, every tappable target at least 24x24 CSS px, and the sides changed, not just drawn
again. Right-handed, the first row's first group (Gypsy's stock, Freecell's free cells) is on
the left of its last (the foundations), and the piles a sideways phone sets beside the columns
are on their right; left-handed, both the other way round. A group keeps its own order (free
cell 1 stays left of free cell 2), but the stock goes to the outer edge: left of its waste
right-handed, right of it left-handed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from shared.variants import STANDARD
from shared.variants.layout import GAP
from tests.web.conftest import LiveServer
from tests.web.pages import BOARD, client_faults, fit_problems, wait_ply
from tests.web.seats import Seat, growing_line, signed_in
from tests.web.test_fit import GROWN, VIEWPORTS

#: every pile's box on the board, and whether the short window set piles beside the columns
BOXES = """(root) => {
  const board = document.querySelector(root);
  const boxes = {};
  for (const pile of board.querySelectorAll('[data-pile]')) {
    const r = pile.getBoundingClientRect();
    boxes[pile.dataset.pile] = [r.left, r.right];
  }
  return { sided: board.classList.contains('sided'), boxes };
}"""

#: every control a finger may tap around the board (buttons, links, lists, boxes) smaller than
#: 24x24 CSS px, or outside the window; a link inside a line of text is exempt (WCAG 2.2)
SMALL_CONTROLS = """() => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const tappable = 'header.top :is(button, a, select), .game :is(button, a, select, input)';
  for (const node of document.querySelectorAll(tappable)) {
    const r = node.getBoundingClientRect();
    if (!r.width && !r.height) continue;  // not shown
    const name = node.textContent.trim() || node.getAttribute('aria-label') || node.tagName;
    const inline = node.tagName === 'A' && getComputedStyle(node).display === 'inline';
    const size = `${Math.round(r.width)}x${Math.round(r.height)}`;
    if (!inline && (r.width < 24 || r.height < 24)) out.push(`${name} ${size}`);
    const outside = r.left < -0.5 || r.top < -0.5 || r.right > vw + 0.5 || r.bottom > vh + 0.5;
    if (outside) out.push(`${name} outside the window`);
  }
  return out;
}"""

PHONES = ("phone", "phone held sideways")


@pytest.fixture
def seat(live: LiveServer) -> Iterator[Seat]:
    player = Seat(live.url, "southpaw")
    yield player
    player.close()


def groups(row: tuple[str, ...]) -> list[list[str]]:
    """A row's piles between its gaps."""
    out: list[list[str]] = [[]]
    for pid in row:
        if pid == GAP:
            out.append([])
        else:
            out[-1].append(pid)
    return [g for g in out if g]


def centre(boxes: dict[str, list[float]], ids: list[str]) -> float:
    return sum(boxes[i][0] + boxes[i][1] for i in ids) / (2 * len(ids))


def sides(variant: str, drawn: dict[str, Any], left_handed: bool) -> list[str]:
    """What is on the wrong side for the hand the player chose (empty when all is well)."""
    layout = STANDARD.get(variant).layout
    boxes = drawn["boxes"]
    wrong: list[str] = []

    def before(a: list[str], b: list[str], what: str) -> None:
        first, second = (b, a) if left_handed else (a, b)
        if not centre(boxes, first) < centre(boxes, second):
            wrong.append(f"{what}: {first} should be left of {second}")

    if drawn["sided"]:
        columns = [p for p in boxes if p.startswith("t")]
        side = [p for p in boxes if not p.startswith("t")]
        if left_handed:
            if max(boxes[p][1] for p in side) > min(boxes[p][0] for p in columns):
                wrong.append(f"{side} should be left of the columns")
        elif min(boxes[p][0] for p in side) < max(boxes[p][1] for p in columns):
            wrong.append(f"{side} should be right of the columns")
    else:
        top = groups(layout.rows[0])
        if len(top) > 1:
            before(top[0], top[-1], "the first row's groups")
    for group in groups(layout.rows[0]):
        if "s" in group and "w" in group:
            before(["s"], ["w"], "the stock and its waste")
        elif len(group) > 1 and not centre(boxes, group[:1]) < centre(boxes, group[-1:]):
            wrong.append(f"{group} reversed")  # a group keeps its order, whichever hand
    return wrong


@pytest.mark.parametrize("variant", sorted(GROWN))
def test_left_handed_phone_fits_and_changes_sides(
    variant: str, live: LiveServer, seat: Seat, new_context: Callable[..., Any]
) -> None:
    seed, plies = GROWN[variant]
    grown = seat.play(variant, seed, growing_line(variant, seed, plies))
    for device in PHONES:
        for left_handed in (False, True):
            options = signed_in(
                live.url, seat.token, settings={"leftHanded": left_handed}, **VIEWPORTS[device]
            )
            page = new_context(**options).new_page()
            faults = client_faults(page)
            page.goto(f"{live.url}/game/{grown['id']}")
            wait_ply(page, grown["ply"])
            page.wait_for_timeout(50)  # the board is drawn again once it knows its room
            where = (variant, device, "left-handed" if left_handed else "right-handed")
            classes = page.evaluate("[...document.documentElement.classList]")
            assert ("left-handed" in classes) == left_handed, where
            assert fit_problems(page) == [], where
            assert page.evaluate(SMALL_CONTROLS) == [], where
            assert sides(variant, page.evaluate(BOXES, BOARD), left_handed) == [], where
            assert faults == [], where
            page.context.close()
