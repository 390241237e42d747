"""A tracer of the event loop's stalls, for measuring the server's tail latency.

``patience-club serve`` installs it when ``PATIENCE_STALL_TRACE`` names a
file (the load benchmark sets it with ``--stall-trace``); on shutdown the file
gets a summary. A stall is a loop turn that kept the loop busy (not waiting
in ``select``) for longer than :data:`STALL_S`: every request that arrived
meanwhile waited that long. For each stall it records what ran: the slowest
callbacks (wall and thread CPU time: wall minus CPU is time the thread did
not run, i.e. waiting for the GIL or for a core) and the garbage
collections (generation and duration) that happened inside it.

It patches ``asyncio.events.Handle._run`` and the loop's selector, which
costs a few microseconds per callback: the figures it gives are of a slightly
slower server. Not for production.
"""

from __future__ import annotations

import asyncio
import collections
import gc
import time
from asyncio import events
from pathlib import Path
from typing import Any

#: a loop turn busy longer than this is a stall (seconds)
STALL_S = 0.005


def _run_delay() -> float:
    """Seconds this thread has waited for a core (Linux schedstat), 0 elsewhere."""
    try:
        with open("/proc/thread-self/schedstat", "rb") as f:
            return int(f.read().split()[1]) / 1e9
    except OSError:
        return 0.0


class StallTracer:
    """Per loop turn: busy time, callbacks, GC; the turns over :data:`STALL_S` are kept."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.turns = 0
        self.busy_s = 0.0
        self.stalls: list[dict[str, Any]] = []
        self.gcs: list[tuple[int, float, float]] = []  # (generation, start, seconds)
        self.gc_by_generation: dict[int, list[float]] = collections.defaultdict(list)
        self._gc_start = 0.0
        self._turn_start = 0.0
        self._turn_cpu = 0.0
        self._turn_sched = 0.0
        self._callbacks: list[tuple[float, float, str]] = []
        self._turn_gcs: list[tuple[int, float]] = []
        self.started = time.perf_counter()
        self.commits: list[tuple[float, float, int]] = []
        #: seconds each write waited from its submission to its commit
        self.waits: list[float] = []
        self.waits_by_second: dict[int, list[float]] = collections.defaultdict(list)

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        gc.callbacks.append(self._gc)
        original_run = events.Handle._run
        tracer = self

        def _run(handle: events.Handle) -> None:
            wall = time.perf_counter()
            cpu = time.thread_time()
            original_run(handle)
            wall = time.perf_counter() - wall
            if wall > 0.001:
                cpu = time.thread_time() - cpu
                tracer._callbacks.append((wall, cpu, repr(handle)[:160]))

        setattr(events.Handle, "_run", _run)  # noqa: B010 (a method replaced on the class)
        selector = loop._selector  # type: ignore[attr-defined]
        original_select = selector.select

        def select(timeout: float | None = None) -> Any:
            now = time.perf_counter()
            if self._turn_start:
                self._turn_ended(now)
            result = original_select(timeout)
            self._turn_start = time.perf_counter()
            self._turn_cpu = time.thread_time()
            self._turn_sched = _run_delay()
            return result

        selector.select = select

    def trace_writer(self, writer: Any) -> None:
        """Time the writer thread's transactions (wall and that thread's CPU)."""
        original = writer._transaction
        commits = self.commits = []

        def transaction(items: list[Any]) -> None:
            wall = time.perf_counter()
            cpu = time.thread_time()
            original(items)
            commits.append((time.perf_counter() - wall, time.thread_time() - cpu, len(items)))

        writer._transaction = transaction
        writer.observers.append(self._waited)

    def _waited(self, seconds: float) -> None:
        self.waits.append(seconds)
        second = int(time.perf_counter() - self.started)
        self.waits_by_second[second].append(seconds)

    def _turn_ended(self, now: float) -> None:
        busy = now - self._turn_start
        self.turns += 1
        self.busy_s += busy
        if busy > STALL_S:
            self._callbacks.sort(reverse=True)
            self.stalls.append(
                {
                    "at_s": round(self._turn_start - self.started, 3),
                    "busy_ms": round(busy * 1000, 2),
                    "cpu_ms": round((time.thread_time() - self._turn_cpu) * 1000, 2),
                    "runqueue_ms": round((_run_delay() - self._turn_sched) * 1000, 2),
                    "gc": [(g, round(s * 1000, 2)) for g, s in self._turn_gcs],
                    "callbacks": [
                        (round(w * 1000, 2), round(c * 1000, 2), name)
                        for w, c, name in self._callbacks[:4]
                    ],
                }
            )
        self._callbacks.clear()
        self._turn_gcs.clear()

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        seconds = time.perf_counter() - self._gc_start
        generation = int(info.get("generation", 0))
        self.gc_by_generation[generation].append(seconds)
        self._turn_gcs.append((generation, seconds))
        if generation == 2:  # rare: when it came says whether it was the start's own
            self.gcs.append((generation, self._gc_start - self.started, seconds))

    def report(self) -> str:
        lines = [
            f"{time.perf_counter() - self.started:.1f} s, {self.turns} loop turns, "
            f"busy {self.busy_s:.2f} s, {len(self.stalls)} stalls > {STALL_S * 1000:g} ms"
        ]
        for generation, times in sorted(self.gc_by_generation.items()):
            times.sort()
            lines.append(
                f"gc gen {generation}: {len(times)} collections, total {sum(times) * 1000:.0f} ms, "
                f"max {times[-1] * 1000:.1f} ms, over 5 ms {sum(t > 0.005 for t in times)}"
            )
        for _, at, seconds in self.gcs:
            lines.append(f"  a full collection at {at:.1f} s took {seconds * 1000:.0f} ms")
        if self.commits:
            walls = sorted(w for w, _, _ in self.commits)
            cpu = sum(c for _, c, _ in self.commits)
            rows = sum(n for _, _, n in self.commits)
            lines.append(
                f"writer: {len(walls)} commits of {rows} writes, wall p50 "
                f"{walls[len(walls) // 2] * 1000:.2f} ms max {walls[-1] * 1000:.1f} ms, "
                f"CPU {cpu:.2f} s ({cpu / max(rows, 1) * 1000:.3f} ms/write)"
            )
        if self.waits:
            waits = sorted(self.waits)
            lines.append(
                "writes waited for their commit: "
                + ", ".join(
                    f"p{q} {waits[min(len(waits) - 1, int(len(waits) * q / 100))] * 1000:.2f} ms"
                    for q in (50, 90, 95, 99)
                )
                + f", over 5 ms {sum(w > 0.005 for w in waits)}"
            )
            for second, waited in sorted(self.waits_by_second.items()):
                waited.sort()
                lines.append(
                    f"  second {second}: {len(waited)} writes, wait p50 "
                    f"{waited[len(waited) // 2] * 1000:.1f} ms, p99 "
                    f"{waited[int(len(waited) * 0.99)] * 1000:.1f} ms, "
                    f"max {waited[-1] * 1000:.1f} ms"
                )
            walls = sorted(w for w, _, _ in self.commits)
            lines.append(
                f"commits over 5 ms: {sum(w > 0.005 for w in walls)}; p99 "
                f"{walls[int(len(walls) * 0.99)] * 1000:.2f} ms"
            )
        for stall in self.stalls:
            lines.append(repr(stall))
        return "\n".join(lines) + "\n"

    def write(self) -> None:
        """Write the report, then what a full collection of everything (frozen or not) frees."""
        report = self.report()
        gc.unfreeze()
        start = time.perf_counter()
        freed = gc.collect()
        seconds = time.perf_counter() - start
        report += f"at exit, a full collection: {freed} objects freed in {seconds * 1000:.0f} ms\n"
        Path(self.path).write_text(report)
