"""Solver benchmark: Freecell deals solved, 11982, winnability of the other
variants, daily selection time, and the stuck check's cost in random play.

Run ``python -m bench solver`` for everything (long: run it in the background),
``python -m bench solver --quick`` for a small sample in a minute or two, or pick
sections and sizes::

    python -m bench solver --sections freecell --freecell-deals 1000
    python -m bench solver --sections variants --seeds 200 --variants gypsy
    python -m bench solver --sections unwinnable,daily,stuck

Targets: Freecell deals 1-1000 all solved, median <= 20 ms, total <= 60 s;
daily selection < 10 s per variant (the daily section selects as the server does).
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from server.config import Config
from server.daily import deals as daily
from shared.build import BUILD
from shared.game import Game
from shared.games import new_game, rules_for
from shared.solver import UNKNOWN, UNWINNABLE, WON, Budget, solve, solve_position
from shared.stuck import StuckProver
from shared.variants import STANDARD

SECTIONS = ("freecell", "unwinnable", "variants", "daily", "stuck")

#: (variant, options) of the winnability section: Osmosis with each stock option
CONFIGS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("osmosis", {}),
    ("osmosis", {"deal_three": True}),
    ("thumb_and_pouch", {}),
    ("gypsy", {}),
    ("westhaven", {}),
    ("freecell", {}),
)


def timed_budget(seconds: float, positions: int | None = None) -> Budget:
    return Budget(positions=positions, seconds=seconds, clock=time.perf_counter)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def bench_freecell(deals: int, seconds: float) -> None:
    times: list[float] = []
    unsolved: list[tuple[int, str]] = []
    positions = 0
    for seed in range(1, deals + 1):
        result = solve("freecell", seed, {}, timed_budget(seconds))
        times.append(result.seconds or 0.0)
        positions += result.positions
        if result.verdict != WON:
            unsolved.append((seed, result.verdict))
    ordered = sorted(times)
    print(f"Freecell MS deals 1..{deals}, {seconds:g} s budget per deal, the {BUILD} build")
    print(f"  solved {deals - len(unsolved)} / {deals}; not solved: {unsolved or 'none'}")
    print(
        f"  per deal: median {ms(statistics.median(ordered))}, p95 {ms(percentile(ordered, 0.95))},"
        f" max {ms(ordered[-1])}; total {sum(ordered):.1f} s;"
        f" positions {positions} ({positions / max(sum(ordered), 1e-9):.0f}/s)"
    )


def bench_unwinnable(seconds: float) -> None:
    result = solve("freecell", 11982, {}, timed_budget(seconds))
    print(
        f"Freecell 11982 ({seconds:g} s budget): {result.verdict} after {result.positions}"
        f" positions in {result.seconds or 0:.1f} s"
    )


def bench_variants(seeds: int, seconds: float, only: list[str] | None) -> None:
    print(f"Winnability, seeds 1..{seeds}, {seconds:g} s budget per deal")
    for variant, options in CONFIGS:
        if only and variant not in only:
            continue
        counts: Counter[str] = Counter()
        times: list[float] = []
        for seed in range(1, seeds + 1):
            result = solve(variant, seed, options, timed_budget(seconds))
            counts[result.verdict] += 1
            times.append(result.seconds or 0.0)
        label = variant + ("".join(f" {k}={v}" for k, v in options.items()))
        print(
            f"  {label:28} won {counts[WON]:4}  unwinnable {counts[UNWINNABLE]:4}"
            f"  unknown {counts[UNKNOWN]:4}  time/deal mean {ms(statistics.mean(times))},"
            f" median {ms(statistics.median(times))}",
            flush=True,
        )


#: stands in for the server's secret: the candidates are drawn as the server draws them
BENCH_SECRET = b"patience-club bench: the daily selection"
FIRST_DAY = datetime.date(2026, 12, 1)


def bench_daily(days: int, only: list[str] | None) -> None:
    """Daily selection as the server makes it (server/daily/deals.py): its candidate keys for
    ``days`` consecutive dates, its budget per candidate (``candidate_budget`` with the
    default ``daily_budget_s``, on a wall clock as the worker's), at most ``CANDIDATES``
    a day. Osmosis ``deal_three`` (not a daily: the server deals the default options)
    gets the Osmosis budget. Wall time is what a player waits for; CPU time is what the
    machine's load does not change."""
    seconds = Config().daily_budget_s
    print(
        f"Daily selection as the server makes it: {days} days from {FIRST_DAY}, at most"
        f" {daily.CANDIDATES} candidates a day, per candidate {seconds:g} s at most and"
        f" the variant's positions ({', '.join(f'{v.id} {v.daily_positions}' for v in STANDARD)})"
    )
    for variant, options in CONFIGS:
        if only and variant not in only:
            continue
        walls: list[float] = []
        cpus: list[float] = []
        tries: list[int] = []
        failed = 0
        for day in range(days):
            date = (FIRST_DAY + datetime.timedelta(days=day)).isoformat()
            keys = daily.candidate_keys(BENCH_SECRET, date, variant)
            wall, cpu = time.perf_counter(), time.process_time()
            tried = next(
                (
                    n
                    for n, key in enumerate(keys, 1)
                    if solve_position(
                        new_game(variant, key=key, options=options),
                        daily.candidate_budget(STANDARD.get(variant), seconds, time.monotonic),
                    ).verdict
                    == WON
                ),
                None,
            )
            if tried is None:
                failed += 1
                continue
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            tries.append(tried)
        label = variant + ("".join(f" {k}={v}" for k, v in options.items()))
        found = (
            f"wall mean {statistics.mean(walls):.2f} s, max {max(walls):.2f} s;"
            f" cpu mean {statistics.mean(cpus):.2f} s, max {max(cpus):.2f} s;"
            f" candidates tried mean {statistics.mean(tries):.1f}, max {max(tries)}"
            if walls
            else "never"
        )
        print(f"  {label:28} {found}; days without a proven deal: {failed}", flush=True)


def bench_stuck(games: int, steps: int) -> None:
    """Freecell random playouts (one step: legal_moves + play), then the stuck searches
    those games needed, timed alone (cheap checks first, as the Game does)."""
    rules = rules_for("freecell")
    rng = random.Random(1)
    done = 0
    boards = []
    playing = StuckProver()  # shared by the games, as a server's games share one
    started = time.perf_counter()
    for seed in range(1, games + 1):
        game = Game(rules, seed, prover=playing)
        for _ in range(steps):
            moves = game.legal_moves()
            if not moves:
                break
            boards.append(game.position.copy())
            game.play(rng.choice(moves))
            done += 1
        boards.append(game.position.copy())  # where the game ended: stuck, most often
    total = time.perf_counter() - started
    print(
        f"Freecell random playouts, seeds 1..{games}, up to {steps} steps:"
        f" {done} steps, {done / total:.0f} steps/s"
    )
    prover = StuckProver()  # a fresh one: every search below runs, none is remembered
    searched: list[float] = []
    verdicts: Counter[bool] = Counter()
    for pos in boards:
        legal = rules.legal(pos)
        if not legal or rules.can_progress_now(pos, legal) or rules.quick_progress(pos):
            continue
        began = time.perf_counter()
        verdicts[prover.no_progress_possible(rules, pos)] += 1
        searched.append(time.perf_counter() - began)
    ordered = sorted(searched) or [0.0]
    print(
        f"  stuck searches: {len(searched)} of {len(boards)} positions"
        f" (proven stuck {verdicts[True]}), median {ms(statistics.median(ordered))},"
        f" p95 {ms(percentile(ordered, 0.95))}, max {ms(ordered[-1])}, total {sum(ordered):.2f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench solver", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small sample of every section")
    parser.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated")
    parser.add_argument("--freecell-deals", type=int, default=1000)
    parser.add_argument("--freecell-seconds", type=float, default=60.0)
    parser.add_argument("--unwinnable-seconds", type=float, default=300.0)
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2.0, help="budget per deal, variants")
    parser.add_argument("--variants", default="", help="comma-separated ids (default all)")
    parser.add_argument("--days", type=int, default=20, help="daily selections per variant")
    parser.add_argument("--playout-games", type=int, default=30)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.quick:
        args.freecell_deals, args.freecell_seconds = 50, 10.0
        args.unwinnable_seconds = 10.0
        args.seeds, args.days = 10, 2
    sections = [s for s in args.sections.split(",") if s]
    only = [v for v in args.variants.split(",") if v] or None
    if "freecell" in sections:
        bench_freecell(args.freecell_deals, args.freecell_seconds)
    if "unwinnable" in sections:
        bench_unwinnable(args.unwinnable_seconds)
    if "variants" in sections:
        bench_variants(args.seeds, args.seconds, only)
    if "daily" in sections:
        bench_daily(args.days, only)
    if "stuck" in sections:
        bench_stuck(args.playout_games, 300)
    return 0


if __name__ == "__main__":
    main()
