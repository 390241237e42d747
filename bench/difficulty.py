"""``python -m bench difficulty``: difficulty measures of won deals, checked by play.

Solves ``--deals`` keyed deals per variant as the deal pool's workers do
(server/deals/difficulty.py: the variant's search within its
``daily_positions``). For each won deal it takes the measures a difficulty
could be made of:

- ``positions``: the positions the search visited before its win;
- ``line``: the length of the winning line found;
- ``blind``: how many of ``ARRANGEMENTS`` arrangements of the cards the
  player cannot see at the deal (the unseen cards dealt into the face-down
  places anew, as the players' hint does) the same search wins within
  ``BLIND_POSITIONS`` positions: few, a win that hangs on where the hidden
  cards lie, which a player who cannot see them must guess (the measure of
  ``server/deals/difficulty.py``, where it is defined and why);
- ``hardness``: the arrangements lost, plus the share of the daily budget the
  deal's own search took (``Measure.hardness``: the measure the server uses).

Then (``--play``) it follows every won deal with the view-only hint player of
bench/hint.py (told where it has been, as the server's hint is; the hint
budget ``--samples`` x ``--positions``) to its end, and prints, per measure,
the player's win rate in each third of the won deals by that measure (the
easiest third first): a measure worth having wins more in its easy third
than in its hard one. Last, the thresholds (the thirds) of the chosen
measure, per variant. The keys are SHA-256 of ``bench/difficulty|VARIANT|n``,
so a run is repeatable; ``--first`` starts elsewhere (deals the measure was
never set on)::

    python -m bench difficulty --deals 60 --play --variants osmosis
    python -m bench difficulty --deals 40 --play --positions 200 --variants thumb_and_pouch
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.hint import MAX_ACTIONS, VARIANTS, adviser
from server.deals.difficulty import Measure, difficulty_of, hardness_of, measure
from shared.games import new_game
from shared.solver import DEFAULT_HINT_BUDGET, HintBudget

MEASURES = ("positions", "line", "blind", "hardness")
LABELS = ("easy", "medium", "hard")


def key_of(variant: str, n: int) -> bytes:
    return hashlib.sha256(f"bench/difficulty|{variant}|{n}".encode()).digest()


@dataclass(frozen=True)
class Deal:
    variant: str
    n: int
    measure: Measure | None
    won_by_player: bool | None = None

    def value(self, name: str) -> float:
        """The measure ``name``, larger for harder deals."""
        assert self.measure is not None
        m = self.measure
        values = {"positions": m.positions, "line": m.line, "blind": -m.blind}
        return hardness_of(self.variant, m) if name == "hardness" else values[name]


def followed(variant: str, key: bytes, budget: HintBudget) -> bool:
    """Whether the view-only hint player, told where it has been, wins the deal of ``key``."""
    game = new_game(variant, key=key)
    advise = adviser("view", budget, avoid=True)
    seen: set[object] = set()
    while game.ply < MAX_ACTIONS and game.state == "playing":
        position = game.position.key()
        if position in seen:
            return False
        seen.add(position)
        move = advise(game)
        if move is None:
            return False
        game.play(move)
    return game.state == "won"


def one(job: tuple[str, int, bool, HintBudget]) -> Deal:
    variant, n, play, budget = job
    key = key_of(variant, n)
    game = new_game(variant, key=key)
    found = measure(game, seconds=10.0, clock=time.process_time)
    if found is None:
        return Deal(variant, n, None)
    return Deal(variant, n, found, followed(variant, key, budget) if play else None)


def thirds(deals: list[Deal], name: str) -> list[list[Deal]]:
    """The deals in three equal parts by measure ``name``, easiest first (ties by number)."""
    ordered = sorted(deals, key=lambda d: (d.value(name), d.n))
    size = len(ordered)
    return [ordered[i * size // 3 : (i + 1) * size // 3] for i in range(3)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench difficulty")
    parser.add_argument("--deals", type=int, default=40, help="keyed deals solved per variant")
    parser.add_argument("--first", type=int, default=0, help="the first deal number (default 0)")
    parser.add_argument("--play", action="store_true", help="follow each with the hint player")
    parser.add_argument("--samples", type=int, default=DEFAULT_HINT_BUDGET.samples)
    parser.add_argument("--positions", type=int, default=DEFAULT_HINT_BUDGET.positions)
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--log", action="store_true", help="a line per won deal")
    args = parser.parse_args(argv)
    budget = HintBudget(samples=args.samples, positions=args.positions)
    print(
        f"{args.deals} keyed deals per variant from {args.first}, daily budget; "
        f"hint player {f'{budget.samples} x {budget.positions}' if args.play else 'off'}",
        flush=True,
    )
    for variant in args.variants.split(","):
        started = time.perf_counter()
        jobs = [(variant, n, args.play, budget) for n in range(args.first, args.first + args.deals)]
        with ProcessPoolExecutor(args.jobs) as pool:
            deals = [d for d in pool.map(one, jobs) if d.measure is not None]
        print(
            f"{variant}: won {len(deals)}/{args.deals} ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        for d in deals if args.log else ():
            m = d.measure
            assert m is not None
            print(
                f"    {variant} {d.n}: positions {m.positions}, line {m.line}, blind {m.blind}, "
                f"player {d.won_by_player}",
                flush=True,
            )
        if len(deals) < 3:
            continue
        for name in MEASURES:
            parts = thirds(deals, name)
            values = [statistics.median(abs(d.value(name)) for d in part) for part in parts]
            words = "; ".join(
                f"{label} (median {value:.{2 if name == 'hardness' else 0}f})"
                + (
                    f" won {sum(bool(d.won_by_player) for d in part)}/{len(part)}"
                    if args.play
                    else ""
                )
                for label, part, value in zip(LABELS, parts, values, strict=True)
            )
            print(f"  {name}: {words}", flush=True)
        if args.play:  # the server's labels (THRESHOLDS): deals they were not set on?
            labels = [difficulty_of(variant, d.value("hardness")) for d in deals]
            pairs = list(zip(deals, labels, strict=True))
            words = "; ".join(
                f"{label} won {sum(bool(d.won_by_player) for d, x in pairs if x == label)}"
                f"/{labels.count(label)}"
                for label in LABELS
            )
            print(f"  by the server's thresholds: {words}", flush=True)
        parts = thirds(deals, "hardness")
        cuts = [parts[0][-1].value("hardness"), parts[1][-1].value("hardness")]
        print(f"  hardness thresholds (the thirds' last): {cuts[0]:.3f} / {cuts[1]:.3f}")
