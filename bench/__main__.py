"""``make bench``: every benchmark in turn, each printing its own figures.

Benchmarks measure; they never fail a build on a time. Each module under
bench/ has a ``main(argv)`` that takes its own flags; ``python -m bench NAME``
runs one, with the rest of the command line passed on to it.
"""

from __future__ import annotations

import importlib
import sys
import time

BENCHMARKS = (
    "engine",
    "solver",
    "hint",
    "load",
    "leaderboard",
    "browser",
    "winnability",
    "difficulty",
    "deal_pool",
    "arena",
    "arena_moves",
    "arena_push",
)


def main(argv: list[str]) -> int:
    names = argv[:1] if argv and argv[0] in BENCHMARKS else list(BENCHMARKS)
    rest = argv[1:] if argv and argv[0] in BENCHMARKS else argv
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        print(f"\n=== bench/{name}.py ===", flush=True)
        started = time.perf_counter()
        module.main(rest)
        print(f"(bench/{name}.py took {time.perf_counter() - started:.1f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
