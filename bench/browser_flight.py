"""A 52-card autocomplete's flight home in headless Chromium, drawn by the page's own board.js
(part of ``python -m bench browser``): frames a second, late frames and long tasks in wall time,
and, from one more run traced, the longest task in the CPU time of the page's main thread
(bench/browser_trace.py), which the machine's load does not change.
"""

from __future__ import annotations

import statistics
from typing import Any

from bench.browser_trace import traced

#: Freecell's layout (VariantInfo's), for a board drawn by the page's own module
FREECELL_LAYOUT = {
    "rows": [
        ["r0", "r1", "r2", "r3", "", "f0", "f1", "f2", "f3"],
        ["t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"],
    ],
    "fan": {
        **{f"r{i}": "stack" for i in range(4)},
        **{f"f{i}": "stack" for i in range(4)},
        **{f"t{i}": "down" for i in range(8)},
    },
}

#: a whole deck's autocomplete drawn by the page's board.js: four columns K..A of one suit
#: each, flown home (Board.showHome); frames counted with requestAnimationFrame, long tasks
#: with a PerformanceObserver, from the call until the last card lands
AUTOCOMPLETE = """async (layout) => {
  const { Board } = await import('/js/board.js');
  const table = document.querySelector('.table');
  const holder = document.createElement('div');
  holder.className = 'board-holder';
  table.replaceChildren(holder);
  const board = new Board(holder, { variant: { id: 'freecell', name: 'Freecell' }, layout });
  const ranks = 'KQJT98765432A';
  const suits = 'SHDC';
  const pile = (id, up) => ({ id, down: 0, up });
  const ids = [...layout.rows[0].filter(Boolean), ...layout.rows[1]];
  const before = ids.map((id) => {
    const column = id[0] === 't' && Number(id[1]) < 4 ? Number(id[1]) : -1;
    return pile(id, column < 0 ? [] : [...ranks].map((r) => r + suits[column]));
  });
  const after = ids.map((id) => {
    const f = id[0] === 'f' ? Number(id[1]) : -1;
    return pile(id, f < 0 ? [] : [...ranks].reverse().map((r) => r + suits[f]));
  });
  const view = (piles) => ({
    id: 'bench', variant: 'freecell', state: 'playing', ply: 0, piles, legal: [],
  });
  board.show(view(before));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const frames = [];
  let running = true;
  const tick = (at) => { frames.push(at); if (running) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const longs = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longs.push(e.duration);
  });
  observer.observe({ type: 'longtask' });
  const start = performance.now();
  performance.mark('bench-flight');
  const cards = await board.showHome(view(after));
  const end = performance.now();
  performance.mark('bench-landed');
  running = false;
  await new Promise((r) => setTimeout(r, 100));
  observer.disconnect();
  const inside = frames.filter((at) => at >= start && at <= end);
  const gaps = inside.slice(1).map((at, i) => at - inside[i]);
  return { cards, ms: end - start, frames: inside.length, gaps, longs };
}"""


async def autocomplete(
    browser: Any, url: str, options: dict[str, Any], runs: int
) -> dict[str, float]:
    """A 52-card autocomplete's flight, ``runs`` times: frames a second, the longest gap
    between two frames, frames later than 1.5 frames of 60 Hz, long tasks (over 50 ms)."""
    fps, worst, late, longest, cards = [], [], [], [], []
    for _ in range(runs):
        context = await browser.new_context(**options)
        page = await context.new_page()
        await page.goto(f"{url}/play/freecell?seed=617")
        await page.locator(".game .board[data-ply='0']").wait_for()
        told = await page.evaluate(AUTOCOMPLETE, FREECELL_LAYOUT)
        cards.append(told["cards"])
        fps.append(1000 * (told["frames"] - 1) / told["ms"])
        worst.append(max(told["gaps"], default=0.0))
        late.append(sum(1 for gap in told["gaps"] if gap > 1.5 * 1000 / 60))
        longest.append(max(told["longs"], default=0.0))
        await context.close()
    # one more, traced: the longest task in the CPU time of the page's main thread
    context = await browser.new_context(**options)
    page = await context.new_page()
    await page.goto(f"{url}/play/freecell?seed=617")
    await page.locator(".game .board[data-ply='0']").wait_for()
    _, cpu, wall = await traced(
        browser,
        page,
        lambda: page.evaluate(AUTOCOMPLETE, FREECELL_LAYOUT),
        "bench-flight",
        "bench-landed",
    )
    await context.close()
    return {
        "autocomplete_task_cpu_ms_max": cpu,
        "autocomplete_task_wall_ms_traced": wall,
        "autocomplete_cards": min(cards),
        "autocomplete_fps_min": min(fps),
        "autocomplete_fps_p50": statistics.median(fps),
        "autocomplete_gap_ms_max": max(worst),
        "autocomplete_late_frames_max": max(late),
        "autocomplete_long_task_ms_max": max(longest),
    }
