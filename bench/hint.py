"""Hint benchmark: how fast a hint answers, and how well a player who always follows it does.

Per variant, the same deals (seeds 1..N) are played twice by a player who plays
every hint it is given: once with the players' hint, which sees only what the
player sees (``shared.solver.hint`` on a PlayerView, sampling seed 0, as
``server/games/hints.py`` asks it), and once with the all-seeing reference
(``shared.solver.hint_all_seeing``, which sees the face-down cards: the hint the
server gave before), given as many positions in all (samples x positions).
Osmosis is played at its default options (one card per deal);
``--variants osmosis:deal_three`` plays its other stock. By default the player
tells each hint where it has been (the hints' ``avoid``: the views it saw, the
positions it was in), as the server tells the players' hint (``hint_job``: the views of
every position of the game so far); ``--no-avoid`` asks without, as the server did before.

A game ends:

- ``won``;
- with no hint: the game is over (stuck: the engine's proof says no progress is
  left) or no move is legal;
- on a repeated position: both hints are functions of what they are given (the
  position, or the view it decides, and what to avoid, which a repeat does not
  change without ``avoid``), so a player who follows them from a position met
  before may go round that circle for ever; not won;
- at the move cap (``MAX_ACTIONS`` actions): not won.

Figures: the share of deals won by each, the difference in points, the CPU time
per hint in that run, and the latency of the players' hint at the default
budget (``DEFAULT_HINT_BUDGET``, no ``avoid``), timed
afterwards on ``PROBES`` of the positions the run met per variant (CPU time of
the process, p50 / p95 / max; wall time beside it, which the machine's load
stretches). Budgets count positions only (no clock), so the answers are the same
on any machine; the server adds a clock (``hint_budget``, 1 s of wall time),
which cuts short only the hints that take longer (the table counts them). Run
everything in the background (docs/solver.md gives the last run's time)::

    python -m bench hint                     # 100 deals, the five variants, the default budget
    python -m bench hint --deals 4 --variants westhaven,gypsy --log
    python -m bench hint --positions 200 --no-avoid   # a smaller budget, hints told nothing
    python -m bench hint --first 100001 --deals 100 --kinds view --results \
        bench/results/hint_games.jsonl   # the player's figure of docs/winnability.md

With ``--results FILE`` every game is appended to FILE as it ends (bench/hint_results.py)
and a game already there under the same budget and telling is not played again: a run
stopped is continued by the same command, and its table counts the games of the file.

The goal: the players' hint within 10 points of the all-seeing one.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from bench import hint_results
from shared.game import Game
from shared.games import new_game
from shared.player_view import PlayerView
from shared.position import Position
from shared.solver import DEFAULT_HINT_BUDGET, Budget, HintBudget, hint, hint_all_seeing
from shared.variants import STANDARD

KINDS = ("view", "all-seeing")
#: the five variants, Osmosis at its default options (one card per deal)
VARIANTS = ("osmosis", "thumb_and_pouch", "gypsy", "freecell", "westhaven")
#: actions a followed game may take at most (the longest games, Gypsy's, take a few hundred)
MAX_ACTIONS = 2_000
#: the server's cap on one hint (``Config.hint_budget``), for the count of hints beyond it
SERVER_CAP_S = 1.0
#: every how many positions of a followed game one is kept for the latency part
PROBE_EVERY = 10
#: positions per variant the latency part times the players' hint at (spread over the deals)
PROBES = 60
#: how a followed game ended; only the first is a win
ENDS = ("won", "no hint", "repeat", "cap")


@dataclass(frozen=True)
class Setup:
    """One variant as the bench plays it: its id, the options it names (switched on) and
    all its options as the rules hold them."""

    variant: str
    named: tuple[str, ...]
    options: tuple[tuple[str, bool | int], ...]

    @property
    def label(self) -> str:
        return ":".join([self.variant, *self.named])

    @classmethod
    def parse(cls, text: str) -> Setup:
        """``osmosis`` or ``osmosis:deal_three`` (options switched on, after colons)."""
        variant, *names = text.split(":")
        rules = STANDARD.rules(variant, dict.fromkeys(names, True))
        return cls(variant, tuple(names), tuple(sorted(rules.options.items())))


@dataclass
class Played:
    """One deal followed hint by hint to its end by one kind of hint."""

    label: str
    seed: int
    kind: str
    end: str
    actions: int
    #: CPU and wall seconds of each hint asked
    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)
    #: positions kept for the latency part (the players' hint only)
    probes: list[Position] = field(default_factory=list)

    @property
    def won(self) -> bool:
        return self.end == "won"


def adviser(kind: str, budget: HintBudget, avoid: bool) -> Callable[[Game], str | None]:
    """The hint of ``kind``: from the player's view (sampling seed 0, as the server asks
    it), or from every card with as many positions in all; with ``avoid``, each told where
    the player has been (the views it saw, the positions it was in: the hints' ``avoid``)."""
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


def play(setup: Setup, seed: int, kind: str, budget: HintBudget, avoid: bool) -> Played:
    """Deal ``seed`` of ``setup``, followed hint by hint to its end (the module docstring);
    every ``PROBE_EVERY``-th position the players' hint was asked at is kept for the
    latency part."""
    game = new_game(setup.variant, seed=seed, options=dict(setup.options))
    advise = adviser(kind, budget, avoid)
    seen: set[object] = set()
    played = Played(setup.label, seed, kind, "cap", 0)
    while game.ply < MAX_ACTIONS:
        if game.state == "won":
            played.end = "won"
            break
        key = game.position.key()
        if key in seen:
            played.end = "repeat"
            break
        seen.add(key)
        if kind == "view" and len(seen) % PROBE_EVERY == 1:
            played.probes.append(game.position.copy())
        cpu, wall = time.process_time(), time.perf_counter()
        move = advise(game)
        played.cpu.append(time.process_time() - cpu)
        played.wall.append(time.perf_counter() - wall)
        if move is None:
            played.end = "no hint"
            break
        game.play(move)
    played.actions = game.ply
    return played


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


HEADER = [
    "variant", "deals", "won: view", "won: all-seeing", "points",
    "latency ms CPU p50/p95/max", "wall p50/p95", "> 1 s",
    "run ms CPU: view p50/p95", "all-seeing p50/p95", "ends: repeat/cap", "hints/deal",
]  # fmt: skip


def row(label: str, results: list[Played], latency: list[tuple[float, float]]) -> list[str]:
    """The table's row for one variant: ``results`` of both kinds, every deal, and the
    (CPU, wall) seconds of the players' hint at the default budget on the probes."""
    by_kind = {kind: [r for r in results if r.kind == kind] for kind in KINDS}
    view, seeing = by_kind["view"], by_kind["all-seeing"]
    won = {kind: sum(r.won for r in rows) for kind, rows in by_kind.items()}
    share = {kind: 100 * won[kind] / len(rows) if rows else 0.0 for kind, rows in by_kind.items()}
    cpu = [t for t, _ in latency]
    wall = [t for _, t in latency]
    run = [t for r in view for t in r.cpu]
    seeing_cpu = [t for r in seeing for t in r.cpu]
    both = view and seeing

    def spread(values: list[float], top: bool = False) -> str:
        if not values:
            return "-"
        figures = [percentile(values, 0.5), percentile(values, 0.95)] + [max(values)] * top
        return " / ".join(ms(value) for value in figures)

    return [
        label,
        f"{max(len(view), len(seeing))}",
        f"{won['view']} ({share['view']:.0f}%)" if view else "-",
        f"{won['all-seeing']} ({share['all-seeing']:.0f}%)" if seeing else "-",
        f"{share['view'] - share['all-seeing']:+.0f}" if both else "-",
        spread(cpu, top=True),
        spread(wall),
        f"{sum(t > SERVER_CAP_S for t in cpu)} of {len(cpu)}",
        spread(run),
        spread(seeing_cpu),
        " / ".join(f"{sum(r.end == end for r in view)}" for end in ("repeat", "cap")),
        f"{statistics.mean(len(r.cpu) for r in view):.0f}" if view else "-",
    ]


def table(rows: list[list[str]]) -> str:
    widths = [max(len(line[i]) for line in [HEADER, *rows]) for i in range(len(HEADER))]

    def text(cells: list[str]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True))

    return "\n".join([text(HEADER), "  ".join("-" * w for w in widths), *map(text, rows)])


def _play(job: tuple[Setup, int, str, HintBudget, bool]) -> Played:
    return play(*job)


def _to_row(played: Played, rules: hint_results.Rules) -> str:
    return hint_results.line(
        played.label, played.seed, played.kind, played.end, played.actions, played.cpu, rules
    )


def _from_row(row: dict[str, object]) -> Played:
    """A game of the results file (no wall times, no positions kept for the latency)."""
    cpu = [float(t) for t in row["cpu"]]  # type: ignore[attr-defined]
    return Played(
        str(row["variant"]), int(str(row["seed"])), str(row["kind"]), str(row["end"]),
        int(str(row["actions"])), cpu, [0.0] * len(cpu),
    )  # fmt: skip


def timed(setup: Setup, positions: list[Position]) -> list[tuple[float, float]]:
    """(CPU, wall) seconds of the players' hint at the default budget, as the server asks
    it (sampling seed 0, nothing to avoid; positions only, no clock), at each position."""
    rules = STANDARD.rules(setup.variant, dict(setup.options))
    times = []
    for position in positions:
        view = PlayerView.seen(rules, position)
        cpu, wall = time.process_time(), time.perf_counter()
        hint(view, rules, sampling_seed=0, budget=DEFAULT_HINT_BUDGET)
        times.append((time.process_time() - cpu, time.perf_counter() - wall))
    return times


def probes(results: list[Played], count: int) -> list[Position]:
    """``count`` of the positions the players' hint was asked at, spread evenly over all
    of them (deal by deal, in order)."""
    kept = [p for r in sorted(results, key=lambda r: r.seed) if r.kind == "view" for p in r.probes]
    if len(kept) <= count:
        return kept
    return [kept[i * len(kept) // count] for i in range(count)]


def _cost(job: tuple[Setup, int, str, HintBudget, bool]) -> int:
    """Dearest first within a seed, so that the pool does not end on one long game: the
    players' hint of the games with a stock and many moves costs the most (measured).
    The seeds go in order, both hints of a deal together, so that a run stopped early
    (``--results``) compares the two hints over the same deals."""
    setup, _, kind, _, _ = job
    order = ("gypsy", "thumb_and_pouch", "westhaven", "osmosis", "freecell")
    rank = order.index(setup.variant) if setup.variant in order else 0
    return rank * 2 + (kind != "view")


def main(argv: Sequence[str] | None = None) -> None:
    about = __doc__.split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench hint", description=about)
    parser.add_argument("--deals", type=int, default=100, help="deals per variant (default 100)")
    parser.add_argument(
        "--first", "--first-seed", type=int, default=1, help="the first seed (default 1)"
    )
    parser.add_argument(
        "--variants",
        default=",".join(VARIANTS),
        help="comma-separated, options after colons: osmosis:deal_three (default the five)",
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_HINT_BUDGET.samples,
        help=f"the players' hint's arrangements (default {DEFAULT_HINT_BUDGET.samples})",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=DEFAULT_HINT_BUDGET.positions,
        help=f"positions per arrangement (default {DEFAULT_HINT_BUDGET.positions}); "
        "the all-seeing hint gets samples x positions",
    )
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help="view, all-seeing or both (default both)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--no-avoid",
        action="store_true",
        help="the player does not tell the hints where it has been (as the server did before)",
    )
    parser.add_argument("--log", action="store_true", help="a line per game as it ends")
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="a JSON-lines file: each game appended as it ends, those there not played again "
        "(the player's figure: bench/results/hint_games.jsonl)",
    )
    args, _ = parser.parse_known_args(argv)
    budget = HintBudget(samples=args.samples, positions=args.positions)
    setups = [Setup.parse(text) for text in args.variants.split(",") if text]
    kinds = [k for k in args.kinds.split(",") if k]
    if unknown := set(kinds) - set(KINDS):
        parser.error(f"no hint kind {', '.join(sorted(unknown))}: {', '.join(KINDS)}")
    avoid = not args.no_avoid
    seeds = range(args.first, args.first + args.deals)
    started = time.perf_counter()
    default = DEFAULT_HINT_BUDGET
    print(
        f"hint: {args.deals} deals per variant (seeds {seeds.start}..{seeds.stop - 1}); "
        f"quality: players' hint {budget.samples} samples x {budget.positions} positions, "
        f"all-seeing {budget.samples * budget.positions} positions, hints "
        f"{'told' if avoid else 'not told'} where the player has been; latency: the "
        f"players' hint at the default budget ({default.samples} x {default.positions}) on up "
        f"to {PROBES} of those positions per variant; {args.jobs} process(es); "
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}, Python {platform.python_version()}",
        flush=True,
    )
    jobs = [
        (setup, seed, kind, budget, avoid) for setup in setups for kind in kinds for seed in seeds
    ]
    jobs.sort(key=lambda job: (job[1], _cost(job)))
    results: dict[str, list[Played]] = {setup.label: [] for setup in setups}
    latency: dict[str, list[tuple[float, float]]] = {setup.label: [] for setup in setups}
    followed = hint_results.Rules(budget.samples, budget.positions, avoid)
    known = hint_results.played(hint_results.load(args.results), followed) if args.results else {}
    for setup, seed, kind, _, _ in jobs:
        if (game := known.get((setup.label, seed, kind))) is not None:
            results[setup.label].append(_from_row(game))
    jobs = [job for job in jobs if (job[0].label, job[1], job[2]) not in known]
    if reused := sum(map(len, results.values())):
        print(f"  {reused} games from {args.results}, not played again", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(_play, job) for job in jobs]
        for done, future in enumerate(as_completed(futures), 1):
            played = future.result()
            results[played.label].append(played)
            if args.results:
                args.results.parent.mkdir(parents=True, exist_ok=True)
                with args.results.open("a") as out:
                    out.write(_to_row(played, followed) + "\n")
            if args.log:
                print(
                    f"    {played.label} {played.seed} {played.kind}: {played.end} after "
                    f"{played.actions} actions, {len(played.cpu)} hints, {sum(played.cpu):.1f} s",
                    flush=True,
                )
            if done % max(1, len(jobs) // 20) == 0 or done == len(jobs):
                elapsed = time.perf_counter() - started
                print(f"  {done} of {len(jobs)} games in {elapsed:.0f} s", flush=True)
        timing = {
            pool.submit(timed, setup, chunk): setup.label
            for setup in setups
            for kept in [probes(results[setup.label], PROBES)]
            for chunk in (kept[i : i + 10] for i in range(0, len(kept), 10))
        }
        for timed_future in as_completed(timing):
            latency[timing[timed_future]].extend(timed_future.result())
        print(f"  latency timed in {time.perf_counter() - started:.0f} s", flush=True)
    print()
    print(table([row(label, results[label], latency[label]) for label in results]))
    print(
        f"(all of it took {time.perf_counter() - started:.0f} s; load {os.getloadavg()[0]:.1f})",
        flush=True,
    )


if __name__ == "__main__":
    main()
