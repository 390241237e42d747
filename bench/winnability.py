"""Winnability benchmark: how many deals of each of Aisleriot's games the solver wins,
proves lost, or leaves undecided, with the 95% interval of the share winnable.

Each deal (variant, options, seed) is solved once within a budget of CPU time
(``time.process_time`` of the worker, so the machine's load buys fewer positions
in wall time but not fewer per deal), and a won line is replayed through the
engine before it counts. Results are appended, one JSON line per deal, to a file
(``bench/results/winnability.jsonl`` unless told); a rerun skips the deals already
there, so a run can be stopped and continued. The deals are taken seed by seed
across the variants (seed 1 of each, then seed 2, ...), so a run stopped early
covers every variant alike. Workers run in a process pool at the lowest priority
(``nice``). At the end (or with ``--report``, from the file alone) it writes
docs/winnability.md::

    python -m bench winnability --deals 10000                 # both cores, nice 19
    python -m bench winnability --deals 300 --workers 1       # one core: a shared machine
    python -m bench winnability --report                      # rewrite the page from the file

The interval is Solvitaire's (Blake and Gent): an exact (Clopper-Pearson) 95%
binomial interval computed once with the undecided deals counted as lost and
once as won, and the union of the two.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path

from bench import hint_results
from bench.hint_results import PlayerRow
from bench.winnability_page import Row, write_page
from shared.game import Game
from shared.games import rules_for
from shared.solver import WON, Budget, solve_rules

#: (label, variant, options): every variant and stock option the server deals
CONFIGS: tuple[tuple[str, str, dict[str, bool]], ...] = (
    ("osmosis", "osmosis", {}),
    ("osmosis:deal_three", "osmosis", {"deal_three": True}),
    ("thumb_and_pouch", "thumb_and_pouch", {}),
    ("gypsy", "gypsy", {}),
    ("freecell", "freecell", {}),
    ("westhaven", "westhaven", {}),
)
RESULTS = Path(__file__).parent / "results" / "winnability.jsonl"
PAGE = Path(__file__).parent.parent / "docs" / "winnability.md"


@dataclass(frozen=True)
class Task:
    label: str
    seed: int
    seconds: float


def solve_one(task: Task) -> dict[str, object]:
    """Solve one deal within ``task.seconds`` of this process's CPU time; a won line is
    replayed through the engine (``replayed``) before it is reported."""
    _, variant, options = next(c for c in CONFIGS if c[0] == task.label)
    rules = rules_for(variant, options)
    deal = rules.deal(task.seed)
    started = time.process_time()
    result = solve_rules(
        rules, deal, Budget(positions=None, seconds=task.seconds, clock=time.process_time)
    )
    cpu = time.process_time() - started
    replayed = None
    if result.verdict == WON:
        game = Game(rules, task.seed, position=deal.copy())
        for action in result.line:
            game.play(action)
        replayed = game.state == "won"
    return {
        "config": task.label,
        "seed": task.seed,
        "verdict": result.verdict,
        "positions": result.positions,
        "cpu": round(cpu, 4),
        "line": len(result.line),
        "replayed": replayed,
        "budget": task.seconds,
    }


def load(path: Path) -> list[dict[str, object]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        if line.strip():
            rows.append(json.loads(line))
    return rows


def pending(
    done: set[tuple[str, int]], labels: Sequence[str], first: int, deals: int, seconds: float
) -> Iterator[Task]:
    """The deals still to solve, seed by seed across the variants."""
    for seed in range(first, first + deals):
        for label in labels:
            if (label, seed) not in done:
                yield Task(label, seed, seconds)


def _lowest_priority(niceness: int) -> None:
    os.nice(niceness)


def run(
    path: Path,
    labels: Sequence[str],
    first: int,
    deals: int,
    seconds: float,
    workers: int,
    niceness: int,
) -> None:
    done = {(str(r["config"]), int(str(r["seed"]))) for r in load(path)}
    todo = pending(done, labels, first, deals, seconds)
    path.parent.mkdir(parents=True, exist_ok=True)
    with (
        path.open("a") as out,
        ProcessPoolExecutor(workers, initializer=_lowest_priority, initargs=(niceness,)) as pool,
    ):
        running: set[Future[dict[str, object]]] = set()
        for task in todo:
            running.add(pool.submit(solve_one, task))
            if len(running) >= 2 * workers:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    _record(out, future.result())
        for future in running:
            _record(out, future.result())


def _record(out: object, row: dict[str, object]) -> None:
    assert hasattr(out, "write") and hasattr(out, "flush")
    out.write(json.dumps(row) + "\n")
    out.flush()
    mark = "" if row["replayed"] in (None, True) else "  LINE DID NOT REPLAY"
    print(
        f"  {row['config']:20} {row['seed']:6} {row['verdict']:10} {row['cpu']:7.2f} s{mark}",
        flush=True,
    )


def rows(results: list[dict[str, object]], first: int, deals: int) -> list[Row]:
    """One row per configuration over the deals of ``first .. first + deals - 1`` found in
    the results (the last result of a deal counts)."""
    by_deal: dict[tuple[str, int], dict[str, object]] = {}
    for r in results:
        seed = int(str(r["seed"]))
        if first <= seed < first + deals:
            by_deal[(str(r["config"]), seed)] = r
    out = []
    for label, _, _ in CONFIGS:
        mine = [r for (c, _), r in sorted(by_deal.items()) if c == label]
        if not mine:
            continue
        seeds = sorted(int(str(r["seed"])) for r in mine)
        cpus = sorted(float(str(r["cpu"])) for r in mine)
        verdicts = [str(r["verdict"]) for r in mine]
        budgets = {float(str(r["budget"])) for r in mine}
        out.append(
            Row(
                label=label,
                deals=len(mine),
                first_seed=seeds[0],
                last_seed=seeds[-1],
                won=verdicts.count("won"),
                unwinnable=verdicts.count("unwinnable"),
                undecided=verdicts.count("unknown"),
                not_replayed=sum(1 for r in mine if r["replayed"] is False),
                cpu_mean=statistics.mean(cpus),
                cpu_median=statistics.median(cpus),
                cpu_p95=cpus[min(len(cpus) - 1, int(0.95 * len(cpus)))],
                cpu_max=cpus[-1],
                budget=max(budgets),
            )
        )
    return out


def player_figure(
    results: list[dict[str, object]], games: list[dict[str, object]], first: int, deals: int
) -> list[tuple[PlayerRow, int]]:
    """The hint player's wins per variant over the page's deals, each with the solver's
    wins over the same seeds (the last result of a deal counts)."""
    verdict = {(str(r["config"]), int(str(r["seed"]))): str(r["verdict"]) for r in results}
    out = []
    for player in hint_results.player_rows(games, first, deals):
        won = sum(verdict.get((player.label, seed)) == WON for seed in player.seeds)
        out.append((player, won))
    return out


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench winnability")
    parser.add_argument("--deals", type=int, default=10_000, help="deals per variant")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per deal")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--nice", type=int, default=19, help="the workers' niceness")
    parser.add_argument(
        "--variants", default="", help="labels, comma-separated: " + ",".join(c[0] for c in CONFIGS)
    )
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--page", type=Path, default=PAGE)
    parser.add_argument(
        "--players", type=Path, default=hint_results.RESULTS, help="the hint player's games"
    )
    parser.add_argument("--report", action="store_true", help="only write the page")
    parser.add_argument("--command", default="", help="the command to name on the page")
    parser.add_argument("--note", default="", help="a paragraph about the run, for the page")
    args = parser.parse_args(list(argv))
    labels = [c[0] for c in CONFIGS]
    if args.variants:
        wanted = args.variants.split(",")
        unknown = set(wanted) - set(labels)
        if unknown:
            parser.error(f"no such variant: {', '.join(sorted(unknown))}")
        labels = wanted
    if not args.report:
        print(
            f"Solving deals {args.first_seed}..{args.first_seed + args.deals - 1} of "
            f"{', '.join(labels)}, {args.seconds:g} s of CPU each, {args.workers} "
            f"worker(s) at nice {args.nice}; results in {args.results}",
            flush=True,
        )
        run(
            args.results, labels, args.first_seed, args.deals, args.seconds, args.workers, args.nice
        )
    results = load(args.results)
    table = rows(results, args.first_seed, args.deals)
    players = player_figure(results, hint_results.load(args.players), args.first_seed, args.deals)
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores"
    )
    command = args.command or "python -m bench winnability " + " ".join(argv)
    write_page(args.page, table, command.strip(), machine, args.deals, args.note, players)
    for row in table:
        print(
            f"  {row.label:20} deals {row.deals:6}  won {row.won:6}  unwinnable "
            f"{row.unwinnable:6}  undecided {row.undecided:5}",
            flush=True,
        )
    print(f"wrote {args.page}")
