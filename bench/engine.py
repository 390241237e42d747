"""Rules-engine benchmark: random playouts of every variant, as the server and bots drive them.

One step is ``legal_moves()`` followed by ``play()`` of a random listed move,
the unit a solver or a bot pays for each move it considers. The playouts are
seeded, so two runs on one machine play the same games and their figures can
be compared; only the clock differs.

Run ``python -m bench.engine`` (``--help`` for the knobs). Targets (issue 2):
at least 30,000 steps/s on Freecell and 10,000 on Gypsy, on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from shared.games import new_game

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

#: steps per second issue 2 asks for, by variant
TARGETS = {"freecell": 30_000, "gypsy": 10_000}

#: a view is timed every this many steps (timing every step would double the run for no gain)
VIEW_EVERY = 5
#: undos timed at the end of each game, walking back from the last move
UNDOS_PER_GAME = 20


@dataclass
class Figures:
    """What one (variant, options) run measured; times are seconds."""

    variant: str
    options: dict[str, Any]
    games: int = 0
    steps: int = 0
    step_time: float = 0.0
    new_game_time: float = 0.0
    views: int = 0
    view_time: float = 0.0
    undos: int = 0
    undo_time: float = 0.0
    slowest_step: float = 0.0
    states: Counter[str] = field(default_factory=Counter)

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.step_time if self.step_time else 0.0


def run_config(
    variant: str, options: dict[str, Any], games: int, max_steps: int, seed: int
) -> Figures:
    """Play ``games`` seeded random games of at most ``max_steps`` steps and time them."""
    rng = random.Random(f"{seed}:{variant}:{sorted(options.items())}")
    figures = Figures(variant, options)
    for _ in range(games):
        deal = rng.randint(1, 2**31 - 1)
        start = perf_counter()
        game = new_game(variant, seed=deal, options=options)
        figures.new_game_time += perf_counter() - start
        figures.games += 1
        for step in range(max_steps):
            start = perf_counter()
            legal = game.legal_moves()
            listed = perf_counter()
            if not legal:
                figures.step_time += listed - start
                break
            if step % VIEW_EVERY == 0:
                # Timed between legal_moves() and play(), where the view is what a server
                # sends: the state is already derived, so only building the view is counted.
                game.view()
                viewed = perf_counter()
                figures.view_time += viewed - listed
                figures.views += 1
            else:
                viewed = perf_counter()
            game.play(rng.choice(legal))
            played = perf_counter()
            spent = (listed - start) + (played - viewed)
            figures.step_time += spent
            figures.slowest_step = max(figures.slowest_step, spent)
            figures.steps += 1
        figures.states[game.state] += 1
        _time_undos(game, figures)
    return figures


def _time_undos(game: Any, figures: Figures) -> None:
    """Walk back from the end of the game, timing undo() alone.

    ``game.state`` is read, untimed, before each undo: a server has already
    derived it for the view it sent, so the undo is not charged for it.
    """
    if game.state == "won":
        return
    for _ in range(UNDOS_PER_GAME):
        _ = game.state
        start = perf_counter()
        try:
            game.undo()
        except ValueError:  # back at the deal: nothing left to undo
            return
        figures.undo_time += perf_counter() - start
        figures.undos += 1


def _micro(total: float, count: int) -> str:
    return f"{total / count * 1e6:,.1f}" if count else "-"


def format_table(rows: Sequence[Figures]) -> str:
    """The figures as a plain-text table, one line per (variant, options)."""
    header = (
        "variant", "options", "games", "steps", "steps/s", "target", "slowest ms",
        "new_game us", "view us", "undo us", "end states",
    )  # fmt: skip
    lines = [header]
    for f in rows:
        target = TARGETS.get(f.variant)
        verdict = "-"
        if target is not None:
            verdict = f"{target:,} {'ok' if f.steps_per_second >= target else 'BELOW'}"
        options = ",".join(f"{k}={v}" for k, v in sorted(f.options.items())) or "-"
        states = " ".join(f"{k}:{v}" for k, v in sorted(f.states.items()))
        lines.append(
            (
                f.variant,
                options,
                str(f.games),
                str(f.steps),
                f"{f.steps_per_second:,.0f}",
                verdict,
                f"{f.slowest_step * 1e3:,.1f}",
                _micro(f.new_game_time, f.games),
                _micro(f.view_time, f.views),
                _micro(f.undo_time, f.undos),
                states,
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = [
        "  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True)) for line in lines
    ]
    text.insert(1, "  ".join("-" * w for w in widths))
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
    args = parser.parse_args(argv)
    configs = [c for c in CONFIGS if args.variant is None or c[0] in args.variant]
    if not configs:
        parser.error(f"no variant among {args.variant}")
    print(
        f"engine benchmark: {args.games} games per variant, at most {args.max_steps} steps each, "
        f"seed {args.seed}, Python {sys.version.split()[0]}",
        flush=True,
    )
    rows = []
    for variant, options in configs:
        rows.append(run_config(variant, options, args.games, args.max_steps, args.seed))
        print(f"  {variant} {options}: {rows[-1].steps_per_second:,.0f} steps/s", flush=True)
    print()
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
