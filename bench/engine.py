"""Rules-engine benchmark: random playouts of every variant, as the server and bots drive them.

One step is ``legal_moves()`` followed by ``play()`` of a random listed move,
the unit a solver or a bot pays for each move it considers. The playouts are
seeded, so two runs play the same games and their figures can be compared;
only the clocks differ.

Each figure is taken on two clocks: the process's CPU time, which is what
"one core" means and what other work on a shared machine does not inflate,
and wall time. On an idle machine they agree.

The games share one :class:`~shared.stuck.StuckProver`, as a server's games
do: what its searches remember carries from one game to the next.

Run ``python -m bench.engine`` (``--help`` for the knobs). Targets: at least
30,000 steps/s on Freecell and 10,000 on Gypsy, on one core. ``--compare`` runs
both builds of the tree, compiled and pure, alternated in one run, and prints
their ratio (bench/engine_builds.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import perf_counter, process_time
from typing import Any

from shared.build import BUILD, WHY
from shared.game import Game
from shared.games import new_game
from shared.stuck import StuckProver
from shared.variants.freecell.boards import COMPILED_CHILDREN

#: (variant, options): every variant with each value of its options
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("osmosis", {"deal_three": False}),
    ("osmosis", {"deal_three": True}),
    ("thumb_and_pouch", {}),
    ("gypsy", {}),
    ("freecell", {"autoplay": True}),
    ("freecell", {"autoplay": False}),
    ("westhaven", {}),
)

#: steps per second the engine is to reach, by variant
TARGETS = {"freecell": 30_000, "gypsy": 10_000}

#: a view is timed every this many steps, and its time taken out of the steps' time
VIEW_EVERY = 5
#: undos timed at the end of each game, walking back from the last move
UNDOS_PER_GAME = 20


@dataclass
class Timer:
    """Seconds spent on one kind of call, on both clocks, and how many calls."""

    cpu: float = 0.0
    wall: float = 0.0
    count: int = 0

    def add(self, cpu: float, wall: float, count: int = 1) -> None:
        self.cpu += cpu
        self.wall += wall
        self.count += count

    def rate(self, clock: str) -> float:
        spent = self.cpu if clock == "cpu" else self.wall
        return self.count / spent if spent else 0.0

    def micros(self) -> str:
        return f"{self.cpu / self.count * 1e6:,.1f}" if self.count else "-"


@dataclass
class Figures:
    """What one (variant, options) run measured."""

    variant: str
    options: dict[str, Any]
    games: int = 0
    steps: Timer = field(default_factory=Timer)
    new_game: Timer = field(default_factory=Timer)
    view: Timer = field(default_factory=Timer)
    undo: Timer = field(default_factory=Timer)
    states: Counter[str] = field(default_factory=Counter)


def run_config(
    variant: str,
    options: dict[str, Any],
    games: int,
    max_steps: int,
    seed: int,
    prover: StuckProver | None = None,
) -> Figures:
    """Play ``games`` seeded random games of at most ``max_steps`` steps and time them, their
    stuck searches run by ``prover`` (a new one when None)."""
    rng = random.Random(f"{seed}:{variant}:{sorted(options.items())}")
    figures = Figures(variant, options)
    if prover is None:
        prover = StuckProver()
    for _ in range(games):
        deal = rng.randint(1, 2**31 - 1)
        cpu, wall = process_time(), perf_counter()
        game = new_game(variant, seed=deal, options=options, prover=prover)
        figures.new_game.add(process_time() - cpu, perf_counter() - wall)
        figures.games += 1
        _playout(game, rng, max_steps, figures)
        figures.states[game.state] += 1
        _time_undos(game, figures)
    return figures


def _playout(game: Game, rng: random.Random, max_steps: int, figures: Figures) -> None:
    """Random steps until no move is listed; the clocks are read around the whole run (and
    around the sampled views, whose time is taken out), not around each step."""
    view_cpu = view_wall = 0.0
    steps = 0
    cpu, wall = process_time(), perf_counter()
    for step in range(max_steps):
        legal = game.legal_moves()
        if not legal:
            break
        if step % VIEW_EVERY == 0:
            # Between legal_moves() and play(), where a server builds the view it sends: the
            # state is already derived, so only building the view is counted.
            c, w = process_time(), perf_counter()
            game.view()
            view_cpu += process_time() - c
            view_wall += perf_counter() - w
        game.play(rng.choice(legal))
        steps += 1
    cpu, wall = process_time() - cpu, perf_counter() - wall
    views = (steps + VIEW_EVERY - 1) // VIEW_EVERY
    figures.view.add(view_cpu, view_wall, views)
    figures.steps.add(cpu - view_cpu, wall - view_wall, steps)


def _time_undos(game: Game, figures: Figures) -> None:
    """Walk back from the end of the game, timing undo() alone.

    ``game.state`` is read, untimed, before each undo: a server has already
    derived it for the view it sent, so the undo is not charged for it.
    """
    if game.state == "won":
        return
    for _ in range(UNDOS_PER_GAME):
        _ = game.state
        cpu, wall = process_time(), perf_counter()
        try:
            game.undo()
        except ValueError:  # back at the deal: nothing left to undo
            return
        figures.undo.add(process_time() - cpu, perf_counter() - wall)


def format_table(rows: Sequence[Figures]) -> str:
    """The figures as a plain-text table, one line per (variant, options)."""
    header = (
        "variant", "options", "games", "steps", "steps/s cpu", "steps/s wall", "target",
        "new_game us", "view us", "undo us", "end states",
    )  # fmt: skip
    lines = [header]
    for f in rows:
        rate = f.steps.rate("cpu")
        target = TARGETS.get(f.variant)
        verdict = "-" if target is None else f"{target:,} {'ok' if rate >= target else 'BELOW'}"
        options = ",".join(f"{k}={v}" for k, v in sorted(f.options.items())) or "-"
        lines.append(
            (
                f.variant,
                options,
                str(f.games),
                str(f.steps.count),
                f"{rate:,.0f}",
                f"{f.steps.rate('wall'):,.0f}",
                verdict,
                f.new_game.micros(),
                f.view.micros(),
                f.undo.micros(),
                " ".join(f"{k}:{v}" for k, v in sorted(f.states.items())),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
    text.append("(times in microseconds are CPU time per call; the target applies to steps/s cpu)")
    return "\n".join(line.rstrip() for line in text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=50, help="games per variant (default 50)")
    parser.add_argument(
        "--max-steps", type=int, default=200, help="steps per game at most (default 200)"
    )
    parser.add_argument(
        "--seed", type=int, default=2026, help="seed of the playouts (default 2026)"
    )
    parser.add_argument(
        "--variant", action="append", default=None, help="only this variant (repeatable)"
    )
    parser.add_argument(
        "--pure-python",
        action="store_true",
        help="list Freecell's stuck-search children in Python even where the compiled "
        "copy was built (the same answers, for comparing speeds)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="both builds of this tree alternated in one run, with their ratio "
        "(bench/engine_builds.py; takes --games, --max-steps, --seed, --variant, --rounds)",
    )
    # (one configuration by its index in CONFIGS, its figures as one JSON line: the
    # children of --compare)
    parser.add_argument("--config", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args(argv)
    if args.compare:
        from bench import engine_builds

        return engine_builds.main(list(argv if argv is not None else sys.argv[1:]))
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    prover = StuckProver(native=not args.pure_python)
    if args.config is not None:
        variant, options = CONFIGS[args.config]
        figures = run_config(variant, options, args.games, args.max_steps, args.seed, prover)
        print(
            json.dumps(
                {
                    "build": BUILD,
                    "why": WHY,
                    "rate": figures.steps.rate("cpu"),
                    "steps": figures.steps.count,
                    "states": sorted(figures.states.items()),
                }
            )
        )
        return 0
    compiled = COMPILED_CHILDREN is not None and not args.pure_python
    configs = [c for c in CONFIGS if args.variant is None or c[0] in args.variant]
    if not configs:
        parser.error(f"no variant among {args.variant}")
    print(
        f"engine benchmark: {args.games} games per variant, at most {args.max_steps} steps each, "
        f"seed {args.seed}, Python {sys.version.split()[0]}, the {BUILD} build, Freecell "
        f"children() "
        f"{'compiled' if compiled else 'in Python'}",
        flush=True,
    )
    rows = []
    for variant, options in configs:
        rows.append(run_config(variant, options, args.games, args.max_steps, args.seed, prover))
        print(f"  {variant} {options}: {rows[-1].steps.rate('cpu'):,.0f} steps/s", flush=True)
    print()
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
