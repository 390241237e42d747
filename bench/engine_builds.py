"""The engine benchmark in both builds of this tree, alternated in one run: compiled against pure.

``python -m bench engine --compare`` (or ``python -m bench.engine_builds``)
plays every variant's seeded random games (bench/engine.py) once in the
compiled build and once in the pure one (``PATIENCE_PURE=1``), each in a fresh
process, variant after variant, so that both builds meet the same machine
load within seconds of each other, and prints each build's steps per second
of CPU and their ratio. Both builds play the same games: a differing step
count or end state is reported as an error, since it would mean the builds
do not compute the same moves. ``--rounds N`` repeats the alternation and
keeps each build's median. The load average is printed at the start and the
end: on a shared machine, figures are comparable only within one run.

The target of the compiled build: at least 3 times the pure steps/s for
every variant.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence

#: compiled steps/s over pure steps/s that the compiled build is to reach for every variant
TARGET_RATIO = 3.0
BUILDS = ("compiled", "pure")


def load_average() -> str:
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def run_child(build: str, index: int, games: int, max_steps: int, seed: int) -> dict[str, object]:
    """One configuration in a fresh process of ``build``; what it measured, as a map."""
    env = dict(os.environ)
    env.pop("PATIENCE_PURE", None)
    if build == "pure":
        env["PATIENCE_PURE"] = "1"
    command = [
        sys.executable, "-m", "bench.engine", "--config", str(index), "--json",
        "--games", str(games), "--max-steps", str(max_steps), "--seed", str(seed),
    ]  # fmt: skip
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["build"] != build:
        raise SystemExit(
            f"asked for the {build} build, the child ran the {figures['build']} build "
            f"({figures['why']}): rebuild with `pip install -e .` (or make)"
        )
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    from bench.engine import CONFIGS

    parser = argparse.ArgumentParser(
        prog="python -m bench engine --compare", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=20, help="games per variant (default 20)")
    parser.add_argument("--max-steps", type=int, default=200, help="steps per game at most")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the playouts")
    parser.add_argument("--rounds", type=int, default=1, help="alternations (median kept)")
    parser.add_argument("--variant", action="append", default=None, help="only this variant")
    parser.add_argument("--compare", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    indices = [i for i, c in enumerate(CONFIGS) if args.variant is None or c[0] in args.variant]
    print(
        f"engine benchmark, compiled against pure, alternated: {args.games} games per "
        f"variant, at most {args.max_steps} steps each, seed {args.seed}, {args.rounds} "
        f"round(s), Python {sys.version.split()[0]}; load average {load_average()}",
        flush=True,
    )
    rates: dict[tuple[int, str], list[float]] = {}
    shape: dict[int, tuple[object, object]] = {}
    errors = 0
    for _ in range(args.rounds):
        for index in indices:
            for build in BUILDS:
                figures = run_child(build, index, args.games, args.max_steps, args.seed)
                rates.setdefault((index, build), []).append(float(str(figures["rate"])))
                seen = (figures["steps"], figures["states"])
                if shape.setdefault(index, seen) != seen:
                    errors += 1
                    print(f"  ERROR: {CONFIGS[index]} played differently in the {build} build")
            variant, options = CONFIGS[index]
            print(f"  {variant} {options}: done", flush=True)
    header = ("variant", "options", "steps", "compiled steps/s", "pure steps/s", "ratio", "target")
    lines = [header]
    for index in indices:
        variant, options = CONFIGS[index]
        compiled = statistics.median(rates[(index, "compiled")])
        pure = statistics.median(rates[(index, "pure")])
        ratio = compiled / pure if pure else 0.0
        verdict = f"{TARGET_RATIO:g}x {'ok' if ratio >= TARGET_RATIO else 'BELOW'}"
        opts = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "-"
        steps = str(shape[index][0])
        lines.append(
            (variant, opts, steps, f"{compiled:,.0f}", f"{pure:,.0f}", f"{ratio:.2f}", verdict)
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print()
    for n, line in enumerate(lines):
        print("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))
    print(f"(steps/s of CPU, one step: legal_moves() and play(); load average {load_average()})")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
