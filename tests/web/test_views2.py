"""Protocol-2 views drawn by the client before the server sends them: a keyed deal's
commitment and key with the check, the undo and hint counters, and a layout declared in
VariantInfo. The game panel is built in the real page from a view made here; the server's
end-to-end tests of these come with protocol 2."""

from __future__ import annotations

import hashlib
from typing import Any

from shared.games import new_game
from tests.web.conftest import LiveServer
from tests.web.pages import register

MOUNT = """async ([view, info]) => {
  const { GamePanel } = await import('/js/game.js');
  const app = {
    conn: { online: true, request: async () => ({ type: 'game', game: view }) },
    variants: new Map([[info.id, info]]),
  };
  const panel = new GamePanel(app, view, {});
  const main = document.getElementById('main');
  main.replaceChildren(panel.element);
}"""


def keyed_view(key: str, commitment: str) -> dict[str, Any]:
    view = new_game("freecell", seed=617).view()
    return view | {
        "id": "g2",
        "deal": {"commitment": commitment, "key": key},
        "undos": 2,
        "hints": 1,
        "elapsed_ms": 61_000,
        "state": "won",
    }


def mount(page: Any, view: dict[str, Any], info: dict[str, Any]) -> None:
    page.evaluate(MOUNT, [view, info])
    page.locator(".game .board[data-ply='0']").wait_for()


FREECELL = {"id": "freecell", "name": "Freecell", "options": {"autoplay": True}, "max_score": 52}


def test_a_keyed_deal_shows_its_commitment_and_key_and_checks_them(
    page: Any, live: LiveServer
) -> None:
    register(page, f"{live.url}/", "alice")
    key = "0" * 64
    commitment = hashlib.sha256(f"patience-club/deal/v1|freecell|{key}".encode()).hexdigest()
    mount(page, keyed_view(key, commitment), FREECELL)
    head = page.locator(".game-head").inner_text()
    assert f"commitment {commitment}" in head and f"key {key}" in head
    assert "keyed deal 48281e31" in head
    assert "Undos 2" in page.locator(".status").inner_text()
    assert "Hints 1" in page.locator(".status").inner_text()
    page.get_by_role("button", name="Check the deal").click()
    page.get_by_text("The key matches the commitment").wait_for()
    link = page.get_by_role("link", name="Play this deal again").get_attribute("href")
    assert link == f"/play/freecell?key={key}"

    mount(page, keyed_view("1" * 64, commitment), FREECELL)
    page.get_by_role("button", name="Check the deal").click()
    page.get_by_text("does NOT match").wait_for()


def test_a_secret_deal_shows_only_its_commitment(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    view = keyed_view("", "ab" * 32)
    view["deal"] = {"commitment": "ab" * 32}
    view["state"] = "playing"
    mount(page, view, FREECELL)
    head = page.locator(".game-head").inner_text()
    assert "secret deal abababab" in head and "key " not in head
    assert page.get_by_role("button", name="Check the deal").count() == 0


def test_the_layout_in_variant_info_places_the_piles(page: Any, live: LiveServer) -> None:
    register(page, f"{live.url}/", "alice")
    view = new_game("freecell", seed=617).view() | {"id": "g3", "elapsed_ms": 0}
    tableau = [f"t{i}" for i in range(8)]
    top = ["f0", "f1", "f2", "f3", "", "r0", "r1", "r2", "r3"]
    fan = {pid: "stack" for pid in top if pid} | {pid: "down" for pid in tableau}
    mount(page, view, FREECELL | {"layout": {"rows": [tableau, top], "fan": fan}})
    rows = page.eval_on_selector_all(
        ".game .board .row",
        "rows => rows.map(r => [...r.querySelectorAll('[data-pile]')].map(p => p.dataset.pile))",
    )
    assert rows == [tableau, [p for p in top if p]]
