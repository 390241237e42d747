"""``patience-club solve VARIANT SEED [--option k=v] [--budget-seconds S]``.

Prints the verdict, the winning line (when there is one), the positions
searched and the time. The solver is clock-free; this command hands it the
clock, so its budget is in seconds (positions can be capped as well).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from shared.errors import InvalidOptions
from shared.protocol import MAX_SEED
from shared.solver import Budget, solve
from shared.variants import STANDARD


def parse_option(text: str) -> tuple[str, bool | int]:
    """``deal_three=true`` -> ("deal_three", True); values are true/false or integers."""
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{text!r} is not NAME=VALUE")
    value = raw.strip().lower()
    if value in ("true", "false"):
        return name.strip(), value == "true"
    try:
        return name.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: an option value is true, false or an integer"
        ) from None


def seed_number(text: str) -> int:
    """A deal number, 1 .. 2**31 - 1 (the numbered deals of docs/rules.md); anything else is a usage
    error that says so."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a deal number") from None
    if not 1 <= seed <= MAX_SEED:
        raise argparse.ArgumentTypeError(
            f"{seed} is outside the deal numbers 1 .. {MAX_SEED} (2**31 - 1)"
        )
    return seed


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve", help="solve a deal: won (with the line), unwinnable or unknown"
    )
    parser.add_argument("variant", choices=sorted(STANDARD.ids), help="variant id")
    parser.add_argument("seed", type=seed_number, help="deal number, 1 .. 2**31 - 1")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        type=parse_option,
        metavar="K=V",
        help="a variant option, e.g. deal_three=true (repeatable)",
    )
    parser.add_argument(
        "--budget-seconds", type=float, default=10.0, metavar="S", help="time limit (default 10)"
    )
    parser.add_argument(
        "--budget-positions",
        type=int,
        default=None,
        metavar="N",
        help="stop after N positions as well (deterministic)",
    )


def run(args: argparse.Namespace) -> int:
    options = dict(args.option)
    budget = Budget(
        positions=args.budget_positions, seconds=args.budget_seconds, clock=time.perf_counter
    )
    try:
        result = solve(args.variant, args.seed, options, budget)
    except InvalidOptions as error:
        print(f"error: {error}")
        return 2
    print(f"verdict: {result.verdict}")
    if result.line:
        print(f"line ({len(result.line)} actions): {' '.join(result.line)}")
    print(f"positions: {result.positions}")
    print(f"time: {result.seconds:.3f} s")
    return 0
