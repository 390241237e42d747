"""The hint benchmark's results file: one JSON line per followed game, so that a run
can be stopped and continued, and the player's figure of docs/winnability.md read
from it.

A line says the game (variant label, seed, which hint), the rules it was played by
(the budget, whether the hints were told where the player had been) and how it
ended, with the CPU seconds of each hint. A game already in the file under the
same rules is not played again (``python -m bench hint --results FILE``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from shared.solver import DEFAULT_HINT_BUDGET

#: where ``python -m bench hint --results`` keeps the player's games by default, and
#: ``python -m bench winnability`` reads the player's figure from
RESULTS = Path(__file__).parent / "results" / "hint_games.jsonl"


@dataclass(frozen=True)
class Rules:
    """How a game was followed: the players' hint's budget and whether it was told."""

    samples: int
    positions: int
    avoid: bool

    @property
    def served(self) -> bool:
        """The server's own budget, told where the player has been (as ``hint_job`` asks)."""
        default = DEFAULT_HINT_BUDGET
        return (self.samples, self.positions, self.avoid) == (
            default.samples,
            default.positions,
            True,
        )


def line(label: str, seed: int, kind: str, end: str, actions: int, cpu: list[float],
         rules: Rules) -> str:  # fmt: skip
    """The JSON line of one followed game."""
    return json.dumps(
        {
            "variant": label,
            "seed": seed,
            "kind": kind,
            "end": end,
            "actions": actions,
            "cpu": [round(t, 4) for t in cpu],
            "samples": rules.samples,
            "positions": rules.positions,
            "avoid": rules.avoid,
        }
    )


def load(path: Path) -> list[dict[str, object]]:
    """Every line of ``path`` (none when it does not exist)."""
    if not path.exists():
        return []
    return [json.loads(text) for text in path.read_text().splitlines() if text.strip()]


def rules_of(row: dict[str, object]) -> Rules:
    return Rules(int(str(row["samples"])), int(str(row["positions"])), bool(row["avoid"]))


def played(
    rows: Iterable[dict[str, object]], rules: Rules
) -> dict[tuple[str, int, str], dict[str, object]]:
    """The games of ``rows`` followed under ``rules``, by (label, seed, kind); the last
    line of a game counts."""
    return {
        (str(r["variant"]), int(str(r["seed"])), str(r["kind"])): r
        for r in rows
        if rules_of(r) == rules
    }


@dataclass(frozen=True)
class PlayerRow:
    """The view-only hint player's wins over one variant's deals, at the server's budget."""

    label: str
    seeds: tuple[int, ...]
    won: int

    @property
    def deals(self) -> int:
        return len(self.seeds)


def player_rows(rows: Iterable[dict[str, object]], first: int, deals: int) -> list[PlayerRow]:
    """Per variant label, the view-only games at the server's budget (told where the
    player has been) over seeds ``first .. first + deals - 1``: the player's figure."""
    served = Rules(DEFAULT_HINT_BUDGET.samples, DEFAULT_HINT_BUDGET.positions, True)
    games = played(rows, served)
    out = []
    for label in dict.fromkeys(label for label, _, _ in games):
        seeds = sorted(
            seed
            for (name, seed, kind) in games
            if name == label and kind == "view" and first <= seed < first + deals
        )
        if seeds:
            won = sum(games[(label, seed, "view")]["end"] == "won" for seed in seeds)
            out.append(PlayerRow(label, tuple(seeds), won))
    return out


__all__ = ["RESULTS", "PlayerRow", "Rules", "line", "load", "played", "player_rows", "rules_of"]
