"""The browser client in headless Chromium against the real server on loopback.

Figures: the bytes of a cold load (an empty cache, the page of a new Freecell game), the time
from navigation to the first board on the page painted (the animation frame after its drawing),
and for moves made by dragging a card with the mouse,
the time from the pointer's release to the board drawn with the move (before the server's
answer, then with the server's view), p50/p95 over ``--moves`` moves (200); the layout shift
(CLS) after the first board and during the moves; and a 52-card autocomplete's flight home
drawn by the page's board.js (frames a second, late frames, long tasks; bench/browser_flight.py),
and the server's CPU time per cold load (``--cold-only``: the cold loads alone),
with its longest task in the CPU time of the page's main thread, from a trace, which the
machine's load does not change (bench/browser_trace.py). With
``--screenshots DIR`` it also saves each game's board, desktop and phone, as small PNGs. With
``--phone`` the cold loads and the moves are made on a phone held upright (390x844, touch):
where the game's message has its line below the board.

    python -m bench browser
    python -m bench browser --phone --autocompletes 1
    python -m bench browser --moves 50 --screenshots docs/screenshots

The timings are read inside the page (``performance.now()``): a capture-phase ``pointerup``
listener on window marks the release, the board's ``pc-board`` event marks each drawing, and
the next animation frame after it marks the paint.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from bench.browser_flight import autocomplete
from bench.load import Target, start_server

#: Debian's Chromium, headless, quiet: never a browser Playwright downloads
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # Chromium 156 builds the omnibox's "AI mode" popup (a WebUI page of ~100 files, 50 to 290 ms
    # of CPU in a renderer of its own) for every new window, which a context is: beside each
    # cold load on two cores, it was timed as the page's. A player's browser has built it once.
    "--disable-features=WebUIOmniboxAimPopup",
]
DESKTOP: dict[str, Any] = {"viewport": {"width": 1100, "height": 820}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
VARIANTS = ("osmosis", "thumb_and_pouch", "gypsy", "freecell", "westhaven")

#: marks taken inside the page, read back after each move
MARKS = """
window.__marks = {ups: [], boards: [], shifts: []};
// layout shifts (CLS): each shift not caused by input, with when it happened
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__marks.shifts.push({at: e.startTime, value: e.value});
  }
}).observe({type: 'layout-shift', buffered: true});
window.addEventListener('pointerup', () => window.__marks.ups.push(performance.now()), true);
document.addEventListener('pc-board', (e) => {
  const entry = {at: performance.now(), ply: e.detail.ply, optimistic: e.detail.optimistic};
  // the first board a player can see: one drawn on the page (not one drawn apart, before it is
  // put there), painted at the next frame
  const shown = document.querySelector('main .board[data-ply]') !== null;
  if (shown && !window.__marks.first) window.__marks.first = entry;
  window.__marks.firstBoard ??= shown ? entry.at : undefined;
  window.__marks.boards.push(entry);
  requestAnimationFrame(() => { entry.painted = performance.now(); });
});
"""


#: resolves once the frame after the last drawing has been painted
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)))"


def chromium_path() -> str | None:
    """``$PATIENCE_CHROMIUM``, else Debian's chromium, else None."""
    named = os.environ.get("PATIENCE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    return None


async def register(port: int, name: str) -> str:
    """A player's token, registered over the WebSocket as any client would."""
    import msgpack

    async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
        await ws.send(
            msgpack.packb(
                {"type": "hello", "id": 1, "protocol": 2, "client": "bench/1", "name": name}
            )
        )
        reply = msgpack.unpackb(await ws.recv())
    assert reply["type"] == "welcome", reply
    return str(reply["token"])


def signed_in(url: str, token: str, **options: Any) -> dict[str, Any]:
    """Context options of a browser that has the player's token (an empty cache otherwise)."""
    storage = {
        "cookies": [],
        "origins": [
            {"origin": url, "localStorage": [{"name": "patience-club.token", "value": token}]}
        ],
    }
    return {**options, "storage_state": storage}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def threads_cpu_s(pid: int) -> float:
    """The CPU seconds every live thread of process ``pid`` has run, to the nanosecond
    (``/proc/PID/task/*/schedstat``; /proc/PID/stat counts in 10 ms ticks)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return total / 1e9


async def idle_cpu_per_s(server: Target, seconds: float = 3.0) -> float:
    """The server's own CPU seconds per second while nobody asks anything (its clocks and
    polls), to take out of what the loads measure."""
    before, started = threads_cpu_s(server.process.pid), time.perf_counter()
    await asyncio.sleep(seconds)
    return (threads_cpu_s(server.process.pid) - before) / (time.perf_counter() - started)


async def cold_loads(
    browser: Any,
    url: str,
    token: str,
    runs: int,
    device: dict[str, Any] = DESKTOP,
    server: Target | None = None,
) -> dict[str, float]:
    """``runs`` cold loads of a new Freecell game's page; with ``server``, also the server's CPU
    time per load (its process time over the loads, less its idle rate over the same time)."""
    sizes, firsts, decoded, shifted = [], [], [], []
    phases: dict[str, list[float]] = {"modules": [], "boot": [], "open": [], "welcome": []}
    idle = await idle_cpu_per_s(server) if server is not None else 0.0
    cpu_before = threads_cpu_s(server.process.pid) if server is not None else 0.0
    started = time.perf_counter()
    for _ in range(runs):
        context = await browser.new_context(**signed_in(url, token, **device))
        await context.add_init_script(MARKS)
        page = await context.new_page()
        await page.goto(f"{url}/play/freecell?seed=617")
        await page.wait_for_function("() => window.__marks.first?.painted !== undefined")
        drawn, first = await page.evaluate(
            "() => [window.__marks.first.at, window.__marks.first.painted]"
        )
        # what moves on the page once the first board is drawn (the status, the games list
        # arriving, the clock's first tick...): a second and a half to settle, then the layout
        # shifts after the first board
        await page.wait_for_timeout(1500)
        shifted.append(
            await page.evaluate(
                "(drawn) => window.__marks.shifts.filter((s) => s.at > drawn)"
                ".reduce((n, s) => n + s.value, 0)",
                drawn,
            )
        )
        load = await page.evaluate("""() => {
          const all = [...performance.getEntriesByType('navigation'),
                       ...performance.getEntriesByType('resource')];
          return [all.reduce((n, e) => n + e.transferSize, 0),
                  all.reduce((n, e) => n + e.decodedBodySize, 0)];
        }""")
        sizes.append(load[0])
        decoded.append(load[1])
        firsts.append(first)
        # where the time went: the page's modules run (DOMContentLoaded), boot.js run, the
        # WebSocket open, the welcome; start_game (stored before its reply) goes out on the
        # welcome, from boot.js, while the modules still run; then the drawing
        marks = await page.evaluate("""() => [
          performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd,
          performance.getEntriesByName('pc-boot')[0]?.startTime ?? null,
          performance.getEntriesByName('pc-open')[0]?.startTime ?? null,
          performance.getEntriesByName('pc-welcome')[0]?.startTime ?? null]""")
        for name, at in zip(("modules", "boot", "open", "welcome"), marks, strict=True):
            if at is not None:
                phases[name].append(at)
        await context.close()
    if server is not None:
        spent = threads_cpu_s(server.process.pid) - cpu_before
        server_ms = 1000 * (spent - idle * (time.perf_counter() - started)) / runs
    return {
        **({"server_cpu_ms_per_load": server_ms} if server is not None else {}),
        "cold_bytes": statistics.median(sizes),
        "cold_body_bytes": statistics.median(decoded),
        "first_board_ms_p50": statistics.median(firsts),
        "first_board_ms_max": max(firsts),
        "first_board_ms_p95": pct(firsts, 0.95),
        "cls_after_first_board_max": max(shifted),
        **{f"{name}_ms_p50": statistics.median(at) for name, at in phases.items() if at},
    }


async def drag(page: Any, src: str, dst: str) -> None:
    card = page.locator(f".game .board [data-pile='{src}'] [data-card]").last
    target = page.locator(f".game .board [data-pile='{dst}']")
    a, b = await card.bounding_box(), await target.bounding_box()
    await page.mouse.move(a["x"] + 8, a["y"] + 6)
    await page.mouse.down()
    await page.mouse.move(b["x"] + b["width"] / 2, b["y"] + 12, steps=3)
    await page.mouse.up()


async def moves(
    browser: Any, url: str, token: str, count: int, device: dict[str, Any] = DESKTOP
) -> dict[str, float]:
    """``count`` random legal card moves by drag; Freecell #617, then further deals as needed."""
    from shared.games import new_game

    rng = random.Random(617)
    context = await browser.new_context(**signed_in(url, token, **device))
    await context.add_init_script(MARKS)
    page = await context.new_page()
    drawn: list[float] = []
    painted: list[float] = []
    confirmed: list[float] = []
    seed = 617
    game = None
    shifted = 0.0
    after_first = (
        "() => window.__marks.shifts.filter((s) => s.at > (window.__marks.firstBoard ?? 0))"
        ".reduce((n, s) => n + s.value, 0)"
    )
    while len(confirmed) < count:
        if game is None or game.state != "playing":
            if game is not None:
                shifted += await page.evaluate(after_first)
            game = new_game("freecell", seed=seed)
            await page.goto(f"{url}/play/freecell?seed={seed}")
            await page.locator(".game .board[data-ply='0']").wait_for()
            seed += 1
        legal = [m for m in game.legal_moves() if ">" in m and ":" not in m]
        if not legal:
            game = None
            continue
        move = rng.choice(legal)
        await page.evaluate("() => { window.__marks.ups = []; window.__marks.boards = []; }")
        await drag(page, *move.split(">"))
        game.play(move)
        await page.locator(f".game .board[data-ply='{game.ply}']").wait_for()
        await page.evaluate(NEXT_FRAME)
        marks = await page.evaluate("() => window.__marks")
        up = marks["ups"][-1]
        after = [b for b in marks["boards"] if b["at"] >= up]
        first = after[0]
        final = next(b for b in after if not b["optimistic"] and b["ply"] == game.ply)
        drawn.append(first["at"] - up)
        painted.append(first.get("painted", first["at"]) - up)
        confirmed.append(final.get("painted", final["at"]) - up)
    shifts = shifted + await page.evaluate(after_first)
    await context.close()
    return {
        "cls_during_moves": shifts,
        "move_drawn_ms_p50": pct(drawn, 0.5),
        "move_drawn_ms_p95": pct(drawn, 0.95),
        "move_painted_ms_p50": pct(painted, 0.5),
        "move_painted_ms_p95": pct(painted, 0.95),
        "move_confirmed_ms_p50": pct(confirmed, 0.5),
        "move_confirmed_ms_p95": pct(confirmed, 0.95),
        "moves": len(confirmed),
    }


async def screenshots(browser: Any, url: str, token: str, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    shots = [(v, "desktop", DESKTOP, "light") for v in VARIANTS]
    shots += [(v, "phone", PHONE, "light") for v in VARIANTS]
    shots += [("freecell", "phone-dark", PHONE, "dark")]
    for variant, name, options, scheme in shots:
        context = await browser.new_context(**signed_in(url, token, **options), color_scheme=scheme)
        page = await context.new_page()
        await page.goto(f"{url}/play/{variant}?seed=617")
        await page.locator(".game .board[data-ply='0']").wait_for()
        path = folder / f"{variant}-{name}.png"
        await page.screenshot(path=str(path), full_page=name != "desktop")
        saved.append(path)
        await context.close()
    return saved


def print_cold(figures: dict[str, float], loads: int) -> None:
    """The cold loads' figures."""
    print(
        f"cold load: {figures['cold_bytes'] / 1024:.1f} KiB transferred "
        f"({figures['cold_body_bytes'] / 1024:.1f} KiB of files), goal < 250 KB"
    )
    print(
        f"navigation to first board: p50 {figures['first_board_ms_p50']:.0f} ms, "
        f"p95 {figures['first_board_ms_p95']:.0f} ms, "
        f"max {figures['first_board_ms_max']:.0f} ms of {loads}, "
        "goal p95 < 500 ms"
    )
    during = (
        f"; during {figures['moves']:.0f} moves: {figures['cls_during_moves']:.4f}"
        if "moves" in figures
        else ""
    )
    print(
        "layout shift after the first board (CLS, 1.5 s after it): "
        f"max {figures['cls_after_first_board_max']:.4f} over {loads} loads{during}; goal 0"
    )
    print(
        "  of which, p50 from navigation: main.js's modules run "
        f"{figures.get('modules_ms_p50', 0):.0f} ms; boot.js run "
        f"{figures.get('boot_ms_p50', 0):.0f} ms, WebSocket open "
        f"{figures.get('open_ms_p50', 0):.0f} ms, welcome "
        f"{figures.get('welcome_ms_p50', 0):.0f} ms (start_game went with hello; stored "
        "before its reply); then the game's modules and the drawing"
    )
    print(
        "  the server's CPU per cold load (its threads' CPU time, less its idle rate): "
        f"{figures['server_cpu_ms_per_load']:.1f} ms"
    )


async def run(args: argparse.Namespace) -> None:
    from playwright.async_api import async_playwright

    path = chromium_path()
    if path is None:
        print("no Chromium: install Debian's with `apt-get install -y chromium`; skipped")
        return
    with tempfile.TemporaryDirectory() as folder:
        server = await start_server(folder)
        try:
            url = f"http://127.0.0.1:{server.port}"
            token = await register(server.port, "bench")
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
                started = time.perf_counter()
                device = PHONE if args.phone else DESKTOP
                figures = await cold_loads(browser, url, token, args.loads, device, server)
                if args.cold_only:
                    print(f"Chromium {browser.version}, loopback")
                    print_cold(figures, args.loads)
                    await browser.close()
                    return
                figures |= await moves(browser, url, token, args.moves, device)
                figures |= await autocomplete(
                    browser, url, signed_in(url, token, **DESKTOP), args.autocompletes
                )
                print(
                    f"Chromium {browser.version}, loopback, {time.perf_counter() - started:.1f} s"
                    f", loads and moves at {device['viewport']['width']}x"
                    f"{device['viewport']['height']}"
                )
                print_cold(figures, args.loads)
                print(
                    f"pointer-up to board drawn (before the reply), {figures['moves']} moves: "
                    f"p50 {figures['move_drawn_ms_p50']:.1f} ms, "
                    f"p95 {figures['move_drawn_ms_p95']:.1f} ms"
                )
                print(
                    f"pointer-up to board painted (next frame): "
                    f"p50 {figures['move_painted_ms_p50']:.1f} ms, "
                    f"p95 {figures['move_painted_ms_p95']:.1f} ms, goal p95 < 50 ms"
                )
                print(
                    f"pointer-up to the server's board painted: "
                    f"p50 {figures['move_confirmed_ms_p50']:.1f} ms, "
                    f"p95 {figures['move_confirmed_ms_p95']:.1f} ms"
                )
                print(
                    f"autocomplete of {figures['autocomplete_cards']} cards flying home, "
                    f"{args.autocompletes} runs: "
                    f"{figures['autocomplete_fps_min']:.1f} frames/s at worst "
                    f"(p50 {figures['autocomplete_fps_p50']:.1f}), longest frame gap "
                    f"{figures['autocomplete_gap_ms_max']:.1f} ms, at most "
                    f"{figures['autocomplete_late_frames_max']} late frames (> 25 ms), "
                    f"longest task {figures['autocomplete_long_task_ms_max']:.0f} ms; "
                    "goal 60 frames/s, no task over 50 ms"
                )
                print(
                    "  its longest task in CPU time of the page's main thread (one more run, "
                    f"traced): {figures['autocomplete_task_cpu_ms_max']:.1f} ms "
                    f"(lasting {figures['autocomplete_task_wall_ms_traced']:.1f} ms)"
                )
                if args.screenshots:
                    for saved in await screenshots(browser, url, token, Path(args.screenshots)):
                        print(f"saved {saved} ({saved.stat().st_size / 1024:.0f} KiB)")
                await browser.close()
        finally:
            await server.stop()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench browser", description=__doc__)
    parser.add_argument("--moves", type=int, default=200, help="moves by drag (default 200)")
    parser.add_argument("--loads", type=int, default=10, help="cold loads (default 10)")
    parser.add_argument(
        "--autocompletes", type=int, default=5, help="52-card autocompletes (default 5)"
    )
    parser.add_argument("--screenshots", metavar="DIR", help="save each board as PNG here")
    parser.add_argument("--cold-only", action="store_true", help="the cold loads alone")
    parser.add_argument(
        "--phone",
        action="store_true",
        help="the cold loads and the moves on a phone held upright (390x844, touch)",
    )
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
