"""Hint benchmark: how fast a hint answers, and how well a player who always follows it does.

Per variant, the same deals (seeds 1..N) are played twice to their end by a
player who plays every hint it is given: once with the players' hint, which
sees only what the player sees (``shared.solver.hint`` on a PlayerView), and
once with the all-seeing reference (``shared.solver.hint_all_seeing``, which
sees the face-down cards), given the same positions in all (samples x
positions). A game ends won, stuck, or lost to a cycle: both hints are
functions of the position, so a position met twice would repeat forever.

Figures: the share of deals won by each, the difference in points, and the
players' hint's latency (CPU time per hint, p50 / p95 / max, over every hint
of the run; wall time beside it). Run everything, in the background (it takes
hours: docs/solver.md gives the last run's time)::

    python -m bench hint                       # 100 deals per variant, the default budget
    python -m bench hint --deals 10 --variants westhaven,gypsy --jobs 2
    python -m bench hint --samples 12 --positions 1000   # another budget

The goal: the players' hint within 10 points of the all-seeing one, and its
p95 well under a second on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView
from shared.solver import DEFAULT_HINT_BUDGET, Budget, HintBudget, hint, hint_all_seeing
from shared.variants import STANDARD

KINDS = ("view", "all-seeing")
#: actions a followed game may take at most (none of the five needs near this many)
MAX_ACTIONS = 2_000


@dataclass
class Played:
    """One deal played to its end by one kind of hint."""

    variant: str
    seed: int
    kind: str
    state: str
    actions: int
    #: CPU and wall seconds of each hint asked
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.state == "won"


def adviser(kind: str, budget: HintBudget, avoid: bool) -> Callable[[Game], str | None]:
    """The hint of ``kind``: from the player's view, or from every card with as many
    positions in all; with ``avoid``, each told where the player has been (the views it
    saw, the positions it was in) and never leading back there."""
    whole = Budget(positions=budget.samples * budget.positions)
    views: set[PlayerView] = set()
    keys: set[object] = set()

    def from_view(game: Game) -> str | None:
        view = PlayerView.of(game)
        move = hint(view, game.rules, sampling_seed=0, budget=budget, avoid=views)
        if avoid:
            views.add(view)
        return move

    def all_seeing(game: Game) -> str | None:
        move = hint_all_seeing(game, whole, avoid=keys)
        if avoid:
            keys.add(game.position.key())
        return move

    return from_view if kind == "view" else all_seeing


def play(variant: str, seed: int, kind: str, budget: HintBudget, avoid: bool = True) -> Played:
    """Deal ``seed`` of ``variant``, followed hint by hint to its end."""
    game = new_game(variant, seed=seed)
    advise = adviser(kind, budget, avoid)
    seen: set[object] = set()
    played = Played(variant, seed, kind, "playing", 0)
    while game.state == "playing" and game.ply < MAX_ACTIONS:
        key = game.position.key()
        if key in seen:
            played.state = "cycle"
            break
        seen.add(key)
        cpu, wall = time.process_time(), time.perf_counter()
        move = advise(game)
        played.cpu.append(time.process_time() - cpu)
        played.wall.append(time.perf_counter() - wall)
        if move is None:
            break
        game.play(move)
    else:
        played.state = game.state if game.state != "playing" else "too long"
    played.actions = game.ply
    return played


def _play(job: tuple[str, int, str, HintBudget, bool]) -> Played:
    return play(*job)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def report(variant: str, results: list[Played]) -> list[str]:
    """One row of the table for ``variant``."""
    by_kind = {kind: [r for r in results if r.kind == kind] for kind in KINDS}
    view, seeing = by_kind["view"], by_kind["all-seeing"]
    won = {kind: sum(r.won for r in rows) for kind, rows in by_kind.items()}
    share = {kind: 100 * won[kind] / max(1, len(rows)) for kind, rows in by_kind.items()}
    cpu = [t for r in view for t in r.cpu]
    wall = [t for r in view for t in r.wall]
    seeing_cpu = [t for r in seeing for t in r.cpu]
    cycles = sum(r.state == "cycle" for r in view)
    return [
        variant,
        f"{len(view)}",
        f"{won['view']} ({share['view']:.0f}%)",
        f"{won['all-seeing']} ({share['all-seeing']:.0f}%)",
        f"{share['view'] - share['all-seeing']:+.0f}",
        f"{ms(percentile(cpu, 0.5))} / {ms(percentile(cpu, 0.95))} / {ms(max(cpu, default=0))}",
        f"{ms(percentile(wall, 0.5))} / {ms(percentile(wall, 0.95))}",
        f"{ms(percentile(seeing_cpu, 0.5))} / {ms(percentile(seeing_cpu, 0.95))}",
        f"{statistics.mean(len(r.cpu) for r in view):.0f}" if view else "-",
        f"{cycles}",
    ]


HEADER = [
    "variant", "deals", "won: view", "won: all-seeing", "points", "view hint ms cpu p50/p95/max",
    "wall p50/p95", "all-seeing ms p50/p95", "hints/game", "cycles",
]  # fmt: skip


def table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [HEADER, *rows]) for i in range(len(HEADER))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    rule = "  ".join("-" * w for w in widths)
    head = "  ".join(cell.ljust(w) for cell, w in zip(HEADER, widths, strict=True))
    return "\n".join([head, rule, *lines])


def main(argv: Sequence[str] | None = None) -> None:
    about = __doc__.split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench hint", description=about)
    parser.add_argument("--deals", type=int, default=100, help="deals per variant (default 100)")
    parser.add_argument("--first", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument(
        "--variants", default=",".join(STANDARD.ids), help="comma-separated ids (default all)"
    )
    parser.add_argument("--samples", type=int, default=DEFAULT_HINT_BUDGET.samples)
    parser.add_argument("--positions", type=int, default=DEFAULT_HINT_BUDGET.positions)
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help="view, all-seeing or both (default both)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--no-avoid",
        action="store_true",
        help="the player does not tell the hints where it has been (so they may lead it round)",
    )
    args, _ = parser.parse_known_args(argv)
    budget = HintBudget(samples=args.samples, positions=args.positions)
    variants = [v for v in args.variants.split(",") if v]
    kinds = [k for k in args.kinds.split(",") if k]
    for variant in variants:
        STANDARD.get(variant)
    seeds = range(args.first, args.first + args.deals)
    print(
        f"hint: {args.deals} deals per variant (seeds {seeds.start}..{seeds.stop - 1}), "
        f"{budget.samples} samples x {budget.positions} positions, {args.jobs} process(es), "
        f"{'hints not told' if args.no_avoid else 'hints told'} where the player has been",
        flush=True,
    )
    started = time.perf_counter()
    rows = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for variant in variants:
            begun = time.perf_counter()
            told = not args.no_avoid
            jobs = [(variant, seed, kind, budget, told) for kind in kinds for seed in seeds]
            results = list(pool.map(_play, jobs))
            rows.append(report(variant, results))
            print(f"  {variant}: {time.perf_counter() - begun:.0f} s", flush=True)
            print(table(rows[-1:]), flush=True)
    print()
    print(table(rows))
    print(f"(all of it took {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
