"""docs/winnability.md from the winnability benchmark's rows, and the interval it gives.

The interval is Solvitaire's (Blake and Gent): an exact (Clopper-Pearson) binomial
interval at 95%, computed once with the undecided deals counted as lost and once as
won; the page gives the union of the two.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from pathlib import Path

from bench.hint_results import PlayerRow

NAMES = {
    "osmosis": "Osmosis",
    "osmosis:deal_three": "Osmosis, `deal_three`",
    "thumb_and_pouch": "Thumb and Pouch",
    "gypsy": "Gypsy",
    "freecell": "Freecell",
    "westhaven": "Westhaven",
}


@dataclass(frozen=True)
class Row:
    label: str
    deals: int
    first_seed: int
    last_seed: int
    won: int
    unwinnable: int
    undecided: int
    not_replayed: int
    cpu_mean: float
    cpu_median: float
    cpu_p95: float
    cpu_max: float
    budget: float


def _log_pmf(n: int, k: int, p: float) -> float:
    return (
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def binomial_cdf(n: int, k: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    if k < 0:
        return 0.0
    if k >= n or p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0
    return min(1.0, math.fsum(math.exp(_log_pmf(n, i, p)) for i in range(k + 1)))


def _solve(f: object, target: float, increasing: bool) -> float:
    """The p in [0, 1] where the monotone f(p) crosses ``target`` (bisection)."""
    assert callable(f)
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        below = f(mid) < target
        if below == increasing:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def clopper_pearson(k: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """The exact two-sided binomial interval for ``k`` successes in ``n`` trials."""
    if n <= 0:
        return 0.0, 1.0
    alpha = 1 - confidence
    # lower: P(X >= k | p) = alpha / 2, i.e. 1 - cdf(k - 1) rises with p
    lower = 0.0 if k == 0 else _solve(lambda p: 1 - binomial_cdf(n, k - 1, p), alpha / 2, True)
    # upper: P(X <= k | p) = alpha / 2, falling with p
    upper = 1.0 if k == n else _solve(lambda p: binomial_cdf(n, k, p), alpha / 2, False)
    return lower, upper


def solvitaire_interval(won: int, undecided: int, deals: int) -> tuple[float, float]:
    """The union of the intervals with the undecided deals lost and with them won."""
    low, _ = clopper_pearson(won, deals)
    _, high = clopper_pearson(won + undecided, deals)
    return low, high


def _pct(x: float, digits: int = 2) -> str:
    return f"{100 * x:.{digits}f}%"


def table(rows: list[Row], target: int = 0) -> list[str]:
    """The table; a row short of ``target`` deals says how far it got ("240 of 10,000 so
    far")."""
    lines = [
        "| variant | deals (seeds) | won | unwinnable | undecided | decided |"
        " winnable, 95% interval | CPU per deal: mean / median / p95 / max |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        low, high = solvitaire_interval(r.won, r.undecided, r.deals)
        lines.append(
            f"| {NAMES.get(r.label, r.label)} | {_count(r.deals, target)}"
            f" ({r.first_seed}-{r.last_seed}) |"
            f" {r.won} | {r.unwinnable} | {r.undecided} |"
            f" {_pct((r.won + r.unwinnable) / r.deals)} |"
            f" {_pct(r.won / r.deals)} ({_pct(low)} - {_pct(high)}) |"
            f" {r.cpu_mean:.2f} / {r.cpu_median:.2f} / {r.cpu_p95:.2f} / {r.cpu_max:.2f} s |"
        )
    return lines


def _count(deals: int, target: int) -> str:
    return f"{deals:,} of {target:,} so far" if deals < target else f"{deals:,}"


def _reached(rows: list[Row], target: int) -> list[str]:
    """A warning when the run has not reached the deals it was asked for."""
    short = [r for r in rows if r.deals < target]
    if not short:
        return []
    fewest = min(r.deals for r in rows)
    return [
        f"**The run was asked for {target:,} deals a variant and had reached {fewest:,} to"
        f" {max(r.deals for r in rows):,} when this page was written**: the figures are",
        "over those deals only, and a rerun of the command continues it.",
        "",
    ]


def write_page(
    path: Path,
    rows: list[Row],
    command: str,
    machine: str,
    target: int,
    note: str = "",
    players: list[tuple[PlayerRow, int]] | None = None,
) -> None:
    """The page; ``note``: a paragraph about the run (how it was run, what held it back);
    ``players``: the player's figure, each with the solver's wins over the same deals."""
    budgets = sorted({r.budget for r in rows})
    budget = ", ".join(f"{b:g}" for b in budgets) or "10"
    broken = sum(r.not_replayed for r in rows)
    freecell = next((r for r in rows if r.label == "freecell"), None)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# How winnable are Aisleriot's games?",
        "",
        "The share of deals of each variant (Aisleriot's rules, as `shared/variants`",
        "implements them) that can be won, by the solver of `shared/solver`",
        "(docs/solver.md): each deal is searched until it is won (a line that the engine",
        "replays to a win: every won line below was replayed before it was counted),",
        "proven lost (`unwinnable`: every position reachable from the deal was seen,",
        "less only those the pruning rules of docs/solver.md prove cannot matter; the",
        "results file gives the positions each verdict took), or",
        f"the budget of {budget} s of CPU time runs out (`undecided`).",
        "",
        f"Generated by `{command}` ({stamp}; {machine}; the run's CPU budget is per deal,",
        "so a loaded machine takes longer in wall time but decides the same deals).",
        "The results, one line per deal, are in `bench/results/winnability.jsonl`; a rerun",
        "continues where the file ends.",
        "",
        *table(rows, target),
        "",
        *_reached(rows, target),
        *([note, ""] if note else []),
        "The interval is computed as Solvitaire computes its own (Blake and Gent): an",
        "exact (Clopper-Pearson) 95% binomial interval once with the undecided deals",
        "counted as lost and once as won, and the union of the two. The first figure is",
        "the share won (the undecided counted as lost). Each row is over the number of",
        "deals it says: the seeds in order from the first given (Freecell's seeds are",
        "Microsoft's deal numbers). Seeds 100001 on were never used to tune the solver.",
        "",
        f"Won lines that did not replay to a win: **{broken}**.",
        "",
        "## Freecell beside the published figures",
        "",
        "| source | deals | winnable |",
        "| --- | --- | --- |",
        "| Solvitaire (Blake and Gent) | 10 million random deals | 99.998881% +/- 0.000207%"
        " (none undecided) |",
        "| fc-solve | Microsoft deals 1-32,000 | all but 11982 (99.996875%) |",
    ]
    if freecell is not None:
        low, high = solvitaire_interval(freecell.won, freecell.undecided, freecell.deals)
        out.append(
            f"| this solver | Microsoft deals {freecell.first_seed}-{freecell.last_seed}"
            f" ({freecell.deals}) | {freecell.won} won, {freecell.unwinnable} unwinnable,"
            f" {freecell.undecided} undecided: {_pct(freecell.won / freecell.deals, 3)}"
            f" ({_pct(low, 3)} - {_pct(high, 3)}) |"
        )
    out += [
        "",
        "The Freecell row is over far fewer deals than Solvitaire's, so its interval is",
        "far wider; it agrees with both. Its undecided deals are ones the portfolio",
        "neither won nor exhausted within the budget (Freecell's lost deals are rare and",
        "their proofs long: 11982's takes about 2 s of CPU alone, docs/solver.md).",
        "",
        *player_section(players or []),
    ]
    path.write_text("\n".join(out) + "\n")


def _seeds(seeds: tuple[int, ...]) -> str:
    """``100001-100020``, or the first and last with the count missing between them."""
    span = seeds[-1] - seeds[0] + 1
    missing = f", {span - len(seeds)} missing" if span != len(seeds) else ""
    return f"{seeds[0]}-{seeds[-1]}{missing}"


def player_section(players: list[tuple[PlayerRow, int]]) -> list[str]:
    """The player's figure: how many of the same deals a player who always plays the
    view-only hint wins (bench/results/hint_games.jsonl), beside the solver's wins."""
    out = [
        "## A player's figure",
        "",
        "A player who always plays the players' hint (the view-only one, at the server's",
        "budget of 8 x 1,500 positions, told where it has been, as the server asks it),",
        "from the first deal of the table above on: `python -m bench hint --first 100001",
        "--deals N --kinds view --variants V --results bench/results/hint_games.jsonl`",
        "(resumable; `python -m bench winnability --report --first-seed 100001 --deals",
        "10000` rewrites this page from both files). The solver column is the table's",
        "verdicts over the same deals.",
        "",
    ]
    if not players:
        return [*out, "Not measured yet: no game in bench/results/hint_games.jsonl.", ""]
    out += [
        "| variant | deals (seeds) | won by the hint player | won by the solver |",
        "| --- | --- | --- | --- |",
    ]
    order = list(NAMES)
    for player, solver in sorted(
        players, key=lambda p: order.index(p[0].label) if p[0].label in order else len(order)
    ):
        name = NAMES.get(player.label, player.label)
        out.append(
            f"| {name} | {player.deals} ({_seeds(player.seeds)}) | "
            f"{player.won} ({_pct(player.won / player.deals, 0)}) | "
            f"{solver} ({_pct(solver / player.deals, 0)}) |"
        )
    return [*out, ""]


__all__ = [
    "NAMES",
    "Row",
    "binomial_cdf",
    "clopper_pearson",
    "player_section",
    "solvitaire_interval",
    "write_page",
]
