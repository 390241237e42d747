"""The page's main thread in CPU time, from a Chromium trace: the side of bench/browser.py's
long tasks that the machine's load does not change.

A long task's wall time counts the milliseconds the renderer waited for a core as well as those
it ran; on the shared 2-core machine, at load 20 or more, a task of 5 ms of work can last
100 ms. The trace's ``tdur`` of each task on the renderer's main thread is the CPU time the
thread itself spent: what the page asks of the machine, which a quiet machine turns into wall
time.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

CATEGORIES = ["toplevel", "blink.user_timing", "disabled-by-default-devtools.timeline"]
#: the trace event of one task on a thread (its ``dur`` wall time, ``tdur`` CPU time, in µs)
TASK = "ThreadControllerImpl::RunTask"


async def traced(
    browser: Any, page: Any, action: Callable[[], Awaitable[Any]], start: str, end: str
) -> tuple[Any, float, float]:
    """``action()``'s result, and the longest task of the page's main thread between the
    performance marks ``start`` and ``end`` the page leaves: (result, CPU ms, wall ms)."""
    await browser.start_tracing(page=page, categories=CATEGORIES)
    result = await action()
    events = json.loads(await browser.stop_tracing())["traceEvents"]
    mains = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M"
        and e.get("name") == "thread_name"
        and e["args"].get("name") == "CrRendererMain"
    }
    marks = {e["name"]: e["ts"] for e in events if e.get("name") in (start, end)}
    begin, finish = marks.get(start, 0), marks.get(end, float("inf"))
    tasks = [
        e
        for e in events
        if e.get("ph") == "X"
        and e.get("name") == TASK
        and (e.get("pid"), e.get("tid")) in mains
        and e["ts"] + e.get("dur", 0) >= begin
        and e["ts"] <= finish
    ]
    cpu = max((e.get("tdur", 0) for e in tasks), default=0) / 1000
    wall = max((e.get("dur", 0) for e in tasks), default=0) / 1000
    return result, cpu, wall
